"""``torch.linalg`` and ``torch.*`` linear algebra the shim lacked (round 9): the ``*_ex``
variants with LAPACK's ``info``, ``solve_triangular``/``triangular_solve``, the LU family
(``lu_factor(_ex)``, ``lu``, ``lu_unpack``, ``lu_solve``), ``eig``/``eigvals``,
Householder QR (``geqrf``, ``householder_product``/``orgqr``, ``ormqr``), the LDL^T family,
``tensorinv``/``tensorsolve``, ``vander``, and ``matrix_rank``/``cond``/``vecdot``/
``multi_dot`` with all of PyTorch's arguments.

Each computing op is a recorded node whose definition is an `fgrad.lax`/`fgrad.numpy`
function (one implementation and one derivative for both faces) or a composition of the
shim's own ops; ``info`` is a second, integer output of the same definition.

Example::

    >>> import fgrad.torch as torch
    >>> torch.linalg.solve_triangular(torch.tensor([[2.0, 0.0], [1.0, 1.0]]), torch.tensor([[2.0], [3.0]]),
    ...                               upper=False)
    tensor([[1.],
            [2.]])
"""

from __future__ import annotations

import math
import warnings
from typing import Any, Callable, NoReturn, Sequence

import numpy as np

import fgrad.lax as lax
import fgrad.numpy as fnp
import fgrad.torch as torch

from ..numpy import _householder
from ..ops import eig as _eig_ops
from . import _phase_check
from . import _dtypes as D, _errors
from ._dispatch import apply_op, write_out
from ._faces import as_tensor_arg
from ._ops import return_type
from ._ops_linalg import _float_in, _square, _inv_definition
from ._tensor import Tensor


def _type_name(t: Tensor) -> str:
    return D.from_np(t._buf.dtype)._legacy


def _out(res: Tensor, out: Tensor | None, name: str) -> Tensor:
    return res if out is None else write_out(out, res, name)


def _not_implemented_for(kernel: str, *ts: Tensor) -> None:
    """PyTorch's NotImplementedError for an integer or bool operand of a LAPACK kernel."""
    for t in ts:
        if not (t.is_floating_point() or t.is_complex()):
            raise NotImplementedError(f"\"{kernel}\" not implemented for '{_type_name(t)}'")


def _at_least_2d(t: Tensor, name: str, what: str = "A") -> None:
    if t.dim() < 2:
        raise RuntimeError(f"{name}: The input tensor {what} must have at least 2 dimensions.")


def _batch_prefix(info: Tensor, k: int) -> str:
    """``"(Batch element i): "`` for the first failing batch element (PyTorch's wording)."""
    if info.dim() == 0:
        return ""
    flat = info.reshape(-1).tolist()
    return f"(Batch element {next(i for i, v in enumerate(flat) if v == k)}): "


def _first_failure(info: Tensor) -> int:
    """The first non-zero ``info`` (PyTorch reports the first failing batch element)."""
    return next((v for v in info.reshape(-1).tolist() if v != 0), 0)


class _NoDerivative(torch.autograd.Function):
    """Identity on ``y`` whose backward raises PyTorch's error for an op with no derivative
    (``geqrf``, ``ldl_factor``): the forward runs, the backward raises."""

    @staticmethod
    def forward(ctx: Any, y: Tensor, arg: Tensor, error: type, message: str) -> Tensor:
        ctx.error, ctx.message = error, message
        return y.view_as(y)

    @staticmethod
    def backward(ctx: Any, grad: Tensor) -> tuple[None, None, None, None]:
        raise ctx.error(ctx.message)


def _no_derivative(outs: tuple[Tensor, ...], arg: Tensor, error: type, message: str) -> tuple[Tensor, ...]:
    if not (arg.requires_grad and torch.is_grad_enabled()):
        return outs
    return tuple(
        _NoDerivative.apply(o, arg, error, message) if o.is_floating_point() or o.is_complex() else o
        for o in outs
    )


def _named(name: str, fields: tuple[str, ...], values: tuple[Tensor, ...], out: Any) -> Any:
    """PyTorch's named tuple ``name`` of ``values``, written into the tensors of ``out`` too."""
    if out is not None:
        for o, r in zip(out, values):
            write_out(o, r, name)
    return return_type(name, fields)(*values)


def _bcast_batch(*xs: Any) -> list[Any]:
    """Broadcast the leading (batch) axes of matrices ``xs`` (lax's linalg needs equal ones)."""
    batch = np.broadcast_shapes(*(x.shape[:-2] for x in xs))
    return [fnp.broadcast_to(x, batch + x.shape[-2:]) for x in xs]


# ---------------------------------------------------------------------------------------
# triangular solves


def _tri_solve(
    a: Any,
    b: Any,
    *,
    upper: bool,
    left: bool,
    unitriangular: bool,
    transpose: bool = False,
    conjugate: bool = False,
) -> Any:
    a, b = _bcast_batch(a, b)
    return lax.linalg.triangular_solve(
        a,
        b,
        left_side=left,
        lower=not upper,
        transpose_a=transpose,
        conjugate_a=conjugate,
        unit_diagonal=unitriangular,
    )


