"""``torch._dynamo.exc``: the compiler's exception classes.

Example::

    >>> import fgrad.torch as torch
    >>> issubclass(torch._dynamo.exc.Unsupported, torch._dynamo.exc.TorchDynamoException)
    True
"""

from __future__ import annotations

from .._compile import InvalidBackend, TorchDynamoException, Unsupported

__all__ = ["TorchDynamoException", "Unsupported", "InvalidBackend"]
