"""``jax.experimental.sparse.csr``: the legacy CSR and CSC matrices under JAX's module path.

Example::

    >>> from fgrad.experimental.sparse.csr import CSR
    >>> CSR.__name__
    'CSR'
"""

from ._legacy import CSC, CSR, csr_fromdense, csr_matmat, csr_matvec, csr_todense

__all__ = ["CSC", "CSR", "csr_fromdense", "csr_matmat", "csr_matvec", "csr_todense"]
