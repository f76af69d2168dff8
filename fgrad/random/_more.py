"""More distributions of `fgrad.random`: transforms of uniform and normal samples (Pareto,
Weibull, Rayleigh, log-normal, Wald, geometric, triangular, Maxwell), multivariate
normal, Haar-random orthogonal matrices, points in the unit ``p``-ball, and the discrete
Poisson and binomial samplers.

Poisson: Knuth's multiplication method for ``lam < 10``, Hoermann's (1993) transformed
rejection with squeeze (PTRS) above.  Binomial: inversion (sequential search) for
``n min(p, 1-p) < 10``, Hoermann's BTRS above.  Both run as vectorized ``while_loop``s until
every element is accepted, so they work under ``vmap`` and ``jit``; being integer-valued,
they have zero gradient.
"""

from __future__ import annotations

from ..typing import Array, ArrayLike, DTypeLike, Shape
from ._keys import KeyArrayLike
from collections.abc import Sequence


import numpy as np
from ..core.narrow_floats import finfo as _narrow_finfo
from ..core.narrow_floats import dtype_kind
from ..core.x64_mode import canonical_dtype as _canonical_dtype

from .. import lax
from .. import numpy as fnp
from ..numpy import linalg as _linalg
from ._gamma import _param_array, _shape_or_broadcast, generalized_normal
from ._keys import key_words, split, static_shape
from ._samplers import _float_dtype, exponential, normal, rademacher, uniform


def pareto(key: KeyArrayLike, b: ArrayLike, shape: int | Shape | None = None,
           dtype: DTypeLike = float) -> Array:
    """Pareto(b) samples on ``[1, inf)``: ``exp(E / b)``, ``E`` exponential.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.pareto(random.key(0), 4.0, (40000,)).mean()), 1)  # b / (b - 1)
        1.3
    """
    dt = _float_dtype(dtype, "pareto")
    b = _param_array(b, dt, "pareto", key_words(key, "pareto"))
    shape = _shape_or_broadcast(shape, b)
    return fnp.exp(exponential(key, shape, dt) / b)


def weibull_min(key: KeyArrayLike, scale: ArrayLike, concentration: ArrayLike, shape: int | Shape = (),
                dtype: DTypeLike = float) -> Array:
    """Weibull samples ``scale * E**(1 / concentration)``, ``E`` exponential.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.weibull_min(random.key(0), 2.0, 1.0, (40000,)).mean()), 1)
        2.0
    """
    dt = _float_dtype(dtype, "weibull_min")
    scale = _param_array(scale, dt, "weibull_min", key_words(key, "weibull_min"))
    concentration = _param_array(concentration, dt, "weibull_min", key_words(key, "weibull_min"))
    shape = static_shape(shape)
    e = -fnp.log1p(-uniform(key, shape, dt))
    return scale * e ** (1.0 / concentration)


def rayleigh(key: KeyArrayLike, scale: ArrayLike, shape: int | Shape | None = None,
             dtype: DTypeLike = float) -> Array:
    """Rayleigh(scale) samples ``scale * sqrt(-2 log U)``.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.rayleigh(random.key(0), 1.0, (40000,)).mean()), 1)  # sqrt(pi / 2)
        1.3
    """
    dt = _float_dtype(dtype, "rayleigh")
    scale = _param_array(scale, dt, "rayleigh", key_words(key, "rayleigh"))
    shape = _shape_or_broadcast(shape, scale)
    u = uniform(key, shape, dt, float(_narrow_finfo(dt).tiny), 1.0)
    return scale * fnp.sqrt(-2.0 * fnp.log(u))


def lognormal(key: KeyArrayLike, sigma: ArrayLike = 1.0, shape: int | Shape | None = None,
              dtype: DTypeLike = float) -> Array:
    """Log-normal samples ``exp(sigma * Z)``.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.lognormal(random.key(0), 0.5, (40000,)).mean()), 2)  # exp(1/8)
        1.13
    """
    dt = _float_dtype(dtype, "lognormal")
    sigma = _param_array(sigma, dt, "lognormal", key_words(key, "lognormal"))
    shape = _shape_or_broadcast(shape, sigma)
    return fnp.exp(sigma * normal(key, shape, dt))


