"""``torch.lobpcg``: the k largest (or smallest) eigenpairs of a symmetric positive-definite
(generalized) eigenproblem ``A X = B X E`` by the locally optimal block preconditioned
conjugate gradient method (Knyazev 2001; the ``"basic"`` and robust ``"ortho"`` variants of
Duersch et al. 2018), written with the shim's own ops and following PyTorch's steps: the
random start ``X`` comes from ``torch.randn`` on the shim's PyTorch-compatible generator, so
under ``torch.manual_seed`` the eigenvalues are PyTorch's up to rounding (the eigenvectors up
to their signs, which ``eigh`` does not fix).

Gradients (``B`` not given, as PyTorch): the eigenvalues through the Rayleigh quotients
``x^T A x / x^T x`` of the converged eigenvectors (exact to first order at an eigenpair), the
eigenvectors through `_Eigenvectors` (their derivative for simple eigenvalues).

Example::

    >>> import fgrad.torch as torch
    >>> _ = torch.manual_seed(0)
    >>> E, X = torch.lobpcg(torch.diag(torch.arange(1.0, 10.0)), k=2)
    >>> E
    tensor([9.0000, 8.0000])
"""

from __future__ import annotations

from typing import Any, Callable

import fgrad.torch as torch

from ._linalg_round9 import _no_derivative
from ._tensor import Tensor


def _mm(A: Tensor | None, X: Tensor) -> Tensor:
    if A is None:
        return X
    return torch.sparse.mm(A, X) if A.is_sparse else torch.matmul(A, X)


def _qform(A: Tensor | None, S: Tensor) -> Tensor:
    return torch.matmul(S.mT, _mm(A, S))


def _symeig(A: Tensor, largest: bool = False) -> tuple[Tensor, Tensor]:
    E, Z = torch.linalg.eigh(A, UPLO="U")
    if largest:
        E, Z = torch.flip(E, dims=(-1,)), torch.flip(Z, dims=(-1,))
    return E, Z


def _basis(A: Tensor) -> Tensor:
    return torch.linalg.qr(A).Q


def _floating(A: Tensor) -> torch.dtype:
    return A.dtype if A.dtype in (torch.float16, torch.float32, torch.float64) else torch.float32


