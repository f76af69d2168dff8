"""Host callbacks: Python functions called with concrete values from inside any transform.

* ``debug_callback_p`` calls a function for its side effect (printing, logging) and has no
  results.  It is *effectful*: the compiler never removes, folds or merges it, and runs
  callbacks in program order.  Under ``jvp``/``grad`` it sees the primal values (once per
  forward pass); under ``vmap`` it is called once per batch element, in order.
* ``pure_callback_p`` calls a function that computes arrays of declared shapes and dtypes
  (``result_shape_dtypes``).  It has no derivative (as in JAX: wrap it in ``custom_jvp``)
  and batches according to ``vmap_method``.

The callable is a parameter wrapped in `HostCallback`, hashable by what it does (the user's
function and the argument structure), so the per-signature caches of jit and the grad tape
are reused across calls.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> fgrad.jit(lambda x: fgrad.debug.print("x = {}", x) or x * 2)(fnp.arange(2.0))
    x = [0. 1.]
    Array([0., 2.], dtype=float64)
"""

from __future__ import annotations

from typing import Any, Callable

import numpy as np

from ..core.array import ArrayImpl, ShapedArray, Tracer, get_aval, wrap
from ..core.constants import host_array
from ..core.primitive import Primitive
from ..core.x64_mode import canonical_dtype
from ..core.rules import defbatch, defjvp_rule
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from .shape import bdim_to_front, reshape
from .structural import concatenate

__all__ = ["HostCallback", "debug_callback_p", "pure_callback_p", "split_operands", "VMAP_METHODS"]

_ARRAY_TYPES = (ArrayImpl, Tracer, np.ndarray, np.generic, bool, int, float, complex)


class HostCallback:
    """A callable parameter: ``fn(*args, **kwargs)`` rebuilt from the operand values (arrays)
    and the static leaves, compared and hashed by ``(fn, structure, static leaves)``."""

    __slots__ = ("fn", "tree", "static", "slots", "weak", "_key")

    def __init__(self, fn: Callable, tree, static: tuple, slots: tuple, weak: tuple = ()) -> None:
        self.fn, self.tree, self.static, self.slots = fn, tree, static, slots
        self.weak = weak  # per operand: weakly typed (a debug callback's values keep it)
        try:
            hash(static)
            key_static = static
        except TypeError:
            key_static = ("id", id(self))
        self._key = (fn, tree, key_static, slots, weak)

    def __call__(self, *values):
        leaves, it_v, it_s = [], iter(values), iter(self.static)
        for is_operand in self.slots:
            leaves.append(next(it_v) if is_operand else next(it_s))
        args, kwargs = tree_unflatten(self.tree, leaves)
        return self.fn(*args, **kwargs)

    def __eq__(self, other) -> bool:
        return isinstance(other, HostCallback) and self._key == other._key

    def __hash__(self) -> int:
        return hash(self._key)

    def __repr__(self) -> str:
        return getattr(self.fn, "__name__", "callback")


def split_operands(fn: Callable, args: tuple, kwargs: dict,
                   numbers_as_arrays: bool = False) -> tuple[HostCallback, list]:
    """``(callback, operands)``: the array leaves of ``(args, kwargs)`` become the primitive's
    operands; other leaves (strings, None, objects) stay in the callback.  With
    ``numbers_as_arrays`` Python numbers become weakly typed Arrays first (JAX's debug
    callbacks receive ``Array(1.5, dtype=float32, weak_type=True)`` for ``1.5``)."""
    leaves, tree = tree_flatten((args, kwargs))
    operands, static, slots = [], [], []
    for leaf in leaves:
        is_operand = isinstance(leaf, _ARRAY_TYPES)
        if is_operand and numbers_as_arrays and isinstance(leaf, (bool, int, float, complex)):
            leaf = _number_array(leaf)
        slots.append(is_operand)
        (operands if is_operand else static).append(leaf)
    weak = tuple(bool(getattr(get_aval(o), "weak_type", False)) for o in operands) if numbers_as_arrays \
        else ()
    return HostCallback(fn, tree, tuple(static), tuple(slots), weak), operands


