"""Indexing, joining/splitting and structural array functions with NumPy names.

Everything here is a composite of the ``gather``/``scatter`` primitives
(`fgrad.ops.indexing`), the structural primitives (`fgrad.ops.structural`: concatenate,
split, pad, rev) and the shape/elementwise primitives, so it differentiates, batches and
stages like any other fgrad code.  Functions whose *output shape* depends on array values
(``nonzero``, boolean masks, ``repeat`` with array repeats, ...) need concrete inputs and
raise a clear error under a transform that hides the values.
"""

from __future__ import annotations

from typing import Any

from ..typing import Array, ArrayLike, Axis, DTypeLike, Shape
from collections.abc import Sequence

import builtins
import math
import sys

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind
from ..core.weak_types import WEAK_SCALAR_TYPES as _WEAK_SCALARS
from ..core.weak_types import join_typed as _join_typed
from ..core.x64_mode import canonical_dtype

from ..core.array import ArrayImpl, Tracer, get_aval, wrap
from ..core.array import wrap as wrap_index  # where a parameter ``wrap`` (JAX's name) hides it
from ..core import sharding_flow
from ..backends import xp_of as backend_xp
from ..core.trace import EVAL_TRACE as _EVAL_TRACE
from ..core.trace import ConcretizationError, ConcretizationTypeError
from ..core.trace import state as _trace_state
from ..ops import elementwise as ew
from ..ops import cumulative
from ..ops.control_flow import fori_loop
from ..ops import indexing as indexing_ops
from ..ops import shape as shape_ops
from ..ops import sorting as sorting_ops
from ..ops import structural as ST
from ..ops._util import normalize_axis, normalize_axes
import fgrad.numpy._reductions as fnp_reductions
from ..core.constants import cached_constant_like, constant_like, host_array, zeros_like
from ._reductions import sum as sum_
from . import _key_arrays as _keys
from ._shape import atleast_1d, atleast_2d, atleast_3d, ravel
from ._arraylike import check_arraylike

# composites of modules above this one, handed over when those are imported (fgrad.numpy
# imports them all before any call can run): "fnp" (`_building_blocks`, the package's
# functions) and "apply_along_axis" (`_calculus`); importing them here would close a cycle
_ABOVE: dict = {}

__all__ = [
    "_getitem", "_scatter",
    "take", "take_along_axis", "put_along_axis", "nonzero", "argwhere", "flatnonzero",
    "concatenate", "concat", "stack", "unstack", "hstack", "vstack", "row_stack", "dstack",
    "column_stack", "split", "array_split", "hsplit", "vsplit", "dsplit", "tile", "repeat",
    "flip", "fliplr", "flipud", "roll", "pad", "triu", "tril", "diag", "diagflat", "diagonal",
    "trace", "rot90", "select", "ix_", "indices", "meshgrid", "unravel_index",
    "ravel_multi_index", "append", "delete", "insert", "compress", "extract", "choose",
    "tril_indices", "triu_indices", "tril_indices_from", "triu_indices_from", "diag_indices",
    "diag_indices_from", "fill_diagonal",
]


# ---------------------------------------------------------------------------------------
# helpers


def _arr(x):
    """``fgrad.numpy.asarray(x)`` (that module builds on this one)."""
    if isinstance(x, (ArrayImpl, Tracer)):
        return x
    if isinstance(x, (list, tuple)) and _contains_tracer(x):
        return stack([_arr(e) for e in x])
    return host_array(x)


def _contains_tracer(obj) -> bool:
    if isinstance(obj, Tracer):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_contains_tracer(o) for o in obj)
    return False


def _const(value, like):
    """The host constant ``value`` placed like ``like`` (an explicit upload on a device)."""
    return constant_like(value, like)


def _arr_like(x, like):
    """``x`` as an array: Arrays and tracers as they are, host data placed like ``like``."""
    if isinstance(x, (ArrayImpl, Tracer)):
        return x
    if isinstance(x, (list, tuple)) and any(isinstance(e, (ArrayImpl, Tracer)) for e in x):
        return _arr(x)
    return _const(np.asarray(x), like)


def _shape(x):
    return get_aval(x).shape


def _ndim(x):
    return get_aval(x).ndim


def _dtype(x):
    return get_aval(x).dtype


def _is_concrete(x) -> bool:
    return not isinstance(x, Tracer)


def _concrete(x, op: str, hint: str = ""):
    """The value of ``x`` as a numpy array; a clear error when a transform hides it."""
    if isinstance(x, Tracer):
        try:
            x = x._concrete(op)
        except ConcretizationError as e:
            raise ConcretizationTypeError(
                f"fgrad.numpy.{op} needs concrete (non-traced) input values because its output "
                f"shape depends on them, but got a traced value. {hint}\n(underlying error: {e})"
            ) from None
    if isinstance(x, (list, tuple)):
        return np.asarray([np.asarray(_concrete(e, op, hint)) for e in x]) if x else np.asarray(x)
    return np.asarray(x)


def _result_dtype(arrays):
    """The dtype joined arrays take: the strong ones' promotion, which a weakly typed one
    (a Python scalar) raises only to its own kind (``int32`` with a weak float: the default
    float, as in JAX); weak ones alone give theirs."""
    return _join_dtypes([(a.dtype, a.weak_type) for a in map(get_aval, arrays)])


def _join_dtypes(typed):
    """`_result_dtype` of ``(dtype, weak_type)`` pairs."""
    return _join_typed(typed)[0]


def _cast(x, dtype):
    return ew.convert_element_type(x, dtype) if _dtype(x) != dtype else x


def _full_slices(n):
    return (indexing_ops.FULL,) * n


def _take_axis(x, idx, axis, oob="clip", fill_value=None):
    """``x[..., idx, ...]`` with ``idx`` (an index array) at ``axis``."""
    indexer = _full_slices(axis) + (("a", 0),)
    return indexing_ops.gather(x, [idx], indexer, oob, fill_value)


def _default_fill(dtype):
    dtype = np.dtype(dtype)
    if _dtype_kind(dtype) in "fc":
        return math.nan
    if _dtype_kind(dtype) == "i":
        return int(np.iinfo(dtype).min)
    if _dtype_kind(dtype) == "u":
        return int(np.iinfo(dtype).max)
    if _dtype_kind(dtype) == "b":
        return True
    return 0


# ---------------------------------------------------------------------------------------
# x[idx] and x.at[idx]


_BASIC_CACHE: dict = {}


def _basic_key(idx):
    """A hashable key for an index made only of Python ints, slices with int bounds, None
    and Ellipsis (whose buffer-level index depends on nothing but the shape); else None."""
    t = type(idx)
    if t is int or idx is None or idx is Ellipsis:
        return idx
    if t is slice:
        a, b, c = idx.start, idx.stop, idx.step
        if (a is None or type(a) is int) and (b is None or type(b) is int) and (c is None or type(c) is int):
            return ("s", a, b, c)
        return None
    if t is tuple:
        out = []
        for e in idx:
            if type(e) is tuple:  # a nested sequence is an index array
                return None
            k = _basic_key(e)
            if k is None and e is not None:
                return None
            out.append(k)
        return ("t",) + tuple(out)
    return None


def _stack_traced_lists(idx):
    """Index entries given as (nested) lists holding traced values, stacked into one array
    each (a NumPy-face convenience: `fgrad.ops.indexing` takes arrays)."""
    def fix(v):
        if isinstance(v, (list, tuple)) and _contains_tracer(v):
            return stack([_arr(fix(e)) for e in v])
        return v

    if isinstance(idx, tuple):
        return tuple(fix(v) for v in idx) if _contains_tracer(idx) else idx
    return fix(idx)


class _IndexTypeError(TypeError, IndexError):
    """An index entry that is no integer, boolean, slice, None or Ellipsis: JAX raises
    TypeError, NumPy IndexError; this is both."""


def _check_jax_index(idx) -> None:
    """JAX's TypeErrors for indices NumPy reads otherwise or that are no indices: a list at the
    top level (``x[[0, 1]]``: JAX wants ``x[array([0, 1])]``), and entries that are neither
    integers, booleans, slices, None nor Ellipsis (a float, a string, a float array)."""
    if isinstance(idx, list):
        raise TypeError("Using a non-tuple sequence for multidimensional indexing is not allowed; "
                        "use `arr[array(seq)]` instead of `arr[seq]`. See "
                        "https://github.com/jax-ml/jax/issues/4564 for more information.")
    for pos, item in enumerate(idx if isinstance(idx, tuple) else (idx,)):
        if item is None or item is Ellipsis or isinstance(item, (slice, bool, int, np.integer, np.bool_)):
            continue
        if isinstance(item, (ArrayImpl, Tracer)):
            kind = _dtype_kind(get_aval(item).dtype)
        elif isinstance(item, (list, tuple)):
            continue  # nested sequences: converted (and checked) as arrays
        else:
            kind = np.asarray(item).dtype.kind
        if kind not in "biu":
            type_name = type(item).__name__ if kind == "O" else np.asarray(item).dtype
            raise _IndexTypeError(f"Indexer must have integer or boolean type, got indexer with type "
                            f"{type_name} at position {pos}, indexer value {item!r}")


def _is_dslice(item) -> bool:
    return getattr(type(item), "_fgrad_dslice", False) is True  # an fgrad.ds Slice


def _has_dslice(idx) -> bool:
    return _is_dslice(idx) or (type(idx) is tuple and any(_is_dslice(e) for e in idx))


def _index_width(item) -> int:
    """How many of the operand's axes an index entry consumes."""
    if item is None or item is Ellipsis or isinstance(item, (bool, np.bool_)):
        return 0
    if isinstance(item, (ArrayImpl, Tracer, np.ndarray, list)):
        a = get_aval(item) if isinstance(item, (ArrayImpl, Tracer)) else np.asarray(item)
        return a.ndim if _dtype_kind(a.dtype) == "b" else 1
    return 1


