"""The native loops' switch for tests that compare a C kernel with its NumPy fallback:
`native_loops_off` (a context: ``config.update("native_loops", False)``, restored after) and
`needs_native` (a skip mark where no kernel can run: the switch off, no compiler, no private
cache directory).

>>> with native_loops_off():
...     from fgrad.core import native_loops
...     native_loops.enabled()
False
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

import fgrad
from fgrad.core import native_loops

HAS_NATIVE = (native_loops.enabled() and native_loops._compiler() is not None
              and native_loops.cache_dir() is not None)
needs_native = pytest.mark.skipif(not HAS_NATIVE,
                                  reason="native loops off, no C compiler or no private cache dir")


@contextlib.contextmanager
def native_loops_off() -> Iterator[None]:
    """Run the body with the native loops switched off (their NumPy fallbacks)."""
    fgrad.config.update("native_loops", False)
    try:
        yield
    finally:
        fgrad.config.update("native_loops", None)