class _Worker:
    """One LOBPCG run on a single matrix (PyTorch's ``LOBPCG`` worker, without the tracker)."""

    def __init__(self, A: Tensor, B: Tensor | None, X: Tensor, iK: Tensor | None, iparams: dict,
                 fparams: dict, bparams: dict, method: str) -> None:
        self.A, self.B, self.iK = A, B, iK
        self.iparams, self.fparams, self.bparams, self.method = iparams, fparams, bparams, method
        m, n = iparams["m"], iparams["n"]
        self.X = X
        self.E = torch.zeros((n,), dtype=X.dtype, device=X.device)
        self.R = torch.zeros((m, n), dtype=X.dtype, device=X.device)
        self.S = torch.zeros((m, 3 * n), dtype=X.dtype, device=X.device)
        self.ivars: dict[str, int] = {"istep": 0}
        self.fvars: dict[str, float] = {}

    def run(self) -> None:
        self.update()
        while not (self.ivars["iterations_left"] == 0 or self.ivars["converged_count"] >= self.iparams["k"]):
            self.update()

    def update(self) -> None:
        if self.ivars["istep"] == 0:
            X_norm = float(torch.norm(self.X))
            iX_norm = X_norm ** -1
            self.fvars["A_norm"] = float(torch.norm(_mm(self.A, self.X))) * iX_norm
            self.fvars["B_norm"] = float(torch.norm(_mm(self.B, self.X))) * iX_norm
            self.ivars["iterations_left"] = self.iparams["niter"]
            self.ivars["converged_count"] = 0
            self.ivars["converged_end"] = 0
        if self.method == "ortho":
            self._update_ortho()
        else:
            self._update_basic()
        self.ivars["iterations_left"] -= 1
        self.ivars["istep"] += 1

    def update_residual(self) -> None:
        self.R = _mm(self.A, self.X) - _mm(self.B, self.X) * self.E

    def update_converged_count(self) -> int:
        E, X, R = self.E, self.X, self.R
        rerr = torch.norm(R, 2, (0,)) / (torch.norm(X, 2, (0,)) * (
            self.fvars["A_norm"] + torch.abs(E[: X.shape[-1]]) * self.fvars["B_norm"]))
        count = 0
        for b in (rerr < self.fparams["tol"]).tolist():
            if not b:
                break
            count += 1
        if count < self.ivars["converged_count"]:
            raise AssertionError(f"the number of converged eigenpairs (was {self.ivars['converged_count']}, "
                                 f"got {count}) cannot decrease")
        self.ivars["converged_count"] = count
        return count

    def _refill(self, P: Tensor | None, directions: Callable[[int], Tensor]) -> None:
        """After new Ritz pairs: the residual, the converged count, and the search basis
        ``S = [X, P, W]`` with ``W = directions(converged count)``."""
        n = self.iparams["n"]
        np_ = 0 if P is None else P.shape[-1]
        self.update_residual()
        nc = self.update_converged_count()
        self.S[:, :n] = self.X
        if P is not None:
            self.S[:, n: n + np_] = P
        W = directions(nc)
        ns = self.ivars["converged_end"] = n + np_ + W.shape[-1]
        self.S[:, n + np_: ns] = W

    def _update_basic(self) -> None:
        mm = torch.matmul
        ns, nc = self.ivars["converged_end"], self.ivars["converged_count"]
        n, largest = self.iparams["n"], self.bparams["largest"]
        if self.ivars["istep"] == 0:
            Ri = self._rayleigh_ritz_transform(self.X)
            E, Z = _symeig(_qform(_qform(self.A, self.X), Ri), largest)
            self.X[:] = mm(self.X, mm(Ri, Z))
            self.E[:] = E
            self._refill(None, lambda nc: _mm(self.iK, self.R))
        else:
            S_ = self.S[:, nc:ns]
            Ri = self._rayleigh_ritz_transform(S_)
            E_, Z = _symeig(_qform(_qform(self.A, S_), Ri), largest)
            self.X[:, nc:] = mm(S_, mm(Ri, Z[:, : n - nc]))
            self.E[nc:] = E_[: n - nc]
            self._refill(mm(S_, mm(Ri, Z[:, n: 2 * n - nc])), lambda nc: _mm(self.iK, self.R[:, nc:]))

    def _update_ortho(self) -> None:
        mm = torch.matmul
        ns, nc = self.ivars["converged_end"], self.ivars["converged_count"]
        n, largest = self.iparams["n"], self.bparams["largest"]
        if self.ivars["istep"] == 0:
            Ri = self._rayleigh_ritz_transform(self.X)
            _E, Z = _symeig(_qform(_qform(self.A, self.X), Ri), largest)
            self.X = mm(self.X, mm(Ri, Z))  # E stays 0 for the first residual, as PyTorch's
            self._refill(None, lambda nc: self._ortho(self.R, self.X))
        else:
            S_ = self.S[:, nc:ns]
            E_, Z = _symeig(_qform(self.A, S_), largest)
            self.X[:, nc:] = mm(S_, Z[:, : n - nc])
            self.E[nc:] = E_[: n - nc]
            P = mm(S_, mm(Z[:, n - nc:], _basis(Z[: n - nc, n - nc:].mT)))
            self._refill(P, lambda nc: self._ortho(self.R[:, nc:], self.S[:, : n + P.shape[-1]]))

    def _rayleigh_ritz_transform(self, S: Tensor) -> Tensor:
        """``Ri`` reducing ``(S^T A S) C = (S^T B S) C E`` to ``(Ri^T S^T A S Ri) Z = Z E``."""
        SBS = _qform(self.B, S)
        d_row = SBS.diagonal(0, -2, -1) ** -0.5
        d_col = d_row.reshape(d_row.shape[0], 1)
        R = torch.linalg.cholesky((SBS * d_row) * d_col, upper=True)
        return torch.linalg.solve_triangular(R, d_row.diag_embed(), upper=True, left=False)

    def _svqb(self, U: Tensor, drop: bool, tau: float) -> Tensor:
        """B-orthonormal ``U`` (Duersch's Algorithm 4; ``drop`` removes weak columns)."""
        if torch.numel(U) == 0:
            return U
        UBU = _qform(self.B, U)
        d = UBU.diagonal(0, -2, -1)
        nz = torch.where(abs(d) != 0.0)
        if len(nz[0]) < len(d):
            U = U[:, nz[0]]
            if torch.numel(U) == 0:
                return U
            UBU = _qform(self.B, U)
            d = UBU.diagonal(0, -2, -1)
        d_col = (d ** -0.5).reshape(d.shape[0], 1)
        E, Z = _symeig((UBU * d_col) * d_col.mT)
        t = tau * abs(E).max()
        if drop:
            keep = torch.where(E > t)
            E, Z, d_col = E[keep[0]], Z[:, keep[0]], d_col[keep[0]]
        else:
            E[(torch.where(E < t))[0]] = t
        return torch.matmul(U * d_col.mT, Z * E ** -0.5)

    def _ortho(self, U: Tensor, V: Tensor) -> Tensor:
        """B-orthonormal ``U`` whose columns are B-orthogonal to ``V`` (Duersch's Algorithms 3/6)."""
        mm = torch.matmul
        m = self.iparams["m"]
        tau_ortho, tau_drop = self.fparams["ortho_tol"], self.fparams["ortho_tol_drop"]
        tau_replace = self.fparams["ortho_tol_replace"]
        use_drop = self.bparams["ortho_use_drop"]
        BV_norm = torch.norm(_mm(self.B, V))
        BU = _mm(self.B, U)
        VBU = mm(V.mT, BU)
        for _i in range(self.iparams["ortho_i_max"]):
            U = U - mm(V, VBU)
            drop = False
            tau_svqb = tau_drop
            for _j in range(self.iparams["ortho_j_max"]):
                if use_drop:
                    U = self._svqb(U, drop, tau_svqb)
                    drop, tau_svqb = True, tau_replace
                else:
                    U = self._svqb(U, False, tau_replace)
                if torch.numel(U) == 0:
                    return U
                BU = _mm(self.B, U)
                UBU = mm(U.mT, BU)
                R = UBU - torch.eye(UBU.shape[-1], device=UBU.device, dtype=UBU.dtype)
                rerr = float(torch.norm(R)) * float(torch.norm(BU) * torch.norm(U)) ** -1
                if rerr < tau_ortho:
                    break
            VBU = mm(V.mT, BU)
            rerr = float(torch.norm(VBU)) * float(BV_norm * torch.norm(U)) ** -1
            if rerr < tau_ortho:
                break
            if m < U.shape[-1] + V.shape[-1]:
                raise ValueError(f"Overdetermined shape of U: #B-cols(={m}) >= #U-cols(={U.shape[-1]}) + "
                                 f"#V-cols(={V.shape[-1]}) must hold")
        return U


