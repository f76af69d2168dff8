"""Stochastic weight averaging and EMA (PyTorch's ``torch.optim.swa_utils``):
`AveragedModel`, `SWALR`, `update_bn` and the averaging functions.

Written on the shim's Tensor ops as PyTorch's module is (the ``_foreach_lerp_`` of the
multi-tensor functions is a ``lerp_`` per tensor, the same formula), so averaged weights and
learning rates print PyTorch's numbers.

Example::

    >>> import fgrad.torch as torch
    >>> model = torch.nn.Linear(2, 1)
    >>> swa = AveragedModel(model)
    >>> swa.update_parameters(model)
    >>> int(swa.n_averaged)
    1
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

import fgrad.torch as torch
from .._tensor import Tensor
from ..nn.modules.batchnorm import _BatchNorm
from ..nn.modules.module import Module
from .lr_scheduler import LRScheduler, _per_group
from .optimizer import Optimizer

__all__ = ["AveragedModel", "update_bn", "SWALR", "get_ema_multi_avg_fn", "get_swa_multi_avg_fn",
           "get_ema_avg_fn",
           "get_swa_avg_fn"]


def _is_inexact(t: Tensor) -> bool:
    return t.is_floating_point() or t.is_complex()


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[..., None]:
    """An in-place EMA update over lists of tensors: ``ema <- lerp(ema, current, 1 - decay)``.

    Example::

        >>> import fgrad.torch as torch
        >>> ema, cur = [torch.zeros(2)], [torch.ones(2)]
        >>> get_ema_multi_avg_fn(0.5)(ema, cur, 1)
        >>> ema[0]
        tensor([0.5000, 0.5000])
    """
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")

    def ema_update(ema_param_list, current_param_list, _) -> None:
        with torch.no_grad():
            if _is_inexact(ema_param_list[0]):
                for p_ema, p_model in zip(ema_param_list, current_param_list):
                    p_ema.lerp_(p_model, 1 - decay)
            else:
                for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[..., None]:
    """An in-place running mean over lists of tensors: ``avg <- lerp(avg, current, 1 / (n + 1))``.

    Example::

        >>> import fgrad.torch as torch
        >>> avg, cur = [torch.zeros(2)], [torch.ones(2)]
        >>> get_swa_multi_avg_fn()(avg, cur, 1)
        >>> avg[0]
        tensor([0.5000, 0.5000])
    """

    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        with torch.no_grad():
            if _is_inexact(averaged_param_list[0]):
                w = 1 / (num_averaged + 1)
                w = w.item() if isinstance(w, Tensor) else w
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    p_avg.lerp_(p_model, w)
            else:
                for p_avg, p_model in zip(averaged_param_list, current_param_list):
                    diff = p_model - p_avg
                    if isinstance(num_averaged, Tensor):
                        p_avg.addcdiv_(diff, num_averaged + 1)
                    else:
                        p_avg.add_(diff, alpha=1.0 / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[..., Tensor]:
    """The EMA of one tensor: ``decay * ema + (1 - decay) * current``.

    Example::

        >>> import fgrad.torch as torch
        >>> get_ema_avg_fn(0.5)(torch.zeros(1), torch.ones(1), 1)
        tensor([0.5000])
    """
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")

    def ema_update(ema_param: Tensor, current_param: Tensor, num_averaged) -> Tensor:
        with torch.no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[..., Tensor]:
    """The running mean of one tensor: ``avg + (current - avg) / (n + 1)``.

    Example::

        >>> import fgrad.torch as torch
        >>> get_swa_avg_fn()(torch.zeros(1), torch.ones(1), 1)
        tensor([0.5000])
    """

    def swa_update(averaged_param: Tensor, current_param: Tensor, num_averaged) -> Tensor:
        with torch.no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters (and, with ``use_buffers``, buffers) are the
    running average (SWA, default) or any ``avg_fn``/``multi_avg_fn`` of the model's.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(1, 1, bias=False)
        >>> swa = torch.optim.swa_utils.AveragedModel(m)
        >>> for v in (1.0, 3.0):
        ...     _ = torch.nn.init.constant_(m.weight, v)
        ...     swa.update_parameters(m)
        >>> swa.module.weight.data, swa.n_averaged
        (tensor([[2.]]), tensor(2))
    """

    def __init__(self, model: Module, device: int | torch.device | None = None,
                 avg_fn: Callable[..., Tensor] | None = None,
                 multi_avg_fn: Callable[..., None] | None = None, use_buffers: bool = False) -> None:
        super().__init__()
        if avg_fn is not None and multi_avg_fn is not None:
            raise AssertionError("Only one of avg_fn and multi_avg_fn should be provided")
        self.module = deepcopy(model)
        if device is not None:
            self.module = self.module.to(device)
        self.register_buffer("n_averaged", torch.tensor(0, dtype=torch.long, device=device))
        self.avg_fn = avg_fn
        self.multi_avg_fn = multi_avg_fn
        self.use_buffers = use_buffers

    def forward(self, *args: Any, **kwargs: Any) -> Any:
        return self.module(*args, **kwargs)

    def update_parameters(self, model: Module) -> None:
        """Fold ``model``'s current parameters into the average.

        Example::

            >>> import fgrad.torch as torch
            >>> m = torch.nn.Linear(1, 1)
            >>> avg = AveragedModel(m)
            >>> avg.update_parameters(m)
            >>> bool(torch.equal(avg.module.weight, m.weight))
            True
        """
        self_param = (itertools.chain(self.module.parameters(), self.module.buffers()) if self.use_buffers
                      else self.parameters())
        model_param = (itertools.chain(model.parameters(), model.buffers()) if self.use_buffers
                       else model.parameters())
        self_detached, model_detached = [], []
        copy_param = bool(self.n_averaged == 0)
        for p_averaged, p_model in zip(self_param, model_param):
            p_model_ = p_model.detach().to(p_averaged.device)
            self_detached.append(p_averaged.detach())
            model_detached.append(p_model_)
            if copy_param:
                p_averaged.detach().copy_(p_model_)
        if self.n_averaged > 0:
            if self.multi_avg_fn is not None or self.avg_fn is None:
                groups: dict = {}
                for a, b in zip(self_detached, model_detached):
                    groups.setdefault((str(a.device), a.dtype), ([], []))
                    groups[(str(a.device), a.dtype)][0].append(a)
                    groups[(str(a.device), a.dtype)][1].append(b)
                for (device, _), (self_params, model_params) in groups.items():
                    fn = self.multi_avg_fn if self.multi_avg_fn else get_swa_multi_avg_fn()
                    fn(self_params, model_params, self.n_averaged.to(device))
            else:
                for p_averaged, p_model in zip(self_detached, model_detached):
                    n_averaged = self.n_averaged.to(p_averaged.device)
                    p_averaged.detach().copy_(self.avg_fn(p_averaged.detach(), p_model, n_averaged))
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1


