"""The Dirichlet distribution (``jax.scipy.stats.dirichlet``).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.stats import dirichlet
    >>> dirichlet.pdf(fnp.asarray([0.5, 0.5]), fnp.asarray([1.0, 1.0]))
    Array(1., dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from .. import special
from ._util import masked, promote, safe


def logpdf(x: ArrayLike, alpha: ArrayLike) -> Float[Array, "..."]:
    """Log density of ``x`` on the simplex, as JAX: ``alpha`` is one-dimensional (``K``) and
    ``x``'s *first* axis holds the categories (``K`` entries, or ``K - 1`` with the last one
    ``1 - sum``); the other axes of ``x`` are the batch. ``-inf`` off the open simplex, whose
    sum must be 1 within 1e-6 as in JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> logpdf(fnp.asarray([0.25, 0.75]), fnp.asarray([2.0, 1.0]))
        Array(-0.69314718, dtype=float64)
    """
    x, alpha = promote(x, alpha)
    if alpha.ndim != 1:
        raise ValueError(f"dirichlet.logpdf: `alpha` must be one-dimensional; got alpha.shape={alpha.shape}")
    k = alpha.shape[0]
    if x.ndim == 0 or x.shape[0] not in (k, k - 1):
        raise ValueError(f"dirichlet.logpdf: `x` must have either the same number of entries as `alpha` or "
                         f"one entry fewer along its first axis; got x.shape={x.shape}, "
                         f"alpha.shape={alpha.shape}")
    if x.shape[0] != k:
        x = fnp.concatenate([x, 1.0 - fnp.sum(x, axis=0, keepdims=True)], axis=0)
    ok = fnp.all(x > 0, axis=0) & (fnp.abs(fnp.sum(x, axis=0) - 1.0) < 1e-6)  # JAX's tolerance
    xs = safe(ok, x, 1.0 / k)
    a = fnp.reshape(alpha, (k,) + (1,) * (x.ndim - 1))
    norm = special.gammaln(fnp.sum(alpha)) - fnp.sum(special.gammaln(alpha))
    val = fnp.sum(special.xlogy(a - 1.0, xs), axis=0) + norm
    return masked(ok, val, -fnp.inf)


def pdf(x: ArrayLike, alpha: ArrayLike) -> Float[Array, "..."]:
    """Density.

    Example::

        >>> import fgrad.numpy as fnp
        >>> pdf(fnp.asarray([0.25, 0.75]), fnp.asarray([2.0, 1.0]))
        Array(0.5, dtype=float64)
    """
    return fnp.exp(logpdf(x, alpha))


__all__ = ["logpdf", "pdf"]
