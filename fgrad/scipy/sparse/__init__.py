"""`fgrad.scipy.sparse`: the ``jax.scipy.sparse`` surface -- iterative solvers in `linalg`.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.scipy.sparse.linalg import cg
    >>> cg(fnp.asarray([[2.0, 0.0], [0.0, 4.0]]), fnp.asarray([2.0, 4.0]))[0]
    Array([1., 1.], dtype=float64)
"""

from __future__ import annotations

import fgrad.scipy.sparse.linalg as linalg

__all__ = ["linalg"]
