"""Sorting primitives, and the gather/scatter along one axis that their derivatives need.

* ``sort`` (lax.sort-like): sorts several equally shaped operands along ``dimension`` by the
  first ``num_keys`` of them (lexicographically, stable), carrying the others along.  Its JVP
  sorts an extra ``iota`` operand to get the permutation and gathers the tangents with it.
* ``gather_along_axis`` (``take_along_axis`` semantics) is linear in its data operand; its
  transpose is ``scatter_add_along_axis`` (and vice versa).  Both take the indices as an
  integer operand, so they work with traced and batched indices as well.

Composites: `argsort`, `sort_key_val`, `top_k`, `take_along_axis`, `flip_axis`.
"""

from __future__ import annotations

from collections.abc import Sequence
from ..typing import Array, ArrayLike, Shaped

import numpy as np
from ..core.narrow_floats import bfloat16, dtype_kind, sortable

from ..core.array import ShapedArray, wrap
from ..core.constants import constant_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule, deflinear, defzero, is_undefined
from .elementwise import and_p, convert_element_type, eq_p, le_p, lt_p, ne_p, or_p, sub
from .shape import bdim_to_front, broadcast_to, reduce_sum, reshape
from ._util import normalize_axis, shape

# ---------------------------------------------------------------------------------------
# gather / scatter-add along one axis


def _as_xp(xp, a):
    return a if isinstance(a, xp.ndarray) else xp.asarray(a)


def _gather_impl(xp, x, idx, axis):
    return xp.take_along_axis(_as_xp(xp, x), _as_xp(xp, idx), axis=axis)


def _gather_abstract(x, idx, axis):
    if dtype_kind(idx.dtype) not in "iu":
        raise TypeError(f"gather_along_axis: indices must be integers, got {idx.dtype}")
    if x.ndim != idx.ndim or any(
        a != b for i, (a, b) in enumerate(zip(x.shape, idx.shape, strict=True)) if i != axis
    ):
        raise ValueError(
            f"gather_along_axis: indices of shape {idx.shape} must match the operand's shape "
            f"{x.shape} except along axis {axis}"
        )
    return ShapedArray(idx.shape, x.dtype, x.weak_type)


gather_along_axis_p = Primitive("gather_along_axis", _gather_impl, _gather_abstract, family="indexing")


def _scatter_add_impl(xp, upd, idx, axis, size):
    upd = _as_xp(xp, upd)
    idx = _as_xp(xp, idx)
    out_shape = list(upd.shape)
    out_shape[axis] = size
    if upd.size == 0 or size == 0:
        return xp.zeros(out_shape, upd.dtype)
    # move `axis` last and flatten the rest into rows: out[r, idx[r, k]] += upd[r, k]
    u = xp.moveaxis(upd, axis, -1)
    i = xp.moveaxis(idx, axis, -1).astype(np.int64)
    i = xp.where(i < 0, i + size, i)
    rows = int(np.prod(u.shape[:-1], dtype=np.int64))
    k = u.shape[-1]
    lin = (xp.arange(rows, dtype=np.int64)[:, None] * size + i.reshape(rows, k)).ravel()
    u = u.reshape(rows * k)
    n = rows * size
    if dtype_kind(upd.dtype) == "f":
        out = xp.bincount(lin, weights=u, minlength=n).astype(upd.dtype)
    elif dtype_kind(upd.dtype) == "c":
        out = (xp.bincount(lin, weights=u.real, minlength=n)
               + 1j * xp.bincount(lin, weights=u.imag, minlength=n)).astype(upd.dtype)
    else:
        out = xp.zeros(n, upd.dtype)
        try:
            xp.add.at(out, lin, u)
        except (AttributeError, NotImplementedError):  # pragma: no cover - an older cupy
            import cupyx

            cupyx.scatter_add(out, lin, u)
    moved = list(upd.shape[:axis]) + list(upd.shape[axis + 1:]) + [size]
    return xp.moveaxis(out.reshape(moved), -1, axis)


def _scatter_add_abstract(upd, idx, axis, size):
    if idx.shape != upd.shape:
        raise ValueError(f"scatter_add_along_axis: indices shape {idx.shape} != updates shape {upd.shape}")
    out = list(upd.shape)
    out[axis] = size
    return ShapedArray(out, upd.dtype, upd.weak_type)


scatter_add_along_axis_p = Primitive("scatter_add_along_axis", _scatter_add_impl, _scatter_add_abstract,
                                     family="indexing")


def _gather_jvp(primals, tangents, axis):
    x, idx = primals
    t = tangents[0]
    out = gather_along_axis_p.bind(x, idx, axis=axis)
    return out, None if t is None else gather_along_axis_p.bind(t, idx, axis=axis)


