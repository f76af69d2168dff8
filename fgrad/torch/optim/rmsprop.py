"""`RMSprop` (PyTorch's form: ``eps`` added outside the square root; weight decay already
added to ``g``)::

    v = alpha * v + (1 - alpha) * g * g
    a = sqrt(v - gavg**2) + eps   with gavg = lerp(gavg, g, 1 - alpha)   (centered)
    a = sqrt(v) + eps                                                     (otherwise)
    buf = momentum * buf + g / a; p = p - lr * buf    (momentum > 0)
    p = p - lr * g / a                                 (otherwise)
"""

from __future__ import annotations

import fgrad.torch as torch

from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["RMSprop"]


class RMSprop(Optimizer):
    """``RMSprop(params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0,
    centered=False, *, maximize=False)``.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.RMSprop([w], lr=0.01, alpha=0.0)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.9900, -1.9900], requires_grad=True)
    """

    _legacy_group_defaults = dict(momentum=0, centered=False, foreach=None, maximize=False,
                                  differentiable=False, capturable=False)

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, alpha: float = 0.99,
                 eps: float = 1e-8, weight_decay: float = 0, momentum: float = 0, centered: bool = False,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_non_negative(lr=lr, eps=eps, momentum=momentum, weight_decay=weight_decay, alpha=alpha)
        defaults = dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                        weight_decay=weight_decay, capturable=capturable, foreach=foreach, maximize=maximize,
                        differentiable=differentiable)
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict:
        state = {"step": torch.tensor(0.0, dtype=torch.float32), "square_avg": torch.zeros_like(p)}
        if group["momentum"] > 0:
            state["momentum_buffer"] = torch.zeros_like(p)
        if group["centered"]:
            state["grad_avg"] = torch.zeros_like(p)
        return state

    def _update_parameter(self, p, grad, state, group) -> None:
        alpha = group["alpha"]
        square_avg = state["square_avg"]
        square_avg.mul_(alpha).addcmul_(grad, grad, value=1 - alpha)
        if group["centered"]:
            grad_avg = state["grad_avg"]
            grad_avg.lerp_(grad, 1 - alpha)
            avg = square_avg.addcmul(grad_avg, grad_avg, value=-1).sqrt_()
        else:
            avg = square_avg.sqrt()
        avg = avg.add_(group["eps"])
        if group["momentum"] > 0:
            buf = state["momentum_buffer"]
            buf.mul_(group["momentum"]).addcdiv_(grad, avg)
            p.add_(buf, alpha=-group["lr"])
        else:
            p.addcdiv_(grad, avg, value=-group["lr"])
