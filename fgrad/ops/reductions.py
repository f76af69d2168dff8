"""Reduction primitives: sum, max, min, prod, argmax, argmin, and/or over axes.

Parameters are normalized: ``axes`` is a sorted tuple of non-negative ints.  keepdims is a
composite (reshape after the reduction).
"""

from __future__ import annotations

import functools
import math

import numpy as np

from ..core.array import ShapedArray, get_aval
from ..core.narrow_floats import bfloat16 as BF16, float16 as F16, float32 as F32
from ..core.constants import constant_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule, defzero
from ..core.quiet import quiet
from .elementwise import convert_element_type, div, eq, mul, select
from .shape import (_expand_back, _reduced_shape, broadcast_in_dim, reduce_sum, reduce_sum_p, reduction,
                    reshape, transpose)


_SHORT_ROW = 32  # last-axis max/min over rows this short: reduce the transposed copy (`extremum`)
_MANY_ROWS = 64


def extremum(ufunc, x, axis):
    """``ufunc.reduce(x, axis=axis)`` (``axis`` a sorted tuple) for `np.maximum` /
    `np.minimum` on the host.  NumPy reduces a short contiguous last axis row by row,
    slowly (2048 rows of 32 float32: about 100 us, the softmax's maximum in an attention
    layer); over the leading axis of the transposed copy it compares whole rows, vectorised
    (about 25 us, the copy included).  The extremum of a row does not depend on the order
    of the comparisons (NaN propagates either way), so the values are the same.

    Example::

        >>> import numpy as np
        >>> x = np.arange(6.0).reshape(3, 2)
        >>> extremum(np.maximum, x, (1,)), extremum(np.minimum, x, (0, 1))
        (array([1., 3., 5.]), np.float64(0.0))
    """
    if short_rows(x.shape, x.dtype, axis) and x.flags.c_contiguous:
        n = x.shape[-1]
        rows = np.ascontiguousarray(x.reshape(-1, n).T)
        return ufunc.reduce(rows, axis=0).reshape(x.shape[:-1])
    return ufunc.reduce(x, axis=axis)  # what np.max calls, without its Python wrapper


def short_rows(shape: tuple, dtype, axis: tuple) -> bool:
    """Whether `extremum` reduces a (C-contiguous) array of this shape and dtype over
    ``axis`` through the transposed copy; otherwise it is exactly ``ufunc.reduce``.

        >>> f32 = np.dtype(np.float32)
        >>> short_rows((2048, 32), f32, (1,)), short_rows((1000,), f32, (0,))
        (True, False)
    """
    n = shape[-1] if len(shape) >= 2 else 0
    return (2 <= n <= _SHORT_ROW and tuple(axis) == (len(shape) - 1,) and dtype.kind == "f"
            and dtype.itemsize >= 4 and math.prod(shape) >= _MANY_ROWS * n)


# sums and products overflow to inf silently (as in JAX)
def _max_impl(xp, x, axes):
    if xp is np:
        return extremum(np.maximum, x, axes)
    return xp.max(x, axis=axes)


def _min_impl(xp, x, axes):
    if xp is np:
        return extremum(np.minimum, x, axes)
    return xp.min(x, axis=axes)


reduce_max_p = reduction("reduce_max", _max_impl)
reduce_min_p = reduction("reduce_min", _min_impl)


def _extremum_host_kernel(ufunc):
    """The host executor's call for a max/min whose input never takes `extremum`'s
    transposed copy (`short_rows`): ``ufunc.reduce`` with its axes bound, no Python frame
    (the convergence test of a loop body, 0.3 us of a 3.5 us step)."""

    def kernel(params, avals):
        (av,) = avals
        axes = tuple(params["axes"])
        if short_rows(tuple(av.shape), av.dtype, axes):
            return None
        if axes == (0,) and len(av.shape) == 1 and 0 < av.shape[0] <= _INDEXED_MAX and _indexed(av.dtype):
            return indexed
        if axes == (0,):  # reduce's default axis: no keyword to parse on every call
            return ufunc.reduce
        return functools.partial(ufunc.reduce, axis=axes)

    pick = np.ndarray.argmax if ufunc is np.maximum else np.ndarray.argmin
    reduce = ufunc.reduce

    def indexed(x):
        # the element at NumPy's arg-extremum: a third of ``reduce``'s time on a short vector
        # (its fixed cost); the same value where it is not zero (equal nonzero numbers are the
        # same number; a NaN is the first NaN either way), and ``reduce`` decides the sign of
        # a zero extremum
        r = x[pick(x)]
        return r if r else reduce(x)

    return kernel


_INDEXED_MAX = 1 << 16  # longer vectors: both are memory-bound, the same speed


def _indexed(dt) -> bool:
    """Integer and float32/64 vectors, whose extremum `_extremum_host_kernel` may read at the
    arg-extremum (NumPy's argmax/argmin return the first NaN, as the reduction propagates)."""
    return dt.isbuiltin == 1 and (dt.kind in "iu" or (dt.kind == "f" and dt.itemsize >= 4))


