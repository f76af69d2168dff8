"""``torch.optim.swa_utils``: stochastic weight averaging and EMA models (`AveragedModel`),
the `SWALR` schedule, `update_bn`, and the averaging functions, with PyTorch's arithmetic
(on the CPU PyTorch averages with ``p + (q - p) / (n + 1)``; EMA through ``lerp``).

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.optim.swa_utils import AveragedModel
    >>> model = torch.nn.Linear(1, 1, bias=False)
    >>> swa = AveragedModel(model)
    >>> for w in (1.0, 2.0, 6.0):
    ...     with torch.no_grad():
    ...         _ = model.weight.fill_(w)
    ...     swa.update_parameters(model)
    >>> swa.module.weight, swa.n_averaged
    (Parameter containing:
    tensor([[3.]], requires_grad=True), tensor(3))
"""

from __future__ import annotations

import itertools
import math
import warnings
from collections.abc import Callable, Iterable
from copy import deepcopy
from typing import Any

import fgrad.torch as torch
from ..autograd.grad_mode import no_grad
from ..nn.modules.batchnorm import _BatchNorm
from ..nn.modules.module import Module
from .lr_scheduler import LRScheduler, _per_group
from .optimizer import Optimizer

__all__ = ["SWALR", "AveragedModel", "get_ema_avg_fn", "get_ema_multi_avg_fn", "get_swa_avg_fn",
           "get_swa_multi_avg_fn", "update_bn"]


def _check_decay(decay: float) -> None:
    if decay < 0.0 or decay > 1.0:
        raise ValueError(f"Invalid decay value {decay} provided. Please provide a value in [0,1] range.")


def get_ema_multi_avg_fn(decay: float = 0.999) -> Callable[..., None]:
    """An in-place EMA update of lists of tensors: ``ema.lerp_(current, 1 - decay)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.optim.swa_utils import get_ema_multi_avg_fn
        >>> ema = [torch.zeros(2)]
        >>> get_ema_multi_avg_fn(0.9)(ema, [torch.ones(2)], 0)
        >>> ema[0]
        tensor([0.1000, 0.1000])
    """
    _check_decay(decay)

    def ema_update(ema_param_list, current_param_list, _) -> None:
        with no_grad():
            for p_ema, p_model in zip(ema_param_list, current_param_list, strict=True):
                if p_ema.is_floating_point() or p_ema.is_complex():
                    p_ema.lerp_(p_model, 1 - decay)
                else:
                    p_ema.copy_(p_ema * decay + p_model * (1 - decay))

    return ema_update


def get_swa_multi_avg_fn() -> Callable[..., None]:
    """An in-place running mean of lists of tensors: ``avg.lerp_(current, 1 / (n + 1))``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.optim.swa_utils import get_swa_multi_avg_fn
        >>> avg = [torch.zeros(2)]
        >>> get_swa_multi_avg_fn()(avg, [torch.ones(2)], 1)
        >>> avg[0]
        tensor([0.5000, 0.5000])
    """

    def swa_update(averaged_param_list, current_param_list, num_averaged) -> None:
        with no_grad():
            for p_avg, p_model in zip(averaged_param_list, current_param_list, strict=True):
                if p_avg.is_floating_point() or p_avg.is_complex():
                    p_avg.lerp_(p_model, float(1 / (num_averaged + 1)))
                else:
                    p_avg.copy_(p_avg + (p_model - p_avg) / (num_averaged + 1))

    return swa_update


def get_ema_avg_fn(decay: float = 0.999) -> Callable[..., torch.Tensor]:
    """``decay * ema + (1 - decay) * current`` (for `AveragedModel`'s ``avg_fn``).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.optim.swa_utils import get_ema_avg_fn
        >>> get_ema_avg_fn(0.5)(torch.zeros(1), torch.ones(1), 0)
        tensor([0.5000])
    """
    _check_decay(decay)

    def ema_update(ema_param, current_param, num_averaged):
        with no_grad():
            return decay * ema_param + (1 - decay) * current_param

    return ema_update


