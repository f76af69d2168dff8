"""`fgrad.torch.types`: the annotation types of the PyTorch face (PyTorch's ``torch.types``).

- ``Number``: a Python ``int``, ``float`` or ``bool`` (PyTorch's ``torch.types.Number``).
- ``Scalar``: a ``Number`` or a ``complex`` (what a binary op takes in place of a tensor).
- ``TensorOrScalar``: a `Tensor` or a ``Scalar`` (``torch.add``'s operands).
- ``Device``: a `device`, a name (``"cpu"``, ``"cuda:0"``), a CUDA index, or ``None``.
- ``DType``: a `dtype` (``torch.float32``) or a Python type (``float``, ``int``, ``bool``,
  ``complex``), as the ``dtype=`` arguments take.
- ``SizeLike``: a sequence of ints (a `Size`, a tuple, a list); ``IntOrInts``: an int or one
  (kernel sizes, strides, paddings); ``Dims``: a dimension, several, or ``None`` (all).
- ``TensorOrTensors``: a `Tensor` or a sequence of them (``backward``'s tensors).
- ``FileLike``: a path (``str``, `os.PathLike`) or a file object (``torch.save``/``torch.load``).
- ``Layout`` and ``memory_format``: the types of ``torch.strided`` and ``torch.contiguous_format``.
- ``Float``, ``Int``, ``Shaped``, ...: jaxtyping's dtype-and-shape annotations, as in
  `fgrad.typing` (jaxtyping is imported when one is first subscripted).

`fgrad.torch.Tensor` is a jaxtyping array type, as ``torch.Tensor`` is:
``Float[torch.Tensor, "batch features"]`` checks the dtype category and the shape.

Example::

    >>> import fgrad.torch as torch
    >>> from jaxtyping import Float
    >>> from fgrad.torch.types import Device, Number
    >>> def scale(x: Float[torch.Tensor, "n"], by: Number, device: Device = None) -> torch.Tensor:
    ...     return (x * by).to(device)
    >>> scale(torch.ones(2), 3)
    tensor([3., 3.])
    >>> isinstance(torch.ones(2, 3), Float[torch.Tensor, "rows 3"])
    True
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any, Protocol, Union, runtime_checkable

from ..typing import Bool, Complex, Float, Inexact, Int, Integer, Num, Shaped, UInt
from ._dtypes import dtype
from . import _storage as _storage_module
from ._tensor import Size, Tensor, device, memory_format, strided

Number = Union[int, float, bool]
Scalar = Union[int, float, bool, complex]
TensorOrScalar = Union[Tensor, int, float, bool, complex]
Device = Union[device, str, int, None]
DType = Union[dtype, type]
SizeLike = Union[Size, Sequence[int]]
IntOrInts = Union[int, Sequence[int]]
Dims = Union[int, Sequence[int], None]
TensorOrTensors = Union[Tensor, Sequence[Tensor]]
Layout = type(strided)


@runtime_checkable
class ReadableFile(Protocol):
    """A binary file open for reading (anything with ``read``, as `io.BytesIO`).

    Example::

        >>> import fgrad.torch as torch
        >>> import io
        >>> isinstance(io.BytesIO(b'x'), torch.types.ReadableFile)
        True
    """

    def read(self, size: int = -1, /) -> Any: ...


@runtime_checkable
class WritableFile(Protocol):
    """A binary file open for writing (anything with ``write``).

    Example::

        >>> import fgrad.torch as torch
        >>> import io
        >>> isinstance(io.BytesIO(), torch.types.WritableFile)
        True
    """

    def write(self, data: Any, /) -> Any: ...


FileLike = Union[str, os.PathLike, ReadableFile, WritableFile]


__all__ = ["Number", "Scalar", "TensorOrScalar", "Device", "DType", "SizeLike", "IntOrInts", "Dims",
           "TensorOrTensors", "Layout", "memory_format", "FileLike", "ReadableFile", "WritableFile", "Tensor",
           "Bool", "Complex", "Float", "Inexact", "Int", "Integer", "Num", "Shaped", "UInt"]

# `_storage`'s annotations name Device and DType; it sits below this module (types imports
# _tensor, which imports _storage), so the names are given to it here, where they are made,
# before any annotation is resolved.
_storage_module.Device = Device
_storage_module.DType = DType
