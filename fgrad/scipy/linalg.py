"""`fgrad.scipy.linalg`: SciPy's linear algebra (the ``jax.scipy.linalg`` surface),
differentiable.

Decompositions reuse `fgrad.numpy.linalg`'s primitives (cholesky, qr, svd, eigh, solve,
triangular_solve); LU is the `fgrad.ops.lu` primitive; ``expm`` is JAX's algorithm
(Padé 13 with scaling and squaring, up to ``max_squarings`` squarings selected with
``where`` so it traces under jit) written with fgrad ops, so its gradient comes from
differentiating the algorithm; ``expm_frechet`` is the block formula
``expm([[A, E], [0, A]])``.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.scipy.linalg import expm
    >>> fgrad.grad(lambda t: expm(t * fnp.asarray([[0.0, 1.0], [0.0, 0.0]]))[0, 1])(2.0)
    Array(1., dtype=float64, weak_type=True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any
from ..typing import Array, ArrayLike, DTypeLike, Float, Inexact, Integer, Shaped

import math
from collections import namedtuple as _namedtuple

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..core.x64_mode import canonical_dtype as _canonical_dtype

from .. import numpy as fnp
from .._lax_linalg import qr as _lax_qr
from ..ops.linalg import triangular_solve as _tri_solve
from ..ops.linear_solve import custom_linear_solve as _custom_linear_solve
from ..ops.bits import stop_gradient as _stop_gradient
from ..ops.lu import lu as _lu_prim
from ..ops import schur as _schur_ops
from ..ops.eig import eig as _eig
from ..ops.lu import lu_pivots_to_permutation as _pivots_to_perm
from ..ops.lu import permutation_matrix as _perm_matrix


def _float(a, fn):
    a = fnp.asarray(a)
    if _dtype_kind(a.dtype) not in "biufc":
        raise TypeError(f"fgrad.scipy.linalg.{fn}: unsupported dtype {a.dtype}")
    return a if _dtype_kind(a.dtype) in "fc" else a.astype(np.float64)


def _square(a, fn):
    if a.ndim < 2 or a.shape[-1] != a.shape[-2]:
        raise ValueError(f"fgrad.scipy.linalg.{fn}: expected a square matrix (or a stack of them), got "
                         f"shape {a.shape}")


def _mT(x):
    return fnp.swapaxes(x, -1, -2)


def cholesky(a: Shaped[ArrayLike, "*batch n n"], lower: bool = False, overwrite_a: bool = False,
             check_finite: bool = True) -> Inexact[Array, "*batch n n"]:
    """Cholesky factor: upper ``U`` with ``a = U^H U`` by default, lower with ``lower=True``
    (SciPy's default is upper, unlike NumPy's).  Only that triangle of ``a`` is read, as in
    SciPy and JAX (no symmetrization).

    Example::

        >>> import fgrad.numpy as fnp
        >>> cholesky(fnp.asarray([[4.0, 2.0], [2.0, 2.0]]))
        Array([[2., 1.],
               [0., 1.]], dtype=float64)
    """
    a = _float(a, "cholesky")
    _square(a, "cholesky")
    if lower:
        return fnp.linalg.cholesky(a, symmetrize_input=False)
    # the upper triangle of a is the lower one of a^H
    return fnp.linalg.cholesky(fnp.conj(_mT(a)), symmetrize_input=False, upper=True)


def cho_factor(a: Shaped[ArrayLike, "*batch n n"], lower: bool = False, overwrite_a: bool = False,
               check_finite: bool = True) -> tuple[Inexact[Array, "*batch n n"], bool]:
    """``(c, lower)`` for `cho_solve` (``c`` is the triangular factor; SciPy leaves
    garbage in the other triangle, fgrad zeros).

    Example::

        >>> import fgrad.numpy as fnp
        >>> c, low = cho_factor(fnp.asarray([[4.0, 2.0], [2.0, 2.0]]))
        >>> low
        False
    """
    return cholesky(a, lower=lower), bool(lower)


def _as_matrix_rhs(b, n, fn):
    b = fnp.asarray(b)
    ok = b.ndim >= 1 and (b.shape[0] == n if b.ndim == 1 else b.shape[-2] == n)
    if not ok:
        raise ValueError(f"fgrad.scipy.linalg.{fn}: right-hand side of shape {b.shape} does not match "
                         f"a matrix of size {n}")
    return (b[:, None], True) if b.ndim == 1 else (b, False)


def _tri(a, b, lower, transpose=False, unit=False, left=True):
    """``op(a)^-1 b`` with matching leading axes (``a`` broadcast to ``b``'s batch)."""
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = fnp.broadcast_to(a, lead + a.shape[-2:])
    b = fnp.broadcast_to(b, lead + b.shape[-2:])
    dt = np.result_type(a.dtype, b.dtype)
    return _tri_solve(a.astype(dt), b.astype(dt), left_side=left, lower=lower, transpose_a=transpose,
                      unit_diagonal=unit)


def cho_solve(c_and_lower: tuple[ArrayLike, bool], b: ArrayLike, overwrite_b: bool = False,
              check_finite: bool = True) -> Array:
    """Solve ``a x = b`` from `cho_factor`'s ``(c, lower)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> cho_solve(cho_factor(fnp.asarray([[4.0, 2.0], [2.0, 2.0]])), fnp.asarray([6.0, 4.0]))
        Array([1., 1.], dtype=float64)
    """
    c, lower = c_and_lower
    c = _float(c, "cho_solve")
    _square(c, "cho_solve")
    b, vec = _as_matrix_rhs(_float(b, "cho_solve"), c.shape[-1], "cho_solve")
    if lower:  # L L^T x = b
        x = _tri(c, _tri(c, b, lower=True), lower=True, transpose=True)
    else:  # U^T U x = b
        x = _tri(c, _tri(c, b, lower=False, transpose=True), lower=False)
    return x[:, 0] if vec else x


def solve_triangular(a: Shaped[ArrayLike, "*batch n n"], b: ArrayLike, trans: int | str = 0,
                     lower: bool = False, unit_diagonal: bool = False, overwrite_b: bool = False,
                     debug: Any = None, check_finite: bool = True) -> Array:
    """Solve ``op(a) x = b`` for triangular ``a`` (``trans``: 0/'N', 1/'T', 2/'C').

    Example::

        >>> import fgrad.numpy as fnp
        >>> solve_triangular(fnp.asarray([[2.0, 0.0], [1.0, 1.0]]), fnp.asarray([2.0, 3.0]), lower=True)
        Array([1., 2.], dtype=float64)
    """
    codes = {0: (False, False), "N": (False, False), 1: (True, False), "T": (True, False),
             2: (True, True), "C": (True, True)}
    if trans not in codes:
        raise ValueError(f"fgrad.scipy.linalg.solve_triangular: trans must be 0, 1, 2, 'N', 'T' or 'C', "
                         f"got {trans!r}")
    transpose, conj = codes[trans]
    a = _float(a, "solve_triangular")
    _square(a, "solve_triangular")
    if conj:
        a = fnp.conj(a)
    b, vec = _as_matrix_rhs(_float(b, "solve_triangular"), a.shape[-1], "solve_triangular")
    x = _tri(a, b, lower=bool(lower), transpose=transpose, unit=bool(unit_diagonal))
    return x[:, 0] if vec else x


def lu_factor(a: Shaped[ArrayLike, "*batch n n"], overwrite_a: bool = False,
              check_finite: bool = True) -> tuple[Inexact[Array, "*batch n n"], Integer[Array, "*batch n"]]:
    """``(lu, piv)``: the packed LU factors and the 0-based pivot rows (SciPy's format).

    Example::

        >>> import fgrad.numpy as fnp
        >>> lu_factor(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))[1]
        Array([1, 1], dtype=int32)
    """
    a = _float(a, "lu_factor")
    _square(a, "lu_factor")
    packed, piv, _ = _lu_prim(a)
    return packed, piv


def lu_solve(lu_and_piv: tuple[ArrayLike, ArrayLike], b: ArrayLike, trans: int = 0, overwrite_b: bool = False,
             check_finite: bool = True) -> Array:
    """Solve ``a x = b`` (``trans=1``/``2``: ``a^T x = b``) from `lu_factor`'s output.

    Example::

        >>> import fgrad.numpy as fnp
        >>> a = fnp.asarray([[1.0, 2.0], [3.0, 4.0]])
        >>> lu_solve(lu_factor(a), fnp.asarray([5.0, 11.0]))
        Array([1., 2.], dtype=float64)
    """
    packed, piv = lu_and_piv
    packed = _float(packed, "lu_solve")
    _square(packed, "lu_solve")
    n = packed.shape[-1]
    b, vec = _as_matrix_rhs(_float(b, "lu_solve"), n, "lu_solve")
    dt = np.result_type(packed.dtype, b.dtype)
    p = _perm_matrix(_pivots_to_perm(fnp.asarray(piv), n), dt, packed)
    if trans == 0:  # P a = L U:  x = U^-1 L^-1 P b
        x = _tri(packed, _tri(packed, fnp.matmul(p, b), lower=True, unit=True), lower=False)
    elif trans in (1, 2):  # a^T = U^T L^T P:  x = P^T L^-T U^-T b
        if trans == 2:
            packed = fnp.conj(packed)
        y = _tri(packed, _tri(packed, b, lower=False, transpose=True), lower=True, transpose=True, unit=True)
        x = fnp.matmul(_mT(p), y)
    else:
        raise ValueError(f"fgrad.scipy.linalg.lu_solve: trans must be 0, 1 or 2, got {trans!r}")
    return x[:, 0] if vec else x


def lu(a: ArrayLike, permute_l: bool = False, overwrite_a: bool = False,
       check_finite: bool = True) -> tuple[Array, Array] | tuple[Array, Array, Array]:
    """``(p, l, u)`` with ``a = p @ l @ u`` (``permute_l=True``: ``(p @ l, u)``); for
    ``(..., m, n)`` matrices ``p`` is ``m x m``, ``l`` is ``m x k`` and ``u`` is ``k x n``
    with ``k = min(m, n)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> p, l, u = lu(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))
        >>> p
        Array([[0., 1.],
               [1., 0.]], dtype=float64)
        >>> [x.shape for x in lu(fnp.ones((3, 2)))]
        [(3, 3), (3, 2), (2, 2)]
    """
    a = _float(a, "lu")
    if a.ndim < 2:
        raise TypeError(f"fgrad.scipy.linalg.lu: the input must have rank at least 2, got shape {a.shape}")
    packed, _, perm = _lu_prim(a)
    m, n = a.shape[-2:]
    k = min(m, n)
    lower = fnp.tril(packed[..., :, :k], -1) + fnp.eye(m, k, dtype=a.dtype)
    upper = fnp.triu(packed[..., :k, :])
    p = _mT(_perm_matrix(perm, a.dtype, packed))
    if permute_l:
        return fnp.matmul(p, lower), upper
    return p, lower, upper


def det(a: Shaped[ArrayLike, "*batch n n"], overwrite_a: bool = False,
        check_finite: bool = True) -> Inexact[Array, "*batch"]:
    """Determinant.

    Example::

        >>> import fgrad.numpy as fnp
        >>> det(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))
        Array(-2., dtype=float64)
    """
    return fnp.linalg.det(_float(a, "det"))


def inv(a: Shaped[ArrayLike, "*batch n n"], overwrite_a: bool = False,
        check_finite: bool = True) -> Inexact[Array, "*batch n n"]:
    """Matrix inverse.

    Example::

        >>> import fgrad.numpy as fnp
        >>> inv(fnp.asarray([[2.0, 0.0], [0.0, 4.0]]))
        Array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float64)
    """
    return fnp.linalg.inv(_float(a, "inv"))


def solve(a: ArrayLike, b: ArrayLike, lower: bool = False, overwrite_a: bool = False,
          overwrite_b: bool = False, check_finite: bool = True, assume_a: str = "gen") -> Array:
    """Solve ``a x = b`` (``assume_a="pos"``: through the Cholesky factor).

    Example::

        >>> import fgrad.numpy as fnp
        >>> solve(fnp.asarray([[2.0, 0.0], [0.0, 4.0]]), fnp.asarray([2.0, 4.0]))
        Array([1., 1.], dtype=float64)
    """
    if assume_a not in ("gen", "sym", "her", "pos"):
        raise ValueError(f"fgrad.scipy.linalg.solve: assume_a must be 'gen', 'sym', 'her' or 'pos', got "
                         f"{assume_a!r}")
    a, b = _float(a, "solve"), _float(b, "solve")
    _square(a, "solve")
    if assume_a == "pos":
        return cho_solve(cho_factor(a, lower=True), b)
    return fnp.linalg.solve(a, b)


QRResult = _namedtuple("QRResult", ["Q", "R"])
QRResult.__doc__ = """A ``(Q, R)`` pair of a QR decomposition, with named fields.

Example::

    >>> from fgrad.scipy import linalg
    >>> linalg.QRResult(Q=1.0, R=2.0).R
    2.0
"""


def qr(a: ArrayLike, overwrite_a: bool = False, lwork: int | None = None, mode: str = "full",
       pivoting: bool = False, check_finite: bool = True) -> tuple[Array] | tuple[Array, Array]:
    """QR decomposition; ``mode``: 'full', 'economic' or 'r' (returns ``(r,)``).
    ``pivoting=True``: column pivoting (LAPACK's geqp3, rank revealing), with the column
    permutation ``p`` (int32, ``a[:, p] = q @ r``) appended: ``(q, r, p)``, or ``(r, p)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> q, r = qr(fnp.eye(2))
        >>> abs(r)
        Array([[1., 0.],
               [0., 1.]], dtype=float64)
        >>> qr(fnp.asarray([[1.0, 3.0], [0.0, 4.0]]), pivoting=True)[2]
        Array([1, 0], dtype=int32)
    """
    modes = {"full": "complete", "economic": "reduced", "r": "r"}
    if mode not in modes:
        raise ValueError(f"fgrad.scipy.linalg.qr: mode must be 'full', 'economic' or 'r', got {mode!r}")
    a = _float(a, "qr")
    if pivoting:
        q, r, p = _lax_qr(a, pivoting=True, full_matrices=mode != "economic")
        return (r, p) if mode == "r" else (q, r, p)
    if mode == "r":
        return (fnp.linalg.qr(a, mode="complete")[1],)
    q, r = fnp.linalg.qr(a, mode=modes[mode])
    return q, r


def svd(a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd") -> Array | tuple[Array, Array, Array]:
    """Singular value decomposition ``a = u @ diag(s) @ vh``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> svd(fnp.asarray([[3.0, 0.0], [0.0, 4.0]]), compute_uv=False)
        Array([4., 3.], dtype=float64)
    """
    return fnp.linalg.svd(_float(a, "svd"), full_matrices=full_matrices, compute_uv=compute_uv)


def eigh(a: ArrayLike, b: ArrayLike | None = None, lower: bool = True, eigvals_only: bool = False,
         overwrite_a: bool = False, overwrite_b: bool = False, type: int = 1, check_finite: bool = True,
         subset_by_index: Sequence[int] | None = None, subset_by_value: Sequence[float] | None = None,
         driver: str | None = None) -> Array | tuple[Array, Array]:
    """Eigenvalues (ascending) and eigenvectors of a symmetric matrix; with ``b``, the
    generalized problem ``a v = w b v`` (through the Cholesky factor of ``b``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> eigh(fnp.asarray([[2.0, 0.0], [0.0, 1.0]]), eigvals_only=True)
        Array([1., 2.], dtype=float64)
    """
    if type != 1 or subset_by_index is not None or subset_by_value is not None or driver is not None:
        raise NotImplementedError("fgrad.scipy.linalg.eigh: only type=1 without subsets or drivers")
    a = _float(a, "eigh")
    _square(a, "eigh")
    uplo = "L" if lower else "U"
    if b is None:
        w, v = fnp.linalg.eigh(a, UPLO=uplo)
    else:
        ell = fnp.linalg.cholesky(_float(b, "eigh"))  # b = L L^T:  L^-1 a L^-T y = w y, v = L^-T y
        sym = fnp.tril(a) + _mT(fnp.tril(a, -1)) if lower else fnp.triu(a) + _mT(fnp.triu(a, 1))
        c = _mT(_tri(ell, _mT(_tri(ell, sym, lower=True)), lower=True))
        w, y = fnp.linalg.eigh(c)
        v = _tri(ell, y, lower=True, transpose=True)
    return w if eigvals_only else (w, v)


# Padé 13 coefficients and the norm bound below which it needs no scaling (Higham 2005)
_PADE13 = (64764752532480000.0, 32382376266240000.0, 7771770303897600.0, 1187353796428800.0,
           129060195264000.0, 10559470521600.0, 670442572800.0, 33522128640.0, 1323241920.0,
           40840800.0, 960960.0, 16380.0, 182.0, 1.0)
_THETA13 = 5.371920351148152


def expm(A: Shaped[ArrayLike, "*batch n n"], *, upper_triangular: bool = False,
         max_squarings: int = 16) -> Inexact[Array, "*batch n n"]:
    """The matrix exponential (Padé 13 with scaling and squaring, at most ``max_squarings``
    squarings: norms beyond ``5.37 * 2**max_squarings`` give inaccurate results, as JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> expm(fnp.zeros((2, 2)))
        Array([[1., 0.],
               [0., 1.]], dtype=float64)
    """
    a = _float(A, "expm")
    _square(a, "expm")
    n = a.shape[-1]
    norm1 = fnp.max(fnp.sum(fnp.abs(a), axis=-2), axis=-1)
    ratio = fnp.where(norm1 > 0, norm1, fnp.ones_like(norm1)) / _THETA13
    s = fnp.clip(fnp.ceil(fnp.log2(ratio)), 0, max_squarings)
    s = fnp.where(norm1 > 0, s, fnp.zeros_like(s))[..., None, None]
    a = a / fnp.exp2(s)
    b = _PADE13
    eye = fnp.eye(n, dtype=a.dtype)
    a2 = fnp.matmul(a, a)
    a4 = fnp.matmul(a2, a2)
    a6 = fnp.matmul(a4, a2)
    u = fnp.matmul(a, fnp.matmul(a6, b[13] * a6 + b[11] * a4 + b[9] * a2)
                   + b[7] * a6 + b[5] * a4 + b[3] * a2 + b[1] * eye)
    v = fnp.matmul(a6, b[12] * a6 + b[10] * a4 + b[8] * a2) + b[6] * a6 + b[4] * a4 + b[2] * a2 + b[0] * eye
    r = fnp.linalg.solve(v - u, v + u)
    for i in range(max_squarings):
        r = fnp.where(i < s, fnp.matmul(r, r), r)
    return r


def expm_frechet(A: Shaped[ArrayLike, "*batch n n"], E: Shaped[ArrayLike, "*batch n n"], *,
                 method: str | None = None, compute_expm: bool = True,
                 ) -> (Inexact[Array, "*batch n n"]
                       | tuple[Inexact[Array, "*batch n n"], Inexact[Array, "*batch n n"]]):
    """The Fréchet derivative of `expm` at ``A`` in direction ``E`` (and ``expm(A)``), from
    ``expm([[A, E], [0, A]])``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> expm_frechet(fnp.zeros((1, 1)), fnp.ones((1, 1)), compute_expm=False)
        Array([[1.]], dtype=float64)
    """
    a, e = _float(A, "expm_frechet"), _float(E, "expm_frechet")
    _square(a, "expm_frechet")
    if e.shape != a.shape:
        raise ValueError(f"fgrad.scipy.linalg.expm_frechet: A {a.shape} and E {e.shape} must have the same "
                         "shape")
    n = a.shape[-1]
    top = fnp.concatenate([a, e], axis=-1)
    bottom = fnp.concatenate([fnp.zeros_like(a), a], axis=-1)
    big = expm(fnp.concatenate([top, bottom], axis=-2))
    frechet = big[..., :n, n:]
    return (big[..., :n, :n], frechet) if compute_expm else frechet


def block_diag(*arrs: ArrayLike) -> Shaped[Array, "m n"]:
    """The block-diagonal matrix of the given 0-, 1- or 2-d arrays.

    Example::

        >>> import fgrad.numpy as fnp
        >>> block_diag(fnp.ones((1, 1)), 2.0 * fnp.ones((1, 2)))
        Array([[1., 0., 0.],
               [0., 2., 2.]], dtype=float64)
    """
    if not arrs:
        return fnp.zeros((1, 0))
    mats = []
    for x in arrs:
        x = fnp.asarray(x)
        if x.ndim > 2:
            raise ValueError(f"fgrad.scipy.linalg.block_diag: arguments must have at most 2 dimensions, "
                             f"got shape {x.shape}")
        mats.append(fnp.reshape(x, (1, -1)) if x.ndim < 2 else x)
    dt = np.result_type(*[m.dtype for m in mats])
    cols = sum(m.shape[1] for m in mats)
    rows, left = [], 0
    for m in mats:
        c = m.shape[1]
        rows.append(fnp.pad(m.astype(dt), ((0, 0), (left, cols - left - c))))
        left += c
    return fnp.concatenate(rows, axis=0)




def schur(a: ArrayLike, output: str = "real") -> tuple[Array, Array]:
    """``scipy.linalg.schur``: ``(T, Z)`` with ``a = Z T Z^H``, ``T`` upper (quasi-)triangular
    (``output="complex"``: triangular, complex).  LAPACK on the host; not differentiable (as in
    JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> t, z = schur(fnp.asarray([[1.0, 2.0], [0.0, 3.0]]))
        >>> bool(fnp.allclose(z @ t @ z.T, fnp.asarray([[1.0, 2.0], [0.0, 3.0]])))
        True
    """
    a = _float(a, "schur")
    _square(a, "schur")
    if output not in ("real", "complex", "r", "c"):
        raise ValueError(f"schur: output must be 'real' or 'complex', got {output!r}")
    t, z = _schur_ops.schur(a, output="complex" if output in ("complex", "c") else "real")
    return t, z


def sqrtm(A: ArrayLike, blocksize: int = 1) -> Array:
    """``scipy.linalg.sqrtm``: the principal square root ``X`` (``X @ X = A``), complex as in
    JAX.  Differentiable (unlike JAX's): ``dX`` solves the Sylvester equation
    ``X dX + dX X = dA``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> sqrtm(fnp.asarray([[4.0, 1.0], [0.0, 9.0]]))
        Array([[2. +0.j, 0.2+0.j],
               [0. +0.j, 3. +0.j]], dtype=complex128)
    """
    if blocksize < 1:
        raise ValueError("sqrtm: the block size should be at least 1")
    a = _float(A, "sqrtm")
    _square(a, "sqrtm")
    return _schur_ops.sqrtm(a)


def funm(A: ArrayLike, func: Callable, disp: bool = True) -> Array | tuple[Array, Array]:
    """``scipy.linalg.funm`` for diagonalizable ``A``: ``V func(w) V^-1`` from the general
    eigendecomposition (complex; differentiable where the eigenvalues are distinct).  JAX
    uses a Schur-Parlett recurrence; results agree for diagonalizable matrices.

    Example::

        >>> import fgrad.numpy as fnp
        >>> funm(fnp.asarray([[1.0, 0.0], [0.0, 2.0]]), fnp.exp).real
        Array([[2.71828183, 0.        ],
               [0.        , 7.3890561 ]], dtype=float64)
    """
    a = _float(A, "funm")
    _square(a, "funm")
    w, v = _eig(a, eigvec_derivs=True)
    fw = func(w)
    res = fnp.linalg.solve(_mT(v), _mT(v * fw[..., None, :]))
    res = _mT(res)
    if disp:
        return res
    return res, fnp.asarray(0.0)


# =======================================================================================
# Structured matrices (compositions: differentiable in their array arguments, batched over
# leading axes)


def _last_axis_pair(c, r, fn):
    """``c`` and ``r`` with their leading (batch) axes broadcast together."""
    lead = np.broadcast_shapes(c.shape[:-1], r.shape[:-1])
    dt = np.result_type(c.dtype, r.dtype)
    return (fnp.broadcast_to(c, lead + c.shape[-1:]).astype(dt),
            fnp.broadcast_to(r, lead + r.shape[-1:]).astype(dt))


def toeplitz(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Toeplitz matrix with first column ``c`` and first row ``r`` (``r[0]`` ignored;
    default ``conj(c)``); leading axes are batch axes (JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> toeplitz(fnp.asarray([1, 2, 3]), fnp.asarray([1, 4, 5]))
        Array([[1, 4, 5],
               [2, 1, 4],
               [3, 2, 1]], dtype=int64)
    """
    c = fnp.atleast_1d(fnp.asarray(c))
    r = fnp.conj(c) if r is None else fnp.atleast_1d(fnp.asarray(r))
    c, r = _last_axis_pair(c, r, "toeplitz")
    m, n = c.shape[-1], r.shape[-1]
    if m == 0 or n == 0:
        return fnp.zeros(c.shape[:-1] + (m, n), dtype=c.dtype)
    vals = fnp.concatenate([fnp.flip(c, -1), r[..., 1:]], axis=-1)  # vals[m-1+k] = diagonal k
    idx = (m - 1) - np.arange(m)[:, None] + np.arange(n)[None, :]
    return vals[..., idx]


def hankel(c: ArrayLike, r: ArrayLike | None = None) -> Array:
    """The Hankel matrix ``H[i, j] = v[i + j]``, ``v = concatenate([c, r[1:]])`` (``r``: the last
    row, default zeros); leading axes are batch axes (JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> hankel(fnp.asarray([1, 2, 3]))
        Array([[1, 2, 3],
               [2, 3, 0],
               [3, 0, 0]], dtype=int64)
    """
    c = fnp.atleast_1d(fnp.asarray(c))
    r = fnp.zeros_like(c) if r is None else fnp.atleast_1d(fnp.asarray(r))
    c, r = _last_axis_pair(c, r, "hankel")
    m, n = c.shape[-1], r.shape[-1]
    if m == 0 or n == 0:
        return fnp.zeros(c.shape[:-1] + (m, n), dtype=c.dtype)
    vals = fnp.concatenate([c, r[..., 1:]], axis=-1)
    return vals[..., np.arange(m)[:, None] + np.arange(n)[None, :]]


def circulant(c: Shaped[ArrayLike, "*batch n"]) -> Shaped[Array, "*batch n n"]:
    """The circulant matrix ``A[i, j] = c[(i - j) % n]``; leading axes are batch axes.

    Example::

        >>> import fgrad.numpy as fnp
        >>> circulant(fnp.asarray([1, 2, 3]))
        Array([[1, 3, 2],
               [2, 1, 3],
               [3, 2, 1]], dtype=int64)
    """
    c = fnp.atleast_1d(fnp.asarray(c))
    n = c.shape[-1]
    return c[..., (np.arange(n)[:, None] - np.arange(n)[None, :]) % n]


def leslie(f: ArrayLike, s: ArrayLike) -> Array:
    """The Leslie matrix: fecundities ``f`` (length ``n``) in the first row, survival
    rates ``s`` (length ``n - 1``) on the subdiagonal.

    Example::

        >>> import fgrad.numpy as fnp
        >>> leslie(fnp.asarray([0.5, 1.0]), fnp.asarray([0.25]))
        Array([[0.5 , 1.  ],
               [0.25, 0.  ]], dtype=float64)
    """
    f, s = fnp.atleast_1d(fnp.asarray(f)), fnp.atleast_1d(fnp.asarray(s))
    if f.shape[-1] < 2:
        raise ValueError(f"fgrad.scipy.linalg.leslie: the length of f along the last axis must be at least "
                         f"2; got shape {f.shape}")
    if s.shape[-1] != f.shape[-1] - 1:
        raise ValueError(f"fgrad.scipy.linalg.leslie: the length of s along the last axis must be one less "
                         f"than the length of f; got f shape {f.shape} and s shape {s.shape}")
    n = f.shape[-1]
    lead = np.broadcast_shapes(f.shape[:-1], s.shape[:-1])
    dt = np.result_type(f.dtype, s.dtype)
    f = fnp.broadcast_to(f, lead + (n,)).astype(dt)
    s = fnp.broadcast_to(s, lead + (n - 1,)).astype(dt)
    sub = fnp.pad(s, [(0, 0)] * len(lead) + [(0, 1)])        # s[j] sits at (j + 1, j)
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    zero = fnp.zeros((), dtype=dt)
    return fnp.where(i == 0, f[..., None, :], fnp.where(i == j + 1, sub[..., None, :], zero))


def _inexact(a):
    a = fnp.atleast_1d(fnp.asarray(a))
    return a if _dtype_kind(a.dtype) in "fc" else a.astype(np.float64)


def companion(a: ArrayLike) -> Array:
    """The companion matrix of the polynomial with coefficients ``a`` (highest first): first
    row ``-a[1:] / a[0]``, ones on the subdiagonal; its eigenvalues are the roots.

    Example::

        >>> import fgrad.numpy as fnp
        >>> companion(fnp.asarray([1.0, -3.0, 2.0]))
        Array([[ 3., -2.],
               [ 1.,  0.]], dtype=float64)
    """
    a = _inexact(a)
    if a.shape[-1] < 2:
        raise ValueError(f"fgrad.scipy.linalg.companion: the length of a along the last axis must be at "
                         f"least 2; got shape {a.shape}")
    m = a.shape[-1] - 1
    first = -a[..., 1:] / a[..., :1]
    i, j = np.arange(m)[:, None], np.arange(m)[None, :]
    one, zero = fnp.ones((), dtype=a.dtype), fnp.zeros((), dtype=a.dtype)
    return fnp.where(i == 0, first[..., None, :], fnp.where(i == j + 1, one, zero))


def fiedler(a: Shaped[ArrayLike, "*batch n"]) -> Shaped[Array, "*batch n n"]:
    """The symmetric Fiedler matrix ``F[i, j] = |a[i] - a[j]|``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fiedler(fnp.asarray([1, 4, 12]))
        Array([[ 0,  3, 11],
               [ 3,  0,  8],
               [11,  8,  0]], dtype=int64)
    """
    a = fnp.atleast_1d(fnp.asarray(a))
    return fnp.abs(a[..., :, None] - a[..., None, :])


def fiedler_companion(a: ArrayLike) -> Array:
    """The Fiedler companion matrix of the polynomial ``a`` (highest coefficient first): a
    pentadiagonal matrix whose eigenvalues are the roots.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fiedler_companion(fnp.asarray([1.0, -6.0, 11.0, -6.0]))
        Array([[  6., -11.,   1.],
               [  1.,   0.,   0.],
               [  0.,   6.,   0.]], dtype=float64)
    """
    a = _inexact(a)
    if a.shape[-1] == 0:
        raise ValueError(f"fgrad.scipy.linalg.fiedler_companion: the last axis of a must have nonzero "
                         f"length, got shape {a.shape}")
    n = a.shape[-1] - 1
    if n == 0:
        return fnp.zeros(a.shape[:-1] + (0, 0), dtype=a.dtype)
    a = a / a[..., :1]
    if n == 1:
        return -a[..., 1:, None]
    # the layout: -a[1] at (0, 0), 1 at (1, 0); for even i: -a[i+2] at (i, i+1), 1 at (i, i+2),
    # -a[i+1] at (i, i-1) (i >= 2); for odd i >= 3: 1 at (i, i-2)
    i, j = np.arange(n)[:, None], np.arange(n)[None, :]
    even, odd = i % 2 == 0, i % 2 == 1
    ones = ((i == 1) & (j == 0)) | ((j == i + 2) & even) | ((j == i - 2) & odd & (i >= 3))
    coef_index = np.where((i == 0) & (j == 0), 1, np.where((j == i + 1) & even, i + 2,
                          np.where((j == i - 1) & even & (i >= 2), i + 1, -1)))
    vals = -a[..., np.clip(coef_index, 0, n)]
    zero, one = fnp.zeros((), dtype=a.dtype), fnp.ones((), dtype=a.dtype)
    return fnp.where(coef_index >= 0, vals, fnp.where(ones, one, zero))


def convolution_matrix(a: ArrayLike, n: int, mode: str = "full") -> Array:
    """The Toeplitz matrix ``A`` with ``A @ v == fnp.convolve(a, v, mode)`` for ``v`` of length
    ``n``: ``m + n - 1`` rows for ``'full'``, ``max(m, n)`` for ``'same'`` and
    ``max(m, n) - min(m, n) + 1`` for ``'valid'``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> convolution_matrix(fnp.asarray([1.0, 2.0]), 3)
        Array([[1., 0., 0.],
               [2., 1., 0.],
               [0., 2., 1.],
               [0., 0., 2.]], dtype=float64)
    """
    if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or n <= 0:
        raise ValueError(f"fgrad.scipy.linalg.convolution_matrix: n must be a positive integer, got {n!r}")
    a = fnp.asarray(a)
    if a.ndim < 1 or a.shape[-1] == 0:
        raise ValueError(f"fgrad.scipy.linalg.convolution_matrix: len(a) must be at least 1; got shape "
                         f"{a.shape}")
    if mode not in ("full", "valid", "same"):
        raise ValueError(f"fgrad.scipy.linalg.convolution_matrix: mode must be one of 'full', 'valid', "
                         f"'same'; got {mode!r}")
    m = a.shape[-1]
    total = m + n - 1
    if mode == "same":
        trim = min(n, m) - 1
        top, bottom = trim // 2, trim - trim // 2
    elif mode == "valid":
        top = bottom = min(n, m) - 1
    else:
        top = bottom = 0
    k = np.arange(top, total - bottom)[:, None] - np.arange(n)[None, :]   # A[i, j] = a[k]
    padded = fnp.pad(a, [(0, 0)] * (a.ndim - 1) + [(0, 1)])               # a[m] = 0
    return padded[..., np.where((k >= 0) & (k < m), k, m)]


def hilbert(n: int) -> Float[Array, "n n"]:
    """The Hilbert matrix ``H[i, j] = 1 / (i + j + 1)``.

    Example::

        >>> hilbert(2)
        Array([[1.        , 0.5       ],
               [0.5       , 0.33333333]], dtype=float64)
    """
    i = np.arange(n, dtype=np.float64)
    return fnp.asarray(1.0 / (i[:, None] + i[None, :] + 1.0))


def invhilbert(n: int) -> Float[Array, "n n"]:
    """The inverse of the Hilbert matrix of order ``n`` (float64, from exact integer binomial
    coefficients: exact while the entries fit in a double).

    Example::

        >>> invhilbert(2)
        Array([[ 4., -6.],
               [-6., 12.]], dtype=float64)
    """
    out = np.empty((n, n), dtype=np.float64)
    for i in range(n):
        for j in range(n):
            s = i + j
            out[i, j] = float((-1) ** s * (s + 1) * math.comb(n + i, n - j - 1) * math.comb(n + j, n - i - 1)
                              * math.comb(s, i) ** 2)
    return fnp.asarray(out)


def _pascal_kind(kind, fn):
    kind = "symmetric" if kind is None else kind
    if kind not in ("symmetric", "lower", "upper"):
        raise ValueError(f"fgrad.scipy.linalg.{fn}: kind must be one of 'symmetric', 'lower', 'upper'; got "
                         f"{kind!r}")
    return kind


def pascal(n: int, kind: str | None = None) -> Shaped[Array, "n n"]:
    """The Pascal matrix (``kind``: 'symmetric' (default), 'lower' or 'upper'), float64 with
    exact binomial coefficients (JAX's is float32 and approximate).

    Example::

        >>> pascal(3)
        Array([[1., 1., 1.],
               [1., 2., 3.],
               [1., 3., 6.]], dtype=float64)
    """
    kind = _pascal_kind(kind, "pascal")
    if kind == "symmetric":
        out = [[float(math.comb(i + j, i)) for j in range(n)] for i in range(n)]
    else:
        out = [[float(math.comb(i, j)) for j in range(n)] for i in range(n)]
    out = np.asarray(out, dtype=np.float64).reshape(n, n)
    return fnp.asarray(out.T if kind == "upper" else out)


def invpascal(n: int, kind: str | None = None) -> Shaped[Array, "n n"]:
    """The inverse of `pascal` (float64, exact binomial coefficients).

    Example::

        >>> invpascal(3, kind="lower")  # -0. above the diagonal where i - j is odd, as JAX's
        Array([[ 1., -0.,  0.],
               [-1.,  1., -0.],
               [ 1., -2.,  1.]], dtype=float64)
    """
    kind = _pascal_kind(kind, "invpascal")
    # (-1)^(i-j) binom(i, j) in floats, as JAX: the zeros above the diagonal are -0. where
    # i - j is odd
    low = np.asarray([[(-1.0 if (i - j) % 2 else 1.0) * math.comb(i, j) if j <= i else
                       (-0.0 if (i - j) % 2 else 0.0) for j in range(n)] for i in range(n)],
                     dtype=np.float64).reshape(n, n)
    if kind == "lower":
        return fnp.asarray(low)
    if kind == "upper":
        return fnp.asarray(low.T)
    exact = [[sum((-1) ** (i + j) * math.comb(k, i) * math.comb(k, j) for k in range(n)) for j in range(n)]
             for i in range(n)]   # (L^-1)^T L^-1 in integers
    return fnp.asarray(np.asarray(exact, dtype=np.float64).reshape(n, n))


def helmert(n: int, full: bool = False) -> Array:
    """The Helmert matrix: rows ``(1, ..., 1, -k, 0, ...) / sqrt(k (k + 1))``, ``k = 1 .. n-1``
    (``full=True`` prepends the row ``1 / sqrt(n)``).

    Example::

        >>> helmert(2, full=True)
        Array([[ 0.70710678,  0.70710678],
               [ 0.70710678, -0.70710678]], dtype=float64)
    """
    if n < 1:
        raise ValueError(f"fgrad.scipy.linalg.helmert: n must be a positive integer; got {n}")
    k = np.arange(1, n, dtype=np.float64)[:, None]
    j = np.arange(n)[None, :]
    denom = np.sqrt(k * (k + 1))
    h = np.where(j < k, 1.0 / denom, np.where(j == k, -k / denom, 0.0))
    if full:
        h = np.concatenate([np.full((1, n), 1.0 / np.sqrt(n)), h], axis=0)
    return fnp.asarray(h)


def hadamard(n: int, dtype: DTypeLike = int) -> Shaped[Array, "n n"]:
    """The Hadamard matrix of order ``n`` (a power of 2; Sylvester's construction).

    Example::

        >>> hadamard(2)
        Array([[ 1,  1],
               [ 1, -1]], dtype=int64)
    """
    if n < 1 or not math.log2(n).is_integer():
        raise ValueError(f"fgrad.scipy.linalg.hadamard: n must be a positive power of 2; got {n}")
    h = np.ones((1, 1), dtype=np.int64)
    for _ in range(int(math.log2(n))):
        h = np.block([[h, h], [h, -h]])
    return fnp.asarray(h).astype(np.int64 if dtype is int else dtype)


def dft(n: int, scale: str | None = None, *, dtype: DTypeLike | None = None) -> Shaped[Array, "n n"]:
    """The discrete Fourier transform matrix ``W[i, j] = exp(-2 pi i j / n)`` (``scale``:
    None, ``'sqrtn'`` (unitary) or ``'n'``).

    Example::

        >>> dft(2).real
        Array([[ 1.,  1.],
               [ 1., -1.]], dtype=float64)
    """
    if scale is not None and scale not in ("sqrtn", "n"):
        raise ValueError(f"fgrad.scipy.linalg.dft: scale must be None, 'sqrtn', or 'n'; got {scale!r}")
    dtype = np.dtype(np.complex128 if dtype is None else dtype)
    if dtype.kind != "c":
        raise ValueError(f"fgrad.scipy.linalg.dft: dtype must be a complex floating-point type; got {dtype}")
    # JAX's formula in the result's dtype (its rounding: dft(4)[1, 1] is -4.4e-8 - 1j in
    # complex64, printed -0.-1.j)
    k = np.arange(n, dtype=_canonical_dtype(dtype))
    w = np.exp(-2j * np.pi * k[:, None] * k[None, :] / max(n, 1))
    if scale == "sqrtn":
        w = w / np.sqrt(n)
    elif scale == "n":
        w = w / n
    return fnp.asarray(w.astype(dtype))


# =======================================================================================
# Decompositions and equations


def polar(a: ArrayLike, side: str = "right", *, method: str = "qdwh", eps: float | None = None,
          max_iterations: int | None = None) -> tuple[Array, Array]:
    """The polar decomposition ``a = u @ p`` (``side='right'``) or ``a = p @ u`` (``'left'``):
    ``u`` with orthonormal columns (rows), ``p`` Hermitian positive semi-definite.  Computed
    from the SVD for both methods ('qdwh', JAX's iteration, and 'svd' give the same factors);
    differentiable where the singular values are distinct.

    Example::

        >>> import fgrad.numpy as fnp
        >>> u, p = polar(fnp.asarray([[2.0, 0.0], [0.0, -3.0]]))
        >>> u
        Array([[ 1.,  0.],
               [ 0., -1.]], dtype=float64)
    """
    if side not in ("right", "left"):
        raise ValueError(f"fgrad.scipy.linalg.polar: side must be 'right' or 'left', got {side!r}")
    if method not in ("qdwh", "svd"):
        raise ValueError(f"fgrad.scipy.linalg.polar: unknown polar decomposition method {method!r}")
    a = _float(a, "polar")
    if a.ndim != 2:
        raise ValueError(f"fgrad.scipy.linalg.polar: a must be a 2-d matrix, got shape {a.shape}")
    m, n = a.shape
    if method == "qdwh" and ((side == "right" and m < n) or (side == "left" and m >= n)):
        # JAX's QDWH runs on a (side='right') or on a^H (side='left', so m < n: a square
        # matrix included) and refuses the other shapes
        raise NotImplementedError(f"fgrad.scipy.linalg.polar: method='qdwh' needs m >= n for side='right' "
                                  f"and m < n for side='left' (JAX), got shape {a.shape}; use method='svd'")
    u_svd, s, vh = fnp.linalg.svd(a, full_matrices=False)
    s = s.astype(a.dtype)
    unitary = fnp.matmul(u_svd, vh)
    if side == "right":
        posdef = fnp.matmul(fnp.conj(_mT(vh)) * s[None, :], vh)
    else:
        posdef = fnp.matmul(u_svd * s[None, :], fnp.conj(_mT(u_svd)))
    return unitary, posdef


def qr_multiply(a: ArrayLike, c: ArrayLike, mode: str = "right", pivoting: bool = False,
                conjugate: bool = False, overwrite_a: bool = False,
                overwrite_c: bool = False) -> tuple[Array, Array]:
    """``(Q @ c, R)`` (``mode='left'``) or ``(c @ Q, R)`` (``'right'``) with ``Q``, ``R`` the
    economic QR factors of ``a`` (``conjugate=True``: ``conj(Q)``); a 1-d ``c`` is a column
    (left) or a row (right).

    Example::

        >>> import fgrad.numpy as fnp
        >>> a = fnp.asarray([[1.0, 1.0], [1.0, 2.0], [1.0, 3.0]])
        >>> qtb, r = qr_multiply(a, fnp.asarray([1.0, 2.0, 2.0]))
        >>> solve_triangular(r, qtb)
        Array([0.66666667, 0.5       ], dtype=float64)
    """
    if mode not in ("right", "left"):
        raise ValueError(f"fgrad.scipy.linalg.qr_multiply: mode must be 'right' or 'left', got {mode!r}")
    a, c = _float(a, "qr_multiply"), _float(c, "qr_multiply")
    dt = np.result_type(a.dtype, c.dtype)
    a, c = a.astype(dt), c.astype(dt)
    onedim = c.ndim == 1
    if onedim:
        c = c[:, None] if mode == "left" else c[None, :]
    m, n = a.shape[-2:]
    k = min(m, n)
    if mode == "left" and c.shape[-2] != k:
        raise ValueError(f"fgrad.scipy.linalg.qr_multiply: a has shape {tuple(a.shape)} so Q has {k} "
                         f"columns, but c has {c.shape[-2]} rows (expected {k})")
    if mode == "right" and c.shape[-1] != m:
        raise ValueError(f"fgrad.scipy.linalg.qr_multiply: a has shape {tuple(a.shape)} so Q has {m} rows, "
                         f"but c has {c.shape[-1]} columns (expected {m})")
    q, r, *p = _lax_qr(a, pivoting=pivoting, full_matrices=False)
    if conjugate:
        q = fnp.conj(q)
    out = fnp.matmul(q, c) if mode == "left" else fnp.matmul(c, q)
    if onedim:
        out = fnp.ravel(out)
    return (out, r, p[0]) if pivoting else (out, r)


def rsf2csf(T: ArrayLike, Z: ArrayLike, check_finite: bool = True) -> tuple[Array, Array]:
    """Convert a real Schur form ``(T, Z)`` (``a = Z T Z^T``, ``T`` quasi-triangular) to the
    complex one: ``T`` upper triangular, ``Z`` unitary (SciPy's Givens rotations, bottom
    to top).  Differentiable away from the tests that decide where a 2x2 block sits.

    Example::

        >>> import fgrad.numpy as fnp
        >>> t, z = rsf2csf(fnp.asarray([[0.0, 1.0], [-1.0, 0.0]]), fnp.eye(2))
        >>> fnp.round(fnp.diagonal(t), 12)
        Array([0.+1.j, 0.-1.j], dtype=complex128)
    """
    t, z = _float(T, "rsf2csf"), _float(Z, "rsf2csf")
    _square(t, "rsf2csf")
    _square(z, "rsf2csf")
    if t.shape != z.shape:
        raise ValueError(f"fgrad.scipy.linalg.rsf2csf: T {t.shape} and Z {z.shape} must have the same shape")
    cdt = np.result_type(t.dtype, z.dtype, np.complex64)
    t, z = t.astype(cdt), z.astype(cdt)
    n = t.shape[-1]
    eps = float(np.finfo(cdt).eps)
    rows = np.arange(n)
    for m in range(n - 1, 0, -1):
        sub = t[..., m, m - 1]
        a00, a01, a11 = t[..., m - 1, m - 1], t[..., m - 1, m], t[..., m, m]
        split = fnp.abs(sub) > eps * (fnp.abs(a00) + fnp.abs(a11))
        # where the block is not split its rotation is discarded: compute it at a safe point so
        # that no NaN reaches the derivatives through `where`
        sub = fnp.where(split, sub, 1.0)
        # mu = the first eigenvalue of the 2x2 block (LAPACK's order: + imaginary part first) - T[m, m]
        half = 0.5 * (a00 - a11)
        root = fnp.sqrt(half * half + a01 * sub)
        root = fnp.where(fnp.imag(root) < 0, -root, root)
        mu = half + root
        radius = fnp.sqrt(fnp.real(mu * fnp.conj(mu)) + fnp.real(sub * fnp.conj(sub))).astype(cdt)
        cs, sn = mu / radius, sub / radius
        # G = [[conj(c), s], [-s, c]] acts on rows (m-1, m) from column m-1 on, and G^H on columns
        # (m-1, m) of rows <= m and of Z
        r0, r1 = t[..., m - 1, :], t[..., m, :]
        right = (rows >= m - 1)
        new0 = fnp.where(right, fnp.conj(cs)[..., None] * r0 + sn[..., None] * r1, r0)
        new1 = fnp.where(right, -sn[..., None] * r0 + cs[..., None] * r1, r1)
        rotated = t.at[..., m - 1, :].set(new0).at[..., m, :].set(new1)
        c0, c1 = rotated[..., :, m - 1], rotated[..., :, m]
        upper = rows <= m
        col0 = fnp.where(upper, c0 * cs[..., None] + c1 * fnp.conj(sn)[..., None], c0)
        col1 = fnp.where(upper, -c0 * sn[..., None] + c1 * fnp.conj(cs)[..., None], c1)
        rotated = rotated.at[..., :, m - 1].set(col0).at[..., :, m].set(col1)
        z0, z1 = z[..., :, m - 1], z[..., :, m]
        zrot = z.at[..., :, m - 1].set(z0 * cs[..., None] + z1 * fnp.conj(sn)[..., None])
        zrot = zrot.at[..., :, m].set(-z0 * sn[..., None] + z1 * fnp.conj(cs)[..., None])
        t = fnp.where(split[..., None, None], rotated, t)
        z = fnp.where(split[..., None, None], zrot, z)
        t = t.at[..., m, m - 1].set(0.0)
    return t, z


def hessenberg(a: ArrayLike, *, calc_q: bool = False, overwrite_a: bool = False,
               check_finite: bool = True) -> Array | tuple[Array, Array]:
    """The Hessenberg form ``h = q^H a q`` (zero below the first subdiagonal; ``calc_q=True``
    also returns the unitary ``q``), by Householder reflections in LAPACK's ``gehrd``
    convention (so the numbers match SciPy's).  A composition of fgrad ops: differentiable.

    Example::

        >>> import fgrad.numpy as fnp
        >>> h = hessenberg(fnp.asarray([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]))
        >>> bool(fnp.all(h[2, 0] == 0))
        True
    """
    a = _float(a, "hessenberg")
    _square(a, "hessenberg")
    n = a.shape[-1]
    q = fnp.broadcast_to(fnp.eye(n, dtype=a.dtype), a.shape)
    h = a
    idx = np.arange(n)
    complex_input = _dtype_kind(a.dtype) == "c"
    # n - 1 reflections for complex input: the last one makes the last subdiagonal entry real
    # (matrices of order <= 2 are returned as they are, as SciPy does)
    for k in range(0 if n <= 2 else n - 1 if complex_input else n - 2):
        below = (idx > k + 1)                           # the entries the reflection zeroes
        x = h[..., :, k]
        alpha = x[..., k + 1]
        tail = fnp.where(below, x, 0.0)
        tail2 = fnp.sum(fnp.abs(tail) ** 2, axis=-1)
        skip = tail2 == 0
        if complex_input:
            skip = skip & (fnp.imag(alpha) == 0)
        safe_tail2 = fnp.where(skip, 1.0, tail2)
        re = fnp.real(alpha)
        sign = fnp.where(re >= 0, 1.0, -1.0)
        beta = -sign * fnp.sqrt(fnp.abs(alpha) ** 2 + safe_tail2)             # LAPACK's larfg
        tau = fnp.where(skip, 0.0, (beta - alpha) / beta)
        scale = fnp.where(skip, 0.0, 1.0 / (alpha - beta))
        v = fnp.where(below, x * scale[..., None], 0.0)
        v = fnp.where(idx == k + 1, fnp.ones_like(v), v)
        v = fnp.where(skip[..., None], 0.0, v)
        # h <- H^H h H with H = I - tau v v^H
        vh_h = fnp.sum(fnp.conj(v)[..., :, None] * h, axis=-2)
        h = h - (fnp.conj(tau)[..., None, None] * v[..., :, None]) * vh_h[..., None, :]
        h_v = fnp.sum(h * v[..., None, :], axis=-1)
        h = h - (tau[..., None, None] * h_v[..., :, None]) * fnp.conj(v)[..., None, :]
        q_v = fnp.sum(q * v[..., None, :], axis=-1)
        q = q - (tau[..., None, None] * q_v[..., :, None]) * fnp.conj(v)[..., None, :]
    h = fnp.where(idx[:, None] > idx[None, :] + 1, 0.0, h).astype(a.dtype)
    return (h, q) if calc_q else h


def eigh_tridiagonal(d: ArrayLike, e: ArrayLike, *, eigvals_only: bool = False, select: str = "a",
                     select_range: tuple[float, float] | None = None, tol: float | None = None,
                     key: Any = None) -> Array | tuple[Array, Array]:
    """Eigenvalues (ascending; and eigenvectors) of the real symmetric tridiagonal matrix with
    diagonal ``d`` and off-diagonal ``e``.  ``select``: 'a' (all), 'i' (indices
    ``select_range[0] <= i <= select_range[1]``) or 'v' (values in ``(lo, hi]``; needs
    concrete input, as its size depends on the values).  Differentiable (through `eigh` of
    the dense matrix); ``tol`` and ``key`` are accepted for JAX compatibility.

    Example::

        >>> import fgrad.numpy as fnp
        >>> eigh_tridiagonal(fnp.asarray([2.0, 2.0]), fnp.asarray([1.0]), eigvals_only=True)
        Array([1., 3.], dtype=float64)
    """
    d, e = fnp.asarray(d), fnp.asarray(e)
    if d.ndim != 1 or e.ndim != 1 or e.shape[0] != max(d.shape[0] - 1, 0):
        raise ValueError(f"fgrad.scipy.linalg.eigh_tridiagonal: d must have shape (n,) and e shape (n - 1,), "
                         f"got {d.shape} and {e.shape}")
    if d.dtype != e.dtype:
        raise TypeError(f"fgrad.scipy.linalg.eigh_tridiagonal: diagonal and off-diagonal values must have "
                        f"the same dtype, got {d.dtype} and {e.dtype}")
    if _dtype_kind(d.dtype) != "f":
        raise TypeError(f"fgrad.scipy.linalg.eigh_tridiagonal: only real floating-point inputs are "
                        f"supported, got {d.dtype}")
    if select not in ("a", "i", "v"):
        raise ValueError(f"fgrad.scipy.linalg.eigh_tridiagonal: select must be one of 'a', 'i', 'v', got "
                         f"{select!r}")
    n = d.shape[0]
    if select != "a" and select_range is None:
        raise ValueError(f"fgrad.scipy.linalg.eigh_tridiagonal: for select={select!r}, select_range must be "
                         "specified")
    mat = fnp.diag(d)
    if n > 1:
        mat = mat + fnp.diag(e, 1) + fnp.diag(e, -1)
    if eigvals_only:
        w, v = fnp.linalg.eigvalsh(mat), None
    else:
        w, v = fnp.linalg.eigh(mat)
    if select == "i":
        lo, hi = int(select_range[0]), int(select_range[1])
        if not 0 <= lo <= hi < n:
            raise ValueError(f"fgrad.scipy.linalg.eigh_tridiagonal: got an empty or out-of-bounds index "
                             f"range in select_range {select_range} for n = {n}")
        w = w[lo:hi + 1]
        v = None if v is None else v[:, lo:hi + 1]
    elif select == "v":
        lo, hi = select_range
        try:
            keep = np.flatnonzero((np.asarray(w) > lo) & (np.asarray(w) <= hi))
        except Exception as err:  # a tracer: the result's size would depend on the values
            raise NotImplementedError("fgrad.scipy.linalg.eigh_tridiagonal: select='v' needs concrete values "
                                      "(the number of eigenvalues in the range decides the shape); use "
                                      "select='i' under jit") from err
        w = w[keep]
        v = None if v is None else v[:, keep]
    return w if eigvals_only else (w, v)


def _bartels_stewart(a, b, c):
    """``X`` with ``a X + X b = c`` from the complex Schur forms ``a = U R U^H``,
    ``b = V S V^H``: ``R Y + Y S = U^H c V`` is solved column by column (``S`` upper
    triangular), then ``X = U Y V^H``."""
    r, u = _schur_ops.schur(a, output="complex")
    s, v = _schur_ops.schur(b, output="complex")
    f = fnp.matmul(fnp.matmul(fnp.conj(_mT(u)), c.astype(r.dtype)), v)
    n = s.shape[-1]
    m = r.shape[-1]
    eye = fnp.eye(m, dtype=r.dtype)
    cols = []
    for j in range(n):
        rhs = f[..., :, j]
        if j:
            rhs = rhs - fnp.sum(fnp.stack(cols, axis=-1) * s[..., None, :j, j], axis=-1)
        shifted = r + s[..., j, j][..., None, None] * eye
        cols.append(_tri(shifted, rhs[..., :, None], lower=False)[..., :, 0])
    y = fnp.stack(cols, axis=-1)
    x = fnp.matmul(fnp.matmul(u, y), fnp.conj(_mT(v)))
    return x if _dtype_kind(c.dtype) == "c" else fnp.real(x).astype(c.dtype)


def solve_sylvester(A: ArrayLike, B: ArrayLike, C: ArrayLike, *, method: str = "schur",
                    tol: float = 1e-8) -> Array:
    """``X`` with ``A X + X B = C`` (Bartels-Stewart: complex Schur forms of ``A`` and ``B``,
    then triangular solves).  Differentiable in ``A``, ``B`` and ``C``, to any order: the
    solve is a `fgrad.lax.custom_linear_solve`, so ``dX`` solves the Sylvester equation
    ``A dX + dX B = dC - dA X - X dB``.  NaN when some ``eig(A)_i + eig(B)_j`` is below
    ``tol`` in magnitude (JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> solve_sylvester(fnp.asarray([[2.0]]), fnp.asarray([[3.0]]), fnp.asarray([[10.0]]))
        Array([[2.]], dtype=float64)
    """
    if method not in ("schur", "eigen"):
        raise ValueError(f"fgrad.scipy.linalg.solve_sylvester: unrecognized method {method!r}; the two valid "
                         "methods are 'schur' and 'eigen'")
    a, b, c = _float(A, "solve_sylvester"), _float(B, "solve_sylvester"), _float(C, "solve_sylvester")
    for name, x in (("A", a), ("B", b)):
        if x.ndim != 2 or x.shape[0] != x.shape[1]:
            raise ValueError(f"fgrad.scipy.linalg.solve_sylvester: {name} must be a square matrix, got shape "
                             f"{x.shape}")
    if c.shape != (a.shape[0], b.shape[0]):
        raise ValueError(f"fgrad.scipy.linalg.solve_sylvester: C must have shape {(a.shape[0], b.shape[0])} "
                         f"for A {a.shape} and B {b.shape}, got {c.shape}")
    dt = np.result_type(a.dtype, b.dtype, c.dtype)
    a, b, c = a.astype(dt), b.astype(dt), c.astype(dt)

    def matvec(x):
        return fnp.matmul(a, x) + fnp.matmul(x, b)

    def solve(_, rhs):
        return _bartels_stewart(_stop_gradient(a), _stop_gradient(b), rhs)

    def transpose_solve(_, rhs):   # the transpose of X -> A X + X B is Y -> A^T Y + Y B^T
        return _bartels_stewart(_stop_gradient(_mT(a)), _stop_gradient(_mT(b)), rhs)

    x = _custom_linear_solve(matvec, c, solve, transpose_solve)
    ea = fnp.linalg.eigvals(_stop_gradient(a))
    eb = fnp.linalg.eigvals(_stop_gradient(b))
    singular = fnp.any(fnp.abs(ea[:, None] + eb[None, :]) < tol)
    return fnp.where(singular, fnp.nan, x)


__all__ = ["cholesky", "cho_factor", "cho_solve", "solve_triangular", "lu", "lu_factor", "lu_solve",
           "det", "inv", "solve", "qr", "svd", "eigh", "expm", "expm_frechet", "block_diag", "QRResult",
           "schur", "sqrtm", "funm",
           "circulant", "companion", "convolution_matrix", "dft", "eigh_tridiagonal", "fiedler",
           "fiedler_companion", "hadamard", "hankel", "helmert", "hessenberg", "hilbert", "invhilbert",
           "invpascal", "leslie", "pascal", "polar", "qr_multiply", "rsf2csf", "solve_sylvester", "toeplitz"]
