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

import builtins
import warnings
from typing import Any, Callable, NoReturn, Sequence

import numpy as np

import fgrad
import fgrad.lax as lax
import fgrad.scipy.linalg as fsl
import fgrad.numpy as fnp
from fgrad.numpy._calculus import gradient_with_edge_order
import fgrad.torch as torch
import fgrad.torch.types as types

from . import _ops_shape as _shape_ops
from ._dispatch import apply_op
from . import _deprecations
from ._faces import as_tensor_arg, check_tensor_other
from ._tensor import Tensor
from .nn.functional import rms_norm as _rms_norm  # one definition: nn.functional's op


def _operand(x, like: Tensor) -> Tensor:
    return x if isinstance(x, Tensor) else torch.tensor(x, dtype=like.dtype, device=like.device)


def _int_operands(name: str, input, other) -> tuple[Tensor, Tensor]:
    if not isinstance(input, Tensor):
        input = torch.tensor(input)
    other = other if isinstance(other, Tensor) else torch.tensor(other, device=input.device)
    for t in (input, other):
        if t.is_floating_point() or t.is_complex() or t.dtype == torch.bool:
            raise NotImplementedError(f"\"{name}_cpu\" not implemented for '{_type_name(t)}'")
    return input, other


def _type_name(t: Tensor) -> str:
    return t.dtype._legacy  # PyTorch's name in kernel errors: 'Long', 'Float', 'ComplexFloat'...


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


