"""`Adamax`: Adam with the infinity norm (Kingma & Ba 2015, section 7).

PyTorch's update (step ``t`` from 1, weight decay already added to ``g``)::

    m = lerp(m, g, 1 - beta1)
    u = max(beta2 * u, |g| + eps)
    p = p - lr / (1 - beta1**t) * m / u
"""

from __future__ import annotations

import fgrad.torch as torch

from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["Adamax"]


def _check_betas(betas) -> None:
    for i, beta in enumerate(betas):
        if not 0.0 <= beta < 1.0:
            raise ValueError(f"Invalid beta parameter at index {i}: {beta}")


class Adamax(Optimizer):
    """``Adamax(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    foreach=None, *, maximize=False)``; state ``step``, ``exp_avg``, ``exp_inf``.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adamax([w], lr=0.1)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 foreach: bool | None = None, *, maximize: bool = False, differentiable: bool = False,
                 capturable: bool = False) -> None:
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict:
        return {"step": torch.tensor(0.0, dtype=torch.float32), "exp_avg": torch.zeros_like(p),
                "exp_inf": torch.zeros_like(p)}

    def _update_parameter(self, p, grad, state, group) -> None:
        beta1, beta2 = group["betas"]
        exp_avg, exp_inf = state["exp_avg"], state["exp_inf"]
        exp_avg.lerp_(grad, 1 - beta1)
        torch.maximum(exp_inf.mul_(beta2), grad.abs().add_(group["eps"]), out=exp_inf)
        step = float(state["step"])
        p.addcdiv_(exp_avg, exp_inf, value=-group["lr"] / (1 - beta1 ** step))