def _apply_dslices(x, idx):
    """``x[idx]`` where ``idx`` holds `fgrad.ds` Slices: each is taken along its axis first
    (JAX's clamping: a stride-1 window is moved inside the axis, a strided one clamps each
    index) and becomes a full slice in the index that remains."""
    shp = _shape(x)
    items = []
    for e, axis in _index_axes(idx, len(shp)):
        if _is_dslice(e):
            x = _take_dslice(x, e, axis, shp[axis])
            e = slice(None)
        items.append(e)
    return x, tuple(items)


def _index_axes(idx, nd: int):
    """``(entry, axis)`` for each entry of the index ``idx`` of an ``nd``-dimensional operand:
    the first axis the entry consumes (Ellipsis and None consume none)."""
    items = list(idx) if type(idx) is tuple else [idx]
    ell = next((k for k, e in enumerate(items) if e is Ellipsis), None)
    out, axis = [], 0
    for k, e in enumerate(items):
        if k == ell:
            axis = nd - sum(_index_width(f) for f in items[k + 1:])
        out.append((e, axis))
        if k != ell:
            axis += _index_width(e)
    return out


def _no_wrap_index(x, idx):
    """``idx`` with its negative integer indices moved below ``-n`` (``n`` the axis size): the
    indexing ops then see them as out of bounds instead of counting from the end (JAX's
    ``x.at[i].set(..., wrap_negative_indices=False)``)."""
    shp = _shape(x)
    entries = _index_axes(idx, len(shp))
    out = []
    for e, axis in entries:
        if isinstance(e, (bool, np.bool_)) or e is None or e is Ellipsis or isinstance(e, slice):
            out.append(e)
        elif isinstance(e, (int, np.integer)):
            out.append(int(e) - shp[axis] if e < 0 else e)
        else:
            a = _arr(e) if isinstance(e, (ArrayImpl, Tracer)) else _arr(np.asarray(e))
            if _dtype_kind(get_aval(a).dtype) in "iu":
                a = ew.select(a < 0, a - shp[axis], a)
            out.append(a)
    return tuple(out) if type(idx) is tuple else out[0]


def _take_dslice(x, s, axis: int, n: int):
    size, stride, start = s.size, s.stride, s.start
    if stride == 1 and size > n:
        raise TypeError(f"slice slice_sizes must be less than or equal to operand shape, got "
                        f"slice_sizes ({size},) for axis {axis} of size {n}")
    steps = np.arange(size, dtype=np.int64) * stride
    if isinstance(start, (int, np.integer)):
        start = int(start)
        if stride == 1:
            start = min(max(start + n if start < 0 else start, 0), n - size)
        return take(x, np.clip(start + steps, 0, max(n - 1, 0)), axis=axis)
    start = _arr(start)
    if stride == 1:
        start = ew.minimum(ew.maximum(ew.select(start < 0, start + n, start), 0), n - size)
    idx = ew.minimum(ew.maximum(start + steps.astype(start.dtype), 0), max(n - 1, 0))
    return take(x, idx, axis=axis)


def _getitem(x, idx):
    """``x[idx]`` with NumPy semantics (out-of-bounds integer indices are clamped, as in JAX)."""
    if type(x) is ArrayImpl and _trace_state.trace is _EVAL_TRACE:
        key = _basic_key(idx)
        if key is not None:  # eager basic indexing: the buffer index depends only on the shape
            buf = x._buf
            ck = (buf.shape, key)
            np_idx = _BASIC_CACHE.get(ck)
            if np_idx is None:
                indexer, _ = indexing_ops.parse_index(buf.shape, idx, "indexing")
                np_idx = indexing_ops._np_index(np, buf.shape, indexer, (), "clip")[0] if indexer else ()
                if len(_BASIC_CACHE) > 4096:
                    _BASIC_CACHE.clear()
                _BASIC_CACHE[ck] = np_idx
            out = buf[np_idx] if np_idx else buf
            if type(out) is not type(buf):
                out = backend_xp(buf).asarray(out)
            res = wrap(out, x._weak)
            return sharding_flow.eager_results((x,), res) if sharding_flow.live else res
    x = _arr(x)
    if _has_dslice(idx):
        x, idx = _apply_dslices(x, idx)
    if idx is None or _basic_key(idx) is not None:
        out = _static_slice_index(x, idx)
        if out is not None:
            return out
    _check_jax_index(idx)
    if _has_scalar_false(idx):
        return _empty_selection(x, idx)
    indexer, arrays = indexing_ops.parse_index(_shape(x), _stack_traced_lists(idx), "indexing")
    return indexing_ops.gather(x, arrays, indexer, "clip")


def _static_slice_index(x, idx):
    """``x[idx]`` for an index of Python ints (in bounds), slices, None and Ellipsis, staged
    as JAX stages it (``jnp`` indexing's static-slice strategy): one ``slice`` (none for whole
    axes), ``rev`` for negative steps, ``squeeze`` for the integers, ``broadcast_in_dim`` for
    the new axes.  None where that does not apply (the caller gathers)."""
    shp = _shape(x)
    items = idx if type(idx) is tuple else (idx,)
    n_ell = builtins.sum(1 for i in items if i is Ellipsis)
    used = builtins.sum(1 for i in items if i is not None and i is not Ellipsis)
    if n_ell > 1 or used > len(shp):
        return None
    fill = (slice(None),) * (len(shp) - used)
    if n_ell:
        k = next(j for j, i in enumerate(items) if i is Ellipsis)
        items = items[:k] + fill + items[k + 1:]
    else:
        items = items + fill
    starts, limits, strides, rev_axes, squeeze_axes, new_axes = [], [], [], [], [], []
    axis = 0
    for it in items:
        if it is None:
            new_axes.append(len(starts) - len(squeeze_axes) + len(new_axes))
            continue
        n = shp[axis]
        if type(it) is int:
            i = it + n if it < 0 else it
            if not 0 <= i < n:
                return None  # out of bounds: the gather clamps
            starts.append(i)
            limits.append(i + 1)
            strides.append(1)
            squeeze_axes.append(axis)
        else:
            try:
                start, stop, step = it.indices(n)
            except ValueError:  # a zero step: the gather path raises
                return None
            if step < 0:
                first = builtins.min(n, stop + 1 + builtins.abs(start - stop - 1) % -step)
                starts.append(first)
                limits.append(builtins.max(first, start + 1))
                strides.append(-step)
                rev_axes.append(axis)
            else:
                starts.append(start)
                limits.append(builtins.max(start, stop))
                strides.append(step)
        axis += 1
    out = ST.static_slice(x, starts, limits, strides)
    if rev_axes:
        out = ST.rev(out, rev_axes)
    if squeeze_axes:
        out = shape_ops.squeeze(out, squeeze_axes)
    if new_axes:
        res = list(_shape(out))
        for a in new_axes:
            res.insert(a, 1)
        kept = tuple(i for i in range(len(res)) if i not in new_axes)
        out = shape_ops.broadcast_in_dim(out, tuple(res), kept)
    return out


def _is_scalar_false(i) -> bool:
    if i is False or (isinstance(i, np.bool_) and not i):
        return True
    return type(i) is ArrayImpl and i.dtype == np.bool_ and i.ndim == 0 and not bool(i)


def _has_scalar_false(idx) -> bool:
    items = idx if isinstance(idx, tuple) else (idx,)
    return builtins.any(_is_scalar_false(i) for i in items)


def _empty_selection(x, idx):
    """``x[idx]`` where ``idx`` holds a scalar ``False``: NumPy's result is empty (the
    ``False`` is a mask selecting nothing), of the shape NumPy gives; here computed on a
    zero-strided dummy of ``x``'s shape."""
    def host(i):
        if isinstance(i, (ArrayImpl, Tracer)):
            if _dtype(i) == np.bool_:
                return _concrete(i, "indexing with a boolean mask")
            return np.zeros(_shape(i), np.intp)
        return i
    items = idx if isinstance(idx, tuple) else (idx,)
    dummy = np.broadcast_to(np.empty((), np.int8), _shape(x))
    out_shape = np.shape(dummy[tuple(host(i) for i in items)])
    return zeros_like(x, shape=out_shape)


def _scatter(x, idx, values, mode, oob="drop"):
    """``x.at[idx].set/add/mul/min/max(values)``: a new array (out-of-bounds updates are
    dropped, as in JAX)."""
    x = _arr(x)
    mode = {"multiply": "mul", "minimum": "min", "maximum": "max"}.get(mode, mode)
    _check_jax_index(idx)
    indexer, arrays = indexing_ops.parse_index(_shape(x), _stack_traced_lists(idx), f".at[].{mode}")
    target = indexing_ops.indexed_shape(_shape(x), indexer, tuple(_shape(a) for a in arrays))
    x_type = get_aval(x)
    work = _scatter_dtype(x_type, values) if mode != "set" else x_type.dtype
    if work != x_type.dtype:  # JAX scatters in the joined dtype and converts back
        x = ew.convert_element_type(x, work)
    u = _cast(_arr_like(values, x), work)
    us = _shape(u)
    if len(us) > len(target):  # NumPy drops leading length-1 axes of the values
        extra = len(us) - len(target)
        if any(s != 1 for s in us[:extra]):
            raise ValueError(
                f".at[].{mode}: cannot broadcast updates of shape {us} to the indexed shape {target}"
            )
        u = shape_ops.reshape(u, us[extra:])
    try:
        np.broadcast_shapes(_shape(u), target)
    except ValueError:
        raise ValueError(
            f".at[].{mode}: updates of shape {us} cannot be broadcast to the indexed shape {target}"
        ) from None
    u = shape_ops.broadcast_to(u, target)
    out = indexing_ops.scatter(x, u, arrays, indexer, mode, oob)
    if work != x_type.dtype:
        out = ew.convert_element_type(out, x_type.dtype, weak_type=x_type.weak_type)
    return out


