"""`fgrad.lax.linalg` (JAX's ``jax.lax.linalg``): the matrix factorizations with JAX's
signatures and output conventions, mapped onto fgrad's linear-algebra functions and primitives
(`fgrad.numpy.linalg`, ``fgrad.ops.lu``/``linalg``/``schur``), so derivatives,
batching and `jit` come from them.  ``hessenberg``, ``tridiagonal`` and
``householder_product`` are Householder compositions of fgrad ops in LAPACK's conventions
(``gehrd``/``sytrd``/``orgqr``: the packed outputs equal JAX's), differentiable too.

Importable as ``fgrad.lax.linalg`` (and, under the jax alias, ``jax.lax.linalg``).

>>> import fgrad.numpy as fnp
>>> from fgrad.lax import linalg
>>> v, w = linalg.eigh(fnp.asarray([[2.0, 1.0], [1.0, 2.0]]))
>>> w
Array([1., 3.], dtype=float64)
"""

from __future__ import annotations

import enum
from typing import Any, Callable

import numpy as np

from . import numpy as fnp
from .core.narrow_floats import dtype_kind as _dtype_kind
from .numpy._householder import larfg
from .ops.linalg import triangular_solve as _triangular_solve_p
from .ops.lu import lu as _lu_p
from .ops.lu import lu_pivots_to_permutation as _pivots_to_permutation_p
from .ops import schur as _schur_ops
from .typing import Array, ArrayLike

__all__ = [
    "EigImplementation", "EighImplementation", "SvdAlgorithm", "cholesky", "cholesky_update", "eig",
    "eigh", "hessenberg", "householder_product", "lu", "lu_pivots_to_permutation", "ormqr", "qr",
    "qdwh", "schur", "svd", "symmetric_product", "triangular_solve", "tridiagonal", "tridiagonal_solve",
]


class EigImplementation(enum.Enum):
    """Which backend computes `eig` (accepted for JAX compatibility; fgrad uses LAPACK)."""

    CUSOLVER = "cusolver"
    MAGMA = "magma"
    LAPACK = "lapack"


class EighImplementation(enum.Enum):
    """Which algorithm computes `eigh` (accepted for JAX compatibility)."""

    QR = "qr"
    JACOBI = "jacobi"
    QDWH = "qdwh"


class SvdAlgorithm(enum.Enum):
    """Which algorithm computes `svd` (accepted for JAX compatibility)."""

    DEFAULT = "default"
    QR = "QR"
    JACOBI = "Jacobi"
    POLAR = "polar"
    DIVIDE_AND_CONQUER = "divide_and_conquer"


def _matrix(x: ArrayLike, fn: str, square: bool = True) -> Array:
    x = fnp.asarray(x)
    if x.ndim < 2 or (square and x.shape[-1] != x.shape[-2]):
        raise ValueError(f"lax.linalg.{fn}: expected {'square ' if square else ''}matrices (shape "
                         f"(..., m, {'m' if square else 'n'})), got shape {x.shape}")
    if _dtype_kind(x.dtype) not in "fc":
        x = x.astype(fnp.result_type(x.dtype, float))
    return x


def _mH(x: Array) -> Array:
    return fnp.conj(fnp.swapaxes(x, -1, -2))


def _symmetrize(x: Array) -> Array:
    return (x + _mH(x)) / 2


def cholesky(x: ArrayLike, *, symmetrize_input: bool = True) -> Array:
    """The lower Cholesky factor ``L`` (``x = L L^H``), NaN where ``x`` is not positive
    definite (no error, as JAX).  ``symmetrize_input`` uses ``(x + x^H) / 2``; otherwise only
    the lower triangle is read.

    >>> import fgrad.numpy as fnp
    >>> cholesky(fnp.asarray([[4.0, 2.0], [2.0, 5.0]]))
    Array([[2., 0.],
           [1., 2.]], dtype=float64)
    """
    x = _matrix(x, "cholesky")
    if symmetrize_input:
        x = _symmetrize(x)
    # (else the kernel reads the lower triangle, and the whole tangent enters the derivative,
    # as in JAX: ops/linalg._chol_jvp)
    # not positive definite: NaN in the lower triangle, zeros above (as JAX)
    return fnp.tril(fnp.linalg.cholesky(x, symmetrize_input=False))


