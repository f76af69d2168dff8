"""`fgrad.typing`: the annotation types of JAX's ``jax.typing``.

``ArrayLike``: anything an fgrad function accepts as an array (an `fgrad.Array`, a NumPy
array or scalar, a Python number or bool).  ``DTypeLike``: anything ``numpy.dtype`` accepts.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.typing import ArrayLike
    >>> def double(x: ArrayLike) -> fnp.ndarray:
    ...     return fnp.asarray(x) * 2
    >>> double(1.5)
    Array(3., dtype=float64)
"""

from __future__ import annotations

from typing import Any, Union

import numpy as np

from .core.array import Array

ArrayLike = Union[Array, np.ndarray, np.bool_, np.number, bool, int, float, complex]
DTypeLike = Union[str, type, np.dtype, Any]

__all__ = ["ArrayLike", "DTypeLike"]
