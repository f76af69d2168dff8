"""Keep freed host memory in the C heap for the next array, as PyTorch's and JAX's
allocators keep theirs.

fgrad's host kernels are NumPy expressions: a step over a large array makes and frees several
temporaries of its size.  glibc's ``malloc`` gives freed memory at the top of its heap back to
the operating system once more than ``M_TRIM_THRESHOLD`` (by default about twice the largest
freed block) is free, and serves blocks above ``M_MMAP_THRESHOLD`` with fresh mappings; either
way the next temporary of that size faults in every page again, which costs more than
computing into it (on a virtual machine each fault is microseconds: ``torch.randn(1000, 1000)``
spent a third of its time there).  `tune_host_malloc` raises both thresholds once, at import:
blocks up to 32 MiB (glibc's largest mmap threshold) come from the heap, and up to 1 GiB of
freed heap stays mapped for reuse.  The process's resident memory then stays at its high-water
mark instead of shrinking between steps.

Only glibc (Linux) is touched, and only when the program has not tuned these itself
(``MALLOC_MMAP_THRESHOLD_``/``MALLOC_TRIM_THRESHOLD_``/``GLIBC_TUNABLES``); set
``FGRAD_HOST_MALLOC=0`` before importing fgrad to leave ``malloc`` as it is.

Example::

    >>> from fgrad.core.host_malloc import tune_host_malloc
    >>> tune_host_malloc() in (True, False)   # True where glibc accepted the settings
    True
"""

from __future__ import annotations

import ctypes
import os
import sys

_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc's maximum on 64-bit
TRIM_THRESHOLD = 1 << 30
_tuned: bool | None = None


def tune_host_malloc() -> bool:
    """Raise glibc's mmap and trim thresholds (once per process); True when they were set."""
    global _tuned
    if _tuned is not None:
        return _tuned
    _tuned = False
    if (not sys.platform.startswith("linux") or os.environ.get("FGRAD_HOST_MALLOC", "1") == "0"
            or any(v in os.environ for v in ("MALLOC_MMAP_THRESHOLD_", "MALLOC_TRIM_THRESHOLD_",
                                              "GLIBC_TUNABLES"))):
        return False
    try:
        libc = ctypes.CDLL(None)
        libc.gnu_get_libc_version  # noqa: B018 - glibc only (musl's mallopt is a no-op)
        mallopt = libc.mallopt
    except (OSError, AttributeError):
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    _tuned = bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    _tuned = bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD)) and _tuned
    return _tuned
