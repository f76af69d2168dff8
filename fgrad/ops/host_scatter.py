"""``ufunc.at(out, idx, u)`` on the host (NumPy), with NumPy's result bits, faster.

The `scatter` primitive's combining modes (``x.at[idx].add/mul/min/max``) and so every
gather transpose, ``segment_sum``, embedding and sparse-product backward, ``index_add_``
end in ``ufunc.at``.  NumPy runs ``ufunc.at`` fast only for a 1-D operand indexed by one
integer array; a row scatter (``out[rows] += u`` with ``u`` of shape ``(m, d)``) takes its
slow generic path, 5-10x slower.  `host_ufunc_at` recognises the index layouts that are row
scatters -- full slices, then adjacent index arrays (and integers), then full slices
(``out[:, i, j] += u``) -- and runs them as:

* a sparse-matrix product ``out += A @ U`` computed in place (SciPy's CSC kernel; ``A`` is
  the 0/1 matrix with one entry per update, at its target row) for an add with rows of at
  least two elements, of floats, complex (as real pairs) or integers (as their unsigned
  twins: wrapping sums).  The kernel reads the updates in order and adds each to its target
  row of the operand -- exactly what ``np.add.at`` does, so the bits are the same;
* otherwise ``ufunc.at`` on the flattened operand with one linear index per updated element,
  in row-major update order (NumPy's fast path; each target sees its updates in the same
  order, so any ufunc and dtype gives the same bits).

Every other index layout keeps ``ufunc.at`` as it is.

Example::

    >>> import numpy as np
    >>> from fgrad.ops.host_scatter import host_ufunc_at
    >>> out = np.zeros((3, 2))
    >>> host_ufunc_at(np.add, out, (np.array([0, 2, 0]),), np.ones((3, 2)))
    >>> out
    array([[2., 2.],
           [0., 0.],
           [1., 1.]])
"""

from __future__ import annotations

import math

import numpy as np

from ._scipy import scipy_module

__all__ = ["host_ufunc_at", "row_scatter_layout"]

_FULL = slice(None)
# scatters of fewer updated elements than this go to ``ufunc.at`` as they are (fixed costs)
_MIN_ELEMENTS = 1024
# linear indices are built this many updated elements at a time (bounded scratch memory)
_CHUNK = 1 << 17
_CSC_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))
_CSC_COMPLEX = {np.dtype(np.complex64): np.dtype(np.float32), np.dtype(np.complex128): np.dtype(np.float64)}


def row_scatter_layout(shape: tuple, idx: tuple):
    """``(q, k, arrays)`` when ``out[idx]`` (``out`` of ``shape``) is a row scatter: ``q``
    full slices, then ``k`` adjacent integer index arrays or integers (at least one array),
    then only full slices; ``arrays`` are those ``k`` entries.  ``None`` for any other index.

    Example::

        >>> import numpy as np
        >>> from fgrad.ops.host_scatter import row_scatter_layout
        >>> row_scatter_layout((4, 5, 6), (slice(None), np.array([1, 2])))[:2]
        (1, 1)
        >>> row_scatter_layout((4, 5), (np.array([0]), slice(1, 3))) is None
        True
    """
    if not isinstance(idx, tuple):
        idx = (idx,)
    q = 0
    while q < len(idx) and _is_full(idx[q]):
        q += 1
    end = q
    while end < len(idx) and _is_advanced(idx[end]):
        end += 1
    arrays = idx[q:end]
    if not any(isinstance(a, np.ndarray) for a in arrays):
        return None
    if end > len(shape) or not all(_is_full(e) for e in idx[end:]):
        return None
    return q, end - q, arrays


def _is_full(e) -> bool:
    return isinstance(e, slice) and e == _FULL


def _is_advanced(e) -> bool:
    if isinstance(e, np.ndarray):
        return e.dtype.kind in "iu"
    return isinstance(e, (int, np.integer)) and not isinstance(e, (bool, np.bool_))


