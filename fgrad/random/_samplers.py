"""The samplers of `fgrad.random` built directly on random bits: uniform, normal and their
transforms, Bernoulli, integers, permutations, choice and categorical.

Every sampler is a pure function of its key (typed or legacy, see `_keys`), written with
fgrad ops, so samplers work under every transform: ``vmap`` over keys, ``grad`` through the
parameters of a distribution (``loc + scale * normal(key, shape)``), ``jit``.
"""

from __future__ import annotations

from ..typing import Array, ArrayLike, DTypeLike, Shape
from ._keys import KeyArrayLike
from collections.abc import Sequence

import math

import numpy as np
from ..core.narrow_floats import finfo as _narrow_finfo
from ..core.narrow_floats import dtype_kind

from ..core import array as _array
from ..core import native_rng as _native_rng
from ..core import sharding_flow as _sharding_flow
from ..core.trace import EVAL_TRACE as _EVAL_TRACE, state as _trace_state
from ..core.x64_mode import canonical_dtype as _canonical_dtype, requested_dtype as _requested_dtype
from ..ops import bits as _bits
from ..ops import special as _special
from ..ops import elementwise as _ew
from ..ops import shape as _shp
from ..ops import sorting as _sorting
from ..ops._util import normalize_axis as _normalize_axis
from ..ops.cumulative import cumsum as _cumsum
from ..ops.reductions import argmax_p
from ._keys import _arr, _const, _UINT, key_words as _check_key, random_bits as _random_bits
from ._keys import partitionable as _partitionable, split2 as _split2, static_shape as _shape

_get_aval, _wrap = _array.get_aval, _array.wrap
_reshape, _take_static = _shp.reshape, _sorting.take_static


def bits(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike | None = None) -> Array:
    """Uniformly random unsigned integers of ``dtype`` (uint8/16/32/64; by default the
    canonical unsigned type, as in JAX: uint64 with 64-bit types on, uint32 while they are off)."""
    dt = _canonical_dtype(np.uint64) if dtype is None else _requested_dtype(dtype, "fgrad.random.bits")
    if dtype_kind(dt) != "u":
        raise TypeError(f"fgrad.random.bits: dtype must be unsigned, got {dt}")
    return _random_bits(_check_key(key, "bits"), dt.itemsize * 8, _shape(shape))


# ---------------------------------------------------------------------------------------
# continuous distributions


def _float_dtype(dtype, name):
    dt = _requested_dtype(dtype, f"fgrad.random.{name}")
    if dtype_kind(dt) != "f":
        raise ValueError(f"fgrad.random.{name}: dtype argument must be a float dtype, got {dt}")
    return dt


def _param(v, dt, k):
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return float(v)
    return _ew.convert_element_type(_arr(v, k), dt)


def _unit_floats(k, shape, dt):
    """Floats uniform on [0, 1): random mantissa bits with the exponent of 1.0, minus 1."""
    fi = _narrow_finfo(dt)
    nbits = fi.bits
    u = _UINT[nbits]
    # JAX draws at least 8 random bits: a type with under 8 mantissa bits (bfloat16) takes
    # its mantissa from the top of a random byte, widened to the type's width
    rng_bits = 8 if fi.nmant < 8 else nbits
    b = _random_bits(k, rng_bits, shape)
    if rng_bits != nbits:
        b = _ew.convert_element_type(b, u)
    one_bits = np.array(1.0, dt).view(u)[()]  # a NumPy scalar: goes with the key's device
    fb = _ew.or_p.bind(_bits.shift_right_logical(b, rng_bits - fi.nmant), one_bits)
    return _ew.sub(_bits.bitcast_convert_type(fb, dt), 1.0)


def _fit(x, shape, name):
    s = _get_aval(x).shape
    if s == shape:
        return x
    try:
        return _shp.broadcast_to(x, shape)
    except ValueError:
        raise ValueError(
            f"fgrad.random.{name}: parameters of shape {s} do not broadcast to shape {shape}") from None