def cholesky_update(r_matrix: ArrayLike, w_vector: ArrayLike) -> Array:
    """The upper Cholesky factor of ``R^H R + w w^H`` given the upper factor ``R`` of a matrix
    (a rank-one update).

    >>> import fgrad.numpy as fnp
    >>> cholesky_update(fnp.asarray([[2.0, 1.0], [0.0, 2.0]]), fnp.asarray([0.0, 3.0]))
    Array([[2.        , 1.        ],
           [0.        , 3.60555128]], dtype=float64)
    """
    r = _matrix(r_matrix, "cholesky_update")
    w = fnp.asarray(w_vector, dtype=r.dtype)
    if w.shape != r.shape[:-1]:
        raise ValueError(f"lax.linalg.cholesky_update: w_vector of shape {w.shape} does not match "
                         f"r_matrix of shape {r.shape} (needs shape {r.shape[:-1]})")
    gram = _mH(r) @ r + w[..., :, None] * fnp.conj(w)[..., None, :]
    return _mH(fnp.linalg.cholesky(gram, symmetrize_input=False))


def symmetric_product(a_matrix: ArrayLike, c_matrix: ArrayLike, *, alpha: float = 1.0,
                      beta: float = 0.0, symmetrize_output: bool = False) -> Array:
    """``alpha * a @ a^T + beta * c`` (BLAS ``syrk``); ``symmetrize_output`` makes the result
    exactly symmetric.

    >>> import fgrad.numpy as fnp
    >>> symmetric_product(fnp.asarray([[1.0, 2.0]]), fnp.asarray([[1.0]]), beta=2.0)
    Array([[7.]], dtype=float64)
    """
    a, c = fnp.asarray(a_matrix), fnp.asarray(c_matrix)
    out = alpha * (a @ fnp.swapaxes(a, -1, -2)) + beta * c
    if symmetrize_output:
        out = (out + fnp.swapaxes(out, -1, -2)) / 2
    return out


def _left_eigenvectors(vr: Array) -> Array:
    # the rows of vr^-1 are the left eigenvectors (u^H a = w u^H): normalized to unit norm with
    # the largest component real, as LAPACK's geev
    vl = _mH(fnp.linalg.inv(vr))
    vl = vl / fnp.linalg.norm(vl, axis=-2, keepdims=True)
    big = fnp.take_along_axis(vl, fnp.argmax(fnp.abs(vl), axis=-2)[..., None, :], axis=-2)
    return vl * (fnp.conj(big) / fnp.abs(big))


def eig(x: ArrayLike, *, compute_left_eigenvectors: bool = True,
        compute_right_eigenvectors: bool = True, enable_eigvec_derivs: bool = False,
        implementation: EigImplementation | None = None, use_magma: bool | None = None) -> list[Array]:
    """Eigenvalues and (left/right) eigenvectors of general square matrices: ``[w, vl, vr]``
    (those asked for, in that order), complex, in LAPACK's order (unsorted).

    >>> import fgrad.numpy as fnp
    >>> eig(fnp.asarray([[2.0, 0.0], [0.0, 3.0]]), compute_left_eigenvectors=False)[0]
    Array([2.+0.j, 3.+0.j], dtype=complex128)
    """
    x = _matrix(x, "eig")
    w, vr = fnp.linalg.eig(x)
    out = [w]
    if compute_left_eigenvectors:
        out.append(_left_eigenvectors(vr))
    if compute_right_eigenvectors:
        out.append(vr)
    return out


def eigh(x: ArrayLike, *, lower: bool = True, symmetrize_input: bool = True,
         sort_eigenvalues: bool = True, subset_by_index: tuple[int, int] | None = None,
         implementation: EighImplementation | None = None) -> tuple[Array, Array]:
    """Eigenvectors and eigenvalues of Hermitian matrices, **in that order**: ``(v, w)`` with
    ``x v = v diag(w)``, ``w`` ascending.  Without ``symmetrize_input`` only the ``lower``
    (else upper) triangle is read.  ``subset_by_index=(lo, hi)`` keeps eigenvalues
    ``lo..hi-1`` (JAX raises NotImplementedError on CPU; fgrad slices the full result).

    >>> import fgrad.numpy as fnp
    >>> eigh(fnp.asarray([[4.0, 100.0], [0.0, 3.0]]), symmetrize_input=False)[1]
    Array([3., 4.], dtype=float64)
    """
    x = _matrix(x, "eigh")
    if symmetrize_input:
        x = _symmetrize(x)
    w, v = fnp.linalg.eigh(x, UPLO="L" if lower else "U", symmetrize_input=False)
    if subset_by_index is not None:
        lo, hi = subset_by_index
        n = x.shape[-1]
        if not 0 <= lo < hi <= n:
            raise ValueError(f"lax.linalg.eigh: subset_by_index must satisfy 0 <= lo < hi <= {n}, "
                             f"got {subset_by_index}")
        w, v = w[..., lo:hi], v[..., :, lo:hi]
    return v, w