def host_ufunc_at(ufunc: np.ufunc, out: np.ndarray, idx, u) -> None:
    """``ufunc.at(out, idx, u)`` (in place, the same result bits), fast for row scatters.

    Example::

        >>> import numpy as np
        >>> from fgrad.ops.host_scatter import host_ufunc_at
        >>> out = np.array([5, 5, 5])
        >>> host_ufunc_at(np.maximum, out, (np.array([0, 0, 2]),), np.array([7, 9, 1]))
        >>> out
        array([9, 5, 5])
    """
    idx = idx if isinstance(idx, tuple) else (idx,)
    layout = row_scatter_layout(out.shape, idx)
    u = np.asarray(u)
    if (layout is None or u.dtype != out.dtype or u.size < _MIN_ELEMENTS or out.ndim == 1
            or not out.flags.c_contiguous or not out.flags.writeable or np.may_share_memory(out, u)):
        # NumPy's fast path already (1-D), too small to matter, or updates that overlap the
        # operand (the in-place product would read updates it has already changed)
        ufunc.at(out, idx, u)
        return
    q, k, arrays = layout
    lead, axes, rest = out.shape[:q], out.shape[q:q + k], out.shape[q + k:]
    found = _linear_rows(arrays, axes)
    if found is None:  # out of bounds (negative indices included): NumPy's own behaviour
        ufunc.at(out, idx, u)
        return
    rows, batch = found
    p, r, d = math.prod(lead), math.prod(axes), math.prod(rest)
    m = rows.size
    if p * m * d == 0:
        return
    upd = np.broadcast_to(u, lead + batch + rest).reshape(p * m, d)
    if p > 1:  # update (i, b) lands in row i * r + rows[b]
        rows = (np.arange(p, dtype=np.intp)[:, None] * r + rows[None, :]).reshape(-1)
    flat = out.reshape(p * r, d)
    if ufunc is np.add and d > 1 and _csc_sum(flat, rows, upd):
        return
    _flat_ufunc_at(ufunc, flat, rows, upd)


def _linear_rows(arrays, axes: tuple):
    """The row-major linear position in ``axes`` of each broadcast index tuple (flattened),
    and the broadcast shape; None when an index is outside ``[0, n)``."""
    lin = linear_positions(arrays, axes)
    return None if lin is None else (lin.reshape(-1), lin.shape)


def linear_positions(arrays: tuple | list, axes: tuple, checked: bool = False) -> np.ndarray | None:
    """The row-major linear position in a block of shape ``axes`` of each index tuple of the
    integer ``arrays`` (one per axis, broadcast together): ``sum(a_k * stride_k)``, as
    ``np.ravel_multi_index`` but without its per-element checks (one ``max`` per array
    instead); None when an index is outside ``[0, n)`` (negative ones included).  ``checked``:
    the caller knows every index is inside (no ``max``).

    Example::

        >>> linear_positions((np.array([[0], [2]]), np.array([1, 3])), (3, 4)).tolist()
        [[1, 3], [9, 11]]
        >>> linear_positions((np.array([3]),), (3,)) is None
        True
    """
    lin = None
    stride = 1
    for a, n in zip(reversed(arrays), reversed(axes)):
        a = np.asarray(a).astype(np.intp, copy=False)
        if not checked and a.size and a.view(np.uintp).max() >= n:  # negative ones are huge unsigned
            return None
        term = a * stride if stride != 1 else a
        lin = term if lin is None else np.add(lin, term)
        stride *= n
    return lin


