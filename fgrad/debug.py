"""`fgrad.debug`: print and call back from inside transformed code (JAX's ``jax.debug``).

`print` formats with ``str.format`` (the values are concrete Arrays, also under ``jit``,
``vmap`` and ``grad``); `callback` calls any function with the values.  Both run every time
the program runs, in program order; under ``vmap`` once per batch element; under ``grad``
with the primal values, once per forward pass.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> @fgrad.jit
    ... def f(x):
    ...     fgrad.debug.print("x = {x}, sum = {s:.2f}", x=x, s=x.sum())
    ...     return x * 2
    >>> _ = f(fnp.asarray([1.0, 2.5]))
    x = [1.  2.5], sum = 3.50
"""

from __future__ import annotations

import builtins
from typing import Any, Callable

from .ops.callbacks import debug_callback_p, split_operands

__all__ = ["print", "callback", "visualize_array_sharding", "inspect_array_sharding"]


def callback(callback: Callable[..., Any], *args, ordered: bool = False, **kwargs) -> None:
    """Call ``callback(*args, **kwargs)`` with concrete values when the program runs (its
    result is ignored).  Array leaves of the arguments arrive as fgrad Arrays; other leaves
    as they were given.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> seen = []
        >>> _ = fgrad.vmap(lambda x: fgrad.debug.callback(seen.append, x) or x)(fnp.arange(3.0))
        >>> [float(v) for v in seen]
        [0.0, 1.0, 2.0]
    """
    if not callable(callback):
        raise TypeError(f"debug.callback: the callback must be callable, got {type(callback).__name__}")
    cb, operands = split_operands(callback, args, kwargs)
    debug_callback_p.bind(*operands, callback=cb, ordered=bool(ordered))


def _format_and_print(fmt: str, *args, **kwargs) -> None:
    builtins.print(fmt.format(*args, **kwargs))


def print(fmt: str, *args, ordered: bool = False, **kwargs) -> None:  # noqa: A001 - JAX's name
    """Print ``fmt.format(*args, **kwargs)`` with the values computed when the program runs.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> g = fgrad.grad(lambda x: (fgrad.debug.print("x is {}", x), x ** 2)[1])(3.0)
        x is 3.0
    """
    if not isinstance(fmt, str):
        raise TypeError(f"debug.print: the format must be a string, got {type(fmt).__name__}")
    callback(_format_and_print, fmt, *args, ordered=ordered, **kwargs)


def _sharding_table(device_label: str, use_color: bool) -> str:
    inner = f" {device_label} "
    bar = "\u2500" * len(inner)
    return f"\u250c{bar}\u2510\n\u2502{inner}\u2502\n\u2514{bar}\u2518"


def visualize_array_sharding(arr: Any, *, use_color: bool = True, scale: float = 1.0,
                             min_width: int = 9, max_width: int = 80, color_map: Any = None) -> None:
    """Print how ``arr`` is laid out over devices (JAX's ``jax.debug.visualize_array_sharding``).
    fgrad keeps every array whole on one device, so the table is one cell naming it, as JAX
    prints for a single-device array (JAX draws it with ``rich``; fgrad with box characters).
    Rank above 2 raises ValueError, as JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> visualize_array_sharding(fnp.zeros((4, 4)))
        \u250c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2510
        \u2502 CPU 0 \u2502
        \u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2518
    """
    shape = getattr(arr, "shape", None)
    if shape is None:
        raise TypeError(f"visualize_array_sharding: expected an array, got {type(arr).__name__}")
    if len(shape) > 2:
        raise ValueError(f"visualize_array_sharding only supports arrays of rank <= 2, got shape "
                         f"{tuple(shape)}")
    device = getattr(arr, "device", None)
    platform = getattr(device, "platform", "cpu")
    kind = "GPU" if str(platform).lower() in ("cuda", "rocm", "gpu") else str(platform).upper()
    label = f"{kind} {getattr(device, 'id', 0)}"  # JAX's labels: CPU 0, GPU 0
    builtins.print(_sharding_table(label, use_color))


def inspect_array_sharding(value: Any, *, callback: Callable[[Any], None]) -> None:
    """Call ``callback`` with ``value``'s sharding (JAX's ``jax.debug.inspect_array_sharding``);
    fgrad's arrays have a single-device sharding.

    Example::

        >>> import fgrad.numpy as fnp
        >>> inspect_array_sharding(fnp.zeros(2), callback=lambda s: builtins.print(type(s).__name__))
        SingleDeviceSharding
    """
    callback(getattr(value, "sharding", None))
