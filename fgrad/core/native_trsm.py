"""BLAS ``trsm`` over a stack of triangular matrices in one C loop.

A stack of *different* triangular factors (``solve_triangular`` of 256 different 8 x 8
matrices, a batched ``cho_solve``) is one BLAS ``trsm`` call per matrix.  Made from Python,
each call costs a few microseconds of wrapper (argument parsing, array checks, the copy of
the right-hand side), far more than an 8 x 8 solve; this loop makes the same calls from C
through the routine's address in SciPy's ``cython_blas`` (the address JAX's CPU kernels
call too), so every matrix is solved by the same routine with the same arguments as one
Python call would: the bits cannot differ.  Compiled and cached as `native_loops` does (its
switch: ``config.update("native_loops", False)``); elsewhere the caller loops in Python.

Example::

    >>> import numpy as np
    >>> a = np.array([[[2.0, 0.0], [1.0, 1.0]]] * 3)   # column-major: upper [[2, 1], [0, 1]]
    >>> b = np.ones((3, 1, 2))                         # three right-hand sides, column-major
    >>> ptr = blas_address("d")
    >>> ptr is None or trsm_stack(ptr, "d", "L", "U", "N", "N", a, b) is False or b[:, 0].tolist()
    [[0.0, 1.0], [0.0, 1.0], [0.0, 1.0]]
"""

from __future__ import annotations

import ctypes
import functools

import numpy as np

from . import native_loops as _nl

_O = ctypes.py_object
_L = ctypes.c_long
_C = ctypes.c_char

_SOURCE = _nl.PRELUDE + _nl.ARRAY_DATA + r"""
typedef void (*trsm_fn)(char *, char *, char *, char *, int *, int *, void *, void *, int *, void *, int *);
void trsm_stack(void *fn, long count, char side, char uplo, char trans, char diag, long m, long n,
                const void *alphao, const void *ao, long lda, long a_step, void *bo, long ldb, long b_step) {
    trsm_fn f = (trsm_fn)fn;
    char *a = ARRAY_DATA(ao), *b = ARRAY_DATA(bo);
    void *alpha = ARRAY_DATA(alphao);
    int im = (int)m, in = (int)n, ilda = (int)lda, ildb = (int)ldb;
    for (long i = 0; i < count; i++)
        f(&side, &uplo, &trans, &diag, &im, &in, alpha, a + i * a_step, &ilda, b + i * b_step, &ildb);
}
"""
_ARGTYPES = [ctypes.c_void_p, _L, _C, _C, _C, _C, _L, _L, _O, _O, _L, _L, _O, _L, _L]
_INT_MAX = 2**31 - 1


@functools.cache
def blas_address(char: str) -> int | None:
    """The address of SciPy's ``cython_blas`` ``?trsm`` for the LAPACK type character
    ``char`` (``"s"``, ``"d"``, ``"c"``, ``"z"``), None without SciPy.

    Example::

        >>> blas_address("q") is None
        True
    """
    if char not in ("s", "d", "c", "z"):
        return None
    try:
        from scipy.linalg import cython_blas
    except ImportError:  # pragma: no cover - scipy is optional
        return None
    capsule = cython_blas.__pyx_capi__.get(char + "trsm")
    if capsule is None:  # pragma: no cover - every SciPy has them
        return None
    # private prototypes (setting argtypes on `ctypes.pythonapi`'s shared functions would
    # change them for every other user)
    get_name = ctypes.PYFUNCTYPE(ctypes.c_char_p, ctypes.py_object)(("PyCapsule_GetName", ctypes.pythonapi))
    get_pointer = ctypes.PYFUNCTYPE(ctypes.c_void_p, ctypes.py_object, ctypes.c_char_p)(
        ("PyCapsule_GetPointer", ctypes.pythonapi))
    return get_pointer(capsule, get_name(capsule))


def trsm_stack(address: int, char: str, side: str, uplo: str, trans: str, diag: str,
               a: np.ndarray, b: np.ndarray) -> bool:
    """Solve in place, for each ``i``, ``op(A_i) X = B_i`` (``side`` ``"L"``) or
    ``X op(A_i) = B_i`` (``"R"``) with ``alpha = 1``, where ``A_i`` and ``B_i`` are the
    *column-major* matrices stored in ``a[i]`` and ``b[i]`` (C-contiguous stacks: ``a`` of
    shape (count, k, k), ``b`` of shape (count, cols, rows)); the BLAS flags are Fortran's
    characters.  False (``b`` untouched) where the native loop cannot run.

    Example::

        >>> a = np.array([[[4.0]], [[2.0]]]); b = np.array([[[8.0]], [[8.0]]])
        >>> ptr = blas_address("d")
        >>> ptr is None or trsm_stack(ptr, "d", "L", "L", "N", "N", a, b) is False or b.ravel().tolist()
        [2.0, 4.0]
    """
    if (type(a) is not np.ndarray or type(b) is not np.ndarray or a.ndim != 3 or b.ndim != 3
            or a.dtype != b.dtype or not a.flags.c_contiguous or not b.flags.c_contiguous
            or not b.flags.writeable or a.shape[0] != b.shape[0] or a.shape[1] != a.shape[2]
            or max(a.shape[1], b.shape[1], b.shape[2]) > _INT_MAX):
        return False
    fn = _nl.compiled_function(_SOURCE, "trsm_stack", _ARGTYPES, reads_arrays=True)
    if fn is None:
        return False
    rows, cols, k = b.shape[2], b.shape[1], a.shape[1]
    if k != (rows if side == "L" else cols):
        return False
    alpha = np.ones(1, b.dtype)
    fn(address, a.shape[0], side.encode(), uplo.encode(), trans.encode(), diag.encode(), rows, cols,
       alpha, a, max(k, 1), a.strides[0], b, max(rows, 1), b.strides[0])
    return True