def bitwise_left_shift(input: Tensor, other: types.TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    """``input << other`` elementwise on integer tensors.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.bitwise_left_shift(torch.tensor([1, -3]), 2)
        tensor([  4, -12])
    """
    return _out(_shift("lshift", input, other, True), out)


def bitwise_right_shift(input: Tensor, other: types.TensorOrScalar, *, out: Tensor | None = None) -> Tensor:
    """``input >> other`` (arithmetic) elementwise on integer tensors.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.bitwise_right_shift(torch.tensor([16, -16]), 2)
        tensor([ 4, -4])
    """
    return _out(_shift("rshift", input, other, False), out)


def _rlshift(self: Tensor, other: types.TensorOrScalar) -> Tensor:
    """``other << self`` (a Python int shifted by a tensor)."""
    return bitwise_left_shift(torch.as_tensor(other, dtype=self.dtype), self)


def _rrshift(self: Tensor, other: types.TensorOrScalar) -> Tensor:
    """``other >> self``."""
    return bitwise_right_shift(torch.as_tensor(other, dtype=self.dtype), self)


def _out(res: Tensor, out: Tensor | None) -> Tensor:
    if out is None:
        return res
    out.resize_(res.shape)
    return out.copy_(res)


def frexp(input: Tensor, *, out: tuple[Tensor, Tensor] | None = None) -> tuple[Tensor, Tensor]:
    """Mantissa in ``[0.5, 1)`` and integer exponent with ``input = mantissa * 2**exponent``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.frexp(torch.tensor([8.0, 0.75]))
        torch.return_types.frexp(
        mantissa=tensor([0.5000, 0.7500]),
        exponent=tensor([4, 0], dtype=torch.int32))
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
    check_tensor_other("nextafter", other)
    y = _operand(other, x)
    R = torch.result_type(x, y)
    if not R.is_floating_point:
        raise NotImplementedError(f"\"nextafter_cpu\" not implemented for '{_type_name(x.to(R))}'")
    return _out(apply_op("NextafterBackward0", ("nextafter",), fnp.nextafter, (x.to(R), y.to(R))), out)


def isin(elements: types.TensorOrScalar, test_elements: types.TensorOrScalar, *, assume_unique: bool = False,
         invert: bool = False) -> Tensor:
    """Whether each element of ``elements`` is in ``test_elements`` (a bool tensor).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.isin(torch.tensor([1, 2, 3]), torch.tensor([2, 5]))
        tensor([False,  True, False])
    """
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise TypeError(
            "isin() received an invalid combination of arguments - got (Elements, Test): "
            "at least one of them must be a Tensor"
        )
    like = elements if isinstance(elements, Tensor) else test_elements
    e = _operand(elements, like)
    t = _operand(test_elements, like)
    return apply_op(
        "IsinBackward0",
        ("isin", bool(invert)),
        lambda a, b: fnp.isin(a, b, invert=invert),
        (e.detach(), t.detach()),
    )


def _split_dims(name: str, x: Tensor, sections, dim: int, min_dims: int) -> tuple[Tensor, ...]:
    if x.dim() < min_dims:
        raise RuntimeError(
            f"torch.{name} requires a tensor with at least {min_dims} dimension, but got a "
            f"tensor with {x.dim()} dimensions!"
        )
    if isinstance(sections, int):
        n = x.shape[dim]
        if sections == 0 or n % sections:
            raise RuntimeError(
                f"torch.{name} attempted to split along dimension {dim}, but the size of the "
                f"dimension {n} is not divisible by the split_size {sections}!"
            )
    return torch.tensor_split(x, sections, dim)


def hsplit(input: Tensor, indices_or_sections: types.IntOrInts) -> tuple[Tensor, ...]:
    """Split along columns (dimension 1, or 0 for 1-D), as NumPy's ``hsplit``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.hsplit(torch.arange(4), 2)
        (tensor([0, 1]), tensor([2, 3]))
    """
    x = as_tensor_arg(input, "hsplit")
    return _split_dims("hsplit", x, indices_or_sections, 1 if x.dim() > 1 else 0, 1)


def vsplit(input: Tensor, indices_or_sections: types.IntOrInts) -> tuple[Tensor, ...]:
    """Split along rows (dimension 0) of a tensor of at least 2 dimensions.

    Example::

        >>> import fgrad.torch as torch
        >>> [t.shape for t in torch.vsplit(torch.zeros(4, 2), [1])]
        [torch.Size([1, 2]), torch.Size([3, 2])]
    """
    return _split_dims("vsplit", as_tensor_arg(input, "vsplit"), indices_or_sections, 0, 2)


def dsplit(input: Tensor, indices_or_sections: types.IntOrInts) -> tuple[Tensor, ...]:
    """Split along depth (dimension 2) of a tensor of at least 3 dimensions.

    Example::

        >>> import fgrad.torch as torch
        >>> [t.shape for t in torch.dsplit(torch.zeros(1, 1, 4), 2)]
        [torch.Size([1, 1, 2]), torch.Size([1, 1, 2])]
    """
    return _split_dims("dsplit", as_tensor_arg(input, "dsplit"), indices_or_sections, 2, 3)


def split_with_sizes(input: Tensor, split_sizes: Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
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
        raise RuntimeError(
            f"split_with_sizes expects split_sizes to sum exactly to {x.shape[d]} (input tensor's "
            f"size at dimension {dim}), but got split_sizes={sizes}"
        )
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
        raise RuntimeError(
            f"tensor.adjoint() is only supported on matrices or batches of matrices. Got {x.dim()}-D tensor."
        )
    return torch.conj(x.transpose(-2, -1))


def fill(input: Tensor, value: types.TensorOrScalar) -> Tensor:
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
    for arg, label in ((input, "input"), (other, "other")):
        if not isinstance(arg, Tensor):
            raise TypeError(f"is_same_size(): argument '{label}' must be Tensor, not {type(arg).__name__}")
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
    """Whether the tensor was created under ``inference_mode``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_inference(torch.zeros(1))
        False
    """
    if not isinstance(input, Tensor):
        raise TypeError(
            f"is_inference(): argument 'input' (position 1) must be Tensor, not {type(input).__name__}"
        )
    return input.is_inference()


def cov(
    input: Tensor, *, correction: int = 1, fweights: Tensor | None = None, aweights: Tensor | None = None
) -> Tensor:
    """Covariance of the variables in the rows of ``input`` (observations in columns).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cov(torch.tensor([[0.0, 1.0, 2.0], [2.0, 1.0, 0.0]]))
        tensor([[ 1., -1.],
                [-1.,  1.]])
    """
    x = as_tensor_arg(input, "cov")
    if x.dim() > 2:
        raise RuntimeError(
            f"cov(): expected input to have two or fewer dimensions but got an input with "
            f"{x.dim()} dimensions"
        )
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.get_default_dtype())
    args = [x]
    for w, name in ((fweights, "fweights"), (aweights, "aweights")):
        if w is not None:
            if w.dim() > 1:
                raise RuntimeError(
                    f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                    f"{w.dim()} dimensions"
                )
            n_obs = x.shape[-1] if x.dim() else 1
            if w.numel() != n_obs:
                raise RuntimeError(
                    f"cov(): expected {name} to have the same numel as there are observations in "
                    f"the input but got {w.numel()} != {n_obs}"
                )
            if name == "fweights" and (w.is_floating_point() or w.is_complex()):
                raise RuntimeError(
                    "cov(): expected fweights to have integral dtype but got fweights with "
                    f"{_type_name(w)} dtype"
                )
            if name == "aweights" and not w.is_floating_point():
                raise RuntimeError(
                    "cov(): expected aweights to have floating point dtype but got aweights with "
                    f"{_type_name(w)} dtype"
                )
            if bool((w < 0).any()):
                raise RuntimeError(f"cov(): {name} cannot be negative")
            args.append(w)
    has_f, has_a = fweights is not None, aweights is not None
    if has_a:  # float64 weights promote a float32 input (PyTorch)
        x = x.to(torch.promote_types(x.dtype, aweights.dtype))
        args[0] = x

    def fn(v, *ws):
        f = ws[0] if has_f else None
        a = ws[-1] if has_a else None
        r = fnp.cov(v, ddof=correction, fweights=f, aweights=a)
        return lax.convert_element_type(r, v.dtype)  # PyTorch keeps the input's dtype

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
        raise RuntimeError(
            f"b should have at least 2 dimensions, but has {b.dim()} dimensions instead"
            if b.dim() < 2
            else f"u should have at least 2 dimensions, but has {f.dim()} dimensions instead"
        )
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
        raise RuntimeError(
            f"A must be batches of square matrices, but they are {f.shape[-2] if f.dim() > 1 else 1}"
            f" by {f.shape[-1] if f.dim() else 1} matrices"
        )
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
        raise RuntimeError(
            "linalg.matrix_exp: A must be batches of square matrices, but they are "
            f"{x.shape[-2] if x.dim() > 1 else 1} by {x.shape[-1] if x.dim() else 1} matrices"
        )
    if not (x.is_floating_point() or x.is_complex()):
        raise RuntimeError(
            f"linalg.matrix_exp: Expected a floating point or complex tensor as input. Got {_type_name(x)}"
        )
    return apply_op("LinalgMatrixExpBackward0", ("matrix_exp",), _expm, (x,))


def _expm(a):
    """The matrix exponential in ``a``'s dtype (SciPy's computes float16 in float32)."""
    if a.ndim == 2:
        r = fsl.expm(a)
    else:
        r = fnp.reshape(fgrad.vmap(fsl.expm)(fnp.reshape(a, (-1,) + a.shape[-2:])), a.shape)
    return r if r.dtype == a.dtype else r.astype(a.dtype)


def _removed(name: str, text: str) -> Callable:
    def fn(*args: Any, **kwargs: Any) -> NoReturn:
        raise RuntimeError(text)

    fn.__name__ = name
    fn.__doc__ = (
        f"Removed from PyTorch: raises PyTorch's RuntimeError.\n\nExample::\n\n"
        f"    >>> import fgrad.torch as torch\n    >>> try:\n    ...     torch.{name}(torch.eye(2))\n"
        f"    ... except RuntimeError as e:\n    ...     print(str(e).split(' ')[0])\n    This\n"
    )
    return fn


_REMOVED = {
    "lstsq": _removed(
        "lstsq",
        "This function was deprecated since version 1.9 and is now removed. "
        "`torch.linalg.lstsq` has its arguments reversed and does not return the QR decomposition "
        "in the returned tuple (although it returns other information about the problem).\n\n"
        "To get the QR decomposition consider using `torch.linalg.qr`.\n\n"
        "The returned solution in `torch.lstsq` stored the residuals of the solution in the last m - n "
        "columns of the returned value whenever m > n. In torch.linalg.lstsq, the residuals are in the "
        "field 'residuals' of the returned named tuple.\n\nThe unpacking of the solution, as in\n"
        "X, _ = torch.lstsq(B, A).solution[:A.size(1)]\nshould be replaced with:\n"
        "X = torch.linalg.lstsq(A, B).solution",
    ),
    "solve": _removed(
        "solve",
        "This function was deprecated since version 1.9 and is now removed. "
        "`torch.linalg.solve` has its arguments reversed and does not return the LU factorization.\n\n"
        "To get the LU factorization see `torch.lu`, which can be used with `torch.lu_solve` or "
        "`torch.lu_unpack`.\nX = torch.solve(B, A).solution should be replaced with:\n"
        "X = torch.linalg.solve(A, B)",
    ),
    "eig": _removed(
        "eig",
        "This function was deprecated since version 1.9 and is now removed. "
        "`torch.linalg.eig` returns complex tensors of dtype `cfloat` or `cdouble` rather than real "
        "tensors mimicking complex tensors.\n\nL, _ = torch.eig(A) should be replaced with:\n"
        "L_complex = torch.linalg.eigvals(A)\n\nand\n\nL, V = torch.eig(A, eigenvectors=True) should be "
        "replaced with:\nL_complex, V_complex = torch.linalg.eig(A)",
    ),
    "symeig": _removed(
        "symeig",
        "This function was deprecated since version 1.9 and is now removed. "
        "Please use the `torch.linalg.eigh` function instead.",
    ),
}


def vmap(func: Callable, in_dims: Any = 0, out_dims: Any = 0, randomness: str = "error", *,
         chunk_size: int | None = None) -> Callable:
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


def histogram(
    input: Tensor,
    bins: int | Tensor = 100,
    *,
    range: Sequence[float] | None = None,  # noqa: A002
    weight: Tensor | None = None,
    density: bool = False,
    out: Any = None,
) -> tuple[Tensor, Tensor]:
    """Histogram of ``input`` (a float tensor): ``(hist, bin_edges)``, the last bin closed.
    ``bins`` is a count (equal bins over ``range``, default the data's min and max) or a
    1-D tensor of increasing edges.  Not differentiable (as in PyTorch).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.histogram(torch.tensor([1.0, 2.0, 1.0, 4.0]), bins=3)
        torch.return_types.histogram(
        hist=tensor([2., 1., 1.]),
        bin_edges=tensor([1., 2., 3., 4.]))
    """
    x = as_tensor_arg(input, "histogram")
    if not x.is_floating_point():
        if not isinstance(bins, Tensor):
            raise NotImplementedError(f"\"histogramdd\" not implemented for '{_type_name(x)}'")
        raise RuntimeError(
            f"torch.histogram: input tensor and bins tensors should have the same dtype, but got "
            f"input {_type_name(x).lower()} and bins float"
        )
    args = [x.detach()]
    edges = isinstance(bins, Tensor)
    if edges:
        if bins.dim() != 1 or bins.numel() < 1:
            raise RuntimeError(
                "torch.histogram(): bins tensor should have one dimension and at least 1 element"
            )
        args.append(bins.detach().to(x.dtype))
    elif int(bins) <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if weight is not None:
        if tuple(weight.shape) != tuple(x.shape):
            raise RuntimeError(
                "torch.histogram: if weight tensor is provided, it should have the same shape as "
                "the input tensor"
            )
        args.append(weight.detach().to(x.dtype))
    rng = None if range is None else (float(range[0]), float(range[1]))
    nbins = None if edges else int(bins)
    has_w = weight is not None

    def fn(v, *rest):
        b = rest[0] if edges else nbins
        w = rest[-1] if has_w else None
        h, e = fnp.histogram(
            fnp.ravel(v), bins=b, range=rng, weights=None if w is None else fnp.ravel(w), density=density
        )
        return lax.convert_element_type(h, v.dtype), lax.convert_element_type(e, v.dtype)

    hist, bin_edges = apply_op(
        "HistogramBackward0", ("histogram", nbins, rng, has_w, bool(density)), fn, tuple(args), multi=True
    )
    if out is not None:
        _out(hist, out[0])
        _out(bin_edges, out[1])
        hist, bin_edges = out
    return _HistogramResult((hist, bin_edges))


def unravel_index(indices: Tensor, shape: types.IntOrInts) -> tuple[Tensor, ...]:
    """The coordinates in an array of ``shape`` of flat ``indices`` (a tuple of int64 tensors).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.unravel_index(torch.tensor([4, 5]), (2, 3))
        (tensor([1, 1]), tensor([1, 2]))
    """
    if not isinstance(indices, Tensor):
        raise TypeError(f"unravel_index(): argument 'indices' must be Tensor, not {type(indices).__name__}")
    if indices.is_floating_point() or indices.is_complex() or indices.dtype == torch.bool:
        raise TypeError(f"expected 'indices' to be integer dtype, but got {indices.dtype}")
    dims = (int(shape),) if isinstance(shape, int) else tuple(int(d) for d in shape)
    if any(d < 0 for d in dims):
        raise ValueError("'shape' cannot have negative values, but got " + str(dims))
    idx = indices.to(torch.int64)
    coords = []
    for d in reversed(dims):
        coords.append(torch.remainder(idx, d) if d else idx * 0)
        idx = torch.div(idx, d, rounding_mode="floor") if d else idx
    return tuple(reversed(coords))


def combinations(input: Tensor, r: int = 2, with_replacement: bool = False) -> Tensor:
    """The ``r``-element combinations of a 1-D tensor's elements, one per row
    (differentiable: rows are gathered from ``input``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.combinations(torch.tensor([1, 2, 3]))
        tensor([[1, 2],
                [1, 3],
                [2, 3]])
    """
    import itertools

    x = as_tensor_arg(input, "combinations")
    if x.dim() != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(x.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return torch.empty(0, dtype=x.dtype, device=x.device)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    rows = list(pick(range(x.shape[0]), r))
    if not rows:
        return torch.empty(0, r, dtype=x.dtype, device=x.device)
    index = torch.tensor(rows, dtype=torch.int64, device=x.device)
    return x[index]


def diagonal_scatter(input: Tensor, src: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    """A copy of ``input`` whose ``diagonal(offset, dim1, dim2)`` is ``src``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.diagonal_scatter(torch.zeros(2, 3), torch.ones(2), 1)
        tensor([[0., 1., 0.],
                [0., 0., 1.]])
    """
    out = as_tensor_arg(input, "diagonal_scatter").clone()
    _scatter_into(out.diagonal(offset, dim1, dim2), src, "diagonal_scatter")
    return out


def select_scatter(input: Tensor, src: Tensor, dim: int, index: int) -> Tensor:
    """A copy of ``input`` whose ``select(dim, index)`` is ``src``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.select_scatter(torch.zeros(2, 2), torch.ones(2), 0, 1)
        tensor([[0., 0.],
                [1., 1.]])
    """
    out = as_tensor_arg(input, "select_scatter").clone()
    _scatter_into(out.select(dim, index), src, "select_scatter")
    return out


def slice_scatter(
    input: Tensor, src: Tensor, dim: int = 0, start: int | None = None, end: int | None = None, step: int = 1
) -> Tensor:
    """A copy of ``input`` whose slice ``start:end:step`` along ``dim`` is ``src``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.slice_scatter(torch.zeros(4), torch.ones(2), 0, 1, 4, 2)
        tensor([0., 1., 0., 1.])
    """
    out = as_tensor_arg(input, "slice_scatter").clone()
    d = dim % max(out.dim(), 1)
    index = (slice(None),) * d + (slice(start, end, step),)
    _scatter_into(out[index], src, "slice_scatter")
    return out


def _scatter_into(view: Tensor, src: Tensor, name: str) -> None:
    if not isinstance(src, Tensor):
        raise TypeError(f"{name}(): argument 'src' (position 2) must be Tensor, not {type(src).__name__}")
    if tuple(view.shape) != tuple(src.shape):
        raise RuntimeError(
            f"{name}: expected src to have a size equal to the slice of self. src size = "
            f"{list(src.shape)}, slice size = {list(view.shape)}"
        )
    view.copy_(src)


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    """A copy of ``input`` with ``source`` written at the flat positions ``index``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.put(torch.zeros(2, 2), torch.tensor([0, 3]), torch.tensor([1.0, 2.0]))
        tensor([[1., 0.],
                [0., 2.]])
    """
    return as_tensor_arg(input, "put").clone().put_(index, source, accumulate)


_INDEX_REDUCES = ("prod", "mean", "amax", "amin")


def index_reduce(
    input: Tensor, dim: int, index: Tensor, source: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """Reduce (``prod``, ``mean``, ``amax``, ``amin``) the slices of ``source`` into the
    slices ``index`` of ``input`` along ``dim`` (``scatter_reduce`` with the index broadcast).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.ones(3).index_reduce(0, torch.tensor([0, 0, 2]), torch.tensor([2.0, 3.0, 4.0]), "prod")
        tensor([6., 1., 4.])
    """
    x = as_tensor_arg(input, "index_reduce")
    _deprecations.warn_once("index_reduce")
    if reduce not in _INDEX_REDUCES:
        raise RuntimeError(
            f"index_reduce(): Expected reduce to be one of prod, mean, amax or amin but got {reduce}."
        )
    if index.dim() > 1:
        raise IndexError("index_reduce_(): Index is supposed to be a vector")
    d = dim % max(x.dim(), 1)
    if source.dim() and source.shape[d] != index.numel():
        raise RuntimeError("index_reduce_(): Number of indices should be equal to source.size(dim)")
    shape = [1] * source.dim()
    if source.dim():
        shape[d] = index.numel()
    full = index.to(torch.int64).reshape(shape).expand(source.shape) if source.dim() else index.reshape(())
    return torch.scatter_reduce(x, d, full, source, reduce, include_self=include_self)


def cumulative_trapezoid(
    y: Tensor, x: Tensor | None = None, *, dx: float | None = None, dim: int = -1
) -> Tensor:
    """The running trapezoid-rule integral of ``y`` along ``dim`` (one element shorter).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cumulative_trapezoid(torch.tensor([1.0, 2.0, 4.0]))
        tensor([1.5000, 4.5000])
    """
    v = as_tensor_arg(y, "cumulative_trapezoid")
    if x is not None and dx is not None:
        raise TypeError(
            "cumulative_trapezoid() received an invalid combination of arguments: give x or dx, not both"
        )
    d = dim % max(v.dim(), 1)
    n = v.shape[d]
    if n == 0:
        return v.narrow(d, 0, 0) * 1.0
    avg = (v.narrow(d, 1, n - 1) + v.narrow(d, 0, n - 1)) / 2
    if x is not None:
        step = torch.diff(x, dim=-1 if x.dim() == 1 else d)
        if x.dim() == 1:
            shape = [1] * v.dim()
            shape[d] = n - 1
            step = step.reshape(shape)
        avg = avg * step
    elif dx is not None:
        avg = avg * dx
    return torch.cumsum(avg, d)


def gradient(input: Tensor, *, spacing: Any = 1, dim: types.Dims = None,
             edge_order: int = 1) -> tuple[Tensor, ...]:
    """Second-order accurate central differences in the interior, one-sided differences of
    order ``edge_order`` at the ends; one tensor per dimension in ``dim`` (default all).
    ``spacing``: a scalar, one scalar per dimension, or coordinate tensors.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.gradient(torch.tensor([1.0, 2.0, 4.0, 8.0]))
        (tensor([1.0000, 1.5000, 3.0000, 4.0000]),)
    """
    x = as_tensor_arg(input, "gradient")
    dims = tuple(range(x.dim())) if dim is None else ((dim,) if isinstance(dim, int) else tuple(dim))
    dims = tuple(d % max(x.dim(), 1) for d in dims)
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    for d in dims:
        if x.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    if isinstance(spacing, (list, tuple)):
        sp = list(spacing)
        if len(sp) != len(dims):
            raise RuntimeError(
                f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and "
                f"dim arguments to have the same length, but got a spacing argument of length "
                f"{len(sp)} and a dim argument of length {len(dims)}."
            )
    else:
        sp = [spacing] * len(dims)
    if not (x.is_floating_point() or x.is_complex()):
        x = x.to(torch.get_default_dtype())
    coords = [s for s in sp if isinstance(s, Tensor)]
    kinds = tuple("t" if isinstance(s, Tensor) else float(s) for s in sp)

    def fn(v, *cs):
        it = iter(cs)
        steps = [lax.convert_element_type(next(it), v.dtype) if k == "t" else k for k in kinds]
        r = gradient_with_edge_order(v, *steps, axis=dims, edge_order=edge_order)
        return tuple(r) if isinstance(r, (list, tuple)) else (r,)

    return tuple(
        apply_op(
            "GradientBackward0",
            ("gradient", dims, kinds, edge_order),
            fn,
            (x, *[c.to(x.dtype) for c in coords]),
            multi=True,
        )
    )


def rms_norm(
    input: Tensor, normalized_shape: types.IntOrInts, weight: Tensor | None = None, eps: float | None = None
) -> Tensor:
    """Root-mean-square normalization over the trailing ``normalized_shape`` dimensions
    (``eps`` defaults to the dtype's machine epsilon), times ``weight``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.rms_norm(torch.tensor([[3.0, 4.0]]), [2])
        tensor([[0.8485, 1.1314]])
    """

    return _rms_norm(as_tensor_arg(input, "rms_norm"), normalized_shape, weight, eps)


def lu(A: Tensor, pivot: bool = True, get_infos: bool = False, out: Any = None) -> tuple[Tensor, ...]:
    """The packed LU factorization ``(LU, pivots)`` (1-based int32 LAPACK pivots), with
    ``infos`` (zeros) when ``get_infos``; deprecated in PyTorch for ``linalg.lu_factor``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.lu(torch.tensor([[2.0, 1.0], [4.0, 5.0]]))
        (tensor([[ 4.0000,  5.0000],
                [ 0.5000, -1.5000]]), tensor([2, 2], dtype=torch.int32))
    """
    a = as_tensor_arg(A, "lu")
    _deprecations.warn_once("lu")
    for flag, label in ((pivot, "pivot"), (get_infos, "get_infos")):
        if not isinstance(flag, bool):
            raise TypeError(f"lu(): argument '{label}' must be bool, not {type(flag).__name__}")
    if not pivot:
        raise RuntimeError("lu without pivoting is not implemented on the CPU")
    if a.dim() < 2:
        raise RuntimeError("linalg.lu_factor: The input tensor A must have at least 2 dimensions.")

    def fn(v):
        packed, piv, _perm = lax.linalg.lu(v)
        return packed, lax.convert_element_type(piv + 1, np.int32)

    packed, pivots = apply_op("LinalgLuFactorExBackward0", ("lu",), fn, (a,), multi=True)
    if get_infos:
        infos = torch.zeros(a.shape[:-2], dtype=torch.int32, device=a.device)
        return packed, pivots, infos
    return packed, pivots


def lu_solve(b: Tensor, LU_data: Tensor, LU_pivots: Tensor, *, out: Tensor | None = None) -> Tensor:
    """Solve ``A X = b`` from `lu`'s factorization of ``A``.

    Example::

        >>> import fgrad.torch as torch
        >>> LU, piv = torch.lu(torch.tensor([[2.0, 1.0], [4.0, 5.0]]))
        >>> torch.lu_solve(torch.tensor([[3.0], [9.0]]), LU, piv)
        tensor([[1.],
                [1.]])
    """
    rhs = as_tensor_arg(b, "lu_solve")
    _deprecations.warn_once("lu_solve")
    if LU_pivots.dtype != torch.int32:
        raise RuntimeError("linalg.lu_solve: LU_pivots should be a Tensor of scalar type int32")
    n = LU_data.shape[-1]

    def fn(bv, lu_v, piv):
        perm = lax.linalg.lu_pivots_to_permutation(piv - 1, n)
        pb = fnp.take_along_axis(bv, fnp.broadcast_to(perm[..., None], perm.shape + (bv.shape[-1],)), axis=-2)
        y = fsl.solve_triangular(lu_v, pb, lower=True, unit_diagonal=True)
        return fsl.solve_triangular(lu_v, y, lower=False)

    R = torch.result_type(rhs, LU_data)
    return _out(
        apply_op("LinalgLuSolveBackward0", ("lu_solve", n), fn, (rhs.to(R), LU_data.to(R), LU_pivots)), out
    )


def _resize(self: Tensor, *sizes: Any) -> Tensor:
    warnings.warn("non-inplace resize is deprecated", UserWarning, stacklevel=2)
    out = self.detach().view(self.shape)
    return out.resize_(*sizes)


def _resize_as(self: Tensor, tensor: Tensor) -> Tensor:
    if not isinstance(tensor, Tensor):
        raise TypeError(
            f"resize_as(): argument 'the_template' (position 1) must be Tensor, not {type(tensor).__name__}"
        )
    warnings.warn("non-inplace resize_as is deprecated", UserWarning, stacklevel=2)
    return self.detach().view(self.shape).resize_(tensor.shape)


_scatter_reduce_sum_only = (
    _shape_ops.scatter_reduce
)  # its reductions without include_self / the mean's division


def _refuse_complex_scatter_reduce(x: Tensor, src, reduce: str) -> None:
    """PyTorch's refusals of complex ``scatter_reduce``: no complex ``amax``/``amin`` kernel, and
    no derivative for the other reductions when an operand requires grad."""
    if not x.is_complex():
        return
    if reduce in ("amax", "amin"):
        raise NotImplementedError(
            f"\"scatter_gather_tensor_cpu_reduce_{reduce}\" not implemented for '{_type_name(x)}'")
    if torch.is_grad_enabled() and (x.requires_grad or (isinstance(src, Tensor) and src.requires_grad)):
        raise RuntimeError("scatter_reduce does not support automatic differentiation for outputs with "
                           "complex dtype.")


def scatter_reduce(
    input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True
) -> Tensor:
    """Reduce (``sum``, ``prod``, ``mean``, ``amax``, ``amin``) the elements of ``src`` into
    ``input`` at ``index`` along ``dim``; ``include_self=False`` leaves ``input``'s values
    out where something is scattered, and ``mean`` divides by the number of values reduced.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.ones(2).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([2.0, 4.0]), "mean")
        tensor([2.3333, 1.0000])
    """
    x = as_tensor_arg(input, "scatter_reduce")
    if reduce not in ("sum", "prod", "mean", "amax", "amin"):
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    _refuse_complex_scatter_reduce(x, src, reduce)
    base = x
    if not include_self:
        hit = torch.zeros(x.shape, dtype=torch.bool, device=x.device).scatter(dim, index, True)
        if reduce in ("sum", "mean"):
            ident = 0
        elif reduce == "prod":
            ident = 1
        elif x.is_floating_point():
            ident = -float("inf") if reduce == "amax" else float("inf")
        else:
            info = torch.iinfo(x.dtype) if x.dtype != torch.bool else None
            ident = (info.min if reduce == "amax" else info.max) if info else reduce == "amin"
        base = torch.where(hit, torch.full((), ident, dtype=x.dtype, device=x.device), x)
    res = _scatter_reduce_sum_only(base, dim, index, src, "sum" if reduce == "mean" else reduce)
    if reduce != "mean":
        return res
    count = torch.zeros(x.shape, dtype=x.dtype, device=x.device).scatter_add(
        dim, index, torch.ones(index.shape, dtype=x.dtype, device=x.device)
    )
    if include_self:
        count = count + 1
    count = torch.where(count == 0, torch.ones((), dtype=x.dtype, device=x.device), count)
    if x.is_floating_point() or x.is_complex():  # the division is part of PyTorch's one node
        return apply_op("ScatterReduceBackward0", ("scatter_mean",), lambda r, c: r / c, (res, count),
                        edges=(0,))
    return torch.div(res, count, rounding_mode="floor")


def histogramdd(
    input: Tensor,
    bins: Any = 10,
    *,
    range: Sequence[float] | None = None,  # noqa: A002
    weight: Tensor | None = None,
    density: bool = False,
) -> tuple[Tensor, tuple[Tensor, ...]]:
    """Multi-dimensional histogram of the rows of ``input`` (``(N, D)``, or ``(..., D)``):
    ``(hist, bin_edges)`` with one edges tensor per dimension.  ``bins``: a count, one count
    per dimension, or a list of edge tensors; ``range``: a flat ``[lo0, hi0, lo1, hi1, ...]``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.histogramdd(torch.tensor([[0.0, 1.0], [1.0, 0.0]]), bins=2).hist
        tensor([[0., 1.],
                [1., 0.]])
    """
    x = as_tensor_arg(input, "histogramdd")
    if not x.is_floating_point():
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{_type_name(x)}'")
    d = x.shape[-1] if x.dim() else 1
    pts = x.detach().reshape(-1, d)
    args = [pts]
    if isinstance(bins, int):
        bins = [bins] * d
    edges = [isinstance(b, Tensor) for b in bins]
    if len(bins) != d:
        raise RuntimeError(
            f"histogramdd: expected {d} sequences of bin edges for each of the {d} dimensions in the "
            f"input, but got {len(bins)}"
        )
    counts = tuple(None if e else int(b) for b, e in zip(bins, edges))
    args += [b.detach().to(x.dtype) for b, e in zip(bins, edges) if e]
    rng = (
        None
        if range is None
        else tuple((float(range[2 * k]), float(range[2 * k + 1])) for k in builtins_range(d))
    )
    has_w = weight is not None
    if has_w:
        args.append(weight.detach().reshape(-1).to(x.dtype))

    def fn(v, *rest):
        it = iter(rest)
        bs = [next(it) if e else c for e, c in zip(edges, counts)]
        w = next(it) if has_w else None
        h, es = fnp.histogramdd(v, bins=bs, range=rng, weights=w, density=density)
        return (lax.convert_element_type(h, v.dtype),) + tuple(
            lax.convert_element_type(e, v.dtype) for e in es
        )

    outs = apply_op(
        "HistogramddBackward0",
        ("histogramdd", tuple(edges), counts, rng, has_w, bool(density)),
        fn,
        tuple(args),
        multi=True,
    )
    return _HistogramddResult((outs[0], tuple(outs[1:])))


builtins_range = builtins.range


class _HistogramddResult(tuple):
    """``torch.return_types.histogramdd``: (hist, bin_edges)."""

    @property
    def hist(self) -> Tensor:
        return self[0]

    @property
    def bin_edges(self) -> tuple[Tensor, ...]:
        return self[1]

    def __repr__(self) -> str:
        return f"torch.return_types.histogramdd(\nhist={self[0]!r},\nbin_edges={self[1]!r})"


class _HistogramResult(tuple):
    """``torch.return_types.histogram``: (hist, bin_edges)."""

    @property
    def hist(self) -> Tensor:
        return self[0]

    @property
    def bin_edges(self) -> Tensor:
        return self[1]

    def __repr__(self) -> str:
        return f"torch.return_types.histogram(\nhist={self[0]!r},\nbin_edges={self[1]!r})"


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
    "bitwise_left_shift": bitwise_left_shift,
    "bitwise_right_shift": bitwise_right_shift,
    "frexp": frexp,
    "nextafter": nextafter,
    "isin": isin,
    "hsplit": hsplit,
    "vsplit": vsplit,
    "dsplit": dsplit,
    "split_with_sizes": split_with_sizes,
    "adjoint": adjoint,
    "fill": fill,
    "is_same_size": is_same_size,
    "is_signed": is_signed,
    "is_inference": is_inference,
    "cov": cov,
    "corrcoef": corrcoef,
    "cholesky_solve": cholesky_solve,
    "cholesky_inverse": cholesky_inverse,
    "matrix_exp": matrix_exp,
    "vmap": vmap,
    "histogram": histogram,
    "unravel_index": unravel_index,
    "combinations": combinations,
    "diagonal_scatter": diagonal_scatter,
    "select_scatter": select_scatter,
    "slice_scatter": slice_scatter,
    "put": put,
    "index_reduce": index_reduce,
    "cumulative_trapezoid": cumulative_trapezoid,
    "gradient": gradient,
    "histogramdd": histogramdd,
    "rms_norm": rms_norm,
    "lu": lu,
    "lu_solve": lu_solve,
    **_REMOVED,
}
METHODS = {
    "bitwise_left_shift": bitwise_left_shift,
    "bitwise_right_shift": bitwise_right_shift,
    "__lshift__": bitwise_left_shift,  # x << 2 (PyTorch's Tensor operators)
    "__rshift__": bitwise_right_shift,
    "__rlshift__": _rlshift,
    "__rrshift__": _rrshift,
    "__ilshift__": lambda self, other: self.bitwise_left_shift_(other),
    "__irshift__": lambda self, other: self.bitwise_right_shift_(other),
    "frexp": frexp,
    "nextafter": nextafter,
    "hsplit": hsplit,
    "vsplit": vsplit,
    "dsplit": dsplit,
    "split_with_sizes": split_with_sizes,
    "adjoint": adjoint,
    "is_same_size": is_same_size,
    "cov": cov,
    "corrcoef": corrcoef,
    "cholesky_solve": cholesky_solve,
    "cholesky_inverse": cholesky_inverse,
    "matrix_exp": matrix_exp,
    "hardshrink": _hardshrink,
    "prelu": _prelu,
    "histogram": histogram,
    "diagonal_scatter": diagonal_scatter,
    "select_scatter": select_scatter,
    "slice_scatter": slice_scatter,
    "put": put,
    "index_reduce": index_reduce,
    "lu": lu,
    "lu_solve": lu_solve,
    "resize": _resize,
    "resize_as": _resize_as,
    **_REMOVED,
}
# existing definitions these replace (their old forms ignored include_self and the mean's division)
REPLACE = {"scatter_reduce": scatter_reduce}
