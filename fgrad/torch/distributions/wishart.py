"""`Wishart` (covariance matrices: ``sum of df outer products`` of normal vectors, sampled by
Bartlett's decomposition) and `LKJCholesky` (Cholesky factors of correlation matrices, by the
onion method), drawing PyTorch's random streams in PyTorch's order.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.distributions import Wishart
    >>> Wishart(torch.tensor(4.0), covariance_matrix=torch.eye(2)).mean
    tensor([[4., 0.],
            [0., 4.]])
"""

from __future__ import annotations

import math
import numbers
import warnings

import fgrad.torch as torch

from . import constraints
from .distribution import Distribution, ExponentialFamily, broadcast_all, lazy_property
from .gamma_family import Beta, Chi2
from fgrad.torch.types import SizeLike, Tensor
from typing import Any

__all__ = ["LKJCholesky", "Wishart"]

_LOG_2 = math.log(2)


def _mvdigamma(x, p: int):
    """The multivariate digamma function: ``sum_i digamma(x - i/2)``, ``i < p``."""
    return torch.digamma(x.unsqueeze(-1) - torch.arange(p, dtype=x.dtype, device=x.device).div(2)).sum(-1)


class Wishart(ExponentialFamily):
    """The Wishart distribution with ``df`` degrees of freedom and scale matrix given by one of
    ``covariance_matrix``, ``precision_matrix`` or ``scale_tril``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import Wishart
        >>> Wishart(torch.tensor(3.0), scale_tril=torch.eye(2)).log_prob(torch.eye(2))
        tensor(-3.5310)
    """

    support = constraints.positive_definite
    has_rsample = True
    _mean_carrier_measure = 0

    @property
    def arg_constraints(self) -> Any:
        return {
            "covariance_matrix": constraints.positive_definite,
            "precision_matrix": constraints.positive_definite,
            "scale_tril": constraints.lower_cholesky,
            "df": constraints.greater_than(self.event_shape[-1] - 1),
        }

    def __init__(
        self, df: Tensor | int | float | bool, covariance_matrix: Tensor | None = None,
                 precision_matrix: Tensor | None = None, scale_tril: Tensor | None = None,
                 validate_args: bool | None = None
    ) -> None:
        if (covariance_matrix is not None) + (scale_tril is not None) + (precision_matrix is not None) != 1:
            raise ValueError(
                "Exactly one of covariance_matrix or precision_matrix or scale_tril may be specified."
            )
        param = next(p for p in (covariance_matrix, precision_matrix, scale_tril) if p is not None)
        if param.dim() < 2:
            raise ValueError(
                "scale_tril must be at least two-dimensional, with optional leading batch dimensions"
            )
        if isinstance(df, numbers.Number):
            batch_shape = torch.Size(param.shape[:-2])
            self.df = torch.tensor(df, dtype=param.dtype, device=param.device)
        else:
            batch_shape = torch.broadcast_shapes(param.shape[:-2], df.shape)
            self.df = df.expand(batch_shape)
        event_shape = param.shape[-2:]
        if bool(self.df.le(event_shape[-1] - 1).any()):
            raise ValueError(
                f"Value of df={df} expected to be greater than ndim - 1 = {event_shape[-1] - 1}."
            )
        if scale_tril is not None:
            self.scale_tril = param.expand(batch_shape + (-1, -1))
        elif covariance_matrix is not None:
            self.covariance_matrix = param.expand(batch_shape + (-1, -1))
        else:
            self.precision_matrix = param.expand(batch_shape + (-1, -1))
        if bool(self.df.lt(event_shape[-1]).any()):
            warnings.warn(
                "Low df values detected. Singular samples are highly likely to occur for ndim - 1 < "
                "df < ndim.",
                stacklevel=2,
            )
        super().__init__(batch_shape, event_shape, validate_args=validate_args)
        self._batch_dims = [-(x + 1) for x in range(len(self._batch_shape))]
        if scale_tril is not None:
            self._unbroadcasted_scale_tril = scale_tril
        elif covariance_matrix is not None:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(covariance_matrix)
        else:
            self._unbroadcasted_scale_tril = torch.linalg.cholesky(torch.linalg.inv(precision_matrix))
        self._dist_chi2 = self._chi2(batch_shape)

    def _chi2(self, batch_shape):
        p = self._event_shape[-1]
        tril = self._unbroadcasted_scale_tril
        offsets = torch.arange(p, dtype=tril.dtype, device=tril.device).expand(batch_shape + (-1,))
        return Chi2(df=self.df.unsqueeze(-1) - offsets)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(Wishart, _instance)
        batch_shape = torch.Size(batch_shape)
        cov_shape = batch_shape + self.event_shape
        new._unbroadcasted_scale_tril = self._unbroadcasted_scale_tril.expand(cov_shape)
        new.df = self.df.expand(batch_shape)
        new._batch_dims = [-(x + 1) for x in range(len(batch_shape))]
        for name in ("covariance_matrix", "scale_tril", "precision_matrix"):
            if name in self.__dict__:
                setattr(new, name, getattr(self, name).expand(cov_shape))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._dist_chi2 = new._chi2(batch_shape)
        new._validate_args = self._validate_args
        return new

    @lazy_property
    def scale_tril(self):
        return self._unbroadcasted_scale_tril.expand(self._batch_shape + self._event_shape)

    @lazy_property
    def covariance_matrix(self):
        tril = self._unbroadcasted_scale_tril
        return (tril @ tril.transpose(-2, -1)).expand(self._batch_shape + self._event_shape)

    @lazy_property
    def precision_matrix(self):
        tril = self._unbroadcasted_scale_tril
        identity = torch.eye(self._event_shape[-1], device=tril.device, dtype=tril.dtype)
        return torch.cholesky_solve(identity, tril).expand(self._batch_shape + self._event_shape)

    @property
    def mean(self) -> Tensor:
        return self.df.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def mode(self) -> Tensor:
        factor = self.df - self.covariance_matrix.shape[-1] - 1
        factor = torch.where(factor <= 0, math.nan, factor)
        return factor.view(self._batch_shape + (1, 1)) * self.covariance_matrix

    @property
    def variance(self) -> Tensor:
        v = self.covariance_matrix
        diag_v = v.diagonal(dim1=-2, dim2=-1)
        return self.df.view(self._batch_shape + (1, 1)) * (
            v.pow(2) + torch.einsum("...i,...j->...ij", diag_v, diag_v)
        )

    def _bartlett_sampling(self, sample_shape):
        p = self._event_shape[-1]
        eps = torch.finfo(self._unbroadcasted_scale_tril.dtype).eps
        noise = self._dist_chi2.rsample(sample_shape).sqrt().clamp(min=eps).diag_embed(dim1=-2, dim2=-1)
        i, j = torch.tril_indices(p, p, offset=-1)
        noise[..., i, j] = torch.randn(
            torch.Size(sample_shape) + self._batch_shape + (p * (p - 1) // 2,),
            dtype=noise.dtype,
            device=noise.device,
        )
        chol = self._unbroadcasted_scale_tril @ noise
        return chol @ chol.transpose(-2, -1)

    def _per_sample(self, mask):
        return mask.amax(self._batch_dims) if self._batch_shape else mask

    def rsample(self, sample_shape: SizeLike | list[int] | tuple[int, ...] = (),
                max_try_correction: Any = None) -> Tensor:
        """A sample by Bartlett's decomposition.  PyTorch 2.13 draws a second sample in place of
        every first one that is positive definite (its check is inverted) and warns "Singular
        sample detected."; fgrad draws the same second sample, so seeded samples are PyTorch's,
        without the spurious warning."""
        max_try_correction = 10 if max_try_correction is None else max_try_correction
        sample_shape = torch.Size(sample_shape)
        sample = self._bartlett_sampling(sample_shape)
        redraw = self._per_sample(self.support.check(sample))
        if bool(redraw.any()):
            for _ in range(max_try_correction):
                sample_new = self._bartlett_sampling(redraw[redraw].shape)
                sample[redraw] = sample_new
                again = self._per_sample(~self.support.check(sample_new))
                redraw[redraw.clone()] = again
                if not bool(redraw.any()):
                    break
        return sample

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        nu = self.df
        p = self._event_shape[-1]
        tril = self._unbroadcasted_scale_tril
        return (
            -nu * (p * _LOG_2 / 2 + tril.diagonal(dim1=-2, dim2=-1).log().sum(-1))
            - torch.mvlgamma(nu / 2, p=p)
            + (nu - p - 1) / 2 * torch.linalg.slogdet(value).logabsdet
            - torch.cholesky_solve(value, tril).diagonal(dim1=-2, dim2=-1).sum(dim=-1) / 2
        )

    def entropy(self) -> Tensor:
        nu = self.df
        p = self._event_shape[-1]
        tril = self._unbroadcasted_scale_tril
        return (
            (p + 1) * (p * _LOG_2 / 2 + tril.diagonal(dim1=-2, dim2=-1).log().sum(-1))
            + torch.mvlgamma(nu / 2, p=p)
            - (nu - p - 1) / 2 * _mvdigamma(nu / 2, p=p)
            + nu * p / 2
        )

    @property
    def _natural_params(self):
        p = self._event_shape[-1]
        return -self.precision_matrix / 2, (self.df - p - 1) / 2

    def _log_normalizer(self, x, y):
        p = self._event_shape[-1]
        return (y + (p + 1) / 2) * (-torch.linalg.slogdet(-2 * x).logabsdet + _LOG_2 * p) + torch.mvlgamma(
            y + (p + 1) / 2, p=p
        )


class LKJCholesky(Distribution):
    """The LKJ distribution over Cholesky factors of ``dim x dim`` correlation matrices, with
    density proportional to ``det(L L^T)^(concentration - 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.distributions import LKJCholesky
        >>> LKJCholesky(3, torch.tensor(2.0)).log_prob(torch.eye(3))
        tensor(-0.6155)
    """

    arg_constraints = {"concentration": constraints.positive}
    support = constraints.corr_cholesky

    def __init__(self, dim: int, concentration: Tensor | float = 1.0,
                 validate_args: bool | None = None) -> None:
        if dim < 2:
            raise ValueError(f"Expected dim to be an integer greater than or equal to 2. Found dim={dim}.")
        self.dim = dim
        (self.concentration,) = broadcast_all(concentration)
        batch_shape = self.concentration.size()
        event_shape = torch.Size((dim, dim))
        marginal_conc = self.concentration + 0.5 * (self.dim - 2)
        offset = torch.arange(self.dim - 1, dtype=self.concentration.dtype, device=self.concentration.device)
        offset = torch.cat([offset.new_zeros((1,)), offset])
        self._beta = Beta(offset + 0.5, marginal_conc.unsqueeze(-1) - 0.5 * offset)
        super().__init__(batch_shape, event_shape, validate_args)

    def expand(self, batch_shape: SizeLike, _instance: Any = None) -> Any:
        new = self._get_checked_instance(LKJCholesky, _instance)
        batch_shape = torch.Size(batch_shape)
        new.dim = self.dim
        new.concentration = self.concentration.expand(batch_shape)
        new._beta = self._beta.expand(batch_shape + (self.dim,))
        Distribution.__init__(new, batch_shape, self.event_shape, validate_args=False)
        new._validate_args = self._validate_args
        return new

    def sample(self, sample_shape: SizeLike = ()) -> Tensor:
        with torch.no_grad():
            y = self._beta.sample(sample_shape).unsqueeze(-1)
            u_normal = torch.randn(self._extended_shape(sample_shape), dtype=y.dtype, device=y.device).tril(
                -1
            )
            u_hypersphere = u_normal / u_normal.norm(dim=-1, keepdim=True)
            u_hypersphere[..., 0, :].fill_(0.0)  # the first row is (1, 0, ..., 0)
            w = torch.sqrt(y) * u_hypersphere
            tiny = torch.finfo(w.dtype).tiny
            diag_elems = torch.clamp(1 - torch.sum(w**2, dim=-1), min=tiny).sqrt()
            return w + torch.diag_embed(diag_elems)

    def log_prob(self, value: Tensor | float) -> Tensor:
        if self._validate_args:
            self._validate_sample(value)
        diag_elems = value.diagonal(dim1=-1, dim2=-2)[..., 1:]
        order = torch.arange(2, self.dim + 1, device=self.concentration.device)
        order = 2 * (self.concentration - 1).unsqueeze(-1) + self.dim - order
        unnormalized = torch.sum(order * diag_elems.log(), dim=-1)
        dm1 = self.dim - 1
        alpha = self.concentration + 0.5 * dm1
        normalize_term = (
            0.5 * dm1 * math.log(math.pi) + torch.mvlgamma(alpha - 0.5, dm1) - torch.lgamma(alpha) * dm1
        )
        return unnormalized - normalize_term