def _gather_transpose(ct, x, idx, axis):
    if is_undefined(idx):
        raise ValueError("gather_along_axis is not linear in its indices")
    return scatter_add_along_axis_p.bind(ct, idx, axis=axis, size=x.aval.shape[axis]), None


def _scatter_jvp(primals, tangents, axis, size):
    upd, idx = primals
    t = tangents[0]
    out = scatter_add_along_axis_p.bind(upd, idx, axis=axis, size=size)
    return out, None if t is None else scatter_add_along_axis_p.bind(t, idx, axis=axis, size=size)


def _scatter_transpose(ct, upd, idx, axis, size):
    if is_undefined(idx):
        raise ValueError("scatter_add_along_axis is not linear in its indices")
    return gather_along_axis_p.bind(ct, idx, axis=axis), None


def _front_all(vals, dims, axis_size):
    return [bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims, strict=True)]


def _gather_batch(axis_size, vals, dims, axis):
    x, idx = _front_all(vals, dims, axis_size)
    return gather_along_axis_p.bind(x, idx, axis=axis + 1), 0


def _scatter_batch(axis_size, vals, dims, axis, size):
    upd, idx = _front_all(vals, dims, axis_size)
    return scatter_add_along_axis_p.bind(upd, idx, axis=axis + 1, size=size), 0


deflinear(gather_along_axis_p, _gather_transpose, jvp=_gather_jvp)
defbatch(gather_along_axis_p, _gather_batch)
deflinear(scatter_add_along_axis_p, _scatter_transpose, jvp=_scatter_jvp)
defbatch(scatter_add_along_axis_p, _scatter_batch)


def _const(a, like):
    """A NumPy index constant on ``like``'s device."""
    return constant_like(np.asarray(a), like)


def _broadcast_nonaxis(x, target, axis):
    """Broadcast ``x`` to ``target`` except along ``axis`` (where it keeps its own size)."""
    xs = shape(x)
    tgt = tuple(xs[axis] if i == axis else t for i, t in enumerate(target))
    if xs == tgt:
        return x
    if isinstance(x, np.ndarray):
        return np.broadcast_to(x, tgt)
    return broadcast_to(x, tgt)


def take_along_axis(x, idx, axis: int):
    """``numpy.take_along_axis(x, idx, axis)`` (differentiable in ``x``; ``idx`` may be a
    NumPy array, an fgrad array or a tracer; non-axis dimensions broadcast)."""
    if isinstance(idx, (list, tuple)):
        idx = np.asarray(idx)
    xs, is_ = shape(x), shape(idx)
    if len(xs) != len(is_):
        raise ValueError(f"take_along_axis: x (shape {xs}) and indices (shape {is_}) need the same rank")
    axis = normalize_axis(axis, len(xs), "take_along_axis")
    nonaxis = tuple(np.broadcast_shapes(
        tuple(s for i, s in enumerate(xs) if i != axis), tuple(s for i, s in enumerate(is_) if i != axis)))
    full = list(nonaxis)
    full.insert(axis, 0)
    x = _broadcast_nonaxis(x, full, axis)
    idx = _broadcast_nonaxis(idx, full, axis)
    if isinstance(idx, np.ndarray):
        idx = _const(idx, x)
    return gather_along_axis_p.bind(x, idx, axis=axis)


def scatter_add_along_axis(upd, idx, axis: int, size: int):
    """Zeros of ``upd``'s shape with ``size`` along ``axis``, plus ``upd`` added at ``idx``
    (the transpose of `take_along_axis`)."""
    axis = normalize_axis(axis, len(shape(upd)), "scatter_add_along_axis")
    idx = _broadcast_nonaxis(idx, shape(upd), axis)
    if isinstance(idx, np.ndarray):
        idx = _const(idx, upd)
    return scatter_add_along_axis_p.bind(upd, idx, axis=axis, size=int(size))


def static_index(n: int, axis: int, nd: int, indices) -> np.ndarray:
    """An index array for a static selection along ``axis`` (shape 1 elsewhere)."""
    idx = np.asarray(indices, dtype=np.int64).reshape(-1)
    return idx.reshape((1,) * axis + (idx.size,) + (1,) * (nd - axis - 1))


def take_static(x, indices, axis: int):
    """``x`` at the static integer ``indices`` along ``axis`` (a slice, reversal, ...)."""
    nd = len(shape(x))
    axis = normalize_axis(axis, nd, "take")
    return take_along_axis(x, static_index(shape(x)[axis], axis, nd, indices), axis)


def slice_axis(x, axis: int, start=None, stop=None, step=None):
    """``x[..., start:stop:step, ...]`` along ``axis`` (static bounds)."""
    nd = len(shape(x))
    axis = normalize_axis(axis, nd, "slice")
    n = shape(x)[axis]
    return take_static(x, np.arange(n)[start:stop:step], axis)