def _as_array(b, weak: bool = False):
    return b if isinstance(b, (bool, int, float, complex)) else wrap(b, weak_type=weak)


def _number_array(b: bool | int | float | complex) -> ArrayImpl:
    """A Python number as ``jnp.asarray`` makes it: its canonical dtype, weakly typed (a bool
    strongly)."""
    out = host_array(np.asarray(b, canonical_dtype(np.asarray(b).dtype)))  # on the default device
    return wrap(out._buf, weak_type=not isinstance(b, bool))


def _operand_array(b):
    """A pure/io callback's operand as JAX passes it: an Array always, a Python scalar (a
    constant or a jit argument kept unboxed) in its canonical dtype (float32 without x64)."""
    if isinstance(b, (bool, int, float, complex)):
        return wrap(np.asarray(b, canonical_dtype(np.asarray(b).dtype)))
    return wrap(b)


# ---- debug_callback ------------------------------------------------------------------------------

def _debug_impl(xp, *bufs, callback: HostCallback, ordered: bool):
    weak = callback.weak or (False,) * len(bufs)
    callback(*[_as_array(b, w) for b, w in zip(bufs, weak, strict=True)])
    return []


def _debug_abstract(*avals, callback, ordered):
    return []


debug_callback_p = Primitive("debug_callback", _debug_impl, _debug_abstract, multiple_results=True,
                             family="callback")
debug_callback_p.effectful = True


def _debug_jvp(primals, tangents, *, callback, ordered):
    debug_callback_p.bind(*primals, callback=callback, ordered=ordered)  # the primal values
    return [], []


def _debug_batch(axis_size, vals, dims, *, callback, ordered):
    fronts = [v if d is None else bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims, strict=True)]
    for i in range(axis_size):  # one call per example, in order (as JAX)
        debug_callback_p.bind(*[v if d is None else v[i] for v, d in zip(fronts, dims, strict=True)],
                              callback=callback, ordered=ordered)
    return [], []


defjvp_rule(debug_callback_p, _debug_jvp)
defbatch(debug_callback_p, _debug_batch)


# ---- pure_callback -------------------------------------------------------------------------------

VMAP_METHODS = ("sequential", "sequential_unrolled", "expand_dims", "broadcast_all",
                "legacy_vectorized")


def _pure_impl(xp, *bufs, callback: HostCallback, result_avals: tuple, vmap_method,
               name: str = "pure_callback"):
    out = callback(*[_operand_array(b) for b in bufs])
    leaves, _ = tree_flatten(out)
    if len(leaves) != len(result_avals):
        raise RuntimeError(f"{name}: the callback {callback!r} returned {len(leaves)} arrays, "
                           f"result_shape_dtypes declares {len(result_avals)}")
    res = []
    for i, (leaf, av) in enumerate(zip(leaves, result_avals, strict=True)):
        host = np.asarray(leaf.__array__() if isinstance(leaf, ArrayImpl) else leaf)
        if host.shape != av.shape:
            raise RuntimeError(
                f"{name}: result {i} of {callback!r} has shape {host.shape}, but "
                f"result_shape_dtypes declares {av.shape} (dtype {av.dtype})")
        arr = xp.asarray(host.astype(av.dtype, copy=False))
        res.append(arr)
    return res


def _pure_abstract(*avals, callback, result_avals, vmap_method):
    return list(result_avals)


pure_callback_p = Primitive("pure_callback", _pure_impl, _pure_abstract, multiple_results=True,
                            family="callback")


def _pure_jvp(primals, tangents, **params):
    if all(t is None for t in tangents):
        return pure_callback_p.bind(*primals, **params), [None] * len(params["result_avals"])
    raise ValueError("Pure callbacks do not support JVP. Please use `fgrad.custom_jvp` to use "
                     "callbacks while taking gradients.")