def lu(x: ArrayLike) -> list[Array]:
    """LU with partial pivoting of ``(..., m, n)`` matrices: ``(lu, pivots, permutation)`` —
    ``L`` (``m x min(m, n)``, unit diagonal) and ``U`` (``min(m, n) x n``) packed in ``lu``,
    LAPACK ``pivots`` (int32, ``min(m, n)`` of them) and the row ``permutation`` (``m``) with
    ``x[..., permutation, :] == L @ U``.  Differentiable in ``x``.

    >>> import fgrad.numpy as fnp
    >>> lu(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))[2]
    Array([1, 0], dtype=int32)
    """
    x = _matrix(x, "lu", square=False)
    return list(_lu_p(x))


def lu_pivots_to_permutation(pivots: ArrayLike, permutation_size: int) -> Array:
    """The row permutation (int32) that LAPACK ``pivots`` (row ``k`` swapped with
    ``pivots[k]``, in order) apply to ``arange(permutation_size)``.

    >>> import fgrad.numpy as fnp
    >>> lu_pivots_to_permutation(fnp.asarray([2, 2, 2], dtype="int32"), 3)
    Array([2, 0, 1], dtype=int32)
    """
    return _pivots_to_permutation_p(fnp.asarray(pivots), permutation_size)


def qr(x: ArrayLike, *, pivoting: bool = False, full_matrices: bool = True,
       use_magma: bool | None = None) -> tuple[Array, ...]:
    """``(q, r)`` of ``x`` (``full_matrices``: ``q`` square; else the reduced factors);
    ``pivoting=True`` adds the column permutation ``p`` (``x[..., :, p] = q r``, int32).

    >>> import fgrad.numpy as fnp
    >>> q, r = qr(fnp.asarray([[3.0], [4.0]]), full_matrices=False)
    >>> r
    Array([[-5.]], dtype=float64)
    """
    x = _matrix(x, "qr", square=False)
    if pivoting:
        return _pivoted_qr(x, full_matrices)
    return tuple(fnp.linalg.qr(x, mode="complete" if full_matrices else "reduced"))


def _pivoted_qr(x: Array, full_matrices: bool) -> tuple[Array, Array, Array]:
    # LAPACK geqp3: before reflection k, swap in the remaining column of largest norm
    m, n = x.shape[-2:]
    rows = np.arange(m)
    complex_input = _dtype_kind(x.dtype) == "c"
    r = x
    q = fnp.broadcast_to(fnp.eye(m, dtype=x.dtype), x.shape[:-2] + (m, m))
    perm = fnp.broadcast_to(fnp.arange(n, dtype=np.int32), x.shape[:-2] + (n,))
    cols = np.arange(n)
    for k in range(min(m, n)):
        norms = fnp.sum(fnp.abs(fnp.where((rows >= k)[:, None], r, 0.0)) ** 2, axis=-2)
        best = fnp.argmax(fnp.where(cols >= k, norms, -1.0), axis=-1)[..., None]
        order = fnp.where(cols == k, best, fnp.where(cols == best, k, cols))
        r = fnp.take_along_axis(r, order[..., None, :], axis=-1)
        perm = fnp.take_along_axis(perm, order, axis=-1)
        v, tau, _ = larfg(r[..., :, k], k, rows, complex_input)
        vh_r = fnp.sum(fnp.conj(v)[..., :, None] * r, axis=-2)
        r = r - (fnp.conj(tau)[..., None, None] * v[..., :, None]) * vh_r[..., None, :]
        q_v = fnp.sum(q * v[..., None, :], axis=-1)
        q = q - (tau[..., None, None] * q_v[..., :, None]) * fnp.conj(v)[..., None, :]
    r = fnp.triu(r)
    if not full_matrices:
        k = min(m, n)
        q, r = q[..., :, :k], r[..., :k, :]
    return q, r, perm


