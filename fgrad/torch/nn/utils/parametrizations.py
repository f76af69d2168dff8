"""``torch.nn.utils.parametrizations``: `weight_norm`, `spectral_norm` and `orthogonal`
as parametrizations (`fgrad.torch.nn.utils.parametrize`), with PyTorch's formulas,
parameter layout (``original0``/``original1`` for weight norm, the ``_u``/``_v`` power-iteration
buffers of spectral norm drawn from the seeded stream) and state-dict keys.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.nn.utils.parametrizations import weight_norm
    >>> m = weight_norm(torch.nn.Linear(4, 3))
    >>> m.parametrizations.weight.original0.shape, m.parametrizations.weight.original1.shape
    (torch.Size([3, 1]), torch.Size([3, 4]))
"""

from __future__ import annotations

import fgrad.torch as torch
from ...autograd.grad_mode import no_grad
from .. import functional as F
from ..modules.conv import ConvTranspose1d, ConvTranspose2d, ConvTranspose3d
from ..modules.module import Module
from . import parametrize

__all__ = ["orthogonal", "spectral_norm", "weight_norm"]


def _norm_except_dim(v: torch.Tensor, dim: int) -> torch.Tensor:
    """The 2-norm of ``v`` over every dimension but ``dim`` (kept, size 1 elsewhere);
    ``dim=-1``: over all of them (PyTorch's ``norm_except_dim``)."""
    if dim == -1:
        return torch.linalg.vector_norm(v)
    dims = tuple(d for d in range(v.dim()) if d != dim)
    return torch.linalg.vector_norm(v, 2, dim=dims, keepdim=True)


def _weight_norm(v: torch.Tensor, g: torch.Tensor, dim: int) -> torch.Tensor:
    """``g * v / ||v||``, the norm over every dimension of ``v`` but ``dim``."""
    return v * (g / _norm_except_dim(v, dim))


def _weight_matrix(weight: torch.Tensor, dim: int) -> torch.Tensor:
    """``weight`` as a matrix whose rows run along ``dim`` (spectral norm's view of it)."""
    if dim != 0:
        weight = weight.permute(dim, *(d for d in range(weight.dim()) if d != dim))
    return weight.flatten(1)


class _WeightNorm(Module):
    def __init__(self, dim: int | None = 0) -> None:
        super().__init__()
        self.dim = -1 if dim is None else dim

    def forward(self, weight_g: torch.Tensor, weight_v: torch.Tensor) -> torch.Tensor:
        return _weight_norm(weight_v, weight_g, self.dim)

    def right_inverse(self, weight: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return _norm_except_dim(weight, self.dim), weight


def weight_norm(module: Module, name: str = "weight", dim: int | None = 0) -> Module:
    """Reparametrize ``module.<name>`` as ``g * v / ||v||`` (norm over every dimension but
    ``dim``): ``original0`` is ``g``, ``original1`` is ``v``.  State dicts of the old
    ``torch.nn.utils.weight_norm`` (``<name>_g``/``<name>_v``) load into it.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.utils.parametrizations.weight_norm(torch.nn.Linear(2, 2))
        >>> sorted(m.state_dict())
        ['bias', 'parametrizations.weight.original0', 'parametrizations.weight.original1']
    """
    parametrize.register_parametrization(module, name, _WeightNorm(dim), unsafe=True)

    def compat_hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs):
        g_key, v_key = f"{prefix}{name}_g", f"{prefix}{name}_v"
        if g_key in state_dict and v_key in state_dict:
            state_dict[f"{prefix}parametrizations.{name}.original0"] = state_dict.pop(g_key)
            state_dict[f"{prefix}parametrizations.{name}.original1"] = state_dict.pop(v_key)

    module._register_load_state_dict_pre_hook(compat_hook)
    return module


