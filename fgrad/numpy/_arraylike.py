"""JAX's argument check for `fgrad.numpy` functions: a Python list or tuple is not an array.

JAX's ``jnp`` functions (all but the constructors: ``array``, ``asarray``, ``stack``, ...) raise
a TypeError for a list or tuple argument, so that ``jnp.sin([x, y])`` does not silently build an
array per call; fgrad's raise the same error (NumPy would convert).

>>> check_arraylike("sin", [1.0, 2.0])
Traceback (most recent call last):
TypeError: sin requires ndarray or scalar arguments, got <class 'list'> at position 0.
>>> check_arraylike("add", 1.0, (2.0,))
Traceback (most recent call last):
TypeError: add requires ndarray or scalar arguments, got <class 'tuple'> at position 1.
"""

from __future__ import annotations

from typing import Any

__all__ = ["check_arraylike"]


def check_arraylike(name: str, *args: Any) -> None:
    """Raise JAX's TypeError if an argument of the ``jnp`` function ``name`` is a list or tuple."""
    for i, a in enumerate(args):
        if isinstance(a, (list, tuple)):
            raise TypeError(f"{name} requires ndarray or scalar arguments, got {type(a)} at position {i}.")
