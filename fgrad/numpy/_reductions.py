"""Reductions with NumPy signatures (axis, keepdims, dtype) over the reduction primitives."""

from __future__ import annotations

from ..typing import ArrayLike, Axis, DTypeLike

import builtins

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..core.narrow_floats import bfloat16
from ..core.inexact import to_inexact_dtype

from ..core.array import Array, Tracer, get_aval
from ..core.constants import constant_like, full_like
from ..ops import reductions as reduction_ops
from ..ops.elementwise import BY_RECIPROCAL_DTYPES, div_p
from ..ops.elementwise import (add, conj, convert_element_type, div, gt, lattice_pair, maximum, minimum, mul,
                               ne_p, promote_args_inexact, real, select, sqrt, strip_weak, sub)
from ..ops.shape import broadcast_in_dim, reshape
from ..ops._util import normalize_axes, normalize_axis
from ._arraylike import check_arraylike


def _keep(out, in_shape, axes, keepdims):
    if not keepdims:
        return out
    return reshape(out, tuple(1 if i in axes else s for i, s in enumerate(in_shape)))


def _mask(a, where, fill, name: str):
    """``a`` with the entries where ``where`` is False replaced by ``fill`` (``where``
    broadcasts against ``a``, NumPy's reduction ``where=``)."""
    if not isinstance(where, (Array, Tracer)):  # NumPy / Python masks go where a is
        where = constant_like(np.asarray(where), a)
    av, wv = get_aval(a), get_aval(where)
    try:
        shape = np.broadcast_shapes(wv.shape, av.shape)
    except ValueError:
        raise ValueError(f"fgrad.numpy.{name}: where= of shape {wv.shape} does not broadcast to "
                         f"the input's shape {av.shape}") from None
    if shape != av.shape:
        raise ValueError(f"fgrad.numpy.{name}: where= of shape {wv.shape} would broadcast the "
                         f"input of shape {av.shape} to {shape}; it must broadcast to the input")
    if wv.dtype != np.bool_:
        where = ne_p.bind(where, 0)
    if wv.shape != av.shape:
        where = broadcast_in_dim(where, av.shape, tuple(range(av.ndim - wv.ndim, av.ndim)))
    if not hasattr(fill, "shape"):  # a Python number: a constant of a's dtype, placed like a
        fill = constant_like(np.asarray(fill, av.dtype), a)
    return select(where, a, fill)


_ACCUMULATOR: dict = {}


def _accumulator_dtype(dt: np.dtype) -> np.dtype:
    """The dtype ``numpy.sum``/``numpy.prod`` give for input ``dt`` (``np.add.reduce``'s rule),
    asked of NumPy once per dtype (a sum of one element costs as much as a small reduction)."""
    acc = _ACCUMULATOR.get(dt)
    if acc is None:
        acc = _ACCUMULATOR[dt] = np.sum(np.ones((1,), dt)).dtype
    return acc