def _eager_uniform(k, shape, dt, lo, hi):
    """`uniform`'s result computed in one native loop (`native_rng.uniform_floats`: the
    cipher, the unit floats and the affine map, the same operations as the primitives below)
    when nothing would see those primitives: no transform or debug check is tracing, the key
    is a concrete host array, the bounds are Python floats, the stream is the partitionable
    one.  None otherwise (and without the kernel): the primitives run."""
    if (_trace_state.trace is not _EVAL_TRACE or type(k) is not _array.ArrayImpl
            or type(k._buf) is not np.ndarray or _sharding_flow.live or not _partitionable()
            or type(lo) is not float or type(hi) is not float):
        return None
    n = math.prod(shape)
    unit = lo == 0.0 and hi == 1.0
    out = _native_rng.uniform_floats(k._buf, n, dt, None if unit else hi - lo, lo)
    return None if out is None else _wrap(out.reshape(shape))


def uniform(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float,
            minval: ArrayLike = 0.0, maxval: ArrayLike = 1.0) -> Array:
    """Uniform on ``[minval, maxval)`` (differentiable in ``minval``/``maxval``)."""
    dt = _float_dtype(dtype, "uniform")
    shape = _shape(shape)
    k = _check_key(key, "uniform")
    lo, hi = _param(minval, dt, k), _param(maxval, dt, k)
    fast = _eager_uniform(k, shape, dt, lo, hi)
    if fast is not None:
        return fast
    f = _unit_floats(k, shape, dt)
    if type(lo) is float and type(hi) is float and lo == 0.0 and hi == 1.0:
        return f  # [0, 1) already: f * 1.0 + 0.0, floored at 0.0, is f bit for bit
    span = hi - lo if isinstance(hi, float) and isinstance(lo, float) else _ew.sub(hi, lo)
    out = _ew.add(_ew.mul(f, span), lo)
    return _fit(_ew.maximum(out, lo), shape, "uniform")


def normal(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float) -> Array:
    """Standard normal samples: ``sqrt(2) * _special.erf_inv(u)`` for ``u`` uniform on (-1, 1).
    A complex ``dtype`` gives ``(re + 1j * im) / sqrt(2)`` from two independent real normals
    (unit variance ``E|z|^2 = 1``, as JAX), drawn with the two halves of ``split(key)``."""
    if np.dtype(dtype).kind == "c":
        real_dt = np.finfo(np.dtype(dtype)).dtype
        k_re, k_im = _split2(_check_key(key, "normal"))
        re, im = normal(k_re, shape, real_dt), normal(k_im, shape, real_dt)
        z = _ew.add(_ew.convert_element_type(re, np.dtype(dtype)),
                    _ew.mul(_ew.convert_element_type(im, np.dtype(dtype)), 1j))
        return _ew.div(z, math.sqrt(2.0))
    dt = _float_dtype(dtype, "normal")
    lo = float(np.nextafter(np.array(-1.0, dt), np.array(0.0, dt)))
    u = uniform(key, shape, dt, lo, 1.0)
    return _ew.mul(math.sqrt(2.0), _special.erf_inv(u))


def truncated_normal(key: KeyArrayLike, lower: ArrayLike, upper: ArrayLike, shape: int | Shape | None = None,
                     dtype: DTypeLike = float) -> Array:
    """Standard normal conditioned on ``lower < x < upper`` (inverse-CDF sampling)."""
    dt = _float_dtype(dtype, "truncated_normal")
    k = _check_key(key, "truncated_normal")
    lo, hi = _param(lower, dt, k), _param(upper, dt, k)
    if shape is None:
        shape = tuple(np.broadcast_shapes(_get_aval(lo).shape, _get_aval(hi).shape))
    shape = _shape(shape)
    s2 = math.sqrt(2.0)
    # Python-float bounds stay Python floats (weak scalars go with the key's device)
    erf = lambda v: math.erf(v / s2) if type(v) is float else _special.erf(_ew.div(v, s2))  # noqa: E731
    sg = lambda v: v if type(v) is float else _bits.stop_gradient(v)  # noqa: E731
    u = uniform(key, shape, dt, erf(lo), erf(hi))
    out = _ew.mul(s2, _special.erf_inv(u))
    return _ew.minimum(_ew.maximum(out, sg(lo)), sg(hi))