reduce_max_p.host_kernel = _extremum_host_kernel(np.maximum)
reduce_min_p.host_kernel = _extremum_host_kernel(np.minimum)
def _prod_impl(xp, x, axes):
    dt = x.dtype
    if dt is BF16 or dt == F16:  # accumulate in float32 and round once, as JAX and PyTorch do
        return xp.prod(x, axis=axes, dtype=F32).astype(dt)
    return xp.prod(x, axis=axes)


reduce_prod_p = reduction("reduce_prod", quiet(_prod_impl))
def _bitwise_reduction(logical: str, ufunc_name: str):
    """The impl of ``reduce_and``/``reduce_or``: logical on booleans, bitwise on integers (as
    XLA's and/or reductions; the result keeps the operand's dtype).  NumPy reduces with the
    bitwise ufunc; another backend reduces bit by bit with its ``all``/``any``.

    Example::

        >>> impl = _bitwise_reduction("any", "bitwise_or")
        >>> impl(np, np.array([[1, 2, 4], [8, 8, 1]], np.uint16), (1,))
        array([7, 9], dtype=uint16)
    """

    def impl(xp, x, axes):
        if x.dtype == np.bool_:
            return getattr(xp, logical)(x, axis=axes)
        if xp is np:
            return getattr(np, ufunc_name).reduce(x, axis=axes)
        bits = 8 * x.dtype.itemsize
        unsigned = x.view(np.dtype(f"u{x.dtype.itemsize}"))
        out = xp.zeros(_reduced_shape(x.shape, axes), unsigned.dtype)
        for b in range(bits):
            bit = getattr(xp, logical)(((unsigned >> b) & 1).astype(bool), axis=axes)
            out |= bit.astype(unsigned.dtype) << b
        return out.view(x.dtype)

    return impl


reduce_and_p = reduction("reduce_and", _bitwise_reduction("all", "bitwise_and"))
reduce_or_p = reduction("reduce_or", _bitwise_reduction("any", "bitwise_or"))


def reduce_max(x, axes):
    return reduce_max_p.bind(x, axes=tuple(sorted(axes)))


def reduce_min(x, axes):
    return reduce_min_p.bind(x, axes=tuple(sorted(axes)))


def reduce_prod(x, axes):
    return reduce_prod_p.bind(x, axes=tuple(sorted(axes)))


def _minmax_jvp(prim):
    def jvp(primals, tangents, axes):
        (x,), (t,) = primals, tangents
        y = prim.bind(x, axes=axes)
        xs = get_aval(x).shape
        mask = convert_element_type(eq(x, _expand_back(y, xs, axes)), get_aval(y).dtype)
        count = reduce_sum(mask, axes)
        return y, div(reduce_sum(mul(t, mask), axes), count)

    return jvp


defjvp_rule(reduce_max_p, _minmax_jvp(reduce_max_p))
defjvp_rule(reduce_min_p, _minmax_jvp(reduce_min_p))


def _prod_jvp(primals, tangents, axes):
    """d prod / d x_i = product of the others (exact with zeros): move the reduced axes to
    the end, flatten them to n, and form the n products that each leave one factor out."""
    (x,), (t,) = primals, tangents
    y = reduce_prod(x, axes)
    xs = get_aval(x).shape
    keep = [i for i in range(len(xs)) if i not in axes]
    perm = keep + list(axes)
    n = int(np.prod([xs[a] for a in axes], dtype=np.int64))
    lead = tuple(xs[i] for i in keep)
    xf = reshape(transpose(x, perm), lead + (n,))
    tf = reshape(transpose(t, perm), lead + (n,))
    eye = constant_like(np.eye(n, dtype=bool), x)
    xm = broadcast_in_dim(xf, lead + (n, n), tuple(range(len(lead))) + (len(lead) + 1,))
    others = reduce_prod(select(eye, 1.0, xm), (len(lead) + 1,))  # [..., i] = prod_{j != i}
    return y, reduce_sum(mul(tf, others), (len(lead),))


defjvp_rule(reduce_prod_p, _prod_jvp)
defzero(reduce_and_p)
defzero(reduce_or_p)


# -- argmax / argmin -------------------------------------------------------------------

def _arg_abstract(x, axis, index_dtype):
    return ShapedArray(_reduced_shape(x.shape, (axis,)), index_dtype)


def _arg_batch(prim):
    def rule(axis_size, vals, dims, axis, index_dtype):
        (x,), (d,) = vals, dims
        phys = axis if axis < d else axis + 1
        return prim.bind(x, axis=phys, index_dtype=index_dtype), d - (phys < d)

    return rule


argmax_p = Primitive("argmax", lambda xp, x, axis, index_dtype: xp.argmax(x, axis=axis).astype(index_dtype),
                     _arg_abstract, family="reduction")
argmin_p = Primitive("argmin", lambda xp, x, axis, index_dtype: xp.argmin(x, axis=axis).astype(index_dtype),
                     _arg_abstract, family="reduction")
for _p in (argmax_p, argmin_p):
    defzero(_p)
    defbatch(_p, _arg_batch(_p))

__all__ = ["reduce_sum", "reduce_max", "reduce_min", "reduce_prod", "reduce_sum_p", "reduce_max_p",
           "reduce_min_p", "reduce_prod_p", "argmax_p", "argmin_p"]