def _scatter_dtype(x_type, values) -> np.dtype:
    """The dtype JAX's ``x.at[idx].add/mul/min/max(values)`` computes in: the promotion of the
    operand's and the updates' types (JAX's ``promote_dtypes``), so a weakly typed operand
    (``jnp.full(n, 1.0)``) meeting strong float32 updates in 64-bit mode adds in float32, and
    an integer operand meeting float updates multiplies in float; the result is converted back
    to the operand's dtype and weak type.  (``set`` stores the converted values either way.)"""
    if isinstance(values, (bool, int, float, complex)):
        typed = (canonical_dtype(np.asarray(values).dtype), True)
    elif isinstance(values, (ArrayImpl, Tracer)):
        av = get_aval(values)
        typed = (av.dtype, av.weak_type)
    else:
        typed = (canonical_dtype(np.asarray(values).dtype), False)
    return _join_dtypes([(x_type.dtype, x_type.weak_type), typed])


_GET_MODES = {None: "clip", "promise_in_bounds": "clip", "clip": "clip", "fill": "fill", "drop": "fill"}
_SET_MODES = {None: "drop", "promise_in_bounds": "drop", "drop": "drop", "fill": "drop", "clip": "clip"}


def _at_mode(mode, table, what):
    try:
        return table[mode]
    except (KeyError, TypeError):
        raise ValueError(f"Unknown {what} mode {mode!r}: use one of 'promise_in_bounds', 'clip', "
                         "'drop', 'fill' (or None)") from None


def _at_get(x, idx, mode=None, fill_value=None):
    """``x.at[idx].get(mode=, fill_value=)``: out-of-bounds indices are clamped (None,
    ``"clip"``, ``"promise_in_bounds"``) or give ``fill_value`` (``"fill"``/``"drop"``; NaN
    for inexact dtypes, as in JAX)."""
    oob = _at_mode(mode, _GET_MODES, "gather")
    if oob == "clip" and fill_value is None:
        return _getitem(x, idx)
    x = _arr(x)
    if oob == "fill" and fill_value is None:
        fill_value = _default_fill(_dtype(x))
    _check_jax_index(idx)
    indexer, arrays = indexing_ops.parse_index(_shape(x), _stack_traced_lists(idx), ".at[].get")
    return indexing_ops.gather(x, arrays, indexer, oob, fill_value)


def _default_fill(dt: np.dtype):
    """JAX's out-of-bounds fill: NaN (inexact), the most negative (signed) or largest
    (unsigned) integer, True (bool)."""
    if _dtype_kind(dt) in "fc":
        return math.nan
    if _dtype_kind(dt) == "i":
        return int(np.iinfo(dt).min)
    if _dtype_kind(dt) == "u":
        return int(np.iinfo(dt).max)
    return True


def _may_repeat(x, idx) -> bool:
    """True if ``idx`` may name one element more than once (it has integer index arrays)."""
    _, arrays = indexing_ops.parse_index(_shape(_arr(x)), _stack_traced_lists(idx), ".at[]")
    return bool(arrays)


def _at_apply(x, idx, func, mode=None, unique_indices=False):
    """``x.at[idx].apply(func)``: ``func`` applied once per time an element is indexed (as
    JAX's scatter-apply: an element indexed twice gets ``func(func(v))``)."""
    oob = _at_mode(mode, _SET_MODES, "scatter")
    x = _arr(x)
    vals = _at_get(x, idx, "clip")
    if unique_indices or not _may_repeat(x, idx):
        return _scatter(x, idx, func(vals), "set", oob)
    counts = _scatter(zeros_like(x, np.int64), idx, 1, "add", oob)
    times = _getitem(counts, idx)
    if isinstance(times, Tracer):  # the repeat count is not known: loop over every update
        vals = fori_loop(0, int(get_aval(times).size),
                         lambda r, v: ew.select(ew.gt(times, r), func(v), v), vals)
    else:
        for r in range(int(np.max(np.asarray(times))) if get_aval(times).size else 0):
            vals = ew.select(ew.gt(times, r), func(vals), vals)
    return _scatter(x, idx, vals, "set", oob)


def _at_power(x, idx, values, mode=None, unique_indices=False):
    """``x.at[idx].power(values)``: an element indexed several times is raised once per
    update, ``(v ** a) ** b`` (computed as ``v ** (a * b)``)."""
    oob = _at_mode(mode, _SET_MODES, "scatter")
    x = _arr(x)
    if unique_indices or not _may_repeat(x, idx):
        return _scatter(x, idx, ew.pow_(_getitem(x, idx), values), "set", oob)
    exponents = _scatter(ew.add(zeros_like(x), 1), idx, values, "mul", oob)
    touched = _scatter(zeros_like(x, np.bool_), idx, True, "set", oob)
    return ew.select(touched, ew.pow_(x, exponents), x)


# ---------------------------------------------------------------------------------------
# take / take_along_axis / put_along_axis


def _oob_mode(mode, op):
    if mode is None:
        return "fill"
    if mode not in ("fill", "clip", "wrap", "raise", "promise_in_bounds"):
        raise ValueError(f"{op}: mode must be one of 'fill', 'clip', 'wrap', 'raise', got {mode!r}")
    return mode


def _prepare_indices(idx, n, mode, op):
    """(index array, gather oob) for a take-like op along an axis of length ``n``."""
    if mode == "wrap":
        return ew.rem_p.bind(idx, n) if n else idx, "clip"
    if mode == "raise":
        if isinstance(idx, Tracer):
            raise NotImplementedError(
                f"{op}: mode='raise' needs concrete indices (it cannot raise under a transform); "
                "use mode='clip' or mode='fill'"
            )
        v = np.asarray(idx)
        if v.size and (v.min() < -n or v.max() >= n):
            raise IndexError(f"{op}: index out of bounds for axis with size {n}")
        return idx, "clip"
    if mode in ("clip", "promise_in_bounds"):
        return idx, "clip"
    return idx, "fill"


def take(a: ArrayLike, indices: ArrayLike, axis: int | None = None, out: None = None, mode: str | None = None,
         unique_indices: bool = False, indices_are_sorted: bool = False,
         fill_value: ArrayLike | None = None) -> Array:
    """Take elements along ``axis`` (the flattened array when ``axis`` is None).

    Out-of-bounds indices follow JAX: ``mode=None``/``"fill"`` returns ``fill_value``
    (NaN for floats), ``"clip"`` clamps, ``"wrap"`` wraps around; negative indices count
    from the end."""
    if out is not None:
        raise NotImplementedError("fgrad.numpy.take: out= is not supported (arrays are immutable)")
    a = _arr(a)
    if axis is None:
        a = shape_ops.reshape(a, (get_aval(a).size,))
        axis = 0
    axis = normalize_axis(axis, _ndim(a), "take")
    idx = _arr(indices)
    if _dtype(idx).kind not in "iu":
        raise TypeError(f"take: indices must be integers, got dtype {_dtype(idx)}")
    mode = _oob_mode(mode, "take")
    idx, oob = _prepare_indices(idx, _shape(a)[axis], mode, "take")
    fill = _default_fill(_dtype(a)) if fill_value is None else fill_value
    return _take_axis(a, idx, axis, oob, fill if oob == "fill" else None)


def _along_axis_index(arr, indices, axis, op):
    ash, ish = _shape(arr), _shape(indices)
    if len(ash) != len(ish):
        raise ValueError(f"{op}: indices and arr must have the same number of dimensions, got "
                         f"{len(ish)} and {len(ash)}")
    arrays = []
    nd = len(ash)
    for d in range(nd):
        if d == axis:
            arrays.append(indices)
        else:
            sh = [1] * nd
            sh[d] = ash[d]
            arrays.append(wrap(np.arange(ash[d], dtype=np.intp).reshape(sh)))
    return tuple(("a", d) for d in range(nd)), arrays


def take_along_axis(arr: ArrayLike, indices: ArrayLike, axis: int | None, mode: str | None = None,
                    fill_value: ArrayLike | None = None) -> Array:
    """``out[..., i, ...] = arr[..., indices[..., i, ...], ...]`` (NumPy semantics with
    broadcasting of the other axes; out-of-bounds handling as in `take`)."""
    arr = _arr(arr)
    indices = _arr(indices)
    if _dtype(indices).kind not in "iu":
        raise TypeError(f"take_along_axis: indices must be integers, got dtype {_dtype(indices)}")
    if axis is None:
        arr = shape_ops.reshape(arr, (get_aval(arr).size,))
        indices = shape_ops.reshape(indices, (get_aval(indices).size,))
        axis = 0
    axis = normalize_axis(axis, _ndim(arr), "take_along_axis")
    mode = _oob_mode(mode, "take_along_axis")
    idx, oob = _prepare_indices(indices, _shape(arr)[axis], mode, "take_along_axis")
    indexer, arrays = _along_axis_index(arr, idx, axis, "take_along_axis")
    fill = _default_fill(_dtype(arr)) if fill_value is None else fill_value
    return indexing_ops.gather(arr, arrays, indexer, oob, fill if oob == "fill" else None)


def put_along_axis(arr: ArrayLike, indices: ArrayLike, values: ArrayLike, axis: int | None,
                   inplace: bool = True,
                   mode: str | None = None) -> Array:
    """Functional ``np.put_along_axis``: returns a new array (``inplace`` must be False)."""
    if inplace:
        raise ValueError("fgrad.numpy.put_along_axis: arrays are immutable; pass inplace=False")
    arr = _arr(arr)
    indices = _arr(indices)
    if axis is None:
        arr2 = shape_ops.reshape(arr, (get_aval(arr).size,))
        flat = put_along_axis(arr2, shape_ops.reshape(indices, (-1,)), values, 0, False, mode)
        return shape_ops.reshape(flat, _shape(arr))
    axis = normalize_axis(axis, _ndim(arr), "put_along_axis")
    indexer, arrays = _along_axis_index(arr, indices, axis, "put_along_axis")
    target = indexing_ops.indexed_shape(_shape(arr), indexer, tuple(_shape(a) for a in arrays))
    u = shape_ops.broadcast_to(_cast(_arr(values), _dtype(arr)), target)
    oob = "drop" if mode in (None, "fill", "drop") else "clip"
    return indexing_ops.scatter(arr, u, arrays, indexer, "set", oob)


