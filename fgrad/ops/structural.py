"""Structural primitives: concatenate, split, pad (lax-style, with interior padding) and rev.

They move data without arithmetic, so they are linear: the tangent is the same operation on
the tangents, and the transpose is the inverse movement (slicing for concatenate, concatenate
for split, slicing + a sum for pad, rev for rev).  Static slicing is the ``gather``
primitive with a slice-only indexer (see `static_slice`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from ..typing import Array, ArrayLike

import numpy as np

from ..backends import full as full_keeping_sign
from ..core.array import ShapedArray, get_aval
from ..core.primitive import Primitive
from ..core.constants import constant_like, zeros, zeros_like
from ..core.rules import defbatch, deflinear, is_undefined
from .elementwise import convert_element_type, select, sub
from .shape import move_or_broadcast, reduce_sum, reshape
from ._util import normalize_axis, shape
from .indexing import device_xp, gather


def _zeros(shp, dtype, like=None):
    """Zeros on ``like``'s device (the default device without one)."""
    if like is None:
        return zeros(shp, dtype)
    return zeros_like(like, dtype=dtype, shape=shp)


def slice_indexer(shp, start_indices, limit_indices, strides) -> tuple:
    """The static ``gather`` indexer that reads what ``slice`` reads (trailing whole axes
    left out); jit's simplifier compiles ``slice`` as this gather."""
    strides = strides or (1,) * len(start_indices)
    indexer = tuple(("s", int(a), int(b), int(s))
                    for a, b, s in zip(start_indices, limit_indices, strides, strict=True))
    while indexer and indexer[-1] == ("s", 0, shp[len(indexer) - 1], 1):
        indexer = indexer[:-1]
    return indexer


