"""``torch.nn.utils.prune``: masks on a module's tensors, recomputed before every forward.

Pruning ``module.<name>`` moves the parameter to ``<name>_orig``, stores a 0/1 buffer
``<name>_mask`` and installs the pruning method itself as a forward pre-hook that sets the plain
attribute ``module.<name> = <name>_mask * <name>_orig`` (so gradients reach ``<name>_orig``
through the engine's multiply, zero where pruned).  Pruning the same tensor again wraps the
methods in a :class:`PruningContainer`, which applies the newest method only to what is still
unpruned (the entries whose mask is 1, or the channels not yet all zero); ``remove`` folds the
mask into the parameter for good.  Which entries a method prunes follows PyTorch's choices
exactly (``topk`` of ``rand_like`` draws, of ``|t|``, of channel norms; ``kthvalue`` of
per-channel draws), so a seeded program prunes the same weights as under PyTorch.

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.utils.prune as prune
    >>> m = torch.nn.Linear(2, 2)
    >>> with torch.no_grad():
    ...     _ = m.weight.copy_(torch.tensor([[0.1, -2.0], [3.0, -0.2]]))
    >>> _ = prune.l1_unstructured(m, "weight", amount=0.5)
    >>> m.weight_mask
    tensor([[0., 1.],
            [1., 0.]])
    >>> sorted(n for n, _ in m.named_parameters()), prune.is_pruned(m)
    (['bias', 'weight_orig'], True)
"""

from __future__ import annotations

import numbers
from abc import ABC, abstractmethod
from collections.abc import Iterable, Iterator
from typing import Any

import fgrad.torch as torch

from ..._tensor import Tensor
from ..modules.module import Module
from .convert_parameters import parameters_to_vector

__all__ = ["BasePruningMethod", "PruningContainer", "Identity", "RandomUnstructured", "L1Unstructured",
           "RandomStructured", "LnStructured", "CustomFromMask", "identity", "random_unstructured",
           "l1_unstructured", "random_structured", "ln_structured", "global_unstructured",
           "custom_from_mask", "remove", "is_pruned"]


class BasePruningMethod(ABC):
    """A way of choosing a mask; subclasses give ``PRUNING_TYPE`` ("unstructured",
    "structured" with a ``dim``, or "global") and ``compute_mask(t, default_mask)``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> prune.L1Unstructured.PRUNING_TYPE
        'unstructured'
    """

    _tensor_name: str | None = None
    PRUNING_TYPE: str

    def __call__(self, module: Module, inputs: Any) -> None:  # the forward pre-hook
        setattr(module, self._tensor_name, self.apply_mask(module))

    @abstractmethod
    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The new mask for ``t``, on top of ``default_mask`` (the mask so far)."""

    def apply_mask(self, module: Module) -> Tensor:
        """``<name>_mask * <name>_orig`` of ``module``: the pruned tensor."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned")
        mask = getattr(module, self._tensor_name + "_mask")
        orig = getattr(module, self._tensor_name + "_orig")
        return mask.to(dtype=orig.dtype) * orig

    @classmethod
    def apply(cls, module: Module, name: str, *args: Any, importance_scores: Tensor | None = None,
              **kwargs: Any) -> BasePruningMethod:
        """Prune ``module.<name>`` with ``cls(*args, **kwargs)`` (combined with a pruning already
        there); ``importance_scores`` (the tensor's shape) rank the entries instead of the tensor."""
        method = _combined_method(cls, module, name, *args, **kwargs)
        orig = getattr(module, name)
        if importance_scores is None:
            importance_scores = orig
        elif importance_scores.shape != orig.shape:
            raise AssertionError(f"importance_scores should have the same shape as parameter {name} of "
                                 f"{module}, got {importance_scores.shape} vs {orig.shape}")
        first = not isinstance(method, PruningContainer)
        if first:  # the parameter moves to <name>_orig
            module.register_parameter(name + "_orig", orig)
            del module._parameters[name]
            default_mask = torch.ones_like(orig)
        else:
            default_mask = getattr(module, name + "_mask").detach().clone(
                memory_format=torch.contiguous_format)
        try:
            mask = method.compute_mask(importance_scores, default_mask=default_mask)
            module.register_buffer(name + "_mask", mask)
            setattr(module, name, method.apply_mask(module))
            module.register_forward_pre_hook(method)
        except Exception:
            if first:  # roll back
                module.register_parameter(name, getattr(module, name + "_orig"))
                del module._parameters[name + "_orig"]
            raise
        return method

    def prune(self, t: Tensor, default_mask: Tensor | None = None,
              importance_scores: Tensor | None = None) -> Tensor:
        """``t`` times the mask this method computes for it (no module involved)."""
        if importance_scores is None:
            importance_scores = t
        elif importance_scores.shape != t.shape:
            raise AssertionError("importance_scores should have the same shape as tensor t, "
                                 f"got {importance_scores.shape} vs {t.shape}")
        default_mask = default_mask if default_mask is not None else torch.ones_like(t)
        return t * self.compute_mask(importance_scores, default_mask=default_mask)

    def remove(self, module: Module) -> None:
        """Make the pruning permanent: ``<name>`` becomes a parameter holding the masked values
        and ``<name>_orig``/``<name>_mask`` go."""
        if self._tensor_name is None:
            raise AssertionError(f"Module {module} has to be pruned before pruning can be removed")
        weight = self.apply_mask(module)
        if hasattr(module, self._tensor_name):
            delattr(module, self._tensor_name)
        orig = module._parameters[self._tensor_name + "_orig"]
        orig.data = weight.data
        del module._parameters[self._tensor_name + "_orig"]
        del module._buffers[self._tensor_name + "_mask"]
        setattr(module, self._tensor_name, orig)


