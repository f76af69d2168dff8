"""`fgrad.experimental.compilation_cache`: the package of ``jax.experimental.compilation_cache``
(its functions are in `fgrad.experimental.compilation_cache.compilation_cache`).

Example::

    >>> from fgrad.experimental.compilation_cache import compilation_cache as cc
    >>> callable(cc.set_cache_dir)
    True
"""
