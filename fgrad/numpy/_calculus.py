"""Calculus on sampled data and function application with NumPy names: `interp`, `gradient`,
`trapezoid`, `unwrap`, `ediff1d`, `trim_zeros`, `piecewise`, `apply_along_axis`,
`apply_over_axes`.

All are composites (differentiable where the math is: `interp` in ``x``, ``xp`` and ``fp``,
`gradient`/`trapezoid` in the samples and the coordinates).  `trim_zeros` has a
data-dependent shape and needs a concrete input.

>>> import fgrad.numpy as fnp
>>> fnp.interp(2.5, fnp.asarray([1.0, 2.0, 3.0]), fnp.asarray([3.0, 2.0, 0.0]))
Array(1., dtype=float64)
"""

from __future__ import annotations

from typing import Any

from ..typing import Array, ArrayLike, Axis
from collections.abc import Sequence

from typing import Callable

import numpy as np

from ..core.inexact import to_inexact_dtype
from ..core.narrow_floats import dtype_kind
from ..core.x64_mode import canonical_dtype
from ._dtypes import result_type
from ..core.array import get_aval
from ..ops.elementwise import promote_args_inexact
from ..ops._util import normalize_axis
from ..transforms.batching import vmap
import fgrad.numpy._building_blocks as fnp
from ._indexing import _concrete

__all__ = [
    "interp",
    "gradient",
    "trapezoid",
    "unwrap",
    "ediff1d",
    "trim_zeros",
    "piecewise",
    "apply_along_axis",
    "apply_over_axes",
]


def _float_dtype(*xs) -> np.dtype:
    """The operands' inexact dtype (JAX's, `fgrad.core.inexact`: int8 -> float32)."""
    return to_inexact_dtype(result_type(*[get_aval(x).dtype for x in xs]))


def interp(x: ArrayLike, xp: ArrayLike, fp: ArrayLike, left: ArrayLike | None = None,
           right: ArrayLike | None = None, period: ArrayLike | None = None) -> Array:
    """``numpy.interp``: the piecewise-linear interpolant through ``(xp, fp)`` at ``x``
    (``xp`` increasing).  ``left``/``right`` (default ``fp[0]``/``fp[-1]``) outside the range,
    or ``"extrapolate"`` (JAX) to extend the end segments; ``period`` for periodic data.
    Differentiable in ``x``, ``xp`` and ``fp``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.interp(fnp.asarray([0.0, 1.5, 9.0]), fnp.asarray([1.0, 2.0]), fnp.asarray([10.0, 20.0]))
        Array([10., 15., 20.], dtype=float64)
    """
    x, xp, fp = fnp.asarray(x), fnp.asarray(xp), fnp.asarray(fp)
    if get_aval(xp).ndim != 1 or get_aval(fp).ndim != 1:
        raise ValueError(
            f"fgrad.numpy.interp: xp and fp must be one-dimensional, got shapes "
            f"{get_aval(xp).shape} and {get_aval(fp).shape}"
        )
    if get_aval(xp).shape != get_aval(fp).shape:
        raise ValueError(
            f"fgrad.numpy.interp: fp and xp are not of the same length "
            f"({get_aval(fp).shape[0]} and {get_aval(xp).shape[0]})"
        )
    if get_aval(xp).shape[0] == 0:
        raise ValueError("fgrad.numpy.interp: array of sample points is empty")
    for name, v in (("left", left), ("right", right)):
        if isinstance(v, str) and v != "extrapolate":
            raise ValueError(
                f"fgrad.numpy.interp: {name}={v!r} is not supported; use a value, None or 'extrapolate'"
            )
    dt = _float_dtype(x, xp)
    out_dt = np.result_type(dt, _float_dtype(fp))
    x, xp, fp = fnp.astype(x, dt), fnp.astype(xp, dt), fnp.astype(fp, out_dt)
    if period is not None:
        if np.ndim(period) != 0:
            raise ValueError(f"fgrad.numpy.interp: period must be a scalar, got {period!r}")
        period = fnp.abs(period)
        x = fnp.remainder(x, period)
        xp = fnp.remainder(xp, period)
        order = fnp.argsort(xp)
        xp, fp = fnp.take(xp, order), fnp.take(fp, order)
        xp = fnp.concatenate([fnp.subtract(xp[-1:], period), xp, fnp.add(xp[:1], period)])
        fp = fnp.concatenate([fp[-1:], fp, fp[:1]])
    n = get_aval(xp).shape[0]
    if n == 1:
        res = fnp.broadcast_to(fp[0], get_aval(x).shape)
    else:
        i = fnp.clip(fnp.searchsorted(xp, x, side="right"), 1, n - 1)
        x0, x1 = fnp.take(xp, i - 1), fnp.take(xp, i)
        f0, f1 = fnp.take(fp, i - 1), fnp.take(fp, i)
        dx = fnp.subtract(x1, x0)
        flat = fnp.less_equal(fnp.abs(dx), 0.0)  # repeated xp: no division (no NaN gradient)
        slope = fnp.divide(fnp.subtract(f1, f0), fnp.where(flat, 1.0, dx))
        res = fnp.where(flat, f0, fnp.add(f0, fnp.multiply(fnp.subtract(x, x0), slope)))
    if period is None:
        if not (isinstance(left, str)):
            res = fnp.where(fnp.less(x, xp[0]), fp[0] if left is None else left, res)
        if not (isinstance(right, str)):
            res = fnp.where(fnp.greater(x, xp[-1]), fp[-1] if right is None else right, res)
    return fnp.astype(res, out_dt)


