"""Loops over tiny states on the host as generated code on NumPy scalars.

A loop whose every value is tiny (an RK4 step of a 2-vector, a scalar Newton iteration, the
reverse sweep of either) spends its time in NumPy's per-call overhead: each step is a few
dozen ufunc and indexing calls on 2-element arrays, about 1 us each.  `scalar_scan` and
`scalar_while` write such a loop as one Python function in which every *element* of every
value is its own NumPy scalar of the value's dtype: a ufunc becomes one operator (or one call)
per element, and the structural primitives (slices, squeezes, stacks, pads, reshapes,
broadcasts, transposes, ...) cost nothing at run time -- they only decide which element
names the later lines read.

Results are the same numbers as the array code: NumPy's scalar arithmetic (``np.float32(a) *
np.float32(b)``) rounds each operation to the operands' dtype as the ufunc does, a ufunc
called on scalars runs the same inner loop, and every value keeps its traced dtype.  Where a
step has anything else (a reduction, a contraction, a gather, an effect, a float16 or complex
value) or where the per-element code would cost more than the array code, these functions
return None and the loop runs as before (`core.executor.host_scan` / `host_loop`).

Example::

    >>> import fgrad, numpy as np
    >>> jx = fgrad.make_jaxpr(lambda c, x: (c * 0.5 + x, c))(np.float32(1), np.float32(2)).jaxpr
    >>> run = scalar_scan(jx, 0, 1, 3, False)
    >>> [np.asarray(o).tolist() for o in run([np.float32(1), np.arange(3, dtype=np.float32)])]
    [2.625, [1.0, 0.5, 1.25]]
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from . import native_loops
from .ir import Jaxpr, Literal, has_effects

MAX_ELEMENTS = 64  # the largest value (elements) a scalarized loop holds
MAX_LINES = 4000  # the longest step (lines): compiling longer source would cost the first call

# primitives that only move elements: run once at generation time on arrays of element labels
_STRUCTURAL = frozenset({"slice", "squeeze", "reshape", "broadcast_in_dim", "stack", "unstack",
                         "concatenate", "pad", "transpose", "rev", "expand_dims", "copy", "copy_p"})

# ufuncs written as a Python operator on NumPy scalars: NumPy's scalar math, same result and type
# (the tables live in `native_loops`, which writes the same operators in C)
_BINARY, _FLOAT_BINARY = native_loops.BINARY_OPERATORS, native_loops.FLOAT_BINARY_OPERATORS
_UNARY, _BOOL_OPERATORS = native_loops.UNARY_OPERATORS, native_loops.BOOL_OPERATORS

# rough per-step costs (us) used to decide whether the scalar code pays
_OPERATOR_US, _CALL_US, _ARRAY_EQN_US, _ELEMENT_IO_US = 0.05, 0.5, 1.0, 0.15


class _Ineligible(Exception):
    """The step has something the scalar code does not handle: the array loop runs it."""


def scalar_scan(jaxpr: Jaxpr, n_consts: int, n_carry: int, length: int, reverse: bool) -> Callable | None:
    """``run(bufs) -> final carry + stacked ys`` for a scan step (the arguments of
    `core.executor.host_scan`) whose values are all tiny, as generated code on NumPy scalars;
    None where the step does not qualify or would not be faster so.  NumPy's error reports
    are left as the caller set them (the loops run with them off)."""
    try:
        gen = _Gen(jaxpr, n_consts)
    except _Ineligible:
        return None
    invars = jaxpr.invars
    xs_vars = invars[n_consts + n_carry:]
    io = sum(_size(v) for v in xs_vars) + sum(_size(v) for v in jaxpr.outvars[n_carry:])
    if gen.cost_us + io * _ELEMENT_IO_US >= gen.array_us:
        return None
    head = ["def run(bufs):"]
    for k, v in enumerate(invars[:n_consts + n_carry]):
        head.append(f"    {_lhs(gen.names[v])} = _elems(bufs[{k}], {gen.dt(v)}, {_size(v)})")
    for k, v in enumerate(xs_vars):
        head.append(f"    xs{k} = _rows(bufs[{n_consts + n_carry + k}], {gen.dt(v)}, {length})")
    ys = [[f"ys{k}_{j}" for j in range(_size(v))] for k, v in enumerate(jaxpr.outvars[n_carry:])]
    for cols in ys:
        head += [f"    {c} = []" for c in cols]
    steps = f"range({length - 1}, -1, -1)" if reverse else f"range({length})"
    head += ["    " + ln for ln in gen.pre] + [f"    for i in {steps}:"]
    body = [f"{_lhs(gen.names[v])} = xs{k}[i]" if _size(v) > 1 else f"{gen.names[v][0]} = xs{k}[i]"
            for k, v in enumerate(xs_vars) if _size(v)]
    body += gen.lines
    for cols, v in zip(ys, jaxpr.outvars[n_carry:]):
        body += [f"{c}.append({n})" for c, n in zip(cols, gen.elems(v))]
    carry_in = [n for v in invars[n_consts:n_consts + n_carry] for n in gen.names[v]]
    carry_out = [n for v in jaxpr.outvars[:n_carry] for n in gen.elems(v)]
    if carry_in:
        body.append(f"{', '.join(carry_in)}, = {', '.join(carry_out)},")
    outs = []
    for v in invars[n_consts:n_consts + n_carry]:
        outs.append(f"_array(({', '.join(gen.names[v])},), {gen.dt(v)}, {tuple(v.aval.shape)})")
    for cols, v in zip(ys, jaxpr.outvars[n_carry:]):
        shape = (length,) + tuple(v.aval.shape)
        outs.append(f"_stacked([{', '.join(cols)}], {gen.dt(v)}, {shape}, {reverse})")
    tail = [f"    return [{', '.join(outs)}]"]
    src = "\n".join(head + ["        " + ln for ln in body or ["pass"]] + tail) + "\n"
    run = gen.compile(src)
    if not gen.c_ok:
        return run
    return native_loops.scan_runner(*_c_scan(gen, jaxpr, n_consts, n_carry, length, reverse), run)


def scalar_while(jaxpr: Jaxpr, n_consts: int, n_first: int) -> Callable | None:
    """``run(bufs) -> final carry`` for a while loop's joined step (the arguments of
    `core.executor.host_loop`; its first ``n_first`` equations compute the condition) whose
    values are all tiny, as generated code on NumPy scalars; None where the step does not
    qualify or would not be faster so."""
    try:
        gen = _Gen(jaxpr, n_consts)
    except _Ineligible:
        return None
    if gen.cost_us >= gen.array_us or _size(jaxpr.outvars[0]) != 1:
        return None
    invars = jaxpr.invars
    head = ["def run(bufs):"]
    for k, v in enumerate(invars):
        head.append(f"    {_lhs(gen.names[v])} = _elems(bufs[{k}], {gen.dt(v)}, {_size(v)})")
    head += ["    " + ln for ln in gen.pre] + ["    while True:"]
    (pred,) = gen.elems(jaxpr.outvars[0])
    body = gen.lines[:gen.line_of[n_first]] + [f"if not {pred}:", "    break"]
    body += gen.lines[gen.line_of[n_first]:]
    carry_in = [n for v in invars[n_consts:] for n in gen.names[v]]
    carry_out = [n for v in jaxpr.outvars[1:] for n in gen.elems(v)]
    if carry_in:
        body.append(f"{', '.join(carry_in)}, = {', '.join(carry_out)},")
    outs = [f"_array(({', '.join(gen.names[v])},), {gen.dt(v)}, {tuple(v.aval.shape)})"
            for v in invars[n_consts:]]
    src = "\n".join(head + ["        " + ln for ln in body] + [f"    return [{', '.join(outs)}]"]) + "\n"
    run = gen.compile(src)
    if not gen.c_ok:
        return run
    return native_loops.while_runner(*_c_while(gen, jaxpr, n_consts, n_first), run)


def _c_read(gen, v, ptr: str, t: str = "in", index: str = "") -> list:
    """C lines declaring the elements of ``v`` read from ``in[k]`` (``ptr``: ``k``)."""
    lines = []
    for j, n in enumerate(gen.names[v]):
        lines.append(f"{gen.ctype[n]} {n} = ((const {gen.ctype[n]} *){t}[{ptr}])[{index}{j}];")
    return lines


def _c_assign(names: list, values: list, ctypes: list) -> list:
    """``names = values`` at once (a value may be one of the names)."""
    tmp = [f"{t} t_{k} = {v};" for k, (t, v) in enumerate(zip(ctypes, values))]
    return tmp + [f"{n} = t_{k};" for k, n in enumerate(names)]


def _prelude(gen) -> str:
    """The C prelude, with NumPy's loop table where a line calls one of NumPy's loops."""
    uses = any("np_f" in ln for ln in gen.c_lines + gen.c_pre)
    return native_loops.PRELUDE + (native_loops.NP_LOOP_PRELUDE if uses else "")


def _c_scan(gen, jaxpr: Jaxpr, n_consts: int, n_carry: int, length: int, reverse: bool):
    """The C source, the inputs' and the outputs' (dtype, shape) of the scan
    step of `scalar_scan` as one C function ``run_loop(in, out, _)``."""
    invars = jaxpr.invars
    n_head = n_consts + n_carry
    xs_vars, ys_vars = invars[n_head:], jaxpr.outvars[n_carry:]
    elems = [gen.elems(v) for v in jaxpr.outvars]  # (first: a literal's constant is declared below)
    lines = [_prelude(gen), "int run_loop(void **in, void **out, long budget_unused) {"]
    lines += ["  " + ln for ln in gen.c_consts]
    for k, v in enumerate(invars[:n_head]):
        lines += ["  " + ln for ln in _c_read(gen, v, str(k))]
    lines += ["  " + ln for ln in gen.c_pre]
    steps = f"long i = {length - 1}; i >= 0; i--" if reverse else f"long i = 0; i < {length}; i++"
    lines.append(f"  for ({steps}) {{")
    body = []
    for k, v in enumerate(xs_vars):
        body += _c_read(gen, v, str(n_head + k), index=f"i * {_size(v)} + ")
    body += gen.c_lines
    for k, v in enumerate(ys_vars):
        t = _ctype(v.aval.dtype)
        body += [f"(({t} *)out[{n_carry + k}])[i * {_size(v)} + {j}] = {n};"
                 for j, n in enumerate(elems[n_carry + k])]
    carry_in = [n for v in invars[n_consts:n_head] for n in gen.names[v]]
    carry_out = [n for names in elems[:n_carry] for n in names]
    body += _c_assign(carry_in, carry_out, [gen.ctype[n] for n in carry_in])
    lines += ["    " + ln for ln in body] + ["  }"]
    for k, v in enumerate(invars[n_consts:n_head]):
        t = _ctype(v.aval.dtype)
        lines += [f"  (({t} *)out[{k}])[{j}] = {n};" for j, n in enumerate(gen.names[v])]
    lines += ["  return 1;", "}"]
    ins = [(np.dtype(v.aval.dtype), tuple(v.aval.shape)) for v in invars[:n_head]]
    ins += [(np.dtype(v.aval.dtype), (length,) + tuple(v.aval.shape)) for v in xs_vars]
    outs = [(np.dtype(v.aval.dtype), tuple(v.aval.shape)) for v in invars[n_consts:n_head]]
    outs += [(np.dtype(v.aval.dtype), (length,) + tuple(v.aval.shape)) for v in ys_vars]
    return "\n".join(lines) + "\n", ins, outs


def _c_while(gen, jaxpr: Jaxpr, n_consts: int, n_first: int):
    """The C source and the inputs' (dtype, shape) of the while loop of `scalar_while` as one
    C function ``run_loop(in, out, budget)``: at most ``budget`` iterations, then the carry
    is written to ``out`` and it returns whether the loop ended."""
    invars = jaxpr.invars
    elems = [gen.elems(v) for v in jaxpr.outvars]  # (first: a literal's constant is declared below)
    lines = [_prelude(gen), "int run_loop(void **in, void **out, long budget) {"]
    lines += ["  " + ln for ln in gen.c_consts]
    for k, v in enumerate(invars):
        lines += ["  " + ln for ln in _c_read(gen, v, str(k))]
    lines += ["  " + ln for ln in gen.c_pre]
    lines += ["  int done = 0;", "  for (long it = 0; it < budget; it++) {"]
    (pred,) = elems[0]
    cut = gen.line_of[n_first]
    body = gen.c_lines[:cut] + [f"if (!{pred}) {{ done = 1; break; }}"] + gen.c_lines[cut:]
    carry_in = [n for v in invars[n_consts:] for n in gen.names[v]]
    carry_out = [n for names in elems[1:] for n in names]
    body += _c_assign(carry_in, carry_out, [gen.ctype[n] for n in carry_in])
    lines += ["    " + ln for ln in body] + ["  }"]
    for k, v in enumerate(invars[n_consts:]):
        t = _ctype(v.aval.dtype)
        lines += [f"  (({t} *)out[{k}])[{j}] = {n};" for j, n in enumerate(gen.names[v])]
    lines += ["  return done;", "}"]
    ins = [(np.dtype(v.aval.dtype), tuple(v.aval.shape)) for v in invars]
    return "\n".join(lines) + "\n", ins, n_consts


def _size(v) -> int:
    return math.prod(v.aval.shape)


def _lhs(names: list) -> str:
    return ", ".join(names) + ","


def _elems(x, dt, n: int):
    """The elements of ``x`` (C order) as scalars of ``dt`` (float64: Python floats)."""
    a = np.asarray(x, dt).reshape(n)
    return a.tolist() if dt is np.float64 else tuple(a)


def _rows(x, dt, length: int) -> list:
    """The scanned array ``x``: per step, its slice's element, or a tuple of its elements
    when the slice has more than one (as `_elems`)."""
    a = np.asarray(x, dt).reshape(length, -1)
    if dt is np.float64:
        return a[:, 0].tolist() if a.shape[1] == 1 else list(map(tuple, a.tolist()))
    return list(a[:, 0]) if a.shape[1] == 1 else list(zip(*a.T))


def _divide(a: float, b: float) -> float:
    """``a / b`` for float64 values held as Python floats whose divisor is zero (Python
    raises there): NumPy's inf or nan."""
    return float(np.divide(np.float64(a), b))


