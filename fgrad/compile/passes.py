"""Optimizing passes over a traced program (DESIGN.md §4), before fusion and code generation.

The passes work on a `Program`: a private, mutable copy of a jaxpr in which every variable
is fresh (the traced jaxpr stays untouched: transforms keep using it) and the constants'
values are known.  In order:

* `inline`: the body of every nested ``jit`` equation is spliced into its caller (its
  constants become the caller's), so a program is optimized and fused as a whole;
* `forward` (one sweep, in program order): constant folding (an equation whose inputs are
  all known runs now, at compile time, unless its result would be much bigger than its
  inputs), algebraic simplification (``x*1``, ``x/1``, ``x+0``, ``x-0``, ``0-x``,
  ``-(-x)``, ``x**1``, ``x**2 -> x*x``, a cast to the same dtype, an identity reshape /
  transpose / broadcast / slice, reshape-of-reshape, transpose-of-transpose, a
  ``select`` with equal branches or a known predicate, a ``dot_general`` without
  contracting dimensions -> a broadcasting multiply, and an explicit ``broadcast_in_dim``
  operand of an elementwise op -> NumPy's implicit broadcasting) and common-subexpression
  elimination;
* after that fixpoint, once: `swap_transposed_dots` (a transposed product as the product of
  the swapped operands), `diagonal_dots` (a product with the identity times vectors, the
  basis of ``jacrev``/``jacfwd``, as a scaling: `ops.diagonal_dot`), `scaled_scatters` (a
  scatter-add of gathered rows times one scalar each -- a sparse-dense product -- in one
  pass: `ops.scaled_scatter`, the same bits) and `scan_products.batch_scan_products`
  (products taken out of ``scan`` loops: fewer, larger GEMMs);
* `dce`: equations none of whose results is used are dropped (every primitive is pure
  except the *effectful* ones, ``Primitive.effectful``: collectives, which every process
  must run in the same order, and callbacks; they are never folded, merged by CSE or
  dropped, nor is a ``cond``/loop/call whose inner program holds one, `core.ir.has_effects`).

Simplifications keep values exactly, except that ``x+0 -> x`` and ``0-x -> -x`` may
change the sign of a zero (as XLA's simplifier does); they apply to fused and unfused
compilation alike, so fusion itself stays bit-exact.  `diagonal_dots` may also change the
sign of a zero; `batch_scan_products` sums a loop's accumulated products in another order
(one GEMM over all steps instead of one per step).
"""

from __future__ import annotations

import math
from typing import Callable

import numpy as np

from ..backends import backend_of_buffer, to_host

from ..core.array import ShapedArray, get_aval
from ..core.ir import Eqn, Jaxpr, Literal, Var, has_effects, is_noop_convert, live_eqns
from ..ops.elementwise import BY_RECIPROCAL_DTYPES, integer_pow_by_squaring, mul_p, neg_p
from ..ops.indexing import gather_p
from ..ops.shape import reshape_p, transpose_p
from ..ops.structural import slice_indexer

_NO_VALUE = object()

# results of constant folding bigger than this (elements) are only kept when they are no
# bigger than the inputs (so e.g. broadcasting a scalar to a huge array stays an op)
FOLD_MAX_ELEMENTS = 1 << 16
MAX_ROUNDS = 4


class Program:
    """A jaxpr under optimization.  ``consts`` maps constant variables to their values."""

    __slots__ = ("constvars", "consts", "invars", "eqns", "outvars")

    def __init__(self, constvars, consts, invars, eqns, outvars) -> None:
        self.constvars, self.consts, self.invars, self.eqns, self.outvars = (
            constvars, consts, invars, eqns, outvars)

    def to_jaxpr(self) -> Jaxpr:
        return Jaxpr(list(self.constvars), list(self.invars), list(self.eqns), list(self.outvars))

    def __str__(self) -> str:
        return str(self.to_jaxpr())

    __repr__ = __str__


def is_call(e) -> bool:
    """A nested ``jit`` equation (inlined by `inline`)."""
    return e.prim.name == "jit" and "closed" in e.params


def _callee(e, ins: list):
    """``(program, its operands)`` of an equation `inline` replaces by its body: a nested
    jit call, or a staged custom_jvp/custom_vjp call (run as its function; the rules only
    matter to the transforms, which saw the equation before compilation); else None."""
    if is_call(e):
        return e.params["closed"], ins
    if e.prim.name == "custom_jvp_call":
        nf = e.params["n_fun_consts"]
        return e.params["fun"], ins[:nf] + ins[nf + e.params["n_jvp_consts"]:]
    if e.prim.name == "custom_vjp_call":
        n_consts = e.params["n_consts"]
        return e.params["fun"], ins[:n_consts[0]] + ins[sum(n_consts):]
    return None


def _size(shape) -> int:
    return math.prod(shape)


# ---------------------------------------------------------------------------------------
# inlining (also makes the private copy with fresh variables)


class _Frame:
    __slots__ = ("eqns", "i", "env", "ret")

    def __init__(self, eqns, env, ret) -> None:
        self.eqns, self.i, self.env, self.ret = eqns, 0, env, ret


def jit_callee(e, ins: list):
    """`_callee` for nested jit calls only (a custom_jvp/custom_vjp call stays a call)."""
    return (e.params["closed"], ins) if is_call(e) else None


