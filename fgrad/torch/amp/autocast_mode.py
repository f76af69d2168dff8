"""``torch.autocast`` / ``torch.amp.autocast``: mixed precision by PyTorch's per-op lists
(`fgrad.torch._autocast_state` holds the lists' policies and the per-thread state).

Example::

    >>> import fgrad.torch as torch
    >>> lin = torch.nn.Linear(3, 2)
    >>> with torch.autocast(device_type="cpu", dtype=torch.bfloat16):
    ...     y = lin(torch.ones(4, 3))
    ...     loss = y.float().pow(2).mean()
    >>> y.dtype, loss.dtype
    (torch.bfloat16, torch.float32)
"""

from __future__ import annotations

import collections.abc
import functools
import warnings
from typing import Any, Callable

import fgrad.torch._device as _dev
import fgrad.torch._dtypes as D
from .. import _autocast_state as _state
from .._tensor import Tensor

_DEVICE_TYPES = ("cpu", "cuda")
# PyTorch's device types (the ones its device-string parser names)
_TORCH_DEVICE_TYPES = ("cpu", "cuda", "ipu", "xpu", "mkldnn", "opengl", "opencl", "ideep", "hip", "ve",
                       "fpga", "maia", "xla", "lazy", "vulkan", "mps", "meta", "hpu", "mtia", "privateuseone")


def _device_type_arg(fn_name: str, device_type: object) -> str:
    """``device_type`` checked as PyTorch checks it (TypeError for a non-str, RuntimeError
    for an unknown device type)."""
    if not isinstance(device_type, str):
        raise TypeError(f"{fn_name}(): argument 'device_type' (position 1) must be str, not "
                        f"{type(device_type).__name__}")
    if device_type not in _TORCH_DEVICE_TYPES:
        raise RuntimeError(f"Expected one of {', '.join(_TORCH_DEVICE_TYPES)} device type at start of device "
                           f"string: {device_type}")
    return device_type


def _autocast_device(fn_name: str, device_type: object) -> str:
    device_type = _device_type_arg(fn_name, device_type)
    if device_type not in _DEVICE_TYPES:
        raise RuntimeError(f"{fn_name}(): fgrad.torch has autocast for 'cpu' and 'cuda', not '{device_type}'")
    return device_type
_SUPPORTED_DTYPES = (D.bfloat16, D.float16)
_NESTING = [0]


def is_autocast_available(device_type: str) -> bool:
    """Whether autocast supports ``device_type`` (``"cpu"`` and ``"cuda"`` here).

    Example::

        >>> is_autocast_available("cpu"), is_autocast_available("tpu")
        (True, False)
    """
    return device_type in _DEVICE_TYPES