def gumbel(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float,
           mode: str | None = None) -> Array:
    """Standard Gumbel samples, JAX's draws bit for bit.  ``mode="low"`` (the default, as
    JAX's ``use_high_dynamic_range_gumbel`` default) is ``-log(-log(u))`` of one uniform;
    ``mode="high"`` combines two uniforms below 1/2 (``-log(-log1p(-x))``), reaching ~32
    instead of ~16 in float32.  ``mode="highest"`` is ``"high"`` except in float32, where
    JAX's 64-bit fixed-point draw is not implemented (NotImplementedError).

    Example::

        >>> import fgrad.random as random
        >>> random.gumbel(random.key(0), (3,), mode="high").shape
        (3,)
    """
    if mode not in (None, "low", "high", "highest"):
        raise ValueError(f"fgrad.random.gumbel: mode must be None, 'low', 'high' or 'highest', got {mode!r}")
    dt = _float_dtype(dtype, "gumbel")
    fi = _narrow_finfo(dt)
    if mode == "highest" and np.dtype(dt) == np.float32:
        raise NotImplementedError("fgrad.random.gumbel: mode='highest' for float32 (JAX's 64-bit "
                                  "fixed-point draw) is not implemented; use mode='high'")
    if mode in ("high", "highest"):
        u = uniform(key, (2,) + _shape(shape), dt, 0.0, 1.0)
        high, low = (_shp.squeeze(_sorting.slice_axis(u, 0, i, i + 1), (0,)) for i in (0, 1))
        small = _ew.add(_ew.add(high, _ew.mul(2.0 ** -int(fi.nmant), low)), np.asarray(fi.tiny, dt))
        x = _ew.select(_ew.ge(high, 0.5), high, small)
        return _ew.neg(_ew.log(_ew.neg(_ew.log1p(_ew.neg(x)))))
    u = uniform(key, shape, dt, float(fi.tiny), 1.0)
    return _ew.neg(_ew.log(_ew.neg(_ew.log(u))))


def exponential(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float) -> Array:
    """Exponential(1) samples ``-log1p(-u)``."""
    dt = _float_dtype(dtype, "exponential")
    return _ew.neg(_ew.log1p(_ew.neg(uniform(key, shape, dt))))


def laplace(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float) -> Array:
    """Laplace(0, 1) samples."""
    dt = _float_dtype(dtype, "laplace")
    lo = float(np.nextafter(np.array(-1.0, dt), np.array(0.0, dt)))
    u = uniform(key, shape, dt, lo, 1.0)
    return _ew.mul(_ew.sign(u), _ew.log1p(_ew.neg(_ew.abs_(u))))  # JAX's draw, bit for bit


def logistic(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float) -> Array:
    """Standard logistic samples ``log(u / (1 - u))``."""
    dt = _float_dtype(dtype, "logistic")
    u = uniform(key, shape, dt, float(_narrow_finfo(dt).tiny), 1.0)
    return _ew.sub(_ew.log(u), _ew.log1p(_ew.neg(u)))


def cauchy(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float) -> Array:
    """Standard Cauchy samples ``tan(pi (u - 1/2))``."""
    dt = _float_dtype(dtype, "cauchy")
    u = uniform(key, shape, dt, float(_narrow_finfo(dt).eps), 1.0)
    return _ew.tan(_ew.mul(math.pi, _ew.sub(u, 0.5)))


# ---------------------------------------------------------------------------------------
# discrete distributions