def inline_jit_calls(jaxpr: Jaxpr, consts: list) -> tuple[Jaxpr, list]:
    """``(jaxpr, consts)`` with every nested jit call (``fnp.where``'s, ``fnp.clip``'s) spliced
    into its caller, so that the straight-line executor fuses their elementwise equations with
    the caller's into one native kernel (a ``custom_jvp``/``custom_vjp`` call stays a call); the
    same pair when there is none.  The shim's forward and backward programs (`fgrad.torch`).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> cj = fgrad.make_jaxpr(lambda x: fnp.where(x > 0, x, x * 0.2))(1.0)
        >>> j, c = inline_jit_calls(cj.jaxpr, cj.consts)
        >>> [e.prim.name for e in j.eqns]
        ['gt', 'mul', 'select_n']
    """
    if not any(is_call(e) for e in jaxpr.eqns):
        return jaxpr, consts
    prog = inline(jaxpr, consts, jit_callee)
    return prog.to_jaxpr(), [prog.consts[v] for v in prog.constvars]


def uniform_select_constants(jaxpr: Jaxpr, consts: list) -> tuple[Jaxpr, list]:
    """``(jaxpr, consts)`` where a constant array holding one value everywhere (the zeros of
    a ``select_n`` transpose: ReLU's backward ``where(x <= 0, 0, g)``) and read only as a
    value operand of ``select_n`` becomes that value as a literal: a native kernel then
    reads one number instead of a whole array, and NumPy's ``where`` broadcasts it; the same
    pair when there is none.  The shim's backward programs (`fgrad.torch`).

    Example::

        >>> import numpy as np, fgrad
        >>> from fgrad.torch._conventions import relu
        >>> cj = fgrad.make_jaxpr(fgrad.grad(lambda x: relu(x).sum()))(np.ones(3, np.float32))
        >>> j, c = uniform_select_constants(cj.jaxpr, cj.consts)
        >>> j.eqns[-1].invars[2], len(c)
        (Literal(0.0), 0)
    """
    uniform = {}
    for v, c in zip(jaxpr.constvars, consts):
        b = getattr(c, "_buf", c)
        if (type(b) is np.ndarray and b.ndim and b.size and b.dtype.kind in "biuf"
                and b.dtype.itemsize in (1, 2, 4, 8)):
            bits = b.reshape(-1).view(f"u{b.dtype.itemsize}")  # (bit patterns: -0.0 is not 0.0)
            if (bits == bits[0]).all():
                uniform[v] = b.reshape(-1)[0]  # (a NumPy scalar: its dtype and bits)
    if not uniform:
        return jaxpr, consts
    for e in jaxpr.eqns:  # read anywhere but as a select's value: kept
        for k, a in enumerate(e.invars):
            if a in uniform and (e.prim.name != "select_n" or k == 0):
                del uniform[a]
    for a in jaxpr.outvars:
        uniform.pop(a, None)
    if not uniform:
        return jaxpr, consts
    eqns = []
    for e in jaxpr.eqns:
        if any(type(a) is not Literal and a in uniform for a in e.invars):
            ins = [Literal(uniform[a], ShapedArray((), a.aval.dtype))
                   if type(a) is not Literal and a in uniform else a for a in e.invars]
            e = Eqn(e.prim, ins, e.outvars, e.params, e.source, e.name_stack)
        eqns.append(e)
    kept = [(v, c) for v, c in zip(jaxpr.constvars, consts) if v not in uniform]
    return (Jaxpr([v for v, _ in kept], jaxpr.invars, eqns, jaxpr.outvars), [c for _, c in kept])


def inline(jaxpr: Jaxpr, consts, callee: Callable = _callee) -> Program:
    """A `Program` equal to ``jaxpr`` (with constant values ``consts``) with every nested
    jit call replaced by its body (``callee``: which equations are calls, `_callee` or
    `jit_callee`).  Iterative (no recursion over nesting depth)."""
    constvars: list = []
    values: dict = {}

    def new_const(v, c):
        nv = Var(v.aval)
        constvars.append(nv)
        values[nv] = c
        return nv

    top: dict = {}
    for v, c in zip(jaxpr.constvars, consts):
        top[v] = new_const(v, c)
    invars = []
    for v in jaxpr.invars:
        nv = Var(v.aval)
        top[v] = nv
        invars.append(nv)
    eqns: list = []
    stack = [_Frame(jaxpr.eqns, top, None)]
    while stack:
        fr = stack[-1]
        if fr.i == len(fr.eqns):
            stack.pop()
            if fr.ret is not None:
                parent_env, outer_outs, inner_outs = fr.ret
                for ov, iv in zip(outer_outs, inner_outs):
                    parent_env[ov] = iv if type(iv) is Literal else fr.env[iv]
            continue
        e = fr.eqns[fr.i]
        fr.i += 1
        env = fr.env
        ins = [v if type(v) is Literal else env[v] for v in e.invars]
        call = callee(e, ins)
        if call is not None:
            closed, ins = call
            inner = closed.jaxpr
            ienv: dict = {}
            for v, c in zip(inner.constvars, closed.consts):
                ienv[v] = new_const(v, c)
            for v, a in zip(inner.invars, ins):
                ienv[v] = a
            stack.append(_Frame(inner.eqns, ienv, (env, e.outvars, inner.outvars)))
            continue
        outs = []
        for v in e.outvars:
            nv = Var(v.aval)
            env[v] = nv
            outs.append(nv)
        eqns.append(Eqn(e.prim, ins, outs, e.params))
    outvars = [v if type(v) is Literal else top[v] for v in jaxpr.outvars]
    return Program(constvars, values, invars, eqns, outvars)


