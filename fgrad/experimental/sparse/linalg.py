"""``jax.experimental.sparse.linalg``: `lobpcg_standard` (the top eigenpairs of a symmetric
operator by LOBPCG) and `spsolve` (a direct solve of a CSR system).

Both are composites of fgrad's own operations, so ``jit``, ``vmap``, devices and (for
`spsolve`) derivatives come from theirs. `lobpcg_standard` follows the algorithm JAX ships
(SVQB orthonormalization, a block Householder extension of the starting basis, the
Rayleigh-Ritz step on ``[X, P, R]`` and JAX's convergence test), so it stops after the
same number of iterations and returns the same eigenvectors, signs included. `spsolve`
assembles the CSR matrix densely and solves it by LU (JAX on a CPU calls SciPy's sparse LU
through a host callback): O(n^2) memory, exact derivatives in ``data`` and ``b``. See
``docs/jax-sparse.md``.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.experimental import sparse
    >>> M = sparse.BCSR.fromdense(fnp.array([[4., 1.], [0., 2.]]))
    >>> sparse.linalg.spsolve(M.data, M.indices, M.indptr, fnp.array([6., 4.])).tolist()
    [1.0, 2.0]
"""

from __future__ import annotations

from typing import Any, Callable

import fgrad.numpy as fnp
from ...lax import while_loop
from ...transforms.jit import jit
from ._base import JAXSparse

__all__ = ["lobpcg_standard", "spsolve"]


# ---- spsolve ----------------------------------------------------------------------------------


def _check_csr_system(data: Any, indices: Any, indptr: Any, b: Any, reorder: int) -> None:
    """JAX's checks of `spsolve`'s operands (ValueError, as JAX raises)."""
    if data.dtype != b.dtype:
        raise ValueError(f"spsolve: data types do not match: data.dtype={data.dtype} b.dtype={b.dtype}; "
                         "cast b (or data) to one dtype")
    if not (fnp.issubdtype(indices.dtype, fnp.integer) and fnp.issubdtype(indptr.dtype, fnp.integer)):
        raise ValueError(f"spsolve: index arrays must be integer typed; got indices.dtype={indices.dtype} "
                         f"indptr.dtype={indptr.dtype}")
    if not data.ndim == indices.ndim == indptr.ndim == b.ndim == 1:
        raise ValueError(f"spsolve: arrays must be one-dimensional (CSR buffers of one matrix; vmap for "
                         f"a batch). Got data.shape={data.shape} indices.shape={indices.shape} "
                         f"indptr.shape={indptr.shape} b.shape={b.shape}")
    if indptr.size != b.size + 1 or data.shape != indices.shape:
        raise ValueError(f"spsolve: invalid CSR buffer sizes: data.shape={data.shape} "
                         f"indices.shape={indices.shape} indptr.shape={indptr.shape} for b.shape={b.shape} "
                         "(need indptr.size == b.size + 1 and data.shape == indices.shape)")
    if reorder not in (0, 1, 2, 3):
        raise ValueError(f"spsolve: reorder={reorder!r} not valid, must be one of [0, 1, 2, 3]")


def _csr_to_dense(data: Any, indices: Any, indptr: Any, n: int) -> Any:
    """The ``(n, n)`` matrix of CSR buffers; duplicates add up, entries past ``indptr[-1]``
    (padding) are dropped, as SciPy's ``csr_matrix`` does."""
    positions = fnp.arange(data.shape[0], dtype=indptr.dtype)
    rows = fnp.searchsorted(indptr, positions, side="right") - 1
    rows = fnp.where(positions < indptr[-1], rows, n)  # padding: an out-of-range row, dropped
    return fnp.zeros((n, n), data.dtype).at[rows, indices].add(data, mode="drop")


def spsolve(data: Any, indices: Any, indptr: Any, b: Any, tol: float = 1e-6, reorder: int = 1) -> Any:
    """The solution ``x`` of ``A x = b`` for the square CSR matrix ``A = (data, indices,
    indptr)`` (JAX's ``jax.experimental.sparse.linalg.spsolve``).

    ``tol`` and ``reorder`` are accepted and checked as JAX does; like JAX on a CPU (which
    calls SciPy), the solve ignores them: the matrix is assembled densely and solved by LU
    with partial pivoting. Differentiable in ``data`` and ``b``; ``vmap`` batches it (JAX's
    does not).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.experimental.sparse.linalg import spsolve
        >>> data, indices, indptr = fnp.array([2., 1., 4.]), fnp.array([0, 1, 1]), fnp.array([0, 2, 3])
        >>> spsolve(data, indices, indptr, fnp.array([3., 8.])).tolist()
        [0.5, 2.0]
        >>> fgrad.grad(lambda b: spsolve(data, indices, indptr, b).sum())(fnp.array([3., 8.])).tolist()
        [0.5, 0.125]
    """
    data, indices, indptr, b = (fnp.asarray(a) for a in (data, indices, indptr, b))
    _check_csr_system(data, indices, indptr, b, reorder)
    float(tol)  # JAX's check that tol is a number
    return fnp.linalg.solve(_csr_to_dense(data, indices, indptr, b.shape[0]), b)