def _gradient_1d(f, h, axis: int, edge_order: int):
    """Second-order central differences along the last axis of ``f`` (moved there), with
    one-sided differences of order ``edge_order`` at the ends; ``h`` a scalar spacing or the
    coordinates' differences (length n - 1)."""
    f = fnp.moveaxis(f, axis, -1)
    n = get_aval(f).shape[-1]
    if n < edge_order + 1:
        raise ValueError(
            "fgrad.numpy.gradient: shape of the array too small to calculate a numerical "
            f"gradient, at least (edge_order + 1) = {edge_order + 1} elements are required"
        )
    uniform = get_aval(h).ndim == 0
    if uniform:
        interior = fnp.divide(fnp.subtract(f[..., 2:], f[..., :-2]), fnp.multiply(2.0, h))
        if edge_order == 1:
            first = fnp.divide(fnp.subtract(f[..., 1:2], f[..., 0:1]), h)
            last = fnp.divide(fnp.subtract(f[..., -1:], f[..., -2:-1]), h)
        else:
            first = fnp.divide(
                fnp.add(
                    fnp.add(fnp.multiply(-1.5, f[..., 0:1]), fnp.multiply(2.0, f[..., 1:2])),
                    fnp.multiply(-0.5, f[..., 2:3]),
                ),
                h,
            )
            last = fnp.divide(
                fnp.add(
                    fnp.add(fnp.multiply(0.5, f[..., -3:-2]), fnp.multiply(-2.0, f[..., -2:-1])),
                    fnp.multiply(1.5, f[..., -1:]),
                ),
                h,
            )
    else:
        dx1, dx2 = h[:-1], h[1:]
        a = fnp.negative(fnp.divide(dx2, fnp.multiply(dx1, fnp.add(dx1, dx2))))
        b = fnp.divide(fnp.subtract(dx2, dx1), fnp.multiply(dx1, dx2))
        c = fnp.divide(dx1, fnp.multiply(dx2, fnp.add(dx1, dx2)))
        interior = fnp.add(
            fnp.add(fnp.multiply(a, f[..., :-2]), fnp.multiply(b, f[..., 1:-1])), fnp.multiply(c, f[..., 2:])
        )
        if edge_order == 1:
            first = fnp.divide(fnp.subtract(f[..., 1:2], f[..., 0:1]), h[0])
            last = fnp.divide(fnp.subtract(f[..., -1:], f[..., -2:-1]), h[-1])
        else:
            d1, d2 = h[0], h[1]
            s = fnp.add(d1, d2)
            a = fnp.negative(fnp.divide(fnp.add(fnp.multiply(2.0, d1), d2), fnp.multiply(d1, s)))
            b = fnp.divide(s, fnp.multiply(d1, d2))
            c = fnp.negative(fnp.divide(d1, fnp.multiply(d2, s)))
            first = fnp.add(
                fnp.add(fnp.multiply(a, f[..., 0:1]), fnp.multiply(b, f[..., 1:2])),
                fnp.multiply(c, f[..., 2:3]),
            )
            d1, d2 = h[-2], h[-1]
            s = fnp.add(d1, d2)
            a = fnp.divide(d2, fnp.multiply(d1, s))
            b = fnp.negative(fnp.divide(s, fnp.multiply(d1, d2)))
            c = fnp.divide(fnp.add(fnp.multiply(2.0, d2), d1), fnp.multiply(d2, s))
            last = fnp.add(
                fnp.add(fnp.multiply(a, f[..., -3:-2]), fnp.multiply(b, f[..., -2:-1])),
                fnp.multiply(c, f[..., -1:]),
            )
    out = (
        fnp.concatenate([first, interior, last], axis=-1)
        if n > 2
        else fnp.concatenate([first, last], axis=-1)
    )
    return fnp.moveaxis(out, -1, axis)


