"""The gamma family of `fgrad.random`: gamma, loggamma, beta, dirichlet, chi-square, F,
Student's t and the generalized normal.

Gamma samples are JAX's, bit for bit (float64): one key per element (``split(key, size)``)
and, per element under ``vmap``, Marsaglia & Tsang's (2000) rejection method with JAX's
sequence of keys (`_gamma_one`); shape ``a < 1`` is boosted by
``Gamma(a) = Gamma(a + 1) * U**(1/a)``, in log space for `loggamma` so tiny shapes do not
underflow.  Their derivative in ``a`` is the *implicit reparameterization* gradient
(Figurnov et al., 2018): holding the sample's CDF value fixed,
``dx/da = -(dF/da)(a, x) / p(x; a)``.  With the series
``F(a, x) = x**a e**-x S / Gamma(a + 1)``, ``S = sum_n x**n / ((a+1)...(a+n))``, that is
``d log x / da = -(S (log x - psi(a + 1)) + dS/da) / a``, summed (with ``dS/da``) until the
terms are negligible.  The coefficient is built from differentiable `fgrad.numpy` ops and a
``while_loop`` (whose forward mode carries tangents through the series), so higher
derivatives in ``a`` are the derivatives of that coefficient: ``hessian`` and
``jacfwd(jacrev(...))`` work, as in JAX, and reverse-over-reverse raises JAX's
``ValueError`` (the series' trip count is only known at run time).  The other
distributions are transforms of gamma samples, so their gradients follow by the chain rule.
"""

from __future__ import annotations

from ..typing import Array, ArrayLike, DTypeLike, Shape
from ._keys import KeyArrayLike
from collections.abc import Sequence


import numpy as np
from ..core.narrow_floats import finfo as _narrow_finfo
from ..core.narrow_floats import dtype_kind

from .. import lax
from .. import numpy as fnp
from ..core.array import ArrayImpl, Tracer
from ..core.array import get_aval as _get_aval
from ..core.constants import constant_like
from ..transforms.custom import custom_jvp
from ._keys import key_words, split, static_shape
from ..transforms.batching import vmap
from ._samplers import _float_dtype, exponential, normal, rademacher, uniform
from .._gamma_series import dlogx_da as _dlogx_da


def _param_array(v, dt, name: str, like):
    """A distribution parameter as an Array of ``dt``: host values (Python numbers, NumPy
    arrays) are placed like ``like`` (the raw key), so a key on a device draws there."""
    a = v if isinstance(v, (ArrayImpl, Tracer)) else constant_like(np.asarray(v), like)
    if dtype_kind(a.dtype) not in "fiub":
        raise TypeError(f"fgrad.random.{name}: parameters must be real numbers, got {a.dtype}")
    return fnp.astype(a, dt)


def _shape_or_broadcast(shape, *params) -> tuple:
    if shape is None:
        return tuple(np.broadcast_shapes(*(_get_aval(p).shape for p in params)))
    shape = static_shape(shape)
    for p in params:
        try:
            if np.broadcast_shapes(_get_aval(p).shape, shape) != shape:
                raise ValueError
        except ValueError:
            raise ValueError(f"fgrad.random: parameters of shape {_get_aval(p).shape} do not broadcast to "
                             f"shape {shape}") from None
    return shape


