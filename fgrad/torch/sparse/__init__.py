"""``torch.sparse``: sparse COO tensors (`SparseTensor`, layout ``torch.sparse_coo``) and
the functions over them (``mm``, ``addmm``, ``sum``, ``softmax``, ``log_softmax``).  The
shim's ``torch.sparse_coo_tensor``, ``Tensor.to_sparse``/``to_dense``, ``torch.mm``,
``torch.matmul``, ``@`` with a sparse operand, and ``nn.Embedding(sparse=True)`` gradients come
from here; see ``docs/torch-sparse.md``.

Example::

    >>> import fgrad.torch as torch
    >>> s = torch.eye(3).to_sparse()
    >>> s.layout, s._nnz(), torch.sparse.sum(s)
    (torch.sparse_coo, 3, tensor(3.))
"""

from __future__ import annotations

from .._tensor import Tensor
from ._coo import SparseTensor, dense_to_dense, sparse_coo, sparse_coo_tensor, to_sparse
from ._faces import addmm_face, matmul_face, mm_face, mv_face, sparse_mask
from ._legacy import legacy_constructors
from ._ops import addmm, log_softmax, mm, softmax, sum  # noqa: A004 (torch.sparse.sum)
from collections.abc import Callable
from typing import Any

__all__ = ["SparseTensor", "addmm", "check_sparse_tensor_invariants", "log_softmax", "mm", "softmax",
           "sparse_coo", "sparse_coo_tensor", "sum"]


class check_sparse_tensor_invariants:  # noqa: N801 (PyTorch's name)
    """PyTorch's switch for checking sparse tensors' indices; fgrad.torch always checks them
    at construction, so enabling or disabling it changes nothing.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.sparse.check_sparse_tensor_invariants.is_enabled()
        True
    """

    def __init__(self, enable: bool = True) -> None:
        self.enable = enable

    @staticmethod
    def is_enabled() -> bool:
        return True

    @staticmethod
    def enable() -> None:
        return None

    @staticmethod
    def disable() -> None:
        return None

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        return None

    def __call__(self, fn: Callable[..., Any]) -> Any:
        return fn


globals().update(legacy_constructors())  # torch.sparse.FloatTensor(indices, values, size), ...

# dense tensors' sparse methods, and the matrix products that take a sparse operand
Tensor.to_sparse = to_sparse


def _to_sparse_coo(self: Tensor) -> Tensor:
    return to_sparse(self)


Tensor.to_sparse_coo = _to_sparse_coo
Tensor.to_dense = dense_to_dense
Tensor.sparse_mask = sparse_mask
Tensor.mm = mm_face(Tensor.mm)
Tensor.matmul = matmul_face(Tensor.matmul)
Tensor.addmm = addmm_face(Tensor.addmm)
Tensor.mv = mv_face(Tensor.mv)
