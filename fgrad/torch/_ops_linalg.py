"""Matrix products and the ``torch.*`` linear-algebra functions (mm, bmm, matmul, addmm,
dot, outer, cross, einsum, inverse, det, svd, ...).  Each is one recorded node whose fgrad
definition is the corresponding ``fgrad.numpy`` composite (dot_general & co)."""

from __future__ import annotations

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind

from ..ops import elementwise as ew
import fgrad.torch._conventions as _conv
import fgrad.torch._errors as _errors
import fgrad.numpy as fnp
import fgrad.torch._dtypes as D
from ._ops import return_type
from ._dispatch import result_tensor, apply_op, write_out
from . import _deprecations
from ._promotion import cpp_type_name as _cpp, result_dtype
from ._ops_shape import reshape, unsqueeze
from ._tensor import Tensor
from ._ops import mul
from ._ops import log
from ._ops_shape import _mT
from ._ops_creation import zeros_like
from ._autocast_state import lower_precision as _lower_precision
from . import _phase_check
from collections.abc import Sequence
from typing import Any
from ..typing import Shaped

_nd = np.ndarray


def _cvt(x, Rd):
    return ew.convert_element_type(x, Rd)


def _same_dtype(name, a, b):
    da, db = a._buf.dtype, b._buf.dtype
    if da != db:
        raise RuntimeError(
            f"expected m1 and m2 to have the same dtype, but got: {_cpp(da)} != {_cpp(db)}"
            if name in ("mm", "addmm", "matmul")
            else f"expected scalar type {D.from_np(da)._legacy} but found {D.from_np(db)._legacy}"
        )
    return da


def _mat_fn():
    def fn(x, y):
        return fnp.matmul(x, y)

    return fn


_MATMUL = _mat_fn()


@_lower_precision
def mm(input: Shaped[Tensor, "n m"], mat2: Shaped[Tensor, "m p"], *,
       out: Tensor | None = None) -> Shaped[Tensor, "n p"]:
    a, b = input._buf, mat2._buf
    if a.ndim != 2:
        raise RuntimeError("self must be a matrix")
    if b.ndim != 2:
        raise RuntimeError("mat2 must be a matrix")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )
    _same_dtype("mm", input, mat2)
    res = apply_op("MmBackward0", ("matmul",), _MATMUL, (input, mat2))
    return res if out is None else write_out(out, res, "mm")


@_lower_precision
def bmm(input: Shaped[Tensor, "b n m"], mat2: Shaped[Tensor, "b m p"], *,
        out: Tensor | None = None) -> Shaped[Tensor, "b n p"]:
    a, b = input._buf, mat2._buf
    if a.ndim != 3:
        raise RuntimeError("batch1 must be a 3D tensor")
    if b.ndim != 3:
        raise RuntimeError("batch2 must be a 3D tensor")
    if a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise RuntimeError(
            f"Expected size for first two dimensions of batch2 tensor to be: [{a.shape[0]}, "
            f"{a.shape[2]}] but got: [{b.shape[0]}, {b.shape[1]}]."
        )
    _same_dtype("bmm", input, mat2)
    res = apply_op("BmmBackward0", ("matmul",), _MATMUL, (input, mat2))
    return res if out is None else write_out(out, res, "bmm")


@_lower_precision
def matmul(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    a, b = input._buf, other._buf
    na, nb = a.ndim, b.ndim
    if na == 0 or nb == 0:
        raise RuntimeError(f"both arguments to matmul need to be at least 1D, but they are {na}D and {nb}D")
    _same_dtype("matmul", input, other)
    if na == 1 and nb == 1:
        return dot(input, other, out=out)
    if na == 2 and nb == 2:
        return mm(input, other, out=out)
    if na == 2 and nb == 1:
        return mv(input, other, out=out)
    ka = a.shape[-1]
    kb = b.shape[-2] if nb >= 2 else b.shape[0]
    if ka != kb:
        if na >= 2 and nb >= 2:
            raise RuntimeError(
                f"Expected size for first two dimensions of batch2 tensor to be: "
                f"[{int(np.prod(a.shape[:-2]))}, {ka}] but got: [{int(np.prod(b.shape[:-2]))}, {kb}]."
            )
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0] if na else 1}), mat ({a.shape[0]}x{ka}), vec ({kb})"
            if nb == 1
            else f"mat1 and mat2 shapes cannot be multiplied ({1}x{ka} and {kb}x{b.shape[-1]})"
        )
    name = "UnsafeViewBackward0" if na >= 3 or nb >= 3 else ("SqueezeBackward1" if na == 1 else "MmBackward0")
    res = apply_op(name, ("matmul",), _MATMUL, (input, other))
    return res if out is None else write_out(out, res, "matmul")


