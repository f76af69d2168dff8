"""The multinomial distribution (``jax.scipy.stats.multinomial``): counts ``x`` (integer, last
axis the categories) of ``n`` trials with probabilities ``p``.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.stats import multinomial
    >>> multinomial.pmf(fnp.asarray([1, 1]), 2, fnp.asarray([0.5, 0.5]))
    Array(0.5, dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike, Float

from ... import numpy as fnp
from ...core.narrow_floats import dtype_kind
from .. import special
from ._util import masked, promote


def logpmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Float[Array, "..."]:
    """Log probability ``gammaln(n + 1) + sum(xlogy(x, p) - gammaln(x + 1))`` over the last
    axis, ``-inf`` where the counts do not sum to ``n``; differentiable in ``p``.  ``x`` and
    ``n`` must be integers (``ValueError`` otherwise, as JAX).  Batched counts are summed per
    row (JAX compares the total of the whole array).

    Example::

        >>> logpmf(fnp.asarray([1, 2, 0]), 3, fnp.asarray([0.2, 0.5, 0.3]))
        Array(-1.89711998, dtype=float64)
    """
    x_arr, n_arr = fnp.asarray(x), fnp.asarray(n)
    if dtype_kind(x_arr.dtype) not in "iub" or dtype_kind(n_arr.dtype) not in "iub":
        raise ValueError(f"multinomial.logpmf: x and n must be of integer type; got x.dtype={x_arr.dtype}, "
                         f"n.dtype={n_arr.dtype}")
    (p,) = promote(p)
    xf, nf = x_arr.astype(p.dtype), n_arr.astype(p.dtype)
    total = fnp.sum(x_arr, axis=-1)
    val = special.gammaln(nf + 1.0) + fnp.sum(special.xlogy(xf, p) - special.gammaln(xf + 1.0), axis=-1)
    return masked(total == n_arr, val, -fnp.inf)


def pmf(x: ArrayLike, n: ArrayLike, p: ArrayLike) -> Float[Array, "..."]:
    """Probability of the counts ``x``.

    Example::

        >>> pmf(fnp.asarray([2, 0]), 2, fnp.asarray([0.5, 0.5]))
        Array(0.25, dtype=float64)
    """
    return fnp.exp(logpmf(x, n, p))


__all__ = ["logpmf", "pmf"]
