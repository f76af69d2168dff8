"""Sparse arrays made from nothing: `eye` (a diagonal), `empty` (no stored elements) and
`random_bcoo` (random positions and values; JAX's recipe, so fgrad's JAX-compatible random
streams give JAX's arrays)."""

from __future__ import annotations

import math
import operator
from typing import Any, Callable, Sequence

import numpy as np

import fgrad.numpy as fnp
import fgrad.random as random
from ...transforms.batching import vmap
from ._base import JAXSparse
from ._bcoo import BCOO
from ._bcsr import BCSR

__all__ = ["empty", "eye", "random_bcoo"]


def _format(sparse_format: str, op: str):
    formats = {"bcoo": BCOO, "bcsr": BCSR}
    if sparse_format not in formats:
        raise KeyError(f"{op}: unknown sparse_format {sparse_format!r}; use 'bcoo' or 'bcsr'")
    return formats[sparse_format]


def eye(
    N: int,
    M: int | None = None,
    k: int = 0,
    dtype: Any = None,
    index_dtype: Any = "int32",  # noqa: N803
    sparse_format: str = "bcoo",
    **kwds: Any,
) -> JAXSparse:
    """A sparse identity-like matrix: ones on diagonal ``k`` of an ``N x M`` matrix.

    Example::

        >>> from fgrad.experimental import sparse
        >>> e = sparse.eye(3, 4, k=1)
        >>> e, e.indices.tolist()
        (BCOO(float64[3, 4], nse=3), [[0, 1], [1, 2], [2, 3]])
    """
    cls = _format(sparse_format, "eye")
    N = operator.index(N)  # noqa: N806
    M = N if M is None else operator.index(M)  # noqa: N806
    k = operator.index(k)
    dtype = np.float64 if dtype is None else dtype
    start_row, start_col = max(-k, 0), max(k, 0)
    diag = max(0, min(N - start_row, M - start_col))
    rows = np.arange(start_row, start_row + diag)
    indices = fnp.asarray(np.stack([rows, rows + k], axis=1).astype(index_dtype))
    mat = BCOO((fnp.ones((diag,), dtype), indices), shape=(N, M), indices_sorted=True, unique_indices=True)
    return mat if cls is BCOO else BCSR.from_bcoo(mat)


def empty(
    shape: Sequence[int],
    dtype: Any = None,
    index_dtype: Any = "int32",
    sparse_format: str = "bcoo",
    **kwds: Any,
) -> JAXSparse:
    """A sparse array of ``shape`` with no stored elements (all zeros).

    Example::

        >>> from fgrad.experimental import sparse
        >>> sparse.empty((2, 3)), sparse.empty((2, 3)).todense().sum().item()
        (BCOO(float64[2, 3], nse=0), 0.0)
    """
    cls = _format(sparse_format, "empty")
    shape = tuple(operator.index(n) for n in shape)
    dtype = np.float64 if dtype is None else dtype
    n_batch, n_dense = int(kwds.get("n_batch", 0)), int(kwds.get("n_dense", 0))
    n_sparse = len(shape) - n_batch - n_dense
    if cls is BCSR:
        n_sparse = 2
        n_dense = len(shape) - n_batch - 2
    batch, dense = shape[:n_batch], shape[len(shape) - n_dense :]
    data = fnp.zeros(batch + (0,) + dense, dtype)
    indices = fnp.zeros(batch + (0, n_sparse), index_dtype)
    mat = BCOO((data, indices), shape=shape, indices_sorted=True, unique_indices=True)
    return mat if cls is BCOO else BCSR.from_bcoo(mat)


def random_bcoo(
    key: Any,
    shape: Sequence[int],
    *,
    dtype: Any = np.float64,
    indices_dtype: Any = None,
    nse: float | int = 0.2,
    n_batch: int = 0,
    n_dense: int = 0,
    unique_indices: bool = True,
    sorted_indices: bool = False,
    generator: Callable[..., Any] = random.uniform,
    **kwds: Any,
) -> BCOO:
    """A random BCOO array: ``nse`` positions per batch element (a fraction of the sparse
    size when ``0 < nse < 1``), chosen by ``random.choice`` (without replacement when
    ``unique_indices``), values from ``generator(key, shape=, dtype=)``.

    Example::

        >>> import fgrad
        >>> from fgrad.experimental import sparse
        >>> m = sparse.random_bcoo(fgrad.random.PRNGKey(0), (3, 4), nse=0.5)
        >>> m, m.indices.tolist()
        (BCOO(float64[3, 4], nse=6), [[0, 0], [0, 3], [2, 1], [1, 1], [0, 1], [2, 0]])
    """
    shape = tuple(operator.index(n) for n in shape)
    n_batch, n_dense = operator.index(n_batch), operator.index(n_dense)
    if n_batch < 0 or n_dense < 0 or n_batch + n_dense > len(shape):
        raise ValueError(f"Invalid n_batch={n_batch}, n_dense={n_dense} for shape={shape}")
    n_sparse = len(shape) - n_batch - n_dense
    batch_shape, sparse_shape = shape[:n_batch], shape[n_batch : n_batch + n_sparse]
    dense_shape = shape[n_batch + n_sparse :]
    sparse_size = math.prod(sparse_shape)
    if not 0 <= nse < sparse_size:
        raise ValueError(f"got nse={nse}, expected to be between 0 and {sparse_size}")
    if 0 < nse < 1:
        nse = int(math.ceil(nse * sparse_size))
    nse = operator.index(nse)
    indices_dtype = np.int64 if indices_dtype is None else indices_dtype
    if sparse_size > np.iinfo(indices_dtype).max:
        raise ValueError(
            f"indices_dtype={np.dtype(indices_dtype)} does not have enough range to generate sparse "
            f"indices of size {sparse_size}."
        )

    def positions(k):
        if not sparse_shape:
            return fnp.zeros((nse, n_sparse), indices_dtype)
        flat = random.choice(k, sparse_size, shape=(nse,), replace=not unique_indices).astype(indices_dtype)
        return fnp.stack(fnp.unravel_index(flat, sparse_shape), axis=1).astype(indices_dtype)

    keys = random.split(key, math.prod(batch_shape) + 1)
    data = generator(keys[0], shape=batch_shape + (nse,) + dense_shape, dtype=dtype, **kwds)
    indices = vmap(positions)(keys[1:]).reshape(batch_shape + (nse, n_sparse))
    mat = BCOO((data, indices), shape=shape)
    return mat.sort_indices() if sorted_indices else mat
