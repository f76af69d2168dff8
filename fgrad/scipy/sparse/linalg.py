"""`fgrad.scipy.sparse.linalg`: Krylov solvers (``jax.scipy.sparse.linalg``): `cg`, `bicgstab`,
`gmres`.

The operator ``A`` (and the preconditioner ``M``, an approximation of ``A``'s inverse) is a
function computing ``A @ x`` or a square matrix; ``b`` and ``x0`` may be pytrees of arrays.
Each solver is a `fgrad.lax.while_loop` (so it runs under `jit` and `vmap`) wrapped in
`fgrad.lax.custom_linear_solve`: derivatives are implicit -- another solve with the same
method (on the transposed operator in reverse mode) -- never a differentiation through the
iterations, so they are accurate when the solves converge.  Convergence: SciPy's rule
``norm(r) <= max(tol * norm(b), atol)``.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> a = fnp.asarray([[4.0, 1.0], [1.0, 3.0]])
    >>> fgrad.grad(lambda b: cg(a, b)[0].sum())(fnp.asarray([1.0, 2.0]))   # = solve(a.T, ones)
    Array([0.18181818, 0.27272727], dtype=float64)
"""

from __future__ import annotations

from ...typing import Array, ArrayLike

from collections.abc import Callable
from typing import Any

import numpy as np

from ... import numpy as fnp
from ...lax import custom_linear_solve, while_loop
from ...tree_util import tree_leaves, tree_map, tree_structure, tree_unflatten


def _vdot_real(x, y):
    """``Re(vdot(x, y))`` summed over a pytree's leaves (real and imaginary parts paired)."""
    total = 0.0
    for a, b in zip(tree_leaves(x), tree_leaves(y)):
        total = total + fnp.sum(fnp.real(a) * fnp.real(b))
        if fnp.iscomplexobj(a) or fnp.iscomplexobj(b):
            total = total + fnp.sum(fnp.imag(a) * fnp.imag(b))
    return total


def _vdot(x, y):
    """``vdot(x, y) = sum(conj(x) * y)`` over a pytree's leaves."""
    total = 0.0
    for a, b in zip(tree_leaves(x), tree_leaves(y)):
        total = total + fnp.sum(fnp.conj(a) * b)
    return total


def _add(x, y):
    return tree_map(lambda a, b: a + b, x, y)


def _sub(x, y):
    return tree_map(lambda a, b: a - b, x, y)


def _scale(s, x):
    return tree_map(lambda a: s * a, x)


def _identity(x):
    return x


def _as_operator(f, what: str) -> Callable[[Any], Any]:
    """A function computing ``f @ x``: ``f`` itself when callable, else a square matrix."""
    if callable(f):
        return f
    if hasattr(f, "shape") and hasattr(f, "__matmul__") or isinstance(f, (list, tuple)):
        mat = fnp.asarray(f)
        if mat.ndim != 2 or mat.shape[0] != mat.shape[1]:
            raise ValueError(f"fgrad.scipy.sparse.linalg: the linear operator {what} must be a square "
                             f"matrix, but has shape {mat.shape}")
        return lambda x: fnp.matmul(mat, x)
    raise TypeError(f"fgrad.scipy.sparse.linalg: the linear operator {what} must be a function or a matrix, "
                    f"got {type(f).__name__}")


def _prepare(fn, A, b, x0, maxiter, M):
    b = tree_map(fnp.asarray, b)
    if x0 is None:
        x0 = tree_map(fnp.zeros_like, b)
    x0 = tree_map(fnp.asarray, x0)
    if tree_structure(x0) != tree_structure(b):
        raise ValueError(f"fgrad.scipy.sparse.linalg.{fn}: x0 and b must have matching tree structure: "
                         f"{tree_structure(x0)} vs {tree_structure(b)}")
    if [x.shape for x in tree_leaves(x0)] != [x.shape for x in tree_leaves(b)]:
        raise ValueError(f"fgrad.scipy.sparse.linalg.{fn}: arrays in x0 and b must have matching shapes: "
                         f"{[x.shape for x in tree_leaves(x0)]} vs {[x.shape for x in tree_leaves(b)]}")
    size = sum(int(np.prod(x.shape)) for x in tree_leaves(b))
    if maxiter is None:
        maxiter = 10 * size  # SciPy's default
    return _as_operator(A, "A"), b, x0, maxiter, (_identity if M is None else _as_operator(M, "M")), size


def _cg_solve(A, b, *, x0, tol, atol, maxiter, M):
    atol2 = fnp.maximum(tol ** 2 * _vdot_real(b, b), atol ** 2)
    r0 = _sub(b, A(x0))
    z0 = M(r0)
    dtype = np.result_type(*[x.dtype for x in tree_leaves(z0)])
    gamma0 = fnp.asarray(_vdot_real(r0, z0)).astype(dtype)
    preconditioned = M is not _identity

    def cond(state):
        _, r, gamma, _, k = state
        rs = _vdot_real(r, r) if preconditioned else fnp.real(gamma)
        return (rs > atol2) & (k < maxiter)

    def body(state):
        x, r, gamma, p, k = state
        ap = A(p)
        alpha = gamma / fnp.asarray(_vdot_real(p, ap)).astype(dtype)
        x = _add(x, _scale(alpha, p))
        r = _sub(r, _scale(alpha, ap))
        z = M(r)
        gamma_next = fnp.asarray(_vdot_real(r, z)).astype(dtype)
        p = _add(z, _scale(gamma_next / gamma, p))
        return x, r, gamma_next, p, k + 1

    return while_loop(cond, body, (x0, r0, gamma0, z0, 0))[0]


