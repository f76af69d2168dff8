"""The straight-line executor: a jaxpr turned into one generated Python function.

`straight_line(jaxpr)` writes a function ``run(xp, bufs) -> list`` whose body is one line
per equation (a ufunc call for parameterless elementwise primitives, the primitive's
implementation otherwise), taking the buffers of ``jaxpr.constvars`` then ``jaxpr.invars``
and deleting each value after its last use.  It does no optimization: it is the executor of
the small programs that are built often and run very often -- the reverse-mode tape's
per-operation programs, the shim's backward programs and control-flow bodies.  `fgrad.jit`
uses the optimizing, fusing pipeline of `fgrad.compile` instead.

Example::

    >>> import numpy as np, fgrad, fgrad.numpy as fnp
    >>> run = straight_line(fgrad.make_jaxpr(lambda x: fnp.sin(x) * 2.0)(fnp.zeros(2)))
    >>> run(np, [np.zeros(2)])
    [array([0., 0.])]
"""

from __future__ import annotations

import functools
import math
from typing import Callable

import numpy as np

from ..backends import NUMPY, backend_of_buffer, backend_of_xp, put_buffer, to_host
from .ir import Jaxpr, Literal, external_inputs, has_effects
from .quiet import quiet

# ufuncs whose positional third argument NumPy deprecates (it might mean a third input)
def straight_line(jaxpr: Jaxpr, consts: list | None = None, native: Callable | None = None) -> Callable:
    """``run(xp, bufs) -> list of output buffers`` for ``jaxpr``, ``bufs`` being the
    constants' then the inputs' buffers; ``run.source`` is the generated code.  With
    ``consts`` (the constants' buffers, for a program that always runs where they live)
    they are part of the generated function and ``bufs`` holds only the inputs.
    ``run.host`` is the host variant without the switch of NumPy's error reports (for
    callers that run on the host and have switched them off, or run no primitive that
    reports).

    On the host (``xp`` is NumPy) a ufunc whose operand is a dead intermediate of the same
    shape and dtype -- an array an earlier ufunc of this program made, never an input, a
    constant, an output or the operand of an equation that may return a view of it --
    writes its result into that operand (``out=``): the same numbers without a new
    allocation per equation.

    ``native`` (the caller's maker of native kernels, `fgrad.compile.native_kernels.
    straight_line_kernel`; this layer cannot import it): on the host, each run of elementwise
    equations of one big shape (`_native_groups`) is offered to it as ``native(members, ext,
    escaping, shape, ext_shapes)``; a runner it returns computes the run's escaping values in
    C, and the run's NumPy lines stay as the branch taken when it declines (None)."""
    any_src, ns = _generate(jaxpr, reuse=False, consts=consts)
    host_src, ns2 = _generate(jaxpr, reuse=True, consts=consts, native=native)
    if not {"_host_out", "_host_literals", "_host_native"} & ns2.keys():  # nothing host-specific
        src = any_src.replace("def run_any(", "def run(", 1)
    else:
        ns.update(ns2)
        src = (host_src + any_src + "def run(xp, bufs):\n"
               "    return run_host(xp, bufs) if xp is _np else run_any(xp, bufs)\n")
        ns["_np"] = np
    exec(compile(src, "<fgrad generated>", "exec"), ns)  # noqa: S102 - source built above
    run = quiet(ns["run"], 2)  # IEEE special values are computed silently, as in JAX
    run.source = src  # type: ignore[attr-defined]
    run.native_kernels = [v for k, v in ns.items() if k.startswith("nkh")]  # type: ignore[attr-defined]
    # the host variant itself (same arguments, NumPy's error reports left as the caller set them)
    run.host = ns.get("run_host", ns["run"])  # type: ignore[attr-defined]
    return run


def host_loop(jaxpr: Jaxpr, n_consts: int) -> Callable:
    """``run(bufs) -> final carry`` on the host for a loop whose one step is ``jaxpr``:
    inputs ``n_consts`` loop constants then the carry, outputs the condition on the carry
    then the next carry (a while loop's condition and body joined).  The generated function
    loops itself: it computes what the condition needs, returns the carry when the
    condition is false, else computes the rest and goes on with the next carry -- no call,
    list or unpacking per iteration, and the body never runs on the last carry.  Inputs are
    never deleted or overwritten (constants are read by every iteration).  NumPy's error
    reports are left as the caller set them.

    >>> import fgrad, numpy as np
    >>> jx = fgrad.make_jaxpr(lambda c, x: (x < c, x * 2.0))(10.0, 1.0).jaxpr
    >>> host_loop(jx, 1)([10.0, np.float64(1.0)])
    [np.float64(16.0)]
    """
    src, ns = _generate(jaxpr, reuse=True, loop=n_consts)
    exec(compile(src, "<fgrad generated>", "exec"), ns)  # noqa: S102 - source built above
    run = functools.partial(ns["run_host"], np)
    run.source = src  # type: ignore[attr-defined]
    return run


