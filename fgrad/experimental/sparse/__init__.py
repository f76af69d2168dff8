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
from ._bcsr import BCSR, bcsr_dot_general, bcsr_extract, bcsr_fromdense, bcsr_sum_duplicates, bcsr_todense
from ._constructors import empty, eye, random_bcoo
from ._convert import bcoo_extract, bcoo_fromdense, bcoo_todense
from ._dot import bcoo_dot_general, bcoo_dot_general_sampled
from ._elementwise import bcoo_multiply_dense, bcoo_multiply_sparse
from ._errors import CuSparseEfficiencyWarning, SparseEfficiencyError, SparseEfficiencyWarning
from ._legacy import (
    COO,
    CSC,
    CSR,
    coo_fromdense,
    coo_matmat,
    coo_matvec,
    coo_todense,
    csr_fromdense,
    csr_matmat,
    csr_matvec,
    csr_todense,
)
from ._layout import bcoo_eliminate_zeros, bcoo_sort_indices, bcoo_sum_duplicates
from ._methods import attach_bcoo_methods, defer_dense_operators
from ._shape import bcoo_broadcast_in_dim, bcoo_reduce_sum, bcoo_reshape, bcoo_squeeze, bcoo_transpose
from ._slicing import bcoo_concatenate, bcoo_dynamic_slice, bcoo_rev, bcoo_slice
from ._sparsify import sparsify
from ._todense import todense
from ._transforms import grad, jacfwd, jacobian, jacrev, value_and_grad
from ._update_layout import bcoo_update_layout

attach_bcoo_methods()
defer_dense_operators()

from . import bcoo, bcsr, coo, csr, linalg, util  # noqa: E402 (JAX's submodules, after the methods exist)

__all__ = [
    "BCOO",
    "BCSR",
    "COO",
    "CSC",
    "CSR",
    "CuSparseEfficiencyWarning",
    "JAXSparse",
    "SparseEfficiencyError",
    "SparseEfficiencyWarning",
    "bcoo",
    "bcsr",
    "coo",
    "csr",
    "linalg",
    "util",
    "bcoo_broadcast_in_dim",
    "bcoo_concatenate",
    "bcoo_dot_general",
    "bcoo_dynamic_slice",
    "bcoo_slice",
    "bcoo_dot_general_sampled",
    "bcoo_eliminate_zeros",
    "bcoo_extract",
    "bcoo_fromdense",
    "bcoo_multiply_dense",
    "bcoo_multiply_sparse",
    "bcoo_reduce_sum",
    "bcoo_reshape",
    "bcoo_rev",
    "bcoo_sort_indices",
    "bcoo_squeeze",
    "bcoo_sum_duplicates",
    "bcoo_todense",
    "bcoo_transpose",
    "bcoo_update_layout",
    "bcsr_dot_general",
    "bcsr_extract",
    "bcsr_fromdense",
    "bcsr_sum_duplicates",
    "bcsr_todense",
    "coo_fromdense",
    "coo_matmat",
    "coo_matvec",
    "coo_todense",
    "csr_fromdense",
    "csr_matmat",
    "csr_matvec",
    "csr_todense",
    "empty",
    "eye",
    "grad",
    "jacfwd",
    "jacobian",
    "jacrev",
    "random_bcoo",
    "sparsify",
    "todense",
    "value_and_grad",
]
