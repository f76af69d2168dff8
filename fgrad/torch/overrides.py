"""`torch.overrides`: PyTorch's ``__torch_function__`` protocol.

An argument whose type defines ``__torch_function__`` (a ``Tensor`` subclass, or any other
object) takes over the ``fgrad.torch`` function, ``linalg``/``fft``/``nn.functional``
function, ``Tensor`` method or property it is passed to: the call becomes
``type(arg).__torch_function__(func, types, args, kwargs)``, tried for each such argument
(subclasses before their bases, then left to right) until one does not return
``NotImplemented``.  ``Tensor.__torch_function__`` itself runs the function with the protocol
switched off and converts ``Tensor`` results to the subclass (`_convert`), so subclasses
survive operations; ``nn.Parameter`` switches the protocol off for itself
(``__torch_function__ = _disabled_torch_function_impl``), as PyTorch.

Example::

    >>> import fgrad.torch as torch
    >>> class Tagged(torch.Tensor):
    ...     pass
    >>> t = torch.ones(2).as_subclass(Tagged)
    >>> type(torch.sin(t) + 1).__name__
    'Tagged'
    >>> torch.overrides.has_torch_function((t,))
    True
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Iterable
from typing import Any

from ._tensor import Tensor

__all__ = [
    "DisableTorchFunction", "DisableTorchFunctionSubclass", "TorchFunctionMode",
    "get_default_nowrap_functions",
    "handle_torch_function", "has_torch_function", "has_torch_function_unary", "has_torch_function_variadic",
    "is_tensor_like", "is_tensor_method_or_property", "wrap_torch_function",
]

_STATE = threading.local()  # .off: 0 protocol on, 1 off for Tensor subclasses, 2 off for every type
_SUBCLASSES_OFF, _ALL_OFF = 1, 2

# Argument types never overloaded (a cache: a type lands here once it is found plain)
_PLAIN: set[type] = {Tensor, int, float, bool, complex, str, bytes, type(None), slice, type(...)}


def _off() -> int:
    return getattr(_STATE, "off", 0)


def _disabled_torch_function_impl(func: Callable, types: Iterable[type], args: tuple = (),
                                  kwargs: dict | None = None) -> Any:
    """The ``__torch_function__`` of a class that opts out of the protocol (``nn.Parameter``):
    its instances are not overloaded and the call runs ``func`` as is.

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.overrides import _disabled_torch_function_impl
    >>> class Plain(torch.Tensor):
    ...     __torch_function__ = _disabled_torch_function_impl
    >>> type(torch.ones(1).as_subclass(Plain) + 1).__name__
    'Tensor'
    """
    with DisableTorchFunctionSubclass():
        return func(*args, **(kwargs or {}))


class _Switch:
    """Turn the protocol off (``level`` 1: for Tensor subclasses, 2: for every type) inside a
    ``with`` block; the previous state comes back on exit."""

    level = _SUBCLASSES_OFF

    def __enter__(self) -> None:
        self._prev = _off()
        _STATE.off = max(self._prev, self.level)

    def __exit__(self, *exc: object) -> None:
        _STATE.off = self._prev


class DisableTorchFunctionSubclass(_Switch):
    """Inside the block, ``Tensor`` subclasses do not take over calls (PyTorch's
    ``torch._C.DisableTorchFunctionSubclass``); what ``Tensor.__torch_function__`` runs under.

    >>> import fgrad.torch as torch
    >>> class Tagged(torch.Tensor): pass
    >>> t = torch.ones(1).as_subclass(Tagged)
    >>> with torch._C.DisableTorchFunctionSubclass():
    ...     print(type(t + 1).__name__)
    Tensor
    """

    level = _SUBCLASSES_OFF


class DisableTorchFunction(_Switch):
    """Inside the block no argument takes over a call, ``Tensor`` subclass or not
    (PyTorch's ``torch._C.DisableTorchFunction``).

    >>> import fgrad.torch as torch
    >>> class Tagged(torch.Tensor): pass
    >>> with torch._C.DisableTorchFunction():
    ...     print(type(torch.ones(1).as_subclass(Tagged) * 2).__name__)
    Tensor
    """

    level = _ALL_OFF


def _is_torch_function_enabled() -> bool:
    """Whether the protocol is on (no ``DisableTorchFunction`` block is active).

    >>> import fgrad.torch as torch
    >>> torch._C._is_torch_function_enabled()
    True
    """
    return _off() < _ALL_OFF


def _overloads(t: type) -> bool:
    f = getattr(t, "__torch_function__", None)
    if f is None or f is _disabled_torch_function_impl:
        return False
    return t is not Tensor and not _pytorch_tensor_type(t)


def _pytorch_tensor_type(t: type) -> bool:
    """Whether ``t`` is (a subclass of) the real PyTorch's tensor: it defines the protocol for
    PyTorch's own functions; passed to fgrad (DLPack, ``torch.tensor(pt_tensor)``) it is data."""
    return any(c.__name__ == "TensorBase" and c.__module__ == "torch._C" for c in t.__mro__)


def _get_overloaded_args(relevant_args: Iterable[Any],
                         get_type_fn: Callable[[Any], type] | None = None) -> list:
    """The arguments of ``relevant_args`` (and of lists/tuples among them) whose type takes
    over calls, one per type, subclasses before their bases, otherwise in order.

    >>> import fgrad.torch as torch
    >>> class Tagged(torch.Tensor): pass
    >>> t = torch.ones(1).as_subclass(Tagged)
    >>> _get_overloaded_args([torch.ones(1), [t, 2]]) == [t]
    True
    """
    off = _off()
    if off >= _ALL_OFF:
        return []
    type_of = type if get_type_fn is None else get_type_fn
    found: list = []
    seen: list[type] = []

    def visit(a: Any, nested: bool) -> None:
        t = type_of(a)
        if t in _PLAIN or t in seen:
            return
        if not nested and (t is list or t is tuple):
            for e in a:
                visit(e, True)
            return
        if not _overloads(t):
            if get_type_fn is None and t is not list and t is not tuple:
                _PLAIN.add(t)
            return
        if off and issubclass(t, Tensor):
            return
        at = len(found)
        for i, other in enumerate(found):
            if issubclass(t, type_of(other)):
                at = i
                break
        found.insert(at, a)
        seen.append(t)

    for a in relevant_args:
        visit(a, False)
    return found


def _overloaded_leaf(a: Any) -> bool:
    t = type(a)
    if not _overloads(t):
        if t is not list and t is not tuple:
            _PLAIN.add(t)
        return False
    off = _off()
    return not off or (off < _ALL_OFF and not issubclass(t, Tensor))


def overloaded_arg(a: Any) -> bool:
    """Whether the argument ``a`` (or an element of it, for a list or tuple) takes over a
    call: the check of the shim's public entry points, for an argument whose type is not
    already known to be plain.

    >>> import fgrad.torch as torch
    >>> overloaded_arg([torch.ones(1), 2]), overloaded_arg(torch.ones(1))
    (False, False)
    """
    t = type(a)
    if t is list or t is tuple:
        if _PLAIN.issuperset(map(type, a)):  # the common case (64 rows to stack) in one C pass
            return False
        for e in a:
            if type(e) not in _PLAIN and _overloaded_leaf(e):
                return True
        return False
    return _overloaded_leaf(a)


def dispatch_call(func: Callable, args: tuple, kwargs: dict) -> Any:
    """Run ``func(*args, **kwargs)`` through the overloaded arguments' ``__torch_function__``
    (PyTorch's order; ``TypeError`` when every one returns ``NotImplemented``).

    >>> import fgrad.torch as torch
    >>> class Echo:
    ...     @classmethod
    ...     def __torch_function__(cls, func, types, args=(), kwargs=None):
    ...         return func.__name__
    >>> dispatch_call(torch.sin, (Echo(),), {})
    'sin'
    """
    overloaded = _get_overloaded_args((*args, *kwargs.values()))
    if not overloaded and not _active_modes():
        return func(*args, **kwargs)
    return _dispatch(func, overloaded, args, kwargs)


def has_torch_function(relevant_args: Iterable[Any]) -> bool:
    """Whether an argument of ``relevant_args`` takes over calls (a ``Tensor`` subclass or an
    object defining ``__torch_function__``; not plain tensors, not ``nn.Parameter``).

    >>> import fgrad.torch as torch
    >>> torch.overrides.has_torch_function((torch.ones(1), 2.0))
    False
    """
    return bool(_get_overloaded_args(relevant_args)) or bool(_active_modes())


def has_torch_function_unary(obj: Any) -> bool:
    """`has_torch_function` of one argument.

    >>> import fgrad.torch as torch
    >>> torch.overrides.has_torch_function_unary(torch.nn.Parameter(torch.ones(1)))
    False
    """
    return bool(_get_overloaded_args((obj,))) or bool(_active_modes())


def has_torch_function_variadic(*args: Any) -> bool:
    """`has_torch_function` of the arguments themselves.

    >>> import fgrad.torch as torch
    >>> torch.overrides.has_torch_function_variadic(torch.ones(1), torch.zeros(1))
    False
    """
    return bool(_get_overloaded_args(args)) or bool(_active_modes())


def _public_name(func: Callable) -> str:
    name = getattr(func, "__fgrad_torch_name__", None)
    if name is not None:
        return name
    owner = getattr(func, "__self__", None)
    if isinstance(owner, property):
        for k, v in vars(Tensor).items():
            if v is owner:
                return f"torch.Tensor.{k}.__get__"
    qual = getattr(func, "__qualname__", getattr(func, "__name__", repr(func)))
    if getattr(Tensor, getattr(func, "__name__", ""), None) is func:
        return f"torch.Tensor.{func.__name__}"
    mod = getattr(func, "__module__", "") or ""
    return f"{mod.replace('fgrad.torch', 'torch', 1)}.{qual}" if mod else qual


def _no_implementation(func: Callable, overloaded: list, mode: Any = None) -> TypeError:
    name = _public_name(func)
    if name.startswith("torch.nn.functional.") or not name.startswith("torch."):
        return TypeError(f"no implementation found for '{name}' on types that implement __torch_function__: "
                         f"{[type(a) for a in overloaded]}")
    kinds = "".join(f"  - tensor subclass {type(a)}\n" for a in overloaded)
    if mode is not None:
        kinds = f"  - mode object {mode!r}\n" + kinds
    return TypeError(f"Multiple dispatch failed for '{name}'; all __torch_function__ handlers returned "
                     f"NotImplemented:\n\n{kinds}\nFor more information, try re-running with "
                     f"TORCH_LOGS=not_implemented")


def _dispatch(func: Callable, overloaded: list, args: tuple, kwargs: dict, binary: bool = False,
              types: tuple | None = None) -> Any:
    if types is None:
        types = tuple(type(a) for a in overloaded)
    stack = _active_modes()
    mode = None
    if stack:  # the innermost mode first, popped while its handler runs (as PyTorch)
        mode = stack.pop()
        try:
            out = mode.__torch_function__(func, types, args, kwargs)
        finally:
            stack.append(mode)
        if out is not NotImplemented:
            return out
    for a in overloaded:
        out = type(a).__torch_function__(func, types, args, kwargs)
        if out is not NotImplemented:
            return out
    if binary:  # Python then tries the reflected operator, as for PyTorch's operators
        return NotImplemented
    raise _no_implementation(func, overloaded, mode)


def handle_torch_function(public_api: Callable, relevant_args: Iterable[Any], *args: Any,
                          **kwargs: Any) -> Any:
    """Call ``public_api``'s override: ``__torch_function__`` of the overloaded arguments
    among ``relevant_args``, in PyTorch's order, until one returns something other than
    ``NotImplemented`` (then ``TypeError``).  What a function written in Python calls when
    `has_torch_function` is true.

    >>> import fgrad.torch as torch
    >>> class Wrapped:
    ...     @classmethod
    ...     def __torch_function__(cls, func, types, args=(), kwargs=None):
    ...         return f"{func.__name__} of {len(args)} argument(s)"
    >>> def double(x):
    ...     if torch.overrides.has_torch_function_unary(x):
    ...         return torch.overrides.handle_torch_function(double, (x,), x)
    ...     return 2 * x
    >>> double(Wrapped())
    'double of 1 argument(s)'
    """
    overloaded = _get_overloaded_args(relevant_args)
    if not overloaded and not _active_modes():
        return public_api(*args, **kwargs)
    return _dispatch(public_api, overloaded, args, kwargs, types=_python_types(relevant_args, overloaded))


def get_default_nowrap_functions() -> set[Callable]:
    """The functions whose results ``Tensor.__torch_function__`` does not convert to the
    subclass (the ``.grad`` getter: a gradient stays a plain tensor).

    >>> import fgrad.torch as torch
    >>> torch.Tensor.grad.__get__ in torch.overrides.get_default_nowrap_functions()
    True
    """
    return {Tensor.grad.__get__}


def is_tensor_like(inp: Any) -> bool:
    """Whether ``inp`` is a ``Tensor`` or its type defines ``__torch_function__``.

    >>> import fgrad.torch as torch
    >>> torch.overrides.is_tensor_like(torch.ones(1)), torch.overrides.is_tensor_like([1.0])
    (True, False)
    """
    return type(inp) is Tensor or hasattr(inp, "__torch_function__")


def is_tensor_method_or_property(func: Callable) -> bool:
    """Whether ``func`` is a ``Tensor`` method or a property's getter.

    >>> import fgrad.torch as torch
    >>> torch.overrides.is_tensor_method_or_property(torch.Tensor.add)
    True
    """
    owner = getattr(func, "__self__", None)
    if isinstance(owner, property):
        return any(v is owner for v in vars(Tensor).values())
    name = getattr(func, "__name__", None)
    return name is not None and getattr(Tensor, name, None) is func


def wrap_torch_function(dispatcher: Callable) -> Callable[[Callable], Callable]:
    """Decorator: the function takes part in the protocol; ``dispatcher`` takes the
    function's arguments and returns the ones to check.

    >>> import fgrad.torch as torch
    >>> @torch.overrides.wrap_torch_function(lambda x: (x,))
    ... def twice(x):
    ...     return x * 2
    >>> twice(torch.ones(1)).tolist()
    [2.0]
    """

    def decorate(func: Callable) -> Callable:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            relevant = dispatcher(*args, **kwargs)
            overloaded = _get_overloaded_args(relevant)
            if overloaded or _active_modes():
                return _dispatch(wrapped, overloaded, args, kwargs, types=_python_types(relevant, overloaded))
            return func(*args, **kwargs)

        return wrapped

    return decorate


def _convert(ret: Any, cls: type) -> Any:
    if cls is Tensor:
        return ret
    if isinstance(ret, Tensor) and not isinstance(ret, cls):
        return ret.as_subclass(cls)
    if isinstance(ret, (tuple, list)):
        items = [_convert(r, cls) for r in ret]
        if hasattr(ret, "_fields"):  # a named tuple (torch.return_types)
            return type(ret)(*items)
        return type(ret)(items)
    return ret


def _tensor_torch_function(cls: type, func: Callable, types: Iterable[type], args: tuple = (),
                           kwargs: dict | None = None) -> Any:
    """``Tensor.__torch_function__``: run ``func`` with subclass overrides off and give
    ``Tensor`` results the class ``cls`` (``NotImplemented`` when another overloaded type is
    not a base of ``cls``).

    >>> import fgrad.torch as torch
    >>> class Tagged(torch.Tensor): pass
    >>> t = torch.ones(2).as_subclass(Tagged)
    >>> type(Tagged.__torch_function__(torch.add, (Tagged,), (t, t))).__name__
    'Tagged'
    """
    if kwargs is None:
        kwargs = {}
    if not all(issubclass(cls, t) for t in types):
        return NotImplemented
    with DisableTorchFunctionSubclass():
        ret = func(*args, **kwargs)
        if func in get_default_nowrap_functions():
            return ret
        return _convert(ret, cls)


# -- Tensor subclasses: their inherited methods and properties take part -------------------

_NOT_ROUTED = frozenset({
    "__new__", "__init__", "__init_subclass__", "__hash__", "__dict__", "__slots__", "__weakref__",
    "__module__", "__doc__", "__torch_function__", "__array_priority__", "__dir__", "__class_getitem__",
    "__setstate__", "__reduce_ex__", "__deepcopy__", "__getattr__", "__getattribute__", "__setattr__",
    "__delattr__", "as_subclass",  # (PyTorch's get_ignored_functions: not seen by overrides)
})
_BINARY_DUNDERS = frozenset(
    f"__{p}{n}__" for p in ("", "r", "i") for n in (
        "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul", "and", "or", "xor", "lshift",
        "rshift")
) | {"__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__"}


# The method an operator's override sees, as PyTorch (``x + 1`` is ``Tensor.add``); the other
# dunders pass themselves (``x == 1`` is ``Tensor.__eq__``, ``1 - x`` is ``Tensor.__rsub__``)
_DUNDER_METHODS = {
    "__add__": "add", "__radd__": "add", "__iadd__": "add_", "__sub__": "sub", "__isub__": "sub_",
    "__mul__": "mul", "__rmul__": "mul", "__imul__": "mul_", "__truediv__": "div", "__itruediv__": "div_",
    "__mod__": "remainder", "__pow__": "pow", "__matmul__": "matmul", "__neg__": "neg", "__pos__": "positive",
    "__abs__": "abs", "__lt__": "lt", "__le__": "le", "__gt__": "gt", "__ge__": "ge", "__ne__": "ne",
}


# Tensor methods PyTorch writes in Python (torch/_tensor.py): under a mode, their ``types`` name
# the tensor's own type, as `handle_torch_function` gives them
_PYTHON_METHODS = frozenset({
    "__rsub__", "__rdiv__", "__rtruediv__", "__rpow__", "__floordiv__", "__rfloordiv__", "__rlshift__",
    "__rrshift__", "__rmatmul__", "__rmod__", "__format__", "__repr__", "__len__", "__iter__", "__contains__",
    "__reversed__", "__dir__", "__array__", "__array_wrap__", "__deepcopy__", "__reduce_ex__", "__dlpack__",
    "__dlpack_device__", "backward", "register_hook", "register_post_accumulate_grad_hook", "detach",
    "detach_", "is_shared", "share_memory_", "norm", "lu", "stft", "istft", "split", "unique",
    "unique_consecutive", "unflatten", "storage", "dim_order", "module_load", "refine_names", "align_to",
    "rename", "rename_", "to_sparse_coo", "resize", "resize_as",
})


def _routed_method(name: str, orig: Callable) -> Callable:
    binary = name in _BINARY_DUNDERS
    seen_as = _DUNDER_METHODS.get(name, name)
    in_python = name in _PYTHON_METHODS

    @functools.wraps(orig)
    def method(self: Tensor, *args: Any, **kwargs: Any) -> Any:
        if _off() >= _ALL_OFF:
            return orig(self, *args, **kwargs)
        overloaded = _get_overloaded_args((self, *args, *kwargs.values()) if kwargs else (self, *args))
        if not overloaded and not _active_modes():
            return orig(self, *args, **kwargs)
        # the override sees what ``torch.Tensor.<name>`` is now (the routed copy while a mode is on)
        types = (type(self),) if in_python and not overloaded else None
        return _dispatch(vars(Tensor)[seen_as], overloaded, (self, *args), kwargs, binary, types)

    method.__name__, method.__qualname__ = name, f"Tensor.{name}"  # (``__rsub__`` is ``_rsub``)
    return method


def _routed_property(name: str, prop: property) -> property:
    getter = prop.__get__

    def fget(self: Tensor) -> Any:
        if _off() >= _ALL_OFF:
            return getter(self)
        overloaded = _get_overloaded_args((self,))
        if not overloaded and not _active_modes():
            return getter(self)
        return _dispatch(vars(Tensor)[name].__get__, overloaded, (self,), {}, types=(type(self),))

    return property(fget, prop.fset, prop.fdel, prop.__doc__)


_ROUTED: dict[str, Any] = {}


def _tensor_member(name: str) -> Any:
    """``Tensor``'s own member ``name`` (not the routed copy standing in while a mode is on)."""
    return _TENSOR_OWN.get(name, vars(Tensor)[name])


def _routed_members() -> dict[str, Any]:
    names = {k for k in vars(Tensor) if k not in _NOT_ROUTED and (not k.startswith("_") or k.endswith("__"))}
    if names != set(_ROUTED):
        _ROUTED.clear()
        for k in names:
            v = _tensor_member(k)
            if isinstance(v, property):
                _ROUTED[k] = _routed_property(k, v)
            elif callable(v) and not isinstance(v, (staticmethod, classmethod, type)):
                _ROUTED[k] = _routed_method(k, v)
    return _ROUTED


def install_subclass(cls: type) -> None:
    """Give the ``Tensor`` subclass ``cls`` the protocol on the methods and properties it
    inherits from ``Tensor`` (called by ``Tensor.__init_subclass__``; a class that opts out
    with `_disabled_torch_function_impl` keeps ``Tensor``'s own).

    >>> import fgrad.torch as torch
    >>> class Tagged(torch.Tensor): pass
    >>> type(torch.ones(2).as_subclass(Tagged).sum()).__name__
    'Tagged'
    """
    if not _overloads(cls):
        return
    own: set[str] = set()
    for k in cls.__mro__:
        if k is Tensor:
            break
        own.update(vars(k))
    for name, member in _routed_members().items():
        if name not in own and name in vars(Tensor):
            setattr(cls, name, member)


# -- TorchFunctionMode: handlers that see every call of a thread ----------------------------

_ACTIVE: list = []  # the modes entered in any thread: the entry points' one-test fast path
_TENSOR_OWN: dict[str, Any] = {}  # Tensor's own members while routed copies stand in for them


def _thread_modes() -> list:
    stack = getattr(_STATE, "modes", None)
    if stack is None:
        stack = _STATE.modes = []
    return stack


def _active_modes() -> list:
    """This thread's mode stack when modes take calls now (empty otherwise; a block under
    ``DisableTorchFunction`` switches them off, ``DisableTorchFunctionSubclass`` does not)."""
    if not _ACTIVE or _off() >= _ALL_OFF:
        return []
    return _thread_modes()


def _python_types(relevant_args: Iterable[Any], overloaded: list) -> tuple:
    """The ``types`` a function written in Python passes (`handle_torch_function`): the
    overloaded types, or under a mode the tensor types among ``relevant_args`` (as PyTorch)."""
    if overloaded or not _active_modes():
        return tuple(type(a) for a in overloaded)
    return tuple(dict.fromkeys(type(a) for a in relevant_args if isinstance(a, Tensor)))


def _route_plain_tensors(on: bool) -> None:
    # while a mode is on anywhere, Tensor's methods and properties are the routed copies (plain
    # tensors then pay the check); Tensor is its own self again when the last mode exits
    if on:
        members = _routed_members()
        for name in members:
            _TENSOR_OWN[name] = vars(Tensor)[name]
        for name, member in members.items():
            setattr(Tensor, name, member)
    else:
        for name, own in _TENSOR_OWN.items():
            setattr(Tensor, name, own)
        _TENSOR_OWN.clear()


def _push_mode(mode: Any) -> None:
    _thread_modes().append(mode)
    _ACTIVE.append(mode)
    if len(_ACTIVE) == 1:
        _route_plain_tensors(True)


def _pop_mode() -> Any:
    mode = _thread_modes().pop()
    for i, m in enumerate(_ACTIVE):
        if m is mode:
            del _ACTIVE[i]
            break
    if not _ACTIVE:
        _route_plain_tensors(False)
    return mode


class TorchFunctionMode:
    """A handler that sees every ``fgrad.torch`` function, ``Tensor`` method and property
    called in its ``with`` block (PyTorch's ``torch.overrides.TorchFunctionMode``): subclass it
    and define ``__torch_function__(self, func, types, args=(), kwargs=None)``.  The handler
    runs with its mode popped, so calling ``func(*args, **kwargs)`` inside it runs the call
    (through the modes entered before it); returning ``NotImplemented`` passes the call on to
    the arguments' own ``__torch_function__``.

    >>> import fgrad.torch as torch
    >>> class Calls(torch.overrides.TorchFunctionMode):
    ...     def __init__(self):
    ...         super().__init__()
    ...         self.names = []
    ...     def __torch_function__(self, func, types, args=(), kwargs=None):
    ...         self.names.append(func.__name__)
    ...         return func(*args, **(kwargs or {}))
    >>> with Calls() as calls:
    ...     y = torch.relu(torch.ones(2)) + 1
    >>> calls.names
    ['ones', 'relu', 'add']
    """

    def __init__(self) -> None:
        pass

    def __torch_function__(self, func: Callable, types: Iterable[type], args: tuple = (),
                           kwargs: dict | None = None) -> Any:
        raise NotImplementedError

    def __enter__(self) -> TorchFunctionMode:
        _push_mode(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _pop_mode()

    @classmethod
    def push(cls, *args: Any, **kwargs: Any) -> TorchFunctionMode:
        """A new mode of this class, to enter with ``with`` (PyTorch's deprecated spelling).

        >>> import fgrad.torch as torch
        >>> isinstance(torch.overrides.TorchFunctionMode.push(), torch.overrides.TorchFunctionMode)
        True
        """
        return cls(*args, **kwargs)


def _get_current_function_mode() -> Any:
    """The innermost mode of this thread (``None`` when none is entered).

    >>> import fgrad.torch as torch
    >>> torch.overrides._get_current_function_mode() is None
    True
    """
    stack = _thread_modes()
    return stack[-1] if stack else None


def _get_current_function_mode_stack() -> list:
    """This thread's modes, outermost first.

    >>> import fgrad.torch as torch
    >>> torch.overrides._get_current_function_mode_stack()
    []
    """
    return list(_thread_modes())


class _pop_mode_temporarily:  # noqa: N801  (PyTorch's name)
    """A block with this thread's innermost mode popped (it comes back on exit); ``as`` gives it.

    >>> import fgrad.torch as torch
    >>> with torch.overrides._pop_mode_temporarily() as mode:
    ...     print(mode)
    None
    """

    def __enter__(self) -> Any:
        self._mode = _pop_mode() if _thread_modes() else None
        return self._mode

    def __exit__(self, *exc: object) -> None:
        if self._mode is not None:
            _push_mode(self._mode)


Tensor.__torch_function__ = classmethod(_tensor_torch_function)
