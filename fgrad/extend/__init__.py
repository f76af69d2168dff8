"""``jax.extend``: the interface for defining new primitives (`fgrad.extend.core`)."""

from . import core

__all__ = ["core"]