def _gamma_one(key, alpha, log_space: bool):
    """One Gamma(alpha, 1) sample (its log when ``log_space``) from the raw key ``key``: JAX's
    draw, bit for bit.  Marsaglia & Tsang's (2000) rejection method with JAX's sequence of
    keys: each try splits its key in three (next try, the normal ``x`` -- itself redrawn while
    ``v = 1 + c x <= 0`` -- and the uniform ``U``); ``alpha < 1`` is boosted to ``alpha + 1``
    and the sample multiplied by ``U'**(1/alpha)`` (in log space ``-E / alpha`` with ``E``
    exponential).  Edge values follow from the arithmetic, as in JAX: ``alpha = 0`` gives 0
    (log ``-inf``), ``inf`` gives ``inf``, negative or NaN gives NaN."""
    dt = alpha.dtype
    zero, one = fnp.zeros_like(alpha), fnp.ones_like(alpha)  # on the operand's device
    boost_mask = alpha >= 1
    alpha_orig = alpha
    alpha = fnp.where(boost_mask, alpha, alpha + one)
    d = alpha - one / 3
    c = (one / 3) / fnp.sqrt(d)

    def reject(state):
        _, x2, v3, u = state
        return fnp.logical_and(u >= one - 0.0331 * (x2 * x2),
                               fnp.log(u) >= x2 * 0.5 + d * ((one - v3) + fnp.log(v3)))

    def next_normal(state):
        k, _, _ = state
        k, sub = split(k)
        x = normal(sub, (), dt)
        return k, x, one + x * c

    def attempt(state):
        k = state[0]
        k, x_key, u_key = split(k, 3)
        _, x, v = lax.while_loop(lambda s: s[2] <= zero, next_normal, (x_key, zero, -one))
        return k, x * x, (v * v) * v, uniform(u_key, (), dt)

    key, sub = split(key)
    _, _, v3, _ = lax.while_loop(reject, attempt, (key, zero, one, one + one))
    if log_space:
        log_u = -exponential(sub, (), dt)
        log_boost = fnp.where(boost_mask | (log_u == 0), zero, log_u * (one / alpha_orig))
        return (fnp.log(d) + fnp.log(v3)) + log_boost
    u = 1 - uniform(sub, (), dt)
    return (d * v3) * fnp.where(boost_mask, one, u ** (one / alpha_orig))


def _gamma_draw(key, a, log_space: bool):
    """Samples of ``a``'s shape: one key per element (``split(key, a.size)``, as JAX's
    ``random_gamma`` primitive), each element drawn by `_gamma_one` under ``vmap``."""
    keys = split(key, max(a.size, 1))
    draw = vmap(lambda k, al: _gamma_one(k, al, log_space))
    return fnp.reshape(draw(keys, fnp.reshape(a, (-1,)))[:a.size], a.shape)


def _gamma_draw_per_key(keys, a, log_space: bool):
    """Samples of ``a``'s shape, element ``i`` drawn from its own raw key ``keys[i]``
    (``keys``: uint32 of shape ``a.shape + (2,)``), as JAX's ``random_gamma`` primitive."""
    if a.size == 0:
        return fnp.zeros_like(a)
    draw = vmap(lambda k, al: _gamma_one(k, al, log_space))
    return fnp.reshape(draw(fnp.reshape(keys, (-1, 2)), fnp.reshape(a, (-1,))), a.shape)


def _implicit_gamma_sampler(log_space: bool, draw=_gamma_draw):
    """``sample(key, a)``: Gamma(a) draws (their logs when ``log_space``) whose derivative in
    ``a`` is the implicit one, ``d log x / da`` from `_dlogx_da` (times ``x`` for the samples
    themselves; an underflowed sample takes its derivative at the smallest normal).  ``draw``
    takes one key (`_gamma_draw`) or one key per element (`_gamma_draw_per_key`)."""

    @custom_jvp
    def sample(key, a):
        return draw(key, a, log_space=log_space)

    def sample_jvp(primals, tangents):
        key, a = primals
        out = sample(key, a)
        if log_space:
            return out, _dlogx_da(a, out) * tangents[1]
        log_x = fnp.log(fnp.where(out == 0, float(_narrow_finfo(out.dtype).tiny), out))
        return out, out * _dlogx_da(a, log_x) * tangents[1]

    sample.defjvp(sample_jvp)
    return sample


_log_gamma_sample = _implicit_gamma_sampler(log_space=True)
_gamma_sample = _implicit_gamma_sampler(log_space=False)
_PER_KEY = {False: _implicit_gamma_sampler(False, _gamma_draw_per_key),
            True: _implicit_gamma_sampler(True, _gamma_draw_per_key)}


def _random_gamma_bind(keys, a, *, log_space: bool = False):
    """JAX's ``random_gamma_p.bind(keys, a, log_space=...)``: ``keys`` (typed keys, or their
    uint32 data) has the leading shape of ``a``; each key is split into one key per element of
    the trailing dimensions (JAX's ``_gamma_impl``), and each element drawn from its key."""
    from ._keys import PRNGKeyArray, key_data

    raw = key_data(keys) if isinstance(keys, PRNGKeyArray) else fnp.asarray(keys)
    a = fnp.asarray(a)
    k = raw.ndim - 1
    if raw.dtype != np.uint32 or raw.shape[-1:] != (2,) or tuple(raw.shape[:-1]) != a.shape[:k]:
        raise TypeError(f"random_gamma_p.bind: keys of a leading shape of a's {a.shape} (typed keys, or "
                        f"uint32 data with a trailing 2), got {raw.dtype}{list(raw.shape)}")
    if dtype_kind(a.dtype) != "f":
        raise TypeError(f"random_gamma_p.bind: a must be a floating array, got {a.dtype}")
    count = int(np.prod(a.shape[k:], dtype=np.int64))
    per_element = vmap(lambda key: split(key, count))(fnp.reshape(raw, (-1, 2)))
    return _PER_KEY[bool(log_space)](fnp.reshape(per_element, a.shape + (2,)), a)