# ---------------------------------------------------------------------------------------
# nonzero & co


def _nonzero_traced(a, size, fill_value):
    """``nonzero`` with a static ``size`` under a transform (JAX's ``size=`` form)."""
    shp = _shape(a)
    n = int(np.prod(shp, dtype=np.int64))
    flat = ew.ne_p.bind(shape_ops.reshape(a, (n,)), 0)
    pos = ew.sub(cumulative.cumsum(ew.convert_element_type(flat, np.int64), 0), 1)
    target = ew.select(flat, pos, size)  # slot ``size`` is out of range: dropped
    src = _const(np.arange(n, dtype=np.int64), a)
    fv = 0 if fill_value is None else fill_value
    fills = fv if isinstance(fv, tuple) else (fv,) * len(shp)
    flat_idx = indexing_ops.scatter(_const(np.full((size,), -1, np.int64), a), src, [target], (("a", 0),),
                                    "set", "drop")
    valid = ew.ge_p.bind(flat_idx, 0)
    out = []
    rem = ew.select(valid, flat_idx, 0)
    strides = np.cumprod((1,) + tuple(shp[::-1]))[:-1][::-1] if shp else ()
    for k, st in enumerate(strides):
        coord = ew.floor_divide_p.bind(rem, int(st))
        rem = ew.rem_p.bind(rem, int(st))
        out.append(ew.select(valid, coord, fills[k]))
    return tuple(out)


def nonzero(a: ArrayLike, *, size: int | None = None,
            fill_value: ArrayLike | None = None) -> tuple[Array, ...]:
    """Indices of the nonzero elements, one integer array per dimension.

    Needs a concrete input (the result's length depends on the values) unless ``size`` is
    given: then the result has exactly ``size`` entries (padded with ``fill_value``, default
    0, or truncated) and works under every transform."""
    a = _arr(a)
    if _ndim(a) == 0:
        raise ValueError("Calling nonzero on 0d arrays is not allowed. Use fnp.atleast_1d(x).nonzero().")
    if isinstance(a, Tracer) and size is not None:
        try:
            vals = np.asarray(a._concrete("nonzero"))
        except ConcretizationError:
            return _nonzero_traced(a, int(size), fill_value)
    else:
        vals = _concrete(a, "nonzero", "Pass size=... to get a fixed-length result, or use "
                         "fnp.where(cond, x, y) to keep shapes static.")
    res = np.nonzero(vals)
    if size is not None:
        size = int(size)
        fv = 0 if fill_value is None else fill_value
        fills = fv if isinstance(fv, tuple) else (fv,) * len(res)
        res = tuple(np.concatenate([r[:size], np.full(max(size - r.size, 0), f, r.dtype)])
                    for r, f in zip(res, fills, strict=True))
    return tuple(_const(r.astype(np.int64), a) for r in res)