def flip_axis(x, axis: int):
    nd = len(shape(x))
    axis = normalize_axis(axis, nd, "flip")
    return take_static(x, np.arange(shape(x)[axis] - 1, -1, -1), axis)


# ---------------------------------------------------------------------------------------
# sort


def _sort_impl(xp, *operands, dimension, is_stable, num_keys):
    ops = [_as_xp(xp, o) for o in operands]
    if num_keys == 1:
        if len(ops) == 1 and ops[0].dtype != bfloat16:
            return [xp.sort(ops[0], axis=dimension, kind="stable")]
        perm = xp.argsort(sortable(ops[0]), axis=dimension, kind="stable")
    else:
        keys = [xp.moveaxis(sortable(k), dimension, -1) for k in ops[:num_keys]]
        perm = xp.lexsort(keys[::-1], axis=-1) if xp is np else _lexsort_fallback(xp, keys)
        perm = xp.moveaxis(perm, -1, dimension)
    return [xp.take_along_axis(o, perm, axis=dimension) for o in ops]


def _lexsort_fallback(xp, keys):  # pragma: no cover - backends without n-d lexsort
    perm = xp.broadcast_to(xp.arange(keys[0].shape[-1]), keys[0].shape)
    for k in keys[::-1]:  # least significant first, stable passes
        order = xp.argsort(xp.take_along_axis(k, perm, axis=-1), axis=-1, kind="stable")
        perm = xp.take_along_axis(perm, order, axis=-1)
    return perm


def _sort_abstract(*avals, dimension, is_stable, num_keys):
    s = avals[0].shape
    for a in avals:
        if a.shape != s:
            raise ValueError(f"sort: all operands must have the same shape, got {[a.shape for a in avals]}")
    if not 0 <= dimension < len(s):
        raise ValueError(f"sort: dimension {dimension} is out of bounds for shape {s}")
    if not 1 <= num_keys <= len(avals):
        raise ValueError(f"sort: num_keys={num_keys} must be between 1 and the number of operands")
    return [ShapedArray(a.shape, a.dtype, a.weak_type) for a in avals]


sort_p = Primitive("sort", _sort_impl, _sort_abstract, multiple_results=True, family="sorting")


def iota_along(shp, dimension, dtype=np.int64, like=None):
    """A constant array of ``shp`` that counts 0, 1, ... along ``dimension`` (on ``like``'s
    device when given)."""
    n = shp[dimension]
    r = np.arange(n, dtype=dtype).reshape((1,) * dimension + (n,) + (1,) * (len(shp) - dimension - 1))
    if like is not None:
        return _const(np.broadcast_to(r, shp), like)
    return wrap(np.broadcast_to(r, shp))


def _sort_jvp(primals, tangents, dimension, is_stable, num_keys):
    if all(t is None for t in tangents):
        return sort_p.bind(*primals, dimension=dimension, is_stable=is_stable, num_keys=num_keys), \
            [None] * len(primals)
    iota = iota_along(shape(primals[0]), dimension, like=primals[0])
    outs = sort_p.bind(*primals, iota, dimension=dimension, is_stable=is_stable, num_keys=num_keys)
    perm = outs[-1]
    t_out = [None if t is None else gather_along_axis_p.bind(t, perm, axis=dimension) for t in tangents]
    return outs[:-1], t_out


def _sort_batch(axis_size, vals, dims, dimension, is_stable, num_keys):
    vals = _front_all(vals, dims, axis_size)
    return sort_p.bind(*vals, dimension=dimension + 1, is_stable=is_stable, num_keys=num_keys), 0


defjvp_rule(sort_p, _sort_jvp)
defbatch(sort_p, _sort_batch)


def sort(operand: ArrayLike | Sequence[ArrayLike], dimension: int = -1, is_stable: bool = True,
         num_keys: int = 1) -> Array | tuple[Array, ...]:
    """``lax.sort``: sort one array, or a sequence of equally shaped arrays by the first
    ``num_keys`` of them (lexicographic), along ``dimension``.  Returns the same structure."""
    if isinstance(operand, (tuple, list)):
        ops = list(operand)
        nd = len(shape(ops[0]))
        dim = normalize_axis(dimension, nd, "sort")
        return tuple(sort_p.bind(*ops, dimension=dim, is_stable=bool(is_stable), num_keys=int(num_keys)))
    nd = len(shape(operand))
    dim = normalize_axis(dimension, nd, "sort")
    return sort_p.bind(operand, dimension=dim, is_stable=bool(is_stable), num_keys=1)[0]