def _stacked(cols: list, dt, shape: tuple, reverse: bool):
    """The stacked ys of a scan from one list per element of a step's y (in step order)."""
    a = np.array(cols, dt).reshape(len(cols), shape[0])
    if reverse:
        a = a[:, ::-1]
    return np.ascontiguousarray(a.T).reshape(shape)


def _array(elems, dt, shape: tuple):
    return np.array(elems, dt).reshape(shape)


def _broadcast(names: list, v, out) -> list:
    """The element names of operand ``v`` of an elementwise equation broadcast (NumPy's rule)
    to the shape of its result ``out``."""
    shape, to = (() if len(names) == 1 else tuple(v.aval.shape)), tuple(out.aval.shape)
    if shape == to:
        return names
    try:
        idx = np.broadcast_to(np.arange(len(names)).reshape(shape), to)
    except ValueError as err:
        raise _Ineligible from err
    return [names[k] for k in idx.reshape(-1).tolist()]


def _held(x):
    """How the generated code holds the NumPy scalar ``x``: a float64 as a Python float
    (the same IEEE double, with Python's operators at a tenth of NumPy scalars' cost), any
    other dtype as itself."""
    return float(x) if type(x) is np.float64 else x


def _ctype(dt) -> str:
    return native_loops.CTYPE[np.dtype(dt).name]