def gradient(f: ArrayLike, *varargs: ArrayLike, axis: Axis = None,
             edge_order: int | None = None) -> Array | list[Array]:
    """``numpy.gradient``: second-order accurate central differences in the interior and
    first-order one-sided differences at the boundaries.  ``varargs``: one scalar spacing for
    every axis, or one per axis (a scalar or the 1-D coordinates).  Returns one array per
    axis: an array for a single axis, else a list (JAX; NumPy returns a tuple).
    Differentiable in ``f`` and the spacings.  ``edge_order`` raises NotImplementedError, as
    JAX's (``numpy.gradient``'s second-order edges are `gradient_with_edge_order`).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.gradient(fnp.asarray([1.0, 2.0, 4.0, 7.0]))
        Array([1. , 1.5, 2.5, 3. ], dtype=float64)
    """
    if edge_order is not None:
        raise NotImplementedError("The 'edge_order' argument to jnp.gradient is not supported.")
    return gradient_with_edge_order(f, *varargs, axis=axis)


def gradient_with_edge_order(f: ArrayLike, *varargs: ArrayLike, axis: Axis = None,
                             edge_order: int | None = None) -> Array | list[Array]:
    """`gradient` with NumPy's ``edge_order`` (1, the default, or 2: second-order one-sided
    differences at the boundaries) -- what ``torch.gradient`` computes; JAX's
    ``jnp.gradient`` refuses the argument.

    Example::

        >>> from fgrad.numpy._calculus import gradient_with_edge_order
        >>> import fgrad.numpy as fnp
        >>> gradient_with_edge_order(fnp.asarray([1.0, 2.0, 4.0, 7.0]), edge_order=2)
        Array([0.5, 1.5, 2.5, 3.5], dtype=float64)
    """
    f = fnp.asarray(f)
    nd = get_aval(f).ndim
    if nd == 0:
        raise ValueError("fgrad.numpy.gradient: the input must have at least one dimension")
    axes = (
        tuple(range(nd))
        if axis is None
        else (
            (normalize_axis(axis, nd, "gradient"),)
            if isinstance(axis, int)
            else tuple(normalize_axis(a, nd, "gradient") for a in axis)
        )
    )
    if len(set(axes)) != len(axes):
        raise ValueError(f"fgrad.numpy.gradient: repeated axis in {axis}")
    order = 1 if edge_order is None else edge_order
    if order not in (1, 2):
        raise ValueError("fgrad.numpy.gradient: 'edge_order' greater than 2 not supported")
    if len(varargs) == 0:
        spacings = [1.0] * len(axes)
    elif len(varargs) == 1 and np.ndim(varargs[0]) == 0:
        spacings = list(varargs) * len(axes)
    elif len(varargs) == len(axes):
        spacings = list(varargs)
    else:
        raise TypeError(
            f"fgrad.numpy.gradient: invalid number of spacing arguments ({len(varargs)}) for {len(axes)} axes"
        )
    dt = _float_dtype(f)
    if dtype_kind(get_aval(fnp.asarray(f)).dtype) in "biu" and any(type(h) is float for h in varargs):
        dt = canonical_dtype(np.float64)  # JAX: integers meet a weak float spacing in the default float
    f = fnp.astype(f, dt)
    out = []
    for ax, h in zip(axes, spacings, strict=True):
        h = fnp.asarray(h, dt) if isinstance(h, (int, float)) else fnp.asarray(h)  # Python numbers are weak
        if get_aval(h).ndim == 1:
            if get_aval(h).shape[0] != get_aval(f).shape[ax]:
                raise ValueError(
                    "fgrad.numpy.gradient: when 1d, distances must match the length of the "
                    f"corresponding dimension ({get_aval(h).shape[0]} vs {get_aval(f).shape[ax]})"
                )
            h = fnp.diff(fnp.astype(h, np.result_type(dt, _float_dtype(h))))
        elif get_aval(h).ndim != 0:
            raise ValueError("fgrad.numpy.gradient: distances must be either scalars or 1d")
        out.append(_gradient_1d(f, h, ax, order))
    return out[0] if len(out) == 1 else out