# ---------------------------------------------------------------------------------------
# dead-code elimination


def dce(prog: Program) -> bool:
    """Drop equations whose results are unused, and unused constants.  Returns whether
    anything changed."""
    kept, live = live_eqns(prog.eqns, prog.outvars)
    changed = len(kept) != len(prog.eqns)
    prog.eqns = kept
    cv = [v for v in prog.constvars if v in live]
    if len(cv) != len(prog.constvars):
        changed = True
        prog.consts = {v: prog.consts[v] for v in cv}
        prog.constvars = cv
    return changed


# ---------------------------------------------------------------------------------------
# helpers for the forward pass


def _freeze(v):
    """A hashable key for a parameter value (floats by repr: -0.0 and nan stay distinct)."""
    t = type(v)
    if t is float:
        return ("f", repr(v))
    if t in (tuple, list):
        return (t.__name__,) + tuple(_freeze(x) for x in v)
    if t is dict:
        return ("d",) + tuple(sorted((k, _freeze(x)) for k, x in v.items()))
    hash(v)
    return v


def _atom_key(a):
    if type(a) is Literal:
        return ("lit", type(a.val), repr(a.val))
    return a


def _eqn_key(e):
    if has_effects(e):  # two identical callbacks both run
        return None
    try:
        params = tuple(sorted((k, _freeze(v)) for k, v in e.params.items()))
        key = (e.prim, tuple(_atom_key(a) for a in e.invars), params)
        hash(key)
    except TypeError:
        return None
    return key


def _same_aval(a, b) -> bool:
    """``a`` can stand for a result of aval ``b``: same shape and dtype, and not weak
    where the result is strong (a weak scalar would promote differently downstream)."""
    return a.shape == b.shape and a.dtype == b.dtype and (b.weak_type or not a.weak_type)


