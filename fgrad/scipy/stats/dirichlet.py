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
    """Log density of ``x`` on the simplex (last axis; ``-inf`` off the open simplex, whose
    sum must be 1 within 1e-6 as in JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> logpdf(fnp.asarray([0.25, 0.75]), fnp.asarray([2.0, 1.0]))
        Array(-0.69314718, dtype=float64)
    """
    x, alpha = promote(x, alpha)
    if alpha.ndim == 0 or x.shape[-1:] != alpha.shape[-1:]:
        raise TypeError(f"dirichlet.logpdf: x has shape {x.shape} and alpha {alpha.shape}; both need the "
                        "same last (category) axis")
    ok = fnp.all(x > 0, axis=-1) & (fnp.abs(fnp.sum(x, axis=-1) - 1.0) < 1e-6)  # JAX's tolerance
    xs = safe(ok[..., None], x, 0.5)
    norm = special.gammaln(fnp.sum(alpha, axis=-1)) - fnp.sum(special.gammaln(alpha), axis=-1)
    val = fnp.sum(special.xlogy(alpha - 1.0, xs), axis=-1) + norm
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