class autocast:  # noqa: N801 - PyTorch's name
    """Run the ops of a region (or of a decorated function) in mixed precision: ops on
    PyTorch's lower-precision list (``conv*``, ``linear``, ``matmul``, ``bmm``, ``addmm``,
    ...) in ``dtype``, ops on its float32 list (losses, ``prod``, ``cdist``, ...) in float32,
    the rest in their inputs' dtype.  ``dtype`` defaults to bfloat16 on ``"cpu"`` and
    float16 on ``"cuda"``; ``enabled=False`` switches autocast off inside an enclosing region.
    On ``"cuda"`` without CUDA it warns and does nothing, as PyTorch does.

    Example::

        >>> import fgrad.torch as torch
        >>> @torch.autocast("cpu")
        ... def f(a, b):
        ...     return a @ b
        >>> f(torch.ones(2, 2), torch.ones(2, 2)).dtype
        torch.bfloat16
    """

    def __init__(self, device_type: str, dtype: D.dtype | None = None, enabled: bool = True,
                 cache_enabled: bool | None = None) -> None:
        if not isinstance(device_type, str):
            raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
        if not is_autocast_available(device_type):
            raise RuntimeError(f"User specified an unsupported autocast device_type '{device_type}'")
        self.device = device_type
        self.fast_dtype = _state.get_dtype(device_type) if dtype is None else D.canonical(dtype)
        self._cache_enabled = _state.STATE.cache_enabled if cache_enabled is None else bool(cache_enabled)
        if enabled:
            if device_type == "cuda":
                if not _dev.is_available():
                    warnings.warn("CUDA is not available or torch_xla is imported. Disabling autocast.",
                                  UserWarning, stacklevel=2)
                    enabled = False
            elif self.fast_dtype not in _SUPPORTED_DTYPES:
                warnings.warn(
                    "In CPU autocast, but the target dtype is not supported. Disabling autocast.\n"
                    "CPU Autocast only supports dtypes of torch.bfloat16, torch.float16 currently.",
                    UserWarning, stacklevel=2)
                enabled = False
        self._enabled = bool(enabled)

    def __enter__(self) -> "autocast":
        self._prev = (_state.is_enabled(self.device), _state.get_dtype(self.device),
                      _state.STATE.cache_enabled)
        _state.set_enabled(self.device, self._enabled)
        _state.set_dtype(self.device, self.fast_dtype)
        _state.STATE.cache_enabled = self._cache_enabled
        _NESTING[0] += 1
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> bool:
        _NESTING[0] -= 1
        enabled, dtype, cache = self._prev
        _state.set_enabled(self.device, enabled)
        _state.set_dtype(self.device, dtype)
        _state.STATE.cache_enabled = cache
        return False

    def __call__(self, func: Callable) -> Callable:
        if not callable(func):
            raise TypeError(
                f"autocast()(func) requires a callable, but got {type(func).__name__}. Did you mean to use "
                "autocast as a context manager? For example:\n    with torch.autocast(device_type=...):\n"
                "        output = model(input)")

        @functools.wraps(func)
        def decorated(*args, **kwargs):
            with autocast(self.device, self.fast_dtype, self._enabled, self._cache_enabled):
                return func(*args, **kwargs)

        return decorated


def _deprecated_autocast(device_type: str, default_dtype: D.dtype) -> type:
    class _DeviceAutocast(autocast):
        def __init__(self, enabled: bool = True, dtype: D.dtype = default_dtype,
                     cache_enabled: bool = True) -> None:
            warnings.warn(
                f"`torch.{device_type}.amp.autocast(args...)` is deprecated. Please use "
                f"`torch.amp.autocast('{device_type}', args...)` instead.", FutureWarning, stacklevel=2)
            super().__init__(device_type, dtype=dtype, enabled=enabled, cache_enabled=cache_enabled)

    _DeviceAutocast.__name__ = _DeviceAutocast.__qualname__ = "autocast"
    _DeviceAutocast.__doc__ = (
        f"``torch.{device_type}.amp.autocast`` (deprecated): "
        f"``torch.amp.autocast('{device_type}', ...)``.\n\nExample::\n\n"
        "    >>> import fgrad.torch as torch\n"
        f"    >>> from fgrad.torch.amp.autocast_mode import {device_type}_autocast\n"
        f"    >>> issubclass({device_type}_autocast, torch.autocast)\n"
        "    True\n")
    return _DeviceAutocast


cpu_autocast = _deprecated_autocast("cpu", D.bfloat16)
cuda_autocast = _deprecated_autocast("cuda", D.float16)


def is_autocast_enabled(device_type: str | None = None) -> bool:
    """Whether autocast is on for ``device_type`` (``"cuda"`` when omitted, as PyTorch).

    Example::

        >>> is_autocast_enabled("cpu")
        False
    """
    if device_type is None:
        return _state.is_enabled("cuda")
    return _state.is_enabled(_device_type_arg("is_autocast_enabled", device_type))


def set_autocast_enabled(device_type: str | bool, enabled: bool | None = None) -> None:
    """Switch autocast on ``device_type`` on or off for this thread (``set_autocast_enabled(flag)``,
    PyTorch's deprecated form, is CUDA's).

    Example::

        >>> set_autocast_enabled("cpu", False)
    """
    if enabled is None:
        device_type, enabled = "cuda", device_type
    if not isinstance(enabled, bool):
        raise TypeError("set_autocast_enabled(): argument 'enabled' must be bool, not "
                        f"{type(enabled).__name__}")
    _state.set_enabled(_autocast_device("set_autocast_enabled", device_type), enabled)