class _Rewriter:
    """The forward sweep: folding, simplification and CSE, with a substitution map."""

    def __init__(self, prog: Program, array_consts: bool = True) -> None:
        self.prog = prog
        self.array_consts = array_consts  # False: fold only into scalar literals
        self.subst: dict = {}
        self.producer: dict = {}  # var -> eqn that defines it (after rewriting)
        self.seen: dict = {}  # CSE table
        self.out: list = []
        self.changed = False

    # -- values --------------------------------------------------------------------------
    def value(self, a):
        if type(a) is Literal:
            return a.val
        return self.prog.consts.get(a, _NO_VALUE)

    def is_all(self, a, x) -> bool:
        """``a`` is known and every element equals ``x``: a literal, a constant, or a
        ``broadcast_in_dim`` of one (the ones a ``sum``'s transpose feeds a product)."""
        v = self.value(a)
        if v is _NO_VALUE:
            p = self.producer.get(a)
            return p is not None and p.prim.name == "broadcast_in_dim" and self.is_all(p.invars[0], x)
        if type(v) is bool or (hasattr(v, "dtype") and v.dtype == np.bool_):
            return False  # keep booleans out of arithmetic identities
        if type(v) in (int, float, complex):
            return v == x
        if np.size(v) > 4096:
            return False
        arr = to_host(v)  # a constant may live on a device: read it explicitly
        with np.errstate(all="ignore"):
            return bool(arr.size) and bool(np.all(arr == x))

    def read(self, a):
        if type(a) is Literal:
            return a
        return self.subst.get(a, a)

    # -- emitting ------------------------------------------------------------------------
    def emit(self, e) -> None:
        key = _eqn_key(e)
        if key is not None:
            prev = self.seen.get(key)
            if prev is not None:
                for v, p in zip(e.outvars, prev.outvars):
                    self.subst[v] = p
                self.changed = True
                return
            self.seen[key] = e
        for v in e.outvars:
            self.producer[v] = e
        self.out.append(e)

    def alias(self, v, a) -> None:
        self.subst[v] = a
        self.changed = True

    def new_eqn(self, prim, ins, aval, params, outvar=None):
        v = outvar if outvar is not None else Var(aval)
        e = Eqn(prim, ins, [v], params)
        self.emit(e)
        self.changed = True
        # the emitted equation may have been merged by CSE
        return self.subst.get(v, v)

    # -- constant folding ----------------------------------------------------------------
    def try_fold(self, e) -> bool:
        vals = []
        for a in e.invars:
            v = self.value(a)
            if v is _NO_VALUE:
                return False
            vals.append(v)
        if e.prim.name in ("rng_bit_generator",) or has_effects(e):
            return False
        if not self.array_consts and not all(_becomes_literal(v.aval) for v in e.outvars):
            return False
        out_size = sum(_size(v.aval.shape) for v in e.outvars)
        in_size = max([_size(np.shape(v)) for v in vals] + [1])
        if out_size > FOLD_MAX_ELEMENTS and out_size > in_size:
            return False
        xp = np
        for v in vals:
            if isinstance(v, (int, float, bool, complex)):
                continue
            be_xp = backend_of_buffer(v).xp
            if be_xp is not np:
                xp = be_xp
        try:
            with np.errstate(all="ignore"):
                res = e.prim.impl(xp, *vals, **e.params)
        except Exception:  # noqa: BLE001 - leave it to run time (and its error message)
            return False
        outs = list(res) if e.prim.multiple_results else [res]
        for v, r in zip(e.outvars, outs):
            av = v.aval
            if np.shape(r) != tuple(av.shape):
                return False
        for v, r in zip(e.outvars, outs):
            av = v.aval
            if _becomes_literal(av) and np.ndim(r) == 0:
                # a scalar result is inlined (a strongly typed one keeps its dtype in its aval:
                # jnp.where(c, x, -inf) casts its weak -inf to x's dtype inside jit[_where])
                val = _py_scalar(r, av)
                if not av.weak_type:  # a NumPy scalar: NumPy's ufuncs keep its dtype (NEP 50)
                    val = np.asarray(val, av.dtype)[()]
                self.subst[v] = Literal(val, av)
            else:
                if not hasattr(r, "dtype"):
                    r = np.asarray(r, av.dtype)
                if type(r) is np.ndarray and r.base is None and not any(r is x for x in vals):
                    # the fold's own new array: no one else may write into it (`codegen.frozen`
                    # then lets a native kernel read a C-ordered copy bound once)
                    r.flags.writeable = False
                nv = Var(ShapedArray(av.shape, r.dtype, False) if r.dtype != av.dtype else av)
                self.prog.constvars.append(nv)
                self.prog.consts[nv] = r
                self.subst[v] = nv
        self.changed = True
        return True

    # -- simplification ------------------------------------------------------------------
    def try_simplify(self, e) -> bool:
        name = e.prim.name
        rule = _RULES.get(name)
        if rule is not None and rule(self, e):
            return True
        if e.prim.family == "elementwise" and len(e.invars) > 1:
            return self.unbroadcast_operands(e)
        return False

    def unbroadcast_operands(self, e) -> bool:
        """An elementwise op whose operand is an explicit ``broadcast_in_dim`` while another
        operand already has the full result shape: use the small operand and let NumPy
        broadcast it (reshaped to line up), so no big broadcast array and no barrier."""
        out_shape = tuple(e.outvars[0].aval.shape)
        full = [type(a) is not Literal and tuple(a.aval.shape) == out_shape for a in e.invars]
        new, changed = list(e.invars), False
        for i, a in enumerate(e.invars):
            if type(a) is Literal:
                continue
            p = self.producer.get(a)
            if p is None or p.prim.name != "broadcast_in_dim" or type(p.invars[0]) is Literal:
                continue
            if tuple(p.params["shape"]) != out_shape or not any(f for j, f in enumerate(full) if j != i):
                continue
            src = p.invars[0]
            if src.aval.dtype != a.aval.dtype or (src.aval.weak_type and not a.aval.weak_type):
                continue
            expanded = [1] * len(out_shape)
            for k, d in enumerate(p.params["broadcast_dimensions"]):
                expanded[d] = src.aval.shape[k]
            expanded = tuple(expanded)
            # NumPy aligns shapes from the right: leading ones may be dropped
            lead = 0
            while lead < len(expanded) and expanded[lead] == 1:
                lead += 1
            if tuple(src.aval.shape) != expanded[lead:]:
                aval = ShapedArray(expanded, src.aval.dtype, src.aval.weak_type)
                src = self.new_eqn(reshape_p, [src], aval, {"new_sizes": expanded})
            new[i] = src
            full[i] = False  # no longer full: a later operand may lean on another one only
            changed = True
        if not changed:
            return False
        self.emit(Eqn(e.prim, new, e.outvars, e.params))
        self.changed = True
        return True

    def run(self) -> bool:
        prog = self.prog
        for e in prog.eqns:
            ins = [self.read(a) for a in e.invars]
            if any(a is not b for a, b in zip(ins, e.invars)):
                e = Eqn(e.prim, ins, e.outvars, e.params)
            if self.try_fold(e):
                continue
            if self.try_simplify(e):
                continue
            self.emit(e)
        prog.eqns = self.out
        prog.outvars = [self.read(v) for v in prog.outvars]
        return self.changed


def _becomes_literal(av) -> bool:
    """Whether a folded result of aval ``av`` is inlined as a `Literal` (a scalar) rather
    than kept as a constant array."""
    return av.shape == () and (av.weak_type or np.dtype(av.dtype).kind in "biuf")


def _py_scalar(r, av):
    kind = av.dtype.kind
    v = to_host(r).item() if hasattr(r, "shape") else r
    if kind == "b":
        return bool(v)
    if kind in "iu":
        return int(v)
    if kind == "f":
        return float(v)
    return complex(v)


# ---------------------------------------------------------------------------------------
# simplification rules: rule(rw, eqn) -> True when the equation was replaced


def _alias_if(rw, e, a) -> bool:
    out = e.outvars[0]
    if type(a) is not Literal and _same_aval(a.aval, out.aval):
        rw.alias(out, a)
        return True
    return False


def _r_mul(rw, e):
    x, y = e.invars
    if rw.is_all(y, 1) and _alias_if(rw, e, x):
        return True
    return rw.is_all(x, 1) and _alias_if(rw, e, y)


def _r_div(rw, e):
    x, y = e.invars
    if e.params.get("by_reciprocal"):
        return _div_by_reciprocal(rw, e)
    return rw.is_all(y, 1) and _alias_if(rw, e, x)