def _random_gamma_p():
    from .._lax_primitives import JaxPrimitive

    return JaxPrimitive("random_gamma", _random_gamma_bind)


random_gamma_p = _random_gamma_p()


def loggamma(key: KeyArrayLike, a: ArrayLike, shape: int | Shape | None = None,
             dtype: DTypeLike = float) -> Array:
    """``log`` of Gamma(a, 1) samples, accurate even where the samples underflow (tiny ``a``);
    differentiable in ``a`` (implicit reparameterization).

    Example::

        >>> import fgrad.random as random
        >>> float(random.loggamma(random.key(0), 1e-3)) < -100
        True
    """
    dt = _float_dtype(dtype, "loggamma")
    raw = key_words(key, "loggamma")
    a = _param_array(a, dt, "loggamma", raw)
    shape = _shape_or_broadcast(shape, a)
    return _log_gamma_sample(raw, fnp.broadcast_to(a, shape))


def gamma(key: KeyArrayLike, a: ArrayLike, shape: int | Shape | None = None,
          dtype: DTypeLike = float) -> Array:
    """Gamma(a, 1) samples (mean and variance ``a``); differentiable in ``a`` with the
    implicit reparameterization gradient ``dx/da = -(dF/da) / p(x; a)``.

    Example::

        >>> import fgrad, fgrad.random as random
        >>> x = random.gamma(random.key(0), 3.0, (20000,))
        >>> round(float(x.mean()), 1)
        3.0
        >>> g = fgrad.grad(lambda a: random.gamma(random.key(0), a, (20000,)).mean())(3.0)
        >>> round(float(g), 1)  # d E[x] / da = 1
        1.0
    """
    dt = _float_dtype(dtype, "gamma")
    raw = key_words(key, "gamma")
    a = _param_array(a, dt, "gamma", raw)
    shape = _shape_or_broadcast(shape, a)
    return _gamma_sample(raw, fnp.broadcast_to(a, shape))


def _log_normalize(log_values, axis):
    """``exp(log_values)`` normalized to sum 1 along ``axis`` (a softmax, written here so
    fgrad.random does not import fgrad.nn)."""
    top = lax.stop_gradient(fnp.max(log_values, axis=axis, keepdims=True))
    e = fnp.exp(log_values - top)
    return e / fnp.sum(e, axis=axis, keepdims=True)


def beta(key: KeyArrayLike, a: ArrayLike, b: ArrayLike, shape: int | Shape | None = None,
         dtype: DTypeLike = float) -> Array:
    """Beta(a, b) samples ``X / (X + Y)`` for ``X ~ Gamma(a)``, ``Y ~ Gamma(b)`` (formed in
    log space); differentiable in ``a`` and ``b``.

    Example::

        >>> import fgrad.random as random
        >>> x = random.beta(random.key(0), 2.0, 6.0, (20000,))
        >>> round(float(x.mean()), 2)
        0.25
    """
    dt = _float_dtype(dtype, "beta")
    raw = key_words(key, "beta")
    a, b = _param_array(a, dt, "beta", raw), _param_array(b, dt, "beta", raw)
    shape = _shape_or_broadcast(shape, a, b)
    ka, kb = split(key)
    log_x = loggamma(ka, fnp.broadcast_to(a, shape), shape, dt)
    log_y = loggamma(kb, fnp.broadcast_to(b, shape), shape, dt)
    both = fnp.stack([log_x, log_y], axis=-1)
    return _log_normalize(both, -1)[..., 0]


