"""The warnings and errors ``jax.experimental.sparse`` raises when a layout change or an op
would store many more elements than the operand has."""

from __future__ import annotations

__all__ = ["CuSparseEfficiencyWarning", "SparseEfficiencyError", "SparseEfficiencyWarning"]


class SparseEfficiencyError(ValueError):
    """Raised (``on_inefficient='error'``) when a sparse operation would be inefficient,
    e.g. `bcoo_update_layout` turning sparse dimensions into batch dimensions.

    Example::

        >>> from fgrad.experimental import sparse
        >>> issubclass(sparse.SparseEfficiencyError, ValueError)
        True
    """


class SparseEfficiencyWarning(UserWarning):
    """Warned (``on_inefficient='warn'``) when a sparse operation would be inefficient.

    Example::

        >>> from fgrad.experimental import sparse
        >>> issubclass(sparse.SparseEfficiencyWarning, UserWarning)
        True
    """


class CuSparseEfficiencyWarning(SparseEfficiencyWarning):
    """JAX's warning for a cuSPARSE fallback; fgrad has no cuSPARSE path, so it is never
    warned (kept so that ``warnings.filterwarnings`` calls naming it work).

    Example::

        >>> from fgrad.experimental import sparse
        >>> issubclass(sparse.CuSparseEfficiencyWarning, sparse.SparseEfficiencyWarning)
        True
    """
