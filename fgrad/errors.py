"""`fgrad.errors`: the exception classes of JAX's ``jax.errors``, all TypeErrors as in JAX.

`ConcretizationTypeError` (a traced value needed concretely), its subclass
`TracerBoolConversionError` (``if``/``while`` on a traced value), `TracerIntegerConversionError`
(a traced value as a Python index), `TracerArrayConversionError` (``numpy.asarray`` of a traced
value) and `UnexpectedTracerError` (a tracer used after its transform returned).
``fgrad.ConcretizationError`` is the base of the first four.  `NonConcreteBooleanIndexError`
(a traced boolean mask as an index) is an IndexError as in JAX (and a
`ConcretizationTypeError`); `JAXTypeError`, `JAXIndexError`, `KeyReuseError`,
`JaxRuntimeError`, `JaxprTypeError` and `InconclusiveDimensionOperation` are JAX's classes,
for programs that name them in ``except`` clauses.

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
    JAXIndexError,
    JAXTypeError,
    NonConcreteBooleanIndexError,
    TracerArrayConversionError,
    TracerBoolConversionError,
    TracerIntegerConversionError,
    UnexpectedTracerError,
)



class KeyReuseError(JAXTypeError):
    """A PRNG key used twice (JAX's key-reuse checker; fgrad does not check key reuse).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.errors.KeyReuseError, Exception)
        True
    """


class JaxRuntimeError(RuntimeError):
    """An error while running a compiled program (JAX's ``jax.errors.JaxRuntimeError``).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.errors.JaxRuntimeError, RuntimeError)
        True
    """


class JaxprTypeError(TypeError):
    """An ill-typed program (JAX's ``jax.errors.JaxprTypeError``).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.errors.JaxprTypeError, TypeError)
        True
    """


class InconclusiveDimensionOperation(Exception):
    """A symbolic-dimension comparison without a definite answer (JAX's shape
    polymorphism; fgrad's shapes are concrete).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.errors.InconclusiveDimensionOperation, Exception)
        True
    """


__all__ = ["ConcretizationError", "ConcretizationTypeError", "InconclusiveDimensionOperation",
           "JAXIndexError", "JAXTypeError", "JaxRuntimeError", "JaxprTypeError", "KeyReuseError",
           "NonConcreteBooleanIndexError", "TracerArrayConversionError", "TracerBoolConversionError",
           "TracerIntegerConversionError", "UnexpectedTracerError"]