class _SpectralNorm(Module):
    def __init__(self, weight: torch.Tensor, n_power_iterations: int = 1, dim: int = 0,
                 eps: float = 1e-12) -> None:
        super().__init__()
        ndim = weight.ndim
        if dim >= ndim or dim < -ndim:
            raise IndexError("Dimension out of range (expected to be in range of "
                             f"[-{ndim}, {ndim - 1}] but got {dim})")
        if n_power_iterations <= 0:
            raise ValueError("Expected n_power_iterations to be positive, but got "
                             f"n_power_iterations={n_power_iterations}")
        self.dim = dim if dim >= 0 else dim + ndim
        self.eps = eps
        if ndim > 1:
            self.n_power_iterations = n_power_iterations
            weight_mat = self._reshape_weight_to_matrix(weight)
            h, w = weight_mat.size()
            u = weight_mat.new_empty(h).normal_(0, 1)
            v = weight_mat.new_empty(w).normal_(0, 1)
            self.register_buffer("_u", F.normalize(u, dim=0, eps=self.eps))
            self.register_buffer("_v", F.normalize(v, dim=0, eps=self.eps))
            self._power_method(weight_mat, 15)

    def _reshape_weight_to_matrix(self, weight: torch.Tensor) -> torch.Tensor:
        return _weight_matrix(weight, self.dim)

    def _power_method(self, weight_mat: torch.Tensor, n_power_iterations: int) -> None:
        with no_grad():
            for _ in range(n_power_iterations):
                self._u.copy_(F.normalize(torch.mv(weight_mat, self._v), dim=0, eps=self.eps))
                self._v.copy_(F.normalize(torch.mv(weight_mat.mH, self._u), dim=0, eps=self.eps))

    def forward(self, weight: torch.Tensor) -> torch.Tensor:
        if weight.ndim == 1:
            return F.normalize(weight, dim=0, eps=self.eps)
        weight_mat = self._reshape_weight_to_matrix(weight)
        if self.training:
            self._power_method(weight_mat, self.n_power_iterations)
        u, v = self._u.clone(), self._v.clone()
        sigma = torch.vdot(u, torch.mv(weight_mat, v))
        return weight / sigma

    def right_inverse(self, value: torch.Tensor) -> torch.Tensor:
        return value