def trapezoid(y: ArrayLike, x: ArrayLike | None = None, dx: ArrayLike = 1.0, axis: Axis = -1) -> Array:
    """``numpy.trapezoid``: the integral of ``y`` along ``axis`` by the trapezoidal rule, at
    sample points ``x`` (1-D, or the shape of ``y``) or with spacing ``dx``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.trapezoid(fnp.asarray([1.0, 2.0, 3.0]), x=fnp.asarray([0.0, 1.0, 3.0]))
        Array(6.5, dtype=float64)
    """
    if x is None:  # JAX's operand dtypes: integers in the inexact dtype (core.inexact)
        y, = promote_args_inexact(fnp.asarray(y))
    else:
        y, x = promote_args_inexact(fnp.asarray(y), fnp.asarray(x))
    nd = get_aval(y).ndim
    axis = normalize_axis(axis, nd, "trapezoid")
    y = fnp.moveaxis(y, axis, -1)
    if x is None:
        d = dx
    else:
        x = fnp.asarray(x)
        if get_aval(x).ndim == 1:
            d = fnp.diff(x)
        else:
            d = fnp.diff(fnp.moveaxis(x, axis, -1), axis=-1)
    total = fnp.multiply(d, fnp.add(y[..., 1:], y[..., :-1]))
    res = fnp.multiply(0.5, fnp.sum(total, axis=-1))
    return fnp.astype(res, _float_dtype(res)) if get_aval(res).dtype.kind not in "fc" else res


def unwrap(p: ArrayLike, discont: ArrayLike | None = None, axis: Axis = -1,
           period: ArrayLike = 2 * np.pi) -> Array:
    """``numpy.unwrap``: adds multiples of ``period`` so that consecutive differences along
    ``axis`` are at most ``max(discont, period / 2)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.unwrap(fnp.asarray([0.0, 3.0, 6.0, 9.0]), period=4.0)
        Array([ 0., -1., -2., -3.], dtype=float64)
    """
    p = fnp.asarray(p)
    nd = get_aval(p).ndim
    axis = normalize_axis(axis, nd, "unwrap")
    pm = fnp.moveaxis(p, axis, -1)
    dd = fnp.diff(pm, axis=-1)
    if discont is None:
        discont = period / 2 if not hasattr(period, "dtype") else fnp.divide(period, 2)
    if isinstance(period, (int, float)):  # a Python number is weak: it keeps p's dtype
        # (bfloat16 is a float: dtype_kind, not dtype.kind, which is "V" for it)
        dt = get_aval(dd).dtype if (dtype_kind(get_aval(dd).dtype) in "fc" or isinstance(period, int)) \
            else np.dtype(np.float64)
    else:
        dt = np.result_type(get_aval(dd).dtype, get_aval(fnp.asarray(period)).dtype)
    if dt.kind in "iu":
        interval_high, rem = divmod(period, 2)
        ambiguous = rem == 0
    else:
        interval_high, ambiguous = fnp.divide(period, 2), True
    interval_low = fnp.negative(interval_high)
    ddmod = fnp.add(fnp.remainder(fnp.subtract(dd, interval_low), period), interval_low)
    if ambiguous:
        ddmod = fnp.where(
            fnp.logical_and(fnp.equal(ddmod, interval_low), fnp.greater(dd, 0)), interval_high, ddmod
        )
    correct = fnp.subtract(ddmod, dd)
    correct = fnp.where(fnp.less(fnp.abs(dd), discont), 0, correct)
    pm = fnp.astype(pm, dt)
    up = fnp.concatenate(
        [pm[..., :1], fnp.add(pm[..., 1:], fnp.cumsum(fnp.astype(correct, dt), axis=-1))], axis=-1
    )
    return fnp.moveaxis(up, -1, axis)