def host_scan(jaxpr: Jaxpr, n_consts: int, n_carry: int, length: int, reverse: bool,
              stacked: Callable) -> Callable:
    """``run(bufs) -> final carry + stacked ys`` on the host for a scan whose one step is
    ``jaxpr`` (inputs ``n_consts`` constants, ``n_carry`` carries, then one slice of each
    scanned array; outputs the next carry then the step's ys).  ``bufs``: the constants, the
    initial carry, then the whole scanned arrays.  The generated function loops itself over
    ``length`` steps (backwards with ``reverse``): the slices taken, the step inlined, each
    y written into its slot of an array ``stacked(xp, y, length)`` makes at the first step
    -- no call, list or unpacking per step.  Inputs are never deleted or overwritten.
    NumPy's error reports are left as the caller set them.

    >>> import fgrad, numpy as np
    >>> jx = fgrad.make_jaxpr(lambda c, x: (c + x, c * x))(1.0, 2.0).jaxpr
    >>> empty = lambda xp, y, n: np.empty((n,) + np.shape(y), np.asarray(y).dtype)
    >>> host_scan(jx, 0, 1, 3, False, empty)([np.float64(0.0), np.arange(3.0)])
    [np.float64(3.0), array([0., 0., 2.])]
    """
    src, ns = _generate(jaxpr, reuse=True, scan=(n_consts, n_carry, length, reverse))
    ns["_stacked"] = stacked
    exec(compile(src, "<fgrad generated>", "exec"), ns)  # noqa: S102 - source built above
    run = functools.partial(ns["run_host"], np)
    run.source = src  # type: ignore[attr-defined]
    return run


