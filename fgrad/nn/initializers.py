"""Parameter initializers (``jax.nn.initializers``): each factory returns
``init(key, shape, dtype)``, a pure function of an `fgrad.random` key.

The variance-scaling family draws with ``variance = scale / fan``, where the fans come from
the weight's shape: ``in_axis`` and ``out_axis`` (default: the last two axes) times the
receptive field (the product of the other axes, ``batch_axis`` excluded).  Samples follow
JAX's definitions but not its random stream (see docs/nn-random.md).

Example::

    >>> import fgrad.random as random
    >>> from fgrad.nn import initializers
    >>> w = initializers.glorot_normal()(random.key(0), (64, 32))
    >>> w.shape, w.dtype
    ((64, 32), dtype('float64'))
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from .. import numpy as fnp
from .. import random as _random
from ..numpy import linalg as _linalg
from ..random._keys import KeyArrayLike
from ..typing import Array, ArrayLike, DTypeLike, Shape

Initializer = Callable[..., Array]  # init(key, shape, dtype) -> Array

__all__ = [
    "Initializer", "zeros", "ones", "constant", "uniform", "normal", "truncated_normal", "variance_scaling",
    "glorot_uniform", "glorot_normal", "xavier_uniform", "xavier_normal", "lecun_uniform", "lecun_normal",
    "he_uniform", "he_normal", "kaiming_uniform", "kaiming_normal", "orthogonal", "delta_orthogonal",
]

_DEFAULT = float  # float64 (float32 while 64-bit types are off; JAX: jnp.float_)
# standard deviation of a standard normal truncated to (-2, 2)
_TRUNCATED_STDDEV = 0.87962566103423978


def _float_dtype(dtype, name: str) -> np.dtype:
    dt = np.dtype(dtype)
    if _dtype_kind(dt) != "f":
        raise TypeError(f"fgrad.nn.initializers.{name}: dtype must be a real floating dtype, got {dt}")
    return dt


def _shape(shape) -> tuple:
    return (int(shape),) if isinstance(shape, (int, np.integer)) else tuple(int(d) for d in shape)


def zeros(key: KeyArrayLike | None, shape: int | Shape, dtype: DTypeLike = _DEFAULT) -> Array:
    """All zeros (``key`` is unused).

    Example::

        >>> from fgrad.nn import initializers
        >>> initializers.zeros(None, (2,))
        Array([0., 0.], dtype=float64)
    """
    return fnp.zeros(_shape(shape), dtype)


def ones(key: KeyArrayLike | None, shape: int | Shape, dtype: DTypeLike = _DEFAULT) -> Array:
    """All ones (``key`` is unused).

    Example::

        >>> from fgrad.nn import initializers
        >>> initializers.ones(None, (2,))
        Array([1., 1.], dtype=float64)
    """
    return fnp.ones(_shape(shape), dtype)


def constant(value: ArrayLike, dtype: DTypeLike = _DEFAULT) -> Initializer:
    """An initializer filling with ``value`` (broadcast to the requested shape).

    Example::

        >>> from fgrad.nn import initializers
        >>> initializers.constant(-7.0)(None, (2,))
        Array([-7., -7.], dtype=float64)
    """
    def init(key, shape, dtype=dtype):
        return fnp.broadcast_to(fnp.asarray(value, dtype=dtype), _shape(shape))
    return init


def uniform(scale: ArrayLike = 1e-2, dtype: DTypeLike = _DEFAULT) -> Initializer:
    """Uniform on ``[0, scale)``.

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.nn import initializers
        >>> w = initializers.uniform(0.5)(random.key(1), (1000,))
        >>> bool((w >= 0).all() and (w < 0.5).all())
        True
    """
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "uniform")
        return fnp.multiply(_random.uniform(key, _shape(shape), dt), np.asarray(scale, dt))
    return init


def normal(stddev: ArrayLike = 1e-2, dtype: DTypeLike = _DEFAULT) -> Initializer:
    """Normal with mean 0 and standard deviation ``stddev``.

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.nn import initializers
        >>> initializers.normal(2.0)(random.key(1), (3, 4)).shape
        (3, 4)
    """
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "normal")
        return fnp.multiply(_random.normal(key, _shape(shape), dt), np.asarray(stddev, dt))
    return init


def truncated_normal(stddev: ArrayLike = 1e-2, dtype: DTypeLike = _DEFAULT, lower: ArrayLike = -2.0,
                     upper: ArrayLike = 2.0) -> Initializer:
    """``stddev`` times a standard normal truncated to ``(lower, upper)`` (so the samples
    lie in ``(stddev * lower, stddev * upper)``; their standard deviation is below ``stddev``).

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.nn import initializers
        >>> w = initializers.truncated_normal(1.0)(random.key(1), (1000,))
        >>> bool((abs(w) < 2).all())
        True
    """
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "truncated_normal")
        sample = _random.truncated_normal(key, lower, upper, _shape(shape), dt)
        return fnp.multiply(sample, np.asarray(stddev, dt))
    return init


def _compute_fans(shape: tuple, in_axis, out_axis, batch_axis) -> tuple[float, float]:
    if len(shape) <= 1 and (in_axis == -2 or out_axis == -1):
        raise ValueError(f"Can't compute input and output sizes of a {len(shape)}-dimensional weights "
                         "tensor with default in_axis. Must be at least 2D or specify in_axis explicitly.")
    nd = len(shape)

    def axes(a):
        return [x % nd for x in ((a,) if isinstance(a, int) else a)]
    ins, outs, batch = axes(in_axis), axes(out_axis), axes(batch_axis)
    in_size = math.prod(shape[a] for a in ins)
    out_size = math.prod(shape[a] for a in outs)
    batch_size = math.prod(shape[a] for a in batch)
    receptive = math.prod(shape) / (in_size * out_size * batch_size) if in_size * out_size * batch_size else 0
    return in_size * receptive, out_size * receptive


def variance_scaling(scale: float, mode: str, distribution: str, in_axis: int | Sequence[int] = -2,
                     out_axis: int | Sequence[int] = -1, batch_axis: Sequence[int] = (),
                     dtype: DTypeLike = _DEFAULT) -> Initializer:
    """Samples with variance ``scale / fan`` (``mode``: ``"fan_in"``, ``"fan_out"``,
    ``"fan_avg"`` (the mean of both) or ``"fan_geo_avg"`` (their geometric mean)), from
    ``distribution``: ``"truncated_normal"`` (a normal truncated to two standard deviations,
    rescaled to have that variance), ``"normal"`` or ``"uniform"`` (on ``+-sqrt(3 variance)``).

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.nn import initializers
        >>> init = initializers.variance_scaling(2.0, "fan_in", "normal")
        >>> w = init(random.key(0), (1000, 200))
        >>> round(float(w.var() * 1000), 1)
        2.0
    """
    if mode not in ("fan_in", "fan_out", "fan_avg", "fan_geo_avg"):
        raise ValueError(f"invalid mode for variance scaling initializer: {mode}")
    if distribution not in ("truncated_normal", "normal", "uniform"):
        raise ValueError(f"invalid distribution for variance scaling initializer: {distribution}")

    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "variance_scaling")
        shape = _shape(shape)
        fan_in, fan_out = _compute_fans(shape, in_axis, out_axis, batch_axis)
        denominator = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2,
                       "fan_geo_avg": math.sqrt(fan_in * fan_out)}[mode]
        variance = scale / denominator
        if distribution == "truncated_normal":
            stddev = math.sqrt(variance) / _TRUNCATED_STDDEV
            sample = _random.truncated_normal(key, -2.0, 2.0, shape, dt)
            return fnp.multiply(sample, np.asarray(stddev, dt))
        if distribution == "normal":
            return fnp.multiply(_random.normal(key, shape, dt), np.asarray(math.sqrt(variance), dt))
        bound = math.sqrt(3 * variance)
        return _random.uniform(key, shape, dt, -bound, bound)
    return init


def _preset(name: str, title: str, scale: float, mode: str, distribution: str) -> Callable[..., Initializer]:
    """A named `variance_scaling` preset: ``name(in_axis, out_axis, batch_axis, dtype)``."""

    def preset(in_axis: int | Sequence[int] = -2, out_axis: int | Sequence[int] = -1,
               batch_axis: Sequence[int] = (), dtype: DTypeLike = _DEFAULT) -> Initializer:
        return variance_scaling(scale, mode, distribution, in_axis, out_axis, batch_axis, dtype)

    preset.__name__ = preset.__qualname__ = name
    preset.__doc__ = f"""{title}: ``variance_scaling({scale}, "{mode}", "{distribution}")``.

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.nn import initializers
        >>> initializers.{name}()(random.key(0), (3, 2)).shape
        (3, 2)
    """
    return preset


glorot_uniform = _preset("glorot_uniform", "Glorot/Xavier uniform", 1.0, "fan_avg", "uniform")
glorot_normal = _preset("glorot_normal", "Glorot/Xavier normal", 1.0, "fan_avg", "truncated_normal")
lecun_uniform = _preset("lecun_uniform", "LeCun uniform", 1.0, "fan_in", "uniform")
lecun_normal = _preset("lecun_normal", "LeCun normal", 1.0, "fan_in", "truncated_normal")
he_uniform = _preset("he_uniform", "He/Kaiming uniform", 2.0, "fan_in", "uniform")
he_normal = _preset("he_normal", "He/Kaiming normal", 2.0, "fan_in", "truncated_normal")

xavier_uniform, xavier_normal = glorot_uniform, glorot_normal
kaiming_uniform, kaiming_normal = he_uniform, he_normal


def orthogonal(scale: ArrayLike = 1.0, column_axis: int = -1, dtype: DTypeLike = _DEFAULT) -> Initializer:
    """A (semi-)orthogonal matrix times ``scale``: the Q of the QR decomposition of a normal
    matrix, signs fixed by R's diagonal (so Q is Haar-distributed); the axes other than
    ``column_axis`` are flattened into the rows.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random as random
        >>> from fgrad.nn import initializers
        >>> q = initializers.orthogonal()(random.key(0), (4, 3))
        >>> bool(fnp.allclose(q.T @ q, fnp.eye(3)))
        True
    """
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "orthogonal")
        shape = _shape(shape)
        if len(shape) < 2:
            raise ValueError("orthogonal initializer requires at least a 2D shape")
        column_axis_ = column_axis % len(shape)
        n_rows = math.prod(shape) // shape[column_axis_]
        n_cols = shape[column_axis_]
        matrix_shape = (n_cols, n_rows) if n_rows < n_cols else (n_rows, n_cols)
        a = _random.normal(key, matrix_shape, dt)
        q, r = _linalg.qr(a)
        q = fnp.multiply(q, fnp.sign(fnp.diagonal(r))[None, :])
        if n_rows < n_cols:
            q = q.T
        others = tuple(d for i, d in enumerate(shape) if i != column_axis_)
        q = fnp.moveaxis(fnp.reshape(q, others + (n_cols,)), -1, column_axis_)
        return fnp.multiply(q, np.asarray(scale, dt))
    return init


def delta_orthogonal(scale: ArrayLike = 1.0, column_axis: int = -1,
                     dtype: DTypeLike = _DEFAULT) -> Initializer:
    """Delta-orthogonal kernels for 1-3D convolutions (Xiao et al., 2018): zeros except an
    orthogonal ``[in, out]`` matrix at the spatial centre.  Shape ``[*spatial, in, out]``
    with ``in <= out``.

    Example::

        >>> import fgrad.random as random
        >>> from fgrad.nn import initializers
        >>> w = initializers.delta_orthogonal()(random.key(0), (3, 3, 2, 4))
        >>> float(abs(w[0, 0]).sum()), w[1, 1].shape
        (0.0, (2, 4))
    """
    def init(key, shape, dtype=dtype):
        dt = _float_dtype(dtype, "delta_orthogonal")
        shape = _shape(shape)
        if len(shape) not in (3, 4, 5):
            raise ValueError("Delta orthogonal initializer requires a 3D, 4D or 5D shape.")
        if shape[-2] > shape[-1]:
            raise ValueError("`fan_in` must be less or equal than `fan_out`. ")
        ortho = orthogonal(scale, column_axis, dt)(key, shape[-2:])
        centre = tuple((k - 1) // 2 for k in shape[:-2])
        onehot = np.zeros(shape[:-2], dt)
        onehot[centre] = 1
        return fnp.multiply(onehot[..., None, None], ortho)
    return init