def _lobpcg(A: Tensor, k: int | None, B: Tensor | None, X: Tensor | None, n: int | None, iK: Tensor | None,
            niter: int | None, tol: float | None, largest: bool | None, method: str | None,
            ortho_iparams: dict | None, ortho_fparams: dict | None,
            ortho_bparams: dict | None) -> tuple[Tensor, Tensor]:
    if A.shape[-2] != A.shape[-1]:
        raise AssertionError(f"A must be square, got shape {A.shape}")
    if B is not None and A.shape != B.shape:
        raise AssertionError(f"A and B must have same shape, got {A.shape} vs {B.shape}")
    dtype = _floating(A)
    if tol is None:
        tol = {torch.float32: 1.2e-07, torch.float64: 2.23e-16}[dtype] ** 0.5
    m = A.shape[-1]
    k = (1 if X is None else X.shape[-1]) if k is None else k
    n = (k if n is None else n) if X is None else X.shape[-1]
    if m < 3 * n:
        raise ValueError(f"LOBPCG algorithm is not applicable when the number of A rows (={m}) is smaller "
                         f"than 3 x the number of requested eigenpairs (={n})")
    method = "ortho" if method is None else method
    iparams = {"m": m, "n": n, "k": k, "niter": 1000 if niter is None else niter}
    fparams = {"tol": tol}
    bparams = {"largest": True if largest is None else largest}
    if method == "ortho":
        iparams.update(ortho_iparams or {})
        fparams.update(ortho_fparams or {})
        bparams.update(ortho_bparams or {})
        iparams.setdefault("ortho_i_max", 3)
        iparams.setdefault("ortho_j_max", 3)
        for key in ("ortho_tol", "ortho_tol_drop", "ortho_tol_replace"):
            fparams.setdefault(key, tol)
        bparams.setdefault("ortho_use_drop", False)

    def one(A_: Tensor, B_: Tensor | None, X_: Tensor | None) -> tuple[Tensor, Tensor]:
        X_ = torch.randn((m, n), dtype=dtype, device=A.device) if X_ is None else X_
        if not (X_.dim() == 2 and tuple(X_.shape) == (m, n)):
            raise AssertionError(f"X shape mismatch: got {X_.shape}, expected {(m, n)}")
        worker = _Worker(A_, B_, X_, iK, iparams, fparams, bparams, method)
        worker.run()
        return worker.E[:k], worker.X[:, :k]

    if A.dim() > 2:
        N = 1
        for s in A.shape[:-2]:
            N *= s
        bA = A.reshape((N,) + tuple(A.shape[-2:]))
        bB = B.reshape((N,) + tuple(A.shape[-2:])) if B is not None else None
        bX = X.reshape((N,) + tuple(X.shape[-2:])) if X is not None else None
        pairs = [one(bA[i], bB[i] if bB is not None else None, bX[i] if bX is not None else None)
                 for i in range(N)]
        E = torch.stack([p[0] for p in pairs]).reshape(tuple(A.shape[:-2]) + (k,))
        V = torch.stack([p[1] for p in pairs]).reshape(tuple(A.shape[:-2]) + (m, k))
        return E, V
    return one(A, B, X)