def _generate(jaxpr: Jaxpr, reuse: bool, consts: list | None = None,
              loop: int | None = None, scan: tuple | None = None,
              native: Callable | None = None) -> tuple[str, dict]:
    """The source of ``run_host`` (``reuse``: buffers reused, see `straight_line`) or
    ``run_any``, and its namespace (which holds ``consts`` when given).  ``loop``: the
    number of loop constants of a `host_loop` step (its equations in the order they must
    run: what the condition reads first).  ``scan``: ``(n_consts, n_carry, length,
    reverse)`` of a `host_scan` step.  ``native``: see `straight_line` (straight-line host
    programs only)."""
    tag = "h" if reuse else "g"
    eqns = list(jaxpr.eqns)
    groups: dict = {}  # first equation's index -> last one's, of each native candidate run
    if native is not None and reuse and loop is None and scan is None:
        eqns, groups = _native_groups(eqns, getattr(native, "min_elements", 0))
    names: dict = {}
    ns: dict = {}
    lines = []
    counter = iter(range(1 << 30))

    def fresh(prefix="r"):
        return f"{prefix}{tag}{next(counter)}"

    def ref(v):
        if type(v) is Literal:
            key = fresh("k")
            ns[key] = v.val
            return key
        return names[v]

    params_in = []
    baked: set = set()  # names of constants held in the namespace (never deleted)
    if consts is not None:
        for v, c in zip(jaxpr.constvars, consts, strict=True):
            n = fresh("c")
            names[v] = n
            ns[n] = c
            baked.add(n)
    for v in (list(jaxpr.invars) if consts is not None else list(jaxpr.constvars) + list(jaxpr.invars)):
        n = fresh("a")
        names[v] = n
        params_in.append(n)
    last_use: dict = {}
    for i, e in enumerate(eqns):
        for v in e.invars:
            if type(v) is not Literal:
                last_use[v] = i
    keep = {v for v in jaxpr.outvars if type(v) is not Literal}
    if scan is not None:  # every step reads the constants; the carry's inputs are rebound
        keep.update(jaxpr.invars)
    if loop is not None:  # every iteration reads the constants; the exit returns the carry
        keep.update(jaxpr.invars)
        cond_end = max((i for i, e in enumerate(eqns) if jaxpr.outvars[0] in e.outvars), default=-1)
        exit_at = 0
    consumers: dict = {}
    for e in eqns:
        for v in e.invars:
            if type(v) is not Literal:
                consumers.setdefault(v, []).append(e)
    owned: set = set()  # intermediates made by a ufunc of this program (new arrays, ndim >= 1)
    numpy_typed: set = set()  # values surely NumPy objects (ndarray or NumPy scalar), not Python's
    # loops on the host: the arrays a step allocates and drops again, kept for the next step
    # (`_loop_scratch`); ``roots``: value -> the arrays (fresh ufunc results) it may share memory with
    looping = reuse and (loop is not None or scan is not None)
    roots: dict = {}
    fresh_at: dict = {}  # fresh ufunc result -> (its line's index, ufunc, function name, operands)
    pinned: set = set()  # fresh results an effect may hold on to (a callback's operand)
    thin: set = set()  # broadcast_in_dim results left to NumPy's broadcasting (not full size)
    thin_shape: dict = {}  # a thin broadcast's result -> the shape NumPy sees (its rank, ones)
    group = None  # the native candidate run being written: (first index, last index, first line)
    for i, e in enumerate(eqns):
        if i in groups:
            group = (i, groups[i], len(lines))
        args = ", ".join(ref(v) for v in e.invars)
        ufunc = getattr(e.prim, "ufunc", None)
        target = None
        fresh_line = None
        np_call = False  # a NumPy ufunc's call: its result shares memory with its out= target only
        if e.prim.name == "broadcast_in_dim" and _ufuncs_broadcast_it(e.outvars[0], consumers, keep, thin):
            # only ufuncs read it, each with a full-shape operand: NumPy's broadcasting does the
            # rest, so the operand only gets its rank (a reshape, not np.broadcast_to)
            owned.difference_update(e.invars)
            thin.add(e.outvars[0])
            expanded = [1] * len(e.params["shape"])
            for k, d in enumerate(e.params["broadcast_dimensions"]):
                expanded[d] = e.invars[0].aval.shape[k]
            thin_shape[e.outvars[0]] = tuple(expanded)
            call = f"xp.asarray({args}).reshape({tuple(expanded)})"
        elif ufunc is not None and not e.params:
            fn = fresh("u")
            small = getattr(e.prim, "small_host_ufunc", None) if reuse else None
            if small is not None and math.prod(e.outvars[0].aval.shape) < small[1]:
                ufunc = small[0]  # the host function for outputs of this size (`select`: np.where)
                ns["_host_literals"] = True  # marks the host program as specialized
            ns[fn] = ufunc
            is_np_ufunc = isinstance(ufunc, np.ufunc) and ufunc.nout == 1 and len(e.outvars) == 1
            op = _SCALAR_OPERATORS.get(ufunc) if reuse and is_np_ufunc else None
            if op is not None and _numpy_scalar_operands(e, numpy_typed):
                # operands that are NumPy scalars (0-d, one of them surely a NumPy object): the
                # operator computes what the ufunc does, without the ufunc call's overhead
                lhs, rhs = (_host_scalar_operand(v, e, ns, fresh) if type(v) is Literal else ref(v)
                            for v in e.invars)
                call = f"({lhs} {op} {rhs})"
                numpy_typed.add(e.outvars[0])
            else:
                if reuse and is_np_ufunc:
                    args = ", ".join(_host_operand(v, e, ns, fresh) if type(v) is Literal else ref(v)
                                     for v in e.invars)
                    oa = e.outvars[0].aval
                    for v in e.invars:
                        if (type(v) is not Literal and v in owned and last_use.get(v) == i and v not in keep
                                and v.aval.shape == oa.shape and v.aval.dtype == oa.dtype):
                            target = v
                            break
                    numpy_typed.add(e.outvars[0])  # a NumPy ufunc's result: an array or NumPy scalar
                # a positional out (``is_np_ufunc``: one output): no keyword to parse per call
                call = (f"{fn}({args}, {out_arg(ufunc)}{names[target]})" if target is not None
                        else f"{fn}({args})")
                np_call = is_np_ufunc
                if looping and is_np_ufunc and target is None and e.outvars[0].aval.shape:
                    fresh_line = (ufunc, fn, args)
                if target is not None:
                    ns["_host_out"] = True  # marks the host program as reusing buffers
            if is_np_ufunc and e.outvars[0].aval.shape:
                owned.add(e.outvars[0])
            elif not is_np_ufunc:
                owned.difference_update(e.invars)
        elif e.prim.name in _INLINE:  # an identity or a reshape: no call through the implementation
            owned.difference_update(e.invars)
            call = _INLINE[e.prim.name](args, e.params, ns, fresh)
        else:
            owned.difference_update(e.invars)  # its results may be views of them (slices, reshapes)
            fn = fresh("f")
            specialize = getattr(e.prim, "host_kernel", None) if reuse else None
            kernel = specialize(e.params, [v.aval for v in e.invars]) if specialize is not None else None
            if kernel is not None:  # the primitive's host code for these shapes and parameters
                ns[fn] = kernel
                ns["_host_literals"] = True  # marks the host program as specialized
                call = f"{fn}({args})"
                if (getattr(e.prim, "host_kernel_fresh", False) and len(e.outvars) == 1
                        and e.outvars[0].aval.shape):
                    # a new array (a matrix product's): a later ufunc may write into it (`out=`),
                    # e.g. the bias added to a linear layer's product
                    owned.add(e.outvars[0])
            else:
                ns[fn] = functools.partial(e.prim.impl, **e.params) if e.params else e.prim.impl
                call = f"{fn}(xp, {args})" if args else f"{fn}(xp)"
        outs = [fresh() for _ in e.outvars]
        for v, n in zip(e.outvars, outs):
            names[v] = n
        if e.prim.multiple_results and not outs:  # an effect only (a callback)
            lines.append(f"    {call}")
        elif e.prim.multiple_results:
            lines.append(f"    {', '.join(outs)}{',' if len(outs) == 1 else ''} = {call}")
        else:
            lines.append(f"    {outs[0]} = {call}")
        if looping:
            if fresh_line is not None:
                fresh_at[e.outvars[0]] = (len(lines) - 1,) + fresh_line
                roots[e.outvars[0]] = {e.outvars[0]}
            elif np_call:  # a new array, or its out= operand itself
                roots[e.outvars[0]] = roots.get(target, set()) if target is not None else set()
            elif e.prim.family == "reduction":  # new arrays (NumPy's reductions never return views)
                for v in e.outvars:
                    roots[v] = set()
            else:  # any other equation: its results may be views of its operands
                shared = set().union(*(roots.get(v, ()) for v in e.invars if type(v) is not Literal))
                if has_effects(e):
                    pinned |= shared
                for v in e.outvars:
                    roots[v] = shared
        dead = sorted({names[v] for v in e.invars if type(v) is not Literal
                       and last_use.get(v) == i and v not in keep} - baked)
        if dead:
            lines.append(f"    del {', '.join(dead)}")
        if loop is not None and i == cond_end:
            exit_at = len(lines)
        if group is not None and i == group[1]:
            _emit_native(native, eqns[group[0]:i + 1], group[2], lines, ns, fresh, ref, thin_shape,
                         {v for v, at in last_use.items() if at > i} | keep,
                         [n for v, n in names.items() if group[0] <= last_use.get(v, -1) <= i
                          and v not in keep and n not in baked])
            group = None
    unpack = f"    {', '.join(params_in)}{',' if len(params_in) == 1 else ''} = bufs\n" if params_in else ""
    if looping:
        escaping = set().union(*(roots.get(v, ()) for v in jaxpr.outvars if type(v) is not Literal))
        kept = {v: at for v, at in fresh_at.items() if v not in escaping and v not in pinned}
        first, later = _loop_scratch(lines, kept, names, ns, fresh)
    if scan is not None:
        n_consts, n_carry, length, reverse = scan
        carry = params_in[n_consts:n_consts + n_carry]
        slices = params_in[n_consts + n_carry:]
        whole = [fresh("x") for _ in slices]  # the scanned arrays; the step reads one slice
        ys = [fresh("y") for _ in jaxpr.outvars[n_carry:]]
        outs = [ref(v) for v in jaxpr.outvars]
        ns["_steps"] = range(length - 1, -1, -1) if reverse else range(length)
        head = params_in[:n_consts + n_carry] + whole
        take = [[f"    {sl} = {w}[_i]"] for sl, w in zip(slices, whole)]
        put = [[f"    {y}[_i] = {o}"] for y, o in zip(ys, outs[n_carry:])]
        rebind = [[f"    {', '.join(carry)} = {', '.join(outs[:n_carry])}"]] if carry else []
        src = ("def run_host(xp, bufs):\n"
               + (f"    {', '.join(head)}{',' if len(head) == 1 else ''} = bufs\n" if head else "")
               + "".join(f"    {y} = None\n" for y in ys))
        if ys or kept:
            # the first step on its own: it makes the stacked outputs and the kept arrays; the
            # other steps write into them (no test per step)
            make = [[f"    {y} = _stacked(xp, {o}, {length})" for y, o in zip(ys, outs[n_carry:])]]
            src += ("    _it = iter(_steps)\n    for _i in _it:\n"
                    + _indent(take + first + make + put + rebind + [["    break"]], 2)
                    + "    for _i in _it:\n" + _indent(take + later + put + rebind, 2))
        else:
            src += "    for _i in _steps:\n" + _indent(take + later + rebind, 2)
        src += f"    return [{', '.join(carry + ys)}]\n"
        return src, ns
    if loop is not None:
        n_carry = len(jaxpr.invars) - loop
        carry = params_in[len(params_in) - n_carry:] if n_carry else []
        nxt = ", ".join(ref(v) for v in jaxpr.outvars[1:])
        exit_ = [[f"    if not {ref(jaxpr.outvars[0])}:", f"        return [{', '.join(carry)}]"]]
        rebind = [[f"    {', '.join(carry)} = {nxt}"]] if carry else []
        first, later = (part[:exit_at] + exit_ + part[exit_at:] + rebind for part in (first, later))
        src = "def run_host(xp, bufs):\n" + unpack
        if kept:  # the first iteration on its own: it makes the arrays the others write into
            src += _indent(first, 1)
        src += "    while True:\n" + _indent(later, 2)
        return src, ns
    rets = ", ".join(ref(v) for v in jaxpr.outvars)
    lines.append(f"    return [{rets}]")
    name = "run_host" if reuse else "run_any"
    src = f"def {name}(xp, bufs):\n" + unpack + "\n".join(lines) + "\n"
    return src, ns