def ediff1d(ary: ArrayLike, to_end: ArrayLike | None = None, to_begin: ArrayLike | None = None) -> Array:
    """``numpy.ediff1d``: differences of the flattened array, with ``to_begin``/``to_end``
    (flattened) around them.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.ediff1d(fnp.asarray([1, 2, 4, 7]), to_begin=-99)
        Array([-99,   1,   2,   3], dtype=int64)
    """
    flat = fnp.ravel(fnp.asarray(ary))
    dt = get_aval(flat).dtype
    parts = [fnp.subtract(flat[1:], flat[:-1])]
    if to_begin is not None:
        parts.insert(0, fnp.ravel(fnp.astype(fnp.asarray(to_begin), dt)))
    if to_end is not None:
        parts.append(fnp.ravel(fnp.astype(fnp.asarray(to_end), dt)))
    return fnp.concatenate(parts) if len(parts) > 1 else parts[0]


def trim_zeros(filt: ArrayLike, trim: str = "fb", axis: Axis = None) -> Array:
    """``numpy.trim_zeros``: ``filt`` without its leading (``"f"`` in ``trim``) and trailing
    (``"b"``) zeros, along ``axis`` (default: every axis).  The result's shape depends on the
    values: needs a concrete input.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.trim_zeros(fnp.asarray([0, 0, 1, 2, 0]))
        Array([1, 2], dtype=int64)
    """
    filt = fnp.asarray(filt)
    trim = trim.lower()
    if any(c not in "fb" for c in trim):
        raise ValueError(f"fgrad.numpy.trim_zeros: unexpected character(s) in `trim`: {trim!r}")
    nd = get_aval(filt).ndim
    if nd == 0:
        raise ValueError("fgrad.numpy.trim_zeros: the input must be at least 1-D")
    axes = (
        range(nd)
        if axis is None
        else (
            [normalize_axis(axis, nd, "trim_zeros")]
            if isinstance(axis, int)
            else [normalize_axis(a, nd, "trim_zeros") for a in axis]
        )
    )
    nonzero = _concrete(
        fnp.not_equal(filt, 0),
        "trim_zeros",
        "Trim a concrete array, or keep the shape and mask with fnp.where.",
    )
    index = [slice(None)] * nd
    for ax in axes:
        other = tuple(i for i in range(nd) if i != ax)
        hits = np.flatnonzero(nonzero.any(axis=other)) if other else np.flatnonzero(nonzero)
        if hits.size == 0:
            start = stop = 0
        else:
            start = int(hits[0]) if "f" in trim else 0
            stop = int(hits[-1]) + 1 if "b" in trim else get_aval(filt).shape[ax]
        index[ax] = slice(start, stop)
    return filt[tuple(index)]


