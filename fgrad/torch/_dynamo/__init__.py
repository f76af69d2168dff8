"""``torch._dynamo``: the names of PyTorch's graph capture that code reaches for
(``reset``, ``disable``, ``config``, ``exc.Unsupported``, ``mark_dynamic``,
``list_backends``), over `fgrad.torch._compile`.

Example::

    >>> import fgrad.torch as torch
    >>> torch._dynamo.reset()
    >>> issubclass(torch._dynamo.exc.Unsupported, RuntimeError)
    True
"""

from __future__ import annotations

import fgrad.torch._compile as _compile
import fgrad.torch._dynamo.exc as exc

OptimizedModule = _compile.OptimizedModule
config = _compile.config
disable = _compile.disable
is_compiling = _compile.is_compiling
list_backends = _compile.list_backends
reset = _compile.reset


def mark_dynamic(t, index, **kwargs) -> None:
    """Accepted for compatibility: fgrad traces once per shape (a new shape retraces).

    Example::

        >>> import fgrad.torch as torch
        >>> torch._dynamo.mark_dynamic(torch.zeros(2), 0)
    """


mark_static = maybe_mark_dynamic = mark_dynamic

__all__ = ["reset", "disable", "config", "exc", "is_compiling", "list_backends", "mark_dynamic",
           "mark_static", "maybe_mark_dynamic", "OptimizedModule"]
