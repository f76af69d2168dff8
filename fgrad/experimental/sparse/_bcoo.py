"""`BCOO`: the batched-coordinate sparse array of ``jax.experimental.sparse``, as a container.

A BCOO array of shape ``batch + sparse + dense`` (``n_batch``, ``n_sparse``, ``n_dense``
dimensions) stores

- ``indices``: integers of shape ``(*batch, nse, n_sparse)`` -- for each batch element, the
  coordinates of its ``nse`` stored elements in the sparse dimensions;
- ``data``: values of shape ``(*batch, nse, *dense)``.

Batch dimensions of either buffer may have size 1 (broadcast over that batch dimension).
A stored element whose index is out of bounds (JAX pads with the dimension's size) is
padding: it contributes nothing to any result.  The array is a pytree with two leaves,
``data`` and ``indices``, and ``shape``/``indices_sorted``/``unique_indices`` as static
metadata, so ``fgrad.jit``/``vmap``/``grad`` see its buffers.  Inside ``vmap`` the mapped
batch dimension disappears from ``shape`` (as in JAX), and a BCOO returned from ``vmap``
gains it as a leading batch dimension.

This module holds only the container (construction, validation, pytree, repr); the
operations live in the sibling modules and `_methods` attaches them as methods.
"""

from __future__ import annotations

from typing import Any, NamedTuple, Sequence

import numpy as np

import fgrad.numpy as fnp
from ...tree_util import register_pytree_node
from ._base import JAXSparse

__all__ = ["BCOO", "BCOOInfo", "bcoo_info"]


class BCOOInfo(NamedTuple):
    """The layout of a BCOO array: how many batch, sparse and dense dimensions, and ``nse``."""

    n_batch: int
    n_sparse: int
    n_dense: int
    nse: int


def bcoo_info(data_shape: Sequence[int], indices_shape: Sequence[int], shape: Sequence[int]) -> BCOOInfo:
    """Validate buffers' shapes against ``shape`` (JAX's rules and messages) and return the
    layout; a ValueError names the inconsistent shapes.

    Example::

        >>> bcoo_info((4,), (4, 2), (3, 4))
        BCOOInfo(n_batch=0, n_sparse=2, n_dense=0, nse=4)
    """
    data_shape, indices_shape, shape = tuple(data_shape), tuple(indices_shape), tuple(shape)
    if len(indices_shape) < 2:
        raise ValueError(
            f"BCOO: indices must have at least 2 dimensions (*batch, nse, n_sparse); "
            f"got indices.shape={indices_shape}"
        )
    n_batch = len(indices_shape) - 2
    nse, n_sparse = indices_shape[-2:]
    n_dense = len(shape) - n_batch - n_sparse
    if n_dense < 0 or any(i not in (1, s) for i, s in zip(indices_shape[:n_batch], shape[:n_batch])):
        raise ValueError(
            f"indices batch dimensions not compatible for indices.shape={indices_shape}, shape={shape}"
        )
    if len(data_shape) != n_batch + 1 + n_dense:
        raise ValueError(
            f"Invalid data.shape={data_shape} for nse={nse}, n_batch={n_batch}, n_dense={n_dense}"
        )
    if any(d not in (1, s) for d, s in zip(data_shape[:n_batch], shape[:n_batch])):
        raise ValueError(f"data batch dimensions not compatible for data.shape={data_shape}, shape={shape}")
    if data_shape[n_batch] != nse or data_shape[n_batch + 1 :] != shape[n_batch + n_sparse :]:
        raise ValueError(
            f"Invalid data.shape={data_shape} for nse={nse}, n_batch={n_batch}, n_dense={n_dense}"
        )
    return BCOOInfo(n_batch, n_sparse, n_dense, nse)