def argwhere(a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    a = _arr(a)
    if _ndim(a) == 0:
        v = _concrete(a, "argwhere")
        return _const(np.zeros((1 if v else 0, 0), np.int64), a)
    return stack(nonzero(a, size=size, fill_value=fill_value), axis=-1)


def flatnonzero(a: ArrayLike, *, size: int | None = None, fill_value: ArrayLike | None = None) -> Array:
    a = _arr(a)
    return nonzero(shape_ops.reshape(a, (get_aval(a).size,)), size=size, fill_value=fill_value)[0]


_MASK_HINT = "Use fnp.where(cond, x, 0) to keep shapes static, or pass size=."


def extract(condition: ArrayLike, arr: ArrayLike, *, size: int | None = None,
            fill_value: ArrayLike = 0) -> Array:
    arr = _arr(arr)
    cond = shape_ops.reshape(_arr(condition), (-1,))
    flat = shape_ops.reshape(arr, (-1,))
    if size is None:
        (idx,) = nonzero(cond)
        return _take_axis(flat, idx, 0)
    (idx,) = nonzero(cond, size=size, fill_value=-1)
    vals = _take_axis(flat, ew.select(ew.ge_p.bind(idx, 0), idx, 0), 0)
    return ew.select(ew.ge_p.bind(idx, 0), vals, fill_value)


def compress(condition: ArrayLike, a: ArrayLike, axis: int | None = None, *, size: int | None = None,
             fill_value: ArrayLike = 0, out: None = None) -> Array:
    """The slices of ``a`` along ``axis`` (flattened when None) where ``condition`` is true.
    Without ``size`` the condition must be concrete; with it (JAX's static-shape form, under
    jit too) the result has ``size`` slices, cut or padded with ``fill_value``.

    >>> import fgrad.numpy as fnp
    >>> fnp.compress(fnp.asarray([1, 0, 1]), fnp.arange(6).reshape(3, 2), axis=0, size=3, fill_value=-7)
    Array([[ 0,  1],
           [ 4,  5],
           [-7, -7]], dtype=int64)
    """
    if out is not None:
        raise TypeError("fgrad.numpy.compress: the out= argument is not supported (arrays are immutable)")
    a = _arr(a)
    if size is not None:
        if axis is None:
            a, axis = ravel(a), 0
        n = _shape(a)[normalize_axis(axis, _ndim(a), "compress")]
        picked = nonzero(ravel(_arr(condition)), size=size, fill_value=n)[0]  # n: out of range
        return take(a, picked, axis=axis, mode="fill", fill_value=fill_value)
    cond = _concrete(condition, "compress", _MASK_HINT).astype(bool).ravel()
    return _index_map(a, "compress", lambda ids: np.compress(cond, ids, axis))


# ---------------------------------------------------------------------------------------
# joining


def _seq(arrays, op):
    if isinstance(arrays, (ArrayImpl, Tracer)):
        return [arrays[i] for i in range(_shape(arrays)[0])] if _ndim(arrays) else [arrays]
    try:
        arrays = list(arrays)
    except TypeError:
        raise TypeError(f"{op}: expected a sequence of arrays, got {type(arrays).__name__}") from None
    if not arrays:
        raise ValueError(f"{op}: need at least one array to concatenate")
    check_arraylike(op, *arrays)  # JAX's TypeError: a nested list or tuple is not an array
    return [_weak_arr(a) if type(a) in _WEAK_SCALARS else _arr(a) for a in arrays]


def _weak_arr(x):
    """A Python int/float/complex as a weakly typed Array (JAX's ``asarray(2)``), so that
    ``stack([int32 x, 2])`` is int32 and ``stack([1.5, 2.5])`` weak, as under jit."""
    out = _arr(x)
    return wrap(out._buf, True) if type(out) is ArrayImpl else out


def concatenate(arrays: ArrayLike | Sequence[ArrayLike], axis: int | None = 0, out: None = None,
                dtype: DTypeLike | None = None) -> Array:
    """Join arrays along an existing axis (``axis=None`` flattens them first)."""
    if out is not None:
        raise NotImplementedError("fgrad.numpy.concatenate: out= is not supported")
    like = _keys.key_operands(list(arrays), "concatenate")
    if like is not None:  # typed keys: join their data (the key axis is last, kept whole)
        if axis is None:
            arrays, axis = [k.reshape(-1) for k in arrays], 0
        nd = like.ndim
        if nd == 0:
            raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
        return _keys.rewrap(like, concatenate([_keys.data(k) for k in arrays],
                                              normalize_axis(axis, nd, "concatenate")))
    xs = _seq(arrays, "concatenate")
    if axis is None:
        xs = [shape_ops.reshape(x, (get_aval(x).size,)) for x in xs]
        axis = 0
    if any(_ndim(x) == 0 for x in xs):
        raise ValueError("concatenate: zero-dimensional arrays cannot be concatenated")
    axis = normalize_axis(axis, _ndim(xs[0]), "concatenate")
    xs = [_cast(x, np.dtype(dtype)) for x in xs] if dtype is not None else ew.promote_joined(xs)
    return ST.concatenate(xs, axis)


def concat(arrays: ArrayLike | Sequence[ArrayLike], /, *, axis: int = 0) -> Array:
    if isinstance(arrays, (list, tuple)):
        check_arraylike("concat", *arrays)
    return concatenate(arrays, axis=axis)


def stack(arrays: ArrayLike | Sequence[ArrayLike], axis: int = 0, out: None = None,
          dtype: DTypeLike | None = None) -> Array:
    """Join arrays of equal shape along a new axis."""
    like = _keys.key_operands(list(arrays), "stack")
    if like is not None:  # typed keys: stack their data (the key axis is last, kept whole)
        return _keys.rewrap(like, stack([_keys.data(k) for k in arrays],
                                        normalize_axis(axis, like.ndim + 1, "stack")))
    xs = _seq(arrays, "stack")
    shp = _shape(xs[0])
    for x in xs[1:]:
        if _shape(x) != shp:
            raise ValueError(f"stack: all input arrays must have the same shape, got {shp} and {_shape(x)}")
    axis = normalize_axis(axis, len(shp) + 1, "stack")
    xs = [_cast(x, np.dtype(dtype)) for x in xs] if dtype is not None else ew.promote_joined(xs)
    return ST.stack(xs, axis)  # JAX's stack primitive


def unstack(x: ArrayLike, /, *, axis: int = 0) -> tuple[Array, ...]:
    x = _arr(x)
    axis = normalize_axis(axis, _ndim(x), "unstack")
    n = _shape(x)[axis]
    return tuple(ST.unstack_p.bind(x, axis=axis)) if n else ()


def _atleast(x, k):
    return (atleast_1d, atleast_2d, atleast_3d)[k - 1](x)


def hstack(tup: ArrayLike | Sequence[ArrayLike], dtype: DTypeLike | None = None) -> Array:
    xs = [_atleast(x, 1) for x in _seq(tup, "hstack")]
    return concatenate(xs, 0 if _ndim(xs[0]) == 1 else 1, dtype=dtype)


def vstack(tup: ArrayLike | Sequence[ArrayLike], dtype: DTypeLike | None = None) -> Array:
    return concatenate([_atleast(x, 2) for x in _seq(tup, "vstack")], 0, dtype=dtype)


row_stack = vstack


def dstack(tup: ArrayLike | Sequence[ArrayLike], dtype: DTypeLike | None = None) -> Array:
    return concatenate([_atleast(x, 3) for x in _seq(tup, "dstack")], 2, dtype=dtype)


def column_stack(tup: ArrayLike | Sequence[ArrayLike]) -> Array:
    xs = []
    for x in _seq(tup, "column_stack"):
        if _ndim(x) < 2:
            x = shape_ops.reshape(x, (get_aval(x).size, 1))
        xs.append(x)
    return concatenate(xs, 1)


def append(arr: ArrayLike, values: ArrayLike, axis: int | None = None) -> Array:
    """``values`` joined after ``arr`` (both flattened when ``axis`` is None); a Python scalar
    is weakly typed (``append(float32_array, 1.0)`` stays float32, as in JAX).

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.append(fnp.ones(2, fnp.float32), 3.0)
        Array([1., 1., 3.], dtype=float32)
    """
    arr = _arr(arr)
    is_python_scalar_value = type(values) in (bool, int, float, complex)  # not NumPy scalars
    values = _arr(values)
    if isinstance(values, ArrayImpl) and is_python_scalar_value:
        values = wrap(values._buf, True)
    if axis is None:
        return concatenate([shape_ops.reshape(arr, (-1,)), shape_ops.reshape(values, (-1,))])
    return concatenate([arr, values], axis)


# ---------------------------------------------------------------------------------------
# splitting


def _split_ranges(n, indices_or_sections, op, even):
    """``(start, stop)`` of each piece, NumPy semantics (pieces are ``a[prev:b]``)."""
    if isinstance(indices_or_sections, (int, np.integer)):
        k = int(indices_or_sections)
        if k <= 0:
            raise ValueError(f"{op}: number sections must be larger than 0")
        if even and n % k:
            raise ValueError(f"{op}: array split does not result in an equal division ({n} into {k})")
        q, r = divmod(n, k)
        sizes = [q + 1] * r + [q] * (k - r)
        bounds = np.cumsum([0] + sizes)
        return [(int(bounds[i]), int(bounds[i + 1])) for i in range(k)]
    bounds = [int(i) for i in np.asarray(_concrete(indices_or_sections, op)).ravel()]
    out = []
    for lo, hi in zip([None] + bounds, bounds + [None], strict=True):
        r = range(n)[lo:hi]
        out.append((r.start, r.start + len(r)))
    return out


def _split(ary, indices_or_sections, axis, op, even):
    ary = _arr(ary)
    axis = normalize_axis(axis, _ndim(ary), op)
    n = _shape(ary)[axis]
    ranges = _split_ranges(n, indices_or_sections, op, even)
    if ranges[0][0] == 0 and ranges[-1][1] == n and all(
            a[1] == b[0] for a, b in zip(ranges, ranges[1:], strict=False)):
        return list(ST.split(ary, [hi - lo for lo, hi in ranges], axis))
    return [ST.slice_in_dim(ary, lo, hi, 1, axis) for lo, hi in ranges]


def split(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike, axis: int = 0) -> list[Array]:
    """Split into equal sections (an int) or at the given indices (a sequence)."""
    return _split(ary, indices_or_sections, axis, "split", True)


def array_split(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike,
                axis: int = 0) -> list[Array]:
    return _split(ary, indices_or_sections, axis, "array_split", False)


def hsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    ary = _arr(ary)
    return split(ary, indices_or_sections, 0 if _ndim(ary) == 1 else 1)


def vsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    return split(ary, indices_or_sections, 0)


def dsplit(ary: ArrayLike, indices_or_sections: int | Sequence[int] | ArrayLike) -> list[Array]:
    return split(ary, indices_or_sections, 2)


# ---------------------------------------------------------------------------------------
# tile / repeat / delete / insert


def tile(A: ArrayLike, reps: int | Sequence[int] | ArrayLike) -> Array:
    A = _arr(A)
    reps = (int(reps),) if isinstance(reps, (int, np.integer)) else tuple(int(r) for r in reps)
    shp = _shape(A)
    nd = max(len(shp), len(reps))
    shp = (1,) * (nd - len(shp)) + shp
    reps = (1,) * (nd - len(reps)) + reps
    x = shape_ops.reshape(A, tuple(v for s in shp for v in (1, s)))
    x = shape_ops.broadcast_to(x, tuple(v for r, s in zip(reps, shp, strict=True) for v in (r, s)))
    return shape_ops.reshape(x, tuple(r * s for r, s in zip(reps, shp, strict=True)))


def repeat(a: ArrayLike, repeats: ArrayLike, axis: int | None = None, *,
           total_repeat_length: int | None = None) -> Array:
    """Repeat elements; ``repeats`` is an int or an array of per-element counts, concrete
    unless ``total_repeat_length`` is given (JAX's: then the counts may be traced, under `jit`;
    the output is cut at, or filled with the last element up to, that length).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> f = fgrad.jit(fnp.repeat, static_argnames=["total_repeat_length"])
        >>> f(fnp.asarray([1, 2, 3]), fnp.asarray([2, 0, 1]), total_repeat_length=4)
        Array([1, 1, 3, 3], dtype=int64)
    """
    a = _arr(a)
    if axis is None:
        a = shape_ops.reshape(a, (get_aval(a).size,))
        axis = 0
    axis = normalize_axis(axis, _ndim(a), "repeat")
    shp = _shape(a)
    n = shp[axis]
    if isinstance(repeats, (int, np.integer)) or (_is_concrete(repeats) and np.ndim(repeats) == 0):
        r = int(np.asarray(repeats))
        if r < 0:
            raise ValueError("repeat: repeats may not contain negative values")
        x = shape_ops.reshape(a, shp[:axis + 1] + (1,) + shp[axis + 1:])
        x = shape_ops.broadcast_to(x, shp[:axis + 1] + (r,) + shp[axis + 1:])
        out = shape_ops.reshape(x, shp[:axis] + (n * r,) + shp[axis + 1:])
    elif total_repeat_length is not None and not _is_concrete(repeats):
        return _take_axis(a, _repeat_gather_indices(repeats, n, int(total_repeat_length)), axis)
    else:
        reps = _concrete(repeats, "repeat", "Pass a Python int or concrete repeats.").astype(np.int64)
        idx = np.repeat(np.arange(n, dtype=np.intp), reps)
        out = _take_axis(a, wrap(idx), axis)
    if total_repeat_length is not None:
        m = _shape(out)[axis]
        t = int(total_repeat_length)
        if m >= t:
            out = ST.slice_in_dim(out, 0, t, 1, axis)
        else:
            last = _take_axis(out, wrap(np.full((t - m,), m - 1, np.intp)), axis)
            out = concatenate([out, last], axis)
    return out


def _repeat_gather_indices(repeats, n: int, total: int):
    """JAX's gather indices of a `repeat` with traced counts and a static total: the blocks'
    starts (an exclusive cumulative sum) marked in a length-``total`` buffer (starts past the
    end dropped), whose cumulative sum minus one is each output's source (the last source
    repeats when the counts sum to less than ``total``)."""
    fnp = _ABOVE["fnp"]  # the package's composites (handed over by _building_blocks)
    reps = fnp.broadcast_to(fnp.asarray(repeats), (n,))
    starts = fnp.cumsum(fnp.concatenate([fnp.zeros(1, get_aval(reps).dtype), reps[:-1]]))
    marks = fnp.zeros(total, np.int32).at[starts].add(1, mode="drop")
    return fnp.cumsum(marks) - 1


def _index_map(arr, op, fn, *extra):
    """Apply a NumPy function ``fn`` to the flat ids of ``arr`` (and ``extra`` id blocks) to get
    the gather map of a value-independent rearrangement, then gather: exact NumPy layout
    semantics, differentiable in the data."""
    size = get_aval(arr).size
    ids = np.arange(size, dtype=np.intp).reshape(_shape(arr))
    off = size
    more = []
    for e in extra:
        n = get_aval(e).size
        more.append(np.arange(off, off + n, dtype=np.intp).reshape(_shape(e)))
        off += n
    m = np.asarray(fn(ids, *more))
    src = shape_ops.reshape(arr, (size,))
    if extra:
        src = concatenate([src] + [shape_ops.reshape(e, (get_aval(e).size,)) for e in extra])
    return indexing_ops.gather(src, [wrap(m.astype(np.intp))], (("a", 0),))


def _static_obj(obj, op):
    if isinstance(obj, slice):
        return obj
    obj = _concrete(obj, op, "The index positions must be static.")
    if isinstance(obj, np.ndarray) and obj.size == 0 and _dtype_kind(obj.dtype) == "f":
        obj = obj.astype(np.intp)  # an empty list/tuple means "no positions"
    return obj


def delete(arr: ArrayLike, obj: ArrayLike, axis: int | None = None, *,
           assume_unique_indices: bool = False) -> Array:
    """Delete sub-arrays along ``axis`` (``obj``: int, slice, or concrete index/boolean
    array).  With ``assume_unique_indices=True`` integer indices may be traced (JAX's: the
    output size is known), so ``jit(delete, static_argnames=["assume_unique_indices"])``
    takes an index array.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> f = fgrad.jit(fnp.delete, static_argnames=["assume_unique_indices"])
        >>> f(fnp.arange(5), fnp.asarray([3, 0]), assume_unique_indices=True)
        Array([1, 2, 4], dtype=int64)
    """
    arr = _arr(arr)
    if assume_unique_indices and isinstance(obj, Tracer) and _dtype_kind(get_aval(obj).dtype) in "iu":
        return _delete_unique(arr, obj, axis)
    obj = _static_obj(obj, "delete")
    return _index_map(arr, "delete", lambda ids: np.delete(ids, obj, axis))


def _delete_unique(arr, obj, axis):
    """JAX's `delete` of unique (traced) integer indices: the kept positions are
    ``i + #{deleted positions <= the i-th kept one}``, gathered with `take`."""
    fnp = _ABOVE["fnp"]  # the package's composites (handed over by _building_blocks)
    if axis is None:
        arr, axis = ravel(arr), 0
    axis = normalize_axis(axis, get_aval(arr).ndim, "delete")
    n = get_aval(arr).shape[axis]
    idx = fnp.ravel(obj)
    idx = fnp.sort(fnp.clip(fnp.where(idx < 0, idx + n, idx), 0, n))
    idx = idx - fnp.arange(get_aval(idx).size, dtype=get_aval(idx).dtype)
    keep = fnp.arange(n - get_aval(idx).size, dtype=get_aval(idx).dtype)
    keep = keep + fnp.sum(keep[None, :] >= idx[:, None], axis=0, dtype=get_aval(keep).dtype)
    return fnp.take(arr, keep, axis=axis)


def insert(arr: ArrayLike, obj: ArrayLike, values: ArrayLike, axis: int | None = None) -> Array:
    """Insert ``values`` before the positions ``obj`` along ``axis`` (NumPy semantics)."""
    arr = _arr(arr)
    obj = _static_obj(obj, "insert")
    vals = _cast(_arr(values), _dtype(arr))
    return _index_map(arr, "insert", lambda ids, vids: np.insert(ids, obj, vids, axis), vals)


# ---------------------------------------------------------------------------------------
# flips, rolls, rotations


def flip(m: ArrayLike, axis: Axis = None) -> Array:
    m = _arr(m)
    axes = normalize_axes(axis, _ndim(m), "flip")
    return ST.rev(m, axes)


def fliplr(m: ArrayLike) -> Array:
    m = _arr(m)
    if _ndim(m) < 2:
        raise ValueError("fliplr: input must be >= 2-d")
    return flip(m, 1)


def flipud(m: ArrayLike) -> Array:
    m = _arr(m)
    if _ndim(m) < 1:
        raise ValueError("flipud: input must be >= 1-d")
    return flip(m, 0)


def _roll_one(a, shift, axis):
    n = _shape(a)[axis]
    if n == 0:
        return a
    if isinstance(shift, Tracer):
        base = constant_like(np.arange(n, dtype=np.int64), a)  # on ``a``'s device
        idx = ew.rem_p.bind(ew.sub(base, ew.convert_element_type(shift, np.int64)), n)
        return _take_axis(a, idx, axis)
    s = int(np.asarray(shift)) % n
    if s == 0:
        return a
    lo, hi = ST.split(a, (n - s, s), axis)
    return ST.concatenate([hi, lo], axis)


def roll(a: ArrayLike, shift: ArrayLike, axis: Axis = None) -> Array:
    """Roll elements along ``axis`` (the flattened array when None); ``shift`` may be traced."""
    a = _arr(a)
    if axis is None:
        return shape_ops.reshape(roll(shape_ops.reshape(a, (-1,)), shift, 0), _shape(a))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if isinstance(shift, Tracer) and _ndim(shift) == 0:
        shifts = (shift,) * len(axes)
    elif isinstance(shift, Tracer):
        shifts = tuple(shift[i] for i in range(_shape(shift)[0]))
    else:
        shifts = np.atleast_1d(np.asarray(shift)).tolist()
    if len(shifts) == 1 and len(axes) > 1:
        shifts = shifts * len(axes)
    if len(axes) == 1 and len(shifts) > 1:
        axes = axes * len(shifts)
    if len(shifts) != len(axes):
        raise ValueError("roll: shift and axis must have the same length")
    for s, ax in zip(shifts, axes, strict=True):
        a = _roll_one(a, s, normalize_axis(int(ax), _ndim(a), "roll"))
    return a


def rot90(m: ArrayLike, k: int = 1, axes: Any = (0, 1)) -> Array:
    m = _arr(m)
    nd = _ndim(m)
    if len(axes) != 2:
        raise ValueError("rot90: len(axes) must be 2")
    a0, a1 = normalize_axis(axes[0], nd, "rot90"), normalize_axis(axes[1], nd, "rot90")
    if a0 == a1:
        raise ValueError("rot90: axes must be different")
    k = int(k) % 4
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, a0), a1)
    perm = list(range(nd))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    if k == 1:
        return shape_ops.transpose(flip(m, a1), perm)
    return flip(shape_ops.transpose(m, perm), a1)