# ---- lobpcg_standard --------------------------------------------------------------------------


def _matmul(a: Any, b: Any) -> Any:
    return fnp.matmul(a, b, precision="highest")


def _column_norms(x: Any) -> Any:
    return fnp.linalg.norm(x, ord=2, axis=0, keepdims=True)


def _eigh_descending(m: Any) -> tuple[Any, Any]:
    values, vectors = fnp.linalg.eigh(m)
    return values[::-1], vectors[:, ::-1]


def _svqb(x: Any) -> Any:
    """An orthonormal basis of ``x``'s columns by SVQB (Stathopoulos and Wu): scale the columns
    to unit norm, diagonalize the Gram matrix, and map ``x`` through its eigenvectors scaled by
    ``w^(-1/2)``; directions with ``w <= eps * max(w)`` (rank deficiency) become zero columns."""
    norms = _column_norms(x)
    x = x / fnp.where(norms == 0, 1.0, norms)
    gram = _matmul(x.T, x)
    w, v = _eigh_descending(gram)
    cutoff = fnp.finfo(x.dtype).eps * w[0]
    inv_sqrt = fnp.where(cutoff > 0, fnp.maximum(w, cutoff), 1.0) ** (-0.5)
    basis = _matmul(x, v * inv_sqrt[None, :])
    keep = ((w > cutoff) * (fnp.diag(gram) > 0.0))[None, :]
    basis = basis * keep.astype(basis.dtype)
    norms = _column_norms(basis)
    keep = keep * (norms > 0.0)
    return basis / fnp.where(keep, norms, 1.0)


def _orthonormalize(x: Any) -> Any:
    return _svqb(_svqb(x))  # twice is enough (Kahan)


def _project_out(basis: Any, u: Any) -> Any:
    """The part of ``u`` orthogonal to the orthonormal (zero columns allowed) ``basis``,
    orthonormalized; columns that do not survive the final subtraction with norm >= 0.99 are
    zeroed, so ``[basis, result]`` stays orthonormal up to zero columns."""
    for _ in range(2):
        u = _orthonormalize(u - _matmul(basis, _matmul(basis.T, u)))
    for _ in range(2):
        u = u - _matmul(basis, _matmul(basis.T, u))
    return u * (_column_norms(u) >= 0.99).astype(u.dtype)


def _extend_basis(x: Any, m: int) -> Any:
    """``m`` orthonormal columns orthogonal to the orthonormal ``(n, k)`` ``x``, deterministically:
    the block Householder reflector ``H = I - 2 w w^T`` that maps ``x`` to ``[-u v^T; 0]``
    (``u s v^T`` the SVD of ``x``'s top ``k`` rows) applied to ``[0; I_m; 0]``."""
    n, k = x.shape
    top, bottom = x[:k], x[k:]
    u, s, vt = fnp.linalg.svd(top)
    y = fnp.concatenate([top + _matmul(u, vt), bottom], axis=0)
    w = _matmul(y, vt.T * ((2 * (1 + s)) ** -0.5)[None, :])
    other = fnp.concatenate([fnp.eye(m, dtype=x.dtype), fnp.zeros((n - k - m, m), x.dtype)], axis=0)
    reflected = -2 * _matmul(w, _matmul(w[k:, :].T, other))
    return reflected.at[k:].add(other)


def _check_lobpcg_inputs(apply_a: Callable, x: Any) -> None:
    n, k = x.shape
    if k == 0:
        raise ValueError(f"lobpcg_standard: must have search dim > 0, got {k}")
    if k * 5 >= n:
        raise ValueError(f"lobpcg_standard: expected search dim * 5 < matrix dim (got {k * 5}, {n}); "
                         "ask for fewer eigenvectors or use jnp.linalg.eigh for a small matrix")
    probe = apply_a(fnp.zeros((n, 1), x.dtype))
    if probe.dtype != x.dtype:
        raise ValueError(f"lobpcg_standard: A, X must have same dtypes (were {probe.dtype}, {x.dtype})")
    if probe.shape != (n, 1):
        raise ValueError(f"lobpcg_standard: A must be ({n}, {n}) matrix A, got output {probe.shape}")


