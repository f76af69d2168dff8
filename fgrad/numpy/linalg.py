"""`fgrad.numpy.linalg`: NumPy's linear-algebra API as composites of the linalg primitives
(`fgrad.ops.linalg`: cholesky, triangular_solve, solve, slogdet, eigh, svd, qr).

Functions act on the last two axes and broadcast leading axes like NumPy.  Integer inputs
are promoted to float64.  Following JAX, `cholesky` and `eigh` symmetrize their input
(``(a + a.T) / 2``) so that derivatives are symmetric, and failed factorizations give NaN
instead of raising.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> a = fnp.asarray([[2.0, 1.0], [1.0, 3.0]])
    >>> fgrad.grad(lambda a: fnp.linalg.slogdet(a).logabsdet)(a)  # inv(a).T
    Array([[ 0.6, -0.2],
           [-0.2,  0.4]], dtype=float64)
"""

from __future__ import annotations

from typing import Any

from ..typing import Array, ArrayLike, Axis, Complex, DTypeLike, Float, Inexact, Shaped
from collections.abc import Sequence

import builtins as _builtins
import functools as _functools
from collections import namedtuple as _namedtuple

import numpy as np
from ..core.inexact import to_inexact_dtype as _to_inexact_dtype
from ..core.narrow_floats import finfo as _narrow_finfo
from ..core.narrow_floats import dtype_kind as _dtype_kind

from ..core.array import Array as _Array
from ..core.array import get_aval as _get_aval
from ..core.constants import constant_like as _constant_like
from ..ops import elementwise as _ew
from ..ops import linalg as _L
from ..ops import eig as _eig
from ..ops.reductions import reduce_max as _rmax
from ..ops.reductions import reduce_min as _rmin
from ..ops.reductions import reduce_prod as _rprod
from ..ops.reductions import reduce_sum as _rsum
from ..ops.shape import broadcast_to as _broadcast_to
from ..ops.shape import reshape as _reshape
from ..ops.shape import transpose as _transpose
from ..ops._util import normalize_axis as _normalize_axis
from ._products import cross, matmul, outer, tensordot, vecdot
from . import _householder
from ..transforms.custom import custom_jvp as _custom_jvp
from ._creation import asarray as _asarray
from ._indexing import diagonal as _diagonal
from ._indexing import trace as _trace

__all__ = [
    "LinAlgError", "inv", "solve", "det", "slogdet", "cholesky", "eig", "eigvals", "eigh", "eigvalsh", "svd",
    "svdvals",
    "qr", "norm", "vector_norm", "matrix_norm", "matrix_power", "pinv", "multi_dot", "matrix_rank",
    "lstsq", "cond", "trace", "diagonal", "matmul", "tensordot", "vecdot", "outer", "cross",
    "matrix_transpose", "tensorsolve", "tensorinv",
    "SlogdetResult", "EigResult", "EighResult", "SVDResult", "QRResult",
]

LinAlgError = np.linalg.LinAlgError
SlogdetResult = _namedtuple("SlogdetResult", ["sign", "logabsdet"])
EighResult = _namedtuple("EighResult", ["eigenvalues", "eigenvectors"])
EigResult = _namedtuple("EigResult", ["eigenvalues", "eigenvectors"])
SVDResult = _namedtuple("SVDResult", ["U", "S", "Vh"])
QRResult = _namedtuple("QRResult", ["Q", "R"])
SlogdetResult.__doc__ = """`slogdet`'s result: ``(sign, logabsdet)``, as ``jax.numpy.linalg.SlogdetResult``.

Example::

    >>> import fgrad.numpy as jnp
    >>> jnp.linalg.slogdet(jnp.array([[2.0, 0.0], [0.0, 3.0]]))
    SlogdetResult(sign=Array(1., dtype=float64), logabsdet=Array(1.79175947, dtype=float64))
"""
EighResult.__doc__ = """`eigh`'s result: ``(eigenvalues, eigenvectors)``, as ``jax.numpy.linalg.EighResult``.

Example::

    >>> import fgrad.numpy as jnp
    >>> jnp.linalg.eigh(jnp.array([[2.0, 0.0], [0.0, 3.0]]))
    EighResult(eigenvalues=Array([2., 3.], dtype=float64), eigenvectors=Array([[1., 0.],
           [0., 1.]], dtype=float64))
"""
EigResult.__doc__ = """`eig`'s result: ``(eigenvalues, eigenvectors)``, as ``jax.numpy.linalg.EigResult``.

Example::

    >>> import fgrad.numpy as jnp
    >>> jnp.linalg.eig(jnp.array([[2.0, 0.0], [0.0, 3.0]])).eigenvalues
    Array([2.+0.j, 3.+0.j], dtype=complex128)
"""
SVDResult.__doc__ = """`svd`'s result: ``(U, S, Vh)``, as ``jax.numpy.linalg.SVDResult``.

Example::

    >>> import fgrad.numpy as jnp
    >>> jnp.linalg.svd(jnp.array([[3.0, 0.0], [0.0, 2.0]])).S
    Array([3., 2.], dtype=float64)
"""
QRResult.__doc__ = """`qr`'s result: ``(Q, R)``, as ``jax.numpy.linalg.QRResult``.

Example::

    >>> import fgrad.numpy as jnp
    >>> jnp.linalg.qr(jnp.array([[2.0, 0.0], [0.0, 3.0]])).R
    Array([[2., 0.],
           [0., 3.]], dtype=float64)
"""
LstsqResult = _namedtuple("LstsqResult", ["x", "residuals", "rank", "s"])


