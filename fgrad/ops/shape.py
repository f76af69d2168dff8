"""Shape primitives: broadcast_in_dim, reshape, transpose (and composites on them), and
reduce_sum, broadcasting's transpose.

These move data without arithmetic, so their derivatives are themselves (they are linear)
and their transposes are the inverse movement (a sum, for broadcasting).  ``reduce_sum``
and ``broadcast_in_dim`` are each other's transposes, so both live here (with the family
helpers of reductions, `reduction`); `fgrad.ops.reductions` re-exports ``reduce_sum``.
"""

from __future__ import annotations

import functools

import numpy as np

from collections.abc import Sequence

from ..core import native_sums as _native_sums
from ..core.array import ShapedArray, get_aval
from ..core.native_sums import leading_sum
from ..core.narrow_floats import bfloat16 as BF16, float16 as F16, float32 as F32
from ..core.primitive import Primitive
from ..core.rules import defbatch, deflinear
from ..core.quiet import quiet
from ._util import normalize_axis, shape
from ..typing import Array, ArrayLike, Shape


# -- broadcast_in_dim ------------------------------------------------------------------

def _bid_impl(xp, x, shape, broadcast_dimensions):
    x = xp.asarray(x)
    expanded = [1] * len(shape)
    for i, d in enumerate(broadcast_dimensions):
        expanded[d] = x.shape[i]
    return xp.broadcast_to(x.reshape(expanded), shape)


def _bid_abstract(x, shape, broadcast_dimensions):
    if len(broadcast_dimensions) != x.ndim:
        raise ValueError(f"broadcast_in_dim: operand rank {x.ndim} != len(broadcast_dimensions)")
    for i, d in enumerate(broadcast_dimensions):
        if x.shape[i] not in (1, shape[d]):
            raise ValueError(
                f"broadcast_in_dim: cannot broadcast operand shape {x.shape} to {shape} "
                f"(dimension {i} of size {x.shape[i]} maps to size {shape[d]})"
            )
    return ShapedArray(shape, x.dtype, x.weak_type)


broadcast_in_dim_p = Primitive("broadcast_in_dim", _bid_impl, _bid_abstract, family="shape")

_SMALL_BROADCAST = 1024  # elements: below, a filled new array costs less than np.broadcast_to's view


def _bid_host_kernel(params, avals):
    """The host executor's call for a small broadcast (the reverse mode of a sum of a small
    array): a new array filled with the operand -- the same values as `_bid_impl`'s view,
    without ``np.broadcast_to``'s Python layers (several microseconds).  Larger outputs keep
    the view (no copy of a big array)."""
    shape, dims = tuple(params["shape"]), params["broadcast_dimensions"]
    size = 1
    for s in shape:
        size *= s
    if size > _SMALL_BROADCAST:
        return None
    expanded = [1] * len(shape)
    for i, d in enumerate(dims):
        expanded[d] = avals[0].shape[i]
    expanded = tuple(expanded)
    empty, asarray = np.empty, np.asarray

    def kernel(x):
        x = asarray(x)
        out = empty(shape, x.dtype)
        out[...] = x.reshape(expanded)
        return out

    return kernel


broadcast_in_dim_p.host_kernel = _bid_host_kernel


def broadcast_in_dim(x, shape, broadcast_dimensions):
    shape = tuple(int(s) for s in shape)
    if get_aval(x).shape == shape and tuple(broadcast_dimensions) == tuple(range(len(shape))):
        return x
    return broadcast_in_dim_p.bind(x, shape=shape, broadcast_dimensions=tuple(broadcast_dimensions))


def _bid_transpose(ct, x, shape, broadcast_dimensions):
    in_shape = x.aval.shape
    sum_axes = tuple(d for d in range(len(shape)) if d not in broadcast_dimensions)
    keep_axes = tuple(d for i, d in enumerate(broadcast_dimensions) if in_shape[i] == 1 and shape[d] != 1)
    out = ct
    if keep_axes:
        out = reduce_sum(out, keep_axes)
        out = broadcast_in_dim(out, _shape_with_ones(shape, keep_axes),
                               tuple(d for d in range(len(shape)) if d not in keep_axes))
    if sum_axes:
        out = reduce_sum(out, sum_axes)
    return (reshape(out, in_shape),)


def _shape_with_ones(shp, axes):
    return tuple(1 if i in axes else s for i, s in enumerate(shp))


def _bid_batch(axis_size, vals, dims, shape, broadcast_dimensions):
    (x,), (d,) = vals, dims
    x = moveaxis(x, d, 0)
    dims_out = (0,) + tuple(b + 1 for b in broadcast_dimensions)
    return broadcast_in_dim(x, (axis_size,) + tuple(shape), dims_out), 0