def update_bn(loader: Iterable[Any], model: Module, device: int | torch.device | None = None) -> None:
    """Recompute the batch-norm running statistics of ``model`` with one pass over ``loader``
    (cumulative averages: ``momentum=None`` during the pass).

    Example::

        >>> import fgrad.torch as torch
        >>> model = torch.nn.Sequential(torch.nn.BatchNorm1d(1))
        >>> update_bn([torch.tensor([[1.0], [3.0]])], model)
        >>> model[0].running_mean
        tensor([2.])
    """
    with torch.no_grad():
        momenta = {}
        for module in model.modules():
            if isinstance(module, _BatchNorm):
                module.reset_running_stats()
                momenta[module] = module.momentum
        if not momenta:
            return
        was_training = model.training
        model.train()
        for module in momenta:
            module.momentum = None
        for input in loader:
            if isinstance(input, (list, tuple)):
                input = input[0]
            if device is not None:
                input = input.to(device)
            model(input)
        for bn_module in momenta:
            bn_module.momentum = momenta[bn_module]
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's learning rate to ``swa_lr`` over ``anneal_epochs`` (cosine or
    linear), then hold it.

    Example::

        >>> import fgrad.torch as torch
        >>> opt = torch.optim.SGD([torch.zeros(1, requires_grad=True)], lr=1.0)
        >>> sched = SWALR(opt, swa_lr=0.1, anneal_epochs=2, anneal_strategy="linear")
        >>> opt.step(); sched.step(); sched.get_last_lr()
        [0.55]
    """

    def __init__(self, optimizer: Optimizer, swa_lr: float | list[float], anneal_epochs: int = 10,
                 anneal_strategy: str = "cos", last_epoch: int = -1) -> None:
        swa_lrs = _per_group("swa_lr", optimizer, swa_lr)
        for lr, group in zip(swa_lrs, optimizer.param_groups):
            group["swa_lr"] = lr
        if anneal_strategy not in ["cos", "linear"]:
            raise ValueError(f"anneal_strategy must be one of 'cos' or 'linear', instead got "
                             f"{anneal_strategy}")
        self._set_anneal_func(anneal_strategy)
        if not isinstance(anneal_epochs, int) or anneal_epochs < 0:
            raise ValueError(f"anneal_epochs must be equal or greater than 0, got {anneal_epochs}")
        self.anneal_epochs = anneal_epochs
        super().__init__(optimizer, last_epoch)

    @staticmethod
    def _linear_anneal(t: float) -> float:
        return t

    @staticmethod
    def _cosine_anneal(t: float) -> float:
        return (1 - math.cos(math.pi * t)) / 2

    @staticmethod
    def _get_initial_lr(lr: float, swa_lr: float, alpha: float) -> float:
        if alpha == 1:
            return swa_lr
        return (lr - alpha * swa_lr) / (1 - alpha)

    def get_lr(self) -> list:
        if not self._get_lr_called_within_step:
            warnings.warn("To get the last learning rate computed by the scheduler, please use "
                          "`get_last_lr()`.",
                          UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_t = max(0, min(1, (step - 1) / max(1, self.anneal_epochs)))
        prev_alpha = self.anneal_func(prev_t)
        prev_lrs = [self._get_initial_lr(group["lr"], group["swa_lr"], prev_alpha)
                    for group in self.optimizer.param_groups]
        t = max(0, min(1, step / max(1, self.anneal_epochs)))
        alpha = self.anneal_func(t)
        return [group["swa_lr"] * alpha + lr * (1 - alpha) for group, lr in zip(self.optimizer.param_groups,
                                                                                prev_lrs)]

    def _set_anneal_func(self, anneal_strategy: str) -> None:
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal

    def state_dict(self) -> dict:
        return {key: value for key, value in self.__dict__.items() if key not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self._set_anneal_func(self._anneal_strategy)