def _arr(x):
    if isinstance(x, _Array):
        return x
    return _asarray(x)


def _shape(x):
    return _get_aval(x).shape


def _dtype(x):
    return _get_aval(x).dtype


def _float(x, name):
    """As an inexact array: bools and integers in JAX's inexact dtype (`core.inexact`: float32
    up to 32 bits, float64 for 64-bit integers); float16 in float32 (LAPACK has no float16;
    `_float16_result` rounds the results of the functions JAX allows it in)."""
    x = _arr(x)
    dt = _dtype(x)
    if _dtype_kind(dt) in "biu":
        return _ew.convert_element_type(x, _to_inexact_dtype(dt))
    if dt == np.float16:
        return _ew.convert_element_type(x, np.float32)
    if _dtype_kind(dt) not in "fc":
        raise TypeError(f"linalg.{name}: unsupported dtype {dt}")
    return x


def _float16_result(fn):
    """``fn`` whose float16 input gives float16 results (computed in float32, rounded once),
    as JAX's ``det`` and norms of float16 are float16."""

    @_functools.wraps(fn)
    def wrapped(x, *args, **kwargs):
        out = fn(x, *args, **kwargs)
        if _dtype(_arr(x)) == np.float16:
            return _ew.convert_element_type(out, np.float16)
        return out

    return wrapped


def _square(a, name):
    s = _shape(a)
    if len(s) < 2:
        raise LinAlgError(
            f"linalg.{name}: {len(s)}-dimensional array given. Array must be at least two-dimensional"
        )
    if s[-1] != s[-2]:
        raise LinAlgError(f"linalg.{name}: last 2 dimensions of the array must be square, got shape {s}")


def _matrix(a, name):
    if len(_shape(a)) < 2:
        raise LinAlgError(
            f"linalg.{name}: {len(_shape(a))}-dimensional array given. Array must be at least "
            "two-dimensional"
        )


def _mT(x):
    nd = len(_shape(x))
    return _transpose(x, tuple(range(nd - 2)) + (nd - 1, nd - 2))


def _hT(x):
    x = _mT(x)
    return _ew.conj(x) if _dtype(x).kind == "c" else x


def _common(a, b):
    dt = np.result_type(_dtype(a), _dtype(b))
    if _dtype(a) != dt:
        a = _ew.convert_element_type(a, dt)
    if _dtype(b) != dt:
        b = _ew.convert_element_type(b, dt)
    return a, b


def matrix_transpose(x: Shaped[ArrayLike, "*batch m n"]) -> Shaped[Array, "*batch n m"]:
    return _mT(_arr(x))


# ---------------------------------------------------------------------------------------
# solves, inverse, determinants


def solve(a: ArrayLike, b: ArrayLike) -> Array:
    """Solve ``a @ x = b``.  ``b`` is a vector (M,) or a stack of matrices (..., M, K)
    (NumPy 2 rule); leading axes broadcast."""
    a, b = _float(a, "solve"), _float(b, "solve")
    _square(a, "solve")
    a, b = _common(a, b)
    sa, sb = _shape(a), _shape(b)
    vec = len(sb) == 1
    if vec:
        b = _reshape(b, sb + (1,))
        sb = _shape(b)
    if sb[-2] != sa[-1]:
        raise ValueError(
            f"linalg.solve: a of shape {sa} and b of shape {sb[:-1] if vec else sb} are incompatible "
            f"(b needs {sa[-1]} rows)"
        )
    lead = tuple(np.broadcast_shapes(sa[:-2], sb[:-2]))
    if sa[:-2] != lead:
        a = _broadcast_to(a, lead + sa[-2:])
    if sb[:-2] != lead:
        b = _broadcast_to(b, lead + sb[-2:])
    x = _L.solve(a, b)
    return _reshape(x, _shape(x)[:-1]) if vec else x


