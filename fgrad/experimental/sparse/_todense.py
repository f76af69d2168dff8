"""`todense`: the dense array of any sparse array (JAX's ``sparse.todense``); a dense
argument is returned as it is, marked in traced programs so that `sparsify` densifies a
sparse value there."""

from __future__ import annotations

from typing import Any

from ...ops.checkpoint_name import name_p
from ._base import JAXSparse
from ._bcoo import BCOO
from ._convert import bcoo_todense
from ._rules import TODENSE_NAME

__all__ = ["todense"]


def todense(arr: Any) -> Any:
    """The dense array of a sparse array; a dense array is returned unchanged.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> sparse.todense(sparse.BCOO.fromdense(fnp.array([0., 5.]))).tolist()
        [0.0, 5.0]
    """
    if isinstance(arr, BCOO):
        return bcoo_todense(arr)
    if isinstance(arr, JAXSparse):
        return arr.todense()
    if hasattr(arr, "shape") and hasattr(arr, "dtype") and not isinstance(arr, type):
        return name_p.bind(arr, name=TODENSE_NAME)
    return arr
