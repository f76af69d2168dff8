"""The ``optimization_barrier`` primitive: the identity, which jit's passes cannot see
through (JAX's ``lax.optimization_barrier``).

A value that passes through a barrier is a new value to common-subexpression elimination
and constant folding, so computations on it are never merged with the same computations on
the original value.  ``checkpoint(prevent_cse=True)`` puts one on the inputs of the
backward pass's recomputation: without it, jit's CSE would merge the recomputed values with
the forward pass's and keep those alive until the backward pass, undoing the memory saving.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.ops.optimization_barrier import optimization_barrier
    >>> optimization_barrier((fnp.ones(2), 3.0))
    (Array([1., 1.], dtype=float64), Array(3., dtype=float64, weak_type=True))
"""

from __future__ import annotations

from typing import Any

from ..core.array import ShapedArray, wrap
from ..core.constants import host_array
from ..core.primitive import Primitive
from ..core.rules import deflinear, defvectorized
from ..tree_util import flatten_arrays, tree_unflatten


def _same(x):
    return ShapedArray(x.shape, x.dtype, x.weak_type)


optimization_barrier_p = Primitive("optimization_barrier", lambda xp, x: x, _same)
deflinear(optimization_barrier_p, lambda ct, x: [ct])
defvectorized(optimization_barrier_p)


def optimization_barrier(operand: Any) -> Any:
    """``operand`` (any pytree of arrays) unchanged, as values jit's optimizations treat as
    new (JAX's ``jax.lax.optimization_barrier``); differentiable and batchable as the
    identity.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.grad(lambda x: fnp.sum(optimization_barrier(x) * 3.0))(fnp.ones(2))
        Array([3., 3.], dtype=float64)
    """
    leaves, tree = flatten_arrays(operand)
    # a Python number becomes a weakly typed array, as JAX's barrier returns it
    leaves = [wrap(host_array(x)._buf, True) if type(x) in (int, float, complex) else x for x in leaves]
    return tree_unflatten(tree, [optimization_barrier_p.bind(x) for x in leaves])