class BCOO(JAXSparse):
    """A batched-coordinate (BCOO) sparse array: ``BCOO((data, indices), shape=shape)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental import sparse
        >>> M = fnp.array([[0., 1., 0.], [2., 0., 3.]])
        >>> s = sparse.BCOO.fromdense(M)
        >>> s
        BCOO(float64[2, 3], nse=3)
        >>> s.data, s.indices
        (Array([1., 2., 3.], dtype=float64), Array([[0, 1],
               [1, 0],
               [1, 2]], dtype=int32))
        >>> (s @ fnp.ones(3)).tolist()
        [1.0, 5.0]
    """

    data: Any
    indices: Any
    shape: tuple[int, ...]
    indices_sorted: bool
    unique_indices: bool

    def __init__(
        self,
        args: tuple[Any, Any],
        *,
        shape: Sequence[int],
        indices_sorted: bool = False,
        unique_indices: bool = False,
    ) -> None:
        data, indices = args
        self.data = fnp.asarray(data)
        self.indices = fnp.asarray(indices)
        self.shape = tuple(int(n) for n in shape)
        self.indices_sorted = bool(indices_sorted)
        self.unique_indices = bool(unique_indices)
        if np.dtype(self.indices.dtype).kind not in "iu":
            raise TypeError(f"BCOO: indices must be integers; got dtype {self.indices.dtype}")
        bcoo_info(self.data.shape, self.indices.shape, self.shape)

    # -- layout -------------------------------------------------------------------------
    @property
    def _info(self) -> BCOOInfo:
        return bcoo_info(self.data.shape, self.indices.shape, self.shape)

    @property
    def n_batch(self) -> int:
        return self.indices.ndim - 2

    @property
    def n_sparse(self) -> int:
        return int(self.indices.shape[-1])

    @property
    def n_dense(self) -> int:
        return self.data.ndim - 1 - self.n_batch

    @property
    def nse(self) -> int:
        return int(self.indices.shape[-2])

    def __repr__(self) -> str:
        name = np.dtype(self.dtype).name
        extra = "".join(f", {k}={v}" for k, v in (("n_batch", self.n_batch), ("n_dense", self.n_dense)) if v)
        try:
            return f"BCOO({name}{list(self.shape)}, nse={self.nse}{extra})"
        except Exception:  # noqa: BLE001 -- a repr never raises
            return "BCOO(<invalid>)"

    # -- pytree ---------------------------------------------------------------------------
    def tree_flatten(self):
        return (self.data, self.indices), {
            "shape": self.shape,
            "indices_sorted": self.indices_sorted,
            "unique_indices": self.unique_indices,
            "n_batch": self.n_batch,
        }

    @classmethod
    def tree_unflatten(cls, aux: dict, children) -> "BCOO":
        data, indices = children
        obj = object.__new__(cls)
        obj.data, obj.indices = data, indices
        obj.indices_sorted, obj.unique_indices = aux["indices_sorted"], aux["unique_indices"]
        obj.shape = _shape_after_mapping(aux["shape"], aux["n_batch"], data, indices)
        return obj


def _shape_after_mapping(shape: tuple[int, ...], n_batch: int, data: Any, indices: Any) -> tuple[int, ...]:
    """The shape of a BCOO rebuilt from leaves whose batch rank changed: ``vmap`` removes a
    mapped leading batch dimension inside the function and adds one to a returned array.
    Leaves that are not arrays (tree utilities pass placeholders) keep the stored shape."""
    ind_shape = getattr(indices, "shape", None)
    if ind_shape is None or not isinstance(ind_shape, tuple) or len(ind_shape) < 2:
        return shape
    delta = len(ind_shape) - 2 - n_batch
    if delta < 0:
        return shape[-delta:]
    if delta > 0:
        data_shape = getattr(data, "shape", ind_shape)
        lead = tuple(max(int(a), int(b)) for a, b in zip(data_shape[:delta], ind_shape[:delta]))
        return lead + shape
    return shape


register_pytree_node(BCOO, BCOO.tree_flatten, lambda aux, ch: BCOO.tree_unflatten(aux, ch))
