"""``jax.interpreters.batching``: vmap rules of user primitives.

``primitive_batchers[p] = rule`` with ``rule(batched_args, batch_dims, **params) -> (out,
out_dim)``; an unbatched operand's dimension is `not_mapped` (None), as in JAX.

Example::

    >>> import numpy as np
    >>> import fgrad
    >>> from fgrad.extend import core
    >>> from fgrad.interpreters import batching
    >>> sq_p = core.Primitive("doc_square")
    >>> _ = sq_p.def_impl(lambda x: np.square(x))
    >>> _ = sq_p.def_abstract_eval(lambda x: core.ShapedArray(x.shape, x.dtype))
    >>> batching.primitive_batchers[sq_p] = lambda args, dims: (sq_p.bind(args[0]), dims[0])
    >>> fgrad.vmap(sq_p.bind)(np.arange(3.0))
    Array([0., 1., 4.], dtype=float64)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core import rules as _rules
from ..core.primitive import Primitive
from .ad import _RuleTable

not_mapped = None


def _install(prim: Primitive, rule: Callable[..., Any]) -> None:
    def batch(axis_size, vals, dims, **params):
        return rule(list(vals), list(dims), **params)

    _rules.defbatch(prim, batch)


primitive_batchers = _RuleTable(_install)


def defvectorized(prim: Primitive) -> None:
    """``prim`` maps over every axis of its one operand: the batch axis passes through.

    Example::

        >>> from fgrad.interpreters import batching
        >>> callable(batching.defvectorized)
        True
    """
    _rules.defvectorized(prim)


def defbroadcasting(prim: Primitive) -> None:
    """``prim`` is elementwise with NumPy broadcasting over its operands.

    Example::

        >>> from fgrad.interpreters import batching
        >>> callable(batching.defbroadcasting)
        True
    """
    _rules.defbroadcasting(prim)


def bdim_at_front(x: Any, bdim: int | None, size: int) -> Any:
    """``x`` with its batch axis first (broadcast to ``size`` if it has none).

    Example::

        >>> import numpy as np
        >>> from fgrad.interpreters import batching
        >>> batching.bdim_at_front(np.zeros((2, 3)), 1, 3).shape
        (3, 2)
    """
    import fgrad.numpy as fnp

    if bdim is None:
        return fnp.broadcast_to(x, (size,) + tuple(fnp.shape(x)))
    return fnp.moveaxis(x, bdim, 0)


def moveaxis(x: Any, src: int, dst: int) -> Any:
    """``x`` with axis ``src`` moved to ``dst``.

    Example::

        >>> import numpy as np
        >>> from fgrad.interpreters import batching
        >>> batching.moveaxis(np.zeros((2, 3)), 0, 1).shape
        (3, 2)
    """
    import fgrad.numpy as fnp

    return fnp.moveaxis(x, src, dst)


__all__ = ["bdim_at_front", "defbroadcasting", "defvectorized", "moveaxis", "not_mapped",
           "primitive_batchers"]
