"""PyTorch functions the shim lacked (round 8): bit shifts, ``frexp``, ``nextafter``,
``isin``, the ``hsplit``/``vsplit``/``dsplit`` and ``split_with_sizes`` splits,
``adjoint``, ``fill``, ``cov``/``corrcoef``, ``cholesky_solve``/``cholesky_inverse``/
``matrix_exp``, predicates (``is_same_size``, ``is_signed``, ``is_inference``), the
removed ``Tensor.lstsq``/``solve``/``eig``/``symeig`` (PyTorch's errors) and ``torch.vmap``.

Each computing op is a recorded node whose definition is the `fgrad.numpy`/`fgrad.lax`
function (one implementation and one derivative for both faces) or a composition of the
shim's existing ops.

Example::

    >>> import fgrad.torch as torch
    >>> torch.bitwise_left_shift(torch.tensor([1, 2]), 3)
    tensor([ 8, 16])
"""

from __future__ import annotations

import numpy as np

import fgrad
import fgrad.lax as lax
import fgrad.scipy.linalg as fsl
import fgrad.numpy as fnp
import fgrad.torch as torch

from ._dispatch import apply_op
from ._faces import as_tensor_arg
from ._tensor import Tensor


def _operand(x, like: Tensor) -> Tensor:
    return x if isinstance(x, Tensor) else torch.tensor(x, dtype=like.dtype, device=like.device)


def _int_operands(name: str, input, other) -> tuple[Tensor, Tensor]:
    if not isinstance(input, Tensor):
        input = torch.tensor(input)
    other = other if isinstance(other, Tensor) else torch.tensor(other, device=input.device)
    for t in (input, other):
        if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
            raise RuntimeError(f"\"{name}_cpu\" not implemented for "
                               f"'{_type_name(t)}'")
    return input, other


def _type_name(t: Tensor) -> str:
    return {"float32": "Float", "float64": "Double", "float16": "Half", "bfloat16": "BFloat16",
            "bool": "Bool", "complex64": "ComplexFloat", "complex128": "ComplexDouble"}.get(
                str(t.dtype).replace("torch.", ""), str(t.dtype))


def _shift(name: str, input, other, left: bool) -> Tensor:
    a, b = _int_operands(name, input, other)
    R = torch.result_type(a, b) if isinstance(other, Tensor) else a.dtype
    bits = np.dtype(torch._dtypes.to_np(R)).itemsize * 8

    def fn(x, y):
        rd = x.dtype
        x = lax.convert_element_type(x, rd)
        y = lax.convert_element_type(y, rd)
        big = fnp.logical_or(y < 0, y >= bits)  # PyTorch: out-of-range shifts give 0 (or -1 right)
        ys = fnp.where(big, fnp.zeros_like(y), y)
        if left:
            return fnp.where(big, fnp.zeros_like(x), lax.shift_left(x, ys))
        r = lax.shift_right_arithmetic(x, ys)
        return fnp.where(big, fnp.where(x < 0, -fnp.ones_like(x), fnp.zeros_like(x)), r)

    a = a.to(R)
    b = b.to(R)
    return apply_op("BitwiseShiftBackward0", (name, str(R)), fn, (a, b))


def bitwise_left_shift(input: Tensor, other, *, out: Tensor | None = None) -> Tensor:
    """``input << other`` elementwise on integer tensors.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.bitwise_left_shift(torch.tensor([1, -3]), 2)
        tensor([  4, -12])
    """
    return _out(_shift("lshift", input, other, True), out)


def bitwise_right_shift(input: Tensor, other, *, out: Tensor | None = None) -> Tensor:
    """``input >> other`` (arithmetic) elementwise on integer tensors.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.bitwise_right_shift(torch.tensor([16, -16]), 2)
        tensor([ 4, -4])
    """
    return _out(_shift("rshift", input, other, False), out)


def _out(res: Tensor, out: Tensor | None) -> Tensor:
    if out is None:
        return res
    out.resize_(res.shape)
    return out.copy_(res)


