"""`LowRankMultivariateNormal`: a multivariate normal with covariance ``W W^T + diag(D)``,
whose log-density, determinant and entropy cost ``O(n m^2)`` through the capacitance matrix
``I + W^T D^-1 W`` (Woodbury identity, matrix determinant lemma).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import LowRankMultivariateNormal
    >>> d = LowRankMultivariateNormal(torch.zeros(2), torch.tensor([[1.0], [0.0]]), torch.ones(2))
    >>> d.covariance_matrix
    tensor([[2., 0.],
            [0., 1.]])
"""

from __future__ import annotations

import math

import fgrad.torch as torch

from . import constraints
from .distribution import Distribution, lazy_property
from .multivariate_normal import batch_mahalanobis, tril_solve
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["LowRankMultivariateNormal"]


def _batch_mv(bmat, bvec):
    return torch.matmul(bmat, bvec.unsqueeze(-1)).squeeze(-1)


def _plus_identity(k):
    return k + torch.eye(k.shape[-1], dtype=k.dtype, device=k.device)


def _capacitance_tril(w, d):
    """The Cholesky factor of ``I + W^T D^-1 W``."""
    wt_dinv = w.mT / d.unsqueeze(-2)
    return torch.linalg.cholesky(_plus_identity(torch.matmul(wt_dinv, w)))


def _lowrank_logdet(w, d, capacitance_tril):
    return 2 * capacitance_tril.diagonal(dim1=-2, dim2=-1).log().sum(-1) + d.log().sum(-1)


def _lowrank_mahalanobis(w, d, x, capacitance_tril):
    wt_dinv_x = _batch_mv(w.mT / d.unsqueeze(-2), x)
    return (x.pow(2) / d).sum(-1) - batch_mahalanobis(capacitance_tril, wt_dinv_x)


class LowRankMultivariateNormal(Distribution):
    """Normal with mean ``loc`` and covariance ``cov_factor @ cov_factor.mT + diag(cov_diag)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import LowRankMultivariateNormal
        >>> d = LowRankMultivariateNormal(torch.zeros(2), torch.zeros(2, 1), torch.ones(2))
        >>> d.log_prob(torch.zeros(2))
        tensor(-1.8379)
    """

    arg_constraints = {
        "loc": constraints.real_vector,
        "cov_factor": constraints.independent(constraints.real, 2),
        "cov_diag": constraints.independent(constraints.positive, 1),
    }
    support = constraints.real_vector
    has_rsample = True

    def __init__(self, loc: Tensor | float, cov_factor: Tensor | float, cov_diag: Tensor | float,
                 validate_args: bool | None = None) -> None:
        if loc.dim() < 1:
            raise ValueError("loc must be at least one-dimensional.")
        event_shape = loc.shape[-1:]
        if cov_factor.dim() < 2:
            raise ValueError("cov_factor must be at least two-dimensional, with optional leading batch "
                             "dimensions")
        if cov_factor.shape[-2:-1] != event_shape:
            raise ValueError(f"cov_factor must be a batch of matrices with shape {event_shape[0]} x m")
        if cov_diag.shape[-1:] != event_shape:
            raise ValueError(f"cov_diag must be a batch of vectors with shape {event_shape}")
        try:
            loc_, self.cov_factor, cov_diag_ = torch.broadcast_tensors(
                loc.unsqueeze(-1), cov_factor, cov_diag.unsqueeze(-1))
        except RuntimeError as e:
            raise ValueError(f"Incompatible batch shapes: loc {loc.shape}, cov_factor {cov_factor.shape}, "
                             f"cov_diag {cov_diag.shape}") from e
        self.loc = loc_[..., 0]
        self.cov_diag = cov_diag_[..., 0]
        self._unbroadcasted_cov_factor = cov_factor
        self._unbroadcasted_cov_diag = cov_diag
        self._capacitance_tril = _capacitance_tril(cov_factor, cov_diag)
        super().__init__(self.loc.shape[:-1], event_shape, validate_args=validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(LowRankMultivariateNormal, _instance)
        batch_shape = torch.Size(batch_shape)
        loc_shape = batch_shape + self.event_shape
        new.loc = self.loc.expand(loc_shape)
        new.cov_diag = self.cov_diag.expand(loc_shape)
        new.cov_factor = self.cov_factor.expand(loc_shape + self.cov_factor.shape[-1:])
        new._unbroadcasted_cov_factor = self._unbroadcasted_cov_factor
        new._unbroadcasted_cov_diag = self._unbroadcasted_cov_diag
        new._capacitance_tril = self._capacitance_tril
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    @property
    def mean(self) -> Tensor:
        return self.loc

    @property
    def mode(self) -> Tensor:
        return self.loc

    @lazy_property
    def variance(self):
        var = self._unbroadcasted_cov_factor.pow(2).sum(-1) + self._unbroadcasted_cov_diag
        return var.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def scale_tril(self):
        d_sqrt = self._unbroadcasted_cov_diag.sqrt().unsqueeze(-1)
        dinvsqrt_w = self._unbroadcasted_cov_factor / d_sqrt
        k = _plus_identity(torch.matmul(dinvsqrt_w, dinvsqrt_w.mT))
        scale_tril = d_sqrt * torch.linalg.cholesky(k)
        return scale_tril.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        w = self._unbroadcasted_cov_factor
        cov = torch.matmul(w, w.mT) + torch.diag_embed(self._unbroadcasted_cov_diag)
        return cov.expand(self._batch_shape + self._event_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        wt_dinv = self._unbroadcasted_cov_factor.mT / self._unbroadcasted_cov_diag.unsqueeze(-2)
        a = tril_solve(self._capacitance_tril, wt_dinv)
        prec = torch.diag_embed(self._unbroadcasted_cov_diag.reciprocal()) - a.mT @ a
        return prec.expand(self._batch_shape + self._event_shape + self._event_shape)

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = ()) -> Tensor:
        shape = self._extended_shape(sample_shape)
        w_shape = shape[:-1] + self.cov_factor.shape[-1:]
        eps_w = torch.randn(w_shape, dtype=self.loc.dtype, device=self.loc.device)
        eps_d = torch.randn(shape, dtype=self.loc.dtype, device=self.loc.device)
        return (self.loc + _batch_mv(self._unbroadcasted_cov_factor, eps_w)
                + self._unbroadcasted_cov_diag.sqrt() * eps_d)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        w, d = self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag
        m = _lowrank_mahalanobis(w, d, value - self.loc, self._capacitance_tril)
        log_det = _lowrank_logdet(w, d, self._capacitance_tril)
        return -0.5 * (self._event_shape[0] * math.log(2 * math.pi) + log_det + m)

    def entropy(self) -> Tensor:
        log_det = _lowrank_logdet(self._unbroadcasted_cov_factor, self._unbroadcasted_cov_diag,
                                  self._capacitance_tril)
        h = 0.5 * (self._event_shape[0] * (1.0 + math.log(2 * math.pi)) + log_det)
        return h if len(self._batch_shape) == 0 else h.expand(self._batch_shape)
