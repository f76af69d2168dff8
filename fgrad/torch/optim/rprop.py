"""`Rprop`: resilient backpropagation (Riedmiller & Braun 1993), sign-based steps.

PyTorch's update::

    s = sign(g * g_prev): step_size *= etaplus (s > 0), etaminus (s < 0), 1 (s == 0),
                          clamped to step_sizes
    where s < 0: g = 0 (the step is skipped and the sign forgotten)
    p = p - sign(g) * step_size;  g_prev = g
"""

from __future__ import annotations

import fgrad.torch as torch

from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["Rprop"]


class Rprop(Optimizer):
    """``Rprop(params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, maximize=False)``;
    state ``step``, ``prev``, ``step_size``.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Rprop([w], lr=0.1)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2,
                 etas: tuple[float, float] = (0.5, 1.2), step_sizes: tuple[float, float] = (1e-6, 50), *,
                 capturable: bool = False, foreach: bool | None = None, maximize: bool = False,
                 differentiable: bool = False) -> None:
        _check_non_negative(lr=lr)
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        defaults = dict(lr=lr, etas=etas, step_sizes=step_sizes, foreach=foreach, maximize=maximize,
                        differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict:
        lr = float(group["lr"])  # a complex parameter's imaginary part is a second real one: lr too
        return {"step": torch.tensor(0.0, dtype=torch.float32), "prev": torch.zeros_like(p),
                "step_size": torch.full_like(p, complex(lr, lr) if p.is_complex() else lr)}

    def _update_parameter(self, p, grad, state, group) -> None:
        etaminus, etaplus = group["etas"]
        step_size_min, step_size_max = group["step_sizes"]
        prev, step_size = state["prev"], state["step_size"]
        sign = grad.mul(prev).sign()
        factor = torch.ones_like(p).masked_fill_(sign > 0, etaplus).masked_fill_(sign < 0, etaminus)
        step_size.mul_(factor).clamp_(step_size_min, step_size_max)
        grad = grad.masked_fill(sign < 0, 0.0)
        p.addcmul_(grad.sign(), step_size, value=-1)
        prev.copy_(grad)
