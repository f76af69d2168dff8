"""`fgrad.ref`: JAX's ``jax.ref`` namespace of mutable array references (`fgrad._refs`).

Example::

    >>> import fgrad.ref, fgrad.numpy as fnp
    >>> r = fgrad.ref.new_ref(fnp.zeros(2))
    >>> fgrad.ref.set(r, 1, 3.0)
    >>> fgrad.ref.freeze(r)
    Array([0., 3.], dtype=float64)
"""

from __future__ import annotations

from ._refs import AbstractRef, Ref, addupdate, empty_ref, free_ref, freeze, get, new_ref, set, swap

__all__ = ["AbstractRef", "Ref", "addupdate", "empty_ref", "free_ref", "freeze", "get", "new_ref", "set",
           "swap"]