def wald(key: KeyArrayLike, mean: ArrayLike, shape: int | Shape | None = None,
         dtype: DTypeLike = float) -> Array:
    """Wald (inverse Gaussian, shape 1) samples by Michael, Schucany & Haas (1976).

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.wald(random.key(0), 1.0, (40000,)).mean()), 1)
        1.0
    """
    dt = _float_dtype(dtype, "wald")
    mean = _param_array(mean, dt, "wald", key_words(key, "wald"))
    shape = _shape_or_broadcast(shape, mean)
    k1, k2 = split(key)
    y = normal(k1, shape, dt) ** 2
    z = uniform(k2, shape, dt)
    x = mean + mean * mean * y / 2 - mean / 2 * fnp.sqrt(4 * mean * y + mean * mean * y * y)
    return fnp.where(z <= mean / (mean + x), x, mean * mean / x)


def geometric(key: KeyArrayLike, p: ArrayLike, shape: int | Shape | None = None,
              dtype: DTypeLike = int) -> Array:
    """The number of Bernoulli(p) trials up to and including the first success (``>= 1``).

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.geometric(random.key(0), 0.25, (40000,)).mean()), 1)
        4.0
    """
    pd = getattr(p, "dtype", None)  # JAX draws u in p's inexact dtype (float32 p: float32 u)
    dt = pd if pd is not None and dtype_kind(pd) == "f" else float
    p = _param_array(p, dt, "geometric", key_words(key, "geometric"))
    shape = _shape_or_broadcast(shape, p)
    u = uniform(key, shape, dt)
    u = fnp.where(u == 0, 1.0, u)  # JAX's: log(u) with u = 0 mapped to 1 (its samples per key)
    return fnp.astype(fnp.floor(fnp.log(u) / fnp.log1p(-p)) + 1, dtype)


def triangular(key: KeyArrayLike, left: ArrayLike, mode: ArrayLike, right: ArrayLike,
               shape: int | Shape | None = None, dtype: DTypeLike = float) -> Array:
    """Triangular(left, mode, right) samples by the inverse CDF.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.triangular(random.key(0), 0.0, 1.0, 5.0, (40000,)).mean()), 1)
        2.0
    """
    dt = _float_dtype(dtype, "triangular")
    raw = key_words(key, "triangular")
    left, mode, right = (_param_array(v, dt, "triangular", raw) for v in (left, mode, right))
    shape = _shape_or_broadcast(shape, left, mode, right)
    u = uniform(key, shape, dt)
    fc = (mode - left) / (right - left)
    low = left + fnp.sqrt(u * (right - left) * (mode - left))
    high = right - fnp.sqrt((1 - u) * (right - left) * (right - mode))
    return fnp.where(u < fc, low, high)


def maxwell(key: KeyArrayLike, shape: int | Shape = (), dtype: DTypeLike = float) -> Array:
    """Maxwell samples: the length of a standard normal 3-vector.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.maxwell(random.key(0), (40000,)).mean()), 2)  # 2 sqrt(2 / pi)
        1.6
    """
    dt = _float_dtype(dtype, "maxwell")
    shape = static_shape(shape)
    return _linalg.norm(normal(key, shape + (3,), dt), axis=-1)


def double_sided_maxwell(key: KeyArrayLike, loc: ArrayLike, scale: ArrayLike, shape: int | Shape = (),
                         dtype: DTypeLike = float) -> Array:
    """``loc + scale * S * M`` for a random sign ``S`` and a Maxwell sample ``M``.

    Example::

        >>> import fgrad.random as random
        >>> round(float(random.double_sided_maxwell(random.key(0), 0.0, 1.0, (40000,)).var()), 1)
        3.0
    """
    dt = _float_dtype(dtype, "double_sided_maxwell")
    loc = _param_array(loc, dt, "double_sided_maxwell", key_words(key, "double_sided_maxwell"))
    scale = _param_array(scale, dt, "double_sided_maxwell", key_words(key, "double_sided_maxwell"))
    shape = static_shape(shape)
    k1, k2 = split(key)
    return loc + scale * rademacher(k2, shape, dt) * maxwell(k1, shape, dt)


