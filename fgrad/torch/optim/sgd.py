"""`SGD`: stochastic gradient descent with momentum, dampening, Nesterov and weight decay.

PyTorch's update, for each parameter ``p`` with gradient ``g`` (weight decay already added)::

    b = g                                  (first step)
    b = momentum * b + (1 - dampening) * g (later steps)
    g = g + momentum * b  (nesterov)   or   g = b
    p = p - lr * g
"""

from __future__ import annotations

import numpy as np

from .._dispatch import bump_version, result_tensor
from ..sparse._ops import add_dense_sparse_
from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["SGD"]


class SGD(Optimizer):
    """``SGD(params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
    maximize=False)``.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.SGD([w], lr=0.1, momentum=0.9)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.8000, -1.6000], requires_grad=True)
    """

    _accepts_sparse_grads = True
    _legacy_group_defaults = dict(nesterov=False, maximize=False, foreach=None, differentiable=False,
                                  fused=False)

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3, momentum: float = 0,
                 dampening: float = 0, weight_decay: float = 0, nesterov: bool = False, *,
                 maximize: bool = False, foreach: bool | None = None, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        _check_non_negative(lr=lr, momentum=momentum, weight_decay=weight_decay, reject_nan=False)
        defaults = dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                        nesterov=nesterov, maximize=maximize, foreach=foreach, differentiable=differentiable,
                        fused=fused)
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, defaults)

    def _update_parameter(self, p, grad, state, group) -> None:
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = grad.clone().detach()
                state["momentum_buffer"] = buf
            else:
                # PyTorch: add_(grad, alpha=1 - dampening), fused; unfused here, as the fast step
                damp = 1 - group["dampening"]
                buf.mul_(momentum).add_(grad * damp if damp != 1 else grad)
            grad = grad + buf * momentum if group["nesterov"] else buf
        if grad.is_sparse:  # each entry added in turn, as PyTorch's dense += sparse
            add_dense_sparse_(p, grad, -group["lr"])
        else:
            p.add_(grad * -group["lr"])  # PyTorch: add_(grad, alpha=-lr), fused

    def _plain_options(self, group: dict) -> bool:
        return all(type(group[k]) in (int, float) for k in ("momentum", "dampening"))

    def _update_plain(self, p, b, g, state, group) -> None:
        """`_update_parameter` on the buffers: the same NumPy operations as the shim's
        ``clone``, ``mul_``, ``add`` and ``add_(..., alpha=)``, unfused (``other * alpha``, then the
        sum): PyTorch's kernels fuse ``add`` with ``alpha`` (`fgrad.torch._fma`), but the exact
        fused form costs NumPy five passes in float64 -- a third of an MLP step -- so the fast
        step keeps the plain one (its parameters may end an ulp from PyTorch's)."""
        momentum = group["momentum"]
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                state["momentum_buffer"] = result_tensor(g.copy())  # grad.clone().detach()
                mb = state["momentum_buffer"]._buf
            else:
                mb = buf._buf
                np.multiply(mb, momentum, out=mb)
                alpha = 1 - group["dampening"]
                np.add(mb, g * alpha if alpha != 1 else g, out=mb)
                bump_version(buf)  # (twice: mul_ and add_)
                bump_version(buf)
            # Nesterov: grad.add(buf, alpha=momentum), a new array (the gradient is not written)
            g = g + mb * momentum if group["nesterov"] else mb
        alpha = -group["lr"]
        np.add(b, g * alpha if alpha != 1 else g, out=b)
        bump_version(p)