def frexp(input: Tensor, *, out=None):
    """Mantissa in ``[0.5, 1)`` and integer exponent with ``input = mantissa * 2**exponent``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.frexp(torch.tensor([8.0, 0.75]))
        torch.return_types.frexp(
        mantissa=tensor([0.5000, 0.7500]),
        exponent=tensor([ 4, 0], dtype=torch.int32))
    """
    x = as_tensor_arg(input, "frexp")
    if not x.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")

    def fn(v):
        m, e = fnp.frexp(v)
        return m, lax.convert_element_type(e, np.int32)

    m, e = apply_op("FrexpBackward0", ("frexp",), fn, (x,), multi=True)
    res = _FrexpResult((m, e))
    if out is not None:
        _out(m, out[0])
        _out(e, out[1])
        return _FrexpResult(tuple(out))
    return res


def nextafter(input: Tensor, other: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The next floating-point value after ``input`` towards ``other``.

    Example::

        >>> import fgrad.torch as torch
        >>> one = torch.tensor([1.0], dtype=torch.float64)
        >>> (torch.nextafter(one, torch.tensor([2.0], dtype=torch.float64)) - one).item()
        2.220446049250313e-16
    """
    x = as_tensor_arg(input, "nextafter")
    y = _operand(other, x)
    R = torch.result_type(x, y)
    if not R.is_floating_point:
        raise RuntimeError(f"\"nextafter_cpu\" not implemented for '{_type_name(x.to(R))}'")
    return _out(apply_op("NextafterBackward0", ("nextafter",), fnp.nextafter, (x.to(R), y.to(R))), out)


def isin(elements, test_elements, *, assume_unique: bool = False, invert: bool = False) -> Tensor:
    """Whether each element of ``elements`` is in ``test_elements`` (a bool tensor).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5]))
        tensor([False,  True, False])
    """
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError("isin() received an invalid combination of arguments - got (Elements, Test): "
                        "at least one of them must be a Tensor")
    like = elements if isinstance(elements, Tensor) else test_elements
    e = _operand(elements, like)
    t = _operand(test_elements, like)
    return apply_op("IsinBackward0", ("isin", bool(invert)),
                    lambda a, b: fnp.isin(a, b, invert=invert), (e.detach(), t.detach()))


def _split_dims(name: str, x: Tensor, sections, dim: int, min_dims: int) -> tuple[Tensor, ...]:
    if x.dim() < min_dims:
        raise RuntimeError(f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a "
                           f"tensor with {x.dim()} dimensions!")
    if isinstance(sections, int):
        n = x.shape[dim]
        if sections == 0 or n % sections:
            raise RuntimeError(f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                               f"dimension {n} is not divisible by the split_size {sections}!")
    return torch.tensor_split(x, sections, dim)


def hsplit(input: Tensor, indices_or_sections) -> tuple[Tensor, ...]:
    """Split along columns (dimension 1, or 0 for 1-D), as NumPy's ``hsplit``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.hsplit(torch.arange(4), 2)
        (tensor([0, 1]), tensor([2, 3]))
    """
    x = as_tensor_arg(input, "hsplit")
    return _split_dims("hsplit", x, indices_or_sections, 1 if x.dim() > 1 else 0, 1)


def vsplit(input: Tensor, indices_or_sections) -> tuple[Tensor, ...]:
    """Split along rows (dimension 0) of a tensor of at least 2 dimensions.

    Example::

        >>> import fgrad.torch as torch
        >>> [t.shape for t in torch.vsplit(torch.zeros(4, 2), [1])]
        [torch.Size([1, 2]), torch.Size([3, 2])]
    """
    return _split_dims("vsplit", as_tensor_arg(input, "vsplit"), indices_or_sections, 0, 2)


def dsplit(input: Tensor, indices_or_sections) -> tuple[Tensor, ...]:
    """Split along depth (dimension 2) of a tensor of at least 3 dimensions.

    Example::

        >>> import fgrad.torch as torch
        >>> [t.shape for t in torch.dsplit(torch.zeros(1, 1, 4), 2)]
        [torch.Size([1, 1, 2]), torch.Size([1, 1, 2])]
    """
    return _split_dims("dsplit", as_tensor_arg(input, "dsplit"), indices_or_sections, 2, 3)


def split_with_sizes(input: Tensor, split_sizes, dim: int = 0) -> tuple[Tensor, ...]:
    """Split into pieces of the given sizes, which must sum to the dimension's size.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.split_with_sizes(torch.arange(5), [2, 3])
        (tensor([0, 1]), tensor([2, 3, 4]))
    """
    x = as_tensor_arg(input, "split_with_sizes")
    sizes = [int(s) for s in split_sizes]
    d = dim % max(x.dim(), 1)
    if sum(sizes) != x.shape[d] or any(s < 0 for s in sizes):
        raise RuntimeError(f"split_with_sizes expects split_sizes to sum exactly to {x.shape[d]} (input tensor's "
                           f"size at dimension {dim}), but got split_sizes={sizes}")
    return tuple(torch.split(x, sizes, d))


def adjoint(input: Tensor) -> Tensor:
    """The conjugate transpose of the last two dimensions (a view for real tensors).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.adjoint(torch.tensor([[1 + 1j, 2]]))
        tensor([[1.-1.j],
                [2.-0.j]])
    """
    x = as_tensor_arg(input, "adjoint")
    if x.dim() < 2:
        raise RuntimeError("tensor.adjoint() is only supported on matrices or batches of matrices. Got "
                           f"{x.dim()}-D tensor.")
    return torch.conj(x.transpose(-2, -1))


def fill(input: Tensor, value) -> Tensor:
    """A new tensor like ``input`` filled with ``value`` (out-of-place ``fill_``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.fill(torch.zeros(2), 3.0)
        tensor([3., 3.])
    """
    x = as_tensor_arg(input, "fill")
    return x.clone().fill_(value)


def is_same_size(input: Tensor, other: Tensor) -> bool:
    """Whether both tensors have the same shape.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_same_size(torch.zeros(2, 3), torch.ones(2, 3))
        True
    """
    return tuple(input.shape) == tuple(other.shape)


def is_signed(input: Tensor) -> bool:
    """Whether the tensor's dtype is signed (bool and unsigned integers are not).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_signed(torch.tensor([1], dtype=torch.uint8))
        False
    """
    return input.is_signed()


def is_inference(input: Tensor) -> bool:
    """Whether the tensor was created under ``inference_mode`` (always False in fgrad, whose
    inference mode only turns recording off).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_inference(torch.zeros(1))
        False
    """
    return False


def cov(input: Tensor, *, correction: int = 1, fweights: Tensor | None = None,
        aweights: Tensor | None = None) -> Tensor:
    """Covariance of the variables in the rows of ``input`` (observations in columns).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cov(torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    x = as_tensor_arg(input, "cov")
    if x.dim() > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{x.dim()} dimensions")
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.get_default_dtype())
    args = [x]
    for w, name in ((fweights, "fweights"), (aweights, "aweights")):
        if w is not None:
            if w.dim() > 1:
                raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                                   f"{w.dim()} dimensions")
            n_obs = x.shape[-1] if x.dim() else 1
            if w.numel() != n_obs:
                raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in "
                                   f"the input but got {w.numel()} != {n_obs}")
            if name == "fweights" and (w.is_floating_point() or w.is_complex()):
                raise RuntimeError("cov(): expected fweights to have integral dtype but got fweights with "
                                   f"{_type_name(w)} dtype")
            if name == "aweights" and not w.is_floating_point():
                raise RuntimeError("cov(): expected aweights to have floating point dtype but got aweights with "
                                   f"{_type_name(w)} dtype")
            if bool((w < 0).any()):
                raise RuntimeError(f"cov(): {name} cannot be negative")
            args.append(w)
    has_f, has_a = fweights is not None, aweights is not None

    def fn(v, *ws):
        f = ws[0] if has_f else None
        a = ws[-1] if has_a else None
        r = fnp.cov(v, ddof=correction, fweights=f, aweights=a)
        return r

    return apply_op("CovBackward0", ("cov", correction, has_f, has_a), fn, tuple(args))