def multivariate_normal(key: KeyArrayLike, mean: ArrayLike, cov: ArrayLike, shape: int | Shape | None = None,
                        dtype: DTypeLike = float, method: str = "cholesky") -> Array:
    """Samples of N(mean, cov): ``mean + A z`` with ``A A^T = cov`` from ``method``
    (``"cholesky"``, ``"eigh"`` or ``"svd"``: the latter two accept semi-definite ``cov``).
    ``mean`` is ``[..., n]``, ``cov`` ``[..., n, n]``; ``shape`` is the batch shape (default:
    the broadcast of their batch shapes).  Differentiable in ``mean`` and ``cov``.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random as random
        >>> x = random.multivariate_normal(random.key(0), fnp.zeros(2), fnp.asarray([[1.0, 0.8], [0.8, 1.0]]),
        ...                                (40000,))
        >>> round(float((x[:, 0] * x[:, 1]).mean()), 1)
        0.8
    """
    if method not in ("cholesky", "eigh", "svd"):
        raise ValueError("fgrad.random.multivariate_normal: method must be one of 'cholesky', 'eigh', "
                         f"'svd', got {method!r}")
    dt = _float_dtype(dtype, "multivariate_normal")
    raw = key_words(key, "multivariate_normal")
    mean = _param_array(mean, dt, "multivariate_normal", raw)
    cov = _param_array(cov, dt, "multivariate_normal", raw)
    if mean.ndim < 1 or cov.ndim < 2 or cov.shape[-2:] != (mean.shape[-1],) * 2:
        raise ValueError("multivariate_normal requires mean.shape[-1] == cov.shape[-1] == cov.shape[-2]; "
                         f"got mean.shape {mean.shape} and cov.shape {cov.shape}")
    n = mean.shape[-1]
    batch = np.broadcast_shapes(mean.shape[:-1], cov.shape[:-2])
    shape = tuple(batch) if shape is None else static_shape(shape)
    if np.broadcast_shapes(shape, batch) != shape:
        raise ValueError(f"fgrad.random.multivariate_normal: shape {shape} must be broadcast-compatible with "
                         f"the batch shape {tuple(batch)} of mean and cov")
    if method == "cholesky":
        factor = _linalg.cholesky(cov)
    elif method == "eigh":
        w, v = _linalg.eigh(cov)
        factor = v * fnp.sqrt(fnp.maximum(w, 0.0))[..., None, :]
    else:
        u, s, _ = _linalg.svd(cov)
        factor = u * fnp.sqrt(s)[..., None, :]
    z = normal(key, shape + (n,), dt)
    return mean + fnp.einsum("...ij,...j->...i", factor, z)


def orthogonal(key: KeyArrayLike, n: int, shape: int | Shape = (), dtype: DTypeLike = float,
               m: int | None = None) -> Array:
    """Haar-random ``n x m`` matrices with orthonormal columns (``m <= n``) or rows
    (``m > n``), default ``m = n``: the sign-corrected Q of the QR decomposition of a normal
    matrix.  Result shape ``(*shape, n, m)``.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random as random
        >>> q = random.orthogonal(random.key(0), 3)
        >>> bool(fnp.allclose(q @ q.T, fnp.eye(3)))
        True
    """
    dt = _float_dtype(dtype, "orthogonal")
    shape = static_shape(shape)
    m = n if m is None else int(m)
    tall = (max(n, m), min(n, m))
    z = normal(key, shape + tall, dt)
    q, r = _linalg.qr(z)
    q = q * fnp.sign(fnp.diagonal(r, axis1=-2, axis2=-1))[..., None, :]
    return fnp.swapaxes(q, -1, -2) if n < m else q


def ball(key: KeyArrayLike, d: int, p: float = 2, shape: int | Shape = (),
         dtype: DTypeLike = float) -> Array:
    """Points uniform in the unit ``p``-norm ball of dimension ``d`` (Barthe et al., 2005):
    ``G / (sum |G|**p + E)**(1/p)`` for generalized-normal ``G`` and exponential ``E``.

    Example::

        >>> import fgrad.numpy as fnp, fgrad.random as random
        >>> x = random.ball(random.key(0), 3, shape=(100,))
        >>> x.shape, bool((fnp.linalg.norm(x, axis=-1) <= 1).all())
        ((100, 3), True)
    """
    dt = _float_dtype(dtype, "ball")
    if not isinstance(d, (int, np.integer)) or d < 1:
        raise ValueError(f"fgrad.random.ball: d must be a positive int, got {d!r}")
    shape = static_shape(shape)
    k1, k2 = split(key)
    g = generalized_normal(k1, p, shape + (int(d),), dt)
    e = exponential(k2, shape, dt)
    return g / ((fnp.sum(fnp.abs(g) ** p, axis=-1) + e) ** (1.0 / p))[..., None]


