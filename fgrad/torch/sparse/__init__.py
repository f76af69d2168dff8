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

from typing import Any

from .._tensor import Tensor
from ._coo import SparseTensor, dense_to_dense, sparse_coo, sparse_coo_tensor, to_sparse
from ._csr import SparseCsrTensor, is_sparse_csr, layout_name, sparse_csr, sparse_csr_tensor, to_sparse_csr
from ._faces import addmm_face, matmul_face, mm_face, mv_face, sparse_mask
from ._legacy import legacy_constructors
from ._ops import addmm, log_softmax, mm, softmax, sum  # noqa: A004 (torch.sparse.sum)
from ._structured import sampled_addmm, spdiags, spsolve
from collections.abc import Callable

__all__ = ["SparseCsrTensor", "SparseTensor", "addmm",
           "sparse_csr", "sparse_csr_tensor", "check_sparse_tensor_invariants", "log_softmax", "mm",
           "sampled_addmm", "softmax", "spdiags", "spsolve",
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


def _to_sparse(self: Tensor, sparse_dim: int | None = None, *, layout: Any = None,
               blocksize: Any = None, dense_dim: int | None = None) -> Tensor:
    if layout is sparse_csr:
        return to_sparse_csr(self, dense_dim)
    return to_sparse(self, sparse_dim, layout=layout, blocksize=blocksize, dense_dim=dense_dim)


_to_sparse.__doc__ = to_sparse.__doc__
Tensor.to_sparse = _to_sparse
Tensor.to_sparse_csr = to_sparse_csr
Tensor.is_sparse_csr = property(is_sparse_csr)


def _to_sparse_coo(self: Tensor) -> Tensor:
    return to_sparse(self)


Tensor.to_sparse_coo = _to_sparse_coo
Tensor.to_dense = dense_to_dense
Tensor.sparse_mask = sparse_mask
Tensor.mm = mm_face(Tensor.mm)
Tensor.matmul = matmul_face(Tensor.matmul)
Tensor.addmm = addmm_face(Tensor.addmm)
Tensor.mv = mv_face(Tensor.mv)


# the sparse-only methods on a tensor of another layout: PyTorch's errors (sparse_dim/dense_dim
# answer 0 and ndim for a dense tensor)
def _wrong_layout(name: str, wanted: str) -> Any:
    def method(self: Tensor) -> Any:
        raise RuntimeError(f"{name} expected {wanted} layout but got {layout_name(self)}")

    method.__name__ = method.__qualname__ = name
    method.__doc__ = (f"``{name}()`` of a sparse {wanted}; other layouts raise PyTorch's RuntimeError.\n\n"
                      f"Example::\n\n    >>> import fgrad.torch as torch\n    >>> try:\n"
                      f"    ...     torch.ones(2, 2).{name}()\n    ... except RuntimeError as e:\n"
                      f"    ...     print(e)\n    {name} expected {wanted} layout but got Strided\n")
    return method


for _name, _wanted in (("indices", "sparse coordinate tensor"), ("values", "sparse tensor"),
                       ("coalesce", "sparse coordinate tensor"), ("is_coalesced", "sparse coordinate tensor"),
                       ("crow_indices", "sparse row compressed tensor"),
                       ("col_indices", "sparse row compressed tensor")):
    if _name not in vars(Tensor):
        setattr(Tensor, _name, _wrong_layout(_name, _wanted))


def _sparse_dim(self: Tensor) -> int:
    """The number of sparse dimensions: 0 for a dense tensor.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.ones(2, 3).sparse_dim(), torch.ones(2, 3).dense_dim()
        (0, 2)
    """
    return 0


def _dense_dim(self: Tensor) -> int:
    """The number of dense dimensions: all of a dense tensor's.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.ones(2, 3).dense_dim()
        2
    """
    return self.dim()


Tensor.sparse_dim = _sparse_dim
Tensor.dense_dim = _dense_dim

