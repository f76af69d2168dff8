"""``jax.experimental.sparse.bcoo``: the BCOO array and its operations under JAX's module
path (``from jax.experimental.sparse.bcoo import BCOO``); the same objects as in
`fgrad.experimental.sparse`.

Example::

    >>> from fgrad.experimental import sparse
    >>> from fgrad.experimental.sparse.bcoo import BCOO
    >>> BCOO is sparse.BCOO
    True
"""

from ._bcoo import BCOO
from ._convert import bcoo_extract, bcoo_fromdense, bcoo_todense
from ._dot import bcoo_dot_general, bcoo_dot_general_sampled
from ._elementwise import bcoo_multiply_dense, bcoo_multiply_sparse
from ._layout import bcoo_eliminate_zeros, bcoo_sort_indices, bcoo_sum_duplicates
from ._shape import bcoo_broadcast_in_dim, bcoo_reduce_sum, bcoo_reshape, bcoo_squeeze, bcoo_transpose
from ._slicing import bcoo_concatenate, bcoo_dynamic_slice, bcoo_rev, bcoo_slice
from ._update_layout import bcoo_update_layout

__all__ = [
    "BCOO",
    "bcoo_broadcast_in_dim",
    "bcoo_concatenate",
    "bcoo_dot_general",
    "bcoo_dot_general_sampled",
    "bcoo_dynamic_slice",
    "bcoo_eliminate_zeros",
    "bcoo_extract",
    "bcoo_fromdense",
    "bcoo_multiply_dense",
    "bcoo_multiply_sparse",
    "bcoo_reduce_sum",
    "bcoo_reshape",
    "bcoo_rev",
    "bcoo_slice",
    "bcoo_sort_indices",
    "bcoo_squeeze",
    "bcoo_sum_duplicates",
    "bcoo_todense",
    "bcoo_transpose",
    "bcoo_update_layout",
]
