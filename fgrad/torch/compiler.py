"""``torch.compiler``: the public face of `fgrad.torch._compile` (``reset``, ``disable``,
``is_compiling``, ``is_dynamo_compiling``).

Example::

    >>> import fgrad.torch as torch
    >>> torch.compiler.reset()
    >>> torch.compiler.is_compiling()
    False
"""

from __future__ import annotations

import fgrad.torch._compile as _compile
from collections.abc import Callable
from typing import Any

disable = _compile.disable
is_compiling = _compile.is_compiling
list_backends = _compile.list_backends
reset = _compile.reset

is_dynamo_compiling = is_compiling


def allow_in_graph(fn: Callable[..., Any]) -> Any:
    """Accepted for compatibility: every traceable function is in the graph already.

    Example::

        >>> import fgrad.torch as torch
        >>> f = torch.compiler.allow_in_graph(abs)
    """
    return fn


__all__ = ["reset", "disable", "is_compiling", "is_dynamo_compiling", "allow_in_graph", "list_backends"]
