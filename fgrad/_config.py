"""`fgrad.config`: process-wide settings.

``fgrad.config.update("backend", "cuda")`` (or ``"cupy"``, ``"cuda:1"``, ``"cpu"``) sets the
default device new arrays are created on; the environment variable ``FGRAD_BACKEND`` sets it
at import (an unavailable backend there only warns, so ``import fgrad`` never fails).

The memory bounds of fgrad's caches are settings too (see ``docs/memory.md``):
``fgrad.config.update("jit_cache_size", 64)`` keeps at most 64 compiled signatures per
jitted function; lowering a bound evicts the least recently used entries at once.

Example::

    >>> import fgrad
    >>> fgrad.config.backend
    'numpy'
    >>> fgrad.config.read("jit_cache_size")
    256
"""

from __future__ import annotations

from typing import Callable

from .backends import default_device, set_default_device
from .backends.world import settings as _distributed

_ALIASES = {"backend": "backend", "default_device": "backend", "fgrad_backend": "backend",
            "jax_default_device": "backend", "jax_platforms": "backend", "jax_platform_name": "backend"}

# cache bounds: name -> default (entries, or bytes for the *_bytes options)
LIMIT_DEFAULTS: dict[str, int] = {
    "jit_cache_size": 256,           # compiled signatures kept per jitted function
    "jit_total_cache_size": 4096,    # compiled signatures kept over all jitted functions
    "jit_derived_cache_size": 64,    # jvp/vmap/transpose programs kept per traced program
    "tape_cache_size": 4096,         # per-operation VJP programs of grad/vjp's tape
    "autograd_cache_size": 4096,     # fgrad.torch backward programs (per op signature)
    "cuda_kernel_cache_size": 1024,  # built CUDA kernels (per distinct generated source)
    "jit_scratch_bytes": 64 << 20,   # idle scratch buffers held by compiled programs
    "jit_recycle_bytes": 256 << 20,  # dropped big jit results held for reuse
}
_limits: dict[str, int] = dict(LIMIT_DEFAULTS)
_listeners: dict[str, list[Callable[[], None]]] = {k: [] for k in LIMIT_DEFAULTS}


def limit(name: str) -> int:
    """The current value of the cache bound ``name`` (fast: a dict lookup)."""
    return _limits[name]


def on_limit_change(name: str, fn: Callable[[], None]) -> None:
    """Call ``fn()`` after the bound ``name`` changes (caches trim themselves at once)."""
    _listeners[name].append(fn)


class Config:
    """Settings: ``update(name, value)`` / ``read(name)``.  Names: ``backend`` (alias
    ``default_device``) and the cache bounds in `LIMIT_DEFAULTS` (``jit_cache_size``,
    ``jit_total_cache_size``, ``jit_derived_cache_size``, ``tape_cache_size``,
    ``autograd_cache_size``, ``cuda_kernel_cache_size``, ``jit_scratch_bytes``,
    ``jit_recycle_bytes``; a bound of ``None`` restores its default), and the collectives'
    ``distributed_debug`` (fingerprint and compare every collective across processes) and
    ``distributed_timeout`` (seconds; None waits forever)."""

    def update(self, name: str, value) -> None:
        if name in _DISTRIBUTED_OPTIONS:
            _set_distributed(name, value)
            return
        if name in _limits:
            _set_limit(name, value)
            return
        key = _ALIASES.get(name)
        if key is None:
            raise KeyError(f"unknown fgrad config option {name!r}; options: backend (default_device), "
                           + ", ".join((*LIMIT_DEFAULTS, *_DISTRIBUTED_OPTIONS)))
        set_default_device("cpu" if value is None else value)

    def read(self, name: str):
        if name in _DISTRIBUTED_OPTIONS:
            return getattr(_distributed, _DISTRIBUTED_OPTIONS[name])
        if name in _limits:
            return _limits[name]
        key = _ALIASES.get(name)
        if key is None:
            raise KeyError(f"unknown fgrad config option {name!r}; options: backend (default_device), "
                           + ", ".join((*LIMIT_DEFAULTS, *_DISTRIBUTED_OPTIONS)))
        return self.backend

    def __getattr__(self, name: str):
        if name in _limits:
            return _limits[name]
        raise AttributeError(f"fgrad.config has no option {name!r}")

    @property
    def backend(self) -> str:
        """Name of the default device's backend (``"numpy"``, ``"cupy"``)."""
        return default_device().backend_name

    @property
    def default_device(self):
        return default_device()

    def __repr__(self) -> str:
        limits = ", ".join(f"{k}={v}" for k, v in _limits.items())
        return (f"fgrad.config(backend={self.backend!r}, default_device={str(default_device())!r}, "
                f"{limits})")


def _set_limit(name: str, value) -> None:
    if value is None:
        value = LIMIT_DEFAULTS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"fgrad.config.update({name!r}, ...): expected an int, got "
                        f"{type(value).__name__} {value!r}")
    least = 0 if name.endswith("_bytes") else 1
    if value < least:
        raise ValueError(f"fgrad.config.update({name!r}, {value}): the bound must be >= {least}")
    _limits[name] = value
    for fn in list(_listeners[name]):
        fn()


# collectives (fgrad.distributed): fingerprint every collective / seconds before a timeout
_DISTRIBUTED_OPTIONS = {"distributed_debug": "debug", "distributed_timeout": "timeout"}


def _set_distributed(name: str, value) -> None:
    if name == "distributed_debug":
        if not isinstance(value, (bool, int)):
            raise TypeError(f"fgrad.config.update({name!r}, ...): expected a bool, got {value!r}")
        _distributed.debug = bool(value)
        return
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
        raise ValueError(f"fgrad.config.update({name!r}, {value!r}): expected seconds > 0 or None "
                         "(wait forever)")
    _distributed.timeout = None if value is None else float(value)


config = Config()