def spectral_norm(module: Module, name: str = "weight", n_power_iterations: int = 1,
                  eps: float = 1e-12, dim: int | None = None) -> Module:
    """Divide ``module.<name>`` by its largest singular value, estimated by power
    iteration (``n_power_iterations`` steps per training-mode access; 15 at registration).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.utils.parametrizations.spectral_norm(torch.nn.Linear(3, 2))
        >>> sorted(m.parametrizations.weight[0]._buffers)
        ['_u', '_v']
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if dim is None:
        dim = 1 if isinstance(module, (ConvTranspose1d, ConvTranspose2d, ConvTranspose3d)) else 0
    parametrize.register_parametrization(module, name, _SpectralNorm(weight, n_power_iterations, dim, eps))
    return module


def _householder_product(A: torch.Tensor, tau: torch.Tensor) -> torch.Tensor:
    """The first ``k`` columns of ``H_1 ... H_k``, ``H_i = I - tau_i v_i v_i^H`` with ``v_i``
    the i-th column of ``A`` below the diagonal and a unit diagonal (LAPACK's ``orgqr``),
    composed of differentiable ops."""
    n, k = A.shape[-2], A.shape[-1]
    eye = torch.eye(n, dtype=A.dtype)
    Q = eye.expand(*A.shape[:-2], n, n)
    rows = torch.arange(n)
    for i in range(k):
        v = torch.where(rows > i, A[..., :, i], (rows == i).to(A.dtype))
        H = eye - tau[..., i, None, None] * (v.unsqueeze(-1) @ v.conj().unsqueeze(-2))
        Q = Q @ H
    return Q[..., :k]


def _make_orthogonal(A: torch.Tensor) -> torch.Tensor:
    """Q of the QR decomposition of ``A`` with R's diagonal made positive (unique)."""
    Q, R = torch.linalg.qr(A)
    return Q * R.diagonal(dim1=-2, dim2=-1).sgn().unsqueeze(-2)


def _is_orthogonal(Q: torch.Tensor) -> bool:
    n, k = Q.size(-2), Q.size(-1)
    eps = 10.0 * n * torch.finfo(Q.dtype).eps
    return torch.allclose(Q.mH @ Q, torch.eye(k, dtype=Q.dtype), atol=eps)


class _Orthogonal(Module):
    def __init__(self, weight: torch.Tensor, orthogonal_map: str, *, use_trivialization: bool = True) -> None:
        super().__init__()
        if weight.is_complex() and orthogonal_map == "householder":
            raise ValueError("The householder parametrization does not support complex tensors.")
        self.shape = weight.shape
        self.orthogonal_map = orthogonal_map
        if use_trivialization:
            self.register_buffer("base", None)

    def forward(self, X: torch.Tensor) -> torch.Tensor:
        n, k = X.size(-2), X.size(-1)
        transposed = n < k
        if transposed:
            X = X.mT
            n, k = k, n
        if self.orthogonal_map in ("matrix_exp", "cayley"):
            X = X.tril()
            if n != k:
                X = torch.cat([X, X.new_zeros(n, n - k).expand(*X.shape[:-2], -1, -1)], dim=-1)
            A = X - X.mH
            if self.orthogonal_map == "matrix_exp":
                Q = torch.matrix_exp(A)
            else:
                eye = torch.eye(n, dtype=A.dtype)
                Q = torch.linalg.solve(torch.add(eye, A, alpha=-0.5), torch.add(eye, A, alpha=0.5))
            if n != k:
                Q = Q[..., :k]
        else:
            A = X.tril(diagonal=-1)
            tau = 2.0 / (1.0 + (A * A).sum(dim=-2))
            Q = _householder_product(A, tau)
            Q = Q * X.diagonal(dim1=-2, dim2=-1).int().unsqueeze(-2)
        if getattr(self, "base", None) is not None:
            Q = self.base @ Q
        if transposed:
            Q = Q.mT
        return Q

    def right_inverse(self, Q: torch.Tensor) -> torch.Tensor:
        if Q.shape != self.shape:
            raise ValueError(f"Expected a matrix or batch of matrices of shape {self.shape}. "
                             f"Got a tensor of shape {Q.shape}.")
        with no_grad():
            Q_init = Q
            n, k = Q.size(-2), Q.size(-1)
            transpose = n < k
            if transpose:
                Q = Q.mT
                n, k = k, n
            if "base" not in self._buffers:
                if self.orthogonal_map in ("matrix_exp", "cayley"):
                    raise NotImplementedError("It is not possible to assign to the matrix exponential "
                                              "or the Cayley parametrizations when use_trivialization=False.")
                raise NotImplementedError("orthogonal(use_trivialization=False) with the householder map: "
                                          "fgrad has no torch.geqrf")
            if n == k:
                Q = Q.clone() if _is_orthogonal(Q) else _make_orthogonal(Q)
            else:
                N = torch.randn(*(Q.size()[:-2] + (n, n - k)), dtype=Q.dtype)
                Q = _make_orthogonal(torch.cat([Q, N], dim=-1))
            self.base = Q
            neg_id = torch.zeros_like(Q_init)
            neg_id.diagonal(dim1=-2, dim2=-1).fill_(-1.0)
            return neg_id


def orthogonal(module: Module, name: str = "weight", orthogonal_map: str | None = None, *,
               use_trivialization: bool = True) -> Module:
    """Keep ``module.<name>`` (a matrix or batch of them) orthogonal (unitary): the image of
    ``matrix_exp``, ``cayley`` or ``householder`` maps of an unconstrained matrix, times a
    ``base`` set at registration (``use_trivialization``).

    Example::

        >>> import fgrad.torch as torch
        >>> Q = torch.nn.utils.parametrizations.orthogonal(torch.nn.Linear(3, 3)).weight
        >>> torch.allclose(Q @ Q.T, torch.eye(3), atol=1e-5)
        True
    """
    weight = getattr(module, name, None)
    if not isinstance(weight, torch.Tensor):
        raise ValueError(f"Module '{module}' has no parameter or buffer with name '{name}'")
    if weight.ndim < 2:
        raise ValueError(f"Expected a matrix or batch of matrices. Got a tensor of {weight.ndim} dimensions.")
    if orthogonal_map is None:
        orthogonal_map = ("matrix_exp" if weight.size(-2) == weight.size(-1) or weight.is_complex()
                          else "householder")
    if orthogonal_map not in ("matrix_exp", "cayley", "householder"):
        raise ValueError('orthogonal_map has to be one of "matrix_exp", "cayley", "householder". '
                         f"Got: {orthogonal_map}")
    parametrize.register_parametrization(
        module, name, _Orthogonal(weight, orthogonal_map, use_trivialization=use_trivialization), unsafe=True)
    return module