def _combined_method(cls: type, module: Module, name: str, *args: Any, **kwargs: Any) -> BasePruningMethod:
    """``cls(*args, **kwargs)`` for ``module.<name>``, put in a container with the pruning
    already on that tensor (whose hook is taken off; ``apply`` installs the result)."""
    keys = [k for k, hook in module._forward_pre_hooks.items()
            if isinstance(hook, BasePruningMethod) and hook._tensor_name == name]
    if len(keys) > 1:
        raise AssertionError(f"Avoid adding multiple pruning hooks to the same tensor {name} of module "
                             f"{module}. Use a PruningContainer.")
    old = module._forward_pre_hooks[keys[0]] if keys else None
    for k in keys:
        del module._forward_pre_hooks[k]
    method = cls(*args, **kwargs)
    method._tensor_name = name
    if old is None:
        return method
    if isinstance(old, PruningContainer):
        old.add_pruning_method(method)
        return old
    container = PruningContainer(old)
    container.add_pruning_method(method)
    return container


class PruningContainer(BasePruningMethod):
    """The pruning methods applied one after another to one tensor; its mask is the newest
    method's mask computed on what the earlier ones left.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> m = torch.nn.Linear(2, 1)
        >>> _ = prune.identity(m, "weight")
        >>> _ = prune.l1_unstructured(m, "weight", amount=1)
        >>> type(next(iter(m._forward_pre_hooks.values()))).__name__
        'PruningContainer'
    """

    def __init__(self, *args: BasePruningMethod) -> None:
        self._pruning_methods: tuple[BasePruningMethod, ...] = ()
        if len(args) == 1:
            self._tensor_name = args[0]._tensor_name
        for method in args:
            self.add_pruning_method(method)

    def add_pruning_method(self, method: BasePruningMethod) -> None:
        """Append ``method`` (which must act on this container's tensor)."""
        if method is not None and not isinstance(method, BasePruningMethod):
            raise TypeError(f"{type(method)} is not a BasePruningMethod subclass")
        if method is not None and self._tensor_name != method._tensor_name:
            raise ValueError(f"Can only add pruning methods acting on the parameter named "
                             f"'{self._tensor_name}' to PruningContainer {self}. "
                             f"Found '{method._tensor_name}'")
        self._pruning_methods += (method,)

    def __len__(self) -> int:
        return len(self._pruning_methods)

    def __iter__(self) -> Iterator[BasePruningMethod]:
        return iter(self._pruning_methods)

    def __getitem__(self, idx: int) -> BasePruningMethod:
        return self._pruning_methods[idx]

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        """The newest method's mask on the part of ``t`` still unpruned under ``default_mask``."""
        method = self._pruning_methods[-1]
        new_mask = default_mask.to(dtype=t.dtype)
        kind = method.PRUNING_TYPE
        if kind == "unstructured":
            slc: Any = default_mask == 1
        elif kind == "structured":
            if not hasattr(method, "dim"):
                raise AttributeError('Pruning methods of PRUNING_TYPE "structured" need to have the '
                                     "attribute `dim` defined.")
            n_dims = t.dim()
            dim = method.dim + n_dims if method.dim < 0 else method.dim
            if dim < 0:
                raise IndexError(f"Index is out of bounds for tensor with dimensions {n_dims}")
            keep_channel = default_mask.sum(dim=[d for d in range(n_dims) if d != dim]) != 0
            slc = tuple(keep_channel if d == dim else slice(None) for d in range(n_dims))
        elif kind == "global":
            slc = (slice(None),) * t.dim()
        else:
            raise ValueError(f"Unrecognized PRUNING_TYPE {kind}")
        partial = method.compute_mask(t[slc], default_mask=default_mask[slc])
        new_mask[slc] = partial.to(dtype=new_mask.dtype)
        return new_mask


