"""SciPy's LAPACK for factorizations of host matrices.

NumPy's ``linalg`` and SciPy's ``linalg`` both call LAPACK, but on single-precision matrices
NumPy's path is 2-3x slower than calling LAPACK through SciPy (measured on one core, AMD
EPYC, NumPy 2.4 / SciPy 1.16: float32 Cholesky of 512 x 512 5.8 ms vs 1.9 ms, ``solve``
4.7 vs 1.8 ms, ``eigh``/``svd``/``qr`` about 2x); in double precision SciPy's Cholesky and
``solve`` are 1.2-2x faster below ~128 and equal above, the others equal.  JAX's CPU kernels
call SciPy's LAPACK too, so these are JAX's routines (``potrf``, ``gesv``, ``syevd``/
``heevd``, ``gesdd``, ``geqrf``/``orgqr``).

Each function here returns None where the NumPy path is as good or this one does not apply
(a GPU or fake-device buffer, a dtype LAPACK has no routine for, a small matrix, SciPy
missing), and the primitive falls back to ``xp.linalg``.  Stacks of matrices run matrix by
matrix (a Python loop costs microseconds, nothing beside a 64 x 64 factorization).

Example::

    >>> import numpy as np
    >>> a = np.array([[4.0, 2.0], [2.0, 3.0]], np.float32)
    >>> cholesky(np, a, min_size=1)
    array([[2.       , 0.       ],
           [1.       , 1.4142135]], dtype=float32)
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from ..core import native_trsm
from ._scipy import scipy_module

_LAPACK_TYPES = frozenset("fdFD")  # float32, float64, complex64, complex128


def _applies(xp, a: np.ndarray, min_size: int, single_only: bool) -> bool:
    if xp is not np or type(a) is not np.ndarray or a.dtype.char not in _LAPACK_TYPES:
        return False
    if single_only and a.dtype.char not in "fF":
        return False
    return a.ndim >= 2 and min(a.shape[-2:]) >= min_size and a.size > 0


def _stacked(fn: Callable, a: np.ndarray, *rest: np.ndarray):
    """``fn`` on one matrix, or matrix by matrix over the leading axes (results stacked;
    None when ``fn`` gives None for any matrix)."""
    if a.ndim == 2:
        return fn(a, *rest)
    lead = a.shape[:-2]
    outs = []
    for idx in np.ndindex(*lead):
        r = fn(a[idx], *[x[idx] for x in rest])
        if r is None:
            return None
        outs.append(r)
    if isinstance(outs[0], tuple):
        return tuple(np.stack(part).reshape(lead + part[0].shape) for part in zip(*outs))
    return np.stack(outs).reshape(lead + outs[0].shape)


def cholesky(xp, a, min_size: int = 16):
    """The lower Cholesky factor of each matrix (its lower triangle read), NaN where one is
    not positive definite (JAX's); None where NumPy's path serves.

    >>> import numpy as np
    >>> cholesky(np, -np.eye(2, dtype=np.float32), min_size=1)
    array([[nan, nan],
           [nan, nan]], dtype=float32)
    """
    lapack = scipy_module("linalg.lapack") if _applies(xp, a, min_size, False) else None
    if lapack is None:
        return None
    potrf = lapack.get_lapack_funcs("potrf", (a,))

    def one(m):
        c, info = potrf(m, lower=1, clean=1)
        return c if info == 0 else np.full(m.shape, np.nan, m.dtype)

    return _stacked(one, a)


def solve(xp, a, b, min_size: int = 16):
    """``a^-1 b`` for each matrix pair (``b`` a matrix of right-hand sides), NaN where ``a``
    is singular (JAX's); None where NumPy's path serves.

    >>> import numpy as np
    >>> solve(np, np.eye(2), np.ones((2, 1)), min_size=1)
    array([[1.],
           [1.]])
    """
    if a.dtype != b.dtype or b.ndim != a.ndim or b.shape[-1] == 0:
        return None
    lapack = scipy_module("linalg.lapack") if _applies(xp, a, min_size, False) else None
    if lapack is None:
        return None
    gesv = lapack.get_lapack_funcs("gesv", (a, b))

    def one(m, rhs):
        _, _, x, info = gesv(m, rhs)
        return x if info == 0 else _singular_lu_solve(lapack, m, rhs)

    return _stacked(one, a, b)


def _singular_lu_solve(lapack, a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``getrf`` then ``getrs`` on one matrix whose ``U`` has a zero pivot: the triangular
    solves divide by it, giving the infinities and NaNs of JAX's and PyTorch's LU solves
    (``solve([[1, 2], [2, 4]], eye(2))`` is ``[[-inf, inf], [inf, -inf]]`` in both; a NaN
    matrix would turn the derivative of ``slogdet`` there, ``+-inf``, into NaN)."""
    getrf, getrs = lapack.get_lapack_funcs(("getrf", "getrs"), (a, b))
    lu, piv, _ = getrf(a)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        x, _ = getrs(lu, piv, b)
    return x


def singular_solve(xp, a, b):
    """``a^-1 b`` for each matrix pair by LU without the singularity check (inf/NaN where a
    pivot is zero, as JAX's and PyTorch's solves); device buffers go through host copies
    (a singular system is rare). None without SciPy or a LAPACK dtype (the caller fills NaN).

    >>> import numpy as np
    >>> singular_solve(np, np.array([[1.0, 2.0], [2.0, 4.0]]), np.eye(2)).tolist()
    [[-inf, inf], [inf, -inf]]
    """
    on_device = xp is not np
    host_a, host_b = (xp.asnumpy(a), xp.asnumpy(b)) if on_device else (a, b)
    if host_a.dtype != host_b.dtype or host_b.ndim != host_a.ndim or not _applies(np, host_a, 0, False):
        return None
    lapack = scipy_module("linalg.lapack")
    if lapack is None:
        return None
    x = _stacked(lambda m, rhs: _singular_lu_solve(lapack, m, rhs), host_a, host_b)
    return xp.asarray(x) if on_device else x


def _trsm_args(m: np.ndarray, left: bool, lower: bool, transpose_a: bool, unit_diagonal: bool):
    """``(flip, keywords)`` for BLAS ``trsm`` on matrices laid out as ``m``: a row-major
    matrix is handed over as its Fortran-ordered transpose (``flip``: no copy), the other
    triangle and ``op`` flipped (the same bits, checked against JAX's kernel in the tests)."""
    flip = not m.flags.f_contiguous
    return flip, dict(side=0 if left else 1, lower=int(lower != flip), trans_a=int(transpose_a != flip),
                      diag=int(unit_diagonal))


def _zero_diagonal(a: np.ndarray, unit_diagonal: bool) -> np.ndarray:
    """Which matrices of the stack have a zero on the diagonal (LAPACK ``trtrs``'s singularity
    test; fgrad answers NaN there)."""
    if unit_diagonal:
        return np.zeros(a.shape[:-2], bool)
    return ~np.all(np.diagonal(a, axis1=-2, axis2=-1), axis=-1)


def triangular_solve(xp, a, b, left_side: bool, lower: bool, transpose_a: bool, unit_diagonal: bool):
    """``op(a)^-1 b`` (``left_side``) or ``b op(a)^-1`` for each triangular matrix of ``a``
    (equal leading axes) by BLAS ``trsm``, JAX's CPU kernel (SciPy's ``solve_triangular``
    calls LAPACK ``trtrs``, which OpenBLAS runs through ``trsv`` for one right-hand side:
    other last bits).  A factor shared by the batch (a 2-D ``a``, or ``a`` broadcast:
    stride-0 leading axes) on the left is one call with the batch as more right-hand sides,
    as JAX's batching rule does for an unbatched ``a`` (the same bits: ``trsm`` solves column
    by column; stacked rows on the right change complex bits); other stacks run matrix by
    matrix (a few microseconds a call).  NaN where a diagonal entry is zero; None where
    NumPy's path serves (not a host buffer, no BLAS routine, SciPy missing).

    >>> import numpy as np
    >>> a = np.broadcast_to(np.array([[2.0, 0.0], [1.0, 1.0]]), (3, 2, 2))
    >>> triangular_solve(np, a, np.ones((3, 2, 1)), True, True, False, False)[..., 0]
    array([[0.5, 0.5],
           [0.5, 0.5],
           [0.5, 0.5]])
    """
    if a.dtype != b.dtype or type(b) is not np.ndarray or b.size == 0 or b.ndim != a.ndim:
        return None
    blas = scipy_module("linalg.blas") if _applies(xp, a, 1, False) else None
    if blas is None:
        return None
    trsm = blas.get_blas_funcs("trsm", (a, b))
    lead = b.shape[:-2]
    if left_side and all(s == 0 for s in a.strides[:-2]):  # one factor (a 2-D a, or broadcast)
        m = a[(0,) * len(lead)]
        rhs = np.moveaxis(b, -2, 0).reshape(b.shape[-2], -1)  # (..., n, k) -> (n, batch * k)
        if _zero_diagonal(m, unit_diagonal):
            return np.full(b.shape, np.nan, b.dtype)
        flip, kw = _trsm_args(m, left_side, lower, transpose_a, unit_diagonal)
        x = trsm(1.0, m.T if flip else m, rhs, **kw)
        return np.moveaxis(x.reshape((b.shape[-2],) + lead + b.shape[-1:]), 0, -2)
    mats, rhss = a.reshape((-1,) + a.shape[-2:]), b.reshape((-1,) + b.shape[-2:])
    flip, kw = _trsm_args(mats[0], left_side, lower, transpose_a, unit_diagonal)
    if flip:
        mats = np.swapaxes(mats, -1, -2)
    singular = _zero_diagonal(a, unit_diagonal).reshape(-1)
    out = _trsm_native(mats, rhss, kw)
    if out is None:
        out = np.empty(rhss.shape, b.dtype)
        for i, zero in enumerate(singular.tolist()):
            out[i] = np.nan if zero else trsm(1.0, mats[i], rhss[i], **kw)
    elif singular.any():
        out[singular] = np.nan
    return out.reshape(b.shape)


def _trsm_native(mats: np.ndarray, rhss: np.ndarray, kw: dict) -> np.ndarray | None:
    """The solves of ``trsm(1.0, mats[i], rhss[i], **kw)`` for every ``i`` in one C loop
    (`core.native_trsm`: the same BLAS routine with the same arguments as SciPy's wrapper
    passes, so the same bits), None where it cannot run (the caller loops in Python)."""
    char = {"f": "s", "d": "d", "F": "c", "D": "z"}[mats.dtype.char]
    address = native_trsm.blas_address(char)
    if address is None or len(mats) < 2:
        return None
    # column-major matrices, as SciPy's wrapper hands them over: the F-ordered stack's memory
    a = np.ascontiguousarray(np.swapaxes(mats, -1, -2))
    x = np.array(np.swapaxes(rhss, -1, -2), order="C")  # (count, cols, rows): each B column-major
    flags = ("R" if kw["side"] else "L", "L" if kw["lower"] else "U", "T" if kw["trans_a"] else "N",
             "U" if kw["diag"] else "N")
    if not native_trsm.trsm_stack(address, char, *flags, a, x):
        return None
    return np.swapaxes(x, -1, -2)


def eigh(xp, a, min_size: int = 64):
    """Eigenvalues (ascending) and eigenvectors of each Hermitian matrix (lower triangle
    read), single precision only (double is as fast through NumPy); None where NumPy's path
    serves or LAPACK reports a failure (NumPy then raises as before).

    >>> import numpy as np
    >>> w, v = eigh(np, np.diag([2.0, 1.0]).astype(np.float32), min_size=1)
    >>> w
    array([1., 2.], dtype=float32)
    """
    return _single_precision(xp, a, min_size, lambda sla, m: sla.eigh(m, lower=True, driver="evd",
                                                                        check_finite=False))


def svd(xp, a, full_matrices: bool, compute_uv: bool, min_size: int = 64):
    """The SVD of each matrix by ``gesdd`` (NumPy's and JAX's driver), single precision only;
    None where NumPy's path serves or LAPACK reports a failure.

    >>> import numpy as np
    >>> svd(np, np.diag([1.0, 3.0]).astype(np.float32), False, False, min_size=1)
    array([3., 1.], dtype=float32)
    """
    return _single_precision(xp, a, min_size, lambda sla, m: sla.svd(
        m, full_matrices=full_matrices, compute_uv=compute_uv, check_finite=False, lapack_driver="gesdd"))


def qr(xp, a, full_matrices: bool, min_size: int = 64):
    """``(q, r)`` of each matrix (``geqrf`` then ``orgqr``/``ungqr``), single precision only;
    None where NumPy's path serves.

    >>> import numpy as np
    >>> q, r = qr(np, np.eye(2, dtype=np.float32), False, min_size=1)
    >>> abs(q * r).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    mode = "full" if full_matrices else "economic"
    return _single_precision(xp, a, min_size, lambda sla, m: sla.qr(m, mode=mode, check_finite=False))


def _single_precision(xp, a, min_size: int, call: Callable):
    """``call(scipy.linalg, matrix)`` matrix by matrix for single-precision host stacks (None
    where NumPy's path serves, or where LAPACK reports a failure: NumPy then decides)."""
    sla = scipy_module("linalg") if _applies(xp, a, min_size, True) else None
    if sla is None:
        return None

    def one(m):
        try:
            return call(sla, m)
        except np.linalg.LinAlgError:
            return None

    return _stacked(one, a)