def get_autocast_dtype(device_type: str) -> D.dtype:
    """The dtype autocast uses on ``device_type``.

    Example::

        >>> get_autocast_dtype("cpu"), get_autocast_dtype("cuda")
        (torch.bfloat16, torch.float16)
    """
    return _state.get_dtype(_autocast_device("get_autocast_dtype", device_type))


def set_autocast_dtype(device_type: str, dtype: D.dtype) -> None:
    """Set the dtype autocast uses on ``device_type`` for this thread.

    Example::

        >>> set_autocast_dtype("cpu", D.bfloat16)
    """
    _state.set_dtype(_autocast_device("set_autocast_dtype", device_type), D.canonical(dtype))


def _deprecated(old: str, new: str) -> None:
    warnings.warn(f"torch.{old} is deprecated. Please use torch.{new} instead.", DeprecationWarning,
                  stacklevel=3)


def is_autocast_cpu_enabled() -> bool:
    """``torch.is_autocast_cpu_enabled()`` (deprecated in PyTorch, with its warning):
    ``is_autocast_enabled("cpu")``.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     is_autocast_cpu_enabled()
        False
    """
    _deprecated("is_autocast_cpu_enabled()", "is_autocast_enabled('cpu')")
    return _state.is_enabled("cpu")


def set_autocast_cpu_enabled(enabled: bool) -> None:
    """Deprecated ``set_autocast_enabled("cpu", enabled)``.

    Example::

        >>> import warnings, fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     set_autocast_cpu_enabled(False)
        >>> torch.is_autocast_enabled("cpu")
        False
    """
    _deprecated("set_autocast_cpu_enabled(enabled)", "set_autocast_enabled('cpu', enabled)")
    set_autocast_enabled("cpu", enabled)


def get_autocast_cpu_dtype() -> D.dtype:
    """Deprecated ``get_autocast_dtype("cpu")``.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     get_autocast_cpu_dtype()
        torch.bfloat16
    """
    _deprecated("get_autocast_cpu_dtype()", "get_autocast_dtype('cpu')")
    return get_autocast_dtype("cpu")


def set_autocast_cpu_dtype(dtype: D.dtype) -> None:
    """Deprecated ``set_autocast_dtype("cpu", dtype)``.

    Example::

        >>> import warnings, fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     set_autocast_cpu_dtype(torch.bfloat16)
        >>> torch.get_autocast_dtype("cpu")
        torch.bfloat16
    """
    _deprecated("set_autocast_cpu_dtype(dtype)", "set_autocast_dtype('cpu', dtype)")
    set_autocast_dtype("cpu", dtype)


def get_autocast_gpu_dtype() -> D.dtype:
    """Deprecated ``get_autocast_dtype("cuda")``.

    Example::

        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     get_autocast_gpu_dtype()
        torch.float16
    """
    _deprecated("get_autocast_gpu_dtype()", "get_autocast_dtype('cuda')")
    return get_autocast_dtype("cuda")


def set_autocast_gpu_dtype(dtype: D.dtype) -> None:
    """Deprecated ``set_autocast_dtype("cuda", dtype)``.

    Example::

        >>> import warnings, fgrad.torch as torch
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     set_autocast_gpu_dtype(torch.float16)
        >>> torch.get_autocast_dtype("cuda")
        torch.float16
    """
    _deprecated("set_autocast_gpu_dtype(dtype)", "set_autocast_dtype('cuda', dtype)")
    set_autocast_dtype("cuda", dtype)