class Identity(BasePruningMethod):
    """Prunes nothing (the mask stays all ones).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> prune.Identity().compute_mask(torch.tensor([3.0, 1.0]), torch.ones(2))
        tensor([1., 1.])
    """

    PRUNING_TYPE = "unstructured"

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        return default_mask

    @classmethod
    def apply(cls, module: Module, name: str) -> BasePruningMethod:  # type: ignore[override]
        return super().apply(module, name)


class _Unstructured(BasePruningMethod):
    """Prunes the ``amount`` entries (a count, or a fraction of the entries) ranked first by
    ``_scores`` (the largest, or with ``_largest = False`` the smallest)."""

    PRUNING_TYPE = "unstructured"
    _largest = True

    def __init__(self, amount: int | float) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount

    def _scores(self, t: Tensor) -> Tensor:
        raise NotImplementedError

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        k = _checked_count(self.amount, t.nelement())
        mask = default_mask.clone(memory_format=torch.contiguous_format)
        if k != 0:
            mask.view(-1)[torch.topk(self._scores(t).view(-1), k=k, largest=self._largest).indices] = 0
        return mask


class RandomUnstructured(_Unstructured):
    """Prunes ``amount`` entries chosen at random (the largest of ``rand_like`` draws, as
    PyTorch draws them).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> _ = torch.manual_seed(0)
        >>> prune.RandomUnstructured(amount=2).compute_mask(torch.ones(4), torch.ones(4)).sum()
        tensor(2.)
    """

    def _scores(self, t: Tensor) -> Tensor:
        return torch.rand_like(t)

    @classmethod
    def apply(cls, module: Module, name: str, amount: int | float) -> BasePruningMethod:  # type: ignore[override]
        return super().apply(module, name, amount=amount)


class L1Unstructured(_Unstructured):
    """Prunes the ``amount`` entries of smallest absolute value.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> prune.L1Unstructured(amount=1).compute_mask(torch.tensor([3.0, -1.0, 2.0]), torch.ones(3))
        tensor([1., 0., 1.])
    """

    _largest = False

    def _scores(self, t: Tensor) -> Tensor:
        return torch.abs(t)

    @classmethod
    def apply(cls, module: Module, name: str, amount: int | float,  # type: ignore[override]
              importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, importance_scores=importance_scores)


def _channel_mask(t: Tensor, dim: int, keep: Any) -> Tensor:
    """Ones on the channels ``keep`` (indices or a boolean mask) of ``t`` along ``dim``."""
    mask = torch.zeros_like(t)
    mask[tuple(keep if d == dim % t.dim() else slice(None) for d in range(t.dim()))] = 1
    return mask


