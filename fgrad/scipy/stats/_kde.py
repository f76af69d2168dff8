"""Gaussian kernel density estimation (``jax.scipy.stats.gaussian_kde``): a pytree over the
data, weights and bandwidth-scaled covariance, differentiable in all of them and in the
evaluation points.

Example::

    >>> import fgrad.numpy as fnp
    >>> kde = gaussian_kde(fnp.asarray([0.0, 1.0, 2.0]))
    >>> kde.evaluate(fnp.asarray([1.0]))
    Array([0.31815622], dtype=float64)
"""

from __future__ import annotations

import math

import numpy as np

from ... import numpy as fnp
from ... import random as _random
from ...core.narrow_floats import dtype_kind
from ...tree_util import register_pytree_node_class
from .. import linalg, special
from .._dtypes import inexact_dtype


def _real_array(op: str, x):
    x = fnp.asarray(x)
    if dtype_kind(x.dtype) == "c":
        raise NotImplementedError(f"gaussian_kde.{op} does not support complex data")
    return x


@register_pytree_node_class
class gaussian_kde:  # noqa: N801 - SciPy's and JAX's name
    """A Gaussian kernel density estimate of ``dataset`` (shape ``(d, n)``, or ``(n,)`` for
    one dimension), with optional ``weights`` and ``bw_method`` (``"scott"`` (default),
    ``"silverman"``, a scalar factor or a callable of the estimator).  Attributes as JAX:
    ``dataset``, ``weights``, ``neff``, ``covariance``, ``inv_cov``, ``d``, ``n``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> gaussian_kde(fnp.asarray([0.0, 1.0, 2.0])).covariance
        Array([[0.64439401]], dtype=float64)
    """

    def __init__(self, dataset, bw_method=None, weights=None):
        dataset = fnp.atleast_2d(_real_array("__init__", dataset))
        if not dataset.size > 1:
            raise ValueError("gaussian_kde: `dataset` input should have multiple elements")
        d, n = dataset.shape
        if weights is not None:
            dt = inexact_dtype(dataset, weights)
            dataset = dataset.astype(dt)
            weights = fnp.atleast_1d(fnp.asarray(weights).astype(dt))
            if weights.ndim != 1:
                raise ValueError("gaussian_kde: `weights` input should be one-dimensional")
            if weights.shape[0] != n:
                raise ValueError(f"gaussian_kde: `weights` input should be of length n = {n}, got "
                                 f"{weights.shape[0]}")
            weights = weights / fnp.sum(weights)
        else:
            dataset = dataset.astype(inexact_dtype(dataset))
            weights = fnp.full((n,), 1.0 / n, dtype=dataset.dtype)
        self.dataset, self.weights = dataset, weights
        self.neff = 1.0 / fnp.sum(weights ** 2)
        if bw_method is None or (isinstance(bw_method, str) and bw_method == "scott"):
            factor = self.neff ** (-1.0 / (d + 4))
        elif isinstance(bw_method, str) and bw_method == "silverman":
            factor = (self.neff * (d + 2) / 4.0) ** (-1.0 / (d + 4))
        elif callable(bw_method):
            factor = bw_method(self)
        elif not isinstance(bw_method, str) and np.ndim(bw_method) == 0:
            factor = bw_method
        else:
            raise ValueError("gaussian_kde: `bw_method` should be 'scott', 'silverman', a scalar, or a "
                             "callable")
        data_cov = fnp.atleast_2d(fnp.cov(dataset, rowvar=True, bias=False, aweights=weights))
        self.covariance = data_cov * factor ** 2
        self.inv_cov = fnp.linalg.inv(data_cov) / factor ** 2

    def tree_flatten(self):
        return (self.neff, self.dataset, self.weights, self.covariance, self.inv_cov), None

    @classmethod
    def tree_unflatten(cls, aux_data, children):
        kde = cls.__new__(cls)
        kde.neff, kde.dataset, kde.weights, kde.covariance, kde.inv_cov = children
        return kde

    @property
    def d(self) -> int:
        """The dimension of the data."""
        return self.dataset.shape[0]

    @property
    def n(self) -> int:
        """The number of data points."""
        return self.dataset.shape[1]

    def _points(self, op: str, points):
        points = fnp.atleast_2d(_real_array(op, points))
        d, m = points.shape
        if d != self.d:
            if d == 1 and m == self.d:
                return points.reshape(self.d, 1)
            raise ValueError(f"gaussian_kde.{op}: points have dimension {d}, dataset has dimension {self.d}")
        return points

    def _log_kernels(self, op: str, points):
        """``log(weight_j) + log N(point_i; data_j, covariance)`` as an ``(m, n)`` array."""
        points = self._points(op, points)
        dt = inexact_dtype(points, self.dataset)
        whitening = linalg.cholesky(self.inv_cov.astype(dt), lower=True)
        data = self.dataset.astype(dt).T @ whitening
        at = points.astype(dt).T @ whitening
        log_norm = fnp.sum(fnp.log(fnp.diagonal(whitening))) - 0.5 * self.d * math.log(2.0 * math.pi)
        sq = fnp.sum((at[:, None, :] - data[None, :, :]) ** 2, axis=-1)
        return fnp.log(self.weights.astype(dt))[None, :] + log_norm - 0.5 * sq

    def evaluate(self, points):
        """The density at ``points`` (shape ``(d, m)``; ``(m,)`` in one dimension).

        Example::

            >>> import fgrad.numpy as fnp
            >>> gaussian_kde(fnp.asarray([0.0, 1.0, 2.0])).evaluate(fnp.asarray([0.0, 1.0]))
            Array([0.24934251, 0.31815622], dtype=float64)
        """
        return fnp.sum(fnp.exp(self._log_kernels("evaluate", points)), axis=1)

    def __call__(self, points):
        return self.evaluate(points)

    def pdf(self, x):
        """The density at ``x`` (same as `evaluate`).

        Example::

            >>> import fgrad.numpy as fnp
            >>> gaussian_kde(fnp.asarray([0.0, 1.0, 2.0])).pdf(fnp.asarray([1.0]))
            Array([0.31815622], dtype=float64)
        """
        return self.evaluate(x)

    def logpdf(self, x):
        """The log density at ``x`` (a log-sum-exp over the kernels: finite far out).

        Example::

            >>> import fgrad.numpy as fnp
            >>> gaussian_kde(fnp.asarray([0.0, 1.0, 2.0])).logpdf(fnp.asarray([1.0]))
            Array([-1.14521276], dtype=float64)
        """
        return special.logsumexp(self._log_kernels("logpdf", x), axis=1)

    def integrate_gaussian(self, mean, cov):
        """The integral of the density times the Gaussian ``N(mean, cov)``.

        Example::

            >>> import fgrad.numpy as fnp
            >>> kde = gaussian_kde(fnp.asarray([0.0, 1.0, 2.0]))
            >>> kde.integrate_gaussian(fnp.asarray([1.0]), fnp.asarray([[1.0]]))
            Array(0.25672685, dtype=float64)
        """
        mean = fnp.atleast_1d(fnp.squeeze(fnp.asarray(mean)))
        cov = fnp.atleast_2d(fnp.asarray(cov))
        if mean.shape != (self.d,):
            raise ValueError(f"gaussian_kde.integrate_gaussian: mean does not have dimension {self.d}")
        if cov.shape != (self.d, self.d):
            raise ValueError(f"gaussian_kde.integrate_gaussian: covariance does not have dimension {self.d}")
        return self._convolve_with(self.covariance + cov, mean)

    def _convolve_with(self, cov, mean, dataset=None, weights=None):
        dataset = self.dataset if dataset is None else dataset
        weights = self.weights if weights is None else weights
        factor = linalg.cho_factor(cov)
        norm = 1.0 / (math.sqrt(2.0 * math.pi) ** self.d * fnp.prod(fnp.diagonal(factor[0])))
        diff = dataset - mean[:, None]
        energy = 0.5 * fnp.sum(diff * linalg.cho_solve(factor, diff), axis=0)
        return norm * fnp.sum(fnp.exp(-energy) * weights)

    def integrate_box_1d(self, low, high):
        """The probability mass between the scalars ``low`` and ``high`` (one dimension only).

        Example::

            >>> gaussian_kde(fnp.asarray([0.0, 1.0, 2.0])).integrate_box_1d(-100.0, 100.0)
            Array(1., dtype=float64)
        """
        if self.d != 1:
            raise ValueError("gaussian_kde.integrate_box_1d only handles 1D pdfs")
        if np.ndim(low) != 0 or np.ndim(high) != 0:
            raise ValueError("gaussian_kde.integrate_box_1d: the limits of integration must be scalars")
        sigma = fnp.squeeze(fnp.sqrt(self.covariance))
        lo = fnp.squeeze((low - self.dataset) / sigma)
        hi = fnp.squeeze((high - self.dataset) / sigma)
        return fnp.sum(self.weights * (special.ndtr(hi) - special.ndtr(lo)))

    def integrate_kde(self, other: gaussian_kde):
        """The integral of the product of this density and ``other``'s.

        Example::

            >>> import fgrad.numpy as fnp
            >>> kde = gaussian_kde(fnp.asarray([0.0, 1.0, 2.0]))
            >>> kde.integrate_kde(kde)
            Array(0.23964369, dtype=float64)
        """
        if other.d != self.d:
            raise ValueError("gaussian_kde.integrate_kde: KDEs are not the same dimensionality")
        cov = self.covariance + other.covariance
        small, large = (self, other) if self.n < other.n else (other, self)
        total = 0.0
        for j in range(small.n):
            total = total + small.weights[j] * self._convolve_with(cov, small.dataset[:, j], large.dataset,
                                                                   large.weights)
        return total

    def resample(self, key, shape=()):
        """Draws from the estimate: a data point chosen by weight plus a kernel draw; shape
        ``(d,) + shape``.

        Example::

            >>> import fgrad
            >>> kde = gaussian_kde(fnp.asarray([0.0, 1.0, 2.0]))
            >>> kde.resample(fgrad.random.key(0), (5,)).shape
            (1, 5)
        """
        shape = tuple(shape)
        index_key, noise_key = _random.split(key)
        index = _random.choice(index_key, self.n, shape=shape, p=self.weights)
        mean = fnp.zeros(self.d, self.covariance.dtype)
        noise = _random.multivariate_normal(noise_key, mean, self.covariance, shape=shape,
                                            dtype=self.dataset.dtype)
        return self.dataset[:, index] + fnp.moveaxis(noise, -1, 0)

    def integrate_box(self, low_bounds, high_bounds, maxpts=None):
        """Not supported beyond one dimension (as JAX): use `integrate_box_1d`."""
        raise NotImplementedError("gaussian_kde: only 1D box integrations are supported; use "
                                  "`integrate_box_1d`")

    def set_bandwidth(self, bw_method=None):
        """Not supported (as JAX): build a new estimator with the new ``bw_method``."""
        raise NotImplementedError("gaussian_kde: dynamically changing the bandwidth method is not supported; "
                                  "build a new gaussian_kde")


__all__ = ["gaussian_kde"]