def svd(x: ArrayLike, *, full_matrices: bool = True, compute_uv: bool = True,
        subset_by_index: tuple[int, int] | None = None,
        algorithm: SvdAlgorithm | None = None) -> Array | tuple[Array, Array, Array]:
    """Singular values (descending) or ``(u, s, vh)`` with ``x = u diag(s) vh``.
    ``subset_by_index=(lo, hi)`` keeps singular values ``lo..hi-1`` (with
    ``full_matrices=False``, as JAX requires; JAX's CPU raises NotImplementedError, fgrad slices).

    >>> import fgrad.numpy as fnp
    >>> svd(fnp.asarray([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False)
    Array([4., 3.], dtype=float64)
    """
    x = _matrix(x, "svd", square=False)
    if subset_by_index is not None and full_matrices and compute_uv:
        raise ValueError("full_matrices and subset_by_index cannot both be set")
    out = fnp.linalg.svd(x, full_matrices=full_matrices, compute_uv=compute_uv)
    if subset_by_index is not None:
        lo, hi = subset_by_index
        k = min(x.shape[-2:])
        if not 0 <= lo < hi <= k:
            raise ValueError(f"lax.linalg.svd: subset_by_index must satisfy 0 <= lo < hi <= {k}, "
                             f"got {subset_by_index}")
        if not compute_uv:
            return out[..., lo:hi]
        u, s, vh = out
        return u[..., :, lo:hi], s[..., lo:hi], vh[..., lo:hi, :]
    return out if not compute_uv else tuple(out)


def triangular_solve(a: ArrayLike, b: ArrayLike, *, left_side: bool = False, lower: bool = False,
                     transpose_a: bool = False, conjugate_a: bool = False,
                     unit_diagonal: bool = False) -> Array:
    """Solve ``op(a) x = b`` (``left_side``) or ``x op(a) = b`` for triangular ``a``, with
    ``op(a)`` = ``a``, ``a^T`` (``transpose_a``), ``conj(a)`` or ``a^H`` (``conjugate_a``).
    Only the ``lower`` (else upper) triangle of ``a`` is read, not its diagonal when
    ``unit_diagonal``.  ``b`` may be a vector with ``left_side``; ``a`` and ``b`` must have one
    dtype (TypeError otherwise, as JAX: lax does not promote).

    >>> import fgrad.numpy as fnp
    >>> triangular_solve(fnp.asarray([[2.0, 1.0], [0.0, 4.0]]), fnp.asarray([4.0, 8.0]), left_side=True)
    Array([1., 2.], dtype=float64)
    """
    a, b = fnp.asarray(a), fnp.asarray(b)
    if a.dtype != b.dtype:  # lax does not promote
        raise TypeError(f"lax.triangular_solve requires arguments to have the same dtypes, got "
                        f"{a.dtype}, {b.dtype}.")
    a = _matrix(a, "triangular_solve")
    if conjugate_a:
        a = fnp.conj(a)
    vector = b.ndim == a.ndim - 1
    if vector:
        if not left_side:
            raise ValueError(f"lax.linalg.triangular_solve: b of shape {b.shape} needs left_side=True "
                             f"with a of shape {a.shape}")
        b = b[..., :, None]
    n = a.shape[-1]
    if b.ndim != a.ndim or b.shape[:-2] != a.shape[:-2] or (b.shape[-2] if left_side else b.shape[-1]) != n:
        raise TypeError(f"lax.linalg.triangular_solve: shapes {a.shape} and {b.shape} do not match: "
                        f"b must have a's batch dimensions and {n} {'rows' if left_side else 'columns'}")
    x = _triangular_solve_p(a, b, left_side=left_side, lower=lower,
                            transpose_a=transpose_a, unit_diagonal=unit_diagonal)
    return x[..., 0] if vector else x