def _lobpcg(apply_a: Callable, x: Any, m: int, tol: Any) -> tuple[Any, Any, Any]:
    """LOBPCG for the top ``k`` eigenpairs of the operator ``apply_a`` from the ``(n, k)`` ``x``:
    each step solves the Rayleigh-Ritz problem on the orthonormal ``[X, P, R]`` (current
    vectors, search directions, residuals) and keeps the top ``k`` Ritz pairs."""
    n, k = x.shape
    _check_lobpcg_inputs(apply_a, x)
    if tol is None:
        tol = float(fnp.finfo(x.dtype).eps)
    x = _orthonormalize(x)
    p = _extend_basis(x, k)
    ax = apply_a(x)
    theta = fnp.sum(x * ax, axis=0, keepdims=True)
    r = ax - theta * x

    def not_done(state):
        i, _, _, _, converged, _ = state
        return fnp.logical_and(i < m, converged < k)

    def step(state):
        i, x, p, r, _, _ = state
        r = _project_out(fnp.concatenate((x, p), axis=1), r)
        xpr = fnp.concatenate((x, p, r), axis=1)
        theta, q = _eigh_descending(_matmul(xpr.T, apply_a(xpr)))
        # the new X: the top k Ritz vectors
        top = q[:, :k]
        x = _matmul(xpr, top / _column_norms(top))
        x = x / _column_norms(x)
        # the new P: the rest of the Ritz basis' top-k components, orthogonalized against q[:, :k]
        # in the coordinates of the orthonormal [X, P, R], so P comes out orthonormal
        qq, _ = fnp.linalg.qr(q[:k, k:].T)
        p = _matmul(xpr, _matmul(q[:, k:], qq))
        norms = _column_norms(p)
        p = p / fnp.where(norms == 0, 1.0, norms)
        ax = apply_a(x)
        r = ax - theta[None, :k] * x
        # converged: the residual below tol times the rounding error expected of A x - theta x
        scale = 10 * n * (fnp.linalg.norm(ax, ord=2, axis=0) + theta[:k])
        converged = fnp.sum(fnp.linalg.norm(r, ord=2, axis=0) < tol * scale)
        return i + 1, x, p, r, converged, theta[None, :k]

    i, x, _, _, _, theta = while_loop(not_done, step, (0, x, p, r, 0, theta))
    return theta[0, :], x, i


@jit(static_argnames=("m",))
def _lobpcg_matrix(a: Any, x: Any, m: int, tol: Any) -> tuple[Any, Any, Any]:
    return _lobpcg(lambda v: a @ v if isinstance(a, JAXSparse) else _matmul(a, v), x, m, tol)


@jit(static_argnames=("apply_a", "m"))
def _lobpcg_operator(apply_a: Callable, x: Any, m: int, tol: Any) -> tuple[Any, Any, Any]:
    return _lobpcg(apply_a, x, m, tol)


def lobpcg_standard(a: Any, x: Any, m: int = 100, tol: Any = None) -> tuple[Any, Any, Any]:
    """The top ``k`` eigenvalues and eigenvectors of the symmetric ``(n, n)`` ``A`` (an array, a
    sparse `BCOO`/`BCSR` matrix, or a function ``X -> A @ X`` of ``(n, k)`` arrays) by LOBPCG,
    starting from the ``(n, k)`` search directions ``X`` (``0 < 5 k < n``), in at most ``m``
    iterations (JAX's ``jax.experimental.sparse.linalg.lobpcg_standard``).

    An eigenpair has converged when ``|A v - lambda v| < tol * 10 n (lambda + |A v|)``
    (``tol`` defaults to the dtype's epsilon). Returns ``(theta, U, i)``: the ``(k,)``
    eigenvalues in descending order, the ``(n, k)`` eigenvectors and the iterations run.
    No derivatives (as in JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental.sparse.linalg import lobpcg_standard
        >>> A = fnp.diag(fnp.arange(1.0, 11.0))
        >>> theta, U, i = lobpcg_standard(A, fnp.ones((10, 1)))
        >>> round(float(theta[0]), 6), round(abs(float(U[9, 0])), 6)
        (10.0, 1.0)
    """
    m = int(m)
    if isinstance(a, JAXSparse):
        return _lobpcg_matrix(a, fnp.asarray(x), m, tol)
    if callable(a) and not hasattr(a, "shape"):
        return _lobpcg_operator(a, fnp.asarray(x), m, tol)
    return _lobpcg_matrix(fnp.asarray(a), fnp.asarray(x), m, tol)