deflinear(broadcast_in_dim_p, _bid_transpose)
defbatch(broadcast_in_dim_p, _bid_batch)


def broadcast_to(x: ArrayLike, shape: Shape | Array | np.ndarray) -> Array:
    """NumPy-style broadcast of ``x`` to ``shape`` (aligned from the right)."""
    shape = tuple(int(s) for s in shape)
    xs = get_aval(x).shape
    if len(xs) > len(shape):
        raise ValueError(
            f"broadcast_to: cannot broadcast a shape {xs} array to the smaller rank shape {shape}"
        )
    lead = len(shape) - len(xs)
    for i, s in enumerate(xs):
        if s != 1 and s != shape[lead + i]:
            raise ValueError(
                f"broadcast_to: cannot broadcast an array of shape {xs} to shape {shape} "
                f"(dimension {i} has size {s}, target {shape[lead + i]})"
            )
    return broadcast_in_dim(x, shape, tuple(range(lead, len(shape))))


# -- reshape ---------------------------------------------------------------------------

class ReshapeError(TypeError, ValueError):
    """A reshape to a shape of another size: JAX raises TypeError, NumPy ValueError; this is
    both, so ``except TypeError`` (code written for JAX) and ``except ValueError`` (for
    NumPy) catch it."""


def _reshape_abstract(x, new_sizes):
    if int(np.prod(new_sizes, dtype=np.int64)) != int(np.prod(x.shape, dtype=np.int64)):
        raise ReshapeError(
            f"reshape: cannot reshape array of shape {x.shape} (size {x.size}) into shape "
            f"{new_sizes} (size {int(np.prod(new_sizes, dtype=np.int64))})"
        )
    return ShapedArray(new_sizes, x.dtype, x.weak_type)


reshape_p = Primitive("reshape", lambda xp, x, new_sizes: xp.reshape(x, new_sizes), _reshape_abstract,
                      family="shape")
deflinear(reshape_p, lambda ct, x, new_sizes: (reshape(ct, x.aval.shape),))


def _reshape_batch(axis_size, vals, dims, new_sizes):
    x = moveaxis(vals[0], dims[0], 0)
    return reshape(x, (axis_size,) + tuple(new_sizes)), 0


defbatch(reshape_p, _reshape_batch)


