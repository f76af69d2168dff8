"""PyTorch's refusal of losses that depend on the phases of complex eigen/singular vectors.

The eigenvectors of ``eig``/``eigh`` and the singular vectors of ``svd`` are defined up to a
phase ``e^{i phi}`` per vector (per pair ``u_j, v_j`` for ``svd``); a loss that changes with
that phase has no gradient. PyTorch checks this in backward (``imag(diag(V^H gV))`` must be
zero, within ``rtol = atol = 1e-2``) and raises ``RuntimeError``; fgrad's derivative rules
would return the gradient of one arbitrary gauge. `phase_checked` puts an identity node
after the vectors whose backward runs PyTorch's check on the concrete cotangent.
"""

from __future__ import annotations

import numpy as np

from ._tensor import Tensor
from .autograd.function import Function

_MSG = ("{op}_backward: The {what} in the complex case are specified up to multiplication by e^{{i phi}}. "
        "The specified loss function depends on this phase, so it is ill-defined.")


def _imag_diag(v: np.ndarray, g: np.ndarray) -> np.ndarray:
    """``imag(diag(v^H g))`` over the last two dims (columns are the vectors)."""
    return np.imag(np.einsum("...ij,...ij->...j", np.conj(v), g))


def _host(t) -> np.ndarray | None:
    return None if t is None else np.asarray(t.detach().resolve_conj().resolve_neg().cpu().numpy())


def _first_pass(ctx) -> bool:
    """Whether this is the node's first backward: the check applies to the loss's cotangent.
    A later pass through the same node (the second derivative through a ``create_graph``
    gradient) brings the cotangent of that gradient's formula, which PyTorch does not check."""
    first = not getattr(ctx, "phase_checked", False)
    ctx.phase_checked = True
    return first


class _EigenvectorPhase(Function):
    @staticmethod
    def forward(ctx, v, op):
        ctx.op = op
        ctx.save_for_backward(v)
        return v.view_as(v)

    @staticmethod
    def backward(ctx, g):
        (v,) = ctx.saved_tensors
        gh = _host(g)
        if _first_pass(ctx) and gh is not None and not np.allclose(_imag_diag(_host(v), gh), 0.0, rtol=1e-2,
                                                                    atol=1e-2):
            raise RuntimeError(_MSG.format(op=ctx.op, what="eigenvectors"))
        return g, None


class _SingularVectorPhase(Function):
    @staticmethod
    def forward(ctx, u, vh):
        ctx.save_for_backward(u, vh)
        return u.view_as(u), vh.view_as(vh)

    @staticmethod
    def backward(ctx, gu, gvh):
        u, vh = ctx.saved_tensors
        if not _first_pass(ctx):
            return gu, gvh
        k = min(u.shape[-1], vh.shape[-2])
        im_u = np.zeros(u.shape[:-2] + (k,))
        im_v = np.zeros_like(im_u)
        if gu is not None:
            im_u = _imag_diag(_host(u)[..., :k], _host(gu)[..., :k])
        if gvh is not None:  # V = Vh^H, gV = gVh^H: imag(diag(V^H gV)) from the rows of Vh
            im_v = -_imag_diag(np.swapaxes(_host(vh)[..., :k, :], -1, -2),
                               np.swapaxes(_host(gvh)[..., :k, :], -1, -2))
        if not np.allclose(im_u, -im_v, rtol=1e-2, atol=1e-2):  # PyTorch's svd_backward check
            raise RuntimeError(_MSG.format(op="svd", what="singular vectors"))
        return gu, gvh


def phase_checked(v: Tensor, op: str) -> Tensor:
    """``v`` (complex eigenvectors as columns, from ``linalg_eig``/``linalg_eigh``) whose
    backward raises PyTorch's ``RuntimeError`` when the loss depends on their phases.

    >>> import fgrad.torch as torch
    >>> v = torch.eye(2, dtype=torch.complex64, requires_grad=True)
    >>> _ = torch.autograd.grad(phase_checked(v, "linalg_eigh").abs().sum(), v)
    """
    if not (v.is_complex() and v.requires_grad):
        return v
    return _EigenvectorPhase.apply(v, op)


def phase_checked_svd(u: Tensor, vh: Tensor) -> tuple[Tensor, Tensor]:
    """``(U, Vh)`` of a complex ``svd`` whose backward raises PyTorch's ``RuntimeError`` when the
    loss depends on the phases of the singular vector pairs.

    >>> import fgrad.torch as torch
    >>> u = torch.eye(2, dtype=torch.complex64, requires_grad=True)
    >>> a, b = phase_checked_svd(u, u.mH)
    >>> _ = torch.autograd.grad((a @ b).real.sum(), u)
    """
    if not (u.is_complex() and (u.requires_grad or vh.requires_grad)):
        return u, vh
    return _SingularVectorPhase.apply(u, vh)
