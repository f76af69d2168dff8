"""``jax.experimental.sparse.util``: the efficiency errors and warnings under JAX's module
path.

Example::

    >>> from fgrad.experimental.sparse.util import SparseEfficiencyError
    >>> issubclass(SparseEfficiencyError, ValueError)
    True
"""

from ._errors import CuSparseEfficiencyWarning, SparseEfficiencyError, SparseEfficiencyWarning

__all__ = ["CuSparseEfficiencyWarning", "SparseEfficiencyError", "SparseEfficiencyWarning"]