def _resolve_shape(shp, size, op="reshape"):
    shp = tuple(int(s) for s in shp)
    if shp.count(-1) > 1:
        raise ReshapeError(f"{op}: can only specify one unknown dimension (-1), got {shp}")
    if -1 in shp:
        known = int(np.prod([s for s in shp if s != -1], dtype=np.int64))
        if known == 0 or size % known:
            raise ReshapeError(f"{op}: cannot reshape array of size {size} into shape {shp}")
        shp = tuple(size // known if s == -1 else s for s in shp)
    return shp


def reshape(x, new_sizes):
    av = get_aval(x)
    if isinstance(new_sizes, (int, np.integer)):
        new_sizes = (int(new_sizes),)
    new_sizes = _resolve_shape(new_sizes, av.size)
    if av.shape == new_sizes:
        return x
    return reshape_p.bind(x, new_sizes=new_sizes)


# -- transpose -------------------------------------------------------------------------

def _transpose_abstract(x, permutation):
    if sorted(permutation) != list(range(x.ndim)):
        raise ValueError(
            f"transpose: axes {permutation} are not a permutation of {x.ndim} dims (shape {x.shape})"
        )
    return ShapedArray(tuple(x.shape[p] for p in permutation), x.dtype, x.weak_type)


transpose_p = Primitive("transpose", lambda xp, x, permutation: xp.transpose(x, permutation),
                        _transpose_abstract, family="shape")
deflinear(transpose_p, lambda ct, x, permutation: (transpose(ct, tuple(np.argsort(permutation).tolist())),))


def _transpose_batch(axis_size, vals, dims, permutation):
    (x,), (d,) = vals, dims
    logical = [i for i in range(len(permutation) + 1) if i != d]  # physical index of logical dims
    perm = (d,) + tuple(logical[p] for p in permutation)
    return transpose(x, perm), 0


defbatch(transpose_p, _transpose_batch)


def transpose(x, permutation):
    permutation = tuple(int(p) for p in permutation)
    if permutation == tuple(range(len(permutation))) and len(permutation) == get_aval(x).ndim:
        return x
    return transpose_p.bind(x, permutation=permutation)


def moveaxis(x, source, destination):
    nd = get_aval(x).ndim
    src = normalize_axis(source, nd, "moveaxis")
    dst = normalize_axis(destination, nd, "moveaxis")
    if src == dst:
        return x
    perm = [i for i in range(nd) if i != src]
    perm.insert(dst, src)
    return transpose(x, perm)


# -- squeeze -----------------------------------------------------------------------------

def _squeeze_abstract(x, dimensions):
    for d in dimensions:
        if not 0 <= d < x.ndim or x.shape[d] != 1:
            raise ValueError(f"squeeze: dimension {d} of an array of shape {x.shape} is not of size 1; "
                             "squeeze only removes dimensions of size 1")
    return ShapedArray(tuple(n for i, n in enumerate(x.shape) if i not in dimensions), x.dtype, x.weak_type)


# JAX's squeeze (`x[1]` stages slice + squeeze): a reshape that names the removed dimensions
squeeze_p = Primitive("squeeze", lambda xp, x, dimensions: xp.squeeze(x, dimensions), _squeeze_abstract,
                      family="shape")


def squeeze(x, dimensions: Sequence[int]):
    """``x`` without its size-1 ``dimensions`` (non-negative, sorted)."""
    dims = tuple(sorted(set(int(d) for d in dimensions)))
    return squeeze_p.bind(x, dimensions=dims) if dims else x


def _squeeze_transpose(ct, x, dimensions):
    # JAX: expand_dims, a broadcast_in_dim
    out = x.aval.shape
    kept = tuple(i for i in range(len(out)) if i not in dimensions)
    return (broadcast_in_dim(ct, out, kept),)


def _squeeze_batch(axis_size, vals, dims, dimensions):
    (x,), (d,) = vals, dims
    moved = tuple(a if a < d else a + 1 for a in dimensions)
    return squeeze_p.bind(x, dimensions=moved), d - sum(1 for a in moved if a < d)


deflinear(squeeze_p, _squeeze_transpose)
defbatch(squeeze_p, _squeeze_batch)


def expand_dims(x: ArrayLike, axis: int | Sequence[int]) -> Array:
    s = list(shape(x))
    axes = (axis,) if isinstance(axis, int) else tuple(axis)
    nd = len(s) + len(axes)
    for a in sorted(normalize_axis(a, nd, "expand_dims") for a in axes):
        s.insert(a, 1)
    return reshape(x, tuple(s))


def move_or_broadcast(x, bdim, dst: int, size: int):
    """Put the batch axis of ``x`` at ``dst`` (broadcasting if ``bdim`` is None): the
    batching rules' way to align operands."""
    if bdim is None:
        x = expand_dims(x, dst)
        shp = list(get_aval(x).shape)
        shp[dst] = size
        return broadcast_to(x, tuple(shp))
    if bdim == dst:
        return x
    return moveaxis(x, bdim, dst)


def bdim_to_front(x, bdim, size: int):
    """`move_or_broadcast` to axis 0."""
    return move_or_broadcast(x, bdim, 0, size)


# -- reductions: the family helpers, and reduce_sum (broadcasting's transpose) ----------

def _reduced_shape(shp, axes):
    return tuple(s for i, s in enumerate(shp) if i not in axes)


def _reduce_abstract(prim, out_dtype=None):
    def rule(x, axes, **params):
        for a in axes:
            if a >= x.ndim:
                raise ValueError(f"{prim.name}: axis {a} is out of bounds for shape {x.shape}")
        if out_dtype is not None:
            dt = out_dtype
        else:
            with np.errstate(all="ignore"):
                dt = np.asarray(prim.impl(np, np.ones((1,) * x.ndim, x.dtype), axes=axes, **params)).dtype
        return ShapedArray(_reduced_shape(x.shape, axes), dt)

    return rule


def _reduce_batch(prim):
    def rule(axis_size, vals, dims, axes, **params):
        (x,), (d,) = vals, dims
        # physical positions: logical axis a is physical a if a < d else a + 1
        # (NumPy integers, as JAX's batching rule computes them: `axes=(np.int64(1),)`)
        phys = tuple(sorted(np.where(np.less(axes, d), axes, np.add(axes, 1)))) if axes else ()
        out_d = d - sum(1 for a in phys if a < d)
        return prim.bind(x, axes=phys, **params), out_d

    return rule


def reduction(name, impl, out_dtype=None) -> Primitive:
    prim = Primitive(name, impl, None, family="reduction")
    prim.abstract_eval = _reduce_abstract(prim, out_dtype)
    defbatch(prim, _reduce_batch(prim))
    return prim


def _expand_back(y, in_shape, axes):
    """Broadcast a reduced value back to ``in_shape``."""
    kept = tuple(i for i in range(len(in_shape)) if i not in axes)
    return broadcast_in_dim(y, in_shape, kept)


# NumPy adds the rows of an axis that is not the innermost one to its accumulator one at a
# time, in the array's own precision: a float32 sum over 10000 rows is off by ~2.7e-6 relative
# (45 ulps), where XLA's (and NumPy's own pairwise sum along the last axis) is within an ulp
_NAIVE_ROWS = 64  # below this many rows the sequential error stays within a few ulps
_WIDE_ACCUMULATOR = {np.dtype(np.float32): np.dtype(np.float64),
                     np.dtype(np.complex64): np.dtype(np.complex128)}


def sum_accumulator(shape, dtype, axes):
    """The wider dtype a NumPy sum of ``shape``/``dtype`` over ``axes`` accumulates in, or None
    when NumPy's own sum is accurate (the last axis, few rows, a whole array, a wide dtype).

    Example::

        >>> sum_accumulator((10000, 10), np.float32, (0,)), sum_accumulator((10, 10000), np.float32, (1,))
        (dtype('float64'), None)
    """
    wide = _WIDE_ACCUMULATOR.get(np.dtype(dtype))
    if wide is None or not axes or len(axes) == len(shape):
        return None
    rows = 1
    for a in axes:
        if a != len(shape) - 1:
            rows *= shape[a]
    return wide if rows > _NAIVE_ROWS else None


# sums overflow to inf silently (as in JAX)
def _sum_impl(xp, x, axes):
    dt = x.dtype
    if dt is BF16 or dt == F16:  # accumulate in float32 and round once, as JAX and PyTorch do
        return xp.sum(x, axis=axes, dtype=F32).astype(dt)
    if xp is np and type(x) is np.ndarray:  # what np.sum calls, without its Python wrapper
        wide = sum_accumulator(x.shape, dt, axes)
        if wide is not None:
            return _wide_sum(x, axes, wide, dt)
        return np.add.reduce(x, axis=axes)
    return xp.sum(x, axis=axes)


reduce_sum_p = reduction("reduce_sum", quiet(_sum_impl))


def _wide_sum(x, axes, wide, dt):
    """``x`` summed over ``axes`` in the ``wide`` dtype, rounded to ``dt``: NumPy's float64
    sum of a float32 array, computed natively in NumPy's own order where `native_sums` can."""
    s = _native_sums.wide_sums(x, axes) if dt == F32 else None
    if s is None:
        s = np.add.reduce(x, axis=axes, dtype=wide)
    return s.astype(dt)


def _native_wide_sum(x, native, axes, wide, dt):
    r = native(x)
    return np.add.reduce(x, axis=axes, dtype=wide).astype(dt) if r is None else r


def native_sum_kernel(params, avals):
    """The host call of a float32 ``reduce_sum`` that accumulates in float64 over leading axes,
    in C (`core.native_sums`: NumPy's row order, so NumPy's bits; NumPy's call where the C
    sum declines at run time), or None where it does not apply.  The straight-line executor
    (`_sum_host_kernel`) and the code generator use it.

    >>> k = native_sum_kernel({"axes": (0,)}, [ShapedArray((512, 64), np.float32)])
    >>> x = np.ones((512, 64), np.float32)
    >>> k is None or bool((k(x) == np.add.reduce(x, axis=0, dtype=np.float64).astype(np.float32)).all())
    True
    """
    (av,) = avals
    axes = tuple(params["axes"])
    if np.dtype(av.dtype) != np.float32 or sum_accumulator(av.shape, av.dtype, axes) != np.float64:
        return None
    native = leading_sum(av.shape, axes)
    if native is None:
        return None
    return functools.partial(_native_wide_sum, native=native, axes=axes, wide=np.dtype(np.float64),
                             dt=np.dtype(np.float32))


def _sum_host_kernel(params, avals):
    """The host executor's call for a float or complex sum: `_sum_impl`'s ``np.add.reduce``
    with its axes bound (and its wide accumulator), without the impl's frames (the executor's
    program runs with NumPy's error reports off already)."""
    (av,) = avals
    dt = av.dtype
    if dt is BF16 or dt == F16 or np.dtype(dt).kind not in "fc":
        return None
    axes = tuple(params["axes"])
    wide = sum_accumulator(av.shape, dt, axes)
    if wide is not None:
        native = native_sum_kernel(params, avals)
        if native is not None:
            return native
        return functools.partial(_wide_sum, axes=axes, wide=wide, dt=np.dtype(dt))
    return np.add.reduce if axes == (0,) else functools.partial(np.add.reduce, axis=axes)


reduce_sum_p.host_kernel = _sum_host_kernel


def reduce_sum(x, axes):
    return reduce_sum_p.bind(x, axes=tuple(sorted(axes)))


deflinear(reduce_sum_p, lambda ct, x, axes: (_expand_back(ct, x.aval.shape, axes),))