def _eye_like(a):
    s = _shape(a)
    return _broadcast_to(np.eye(s[-1], dtype=_dtype(a)), s)


def inv(a: Shaped[ArrayLike, "*batch n n"]) -> Inexact[Array, "*batch n n"]:
    """Inverse of (a stack of) square matrices."""
    a = _float(a, "inv")
    _square(a, "inv")
    return _L.solve(a, _eye_like(a))


def slogdet(a: ArrayLike, *, method: str | None = None) -> tuple[Array, ...]:
    """``(sign, logabsdet)`` of the determinant (a named tuple, as in NumPy 2).  ``method``
    (JAX's): ``None``/``"lu"`` (LU with partial pivoting) or ``"qr"`` (the diagonal of ``R``;
    the sign of ``det(Q)`` from its LU).

    Example::

        >>> import fgrad.numpy as fnp
        >>> slogdet(fnp.asarray([[1.0, 2.0], [3.0, 4.0]]), method="qr")
        SlogdetResult(sign=Array(-1., dtype=float64), logabsdet=Array(0.69314718, dtype=float64))
    """
    if method not in (None, "lu", "qr"):
        raise ValueError(f"Unknown slogdet method {method!r}. Supported methods are 'lu' (`None`), "
                         "and 'qr'.")
    a = _float(a, "slogdet")
    _square(a, "slogdet")
    if method == "qr":
        q, r = qr(a)
        d = diagonal(r)
        magnitude = _ew.abs_(d)
        is_zero = _ew.eq(magnitude, _constant_like(np.zeros((), magnitude.dtype), magnitude))
        one = _constant_like(np.ones((), magnitude.dtype), magnitude)
        safe = _ew.convert_element_type(_ew.select(is_zero, one, magnitude), d.dtype)
        unit = _ew.select(is_zero, _constant_like(np.zeros((), d.dtype), d), _ew.div(d, safe))
        sign_q, _ = _L.slogdet(q)  # det(Q) = +-1 (a unit complex number for complex input)
        sign = _ew.mul(sign_q, _rprod(unit, (d.ndim - 1,)))
        return SlogdetResult(sign, _rsum(_ew.log(magnitude), (d.ndim - 1,)))
    sign, logdet = _L.slogdet(a)
    return SlogdetResult(sign, logdet)


def _entry(a, i, j):
    return a[..., i, j]


def _det_small(a, n):
    """The Leibniz formula for n <= 3, as JAX's ``_det_2x2``/``_det_3x3``
    (jax/_src/numpy/linalg.py): a polynomial, so every derivative is finite, singular or not."""
    e = [[_entry(a, i, j) for j in range(n)] for i in range(n)]
    m = _ew.mul
    if n == 1:
        return e[0][0]
    if n == 2:
        return _ew.sub(m(e[0][0], e[1][1]), m(e[0][1], e[1][0]))
    pos = _ew.add(_ew.add(m(m(e[0][0], e[1][1]), e[2][2]), m(m(e[0][1], e[1][2]), e[2][0])),
                  m(m(e[0][2], e[1][0]), e[2][1]))
    neg = _ew.add(_ew.add(m(m(e[0][2], e[1][1]), e[2][0]), m(m(e[0][0], e[1][2]), e[2][1])),
                  m(m(e[0][1], e[1][0]), e[2][2]))
    return _ew.sub(pos, neg)


def _adjugate(a):
    """``adj(a)`` (= ``det(a) inv(a)`` when invertible) from the SVD ``a = u diag(s) vh``:
    ``adj(a) = det(vh) det(u) vh^H diag(prod_{j != i} s_j) u^H`` -- exact at any rank (rank n-1:
    rank one; lower: zero)."""
    u, s, vh = _L.svd(a, full_matrices=False, compute_uv=True)
    n = _shape(s)[-1]
    lead = _shape(s)[:-1]
    rows = _broadcast_to(_reshape(s, lead + (1, n)), lead + (n, n))
    others = _rprod(_ew.select(np.eye(n, dtype=bool), 1.0, rows), (len(lead) + 1,))
    if _dtype(others) != _dtype(a):
        others = _ew.convert_element_type(others, _dtype(a))
    phase = _ew.mul(_L.slogdet(u)[0], _L.slogdet(vh)[0])  # |det| = 1 for unitary factors
    core = matmul(_ew.mul(_hT(vh), _reshape(others, lead + (1, n))), _hT(u))
    return _ew.mul(_reshape(phase, lead + (1, 1)), core)


