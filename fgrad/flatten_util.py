"""`fgrad.flatten_util.ravel_pytree`: a pytree of arrays as one flat vector and back (JAX's
``jax.flatten_util``).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.flatten_util import ravel_pytree
    >>> flat, unravel = ravel_pytree({"b": fnp.zeros(2), "w": fnp.ones((2, 2))})
    >>> flat
    Array([0., 0., 1., 1., 1., 1.], dtype=float64)
    >>> unravel(flat * 2)["w"]
    Array([[2., 2.],
           [2., 2.]], dtype=float64)
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from . import numpy as fnp
from .tree_util import flatten_arrays as tree_flatten, tree_unflatten

__all__ = ["ravel_pytree"]


def ravel_pytree(pytree: Any) -> tuple[Any, Callable[[Any], Any]]:
    """``(flat, unravel)``: the leaves raveled and concatenated into one 1-D array (of the
    leaves' common dtype, `fgrad.numpy.result_type`), and the function that splits such a
    vector back into the pytree (each leaf in its own shape and dtype).  Differentiable, so
    ``grad`` of a function of ``unravel(flat)`` works.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> flat, unravel = ravel_pytree((fnp.asarray(1.0), [fnp.asarray([2.0, 3.0])]))
        >>> fgrad.grad(lambda v: fnp.sum(unravel(v)[1][0] ** 2))(flat)
        Array([0., 4., 6.], dtype=float64)
    """
    leaves, tree = tree_flatten(pytree)
    leaves = [fnp.asarray(x) for x in leaves]
    shapes = [tuple(x.shape) for x in leaves]
    dtypes = [np.dtype(x.dtype) for x in leaves]
    sizes = [int(np.prod(s, dtype=np.int64)) for s in shapes]
    dtype = fnp.result_type(*dtypes) if dtypes else np.dtype(np.float64)
    flat = (fnp.concatenate([fnp.ravel(x).astype(dtype) for x in leaves]) if leaves
            else fnp.zeros((0,), dtype))
    total = sum(sizes)
    offsets = np.cumsum([0] + sizes)

    def unravel(vector):
        shape = tuple(getattr(vector, "shape", np.shape(vector)))
        if shape != (total,):
            raise ValueError(f"ravel_pytree's unravel: expected a vector of shape ({total},), got "
                             f"shape {shape}")
        parts = [fnp.reshape(vector[int(a):int(b)], s).astype(d)
                 for a, b, s, d in zip(offsets[:-1], offsets[1:], shapes, dtypes, strict=True)]
        return tree_unflatten(tree, parts)

    return flat, unravel