def mv(input: Shaped[Tensor, "n m"], vec: Shaped[Tensor, " m"], *,
       out: Tensor | None = None) -> Shaped[Tensor, " n"]:
    a, b = input._buf, vec._buf
    if a.ndim != 2 or b.ndim != 1:
        raise RuntimeError(f"vector + matrix @ vector expected, got {b.ndim}, {a.ndim}, {b.ndim}")
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"size mismatch, got input ({a.shape[0]}), mat ({a.shape[0]}x{a.shape[1]}), vec ({b.shape[0]})"
        )
    res = apply_op("MvBackward0", ("matmul",), _MATMUL, (input, vec))
    return res if out is None else write_out(out, res, "mv")


def dot(input: Shaped[Tensor, " n"], other: Shaped[Tensor, " n"], *,
        out: Tensor | None = None) -> Shaped[Tensor, ""]:
    a, b = input._buf, other._buf
    if a.ndim != 1 or b.ndim != 1:
        raise RuntimeError(f"1D tensors expected, but got {a.ndim}D and {b.ndim}D tensors")
    if a.shape[0] != b.shape[0]:
        raise RuntimeError(
            f"inconsistent tensor size, expected tensor [{a.shape[0]}] and src [{b.shape[0]}] to have "
            "the same number of elements, but got "
            f"{a.shape[0]} and {b.shape[0]} elements "
            "respectively"
        )
    if a.dtype != b.dtype:
        raise RuntimeError(
            f"dot : expected both vectors to have same dtype, but found {D.from_np(a.dtype)._legacy} "
            f"and {D.from_np(b.dtype)._legacy}"
        )
    if a.dtype == np.bool_:
        raise NotImplementedError("\"dot\" not implemented for 'Bool'")
    res = apply_op(
        "DotBackward0", ("matmul",), _MATMUL, (input, other)
    )
    return res if out is None else write_out(out, res, "dot")


def vdot(input: Shaped[Tensor, " n"], other: Shaped[Tensor, " n"], *,
         out: Tensor | None = None) -> Shaped[Tensor, ""]:
    def fn(x, y):
        return fnp.vdot(x, y)

    res = apply_op("VdotBackward0", ("vdot",), fn, (input, other))
    return res if out is None else write_out(out, res, "vdot")