def _make_det():
    @_custom_jvp
    def _det(a):
        sign, logdet = _L.slogdet(a)
        return _ew.mul(sign, _ew.exp(logdet))

    def _det_jvp(primals, tangents):
        # JAX's _det_jvp (jax/_src/numpy/linalg.py): d det = tr(adj(a) da), finite for singular
        # a (JAX gets adj(a) from an LU "cofactor solve", here from the SVD)
        (a,), (da,) = primals, tangents
        nd = len(_shape(a))
        return _det(a), _rsum(_ew.mul(_mT(_adjugate(a)), da), (nd - 2, nd - 1))

    _det.defjvp(_det_jvp)
    return _det


_DET = None


@_float16_result
def det(a: Shaped[ArrayLike, "*batch n n"]) -> Inexact[Array, "*batch"]:
    """Determinant.  As in JAX, n <= 3 uses the Leibniz formula and larger matrices the LU
    factorization, and the derivative ``adj(a).T`` is finite for singular matrices.

    >>> import fgrad, fgrad.numpy as fnp
    >>> fgrad.grad(fnp.linalg.det)(fnp.array([[1.0, 2.0], [2.0, 4.0]]))
    Array([[ 4., -2.],
           [-2.,  1.]], dtype=float64)
    """
    global _DET
    a = _float(a, "det")
    _square(a, "det")
    n = _shape(a)[-1]
    if 1 <= n <= 3:
        return _det_small(a, n)
    if n == 0:
        sign, logdet = slogdet(a)
        return _ew.mul(sign, _ew.exp(logdet))
    if _DET is None:
        _DET = _make_det()
    return _DET(a)


def matrix_power(a: Shaped[ArrayLike, "*batch n n"], n: int) -> Shaped[Array, "*batch n n"]:
    """``a`` to the integer power ``n`` (negative: powers of the inverse)."""
    a = _arr(a)
    _square(a, "matrix_power")
    if not isinstance(n, (int, np.integer)):
        raise TypeError("linalg.matrix_power: exponent must be an integer")
    n = int(n)
    if n == 0:
        return _broadcast_to(_constant_like(np.eye(_shape(a)[-1], dtype=_dtype(a)), a), _shape(a))
    if n < 0:
        a, n = inv(a), -n
    result, base = None, a
    while n:
        if n & 1:
            result = base if result is None else matmul(result, base)
        n >>= 1
        if n:
            base = matmul(base, base)
    return result


def tensorsolve(a: ArrayLike, b: ArrayLike, axes: Any = None) -> Array:
    """Solve ``tensordot(a, x, b.ndim) = b`` for ``x``."""
    a, b = _float(a, "tensorsolve"), _float(b, "tensorsolve")
    nd = len(_shape(a))
    if axes is not None:
        axes = [_normalize_axis(int(x), nd, "tensorsolve") for x in axes]
        order = [i for i in range(nd) if i not in axes] + axes
        a = _transpose(a, order)
    sa, sb = _shape(a), _shape(b)
    xs = sa[len(sb):]
    m = int(np.prod(sb, dtype=np.int64))
    x = solve(_reshape(a, (m, int(np.prod(xs, dtype=np.int64)))), _reshape(b, (m,)))
    return _reshape(x, xs)


def tensorinv(a: ArrayLike, ind: int = 2) -> Array:
    a = _float(a, "tensorinv")
    s = _shape(a)
    out_shape = s[ind:] + s[:ind]
    m = int(np.prod(s[:ind], dtype=np.int64))
    return _reshape(inv(_reshape(a, (m, -1))), out_shape)


# ---------------------------------------------------------------------------------------
# factorizations


def cholesky(a: Shaped[ArrayLike, "*batch n n"], *, upper: bool = False,
             symmetrize_input: bool = True) -> Inexact[Array, "*batch n n"]:
    """Cholesky factor ``L`` (``a = L @ _L.T``; ``upper=True``: ``U = _L.T``).  NaN where
    ``a`` is not positive definite."""
    a = _float(a, "cholesky")
    _square(a, "cholesky")
    if symmetrize_input:
        a = _ew.mul(_ew.add(a, _hT(a)), 0.5)
    lo = _L.cholesky(a)
    return _hT(lo) if upper else lo


