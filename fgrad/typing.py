"""`fgrad.typing`: the annotation types of fgrad's public functions (JAX's ``jax.typing``).

- ``Array``: `fgrad.Array` (concrete arrays and tracers alike).
- ``ArrayLike``: anything an fgrad function accepts as an array: an `fgrad.Array` (or a
  tracer), a NumPy array or scalar, a Python ``bool``/``int``/``float``/``complex``.
- ``DTypeLike``: anything ``numpy.dtype`` accepts: a name, a scalar type, a dtype, or an
  object with a ``dtype`` attribute.
- ``Shape`` (a sequence of ints) and ``Axis`` (an int, a sequence of ints, or ``None``).
- ``Float``, ``Complex``, ``Inexact``, ``Integer``, ``UInt``, ``Int``, ``Bool``, ``Num``,
  ``Shaped``: jaxtyping's dtype-and-shape annotations (``Float[Array, "batch features"]``).
  They are jaxtyping's own; importing jaxtyping is deferred to the first subscript, so
  ``import fgrad`` stays fast, and static checkers see jaxtyping's classes.

Runtime checking: wrap a function with ``jaxtyping.jaxtyped(typechecker=beartype)``.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.typing import Array, ArrayLike, Float
    >>> def double(x: ArrayLike) -> Array:
    ...     return fnp.asarray(x) * 2
    >>> double(1.5)
    Array(3., dtype=float64, weak_type=True)
    >>> isinstance(fnp.ones((2, 3)), Float[Array, "rows 3"])
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol, Union, runtime_checkable

import numpy as np

from .core.array import Array


@runtime_checkable
class SupportsDType(Protocol):
    """An object with a ``dtype`` (an array, a `ShapeDtypeStruct`, a NumPy scalar type).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> isinstance(jnp.ones(2), fgrad.typing.SupportsDType)
        True
    """

    @property
    def dtype(self) -> Any: ...


ArrayLike = Union[Array, np.ndarray, np.bool_, np.number, bool, int, float, complex]
DTypeLike = Union[str, type, np.dtype, SupportsDType]
Shape = Sequence[int]
Axis = Union[int, Sequence[int], None]


class _DeferredJaxtyping:
    """``Float`` and its siblings: jaxtyping's class of that name, imported on first use."""

    __slots__ = ("_name",)

    def __init__(self, name: str) -> None:
        self._name = name

    def __getitem__(self, params: Any) -> Any:
        import jaxtyping  # deferred: costs ~50 ms, paid only where annotations are evaluated

        return getattr(jaxtyping, self._name)[params]

    def __repr__(self) -> str:
        return f"fgrad.typing.{self._name}"


_DTYPE_CATEGORIES = ("Float", "Complex", "Inexact", "Integer", "UInt", "Int", "Bool", "Num", "Shaped")

if TYPE_CHECKING:
    from jaxtyping import Bool, Complex, Float, Inexact, Int, Integer, Num, Shaped, UInt
else:
    Float, Complex, Inexact, Integer, UInt, Int, Bool, Num, Shaped = (
        _DeferredJaxtyping(name) for name in _DTYPE_CATEGORIES)

__all__ = ["Array", "ArrayLike", "DTypeLike", "SupportsDType", "Shape", "Axis", *_DTYPE_CATEGORIES]