def tridiagonal_solve(dl: ArrayLike, d: ArrayLike, du: ArrayLike, b: ArrayLike, *,
                      perturb_singular: bool = False) -> Array:
    """Solve ``A x = b`` for the tridiagonal ``A`` with sub-diagonal ``dl`` (``dl[0]`` unused),
    diagonal ``d`` and super-diagonal ``du`` (``du[-1]`` unused); ``b`` has shape
    ``(..., n, k)``.  Differentiable in all four (fgrad solves the dense system by LU with
    partial pivoting, as LAPACK's ``gtsv`` pivots).

    >>> import fgrad.numpy as fnp
    >>> one = fnp.ones(3)
    >>> tridiagonal_solve(fnp.asarray([0.0, 1, 1]), 4 * one, fnp.asarray([1.0, 1, 0]), one[:, None])[:, 0]
    Array([0.21428571, 0.14285714, 0.21428571], dtype=float64)
    """
    dl, d, du, b = (fnp.asarray(v) for v in (dl, d, du, b))
    for i, v in enumerate((dl, d, du, b)):
        need = 2 if i == 3 else 1
        if v.ndim < need:
            raise TypeError(f"Input {i} to tridiagonal_solve must have rank at least {need}, but got "
                            f"shape={v.shape}")
    n = d.shape[-1]
    if dl.shape != d.shape or du.shape != d.shape or b.shape[:-2] != d.shape[:-1] or b.shape[-2] != n:
        raise TypeError(f"tridiagonal_solve: dl, d, du must have the same shape (..., n) and b shape "
                        f"(..., n, k); got {dl.shape}, {d.shape}, {du.shape}, {b.shape}")
    dt = fnp.result_type(dl.dtype, d.dtype, du.dtype, b.dtype)
    eye = fnp.eye(n, dtype=dt)
    above = fnp.eye(n, k=1, dtype=dt)
    below = fnp.eye(n, k=-1, dtype=dt)
    matrix = d[..., :, None] * eye + du[..., :, None] * above + dl[..., :, None] * below
    return fnp.linalg.solve(matrix, b.astype(dt))


def schur(x: ArrayLike, *, compute_schur_vectors: bool = True, sort_eig_vals: bool = False,
          select_callable: Callable[..., Any] | None = None) -> list[Array]:
    """The Schur form: ``[t, vs]`` with ``x = vs t vs^H`` (``[t]`` without
    ``compute_schur_vectors``); real input gives the real quasi-triangular form.

    >>> import fgrad.numpy as fnp
    >>> schur(fnp.asarray([[1.0, 2.0], [0.0, 3.0]]), compute_schur_vectors=False)[0]
    Array([[1., 2.],
           [0., 3.]], dtype=float64)
    """
    if sort_eig_vals or select_callable is not None:
        raise NotImplementedError("lax.linalg.schur: sort_eig_vals/select_callable are not supported "
                                  "by fgrad")
    x = _matrix(x, "schur")
    t, vs = _schur_ops.schur(x, output="real")
    return [t, vs] if compute_schur_vectors else [t]


def _reduce_below_subdiagonal(a: Array) -> tuple[Array, Array, Array]:
    """Householder similarity reduction ``h = Q^H a Q`` zeroing below the first sub-diagonal
    (LAPACK ``gehrd``): ``(h, reflectors, taus)`` — column ``k`` of ``reflectors`` holds ``v_k``."""
    n = a.shape[-1]
    idx = np.arange(n)
    complex_input = _dtype_kind(a.dtype) == "c"
    h = a
    vs, taus = [], []
    for k in range(n - 1):
        v, tau, _ = larfg(h[..., :, k], k + 1, idx, complex_input)
        vh_h = fnp.sum(fnp.conj(v)[..., :, None] * h, axis=-2)
        h = h - (fnp.conj(tau)[..., None, None] * v[..., :, None]) * vh_h[..., None, :]
        h_v = fnp.sum(h * v[..., None, :], axis=-1)
        h = h - (tau[..., None, None] * h_v[..., :, None]) * fnp.conj(v)[..., None, :]
        vs.append(v)
        taus.append(tau)
    if n <= 1:
        return h, fnp.zeros_like(a), fnp.zeros(a.shape[:-2] + (0,), a.dtype)
    return h, fnp.stack(vs, axis=-1), fnp.stack(taus, axis=-1)