def cg(A: ArrayLike | Callable, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0,
       maxiter: int | None = None, M: ArrayLike | Callable | None = None) -> tuple[Any, None]:
    """Conjugate gradients for ``A x = b`` with ``A`` Hermitian positive definite (and ``M``, the
    preconditioner, too).  Returns ``(x, None)`` as JAX (no convergence flag).

    Example::

        >>> import fgrad.numpy as fnp
        >>> x, _ = cg(lambda v: fnp.asarray([4.0, 2.0]) * v, fnp.asarray([4.0, 4.0]))
        >>> x
        Array([1., 2.], dtype=float64)
    """
    A, b, x0, maxiter, M, _ = _prepare("cg", A, b, x0, maxiter, M)

    def solve(matvec, rhs):
        return _cg_solve(matvec, rhs, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)

    real = all(not fnp.iscomplexobj(x) for x in tree_leaves(b))
    return custom_linear_solve(A, b, solve, transpose_solve=solve, symmetric=real), None


def _bicgstab_solve(A, b, *, x0, tol, atol, maxiter, M):
    atol2 = fnp.maximum(tol ** 2 * _vdot_real(b, b), atol ** 2)
    r0 = _sub(b, A(x0))
    dtype = np.result_type(*[x.dtype for x in tree_leaves(b)])
    one = fnp.ones((), dtype=dtype)

    def cond(state):
        r, k = state[1], state[-1]
        return (_vdot_real(r, r) > atol2) & (k < maxiter) & (k >= 0)

    def body(state):
        x, r, rhat, alpha, omega, rho, p, q, k = state
        rho_next = _vdot(rhat, r)
        beta = rho_next / rho * alpha / omega
        p = _add(r, _scale(beta, _sub(p, _scale(omega, q))))
        phat = M(p)
        q = A(phat)
        alpha = rho_next / _vdot(rhat, q)
        s = _sub(r, _scale(alpha, q))
        done = _vdot_real(s, s) < atol2       # converged half-way: skip the stabilizing step
        shat = M(s)
        t = A(shat)
        omega = _vdot(t, s) / _vdot(t, t)
        x = tree_map(lambda a, b: fnp.where(done, a, b), _add(x, _scale(alpha, phat)),
                     _add(x, _add(_scale(alpha, phat), _scale(omega, shat))))
        r = tree_map(lambda a, b: fnp.where(done, a, b), s, _sub(s, _scale(omega, t)))
        # breakdown (rho, alpha or omega zero) ends the loop with a negative counter
        k = fnp.where((omega == 0) | (alpha == 0), -11, k + 1)
        k = fnp.where(rho_next == 0, -10, k)
        return (x, r, rhat, alpha.astype(dtype), omega.astype(dtype), rho_next.astype(dtype), p, q, k)

    init = (x0, r0, r0, one, one, one, r0, r0, fnp.asarray(0))
    return while_loop(cond, body, init)[0]


def bicgstab(A: ArrayLike | Callable, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0,
             maxiter: int | None = None, M: ArrayLike | Callable | None = None) -> tuple[Any, None]:
    """BiCGSTAB for ``A x = b`` with a general square ``A``.  Returns ``(x, None)`` as JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x, _ = bicgstab(fnp.asarray([[3.0, 1.0], [0.0, 2.0]]), fnp.asarray([5.0, 4.0]))
        >>> fnp.round(x, 6)
        Array([1., 2.], dtype=float64)
    """
    A, b, x0, maxiter, M, _ = _prepare("bicgstab", A, b, x0, maxiter, M)

    def solve(matvec, rhs):
        return _bicgstab_solve(matvec, rhs, x0=x0, tol=tol, atol=atol, maxiter=maxiter, M=M)

    return custom_linear_solve(A, b, solve, transpose_solve=solve), None


def _norm(x):
    return fnp.sqrt(_vdot_real(x, x))