# ---------------------------------------------------------------------------------------
# Poisson and binomial


def _knuth_poisson(key, lam, shape):
    """Knuth: count float32 uniforms until the sum of their logs drops below -lam (lam < 10),
    splitting the key once per step: JAX's stream."""
    def cond(state):
        return fnp.any(state[3] > -lam)

    def body(state):
        k, count, rng, log_prod = state
        rng, sub = split(rng)
        count = fnp.where(log_prod > -lam, count + 1, count)
        return k, count, rng, log_prod + fnp.log(uniform(sub, shape, np.float32))

    init = (key, fnp.zeros_like(lam, np.int32), key, fnp.zeros_like(lam))  # lam: float32, on key's device
    return lax.while_loop(cond, body, init)[1] - 1


def _ptrs_poisson(key, lam, shape):
    """Hoermann's transformed rejection with squeeze (lam >= 10), in float32 with JAX's key
    splits (three per step) and acceptance tests: JAX's stream."""
    log_lam = fnp.log(lam)
    b = 0.931 + 2.53 * fnp.sqrt(lam)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)

    def cond(state):
        return fnp.logical_not(fnp.all(state[2]))

    def body(state):
        k, out, done = state
        k, k1, k2 = split(k, 3)
        u = uniform(k1, shape, np.float32) - 0.5
        v = uniform(k2, shape, np.float32)
        us = 0.5 - fnp.abs(u)
        kk = fnp.floor((2 * a / us + b) * u + lam + 0.43)
        s = fnp.log(v * inv_alpha / (a / (us * us) + b))
        t = -lam + kk * log_lam - lax.lgamma(kk + 1)
        fast = (us >= 0.07) & (v <= v_r)
        bad = (kk < 0) | ((us < 0.013) & (v > us))
        ok = fast | (fnp.logical_not(bad) & (s <= t))
        return k, fnp.where(ok, kk, out), done | ok

    init = (key, fnp.full_like(lam, -1.0), fnp.zeros_like(lam, bool))
    return lax.while_loop(cond, body, init)[1]


def poisson(key: KeyArrayLike, lam: ArrayLike, shape: int | Shape | None = None,
            dtype: DTypeLike = int) -> Array:
    """Poisson(lam) counts (Knuth below ``lam = 10``, PTRS above; see the module docstring).

    As in JAX, a negative or NaN ``lam`` gives -1 and ``lam = inf`` the largest integer.

    Example::

        >>> import fgrad.random as random
        >>> x = random.poisson(random.key(0), 3.5, (40000,))
        >>> x.dtype, round(float(x.mean()), 1)
        (dtype('int64'), 3.5)
    """
    lam = _param_array(lam, float, "poisson", key_words(key, "poisson"))
    shape = _shape_or_broadcast(shape, lam)
    # as in JAX: float32 rates, one key for both samplers, Knuth below 10
    lam = lax.stop_gradient(fnp.astype(fnp.broadcast_to(lam, shape), np.float32))
    valid = (lam >= 0) & fnp.isfinite(lam)
    lam_ok = fnp.where(valid, lam, 0.0)
    small = lam_ok < 10
    low = _knuth_poisson(key, fnp.where(small, lam_ok, 0.0), shape)
    high = _ptrs_poisson(key, fnp.where(small, 1e5, lam_ok), shape)
    counts = fnp.where(lam_ok == 0, 0, fnp.astype(fnp.where(small, low, high), dtype))
    # as in JAX: -1 for a negative or NaN rate, the largest integer for an infinite one
    return fnp.astype(fnp.where(valid, counts, fnp.where(lam == np.inf, np.iinfo(dtype).max, -1)), dtype)