def sort_key_val(keys: Shaped[ArrayLike, "*shape"], values: Shaped[ArrayLike, "*shape"], dimension: int = -1,
                 is_stable: bool = True) -> tuple[Shaped[Array, "*shape"], Shaped[Array, "*shape"]]:
    """Sort ``keys`` along ``dimension`` and apply the same permutation to ``values``."""
    dim = normalize_axis(dimension, len(shape(keys)), "sort_key_val")
    k, v = sort_p.bind(keys, values, dimension=dim, is_stable=bool(is_stable), num_keys=1)
    return k, v


def argsort(x, axis: int = -1, descending: bool = False, index_dtype=np.int64):
    """Indices that sort ``x`` along ``axis`` (stable: ties keep their order, also when
    ``descending``)."""
    nd = len(shape(x))
    if nd == 0:
        raise ValueError("argsort: cannot sort a 0-d array along an axis")
    axis = normalize_axis(axis, nd, "argsort")
    shp = shape(x)
    if descending:
        n = shp[axis]
        xr = flip_axis(x, axis)
        iota = iota_along(shp, axis, index_dtype, like=x)
        _, perm = sort_p.bind(xr, iota, dimension=axis, is_stable=True, num_keys=1)
        # perm indexes the reversed array; stable ascending on the reversed array then
        # reversed again gives the stable descending order of the original
        return flip_axis(sub(_const(np.asarray(n - 1, index_dtype), perm), perm), axis)
    iota = iota_along(shp, axis, index_dtype, like=x)
    return sort_p.bind(x, iota, dimension=axis, is_stable=True, num_keys=1)[1]


def sort_along(x, axis: int = -1, descending: bool = False):
    """Sorted values of ``x`` along ``axis`` (differentiable via the permutation)."""
    nd = len(shape(x))
    axis = normalize_axis(axis, nd, "sort")
    out = sort_p.bind(x, dimension=axis, is_stable=True, num_keys=1)[0]
    return flip_axis(out, axis) if descending else out


def top_k(operand: Shaped[ArrayLike, "*batch n"],
          k: int) -> list[Array]:
    """``lax.top_k``: the ``k`` largest entries along the last axis (descending) and their
    indices (int32), as a list ``[values, indices]`` as JAX's (ties: lower index first)."""
    nd = len(shape(operand))
    n = shape(operand)[-1]
    k = int(k)
    if not 0 <= k <= n:
        raise ValueError(f"top_k: k={k} must be between 0 and the last axis size {n}")
    idx = argsort(operand, -1, descending=True, index_dtype=np.int32)
    idx = take_static(idx, np.arange(k), nd - 1)
    return [take_along_axis(operand, idx, nd - 1), idx]


# ---------------------------------------------------------------------------------------
# searchsorted (integer result, no derivative)


def _searchsorted_impl(xp, a, v, side):
    a, v = _as_xp(xp, a), _as_xp(xp, v)
    return xp.asarray(xp.searchsorted(a, v, side=side)).astype(np.int64)


def _searchsorted_abstract(a, v, side):
    if a.ndim != 1:
        raise ValueError(f"searchsorted: the sorted array must be 1-d, got shape {a.shape}")
    return ShapedArray(v.shape, np.int64)


searchsorted_p = Primitive("searchsorted", _searchsorted_impl, _searchsorted_abstract, family="sorting")
defzero(searchsorted_p)


def _searchsorted_batch(axis_size, vals, dims, side):
    a, v = vals
    da, dv = dims
    if da is None:
        return searchsorted_p.bind(a, v, side=side), dv
    # a differs per example: count the entries below (left) / not above (right) each value
    a = bdim_to_front(a, da, axis_size)
    v = bdim_to_front(v, dv, axis_size)
    vs = shape(v)[1:]
    a_b = reshape(a, (axis_size, shape(a)[1]) + (1,) * len(vs))
    v_b = reshape(v, (axis_size, 1) + vs)
    cmp = (lt_p if side == "left" else le_p).bind(a_b, v_b)
    if np.dtype(a_b.dtype).kind in "fc":  # NumPy's order: NaN after everything (as the unbatched impl)
        v_nan = ne_p.bind(v_b, v_b)
        below_nan = v_nan if side == "right" else and_p.bind(v_nan, eq_p.bind(a_b, a_b))
        cmp = or_p.bind(cmp, below_nan)
    return reduce_sum(convert_element_type(cmp, np.int64), (1,)), 0


defbatch(searchsorted_p, _searchsorted_batch)


def searchsorted(a, v, side: str = "left"):
    """Insertion indices of ``v`` into the sorted 1-d ``a`` (int64)."""
    return searchsorted_p.bind(a, v, side=side)


__all__ = [
    "sort_p", "gather_along_axis_p", "scatter_add_along_axis_p", "sort", "sort_key_val", "argsort",
    "sort_along", "top_k", "take_along_axis", "scatter_add_along_axis", "take_static", "slice_axis",
    "flip_axis", "iota_along", "searchsorted", "searchsorted_p",
]
