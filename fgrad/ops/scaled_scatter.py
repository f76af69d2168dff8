"""The ``scaled_scatter`` primitive: ``x.at[rows].add(s * X[cols])`` -- a gather of rows,
a scaling of each by its own scalar and a scatter-add of the products -- in one pass.

That is a sparse-dense product ``S @ X`` (a BCOO ``S`` with entries ``s`` at ``(rows,
cols)``), the transpose of one, and every message-passing step of a graph network.  Traced,
it is three primitives (``gather``, ``mul``, ``scatter``) and three passes over ``nse`` rows:
jit's pass `compile.passes.scaled_scatters` finds the pattern (the product and the gathered
rows read by nothing else) and replaces it by this primitive.  On the host it runs SciPy's
``coo_matmat_dense`` kernel, which walks the entries in order and adds ``s[i] * X[cols[i]]``
to row ``rows[i]`` of (a copy of) ``x``: the product rounded, then added -- the same
operations in the same order as ``np.multiply`` then ``np.add.at``, so the same bits (a
one-time probe checks that the kernel does not contract them into a fused multiply-add, as a
build for a platform with FMA may).  Otherwise (devices, other dtypes, indices out of range,
a zero scale, which the kernel skips, or SciPy without the kernel) it computes the three
primitives' implementations in order.

Example::

    >>> import numpy as np
    >>> from fgrad.ops.scaled_scatter import scaled_scatter_p
    >>> x, s = np.zeros((2, 2)), np.array([[2.0], [3.0], [1.0]])
    >>> X = np.array([[1.0, 2.0], [3.0, 4.0]])
    >>> scaled_scatter_p.bind(x, s, X, np.array([0, 1, 1]), np.array([1, 1, 0]),
    ...                       gather_oob="clip", fill_value=None, oob="drop", s_first=True)
    Array([[ 3.,  4.],
           [11., 16.]], dtype=float64)
"""

from __future__ import annotations

import functools

import numpy as np

from ..core.primitive import Primitive
from ..core.rules import add_tangents, defbatch, defjvp_rule
from ._scipy import scipy_module
from .elementwise import mul, mul_p
from .indexing import gather, gather_p, scatter, scatter_p

_ROWS = (("a", 0),)  # the gather's and the scatter's indexer: one index array on axis 0
_KERNEL_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
_UINTP = np.dtype(np.uintp)


def _impl(xp, x, s, X, cols, rows, *, gather_oob, fill_value, oob, s_first):
    if xp is np and _host_kernel(x, s, X, cols, rows):
        out = np.array(x, order="C")  # a fresh copy: the operand is never written
        _coo_matmat_dense(x.dtype)(rows.size, X.shape[1], _index(rows), _index(cols),
                                   np.ascontiguousarray(s).reshape(-1),
                                   np.ascontiguousarray(X).reshape(-1), out.reshape(-1))
        return out
    g = gather_p.impl(xp, X, cols, indexer=_ROWS, oob=gather_oob, fill_value=fill_value)
    u = mul_p.impl(xp, s, g) if s_first else mul_p.impl(xp, g, s)
    return scatter_p.impl(xp, x, u, rows, indexer=_ROWS, mode="add", oob=oob)


def _index(a: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray(a, np.intp)


def _host_kernel(x, s, X, cols, rows) -> bool:
    """The kernel gives the three implementations' bits here: host arrays of one float
    dtype, every index in range, no zero scale, the kernel present and not fusing the
    multiply-add."""
    if not all(type(a) is np.ndarray for a in (x, s, X, cols, rows)):
        return False
    dt = x.dtype
    if dt not in _KERNEL_DTYPES or s.dtype != dt or X.dtype != dt or X.ndim != 2 or x.ndim != 2:
        return False
    if not (_in_range(cols, X.shape[0]) and _in_range(rows, x.shape[0])):
        return False
    # the kernel skips entries whose scale is 0 (NumPy adds their product: NaN for
    # ``0 * inf``, ``+0.0`` onto a ``-0.0``)
    return _coo_matmat_dense(dt) is not None and bool(np.all(s))


def _in_range(a: np.ndarray, n: int) -> bool:
    a = a.astype(np.intp, copy=False)
    return a.size == 0 or int(a.view(_UINTP).max()) < n  # a negative index is huge unsigned


@functools.cache
def _coo_matmat_dense(dtype):
    """SciPy's ``coo_matmat_dense(nnz, n_vecs, Ai, Aj, Ax, Bx, Cx)`` (``C[Ai[k]] += Ax[k] *
    B[Aj[k]]`` for k in order), or None: without SciPy or the kernel (SciPy < 1.15), or when
    a probe finds it fusing the product and the sum (an FMA's single rounding is not
    NumPy's multiply-then-add)."""
    tools = scipy_module("sparse._sparsetools")
    kernel = None if tools is None else getattr(tools, "coo_matmat_dense", None)
    if kernel is None:
        return None
    dt = np.dtype(dtype)
    e = 2.0 ** -(dt.itemsize * 3 + 1)  # 2**-13 (float32), 2**-25 (float64): a*a is inexact
    a = np.array([1.0 + e], dt)
    prod = a * a  # rounded
    out = -prod  # an FMA gives a*a - round(a*a) = e*e, nonzero; separate roundings give 0
    zero = np.zeros(1, np.intp)
    try:
        kernel(1, 1, zero, zero, a, a.copy(), out)
    except (TypeError, ValueError):  # pragma: no cover - another signature: not this kernel
        return None
    return kernel if out[0] == 0 else None


def _abstract(x, s, X, cols, rows, **params):
    return x


scaled_scatter_p = Primitive("scaled_scatter", _impl, _abstract, family="indexing")


def _reference(x, s, X, cols, rows, *, gather_oob, fill_value, oob, s_first):
    """The primitive as the fgrad ops it replaced (its derivative and batching rules)."""
    g = gather(X, [cols], _ROWS, gather_oob, fill_value)
    return scatter(x, mul(s, g) if s_first else mul(g, s), [rows], _ROWS, "add", oob)


def _jvp(primals, tangents, **params):
    # linear in x, and in s and X separately: the tangent from the ops of `_reference`
    out = scaled_scatter_p.bind(*primals, **params)
    x, s, X, cols, rows = primals
    tx, ts, tX = tangents[:3]
    t = tx
    if ts is not None:
        t = add_tangents(t, _reference_delta(x, ts, X, cols, rows, **params))
    if tX is not None:
        t = add_tangents(t, _reference_delta(x, s, tX, cols, rows, **params))
    return out, t


def _reference_delta(x, s, X, cols, rows, **params):
    """`_reference` onto zeros: the part of the result linear in ``s`` (or ``X``)."""
    from ..core.constants import full_like

    return _reference(full_like(x, 0), s, X, cols, rows, **params)


def _batch(axis_size, vals, dims, **params):
    from ..transforms.batching import vmap

    return vmap(lambda *xs: _reference(*xs, **params), in_axes=tuple(dims))(*vals), 0


defjvp_rule(scaled_scatter_p, _jvp)
defbatch(scaled_scatter_p, _batch)

__all__ = ["scaled_scatter_p"]
