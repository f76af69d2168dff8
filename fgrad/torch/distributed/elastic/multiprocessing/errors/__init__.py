"""``torch.distributed.elastic.multiprocessing.errors.record``: the decorator torchrun
scripts put on their entry point.  It records an exception the function raises into
``TORCHELASTIC_ERROR_FILE`` (PyTorch's JSON layout) when that variable is set, and
re-raises it; fgrad's launcher reports failures itself (each process's traceback, then
the job ends), so without the variable it only re-raises.

Example::

    >>> @record
    ... def main():
    ...     return 3
    >>> main()
    3
"""

from __future__ import annotations

import functools
import json
import os
import time
import traceback
from typing import Callable
from typing import Any


def _dump(exc: BaseException, path: str) -> None:
    info = {"py_callstack": traceback.format_exc(), "timestamp": str(int(time.time()))}
    data = {"message": {"message": f"{type(exc).__name__}: {exc}", "extraInfo": info}}
    with open(path, "w") as f:
        json.dump(data, f)


def record(fn: Callable, error_handler: Any = None) -> Callable:
    """``fn`` that writes an exception it raises to ``TORCHELASTIC_ERROR_FILE`` (if set)
    before re-raising it; ``SystemExit(0)`` returns None (as PyTorch's).

    Example::

        >>> from fgrad.torch.distributed.elastic.multiprocessing.errors import record
        >>> @record
        ... def main():
        ...     return 3
        ...
        >>> main()
        3
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except SystemExit as e:
            if e.code == 0:
                return None
            raise
        except Exception as e:
            path = os.environ.get("TORCHELASTIC_ERROR_FILE")
            if path:
                _dump(e, path)
            raise

    return wrapper


__all__ = ["record"]
