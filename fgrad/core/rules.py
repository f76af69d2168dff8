"""Declaring a primitive's rules: JVP, transpose and batching, set together by helpers.

Every primitive in `fgrad.ops` gets its rules through these helpers (as JAX's ``defjvp``,
``deflinear``, ``defbilinear`` ...), never by assigning ``p.jvp = ...``; each helper records
what it set in ``p.declared``, and the registry test checks that every rule came from a
helper and that ``p.linear`` agrees with the transpose rule.

* `defjvp` / `defjvp2`: one rule per argument, ``rule(t, *primals, **params)`` (``defjvp2``:
  ``rule(t, out, *primals, **params)``) gives that argument's contribution to the output
  tangent.  Symbolic-zero tangents (None) are skipped and the contributions summed here,
  once; for broadcasting primitives the sum is broadcast to the output's shape.
* `defjvp_shared`: per-argument rules over intermediates computed once for all arguments.
* `defzero`: not differentiable (a zero tangent).
* `deflinear`: a primitive linear in all its array inputs: its JVP is the primitive applied
  to the tangents, its transpose rule is given, and ``linear = True`` is set with it.
* `defbilinear`: a primitive linear in each argument separately (mul, dot_general).
* `deflinear_in`: the transpose rule of a primitive linear only in some inputs (div in the
  numerator, select in the branches); ``linear`` stays False.
* `defjvp_rule`, `defbatch`: a whole rule for primitives whose rule does not decompose
  (control flow, decompositions, sorting).
* `defvectorized` / `defbroadcasting`: batching rules of elementwise families.

The tangent sum and broadcast and the batching helpers bind the ``add``,
``broadcast_in_dim``, ``transpose`` and ``reshape`` primitives, found by name in the
registry: they are defined in `fgrad.ops` with these very helpers, above this module.

`UndefinedPrimal` marks the linear inputs a transpose rule receives.
"""

from __future__ import annotations

from typing import Callable

from .array import ShapedArray, get_aval
from .primitive import PRIMITIVES, Primitive


class UndefinedPrimal:
    """Marks a linear input of a primitive during transposition (its value is unknown;
    only its shape and dtype are).

    Example::

        >>> from fgrad.core.array import ShapedArray
        >>> UndefinedPrimal(ShapedArray((2,), "float32")).aval.shape
        (2,)
    """

    __slots__ = ("aval",)

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __repr__(self) -> str:
        return f"UndefinedPrimal({self.aval})"


def is_undefined(x) -> bool:
    """True for the `UndefinedPrimal` placeholder of a linear input in a transpose rule.

    Example::

        >>> is_undefined(UndefinedPrimal(ShapedArray((2,), "float32"))), is_undefined(1.0)
        (True, False)
    """
    return type(x) is UndefinedPrimal


# -- the registry's own primitives (bound by name; see the module docstring) ----------------

def _bind(name: str, *args, **params):
    return PRIMITIVES[name].bind(*args, **params)


def _shape(x) -> tuple:
    try:
        return x.shape
    except AttributeError:
        return get_aval(x).shape


def add_tangents(a, b):
    """``a + b`` for tangent contributions (None is a symbolic zero)."""
    if a is None:
        return b
    if b is None:
        return a
    return _bind("add_any", a, b)  # JAX's add_any: numerically add


def _broadcast_to(t, shp: tuple):
    ts = _shape(t)
    if ts == shp:
        return t
    lead = len(shp) - len(ts)
    return _bind("broadcast_in_dim", t, shape=shp, broadcast_dimensions=tuple(range(lead, len(shp))))


def _declare(prim: Primitive, **rules) -> None:
    for k, v in rules.items():
        setattr(prim, k, v)
        prim.declared[k] = v


# -- JVP --------------------------------------------------------------------------------

def _finish(prim: Primitive, out, t, n_in: int):
    """The summed tangent made the output's: broadcast (broadcasting families with several
    inputs) and converted (``cast_to_out``)."""
    if t is None:
        return None
    declared = prim.declared
    if n_in > 1 and declared.get("broadcasting"):
        t = _broadcast_to(t, _shape(out))
    if declared.get("cast_to_out"):
        dt = get_aval(out).dtype
        if get_aval(t).dtype != dt:
            t = _bind("convert_element_type", t, new_dtype=dt)
    return t


def _combine(prim: Primitive, out, parts: list, n_in: int):
    t = None
    for p in parts:
        t = add_tangents(t, p)
    return _finish(prim, out, t, n_in)