def _native_groups(eqns: list, min_elements: int) -> tuple[list, dict]:
    """The equations reordered so that each run of elementwise equations of one shape (of at
    least ``min_elements``) that a native kernel may compute is consecutive, and the runs
    (first index -> last index).  A run gathers the equations of its shape in program order
    until an equation outside it reads one of its values; it moves to its last member's
    place, which is valid: each member's operands are made before that place (by earlier
    equations or members) and nothing before it reads a member's value."""
    open_runs: dict = {}  # shape -> [member indices, their values]
    runs: list = []
    for j, e in enumerate(eqns):
        shape = _member_shape(e, min_elements)
        reads = {v for v in e.invars if type(v) is not Literal}
        for s in [s for s, (_, made) in open_runs.items() if s != shape and reads & made]:
            runs.append(open_runs.pop(s)[0])
        if shape is None:
            continue
        run = open_runs.setdefault(shape, ([], set()))
        run[0].append(j)
        run[1].update(e.outvars)
    runs += [m for m, _ in open_runs.values()]
    at_last = {m[-1]: m for m in runs}
    moved = {j for m in runs for j in m[:-1]}
    order: list = []
    groups: dict = {}
    for j in range(len(eqns)):
        if j in moved:
            continue
        if j in at_last:
            groups[len(order)] = len(order) + len(at_last[j]) - 1
            order += [eqns[k] for k in at_last[j]]
        else:
            order.append(eqns[j])
    return order, groups


