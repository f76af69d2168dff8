"""`Adagrad` (weight decay already added to ``g``)::

    clr = lr / (1 + (t - 1) * lr_decay)
    s = s + g * g
    p = p - clr * g / (sqrt(s) + eps)

A sparse gradient (``nn.Embedding(sparse=True)``) updates only the rows it touches, as
PyTorch's: the coalesced gradient's squared values are added to ``s`` and ``p`` moves by the
values over ``sqrt(s) + eps`` at those entries; weight decay is refused with it.
"""

from __future__ import annotations

import fgrad.torch as torch

from ..sparse._ops import add_dense_sparse_
from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["Adagrad"]


class Adagrad(Optimizer):
    """``Adagrad(params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0,
    eps=1e-10, *, maximize=False)``.  Its state exists from construction, as in PyTorch.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adagrad([w], lr=0.1)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    _legacy_group_defaults = dict(foreach=None, maximize=False, differentiable=False, fused=None)
    _accepts_sparse_grads = True
    _sparse_weight_decay_error = "weight_decay option is not compatible with sparse gradients"

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, lr_decay: float = 0,
                 weight_decay: float = 0, initial_accumulator_value: float = 0, eps: float = 1e-10,
                 foreach: bool | None = None, *, maximize: bool = False, differentiable: bool = False,
                 fused: bool | None = None) -> None:
        _check_non_negative(lr=lr, lr_decay=lr_decay, weight_decay=weight_decay,
                            initial_accumulator_value=initial_accumulator_value, eps=eps)
        defaults = dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                        initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                        maximize=maximize, differentiable=differentiable, fused=fused)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                self.state[p] = self._init_state(p, group)

    def _init_state(self, p, group) -> dict:
        return {"step": torch.tensor(0.0, dtype=torch.float32),
                "sum": torch.full_like(p, group["initial_accumulator_value"])}

    def _update_parameter(self, p, grad, state, group) -> None:
        clr = group["lr"] / (1 + (float(state["step"]) - 1) * group["lr_decay"])
        state_sum = state["sum"]
        if grad.is_sparse:
            _sparse_adagrad_update(p, grad, state_sum, clr, group["eps"])
            return
        state_sum.addcmul_(grad, grad, value=1)
        std = state_sum.sqrt().add_(group["eps"])
        p.addcdiv_(grad, std, value=-clr)


def _sparse_adagrad_update(p: Tensor, grad, state_sum: Tensor, clr: float, eps: float) -> None:
    """PyTorch's sparse branch: ``s += g**2`` and ``p -= clr * g / (sqrt(s) + eps)`` at the
    coalesced gradient's entries only (the update is not linear: repeated indices are summed
    first)."""
    grad = grad.coalesce()
    indices, values = grad._indices(), grad._values()
    add_dense_sparse_(state_sum, torch.sparse_coo_tensor(indices, values.pow(2), grad.shape))
    std_values = state_sum[tuple(indices)].sqrt().add_(eps)
    add_dense_sparse_(p, torch.sparse_coo_tensor(indices, values / std_values, grad.shape), -clr)
