"""``jax.extend``: the interface for defining new primitives (`fgrad.extend.core`) and the
Threefry PRNG's pieces (`fgrad.extend.random`)."""

from . import core, random

__all__ = ["core", "random"]