def corrcoef(input: Tensor) -> Tensor:
    """Pearson correlation coefficients of the rows of ``input``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.corrcoef(torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    c = cov(input)
    if c.dim() == 0:
        return c / c
    d = torch.diagonal(c)
    stddev = torch.sqrt(d.real if d.is_complex() else d)
    c = c / stddev.unsqueeze(-1)
    c = c / stddev.unsqueeze(0)
    if c.is_complex():
        return torch.complex(c.real.clamp(-1, 1), c.imag.clamp(-1, 1))
    return c.clamp(-1, 1)


def cholesky_solve(B: Tensor, L: Tensor, upper: bool = False, *, out: Tensor | None = None) -> Tensor:
    """Solve ``A X = B`` given the Cholesky factor ``L`` of ``A`` (``U`` when ``upper``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cholesky_solve(torch.tensor([[2.0], [4.0]]), torch.tensor([[2.0, 0.0], [0.0, 1.0]]))
        tensor([[0.5000],
                [4.0000]])
    """
    b = as_tensor_arg(B, "cholesky_solve")
    f = as_tensor_arg(L, "cholesky_solve")
    if b.dim() < 2 or f.dim() < 2:
        raise RuntimeError(f"b should have at least 2 dimensions, but has {b.dim()} dimensions instead"
                           if b.dim() < 2 else
                           f"u should have at least 2 dimensions, but has {f.dim()} dimensions instead")
    R = torch.result_type(b, f)
    if not (R.is_floating_point or R.is_complex):
        raise RuntimeError(f"cholesky_solve: expected floating point or complex inputs, got {R}")

    def fn(bv, fv):
        lower = fnp.conj(fnp.swapaxes(fv, -1, -2)) if upper else fv
        y = fsl.solve_triangular(lower, bv, lower=True)
        return fsl.solve_triangular(lower, y, lower=True, trans="C")

    res = apply_op("CholeskySolveBackward0", ("cholesky_solve", bool(upper)), fn, (b.to(R), f.to(R)))
    return _out(res, out)


def cholesky_inverse(L: Tensor, upper: bool = False, *, out: Tensor | None = None) -> Tensor:
    """The inverse of ``A`` from its Cholesky factor ``L`` (``U`` when ``upper``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cholesky_inverse(torch.tensor([[2.0, 0.0], [0.0, 1.0]]))
        tensor([[0.2500, 0.0000],
                [0.0000, 1.0000]])
    """
    f = as_tensor_arg(L, "cholesky_inverse")
    if f.dim() < 2 or f.shape[-1] != f.shape[-2]:
        raise RuntimeError(f"A must be batches of square matrices, but they are {f.shape[-2] if f.dim() > 1 else 1}"
                           f" by {f.shape[-1] if f.dim() else 1} matrices")
    eye = torch.eye(f.shape[-1], dtype=f.dtype, device=f.device).expand(f.shape)
    return _out(cholesky_solve(eye, f, upper), out)


def matrix_exp(input: Tensor) -> Tensor:
    """The matrix exponential of a square matrix (or a batch of them).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.matrix_exp(torch.zeros(2, 2))
        tensor([[1., 0.],
                [0., 1.]])
    """
    x = as_tensor_arg(input, "matrix_exp")
    if x.dim() < 2 or x.shape[-1] != x.shape[-2]:
        raise RuntimeError("linalg.matrix_exp: A must be batches of square matrices, but they are "
                           f"{x.shape[-2] if x.dim() > 1 else 1} by {x.shape[-1] if x.dim() else 1} matrices")
    if not (x.is_floating_point() or x.is_complex()):
        raise RuntimeError(f"linalg.matrix_exp: Expected a floating point or complex tensor as input. Got {_type_name(x)}")
    return apply_op("LinalgMatrixExpBackward0", ("matrix_exp",), _expm, (x,))


def _expm(a):
    if a.ndim == 2:
        return fsl.expm(a)
    return fnp.reshape(fgrad.vmap(fsl.expm)(fnp.reshape(a, (-1,) + a.shape[-2:])), a.shape)


def _removed(name: str, text: str):
    def fn(*args, **kwargs):
        raise RuntimeError(text)

    fn.__name__ = name
    fn.__doc__ = (f"Removed from PyTorch: raises PyTorch's RuntimeError.\n\nExample::\n\n"
                  f"    >>> import fgrad.torch as torch\n    >>> try:\n    ...     torch.{name}(torch.eye(2))\n"
                  f"    ... except RuntimeError as e:\n    ...     print(str(e).split(' ')[0])\n    This\n")
    return fn


_REMOVED = {
    "lstsq": _removed("lstsq", "This function was deprecated since version 1.9 and is now removed. "
                      "`torch.linalg.lstsq` has its arguments reversed and does not return the QR decomposition "
                      "in the returned tuple (although it returns other information about the problem).\n\n"
                      "To get the QR decomposition consider using `torch.linalg.qr`.\n\n"
                      "The returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n "
                      "columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the "
                      "field 'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\n"
                      "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
                      "X = torch.linalg.lstsq(A, B).solution"),
    "solve": _removed("solve", "This function was deprecated since version 1.9 and is now removed. "
                      "`torch.linalg.solve` has its arguments reversed and does not return the LU factorization.\n\n"
                      "To get the LU factorization see `torch.lu`, which can be used with `torch.lu_solve` or "
                      "`torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced with:\n"
                      "X = torch.linalg.solve(A, B)"),
    "eig": _removed("eig", "This function was deprecated since version 1.9 and is now removed. "
                    "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real "
                    "tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\n"
                    "L_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be "
                    "replaced with:\nL_complex, V_complex = torch.linalg.eig(A)"),
    "symeig": _removed("symeig", "This function was deprecated since version 1.9 and is now removed. "
                       "Please use the `torch.linalg.eigh` function instead."),
}


def vmap(func, in_dims=0, out_dims=0, randomness: str = "error", *, chunk_size=None):
    """``torch.vmap``: `fgrad.torch.func.vmap`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.vmap(torch.dot)(torch.ones(3, 2), torch.ones(3, 2))
        tensor([2., 2., 2.])
    """
    return torch.func.vmap(func, in_dims, out_dims, randomness, chunk_size=chunk_size)


def _hardshrink(self: Tensor, lambd: float = 0.5) -> Tensor:
    return torch.nn.functional.hardshrink(self, lambd)


def _prelu(self: Tensor, weight: Tensor) -> Tensor:
    return torch.nn.functional.prelu(self, weight)


class _FrexpResult(tuple):
    """``torch.return_types.frexp``: (mantissa, exponent)."""

    @property
    def mantissa(self) -> Tensor:
        return self[0]

    @property
    def exponent(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return f"torch.return_types.frexp(\nmantissa={self[0]!r},\nexponent={self[1]!r})"


FUNCTIONS = {
    "bitwise_left_shift": bitwise_left_shift, "bitwise_right_shift": bitwise_right_shift, "frexp": frexp,
    "nextafter": nextafter, "isin": isin, "hsplit": hsplit, "vsplit": vsplit, "dsplit": dsplit,
    "split_with_sizes": split_with_sizes, "adjoint": adjoint, "fill": fill, "is_same_size": is_same_size,
    "is_signed": is_signed, "is_inference": is_inference, "cov": cov, "corrcoef": corrcoef,
    "cholesky_solve": cholesky_solve, "cholesky_inverse": cholesky_inverse, "matrix_exp": matrix_exp,
    "vmap": vmap, **_REMOVED,
}
METHODS = {
    "bitwise_left_shift": bitwise_left_shift, "bitwise_right_shift": bitwise_right_shift, "frexp": frexp,
    "nextafter": nextafter, "hsplit": hsplit, "vsplit": vsplit, "dsplit": dsplit,
    "split_with_sizes": split_with_sizes, "adjoint": adjoint, "is_same_size": is_same_size,
    "cov": lambda self, **kw: cov(self, **kw), "corrcoef": corrcoef, "cholesky_solve": cholesky_solve,
    "cholesky_inverse": cholesky_inverse, "matrix_exp": matrix_exp, "hardshrink": _hardshrink,
    "prelu": _prelu, **_REMOVED,
}