def _per_argument_jvp(prim: Primitive, rules: tuple, call: Callable, shared: Callable | None = None):
    """The JVP rule summing ``call(rule, t, out, s, primals, params)`` over the arguments
    with a nonzero tangent (``s = shared(out, *primals, **params)``, computed once).  One-
    and two-argument primitives get unrolled versions: this runs on every differentiated
    op."""
    bind = prim.bind
    if len(rules) == 1:
        (r0,) = rules

        def jvp1(primals, tangents, **params):
            out = bind(*primals, **params)
            t = tangents[0]
            if t is None or r0 is None:
                return out, None
            s = None if shared is None else shared(out, *primals, **params)
            return out, _finish(prim, out, call(r0, t, out, s, primals, params), len(primals))

        return jvp1
    if len(rules) == 2:
        r0, r1 = rules

        def jvp2(primals, tangents, **params):
            out = bind(*primals, **params)
            t0, t1 = tangents
            s = None if shared is None else shared(out, *primals, **params)
            a = None if t0 is None or r0 is None else call(r0, t0, out, s, primals, params)
            b = None if t1 is None or r1 is None else call(r1, t1, out, s, primals, params)
            return out, _finish(prim, out, add_tangents(a, b), 2)

        return jvp2

    def jvp(primals, tangents, **params):
        out = bind(*primals, **params)
        s = None if shared is None else shared(out, *primals, **params)
        parts = [call(r, t, out, s, primals, params) for r, t in zip(rules, tangents)
                 if r is not None and t is not None]
        return out, _combine(prim, out, parts, len(primals))

    return jvp


def defjvp(prim: Primitive, *rules: Callable | None) -> None:
    """Per-argument JVP rules: ``rules[i](t_i, *primals, **params)`` is argument i's
    contribution to the output tangent (None: the output does not depend on it
    differentiably).

    Example::

        >>> from fgrad.ops.elementwise import sin_p  # sin's rule: defjvp2 of t * cos(x)
        >>> sin_p.declared["jvp"] is sin_p.jvp
        True
    """
    _declare(prim, jvp=_per_argument_jvp(
        prim, rules, lambda r, t, out, s, primals, params: r(t, *primals, **params)))


def defjvp2(prim: Primitive, *rules: Callable | None) -> None:
    """As `defjvp`, with rules that also get the primal output:
    ``rules[i](t_i, out, *primals, **params)``."""
    _declare(prim, jvp=_per_argument_jvp(
        prim, rules, lambda r, t, out, s, primals, params: r(t, out, *primals, **params)))


def defjvp_shared(prim: Primitive, shared: Callable, *rules: Callable | None) -> None:
    """As `defjvp`, for per-argument rules over common intermediates:
    ``s = shared(out, *primals, **params)`` runs once (when some tangent is nonzero), then
    ``rules[i](t_i, s)`` gives argument i's contribution (max/min's tie weights, hypot's
    scaled operands: computed once, not once per argument).

    Example::

        >>> from fgrad.ops.elementwise import hypot_p
        >>> hypot_p.declared["jvp"] is hypot_p.jvp
        True
    """
    _declare(prim, jvp=_per_argument_jvp(
        prim, rules, lambda r, t, out, s, primals, params: r(t, s), shared))


def defzero(prim: Primitive) -> None:
    """``prim`` is not differentiable: its output tangent is zero (e.g. comparisons)."""
    if prim.multiple_results:
        def jvp(primals, tangents, **params):
            out = prim.bind(*primals, **params)
            return out, [None] * len(out)
    else:
        def jvp(primals, tangents, **params):
            return prim.bind(*primals, **params), None

    _declare(prim, jvp=jvp)


def defjvp_rule(prim: Primitive, rule: Callable) -> None:
    """A whole JVP rule ``rule(primals, tangents, **params) -> (out, tangent_out)``, for
    primitives whose tangent does not split into per-argument parts."""
    _declare(prim, jvp=rule)


# -- linearity and transposition ------------------------------------------------------------

def deflinear(prim: Primitive, transpose: Callable, *, partials: tuple | None = None,
              jvp: Callable | None = None) -> None:
    """``prim`` is linear in all its array inputs: its JVP applies ``prim`` to the tangents,
    its transpose rule is ``transpose(ct, *args, **params)``, and ``prim.linear`` is set, all
    at once.  With several inputs, a symbolic-zero tangent takes the per-argument linear
    parts ``partials[i](t_i, *primals, **params)`` instead (add: ``t``; sub: ``t, -t``);
    ``jvp`` replaces the whole rule where zero tangents need other care (select's zeros).

    Example::

        >>> from fgrad.ops.shape import reshape_p
        >>> reshape_p.linear and reshape_p.transpose is reshape_p.declared["transpose"]
        True
    """
    if jvp is None:
        def jvp(primals, tangents, **params):
            out = prim.bind(*primals, **params)
            for t in tangents:
                if t is None:
                    break
            else:
                return out, _combine(prim, out, [prim.bind(*tangents, **params)], len(primals))
            if partials is None:
                raise NotImplementedError(
                    f"internal error: linear primitive '{prim.name}' got a symbolic-zero tangent "
                    "but declares no per-argument `partials` (fgrad.core.rules.deflinear)")
            parts = [r(t, *primals, **params) for r, t in zip(partials, tangents) if t is not None]
            t = _combine(prim, out, parts, len(primals))
            # add(float16 x, float64 c): x's tangent alone is float16, the output float64 (JAX's
            # tangent has the primal's dtype; a scan carrying it failed its carry-type check)
            if t is not None and get_aval(t).dtype != get_aval(out).dtype:
                t = _bind("convert_element_type", t, new_dtype=get_aval(out).dtype)
            return out, t

    _declare(prim, jvp=jvp, transpose=transpose, linear=True)
    prim.declared["kind"] = "linear"