def piecewise(x: ArrayLike, condlist: ArrayLike | Sequence[ArrayLike], funclist: Sequence[Any], *args: Any,
              **kw: Any) -> Array:
    """``numpy.piecewise``: ``funclist[i]`` (a callable of ``x, *args, **kw`` or a constant)
    where ``condlist[i]`` holds (later conditions win); one extra entry in ``funclist`` is
    the value where no condition holds (default 0).  Every function is evaluated on all of
    ``x`` and the results selected (as under JAX's vmap), so keep the functions finite
    everywhere when differentiating.  The result has ``x``'s dtype.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x = fnp.asarray([-2.0, 0.5, 3.0])
        >>> fnp.piecewise(x, [x < 0, x > 1], [lambda v: -v, lambda v: v ** 2, 7.0])
        Array([2., 7., 9.], dtype=float64)
    """
    x = fnp.asarray(x)
    if isinstance(condlist, (list, tuple)):
        conds = [fnp.asarray(c) for c in condlist]
    else:
        # JAX's (not NumPy's): an array's conditions are its entries along the first axis,
        # also when it has x's shape (``piecewise(x, bool[3], [f, g, h])``: three conditions)
        c = fnp.asarray(condlist)
        if get_aval(c).ndim == 0:
            raise TypeError("fgrad.numpy.piecewise: condlist must be a sequence or an array with "
                            "at least one dimension (JAX: len() of a 0-d array)")
        conds = [c[i] for i in range(get_aval(c).shape[0])]
    n = len(conds)
    if len(funclist) not in (n, n + 1):
        raise ValueError(
            f"fgrad.numpy.piecewise: with {n} condition(s), either {n} or {n + 1} functions "
            f"are expected, got {len(funclist)}"
        )
    dt = get_aval(x).dtype

    def value(func):
        v = func(x, *args, **kw) if callable(func) else func
        return fnp.astype(fnp.broadcast_to(fnp.asarray(v), get_aval(x).shape), dt)

    if len(funclist) == n + 1:
        taken = conds[0] if n == 1 else fnp.any(fnp.stack([fnp.astype(c, bool) for c in conds]), axis=0)
        out = fnp.where(taken, fnp.zeros_like(x), value(funclist[-1]))
    else:
        out = fnp.zeros_like(x)
    for cond, func in zip(conds, funclist[:n], strict=True):
        out = fnp.where(cond, value(func), out)
    return out


def apply_along_axis(func1d: Callable, axis: int, arr: ArrayLike, *args: ArrayLike, **kwargs) -> Array:
    """``numpy.apply_along_axis`` as in JAX: ``func1d`` mapped over the 1-D slices along
    ``axis`` with `fgrad.vmap` (so it must be traceable); its output's axes replace ``axis``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.apply_along_axis(lambda v: v[0] + v[-1], 1, fnp.arange(6.0).reshape(2, 3))
        Array([2., 8.], dtype=float64)
    """
    arr = fnp.asarray(arr)
    nd = get_aval(arr).ndim
    axis = normalize_axis(axis, nd, "apply_along_axis")

    def func(a):
        return func1d(a, *args, **kwargs)

    for i in range(1, nd - axis):
        func = vmap(func, in_axes=i, out_axes=-1)
    for _ in range(axis):
        func = vmap(func, in_axes=0, out_axes=0)
    return func(arr)


def apply_over_axes(func: Callable, a: ArrayLike, axes) -> Array:
    """``numpy.apply_over_axes``: ``a = func(a, axis)`` for each axis in turn, a reduced axis
    put back with size 1.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.apply_over_axes(fnp.sum, fnp.ones((2, 3, 4)), [0, 2])
        Array([[[8.],
                [8.],
                [8.]]], dtype=float64)
    """
    a = fnp.asarray(a)
    for axis in [axes] if isinstance(axes, int) else axes:
        b = func(a, axis)
        nd_a, nd_b = get_aval(a).ndim, get_aval(fnp.asarray(b)).ndim
        if nd_b == nd_a:
            a = b
        elif nd_b == nd_a - 1:
            a = fnp.expand_dims(b, axis)
        else:
            raise ValueError(
                "fgrad.numpy.apply_over_axes: function is not returning an array of the correct shape"
            )
    return a


from . import _indexing as _indexing_module  # noqa: E402  (below this module)

_indexing_module._ABOVE["apply_along_axis"] = apply_along_axis  # pad's callable mode