def _gmres_solve(A, b, *, x0, atol, ptol, restart, maxiter, M):
    """Restarted GMRES on the left-preconditioned system ``M A x = M b``: per cycle, an
    Arnoldi basis of ``restart`` vectors (modified Gram-Schmidt, twice) and the small
    least-squares problem ``min |beta e1 - H y|``."""
    leaves, tree = tree_leaves(b), tree_structure(b)
    shapes = [x.shape for x in leaves]
    sizes = [int(np.prod(s)) for s in shapes]
    dtype = np.result_type(*[x.dtype for x in leaves])

    def flat(t):
        return fnp.concatenate([fnp.ravel(x).astype(dtype) for x in tree_leaves(t)])

    def unflat(v):
        out, off = [], 0
        for shape, n, leaf in zip(shapes, sizes, leaves):
            out.append(fnp.reshape(v[off:off + n], shape).astype(leaf.dtype))
            off += n
        return tree_unflatten(tree, out)

    def op(v):                      # M A on flat vectors
        return flat(M(A(unflat(v))))

    n = sum(sizes)
    eps = float(np.finfo(dtype).eps)

    def residual(x):
        r = flat(M(_sub(b, A(unflat(x)))))
        return r, fnp.sqrt(fnp.sum(fnp.abs(r) ** 2))

    def cycle(x, r, beta):
        basis = fnp.zeros((restart + 1, n), dtype=dtype).at[0].set(r / fnp.where(beta > 0, beta, 1.0))
        hess = fnp.zeros((restart + 1, restart), dtype=dtype)

        def arnoldi_cond(state):
            _, _, k, broke = state
            return (k < restart) & ~broke

        def arnoldi(state):
            basis, hess, k, _ = state
            w = op(basis[k])
            w_norm0 = fnp.sqrt(fnp.sum(fnp.abs(w) ** 2))
            h = fnp.zeros((restart + 1,), dtype=dtype)
            active = (fnp.arange(restart + 1) <= k)[:, None]
            for _ in range(2):      # Gram-Schmidt twice keeps the basis orthogonal
                coef = fnp.where(active[:, 0], fnp.conj(basis) @ w, 0.0)
                w = w - fnp.sum(fnp.where(active, coef[:, None] * basis, 0.0), axis=0)
                h = h + coef
            w_norm = fnp.sqrt(fnp.sum(fnp.abs(w) ** 2))
            broke = w_norm <= eps * w_norm0
            w_norm = fnp.where(broke, 0.0, w_norm)
            basis = basis.at[k + 1].set(fnp.where(broke, 0.0, w / fnp.where(broke, 1.0, w_norm)))
            h = h.at[k + 1].set(w_norm.astype(dtype))
            hess = hess.at[:, k].set(h)
            return basis, hess, k + 1, broke

        basis, hess, _, _ = while_loop(arnoldi_cond, arnoldi, (basis, hess, 0, fnp.asarray(False)))
        rhs = fnp.zeros((restart + 1,), dtype=dtype).at[0].set(beta.astype(dtype))
        y = fnp.linalg.lstsq(hess, rhs)[0]
        x = x + fnp.transpose(basis[:restart]) @ y
        return x

    x0f = flat(x0)
    r0, beta0 = residual(x0f)

    def cond(state):
        _, _, beta, k = state
        return (beta > ptol) & (k < maxiter)

    def body(state):
        x, r, beta, k = state
        x = cycle(x, r, beta)
        r, beta = residual(x)
        return x, r, beta, k + 1

    x, _, _, _ = while_loop(cond, body, (x0f, r0, beta0, 0))
    del atol
    return unflat(x)


def gmres(A: ArrayLike | Callable, b: Any, x0: Any = None, *, tol: float = 1e-5, atol: float = 0.0,
          restart: int = 20, maxiter: int | None = None, M: ArrayLike | Callable | None = None,
          solve_method: str = "batched") -> tuple[Any, Array]:
    """Restarted GMRES for ``A x = b`` with a general square ``A``: up to ``maxiter`` cycles of
    ``restart`` Krylov vectors each.  Returns ``(x, info)``, ``info`` -1 when ``x`` is NaN
    and 0 otherwise (JAX).  ``solve_method`` ('batched' or 'incremental') is accepted as in
    JAX; both solve the small least-squares problem of a cycle at once.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x, info = gmres(fnp.asarray([[3.0, 1.0], [0.0, 2.0]]), fnp.asarray([5.0, 4.0]))
        >>> fnp.round(x, 6), int(info)
        (Array([1., 2.], dtype=float64), 0)
    """
    if solve_method not in ("batched", "incremental"):
        raise ValueError(f"fgrad.scipy.sparse.linalg.gmres: invalid solve_method {solve_method!r}, must be "
                         "either 'incremental' or 'batched'")
    A, b, x0, maxiter, M, size = _prepare("gmres", A, b, x0, maxiter, M)
    restart = min(restart, size)
    b_norm = _norm(b)
    atol = fnp.maximum(tol * b_norm, atol)
    mb_norm = _norm(M(b))
    # the stopping test is on the preconditioned residual, scaled as JAX scales it
    ptol = mb_norm * fnp.minimum(1.0, atol / fnp.where(b_norm > 0, b_norm, 1.0))

    def solve(matvec, rhs):
        return _gmres_solve(matvec, rhs, x0=x0, atol=atol, ptol=ptol, restart=restart, maxiter=maxiter, M=M)

    x = custom_linear_solve(A, b, solve, transpose_solve=solve)
    info = fnp.where(fnp.isnan(_norm(x)), -1, 0)
    return x, info


__all__ = ["cg", "bicgstab", "gmres"]
