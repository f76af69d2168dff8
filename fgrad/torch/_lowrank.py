"""Randomized low-rank factorizations: ``torch.svd_lowrank`` and ``torch.pca_lowrank``
(Halko, Martinsson and Tropp 2009, Algorithms 4.4 and 5.1), written with the shim's own
ops.  The random test matrix is drawn with ``torch.randn`` from the shim's PyTorch-compatible
generator, in PyTorch's order, so under ``torch.manual_seed`` the results are PyTorch's up to
rounding; gradients flow through `torch.linalg.qr` and `torch.linalg.svd`.

Example::

    >>> import fgrad.torch as torch
    >>> _ = torch.manual_seed(0)
    >>> U, S, V = torch.svd_lowrank(torch.diag(torch.tensor([3.0, 2.0, 1.0])), q=3)
    >>> S
    tensor([3.0000, 2.0000, 1.0000])
"""

from __future__ import annotations

from typing import Callable

import fgrad.torch as torch

from ._tensor import Tensor


def _matmul(a: Tensor, b: Tensor) -> Tensor:
    return torch.sparse.mm(a, b) if a.is_sparse else torch.matmul(a, b)


def _floating(A: Tensor) -> torch.dtype:
    return A.dtype if A.is_floating_point() or A.is_complex() else torch.float32


def _mh(x: Tensor) -> Tensor:
    return x.mH if not x.is_sparse else x.t().conj() if x.is_complex() else x.t()


def _approximate_basis(A: Tensor, q: int, niter: int, M: Tensor | None) -> Tensor:
    """``Q`` with ``q`` orthonormal columns with ``Q Q^H (A - M) ~ A - M`` (Algorithm 4.4)."""
    R = torch.randn(A.shape[-1], q, dtype=_floating(A), device=A.device)
    X = _matmul(A, R)
    if M is not None:
        X = X - _matmul(M, R)
    Q = torch.linalg.qr(X).Q
    for _ in range(niter):
        X = _matmul(_mh(A), Q)
        if M is not None:
            X = X - _matmul(_mh(M), Q)
        Q = torch.linalg.qr(X).Q
        X = _matmul(A, Q)
        if M is not None:
            X = X - _matmul(M, Q)
        Q = torch.linalg.qr(X).Q
    return Q


def _svd_lowrank(A: Tensor, q: int | None, niter: int | None,
                 M: Tensor | None) -> tuple[Tensor, Tensor, Tensor]:
    q = 6 if q is None else q
    niter = 2 if niter is None else niter
    m, n = A.shape[-2:]
    if M is not None:
        M = M.broadcast_to(A.shape)
    if m < n:
        A = _mh(A)
        M = None if M is None else _mh(M)
    Q = _approximate_basis(A, q, niter, M)
    B = _matmul(_mh(Q), A) if not A.is_sparse else _mh(_matmul(_mh(A), Q))
    if M is not None:
        B = B - _matmul(_mh(Q), M)
    U, S, Vh = torch.linalg.svd(B, full_matrices=False)
    V = Vh.mH
    U = Q.matmul(U)
    if m < n:
        U, V = V, U
    return U, S, V


def svd_lowrank(A: Tensor, q: int | None = 6, niter: int | None = 2,
                M: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    """``(U, S, V)`` with ``A - M ~ U diag(S) V^H`` of rank ``q``, by ``niter`` subspace
    iterations on a random ``(n, q)`` Gaussian test matrix (Halko et al. 2009, Algorithm 5.1;
    PyTorch's steps and random stream).  ``A`` may be a sparse COO matrix.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> torch.svd_lowrank(torch.ones(4, 3), q=1)[1]
        tensor([3.4641])
    """
    if A.dim() < 2:
        raise ValueError(f"svd_lowrank: expected a matrix or a batch of matrices, got a {A.dim()}-D tensor")
    return _svd_lowrank(A, q, niter, M)


def pca_lowrank(A: Tensor, q: int | None = None, center: bool = True,
                niter: int = 2) -> tuple[Tensor, Tensor, Tensor]:
    """`svd_lowrank` of ``A`` minus its column means (``center``): ``V``'s columns are the
    principal directions and ``S**2 / (m - 1)`` the variances along them; ``q`` defaults to
    ``min(6, m, n)``.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> x = torch.tensor([[1.0, 1.0], [2.0, 2.0], [3.0, 3.0]])
        >>> torch.pca_lowrank(x, q=1)[1]
        tensor([2.])
    """
    m, n = A.shape[-2:]
    if q is None:
        q = min(6, m, n)
    elif not (q >= 0 and q <= min(m, n)):
        raise ValueError(f"q(={q}) must be non-negative integer and not greater than min(m, n)={min(m, n)}")
    if not niter >= 0:
        raise ValueError(f"niter(={niter}) must be non-negative integer")
    dtype = _floating(A)
    if not center:
        return _svd_lowrank(A, q, niter, None)
    if A.is_sparse:
        if A.dim() != 2:
            raise ValueError("pca_lowrank input is expected to be 2-dimensional tensor")
        c = torch.sparse.sum(A, dim=(-2,)) / m
        column_indices = c.indices()[0]
        indices = torch.zeros(2, len(column_indices), dtype=column_indices.dtype,
                              device=column_indices.device)
        indices[0] = column_indices
        C_t = torch.sparse_coo_tensor(indices, c.values(), (n, 1), dtype=dtype, device=A.device)
        ones_m1_t = torch.ones(tuple(A.shape[:-2]) + (1, m), dtype=dtype, device=A.device)
        M = torch.sparse.mm(C_t, ones_m1_t).mT
        return _svd_lowrank(A, q, niter, M)
    C = A.mean(dim=(-2,), keepdim=True)
    return _svd_lowrank(A - C, q, niter, None)


FUNCTIONS: dict[str, Callable] = {"svd_lowrank": svd_lowrank, "pca_lowrank": pca_lowrank}

