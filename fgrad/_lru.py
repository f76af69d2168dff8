"""Bounded caches with least-recently-used eviction, sized by `fgrad.config` options.

A value stored in an `LRU` carries its last-use time in a writable ``tick`` attribute (a
number from the global `CLOCK`).  `LRU.get` updates it; a hot path that finds a value some
other way (jit's call-path index) refreshes it with ``value.tick = next(CLOCK)``.  So a hit
costs one attribute store, and the ordering work happens only when an insertion overflows
the bound: then the least recently used entries (one sixteenth of the bound, at least one)
are evicted together, so eviction is amortized O(log n) per insertion and the cache never
holds more than its bound.  An `LRUGroup` adds a bound over several caches (all jitted
functions together); its overflow evicts the least recently used entries among them.

Example::

    >>> from fgrad._lru import LRU, Box
    >>> c = LRU("jit_derived_cache_size")
    >>> c["a"] = Box(1)
    >>> c.get("a").value
    1
"""

from __future__ import annotations

import heapq
import itertools
import weakref
from typing import Any, Callable

from ._config import limit, on_limit_change

CLOCK = itertools.count(1)


class Box:
    """A cache value that is not an object with a ``tick`` slot (a tuple, None, ...)."""

    __slots__ = ("value", "tick")

    def __init__(self, value: Any) -> None:
        self.value = value
        self.tick = 0


class LRU:
    """A dict-like cache bounded by the config option ``option`` (entries).

    ``on_evict(key, value)`` runs for every evicted entry (to drop secondary indexes)."""

    __slots__ = ("_d", "option", "on_evict", "group", "__weakref__")

    def __init__(self, option: str, on_evict: Callable | None = None,
                 group: LRUGroup | None = None) -> None:
        self._d: dict = {}
        self.option = option
        self.on_evict = on_evict
        self.group = group
        _register(self)
        if group is not None:
            group.members.add(self)

    # mapping interface -------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._d)

    def __contains__(self, key) -> bool:
        return key in self._d

    def __iter__(self):
        return iter(self._d)

    def __reversed__(self):
        return reversed(self._d)

    def __bool__(self) -> bool:
        return bool(self._d)

    def keys(self):
        return self._d.keys()

    def values(self):
        return self._d.values()

    def items(self):
        return self._d.items()

    def peek(self, key, default=None):
        """The value for ``key`` without marking it used."""
        return self._d.get(key, default)

    def get(self, key, default=None):
        """The value for ``key`` (marked as just used), or ``default``."""
        v = self._d.get(key)
        if v is None:
            return default
        v.tick = next(CLOCK)
        return v

    def __getitem__(self, key):
        v = self._d[key]
        v.tick = next(CLOCK)
        return v

    def __setitem__(self, key, value) -> None:
        value.tick = next(CLOCK)
        d = self._d
        d.pop(key, None)
        d[key] = value
        if len(d) > limit(self.option):
            self.trim()
        if self.group is not None:
            self.group.check()

    def pop(self, key, default=None):
        return self._d.pop(key, default)

    def clear(self) -> None:
        self._d.clear()

    # eviction ----------------------------------------------------------------------------
    def trim(self) -> None:
        """Evict least recently used entries until the bound holds (with slack: a batch)."""
        n = len(self._d) - limit(self.option)
        if n > 0:
            self.evict(n + limit(self.option) // 16)

    def evict(self, n: int) -> None:
        """Evict the ``n`` least recently used entries."""
        d = self._d
        n = min(n, len(d))
        if n <= 0:
            return
        # a snapshot (another thread may insert meanwhile); pop, not del, for the same reason
        victims = heapq.nsmallest(n, list(d.items()), key=lambda kv: kv[1].tick)
        for k, v in victims:
            if d.pop(k, None) is not None and self.on_evict is not None:
                self.on_evict(k, v)


class LRUGroup:
    """A bound (config option ``option``) on the total size of several `LRU` caches."""

    def __init__(self, option: str) -> None:
        self.option = option
        self.members: weakref.WeakSet = weakref.WeakSet()
        on_limit_change(option, self.check)

    def size(self) -> int:
        return sum(len(m) for m in list(self.members))

    def check(self) -> None:
        over = self.size() - limit(self.option)
        if over <= 0:
            return
        n = over + limit(self.option) // 16
        entries = [(v.tick, m, k) for m in list(self.members) for k, v in list(m._d.items())]
        for _, m, k in heapq.nsmallest(n, entries, key=lambda e: e[0]):
            v = m._d.pop(k, None)
            if v is not None and m.on_evict is not None:
                m.on_evict(k, v)


_ALL: dict[str, weakref.WeakSet] = {}


def _register(cache: LRU) -> None:
    members = _ALL.get(cache.option)
    if members is None:
        members = _ALL[cache.option] = weakref.WeakSet()
        on_limit_change(cache.option, lambda: [c.trim() for c in list(members)])
    members.add(cache)


def clear_all() -> None:
    """Empty every bounded cache (compiled jit programs, derived programs, the tape's and
    the PyTorch shim's programs, built CUDA kernels): JAX's ``jax.clear_caches``."""
    for members in list(_ALL.values()):
        for cache in list(members):
            cache.evict(len(cache._d))