def _reduce(prim_fn, name):
    def f(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
          keepdims: bool = False, initial: ArrayLike | None = None, where: ArrayLike | None = None,
          promote_integers: bool = True) -> Array:
        if out is not None:
            raise NotImplementedError(f"fgrad.numpy.{name}: out= is not supported (arrays are immutable)")
        check_arraylike(name, a)
        av = get_aval(a)
        axes = normalize_axes(axis, av.ndim, name)
        if dtype is not None:
            a = convert_element_type(a, dtype)
        if where is not None:
            if name in ("max", "min") and initial is None:
                raise ValueError(f"reduction operation {name} does not have an identity, so to use "
                                 "a where mask one has to specify 'initial'")
            a = _mask(a, where, {"sum": 0, "prod": 1}.get(name, initial), name)
        elif name in ("max", "min") and builtins.any(av.shape[i] == 0 for i in axes) and initial is None:
            raise ValueError(f"zero-size array to reduction operation {name} which has no identity")
        if name in ("max", "min") and builtins.any(av.shape[i] == 0 for i in axes):
            # nothing to reduce: every result is ``initial`` (JAX's -inf for softmax's maximum)
            kept = tuple(d for i, d in enumerate(av.shape) if i not in axes)
            if isinstance(initial, (bool, int, float, np.generic)):
                res = full_like(a, initial, shape=kept)
            else:
                res = broadcast_in_dim(convert_element_type(initial, get_aval(a).dtype), kept, ())
        else:
            res = prim_fn(a, axes) if axes else a
        if name in ("sum", "prod"):
            # NumPy's accumulator: `dtype` when given, else bools and ints narrower than the
            # platform int become int64 (uint64 for unsigned) -- also with no axes to reduce
            # (a 0-d array), where the primitive is not even called
            want = np.dtype(dtype) if dtype is not None else _accumulator_dtype(get_aval(a).dtype)
            if dtype is None and not promote_integers and _dtype_kind(get_aval(a).dtype) in "biu":
                # JAX's promote_integers=False: integers keep their dtype, bools count in int32
                want = np.dtype(np.int32) if get_aval(a).dtype == np.bool_ else get_aval(a).dtype
            if get_aval(res).dtype != want:
                res = convert_element_type(res, want)
        if initial is not None:
            comb = {"sum": add, "max": maximum, "min": minimum, "prod": mul}[name]
            # JAX casts ``initial`` to the operand's dtype first: sum(int32, initial=2.5) adds 2
            # (an int64 5 for [0, 1, 2]), max of bools with a Python int initial stays bool
            dt = get_aval(a).dtype
            if isinstance(initial, (bool, int, float, np.generic)):
                # a Python number of that value stays a weak scalar: no host array beside a
                # device operand
                initial = np.asarray(initial).astype(dt).item()
            else:
                initial = convert_element_type(initial, dt)
            res = comb(res, initial)
        return strip_weak(_keep(res, av.shape, axes, keepdims))  # JAX's reductions are strong

    f.__name__ = name
    f.__doc__ = f"``{name}`` over ``axis`` (None: all axes), NumPy semantics."
    return f


sum = _reduce(reduction_ops.reduce_sum, "sum")
max = amax = _reduce(reduction_ops.reduce_max, "max")
min = amin = _reduce(reduction_ops.reduce_min, "min")
prod = _reduce(reduction_ops.reduce_prod, "prod")


def _bool_reduce(prim, name):
    def f(a: ArrayLike, axis: Axis = None, out: None = None, keepdims: bool = False, *,
          where: ArrayLike | None = None) -> Array:
        av = get_aval(a)
        axes = normalize_axes(axis, av.ndim, name)
        if av.dtype != np.bool_:
            a = convert_element_type(a, np.bool_)
        if where is not None:  # masked-out entries: the identity (True for all, False for any)
            a = _mask(a, where, name == "all", name)
        res = prim.bind(a, axes=axes) if axes else a
        return strip_weak(_keep(res, av.shape, axes, keepdims))  # JAX's reductions are strong

    f.__name__ = name
    return f


all = _bool_reduce(reduction_ops.reduce_and_p, "all")
any = _bool_reduce(reduction_ops.reduce_or_p, "any")


def _count(shape, axes) -> int:
    return int(np.prod([shape[i] for i in axes], dtype=np.int64))


def _div_by_count(total: Array, n: float) -> Array:
    """``total / n`` for a count ``n`` known when tracing, as JAX's ``mean``/``var`` compute
    it: XLA rewrites a division by a constant into a product with the reciprocal, so a float32
    or float64 quotient is ``total * (1 / n)`` (the reciprocal rounded to the dtype first:
    ``mean([1.] * 21 + [0.] * 19)`` is float32's 0.52500004, not 0.525)."""
    dt = get_aval(total).dtype
    if dt in BY_RECIPROCAL_DTYPES:
        return div_p.bind(total, np.asarray(n, dt)[()], by_reciprocal=True)
    return div(total, n)


def _upcast_f16(dtype: np.dtype) -> np.dtype:
    """JAX's computation dtype of ``mean``/``var``: float32 for float16 and bfloat16."""
    return np.dtype(np.float32) if dtype in (np.dtype(np.float16), np.dtype(bfloat16)) else dtype


