"""``torch.nn.utils.parametrize``: a parameter or buffer of a module recomputed from other
tensors on each access (``layer.weight`` is ``parametrization(layer.parametrizations.weight.original)``).

As in PyTorch, registering a parametrization moves the tensor to
``module.parametrizations[name].original`` (``original0``, ``original1``, ... when the
parametrization's ``right_inverse`` returns several tensors), gives the module a class of its
own (``Parametrized<Class>``) with a property ``name`` that evaluates the parametrizations in
order, and assigning to ``module.name`` calls their ``right_inverse`` methods in reverse order.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.nn.utils import parametrize
    >>> class Symmetric(torch.nn.Module):
    ...     def forward(self, X):
    ...         return X.triu() + X.triu(1).mT
    >>> layer = parametrize.register_parametrization(torch.nn.Linear(3, 3), "weight", Symmetric())
    >>> torch.equal(layer.weight, layer.weight.T), type(layer).__name__
    (True, 'ParametrizedLinear')
    >>> sorted(layer.state_dict())
    ['bias', 'parametrizations.weight.original']
"""

from __future__ import annotations

import collections.abc
import contextlib
import copy

from ..._tensor import Tensor
from ...autograd.grad_mode import no_grad
from ..modules.container import ModuleDict, ModuleList
from ..modules.module import Module
from ..parameter import Parameter

__all__ = ["ParametrizationList", "cached", "is_parametrized", "register_parametrization",
           "remove_parametrizations", "type_before_parametrizations"]

_cache_enabled = 0
_cache: dict = {}


@contextlib.contextmanager
def cached() -> collections.abc.Iterator[None]:
    """Within the block, each parametrized tensor is computed once (on first access).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import parametrize
        >>> with parametrize.cached():
        ...     pass
    """
    global _cache_enabled
    _cache_enabled += 1
    try:
        yield
    finally:
        _cache_enabled -= 1
        if not _cache_enabled:
            _cache.clear()


def _as_parameter_like(original: Tensor, value: Tensor) -> Tensor:
    if isinstance(original, Parameter):
        return Parameter(value, original.requires_grad)
    return value


