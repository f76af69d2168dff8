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

__all__ = ["print", "callback"]


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