def mean(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None,
         keepdims: bool = False, *, where: ArrayLike | None = None) -> Array:
    """Arithmetic mean (bool and integers average in JAX's inexact dtype: float32 up to 32
    bits, float64 for 64-bit integers; `fgrad.core.inexact`); with ``where``, the mean
    of the selected entries (NaN where none is selected).

    >>> import fgrad.numpy as fnp
    >>> fnp.mean(fnp.asarray([1.0, 2.0, 6.0]), where=fnp.asarray([True, True, False]))
    Array(1.5, dtype=float64)
    """
    check_arraylike("mean", a)
    av = get_aval(a)
    axes = normalize_axes(axis, av.ndim, "mean")
    if dtype is None:
        dtype = to_inexact_dtype(av.dtype)
    out_dtype = np.dtype(dtype)
    a = convert_element_type(a, _upcast_f16(out_dtype))  # float16/bfloat16 sum in float32 (JAX)
    if where is not None:
        total = sum(a, axes, keepdims=keepdims, where=where)
        ones = broadcast_in_dim(constant_like(np.ones((), get_aval(a).dtype), a), av.shape, ())
        return convert_element_type(div(total, sum(ones, axes, keepdims=keepdims, where=where)), out_dtype)
    total = reduction_ops.reduce_sum(a, axes) if axes else a
    n = _count(av.shape, axes)
    res = _div_by_count(total, float(n)) if n else div(total, 0.0)  # 0 / 0 (JAX: a division by zero)
    return _keep(convert_element_type(res, out_dtype), av.shape, axes, keepdims)


def var(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0,
        keepdims: bool = False, *, correction: int | float | None = None,
        where: ArrayLike | None = None) -> Array:
    """Variance over ``axis``, divided by ``N - ddof`` (``correction`` is the array API's
    name for ``ddof``; give one of them); ``where`` selects the entries (N counts them).

    >>> import fgrad.numpy as fnp
    >>> fnp.var(fnp.asarray([1.0, 2.0, 3.0]), correction=1)
    Array(1., dtype=float64)
    """
    if correction is not None:
        if ddof != 0:
            raise ValueError("fgrad.numpy.var: give ddof or correction, not both")
        ddof = correction
    check_arraylike("var", a)
    av = get_aval(a)
    axes = normalize_axes(axis, av.ndim, "var")
    if dtype is not None:
        out_dtype = np.dtype(dtype)
    elif _dtype_kind(av.dtype) in "fc":
        out_dtype = np.real(np.zeros((), av.dtype)).dtype if _dtype_kind(av.dtype) == "c" else av.dtype
    else:
        out_dtype = np.dtype(to_inexact_dtype(av.dtype))
    comp = _upcast_f16(np.dtype(dtype) if dtype is not None else
                       (av.dtype if _dtype_kind(av.dtype) in "fc" else out_dtype))
    a = convert_element_type(a, comp)
    m = mean(a, axes, keepdims=True, where=where)
    d = sub(a, m)
    sq = real(mul(d, conj(d))) if _dtype_kind(get_aval(d).dtype) == "c" else mul(d, d)
    if where is not None:
        ones = broadcast_in_dim(constant_like(np.ones((), get_aval(sq).dtype), sq), av.shape, ())
        n = sub(sum(ones, axes, keepdims=keepdims, where=where), float(ddof))
        out = div(sum(sq, axes, keepdims=keepdims, where=where), n)
        nan = constant_like(np.full((), np.nan, get_aval(out).dtype), out)
        return convert_element_type(select(gt(n, 0.0), out, nan), out_dtype)  # none left: NaN, as JAX
    n = _count(av.shape, axes) - ddof
    total = reduction_ops.reduce_sum(sq, axes) if axes else sq
    if n <= 0:  # no degrees of freedom left: NaN (as JAX), with gradient 0
        return _keep(convert_element_type(add(mul(total, 0.0), np.nan), out_dtype), av.shape, axes, keepdims)
    return _keep(convert_element_type(_div_by_count(total, float(n)), out_dtype), av.shape, axes, keepdims)


def std(a: ArrayLike, axis: Axis = None, dtype: DTypeLike | None = None, out: None = None, ddof: int = 0,
        keepdims: bool = False, *, correction: int | float | None = None,
        where: ArrayLike | None = None) -> Array:
    """Standard deviation, ``sqrt(var(...))`` (``correction``, ``where`` as in `var`).

    >>> import fgrad.numpy as fnp
    >>> fnp.std(fnp.asarray([1.0, 3.0]), correction=1)
    Array(1.41421356, dtype=float64)
    """
    check_arraylike("std", a)
    return sqrt(var(a, axis, dtype, out, ddof, keepdims, correction=correction, where=where))