class ParametrizationList(ModuleList):
    """The parametrizations of one tensor, in order, and the ``original`` tensor(s) they
    start from (a Parameter stays a Parameter, a buffer a buffer).

    Example::

        >>> import fgrad.torch as torch
        >>> class Symmetric(torch.nn.Module):
        ...     def forward(self, X):
        ...         return X.triu() + X.triu(1).T
        >>> P = torch.nn.utils.parametrize
        >>> m = P.register_parametrization(torch.nn.Linear(2, 2), 'weight', Symmetric())
        >>> type(m.parametrizations.weight).__name__, torch.equal(m.weight, m.weight.T)
        ('ParametrizationList', True)
    """

    def __init__(self, modules: collections.abc.Sequence[Module], original: Tensor,
                 unsafe: bool = False) -> None:
        if len(modules) == 0:
            raise ValueError("ParametrizationList requires one or more modules.")
        super().__init__(modules)
        self.unsafe = unsafe
        original_shape, original_dtype = original.shape, original.dtype
        with no_grad():
            new = original
            for module in reversed(self):  # type: ignore[call-overload]
                if hasattr(module, "right_inverse"):
                    new = module.right_inverse(new)
        if not isinstance(new, Tensor) and not isinstance(new, collections.abc.Sequence):
            raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                             f"(list, tuple...). Got {type(new).__name__}")
        self.is_tensor = isinstance(new, Tensor)
        self.ntensors = 1 if self.is_tensor else len(new)
        if self.is_tensor:
            if original.dtype != new.dtype:
                raise ValueError("When `right_inverse` outputs one tensor, it may not change the dtype.\n"
                                 f"original.dtype: {original.dtype}\n"
                                 f"right_inverse(original).dtype: {new.dtype}")
            if new is not original:
                with no_grad():
                    if new.shape == original.shape:
                        original.copy_(new)  # the same Parameter object keeps its identity
                    else:
                        original = _as_parameter_like(original, new.detach().clone())
            _register(self, "original", original)
        else:
            for i, t in enumerate(new):
                if not isinstance(t, Tensor):
                    raise ValueError("'right_inverse' must return a Tensor or a Sequence of tensors "
                                     f"(list, tuple...). Got element {i} of type {type(t).__name__}")
                t = t.detach().clone()
                if isinstance(original, Parameter):
                    t = Parameter(t, original.requires_grad)
                _register(self, f"original{i}", t)
        if not self.unsafe:
            z = self()
            if not isinstance(z, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(z).__name__}.")
            if z.dtype != original_dtype:
                raise ValueError("Registering a parametrization may not change the dtype of the tensor, "
                                 "unless `unsafe` flag is enabled.\n"
                                 f"unparametrized dtype: {original_dtype}\nparametrized dtype: {z.dtype}")
            if z.shape != original_shape:
                raise ValueError("Registering a parametrization may not change the shape of the tensor, "
                                 "unless `unsafe` flag is enabled.\n"
                                 f"unparametrized shape: {original_shape}\nparametrized shape: {z.shape}")

    def right_inverse(self, value: Tensor) -> None:
        """Set the original tensor(s) so that the parametrized tensor becomes ``value``."""
        with no_grad():
            for module in reversed(self):  # type: ignore[call-overload]
                if not hasattr(module, "right_inverse"):
                    raise RuntimeError(f"parametrization {type(module).__name__} does not implement "
                                       "right_inverse.")
                value = module.right_inverse(value)
            if self.is_tensor:
                self.original.copy_(value)
            else:
                for i, t in enumerate(value):
                    getattr(self, f"original{i}").copy_(t)

    def forward(self) -> Tensor:
        if self.is_tensor:
            x = self[0](self.original)
        else:
            x = self[0](*(getattr(self, f"original{i}") for i in range(self.ntensors)))
        for module in list(self)[1:]:
            x = module(x)
        return x


def _register(owner: Module, name: str, t: Tensor) -> None:
    if isinstance(t, Parameter):
        owner.register_parameter(name, t)
    else:
        owner.register_buffer(name, t)


def _parametrized_property(name: str) -> property:
    def get(self):
        if _cache_enabled:
            key = (id(self), name)
            if key not in _cache:
                _cache[key] = self.parametrizations[name]()
            return _cache[key]
        return self.parametrizations[name]()

    def set(self, value):
        self.parametrizations[name].right_inverse(value)

    return property(get, set)


def _parametrized_getstate(self):
    raise RuntimeError("Serialization of parametrized modules is only supported through state_dict(). "
                       "See: https://pytorch.org/tutorials/beginner/saving_loading_models.html")


def _default_deepcopy(self, memo):
    """A plain deepcopy (``__getstate__`` refuses pickling, which deepcopy would use)."""
    obj = memo.get(id(self))
    if obj is not None:
        return obj
    replica = self.__new__(self.__class__)
    memo[id(self)] = replica
    replica.__dict__ = copy.deepcopy(self.__dict__, memo)
    return replica


def _inject_new_class(module: Module) -> None:
    cls = module.__class__
    attrs = {"__getstate__": _parametrized_getstate}
    if not hasattr(cls, "__deepcopy__"):
        attrs["__deepcopy__"] = _default_deepcopy
    module.__class__ = type(f"Parametrized{cls.__name__}", (cls,), attrs)