def dirichlet(key: KeyArrayLike, alpha: ArrayLike | Sequence[ArrayLike], shape: int | Shape | None = None,
              dtype: DTypeLike = float) -> Array:
    """Dirichlet(alpha) samples: normalized Gamma(alpha_i) draws along the last axis of
    ``alpha``; ``shape`` is the batch shape (default ``alpha.shape[:-1]``).  Differentiable in
    ``alpha``.

    Example::

        >>> import fgrad.random as random
        >>> x = random.dirichlet(random.key(0), [1.0, 2.0, 3.0], (4,))
        >>> x.shape, bool(abs(x.sum(-1) - 1).max() < 1e-12)
        ((4, 3), True)
    """
    dt = _float_dtype(dtype, "dirichlet")
    alpha = _param_array(alpha, dt, "dirichlet", key_words(key, "dirichlet"))
    if alpha.ndim < 1:
        raise ValueError(f"fgrad.random.dirichlet: alpha must have at least one dimension, got shape "
                         f"{alpha.shape}")
    batch = alpha.shape[:-1] if shape is None else _shape_or_broadcast(shape, alpha[..., 0])
    full = tuple(batch) + alpha.shape[-1:]
    log_g = loggamma(key, fnp.broadcast_to(alpha, full), full, dt)
    return _log_normalize(log_g, -1)


def chisquare(key: KeyArrayLike, df: ArrayLike, shape: int | Shape | None = None,
              dtype: DTypeLike = float) -> Array:
    """Chi-square(df) samples ``2 Gamma(df / 2)``; differentiable in ``df``.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.chisquare(random.key(0), 4.0, (20000,)).mean()), 1)
        4.0
    """
    dt = _float_dtype(dtype, "chisquare")
    df = _param_array(df, dt, "chisquare", key_words(key, "chisquare"))
    return 2.0 * gamma(key, df / 2.0, shape, dt)


def f(key: KeyArrayLike, dfnum: ArrayLike, dfden: ArrayLike, shape: int | Shape | None = None,
      dtype: DTypeLike = float) -> Array:
    """F(dfnum, dfden) samples ``(X / dfnum) / (Y / dfden)`` for chi-square ``X``, ``Y``.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.f(random.key(0), 5.0, 20.0, (40000,)).mean()), 1)  # 20 / 18
        1.1
    """
    dt = _float_dtype(dtype, "f")
    raw = key_words(key, "f")
    dfnum, dfden = _param_array(dfnum, dt, "f", raw), _param_array(dfden, dt, "f", raw)
    shape = _shape_or_broadcast(shape, dfnum, dfden)
    k_den, k_num = split(key)  # JAX's order: the second key draws the numerator
    num = chisquare(k_num, fnp.broadcast_to(dfnum, shape), shape, dt) / dfnum
    den = chisquare(k_den, fnp.broadcast_to(dfden, shape), shape, dt) / dfden
    return num / den


def t(key: KeyArrayLike, df: ArrayLike, shape: int | Shape | None = None,
      dtype: DTypeLike = float) -> Array:
    """Student's t(df) samples ``Z sqrt(df / X)``, ``Z`` normal and ``X`` chi-square(df);
    differentiable in ``df``.

    Example::

        >>> import fgrad.random as random
        >>> x = random.t(random.key(0), 5.0, (40000,))
        >>> round(float(x.var()), 1)  # df / (df - 2)
        1.7
    """
    dt = _float_dtype(dtype, "t")
    df = _param_array(df, dt, "t", key_words(key, "t"))
    shape = _shape_or_broadcast(shape, df)
    k1, k2 = split(key)
    z = normal(k1, shape, dt)
    half_df = fnp.broadcast_to(df / 2.0, shape)
    g = gamma(k2, half_df, shape, dt)
    return z * fnp.sqrt(half_df / g)


def generalized_normal(key: KeyArrayLike, p: ArrayLike, shape: int | Shape = (),
                       dtype: DTypeLike = float) -> Array:
    """Samples with density proportional to ``exp(-|x|**p)``: ``S G**(1/p)``, ``S`` a random
    sign and ``G ~ Gamma(1/p)``.

    Example::

        >>> import fgrad.random as random
        >>> x = random.generalized_normal(random.key(0), 2.0, (40000,))
        >>> round(float(x.var()), 2)  # p = 2: a normal with variance 1/2
        0.5
    """
    dt = _float_dtype(dtype, "generalized_normal")
    shape = static_shape(shape)
    k1, k2 = split(key)
    p = _param_array(p, dt, "generalized_normal", key_words(key, "generalized_normal"))
    g = gamma(k1, fnp.broadcast_to(1.0 / p, shape), shape, dt)
    r = rademacher(k2, shape, dt)
    return r * g ** (1.0 / p)


__all__ = ["gamma", "loggamma", "beta", "dirichlet", "chisquare", "f", "t", "generalized_normal"]
