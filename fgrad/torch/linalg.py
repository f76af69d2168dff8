"""``torch.linalg``: linear algebra with PyTorch names, each a recorded node whose fgrad
definition is the ``fgrad.numpy.linalg`` composite."""

from __future__ import annotations

import math

import numpy as np

import fgrad.torch._conventions as _conv
import fgrad.torch._errors as _errors
import fgrad.torch._device as _dev
from ._errors import LinAlgError  # noqa: F401  (torch.linalg.LinAlgError)
import fgrad.numpy as _fnp
from fgrad import vmap as _vmap
import fgrad.torch._dtypes as D
from ._ops import return_type as _return_type, vector_norm  # noqa: F401
from ._dispatch import apply_op as _apply_op, write_out as _write_out
from ._ops_linalg import _float_in, _square, _svd, det, inverse, matrix_power, slogdet  # noqa: F401
from ._ops_linalg import _linalg_cross as cross  # noqa: F401
from ._ops_linalg import matmul  # noqa: F401
from ._tensor import Tensor
from ._ops_shape import unsqueeze as _unsqueeze
from ._dispatch import result_tensor as _result_tensor
from ._ops_shape import diagonal as _dg
from . import _phase_check
from ._refused_derivatives import failing_backward as _failing_backward, needs_refusal as _needs_refusal
import fgrad.torch.types as types

inv = inverse


def solve(A: Tensor, B: Tensor, *, left: bool = True, out: Tensor | None = None) -> Tensor:
    _float_in(A, "linalg.solve")
    _square(A, "linalg.solve")
    res = _solve_node(A, B, left)
    _check_solved(res, A, B)
    return res if out is None else _write_out(out, res, "linalg_solve")


def _solve_node(A: Tensor, B: Tensor, left: bool) -> Tensor:
    """The recorded ``A^{-1} B`` (``B A^{-1}`` unless ``left``) of `solve` and `solve_ex`;
    ``B`` is a (batch of) vector(s) when it has one axis, or ``A``'s batch axes and ``n``."""
    vec = B._buf.ndim == 1 or (B._buf.ndim == A._buf.ndim - 1 and B._buf.shape == A._buf.shape[:-1])

    def fn(a, b):
        if not left:  # X A = B  <=>  A^T X^T = B^T
            a = _fnp.swapaxes(a, -1, -2)
        if vec:
            return _fnp.linalg.solve(a, b[..., None])[..., 0]
        if not left:
            return _fnp.swapaxes(_fnp.linalg.solve(a, _fnp.swapaxes(b, -1, -2)), -1, -2)
        return _fnp.linalg.solve(a, b)

    return _apply_op("LinalgSolveExBackward0", ("solve", vec, bool(left)), fn, (A, B))


def _check_solved(res, A, B) -> None:
    """PyTorch's LinAlgError for a singular ``A``: finite inputs whose solution is not finite
    (the fgrad definition, like JAX, returns inf/NaN there instead of raising)."""
    r, a, b = res._buf, A._buf, B._buf
    if type(r) is np.ndarray and not np.isfinite(r).all() and np.isfinite(a).all() and np.isfinite(b).all():
        raise _errors.LinAlgError(
            "linalg.solve: The solver failed because the input matrix is singular "
            f"(inputs: {_errors.describe_inputs((A, B))}). Use linalg.lstsq, or add a small multiple "
            "of the identity."
        )


