"""`Adafactor` (Shazeer & Stern 2018, PyTorch's variant): factored second moments for
matrices, relative step sizes.

PyTorch's update (step ``t`` from 1; ``beta2_t = 1 - t ** beta2_decay``)::

    rho = min(lr, 1 / sqrt(t));  alpha = max(eps2, RMS(p)) * rho
    p *= 1 - lr * weight_decay                       (after alpha is read)
    matrices: R = lerp(R, mean_col(g^2), 1 - beta2_t); C = lerp(C, mean_row(g^2), 1 - beta2_t)
              v = R @ C / max(mean(R), eps1)
    vectors:  v = lerp(v, g^2, 1 - beta2_t)
    u = g / sqrt(max(v, eps1^2));  p -= alpha / max(1, RMS(u) / d) * u
"""

from __future__ import annotations

import fgrad.torch as torch

from .optimizer import Optimizer, ParamsT
from .._tensor import Tensor

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    """``Adafactor(params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0,
    weight_decay=0.0, *, foreach=None, maximize=False)``; state ``step`` and ``row_var``/
    ``col_var`` (matrices) or ``variance`` (vectors).

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adafactor([w], lr=0.1)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.8419, -1.8419], requires_grad=True)
    """

    _base_weight_decay = False

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-2, beta2_decay: float = -0.8,
                 eps: tuple[float | None, float] = (None, 1e-3), d: float = 1.0, weight_decay: float = 0.0, *,
                 foreach: bool | None = None, maximize: bool = False) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        defaults = dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay,
                        foreach=foreach,
                        maximize=maximize)
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict:
        if p.is_complex():
            raise RuntimeError("Adafactor does not support complex parameters")
        state = {"step": torch.tensor(0.0, dtype=torch.float32)}
        g = p.grad
        if g.dim() > 1:
            row_shape = list(g.shape)
            row_shape[-1] = 1
            col_shape = list(g.shape)
            col_shape[-2] = 1
            state["row_var"] = g.new_zeros(row_shape)
            state["col_var"] = g.new_zeros(col_shape)
        else:
            state["variance"] = torch.zeros_like(g)
        return state

    def _update_parameter(self, p, grad, state, group) -> None:
        lr = float(group["lr"])
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = torch.finfo(p.dtype).eps
        step = float(state["step"])
        one_minus_beta2_t = step ** group["beta2_decay"]
        rho_t = min(lr, 1 / (step ** 0.5))
        alpha = max(eps2, p.norm(2).item() / (p.numel() ** 0.5)) * rho_t
        if group["weight_decay"] != 0:
            p.mul_(1 - lr * group["weight_decay"])
        if grad.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(torch.norm(grad, dim=-1, keepdim=True).square_().div_(grad.size(-1)),
                          one_minus_beta2_t)
            col_var.lerp_(torch.norm(grad, dim=-2, keepdim=True).square_().div_(grad.size(-2)),
                          one_minus_beta2_t)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance = state["variance"]
            variance.lerp_(grad * grad, one_minus_beta2_t)
            var_estimate = variance.clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(grad)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        p.add_(update, alpha=-alpha / denom)