def _member_shape(e, min_elements: int):
    """The result shape of ``e`` where it may be a member of a native kernel: a parameterless
    one-output NumPy ufunc, a conversion or a ``select_n``, of at least ``min_elements``."""
    if len(e.outvars) != 1 or math.prod(e.outvars[0].aval.shape) < min_elements:
        return None
    uf = getattr(e.prim, "ufunc", None)
    if (e.prim.name in ("convert_element_type", "select_n")
            or (isinstance(uf, np.ufunc) and uf.nout == 1 and not e.params)):
        return tuple(e.outvars[0].aval.shape)
    return None


def _emit_native(native: Callable, members: list, start: int, lines: list, ns: dict, fresh: Callable,
                 ref: Callable, thin_shape: dict, read_later: set, dying: list) -> None:
    """Replace the NumPy lines of the run ``members`` (``lines[start:]``) by a call of the
    native kernel ``native`` makes for it, with those lines as the branch taken when the
    kernel declines; nothing changes where ``native`` makes none.  ``read_later``: the values
    read after the run (or returned); ``dying``: the names the run's lines delete."""
    ext = external_inputs(members)
    escaping = [v for e in members for v in e.outvars if v in read_later]
    shape = tuple(members[0].outvars[0].aval.shape)
    ext_shapes = {v: thin_shape[v] for v in ext if v in thin_shape}
    runner = native(members, ext, escaping, shape, ext_shapes)
    if runner is None:
        return
    key = fresh("nk")
    ns[key] = runner
    ns["_host_native"] = True  # marks the host program as specialized
    numpy_lines = lines[start:]
    del lines[start:]
    r = fresh("n")
    outs = [ref(v) for v in escaping]
    gone = [ref(v) for v in ext if ref(v) in dying]
    lines.append(f"    {r} = {key}({', '.join(ref(v) for v in ext)})")
    lines.append(f"    if {r} is None:")
    lines.extend("    " + ln for ln in numpy_lines)
    lines.append("    else:")
    if outs:
        lines.append(f"        {', '.join(outs)}{',' if len(outs) == 1 else ''} = {r}")
    if gone:
        lines.append(f"        del {', '.join(gone)}")
    if not outs and not gone:
        lines.append("        pass")
    lines.append(f"    del {r}")


