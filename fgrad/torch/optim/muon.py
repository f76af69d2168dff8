"""`Muon` (MomentUm Orthogonalized by Newton-Schulz; Jordan et al. 2024, PyTorch's variant)
for 2-D parameters.

PyTorch's update::

    buf = lerp(buf, g, 1 - momentum);  u = lerp(g, buf, momentum) if nesterov else buf
    u = NewtonSchulz5(u)   (in bfloat16: X /= max(||X||, eps); X <- a X + (b A + c A^2) X, A = X X^T)
    p *= 1 - lr * weight_decay;  p -= lr * ratio * u   (ratio: sqrt(max(1, rows/cols)), or
                                                          0.2 sqrt(max(rows, cols)) for "match_rms_adamw")

The iteration runs in bfloat16 as PyTorch's does (the shim computes each bfloat16 op in float32
and rounds once, as PyTorch's CPU kernels), so the orthogonalized update has PyTorch's bits.
"""

from __future__ import annotations

import math

import fgrad.torch as torch

from .optimizer import Optimizer, ParamsT
from .._tensor import Tensor

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A, DEFAULT_B, DEFAULT_C = 3.4445, -4.7750, 2.0315
DEFAULT_NS_STEPS = 5


def _zeropower_via_newtonschulz(grad: Tensor, ns_coefficients: tuple[float, float, float], ns_steps: int,
                                eps: float) -> Tensor:
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if len(grad.shape) != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    ortho_grad = grad.bfloat16()
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    ortho_grad.div_(ortho_grad.norm().clamp(min=eps))
    for _ in range(ns_steps):
        gram_matrix = ortho_grad @ ortho_grad.T
        gram_update = torch.addmm(gram_matrix, gram_matrix, gram_matrix, beta=b, alpha=c)
        ortho_grad = torch.addmm(ortho_grad, gram_update, ortho_grad, beta=a)
    if grad.size(0) > grad.size(1):
        ortho_grad = ortho_grad.T
    return ortho_grad


def _adjust_lr(lr: float, adjust_lr_fn: str | None, param_shape) -> float:
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        ratio = math.sqrt(max(1, rows / cols))
    elif adjust_lr_fn == "match_rms_adamw":
        ratio = 0.2 * math.sqrt(max(rows, cols))
    else:
        ratio = 1.0
    return lr * ratio


class Muon(Optimizer):
    """``Muon(params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
    ns_coefficients=(3.4445, -4.775, 2.0315), eps=1e-7, ns_steps=5, adjust_lr_fn=None)``;
    state ``momentum_buffer``.  Only 2-D parameters.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([[1.0, 0.0], [0.0, 2.0]], requires_grad=True)
        >>> opt = torch.optim.Muon([w], lr=0.1, weight_decay=0.0)
        >>> (w ** 2).sum().backward(); opt.step(); w.shape
        torch.Size([2, 2])
    """

    _base_weight_decay = False

    def __init__(self, params: ParamsT, lr: float = 1e-3, weight_decay: float = 0.1, momentum: float = 0.95,
                 nesterov: bool = True, ns_coefficients: tuple[float, float, float] = (DEFAULT_A, DEFAULT_B,
                                                                                       DEFAULT_C),
                 eps: float = EPS, ns_steps: int = DEFAULT_NS_STEPS, adjust_lr_fn: str | None = None) -> None:
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ["original", "match_rms_adamw"]:
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        defaults = dict(lr=lr, weight_decay=weight_decay, momentum=momentum, nesterov=nesterov,
                        ns_coefficients=ns_coefficients, eps=eps, ns_steps=ns_steps,
                        adjust_lr_fn=adjust_lr_fn,
                        maximize=False)
        super().__init__(params, defaults)
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a parameter with "
                                     f"size: "
                                     f"{p.size()}")

    def _init_state(self, p, group) -> dict:
        if p.is_complex():
            raise RuntimeError("Muon does not support complex parameters")
        return {"momentum_buffer": torch.zeros_like(p.grad)}

    def _update_parameter(self, p, grad, state, group) -> None:
        buf = state["momentum_buffer"]
        momentum = group["momentum"]
        buf.lerp_(grad, 1 - momentum)
        update = grad.lerp(buf, momentum) if group["nesterov"] else buf
        update = _zeropower_via_newtonschulz(update, group["ns_coefficients"], group["ns_steps"],
                                             group["eps"])
        lr = float(group["lr"])
        p.mul_(1 - lr * group["weight_decay"])
        p.add_(update, alpha=-_adjust_lr(lr, group["adjust_lr_fn"], p.shape))