def eigh(a: ArrayLike, UPLO: str = "L", symmetrize_input: bool = True) -> tuple[Array, ...]:
    """Eigenvalues (ascending) and orthonormal eigenvectors (columns) of a symmetric matrix.
    Returns ``EighResult(eigenvalues, eigenvectors)``."""
    a = _float(a, "eigh")
    _square(a, "eigh")
    if UPLO not in ("L", "U"):
        raise ValueError(f"linalg.eigh: UPLO must be 'L' or 'U', got {UPLO!r}")
    if symmetrize_input:
        a = _ew.mul(_ew.add(a, _hT(a)), 0.5)
    elif UPLO == "U":
        a = _hT(a)
    w, v = _L.eigh(a)
    return EighResult(w, v)


def eig(a: ArrayLike) -> tuple[Array, ...]:
    """Eigenvalues and unit-norm right eigenvectors (columns) of a general square matrix:
    ``EigResult(eigenvalues, eigenvectors)``, both complex (as JAX; NumPy returns real arrays
    when all eigenvalues are real), computed by LAPACK on the host (a GPU matrix is copied).
    Differentiable (eigenvalues, for distinct eigenvalues; derivatives of the eigenvectors
    raise NotImplementedError, as in JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.linalg.eig(fnp.asarray([[2.0, 1.0], [0.0, 3.0]])).eigenvalues
        Array([2.+0.j, 3.+0.j], dtype=complex128)
    """
    a = _float(a, "eig")
    _square(a, "eig")
    w, v = _eig.eig(a)
    return EigResult(w, v)


def eigvals(a: Shaped[ArrayLike, "*batch n n"]) -> Complex[Array, "*batch n"]:
    """Eigenvalues of a general square matrix (complex; computed by LAPACK on the host).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.linalg.eigvals(fnp.asarray([[0.0, -1.0], [1.0, 0.0]]))
        Array([0.+1.j, 0.-1.j], dtype=complex128)
    """
    a = _float(a, "eigvals")
    _square(a, "eigvals")
    return _eig.eig(a, vectors=False)[0]


def eigvalsh(a: Shaped[ArrayLike, "*batch n n"], UPLO: str = "L",
             symmetrize_input: bool = True) -> Float[Array, "*batch n"]:
    return eigh(a, UPLO, symmetrize_input).eigenvalues


def svd(a: ArrayLike, full_matrices: bool = True, compute_uv: bool = True,
        hermitian: bool = False) -> Array | tuple[Array, ...]:
    """Singular value decomposition ``a = U @ diag(S) @ Vh`` (``S`` descending).  With
    ``compute_uv=False`` returns ``S`` only.  Derivatives of ``U``/``Vh`` need distinct
    singular values; with ``full_matrices=True`` the extra columns of ``U`` (rows of ``Vh``)
    are only defined up to a rotation of the complement, and their tangent is one valid
    choice (orthogonality is preserved)."""
    a = _float(a, "svd")
    _matrix(a, "svd")
    if not compute_uv:
        return _L.svd(a, full_matrices=False, compute_uv=False)[0]
    u, s, vh = _L.svd(a, full_matrices=full_matrices, compute_uv=True)
    return SVDResult(u, s, vh)


def svdvals(x: ArrayLike) -> Array:
    return svd(x, compute_uv=False)


def qr(a: ArrayLike, mode: str = "reduced") -> Array | tuple[Array, ...]:
    """QR decomposition; ``mode`` is 'reduced' (or JAX's 'full', the same), 'complete', 'r'
    or 'raw': LAPACK's Householder form ``(h, taus)``, ``h`` (..., n, m) holding ``R`` and the
    reflectors transposed, as NumPy's and JAX's (`fgrad.lax.linalg.ormqr` /
    ``householder_product`` take ``h.mT`` and ``taus``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> h, taus = fnp.linalg.qr(fnp.asarray([[3.0], [4.0]]), mode="raw")
        >>> h, taus
        (Array([[-5. ,  0.5]], dtype=float64), Array([1.6], dtype=float64))
    """
    a = _float(a, "qr")
    _matrix(a, "qr")
    if mode not in ("reduced", "full", "complete", "r", "raw"):
        raise ValueError(f"linalg.qr: unsupported mode {mode!r} (use 'reduced', 'complete', 'r' or 'raw')")
    if mode == "raw":
        h, taus = _householder.geqrf(a)
        return QRResult(_mT(h), taus)
    q, r = _L.qr(a, full_matrices=(mode == "complete"))
    return r if mode == "r" else QRResult(q, r)


# ---------------------------------------------------------------------------------------
# norms


def _abs2(x):
    return _ew.real(_ew.mul(x, _ew.conj(x))) if _dtype(x).kind == "c" else _ew.mul(x, x)


def _keep(r, nd, axes, keepdims):
    if not keepdims:
        return r
    s = list(_shape(r))
    for ax in sorted(axes):
        s.insert(ax, 1)
    return _reshape(r, tuple(s))