def _loop_scratch(lines: list, kept: dict, names: dict, ns: dict, fresh: Callable) -> tuple:
    """A loop step's lines (one list of lines per line, so that positions stay put) for its
    first iteration and for the others.  Each array in ``kept`` (value -> (line index,
    ufunc, function name, operands): a fresh ufunc result that no later step, output or
    effect can see) is made by the first iteration and kept; the other iterations write the
    same ufunc's result into it (``out=``): the same numbers without an allocation per step.
    It is kept only when NumPy made it with the value's dtype, else later steps allocate."""
    first = [[ln] for ln in lines]
    later = [[ln] for ln in lines]
    if kept:
        ns["_ndarray"] = np.ndarray
    for v, (at, uf, fn, args) in kept.items():
        name, buf, dt = names[v], fresh("s"), fresh("d")
        ns[dt] = v.aval.dtype
        first[at].append(f"    {buf} = {name} if type({name}) is _ndarray and {name}.dtype == {dt} else None")
        later[at] = [f"    {name} = {fn}({args}, {out_arg(uf)}{buf})"]
    return first, later


def _indent(parts: list, depth: int) -> str:
    """Lines (lists of lines, each indented one level) indented ``depth`` levels, joined."""
    pad = "    " * (depth - 1)
    return "".join(pad + ln + "\n" for part in parts for ln in part)


# binary ufuncs whose Python operator on NumPy operands calls them (or NumPy's scalar math,
# which gives the same result for scalars): identical results, types and weak-type rules
_SCALAR_OPERATORS = {np.add: "+", np.subtract: "-", np.multiply: "*", np.less: "<",
                     np.less_equal: "<=", np.greater: ">", np.greater_equal: ">=", np.equal: "==",
                     np.not_equal: "!=", np.bitwise_and: "&", np.bitwise_or: "|", np.bitwise_xor: "^"}


def _numpy_scalar_operands(e, numpy_typed: set) -> bool:
    """Whether ``e`` (a binary ufunc) has 0-d operands and result, one operand surely a NumPy
    object: a result of an earlier NumPy ufunc (or operator) of this program, or a literal
    that `_host_scalar_operand` makes a NumPy scalar.  Two Python scalars (inputs of the
    program may be) would follow Python's rules, so at least one must be NumPy's."""
    if len(e.invars) != 2 or e.outvars[0].aval.shape != ():
        return False
    if any(type(v) is not Literal and (v.aval.shape != () or not _plain_dtype(v.aval.dtype))
           for v in e.invars) or not _plain_dtype(e.outvars[0].aval.dtype):
        return False
    return any(v in numpy_typed if type(v) is not Literal else _scalar_literal(v, e) is not None
               for v in e.invars)


def _plain_dtype(dt) -> bool:
    """NumPy's own bool, integer, float32/64 and complex types (not float16 or the extension
    types such as bfloat16, whose scalar arithmetic is implemented elsewhere)."""
    return dt.isbuiltin == 1 and dt.kind in "biufc" and not (dt.kind == "f" and dt.itemsize < 4)


def _literal_dtype(lit: Literal, e):
    """The dtype NumPy converts the Python scalar ``lit`` to in the ufunc ``e`` (NEP 50: the
    array operands' one dtype, when the scalar's kind is not higher), or None."""
    rank = _KIND_RANK.get(type(lit.val))
    dts = {v.aval.dtype for v in e.invars if type(v) is not Literal}
    if rank is None or len(dts) != 1:
        return None
    (dt,) = dts
    return None if rank > _DTYPE_KIND_RANK.get(dt.kind, -1) else dt