def solve_triangular(
    A: Tensor,
    B: Tensor,
    *,
    upper: bool,
    left: bool = True,
    unitriangular: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    """Solve ``A X = B`` (``left``) or ``X A = B`` for triangular ``A``, reading only its
    ``upper`` (else lower) triangle, and not its diagonal when ``unitriangular``.

    Example::

        >>> import fgrad.torch as torch
        >>> A = torch.tensor([[2.0, 1.0], [0.0, 4.0]])
        >>> torch.linalg.solve_triangular(A, torch.tensor([[4.0], [8.0]]), upper=True)
        tensor([[1.],
                [2.]])
    """
    a, b = as_tensor_arg(A, "linalg_solve_triangular"), as_tensor_arg(B, "linalg_solve_triangular")
    name = "linalg.solve_triangular"
    for t, what in ((a, "A"), (b, "B")):
        _at_least_2d(t, name, what)
    _square(a, name)
    n = a.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        eq = "AX = B" if left else "XA = B"
        raise RuntimeError(
            f"{name}: Incompatible shapes of A and B for the equation {eq} "
            f"({a.shape[-2]}x{n} and {b.shape[-2]}x{b.shape[-1]})"
        )
    _not_implemented_for("triangular_solve_cpu", a, b)
    R = a.dtype if b.is_floating_point() or a.is_complex() else torch.result_type(a, b)  # A's, as PyTorch
    res = apply_op(
        "LinalgSolveTriangularBackward0",
        ("solve_triangular", bool(upper), bool(left), bool(unitriangular)),
        lambda x, y: _tri_solve(x, y, upper=upper, left=left, unitriangular=unitriangular),
        (a.to(R), b.to(R)),
    )
    return _out(res, out, "linalg_solve_triangular")


def triangular_solve(
    b: Tensor,
    A: Tensor,
    upper: bool = True,
    transpose: bool = False,
    unitriangular: bool = False,
    *,
    out: Any = None,
) -> tuple[Tensor, Tensor]:
    """The deprecated ``(solution, cloned_coefficient)`` of ``op(A) X = b`` (``op(A)`` is
    ``A^T`` when ``transpose``) for triangular ``A``; warns as PyTorch does.

    Example::

        >>> import warnings
        >>> import fgrad.torch as torch
        >>> with warnings.catch_warnings(record=True):
        ...     x = torch.triangular_solve(torch.tensor([[4.0], [8.0]]),
        ...                                torch.tensor([[2.0, 1.0], [0.0, 4.0]]))
        >>> x.solution
        tensor([[1.],
                [2.]])
    """
    rhs, a = as_tensor_arg(b, "triangular_solve"), as_tensor_arg(A, "triangular_solve")
    if rhs.dim() < 2:
        raise RuntimeError(
            f"torch.triangular_solve: Expected b to have at least 2 dimensions, but it has "
            f"{rhs.dim()} dimensions instead"
        )
    if a.dim() < 2 or a.shape[-1] != a.shape[-2]:
        raise RuntimeError(
            f"A must be batches of square matrices, but they are {a.shape[-2] if a.dim() > 1 else 1}"
            f" by {a.shape[-1] if a.dim() else 1} matrices"
        )
    if rhs.dtype != a.dtype:
        raise RuntimeError(
            f"Expected b and A to have the same dtype, but found b of type {_type_name(rhs)} and "
            f"A of type {_type_name(a)} instead."
        )
    if rhs.shape[-2] != a.shape[-1]:
        raise RuntimeError(
            f"Incompatible matrix sizes for triangular_solve: each A matrix is {a.shape[-1]} by "
            f"{a.shape[-1]} but each b matrix is {rhs.shape[-2]} by {rhs.shape[-1]}"
        )
    _not_implemented_for("triangular_solve_cpu", a)
    warnings.warn(
        "torch.triangular_solve is deprecated in favor of torch.linalg.solve_triangular and will be removed "
        "in a future PyTorch release.\ntorch.linalg.solve_triangular has its arguments reversed and does not "
        "return a copy of one of the inputs.\nX = torch.triangular_solve(B, A).solution\nshould be replaced "
        "with\nX = torch.linalg.solve_triangular(A, B).",
        UserWarning,
        stacklevel=3,
    )
    sol = apply_op(
        "TriangularSolveBackward0",
        ("triangular_solve", bool(upper), bool(transpose), bool(unitriangular)),
        lambda x, y: _tri_solve(
            x, y, upper=upper, left=True, unitriangular=unitriangular, transpose=transpose
        ),
        (a, rhs),
    )
    return return_type("triangular_solve", ("solution", "cloned_coefficient"))(sol, a.clone())


# ---------------------------------------------------------------------------------------
# Cholesky, inverse, solve with LAPACK's info


def _cholesky_info(a: Any, upper: bool) -> Any:
    """LAPACK ``potrf``'s ``info``: the order of the first leading minor that is not
    positive-definite (0 if none), from the unblocked recurrence's pivots."""
    if upper:
        a = fnp.conj(fnp.swapaxes(a, -1, -2))
    n = a.shape[-1]
    info = fnp.zeros(a.shape[:-2], np.int32)
    cols: list[Any] = []  # the columns of L found so far (..., n)
    for j in range(n):
        row = [c[..., j] for c in cols]
        d = fnp.real(a[..., j, j]) - sum(
            (fnp.abs(r) ** 2 for r in row), fnp.zeros(a.shape[:-2], fnp.real(a).dtype)
        )
        bad = ~(d > 0)
        info = fnp.where((info == 0) & bad, np.int32(j + 1), info)
        ljj = fnp.sqrt(fnp.where(bad, 1.0, d))
        col = a[..., :, j] - sum(
            (c * fnp.conj(r)[..., None] for c, r in zip(cols, row)), fnp.zeros_like(a[..., :, j])
        )
        cols.append(fnp.where(np.arange(n) >= j, col / ljj[..., None], 0.0).astype(a.dtype))
    return info


def cholesky_ex(
    A: Tensor, *, upper: bool = False, check_errors: bool = False, out: Any = None
) -> tuple[Tensor, Tensor]:
    """``(L, info)``: the Cholesky factor and LAPACK's ``info`` (the order of the first leading
    minor that is not positive-definite, 0 on success) instead of an error; when ``info > 0``
    ``L`` holds NaN (PyTorch's holds LAPACK's partial work) — read ``info`` first.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.cholesky_ex(torch.tensor([[1.0, 2.0], [2.0, 1.0]])).info
        tensor(2, dtype=torch.int32)
    """
    a = as_tensor_arg(A, "linalg_cholesky_ex")
    _float_in(a, "linalg.cholesky")
    _square(a, "linalg.cholesky")

    def fn(x: Any) -> tuple[Any, Any]:
        return fnp.linalg.cholesky(x, upper=upper), _cholesky_info(x, upper)

    L, info = apply_op("LinalgCholeskyExBackward0", ("cholesky_ex", bool(upper)), fn, (a,), multi=True)
    k = _first_failure(info) if check_errors else 0
    if k:
        raise _errors.LinAlgError(
            f"linalg.cholesky_ex: {_batch_prefix(info, k)}The factorization could not be completed because "
            "the "
            f"input is not positive-definite (the leading minor of order {k} is not positive-definite)."
        )
    return _named("linalg_cholesky_ex", ("L", "info"), (L, info), out)


def _lu_info(lu: Any) -> Any:
    """LAPACK ``getrf``'s ``info``: 1 + the index of the first zero on ``U``'s diagonal, else 0."""
    d = fnp.diagonal(lu, axis1=-2, axis2=-1)
    zero = d == 0
    first = fnp.argmax(zero, axis=-1).astype(np.int32) + np.int32(1)
    return fnp.where(fnp.any(zero, axis=-1), first, np.int32(0))


def _lu_pack(x: Any) -> tuple[Any, Any, Any]:
    packed, piv, _perm = lax.linalg.lu(x)
    return packed, lax.convert_element_type(piv + 1, np.int32), _lu_info(packed)


def lu_factor_ex(
    A: Tensor, *, pivot: bool = True, check_errors: bool = False, out: Any = None
) -> tuple[Tensor, Tensor, Tensor]:
    """``(LU, pivots, info)``: the packed LU factorization with partial pivoting (1-based int32
    LAPACK pivots) and LAPACK's ``info`` (``k`` when ``U[k-1, k-1]`` is zero, else 0).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.lu_factor_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]])).info
        tensor(2, dtype=torch.int32)
    """
    a = as_tensor_arg(A, "linalg_lu_factor_ex")
    _at_least_2d(a, "torch.linalg.lu_factor_ex")
    if not pivot:
        raise RuntimeError("linalg.lu_factor: LU without pivoting is not implemented on the CPU")
    _not_implemented_for("lu_cpu", a)
    LU, pivots, info = apply_op("LinalgLuFactorExBackward0", ("lu_factor_ex",), _lu_pack, (a,), multi=True)
    k = _first_failure(info) if check_errors else 0
    if k:
        raise _errors.LinAlgError(
            f"torch.linalg.lu_factor_ex: {_batch_prefix(info, k)}U[{k},{k}] is zero and "
            "using it on lu_solve would result in a division by zero."
        )
    return _named("linalg_lu_factor_ex", ("LU", "pivots", "info"), (LU, pivots, info), out)


def lu_factor(A: Tensor, *, pivot: bool = True, out: Any = None) -> tuple[Tensor, Tensor]:
    """``(LU, pivots)`` of `lu_factor_ex`; a zero on ``U``'s diagonal raises PyTorch's error.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.lu_factor(torch.tensor([[2.0, 1.0], [4.0, 5.0]])).pivots
        tensor([2, 2], dtype=torch.int32)
    """
    a = as_tensor_arg(A, "linalg_lu_factor")
    _at_least_2d(a, "torch.linalg.lu_factor")
    LU, pivots, info = lu_factor_ex(a, pivot=pivot)
    k = _first_failure(info)
    if k:
        raise RuntimeError(
            f"torch.linalg.lu_factor: {_batch_prefix(info, k)}U[{k},{k}] is zero and using it on lu_solve "
            "would "
            "result in a division by zero. If you still want to perform the factorization, consider calling "
            "linalg.lu(A, pivot) or linalg.lu_factor_ex(A, pivot)"
        )
    return _named("linalg_lu_factor", ("LU", "pivots"), (LU, pivots), out)


def _permutation_matrix(pivots: Tensor, m: int, dtype: torch.dtype) -> Tensor:
    """``P`` with ``A = P L U`` from 1-based LAPACK pivots: ``P[perm[i], i] = 1``."""
    perm = apply_op(
        "LuPivotsToPermutation",
        ("lu_perm", m),
        lambda p: lax.linalg.lu_pivots_to_permutation(p - np.int32(1), m),
        (pivots,),
    )
    rows = torch.arange(m, device=pivots.device).reshape(m, 1)
    return (rows == perm.unsqueeze(-2)).to(dtype)


def lu_unpack(
    LU_data: Tensor,
    LU_pivots: Tensor,
    unpack_data: bool = True,
    unpack_pivots: bool = True,
    *,
    out: Any = None,
) -> tuple[Tensor, Tensor, Tensor]:
    """``(P, L, U)`` from a packed LU factorization and its pivots (empty tensors for the
    parts not unpacked); differentiable in ``LU_data``.

    Example::

        >>> import fgrad.torch as torch
        >>> P, L, U = torch.lu_unpack(*torch.linalg.lu_factor(torch.tensor([[2.0, 1.0], [4.0, 5.0]])))
        >>> P
        tensor([[0., 1.],
                [1., 0.]])
    """
    lu = as_tensor_arg(LU_data, "lu_unpack")
    if lu.dim() < 2:
        raise RuntimeError(
            f"torch.lu_unpack: Expected tensor with 2 or more dimensions. Got size: {list(lu.shape)} instead"
        )
    if LU_pivots.dtype != torch.int32:
        raise RuntimeError(
            "torch.lu_unpack: LU_pivots is expected to be a contiguous tensor of torch.int32 "
            f"dtype. Note: this function is intended to be used with the output produced by "
            f"torch.linalg.lu_factor. Got {LU_pivots.dtype}"
        )
    m, n = lu.shape[-2], lu.shape[-1]
    k = min(m, n)
    empty = torch.empty(0, dtype=lu.dtype, device=lu.device)
    if unpack_data:
        L = torch.tril(lu[..., :, :k], -1) + torch.eye(m, k, dtype=lu.dtype, device=lu.device)
        U = torch.triu(lu[..., :k, :])
    else:
        L = U = empty
    P = _permutation_matrix(LU_pivots, m, lu.dtype) if unpack_pivots else empty
    return _named("lu_unpack", ("P", "L", "U"), (P, L, U), out)


def lu(A: Tensor, *, pivot: bool = True, out: Any = None) -> tuple[Tensor, Tensor, Tensor]:
    """``(P, L, U)`` with ``A = P L U``: `lu_factor_ex` then `lu_unpack` (differentiable).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.lu(torch.tensor([[2.0, 1.0], [4.0, 5.0]])).U
        tensor([[ 4.0000,  5.0000],
                [ 0.0000, -1.5000]])
    """
    a = as_tensor_arg(A, "linalg_lu")
    _at_least_2d(a, "linalg.lu")
    LU, pivots, _info = lu_factor_ex(a, pivot=pivot)
    P, L, U = lu_unpack(LU, pivots)
    return return_type("linalg_lu", ("P", "L", "U"))(P, L, U)


def _lu_solve_left(lu: Any, piv: Any, b: Any, adjoint: bool) -> Any:
    """``A^{-1} b`` (``A^{-H} b`` when ``adjoint``) with ``A = P L U`` packed in ``lu``."""
    lu, b = _bcast_batch(lu, b)
    perm = lax.linalg.lu_pivots_to_permutation(piv - np.int32(1), lu.shape[-1])
    perm = fnp.broadcast_to(perm, b.shape[:-2] + perm.shape[-1:])
    tri = lax.linalg.triangular_solve
    if not adjoint:  # U^{-1} L^{-1} P^T b
        pb = fnp.take_along_axis(b, fnp.broadcast_to(perm[..., :, None], b.shape), axis=-2)
        y = tri(lu, pb, left_side=True, lower=True, unit_diagonal=True)
        return tri(lu, y, left_side=True, lower=False)
    # A^H = U^H L^H P^T:  x = P L^{-H} U^{-H} b
    y = tri(lu, b, left_side=True, lower=False, transpose_a=True, conjugate_a=True)
    z = tri(lu, y, left_side=True, lower=True, unit_diagonal=True, transpose_a=True, conjugate_a=True)
    inv = fnp.argsort(perm, axis=-1)
    return fnp.take_along_axis(z, fnp.broadcast_to(inv[..., :, None], z.shape), axis=-2)


def _mh(x: Any) -> Any:
    return fnp.conj(fnp.swapaxes(x, -1, -2))


def lu_solve(
    LU: Tensor,
    pivots: Tensor,
    B: Tensor,
    *,
    left: bool = True,
    adjoint: bool = False,
    out: Tensor | None = None,
) -> Tensor:
    """Solve ``A X = B`` (``X A = B`` unless ``left``; ``A^H`` for ``A`` when ``adjoint``) from
    `lu_factor`'s ``(LU, pivots)`` of ``A``; differentiable in ``LU`` and ``B``.

    Example::

        >>> import fgrad.torch as torch
        >>> LU, piv = torch.linalg.lu_factor(torch.tensor([[2.0, 1.0], [4.0, 5.0]]))
        >>> torch.linalg.lu_solve(LU, piv, torch.tensor([[3.0], [9.0]]))
        tensor([[1.],
                [1.]])
    """
    lu_t, b = as_tensor_arg(LU, "linalg_lu_solve"), as_tensor_arg(B, "linalg_lu_solve")
    _at_least_2d(lu_t, "linalg.lu_solve", "LU")
    _at_least_2d(b, "linalg.lu_solve", "B")
    _square(lu_t, "linalg.lu_solve")
    if pivots.dtype != torch.int32:
        raise RuntimeError("linalg.lu_solve: pivots should be a Tensor of scalar type int32")
    n = lu_t.shape[-1]
    if (b.shape[-2] if left else b.shape[-1]) != n:
        raise RuntimeError(
            f"linalg.lu_solve: Incompatible shapes of A and B for the equation "
            f"{'AX = B' if left else 'XA = B'} ({n}x{n} and {b.shape[-2]}x{b.shape[-1]})"
        )
    R = torch.result_type(lu_t, b)

    def fn(lu_v: Any, piv: Any, bv: Any) -> Any:
        if left:
            return _lu_solve_left(lu_v, piv, bv, adjoint)
        return _mh(_lu_solve_left(lu_v, piv, _mh(bv), not adjoint))  # X A = B  <=>  A^H X^H = B^H

    res = apply_op(
        "LinalgLuSolveBackward0",
        ("linalg_lu_solve", bool(left), bool(adjoint)),
        fn,
        (lu_t.to(R), pivots, b.to(R)),
    )
    return _out(res, out, "linalg_lu_solve")


def inv_ex(A: Tensor, *, check_errors: bool = False, out: Any = None) -> tuple[Tensor, Tensor]:
    """``(inverse, info)``: the inverse from the LU factorization and LAPACK's ``info``
    (``k`` when ``U[k-1, k-1]`` is zero: ``A`` is singular and ``inverse`` is not finite).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.inv_ex(torch.tensor([[1.0, 2.0], [2.0, 4.0]])).info
        tensor(2, dtype=torch.int32)
    """
    a = as_tensor_arg(A, "linalg_inv_ex")
    _float_in(a, "linalg.inv")
    _square(a, "linalg.inv")
    info = lu_factor_ex(a.detach()).info
    k = _first_failure(info) if check_errors else 0
    if k:
        raise _errors.LinAlgError(
            f"linalg.inv_ex: {_batch_prefix(info, k)}The diagonal element {k} is zero, the "
            "inversion could not be completed because the input matrix is singular."
        )
    res = apply_op("LinalgInvExBackward0", ("inv",), _inv_definition, (a,))
    return _named("linalg_inv_ex", ("inverse", "info"), (res, info), out)


def solve_ex(
    A: Tensor, B: Tensor, *, left: bool = True, check_errors: bool = False, out: Any = None
) -> tuple[Tensor, Tensor]:
    """``(result, info)``: `torch.linalg.solve` without its error for a singular ``A``
    (``info > 0`` then, and ``result`` is not finite).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.solve_ex(torch.tensor([[2.0, 0.0], [0.0, 4.0]]), torch.tensor([2.0, 4.0])).result
        tensor([1., 1.])
    """
    a, b = as_tensor_arg(A, "linalg_solve_ex"), as_tensor_arg(B, "linalg_solve_ex")
    _float_in(a, "linalg.solve")
    _square(a, "linalg.solve")
    info = lu_factor_ex(a.detach()).info
    k = _first_failure(info) if check_errors else 0
    if k:
        raise _errors.LinAlgError(
            f"torch.linalg.solve_ex: {_batch_prefix(info, k)}The solver failed because the "
            "input matrix is singular."
        )
    res = torch.linalg._solve_node(a, b, left)
    return _named("linalg_solve_ex", ("result", "info"), (res, info), out)


# ---------------------------------------------------------------------------------------
# eigenvalues of general matrices


def eig(A: Tensor, *, out: Any = None) -> tuple[Tensor, Tensor]:
    """``(eigenvalues, eigenvectors)`` of a general square matrix, complex (``cfloat`` for
    ``float32``), eigenvectors of unit norm as LAPACK's ``geev``.  Differentiable; a loss
    must not depend on the eigenvectors' phases (PyTorch's rule).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.eig(torch.tensor([[2.0, 0.0], [0.0, 3.0]])).eigenvalues
        tensor([2.+0.j, 3.+0.j])
    """
    a = as_tensor_arg(A, "linalg_eig")
    _square(a, "linalg.eig")
    _float_in(a, "linalg.eig")

    def fn(x: Any) -> tuple[Any, Any]:
        # eigenvector derivatives on: PyTorch differentiates them, refusing in backward a loss
        # that depends on their phases (`phase_checked`); fgrad's eig_p refuses them by default
        w, v = _eig_ops.eig(x, eigvec_derivs=True)
        return w, v

    w, v = apply_op("LinalgEigBackward0", ("eig",), fn, (a,), multi=True)
    v = _phase_check.phase_checked(v, "linalg_eig")
    return _named("linalg_eig", ("eigenvalues", "eigenvectors"), (w, v), out)


def eigvals(A: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The (complex) eigenvalues of a general square matrix, as `eig`'s.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.eigvals(torch.tensor([[0.0, -1.0], [1.0, 0.0]]))
        tensor([0.+1.j, 0.-1.j])
    """
    a = as_tensor_arg(A, "linalg_eigvals")
    _square(a, "linalg.eigvals")
    _float_in(a, "linalg.eigvals")
    res = apply_op("LinalgEigBackward0", ("eigvals",), lambda x: fnp.linalg.eigvals(x), (a,))
    return _out(res, out, "linalg_eigvals")


# ---------------------------------------------------------------------------------------
# Householder QR


def geqrf(input: Tensor, *, out: Any = None) -> tuple[Tensor, Tensor]:
    """LAPACK's ``geqrf``: ``(a, tau)`` with ``R`` on and above the diagonal of ``a`` and the
    Householder vectors below it (use with `householder_product` or `ormqr`).  No derivative,
    as PyTorch: the backward raises ``NotImplementedError``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.geqrf(torch.tensor([[3.0], [4.0]])).tau
        tensor([1.6000])
    """
    a = as_tensor_arg(input, "geqrf")
    if a.dim() < 2:
        raise RuntimeError("torch.geqrf: input must have at least 2 dimensions.")
    _not_implemented_for("geqrf_cpu", a)
    qr, tau = apply_op("GeqrfBackward0", ("geqrf",), _householder.geqrf, (a.detach(),), multi=True)
    qr, tau = _no_derivative(
        (qr, tau), a, NotImplementedError, "the derivative for 'geqrf' is not implemented."
    )
    return _named("geqrf", ("a", "tau"), (qr, tau), out)


def _householder_checks(name: str, a: Tensor, tau: Tensor) -> None:
    if a.dim() < 2:
        raise RuntimeError(f"{name}: input must have at least 2 dimensions.")
    if a.shape[-2] < a.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-2] must be greater than or equal to input.shape[-1]")
    if a.shape[-1] < tau.shape[-1]:
        raise RuntimeError(f"{name}: input.shape[-1] must be greater than or equal to tau.shape[-1]")
    if tau.dim() != a.dim() - 1:
        raise RuntimeError(
            f"{name}: Expected tau to have one dimension less than input, but got tau.ndim equal "
            f"to {tau.dim()} and input.ndim is equal to {a.dim()}"
        )
    if tau.dtype != a.dtype:
        raise RuntimeError(f"{name}: tau dtype {_type_name(tau)} does not match input dtype {_type_name(a)}")
    _not_implemented_for("orgqr_cpu", a)


def householder_product(A: Tensor, tau: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The first ``n`` columns of ``H_1 ... H_k`` with ``H_i = I - tau_i v_i v_i^H`` (``v_i``
    below the diagonal of ``A``'s column ``i``, unit on it): LAPACK's ``orgqr``.
    Differentiable in ``A`` and ``tau``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.householder_product(torch.tensor([[1.0], [1.0]]), torch.tensor([1.0]))
        tensor([[ 0.],
                [-1.]])
    """
    a, t = as_tensor_arg(A, "linalg_householder_product"), as_tensor_arg(tau, "linalg_householder_product")
    _householder_checks("torch.linalg.householder_product", a, t)
    res = apply_op(
        "LinalgHouseholderProductBackward0",
        ("householder_product",),
        lambda x, y: lax.linalg.householder_product(x, y),
        (a, t),
    )
    return _out(res, out, "linalg_householder_product")


def orgqr(input: Tensor, tau: Tensor) -> Tensor:
    """`householder_product` under its LAPACK name.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.orgqr(*torch.geqrf(torch.tensor([[3.0], [4.0]])))
        tensor([[-0.6000],
                [-0.8000]])
    """
    return householder_product(input, tau)


def ormqr(
    input: Tensor,
    tau: Tensor,
    other: Tensor,
    left: bool = True,
    transpose: bool = False,
    *,
    out: Tensor | None = None,
) -> Tensor:
    """``Q other`` (``other Q`` unless ``left``; ``Q^H`` when ``transpose``) with ``Q`` the
    product of the Householder reflectors of `geqrf`'s ``(input, tau)``, without forming it
    explicitly in PyTorch (here through `householder_product`).  Differentiable.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.ormqr(torch.tensor([[1.0], [1.0]]), torch.tensor([1.0]), torch.eye(2))
        tensor([[ 0., -1.],
                [-1.,  0.]])
    """
    a, t, c = (as_tensor_arg(x, "ormqr") for x in (input, tau, other))
    if a.dim() < 2 or c.dim() < 2:
        raise RuntimeError(
            "torch.ormqr: input must have at least 2 dimensions."
            if a.dim() < 2
            else "torch.ormqr: other must have at least 2 dimensions."
        )
    side = -2 if left else -1
    if c.shape[side] != a.shape[-2]:
        raise RuntimeError(f"torch.ormqr: other.shape[{side}] must be equal to input.shape[-2]")
    if t.shape[-1] > a.shape[-1]:
        raise RuntimeError("torch.ormqr: tau.shape[-1] must be less than or equal to input.shape[-1]")
    for x, what in ((t, "tau"), (c, "other")):
        if x.dtype != a.dtype:
            raise RuntimeError(
                f"torch.ormqr: Expected input and {what} to have the same dtype, but input has "
                f"dtype {a.dtype} and {what} has dtype {x.dtype}"
            )
    _not_implemented_for("ormqr_cpu", a)
    res = apply_op(
        "OrmqrBackward0",
        ("ormqr", bool(left), bool(transpose)),
        lambda x, y, z: lax.linalg.ormqr(x, y, z, left=left, transpose=transpose),
        (a, t, c),
    )
    return _out(res, out, "ormqr")


# ---------------------------------------------------------------------------------------
# tensorinv, tensorsolve, vander, vecdot, multi_dot, matrix_rank, cond


def tensorinv(A: Tensor, ind: int = 2, *, out: Tensor | None = None) -> Tensor:
    """The inverse of ``A`` seen as a linear map from its last ``A.ndim - ind`` axes to its
    first ``ind`` (a reshape around `torch.linalg.inv`).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.tensorinv(2 * torch.eye(4).reshape(4, 2, 2), ind=1).shape
        torch.Size([2, 2, 4])
    """
    a = as_tensor_arg(A, "linalg_tensorinv")
    if ind <= 0:
        raise RuntimeError(f"Expected a strictly positive integer for 'ind', but got {ind}")
    out_shape, in_shape = tuple(a.shape[:ind]), tuple(a.shape[ind:])
    p_out, p_in = math.prod(out_shape), math.prod(in_shape)
    if p_out != p_in:
        raise RuntimeError(
            f"Expected self to satisfy the requirement prod(self.shape[ind:]) == "
            f"prod(self.shape[:ind]), but got {p_in} != {p_out}"
        )
    res = torch.linalg.inv(a.reshape(p_out, p_in)).reshape(in_shape + out_shape)
    return _out(res, out, "linalg_tensorinv")


def tensorsolve(
    A: Tensor, B: Tensor, dims: Sequence[int] | None = None, *, out: Tensor | None = None
) -> Tensor:
    """The ``X`` with ``tensordot(A, X, X.ndim) == B`` (``dims``: axes of ``A`` moved last
    first), by `torch.linalg.solve` on ``A`` reshaped to a matrix.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.tensorsolve(2 * torch.eye(6).reshape(2, 3, 6), torch.ones(2, 3))
        tensor([0.5000, 0.5000, 0.5000, 0.5000, 0.5000, 0.5000])
    """
    a, b = as_tensor_arg(A, "linalg_tensorsolve"), as_tensor_arg(B, "linalg_tensorsolve")
    if dims is not None:
        nd = a.dim()
        moved = [d % nd for d in dims]
        a = a.permute([d for d in range(nd) if d not in moved] + moved)
    lead = tuple(a.shape[: b.dim()])
    rest = tuple(a.shape[b.dim() :])
    p_lead, p_rest = math.prod(lead), math.prod(rest)
    if p_rest != b.numel():
        raise RuntimeError(
            f"Expected self to satisfy the requirement prod(self.shape[other.ndim:]) == "
            f"prod(self.shape[:other.ndim]), but got {p_rest} != {b.numel()}"
        )
    res = torch.linalg.solve(a.reshape(p_lead, p_rest), b.reshape(p_lead)).reshape(rest)
    return _out(res, out, "linalg_tensorsolve")


def vander(x: Tensor, N: int | None = None) -> Tensor:
    """The Vandermonde matrix ``[1, x, x**2, ..., x**(N-1)]`` along a new last axis
    (increasing powers, as PyTorch; ``N`` defaults to ``x.shape[-1]``), by a cumulative product.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.vander(torch.tensor([1.0, 2.0, 3.0]))
        tensor([[1., 1., 1.],
                [1., 2., 4.],
                [1., 3., 9.]])
    """
    t = as_tensor_arg(x, "linalg_vander")
    if t.dtype == torch.bool:
        raise RuntimeError(
            f"linalg.vander supports floating point, complex, and integer tensors, but got {_type_name(t)}"
        )
    n = (t.shape[-1] if t.dim() else 1) if N is None else N
    if n <= 1 or t.dim() == 0:
        raise RuntimeError("N must be greater than 1.")
    ones = torch.ones(t.shape + (1,), dtype=t.dtype, device=t.device)
    return torch.cat([ones, t.unsqueeze(-1).expand(t.shape + (n - 1,))], -1).cumprod(-1)


def vecdot(x: Tensor, y: Tensor, *, dim: int = -1, out: Tensor | None = None) -> Tensor:
    """``sum(conj(x) * y, dim)`` (broadcasting; the first argument conjugated).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.vecdot(torch.tensor([1j, 2.0]), torch.tensor([1j, 1.0]))
        tensor(3.+0.j)
    """
    a, b = as_tensor_arg(x, "linalg_vecdot"), as_tensor_arg(y, "linalg_vecdot")
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"linalg.vecdot: Expected x and y to have the same dtype, but found x of type "
            f"{_type_name(a)} and y of type {_type_name(b)} instead"
        )
    try:
        torch.broadcast_shapes(a.shape, b.shape)
    except RuntimeError:
        raise RuntimeError(
            f"linalg.vecdot: shapes {list(a.shape)} and {list(b.shape)} of x and y do not broadcast "
            "to a common shape"
        ) from None
    return _out(torch.sum((a.conj() if a.is_complex() else a) * b, dim), out, "linalg_vecdot")


def multi_dot(tensors: Sequence[Tensor], *, out: Tensor | None = None) -> Tensor:
    """The product of a chain of matrices; the first and last may be vectors (treated as a row
    and a column, as PyTorch, and dropped from the result's shape).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.multi_dot([torch.ones(3), torch.ones(3, 2), torch.ones(2)])
        tensor(6.)
    """
    ts = list(tensors)
    if len(ts) < 2:
        raise RuntimeError(f"multi_dot(): expected at least 2 tensors but got {len(ts)}")
    first, last = ts[0], ts[-1]
    if first.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the first tensor must be 1D or 2D but got {first.dim()}D")
    if last.dim() not in (1, 2):
        raise RuntimeError(f"multi_dot(): the last tensor must be 1D or 2D but got {last.dim()}D")
    for i, t in enumerate(ts[1:-1], 1):
        if t.dim() != 2:
            raise RuntimeError(f"multi_dot(): tensor {i} must be 2D but got {t.dim()}D")
    row, col = first.dim() == 1, last.dim() == 1
    ms = [first.unsqueeze(0) if row else first] + ts[1:-1] + [last.unsqueeze(1) if col else last]
    for i in range(len(ms) - 1):
        if ms[i].shape[1] != ms[i + 1].shape[0]:
            raise RuntimeError(
                f"multi_dot(): tensors {i} and {i + 1} with shapes {list(ts[i].shape)} and "
                f"{list(ts[i + 1].shape)} cannot be multiplied"
            )
    r = ms[0]
    for m in ms[1:]:
        r = torch.mm(r, m)
    if row:
        r = r.squeeze(0)
    if col:
        r = r.squeeze(-1)
    return _out(r, out, "linalg_multi_dot")


def linalg_matrix_rank(
    A: Tensor,
    tol: float | Tensor | None = None,
    hermitian: bool = False,
    *,
    atol: float | Tensor | None = None,
    rtol: float | Tensor | None = None,
    out: Tensor | None = None,
) -> Tensor:
    """The number of singular values (eigenvalue magnitudes when ``hermitian``) above
    ``max(atol, rtol * largest)``; ``rtol`` defaults to ``eps * max(m, n)`` when neither is
    given, to 0 when only ``atol`` is (``tol`` is ``atol``, as PyTorch's old overload).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.matrix_rank(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))
        tensor(1)
    """
    a = as_tensor_arg(A, "linalg_matrix_rank")
    if a.dim() < 2:
        raise RuntimeError(
            "torch.linalg.matrix_rank: The input tensor input must have at least 2 dimensions."
        )
    _float_in(a, "linalg.matrix_rank")
    if tol is not None:
        atol, rtol = tol, 0.0
    a = a.detach()
    s = torch.linalg.eigvalsh(a).abs() if hermitian else torch.linalg.svdvals(a)
    smax = s.amax(-1) if s.shape[-1] else torch.zeros(s.shape[:-1], dtype=s.dtype)
    if atol is None and rtol is None:
        rtol = torch.finfo(s.dtype).eps * max(a.shape[-2], a.shape[-1])
    elif rtol is None:
        rtol = 0.0
    bound = smax * rtol
    if atol is not None:
        bound = torch.maximum(
            bound, atol if isinstance(atol, Tensor) else torch.full_like(bound, float(atol))
        )
    return _out((s > bound.unsqueeze(-1)).sum(-1), out, "linalg_matrix_rank")


def _tolerance_array(value: float | Tensor | None, batch: tuple[int, ...]) -> np.ndarray:
    if value is None:
        return np.zeros(batch)
    host = value.detach().cpu().numpy() if isinstance(value, Tensor) else value
    return np.broadcast_to(np.asarray(host, np.float64), batch)


def pinv(A: Tensor, *, atol: float | Tensor | None = None, rtol: float | Tensor | None = None,
         hermitian: bool = False, out: Tensor | None = None) -> Tensor:
    """The Moore-Penrose pseudo-inverse by the SVD, dropping the singular values (eigenvalue
    magnitudes when ``hermitian``) at or below ``max(atol, rtol * largest)``; ``rtol``
    defaults to ``eps * max(m, n)`` when neither is given, to 0 when only ``atol`` is, as
    PyTorch.  Differentiable where the rank is locally constant.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.pinv(torch.tensor([[1.0, 2.0], [2.0, 4.001]]), atol=0.01)
        tensor([[0.0400, 0.0800],
                [0.0800, 0.1600]])
    """
    a = as_tensor_arg(A, "linalg_pinv")
    _float_in(a, "linalg.pinv")
    _at_least_2d(a, "linalg.pinv")
    if atol is None and rtol is None:
        rel: Any = None  # eps * max(m, n), the definition's default
    else:
        s = torch.linalg.eigvalsh(a.detach()).abs() if hermitian else torch.linalg.svdvals(a.detach())
        batch = tuple(a.shape[:-2])
        smax = s.amax(-1).cpu().numpy() if s.shape[-1] else np.zeros(batch)
        bound = np.maximum(_tolerance_array(atol, batch), _tolerance_array(rtol, batch) * smax)
        rel = np.where(smax > 0, bound / np.where(smax > 0, smax, 1.0), 1.0)  # relative to smax
    if rel is None:
        res = apply_op("LinalgPinvBackward0", ("pinv",), lambda x: fnp.linalg.pinv(x), (a,))
    else:
        res = apply_op("LinalgPinvBackward0", ("pinv_tol",), lambda x, r: fnp.linalg.pinv(x, rtol=r),
                       (a, np.asarray(rel, np.float64)))
    return _out(res, out, "linalg_pinv")


linalg_matrix_rank.__name__ = linalg_matrix_rank.__qualname__ = "matrix_rank"  # torch.linalg's name


def cond(A: Tensor, p: float | str | None = None, *, out: Tensor | None = None) -> Tensor:
    """The condition number of ``A`` in norm ``p``: ``smax / smin`` for ``None``/2 (``-2``:
    its inverse), else ``norm(A, p) * norm(inv(A), p)`` (square ``A``).  Differentiable.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.cond(torch.tensor([[2.0, 0.0], [0.0, 4.0]]), 1)
        tensor(2.)
    """
    a = as_tensor_arg(A, "linalg_cond")
    if a.dim() < 2:
        raise RuntimeError("linalg.cond: The input tensor A must have at least 2 dimensions.")
    _float_in(a, "linalg.cond")
    if p in (None, 2, -2):
        s = torch.linalg.svdvals(a)
        r = s.amax(-1) / s.amin(-1) if p != -2 else s.amin(-1) / s.amax(-1)
        return _out(r, out, "linalg_cond")
    if p not in ("fro", "nuc", 1, -1, math.inf, -math.inf):
        raise RuntimeError(f"linalg.cond got an invalid norm type: {p}")
    _square(a, "linalg.cond")
    r = torch.linalg.matrix_norm(a, p) * torch.linalg.matrix_norm(torch.linalg.inv(a), p)
    return _out(r, out, "linalg_cond")


# ---------------------------------------------------------------------------------------
# LDL^T (Bunch-Kaufman)


def _sytf2(a: np.ndarray, hermitian: bool) -> tuple[np.ndarray, np.ndarray, int]:
    """LAPACK's unblocked ``sytf2``/``hetf2`` (lower): Bunch-Kaufman diagonal pivoting of one
    matrix, in place on a copy; ``(LD, 1-based pivots, info)``."""
    a = np.array(a)
    n = a.shape[0]
    ipiv = np.zeros(n, np.int32)
    info = 0
    alpha = (1.0 + math.sqrt(17.0)) / 8.0
    conj = np.conj if hermitian else (lambda v: v)
    cabs1 = (lambda z: abs(z.real) + abs(z.imag)) if np.iscomplexobj(a) else abs
    k = 0
    while k < n:
        kstep = 1
        absakk = abs(a[k, k].real) if hermitian else cabs1(a[k, k])
        if k < n - 1:
            col = a[k + 1 :, k]
            imax = (
                k
                + 1
                + int(np.argmax(np.abs(col.real) + np.abs(col.imag) if np.iscomplexobj(a) else np.abs(col)))
            )
            colmax = cabs1(a[imax, k])
        else:
            imax, colmax = k, 0.0
        if max(absakk, colmax) == 0 or np.isnan(absakk):
            if info == 0:
                info = k + 1
            kp = k
            if hermitian:
                a[k, k] = a[k, k].real
        else:
            if absakk >= alpha * colmax:
                kp = k
            else:
                row = a[imax, k:imax]
                rowmax = max(cabs1(v) for v in row) if row.size else 0.0
                if imax < n - 1:
                    rowmax = max(rowmax, max(cabs1(v) for v in a[imax + 1 :, imax]))
                diag = abs(a[imax, imax].real) if hermitian else cabs1(a[imax, imax])
                if absakk >= alpha * colmax * (colmax / rowmax):
                    kp = k
                elif diag >= alpha * rowmax:
                    kp = imax
                else:
                    kp = imax
                    kstep = 2
            kk = k + kstep - 1
            if kp != kk:  # interchange rows and columns kk and kp in the trailing submatrix
                if kp < n - 1:
                    a[kp + 1 :, kk], a[kp + 1 :, kp] = a[kp + 1 :, kp].copy(), a[kp + 1 :, kk].copy()
                for j in range(kk + 1, kp):
                    t = conj(a[j, kk])
                    a[j, kk] = conj(a[kp, j])
                    a[kp, j] = t
                if hermitian:
                    a[kp, kk] = np.conj(a[kp, kk])
                a[kk, kk], a[kp, kp] = a[kp, kp], a[kk, kk]
                if kstep == 2:
                    a[k + 1, k], a[kp, k] = a[kp, k], a[k + 1, k]
            if kstep == 1:
                if k < n - 1:
                    d11 = 1.0 / (a[k, k].real if hermitian else a[k, k])
                    v = a[k + 1 :, k].copy()
                    a[k + 1 :, k + 1 :] -= np.tril(d11 * np.outer(v, conj(v)))
                    a[k + 1 :, k] *= d11
            elif k < n - 2:
                d21 = a[k + 1, k]
                if hermitian:
                    dd = abs(d21)
                    d11 = a[k + 1, k + 1].real / dd
                    d22 = a[k, k].real / dd
                    tt = 1.0 / (d11 * d22 - 1.0)
                    d21 = d21 / dd
                    dd = tt / dd
                    for j in range(k + 2, n):
                        wk = dd * (d11 * a[j, k] - d21 * a[j, k + 1])
                        wkp1 = dd * (d22 * a[j, k + 1] - np.conj(d21) * a[j, k])
                        a[j:, j] -= a[j:, k] * np.conj(wk) + a[j:, k + 1] * np.conj(wkp1)
                        a[j, k], a[j, k + 1] = wk, wkp1
                        a[j, j] = a[j, j].real
                else:
                    d11 = a[k + 1, k + 1] / d21
                    d22 = a[k, k] / d21
                    tt = 1.0 / (d11 * d22 - 1.0)
                    d21 = tt / d21
                    for j in range(k + 2, n):
                        wk = d21 * (d11 * a[j, k] - a[j, k + 1])
                        wkp1 = d21 * (d22 * a[j, k + 1] - a[j, k])
                        a[j:, j] -= a[j:, k] * wk + a[j:, k + 1] * wkp1
                        a[j, k], a[j, k + 1] = wk, wkp1
        if kstep == 1:
            ipiv[k] = kp + 1
        else:
            ipiv[k] = ipiv[k + 1] = -(kp + 1)
        k += kstep
    return np.tril(a), ipiv, info


def ldl_factor_ex(
    A: Tensor, *, hermitian: bool = False, check_errors: bool = False, out: Any = None
) -> tuple[Tensor, Tensor, Tensor]:
    """``(LD, pivots, info)``: the Bunch-Kaufman factorization ``P A P^T = L D L^T`` (``L^H``
    when ``hermitian``) packed as LAPACK's ``sytrf`` (lower), with ``info = k > 0`` when
    ``D[k-1, k-1]`` is exactly zero.  Computed on the host; no derivative (as PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.ldl_factor_ex(torch.tensor([[4.0, 2.0], [2.0, 5.0]])).LD
        tensor([[4.0000, 0.0000],
                [0.5000, 4.0000]])
    """
    a = as_tensor_arg(A, "linalg_ldl_factor_ex")
    _at_least_2d(a, "torch.linalg.ldl_factor_ex")
    _square(a, "torch.linalg.ldl_factor_ex")
    _float_in(a, "torch.linalg.ldl_factor_ex")
    host = np.asarray(a.detach().cpu().numpy())
    flat = host.reshape((-1,) + host.shape[-2:])
    res = [_sytf2(m, hermitian and np.iscomplexobj(host)) for m in flat]
    ld = np.stack([r[0] for r in res]).reshape(host.shape) if res else np.zeros_like(host)
    piv = (
        np.stack([r[1] for r in res]).reshape(host.shape[:-1]) if res else np.zeros(host.shape[:-1], np.int32)
    )
    info_np = np.asarray([r[2] for r in res], np.int32).reshape(host.shape[:-2])
    LD = torch.tensor(ld, dtype=a.dtype, device=a.device)
    pivots = torch.tensor(piv, dtype=torch.int32, device=a.device)
    info = torch.tensor(info_np, dtype=torch.int32, device=a.device)
    k = _first_failure(info) if check_errors else 0
    if k:
        raise _errors.LinAlgError(
            f"torch.linalg.ldl_factor_ex: {_batch_prefix(info, k)}The factorization could "
            f"not be completed because the input is singular (D[{k},{k}] is zero)."
        )
    if a.requires_grad and torch.is_grad_enabled():
        (LD,) = _no_derivative(
            (LD,), a, RuntimeError, "derivative for aten::linalg_ldl_factor_ex is not implemented"
        )
    return _named("linalg_ldl_factor_ex", ("LD", "pivots", "info"), (LD, pivots, info), out)


def ldl_factor(A: Tensor, *, hermitian: bool = False, out: Any = None) -> tuple[Tensor, Tensor]:
    """``(LD, pivots)`` of `ldl_factor_ex`; a singular ``D`` raises ``LinAlgError``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.ldl_factor(torch.tensor([[0.0, 1.0], [1.0, 0.0]])).pivots
        tensor([-2, -2], dtype=torch.int32)
    """
    LD, pivots, info = ldl_factor_ex(A, hermitian=hermitian)
    k = _first_failure(info)
    if k:
        raise _errors.LinAlgError(
            f"torch.linalg.ldl_factor: {_batch_prefix(info, k)}The factorization could not "
            f"be completed because the input is singular (D[{k},{k}] is zero)."
        )
    return _named("linalg_ldl_factor", ("LD", "pivots"), (LD, pivots), out)


def _ldl_unpack(ld: np.ndarray, piv: np.ndarray, hermitian: bool) -> tuple[np.ndarray, np.ndarray]:
    """``(M, D)`` with ``A = M D M^T`` (``M^H`` when Hermitian) from ``sytrf``'s lower packing
    of one matrix: ``M = P_1 L_1 P_2 L_2 ...`` (LAPACK's documented form), ``D`` block diagonal."""
    n = ld.shape[0]
    D = np.zeros_like(ld)
    M = np.eye(n, dtype=ld.dtype)
    k = 0
    while k < n:
        step = 1 if piv[k] > 0 else 2
        kp = abs(int(piv[k])) - 1
        Pk = np.eye(n, dtype=ld.dtype)
        swap = k if step == 1 else k + 1
        Pk[[swap, kp]] = Pk[[kp, swap]]
        Lk = np.eye(n, dtype=ld.dtype)
        Lk[k + step :, k : k + step] = ld[k + step :, k : k + step]
        D[k, k] = ld[k, k]
        if step == 2:
            D[k + 1, k + 1] = ld[k + 1, k + 1]
            D[k + 1, k] = ld[k + 1, k]
            D[k, k + 1] = np.conj(ld[k + 1, k]) if hermitian else ld[k + 1, k]
        M = M @ Pk @ Lk
        k += step
    return M, D


def ldl_solve(
    LD: Tensor, pivots: Tensor, B: Tensor, *, hermitian: bool = False, out: Tensor | None = None
) -> Tensor:
    """Solve ``A X = B`` from `ldl_factor`'s ``(LD, pivots)`` of ``A`` (``A = M D M^T`` with
    ``M`` the product of the pivots' permutations and the unit lower factors): two solves with
    ``M`` and one with the block-diagonal ``D``.  No derivative, as PyTorch.

    Example::

        >>> import fgrad.torch as torch
        >>> LD, piv = torch.linalg.ldl_factor(torch.tensor([[4.0, 2.0], [2.0, 5.0]]))
        >>> torch.linalg.ldl_solve(LD, piv, torch.tensor([[6.0], [7.0]]))
        tensor([[1.],
                [1.]])
    """
    ld, b = as_tensor_arg(LD, "linalg_ldl_solve"), as_tensor_arg(B, "linalg_ldl_solve")
    for t, what in ((ld, "LD"), (b, "B")):
        if t.dim() < 2:
            raise RuntimeError(
                f"torch.linalg.ldl_solve: Expected {what} to have at least 2 dimensions, but it has "
                f"{t.dim()} dimensions instead"
            )
    _square(ld, "torch.linalg.ldl_solve")
    if pivots.dtype != torch.int32:
        raise RuntimeError(f"torch.linalg.ldl_solve: Expected pivots to be integers. Got {pivots.dtype}")
    if b.shape[-2] != ld.shape[-1]:
        raise RuntimeError(
            f"torch.linalg.ldl_solve: Incompatible shapes of LD and B for the equation LD X = B "
            f"({ld.shape[-2]}x{ld.shape[-1]} and {b.shape[-2]}x{b.shape[-1]})"
        )
    if ld.dtype != b.dtype:
        raise RuntimeError(
            f"torch.linalg.ldl_solve: Expected LD and B to have the same dtype, but got LD with dtype "
            f"{ld.dtype} and B with dtype {b.dtype} instead"
        )
    h_ld = np.asarray(ld.detach().cpu().numpy())
    h_piv = np.asarray(pivots.cpu().numpy())
    flat_ld = h_ld.reshape((-1,) + h_ld.shape[-2:])
    flat_piv = h_piv.reshape((-1, h_piv.shape[-1]))
    ms, ds = [], []
    for m_ld, m_piv in zip(flat_ld, flat_piv):
        M, D = _ldl_unpack(m_ld, m_piv, hermitian and np.iscomplexobj(h_ld))
        ms.append(M)
        ds.append(D)
    M = torch.tensor(np.stack(ms).reshape(h_ld.shape), dtype=ld.dtype, device=ld.device)
    Dm = torch.tensor(np.stack(ds).reshape(h_ld.shape), dtype=ld.dtype, device=ld.device)
    Mt = M.mH if hermitian else M.mT
    rhs = b.detach()
    x = torch.linalg.solve(Mt, torch.linalg.solve(Dm, torch.linalg.solve(M, rhs)))
    grad_arg = b if b.requires_grad else ld
    (x,) = _no_derivative((x,), grad_arg, RuntimeError,
                          "derivative for aten::linalg_ldl_solve is not implemented")
    return _out(x, out, "linalg_ldl_solve")


# ---------------------------------------------------------------------------------------
# the removed torch.matrix_rank


def matrix_rank(*args: Any, **kwargs: Any) -> NoReturn:
    """Removed from PyTorch: raises PyTorch's RuntimeError (use `torch.linalg.matrix_rank`).

    Example::

        >>> import fgrad.torch as torch
        >>> try:
        ...     torch.matrix_rank(torch.eye(2))
        ... except RuntimeError as e:
        ...     print(str(e).split(".")[0])
        This function was deprecated since version 1
    """
    raise RuntimeError("This function was deprecated since version 1.9 and is now removed.\nPlease use "
                       "the `torch.linalg.matrix_rank` function instead. The parameter 'symmetric' was "
                       "renamed in `torch.linalg.matrix_rank()` to 'hermitian'.")


# ---------------------------------------------------------------------------------------
# registration

LINALG: dict[str, Callable] = {
    "solve_triangular": solve_triangular,
    "cholesky_ex": cholesky_ex,
    "inv_ex": inv_ex,
    "solve_ex": solve_ex,
    "lu_factor_ex": lu_factor_ex,
    "lu_factor": lu_factor,
    "lu": lu,
    "lu_solve": lu_solve,
    "eig": eig,
    "eigvals": eigvals,
    "householder_product": householder_product,
    "tensorinv": tensorinv,
    "tensorsolve": tensorsolve,
    "vander": vander,
    "vecdot": vecdot,
    "multi_dot": multi_dot,
    "matrix_rank": linalg_matrix_rank,
    "pinv": pinv,
    "cond": cond,
    "ldl_factor_ex": ldl_factor_ex,
    "ldl_factor": ldl_factor,
    "ldl_solve": ldl_solve,
}
FUNCTIONS: dict[str, Callable] = {
    "triangular_solve": triangular_solve,
    "geqrf": geqrf,
    "orgqr": orgqr,
    "ormqr": ormqr,
    "lu_unpack": lu_unpack,
    "matrix_rank": matrix_rank,
}
METHODS: dict[str, Callable] = {
    "triangular_solve": triangular_solve,
    "geqrf": geqrf,
    "orgqr": orgqr,
    "ormqr": ormqr,
}


def install(namespace: dict, linalg_namespace: dict) -> None:
    """Bind the functions into ``fgrad.torch`` (``namespace``) and ``fgrad.torch.linalg``
    (``linalg_namespace``), replacing the partial round-1 ``inv_ex``/``matrix_rank``/
    ``vecdot``/``multi_dot``/``cond``/``lu_unpack``, and the methods onto `Tensor`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.vander(torch.tensor([2.0, 3.0]))
        tensor([[1., 2.],
                [1., 3.]])
    """
    for name, fn in LINALG.items():
        linalg_namespace[name] = _errors.public(fn, name)
    linalg_namespace["matrix_exp"] = namespace["matrix_exp"]
    for name, fn in FUNCTIONS.items():
        namespace[name] = _errors.public(fn, name)
    for name, fn in METHODS.items():
        setattr(Tensor, name, fn)