class _Eigenvectors(torch.autograd.Function):
    """The converged eigenvectors ``V`` of symmetric ``A`` as a function of ``A``: their
    derivative for simple eigenvalues, ``dx_i = -(A - e_i I)^+ (I - x_i x_i^T) dA x_i``
    (so ``x_i^T dx_i = 0``), whose adjoint gives ``grad_A = sum_i y_i x_i^T`` with ``y_i`` from
    the bordered system ``[[A - e_i I, x_i], [x_i^T, 0]] [y_i; 0] = [-(I - x_i x_i^T) g_i; 0]``
    (nonsingular for a simple ``e_i``).  Once differentiable: a second derivative raises."""

    @staticmethod
    def forward(ctx: Any, A: Tensor, V: Tensor, E: Tensor) -> Tensor:
        ctx.a, ctx.v, ctx.e = A.detach(), V, E
        return V.view_as(V)

    @staticmethod
    def backward(ctx: Any, G: Tensor) -> tuple[Tensor, None, None]:
        if torch.is_grad_enabled():
            raise NotImplementedError("fgrad.torch.lobpcg: the second derivative through the eigenvectors is "
                                      "not implemented")
        a, v, e = ctx.a, ctx.v, ctx.e
        m, k = v.shape[-2], v.shape[-1]
        flat_a, flat_v = a.reshape(-1, m, m), v.reshape(-1, m, k)
        flat_g, flat_e = G.reshape(-1, m, k), e.reshape(-1, k)
        grads = []
        for A_, V_, G_, E_ in zip(flat_a, flat_v, flat_g, flat_e):
            grad = torch.zeros_like(A_)
            for i in range(k):
                x, g = V_[:, i], G_[:, i]
                K = torch.cat([torch.cat([A_ - E_[i] * torch.eye(m, dtype=A_.dtype, device=A_.device),
                                          x[:, None]], 1),
                               torch.cat([x[None, :], torch.zeros(1, 1, dtype=A_.dtype, device=A_.device)],
                                         1)])
                rhs = torch.cat([-(g - x * (x * g).sum()), torch.zeros(1, dtype=A_.dtype, device=A_.device)])
                y = torch.linalg.solve(K, rhs)[:m]
                grad = grad + y[:, None] * x[None, :]
            grads.append(grad)
        return torch.stack(grads).reshape(a.shape), None, None


