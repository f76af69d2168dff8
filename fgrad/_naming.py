"""`named_call` and `named_scope`: JAX's names for parts of a program.  In JAX they label
the equations in profiles and HLO; fgrad's programs carry no name stack, so both keep the
program exactly as it is (they exist so JAX code runs unchanged) and record nothing.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> layer = fgrad.named_call(lambda x: fnp.tanh(x), name="layer")
    >>> with fgrad.named_scope("block"):
    ...     y = layer(fnp.asarray(0.0))
    >>> y
    Array(0., dtype=float64)
"""

from __future__ import annotations

import contextlib
import functools
from typing import Callable, Iterator

__all__ = ["named_call", "named_scope"]


def named_call(fun: Callable, *, name: str | None = None) -> Callable:
    """``fun`` itself, under a name (JAX uses it in profiles; fgrad ignores it).

    Example::

        >>> named_call(abs, name="magnitude")(-2)
        2
    """
    if name is not None and not isinstance(name, str):
        raise TypeError(f"named_call: name must be a string, got {type(name).__name__}")

    @functools.wraps(fun)
    def named(*args, **kwargs):
        return fun(*args, **kwargs)

    return named


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[None]:
    """A context manager naming the operations inside it (no effect in fgrad).

    Example::

        >>> with named_scope("encoder"):
        ...     pass
    """
    if not isinstance(name, str):
        raise TypeError(f"named_scope: name must be a string, got {type(name).__name__}")
    yield