def _vector_norm(x, ord, axes):
    if ord is None or ord == 2:
        return _ew.sqrt(_rsum(_abs2(x), axes))
    if isinstance(ord, str):
        raise ValueError(f"linalg.norm: invalid norm order {ord!r} for vectors")
    ax = _ew.abs_(x)
    if ord == np.inf:
        return _max0(ax, axes)
    if ord == -np.inf:
        return _rmin(ax, axes)
    if ord == 0:
        return _rsum(_ew.convert_element_type(_ew.ne_p.bind(x, 0), _dtype(ax)), axes)
    if ord == 1:
        return _rsum(ax, axes)
    p = float(ord)
    return _ew.pow_(_rsum(_ew.pow_(ax, p), axes), 1.0 / p)


def _max0(x, axes):
    """``max(x, axes)`` of nonnegative ``x`` as JAX's norms compute it, ``amax(..., initial=0)``
    (jax/_src/numpy/linalg.py): the same value, but at ``x = 0`` the tie with the initial 0
    halves the gradient, and fgrad matches that."""
    return _ew.maximum(_rmax(x, axes), 0.0)


def _matrix_norm(x, ord, axes):
    r, c = axes
    if ord is None or ord == "fro":
        return _ew.sqrt(_rsum(_abs2(x), axes))
    if ord in ("nuc", 2, -2):
        nd = len(_shape(x))
        xm = _transpose(x, tuple(i for i in range(nd) if i not in (r, c)) + (r, c))
        s = _L.svd(xm, full_matrices=False, compute_uv=False)[0]
        last = (len(_shape(s)) - 1,)
        if ord == "nuc":
            return _rsum(s, last)
        return _max0(s, last) if ord == 2 else _rmin(s, last)
    if isinstance(ord, str):
        raise ValueError(f"linalg.norm: invalid norm order {ord!r} for matrices")
    ax = _ew.abs_(x)
    if ord in (1, -1):  # max/min absolute column sum
        col = _rsum(ax, (r,))
        c2 = c - (c > r)
        return _max0(col, (c2,)) if ord == 1 else _rmin(col, (c2,))
    if ord in (np.inf, -np.inf):  # max/min absolute row sum
        row = _rsum(ax, (c,))
        r2 = r - (r > c)
        return _max0(row, (r2,)) if ord == np.inf else _rmin(row, (r2,))
    raise ValueError(f"linalg.norm: invalid norm order {ord!r} for matrices")


@_float16_result
def norm(x: ArrayLike, ord: int | float | str | None = None, axis: Axis = None,
         keepdims: bool = False) -> Array:
    """Vector or matrix norm, as in NumPy.  Vectors: ord None/2, 1, inf, -inf, 0, any p.
    Matrices (two axes): None/'fro', 'nuc', 1, -1, 2, -2, inf, -inf.  As in JAX, the
    gradient of the 2-norm at 0 is NaN."""
    x = _float(x, "norm")
    nd = len(_shape(x))
    if axis is None:
        if ord is None:
            r = _ew.sqrt(_rsum(_abs2(x), tuple(range(nd))))
            return _keep(r, nd, tuple(range(nd)), keepdims)
        if nd not in (1, 2):
            raise ValueError(
                "linalg.norm: improper number of dimensions to norm (give axis for ord with ndim > 2)"
            )
        axes = tuple(range(nd))
    else:
        axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
        axes = tuple(_normalize_axis(int(a), nd, "norm") for a in axes)
        if len(set(axes)) != len(axes):
            raise ValueError(f"linalg.norm: duplicate axes given: {axis}")
    if len(axes) == 1:
        r = _vector_norm(x, ord, axes)
    elif len(axes) == 2:
        r = _matrix_norm(x, ord, axes)
    else:
        raise ValueError("linalg.norm: improper number of dimensions to norm")
    return _keep(r, nd, axes, keepdims)


@_float16_result
def vector_norm(x: ArrayLike, /, *, axis: Axis = None, keepdims: bool = False,
                ord: int | float | str = 2) -> Array:
    x = _arr(x)
    if _dtype_kind(_dtype(x)) in "biu":  # JAX sums the squares as the default int, then takes
        x = _ew.convert_element_type(x, _to_inexact_dtype(np.int64))  # the root: float64
    x = _float(x, "vector_norm")
    nd = len(_shape(x))
    if axis is None:
        r = _vector_norm(_reshape(x, (_get_aval(x).size,)), ord, (0,))
        return _reshape(r, (1,) * nd) if keepdims else r
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    axes = tuple(_normalize_axis(int(a), nd, "vector_norm") for a in axes)
    return _keep(_vector_norm(x, ord, axes), nd, axes, keepdims)


