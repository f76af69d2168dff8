"""The legacy sparse constructors ``torch.sparse.FloatTensor(indices, values, size)`` (and
``DoubleTensor``, ``LongTensor``, ...), which older programs (pygcn's
``sparse_mx_to_torch_sparse_tensor``) still call; ``FloatTensor(*sizes)`` is an empty sparse
tensor, and ``isinstance(s, torch.sparse.FloatTensor)`` checks the layout and dtype.

Example::

    >>> import fgrad.torch as torch
    >>> s = torch.sparse.FloatTensor(torch.tensor([[0, 2]]), torch.tensor([1.0, 2.0]), torch.Size([4]))
    >>> s.to_dense()
    tensor([1., 0., 2., 0.])
"""

from __future__ import annotations

import numpy as np

import fgrad.torch._dtypes as D
from .._ops_creation import zeros as _zeros
from .._tensor import Tensor
from ._coo import SparseTensor, sparse_coo_tensor

__all__ = ["legacy_constructors"]


class _LegacyMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, SparseTensor) and obj.dtype == cls._dtype


def _make(name: str, dtype) -> type:
    def __new__(cls, *args, device=None):
        if len(args) >= 2 and isinstance(args[0], Tensor) and isinstance(args[1], Tensor):
            return sparse_coo_tensor(*args[:3], device=device)
        if len(args) == 1 and isinstance(args[0], (tuple, list)):
            args = tuple(args[0])
        if not all(isinstance(n, (int, np.integer)) for n in args):
            raise TypeError(f"torch.sparse.{name}(): expected (indices, values, size) or sizes, got "
                            f"{tuple(type(a).__name__ for a in args)}")
        size = tuple(int(n) for n in args) or (0,)
        empty = _zeros((0,), dtype=dtype, device=device)
        return SparseTensor.make(np.zeros((len(size), 0), np.int64), empty, size, True)

    return _LegacyMeta(name, (), {"__new__": __new__, "_dtype": dtype,
                                  "__doc__": f"``torch.sparse.{name}``: a legacy sparse constructor."})


def legacy_constructors() -> dict:
    """The legacy constructor classes by name.

    Example::

        >>> sorted(legacy_constructors())[:2]
        ['BFloat16Tensor', 'ByteTensor']
    """
    table = {"FloatTensor": D.float32, "DoubleTensor": D.float64, "HalfTensor": D.float16,
             "BFloat16Tensor": D.bfloat16, "LongTensor": D.int64, "IntTensor": D.int32,
             "ShortTensor": D.int16, "CharTensor": D.int8, "ByteTensor": D.uint8}
    return {name: _make(name, dt) for name, dt in table.items()}