def svd(A: Tensor, full_matrices: bool = True, *, driver: str | None = None,
        out: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:
    u, s, vh = _svd(A, full_matrices)
    u, vh = _phase_check.phase_checked_svd(u, vh)
    return _return_type("linalg_svd", ("U", "S", "Vh"))(u, s, vh)


def svdvals(A: Tensor, *, driver: str | None = None, out: Tensor | None = None) -> Tensor:
    _float_in(A, "linalg.svdvals")
    return _apply_op(
        "LinalgSvdBackward0",
        ("svdvals",),
        lambda x: _fnp.linalg.svdvals(x),
        (A,),
    )


def eigh(A: Tensor, UPLO: str = "L", *, out: Tensor | None = None) -> tuple[Tensor, Tensor]:
    _float_in(A, "linalg.eigh")

    def fn(x):
        r = _fnp.linalg.eigh(x, UPLO)
        return (r[0], r[1])

    w, v = _apply_op("LinalgEighBackward0", ("eigh", UPLO), fn, (A,), multi=True)
    v = _phase_check.phase_checked(v, "linalg_eigh")
    return _return_type("linalg_eigh", ("eigenvalues", "eigenvectors"))(w, v)


def eigvalsh(A: Tensor, UPLO: str = "L", *, out: Tensor | None = None) -> Tensor:
    return eigh(A, UPLO).eigenvalues


_QR_UNDIFFERENTIABLE = {
    "r": ("The derivative of linalg.qr depends on Q, which is not computed when mode='r'. Please use "
          "linalg.qr(A, mode='reduced') if you are going to differentiate through linalg.qr."),
    "complete": "The QR decomposition is not differentiable when mode='complete' and nrows > ncols.",
}


def qr(A: Tensor, mode: str = "reduced", *, out: Tensor | None = None) -> tuple[Tensor, Tensor]:
    _float_in(A, "linalg.qr")
    tall = A.dim() >= 2 and A.shape[-2] > A.shape[-1]
    if (mode == "r" or (mode == "complete" and tall)) and _needs_refusal(A):
        # PyTorch's backward raises for these (the derivative needs Q, or Q is not unique)
        message = _QR_UNDIFFERENTIABLE[mode]
        q, r = _failing_backward(lambda a: tuple(qr(a, mode)), "LinalgQrBackward0", message, A)
        return _return_type("linalg_qr", ("Q", "R"))(q, r)
    if mode == "r":  # R only; Q is an empty tensor (PyTorch's), not R's first row
        r = _apply_op("LinalgQrBackward0", ("qr", mode), lambda x: _fnp.linalg.qr(x, mode), (A,))
        return _return_type("linalg_qr", ("Q", "R"))(A.new_zeros((0,)), r)

    def fn(x):
        r = _fnp.linalg.qr(x, mode)
        return (r[0], r[1])

    q, r = _apply_op("LinalgQrBackward0", ("qr", mode), fn, (A,), multi=True)
    return _return_type("linalg_qr", ("Q", "R"))(q, r)


def cholesky(A: Tensor, *, upper: bool = False, out: Tensor | None = None) -> Tensor:
    _float_in(A, "linalg.cholesky")
    _square(A, "linalg.cholesky")
    try:
        np.linalg.cholesky(A._buf)
    except np.linalg.LinAlgError:
        raise _errors.LinAlgError(
            "linalg.cholesky: The factorization could not be completed because the input is not "
            "positive-definite."
        ) from None

    def fn(x):
        return _fnp.linalg.cholesky(x, upper=upper)

    res = _apply_op("LinalgCholeskyExBackward0", ("cholesky", upper), fn, (A,))
    return res if out is None else _write_out(out, res, "linalg_cholesky")


def matrix_norm(A: Tensor, ord: float | str = "fro", dim: types.SizeLike = (-2, -1), keepdim: bool = False, *,  # noqa: A002
                dtype: types.DType | None = None, out: Tensor | None = None) -> Tensor:
    x = A if dtype is None else A.to(dtype)
    nd = x._buf.ndim
    if nd < 2:
        raise RuntimeError("linalg.matrix_norm: The input tensor A must have at least 2 dimensions.")
    d = tuple(int(k) % nd for k in dim)

    def fn(v):
        if d != (nd - 2, nd - 1):
            v = _fnp.moveaxis(v, d, (-2, -1))
        if ord == "fro":  # gradient 0 at the zero matrix (PyTorch)
            return _conv.root_zero_grad(_fnp.sum(_fnp.real(v * _fnp.conj(v)), axis=(-2, -1)), 2.0)
        if ord in (1, -1, math.inf, -math.inf):  # sums of |v| with PyTorch's abs'(0) = 0
            sums = _fnp.sum(_conv.abs(v), axis=-2 if ord in (1, -1) else -1)
            return _fnp.max(sums, axis=-1) if ord > 0 else _fnp.min(sums, axis=-1)
        if ord in (2, -2):  # ties split evenly among equal singular values (0.5 I at 0, PyTorch)
            s = _fnp.linalg.svdvals(v)
            return _fnp.max(s, axis=-1) if ord > 0 else _fnp.min(s, axis=-1)
        return _fnp.linalg.matrix_norm(v, keepdims=False, ord=ord)

    res = _apply_op("LinalgMatrixNormBackward0", ("matrix_norm", str(ord), d), fn, (x,))
    if keepdim:

        for k in sorted(d):
            res = _unsqueeze(res, k)
    return res if out is None else _write_out(out, res, "linalg_matrix_norm")


def norm(A: Tensor, ord: float | str | None = None, dim: types.Dims = None, keepdim: bool = False, *,
         dtype: types.DType | None = None, out: Tensor | None = None) -> Tensor:  # noqa: A002
    nd = A._buf.ndim
    if (
        isinstance(ord, str)
        or (dim is not None and not isinstance(dim, int) and len(dim) == 2)
        or (ord is not None and dim is None and nd == 2)
    ):
        return matrix_norm(
            A, "fro" if ord is None else ord, (-2, -1) if dim is None else dim, keepdim, dtype=dtype, out=out
        )
    return vector_norm(A, 2 if ord is None else ord, dim, keepdim, dtype=dtype, out=out)


_LSTSQ_DRIVERS = ("gels", "gelsy", "gelsd", "gelss")


def _lstsq_solution(a, b):
    if a.ndim == 2:
        return _fnp.linalg.lstsq(a, b)[0]
    flat = _vmap(lambda x, y: _fnp.linalg.lstsq(x, y)[0])(
        a.reshape((-1,) + a.shape[-2:]), b.reshape((-1,) + b.shape[-2:]))
    return flat.reshape(a.shape[:-2] + flat.shape[-2:])


def lstsq(A: Tensor, B: Tensor, rcond: float | None = None, *,
          driver: str | None = None) -> tuple[Tensor, Tensor, Tensor, Tensor]:
    """The least-squares solution of ``A X = B`` with what the CPU's LAPACK ``driver`` reports
    beside it (default ``"gelsy"``): ``residuals`` (squared column residuals) only when
    ``m > n``, ``A`` has full rank and the driver is not ``gelsy``, else empty; ``rank`` except
    for ``gels`` (empty); ``singular_values`` only for ``gelsd``/``gelss``.

    Example::

        >>> import fgrad.torch as torch
        >>> A = torch.tensor([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
        >>> r = torch.linalg.lstsq(A, torch.tensor([[1.0], [2.0], [4.0]]))
        >>> r.solution.squeeze(), r.residuals
        (tensor([1.3333, 2.3333]), tensor([]))
        >>> torch.linalg.lstsq(A, torch.tensor([[1.0], [2.0], [4.0]]), driver="gelsd").residuals
        tensor([0.3333])
    """
    drv = "gelsy" if driver is None else driver
    if drv not in _LSTSQ_DRIVERS:
        raise RuntimeError("torch.linalg.lstsq: parameter `driver` should be one of "
                           "(gels, gelsy, gelsd, gelss)")
    a_b, b_b = A, B
    if A.ndim > 2 and B.ndim >= 2:  # batches broadcast (PyTorch's); each matrix solved as the 2-D case
        batch = np.broadcast_shapes(tuple(A.shape[:-2]), tuple(B.shape[:-2]))
        a_b, b_b = A.expand(*batch, *A.shape[-2:]), B.expand(*batch, *B.shape[-2:])
    sol = _apply_op("LinalgLstsqBackward0", ("lstsq",), _lstsq_solution, (a_b, b_b))
    a_h = _dev.to_host(A._buf)  # rank and singular values: of A's own batch (PyTorch's)
    m, n = a_h.shape[-2:]
    s = np.linalg.svd(a_h, compute_uv=False)
    tol = (np.finfo(s.dtype).eps * max(m, n) if rcond is None else rcond) * s[..., :1]
    rank = (s > tol).sum(-1).astype(np.int64)
    fdt = s.dtype  # the real dtype of A's
    if m > n and drv != "gelsy" and (rank == n).all():
        r, b_h = _dev.to_host(sol.detach()._buf), _dev.to_host(B._buf)
        if b_h.ndim < a_h.ndim:  # a vector right-hand side: one residual
            r, b_h = r[..., None], b_h[..., None]
        res = (np.abs(a_h @ r - b_h) ** 2).sum(-2).astype(fdt)
    else:
        res = np.zeros((0,), fdt)
    return _return_type("linalg_lstsq", ("solution", "residuals", "rank", "singular_values"))(
        sol,
        _result_tensor(_dev.put_like(res, A._buf)),
        _result_tensor(_dev.put_like(rank if drv != "gels" else np.zeros((0,), np.int64), A._buf)),
        _result_tensor(_dev.put_like(s.astype(fdt) if drv in ("gelsd", "gelss") else np.zeros((0,), fdt),
                                     A._buf)),
    )


def diagonal(A: Tensor, *, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:

    return _dg(A, offset, dim1, dim2)


_ = (D, math, Tensor)