def _pure_batch(axis_size, vals, dims, *, callback, result_avals, vmap_method):
    if vmap_method not in VMAP_METHODS:
        raise NotImplementedError(
            "vmap is only supported for the pure_callback primitive when vmap_method is one of "
            f"{', '.join(repr(m) for m in VMAP_METHODS)}. Got vmap_method={vmap_method!r}.")
    if vmap_method in ("sequential", "sequential_unrolled"):
        fronts = [v if d is None else bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims, strict=True)]
        rows = [pure_callback_p.bind(*[v if d is None else v[i] for v, d in zip(fronts, dims, strict=True)],
                                     callback=callback, result_avals=result_avals, vmap_method=vmap_method)
                for i in range(axis_size)]
        outs = [_stack([r[j] for r in rows], av, axis_size) for j, av in enumerate(result_avals)]
        return outs, [0] * len(result_avals)
    # vectorized: one call on the batched operands (the callback must handle the leading axis)
    args = []
    for v, d in zip(vals, dims, strict=True):
        if d is not None:
            args.append(bdim_to_front(v, d, axis_size))
        elif vmap_method == "broadcast_all":
            args.append(bdim_to_front(v, None, axis_size))
        elif vmap_method == "expand_dims":
            # a size-1 batch axis on every unbatched operand, Python numbers included (JAX's
            # callback sees jnp.shape(1.0 under expand_dims) == (1,))
            args.append(reshape(v, (1,) + get_aval(v).shape))
        else:  # legacy_vectorized: unbatched operands as they are
            args.append(v)
    avals = tuple(ShapedArray((axis_size,) + av.shape, av.dtype) for av in result_avals)
    outs = pure_callback_p.bind(*args, callback=callback, result_avals=avals, vmap_method=vmap_method)
    return outs, [0] * len(result_avals)


def _stack(parts, av, n):
    if n == 0:
        return wrap(np.zeros((0,) + av.shape, av.dtype))
    return concatenate([reshape(p, (1,) + av.shape) for p in parts], 0)


defjvp_rule(pure_callback_p, _pure_jvp)
defbatch(pure_callback_p, _pure_batch)


# ---- io_callback ----------------------------------------------------------------------------------
# an effectful callback with results (JAX's ``jax.experimental.io_callback``): like debug_callback
# never removed, folded or merged, and run in program order; like pure_callback it returns arrays

def _io_impl(xp, *bufs, callback: HostCallback, result_avals: tuple, ordered: bool):
    return _pure_impl(xp, *bufs, callback=callback, result_avals=result_avals, vmap_method=None,
                      name="io_callback")


def _io_abstract(*avals, callback, result_avals, ordered):
    return list(result_avals)


io_callback_p = Primitive("io_callback", _io_impl, _io_abstract, multiple_results=True,
                          family="callback")
io_callback_p.effectful = True


def _io_jvp(primals, tangents, **params):
    if all(t is None for t in tangents):
        return io_callback_p.bind(*primals, **params), [None] * len(params["result_avals"])
    raise ValueError("IO callbacks do not support JVP.")


def _io_batch(axis_size, vals, dims, *, callback, result_avals, ordered):
    if ordered:
        raise ValueError("Cannot `vmap` ordered IO callback.")
    fronts = [v if d is None else bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims, strict=True)]
    rows = [io_callback_p.bind(*[v if d is None else v[i] for v, d in zip(fronts, dims, strict=True)],
                               callback=callback, result_avals=result_avals, ordered=ordered)
            for i in range(axis_size)]  # one call per example, in order
    outs = [_stack([r[j] for r in rows], av, axis_size) for j, av in enumerate(result_avals)]
    return outs, [0] * len(result_avals)


defjvp_rule(io_callback_p, _io_jvp)
defbatch(io_callback_p, _io_batch)


def result_avals_of(result_shape_dtypes: Any) -> tuple[tuple, Any]:
    """``(avals, tree)`` of a pytree of shape/dtype descriptions (`ShapeDtypeStruct`, arrays)."""
    leaves, tree = tree_flatten(result_shape_dtypes)
    return tuple(ShapedArray(tuple(x.shape), np.dtype(x.dtype)) for x in leaves), tree
