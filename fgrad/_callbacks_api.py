"""`fgrad.pure_callback`: compute with a host Python function inside transformed code (JAX's
``jax.pure_callback``).

Example::

    >>> import numpy as np, fgrad, fgrad.numpy as fnp
    >>> out = fgrad.ShapeDtypeStruct((3,), np.float64)
    >>> fgrad.jit(lambda x: fgrad.pure_callback(lambda v: np.sinc(np.asarray(v)), out, x))(fnp.zeros(3))
    Array([1., 1., 1.], dtype=float64)
"""

from __future__ import annotations

from typing import Any, Callable

from .ops.callbacks import VMAP_METHODS, io_callback_p, pure_callback_p, result_avals_of, split_operands
from .tree_util import tree_unflatten

__all__ = ["effects_barrier", "io_callback", "pure_callback"]


def pure_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args,
                  sharding=None, vmap_method: str | None = None, **kwargs) -> Any:
    """``callback(*args, **kwargs)`` run on the host with concrete values, returning arrays of
    the shapes and dtypes of ``result_shape_dtypes`` (a pytree of `fgrad.ShapeDtypeStruct` or
    arrays).  The callback must be pure: it may be skipped if its result is unused, or run
    once for equal calls.  Under ``vmap`` choose ``vmap_method``: ``"sequential"`` (one call
    per example), ``"expand_dims"``, ``"broadcast_all"`` or ``"legacy_vectorized"`` (one call
    on the batched arrays).  Not differentiable: wrap it in `fgrad.custom_jvp`.

    Example::

        >>> import numpy as np, fgrad, fgrad.numpy as fnp
        >>> s = fgrad.ShapeDtypeStruct((), np.float64)
        >>> fgrad.vmap(lambda x: fgrad.pure_callback(np.cos, s, x, vmap_method="sequential"))(
        ...     fnp.asarray([0.0, np.pi]))
        Array([ 1., -1.], dtype=float64)
    """
    if not callable(callback):
        raise TypeError(f"pure_callback: the callback must be callable, got {type(callback).__name__}")
    if vmap_method is not None and vmap_method not in VMAP_METHODS:
        raise ValueError(f"pure_callback: vmap_method must be one of {VMAP_METHODS} or None, got "
                         f"{vmap_method!r}")
    avals, tree = result_avals_of(result_shape_dtypes)
    cb, operands = split_operands(callback, args, kwargs)
    outs = pure_callback_p.bind(*operands, callback=cb, result_avals=avals, vmap_method=vmap_method)
    return tree_unflatten(tree, list(outs))


def io_callback(callback: Callable[..., Any], result_shape_dtypes: Any, *args, sharding=None,
                ordered: bool = False, **kwargs) -> Any:
    """``callback(*args, **kwargs)`` run on the host for its effect *and* its results (JAX's
    ``jax.experimental.io_callback``): arrays of the shapes and dtypes of
    ``result_shape_dtypes``.  Unlike `pure_callback` it is never skipped (even when its result
    is unused), merged or reordered: under `jit` it runs once per call, in program order with
    ``debug.print`` and other callbacks.  Under ``vmap`` it runs once per example
    (``ordered=True`` cannot be vmapped: ValueError, as JAX); it has no derivative (ValueError
    under ``jvp``/``grad``, as JAX).

    Example::

        >>> import numpy as np, fgrad, fgrad.numpy as fnp
        >>> log = []
        >>> def record(x):
        ...     log.append(float(x))
        ...     return np.float64(len(log))
        >>> f = fgrad.jit(lambda x: fgrad.experimental.io_callback(
        ...     record, fgrad.ShapeDtypeStruct((), np.float64), x, ordered=True) + x)
        >>> f(1.0), f(2.0), log
        (Array(2., dtype=float64), Array(4., dtype=float64), [1.0, 2.0])
    """
    if not callable(callback):
        raise TypeError(f"io_callback: the callback must be callable, got {type(callback).__name__}")
    avals, tree = result_avals_of(result_shape_dtypes)
    cb, operands = split_operands(callback, args, kwargs)
    outs = io_callback_p.bind(*operands, callback=cb, result_avals=avals, ordered=bool(ordered))
    return tree_unflatten(tree, list(outs))


def effects_barrier() -> None:
    """Wait until every effect (``debug.print``, ``debug.callback``, ``io``-style callbacks)
    started so far has run (``jax.effects_barrier``).  fgrad runs callbacks synchronously,
    in program order, so they all have run when this is called.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.jit(lambda x: fgrad.debug.print("x={}", x))(fnp.asarray(1.0))
        x=1.0
        >>> fgrad.effects_barrier()
    """
