"""`Module`: the base class of layers and models (PyTorch's ``torch.nn.Module``).

A module owns three ordered dicts -- ``_parameters``, ``_buffers`` and ``_modules`` -- that
attribute assignment fills (``self.fc = Linear(...)`` registers a child, ``self.w =
Parameter(...)`` a parameter), and everything else (``parameters()``, ``state_dict()``,
``to()``, ``train()``, the repr) walks those dicts.  Calling a module runs its forward hooks
around ``forward``; without hooks ``__call__`` is a direct call of ``forward``.

Example::

    >>> import fgrad.torch as torch
    >>> class Net(torch.nn.Module):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.fc = torch.nn.Linear(3, 1)
    ...     def forward(self, x):
    ...         return self.fc(x).relu()
    >>> Net()
    Net(
      (fc): Linear(in_features=3, out_features=1, bias=True)
    )
"""

from __future__ import annotations

import functools
import itertools
from collections import OrderedDict, namedtuple
from collections.abc import Mapping
from typing import Any, Callable, Iterator

import fgrad.torch as torch

from ..._tensor import Tensor
from ...utils.hooks import RemovableHandle
from ..parameter import Buffer, Parameter
import fgrad.torch.__future__ as _future
import fgrad.torch._deprecations as _deprecations
from ..._swap import swap_tensors
from ._backward_hooks import BackwardHook
from fgrad.torch.types import DType

__all__ = ["Module", "register_module_forward_hook", "register_module_forward_pre_hook"]

# set by `fgrad.torch._compile` once ``torch.compile`` is used: ``hook(module, args, kwargs)``
# runs a module call (compiled when ``module.compile()`` was called; recorded while tracing)
COMPILE_HOOK: list = [None]

_global_forward_hooks: dict = OrderedDict()
_global_forward_hooks_with_kwargs: dict = OrderedDict()
_global_forward_hooks_always_called: dict = OrderedDict()
_global_forward_pre_hooks: dict = OrderedDict()


def register_module_forward_pre_hook(hook: Callable[..., Any]) -> RemovableHandle:
    """A forward pre-hook run by every module (``hook(module, args)``).

    Example::

        >>> import fgrad.torch as torch
        >>> seen = []
        >>> hook = lambda module, args: seen.append(type(module).__name__)
        >>> h = torch.nn.modules.module.register_module_forward_pre_hook(hook)
        >>> _ = torch.nn.ReLU()(torch.ones(1))
        >>> h.remove()
        >>> seen
        ['ReLU']
    """
    handle = RemovableHandle(_global_forward_pre_hooks)
    _global_forward_pre_hooks[handle.id] = hook
    return handle


def register_module_forward_hook(hook: Callable[..., Any], *, with_kwargs: bool = False,
                                 always_call: bool = False) -> RemovableHandle:
    """A forward hook run by every module (``hook(module, args, output)``; with ``with_kwargs``,
    ``hook(module, args, kwargs, output)``; with ``always_call``, also when the forward raises).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn.modules.module import register_module_forward_hook
        >>> seen = []
        >>> h = register_module_forward_hook(lambda m, a, kw, out: seen.append(sorted(kw)), with_kwargs=True)
        >>> _ = torch.nn.Identity()(torch.ones(1))
        >>> h.remove(); seen
        [[]]
    """
    handle = RemovableHandle(_global_forward_hooks, extra_dict=[_global_forward_hooks_with_kwargs,
                                                                 _global_forward_hooks_always_called])
    _global_forward_hooks[handle.id] = hook
    if with_kwargs:
        _global_forward_hooks_with_kwargs[handle.id] = True
    if always_call:
        _global_forward_hooks_always_called[handle.id] = True
    return handle


class _IncompatibleKeys(namedtuple("IncompatibleKeys", ["missing_keys", "unexpected_keys"])):
    __slots__ = ()

    def __repr__(self) -> str:
        if not self.missing_keys and not self.unexpected_keys:
            return "<All keys matched successfully>"
        return super().__repr__()

    __str__ = __repr__


def _addindent(s_: str, num_spaces: int) -> str:
    lines = s_.split("\n")
    if len(lines) == 1:
        return s_
    first = lines.pop(0)
    return first + "\n" + "\n".join((num_spaces * " ") + line for line in lines)


def _typename(value) -> str:
    if isinstance(value, Tensor):
        return value.type()
    mod = type(value).__module__
    if mod in ("builtins", "__builtin__", None):
        return type(value).__qualname__
    return f"{mod}.{type(value).__qualname__}"


def _forward_unimplemented(self, *input: Any) -> None:
    raise NotImplementedError(
        f'Module [{type(self).__name__}] is missing the required "forward" function')


