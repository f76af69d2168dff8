"""``jax.experimental.sparse.bcsr``: the BCSR array and its functions under JAX's module
path; the same objects as in `fgrad.experimental.sparse`.

Example::

    >>> from fgrad.experimental import sparse
    >>> from fgrad.experimental.sparse.bcsr import BCSR
    >>> BCSR is sparse.BCSR
    True
"""

from ._bcsr import BCSR, bcsr_dot_general, bcsr_extract, bcsr_fromdense, bcsr_sum_duplicates, bcsr_todense

__all__ = [
    "BCSR",
    "bcsr_dot_general",
    "bcsr_extract",
    "bcsr_fromdense",
    "bcsr_sum_duplicates",
    "bcsr_todense",
]