def defbilinear(prim: Primitive, lhs_transpose: Callable, rhs_transpose: Callable, *,
                cast_to_out: bool = False) -> None:
    """``prim(x, y)`` is linear in each argument separately (mul, dot_general): JVP
    ``prim(tx, y) + prim(x, ty)`` (converted to the output's dtype with ``cast_to_out``);
    transpose ``lhs_transpose(ct, x, y)`` when x is the linear input, ``rhs_transpose(ct, x,
    y)`` when y is.

    Example::

        >>> from fgrad.ops.elementwise import mul_p
        >>> mul_p.declared["kind"], mul_p.linear
        ('bilinear', False)
    """
    def lhs(t, x, y, **params):
        return prim.bind(t, y, **params)

    def rhs(t, x, y, **params):
        return prim.bind(x, t, **params)

    defjvp(prim, lhs, rhs)
    if cast_to_out:
        prim.declared["cast_to_out"] = True

    def transpose(ct, x, y, **params):
        if is_undefined(x) and is_undefined(y):
            raise ValueError(f"{prim.name} is not linear in both arguments at once")
        if is_undefined(x):
            return lhs_transpose(ct, x, y, **params), None
        return None, rhs_transpose(ct, x, y, **params)

    _declare(prim, transpose=transpose)
    prim.declared["kind"] = "bilinear"


def deflinear_in(prim: Primitive, transpose: Callable) -> None:
    """The transpose rule of a primitive linear in only some of its inputs (div in the
    numerator, select in its branches); ``prim.linear`` stays False."""
    _declare(prim, transpose=transpose)
    prim.declared["kind"] = "partly linear"


# -- batching -----------------------------------------------------------------------------

def defbatch(prim: Primitive, rule: Callable, *, axis_name: bool = False) -> None:
    """A batching rule ``rule(axis_size, vals, dims, **params) -> (out, out_dim)``.  With
    ``axis_name=True`` the rule also gets ``bound_axis=``, the ``axis_name`` of the vmap
    (or pmap) that batches it (collectives over named axes, programs that contain them)."""
    _declare(prim, batch=rule)
    if axis_name:
        prim.declared["batch_axis_name"] = True


def defvectorized(prim: Primitive) -> None:
    """A unary primitive that maps over every axis: the batched axis passes through."""
    def rule(axis_size, vals, dims, **params):
        return prim.bind(vals[0], **params), dims[0]

    _declare(prim, batch=rule)


def defbroadcasting(prim: Primitive) -> None:
    """An n-ary elementwise primitive with NumPy broadcasting: batched operands are
    aligned (batch axis first, rank-padded after it); output tangents are broadcast to the
    output's shape."""
    def rule(axis_size, vals, dims, **params):
        if len(vals) == 1:
            return prim.bind(vals[0], **params), dims[0]
        new, d = align_batched(vals, dims)
        return prim.bind(*new, **params), d

    _declare(prim, batch=rule, broadcasting=True)


def align_batched(vals, dims) -> tuple[list, int]:
    """Operands of a NumPy-broadcasting primitive under vmap, aligned so that the batch axis
    broadcasts with itself: ``(operands, batch axis of the result)``.  Batched operands get
    the batch axis first and are rank-padded after it; unbatched ones broadcast as they are
    (all batched at one axis with equal rank, the others scalars: returned unchanged)."""
    ranks = [len(_shape(v)) - (d is not None) for v, d in zip(vals, dims)]
    r = max(ranks)
    d0 = next(d for d in dims if d is not None)
    if all((d is None and rk == 0) or (d == d0 and rk == r) for d, rk in zip(dims, ranks)):
        return list(vals), d0
    new = []
    for v, d, rk in zip(vals, dims, ranks):
        if d is not None:
            if d != 0:
                n = len(_shape(v))
                perm = [i for i in range(n) if i != d]
                perm.insert(0, d)
                v = _bind("transpose", v, permutation=tuple(perm))
            if rk < r:
                s = _shape(v)
                v = _bind("reshape", v, new_sizes=(s[0],) + (1,) * (r - rk) + s[1:])
        new.append(v)
    return new, 0


__all__ = ["UndefinedPrimal", "is_undefined", "add_tangents", "defjvp", "defjvp2", "defjvp_shared", "defzero",
           "defjvp_rule", "deflinear", "defbilinear", "deflinear_in", "defbatch", "defvectorized",
           "defbroadcasting", "align_batched"]