def _flat_ufunc_at(ufunc: np.ufunc, flat: np.ndarray, rows: np.ndarray, upd: np.ndarray) -> None:
    """``ufunc.at(flat, rows, upd)`` for ``flat`` of shape ``(R, d)``, as ``ufunc.at`` on the
    1-D view with the linear index ``rows[i] * d + j`` of each update ``(i, j)`` in row-major
    order: for every target the updates arrive in the same order as in the 2-D call."""
    n, d = upd.shape
    line = flat.reshape(-1)
    if d == 1:
        ufunc.at(line, rows, upd.reshape(-1))
        return
    step = max(1, _CHUNK // d)
    offsets = np.arange(d, dtype=np.intp)
    for s in range(0, n, step):
        lin = rows[s:s + step, None] * d + offsets
        ufunc.at(line, lin.reshape(-1), upd[s:s + step].reshape(-1))


_RUNS: dict = {}  # (kind, dtype) -> a read-only run of ones or of 0, 1, 2, ...
_RUN_CACHE_LIMIT = 1 << 22


def _run(kind: str, n: int, dtype) -> np.ndarray:
    """``np.ones(n, dtype)`` (kind "ones") or ``np.arange(n, dtype=dtype)`` (kind "count")
    as a read-only view of a cached run (runs longer than `_RUN_CACHE_LIMIT` are not
    kept): the CSC matrix's values and column pointers, the same for every scatter."""
    key = (kind, np.dtype(dtype))
    run = _RUNS.get(key)
    if run is None or run.size < n:
        size = max(n, 1024)
        run = np.ones(size, dtype) if kind == "ones" else np.arange(size, dtype=dtype)
        run.flags.writeable = False
        if size <= _RUN_CACHE_LIMIT:
            _RUNS[key] = run
    return run[:n]


def _ones(n: int, dtype) -> np.ndarray:
    return _run("ones", n, dtype)


def _count(n: int, dtype) -> np.ndarray:
    return _run("count", n, dtype)


def _csc_sum(flat: np.ndarray, rows: np.ndarray, upd: np.ndarray) -> bool:
    """``np.add.at(flat, rows, upd)`` as SciPy's CSC product kernel run **in place**:
    ``flat += A @ X`` with ``A`` the 0/1 matrix whose column ``i`` holds one 1 at update
    ``i``'s target row.  The kernel walks the columns in order and adds ``1 * X[i]`` (exact)
    to its target row of ``flat`` itself, so every target sums ``operand, u1, u2, ...`` in
    NumPy's order -- the same bits, ``-0.0``, inf and NaN included:

    * floats as they are, complex as their real pairs (a complex product by ``1 + 0j``
      would turn ``inf`` into NaN);
    * integers as their unsigned twins (wrapping, like NumPy; the bytes are the same).

    False (nothing done) for other dtypes, or without SciPy.  ``flat`` is C-contiguous and
    writeable and every row in ``[0, len(flat))`` (the caller checked): the kernel is
    SciPy's unchecked ``_sparsetools.csc_matvecs``, so the arrays given to it are built here
    with exactly the types it reads."""
    dt = flat.dtype
    if dt.kind in "iu":
        work = np.dtype(f"u{dt.itemsize}")
    else:
        work = _CSC_COMPLEX.get(dt, dt)
        if work not in _CSC_FLOATS:
            return False
    kernel = _csc_matvecs()
    if kernel is None:  # pragma: no cover - scipy is optional
        return False
    y = flat.reshape(-1).view(work)  # a view: flat is C-contiguous
    x = np.ascontiguousarray(upd).reshape(-1).view(work)
    n = rows.size
    cols = y.size // flat.shape[0]
    kernel(flat.shape[0], n, cols, _count(n + 1, np.intp), np.ascontiguousarray(rows, np.intp),
           _ones(n, work), x, y)
    return True


def _csc_matvecs():
    """SciPy's ``csc_matvecs(n_row, n_col, n_vecs, Ap, Ai, Ax, Xx, Yx)`` (``Yx += A @ X``, the
    kernel behind ``csc_matrix @ dense``), or None without SciPy."""
    tools = scipy_module("sparse._sparsetools")
    return None if tools is None else getattr(tools, "csc_matvecs", None)
