"""``jax.experimental.sparse.coo``: the legacy COO matrix under JAX's module path.

Example::

    >>> from fgrad.experimental.sparse.coo import COO
    >>> COO.__name__
    'COO'
"""

from ._legacy import COO, coo_fromdense, coo_matmat, coo_matvec, coo_todense

__all__ = ["COO", "coo_fromdense", "coo_matmat", "coo_matvec", "coo_todense"]
