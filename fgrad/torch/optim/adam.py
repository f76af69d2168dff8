"""`Adam` and `AdamW`.

PyTorch's update (step ``t`` from 1)::

    g = g + weight_decay * p            (Adam)   |   p = p * (1 - lr * weight_decay)   (AdamW)
                                        (both done by `Optimizer.step`)
    m = lerp(m, g, 1 - beta1)
    v = beta2 * v + (1 - beta2) * g * g
    vmax = max(vmax, v)                 (amsgrad; used instead of v below)
    p = p - lr / (1 - beta1**t) * m / (sqrt(v) / sqrt(1 - beta2**t) + eps)
"""

from __future__ import annotations

import numpy as np

import fgrad.torch as torch

from .._dispatch import bump_version
from .. import _fma
from .optimizer import Optimizer, _check_non_negative
from .optimizer import ParamsT
from .._tensor import Tensor

__all__ = ["Adam", "AdamW"]


class Adam(Optimizer):
    """``Adam(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
    maximize=False, decoupled_weight_decay=False)``.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, -2.0], requires_grad=True)
        >>> opt = torch.optim.Adam([w], lr=0.1)
        >>> (w ** 2).sum().backward(); opt.step(); w
        tensor([ 0.9000, -1.9000], requires_grad=True)
    """

    _legacy_group_defaults = dict(amsgrad=False, maximize=False, foreach=None, capturable=False,
                                  differentiable=False, decoupled_weight_decay=False, fused=None)

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 0,
                 amsgrad: bool = False, *, foreach: bool | None = None, maximize: bool = False,
                 capturable: bool = False, differentiable: bool = False, fused: bool | None = None,
                 decoupled_weight_decay: bool = False) -> None:
        _check_non_negative(lr=lr, eps=eps)
        for i, beta in enumerate(betas):
            if not 0.0 <= beta < 1.0:
                raise ValueError(f"Invalid beta parameter at index {i}: {beta}")
        _check_non_negative(weight_decay=weight_decay)
        defaults = dict(lr=lr, betas=betas, eps=eps, weight_decay=weight_decay, amsgrad=amsgrad,
                        maximize=maximize, foreach=foreach, capturable=capturable,
                        differentiable=differentiable, fused=fused,
                        decoupled_weight_decay=decoupled_weight_decay)
        super().__init__(params, defaults)

    def _init_state(self, p, group) -> dict:
        state = {"step": torch.tensor(0.0, dtype=torch.float32), "exp_avg": torch.zeros_like(p),
                 "exp_avg_sq": torch.zeros_like(p)}
        if group["amsgrad"]:
            state["max_exp_avg_sq"] = torch.zeros_like(p)
        return state

    def _update_parameter(self, p, grad, state, group) -> None:
        beta1, beta2 = group["betas"]
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        # PyTorch: exp_avg.lerp_(grad, 1 - beta1), exp_avg_sq.mul_(beta2).addcmul_(grad, grad,
        # value=1 - beta2), fused; unfused here, as the fast step (`_update_plain`)
        exp_avg.add_((grad - exp_avg) * (1 - beta1))
        exp_avg_sq.mul_(beta2).add_(grad * grad * (1 - beta2))
        step = float(state["step"])
        step_size = group["lr"] / (1 - beta1 ** step)
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            max_exp_avg_sq = state["max_exp_avg_sq"]
            torch.maximum(max_exp_avg_sq, exp_avg_sq, out=max_exp_avg_sq)
            exp_avg_sq = max_exp_avg_sq
        denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(group["eps"])
        p.addcdiv_(exp_avg, denom, value=-step_size)


    def _plain_options(self, group: dict) -> bool:
        return (not group.get("capturable", False) and not group.get("fused")
                and all(type(v) in (int, float) for v in (*group["betas"], group["eps"])))

    def _update_plain(self, p, b, g, state, group) -> None:
        """`_update_parameter` on the buffers: the same NumPy operations as the shim's in-place
        ops it calls (``lerp_``, ``mul_``, ``addcmul_``, ``sqrt``, ``/``, ``add_``, ``addcdiv_``)."""
        beta1, beta2 = group["betas"]
        exp_avg, exp_avg_sq = state["exp_avg"], state["exp_avg_sq"]
        m, v = exp_avg._buf, exp_avg_sq._buf
        dt = m.dtype
        # exp_avg.lerp_(grad, 1 - beta1) and exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 -
        # beta2), unfused: PyTorch fuses them (`fgrad.torch._fma`), but the exact fused forms cost
        # NumPy five float64 passes each (the step several times over); an ulp may differ
        t = np.subtract(g, m, out=np.empty(m.shape, m.dtype))
        t *= 1 - beta1
        np.add(t, m, out=m)
        np.multiply(v, beta2, out=v)
        np.multiply(g, g, out=t)
        t *= 1 - beta2
        np.add(t, v, out=v)
        bump_version(exp_avg)
        bump_version(exp_avg_sq)
        bump_version(exp_avg_sq)
        step = float(state["step"])
        step_size = group["lr"] / (1 - beta1 ** step)
        bias_correction2_sqrt = (1 - beta2 ** step) ** 0.5
        if group["amsgrad"]:
            vmax = state["max_exp_avg_sq"]
            np.maximum(vmax._buf, v, out=vmax._buf)
            bump_version(vmax)
            v = vmax._buf
        # denom = (exp_avg_sq.sqrt() / bias_correction2_sqrt).add_(eps)
        t = np.sqrt(v, out=np.empty(v.shape, v.dtype))
        np.divide(t, bias_correction2_sqrt, out=t)
        np.add(t, group["eps"], out=t)
        np.copyto(b, _fma.addcdiv(b, m, t, -step_size, dt))  # p.addcdiv_(exp_avg, denom, value=-step_size)
        bump_version(p)


class AdamW(Adam):
    """``AdamW(params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
    amsgrad=False, *, maximize=False)``: Adam with decoupled weight decay.

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.nn.Parameter(torch.tensor([1.0, -1.0]))
        >>> opt = torch.optim.AdamW([w], lr=0.1, weight_decay=0.01)
        >>> (w ** 2).sum().backward()
        >>> opt.step()
        >>> w.data
        tensor([ 0.8990, -0.8990])
    """

    def __init__(self, params: ParamsT, lr: float | Tensor = 1e-3,
                 betas: tuple[float, float] = (0.9, 0.999), eps: float = 1e-8, weight_decay: float = 1e-2,
                 amsgrad: bool = False, *, maximize: bool = False, foreach: bool | None = None,
                 capturable: bool = False, differentiable: bool = False, fused: bool | None = None) -> None:
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def __setstate__(self, state) -> None:
        super().__setstate__(state)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