class Module:
    """Base class for all neural network modules (see the module docstring).

    Example::

        >>> import fgrad.torch as torch
        >>> class Scale(torch.nn.Module):
        ...     def __init__(self):
        ...         super().__init__()
        ...         self.w = torch.nn.Parameter(torch.tensor([2.0]))
        ...     def forward(self, x):
        ...         return self.w * x
        >>> Scale()(torch.tensor([1.0, 3.0]))
        tensor([2., 6.], grad_fn=<MulBackward0>)
        >>> [name for name, _ in Scale().named_parameters()]
        ['w']
    """

    dump_patches: bool = False
    _version: int = 1
    training: bool
    call_super_init: bool = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if self.call_super_init is False and bool(kwargs):
            raise TypeError(f"{type(self).__name__}.__init__() got an unexpected keyword argument "
                            f"'{next(iter(kwargs))}'")
        if self.call_super_init is False and bool(args):
            raise TypeError(f"{type(self).__name__}.__init__() takes 1 positional argument but "
                            f"{len(args) + 1} were given")
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_backward_pre_hooks"] = OrderedDict()
        d["_backward_hooks"] = OrderedDict()
        d["_is_full_backward_hook"] = None
        d["_forward_hooks"] = OrderedDict()
        d["_forward_hooks_with_kwargs"] = OrderedDict()
        d["_forward_hooks_always_called"] = OrderedDict()
        d["_forward_pre_hooks"] = OrderedDict()
        d["_forward_pre_hooks_with_kwargs"] = OrderedDict()
        d["_state_dict_hooks"] = OrderedDict()
        d["_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_pre_hooks"] = OrderedDict()
        d["_load_state_dict_post_hooks"] = OrderedDict()
        d["_modules"] = {}
        if self.call_super_init:
            super().__init__(*args, **kwargs)

    forward: Callable[..., Any] = _forward_unimplemented

    # -- registration ---------------------------------------------------------------------
    def register_buffer(self, name: str, tensor: Tensor | None, persistent: bool = True) -> None:
        """Add a buffer (state that is not a parameter, e.g. BatchNorm's running_mean)."""
        if "_buffers" not in self.__dict__:
            raise AttributeError("cannot assign buffer before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"buffer name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('buffer name can\'t contain "."')
        if name == "":
            raise KeyError('buffer name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._buffers:
            raise KeyError(f"attribute '{name}' already exists")
        if tensor is not None and not isinstance(tensor, Tensor):
            raise TypeError(f"cannot assign '{_typename(tensor)}' object to buffer '{name}' "
                            "(torch Tensor or None required)")
        self._buffers[name] = tensor
        if persistent:
            self._non_persistent_buffers_set.discard(name)
        else:
            self._non_persistent_buffers_set.add(name)

    def register_parameter(self, name: str, param: Parameter | None) -> None:
        """Add a parameter; ``param`` may be None (an absent optional parameter, like a bias)."""
        if "_parameters" not in self.__dict__:
            raise AttributeError("cannot assign parameter before Module.__init__() call")
        if not isinstance(name, str):
            raise TypeError(f"parameter name should be a string. Got {_typename(name)}")
        if "." in name:
            raise KeyError('parameter name can\'t contain "."')
        if name == "":
            raise KeyError('parameter name can\'t be empty string ""')
        if hasattr(self, name) and name not in self._parameters:
            raise KeyError(f"attribute '{name}' already exists")
        if param is None:
            self._parameters[name] = None
        elif not isinstance(param, Parameter):
            raise TypeError(f"cannot assign '{_typename(param)}' object to parameter '{name}' "
                            "(torch.nn.Parameter or None required)")
        elif param.grad_fn is not None:
            raise ValueError(
                f"Cannot assign non-leaf Tensor to parameter '{name}'. Model parameters must be created "
                f"explicitly. To express '{name}' as a function of another Tensor, compute the value in "
                "the forward() method.")
        else:
            self._parameters[name] = param

    def add_module(self, name: str, module: Module | None) -> None:
        """Add a child module, reachable as an attribute ``name``."""
        if not isinstance(module, Module) and module is not None:
            raise TypeError(f"{_typename(module)} is not a Module subclass")
        if not isinstance(name, str):
            raise TypeError(f"module name should be a string. Got {_typename(name)}")
        if hasattr(self, name) and name not in self._modules:
            raise KeyError(f"attribute '{name}' already exists")
        if "." in name:
            raise KeyError(f'module name can\'t contain ".", got: {name}')
        if name == "":
            raise KeyError('module name can\'t be empty string ""')
        self._modules[name] = module

    def register_module(self, name: str, module: Module | None) -> None:
        self.add_module(name, module)

    def get_submodule(self, target: str) -> "Module":
        if target == "":
            return self
        mod = self
        for item in target.split("."):
            if not hasattr(mod, item):
                raise AttributeError(mod._get_name() + " has no attribute `" + item + "`")
            mod = getattr(mod, item)
            if not isinstance(mod, Module):
                raise AttributeError("`" + item + "` is not an nn.Module")
        return mod

    def set_submodule(self, target: str, module: "Module", strict: bool = False) -> None:
        """Put ``module`` at the dotted path ``target``: the parent path must exist; the last
        name may be new unless ``strict``, and must not name a non-module attribute.

        >>> import fgrad.torch as torch
        >>> net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.Sequential(torch.nn.ReLU()))
        >>> net.set_submodule("1.0", torch.nn.Tanh()); net[1]
        Sequential(
          (0): Tanh()
        )
        """
        if target == "":
            raise ValueError("Cannot set the submodule without a target name!")
        if not isinstance(module, Module):
            raise ValueError(f"`module` is not an nn.Module, found {type(module)}")
        parent_path, _, name = target.rpartition(".")
        parent = self.get_submodule(parent_path)
        if strict and not hasattr(parent, name):
            raise AttributeError(parent._get_name() + " has no attribute `" + name + "`")
        if hasattr(parent, name) and not isinstance(getattr(parent, name), Module):
            raise AttributeError("`" + name + "` is not an nn.Module")
        setattr(parent, name, module)

    def get_parameter(self, target: str) -> Parameter:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        param = getattr(mod, name)
        if not isinstance(param, Parameter):
            raise AttributeError("`" + name + "` is not an nn.Parameter")
        return param

    def get_buffer(self, target: str) -> Tensor:
        module_path, _, name = target.rpartition(".")
        mod = self.get_submodule(module_path)
        if not hasattr(mod, name):
            raise AttributeError(mod._get_name() + " has no attribute `" + name + "`")
        if name not in mod._buffers:
            raise AttributeError("`" + name + "` is not a buffer")
        return getattr(mod, name)

    # -- attribute protocol -----------------------------------------------------------------
    def __getattr__(self, name: str):
        d = self.__dict__
        if "_parameters" in d:
            p = d["_parameters"]
            if name in p:
                return p[name]
        if "_buffers" in d:
            b = d["_buffers"]
            if name in b:
                return b[name]
        if "_modules" in d:
            m = d["_modules"]
            if name in m:
                return m[name]
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    def __setattr__(self, name: str, value) -> None:
        d = self.__dict__

        def remove_from(*dicts_or_sets):
            for dd in dicts_or_sets:
                if name in dd:
                    if isinstance(dd, dict):
                        del dd[name]
                    else:
                        dd.discard(name)

        params = d.get("_parameters")
        if isinstance(value, Parameter):
            if params is None:
                raise AttributeError("cannot assign parameters before Module.__init__() call")
            remove_from(d, self._buffers, self._modules, self._non_persistent_buffers_set)
            self.register_parameter(name, value)
        elif params is not None and name in params:
            if value is not None:
                raise TypeError(f"cannot assign '{_typename(value)}' as parameter '{name}' "
                                "(torch.nn.Parameter or None expected)")
            self.register_parameter(name, value)
        else:
            modules = d.get("_modules")
            if isinstance(value, Module):
                if modules is None:
                    raise AttributeError("cannot assign module before Module.__init__() call")
                remove_from(d, self._parameters, self._buffers, self._non_persistent_buffers_set)
                modules[name] = value
            elif modules is not None and name in modules:
                if value is not None:
                    raise TypeError(f"cannot assign '{_typename(value)}' as child module '{name}' "
                                    "(torch.nn.Module or None expected)")
                modules[name] = value
            else:
                buffers = d.get("_buffers")
                if isinstance(value, Buffer):
                    if buffers is None:
                        raise AttributeError("cannot assign buffer before Module.__init__() call")
                    remove_from(d, self._parameters, self._modules)
                    self.register_buffer(name, value, getattr(value, "_persistent", True))
                elif buffers is not None and name in buffers:
                    if value is not None and not isinstance(value, Tensor):
                        raise TypeError(f"cannot assign '{_typename(value)}' as buffer '{name}' "
                                        "(torch.Tensor or None expected)")
                    buffers[name] = value
                else:
                    object.__setattr__(self, name, value)

    def __delattr__(self, name: str) -> None:
        if name in self._parameters:
            del self._parameters[name]
        elif name in self._buffers:
            del self._buffers[name]
            self._non_persistent_buffers_set.discard(name)
        elif name in self._modules:
            del self._modules[name]
        else:
            object.__delattr__(self, name)

    def __dir__(self):
        module_attrs = dir(self.__class__)
        attrs = list(self.__dict__.keys())
        keys = module_attrs + attrs + list(self._parameters) + list(self._modules) + list(self._buffers)
        keys = [k for k in keys if not k[0].isdigit()]
        return sorted(set(keys))

    def __setstate__(self, state) -> None:
        self.__dict__.update(state)
        for name in ("_forward_pre_hooks", "_forward_hooks", "_forward_hooks_with_kwargs",
                     "_forward_hooks_always_called", "_forward_pre_hooks_with_kwargs", "_state_dict_hooks",
                     "_state_dict_pre_hooks", "_load_state_dict_pre_hooks", "_load_state_dict_post_hooks",
                     "_backward_pre_hooks", "_backward_hooks"):
            if name not in self.__dict__:
                self.__dict__[name] = OrderedDict()
        self.__dict__.setdefault("_non_persistent_buffers_set", set())
        self.__dict__.setdefault("_is_full_backward_hook", None)

    def __getstate__(self):
        return self.__dict__.copy()

    # -- calling --------------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if COMPILE_HOOK[0] is not None:  # torch.compile: a compiled module, or a trace running
            return COMPILE_HOOK[0](self, args, kwargs)
        d = self.__dict__
        if not (d["_forward_hooks"] or d["_forward_pre_hooks"] or d["_backward_hooks"]
                or d["_backward_pre_hooks"] or _global_forward_hooks or _global_forward_pre_hooks):
            return self.forward(*args, **kwargs)
        return self._call_impl(*args, **kwargs)

    def _call_uncompiled(self, *args, **kwargs):
        """The module's call (hooks around ``forward``) as written, never compiled."""
        d = self.__dict__
        if not (d["_forward_hooks"] or d["_forward_pre_hooks"] or d["_backward_hooks"]
                or d["_backward_pre_hooks"] or _global_forward_hooks or _global_forward_pre_hooks):
            return self.forward(*args, **kwargs)
        return self._call_impl(*args, **kwargs)

    def _call_impl(self, *args, **kwargs):
        d = self.__dict__
        pre_hooks = list(_global_forward_pre_hooks.items()) + list(d["_forward_pre_hooks"].items())
        for hook_id, hook in pre_hooks:
            if hook_id in d["_forward_pre_hooks_with_kwargs"]:
                res = hook(self, args, kwargs)
                if res is not None:
                    if not (isinstance(res, tuple) and len(res) == 2):
                        raise RuntimeError("forward pre-hook must return None or a tuple of (new_args, "
                                           f"new_kwargs), but got {res}.")
                    args, kwargs = res
            else:
                res = hook(self, args)
                if res is not None:
                    args = res if isinstance(res, tuple) else (res,)
        bw = None
        if d["_backward_hooks"] or d["_backward_pre_hooks"]:

            bw = BackwardHook(self, d["_backward_hooks"], d["_backward_pre_hooks"])
            args = bw.setup_input_hook(args)
        hooks = list(_global_forward_hooks.items()) + list(d["_forward_hooks"].items())
        called = set()
        try:
            result = self.forward(*args, **kwargs)
            for hook_id, hook in hooks:
                called.add(hook_id)
                if hook_id in d["_forward_hooks_with_kwargs"] or hook_id in _global_forward_hooks_with_kwargs:
                    res = hook(self, args, kwargs, result)
                else:
                    res = hook(self, args, result)
                if res is not None:
                    result = res
            if bw is not None:
                result = bw.setup_output_hook(result)
            return result
        except Exception:
            for hook_id, hook in hooks:
                if (hook_id in d["_forward_hooks_always_called"]
                        or hook_id in _global_forward_hooks_always_called) and hook_id not in called:
                    try:
                        if (hook_id in d["_forward_hooks_with_kwargs"]
                                or hook_id in _global_forward_hooks_with_kwargs):
                            hook(self, args, kwargs, None)
                        else:
                            hook(self, args, None)
                    except Exception:  # noqa: BLE001 — the original error wins
                        pass
            raise

    _call_impl_name = "_call_impl"

    # -- hooks ------------------------------------------------------------------------------
    def register_forward_pre_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                                  with_kwargs: bool = False) -> RemovableHandle:
        """``hook(module, args) -> None or new args`` (``hook(module, args, kwargs)`` with
        ``with_kwargs=True``, returning None or ``(args, kwargs)``), run before ``forward``."""
        handle = RemovableHandle(self._forward_pre_hooks, extra_dict=self._forward_pre_hooks_with_kwargs)
        self._forward_pre_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_pre_hooks_with_kwargs[handle.id] = True
        if prepend:
            self._forward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_forward_hook(self, hook: Callable[..., Any], *, prepend: bool = False,
                              with_kwargs: bool = False, always_call: bool = False) -> RemovableHandle:
        """``hook(module, args, output) -> None or new output``, run after ``forward``."""
        handle = RemovableHandle(self._forward_hooks, extra_dict=[self._forward_hooks_with_kwargs,
                                                                  self._forward_hooks_always_called])
        self._forward_hooks[handle.id] = hook
        if with_kwargs:
            self._forward_hooks_with_kwargs[handle.id] = True
        if always_call:
            self._forward_hooks_always_called[handle.id] = True
        if prepend:
            self._forward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_full_backward_hook(self, hook: Callable[..., Any], prepend: bool = False) -> RemovableHandle:
        """``hook(module, grad_input, grad_output) -> None or new grad_input``, run when the
        gradients with respect to the module's inputs have been computed."""
        if self._is_full_backward_hook is False:
            raise RuntimeError("Cannot use both regular backward hooks and full backward hooks on a "
                               "single Module. Please use only one of them.")
        self._is_full_backward_hook = True
        handle = RemovableHandle(self._backward_hooks)
        self._backward_hooks[handle.id] = hook
        if prepend:
            self._backward_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_backward_hook(self,
                               hook: Callable[..., tuple[Tensor, ...] | Tensor | None]) -> RemovableHandle:
        """Deprecated in PyTorch; registered here as a full backward hook."""
        import warnings

        warnings.warn("Using a non-full backward hook when the forward contains multiple autograd Nodes is "
                      "deprecated and will be removed in future versions. This hook will be missing some "
                      "grad_input. Please use register_full_backward_hook to get the documented behavior.",
                      FutureWarning, stacklevel=2)
        return self.register_full_backward_hook(hook)

    def register_full_backward_pre_hook(self, hook: Callable[..., tuple[Tensor, ...] | Tensor | None],
                                        prepend: bool = False) -> RemovableHandle:
        """``hook(module, grad_output) -> None or new grad_output``, run before the module's
        input gradients are computed."""
        handle = RemovableHandle(self._backward_pre_hooks)
        self._backward_pre_hooks[handle.id] = hook
        if prepend:
            self._backward_pre_hooks.move_to_end(handle.id, last=False)
        return handle

    def register_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        handle = RemovableHandle(self._state_dict_pre_hooks)
        self._state_dict_pre_hooks[handle.id] = hook
        return handle

    def _register_state_dict_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        handle = RemovableHandle(self._state_dict_hooks)
        self._state_dict_hooks[handle.id] = hook
        return handle

    register_state_dict_post_hook = _register_state_dict_hook

    def _register_load_state_dict_pre_hook(self, hook, with_module: bool = False) -> RemovableHandle:
        handle = RemovableHandle(self._load_state_dict_pre_hooks)
        self._load_state_dict_pre_hooks[handle.id] = (
            functools.partial(hook, self) if with_module else hook)
        return handle

    def register_load_state_dict_pre_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        return self._register_load_state_dict_pre_hook(hook, with_module=True)

    def register_load_state_dict_post_hook(self, hook: Callable[..., Any]) -> RemovableHandle:
        handle = RemovableHandle(self._load_state_dict_post_hooks)
        self._load_state_dict_post_hooks[handle.id] = hook
        return handle

    # -- iteration --------------------------------------------------------------------------
    def _named_members(self, get_members_fn, prefix: str = "", recurse: bool = True,
                       remove_duplicate: bool = True):
        memo = set()
        modules = self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate) if recurse \
            else [(prefix, self)]
        for module_prefix, module in modules:
            for k, v in get_members_fn(module):
                if v is None or v in memo:
                    continue
                if remove_duplicate:
                    memo.add(v)
                name = module_prefix + ("." if module_prefix else "") + k
                yield name, v

    def parameters(self, recurse: bool = True) -> Iterator[Parameter]:
        """The module's parameters (and its descendants' when ``recurse``), each once."""
        for _, param in self.named_parameters(recurse=recurse):
            yield param

    def named_parameters(self, prefix: str = "", recurse: bool = True,
                         remove_duplicate: bool = True) -> Iterator[tuple[str, Parameter]]:
        """``(name, parameter)`` pairs with dotted names (``'fc1.weight'``)."""
        yield from self._named_members(lambda m: m._parameters.items(), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def buffers(self, recurse: bool = True) -> Iterator[Tensor]:
        for _, buf in self.named_buffers(recurse=recurse):
            yield buf

    def named_buffers(self, prefix: str = "", recurse: bool = True,
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Tensor]]:
        yield from self._named_members(lambda m: m._buffers.items(), prefix=prefix, recurse=recurse,
                                       remove_duplicate=remove_duplicate)

    def children(self) -> Iterator["Module"]:
        for _, module in self.named_children():
            yield module

    def named_children(self) -> Iterator[tuple[str, "Module"]]:
        memo = set()
        for name, module in self._modules.items():
            if module is not None and id(module) not in memo:
                memo.add(id(module))
                yield name, module

    def modules(self, remove_duplicate: bool = True) -> Iterator["Module"]:
        for _, module in self.named_modules(remove_duplicate=remove_duplicate):
            yield module

    def named_modules(self, memo: set | None = None, prefix: str = "",
                      remove_duplicate: bool = True) -> Iterator[tuple[str, Module]]:
        """``(name, module)`` for this module (name ``prefix``) and all its descendants."""
        if memo is None:
            memo = set()
        stack = [(prefix, self)]
        while stack:
            pre, mod = stack.pop()
            if id(mod) in memo:
                continue
            if remove_duplicate:
                memo.add(id(mod))
            yield pre, mod
            kids = [(pre + ("." if pre else "") + name, m) for name, m in mod._modules.items()
                    if m is not None]
            stack.extend(reversed(kids))

    # -- modes ------------------------------------------------------------------------------
    def train(self, mode: bool = True) -> "Module":
        """Set training mode (Dropout drops, BatchNorm uses batch statistics) recursively."""
        if not isinstance(mode, bool):
            raise ValueError("training mode is expected to be boolean")
        self.training = mode
        for module in self.children():
            module.train(mode)
        return self

    def eval(self) -> "Module":
        """Evaluation mode: the same as ``train(False)``."""
        return self.train(False)

    def requires_grad_(self, requires_grad: bool = True) -> "Module":
        for p in self.parameters():
            p.requires_grad_(requires_grad)
        return self

    def zero_grad(self, set_to_none: bool = True) -> None:
        """Reset the gradients of all parameters (to None by default, as PyTorch >= 2.0)."""
        for p in self.parameters():
            g = p.grad
            if g is not None:
                if set_to_none:
                    p.grad = None
                else:
                    if g.grad_fn is not None:
                        g.detach_()
                    else:
                        g.requires_grad_(False)
                    g.zero_()

    # -- conversion -------------------------------------------------------------------------
    def _apply(self, fn, recurse: bool = True) -> "Module":
        if recurse:
            for module in self.children():
                module._apply(fn)
        swap = _future.get_swap_module_params_on_conversion()
        overwrite = _future.get_overwrite_module_params_on_conversion()
        for key, param in self._parameters.items():
            if param is None:
                continue
            with torch.no_grad():
                param_applied = fn(param)
            g = param.grad
            if swap:  # torch.__future__: the parameter object swaps contents with the result
                if g is not None:
                    param.grad = None
                new = Parameter(param_applied, requires_grad=param.requires_grad)
                if new._buf is param._buf:  # an unchanged parameter: swap with a fresh alias
                    new = Parameter(param_applied.detach().clone(), requires_grad=param.requires_grad)
                swap_tensors(param, new)
                out = param
            elif overwrite:  # torch.__future__: a new Parameter object
                out = Parameter(param_applied, param.requires_grad)
                self._parameters[key] = out
            else:
                if param_applied is not param:
                    param.data = param_applied
                out = param
            if g is not None:
                with torch.no_grad():
                    grad_applied = fn(g)
                if swap or overwrite:
                    out.grad = grad_applied
                elif grad_applied is not g:
                    g.data = grad_applied
        for key, buf in self._buffers.items():
            if buf is not None:
                self._buffers[key] = fn(buf)
        return self

    def apply(self, fn: Callable[["Module"], None]) -> "Module":
        """Call ``fn`` on every submodule (children first) and then on this module."""
        for module in self.children():
            module.apply(fn)
        fn(self)
        return self

    def to(self, *args: Any, **kwargs: Any) -> Module:
        """``to(device)``, ``to(dtype)``, ``to(tensor)``, ``to(device, dtype)``: move and/or cast
        parameters and buffers in place (floating-point dtypes only for the cast)."""
        fmt = kwargs.pop("memory_format", None)  # for 4-D parameters and buffers (conv weights)
        device, dtype, non_blocking = _parse_to(*args, **kwargs)
        if dtype is not None and not (dtype.is_floating_point or dtype.is_complex):
            raise TypeError(f"nn.Module.to only accepts floating point or complex dtypes, but got desired "
                            f"dtype={dtype}")

        def convert(t):
            if fmt is not None and t.dim() == 4:
                t = t.to(memory_format=fmt)
            if t.is_floating_point() or t.is_complex():
                return t.to(device, dtype, non_blocking) if device is not None else \
                    (t.to(dtype) if dtype is not None else t)
            return t.to(device) if device is not None else t

        return self._apply(convert)

    def cuda(self, device: torch.types.Device | None = None) -> Module:
        return self._apply(lambda t: t.cuda(device))

    def to_empty(self, *, device: torch.types.Device | None, recurse: bool = True) -> "Module":
        """Parameters and buffers replaced by new uninitialized tensors on ``device`` (PyTorch's
        step after building a model under ``with torch.device("meta"):``; fgrad makes "meta"
        tensors on the CPU, and the new storage here holds zeros).

        Example::

            >>> import fgrad.torch as torch
            >>> with torch.device("meta"):
            ...     m = torch.nn.Linear(3, 2)
            >>> m = m.to_empty(device="cpu")
            >>> m.reset_parameters()
            >>> tuple(m.weight.shape), m.weight.device
            ((2, 3), device(type='cpu'))
        """
        return self._apply(lambda t: torch.empty_like(t, device=device), recurse=recurse)

    def cpu(self) -> "Module":
        return self._apply(lambda t: t.cpu())

    def type(self, dst_type: DType | str) -> "Module":
        return self._apply(lambda t: t.type(dst_type))

    def float(self) -> "Module":
        return self._apply(lambda t: t.float() if t.is_floating_point() else t)

    def double(self) -> "Module":
        return self._apply(lambda t: t.double() if t.is_floating_point() else t)

    def half(self) -> "Module":
        return self._apply(lambda t: t.half() if t.is_floating_point() else t)

    def bfloat16(self) -> "Module":
        return self._apply(lambda t: t.bfloat16() if t.is_floating_point() else t)

    def share_memory(self) -> "Module":
        return self

    # -- state dict -------------------------------------------------------------------------
    def _save_to_state_dict(self, destination, prefix: str, keep_vars: bool) -> None:
        for name, param in self._parameters.items():
            if param is not None:
                destination[prefix + name] = param if keep_vars else param.detach()
        for name, buf in self._buffers.items():
            if buf is not None and name not in self._non_persistent_buffers_set:
                destination[prefix + name] = buf if keep_vars else buf.detach()
        extra = getattr(type(self), "get_extra_state", None)
        if extra is not None and extra is not Module.get_extra_state:
            destination[prefix + "_extra_state"] = self.get_extra_state()

    def get_extra_state(self) -> Any:
        raise RuntimeError("Reached a code path in Module.get_extra_state() that should never be called.")

    def set_extra_state(self, state: Any) -> None:
        raise RuntimeError("Reached a code path in Module.set_extra_state() that should never be called.")

    def state_dict(self, *args: Any, destination: dict[str, Any] | None = None, prefix: str = "",
                   keep_vars: bool = False) -> dict[str, Any]:
        """An ordered dict of parameters and persistent buffers keyed by dotted names, with a
        ``_metadata`` attribute holding each module's version (PyTorch's layout)."""
        if args:  # the deprecated positional form state_dict(destination, prefix, keep_vars)
            _deprecations.warn("state_dict", FutureWarning)
            destination = args[0]
            if len(args) > 1:
                prefix = args[1]
            if len(args) > 2:
                keep_vars = args[2]
        if destination is None:
            destination = OrderedDict()
            destination._metadata = OrderedDict()
        local_metadata = {"version": self._version}
        if hasattr(destination, "_metadata"):
            destination._metadata[prefix[:-1]] = local_metadata
        for hook in self._state_dict_pre_hooks.values():
            hook(self, prefix, keep_vars)
        self._save_to_state_dict(destination, prefix, keep_vars)
        for name, module in self._modules.items():
            if module is not None:
                module.state_dict(destination=destination, prefix=prefix + name + ".", keep_vars=keep_vars)
        for hook in self._state_dict_hooks.values():
            res = hook(self, destination, prefix, local_metadata)
            if res is not None:
                destination = res
        return destination

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys,
                              unexpected_keys, error_msgs) -> None:
        for hook in self._load_state_dict_pre_hooks.values():
            hook(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys, error_msgs)
        persistent_buffers = {k: v for k, v in self._buffers.items()
                              if k not in self._non_persistent_buffers_set}
        local_state = {k: v for k, v in itertools.chain(self._parameters.items(), persistent_buffers.items())
                       if v is not None}
        assign = local_metadata.get("assign_to_params_buffers", False)
        for name, param in local_state.items():
            key = prefix + name
            if key not in state_dict:
                if strict:
                    missing_keys.append(key)
                continue
            input_param = state_dict[key]
            if not isinstance(input_param, Tensor):
                error_msgs.append(f'While copying the parameter named "{key}", expected torch.Tensor or '
                                  f"Tensor-like object from checkpoint but received {type(input_param)}")
                continue
            if input_param.shape != param.shape:
                error_msgs.append(f"size mismatch for {key}: copying a param with shape {input_param.shape} "
                                  f"from checkpoint, the shape in current model is {param.shape}.")
                continue
            try:
                with torch.no_grad():
                    if assign:
                        if isinstance(param, Parameter):
                            new = input_param if isinstance(input_param, Parameter) else \
                                Parameter(input_param, requires_grad=param.requires_grad)
                            setattr(self, name, new)
                        else:
                            setattr(self, name, input_param)
                    else:
                        param.copy_(input_param)
            except Exception as ex:  # noqa: BLE001 — reported like PyTorch
                action = "swapping" if _future.get_swap_module_params_on_conversion() else "copying"
                error_msgs.append(
                    f'While {action} the parameter named "{key}", whose dimensions in the model are '
                    f"{param.size()} and whose dimensions in the checkpoint are {input_param.size()}, an "
                    f"exception occurred : {ex.args}.")
        extra_key = prefix + "_extra_state"
        has_extra = getattr(type(self), "set_extra_state", None) is not Module.set_extra_state
        if has_extra:
            if extra_key in state_dict:
                self.set_extra_state(state_dict[extra_key])
            elif strict:
                missing_keys.append(extra_key)
        if strict:
            for key in state_dict.keys():
                if key.startswith(prefix) and key != extra_key:
                    input_name = key[len(prefix):].split(".", 1)
                    if input_name[0] not in self._modules and input_name[0] not in local_state:
                        unexpected_keys.append(key)

    def load_state_dict(self, state_dict: Mapping[str, Any], strict: bool = True,
                        assign: bool = False) -> _IncompatibleKeys:
        """Copy parameters and buffers from ``state_dict`` (in place, under no_grad; with
        ``assign=True`` the tensors are taken over instead).  Returns ``(missing_keys,
        unexpected_keys)``; with ``strict`` any mismatch raises PyTorch's RuntimeError."""
        if not isinstance(state_dict, dict):
            raise TypeError(f"Expected state_dict to be dict-like, got {type(state_dict)}.")
        missing_keys: list[str] = []
        unexpected_keys: list[str] = []
        error_msgs: list[str] = []
        metadata = getattr(state_dict, "_metadata", None)
        state_dict = OrderedDict(state_dict)
        if metadata is not None:
            state_dict._metadata = metadata

        stack = [(self, "")]
        while stack:
            module, prefix = stack.pop()
            local_metadata = {} if metadata is None else dict(metadata.get(prefix[:-1], {}))
            if assign:
                local_metadata["assign_to_params_buffers"] = assign
            module._load_from_state_dict(state_dict, prefix, local_metadata, True, missing_keys,
                                         unexpected_keys, error_msgs)
            kids = [(child, prefix + name + ".") for name, child in module._modules.items()
                    if child is not None]
            stack.extend(reversed(kids))
        incompatible = _IncompatibleKeys(missing_keys, unexpected_keys)
        for module in self.modules():
            for hook in module._load_state_dict_post_hooks.values():
                hook(module, incompatible)
        if strict:
            if unexpected_keys:
                error_msgs.insert(0, "Unexpected key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in unexpected_keys)))
            if missing_keys:
                error_msgs.insert(0, "Missing key(s) in state_dict: {}. ".format(
                    ", ".join(f'"{k}"' for k in missing_keys)))
        if error_msgs:
            raise RuntimeError("Error(s) in loading state_dict for {}:\n\t{}".format(
                self.__class__.__name__, "\n\t".join(error_msgs)))
        return incompatible

    # -- printing ---------------------------------------------------------------------------
    def _get_name(self) -> str:
        return self.__class__.__name__

    def extra_repr(self) -> str:
        """Extra text inside the module's repr parentheses; override in subclasses."""
        return ""

    def __repr__(self) -> str:
        extra_lines = []
        extra_repr = self.extra_repr()
        if extra_repr:
            extra_lines = extra_repr.split("\n")
        child_lines = []
        for key, module in self._modules.items():
            mod_str = _addindent(repr(module), 2)
            child_lines.append("(" + key + "): " + mod_str)
        lines = extra_lines + child_lines
        main_str = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main_str += extra_lines[0]
            else:
                main_str += "\n  " + "\n  ".join(lines) + "\n"
        main_str += ")"
        return main_str


def _parse_to(*args, **kwargs):
    """Split the arguments of ``to`` into (device, dtype, non_blocking)."""
    device = kwargs.pop("device", None)
    dtype = kwargs.pop("dtype", None)
    non_blocking = kwargs.pop("non_blocking", False)
    kwargs.pop("copy", None)
    if kwargs:
        raise TypeError(f"to() received an invalid combination of arguments - got {sorted(kwargs)}")
    args = list(args)
    for a in args:
        if isinstance(a, Tensor):
            device, dtype = a.device, a.dtype
        elif isinstance(a, torch.dtype):
            dtype = a
        elif isinstance(a, bool):
            non_blocking = a
        elif isinstance(a, (str, int, torch.device)):
            device = a
        elif a is not None:
            raise TypeError(f"to() received an invalid argument of type {type(a).__name__}")
    if device is not None:
        device = torch.device(device)
    return device, dtype, non_blocking