@_float16_result
def matrix_norm(x: ArrayLike, /, *, keepdims: bool = False, ord: int | float | str = "fro") -> Array:
    x = _float(x, "matrix_norm")
    nd = len(_shape(x))
    return norm(x, ord=ord, axis=(nd - 2, nd - 1), keepdims=keepdims)


def cond(x: ArrayLike, p: ArrayLike | None = None) -> Array:
    """Condition number (2-norm by default: ratio of extreme singular values)."""
    x = _float(x, "cond")
    if p is None or p in (2, -2):
        s = svdvals(x)
        last = (len(_shape(s)) - 1,)
        big, small = _rmax(s, last), _rmin(s, last)
        return _ew.div(small, big) if p == -2 else _ew.div(big, small)
    return _ew.mul(norm(x, p, axis=(-2, -1)), norm(inv(x), p, axis=(-2, -1)))


# ---------------------------------------------------------------------------------------
# pseudo-inverse, rank, least squares, products


def _pinv_fwd(a, rtol):
    u, s, vh = _L.svd(a, full_matrices=False, compute_uv=True)
    smax = _rmax(s, (len(_shape(s)) - 1,))
    cutoff = _ew.mul(_reshape(smax, _shape(smax) + (1,)), rtol)
    keep = _ew.gt(s, cutoff)
    sinv = _ew.select(keep, _ew.div(1.0, _ew.select(keep, s, _ew.add(_ew.mul(s, 0.0), 1.0))), _ew.mul(s, 0.0))
    # pinv = V diag(sinv) U^H with V = vh^H (the conjugate transpose: complex input)
    vs = _ew.mul(_hT(vh), _reshape(sinv, _shape(sinv)[:-1] + (1, _shape(sinv)[-1])))
    return matmul(vs, _hT(u))


def _make_pinv():
    @_custom_jvp
    def _pinv(a, rtol):
        return _pinv_fwd(a, rtol)

    def _pinv_jvp(primals, tangents):
        # Golub & Pereyra: d(A+) = -A+ dA A+ + A+ A+^T dA^T (I - A A+) + (I - A+ A) dA^T A+^T A+
        a, rtol = primals
        da = tangents[0]
        p = _pinv(a, rtol)
        m, n = _shape(a)[-2:]
        pt, dat = _hT(p), _hT(da)
        t1 = _ew.neg(matmul(p, matmul(da, p)))
        left = _ew.sub(np.eye(m, dtype=_dtype(a)), matmul(a, p))
        right = _ew.sub(np.eye(n, dtype=_dtype(a)), matmul(p, a))
        t2 = matmul(matmul(p, pt), matmul(dat, left))
        t3 = matmul(right, matmul(dat, matmul(pt, p)))
        return p, _ew.add(_ew.add(t1, t2), t3)

    _pinv.defjvp(_pinv_jvp)
    return _pinv


_PINV = None


def pinv(a: ArrayLike, rcond: ArrayLike | None = None, hermitian: bool = False, *,
         rtol: ArrayLike | None = None) -> Array:
    """Moore-Penrose pseudo-inverse via the SVD (singular values below ``rtol * max(s)`` are
    dropped).  Differentiable where the rank is locally constant."""
    global _PINV
    a = _float(a, "pinv")
    _matrix(a, "pinv")
    if rcond is not None and rtol is not None:
        raise ValueError("linalg.pinv: give rcond or rtol, not both")
    if rtol is None:
        rtol = rcond
    if rtol is None:
        m, n = _shape(a)[-2:]
        rtol = float(_builtins.max(m, n) * _narrow_finfo(_dtype(a)).eps)
    if _PINV is None:
        _PINV = _make_pinv()
    rtol = _ew.convert_element_type(_arr(rtol), _narrow_finfo(_dtype(a)).dtype)
    if len(_shape(rtol)):  # one tolerance per matrix of the stack: align with s's last axis
        rtol = _reshape(rtol, _shape(rtol) + (1,))
    return _PINV(a, rtol)


def matrix_rank(A: ArrayLike, tol: ArrayLike | None = None, hermitian: bool = False, *,
                rtol: ArrayLike | None = None) -> Array:
    A = _float(A, "matrix_rank")
    s = svdvals(A) if len(_shape(A)) >= 2 else _ew.abs_(A)
    if len(_shape(A)) < 2:
        return _rsum(_ew.convert_element_type(_ew.ne_p.bind(s, 0), np.int64), (0,))
    last = (len(_shape(s)) - 1,)
    smax = _rmax(s, last)
    if tol is None:
        m, n = _shape(A)[-2:]
        r = rtol if rtol is not None else _builtins.max(m, n) * _narrow_finfo(_dtype(A)).eps
        tol = _ew.mul(smax, r)
    tol = _reshape(_arr(tol), _shape(_arr(tol)) + (1,)) if len(_shape(_arr(tol))) else tol
    return _rsum(_ew.convert_element_type(_ew.gt(s, tol), np.int64), last)


