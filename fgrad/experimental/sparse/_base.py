"""`JAXSparse`: the base class of fgrad's sparse arrays (`BCOO`, `BCSR`), as
``jax.experimental.sparse.JAXSparse``: ``shape``, ``dtype``, ``ndim``, ``size`` and the
``T`` property common to every format.  Operators are attached per format."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

__all__ = ["JAXSparse"]


class JAXSparse:
    """Base class of the sparse array formats (``isinstance(x, sparse.JAXSparse)``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> isinstance(sparse.BCOO.fromdense(fnp.eye(2)), sparse.JAXSparse)
        True
    """

    shape: tuple[int, ...]
    data: Any

    # a sparse array is not hashable, as JAX's (it holds arrays)
    __hash__ = None  # type: ignore[assignment]
    __array_priority__ = 2000  # NumPy's operators defer to ours

    @property
    def dtype(self) -> np.dtype:
        return np.dtype(self.data.dtype)

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    def __len__(self) -> int:
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    @property
    def T(self):  # noqa: N802 (NumPy's name)
        return self.transpose()

    def transpose(self, axes=None):  # pragma: no cover - each format defines it
        raise NotImplementedError(f"{type(self).__name__}.transpose")

    def __array__(self, dtype=None, copy=None):
        raise TypeError(
            f"{type(self).__name__}: a sparse array does not convert to a NumPy array "
            "implicitly; call .todense() first"
        )
