"""The LU factorization with partial pivoting as a primitive, ``lu`` (as JAX's
``lax.linalg.lu``), and ``lu_pivots_to_permutation``.

``lu(a) -> (lu, pivots, permutation)`` for square ``a`` (leading batch axes allowed):
``a[..., permutation, :] = L @ U`` with ``L`` unit lower triangular (the strict lower
triangle of ``lu``) and ``U`` upper triangular (its upper triangle); ``pivots[k]`` is the
row swapped with row ``k`` at step ``k`` (LAPACK's ``getrf``, 0-based as SciPy's
``lu_factor``).  The factorization is computed in the array's backend (row-vectorized
Doolittle elimination, the unblocked ``getrf``); a zero pivot leaves its column as is, as
LAPACK does, and the factors then hold infinities or NaNs only where they divide by it.

Derivative (square case, JAX's rule): with ``P a = L U`` and ``X = L^-1 P da U^-1``,
``dL = L tril(X, -1)`` and ``dU = triu(X) U``; so ``d lu = dL + dU``, linear in ``da`` and
written with triangular solves and products (reverse mode and every order follow).
Pivots and the permutation are integers (no tangent).
"""

from __future__ import annotations

import numpy as np
from ..core.narrow_floats import dtype_kind

from ..core.array import ShapedArray
from ..core.constants import constant_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule, defzero
from .elementwise import add, convert_element_type, eq
from .linalg import _batch_front, _check_float, _check_square, _dtype, _mm, _shape, _tril, _triu
from .linalg import triangular_solve
from .shape import broadcast_in_dim

_INDEX = np.dtype(np.int32)


def _lu_impl(xp, a):
    n = a.shape[-1]
    lead = a.shape[:-2]
    work = a.reshape((-1, n, n)).copy()
    count = work.shape[0]
    rows = xp.arange(count)
    perm = xp.broadcast_to(xp.arange(n, dtype=_INDEX), (count, n)).copy()
    piv = xp.zeros((count, n), dtype=_INDEX)
    with np.errstate(all="ignore"):
        for k in range(n):
            p = xp.argmax(xp.abs(work[:, k:, k]), axis=1) + k
            piv[:, k] = p
            row_k = work[rows, k, :].copy()
            work[rows, k, :] = work[rows, p, :]
            work[rows, p, :] = row_k
            perm_k = perm[rows, k].copy()
            perm[rows, k] = perm[rows, p]
            perm[rows, p] = perm_k
            pivot = work[:, k, k]
            safe = xp.where(pivot == 0, xp.ones_like(pivot), pivot)
            work[:, k + 1:, k] /= safe[:, None]
            work[:, k + 1:, k + 1:] -= work[:, k + 1:, k, None] * work[:, k, None, k + 1:]
    return [work.reshape(a.shape), piv.reshape(lead + (n,)), perm.reshape(lead + (n,))]


def _lu_abstract(a):
    _check_square("lu", a)
    _check_float("lu", a)
    idx = ShapedArray(a.shape[:-1], _INDEX)
    return [ShapedArray(a.shape, a.dtype), idx, idx]


lu_p = Primitive("lu", _lu_impl, _lu_abstract, multiple_results=True, family="linalg")


def lu(a):
    """``(lu, pivots, permutation)`` of square matrices (``lax.linalg.lu``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> packed, piv, perm = lu(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))
        >>> packed, perm
        (Array([[3.        , 4.        ],
               [0.33333333, 0.66666667]], dtype=float64), Array([1, 0], dtype=int32))
    """
    return lu_p.bind(a)


def permutation_matrix(perm, dtype, like):
    """The matrix ``P`` with ``P @ x == x[..., perm, :]`` (one-hot rows), as ``dtype``."""
    n = _shape(perm)[-1]
    nd = len(_shape(perm))
    cols = constant_like(np.arange(n, dtype=_INDEX), like)
    full = _shape(perm) + (n,)
    rows = broadcast_in_dim(perm, full, tuple(range(nd)))
    grid = broadcast_in_dim(cols, full, (nd,))
    return convert_element_type(eq(rows, grid), dtype)


def _lu_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    packed, piv, perm = lu_p.bind(a)
    if da is None:
        return [packed, piv, perm], [None, None, None]
    dt = _dtype(packed)
    p = permutation_matrix(perm, dt, packed)
    pda = _mm(p, convert_element_type(da, dt) if _dtype(da) != dt else da)
    y = triangular_solve(packed, pda, left_side=True, lower=True, unit_diagonal=True)
    x = triangular_solve(packed, y, left_side=False, lower=False)
    n = _shape(packed)[-1]
    ell = add(_tril(packed, -1), constant_like(np.eye(n, dtype=dt), packed))
    d_lower = _mm(ell, _tril(x, -1))
    d_upper = _mm(_triu(x), _triu(packed))
    return [packed, piv, perm], [add(_tril(d_lower, -1), d_upper), None, None]


defjvp_rule(lu_p, _lu_jvp)
defbatch(lu_p, _batch_front(lu_p))


def _pivots_impl(xp, pivots, permutation_size):
    lead = pivots.shape[:-1]
    k = pivots.shape[-1]
    piv = pivots.reshape((-1, k))
    count = piv.shape[0]
    rows = xp.arange(count)
    perm = xp.broadcast_to(xp.arange(permutation_size, dtype=_INDEX), (count, permutation_size)).copy()
    for i in range(k):
        j = piv[:, i]
        tmp = perm[rows, i].copy()
        perm[rows, i] = perm[rows, j]
        perm[rows, j] = tmp
    return perm.reshape(lead + (permutation_size,))


def _pivots_abstract(pivots, permutation_size):
    if dtype_kind(pivots.dtype) not in "iu" or pivots.ndim < 1:
        raise TypeError(f"lu_pivots_to_permutation: pivots must be an integer array of rank >= 1, got "
                        f"{pivots.dtype} of shape {pivots.shape}")
    if permutation_size < pivots.shape[-1]:
        raise ValueError(f"lu_pivots_to_permutation: permutation_size {permutation_size} is smaller than "
                         f"the number of pivots {pivots.shape[-1]}")
    return ShapedArray(pivots.shape[:-1] + (permutation_size,), _INDEX)


lu_pivots_to_permutation_p = Primitive("lu_pivots_to_permutation", _pivots_impl, _pivots_abstract,
                                       family="linalg")


def lu_pivots_to_permutation(pivots, permutation_size: int):
    """The row permutation that LAPACK-style ``pivots`` (row ``k`` swapped with
    ``pivots[k]``, in order) produce (``lax.linalg.lu_pivots_to_permutation``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> lu_pivots_to_permutation(fnp.asarray([2, 2, 2], dtype=fnp.int32), 3)
        Array([2, 0, 1], dtype=int32)
    """
    return lu_pivots_to_permutation_p.bind(pivots, permutation_size=int(permutation_size))


defzero(lu_pivots_to_permutation_p)
defbatch(lu_pivots_to_permutation_p, _batch_front(lu_pivots_to_permutation_p))

__all__ = ["lu", "lu_p", "lu_pivots_to_permutation", "lu_pivots_to_permutation_p", "permutation_matrix"]
