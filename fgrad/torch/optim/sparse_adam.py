"""`SparseAdam`: Adam for sparse gradients (``nn.Embedding(sparse=True)``): only the rows a
gradient touches update their moments and their parameters, with PyTorch's formulas::

    m[i] += (1 - beta1) * (g[i] - m[i]);  v[i] += (1 - beta2) * (g[i]**2 - v[i])
    p[i] -= lr * sqrt(1 - beta2**t) / (1 - beta1**t) * m[i] / (sqrt(v[i]) + eps)

for the indices ``i`` of the coalesced gradient ``g`` (``t`` counts the parameter's steps).
"""

from __future__ import annotations

import math

import fgrad.torch as torch

from .._tensor import Tensor
from .optimizer import Optimizer
from typing import Any
from collections.abc import Callable
from .optimizer import ParamsT

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    """``SparseAdam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False)``: dense
    parameters, sparse gradients.

    Example::

        >>> import fgrad.torch as torch
        >>> emb = torch.nn.Embedding(4, 2, sparse=True)
        >>> opt = torch.optim.SparseAdam(emb.parameters(), lr=0.1)
        >>> before = emb.weight.detach().clone()
        >>> emb(torch.tensor([2])).sum().backward(); opt.step()
        >>> (emb.weight.detach() != before).any(dim=1)
        tensor([False, False,  True, False])
    """

    _accepts_sparse_grads = True

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8,
                 maximize: bool = False) -> None:
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        sparse, complex_ = [], []
        for gi, group in enumerate(self.param_groups):
            for pi, p in enumerate(group["params"]):
                if p.is_sparse:
                    sparse.append([gi, pi])
                if p.is_complex():
                    complex_.append([gi, pi])
        if sparse:
            raise ValueError(f"Sparse params at indices {sparse}: SparseAdam requires dense parameter "
                             "tensors")
        if complex_:
            raise ValueError(f"Complex params at indices {complex_}: SparseAdam does not support complex "
                             "parameters")

    @torch.no_grad()
    def step(self, closure: Callable[[], Any] | None = None) -> Any:
        """One update of every parameter with a (sparse) gradient."""
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        for group in self.param_groups:
            beta1, beta2 = group["betas"]
            for p in group["params"]:
                if p.grad is None:
                    continue
                grad = p.grad
                if not grad.is_sparse:
                    raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam "
                                       "instead")
                state = self.state[p]
                if len(state) == 0:
                    state["step"] = 0
                    state["exp_avg"] = torch.zeros_like(p)
                    state["exp_avg_sq"] = torch.zeros_like(p)
                state["step"] += 1
                _sparse_adam_update(p, -grad if group["maximize"] else grad, state, group["lr"], beta1, beta2,
                                    group["eps"])
        return loss


def _sparse_adam_update(p: Tensor, grad, state: dict, lr: float, beta1: float, beta2: float,
                        eps: float) -> None:
    grad = grad.coalesce()
    if grad._nnz() == 0:
        return
    values = grad._values()
    index = tuple(torch.tensor(row, dtype=torch.int64, device=p.device) for row in grad._sp_ind)
    exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
    old_avg = exp_avg[index]
    avg_update = (values - old_avg) * (1 - beta1)
    exp_avg.index_put_(index, avg_update, accumulate=True)
    old_sq = exp_avg_sq[index]
    sq_update = (values.pow(2) - old_sq) * (1 - beta2)
    exp_avg_sq.index_put_(index, sq_update, accumulate=True)
    numer = avg_update + old_avg
    denom = (sq_update + old_sq).sqrt() + eps
    step = state["step"]
    step_size = lr * math.sqrt(1 - beta2**step) / (1 - beta1**step)
    p.index_put_(index, -step_size * (numer / denom), accumulate=True)