def get_swa_avg_fn() -> Callable[..., torch.Tensor]:
    """``avg + (current - avg) / (n + 1)``: the running mean `AveragedModel` uses by default.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.optim.swa_utils import get_swa_avg_fn
        >>> get_swa_avg_fn()(torch.zeros(1), torch.ones(1), 3)
        tensor([0.2500])
    """

    def swa_update(averaged_param, current_param, num_averaged):
        with no_grad():
            return averaged_param + (current_param - averaged_param) / (num_averaged + 1)

    return swa_update


class AveragedModel(Module):
    """A copy of ``model`` whose parameters are the running average (or, with an ``avg_fn``
    / ``multi_avg_fn``, any average such as an EMA) of the model's over `update_parameters`
    calls; buffers are copied from the model unless ``use_buffers`` averages them too."""

    def __init__(self, model: Module, device: Any = None,
                 avg_fn: Callable[..., torch.Tensor] | None = None,
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
        """Fold ``model``'s current parameters into the average."""
        if self.use_buffers:
            mine = list(itertools.chain(self.module.parameters(), self.module.buffers()))
            theirs = list(itertools.chain(model.parameters(), model.buffers()))
        else:
            mine, theirs = list(self.parameters()), list(model.parameters())
        mine = [p.detach() for p in mine]
        theirs = [p.detach().to(a.device) for a, p in zip(mine, theirs)]
        if int(self.n_averaged) == 0:
            for a, p in zip(mine, theirs):
                a.copy_(p)
        else:
            n = self.n_averaged
            if self.multi_avg_fn is not None:
                self.multi_avg_fn(mine, theirs, n)
            else:
                avg_fn = self.avg_fn if self.avg_fn is not None else get_swa_avg_fn()
                for a, p in zip(mine, theirs):
                    a.copy_(avg_fn(a, p, n))
        if not self.use_buffers:
            for b_swa, b_model in zip(self.module.buffers(), model.buffers(), strict=True):
                b_swa.detach().copy_(b_model.detach().to(b_swa.device))
        self.n_averaged += 1


def update_bn(loader: Iterable[Any], model: Module, device: Any = None) -> None:
    """Recompute the BatchNorm running statistics of ``model`` with one pass over
    ``loader`` (cumulative averages: momentum ``None``), as after averaging weights.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.optim.swa_utils import update_bn
        >>> bn = torch.nn.BatchNorm1d(1)
        >>> update_bn([torch.tensor([[1.0], [3.0]])], bn)
        >>> bn.running_mean, bn.running_var
        (tensor([2.]), tensor([2.]))
    """
    with no_grad():
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
        for module, momentum in momenta.items():
            module.momentum = momentum
        model.train(was_training)


class SWALR(LRScheduler):
    """Anneal each group's learning rate to ``swa_lr`` over ``anneal_epochs`` steps
    (cosine or linear), then hold it."""

    def __init__(self, optimizer: Optimizer, swa_lr: float | list[float], anneal_epochs: int = 10,
                 anneal_strategy: str = "cos", last_epoch: int = -1) -> None:
        for lr, group in zip(_per_group("swa_lr", optimizer, swa_lr), optimizer.param_groups, strict=True):
            group["swa_lr"] = lr
        if anneal_strategy not in ("cos", "linear"):
            raise ValueError("anneal_strategy must be one of 'cos' or 'linear', "
                             f"instead got {anneal_strategy}")
        self._anneal_strategy = anneal_strategy
        self.anneal_func = self._cosine_anneal if anneal_strategy == "cos" else self._linear_anneal
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
                          "`get_last_lr()`.", UserWarning, stacklevel=2)
        step = self._step_count - 1
        if self.anneal_epochs == 0:
            step = max(1, step)
        prev_alpha = self.anneal_func(max(0, min(1, (step - 1) / max(1, self.anneal_epochs))))
        groups = self.optimizer.param_groups
        prev_lrs = [self._get_initial_lr(g["lr"], g["swa_lr"], prev_alpha) for g in groups]
        alpha = self.anneal_func(max(0, min(1, step / max(1, self.anneal_epochs))))
        return [g["swa_lr"] * alpha + lr * (1 - alpha) for g, lr in zip(groups, prev_lrs)]

    def state_dict(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if k not in ("optimizer", "anneal_func")}

    def load_state_dict(self, state_dict: dict) -> None:
        self.__dict__.update(state_dict)
        self.anneal_func = self._cosine_anneal if self._anneal_strategy == "cos" else self._linear_anneal
