"""`MultivariateNormal`, given by a covariance matrix, a precision matrix or a lower
Cholesky factor ``scale_tril`` (one of them), with batched locations and matrices.

Everything is computed from the Cholesky factor ``L`` (``cov = L L^T``): the log-density
``-(k log 2 pi + |L^-1 (x - loc)|^2) / 2 - sum log diag L`` (one triangular solve, through
``fgrad.scipy.linalg.solve_triangular``), the entropy, and ``rsample = loc + L eps``.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import MultivariateNormal
    >>> MultivariateNormal(torch.zeros(2), torch.eye(2)).log_prob(torch.zeros(2))
    tensor(-1.8379)
"""

from __future__ import annotations

import math

import fgrad.numpy as fnp
import fgrad.torch as torch
from fgrad.scipy.linalg import solve_triangular as _solve_triangular

from . import constraints
from .distribution import Distribution, lazy_property, scipy_op
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["MultivariateNormal"]


def batch_mahalanobis_definition(scale_tril, diff):
    """``|L^-1 diff|^2`` over the last axis, batched (fgrad definition)."""
    shape = fnp.broadcast_shapes(scale_tril.shape[:-2], diff.shape[:-1])
    n = diff.shape[-1]
    L = fnp.broadcast_to(scale_tril, shape + (n, n))
    d = fnp.broadcast_to(diff, shape + (n,))
    z = _solve_triangular(L, d[..., None], lower=True)[..., 0]
    return fnp.sum(z * z, axis=-1)


def batch_mahalanobis(scale_tril: Tensor, diff: Any) -> Any:
    """``|L^-1 diff|^2`` of tensors.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.multivariate_normal import batch_mahalanobis
        >>> batch_mahalanobis(2 * torch.eye(2), torch.tensor([2.0, 4.0]))
        tensor(5.)
    """
    return scipy_op("MahalanobisBackward", batch_mahalanobis_definition, scale_tril, diff)


def _tril_solve_definition(a, b):
    return _solve_triangular(a, b, lower=True)


def tril_solve(a: Tensor, b: Tensor) -> Tensor:
    """``a^-1 b`` for lower-triangular ``a`` (tensors, batched).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.multivariate_normal import tril_solve
        >>> tril_solve(2 * torch.eye(2), torch.ones(2, 1)).flatten()
        tensor([0.5000, 0.5000])
    """
    shape = torch.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    return scipy_op(
        "LinalgSolveTriangularBackward0",
        _tril_solve_definition,
        a.expand(shape + a.shape[-2:]),
        b.expand(shape + b.shape[-2:]),
    )


class MultivariateNormal(Distribution):
    """The multivariate normal ``N(loc, covariance_matrix)`` (see the module docstring).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions.multivariate_normal import MultivariateNormal
        >>> MultivariateNormal(torch.zeros(2), scale_tril=torch.eye(2)).entropy()
        tensor(2.8379)
    """

    arg_constraints = {
        "loc": constraints.real_vector,
        "covariance_matrix": constraints.positive_definite,
        "precision_matrix": constraints.positive_definite,
        "scale_tril": constraints.lower_cholesky,
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(
        self, loc: Tensor, covariance_matrix: Tensor | None = None, precision_matrix: Tensor | None = None,
                 scale_tril: Tensor | None = None, validate_args: bool | None = None
    ) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."
            )
        if scale_tril is not None:
            if scale_tril.dim() < 2:
                raise ValueError(
                    "scale_tril matrix must be at least two-dimensional, with optional leading "
                    "batch dimensions"
                )
            batch_shape = torch.broadcast_shapes(scale_tril.shape[:-2], loc.shape[:-1])
            self.scale_tril = scale_tril.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            if covariance_matrix.dim() < 2:
                raise ValueError(
                    "covariance_matrix must be at least two-dimensional, with optional leading "
                    "batch dimensions"
                )
            batch_shape = torch.broadcast_shapes(covariance_matrix.shape[:-2], loc.shape[:-1])
            self.covariance_matrix = covariance_matrix.expand(batch_shape + (-1, -1))
        else:
            if precision_matrix.dim() < 2:
                raise ValueError(
                    "precision_matrix must be at least two-dimensional, with optional leading "
                    "batch dimensions"
                )
            batch_shape = torch.broadcast_shapes(precision_matrix.shape[:-2], loc.shape[:-1])
            self.precision_matrix = precision_matrix.expand(batch_shape + (-1, -1))
        self.loc = loc.expand(batch_shape + (-1,))
        event_shape = self.loc.shape[-1:]
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(torch.linalg.inv(precision_matrix))

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(MultivariateNormal, _instance)
        batch_shape = torch.Size(batch_shape)
        loc_shape = batch_shape + self.event_shape
        cov_shape = batch_shape + self.event_shape + self.event_shape
        new.loc = self.loc.expand(loc_shape)
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, getattr(self, name).expand(cov_shape))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(
            self._batch_shape + self._event_shape + self._event_shape
        )

    @lazy_property
    def covariance_matrix(self):
        L = self._unbroadcasted_scale_tril
        return torch.matmul(L, L.mT).expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        L = self._unbroadcasted_scale_tril
        eye = torch.eye(L.shape[-1], dtype=L.dtype, device=L.device)
        inv = tril_solve(L, eye.expand(L.shape))
        return torch.matmul(inv.mT, inv).expand(self._batch_shape + self._event_shape + self._event_shape)

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @property
    def variance(self) -> Tensor:
        return self._unbroadcasted_scale_tril.pow(2).sum(-1).expand(self._batch_shape + self._event_shape)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        eps = torch.randn(shape, dtype=self.loc.dtype, device=self.loc.device)
        return self.loc + torch.matmul(self._unbroadcasted_scale_tril, eps.unsqueeze(-1)).squeeze(-1)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        diff = value - self.loc
        M = batch_mahalanobis(self._unbroadcasted_scale_tril, diff)
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + M) - half_log_det

    def entropy(self) -> Tensor:
        half_log_det = self._unbroadcasted_scale_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1)
        H = 0.5 * self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + half_log_det
        return H if len(self._batch_shape) == 0 else H.expand(self._batch_shape)