def _converted_literal(lit: Literal, e):
    """``lit`` as a 0-d array of `_literal_dtype` (values beyond the dtype's range become inf,
    as NumPy's call gives), or None where that conversion does not apply."""
    dt = _literal_dtype(lit, e)
    if dt is None:
        return None
    try:
        with np.errstate(all="ignore"):
            return np.asarray(lit.val, dt)
    except (OverflowError, ValueError, TypeError):
        return None


def _scalar_literal(lit: Literal, e):
    """The NumPy scalar that NumPy would convert the Python scalar ``lit`` to in the ufunc
    ``e`` (see `_host_operand`), or None where that conversion does not apply."""
    val = _converted_literal(lit, e)
    return None if val is None else val[()]


def _host_scalar_operand(lit: Literal, e, ns: dict, fresh) -> str:
    """The name of a literal operand of a 0-d ufunc written as an operator: the NumPy scalar
    of `_scalar_literal` where it applies (Python's own value otherwise)."""
    return _host_operand(lit, e, ns, fresh, scalar=True)


_KIND_RANK = {bool: 0, int: 1, float: 2, complex: 3}
_DTYPE_KIND_RANK = {"b": 0, "u": 1, "i": 1, "f": 2, "c": 3}


def _host_operand(lit: Literal, e, ns: dict, fresh, scalar: bool = False) -> str:
    """The name of a Python scalar operand of a NumPy ufunc on the host, converted once to a
    0-d array of the dtype of the ufunc's array operands (NumPy converts a Python scalar to
    that dtype on every call, at twice the cost of a small ufunc).  Only where NumPy's own
    rule (NEP 50: a Python scalar takes the array's dtype when its kind is not higher) gives
    that dtype and the value converts exactly as it would: the same numbers.  ``scalar``:
    a NumPy scalar instead of a 0-d array.  The operand of a max/min beside a full-size array
    is a `constant_operand` array."""
    key = fresh("k")
    val = _converted_literal(lit, e)
    if val is not None and scalar:
        val = val[()]
    elif val is not None:
        out = e.outvars[0].aval
        if any(type(v) is not Literal and v.aval.shape == out.shape and v.aval.dtype == out.dtype
               for v in e.invars):
            c = constant_operand(getattr(e.prim, "ufunc", None), val, out.dtype, out.shape)
            val = val if c is None else c
    ns[key] = lit.val if val is None else val
    if val is not None:
        ns["_host_literals"] = True  # marks the host program as specialized
    return key


def _host_or_xp_reshape(xp, x, shape):
    # the method skips NumPy's ``np.reshape`` wrapper (a microsecond, on every stacked row)
    if type(x) is np.ndarray or isinstance(x, np.generic):  # (a 0-d result is a NumPy scalar)
        return x.reshape(shape)
    if isinstance(x, (int, float, complex)):  # a literal operand: NumPy's reshape makes it an array
        x = xp.asarray(x)  # (as the host does; cupy's reshape takes arrays only)
    return xp.reshape(x, shape)


def _inline_reshape(args: str, params: dict, ns: dict, fresh) -> str:
    key = fresh("k")
    ns[key] = params["new_sizes"]
    ns["_reshape"] = _host_or_xp_reshape
    return f"_reshape(xp, {args}, {key})"


# primitives written inline (the same as their implementation, without the call through it)
_INLINE = {
    "stop_gradient": lambda args, params, ns, fresh: args,
    "reshape": _inline_reshape,
}


def out_arg(ufunc) -> str:
    """What goes before the out buffer in a call of the one-output NumPy ``ufunc``: nothing
    (a positional out, no keyword to parse per call), or ``out=`` where NumPy deprecates
    the positional form (np.maximum, np.minimum).

    >>> out_arg(np.add), out_arg(np.maximum)
    ('', 'out=')
    """
    return "out=" if ufunc in _KEYWORD_OUT else ""


_KEYWORD_OUT = (np.maximum, np.minimum, np.fmax, np.fmin)  # NumPy deprecates their positional out

# NumPy 2's max/min loops are vectorized only when both operands are arrays: with a scalar
# operand ``np.maximum(x, 0.0)`` runs 2-6x slower than against an array of zeros (the same
# results, bit for bit; float16 and 64-bit integers gain nothing)
_ARRAY_OPERAND_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64, np.int8, np.int16,
                                                         np.int32, np.uint8, np.uint16, np.uint32))
CONST_MIN = 4096  # elements: below, the call costs more than the scalar loop
CONST_MAX = 1 << 16  # elements of a constant operand at most
_CONST_OPERANDS: dict = {}


