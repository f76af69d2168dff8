"""``jax.experimental.compilation_cache.compilation_cache``: `set_cache_dir` and `reset_cache`.

fgrad compiles a jitted function into generated Python/NumPy code in memory, each process
anew, so there is no persistent cache to read back: these functions keep JAX's
configuration (``jax_compilation_cache_dir``, read by ``fgrad.config``) so that programs
which set the cache up run unchanged, and results never depend on the cache.

Example::

    >>> import fgrad
    >>> from fgrad.experimental.compilation_cache import compilation_cache as cc
    >>> cc.set_cache_dir("/tmp/fgrad-cache")
    >>> fgrad.config.jax_compilation_cache_dir
    '/tmp/fgrad-cache'
    >>> cc.reset_cache()
    >>> fgrad.config.update("jax_compilation_cache_dir", None)
"""

from __future__ import annotations

import os

from ..._config import config

__all__ = ["reset_cache", "set_cache_dir"]


def set_cache_dir(path: str | os.PathLike) -> None:
    """Set ``jax_compilation_cache_dir`` to ``path`` (as JAX's ``set_cache_dir``).

    Example::

        >>> import fgrad
        >>> set_cache_dir("/tmp/c")
        >>> fgrad.config.jax_compilation_cache_dir
        '/tmp/c'
        >>> fgrad.config.update("jax_compilation_cache_dir", None)
    """
    config.update("jax_compilation_cache_dir", os.fspath(path))


def reset_cache() -> None:
    """Forget the cache's state so a later `set_cache_dir` takes effect (JAX's
    ``reset_cache``, used between tests); fgrad holds no persistent state, so nothing else
    changes.

    Example::

        >>> reset_cache()
    """
    return None