def bernoulli(key: KeyArrayLike, p: ArrayLike = 0.5, shape: int | Shape | None = None,
              mode: str = "low") -> Array:
    """Booleans that are True with probability ``p`` (shape: ``p``'s unless given).  ``mode``
    is accepted for JAX compatibility: fgrad's float64 uniforms already resolve small ``p``.

    Example::

        >>> import fgrad.random as random
        >>> random.bernoulli(random.key(0), 0.5, (3,)).dtype
        dtype('bool')
    """
    if mode not in ("low", "high"):
        raise ValueError(f"fgrad.random.bernoulli: mode must be 'low' or 'high', got {mode!r}")
    if isinstance(p, (int, float)) and not isinstance(p, bool):
        pa, pdt = float(p), _canonical_dtype(np.float64)
    else:
        pa = _arr(p, _check_key(key, "bernoulli"))
        pdt = _get_aval(pa).dtype
        if pdt.kind != "f":
            pdt = _canonical_dtype(np.float64)
            pa = _ew.convert_element_type(pa, pdt)
    if shape is None:
        shape = _get_aval(pa).shape
    return _ew.lt(uniform(key, shape, pdt), pa)


def rademacher(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = int) -> Array:
    """Uniform on {-1, +1}."""
    b = bernoulli(key, 0.5, _shape(shape))
    return _ew.convert_element_type(_ew.sub(_ew.mul(_ew.convert_element_type(b, dtype), 2), 1), dtype)


