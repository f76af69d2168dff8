"""The LU factorization with partial pivoting as a primitive, ``lu`` (as JAX's
``lax.linalg.lu``), and ``lu_pivots_to_permutation``.

``lu(a) -> (lu, pivots, permutation)`` for ``a`` of shape ``(..., m, n)`` (leading batch
axes allowed, rectangular too): ``a[..., permutation, :] = L @ U`` with ``L`` (``m x k``,
``k = min(m, n)``) unit lower trapezoidal (the strict lower triangle of ``lu``) and ``U``
(``k x n``) upper trapezoidal (its upper triangle); ``pivots`` has ``k`` entries, ``pivots[k]`` is the
row swapped with row ``k`` at step ``k`` (LAPACK's ``getrf``, 0-based as SciPy's
``lu_factor``).  The factorization is computed in the array's backend (row-vectorized
Doolittle elimination, the unblocked ``getrf``); a zero pivot leaves its column as is, as
LAPACK does, and the factors then hold infinities or NaNs only where they divide by it.

Derivative (JAX's rule): with ``P a = L U`` and ``X = L^-1 P da U^-1``,
``dL = L tril(X, -1)`` and ``dU = triu(X) U``; so ``d lu = dL + dU``, linear in ``da`` and
written with triangular solves and products (reverse mode and every order follow).  For
rectangular ``a`` the factors are first completed to square ones (``L`` to ``m x m`` with
identity columns, ``U`` to ``n x n`` with an identity block), as JAX does.
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
from .linalg import _batch_front, _check_float, _dtype, _mm, _shape, _tril, _triu
from .linalg import triangular_solve
from .shape import broadcast_in_dim
from .structural import pad, slice_in_dim

_INDEX = np.dtype(np.int32)


def _lu_impl(xp, a):
    m, n = a.shape[-2:]
    lead = a.shape[:-2]
    work = a.reshape((-1, m, n)).copy()
    count = work.shape[0]
    rows = xp.arange(count)
    perm = xp.broadcast_to(xp.arange(m, dtype=_INDEX), (count, m)).copy()
    piv = xp.zeros((count, min(m, n)), dtype=_INDEX)
    with np.errstate(all="ignore"):
        for k in range(min(m, n)):
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
    return [work.reshape(a.shape), piv.reshape(lead + (min(m, n),)), perm.reshape(lead + (m,))]


def _lu_abstract(a):
    if a.ndim < 2:
        raise TypeError(f"lu: the input must have rank at least 2 (matrices in the last two axes), "
                        f"got shape {a.shape}")
    _check_float("lu", a)
    m, n = a.shape[-2:]
    lead = a.shape[:-2]
    return [ShapedArray(a.shape, a.dtype), ShapedArray(lead + (min(m, n),), _INDEX),
            ShapedArray(lead + (m,), _INDEX)]


lu_p = Primitive("lu", _lu_impl, _lu_abstract, multiple_results=True, family="linalg")


def lu(a):
    """``(lu, pivots, permutation)`` of ``(..., m, n)`` matrices (``lax.linalg.lu``).

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


def _square_factors(packed):
    """``L`` completed to ``m x m`` (unit diagonal, identity columns past ``k``) and ``U``
    completed to ``n x n`` (an identity block past ``k``) from the packed ``m x n`` factors."""
    m, n = _shape(packed)[-2:]
    nd = len(_shape(packed))
    dt = _dtype(packed)
    cols = packed if m >= n else slice_in_dim(packed, 0, m, axis=nd - 1)
    rows = packed if m <= n else slice_in_dim(packed, 0, n, axis=nd - 2)
    zero = constant_like(np.zeros((), dt), packed)
    no_pad = [(0, 0, 0)] * (nd - 2)
    ell = _tril(cols, -1)
    if m > n:
        ell = pad(ell, zero, no_pad + [(0, 0, 0), (0, m - n, 0)])
    upper = _triu(rows)
    if m < n:
        upper = pad(upper, zero, no_pad + [(0, n - m, 0), (0, 0, 0)])
    ell = add(ell, constant_like(np.eye(m, dtype=dt), packed))
    if m < n:  # U's completion: ones on the diagonal past its m rows
        upper = add(upper, constant_like(np.diag((np.arange(n) >= m).astype(dt)), packed))
    return ell, upper


def _lu_jvp(primals, tangents):
    (a,), (da,) = primals, tangents
    packed, piv, perm = lu_p.bind(a)
    if da is None:
        return [packed, piv, perm], [None, None, None]
    dt = _dtype(packed)
    p = permutation_matrix(perm, dt, packed)
    pda = _mm(p, convert_element_type(da, dt) if _dtype(da) != dt else da)
    ell, upper = _square_factors(packed)
    y = triangular_solve(ell, pda, left_side=True, lower=True, unit_diagonal=True)
    x = triangular_solve(upper, y, left_side=False, lower=False)
    d_lower = _mm(ell, _tril(x, -1))
    d_upper = _mm(_triu(x), upper)
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