def _div_by_reciprocal(rw, e):
    """``div[by_reciprocal]`` as its implementation computes it (XLA's form for JAX's face):
    ``r = 1 / y`` once, in the quotient's dtype, then ``x * r`` -- two ordinary equations the
    fuser handles; a quotient of another dtype is a plain division.  Left as it is (its
    implementation runs) where ``y`` is not already in the quotient's dtype."""
    x, y = e.invars
    out = e.outvars[0]
    dt = out.aval.dtype
    if dt not in BY_RECIPROCAL_DTYPES:
        rw.new_eqn(e.prim, [x, y], out.aval, {}, outvar=out)
        return True
    if type(y) is Literal:
        if isinstance(y.val, (bool, complex)):
            return False
        r = float(np.true_divide(np.ones((), dt), np.asarray(y.val, dt)))
        inv = Literal(r, get_aval(r))
    elif y.aval.dtype == dt:
        inv = rw.new_eqn(e.prim, [Literal(1.0, get_aval(1.0)), y],
                         y.aval, {})
    else:
        return False
    rw.new_eqn(mul_p, [x, inv], out.aval, {}, outvar=out)
    return True


def _r_add(rw, e):
    x, y = e.invars
    if rw.is_all(y, 0) and _alias_if(rw, e, x):
        return True
    return rw.is_all(x, 0) and _alias_if(rw, e, y)


def _r_sub(rw, e):
    x, y = e.invars
    if rw.is_all(y, 0) and _alias_if(rw, e, x):
        return True
    out = e.outvars[0]
    if rw.is_all(x, 0) and type(y) is not Literal and _same_aval(y.aval, out.aval):
        rw.new_eqn(neg_p, [y], out.aval, {}, outvar=out)
        return True
    return False


def _r_neg(rw, e):
    (x,) = e.invars
    p = rw.producer.get(x) if type(x) is not Literal else None
    if p is not None and p.prim is e.prim:
        return _alias_if(rw, e, p.invars[0])
    return False


def _r_pow(rw, e):
    x, y = e.invars
    out = e.outvars[0]
    if type(y) is not Literal or type(x) is Literal or type(y.val) is bool:
        return False
    if y.val == 1 and _alias_if(rw, e, x):
        return True
    if y.val == 2 and x.aval.dtype.kind in "fciu" and _same_aval(x.aval, out.aval):
        rw.new_eqn(mul_p, [x, x], out.aval, {}, outvar=out)
        return True
    if (type(y.val) is int and y.val == 3 and x.aval.dtype in (np.float32, np.float64)
            and _same_aval(x.aval, out.aval)):
        sq = rw.new_eqn(mul_p, [x, x], out.aval, {})  # (x * x) * x: pow's impl for a cube
        rw.new_eqn(mul_p, [sq, x], out.aval, {}, outvar=out)
        return True
    return False


def _r_integer_pow(rw, e):
    """``integer_pow[y>=1]`` as the ``mul`` equations of XLA's lowering (binary
    exponentiation, the implementation's products in its order), so it fuses."""
    (x,) = e.invars
    out = e.outvars[0]
    y = e.params["y"]
    if type(x) is Literal or y < 1 or x.aval.dtype.kind not in "fciu" or not _same_aval(x.aval, out.aval):
        return False
    res = integer_pow_by_squaring(x, y, lambda a, b: rw.new_eqn(mul_p, [a, b], out.aval, {}), None)
    return _alias_if(rw, e, res)


def _r_square(rw, e):
    """``square`` is ``x * x`` (XLA's lowering), so equivalent spellings compile alike."""
    (x,) = e.invars
    out = e.outvars[0]
    if type(x) is Literal or not _same_aval(x.aval, out.aval):
        return False
    rw.new_eqn(mul_p, [x, x], out.aval, {}, outvar=out)
    return True


def _r_slice(rw, e):
    """``slice`` (JAX's primitive, in traced programs) compiles as the static gather it reads
    (`ops.structural.slice_indexer`), which the host kernels and fusion know."""
    (x,) = e.invars
    if type(x) is Literal:
        return False
    p = e.params
    indexer = slice_indexer(tuple(x.aval.shape), p["start_indices"], p["limit_indices"], p["strides"])
    out = e.outvars[0]
    if not indexer:
        return _alias_if(rw, e, x)
    rw.new_eqn(gather_p, [x], out.aval, {"indexer": indexer, "oob": "clip", "fill_value": None}, outvar=out)
    return True


def _r_squeeze(rw, e):
    """``squeeze`` compiles as the ``reshape`` it is (so reshapes around it merge)."""
    (x,) = e.invars
    if type(x) is Literal:
        return False
    out = e.outvars[0]
    rw.new_eqn(reshape_p, [x], out.aval, {"new_sizes": tuple(out.aval.shape)}, outvar=out)
    return True


def _r_real_part(rw, e):
    """``conj(x)`` and ``real(x)`` of a real ``x`` are ``x`` (abs_sq of a real compiles to
    ``x * x``, as XLA's simplifier makes it)."""
    (x,) = e.invars
    return type(x) is not Literal and x.aval.dtype.kind != "c" and _alias_if(rw, e, x)


def _r_convert(rw, e):
    return is_noop_convert(e) and _alias_if(rw, e, e.invars[0])


def _r_select(rw, e):
    c, y, x = e.invars  # select_n(c, on_false, on_true)
    if x is y or (type(x) is Literal and type(y) is Literal and repr(x.val) == repr(y.val)
                  and type(x.val) is type(y.val)):
        return _alias_if(rw, e, x)
    v = rw.value(c)
    if v is not _NO_VALUE and np.size(v) and np.size(v) <= 4096:
        arr = to_host(v)
        if arr.dtype == np.bool_ and arr.all():
            return _alias_if(rw, e, x)
        if arr.dtype == np.bool_ and not arr.any():
            return _alias_if(rw, e, y)
    return False