def lobpcg(A: Tensor, k: int | None = None, B: Tensor | None = None, X: Tensor | None = None,
           n: int | None = None, iK: Tensor | None = None, niter: int | None = None, tol: float | None = None,
           largest: bool | None = None, method: str | None = None, tracker: None = None,
           ortho_iparams: dict[str, int] | None = None, ortho_fparams: dict[str, float] | None = None,
           ortho_bparams: dict[str, bool] | None = None) -> tuple[Tensor, Tensor]:
    """The ``k`` largest (``largest=False``: smallest) eigenvalues ``E`` and eigenvectors ``X``
    of ``A X = B X diag(E)`` for symmetric positive-definite ``A`` (dense or sparse) and ``B``,
    by LOBPCG (``method="ortho"`` by default, or ``"basic"``), preconditioned by ``iK``;
    ``niter`` iterations at most (1000), stopping when ``k`` pairs meet ``tol``.

    Example::

        >>> import fgrad.torch as torch
        >>> _ = torch.manual_seed(0)
        >>> E, X = torch.lobpcg(torch.diag(torch.arange(1.0, 10.0)), k=1, largest=False)
        >>> E
        tensor([1.0000])
    """
    if tracker is not None:
        raise NotImplementedError("fgrad.torch.lobpcg: tracker callbacks are not supported")
    needs_grad = torch.is_grad_enabled() and (A.requires_grad or (B is not None and B.requires_grad))
    if not needs_grad:
        with torch.no_grad():
            return _lobpcg(A, k, B, X, n, iK, niter, tol, largest, method, ortho_iparams, ortho_fparams,
                           ortho_bparams)
    A_sym = (A + A.mT) / 2  # PyTorch symmetrizes A and B before differentiating
    B_sym = (B + B.mT) / 2 if B is not None else None
    with torch.no_grad():
        _E, V = _lobpcg(A_sym.detach(), k, None if B_sym is None else B_sym.detach(), X, n, iK, niter, tol,
                        largest, method, ortho_iparams, ortho_fparams, ortho_bparams)
    num = (V * torch.matmul(A_sym, V)).sum(-2)
    E = num / (V * V).sum(-2) if B_sym is None else num / (V * torch.matmul(B_sym, V)).sum(-2)
    if B_sym is not None or A.is_sparse:  # PyTorch's backward refuses these
        message = ("lobpcg.backward does not support backward with B != I yet." if B_sym is not None
                   else "lobpcg.backward does not support sparse input yet.")
        (E,) = _no_derivative((E,), A if A.requires_grad else B, ValueError, message)
        (V,) = _no_derivative((V,), A if A.requires_grad else B, ValueError, message)
        return E, V
    return E, _Eigenvectors.apply(A_sym, V, E.detach())


FUNCTIONS: dict[str, Callable] = {"lobpcg": lobpcg}