def _inversion_binomial(key, n, p, shape):
    """JAX's inversion by geometric waiting times (n p <= 10): count the ``Geometric(p)``
    gaps (``ceil(log u / log1p(-p))``, one full-shape uniform per round) whose running sum
    stays within ``n``."""
    log1mp = fnp.log1p(-p)

    def cond(state):
        return fnp.any(state[2] <= n)

    def body(state):
        k, num, total = state
        k, sub = split(k)  # JAX's order: the first half draws, the second carries on
        num = fnp.where(total <= n, num + 1, num)
        gap = fnp.ceil(fnp.log(uniform(k, shape, p.dtype)) / log1mp)
        return sub, num, total + gap

    return lax.while_loop(cond, body, (key, fnp.zeros_like(p), fnp.zeros_like(p)))[1] - 1


def _stirling_tail(k):
    """``log k! - (k + 1/2) log(k + 1) + (k + 1) - log(2 pi) / 2`` (tabulated for k <= 9, a
    series above), the correction BTRS's bound uses (TensorFlow's and JAX's)."""
    table = fnp.asarray(_STIRLING_TAIL, k.dtype)
    kc = fnp.clip(k, 0.0, 9.0)
    kp1sq = (kc + 1) * (kc + 1)
    approx = (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (kc + 1)
    return fnp.where(k <= 9, table[fnp.floor(kc).astype(np.int32)], approx)


_STIRLING_TAIL = [0.0810614667953272, 0.0413406959554092, 0.0276779256849983, 0.02079067210376509,
                  0.0166446911898211, 0.0138761288230707, 0.0118967099458917, 0.0104112652619720,
                  0.00925546218271273, 0.00833056343336287]


def _btrs_binomial(key, n, p, shape):
    """Hoermann's BTRS (n p > 10, p < 1/2) as JAX writes it: two uniforms per round, the
    squeeze ``us >= 0.07 & v <= v_r`` or the bound with Stirling tails."""
    spq = fnp.sqrt(n * p * (1 - p))
    b = 1.15 + 2.53 * spq
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * spq
    m = fnp.floor((n + 1) * p)

    def cond(state):
        return fnp.logical_not(fnp.all(state[2]))

    def body(state):
        k, out, accepted = state
        k, k0, k1 = split(k, 3)
        u = uniform(k0, shape, p.dtype) - 0.5
        v = uniform(k1, shape, p.dtype)
        us = 0.5 - fnp.abs(u)
        kk = fnp.floor((2 * a / us + b) * u + c)
        reject = (kk < 0) | (kk > n)
        log_v = fnp.log(v * alpha / (a / (us * us) + b))
        bound = ((m + 0.5) * fnp.log((m + 1) / (r * (n - m + 1)))
                 + (n + 1) * fnp.log((n - m + 1) / (n - kk + 1))
                 + (kk + 0.5) * fnp.log(r * (n - kk + 1) / (kk + 1))
                 + _stirling_tail(m) + _stirling_tail(n - m) - _stirling_tail(kk) - _stirling_tail(n - kk))
        accept = ((us >= 0.07) & (v <= v_r)) | (fnp.logical_not(reject) & (log_v <= bound))
        return k, fnp.where(accept, kk, out), accepted | accept

    # (the carries made like p: on the key's device)
    return lax.while_loop(cond, body, (key, fnp.full_like(p, -1.0), fnp.zeros_like(p, dtype=bool)))[1]


def binomial(key: KeyArrayLike, n: ArrayLike, p: ArrayLike, shape: int | Shape | None = None,
             dtype: DTypeLike = float) -> Array:
    """Binomial(n, p) counts (as floats), JAX's samples for the same key: with ``q =
    min(p, 1 - p)`` (``1 - p`` from ``p = 1/2`` on, the count then ``n - k``), inversion by
    geometric gaps where ``n q <= 10``, BTRS above (see the module docstring), both from
    the one key.  NaN for ``n < 0`` or ``p`` outside [0, 1]; 0 where ``n q = 0``.

    Example::

        >>> import fgrad.random as random
        >>> x = random.binomial(random.key(0), 20, 0.3, (40000,))
        >>> round(float(x.mean()), 1), round(float(x.var()), 1)
        (6.0, 4.2)
    """
    dt = _float_dtype(dtype, "binomial")
    n = lax.stop_gradient(_param_array(n, float, "binomial", key_words(key, "binomial")))
    p = lax.stop_gradient(_param_array(p, float, "binomial", key_words(key, "binomial")))
    shape = _shape_or_broadcast(shape, n, p)
    n, p = fnp.broadcast_to(n, shape), fnp.broadcast_to(p, shape)
    flip = p >= 0.5
    q = fnp.where(flip, 1.0 - p, p)
    valid = (n >= 0) & (p >= 0) & (p <= 1) & fnp.isfinite(n)
    inversion = fnp.logical_not(valid) | (n * q <= 10.0)  # before the floor, as JAX
    n = fnp.floor(n)
    trivial = (n == 0) | (q == 0) | fnp.logical_not(valid)  # (JAX's inversion never ends where q = 0)
    q_inv = fnp.where(trivial, 0.5, q)
    low = _inversion_binomial(key, fnp.where(inversion & fnp.logical_not(trivial), n, 0.0), q_inv, shape)
    high = _btrs_binomial(key, fnp.where(inversion, 1e4, n), fnp.where(inversion, 0.5, q), shape)
    count = fnp.where(trivial, 0.0, fnp.where(inversion, low, high))
    count = fnp.where(flip, n - count, count)
    # as in JAX: NaN for invalid parameters; n = inf gives inf (0 where p = 0)
    infinite_n = (n == np.inf) & (p >= 0) & (p <= 1)
    out = fnp.where(valid, count, fnp.where(infinite_n, fnp.where(p > 0, np.inf, 0.0), np.nan))
    return fnp.astype(out, dt)


def multinomial(key: KeyArrayLike, n: ArrayLike, p: ArrayLike | Sequence[ArrayLike], *,
                shape: int | Shape | None = None,
                dtype: DTypeLike = float, unroll: int = 1) -> Array:
    """Multinomial(n, p) counts over the outcomes of ``p``'s last axis (as floats, like
    JAX), drawn as successive conditional binomials.  ``shape`` (default
    ``broadcast(n.shape, p.shape[:-1]) + p.shape[-1:]``) must end with the number of
    outcomes; ``unroll`` is accepted (JAX's scan option).

    Example::

        >>> import fgrad.random as random
        >>> c = random.multinomial(random.key(0), 10, [0.2, 0.3, 0.5], shape=(4, 3))
        >>> c.shape, [float(v) for v in c.sum(-1)]
        ((4, 3), [10.0, 10.0, 10.0, 10.0])
    """
    dt = _float_dtype(dtype, "multinomial")
    words = key_words(key, "multinomial")
    n = lax.stop_gradient(_param_array(n, float, "multinomial", words))
    p = lax.stop_gradient(_param_array(p, float, "multinomial", words))
    if p.ndim == 0:
        raise ValueError("multinomial: p must have at least one axis (the outcomes)")
    k = p.shape[-1]
    if shape is None:
        shape = np.broadcast_shapes(n.shape, p.shape[:-1]) + (k,)
    shape = static_shape(shape)
    if not shape or shape[-1] != k:
        raise ValueError(f"multinomial: shape {shape} must end with the number of outcomes {k} "
                         f"(p has shape {p.shape})")
    batch = shape[:-1]
    p = fnp.broadcast_to(p, shape)
    remaining = fnp.broadcast_to(fnp.floor(n), batch)
    mass = fnp.sum(p, axis=-1)  # probability not yet assigned
    keys = split(key, max(k - 1, 1))
    counts = []
    for i in range(k - 1):
        q = fnp.clip(p[..., i] / fnp.maximum(mass, np.finfo(_canonical_dtype(np.float64)).tiny), 0.0, 1.0)
        c = binomial(keys[i], remaining, q, batch)
        counts.append(c)
        remaining = remaining - c
        mass = mass - p[..., i]
    counts.append(remaining)
    return fnp.astype(fnp.stack(counts, axis=-1), dt)


__all__ = [
    "multinomial",
    "pareto", "weibull_min", "rayleigh", "lognormal", "wald", "geometric", "triangular", "maxwell",
    "double_sided_maxwell", "multivariate_normal", "orthogonal", "ball", "poisson", "binomial",
]
