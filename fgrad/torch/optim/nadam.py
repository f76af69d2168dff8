"""`NAdam`: Adam with Nesterov momentum (Dozat 2016), PyTorch's momentum-decay schedule.

PyTorch's update (step ``t`` from 1, weight decay already applied)::

    mu_t = beta1 * (1 - 0.5 * 0.96 ** (t * momentum_decay)),  prod_t = mu_1 ... mu_t
    m = lerp(m, g, 1 - beta1);  v = beta2 * v + (1 - beta2) * g * g
    denom = sqrt(v / (1 - beta2**t)) + eps
    p = p - lr * (1 - mu_t) / (1 - prod_t) * g / denom
          - lr * mu_{t+1} / (1 - prod_t * mu_{t+1}) * m / denom
"""

from __future__ import annotations

import fgrad.torch as torch

from .adamax import _check_betas
from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["NAdam"]


class NAdam(Optimizer):
    """``NAdam(params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
    momentum_decay=4e-3, decoupled_weight_decay=False, *, maximize=False)``; state ``step``,
    ``mu_product``, ``exp_avg``, ``exp_avg_sq``.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.NAdam([w], lr=0.1)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.8944, -1.8944], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 2e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 momentum_decay: float = 4e-3, decoupled_weight_decay: bool = False, *,
                 foreach: bool | None = None, maximize: bool = False, capturable: bool = False,
                 differentiable: bool = False) -> None:
        _check_non_negative(lr=lr, eps=eps)
        _check_betas(betas)
        _check_non_negative(weight_decay=weight_decay, momentum_decay=momentum_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, momentum_decay=momentum_decay,
                        decoupled_weight_decay=decoupled_weight_decay, maximize=maximize, foreach=foreach,
                        capturable=capturable, differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict:
        return {"step": torch.tensor(0.0, dtype=torch.float32),
                "mu_product": torch.tensor(1.0, dtype=torch.float32), "exp_avg": torch.zeros_like(p),
                "exp_avg_sq": torch.zeros_like(p)}

    def _update_parameter(self, p, grad, state, group) -> None:
        beta1, beta2 = group["betas"]
        lr, decay = group["lr"], group["momentum_decay"]
        step = float(state["step"])
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        state["mu_product"].mul_(mu)  # a float32 product, as PyTorch keeps it
        mu_product = float(state["mu_product"])
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        exp_avg.lerp_(grad, 1 - beta1)
        exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)
        denom = exp_avg_sq.div(1 - beta2 ** step).sqrt().add_(group["eps"])
        p.addcdiv_(grad, denom, value=-lr * (1.0 - mu) / (1.0 - mu_product))
        p.addcdiv_(exp_avg, denom, value=-lr * mu_next / (1.0 - mu_product * mu_next))
