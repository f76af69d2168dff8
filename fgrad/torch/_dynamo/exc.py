"""``torch._dynamo.exc``: the compiler's exception classes.

Example::

    >>> import fgrad.torch as torch
    >>> issubclass(torch._dynamo.exc.Unsupported, torch._dynamo.exc.TorchDynamoException)
    True
"""

from __future__ import annotations

import fgrad.torch._compile as _compile

InvalidBackend, TorchDynamoException, Unsupported = (_compile.InvalidBackend, _compile.TorchDynamoException,
                                                     _compile.Unsupported)

__all__ = ["TorchDynamoException", "Unsupported", "InvalidBackend"]
