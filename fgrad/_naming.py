"""`named_call` and `named_scope`: JAX's names for parts of a program.  The operations
staged inside them (by ``jit``, ``make_jaxpr``, the derivatives' linear programs) carry the
names, joined by ``/``, as ``eqn.source_info.name_stack``; ``make_jaxpr(f)(x)
.pretty_print(name_stack=True)`` shows them, as in JAX.  Values are never changed.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> def f(x):
    ...     with fgrad.named_scope("block"):
    ...         return fgrad.named_call(fnp.tanh, name="act")(x)
    >>> [e.source_info.name_stack for e in fgrad.make_jaxpr(f)(0.0).eqns]
    ['block/act']
"""

from __future__ import annotations

import contextlib
import functools
from typing import Callable, Iterator

from .core.trace import state

__all__ = ["named_call", "named_scope"]


def named_call(fun: Callable, *, name: str | None = None) -> Callable:
    """``fun`` with its operations staged under ``name`` (default: ``fun.__name__``).

    Example::

        >>> named_call(abs, name="magnitude")(-2)
        2
    """
    if name is not None and not isinstance(name, str):
        raise TypeError(f"named_call: name must be a string, got {type(name).__name__}")
    label = name if name is not None else getattr(fun, "__name__", "fun")

    @functools.wraps(fun)
    def named(*args, **kwargs):
        with named_scope(label):
            return fun(*args, **kwargs)

    return named


@contextlib.contextmanager
def named_scope(name: str) -> Iterator[None]:
    """A context manager naming the operations staged inside it (nested scopes join with
    ``/``).

    Example::

        >>> with named_scope("encoder"):
        ...     pass
    """
    if not isinstance(name, str):
        raise TypeError(f"named_scope: name must be a string, got {type(name).__name__}")
    st = state
    saved = st.name_stack
    st.name_stack = saved + (name,)
    try:
        yield
    finally:
        st.name_stack = saved
