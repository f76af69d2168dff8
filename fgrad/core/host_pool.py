"""Recycled large host arrays for outputs that programs make on every call.

A new large NumPy array costs more than writing it: the allocator maps fresh pages from the
operating system, and the first write to each page faults (tens of microseconds per 16 kB
row of a scan's stacked outputs, where writing the row costs under one).  JAX's and PyTorch's
allocators keep freed memory for the next call; `HostPool` does that for the host arrays
fgrad's loops allocate (a scan's stacked outputs and saved residuals).

An array is handed out again only when nothing but the pool refers to it: no Array wraps
it, no view of it exists (a view refers to its base), no buffer export holds it.  Whoever
got it last has dropped it, so reusing its memory cannot change a value anyone can see.

Example::

    >>> import numpy as np
    >>> pool = HostPool(min_bytes=1024)
    >>> a = pool.empty((1000,), np.float32)
    >>> b = pool.empty((1000,), np.float32)   # a is still referenced: a new array
    >>> a is b
    False
    >>> first = id(a)
    >>> del a
    >>> id(pool.empty((1000,), np.float32)) == first   # the first one, free again
    True
"""

from __future__ import annotations

import math
import sys

import numpy as np



def _refs_of_a_free_array() -> int:
    """What `sys.getrefcount` reports for an array only the pool's list refers to, seen from
    the loop in `HostPool.empty` (the list, the loop variable, the call's argument: 3 on
    CPython 3.11-3.13; measured, since interpreters that borrow references count fewer)."""
    arrays = [np.empty(0)]
    for a in arrays:
        return sys.getrefcount(a)
    return 0


_FREE_REFS = _refs_of_a_free_array()
# exact reference counts: a GIL build (free-threaded builds count lazily) that sees the
# loop variable as a reference of its own
_RELIABLE_REFCOUNTS = getattr(sys, "_is_gil_enabled", lambda: True)() and _FREE_REFS >= 3


class HostPool:
    """Large host arrays kept for reuse once nothing else refers to them (see the module).

    ``min_bytes``: smaller arrays are not pooled (the allocator reuses small blocks itself);
    ``max_bytes``: the most memory the pool keeps; ``per_shape``: the most arrays it keeps
    of one shape and dtype."""

    def __init__(self, min_bytes: int = 1 << 18, max_bytes: int = 1 << 26, per_shape: int = 8) -> None:
        self.min_bytes, self.max_bytes, self.per_shape = min_bytes, max_bytes, per_shape
        self._arrays: dict = {}
        self._bytes = 0

    def empty(self, shape: tuple, dtype) -> np.ndarray:
        """An uninitialised array of ``shape`` and ``dtype``: a pooled one nobody refers to,
        or a new one (kept in the pool when there is room)."""
        dtype = np.dtype(dtype)
        nbytes = dtype.itemsize * int(math.prod(shape))  # (np.prod costs ~2 us a call)
        if nbytes < self.min_bytes or not _RELIABLE_REFCOUNTS:
            return np.empty(shape, dtype)
        key = (tuple(shape), dtype)
        arrays = self._arrays.get(key)
        if arrays is None:
            arrays = self._arrays[key] = []
        for a in arrays:
            if sys.getrefcount(a) == _FREE_REFS:
                return a
        a = np.empty(shape, dtype)
        if len(arrays) < self.per_shape and self._bytes + nbytes <= self.max_bytes:
            arrays.append(a)
            self._bytes += nbytes
        return a

    def clear(self) -> None:
        """Forget every pooled array (their memory is freed once nobody refers to them)."""
        self._arrays.clear()
        self._bytes = 0


HOST_POOL = HostPool()


def empty(xp, shape: tuple, dtype):
    """An uninitialised array of the array module ``xp``: from `HOST_POOL` on the host (NumPy),
    a new one elsewhere.

    >>> empty(np, (2, 3), np.float32).shape
    (2, 3)
    """
    if xp is np:
        return HOST_POOL.empty(shape, dtype)
    return xp.empty(shape, dtype)