def constant_operand(ufunc, value, dtype, shape):
    """A read-only array of ``value`` (a scalar operand of the host ufunc ``ufunc`` whose
    other operand is an array of ``dtype`` and of the result's ``shape``) to pass in its
    place, covering the result's trailing axes (NumPy broadcasts it over the others), or
    None where that does not pay (not ``np.maximum``/``minimum``/``fmax``/``fmin``, a small
    result, another dtype).  ``value`` is converted as the ufunc converts a scalar operand
    (NEP 50), so the results are the same.

    >>> constant_operand(np.maximum, 0.0, np.dtype(np.float32), (64, 16, 28, 28)).shape
    (16, 28, 28)
    >>> constant_operand(np.add, 0.0, np.dtype(np.float32), (64, 16, 28, 28)) is None
    True
    """
    dtype = np.dtype(dtype)
    if ufunc not in _KEYWORD_OUT or dtype not in _ARRAY_OPERAND_DTYPES or math.prod(shape) < CONST_MIN:
        return None
    suffix: tuple = ()
    for d in reversed(tuple(shape)):
        if math.prod(suffix) >= CONST_MIN:
            break
        suffix = (int(d),) + suffix
    if math.prod(suffix) > CONST_MAX:
        return None
    key = (dtype, suffix, type(value), np.asarray(value).tobytes())
    c = _CONST_OPERANDS.get(key)
    if c is None:
        try:
            with np.errstate(all="ignore"):  # out of range: inf, as the ufunc's conversion gives
                c = np.full(suffix, value, dtype)
        except (OverflowError, TypeError, ValueError):
            return None
        c.flags.writeable = False
        if len(_CONST_OPERANDS) < 256:
            _CONST_OPERANDS[key] = c
    return c


def _ufuncs_broadcast_it(v, consumers: dict, keep: set, thin: set) -> bool:
    """True when ``v`` (a ``broadcast_in_dim`` result) is not an output and each equation
    reading it is a parameterless NumPy ufunc whose result has ``v``'s shape and which has
    another operand of that full shape -- one that really is, not an earlier broadcast left
    to NumPy (in ``thin``): of ``a + b`` with both broadcast, one must be made in full."""
    if v in keep or v not in consumers:
        return False
    shape = v.aval.shape
    for c in consumers[v]:
        uf = getattr(c.prim, "ufunc", None)
        if not isinstance(uf, np.ufunc) or c.params or len(c.outvars) != 1:
            return False
        if c.outvars[0].aval.shape != shape:
            return False
        if not any(u is not v and type(u) is not Literal and u.aval.shape == shape and u not in thin
                   for u in c.invars):
            return False
    return True


def place_consts(consts: list, xp, device=None) -> list:
    """``consts`` for a program running with the array module ``xp`` (on ``device``).

    A program traced from abstract inputs made its constants on the default device; it runs
    where its inputs are.  So each constant goes there, explicitly and once per compiled
    program: host arrays are uploaded, buffers on another device of the backend are moved
    to ``device``, and buffers of another backend (a GPU default device while the inputs
    were placed on the CPU or another device) are copied over through the host.
    """
    if xp is np:
        if not any(_foreign_to_host(c) for c in consts):
            return consts
        return [to_host(c) if _foreign_to_host(c) else c for c in consts]
    be = backend_of_xp(xp)
    out = []
    for c in consts:
        if type(c) is np.ndarray:
            c = be.from_host(c, device)
        elif hasattr(c, "shape") and not isinstance(c, np.generic):
            owner = backend_of_buffer(c)
            if owner is be:
                if device is not None and be.device_of(c) != device:
                    c = be.put(c, device)
            elif owner is not NUMPY:
                c = put_buffer(c, device if device is not None else be.current_device())
            else:  # a host array of a NumPy subclass
                c = be.from_host(np.asarray(c), device)
        out.append(c)
    return out


def _foreign_to_host(c) -> bool:
    """True for a device buffer (a constant a program running on the host must copy)."""
    return (hasattr(c, "shape") and type(c) is not np.ndarray and not isinstance(c, np.generic)
            and backend_of_buffer(c) is not NUMPY)


def device_of(bufs):
    """The device of the first device buffer in ``bufs`` (None: host, or no buffer)."""
    for b in bufs:
        if hasattr(b, "shape") and type(b) is not np.ndarray:
            be = backend_of_buffer(b)
            if be is not NUMPY:
                return be.device_of(b)
    return None


__all__ = ["straight_line", "place_consts", "device_of", "out_arg"]