def inner(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    if input._buf.ndim == 0 or other._buf.ndim == 0:

        return mul(input, other, out=out)

    def fn(x, y):
        return fnp.inner(x, y)

    res = apply_op("InnerBackward0", ("inner",), fn, (input, other))
    return res if out is None else write_out(out, res, "inner")


def outer(input: Shaped[Tensor, " n"], vec2: Shaped[Tensor, " m"], *,
          out: Tensor | None = None) -> Shaped[Tensor, "n m"]:

    for arg_name, v in (("input", input), ("vec2", vec2)):
        if v._buf.ndim != 1:
            raise RuntimeError(f"outer: Expected 1-D argument {arg_name}, but got {v._buf.ndim}-D")

    res = mul(unsqueeze(reshape(input, (-1,)), 1), reshape(vec2, (-1,)))
    return res if out is None else write_out(out, res, "outer")


ger = outer


def _scaled(x, s):
    """``s * x``; for integer ``x`` the scalar truncated to an integer first (PyTorch's
    ``addmm(int_M, A, B, beta=0.5)`` is ``0 * M + A @ B``, int64)."""
    if _dtype_kind(x.dtype) in "iu":
        s = int(s)
    return x if s == 1 else ew.mul(x, s)


@_lower_precision
def addmm(input: Tensor, mat1: Shaped[Tensor, "n m"], mat2: Shaped[Tensor, "m p"], *, beta: float = 1,
          alpha: float = 1, out: Tensor | None = None) -> Shaped[Tensor, "n p"]:
    a, b = mat1._buf, mat2._buf
    if a.ndim != 2 or b.ndim != 2:
        raise RuntimeError(
            f"mat1 must be a matrix, got {a.ndim}-D tensor"
            if a.ndim != 2
            else f"mat2 must be a matrix, got {b.ndim}-D tensor"
        )
    if a.shape[1] != b.shape[0]:
        raise RuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({a.shape[0]}x{a.shape[1]} and "
            f"{b.shape[0]}x{b.shape[1]})"
        )
    Rd = result_dtype(input, mat1, mat2)

    # 16-bit operands are computed in float32 and rounded once (as PyTorch): the input joins the
    # product in float32, not rounded to the 16-bit type first
    narrow = np.dtype(Rd).itemsize == 2

    def fn(c, x, y):
        p = fnp.matmul(x, y)
        return ew.add(_scaled(_cvt(c, p.dtype if narrow else Rd), beta) if beta != 0 else ew.mul(p, 0),
                      _scaled(p, alpha))

    res = apply_op("AddmmBackward0", ("addmm", beta, alpha, Rd), fn, (input, mat1, mat2))
    return res if out is None else write_out(out, res, "addmm")


def addmv(input: Tensor, mat: Shaped[Tensor, "n m"], vec: Shaped[Tensor, " m"], *, beta: float = 1,
          alpha: float = 1, out: Tensor | None = None) -> Shaped[Tensor, " n"]:
    def fn(c, x, y):
        return ew.add(_scaled(c, beta), _scaled(fnp.matmul(x, y), alpha))

    res = apply_op(
        "AddmvBackward0",
        ("addmv", beta, alpha),
        fn,
        (input, mat, vec),
    )
    return res if out is None else write_out(out, res, "addmv")


@_lower_precision
def addbmm(input: Tensor, batch1: Shaped[Tensor, "b n m"], batch2: Shaped[Tensor, "b m p"], *,
           beta: float = 1, alpha: float = 1, out: Tensor | None = None) -> Shaped[Tensor, "n p"]:
    def fn(c, x, y):
        return ew.add(_scaled(c, beta), _scaled(fnp.sum(fnp.matmul(x, y), axis=0), alpha))

    res = apply_op(
        "AddbmmBackward0",
        ("addbmm", beta, alpha),
        fn,
        (input, batch1, batch2),
    )
    return res if out is None else write_out(out, res, "addbmm")


@_lower_precision
def baddbmm(input: Tensor, batch1: Shaped[Tensor, "b n m"], batch2: Shaped[Tensor, "b m p"], *,
            beta: float = 1, alpha: float = 1, out: Tensor | None = None) -> Shaped[Tensor, "b n p"]:
    def fn(c, x, y):
        return ew.add(_scaled(c, beta), _scaled(fnp.matmul(x, y), alpha))

    res = apply_op(
        "BaddbmmBackward0",
        ("baddbmm", beta, alpha),
        fn,
        (input, batch1, batch2),
    )
    return res if out is None else write_out(out, res, "baddbmm")


def addr(input: Tensor, vec1: Shaped[Tensor, " n"], vec2: Shaped[Tensor, " m"], *, beta: float = 1,
         alpha: float = 1, out: Tensor | None = None) -> Shaped[Tensor, "n m"]:
    if _dtype_kind(np.dtype(result_dtype(input, vec1, vec2))) in "iub":
        for name, s in (("beta", beta), ("alpha", alpha)):  # PyTorch refuses here (addmm truncates)
            if isinstance(s, float):
                raise RuntimeError(f"For integral input tensors, argument {name} must not be a floating "
                                   "point number.")

    def fn(c, x, y):
        return ew.add(_scaled(c, beta), _scaled(fnp.outer(x, y), alpha))

    res = apply_op(
        "AddrBackward0",
        ("addr", beta, alpha),
        fn,
        (input, vec1, vec2),
    )
    return res if out is None else write_out(out, res, "addr")


def cross(input: Tensor, other: Tensor, dim: int | None = None, *, out: Tensor | None = None) -> Tensor:
    a = input._buf
    if dim is None:  # the first dimension of size 3 (deprecated; linalg.cross takes the last)
        _deprecations.warn_once("cross")
        dims = [i for i, s in enumerate(a.shape) if s == 3]
        if not dims:
            raise RuntimeError("no dimension of size 3 in input")
        dim = dims[0]
    return _linalg_cross(input, other, dim=dim, out=out)


def _linalg_cross(input: Tensor, other: Tensor, *, dim: int = -1, out: Tensor | None = None) -> Tensor:
    """``torch.linalg.cross``: the cross product of 3-vectors along ``dim`` (default the last),
    the other dimensions broadcast.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.linalg.cross(torch.eye(3), torch.eye(3).roll(1, 0))
        tensor([[ 0., -1.,  0.],
                [ 0.,  0., -1.],
                [-1.,  0.,  0.]])
    """
    for label, pos, t in (("input", 0, input), ("other", 1, other)):
        if not isinstance(t, Tensor):
            raise TypeError(f"cross(): argument '{label}' (position {pos}) must be Tensor, "
                            f"not {type(t).__name__}")
    na, nb = input._buf.shape[dim], other._buf.shape[dim]
    if na != 3 or nb != 3:
        raise RuntimeError(f"linalg.cross: inputs dimension {dim} must have length 3. Got {na} and {nb}")
    d = dim % input._buf.ndim

    def fn(x, y):
        return fnp.cross(x, y, axis=d)

    res = apply_op(
        "LinalgCrossBackward0", ("cross", d), fn, (input, other)
    )
    return res if out is None else write_out(out, res, "cross")


def _sublist_equation(args: tuple) -> tuple[str, tuple]:
    """PyTorch's sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` (ints 0-51, Ellipsis)
    as an equation string and the operands."""
    def letters(sub) -> str:
        out = []
        for s in sub:
            if s is Ellipsis:
                out.append("...")
            elif isinstance(s, int) and 0 <= s < 52:
                out.append(chr(ord("a") + s) if s < 26 else chr(ord("A") + s - 26))
            else:
                raise ValueError(
                    "einsum(): subscript in subscript list is not within the valid range [0, 52)")
        return "".join(out)

    operands = args[0::2][: len(args) // 2]
    subs = [letters(s) for s in args[1::2][: len(args) // 2]]
    eq = ",".join(subs) + ("->" + letters(args[-1]) if len(args) % 2 else "")
    return eq, tuple(operands)


@_lower_precision
def einsum(equation: str | Tensor, *operands: Any) -> Tensor:
    """Einstein summation: ``einsum("ij,jk->ik", a, b)``, or PyTorch's sublist form
    ``einsum(a, [0, 1], b, [1, 2], [0, 2])``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.einsum(torch.ones(2, 3), [0, 1], torch.ones(3), [1], [0])
        tensor([3., 3.])
    """
    if not isinstance(equation, str):
        equation, operands = _sublist_equation((equation, *operands))
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = tuple(operands[0])
    Rd = result_dtype(*operands)

    def fn(*xs):
        return fnp.einsum(equation, *[_cvt(x, Rd) for x in xs])

    return apply_op(
        "EinsumBackward0",
        ("einsum", equation, Rd),
        fn,
        tuple(operands),
    )


def tensordot(a: Tensor, b: Tensor, dims: int | Sequence[int] | Sequence[Sequence[int]] | Tensor = 2,
              out: Tensor | None = None) -> Tensor:
    if isinstance(dims, Tensor):
        dims = dims.tolist()
    axes = (
        dims
        if isinstance(dims, int)
        else tuple(tuple(d) if isinstance(d, (list, tuple)) else (d,) for d in dims)
    )

    def fn(x, y):
        return fnp.tensordot(x, y, axes)

    res = apply_op(
        "TensordotBackward0", ("tensordot", axes), fn, (a, b)
    )
    return res if out is None else write_out(out, res, "tensordot")


def kron(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    def fn(x, y):
        return fnp.kron(x, y)

    res = apply_op("KronBackward0", ("kron",), fn, (input, other))
    return res if out is None else write_out(out, res, "kron")


def chain_matmul(*matrices: Tensor, out: Tensor | None = None) -> Tensor:
    _deprecations.warn_once("chain_matmul")
    r = matrices[0]
    for m in matrices[1:]:
        r = mm(r, m)
    return r if out is None else write_out(out, r, "chain_matmul")


# ---------------------------------------------------------------------------------------
# decompositions and inverses


def _float_in(x, name):
    if _dtype_kind(x._buf.dtype) not in "fc":
        raise RuntimeError(
            f"{name}: Expected a floating point or complex tensor as input. Got "
            f"{D.from_np(x._buf.dtype)._legacy}"
        )


def _square(x, name):
    s = x._buf.shape
    if len(s) < 2 or s[-1] != s[-2]:
        raise RuntimeError(
            f"{name}: A must be batches of square matrices, but they are {s[-2] if len(s) > 1 else 1} "
            f"by {s[-1] if s else 1} matrices"
        )



def _inv_definition(x):
    """The fgrad definition of the inverse behind ``linalg.inv``/``inv_ex`` (one op key, one
    definition).

    Example::

        >>> import numpy as np
        >>> _inv_definition(np.eye(2) * 2).tolist()
        [[0.5, 0.0], [0.0, 0.5]]
    """
    return fnp.linalg.inv(x)

def inverse(input: Shaped[Tensor, "*batch n n"], *,
            out: Tensor | None = None) -> Shaped[Tensor, "*batch n n"]:
    _float_in(input, "linalg.inv")
    _square(input, "linalg.inv")
    b = input._buf
    try:
        np.linalg.inv(b)
    except np.linalg.LinAlgError:
        raise _errors.LinAlgError(
            "linalg.inv: A diagonal element of the LU factorization is zero, the inversion could not be "
            "completed because the input matrix is singular. (Use linalg.pinv, or add a small multiple "
            "of the identity.)"
        ) from None
    res = apply_op("LinalgInvExBackward0", ("inv",), _inv_definition, (input,))
    return res if out is None else write_out(out, res, "inverse")


def det(input: Shaped[Tensor, "*batch n n"]) -> Shaped[Tensor, "*batch"]:
    _float_in(input, "linalg.det")
    _square(input, "linalg.det")
    return apply_op(
        "LinalgDetBackward0",
        ("det",),
        _conv.det,  # gradient adj(A)^T: finite at singular matrices
        (input,),
    )


def logdet(input: Shaped[Tensor, "*batch n n"]) -> Shaped[Tensor, "*batch"]:

    sign, lad = slogdet(input)
    res = log(det(input))
    del sign, lad
    return res


def slogdet(input: Shaped[Tensor, "*batch n n"]) -> tuple[Shaped[Tensor, "*batch"], Shaped[Tensor, "*batch"]]:
    _float_in(input, "linalg.slogdet")
    _square(input, "linalg.slogdet")

    def fn(x):
        r = _conv.slogdet(x)  # logabsdet's gradient is ±inf, not NaN, at singular matrices
        return (r[0], r[1])

    s, ld = apply_op("LinalgSlogdetBackward0", ("slogdet",), fn, (input,), multi=True)
    return return_type("slogdet", ("sign", "logabsdet"))(s, ld)


def _svd(input, full_matrices):
    _float_in(input, "linalg.svd")

    def fn(x):
        r = fnp.linalg.svd(x, full_matrices=full_matrices)
        return (r[0], r[1], r[2])

    return apply_op("LinalgSvdBackward0", ("svd", full_matrices), fn, (input,), multi=True)


def svd(input: Tensor, some: bool = True, compute_uv: bool = True, *,
        out: Tensor | None = None) -> tuple[Tensor, Tensor, Tensor]:

    u, s, vh = _svd(input, not some)
    if compute_uv:
        u, vh = _phase_check.phase_checked_svd(u, vh)
    if not compute_uv:

        return return_type("svd", ("U", "S", "V"))(zeros_like(u), s, zeros_like(_mT(vh)))
    return return_type("svd", ("U", "S", "V"))(u, s, _mT(vh))


def pinverse(input: Tensor, rcond: float = 1e-15) -> Tensor:
    return apply_op(
        "LinalgPinvBackward0",
        ("pinv", rcond),
        lambda x: fnp.linalg.pinv(x, rcond),
        (input,),
    )


def matrix_power(input: Shaped[Tensor, "*batch n n"], n: int) -> Shaped[Tensor, "*batch n n"]:
    return apply_op(
        "LinalgMatrixPowerBackward0",
        ("matrix_power", n),
        lambda x: fnp.linalg.matrix_power(x, n),
        (input,),
    )


def cholesky(input: Shaped[Tensor, "*batch n n"], upper: bool = False, *,
             out: Tensor | None = None) -> Shaped[Tensor, "*batch n n"]:
    from .linalg import cholesky as lc

    _deprecations.warn_once("cholesky")
    res = lc(input, upper=upper)
    return res if out is None else write_out(out, res, "cholesky")


def qr(input: Tensor, some: bool = True, *, out: Tensor | None = None) -> tuple[Tensor, Tensor]:
    from .linalg import qr as lq

    _deprecations.warn_once("qr")
    return lq(input, "reduced" if some else "complete")


def lu_unpack(*args: Any, **kwargs: Any) -> tuple[Tensor, Tensor, Tensor]:  # pragma: no cover - rarely used
    raise NotImplementedError("fgrad.torch: lu_unpack is not supported")


_ = (result_tensor, _nd)
