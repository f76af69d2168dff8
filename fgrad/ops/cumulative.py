"""Cumulative primitives along one axis: cumsum, cumprod, cummax, cummin, cumlogsumexp.

Each takes ``axis`` (non-negative int) and ``reverse`` (scan from the end) and keeps the
operand's dtype (promotion is the NumPy layer's job).

* ``cumsum`` is linear; its transpose is the cumsum in the other direction.
* The others are differentiated exactly (zeros included, to every order) by running an
  associative scan over (value, tangent) pairs, built from mul/select/add and the
  gather/scatter along an axis of `fgrad.ops.sorting`; that is O(n log n) and linear in the
  tangents, so reverse mode transposes it.  Ties in cummax/cummin share the tangent evenly
  (like reduce_max).

`associative_scan(fn, elems, reverse, axis)` is exported as well (lax.associative_scan).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from ..typing import Array, ArrayLike, Shaped

import numpy as np

from ..core.array import ShapedArray, get_aval
from ..core.constants import ones_like
from ..core.narrow_floats import dtype_kind
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp2, deflinear
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from ..core.quiet import quiet
from ._util import normalize_axis, shape
from .elementwise import add, div, eq, exp, gt, logaddexp_p, lt, mul, select, sub
from .sorting import flip_axis, scatter_add_along_axis, slice_axis

# ---------------------------------------------------------------------------------------
# associative scan (composite)


def _scan_flat(combine, elems, axis):
    n = shape(elems[0])[axis]
    if n < 2:
        return elems
    a = [slice_axis(e, axis, 0, n - 1, 2) for e in elems]
    b = [slice_axis(e, axis, 1, None, 2) for e in elems]
    odd = _scan_flat(combine, combine(a, b), axis)  # results at positions 1, 3, 5, ...
    rest = [slice_axis(e, axis, 2, None, 2) for e in elems]
    if n >= 3:
        lhs = [slice_axis(o, axis, 0, n // 2 - 1) for o in odd] if n % 2 == 0 else odd
        even = combine(lhs, rest)  # results at positions 2, 4, ...
    else:
        even = None
    out = []
    for i, e in enumerate(elems):
        r = add(scatter_add_along_axis(slice_axis(e, axis, 0, 1), _idx([0], axis, e), axis, n),
                scatter_add_along_axis(odd[i], _idx(range(1, n, 2), axis, e), axis, n))
        if even is not None:
            r = add(r, scatter_add_along_axis(even[i], _idx(range(2, n, 2), axis, e), axis, n))
        out.append(r)
    return out


def _idx(positions, axis, like):
    p = np.asarray(list(positions), dtype=np.int64)
    nd = len(shape(like))
    return p.reshape((1,) * axis + (p.size,) + (1,) * (nd - axis - 1))


def associative_scan(fn: Callable, elems: Any, reverse: bool = False, axis: int = 0) -> Any:
    """Inclusive scan of ``elems`` (a pytree of arrays with equal size along ``axis``) with
    the associative ``fn(a, b)`` (pytrees in, pytree out, elementwise over the axis).

    Example::

        >>> import fgrad.numpy as fnp
        >>> associative_scan(fnp.add, fnp.arange(4.0))
        Array([0., 1., 3., 6.], dtype=float64)
    """
    if not callable(fn):
        raise TypeError("lax.associative_scan: fn argument should be callable.")
    flat, tree = tree_flatten(elems)
    if not flat:
        return elems
    nd = len(shape(flat[0]))
    axis = normalize_axis(axis, nd, "associative_scan")
    n = shape(flat[0])[axis]
    for e in flat:
        if shape(e)[axis] != n:
            raise ValueError("associative_scan: all elements need the same size along the scan axis")

    def combine(a, b):
        out = fn(tree_unflatten(tree, a), tree_unflatten(tree, b))
        leaves, t2 = tree_flatten(out)
        if t2 != tree:
            raise TypeError(f"associative_scan: fn must return the structure of its inputs {tree}, got {t2}")
        return leaves

    if reverse:
        flat = [flip_axis(e, axis) for e in flat]
    out = _scan_flat(combine, flat, axis)
    if reverse:
        out = [flip_axis(e, axis) for e in out]
    return tree_unflatten(tree, out)


# ---------------------------------------------------------------------------------------
# primitives


def _as_xp(xp, a):
    return a if isinstance(a, xp.ndarray) else xp.asarray(a)


def _accumulate(xp, ufunc_name, x, axis):
    uf = getattr(xp, ufunc_name)
    try:
        return uf.accumulate(x, axis=axis)
    except (AttributeError, NotImplementedError, TypeError):  # pragma: no cover - cupy gaps
        return xp.asarray(getattr(np, ufunc_name).accumulate(xp.asnumpy(x), axis=axis))


_TILE = 16  # XLA's ReduceWindowRewriter base length (the CPU pipeline's)


def _windowed_scan(xp, op, identity, x, axis, reverse):
    """``x`` scanned along ``axis`` with the binary ``op`` in the order of XLA's CPU
    lowering of JAX's cumulative reductions (a ``reduce_window`` of the whole axis, which
    XLA's ReduceWindowRewriter tiles): the axis is padded at its end with ``identity`` to
    whole tiles of 16; within a tile each output reduces its window from left to right
    (a running scan forwards; from the element to the tile's end in reverse); the tiles'
    totals are scanned the same way (recursively) and combined with the tiles' results.
    Rounding follows JAX's exactly, so a float32 or bfloat16 ``cumsum`` prints JAX's digits
    (a sequential running sum differs from the 32nd element on)."""
    x = xp.moveaxis(x, axis, -1)
    n = x.shape[-1]
    tiles = -(-n // _TILE)
    pad = tiles * _TILE - n
    if pad:
        x = xp.concatenate([x, xp.full(x.shape[:-1] + (pad,), identity, x.dtype)], axis=-1)
    t = x.reshape(x.shape[:-1] + (tiles, _TILE))
    out = t.copy()
    if reverse:
        for k in range(1, _TILE):  # out[i] = t[i] op t[i+1] op ... (left to right)
            out[..., :_TILE - k] = op(out[..., :_TILE - k], t[..., k:])
        totals, first = out[..., 0], -1
    else:
        for k in range(1, _TILE):
            out[..., k] = op(out[..., k - 1], t[..., k])
        totals, first = out[..., -1], 0
    if tiles > 1:
        done = _windowed_scan(xp, op, identity, totals, totals.ndim - 1, reverse)
        carry = xp.full(done.shape, identity, done.dtype)
        if reverse:
            carry[..., :first] = done[..., 1:]
        else:
            carry[..., 1:] = done[..., :-1]
        out = op(out, carry[..., None]) if reverse else op(carry[..., None], out)
    out = out.reshape(x.shape)[..., :n]
    return xp.moveaxis(out, -1, axis)


def _make_impl(kind):
    def impl(xp, x, axis, reverse, sequential=False):
        x = _as_xp(xp, x)
        k = dtype_kind(x.dtype)  # bfloat16 is 'f'
        windowed = not sequential and x.shape[axis]
        if kind == "cumsum" and k in "fc" and windowed:
            return _windowed_scan(xp, xp.add, 0, x, axis, reverse)
        if kind == "cumprod" and k == "f" and windowed:
            return _windowed_scan(xp, xp.multiply, 1, x, axis, reverse)
        if reverse:
            x = xp.flip(x, axis)
        if kind == "cumsum":
            out = xp.cumsum(x, axis=axis, dtype=x.dtype)
        elif kind == "cumprod":
            out = xp.cumprod(x, axis=axis, dtype=x.dtype)
        elif kind == "cummax":
            out = _accumulate(xp, "maximum", x, axis)
        elif kind == "cummin":
            out = _accumulate(xp, "minimum", x, axis)
        else:
            out = _accumulate(xp, "logaddexp", x, axis)
        if reverse:
            out = xp.flip(out, axis)
        return out

    return impl


def _cum_abstract(x, axis, reverse, sequential=False):
    if not 0 <= axis < x.ndim:
        raise ValueError(f"cumulative op: axis {axis} is out of bounds for shape {x.shape}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


def _cum_batch(prim):
    def rule(axis_size, vals, dims, axis, reverse, **order):
        (x,), (d,) = vals, dims
        phys = axis if axis < d else axis + 1
        return prim.bind(x, axis=phys, reverse=reverse, **order), d

    return rule


def _cumulative(name):
    # overflow to inf and logaddexp(inf, inf) are computed silently (as in JAX)
    p = Primitive(name, quiet(_make_impl(name)), _cum_abstract, family="cumulative")
    defbatch(p, _cum_batch(p))
    return p


cumsum_p = _cumulative("cumsum")
cumprod_p = _cumulative("cumprod")
cummax_p = _cumulative("cummax")
cummin_p = _cumulative("cummin")
cumlogsumexp_p = _cumulative("cumlogsumexp")


def _check(x, axis, name):
    nd = len(shape(x))
    if nd == 0:
        raise ValueError(f"{name}: needs an array of rank >= 1")
    return normalize_axis(axis, nd, name)


def cumsum(x: Shaped[ArrayLike, "*shape"], axis: int = 0, reverse: bool = False) -> Shaped[Array, "*shape"]:
    """Inclusive cumulative sum along ``axis`` (lax semantics: dtype is kept)."""
    return cumsum_p.bind(x, axis=_check(x, axis, "cumsum"), reverse=bool(reverse))


def cumprod(x: Shaped[ArrayLike, "*shape"], axis: int = 0, reverse: bool = False) -> Shaped[Array, "*shape"]:
    return cumprod_p.bind(x, axis=_check(x, axis, "cumprod"), reverse=bool(reverse))


def cummax(x: Shaped[ArrayLike, "*shape"], axis: int = 0, reverse: bool = False) -> Shaped[Array, "*shape"]:
    return cummax_p.bind(x, axis=_check(x, axis, "cummax"), reverse=bool(reverse))


def cummin(x: Shaped[ArrayLike, "*shape"], axis: int = 0, reverse: bool = False) -> Shaped[Array, "*shape"]:
    return cummin_p.bind(x, axis=_check(x, axis, "cummin"), reverse=bool(reverse))


def cumlogsumexp(x: Shaped[ArrayLike, "*shape"], axis: int = 0,
                 reverse: bool = False) -> Shaped[Array, "*shape"]:
    return cumlogsumexp_p.bind(x, axis=_check(x, axis, "cumlogsumexp"), reverse=bool(reverse))


def running(kind: str, x: Shaped[ArrayLike, "*shape"], axis: int) -> Shaped[Array, "*shape"]:
    """``kind`` ("cumsum" or "cumprod") of ``x`` along ``axis`` as a sequential running
    total (PyTorch's CPU kernels), not in JAX's tiled order; differentiable as `cumsum`.

    Example::

        >>> running("cumsum", np.array([1.0, 2.0, 3.0]), 0).tolist()
        [1.0, 3.0, 6.0]
    """
    prim = {"cumsum": cumsum_p, "cumprod": cumprod_p}[kind]
    return prim.bind(x, axis=_check(x, axis, kind), reverse=False, sequential=True)


# -- derivative rules --------------------------------------------------------------------

deflinear(cumsum_p, lambda ct, x, axis, reverse, **order: (cumsum_p.bind(ct, axis=axis, reverse=not reverse,
                                                                          **order),))


def _def_scan_jvp(prim, combine, init):
    """JVP by scanning tuples ``init(x, t)`` with ``combine``; the tangent is read off the
    scanned tuple with ``finish``."""

    def tangent(t, y, x, axis, reverse, **order):
        elems, finish = init(x, t)
        out = associative_scan(combine, elems, reverse=reverse, axis=axis)
        return finish(out)

    defjvp2(prim, tangent)


def _prod_combine(a, b):
    (ya, ta), (yb, tb) = a, b
    return (mul(ya, yb), add(mul(ta, yb), mul(ya, tb)))


_def_scan_jvp(cumprod_p, _prod_combine, lambda x, t: ((x, t), lambda o: o[1]))


def _ext_combine(better):
    def combine(a, b):
        (va, sa, ca), (vb, sb, cb) = a, b
        b_wins, a_wins = better(vb, va), better(va, vb)
        v = select(b_wins, vb, va)
        s = select(b_wins, sb, select(a_wins, sa, add(sa, sb)))
        c = select(b_wins, cb, select(a_wins, ca, add(ca, cb)))
        return (v, s, c)

    return combine


def _ext_init(x, t):
    ones = ones_like(x, dtype=get_aval(t).dtype)
    return (x, t, ones), lambda o: div(o[1], o[2])


_def_scan_jvp(cummax_p, _ext_combine(gt), _ext_init)
_def_scan_jvp(cummin_p, _ext_combine(lt), _ext_init)


def _lse_combine(a, b):
    (la, ta), (lb, tb) = a, b
    out = logaddexp_p.bind(la, lb)
    safe = select(eq(out, -np.inf), 0.0, out)  # both -inf: weights 0 instead of NaN
    return (out, add(mul(ta, exp(sub(la, safe))), mul(tb, exp(sub(lb, safe)))))


_def_scan_jvp(cumlogsumexp_p, _lse_combine, lambda x, t: ((x, t), lambda o: o[1]))


__all__ = [
    "running", "cumsum_p", "cumprod_p", "cummax_p", "cummin_p", "cumlogsumexp_p", "cumsum", "cumprod",
    "cummax", "cummin", "cumlogsumexp", "associative_scan",
]