def _slice_abstract(x, start_indices, limit_indices, strides):
    strides = strides or (1,) * x.ndim
    if not len(start_indices) == len(limit_indices) == len(strides) == x.ndim:
        raise TypeError(f"slice: start_indices {start_indices}, limit_indices {limit_indices} and "
                        f"strides {strides} need one entry per dimension of the operand {x.shape}")
    out = []
    for n, a, b, k in zip(x.shape, start_indices, limit_indices, strides):
        if not 0 <= a <= b <= n or k < 1:
            raise TypeError(f"slice: bounds {a}:{b}:{k} do not fit a dimension of size {n} "
                            "(0 <= start <= limit <= size, stride >= 1)")
        out.append(0 if b == a else (b - a - 1) // k + 1)
    return ShapedArray(tuple(out), x.dtype, x.weak_type)


def _slice_impl(xp, x, start_indices, limit_indices, strides):
    strides = strides or (1,) * len(start_indices)
    return x[tuple(slice(a, b, k) for a, b, k in zip(start_indices, limit_indices, strides))]


# JAX's slice primitive (lax.slice, and static `x[1:3]`/`x[1]` with squeeze): a view
slice_p = Primitive("slice", _slice_impl, _slice_abstract, family="structural")


def static_slice(x, starts, limits, strides=None):
    """``x[starts[0]:limits[0]:strides[0], ...]`` with static bounds (lax.slice); a slice of
    whole axes is ``x`` itself."""
    starts = tuple(int(a) for a in starts)
    limits = tuple(int(b) for b in limits)
    strides = None if strides is None or all(int(k) == 1 for k in strides) else tuple(int(k) for k in strides)
    if strides is None and starts == (0,) * len(starts) and limits == tuple(shape(x)):
        return x
    return slice_p.bind(x, start_indices=starts, limit_indices=limits, strides=strides)


def _slice_transpose(ct, x, start_indices, limit_indices, strides):
    """JAX's: pad with zeros (interior padding ``stride - 1``) back to the operand's shape."""
    shp = x.aval.shape
    # the padding as JAX computes it (with NumPy, so its high/interior entries print as
    # `np.int64(0)`, as in JAX's programs)
    if strides is None or all(k == 1 for k in strides):
        cfg = zip(start_indices, np.subtract(shp, limit_indices), (0,) * len(shp))
    else:
        m = np.asarray(shape(ct))
        real_limits = np.add(start_indices,
                             np.where(m == 0, 0, np.add(1, np.multiply(np.subtract(m, 1), strides))))
        cfg = zip(start_indices, np.subtract(shp, real_limits), np.subtract(strides, 1))
    zero = {"f": 0.0, "c": 0j, "b": False}.get(get_aval(ct).dtype.kind, 0)  # a literal, as JAX's
    return (pad_p.bind(ct, zero, padding_config=tuple(cfg)),)


def _slice_batch(axis_size, vals, dims, start_indices, limit_indices, strides):
    (x,), (d,) = vals, dims
    n = get_aval(x).shape[d]
    starts, limits = list(start_indices), list(limit_indices)
    starts.insert(d, 0)
    limits.insert(d, n)
    if strides is not None:
        strides = tuple(strides[:d]) + (1,) + tuple(strides[d:])
    return slice_p.bind(x, start_indices=tuple(starts), limit_indices=tuple(limits), strides=strides), d


def slice_in_dim(x, start, limit, stride=1, axis=0):
    nd = len(shape(x))
    axis = normalize_axis(axis, nd, "slice_in_dim")
    indexer = ((("s", None, None, None),) * axis
               + (("s", int(start), int(limit), int(stride)),))
    return gather(x, [], indexer)


# -- concatenate -----------------------------------------------------------------------


def _concat_abstract(*xs, dimension):
    x0 = xs[0]
    if x0.ndim == 0:
        raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
    if not 0 <= dimension < x0.ndim:
        raise ValueError(f"concatenate: axis {dimension} is out of bounds for arrays of dimension {x0.ndim}")
    total = 0
    for i, x in enumerate(xs):
        if x.ndim != x0.ndim:
            raise ValueError(
                f"concatenate: all the input arrays must have same number of dimensions, but the "
                f"array at index 0 has {x0.ndim} dimension(s) and the array at index {i} has {x.ndim}"
            )
        for d in range(x0.ndim):
            if d != dimension and x.shape[d] != x0.shape[d]:
                raise ValueError(
                    f"concatenate: all the input array dimensions except for the concatenation axis "
                    f"must match exactly, but along dimension {d}, the array at index 0 has size "
                    f"{x0.shape[d]} and the array at index {i} has size {x.shape[d]}"
                )
        if x.dtype != x0.dtype:
            raise TypeError(f"concatenate: operands must share a dtype, got {x0.dtype} and {x.dtype}")
        total += x.shape[dimension]
    out = list(x0.shape)
    out[dimension] = total
    return ShapedArray(tuple(out), x0.dtype, all(x.weak_type for x in xs))


_HOST_ONLY = {np.ndarray}


def _concat_impl(xp, *xs, dimension):
    if set(map(type, xs)) == _HOST_ONLY:  # host buffers, as they are
        return np.concatenate(xs, axis=dimension)
    xp = device_xp(xp, *xs)
    return xp.concatenate([xp.asarray(x) for x in xs], axis=dimension)


concatenate_p = Primitive("concatenate", _concat_impl, _concat_abstract, family="structural")


def concatenate(xs, dimension):
    xs = list(xs)
    if len(xs) == 1:
        return xs[0]
    return concatenate_p.bind(*xs, dimension=int(dimension))


def _joining_jvp(prim):
    """The JVP of a primitive linear in each of its operands jointly (concatenate, stack):
    the primitive of the tangents, zeros standing in for the missing ones."""
    def jvp(primals, tangents, **params):
        out = prim.bind(*primals, **params)
        if all(t is None for t in tangents):
            return out, None
        ts = [_zeros(get_aval(p).shape, get_aval(p).dtype, p) if t is None else t
              for p, t in zip(primals, tangents, strict=True)]
        return out, prim.bind(*ts, **params)
    return jvp


def _concat_transpose(ct, *xs, dimension):
    res = []
    off = 0
    nd = len(shape(ct))
    for x in xs:
        n = (x.aval if is_undefined(x) else get_aval(x)).shape[dimension]
        if is_undefined(x):
            starts = [0] * nd
            limits = list(shape(ct))
            starts[dimension], limits[dimension] = off, off + n
            res.append(static_slice(ct, starts, limits))
        else:
            res.append(None)
        off += n
    return tuple(res)


def _concat_batch(size, vals, dims, dimension):

    xs = [move_or_broadcast(v, d, 0, size) for v, d in zip(vals, dims, strict=True)]
    return concatenate_p.bind(*xs, dimension=dimension + 1), 0


deflinear(concatenate_p, _concat_transpose, jvp=_joining_jvp(concatenate_p))
defbatch(concatenate_p, _concat_batch)


# -- split -----------------------------------------------------------------------------


def _split_abstract(x, sizes, axis):
    if not 0 <= axis < x.ndim:
        raise ValueError(f"split: axis {axis} is out of bounds for an array of dimension {x.ndim}")
    if sum(sizes) != x.shape[axis]:
        raise ValueError(f"split: sizes {sizes} do not add up to the axis length {x.shape[axis]}")
    outs = []
    for s in sizes:
        shp = list(x.shape)
        shp[axis] = s
        outs.append(ShapedArray(tuple(shp), x.dtype, x.weak_type))
    return outs


def _split_impl(xp, x, sizes, axis):
    """The pieces as basic-slicing views (what ``xp.split`` returns, without its ~6 us of
    index bookkeeping: this runs in every LSTM/GRU step)."""
    idx = [slice(None)] * x.ndim
    pieces, start = [], 0
    for n in sizes:
        idx[axis] = slice(start, start + n)
        pieces.append(x[tuple(idx)])
        start += n
    return pieces


split_p = Primitive("split", _split_impl, _split_abstract, multiple_results=True, family="structural")


def split(x, sizes, axis):
    """Split ``x`` along ``axis`` into pieces of the given static ``sizes``."""
    return split_p.bind(x, sizes=tuple(int(s) for s in sizes), axis=int(axis))


def _split_transpose(cts, x, sizes, axis):
    av = x.aval
    parts = []
    like = next((c for c in cts if c is not None), None)
    for ct, s in zip(cts, sizes, strict=True):
        if ct is None:
            shp = list(av.shape)
            shp[axis] = s
            ct = _zeros(tuple(shp), av.dtype, like)
        parts.append(ct)
    return (concatenate(parts, axis),)


def _split_batch(size, vals, dims, sizes, axis):
    (x,), (d,) = vals, dims
    phys = axis if axis < d else axis + 1
    return split_p.bind(x, sizes=sizes, axis=phys), [d] * len(sizes)


deflinear(split_p, _split_transpose)
defbatch(split_p, _split_batch)


# -- stack / unstack ---------------------------------------------------------------------
# JAX's primitives (jnp.stack stages ``stack[axis=0] a b``; its transpose is ``unstack``)


def _stack_abstract(*xs, axis):
    x0 = xs[0]
    if not 0 <= axis <= x0.ndim:
        raise ValueError(f"stack: axis {axis} is out of bounds for arrays of dimension {x0.ndim}")
    for i, x in enumerate(xs[1:], start=1):
        if x.shape != x0.shape:
            raise ValueError(f"stack: all input arrays must have the same shape, got {x0.shape} "
                             f"at index 0 and {x.shape} at index {i}")
        if x.dtype != x0.dtype:
            raise TypeError(f"stack: operands must share a dtype, got {x0.dtype} and {x.dtype}")
    return ShapedArray(x0.shape[:axis] + (len(xs),) + x0.shape[axis:], x0.dtype,
                       all(x.weak_type for x in xs))


def _stack_impl(xp, *xs, axis):
    if set(map(type, xs)) == _HOST_ONLY:
        return np.stack(xs, axis=axis)
    xp = device_xp(xp, *xs)
    return xp.stack([xp.asarray(x) for x in xs], axis=axis)


stack_p = Primitive("stack", _stack_impl, _stack_abstract, family="structural")


def stack(xs: Sequence[ArrayLike], axis: int) -> Array:
    """``xs`` (one shape and dtype) stacked along a new axis ``axis`` (JAX's ``stack``).

    >>> import fgrad.numpy as fnp
    >>> stack([fnp.zeros(2), fnp.ones(2)], 1).tolist()
    [[0.0, 1.0], [0.0, 1.0]]
    """
    return stack_p.bind(*xs, axis=int(axis))


def _stack_transpose(ct, *xs, axis):
    pieces = unstack_p.bind(ct, axis=axis)
    return tuple(p if is_undefined(x) else None for p, x in zip(pieces, xs, strict=True))


def _stack_batch(size, vals, dims, axis):
    xs = [move_or_broadcast(v, d, 0, size) for v, d in zip(vals, dims, strict=True)]
    return stack_p.bind(*xs, axis=axis + 1), 0


deflinear(stack_p, _stack_transpose, jvp=_joining_jvp(stack_p))
defbatch(stack_p, _stack_batch)


def _unstack_abstract(x, axis):
    if not 0 <= axis < x.ndim:
        raise ValueError(f"unstack: axis {axis} is out of bounds for an array of dimension {x.ndim}")
    piece = ShapedArray(x.shape[:axis] + x.shape[axis + 1:], x.dtype, x.weak_type)
    return [piece] * x.shape[axis]


def _unstack_impl(xp, x, axis):
    idx = [slice(None)] * x.ndim
    out = []
    for i in range(x.shape[axis]):
        idx[axis] = i
        out.append(x[tuple(idx)])
    return out


unstack_p = Primitive("unstack", _unstack_impl, _unstack_abstract, multiple_results=True,
                      family="structural")


def _unstack_transpose(cts, x, axis):
    av = x.aval
    piece = av.shape[:axis] + av.shape[axis + 1:]
    like = next((c for c in cts if c is not None), None)
    return (stack_p.bind(*[_zeros(piece, av.dtype, like) if c is None else c for c in cts], axis=axis),)


def _unstack_batch(size, vals, dims, axis):
    (x,), (d,) = vals, dims
    phys = axis if axis < d else axis + 1
    n = get_aval(x).shape[phys]
    return unstack_p.bind(x, axis=phys), [d if d < phys else d - 1] * n


deflinear(unstack_p, _unstack_transpose)
defbatch(unstack_p, _unstack_batch)


# -- pad -------------------------------------------------------------------------------


def _pad_out_dim(n, lo, hi, interior):
    return lo + hi + n + max(n - 1, 0) * interior


def _pad_abstract(x, pv, padding_config):
    if pv.ndim != 0:
        raise ValueError(f"pad: the padding value must be a scalar, got shape {pv.shape}")
    if len(padding_config) != x.ndim:
        raise ValueError(
            f"pad: padding_config has {len(padding_config)} entries for an operand of rank {x.ndim}"
        )
    out = []
    for n, (lo, hi, it) in zip(x.shape, padding_config, strict=True):
        if it < 0:
            raise ValueError(f"pad: interior padding must be non-negative, got {it}")
        d = _pad_out_dim(n, lo, hi, it)
        if d < 0:
            raise ValueError(f"pad: negative padding {(lo, hi)} removes more than the dimension {n} has")
        out.append(d)
    return ShapedArray(tuple(out), x.dtype, x.weak_type)


def _pad_fill(xp, shape, pv, dtype):
    """The padded buffer before the operand goes in: ``pv`` everywhere, -0.0 kept.  A
    positive real zero on the host (a slice's transpose pads with it) is ``np.zeros``: the
    generic fill costs microseconds, which a loop of small slices pays every step."""
    if xp is np and (isinstance(pv, (int, float, np.integer, np.floating))
                     or (type(pv) is np.ndarray and pv.ndim == 0 and pv.dtype.kind in "biuf")):
        v = float(pv)
        if v == 0.0 and math.copysign(1.0, v) > 0:
            return np.zeros(shape, dtype)
    return full_keeping_sign(xp, shape, pv, dtype=dtype)


def _pad_impl(xp, x, pv, padding_config):
    xp = device_xp(xp, x, pv)
    x = xp.asarray(x)
    if all(lo >= 0 and hi >= 0 and it == 0 for lo, hi, it in padding_config):  # no crop, no interior
        padded = tuple(n + lo + hi for n, (lo, hi, _) in zip(x.shape, padding_config))
        out = _pad_fill(xp, padded, pv, x.dtype)
        out[tuple(slice(lo, lo + n) for n, (lo, _, _) in zip(x.shape, padding_config))] = x
        return out
    full_shape, place, crop = [], [], []
    for n, (lo, hi, it) in zip(x.shape, padding_config, strict=True):
        lo_p, hi_p = max(lo, 0), max(hi, 0)
        d = _pad_out_dim(n, lo_p, hi_p, it)
        full_shape.append(d)
        place.append(slice(lo_p, lo_p + max(n - 1, 0) * (it + 1) + 1 if n else lo_p, it + 1))
        crop.append(slice(-min(lo, 0), d + min(hi, 0)))
    out = full_keeping_sign(xp, tuple(full_shape), pv, dtype=x.dtype)  # pad with -0.0 too
    out[tuple(place)] = x
    return out[tuple(crop)]


pad_p = Primitive("pad", _pad_impl, _pad_abstract, family="structural")


def pad(x: ArrayLike, padding_value: ArrayLike, padding_config: Sequence[tuple[int, int, int]]) -> Array:
    """lax.pad: ``padding_config`` holds ``(low, high, interior)`` per dimension; negative
    low/high crop."""
    cfg = tuple((int(lo), int(hi), int(it)) for lo, hi, it in padding_config)
    if all(c == (0, 0, 0) for c in cfg):
        return x
    return pad_p.bind(x, padding_value, padding_config=cfg)


def _pad_jvp(primals, tangents, padding_config):
    (x, pv), (tx, tpv) = primals, tangents
    out = pad_p.bind(x, pv, padding_config=padding_config)
    if tx is None and tpv is None:
        return out, None
    av = get_aval(x)
    if tx is None:
        tx = _zeros(av.shape, av.dtype, x)
    if tpv is None:
        tpv = _zeros((), av.dtype, x)
    return out, pad_p.bind(tx, tpv, padding_config=padding_config)


def _unpad(ct, padding_config):
    """The operand-shaped part of ``ct`` (transpose of padding with zeros)."""
    t = pad(ct, _zeros((), get_aval(ct).dtype, ct), [(-lo, -hi, 0) for lo, hi, _ in padding_config])
    if any(it for _, _, it in padding_config):
        shp = shape(t)
        t = static_slice(t, [0] * len(shp), shp, [it + 1 for _, _, it in padding_config])
    return t


def _pad_transpose(ct, x, pv, padding_config):

    ct_x = _unpad(ct, padding_config) if is_undefined(x) or is_undefined(pv) else None
    ct_pv = None
    if is_undefined(pv):
        nd = len(shape(ct))
        ct_pv = sub(reduce_sum(ct, tuple(range(nd))), reduce_sum(ct_x, tuple(range(nd))))
        if pv.aval.dtype != get_aval(ct_pv).dtype:

            ct_pv = convert_element_type(ct_pv, pv.aval.dtype)
    return (ct_x if is_undefined(x) else None, ct_pv)


def _pad_batch(size, vals, dims, padding_config):

    (x, pv), (xd, pd) = vals, dims
    if pd is None:
        cfg = list(padding_config)
        cfg.insert(xd, (0, 0, 0))
        return pad_p.bind(x, pv, padding_config=tuple(cfg)), xd
    # a per-example padding value: pad with zeros, then choose per position
    x = move_or_broadcast(x, xd, 0, size)
    av = get_aval(x)
    cfg = ((0, 0, 0),) + tuple(padding_config)
    padded = pad_p.bind(x, _zeros((), av.dtype, x), padding_config=cfg)

    mask = constant_like(_pad_impl(np, np.zeros(av.shape[1:], bool), True, padding_config), x)
    pvb = reshape(move_or_broadcast(pv, pd, 0, size), (size,) + (1,) * (av.ndim - 1))
    return select(mask, pvb, padded), 0


deflinear(pad_p, _pad_transpose, jvp=_pad_jvp)
defbatch(pad_p, _pad_batch)
deflinear(slice_p, _slice_transpose)
defbatch(slice_p, _slice_batch)


# -- rev -------------------------------------------------------------------------------


def _rev_abstract(x, dimensions):
    for d in dimensions:
        if not 0 <= d < x.ndim:
            raise ValueError(f"rev: dimension {d} is out of bounds for an array of dimension {x.ndim}")
    return ShapedArray(x.shape, x.dtype, x.weak_type)


rev_p = Primitive("rev", lambda xp, x, dimensions: xp.flip(x, dimensions), _rev_abstract, family="structural")


def rev(x, dimensions):
    dims = tuple(sorted(set(int(d) for d in dimensions)))
    if not dims:
        return x
    return rev_p.bind(x, dimensions=dims)


deflinear(rev_p, lambda ct, x, dimensions: (rev_p.bind(ct, dimensions=dimensions),))


def _rev_batch(size, vals, dims, dimensions):
    (x,), (d,) = vals, dims
    return rev_p.bind(x, dimensions=tuple(a if a < d else a + 1 for a in dimensions)), d


defbatch(rev_p, _rev_batch)


__all__ = [
    "concatenate_p", "split_p", "pad_p", "rev_p", "slice_p", "stack_p", "unstack_p", "concatenate",
    "split", "stack", "pad", "rev",
    "static_slice", "slice_indexer", "slice_in_dim",
]