# ---------------------------------------------------------------------------------------
# pad


def _pad_widths(pad_width, nd):
    pw = np.asarray(_concrete(pad_width, "pad", "pad widths must be static"))
    if _dtype_kind(pw.dtype) not in "iu":
        if pw.size and not np.all(pw == np.round(pw)):
            raise TypeError("pad: pad_width must be of integral type")
        pw = pw.astype(np.int64)
    pw = np.broadcast_to(pw, (nd, 2)) if pw.ndim < 2 or pw.shape[0] == 1 else pw
    if pw.shape != (nd, 2):
        raise ValueError(f"pad: pad_width of shape {pw.shape} does not fit an array of rank {nd}")
    if (pw < 0).any():
        raise ValueError("pad: index can't contain negative values")
    return [(int(lo), int(hi)) for lo, hi in pw]


def _per_axis_pairs(v, nd, name):
    """NumPy's broadcasting of ``constant_values`` / ``stat_length``-like arguments to
    ``(before, after)`` per axis; returns None when it is a single scalar."""
    if isinstance(v, (ArrayImpl, Tracer)) and _ndim(v) == 0:
        return None
    if isinstance(v, (int, float, complex, np.number)):
        return None
    if isinstance(v, (list, tuple)) and any(isinstance(e, Tracer) or isinstance(e, (list, tuple)) for e in v):
        rows = [e if isinstance(e, (list, tuple)) else (e, e) for e in v]
        if len(rows) == 1:
            rows = rows * nd
        return [tuple(r) for r in rows]
    arr = np.asarray(v)
    if arr.ndim == 0:
        return None
    arr = np.broadcast_to(arr, (nd, 2)) if arr.ndim < 2 or arr.shape[0] == 1 else arr
    return [(arr[i, 0].item(), arr[i, 1].item()) for i in range(nd)]