def register_parametrization(module: Module, tensor_name: str, parametrization: Module, *,
                             unsafe: bool = False) -> Module:
    """Make ``module.<tensor_name>`` the output of ``parametrization`` applied to the
    tensor it was (kept as ``module.parametrizations.<tensor_name>.original``); a second call
    for the same name appends to its parametrizations.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import parametrize
        >>> class Twice(torch.nn.Module):
        ...     def forward(self, X):
        ...         return 2 * X
        >>> m = parametrize.register_parametrization(torch.nn.Linear(2, 1), "bias", Twice())
        >>> torch.equal(m.bias, 2 * m.parametrizations.bias.original)
        True
    """
    parametrization.train(module.training)
    if is_parametrized(module, tensor_name):
        plist = module.parametrizations[tensor_name]
        if not unsafe:
            y = getattr(module, tensor_name)
            x = parametrization(y)
            if not isinstance(x, Tensor):
                raise ValueError(f"A parametrization must return a tensor. Got {type(x).__name__}.")
            if x.dtype != y.dtype or x.shape != y.shape:
                raise ValueError("Registering a parametrization may not change the shape or dtype of "
                                 f"the tensor, unless the `unsafe` flag is enabled.\n"
                                 f"unparametrized: {y.dtype} {tuple(y.shape)}\n"
                                 f"parametrized: {x.dtype} {tuple(x.shape)}")
        plist.append(parametrization)
        plist.unsafe |= unsafe
    elif tensor_name in module._buffers or tensor_name in module._parameters:
        original = getattr(module, tensor_name)
        plist = ParametrizationList([parametrization], original, unsafe=unsafe)
        delattr(module, tensor_name)
        if not is_parametrized(module):
            _inject_new_class(module)
            module.parametrizations = ModuleDict()
        setattr(module.__class__, tensor_name, _parametrized_property(tensor_name))
        module.parametrizations[tensor_name] = plist
    else:
        raise ValueError(f"Module '{module}' does not have a parameter, a buffer, or a parametrized "
                         f"element with name '{tensor_name}'")
    return module


def is_parametrized(module: Module, tensor_name: str | None = None) -> bool:
    """Whether ``module`` has a parametrization (on ``tensor_name``, when given).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import parametrize
        >>> parametrize.is_parametrized(torch.nn.Linear(2, 2))
        False
    """
    parametrizations = module.__dict__.get("_modules", {}).get("parametrizations")
    if parametrizations is None or not isinstance(parametrizations, ModuleDict):
        return False
    if tensor_name is None:
        return len(parametrizations) > 0
    return tensor_name in parametrizations


def remove_parametrizations(module: Module, tensor_name: str, leave_parametrized: bool = True) -> Module:
    """Undo `register_parametrization` for ``tensor_name``: the tensor becomes a plain
    parameter (or buffer) again, holding the parametrized value (``leave_parametrized``) or
    the original one.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import parametrize
        >>> m = parametrize.register_parametrization(torch.nn.Linear(2, 1), "bias", torch.nn.Tanh())
        >>> type(parametrize.remove_parametrizations(m, "bias")).__name__
        'Linear'
    """
    if not is_parametrized(module, tensor_name):
        raise ValueError(f"Module {module} does not have a parametrization on {tensor_name}")
    plist = module.parametrizations[tensor_name]
    if plist.is_tensor:
        original = plist.original
        if leave_parametrized:
            with no_grad():
                t = getattr(module, tensor_name)
            with no_grad():
                if t.shape == original.shape and t.dtype == original.dtype:
                    original.copy_(t)
                else:
                    original = _as_parameter_like(original, t.detach().clone())
    else:
        if not leave_parametrized:
            raise ValueError("Cannot leave unparametrized (`leave_parametrized=False`) a tensor that is "
                             "parametrized in terms of a sequence of tensors.")
        with no_grad():
            t = getattr(module, tensor_name)
        original = _as_parameter_like(plist.original0, t.detach().clone())
    delattr(module.__class__, tensor_name)
    del module.parametrizations[tensor_name]
    _register(module, tensor_name, original)
    if not is_parametrized(module):
        delattr(module, "parametrizations")
        module.__class__ = module.__class__.__bases__[0]
    return module


def type_before_parametrizations(module: Module) -> type:
    """The module's class before parametrizations were registered on it.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.utils import parametrize
        >>> parametrize.type_before_parametrizations(torch.nn.Linear(1, 1)).__name__
        'Linear'
    """
    if is_parametrized(module):
        return module.__class__.__bases__[0]
    return type(module)
