"""`fgrad.errors`: the exception classes of JAX's ``jax.errors``, all TypeErrors as in JAX.

`ConcretizationTypeError` (a traced value needed concretely), its subclass
`TracerBoolConversionError` (``if``/``while`` on a traced value), `TracerIntegerConversionError`
(a traced value as a Python index), `TracerArrayConversionError` (``numpy.asarray`` of a traced
value) and `UnexpectedTracerError` (a tracer used after its transform returned).
``fgrad.ConcretizationError`` is the base of the first four.

Example::

    >>> import fgrad
    >>> try:
    ...     fgrad.jit(lambda x: 1.0 if x > 0 else -1.0)(2.0)
    ... except fgrad.errors.TracerBoolConversionError:
    ...     print("use fgrad.lax.cond or fnp.where")
    use fgrad.lax.cond or fnp.where
"""

from __future__ import annotations

from .core.trace import (
    ConcretizationError,
    ConcretizationTypeError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)

__all__ = ["ConcretizationError", "ConcretizationTypeError", "TracerArrayConversionError",
           "TracerBoolConversionError", "TracerIntegerConversionError", "UnexpectedTracerError"]
