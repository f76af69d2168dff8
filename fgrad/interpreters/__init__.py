"""``jax.interpreters``: the rule tables user primitives register with (`ad`, `batching`,
`mlir`); see `fgrad.extend.core`."""

from . import ad, batching, mlir

__all__ = ["ad", "batching", "mlir"]
