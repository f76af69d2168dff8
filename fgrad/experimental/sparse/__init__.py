"""``jax.experimental.sparse`` for fgrad: ``from fgrad.experimental import sparse``.

BCOO (batched coordinate) and BCSR (batched compressed row) sparse arrays that are pytrees
of their buffers, the ``bcoo_*`` operations, ``sparsify`` and the sparse-aware ``grad``.
Every operation is a composite of fgrad's own primitives (gathers, scatter-adds,
``dot_general``, sorting), so derivatives, ``vmap``, ``jit`` and devices come from theirs.
See ``docs/jax-sparse.md``.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.experimental import sparse
    >>> M = sparse.BCOO.fromdense(fnp.array([[0., 2.], [3., 0.]]))
    >>> (M @ fnp.array([1., 1.])).tolist(), M.T.todense().tolist()
    ([2.0, 3.0], [[0.0, 3.0], [2.0, 0.0]])
"""

from __future__ import annotations

from ._base import JAXSparse
from ._bcoo import BCOO
from ._convert import bcoo_extract, bcoo_fromdense, bcoo_todense
from ._errors import CuSparseEfficiencyWarning, SparseEfficiencyError, SparseEfficiencyWarning

__all__ = ["BCOO", "CuSparseEfficiencyWarning", "JAXSparse", "SparseEfficiencyError", "SparseEfficiencyWarning",
           "bcoo_extract", "bcoo_fromdense", "bcoo_todense"]