def _cast(value: Any, device_type: str, dtype: D.dtype) -> Any:
    """``value`` with its floating tensors on ``device_type`` (float64 excepted) cast to ``dtype``,
    through lists, tuples and mappings (PyTorch's ``torch.amp.autocast_mode._cast``)."""
    if isinstance(value, Tensor):
        eligible = (value.is_floating_point() and value.device.type == device_type
                    and value.dtype is not D.float64)
        return value.to(dtype) if eligible else value
    if isinstance(value, (str, bytes)) or type(value).__module__ == "numpy":
        return value
    if isinstance(value, collections.abc.Mapping):
        return {_cast(k, device_type, dtype): _cast(v, device_type, dtype) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return type(value)(_cast(v, device_type, dtype) for v in value)
    if isinstance(value, collections.abc.Iterable):
        return (_cast(v, device_type, dtype) for v in value)
    return value


def custom_fwd(fwd: Callable | None = None, *, device_type: str,
               cast_inputs: D.dtype | None = None) -> Callable:
    """Decorates a custom ``autograd.Function``'s ``forward`` for autocast: with ``cast_inputs``,
    inside an autocast region on ``device_type`` the floating inputs are cast to it and the forward
    runs with autocast off; otherwise the forward runs in the current autocast state, which
    `custom_bwd` then restores for the backward.

    Example::

        >>> import fgrad.torch as torch
        >>> class Mul(torch.autograd.Function):
        ...     @staticmethod
        ...     @torch.amp.custom_fwd(device_type="cpu", cast_inputs=torch.float32)
        ...     def forward(ctx, a, b):
        ...         return a @ b
        ...     @staticmethod
        ...     @torch.amp.custom_bwd(device_type="cpu")
        ...     def backward(ctx, g):
        ...         return g, g
        >>> with torch.autocast("cpu", dtype=torch.bfloat16):
        ...     Mul.apply(torch.ones(2, 2, dtype=torch.bfloat16), torch.ones(2, 2)).dtype
        torch.float32
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if fwd is None:
        return functools.partial(custom_fwd, device_type=device_type, cast_inputs=cast_inputs)

    @functools.wraps(fwd)
    def decorate_fwd(*args, **kwargs):
        args[0]._dtype = get_autocast_dtype(device_type)
        enabled = is_autocast_enabled(device_type)
        if cast_inputs is None:
            args[0]._fwd_used_autocast = enabled
            return fwd(*args, **kwargs)
        args[0]._fwd_used_autocast = False
        if not enabled:
            return fwd(*args, **kwargs)
        with autocast(device_type=device_type, enabled=False):
            return fwd(*_cast(args, device_type, cast_inputs), **_cast(kwargs, device_type, cast_inputs))

    return decorate_fwd


def custom_bwd(bwd: Callable | None = None, *, device_type: str) -> Callable:
    """Decorates a custom ``autograd.Function``'s ``backward`` to run in the autocast state its
    `custom_fwd` forward ran in (see `custom_fwd`'s example).

    Example::

        >>> import fgrad.torch as torch
        >>> class Double(torch.autograd.Function):
        ...     @staticmethod
        ...     @torch.amp.custom_fwd(device_type="cpu")
        ...     def forward(ctx, x):
        ...         return x * 2
        ...     @staticmethod
        ...     @torch.amp.custom_bwd(device_type="cpu")
        ...     def backward(ctx, g):
        ...         return g * 2
        >>> x = torch.ones(2, requires_grad=True)
        >>> Double.apply(x).sum().backward()
        >>> x.grad
        tensor([2., 2.])
    """
    if not isinstance(device_type, str):
        raise ValueError(f"Expected `device_type` of type `str`, got: `{type(device_type)}`")
    if bwd is None:
        return functools.partial(custom_bwd, device_type=device_type)

    @functools.wraps(bwd)
    def decorate_bwd(*args, **kwargs):
        with autocast(device_type=device_type, enabled=args[0]._fwd_used_autocast, dtype=args[0]._dtype):
            return bwd(*args, **kwargs)

    return decorate_bwd


def is_autocast_cache_enabled() -> bool:
    """Whether autocast may cache casts of leaf tensors (fgrad accepts the flag; it casts each time).

    Example::

        >>> is_autocast_cache_enabled()
        True
    """
    return _state.STATE.cache_enabled


def set_autocast_cache_enabled(enabled: bool) -> None:
    """Set the cache flag of `is_autocast_cache_enabled`.

    Example::

        >>> set_autocast_cache_enabled(True)
    """
    if not isinstance(enabled, bool):
        raise TypeError(f"enabled must be a bool (got {type(enabled).__name__})")
    _state.STATE.cache_enabled = enabled


def clear_autocast_cache() -> None:
    """Drop autocast's cache of casts (fgrad keeps none).

    Example::

        >>> clear_autocast_cache()
    """