def lstsq(a: ArrayLike, b: ArrayLike, rcond: ArrayLike | None = None, *,
          numpy_resid: bool = False) -> tuple[Array, ...]:
    """Least-squares solution of ``a @ x = b``: ``(x, residuals, rank, s)``, as JAX.

    ``residuals`` holds the squared 2-norms of the columns of ``b - a @ x`` (shape ``(K,)``,
    ``(1,)`` for a vector ``b``), always: the shape does not depend on the rank, so the
    function works the same under `jit` and `vmap`.  ``numpy_resid=True`` gives NumPy's
    residuals instead (empty unless ``a`` is tall and of full rank), which needs a concrete
    rank (a ConcretizationTypeError under a transform, as in JAX)."""
    a, b = _float(a, "lstsq"), _float(b, "lstsq")
    a, b = _common(a, b)
    if len(_shape(a)) != 2:
        raise LinAlgError("linalg.lstsq: a must be two-dimensional")
    m, n = _shape(a)
    vec = len(_shape(b)) == 1
    if _shape(b)[0] != m:
        raise LinAlgError(f"linalg.lstsq: incompatible dimensions {_shape(a)} and {_shape(b)}")
    eps = _narrow_finfo(_dtype(a)).eps
    rtol = _builtins.max(m, n) * eps if rcond is None or rcond < 0 else rcond
    s = svdvals(a)
    x = matmul(pinv(a, rtol=rtol), b)
    rank = matrix_rank(a, rtol=rtol)
    resid = _rsum(_abs2(_ew.sub(b, matmul(a, x))), (0,))
    if vec:
        resid = _reshape(resid, (1,))
    if numpy_resid:
        if not (m > n and int(rank) == n):  # int(): a concrete rank, as NumPy needs
            resid = _arr(np.zeros((0,), dtype=_narrow_finfo(_dtype(a)).dtype))
    return LstsqResult(x, resid, rank, s)


def multi_dot(arrays: ArrayLike | Sequence[ArrayLike]) -> Array:
    """``A @ B @ C @ ...`` in the cheapest association order (first/last may be 1-D)."""
    arrays = [_arr(x) for x in arrays]
    if len(arrays) < 2:
        raise ValueError("linalg.multi_dot: expecting at least two arrays")
    first_vec = len(_shape(arrays[0])) == 1
    last_vec = len(_shape(arrays[-1])) == 1
    if first_vec:
        arrays[0] = _reshape(arrays[0], (1,) + _shape(arrays[0]))
    if last_vec:
        arrays[-1] = _reshape(arrays[-1], _shape(arrays[-1]) + (1,))
    for x in arrays:
        if len(_shape(x)) != 2:
            raise ValueError(f"linalg.multi_dot: arrays must be 2-D (first/last may be 1-D), got {_shape(x)}")
    dims = [_shape(arrays[0])[0]] + [_shape(x)[1] for x in arrays]
    k = len(arrays)
    cost = [[0] * k for _ in range(k)]
    split = [[0] * k for _ in range(k)]
    for length in range(1, k):
        for i in range(k - length):
            j = i + length
            cost[i][j] = None
            for s in range(i, j):
                c = cost[i][s] + cost[s + 1][j] + dims[i] * dims[s + 1] * dims[j + 1]
                if cost[i][j] is None or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, s

    def build(i, j):
        if i == j:
            return arrays[i]
        return matmul(build(i, split[i][j]), build(split[i][j] + 1, j))

    out = build(0, k - 1)
    s = _shape(out)
    if first_vec and last_vec:
        return _reshape(out, ())
    if first_vec:
        return _reshape(out, s[1:])
    if last_vec:
        return _reshape(out, s[:-1])
    return out


def trace(x: Shaped[ArrayLike, "*batch m n"], /, *, offset: int = 0,
          dtype: DTypeLike | None = None) -> Shaped[Array, "*batch"]:
    return _trace(x, offset=offset, axis1=-2, axis2=-1, dtype=dtype)


def diagonal(x: ArrayLike, /, *, offset: int = 0) -> Array:
    return _diagonal(x, offset=offset, axis1=-2, axis2=-1)