def _r_reshape(rw, e):
    (x,) = e.invars
    out = e.outvars[0]
    if type(x) is Literal:
        return False
    if tuple(x.aval.shape) == tuple(out.aval.shape):
        return _alias_if(rw, e, x)
    p = rw.producer.get(x)
    if p is not None and p.prim is e.prim:
        rw.new_eqn(e.prim, [p.invars[0]], out.aval, e.params, outvar=out)
        return True
    return False


def _r_transpose(rw, e):
    (x,) = e.invars
    perm = tuple(e.params["permutation"])
    if type(x) is Literal:
        return False
    if perm == tuple(range(len(perm))):
        return _alias_if(rw, e, x)
    p = rw.producer.get(x)
    if p is not None and p.prim is e.prim:
        inner = tuple(p.params["permutation"])
        composed = tuple(inner[i] for i in perm)
        y = p.invars[0]
        if composed == tuple(range(len(composed))):
            return _alias_if(rw, e, y)
        rw.new_eqn(e.prim, [y], e.outvars[0].aval, {"permutation": composed}, outvar=e.outvars[0])
        return True
    return False


def _uses_and_producers(prog: Program) -> tuple[dict, dict]:
    """How many equations (and program outputs) read each variable, and the equation that
    defines each."""
    uses: dict = {}
    for e in prog.eqns:
        for a in e.invars:
            if type(a) is not Literal:
                uses[a] = uses.get(a, 0) + 1
    for a in prog.outvars:
        if type(a) is not Literal:
            uses[a] = uses.get(a, 0) + 1
    return uses, {v: e for e in prog.eqns for v in e.outvars}


def swap_transposed_dots(prog: Program) -> bool:
    """``transpose(dot_general(x, y))`` as ``dot_general(y, x)`` where that is the same
    result (`_swapped_dot`) and the transpose is the product's only reader; the product is
    then dead (`dce`).  Run after CSE has merged equal products, so the count of readers is
    final and no product is computed twice.

    >>> import fgrad, fgrad.numpy as fnp
    >>> f = fgrad.jit(lambda a, b: (a @ b).T)
    >>> [e.prim.name for e in f.lower(fnp.ones((2, 3)), fnp.ones((3, 4))).optimized.eqns]
    ['dot_general']
    """
    uses, producer = _uses_and_producers(prog)
    changed = False
    for k, e in enumerate(prog.eqns):
        if e.prim is not transpose_p or type(e.invars[0]) is Literal or uses.get(e.invars[0]) != 1:
            continue
        p = producer.get(e.invars[0])
        if p is None or p.prim.name != "dot_general":
            continue
        dn = _swapped_dot(p, tuple(e.params["permutation"]))
        if dn is not None:
            prog.eqns[k] = Eqn(p.prim, [p.invars[1], p.invars[0]], e.outvars, {"dimension_numbers": dn})
            changed = True
    return changed


def _swapped_dot(p, perm):
    """The dimension numbers of ``dot_general(y, x)`` when ``transpose(dot_general(x, y),
    perm)`` only swaps the block of ``x``'s free axes with ``y``'s (batch axes stay first):
    ``(x y)ᵀ = yᵀ xᵀ``, one product whose result is laid out as the transpose wants, instead
    of a product and a transposed view (which the next elementwise op reads with strides).
    Same products and sums as before, in the same order."""
    (lc, rc), (lb, rb) = p.params["dimension_numbers"]
    x, y = p.invars
    nb = len(lb)
    nxf = len(x.aval.shape) - nb - len(lc)
    nyf = len(y.aval.shape) - nb - len(rc)
    if not nxf or not nyf:
        return None
    want = tuple(range(nb)) + tuple(range(nb + nxf, nb + nxf + nyf)) + tuple(range(nb, nb + nxf))
    if perm != want:
        return None
    return ((tuple(rc), tuple(lc)), (tuple(rb), tuple(lb)))


def diagonal_dots(prog: Program) -> bool:
    """A ``dot_general`` one of whose operands is an identity constant times scalars and
    vectors (a diagonal matrix: ``jacrev``'s and ``jacfwd``'s basis times the derivative's
    factors) becomes a `diagonal_dot`, which scales the other operand instead of running
    the GEMM (same values up to the sign of a zero; the original product where an operand
    is not finite).  The diagonal matrix itself is dropped by `dce` when nothing else reads
    it.

    >>> import fgrad, fgrad.numpy as fnp
    >>> W = fnp.ones((3, 3))
    >>> f = fgrad.jit(fgrad.jacrev(lambda x: (W @ x) * x))
    >>> [e.prim.name for e in f.lower(fnp.ones(3)).optimized.eqns]
    ['dot_general', 'mul', 'diagonal_dot', 'add_any']
    """
    from ..ops.diagonal_dot import diagonal_dot_p

    diag: dict = {}  # var -> (n, chain, vector operands): eye(n) times the chain's factors
    for v in prog.constvars:
        n = _identity_size(prog.consts[v])
        if n:
            diag[v] = (n, (), ())
    if not diag:
        return False
    changed = False
    for k, e in enumerate(prog.eqns):
        name = e.prim.name
        if name == "mul":
            out = e.outvars[0]
            for m, other in (e.invars, reversed(e.invars)):
                if type(m) is Literal or m not in diag:
                    continue
                n, chain, ops = diag[m]
                if tuple(out.aval.shape) != (n, n) or out.aval.dtype != m.aval.dtype:
                    break
                if type(other) is Literal:
                    if np.ndim(other.val) == 0:
                        diag[out] = (n, chain + (other.val,), ops)
                elif (other not in diag and other.aval.dtype == out.aval.dtype
                      and tuple(other.aval.shape) in ((), (n,), (1, n), (n, 1))):
                    diag[out] = (n, chain + (None,), ops + (other,))
                break
        elif name == "dot_general":
            dn = e.params["dimension_numbers"]
            (lc, rc), (lb, rb) = dn
            if lb or rb or len(lc) != 1 or any(type(a) is Literal for a in e.invars):
                continue
            x, y = e.invars
            for d_first, m, a in ((True, x, y), (False, y, x)):
                if m in diag and a not in diag and a.aval.dtype == m.aval.dtype == e.outvars[0].aval.dtype:
                    n, chain, ops = diag[m]
                    prog.eqns[k] = Eqn(diagonal_dot_p, list(ops) + [a], e.outvars, {
                        "n": n, "chain": chain, "d_first": d_first, "dimension_numbers": dn})
                    changed = True
                    break
    return changed