def _pad_stat(seg, mode, ax, dt):
    """The ``mode`` statistic of ``seg`` along ``ax`` (kept), in ``dt`` (integers rounded, as
    NumPy and JAX pad them)."""
    if mode == "median":
        n = _shape(seg)[ax]
        srt = sorting_ops.sort_along(seg, ax)
        lo_mid = ST.slice_in_dim(srt, (n - 1) // 2, (n - 1) // 2 + 1, 1, ax)
        hi_mid = ST.slice_in_dim(srt, n // 2, n // 2 + 1, 1, ax)
        lo_mid, hi_mid = ew.promote_args_inexact(lo_mid, hi_mid)
        stat = ew.mul(ew.add(lo_mid, hi_mid), 0.5)
    else:
        fn = {"maximum": fnp_reductions.max, "minimum": fnp_reductions.min, "mean": fnp_reductions.mean}[mode]
        stat = fn(seg, axis=ax, keepdims=True)
    if _dtype(stat) != dt:
        stat = _cast(ew.round_p.bind(stat, decimals=0) if _dtype_kind(dt) in "iu" else stat, dt)
    return stat


def pad(array: ArrayLike, pad_width: Any, mode: str = "constant", **kwargs: Any) -> Array:
    """NumPy ``pad``.  ``mode`` is 'constant' (default; ``constant_values`` may be traced),
    'edge', 'reflect', 'symmetric', 'wrap', 'empty', 'linear_ramp', 'maximum', 'minimum',
    'mean' or 'median' (the statistics over ``stat_length`` entries of each edge, or all),
    or a function ``mode(row, (before, after), axis, kwargs)`` that returns each 1-D slice
    of the zero-padded array with its pads filled (mapped with `vmap`, as JAX; NumPy's
    functions write into ``row`` instead).  All modes are differentiable in the array.

    Example::

        >>> import fgrad.numpy as fnp
        >>> fnp.pad(fnp.asarray([1.0, 5.0, 2.0, 8.0]), 1, mode="median", stat_length=3)
        Array([2., 1., 5., 2., 8., 5.], dtype=float64)
    """
    x = _arr(array)
    nd = _ndim(x)
    widths = _pad_widths(pad_width, nd)
    if callable(mode):  # JAX's: zero-pad, then map mode(row, (before, after), axis, kwargs) over each axis
        apply_along_axis = _ABOVE["apply_along_axis"]  # handed over by _calculus
        x = ST.pad(x, 0, [(lo, hi, 0) for lo, hi in widths])
        for ax in range(nd):
            x = apply_along_axis(mode, ax, x, tuple(widths[ax]), ax, kwargs)
        return x
    if mode == "constant":
        cv = kwargs.pop("constant_values", 0)
        _no_kwargs(kwargs, mode)
        pairs = _per_axis_pairs(cv, nd, "constant_values")
        if pairs is None:
            pv = _cast(_arr(cv), _dtype(x)) if isinstance(cv, (ArrayImpl, Tracer)) else \
                np.asarray(cv).astype(_dtype(x)).item()
            return ST.pad(x, pv, [(lo, hi, 0) for lo, hi in widths])
        for ax, ((lo, hi), (vlo, vhi)) in enumerate(zip(widths, pairs, strict=True)):
            for amount, val, before in ((lo, vlo, True), (hi, vhi, False)):
                if amount:
                    cfg = [(0, 0, 0)] * nd
                    cfg[ax] = (amount, 0, 0) if before else (0, amount, 0)
                    pv = _cast(_arr(val), _dtype(x)) if isinstance(val, (ArrayImpl, Tracer)) else \
                        np.asarray(val).astype(_dtype(x)).item()
                    x = ST.pad(x, pv, cfg)
        return x
    if mode == "empty":
        _no_kwargs(kwargs, mode)
        return ST.pad(x, 0, [(lo, hi, 0) for lo, hi in widths])
    if mode in ("edge", "reflect", "symmetric", "wrap"):
        reflect_type = kwargs.pop("reflect_type", "even")
        _no_kwargs(kwargs, mode)
        for ax, (lo, hi) in enumerate(widths):
            if lo == 0 and hi == 0:
                continue
            n = _shape(x)[ax]
            if n == 0:
                raise ValueError(
                    f"pad: can't extend empty axis {ax} using modes other than 'constant' or 'empty'"
                )
            src = np.pad(np.arange(n), (lo, hi), mode=mode)
            y = _take_axis(x, wrap(src.astype(np.intp)), ax)
            if reflect_type == "odd" and mode in ("reflect", "symmetric"):
                # odd reflection: 2 * edge - reflected value on the padded parts
                edge_src = np.pad(np.arange(n), (lo, hi), mode="edge")
                e = _take_axis(x, wrap(edge_src.astype(np.intp)), ax)
                inside = np.zeros(n + lo + hi, bool)
                inside[lo:lo + n] = True
                shp = [1] * nd
                shp[ax] = n + lo + hi
                y = ew.select(inside.reshape(shp), y, ew.sub(ew.mul(e, 2), y))
            elif reflect_type not in ("even", "odd"):
                raise ValueError(f"pad: reflect_type must be 'even' or 'odd', got {reflect_type!r}")
            x = y
        return x
    if mode in ("maximum", "minimum", "mean", "median"):
        stat_length = kwargs.pop("stat_length", None)
        _no_kwargs(kwargs, mode)
        lengths = _per_axis_pairs(stat_length, nd, "stat_length") if stat_length is not None else None
        if stat_length is not None and lengths is None:
            lengths = [(int(np.asarray(stat_length)),) * 2] * nd
        for ax, (lo, hi) in enumerate(widths):
            if lo == 0 and hi == 0:
                continue
            n = _shape(x)[ax]
            parts = []
            for side, width in ((0, lo), (1, hi)):
                if not width:
                    continue
                # the statistic of the first (before) or last (after) stat_length entries
                k = n if lengths is None or lengths[ax][side] is None else builtins.max(
                    1, builtins.min(int(lengths[ax][side]), n))
                start = 0 if side == 0 else n - k
                seg = x if k == n else ST.slice_in_dim(x, start, start + k, 1, ax)
                parts.append((side, _repeat_axis(_pad_stat(seg, mode, ax, _dtype(x)), width, ax)))
            before, after = [p for sd, p in parts if sd == 0], [p for sd, p in parts if sd == 1]
            x = ST.concatenate(before + [x] + after, ax)
        return x
    if mode == "linear_ramp":
        end_values = kwargs.pop("end_values", 0)
        _no_kwargs(kwargs, mode)
        pairs = _per_axis_pairs(end_values, nd, "end_values") or [(end_values, end_values)] * nd
        for ax, ((lo, hi), (elo, ehi)) in enumerate(zip(widths, pairs, strict=True)):
            n = _shape(x)[ax]
            parts = []
            # as np.linspace(end, edge, width, endpoint=False): i * ((edge - end) / width) + end
            if lo:
                edge = _ramp_edge(ST.slice_in_dim(x, 0, 1, 1, ax))
                ramp = ew.add(ew.mul(_axis_vector(np.arange(lo, dtype=np.float64), nd, ax),
                                     ew.div(ew.sub(edge, elo), lo)), elo)
                parts.append(_ramp_cast(ramp, _dtype(x)))
            parts.append(x)
            if hi:
                edge = _ramp_edge(ST.slice_in_dim(x, n - 1, n, 1, ax))
                ramp = ew.add(ew.mul(_axis_vector(np.arange(hi - 1, -1, -1, dtype=np.float64), nd, ax),
                                     ew.div(ew.sub(edge, ehi), hi)), ehi)
                parts.append(_ramp_cast(ramp, _dtype(x)))
            x = ST.concatenate(parts, ax) if len(parts) > 1 else x
        return x
    raise ValueError(f"pad: mode {mode!r} is not supported")


def _ramp_edge(edge):
    """An edge value of an integer array as a float: ``edge - end`` must not wrap around
    (unsigned integers) before the ramp is computed."""
    return _cast(edge, canonical_dtype(np.float64)) if _dtype_kind(_dtype(edge)) in "biu" else edge


def _ramp_cast(v, dtype):
    if _dtype_kind(dtype) in "iu":  # np.linspace(..., dtype=int) floors
        v = ew.floor(v)
    return _cast(v, dtype)


def _axis_vector(v, nd, ax):
    shp = [1] * nd
    shp[ax] = v.size
    return v.reshape(shp)


def _repeat_axis(x, k, ax):
    shp = list(_shape(x))
    shp[ax] = k
    return shape_ops.broadcast_to(x, tuple(shp))


def _no_kwargs(kwargs, mode):
    if kwargs:
        raise ValueError(f"pad: unsupported keyword arguments for mode {mode!r}: {sorted(kwargs)}")


# ---------------------------------------------------------------------------------------
# triangles and diagonals


def _tri_mask(shp, k, lower):
    n, m = shp[-2], shp[-1]
    t = np.tri(n, m, k, dtype=bool)
    return t if lower else ~np.tri(n, m, k - 1, dtype=bool)


def tril(m: ArrayLike, k: int = 0) -> Array:
    m = _arr(m)
    if _ndim(m) < 2:
        raise ValueError("tril: input must be at least 2-d")
    # zeros, not m * 0: that is NaN where m is +-inf or NaN (np.tril gives 0 there)
    zeros = zeros_like(m) if _dtype(m).kind != "b" else False
    mask = cached_constant_like(_tri_mask(_shape(m), int(k), True), m)
    return ew.select(mask, m, zeros)


def triu(m: ArrayLike, k: int = 0) -> Array:
    m = _arr(m)
    if _ndim(m) < 2:
        raise ValueError("triu: input must be at least 2-d")
    # zeros, not m * 0: that is NaN where m is +-inf or NaN (np.triu gives 0 there)
    zeros = zeros_like(m) if _dtype(m).kind != "b" else False
    mask = cached_constant_like(_tri_mask(_shape(m), int(k), False), m)
    return ew.select(mask, m, zeros)


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The diagonal of the (axis1, axis2) planes, as the last axis (NumPy semantics)."""
    a = _arr(a)
    nd = _ndim(a)
    if nd < 2:
        raise ValueError("diagonal: array must be at least 2-d")
    a1, a2 = normalize_axis(axis1, nd, "diagonal"), normalize_axis(axis2, nd, "diagonal")
    if a1 == a2:
        raise ValueError("diagonal: axis1 and axis2 cannot be the same")
    rest = [i for i in range(nd) if i not in (a1, a2)]
    x = shape_ops.transpose(a, rest + [a1, a2])
    n, m = _shape(a)[a1], _shape(a)[a2]
    offset = int(offset)
    length = max(0, min(n, m - offset) if offset >= 0 else min(n + offset, m))
    i = np.arange(length, dtype=np.intp) + max(-offset, 0)
    j = np.arange(length, dtype=np.intp) + max(offset, 0)
    indexer = _full_slices(len(rest)) + (("a", 0), ("a", 1))
    return indexing_ops.gather(x, [wrap(i), wrap(j)], indexer)


def trace(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype: DTypeLike | None = None,
          out: None = None) -> Array:
    return sum_(diagonal(a, offset, axis1, axis2), axis=-1, dtype=dtype)


def diag(v: ArrayLike, k: int = 0) -> Array:
    v = _arr(v)
    k = int(k)
    if _ndim(v) == 2:
        return diagonal(v, k)
    if _ndim(v) != 1:
        raise ValueError("diag: input must be 1-d or 2-d")
    n = _shape(v)[0]
    size = n + builtins.abs(k)
    i = np.arange(n, dtype=np.intp) + max(-k, 0)
    j = np.arange(n, dtype=np.intp) + max(k, 0)
    z = zeros_like(v, shape=(size, size))
    return indexing_ops.scatter(z, v, [wrap(i), wrap(j)], (("a", 0), ("a", 1)), "add", "drop")


def diagflat(v: ArrayLike, k: int = 0) -> Array:
    v = _arr(v)
    return diag(shape_ops.reshape(v, (get_aval(v).size,)), k)


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    idx = wrap(np.arange(n))
    return (idx,) * ndim


def diag_indices_from(arr: ArrayLike) -> tuple[Array, ...]:
    shp = _shape(arr)
    if len(shp) < 2 or len(set(shp)) != 1:
        raise ValueError("diag_indices_from: input array must be at least 2-d with all dimensions equal")
    return diag_indices(shp[0], len(shp))


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    return tuple(wrap(i) for i in np.tril_indices(n, k, m))


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, Array]:
    return tuple(wrap(i) for i in np.triu_indices(n, k, m))


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    shp = _shape(arr)
    if len(shp) != 2:
        raise ValueError("tril_indices_from: input array must be 2-d")
    return tril_indices(shp[0], k, shp[1])


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, Array]:
    shp = _shape(arr)
    if len(shp) != 2:
        raise ValueError("triu_indices_from: input array must be 2-d")
    return triu_indices(shp[0], k, shp[1])


def fill_diagonal(a: ArrayLike, val: ArrayLike, wrap: bool = False, *, inplace: bool = True) -> Array:
    """Functional ``fill_diagonal``: returns a new array; call with ``inplace=False``. As JAX,
    ``inplace=True`` (arrays are immutable) and ``wrap=True`` raise ``NotImplementedError``.

    >>> import fgrad.numpy as fnp
    >>> fnp.fill_diagonal(fnp.zeros((2, 3)), 1.0, inplace=False)
    Array([[1., 0., 0.],
           [0., 1., 0.]], dtype=float64)
    """
    if inplace:
        raise NotImplementedError("fgrad.numpy.fill_diagonal: arrays are immutable, as in JAX; pass "
                                  "inplace=False and use the returned array")
    if wrap:
        raise NotImplementedError("fgrad.numpy.fill_diagonal: wrap=True is not implemented, as in JAX; "
                                  "pass wrap=False (or set the wrapped rows with .at[rows, cols].set)")
    a = _arr(a)
    shp = _shape(a)
    if len(shp) < 2:
        raise ValueError("fill_diagonal: array must be at least 2-d")
    if len(shp) > 2 and len(set(shp)) != 1:
        raise ValueError("fill_diagonal: all dimensions of input must be of equal length")
    if len(shp) == 2:
        rows = cols = np.arange(min(shp))
        idx = [wrap_index(rows.astype(np.intp)), wrap_index(cols.astype(np.intp))]
    else:
        idx = [wrap_index(np.arange(shp[0], dtype=np.intp))] * len(shp)
    k = _shape(idx[0])[0]
    vals = shape_ops.reshape(_cast(_arr(val), _dtype(a)), (-1,))
    nv = _shape(vals)[0]
    if nv != k:
        vals = _take_axis(vals, wrap_index((np.arange(k) % max(nv, 1)).astype(np.intp)), 0)
    return indexing_ops.scatter(a, vals, idx, tuple(("a", d) for d in range(len(idx))), "set", "drop")


# ---------------------------------------------------------------------------------------
# select / choose


def select(condlist: ArrayLike | Sequence[ArrayLike], choicelist: ArrayLike | Sequence[ArrayLike],
           default: ArrayLike = 0) -> Array:
    """``np.select``: the first true condition picks its choice, else ``default``."""
    condlist, choicelist = list(condlist), list(choicelist)
    if len(condlist) != len(choicelist):
        raise ValueError(f"select: condlist has {len(condlist)} entries but choicelist has {len(choicelist)}")
    if not condlist:
        raise ValueError("select: condlist must be non-empty")
    conds = [_arr(c) for c in condlist]
    for c in conds:
        if _dtype(c) != np.bool_:
            raise TypeError(f"select: condlist entries must be boolean, got {_dtype(c)}")
    # JAX's promote_dtypes(default, *choices): a Python default is weak
    out, *choices = ew.promote_joined([_weak_arr(v) if type(v) in _WEAK_SCALARS else _arr(v)
                                     for v in [default, *choicelist]])
    shp = np.broadcast_shapes(*[_shape(c) for c in conds + choices], _shape(out))
    out = shape_ops.broadcast_to(out, shp)
    for c, v in reversed(list(zip(conds, choices, strict=True))):
        out = ew.select(c, v, out)
    return out


def choose(a: ArrayLike, choices: ArrayLike | Sequence[ArrayLike], out: None = None,
           mode: str = "raise") -> Array:
    a = _arr(a)
    cs = [_arr(c) for c in (choices if not isinstance(choices, (ArrayImpl, Tracer)) else
                              [choices[i] for i in range(_shape(choices)[0])])]
    n = len(cs)
    if mode == "wrap":
        a = ew.rem_p.bind(a, n)
    elif mode == "clip":
        a = ew.minimum(ew.maximum(a, 0), n - 1)
    elif mode == "raise":
        if not isinstance(a, Tracer):
            v = np.asarray(a)
            if v.size and (v.min() < 0 or v.max() >= n):
                raise ValueError("choose: invalid entry in choice array")
    else:
        raise ValueError(f"choose: unknown mode {mode!r}")
    dt = _result_dtype(cs)
    shp = np.broadcast_shapes(_shape(a), *[_shape(c) for c in cs])
    out = shape_ops.broadcast_to(_cast(cs[-1], dt), shp)
    for i in range(n - 2, -1, -1):
        out = ew.select(ew.eq(a, i), _cast(cs[i], dt), out)
    return out


# ---------------------------------------------------------------------------------------
# index helpers


def ix_(*args: ArrayLike) -> tuple[Array, ...]:
    out = []
    n = len(args)
    for k, a in enumerate(args):
        a = _arr(a)
        if _ndim(a) != 1:
            raise ValueError("ix_: cross index must be 1 dimensional")
        if _dtype(a) == np.bool_:
            (a,) = nonzero(a)
        shp = [1] * n
        shp[k] = _shape(a)[0]
        out.append(shape_ops.reshape(a, tuple(shp)))
    return tuple(out)


def indices(dimensions: Shape | ArrayLike, dtype: DTypeLike = int,
            sparse: bool = False) -> Array | tuple[Array, ...]:
    res = np.indices(tuple(int(d) for d in dimensions), dtype=dtype, sparse=sparse)
    return tuple(wrap(r) for r in res) if sparse else wrap(res)


def meshgrid(*xi: ArrayLike, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> list[Array]:
    if indexing not in ("xy", "ij"):
        raise ValueError("meshgrid: indexing must be 'xy' or 'ij'")
    xs = [shape_ops.reshape(_arr(x), (-1,)) for x in xi]
    n = len(xs)
    shp = [_shape(x)[0] for x in xs]
    if indexing == "xy" and n >= 2:
        shp[0], shp[1] = shp[1], shp[0]
    out = []
    for k, x in enumerate(xs):
        pos = k
        if indexing == "xy" and n >= 2 and k < 2:
            pos = 1 - k
        s = [1] * n
        s[pos] = _shape(x)[0]
        y = shape_ops.reshape(x, tuple(s))
        out.append(y if sparse else shape_ops.broadcast_to(y, tuple(shp)))
    return out


def unravel_index(indices: ArrayLike, shape: int | Shape | ArrayLike) -> tuple[Array, ...]:
    """Coordinates of flat indices in an array of ``shape``, as ``jax.numpy.unravel_index``:
    each coordinate has the indices' dtype and weak type (a Python int gives weak int32/int64),
    a negative index counts from the end, and an index out of range is clipped into it (no
    error, eager or traced: one computation, a ``divmod`` per axis from the last).

    >>> import fgrad.numpy as fnp
    >>> fnp.unravel_index(fnp.asarray([5, -1, 99], dtype=fnp.int8), (3, 4))
    (Array([1, 2, 2], dtype=int8), Array([1, 3, 3], dtype=int8))
    """
    fnp = _ABOVE["fnp"]  # the package's composites (handed over by _building_blocks)
    check_arraylike("unravel_index", indices)
    shape = tuple(int(s) for s in np.atleast_1d(np.asarray(shape)))
    rest = fnp.asarray(indices)
    coords: list = [None] * len(shape)
    for k in reversed(range(len(shape))):
        rest, coords[k] = fnp.divmod(rest, shape[k])
    beyond_end = ew.gt(rest, 0)  # past the last entry: the last coordinate on every axis
    before_start = ew.lt(rest, -1) if _dtype_kind(get_aval(rest).dtype) == "i" else None  # below -size
    out = []
    for size, c in zip(shape, coords, strict=True):
        c = fnp.where(before_start, 0, c) if before_start is not None else c
        out.append(fnp.where(beyond_end, size - 1, c))
    return tuple(out)


def ravel_multi_index(multi_index: Sequence[ArrayLike], dims: Shape, mode: str = "raise",
                      order: str = "C") -> Array:
    dims = tuple(int(d) for d in dims)
    if order not in ("C", "F"):
        raise ValueError("ravel_multi_index: order must be 'C' or 'F'")
    if len(multi_index) != len(dims):
        raise ValueError(f"ravel_multi_index: parameter multi_index must be a sequence of length {len(dims)}")
    if not any(isinstance(m, Tracer) for m in multi_index):
        res = np.ravel_multi_index(tuple(np.asarray(m) for m in multi_index), dims, mode=mode, order=order)
        return wrap(np.asarray(res))
    if mode == "raise":
        raise ConcretizationTypeError(
            "fgrad.numpy.ravel_multi_index: mode='raise' needs concrete indices; pass mode='clip' or "
            "mode='wrap' under a transform"
        )
    order_dims = list(range(len(dims))) if order == "C" else list(range(len(dims)))[::-1]
    out = None
    stride = 1
    for k in reversed(order_dims):
        m = ew.convert_element_type(multi_index[k], np.int64)
        if mode == "wrap":
            m = ew.rem_p.bind(m, dims[k])
        else:
            m = ew.minimum(ew.maximum(m, 0), dims[k] - 1)
        term = ew.mul(m, stride)
        out = term if out is None else ew.add(out, term)
        stride *= dims[k]
    return out


def _install_private_entry_points():
    """`Array.__getitem__` / `.at` call ``fgrad.numpy._getitem`` / ``_scatter``; a star
    import skips underscore names unless the importing module re-exports them, so make sure
    the package has them."""
    pkg = sys.modules.get(__name__.rpartition(".")[0])
    if pkg is not None:
        pkg._getitem = _getitem
        pkg._scatter = _scatter


_install_private_entry_points()