def _pack(h: Array, reflectors: Array) -> Array:
    n = h.shape[-1]
    rows, cols = np.arange(n)[:, None], np.arange(n - 1)[None, :]
    packed_reflectors = fnp.concatenate(
        [reflectors, fnp.zeros(reflectors.shape[:-1] + (1,), reflectors.dtype)], axis=-1) \
        if n > 1 else fnp.zeros_like(h)
    keep = np.concatenate([rows > cols + 1, np.zeros((n, 1), bool)], axis=1) if n > 1 else \
        np.zeros((n, n), bool)
    return fnp.where(keep, packed_reflectors, h)


def hessenberg(a: ArrayLike) -> list[Array]:
    """The upper Hessenberg reduction in LAPACK's packed ``gehrd`` form: ``(a_out, taus)`` —
    ``a_out`` holds the Hessenberg matrix on and above the first sub-diagonal and the
    Householder reflectors below it; ``taus`` (n - 1) their scales.  Differentiable.

    >>> import fgrad.numpy as fnp
    >>> h, taus = hessenberg(fnp.asarray([[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]]))
    >>> taus
    Array([1.4472136, 0.       ], dtype=float64)
    """
    a = _matrix(a, "hessenberg")
    h, reflectors, taus = _reduce_below_subdiagonal(a)
    return [_pack(h, reflectors).astype(a.dtype), taus]


def tridiagonal(a: ArrayLike, *, lower: bool = True) -> list[Array]:
    """Reduce a Hermitian matrix to real symmetric tridiagonal form (LAPACK ``sytrd``/``hetrd``):
    ``(a_out, d, e, taus)`` — the diagonal ``d``, off-diagonal ``e`` and the reflectors packed
    into the ``lower`` (else upper) triangle of ``a_out``; the other triangle is ``a``'s.

    >>> import fgrad.numpy as fnp
    >>> _, d, e, _ = tridiagonal(fnp.asarray([[4.0, 1.0, 2.0], [1.0, 3.0, 0.0], [2.0, 0.0, 5.0]]))
    >>> d, e
    (Array([4. , 4.6, 3.4], dtype=float64), Array([-2.23606798, -0.8       ], dtype=float64))
    """
    a = _matrix(a, "tridiagonal")
    if not lower:  # sytrd('U') is sytrd('L') of the matrix with rows and columns reversed
        out, d, e, taus = tridiagonal(a[..., ::-1, ::-1], lower=True)
        return [out[..., ::-1, ::-1], d[..., ::-1], e[..., ::-1], taus[..., ::-1]]
    n = a.shape[-1]
    full = fnp.tril(a) + _mH(fnp.tril(a, -1))  # only the lower triangle is read
    h, reflectors, taus = _reduce_below_subdiagonal(full)
    packed = _pack(h, reflectors)
    rows, cols = np.arange(n)[:, None], np.arange(n)[None, :]
    packed = fnp.where(rows >= cols, packed, a).astype(a.dtype)
    d = fnp.real(fnp.diagonal(h, axis1=-2, axis2=-1))
    e = fnp.real(fnp.diagonal(h, offset=-1, axis1=-2, axis2=-1))
    return [packed, d, e, taus]


def householder_product(a: ArrayLike, taus: ArrayLike) -> Array:
    """The ``(m, n)`` matrix ``Q = H_0 ... H_{k-1}`` (first ``n`` columns) from Householder
    reflectors ``H_i = I - taus[i] v_i v_i^H``, ``v_i`` stored below the diagonal of column
    ``i`` of ``a`` with an implicit 1 on it (LAPACK ``orgqr``/``ungqr``).  Differentiable.

    >>> import fgrad.numpy as fnp
    >>> householder_product(fnp.asarray([[1.0], [1.0]]), fnp.asarray([1.0]))
    Array([[ 0.],
           [-1.]], dtype=float64)
    """
    a = _matrix(a, "householder_product", square=False)
    taus = fnp.asarray(taus)
    m, n = a.shape[-2:]
    k = taus.shape[-1] if taus.ndim else 0
    if m < n or taus.ndim < 1 or k > n or taus.shape[:-1] != a.shape[:-2]:
        raise ValueError(f"lax.linalg.householder_product: needs a of shape (..., m, n) with m >= n and "
                         f"taus of shape (..., k) with k <= n and a's batch; got {a.shape} and {taus.shape}")
    dt = fnp.result_type(a.dtype, taus.dtype)
    a, taus = a.astype(dt), taus.astype(dt)
    idx = np.arange(m)
    q = fnp.broadcast_to(fnp.eye(m, n, dtype=dt), a.shape)
    for i in reversed(range(k)):
        v = fnp.where(idx > i, a[..., :, i], 0.0)
        v = fnp.where(idx == i, 1.0, v).astype(dt)
        vh_q = fnp.sum(fnp.conj(v)[..., :, None] * q, axis=-2)
        q = q - (taus[..., i, None, None] * v[..., :, None]) * vh_q[..., None, :]
    return q