def scaled_scatters(prog: Program) -> bool:
    """A scatter-add of products ``s * X[cols]`` (a gather of rows scaled by one scalar each,
    ``s`` of shape ``(n, 1)``; the product and the gathered rows read by nothing else)
    becomes one `scaled_scatter` -- a sparse-dense product ``S @ X`` in one pass instead of
    three, with the same values (`ops.scaled_scatter`).  The gather and the product are
    dropped by `dce`.

    >>> import fgrad, fgrad.numpy as fnp
    >>> rows, cols = fnp.array([0, 2, 2]), fnp.array([1, 0, 1])
    >>> f = fgrad.jit(lambda z, s, X: z.at[rows].add(s[:, None] * X[cols]))
    >>> [e.prim.name for e in f.lower(fnp.zeros((3, 2)), fnp.ones(3), fnp.ones((2, 2))).optimized.eqns]
    ['reshape', 'scaled_scatter']
    """
    from ..ops.scaled_scatter import scaled_scatter_p

    uses, producer = _uses_and_producers(prog)
    changed = False
    for k, e in enumerate(prog.eqns):
        if (e.prim.name != "scatter" or e.params["mode"] != "add" or e.params["indexer"] != (("a", 0),)
                or len(e.invars) != 3 or any(type(a) is Literal for a in e.invars)):
            continue
        x, u, rows = e.invars
        m = producer.get(u)
        if m is None or m.prim.name != "mul" or uses.get(u) != 1 or len(x.aval.shape) != 2:
            continue
        for s, g in (m.invars, m.invars[::-1]):
            ge = producer.get(g)
            if (type(s) is Literal or type(g) is Literal or ge is None or ge.prim.name != "gather"
                    or uses.get(g) != 1 or ge.params["indexer"] != (("a", 0),) or len(ge.invars) != 2):
                continue
            X, cols = ge.invars
            n = tuple(rows.aval.shape)
            if (type(X) is Literal or type(cols) is Literal or len(n) != 1 or tuple(cols.aval.shape) != n
                    or tuple(s.aval.shape) != n + (1,) or len(X.aval.shape) != 2
                    or not (x.aval.dtype == s.aval.dtype == X.aval.dtype == u.aval.dtype)):
                continue
            prog.eqns[k] = Eqn(scaled_scatter_p, [x, s, X, cols, rows], e.outvars, {
                "gather_oob": ge.params["oob"], "fill_value": ge.params["fill_value"],
                "oob": e.params["oob"], "s_first": s is m.invars[0]})
            changed = True
            break
    return changed


def _identity_size(val) -> int:
    """``n`` when ``val`` is a host floating-point ``n × n`` identity matrix (n ≥ 2), else 0."""
    if type(val) is not np.ndarray or val.ndim != 2 or val.dtype.kind != "f":
        return 0
    n = val.shape[0]
    if n < 2 or val.shape[1] != n or n > 8192 or val[0, 0] != 1 or val[0, 1] != 0:
        return 0
    return n if np.array_equal(val, np.eye(n, dtype=val.dtype)) else 0


def _r_bid(rw, e):
    (x,) = e.invars
    out = e.outvars[0]
    if type(x) is Literal:
        return False
    if tuple(x.aval.shape) == tuple(out.aval.shape) and tuple(e.params["broadcast_dimensions"]) == tuple(
            range(len(out.aval.shape))):
        return _alias_if(rw, e, x)
    dims = tuple(e.params["broadcast_dimensions"])
    p = rw.producer.get(x)
    if p is not None and p.prim is e.prim and type(p.invars[0]) is not Literal:  # bid of bid: one
        inner = tuple(dims[d] for d in p.params["broadcast_dimensions"])
        rw.new_eqn(e.prim, [p.invars[0]], out.aval, dict(e.params, broadcast_dimensions=inner), outvar=out)
        return True
    if x.aval.size == out.aval.size and dims == tuple(sorted(dims)):  # only new axes of 1: a reshape
        rw.new_eqn(reshape_p, [x], out.aval, {"new_sizes": tuple(out.aval.shape)}, outvar=out)
        return True
    return False


def _r_reduce(rw, e):
    (x,) = e.invars
    return type(x) is not Literal and tuple(e.params.get("axes", (0,))) == () and _alias_if(rw, e, x)