class RandomStructured(BasePruningMethod):
    """Prunes ``amount`` whole channels along ``dim``, chosen at random.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> _ = torch.manual_seed(0)
        >>> prune.RandomStructured(amount=1, dim=0).compute_mask(torch.ones(2, 3), torch.ones(2, 3)).sum()
        tensor(3.)
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount: int | float, dim: int = -1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        n = t.shape[self.dim]
        k = _checked_count(self.amount, n)
        if k == 0:
            return default_mask
        prob = torch.rand(n)
        mask = _channel_mask(t, self.dim, prob > torch.kthvalue(prob, k=k).values)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module: Module, name: str, amount: int | float,  # type: ignore[override]
              dim: int = -1) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, dim=dim)


class LnStructured(BasePruningMethod):
    """Prunes the ``amount`` channels along ``dim`` of smallest ``n``-norm.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> w = torch.tensor([[3.0, 4.0], [0.5, 0.5]])
        >>> prune.LnStructured(amount=1, n=2, dim=0).compute_mask(w, torch.ones(2, 2))
        tensor([[1., 1.],
                [0., 0.]])
    """

    PRUNING_TYPE = "structured"

    def __init__(self, amount: int | float, n: int | float | str, dim: int = -1) -> None:
        _validate_pruning_amount_init(amount)
        self.amount = amount
        self.n = n
        self.dim = dim

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        _validate_structured_pruning(t)
        _validate_pruning_dim(t, self.dim)
        size = t.shape[self.dim]
        k = _checked_count(self.amount, size)
        if k == 0:
            return default_mask
        dims = [d for d in range(t.dim()) if d != self.dim % t.dim()]
        keep = torch.topk(torch.norm(t, p=self.n, dim=dims), k=size - k, largest=True).indices
        mask = _channel_mask(t, self.dim, keep)
        mask *= default_mask.to(dtype=mask.dtype)
        return mask

    @classmethod
    def apply(cls, module: Module, name: str, amount: int | float, n: int | float | str,  # type: ignore[override]
              dim: int, importance_scores: Tensor | None = None) -> BasePruningMethod:
        return super().apply(module, name, amount=amount, n=n, dim=dim, importance_scores=importance_scores)


class CustomFromMask(BasePruningMethod):
    """Prunes where a given mask is 0.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import prune
        >>> method = prune.CustomFromMask(torch.tensor([1.0, 0.0]))
        >>> method.compute_mask(torch.tensor([3.0, 1.0]), torch.ones(2))
        tensor([1., 0.])
    """

    PRUNING_TYPE = "global"

    def __init__(self, mask: Tensor) -> None:
        self.mask = mask

    def compute_mask(self, t: Tensor, default_mask: Tensor) -> Tensor:
        if default_mask.shape != self.mask.shape:
            raise AssertionError(f"default_mask shape {default_mask.shape} must match self.mask shape "
                                 f"{self.mask.shape}")
        return default_mask * self.mask.to(dtype=default_mask.dtype)

    @classmethod
    def apply(cls, module: Module, name: str, mask: Tensor) -> BasePruningMethod:  # type: ignore[override]
        return super().apply(module, name, mask=mask)


def identity(module: Module, name: str) -> Module:
    """Reparametrize ``module.<name>`` with an all-ones mask (pruning nothing).

    Example::

        >>> import fgrad.torch as torch
        >>> identity(torch.nn.Linear(2, 1), "bias").bias_mask
        tensor([1.])
    """
    Identity.apply(module, name)
    return module


def random_unstructured(module: Module, name: str, amount: int | float) -> Module:
    """Prune ``amount`` random entries of ``module.<name>``.

    Example::

        >>> import fgrad.torch as torch
        >>> int(random_unstructured(torch.nn.Linear(4, 4), "weight", amount=0.25).weight_mask.sum())
        12
    """
    RandomUnstructured.apply(module, name, amount)
    return module


def l1_unstructured(module: Module, name: str, amount: int | float,
                    importance_scores: Tensor | None = None) -> Module:
    """Prune the ``amount`` entries of ``module.<name>`` of smallest ``|importance_scores|``
    (default: of the tensor itself).

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(3, 1)
        >>> l1_unstructured(m, "weight", 1, importance_scores=torch.tensor([[3.0, -1.0, 2.0]])).weight_mask
        tensor([[1., 0., 1.]])
    """
    L1Unstructured.apply(module, name, amount=amount, importance_scores=importance_scores)
    return module


def random_structured(module: Module, name: str, amount: int | float, dim: int) -> Module:
    """Prune ``amount`` random channels of ``module.<name>`` along ``dim``.

    Example::

        >>> import fgrad.torch as torch
        >>> m = random_structured(torch.nn.Linear(3, 4), "weight", amount=2, dim=0)
        >>> m.weight_mask.sum(1).tolist().count(0.0)
        2
    """
    RandomStructured.apply(module, name, amount, dim)
    return module


def ln_structured(module: Module, name: str, amount: int | float, n: int | float | str, dim: int,
                  importance_scores: Tensor | None = None) -> Module:
    """Prune the ``amount`` channels of ``module.<name>`` along ``dim`` of smallest ``n``-norm.

    Example::

        >>> import fgrad.torch as torch
        >>> m = torch.nn.Linear(2, 2)
        >>> with torch.no_grad():
        ...     _ = m.weight.copy_(torch.tensor([[1.0, 1.0], [0.1, 3.0]]))
        >>> ln_structured(m, "weight", amount=1, n=1, dim=0).weight_mask
        tensor([[0., 0.],
                [1., 1.]])
    """
    LnStructured.apply(module, name, amount, n, dim, importance_scores=importance_scores)
    return module


def global_unstructured(parameters: Iterable[tuple[Module, str]], pruning_method: type,
                        importance_scores: dict | None = None, **kwargs: Any) -> None:
    """Prune the ``(module, name)`` tensors as one vector with the unstructured
    ``pruning_method(**kwargs)`` (e.g. the 20% smallest of all of them together).

    Example::

        >>> import fgrad.torch as torch
        >>> a, b = torch.nn.Linear(2, 1, bias=False), torch.nn.Linear(2, 1, bias=False)
        >>> with torch.no_grad():
        ...     _ = a.weight.copy_(torch.tensor([[1.0, 2.0]]))
        ...     _ = b.weight.copy_(torch.tensor([[0.5, 3.0]]))
        >>> global_unstructured([(a, "weight"), (b, "weight")], L1Unstructured, amount=2)
        >>> a.weight_mask, b.weight_mask
        (tensor([[0., 1.]]), tensor([[0., 1.]]))
    """
    if not isinstance(parameters, Iterable):
        raise TypeError("global_unstructured(): parameters is not an Iterable")
    parameters = list(parameters)
    importance_scores = importance_scores if importance_scores is not None else {}
    if not isinstance(importance_scores, dict):
        raise TypeError("global_unstructured(): importance_scores must be of type dict")
    scores = parameters_to_vector([importance_scores.get((m, n), getattr(m, n)) for m, n in parameters])
    default_mask = parameters_to_vector(
        [getattr(m, n + "_mask", torch.ones_like(getattr(m, n))) for m, n in parameters])
    method = pruning_method(**kwargs)
    if method.PRUNING_TYPE != "unstructured":
        raise TypeError('Only "unstructured" PRUNING_TYPE supported for the `pruning_method`. Found method '
                        f"{pruning_method} of type {method.PRUNING_TYPE}")
    method._tensor_name = "temp"
    container = PruningContainer(method)
    final_mask = container.compute_mask(scores, default_mask)
    start = 0
    for module, name in parameters:
        param = getattr(module, name)
        custom_from_mask(module, name, mask=final_mask[start:start + param.numel()].view_as(param))
        start += param.numel()


def custom_from_mask(module: Module, name: str, mask: Tensor) -> Module:
    """Prune ``module.<name>`` where ``mask`` is 0.

    Example::

        >>> import fgrad.torch as torch
        >>> custom_from_mask(torch.nn.Linear(2, 2), "bias", torch.tensor([0.0, 1.0])).bias_mask
        tensor([0., 1.])
    """
    CustomFromMask.apply(module, name, mask)
    return module


def remove(module: Module, name: str) -> Module:
    """Make the pruning of ``module.<name>`` permanent (a plain parameter again, zeros kept).

    Example::

        >>> import fgrad.torch as torch
        >>> m = custom_from_mask(torch.nn.Linear(2, 1), "weight", torch.tensor([[0.0, 1.0]]))
        >>> m = remove(m, "weight")
        >>> sorted(n for n, _ in m.named_parameters()), float(m.weight[0, 0]) == 0.0
        (['bias', 'weight'], True)
    """
    for k, hook in module._forward_pre_hooks.items():
        if isinstance(hook, BasePruningMethod) and hook._tensor_name == name:
            hook.remove(module)
            del module._forward_pre_hooks[k]
            return module
    raise ValueError(f"Parameter '{name}' of module {module} has to be pruned before pruning can be removed")


def is_pruned(module: Module) -> bool:
    """Whether ``module`` or a submodule has a pruning pre-hook.

    Example::

        >>> import fgrad.torch as torch
        >>> is_pruned(torch.nn.Linear(1, 1))
        False
    """
    return any(isinstance(hook, BasePruningMethod)
               for _, sub in module.named_modules() for hook in sub._forward_pre_hooks.values())


def _validate_pruning_amount_init(amount: Any) -> None:
    if not isinstance(amount, numbers.Real):
        raise TypeError(f"Invalid type for amount: {amount}. Must be int or float.")
    if (amount < 0 if isinstance(amount, numbers.Integral) else not 0.0 <= float(amount) <= 1.0):
        raise ValueError(f"amount={amount} should either be a float in the range [0, 1] or a non-negative "
                         "integer")


def _checked_count(amount: int | float, size: int) -> int:
    """How many of ``size`` units ``amount`` prunes (a count, or a fraction rounded half to
    even); a count over ``size`` is a ValueError."""
    k = amount if isinstance(amount, numbers.Integral) else round(amount * size)
    if isinstance(amount, numbers.Integral) and amount > size:
        raise ValueError(f"amount={amount} should be smaller than the number of parameters to prune={size}")
    return k


def _validate_structured_pruning(t: Tensor) -> None:
    if t.dim() <= 1:
        raise ValueError("Structured pruning can only be applied to multidimensional tensors. Found tensor "
                         f"of shape {t.shape} with {t.dim()} dims")


def _validate_pruning_dim(t: Tensor, dim: int) -> None:
    if dim >= t.dim():
        raise IndexError(f"Invalid index {dim} for tensor of size {t.shape}")