def ormqr(a: ArrayLike, taus: ArrayLike, c: ArrayLike, *, left: bool = True,
          transpose: bool = False) -> Array:
    """``Q c`` (``left``) or ``c Q`` with ``Q`` the product of the Householder reflectors in
    ``a``/``taus`` (`householder_product`); ``transpose`` uses ``Q^H``.

    >>> import fgrad.numpy as fnp
    >>> ormqr(fnp.asarray([[1.0], [1.0]]), fnp.asarray([1.0]), fnp.eye(2))
    Array([[ 0., -1.],
           [-1.,  0.]], dtype=float64)
    """
    a = _matrix(a, "ormqr", square=False)
    m = a.shape[-2]
    full = fnp.concatenate([a, fnp.zeros(a.shape[:-1] + (m - a.shape[-1],), a.dtype)], axis=-1) \
        if a.shape[-1] < m else a[..., :, :m]
    q = householder_product(full, taus)
    if transpose:
        q = _mH(q)
    c = fnp.asarray(c)
    return q @ c if left else c @ q


def qdwh(x: ArrayLike, *, is_hermitian: bool = False, max_iterations: int | None = None,
         eps: float | None = None, dynamic_shape: tuple[int, int] | None = None) -> tuple:
    """The polar decomposition ``x = u @ h`` (``u`` with orthonormal columns, ``h`` Hermitian
    positive semidefinite) of an ``M x N`` matrix with ``M >= N``, as JAX's
    ``jax.lax.linalg.qdwh``: returns ``(u, h, num_iters, is_converged)``.  fgrad computes it
    from the SVD (``u = U V^H``, ``h = V S V^H``) instead of JAX's QDWH iteration, so
    ``num_iters`` is 0 and ``is_converged`` says the result is finite; ``u`` and ``h`` are the
    same decomposition (unique for a matrix of full rank) and differentiate through the SVD.

    Example::

        >>> import fgrad.numpy as fnp
        >>> u, h, _, ok = qdwh(fnp.asarray([[2.0, 0.0], [0.0, -3.0]]))
        >>> u, h, bool(ok)
        (Array([[ 1.,  0.],
               [ 0., -1.]], dtype=float64), Array([[2., 0.],
               [0., 3.]], dtype=float64), True)
    """
    x = fnp.asarray(x)
    if x.ndim != 2:
        raise ValueError(f"lax.linalg.qdwh: expected a matrix (rank 2), got shape {x.shape}")
    if dynamic_shape is not None:
        raise NotImplementedError("lax.linalg.qdwh: dynamic_shape (a padded matrix) is not supported by "
                                  "fgrad; pass the matrix itself")
    m, n = x.shape
    if m < n:
        raise ValueError("The input matrix of shape M x N must have M >= N.")
    u_, s, vh = svd(x, full_matrices=False)
    u = u_ @ vh
    h = (_mH(vh) * s[..., None, :].astype(x.dtype)) @ vh
    h = (h + _mH(h)) / 2
    ok = fnp.all(fnp.isfinite(u)) & fnp.all(fnp.isfinite(h))
    return u, h, fnp.asarray(0, fnp.int32), ok


# JAX's primitive objects of ``jax.lax.linalg`` (``cholesky_p``, ``svd_p``, ...): JAX's operands,
# parameters and result order in ``bind`` (`fgrad._lax_primitives.JaxPrimitive`)
from ._lax_primitives import _LINALG_VIEWS  # noqa: E402

globals().update({f"{_n}_p": _v for _n, _v in _LINALG_VIEWS.items()})
__all__ += [f"{_n}_p" for _n in _LINALG_VIEWS]