def randint(key: KeyArrayLike, shape: int | Shape, minval: ArrayLike, maxval: ArrayLike,
            dtype: DTypeLike = int) -> Array:
    """Integers uniform on ``[minval, maxval)`` (``minval`` where ``maxval <= minval``).

    Two draws of random bits combined modulo the span keep the bias below 2**-32 for spans
    up to 2**32 (JAX's construction); 8- and 16-bit dtypes are drawn as int32 (bounds
    clipped to the dtype's range, ``maxval`` to one past it) and cast, as JAX does, so the
    values are JAX's for the same key.

    Example::

        >>> import fgrad.random as random
        >>> int(random.randint(random.key(0), (), 0, 10)) in range(10)
        True
    """
    dt = _requested_dtype(dtype, "fgrad.random.randint")
    if dtype_kind(dt) not in "iu":
        raise TypeError(f"fgrad.random.randint: dtype must be an integer dtype, got {dt}")
    default_int = _canonical_dtype(np.int64)
    for v in (minval, maxval):  # a Python int beyond the default int (JAX: OverflowError)
        if isinstance(v, int) and not isinstance(v, bool):
            lim = np.iinfo(default_int)
            if not lim.min <= v <= lim.max:
                raise OverflowError(f"fgrad.random.randint: Python int {v} is out of bounds for "
                                    f"{default_int} (enable 64-bit types or pass an array)")
    info = np.iinfo(dt)
    if info.bits < 32:  # JAX: sampled at 32 bits, then cast
        i32 = np.dtype(np.int32)

        def bound(v, top):
            a = _ew.convert_element_type(_arr(v, _check_key(key, "randint")), i32)
            return _ew.minimum(_ew.maximum(a, i32.type(info.min)), i32.type(top))

        out = randint(key, shape, bound(minval, info.max), bound(maxval, int(info.max) + 1), i32)
        return _ew.convert_element_type(out, dt)
    shape = _shape(shape)
    k = _check_key(key, "randint")
    nbits = info.bits
    udt = _UINT[nbits]

    def as_int(v):
        if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
            clipped = min(max(int(v), int(info.min)), int(info.max))
            return _const(np.asarray(clipped, dt), k), int(v) > int(info.max)
        a = _arr(v, k)
        return _ew.convert_element_type(a, dt), False

    lo, _ = as_int(minval)
    hi, hi_out_of_range = as_int(maxval)
    lo, hi = _fit(lo, shape, "randint"), _fit(hi, shape, "randint")
    k1, k2 = _split2(k)
    higher = _random_bits(k1, nbits, shape)
    lower = _random_bits(k2, nbits, shape)
    span = _ew.convert_element_type(_ew.sub(hi, lo), udt)
    span = _ew.select(_ew.le_p.bind(hi, lo), udt.type(1), span)
    if hi_out_of_range:  # maxval beyond the dtype: one more value (info.max) is allowed
        span = _ew.select(_ew.gt(hi, lo), _ew.add(span, udt.type(1)), span)
    # the full 2**nbits range wraps the span to 0, and XLA's unsigned x % 0 is x: every
    # remainder below is then the identity (JAX's semantics)
    wrapped = _ew.eq(span, 0)
    safe = _ew.select(wrapped, udt.type(1), span)

    def rem(x):
        return _ew.select(wrapped, x, _ew.rem_p.bind(x, safe))

    mult = rem(_ew.add(_ew.mul(span, udt.type(0)), udt.type(2 ** (nbits // 2))))
    mult = rem(_ew.mul(mult, mult))
    offset = rem(_ew.add(_ew.mul(rem(higher), mult), rem(lower)))
    return _ew.add(lo, _ew.convert_element_type(offset, dt))


def _shuffle(k, x, axis):
    """Shuffle ``x`` along ``axis`` by sorting on random 32-bit keys, enough rounds that key
    collisions are negligible."""
    size = _get_aval(x).size
    rounds = int(math.ceil(3 * math.log(max(1, size)) / math.log(2 ** 32 - 1)))
    for _ in range(rounds):
        k, sub = _split2(k)
        sort_keys = _random_bits(sub, 32, _get_aval(x).shape)
        _, x = _sorting.sort_key_val(sort_keys, x, axis)
    return x


def _take(a, ind, axis):
    """``numpy.take(a, ind, axis)`` with an integer index array of any shape."""
    shp = _get_aval(a).shape
    ishape = _get_aval(ind).shape
    m = int(np.prod(ishape, dtype=np.int64))
    flat_idx = _reshape(ind, (1,) * axis + (m,) + (1,) * (len(shp) - axis - 1))
    g = _sorting.take_along_axis(a, flat_idx, axis)
    return _reshape(g, shp[:axis] + tuple(ishape) + shp[axis + 1:])


def permutation(key: KeyArrayLike, x: ArrayLike, axis: int = 0, independent: bool = False) -> Array:
    """A random permutation of ``range(x)`` (integer ``x``), or of ``x`` along ``axis``
    (each slice independently with ``independent=True``).  Differentiable in ``x``."""
    k = _check_key(key, "permutation")
    if isinstance(x, (int, np.integer)) and not isinstance(x, bool):
        return _shuffle(k, _const(np.arange(int(x), dtype=np.int64), k), 0)
    x = _arr(x, k)
    av = _get_aval(x)
    if av.ndim == 0:
        raise TypeError("fgrad.random.permutation: x must be an integer or an array of rank >= 1")
    axis = _normalize_axis(axis, av.ndim, "fgrad.random.permutation")
    if independent or av.ndim == 1:
        return _shuffle(k, x, axis)
    ind = _shuffle(k, _const(np.arange(av.shape[axis], dtype=np.int64), k), 0)
    return _take(x, ind, axis)


def choice(key: KeyArrayLike, a: ArrayLike, shape: int | Shape = (), replace: bool = True,
           p: ArrayLike | None = None, axis: int = 0) -> Array:
    """Random samples from ``a`` (an int ``n``: ``range(n)``; an array: its slices along
    ``axis``), uniformly or with probabilities ``p``, with or without replacement."""
    k = _check_key(key, "choice")
    shape = _shape(shape)
    if isinstance(a, (int, np.integer)) and not isinstance(a, bool):
        n, arr = int(a), None
    else:
        arr = _arr(a, k)
        if _get_aval(arr).ndim == 0:
            raise ValueError("fgrad.random.choice: a must be an integer or an array of rank >= 1")
        axis = axis % _get_aval(arr).ndim
        n = _get_aval(arr).shape[axis]
    n_draws = int(np.prod(shape, dtype=np.int64))
    if n_draws and n == 0:
        raise ValueError("fgrad.random.choice: a cannot be empty unless no samples are taken")
    if not replace and n_draws > n:
        raise ValueError(f"fgrad.random.choice: cannot take {n_draws} samples from {n} without replacement")
    if p is None:
        if replace:
            ind = randint(k, shape, 0, n)
        else:
            ind = _reshape(_take_static(permutation(k, n), np.arange(n_draws), 0), shape)
    else:
        pa = _arr(p, k)
        if _get_aval(pa).shape != (n,):
            raise ValueError(f"fgrad.random.choice: p must have shape ({n},), got {_get_aval(pa).shape}")
        pdt = _get_aval(pa).dtype if dtype_kind(_get_aval(pa).dtype) == "f" else _canonical_dtype(np.float64)
        pa = _ew.convert_element_type(pa, pdt)
        if replace:
            cum = _cumsum(pa, 0)
            total = _reshape(_take_static(cum, [n - 1], 0), ())
            r = _ew.mul(total, _ew.sub(1.0, uniform(k, shape, pdt)))
            ind = _sorting.searchsorted(_bits.stop_gradient(cum), r)
        else:
            g = _ew.add(gumbel(k, (n,), pdt), _ew.log(pa))
            top = _sorting.top_k(g, n_draws)[1]
            ind = _reshape(_ew.convert_element_type(top, _canonical_dtype(np.int64)), shape)
    if arr is None:
        return ind
    return _take(arr, ind, axis)


def categorical(key: KeyArrayLike, logits: ArrayLike | Sequence[ArrayLike], axis: int = -1,
                shape: int | Shape | None = None,
                replace: bool = True, mode: str | None = None) -> Array:
    """Samples of class indices from unnormalized log-probabilities ``logits`` along
    ``axis`` (Gumbel-max); ``shape`` must end with the batch shape of ``logits`` (its leading
    dimensions are independent draws).  With ``replace=False`` the leading draws of each batch
    entry are distinct classes (Gumbel top-k), at most as many as there are classes.

    Example::

        >>> import fgrad.random as random
        >>> random.categorical(random.key(0), [0.0, 1.0, 2.0], shape=(5,)).shape
        (5,)
        >>> sorted(random.categorical(random.key(0), [0.0, 1.0, 2.0], shape=(3,), replace=False).tolist())
        [0, 1, 2]
    """
    if mode not in (None, "low", "high", "highest"):
        raise ValueError(f"fgrad.random.categorical: mode must be None, 'low', 'high' or 'highest', "
                         f"got {mode!r}")
    k = _check_key(key, "categorical")
    lg = _arr(logits, k)
    av = _get_aval(lg)
    axis = _normalize_axis(axis, av.ndim, "fgrad.random.categorical")
    batch = av.shape[:axis] + av.shape[axis + 1:]
    shape = batch if shape is None else _shape(shape)
    if shape[len(shape) - len(batch):] != batch:
        raise ValueError(f"fgrad.random.categorical: shape {shape} must end with the batch shape {batch}")
    prefix = shape[: len(shape) - len(batch)]
    dt = av.dtype if dtype_kind(av.dtype) == "f" else _canonical_dtype(np.float64)
    if replace:
        full = prefix + av.shape
        g = _ew.add(gumbel(k, full, dt, mode), lg)
        return argmax_p.bind(g, axis=len(prefix) + axis, index_dtype=_canonical_dtype(np.int64))
    n_draws = int(np.prod(prefix, dtype=np.int64))
    n_classes = av.shape[axis]
    if n_draws > n_classes:
        raise ValueError(f"Number of samples without replacement ({n_draws}) cannot exceed number of "
                         f"categories ({n_classes}).")
    moved = _move_last(lg, axis)
    g = _ew.add(gumbel(k, batch + (n_classes,), dt, mode), moved)
    idx = _sorting.top_k(g, n_draws)[1]                       # batch + (n_draws,)
    idx = _move_first(idx)                                    # (n_draws,) + batch
    return _reshape(_ew.convert_element_type(idx, _canonical_dtype(np.int64)), prefix + batch)


def _move_last(x, axis):
    nd = _get_aval(x).ndim
    perm = tuple(a for a in range(nd) if a != axis) + (axis,)
    return _shp.transpose(x, perm)


def _move_first(x):
    nd = _get_aval(x).ndim
    return _shp.transpose(x, (nd - 1,) + tuple(range(nd - 1)))
