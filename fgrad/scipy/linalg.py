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
    Array(1., dtype=float64)
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from .. import numpy as fnp
from ..ops.linalg import triangular_solve as _tri_solve
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


def cholesky(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """Cholesky factor: upper ``U`` with ``a = U^T U`` by default, lower with ``lower=True``
    (SciPy's default is upper, unlike NumPy's).

    Example::

        >>> import fgrad.numpy as fnp
        >>> cholesky(fnp.asarray([[4.0, 2.0], [2.0, 2.0]]))
        Array([[2., 1.],
               [0., 1.]], dtype=float64)
    """
    a = _float(a, "cholesky")
    _square(a, "cholesky")
    ell = fnp.linalg.cholesky(a)
    return ell if lower else _mT(ell)


def cho_factor(a, lower: bool = False, overwrite_a: bool = False, check_finite: bool = True):
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


def cho_solve(c_and_lower, b, overwrite_b: bool = False, check_finite: bool = True):
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


def solve_triangular(a, b, trans=0, lower: bool = False, unit_diagonal: bool = False,
                     overwrite_b: bool = False, debug=None, check_finite: bool = True):
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


def lu_factor(a, overwrite_a: bool = False, check_finite: bool = True):
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


def lu_solve(lu_and_piv, b, trans: int = 0, overwrite_b: bool = False, check_finite: bool = True):
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


def lu(a, permute_l: bool = False, overwrite_a: bool = False, check_finite: bool = True):
    """``(p, l, u)`` with ``a = p @ l @ u`` (``permute_l=True``: ``(p @ l, u)``); square
    matrices.

    Example::

        >>> import fgrad.numpy as fnp
        >>> p, l, u = lu(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))
        >>> p
        Array([[0., 1.],
               [1., 0.]], dtype=float64)
    """
    a = _float(a, "lu")
    if a.ndim >= 2 and a.shape[-1] != a.shape[-2]:
        raise NotImplementedError(f"fgrad.scipy.linalg.lu: only square matrices are supported, got shape "
                                  f"{a.shape}; factor a square block or use qr")
    _square(a, "lu")
    packed, _, perm = _lu_prim(a)
    n = a.shape[-1]
    eye = fnp.eye(n, dtype=a.dtype)
    lower = fnp.tril(packed, -1) + eye
    upper = fnp.triu(packed)
    p = _mT(_perm_matrix(perm, a.dtype, packed))
    if permute_l:
        return fnp.matmul(p, lower), upper
    return p, lower, upper


def det(a, overwrite_a: bool = False, check_finite: bool = True):
    """Determinant.

    Example::

        >>> import fgrad.numpy as fnp
        >>> det(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]))
        Array(-2., dtype=float64)
    """
    return fnp.linalg.det(_float(a, "det"))


def inv(a, overwrite_a: bool = False, check_finite: bool = True):
    """Matrix inverse.

    Example::

        >>> import fgrad.numpy as fnp
        >>> inv(fnp.asarray([[2.0, 0.0], [0.0, 4.0]]))
        Array([[0.5 , 0.  ],
               [0.  , 0.25]], dtype=float64)
    """
    return fnp.linalg.inv(_float(a, "inv"))


def solve(a, b, lower: bool = False, overwrite_a: bool = False, overwrite_b: bool = False,
          check_finite: bool = True, assume_a: str = "gen"):
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


QRResult = namedtuple("QRResult", ["Q", "R"])


def qr(a, overwrite_a: bool = False, lwork=None, mode: str = "full", pivoting: bool = False,
       check_finite: bool = True):
    """QR decomposition; ``mode``: 'full', 'economic' or 'r' (returns ``(r,)``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> q, r = qr(fnp.eye(2))
        >>> abs(r)
        Array([[1., 0.],
               [0., 1.]], dtype=float64)
    """
    if pivoting:
        raise NotImplementedError("fgrad.scipy.linalg.qr: pivoting=True is not supported")
    modes = {"full": "complete", "economic": "reduced", "r": "r"}
    if mode not in modes:
        raise ValueError(f"fgrad.scipy.linalg.qr: mode must be 'full', 'economic' or 'r', got {mode!r}")
    a = _float(a, "qr")
    if mode == "r":
        return (fnp.linalg.qr(a, mode="complete")[1],)
    q, r = fnp.linalg.qr(a, mode=modes[mode])
    return q, r


def svd(a, full_matrices: bool = True, compute_uv: bool = True, overwrite_a: bool = False,
        check_finite: bool = True, lapack_driver: str = "gesdd"):
    """Singular value decomposition ``a = u @ diag(s) @ vh``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> svd(fnp.asarray([[3.0, 0.0], [0.0, 4.0]]), compute_uv=False)
        Array([4., 3.], dtype=float64)
    """
    return fnp.linalg.svd(_float(a, "svd"), full_matrices=full_matrices, compute_uv=compute_uv)


def eigh(a, b=None, lower: bool = True, eigvals_only: bool = False, overwrite_a: bool = False,
         overwrite_b: bool = False, type: int = 1, check_finite: bool = True, subset_by_index=None,
         subset_by_value=None, driver=None):
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


def expm(A, *, upper_triangular: bool = False, max_squarings: int = 16):
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


def expm_frechet(A, E, *, method=None, compute_expm: bool = True):
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


def block_diag(*arrs):
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




def schur(a, output: str = "real"):
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


def sqrtm(A, blocksize: int = 1):
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


def funm(A, func, disp: bool = True):
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


__all__ = ["cholesky", "cho_factor", "cho_solve", "solve_triangular", "lu", "lu_factor", "lu_solve",
           "det", "inv", "solve", "qr", "svd", "eigh", "expm", "expm_frechet", "block_diag", "QRResult",
           "schur", "sqrtm", "funm"]