def _arg(prim, name):
    def f(a: ArrayLike, axis: int | None = None, out: None = None, keepdims: bool = False) -> Array:
        av = get_aval(a)
        ax = None if axis is None else normalize_axis(axis, av.ndim, name)
        if (av.size if ax is None else av.shape[ax]) == 0:  # (JAX checks this first, at trace time)
            raise ValueError(f"attempt to get {name} of an empty sequence")
        if _dtype_kind(av.dtype) == "c":  # JAX compares with lax.gt, which takes no complex numbers
            raise TypeError(f"fgrad.numpy.{name} does not accept dtype {av.dtype.name}: complex numbers "
                            "have no order (compare their real parts or absolute values)")
        if axis is None:
            flat = reshape(a, (av.size,))
            res = prim.bind(flat, axis=0, index_dtype=np.dtype(np.int64))
            return reshape(res, (1,) * av.ndim) if keepdims else res
        res = prim.bind(a, axis=ax, index_dtype=np.dtype(np.int64))
        return _keep(res, av.shape, (ax,), keepdims)

    f.__name__ = name
    return f


argmax = _arg(reduction_ops.argmax_p, "argmax")
argmin = _arg(reduction_ops.argmin_p, "argmin")


def average(a: ArrayLike, axis: Axis = None, weights: ArrayLike | None = None, returned: bool = False,
            keepdims: bool = False) -> Array | tuple[Array, Array]:
    """The (weighted) mean along ``axis``; 1-d ``weights`` apply along a single ``axis``;
    ``returned`` also gives the sum of the weights (broadcast to the average's shape), as
    ``numpy.average`` and JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.average(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]), axis=1, weights=fnp.asarray([1.0, 3.0]),
        ...             returned=True)
        (Array([1.75, 3.75], dtype=float64), Array([4., 4.], dtype=float64))
    """
    if weights is None:
        avg = mean(a, axis, keepdims=keepdims)
        if not returned:
            return avg
        n = int(np.prod(get_aval(a).shape if hasattr(a, "shape") else np.shape(a)))
        count = n / builtins.max(int(np.prod(get_aval(avg).shape)), 1)
        return avg, add(mul(avg, 0), constant_like(np.asarray(count, get_aval(avg).dtype), avg))
    # an integer weight meeting a float32/float16 ``a`` takes its type (JAX's joint dtype), so
    # the sum of the weights does not widen the average to float64
    a, w = lattice_pair(*promote_args_inexact(a, weights))
    ash, wsh = get_aval(a).shape, get_aval(w).shape
    if ash != wsh:
        if axis is None:
            raise TypeError("Axis must be specified when shapes of a and weights differ.")
        if len(wsh) != 1:
            raise TypeError("1D weights expected when shapes of a and weights differ.")
        ax = normalize_axis(axis, len(ash), "average")
        if wsh[0] != ash[ax]:
            raise ValueError("Length of weights not compatible with specified axis.")
        w = broadcast_in_dim(w, tuple(ash[i] if i == ax else 1 for i in range(len(ash))), (ax,))
    wsum = sum(mul(w, 1.0) if get_aval(w).shape == ash else w, axis, keepdims=keepdims)
    avg = div(sum(mul(a, w), axis, keepdims=keepdims), wsum)
    if not returned:
        return avg
    if get_aval(wsum).shape != get_aval(avg).shape:
        wsum = broadcast_in_dim(wsum, get_aval(avg).shape, tuple(range(get_aval(avg).ndim)))
    return avg, wsum


def count_nonzero(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    return sum(ne_p.bind(a, 0), axis, keepdims=keepdims)


def ptp(a: ArrayLike, axis: Axis = None, keepdims: bool = False) -> Array:
    return sub(max(a, axis, keepdims=keepdims), min(a, axis, keepdims=keepdims))


def _public_names(namespace, extra=()):
    return sorted({n for n, v in namespace.items() if not n.startswith("_") and callable(v)
                   and getattr(v, "__module__", None) == __name__} | set(extra))


__all__ = _public_names(globals(), ("amax", "amin"))
