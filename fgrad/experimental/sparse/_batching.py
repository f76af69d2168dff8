"""Batch dimensions of BCOO arrays: every sparse op is written for one unbatched array
(``data (nse, *dense)``, ``indices (nse, n_sparse)``) and mapped over the batch dimensions
with ``fgrad.vmap``, so batched layouts need no code of their own and derivatives, jit and
devices come from the unbatched composite."""

from __future__ import annotations

from typing import Any, Callable, Sequence

import fgrad.numpy as fnp
from ...transforms.batching import vmap

__all__ = ["broadcast_batch", "map_batch"]


def broadcast_batch(x: Any, batch_shape: Sequence[int]) -> Any:
    """``x`` with its leading ``len(batch_shape)`` dimensions broadcast to ``batch_shape``
    (BCOO buffers may hold size-1 batch dimensions).

    Example::

        >>> import fgrad.numpy as fnp
        >>> broadcast_batch(fnp.zeros((1, 4, 2)), (3,)).shape
        (3, 4, 2)
    """
    batch_shape = tuple(batch_shape)
    if tuple(x.shape[: len(batch_shape)]) == batch_shape:
        return x
    return fnp.broadcast_to(x, batch_shape + tuple(x.shape[len(batch_shape) :]))


def map_batch(fun: Callable[..., Any], n_batch: int, in_axes: Sequence[Any]) -> Callable[..., Any]:
    """``fun`` mapped ``n_batch`` times over leading axes (``in_axes``: 0 for a batched
    argument, None for a shared one); the results get the batch dimensions in front.

    Example::

        >>> import fgrad.numpy as fnp
        >>> map_batch(lambda x, y: x + y, 2, (0, None))(fnp.zeros((2, 3, 4)), fnp.ones(4)).shape
        (2, 3, 4)
    """
    for _ in range(n_batch):
        fun = vmap(fun, in_axes=tuple(in_axes))
    return fun
