"""`ASGD`: averaged stochastic gradient descent (Polyak & Juditsky 1992).

PyTorch's update (step ``t`` from 1, weight decay already added to ``g``)::

    p = p * (1 - lambd * eta) - eta * g
    ax = p                     (while mu == 1)      |   ax = ax + mu * (p - ax)
    eta = lr / (1 + lambd * lr * t) ** alpha;   mu = 1 / max(1, t - t0)
"""

from __future__ import annotations

import fgrad.torch as torch

from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["ASGD"]


class ASGD(Optimizer):
    """``ASGD(params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0,
    foreach=None, maximize=False)``; state ``step``, ``eta``, ``mu``, ``ax`` (the average).

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.ASGD([w], lr=0.1)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.8000, -1.6000], requires_grad=True)
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, lambd: float = 1e-4,
                 alpha: float = 0.75, t0: float = 1e6, weight_decay: float = 0, foreach: bool | None = None,
                 maximize: bool = False, differentiable: bool = False, capturable: bool = False) -> None:
        _check_non_negative(lr=lr, weight_decay=weight_decay)
        defaults = dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, capturable=capturable)
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict:
        return {"step": torch.tensor(0.0, dtype=torch.float32),
                "eta": torch.tensor(float(group["lr"]), dtype=torch.float32),
                "mu": torch.tensor(1.0, dtype=torch.float32), "ax": torch.zeros_like(p)}

    def _update_parameter(self, p, grad, state, group) -> None:
        lr, lambd, alpha, t0 = group["lr"], group["lambd"], group["alpha"], group["t0"]
        eta = float(state["eta"])
        p.mul_(1 - lambd * eta)
        p.add_(grad, alpha=-eta)
        ax, mu = state["ax"], state["mu"]
        if float(mu) != 1:
            ax.add_(p.sub(ax).mul_(mu))
        else:
            ax.copy_(p)
        step = float(state["step"])
        state["eta"].fill_(lr / ((1 + lambd * lr * step) ** alpha))
        state["mu"].fill_(1 / max(1, step - t0))
