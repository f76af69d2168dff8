"""Complex helpers of PyTorch's face: ``conj``/``conj_physical``/``resolve_conj``/
``resolve_neg``/``is_conj``/``is_neg`` and the storage-sharing views ``view_as_real`` and
``view_as_complex``.

``conj`` of a complex tensor is a conjugate view, as PyTorch's: ``is_conj()`` is True, an
in-place write to it writes the conjugate into its base and a write to the base shows in it.
fgrad's conjugate view holds the conjugated values (NumPy has no lazy conjugate): its version
counter is its base's, bumped by the view's in-place ops after the view's own buffer has
been written, and then writes the conjugate back (`ConjVersion`); the base's counter refreshes
the view after each of the base's writes (`fgrad.torch._storage.watch`).  ``resolve_conj``
returns a plain copy.  There is no lazy negative bit: ``is_neg`` is always False and
``resolve_neg`` returns its input.  ``view_as_real``/``view_as_complex`` are real views: a
write through one shows in the other, and autograd follows in-place writes through them (the
view chain of `fgrad.torch._ops_shape`).

Example::

    >>> import fgrad.torch as torch
    >>> z = torch.tensor([1 + 2j, 3 - 1j])
    >>> r = torch.view_as_real(z)
    >>> r[0, 1] = 5.0
    >>> z
    tensor([1.+5.j, 3.-1.j])
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

import fgrad.lax as lax
import fgrad.numpy as fnp

from . import _device as _dev
from ._dispatch import apply_inplace, apply_op, run_forward, run_functional
from ._faces import as_tensor_arg
from ._ops_shape import _make_view, _traced, _wr
from ._storage import watch
from ._tensor import Tensor
from .autograd import graph as G

_nd = np.ndarray
_TO_COMPLEX = {np.dtype(np.float32): np.dtype(np.complex64), np.dtype(np.float64): np.dtype(np.complex128)}
_TO_REAL = {c: f for f, c in _TO_COMPLEX.items()}


def _conj_value(x):
    return fnp.conj(x)


def conj_physical(input: Tensor, *, out: Tensor | None = None) -> Tensor:
    """The elementwise complex conjugate, computed (a real ``input`` is returned as is).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.conj_physical(torch.tensor([1 + 2j]))
        tensor([1.-2.j])
    """
    x = as_tensor_arg(input, "conj_physical")
    if not x.is_complex():
        res = x
    else:
        res = apply_op("ConjPhysicalBackward0", ("conj_physical",), _conj_value, (x,))
    if out is None:
        return res
    out.resize_(res.shape)
    return out.copy_(res)


class ConjVersion:
    """The version counter of a conjugate view: its base's count; a bump (an in-place write to
    the view, after the view's buffer was written) first writes the conjugate of the view's
    values into the base, then bumps the base's counter (which refreshes every conjugate view
    of the base).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1 + 2j])
        >>> type(x.conj()._vc).__name__
        'ConjVersion'
    """

    __slots__ = ("base", "view")

    def __init__(self, base: Tensor, view: Tensor) -> None:
        self.base = base
        self.view = weakref.ref(view)

    @property
    def v(self) -> int:
        return self.base._get_vc().v

    @v.setter
    def v(self, value: int) -> None:
        view = self.view()
        if view is not None:
            self.base._buf[...] = view._buf.conj()
        self.base._get_vc().v = value


class StaleConjBackward0(G.Node):
    """The ``grad_fn`` a conjugate view that requires grad gets when its base is written in
    place: fgrad does not regenerate the view's history (PyTorch does), so a backward pass
    that reaches it raises instead of using the old one."""

    __slots__ = ()

    def _apply(self, cts, create_graph: bool):
        raise RuntimeError(
            "fgrad.torch: the base of a conjugate view (Tensor.conj()) that requires grad was modified "
            "in place after the view was made, and fgrad does not regenerate the view's gradient "
            "history; take x.conj() again after the in-place operation (or use conj_physical())")


def _refresh(view: Tensor) -> None:
    base = view._conj_of
    view._buf[...] = base._buf.conj()
    if view._gfn is not None:
        view._gfn = StaleConjBackward0()


def conj(input: Tensor) -> Tensor:
    """The complex conjugate: a conjugate view of a complex ``input`` (``is_conj()`` True;
    an in-place write to it writes the conjugate into ``input``, and writes to ``input``
    show in it), ``input`` itself when it is real.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1 + 2j, -3j])
        >>> y = x.conj()
        >>> y, y.is_conj()
        (tensor([1.-2.j, -0.+3.j]), True)
        >>> y[0] = 5 + 5j
        >>> x
        tensor([5.-5.j, -0.-3.j])
    """
    x = as_tensor_arg(input, "conj")
    if not x.is_complex():
        return x
    y = apply_op("ConjBackward0", ("conj",), _conj_value, (x,))
    if x._conj_of is None and not _traced(x._buf) and not _traced(y._buf):
        y._conj_of = x
        y._vc = ConjVersion(x, y)
        watch(x._get_vc(), y, _refresh)
    return y


def conj_physical_(input: Tensor) -> Tensor:
    """In-place `conj_physical`.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.tensor([1 + 2j]).conj_physical_()
        tensor([1.-2.j])
    """
    x = as_tensor_arg(input, "conj_physical_")
    if not x.is_complex():
        return x
    new = None if type(x._buf) is not _nd else run_forward(("conj_physical",), _conj_value, [x._buf], False)
    return apply_inplace(x, "ConjPhysicalBackward0", ("conj_physical",), _conj_value, (x,), new)


def resolve_conj(input: Tensor) -> Tensor:
    """A copy of a conjugate view without the conjugate bit (values unchanged, no longer
    sharing ``input``'s base); any other tensor itself.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1 + 2j])
        >>> torch.resolve_conj(x) is x, x.conj().resolve_conj().is_conj()
        (True, False)
    """
    x = as_tensor_arg(input, "resolve_conj")
    return x.clone() if x._conj_of is not None else x


def resolve_neg(input: Tensor) -> Tensor:
    """``input`` (fgrad never holds a lazily negated tensor).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0])
        >>> torch.resolve_neg(x) is x
        True
    """
    return as_tensor_arg(input, "resolve_neg")


def is_conj(input: Tensor) -> bool:
    """Whether ``input`` is a conjugate view (`conj` of a complex tensor, or a view of one).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_conj(torch.tensor([1 + 2j]).conj()), torch.is_conj(torch.tensor([1 + 2j]))
        (True, False)
    """
    return as_tensor_arg(input, "is_conj")._conj_of is not None


def is_neg(input: Tensor) -> bool:
    """False: fgrad has no negative bit.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_neg(torch.tensor([1.0]))
        False
    """
    as_tensor_arg(input, "is_neg")
    return False


def _v_view_as_real(x):
    return fnp.stack([lax.real(x), lax.imag(x)], axis=-1)


def _v_view_as_complex(x):
    return lax.complex(x[..., 0], x[..., 1])


def view_as_real(input: Tensor) -> Tensor:
    """A real view of complex ``input`` with a last dimension of size 2 (real, imaginary),
    sharing its memory.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.view_as_real(torch.tensor([1 + 2j, 3 - 4j]))
        tensor([[ 1.,  2.],
                [ 3., -4.]])
    """
    x = as_tensor_arg(input, "view_as_real")
    b = x._buf
    if not x.is_complex():
        raise RuntimeError("view_as_real is only supported for complex tensors")
    if x._conj_of is not None:
        raise RuntimeError(
            "view_as_real doesn't work on unresolved conjugated tensors.  To resolve the conjugate tensor so "
            "you can view it as real, use self.resolve_conj(); however, be warned that the resulting tensor "
            "will NOT alias the original.")
    if _traced(b):
        return run_functional(_v_view_as_real, (x,))
    half = b.itemsize // 2
    buf = _dev.as_strided(b.real, tuple(b.shape) + (2,), tuple(b.strides) + (half,), writeable=_wr(b))
    return _make_view(x, buf, "ViewAsRealBackward0", _v_view_as_real, ())


def view_as_complex(input: Tensor) -> Tensor:
    """A complex view of ``input`` (float32 or float64, last dimension of size 2 and stride 1,
    the other strides and the storage offset even), sharing its memory.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.view_as_complex(torch.tensor([[1.0, 2.0], [3.0, -4.0]]))
        tensor([1.+2.j, 3.-4.j])
    """
    x = as_tensor_arg(input, "view_as_complex")
    b = x._buf
    dt = np.dtype(b.dtype)
    if dt not in _TO_COMPLEX:
        if dt == np.float16:
            raise RuntimeError(
                "fgrad.torch.view_as_complex: complex32 (ComplexHalf) is not supported by "
                "fgrad; convert the tensor to float32 first (input.float())"
            )
        raise RuntimeError(
            "view_as_complex is only supported for half, float and double tensors, but got "
            f"a tensor of scalar type: {_scalar_name(x)}"
        )
    if b.ndim == 0 or b.shape[-1] != 2:
        raise RuntimeError("Tensor must have a last dimension of size 2")
    if _traced(b):
        return run_functional(_v_view_as_complex, (x,))
    st = x.stride()
    if st[-1] != 1:
        raise RuntimeError("Tensor must have a last dimension with stride 1")
    if any(s % 2 for s in st[:-1]):
        raise RuntimeError("Tensor must have a stride divisible by 2 for all but last dimension")
    off = x.storage_offset()
    if off % 2:
        raise RuntimeError("Tensor must have a storage_offset divisible by 2")
    flat = x._storage()._flat
    pairs = (flat.shape[0] - off) // 2
    cflat = flat[off : off + 2 * pairs].view(_TO_COMPLEX[dt])
    buf = _dev.as_strided(cflat, tuple(b.shape[:-1]), tuple(b.strides[:-1]), writeable=_wr(b))
    return _make_view(x, buf, "ViewAsComplexBackward0", _v_view_as_complex, ())


def _scalar_name(x: Tensor) -> str:
    names = {
        "int64": "Long",
        "int32": "Int",
        "int16": "Short",
        "int8": "Char",
        "uint8": "Byte",
        "bool": "Bool",
        "complex64": "ComplexFloat",
        "complex128": "ComplexDouble",
        "bfloat16": "BFloat16",
    }
    return names.get(str(x.dtype).replace("torch.", ""), str(x.dtype))


def chalf(self: Tensor, memory_format: Any = None) -> Tensor:
    """``complex32`` (ComplexHalf) is not an fgrad dtype: always a RuntimeError.

    Example::

        >>> import fgrad.torch as torch
        >>> try:
        ...     torch.ones(2).chalf()
        ... except RuntimeError as e:
        ...     print(str(e)[:39])
        fgrad.torch: complex32 (ComplexHalf) is
    """
    raise RuntimeError(
        "fgrad.torch: complex32 (ComplexHalf) is not supported (Tensor.chalf); use "
        "Tensor.cfloat() (complex64) instead"
    )


FUNCTIONS = {
    "conj": conj,
    "conj_physical": conj_physical,
    "conj_physical_": conj_physical_,
    "resolve_conj": resolve_conj,
    "resolve_neg": resolve_neg,
    "is_conj": is_conj,
    "is_neg": is_neg,
    "view_as_real": view_as_real,
    "view_as_complex": view_as_complex,
}
METHODS = {
    "conj": conj,
    "conj_physical": conj_physical,
    "conj_physical_": conj_physical_,
    "resolve_conj": resolve_conj,
    "resolve_neg": resolve_neg,
    "is_conj": is_conj,
    "is_neg": is_neg,
    "chalf": chalf,
}