def _plain(dt) -> bool:
    """NumPy's own bool, integer and float32/64 types (their scalar math is NumPy's loops')."""
    return dt.isbuiltin == 1 and dt.kind in "biuf" and not (dt.kind == "f" and dt.itemsize < 4)


class _Gen:
    """The per-element lines of a step: ``names[var]`` lists the names of its elements."""

    def __init__(self, jaxpr: Jaxpr, n_consts: int) -> None:
        self.ns: dict = {"np": np, "_elems": _elems, "_rows": _rows, "_array": _array, "_stacked": _stacked,
                         "_divide": _divide}
        self.names: dict = {}
        self.lines: list = []
        self.line_of: list = []  # equation index -> first line index
        self.cost_us = 0.0
        self.array_us = 0.0
        self._n = 0
        self._dts: dict = {}
        # the same step in C (`core.native_loops`): one C line per line above, while every
        # operation has a C spelling giving NumPy's bits (else ``c_ok`` turns False)
        self.c_ok = native_loops.enabled()
        self.ctype: dict = {}  # element name -> its C type
        self.c_lines: list = []
        self.c_pre: list = []
        self.c_consts: list = []  # C declarations of the constants
        if jaxpr.constvars or any(has_effects(e) for e in jaxpr.eqns):
            raise _Ineligible
        self.pre: list = []  # lines that read only loop constants: run once, before the loop
        self.invariant: set = set()  # names of loop constants' elements and of values made of them
        for k, v in enumerate(jaxpr.invars):
            self._check(v)
            self.names[v] = [self.fresh("a") for _ in range(_size(v))]
            self.ctype.update(dict.fromkeys(self.names[v], _ctype(v.aval.dtype)))
            if k < n_consts:
                self.invariant.update(self.names[v])
        for e in jaxpr.eqns:
            self.line_of.append(len(self.lines))
            self.array_us += _ARRAY_EQN_US
            for v in list(e.invars) + list(e.outvars):
                self._check(v)
            self._eqn(e)
        self.line_of.append(len(self.lines))
        if len(self.lines) + len(self.pre) > MAX_LINES:
            raise _Ineligible
        for v in jaxpr.outvars:
            self._check(v)

    def _emit(self, r: str, expr: str, args, cost: float, hoist: bool = True, c: str | None = None,
              dt=None) -> None:
        """``r = expr``: in the loop, or before it when it reads only loop constants and
        ``hoist`` (it cannot raise: it may then run where the loop would not have).  ``c``:
        the same in C, with ``r`` of dtype ``dt`` (None: there is no C for it)."""
        if c is None:
            self.c_ok = False
        else:
            self.ctype[r] = _ctype(dt)
            c = f"{self.ctype[r]} {r} = {c};"
        if hoist and all(a in self.invariant for a in args):
            self.pre.append(f"{r} = {expr}")
            self.c_pre.append(c)
            self.invariant.add(r)
        else:
            self.lines.append(f"{r} = {expr}")
            self.c_lines.append(c)
            self.cost_us += cost

    def fresh(self, prefix: str = "s") -> str:
        self._n += 1
        return f"{prefix}{self._n}"

    def dt(self, v) -> str:
        """The name of ``v``'s NumPy scalar type in the namespace."""
        dt = np.dtype(v.aval.dtype)
        key = self._dts.get(dt)
        if key is None:
            key = self._dts[dt] = f"T_{dt.name}"
            self.ns[key] = dt.type
        return key

    def const(self, value, dt) -> str:
        key = self.fresh("k")
        with np.errstate(all="ignore"):
            self.ns[key] = _held(np.asarray(value, dt)[()])
            self._c_const(key, np.asarray(value, dt)[()])
        self.invariant.add(key)
        return key

    def _c_const(self, key: str, val) -> None:
        dt = np.dtype(val.dtype)
        self.ctype[key] = _ctype(dt)
        self.c_consts.append(f"const {self.ctype[key]} {key} = {native_loops.literal(val, dt)};")

    def elems(self, v) -> list:
        """The element names of ``v`` (a variable or a literal)."""
        if type(v) is Literal:
            return [self.const(v.val, v.aval.dtype)] * _size(v)
        return self.names[v]

    def compile(self, src: str) -> Callable:
        exec(compile(src, "<fgrad scalar loop>", "exec"), self.ns)  # noqa: S102 - source built above
        run = self.ns["run"]
        run.source = src
        return run

    @staticmethod
    def _check(v) -> None:
        aval = getattr(v, "aval", None)
        if aval is None or not _plain(np.dtype(aval.dtype)) or not 0 < _size(v) <= MAX_ELEMENTS:
            raise _Ineligible

    def _eqn(self, e) -> None:
        name = e.prim.name
        if name in _STRUCTURAL or (name == "gather" and len(e.invars) == 1 and e.params["oob"] == "clip"):
            self._structural(e)  # (a gather of static, clamped indices only moves elements)
        elif name == "select_n":
            self._select(e)
        elif name == "convert_element_type":
            self._convert(e)
        else:
            ufunc = getattr(e.prim, "ufunc", None)
            if (e.params or not isinstance(ufunc, np.ufunc) or ufunc.nout != 1 or len(e.outvars) != 1
                    or ufunc.nin != len(e.invars)):
                raise _Ineligible
            self._ufunc(e, ufunc)

    def _operands(self, e) -> tuple[list, list]:
        """Per operand, its element names (a literal: one NumPy scalar of the dtype the array
        code converts it to), and a sample scalar of its type."""
        from .executor import _scalar_literal

        ops, samples, dts = [], [], []
        for v in e.invars:
            if type(v) is Literal:
                val = v.val
                if isinstance(val, np.ndarray) and not val.ndim:
                    val = val[()]
                if not isinstance(val, np.generic):  # a Python scalar: NumPy's conversion of it
                    val = _scalar_literal(v, e)
                if val is None or not _plain(val.dtype):
                    raise _Ineligible
                key = self.fresh("k")
                self.ns[key] = _held(val)
                self._c_const(key, val)
                self.invariant.add(key)
                ops.append([key])
                samples.append(_held(val))
                dts.append(np.dtype(val.dtype))
            else:
                ops.append(self.names[v])
                samples.append(_held(np.dtype(v.aval.dtype).type(1)))
                dts.append(np.dtype(v.aval.dtype))
        return ops, samples, dts

    def _ufunc(self, e, ufunc) -> None:
        out = e.outvars[0]
        n = _size(out)
        dt_out = np.dtype(out.aval.dtype)
        ops, samples, dts = self._operands(e)
        ops = [_broadcast(o, v, out) for o, v in zip(ops, e.invars)]
        try:  # the scalar ufunc's result type, checked once: it must be the traced one
            with np.errstate(all="ignore"):
                got = ufunc(*samples)
        except Exception as err:  # noqa: BLE001 - any refusal: leave it to the array code
            raise _Ineligible from err
        if np.dtype(type(got)) != dt_out:
            raise _Ineligible
        kinds = {np.dtype(v.aval.dtype).kind for v in e.invars}
        op = _BINARY.get(ufunc) or (_FLOAT_BINARY.get(ufunc) if kinds == {"f"} else None)
        if "b" in kinds and op not in _BOOL_OPERATORS:
            op = None  # (bools may be Python's, whose + - * make ints)
        uop = _UNARY.get(ufunc) if kinds <= {"f", "i"} else None
        py_division = op == "/" and dt_out == np.float64  # Python floats: raises on zero
        if op is None and uop is None:
            fn = self.fresh("u")
            self.ns[fn] = ufunc
        c_fmt = self._c_ufunc(ufunc, dts, dt_out, op, uop) if self.c_ok else None
        names = [self.fresh() for _ in range(n)]
        for j, r in enumerate(names):
            args = [o[j] for o in ops]
            c = None if c_fmt is None else c_fmt.format(*args)
            if py_division:
                a, b = args
                self._emit(r, f"{a} / {b} if {b} else _divide({a}, {b})", args, _OPERATOR_US, c=c, dt=dt_out)
            elif op is not None and len(args) == 2:
                self._emit(r, f"{args[0]} {op} {args[1]}", args, _OPERATOR_US, c=c, dt=dt_out)
            elif uop is not None and len(args) == 1:
                self._emit(r, f"{uop}{args[0]}", args, _OPERATOR_US, c=c, dt=dt_out)
            else:  # (a float64 is held as a Python float)
                call = f"{fn}({', '.join(args)})"
                call = f"float({call})" if dt_out == np.float64 else call
                self._emit(r, call, args, _CALL_US, kinds == {"f"}, c=c, dt=dt_out)
        self.names[out] = names

    @staticmethod
    def _c_ufunc(ufunc, dts: list, dt_out, op, uop) -> str | None:
        return native_loops.c_operation(ufunc, dts, dt_out, op, uop, np_loops=True)

    def _select(self, e) -> None:
        out = e.outvars[0]
        n = _size(out)
        pred, *cases = e.invars
        if (len(cases) != 2 or np.dtype(pred.aval.dtype) != np.bool_
                or any(type(c) is Literal or c.aval.dtype != out.aval.dtype for c in cases)):
            raise _Ineligible
        p = _broadcast(self.elems(pred), pred, out)
        on_false, on_true = (_broadcast(self.names[c], c, out) for c in cases)
        names = [self.fresh() for _ in range(n)]
        for j, r in enumerate(names):
            a, b, q = on_true[j], on_false[j], p[j]
            self._emit(r, f"{a} if {q} else {b}", (a, q, b), _OPERATOR_US, c=f"({q} ? {a} : {b})",
                       dt=out.aval.dtype)
        self.names[out] = names

    def _convert(self, e) -> None:
        (x,), (out,) = e.invars, e.outvars
        src, dst = np.dtype(x.aval.dtype), np.dtype(out.aval.dtype)
        # conversions whose scalar constructor rounds as ``astype`` does: to a float, or to a
        # wider integer of the same signedness, or bool to an integer
        if type(x) is Literal or not (
                dst.kind == "f" or (src.kind == "b" and dst.kind in "iu")
                or (src.kind == dst.kind and src.kind in "iu" and dst.itemsize >= src.itemsize)):
            raise _Ineligible
        if src == dst:
            self.names[out] = self.names[x]
            return
        ctor = "float" if dst == np.float64 else self.dt(out)
        names = [self.fresh() for _ in self.names[x]]
        for r, a in zip(names, self.names[x]):
            self._emit(r, f"{ctor}({a})", (a,), _OPERATOR_US, c=f"(({_ctype(dst)}){a})", dt=dst)
        self.names[out] = names

    def _structural(self, e) -> None:
        """Element moves: the primitive's own implementation applied to arrays of labels
        (one integer per input element) says where each output element comes from."""
        labels, sources, base = [], [], 0
        for v in e.invars:
            els = self.elems(v)
            labels.append(np.arange(base, base + len(els), dtype=np.int64).reshape(v.aval.shape))
            sources.append((v, els))
            base += len(els)
        flat = [(v, n) for v, els in sources for n in els]
        try:
            outs = e.prim.impl(np, *labels, **e.params)
        except Exception as err:  # noqa: BLE001 - anything unexpected: the array code runs it
            raise _Ineligible from err
        outs = list(outs) if e.prim.multiple_results else [outs]
        if len(outs) != len(e.outvars):
            raise _Ineligible
        for lab, out in zip(outs, e.outvars):
            lab = np.asarray(lab)
            if lab.shape != tuple(out.aval.shape) or lab.dtype != np.int64:
                raise _Ineligible
            names = []
            for k in lab.reshape(-1).tolist():
                v, n = flat[k]
                if v.aval.dtype != out.aval.dtype:  # (a pad value of another dtype)
                    if type(v) is not Literal:
                        raise _Ineligible
                    n = self.const(v.val, out.aval.dtype)
                names.append(n)
            self.names[out] = names