def _r_gather(rw, e):
    if len(e.invars) != 1 or type(e.invars[0]) is Literal:
        return False
    x = e.invars[0]
    idx = e.params.get("indexer", ())
    if tuple(x.aval.shape) != tuple(e.outvars[0].aval.shape) or len(idx) > len(x.aval.shape):
        return False
    for ent in idx:
        if ent[0] != "s" or ent[3] not in (None, 1):
            return False
    return _alias_if(rw, e, x)


def _r_dot_general(rw, e):
    """No contracting dimensions: an outer product (batched) is a broadcasting multiply."""
    x, y = e.invars
    if type(x) is Literal or type(y) is Literal:
        return False
    (lc, rc), (lb, rb) = e.params["dimension_numbers"]
    out = e.outvars[0]
    if lc or rc:
        return False
    dt = out.aval.dtype
    if dt.kind not in "fc" or x.aval.dtype != dt or y.aval.dtype != dt:
        return False
    xs, ys = x.aval.shape, y.aval.shape
    xf = tuple(i for i in range(len(xs)) if i not in lb)
    yf = tuple(i for i in range(len(ys)) if i not in rb)

    def arrange(v, shape, batch, free, ones_before, ones_after):
        perm = tuple(batch) + tuple(free)
        if perm != tuple(range(len(shape))):
            t_shape = tuple(shape[i] for i in perm)
            v = rw.new_eqn(transpose_p, [v], ShapedArray(t_shape, dt), {"permutation": perm})
        new = (tuple(shape[i] for i in batch) + (1,) * ones_before + tuple(shape[i] for i in free)
               + (1,) * ones_after)
        if new != tuple(shape[i] for i in perm):
            v = rw.new_eqn(reshape_p, [v], ShapedArray(new, dt), {"new_sizes": new})
        return v

    xa = arrange(x, xs, lb, xf, 0, len(yf))
    ya = arrange(y, ys, rb, yf, len(xf), 0)
    rw.new_eqn(mul_p, [xa, ya], out.aval, {}, outvar=out)
    return True


_RULES = {
    "mul": _r_mul, "div": _r_div, "add": _r_add, "add_any": _r_add, "sub": _r_sub, "neg": _r_neg,
    "pow": _r_pow, "integer_pow": _r_integer_pow, "slice": _r_slice, "squeeze": _r_squeeze,
    "square": _r_square,
    "convert_element_type": _r_convert, "select_n": _r_select, "reshape": _r_reshape,
    "transpose": _r_transpose, "broadcast_in_dim": _r_bid, "reduce_sum": _r_reduce,
    "reduce_max": _r_reduce, "reduce_min": _r_reduce, "reduce_prod": _r_reduce,
    "gather": _r_gather, "dot_general": _r_dot_general, "conj": _r_real_part, "real": _r_real_part,
}


def forward(prog: Program, simplify: bool = True, array_consts: bool = True) -> bool:
    """One sweep of constant folding, simplification and CSE (``array_consts=False``: only
    folds whose results are scalars, inlined as literals)."""
    rw = _Rewriter(prog, array_consts)
    if not simplify:
        rw.try_simplify = lambda e: False  # type: ignore[method-assign]
    return rw.run()


def drop_noop_converts(prog: Program) -> bool:
    """Uses of a no-op convert's result (`core.ir.is_noop_convert`: JAX's staging marking a
    weak value strong) read its operand instead; the convert is dropped.  Run last: the
    weak-type marks matter to the rewrite rules (`_same_aval`), not to the generated code,
    where each such convert would cost an array copy (one per iteration in a loop body).
    Returns whether anything changed."""
    subst: dict = {}
    eqns = []
    for e in prog.eqns:
        ins = [subst.get(a, a) if type(a) is not Literal else a for a in e.invars]
        if is_noop_convert(e):
            subst[e.outvars[0]] = ins[0]
            continue
        same = all(a is b for a, b in zip(ins, e.invars))
        eqns.append(e if same else Eqn(e.prim, ins, e.outvars, e.params, e.source, e.name_stack))
    if not subst:
        return False
    prog.eqns = eqns
    prog.outvars = [subst.get(v, v) if type(v) is not Literal else v for v in prog.outvars]
    return True


def optimize(jaxpr: Jaxpr, consts, simplify: bool = True, array_consts: bool = True) -> Program:
    """The whole pass pipeline: inline, then fold/simplify/CSE and DCE to a fixpoint, the
    structural passes, and last `drop_noop_converts`.  ``array_consts=False`` (a loop or
    branch body, which may run on a device where host constants cannot be read): constant
    folding makes no constant arrays, only scalar literals."""
    prog = inline(jaxpr, consts)
    dce(prog)
    for _ in range(MAX_ROUNDS):
        changed = forward(prog, simplify, array_consts)
        changed = dce(prog) or changed
        if not changed:
            break
    if simplify and swap_transposed_dots(prog):
        dce(prog)
    if simplify and diagonal_dots(prog):
        dce(prog)
    if simplify and scaled_scatters(prog):
        dce(prog)
    if simplify and any(e.prim.name == "scan" for e in prog.eqns):
        from .scan_products import batch_scan_products

        if batch_scan_products(prog):
            dce(prog)
    drop_noop_converts(prog)
    return prog


__all__ = ["Program", "inline", "inline_jit_calls", "jit_callee",
           "dce", "forward", "optimize", "drop_noop_converts", "is_call",
           "swap_transposed_dots", "diagonal_dots", "scaled_scatters"]
