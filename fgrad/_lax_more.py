"""The rest of `jax.lax` that programs call, written over fgrad's primitives and `fgrad.numpy`:
the general `reduce` (any associative computation, over pytrees of operands), `select_n`,
bit counting, slicing helpers (``*_in_dim``, `split`, `unstack`, `collapse`, `index_take`),
`reduce_precision`, shape helpers for convolutions and windows, and identities that only
matter to XLA (`with_sharding_constraint`).  Re-exported by
`fgrad.lax`.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad import lax
    >>> lax.reduce(fnp.arange(6.0).reshape(2, 3), 0.0, lambda a, b: a + b, (1,))
    Array([ 3., 12.], dtype=float64)
"""

from __future__ import annotations

import enum
import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from . import numpy as fnp
from .core.array import get_aval
from .core.narrow_floats import dtype_kind
from .typing import Array, ArrayLike, DTypeLike, Integer, Shape, Shaped
from .ops import bits as _bits
from .ops import elementwise as _ew
from .ops import lax_ops as _lax
from .ops.control_flow import trace_flat
from .ops.convolution import _out_spatial  # the output-size formula of convolutions and windows
from .ops.convolution import padtype_to_pads as _padtype_to_pads
from .ops.special_functions import (  # noqa: F401 - re-exported under their lax names
    bessel_i0e, bessel_i1e, betainc, digamma, igamma, igamma_grad_a, igammac, lgamma, polygamma, zeta,
)
from ._device_api import default_backend as _default_backend
from .transforms.batching import vmap
from .transforms.jvp_trace import JVPTracer
from .transforms.tape import TapeTracer
from .tree_util import tree_flatten, tree_unflatten

complex = _ew.complex_  # noqa: A001 - JAX's name


def reciprocal(x: Shaped[ArrayLike, "*shape"]) -> Shaped[Array, "*shape"]:
    """``1 / x`` (JAX: ``integer_pow(x, -1)``).

    Example::

        >>> from fgrad import lax
        >>> lax.reciprocal(4.0)
        Array(0.25, dtype=float64, weak_type=True)
    """
    return _lax.integer_pow(fnp.asarray(x), -1)


def select_n(which: ArrayLike, *cases: ArrayLike) -> Array:
    """``cases[which]`` elementwise: ``which`` is boolean (two cases: ``False`` picks the
    first) or an integer in ``[0, len(cases))``; a scalar ``which`` picks whole arrays.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.select_n(fnp.array([0, 2, 1]), fnp.zeros(3), fnp.ones(3), fnp.full(3, 2.0))
        Array([0., 2., 1.], dtype=float64)
    """
    if not cases:
        raise ValueError("select_n: at least one case is required")
    which = fnp.asarray(which)
    if which.dtype == np.bool_ and len(cases) > 2:
        raise TypeError(f"select_n: a boolean `which` selects between two cases, got {len(cases)}")
    if dtype_kind(which.dtype) not in "biu":
        raise TypeError(f"select_n: `which` must be boolean or integer, got {which.dtype}")
    dtypes = {np.dtype(get_aval(c).dtype) for c in cases}
    if len(dtypes) > 1:
        raise TypeError(f"select_n: the cases must have one dtype, got {sorted(map(str, dtypes))}")
    if which.dtype == np.bool_:
        return _ew.select_p.bind(which, *cases) if len(cases) == 2 else fnp.asarray(cases[0])
    out = fnp.asarray(cases[0])
    for i, case in enumerate(cases[1:], start=1):  # an integer `which`: a chain of select_n
        out = _ew.select(_ew.eq(which, i), case, out)
    return out


_MONOIDS = {"add": (_lax.reduce_sum, 0), "mul": (_lax.reduce_prod, 1), "max": (_lax.reduce_max, None),
            "min": (_lax.reduce_min, None), "and": (_lax.reduce_and, None), "or": (_lax.reduce_or, None)}


def _monoid(computation, operand, init) -> Callable | None:
    """The dedicated reduction when ``computation`` is one add/mul/max/min/and/or and the
    init value is that operation's identity (as JAX recognizes them)."""
    try:
        scalar = get_aval(fnp.zeros((), get_aval(operand).dtype))
        program = trace_flat(lambda a, b: [computation(a, b)], [scalar, scalar], "lax.reduce")[0].jaxpr
    except Exception:  # not traceable on scalars: the general path decides
        return None
    if len(program.eqns) != 1 or program.eqns[0].prim.name not in _MONOIDS:
        return None
    reduction, identity = _MONOIDS[program.eqns[0].prim.name]
    try:
        init_value = np.asarray(init)
    except Exception:  # a traced init value
        return None
    if identity is None:
        name = program.eqns[0].prim.name
        dt = np.dtype(get_aval(operand).dtype)
        if dt == np.bool_:
            identity = name in ("and", "min")
        elif dtype_kind(dt) == "f":
            identity = {"max": -np.inf, "min": np.inf}.get(name)
        else:
            info = np.iinfo(dt)
            identity = {"max": info.min, "min": info.max, "and": -1 if info.min < 0 else info.max,
                        "or": 0}.get(name)
    return reduction if identity is not None and init_value.shape == () and init_value == identity else None


def reduce(operands: Any, init_values: Any, computation: Callable, dimensions: Sequence[int]) -> Any:
    """Reduce ``operands`` (an array or a pytree of same-shaped arrays) over ``dimensions``
    with the associative ``computation(acc, x) -> acc`` (pytrees like ``operands``) starting
    from ``init_values``.  As in XLA, ``computation`` must be associative (and ``init_values``
    its identity): the order in which it is applied is unspecified.  A single
    add/mul/max/min/and/or with its identity as init runs as that reduction; any other
    computation is applied pairwise in a balanced tree (vectorized, differentiable through
    ``computation``), then once with the init values.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> x = fnp.array([[3.0, -1.0], [2.0, 5.0]])
        >>> lax.reduce((x, fnp.array([[0, 1], [2, 3]])), (-fnp.inf, 0),
        ...            lambda a, b: (fnp.maximum(a[0], b[0]), fnp.where(a[0] >= b[0], a[1], b[1])), (1,))
        (Array([3., 5.], dtype=float64), Array([0, 3], dtype=int64))
    """
    flat, tree = tree_flatten(operands)
    inits, init_tree = tree_flatten(init_values)
    if tree != init_tree:
        raise ValueError(f"lax.reduce: operands and init_values must have the same structure, got {tree} "
                         f"and {init_tree}")
    flat = [fnp.asarray(x) for x in flat]
    shapes = {tuple(x.shape) for x in flat}
    if len(shapes) != 1:
        raise ValueError(f"lax.reduce: the operands must have one shape, got {sorted(shapes)}")
    shape = shapes.pop()
    dims = tuple(sorted(int(d) % len(shape) if shape else int(d) for d in dimensions))
    if len(set(dims)) != len(dims) or any(not 0 <= d < len(shape) for d in dims):
        raise ValueError(f"lax.reduce: invalid dimensions {tuple(dimensions)} for operands of shape {shape}")
    if len(flat) == 1 and tree.num_leaves == 1:
        fast = _monoid(computation, flat[0], inits[0])
        if fast is not None:
            return tree_unflatten(tree, [fast(flat[0], dims)])
    kept = [d for d in range(len(shape)) if d not in dims]
    rest = tuple(shape[d] for d in kept)
    n = math.prod(shape[d] for d in dims)
    # the reduced axes first, flattened to one axis of length n
    stacked = [fnp.reshape(fnp.transpose(x, dims + tuple(kept)), (n,) + rest) for x in flat]
    inits = [fnp.asarray(v, dtype=x.dtype) for v, x in zip(inits, flat)]
    def combine(a, b):
        return tree_flatten(computation(tree_unflatten(tree, a), tree_unflatten(tree, b)))[0]

    pairwise = vmap(combine)
    while n > 1:
        if n % 2:  # an odd element out waits for the next round
            carry = [x[n - 1:] for x in stacked]
            stacked = [x[:n - 1] for x in stacked]
        else:
            carry = None
        half = n // 2
        stacked = pairwise([x[:half] for x in stacked], [x[half:] for x in stacked])
        if carry is not None:
            stacked = [fnp.concatenate([x, c]) for x, c in zip(stacked, carry)]
        n = stacked[0].shape[0]
    broadcast_inits = [fnp.broadcast_to(v, rest) for v in inits]
    if n == 0:
        return tree_unflatten(tree, broadcast_inits)
    total = tree_unflatten(tree, [x[0] for x in stacked])
    return computation(tree_unflatten(tree, broadcast_inits), total)


def reduce_xor(operand: ArrayLike, axes: Sequence[int]) -> Array:
    """Bitwise XOR over ``axes`` (boolean: parity).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.reduce_xor(fnp.array([[1, 2, 4], [3, 3, 0]], dtype=fnp.uint8), (1,))
        Array([7, 0], dtype=uint8)
    """
    operand = fnp.asarray(operand)
    zero = np.zeros((), operand.dtype)
    return reduce(operand, zero, _ew.xor_p.bind, axes)


def _unsigned(x, name: str):
    """``x``'s bits as its unsigned integer type, and its dtype; JAX's errors for other
    dtypes (a ``NotImplementedError`` where a float is being differentiated: the op has
    no derivative rule, and JAX looks for one before it checks the dtype)."""
    differentiated = isinstance(x, TapeTracer) or (isinstance(x, JVPTracer) and x.tangent is not None)
    if differentiated and dtype_kind(x.aval.dtype) not in "iu":
        raise NotImplementedError(f"Differentiation rule for '{name}' not implemented: lax.{name} takes "
                                  f"integers (got {x.aval.dtype}); differentiate with respect to float "
                                  f"inputs that reach it only through an integer cast")
    x = fnp.asarray(x)
    if dtype_kind(x.dtype) not in "iu":
        raise TypeError(f"{name} does not accept dtype {x.dtype}. Accepted dtypes are subtypes of integer.")
    udt = _bits._unsigned(x.dtype)
    return x if x.dtype == udt else _bits.bitcast_convert_type(x, udt), x.dtype


def population_count(x: Shaped[ArrayLike, "*shape"]) -> Integer[Array, "*shape"]:
    """The number of set bits of each element (of the integer's two's-complement bits).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.population_count(fnp.array([0, 7, -1], dtype=fnp.int8))
        Array([0, 3, 8], dtype=int8)
    """
    u, dt = _unsigned(x, "population_count")
    width = 8 * u.dtype.itemsize
    count = fnp.zeros_like(u)
    for bit in range(width):
        count = count + ((u >> bit) & 1)
    return fnp.astype(count, dt)


def clz(x: Shaped[ArrayLike, "*shape"]) -> Integer[Array, "*shape"]:
    """The number of leading zero bits of each element (its width for 0).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.clz(fnp.array([0, 1, 255, 256], dtype=fnp.uint16))
        Array([16, 15,  8,  7], dtype=uint16)
    """
    u, dt = _unsigned(x, "clz")
    width = 8 * u.dtype.itemsize
    n = fnp.full(u.shape, width, u.dtype)
    shift = width // 2
    while shift:
        high = u >> shift
        nonzero = high != 0
        n = fnp.where(nonzero, n - shift, n)
        u = fnp.where(nonzero, high, u)
        shift //= 2
    return fnp.astype(n - u, dt)


def dynamic_update_slice_in_dim(operand: Shaped[ArrayLike, "*shape"], update: ArrayLike,
                                start_index: ArrayLike, axis: int, *,
                                allow_negative_indices: bool = True) -> Shaped[Array, "*shape"]:
    """`dynamic_update_slice` with the start given along one axis (zero elsewhere).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.dynamic_update_slice_in_dim(fnp.zeros((2, 4)), fnp.ones((2, 2)), 1, axis=1)
        Array([[0., 1., 1., 0.],
               [0., 1., 1., 0.]], dtype=float64)
    """
    operand = fnp.asarray(operand)
    axis = int(axis) % operand.ndim
    start = fnp.asarray(start_index)
    if allow_negative_indices:
        start = fnp.where(start < 0, start + operand.shape[axis], start)
    starts = [fnp.zeros((), start.dtype)] * operand.ndim
    starts[axis] = start
    return _lax.dynamic_update_slice(operand, fnp.asarray(update, dtype=operand.dtype), starts)


def dynamic_update_index_in_dim(operand: Shaped[ArrayLike, "*shape"], update: ArrayLike, index: ArrayLike,
                                axis: int, *, allow_negative_indices: bool = True) -> Shaped[Array, "*shape"]:
    """Write ``update`` (with or without the size-1 ``axis``) at ``index`` along ``axis``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.dynamic_update_index_in_dim(fnp.zeros((3, 2)), fnp.ones(2), 2, axis=0)
        Array([[0., 0.],
               [0., 0.],
               [1., 1.]], dtype=float64)
    """
    operand, update = fnp.asarray(operand), fnp.asarray(update)
    axis = int(axis) % operand.ndim
    if update.ndim == operand.ndim - 1:
        update = fnp.expand_dims(update, axis)
    return dynamic_update_slice_in_dim(operand, update, index, axis,
                                       allow_negative_indices=allow_negative_indices)


def index_take(src: ArrayLike, idxs: Sequence[ArrayLike], axes: Sequence[int]) -> Array:
    """``src`` indexed along ``axes[k]`` by the integer arrays ``idxs[k]`` (broadcast
    together): the result has their shape followed by ``src``'s other axes.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> lax.index_take(fnp.arange(12).reshape(3, 4), (fnp.array([2, 0]),), (0,))
        Array([[ 8,  9, 10, 11],
               [ 0,  1,  2,  3]], dtype=int64)
    """
    src = fnp.asarray(src)
    axes = tuple(int(a) % src.ndim for a in axes)
    if len(idxs) != len(axes):
        raise ValueError(f"index_take: {len(idxs)} index arrays for {len(axes)} axes")
    moved = fnp.moveaxis(src, axes, tuple(range(len(axes))))
    return moved[tuple(fnp.asarray(i) for i in idxs)]


def broadcasted_iota(dtype: DTypeLike, shape: Sequence[int], dimension: int) -> Array:
    """``0, 1, ..., shape[dimension] - 1`` along ``dimension``, broadcast to ``shape``.

    Example::

        >>> from fgrad import lax
        >>> lax.broadcasted_iota("int32", (2, 3), 1)
        Array([[0, 1, 2],
               [0, 1, 2]], dtype=int32)
    """
    shape = tuple(int(s) for s in shape)
    dimension = int(dimension) % len(shape)
    return _lax.broadcast_in_dim(_lax.iota(np.dtype(dtype), shape[dimension]), shape, (dimension,))


def broadcast_to_rank(x: ArrayLike, rank: int) -> Array:
    """``x`` with leading size-1 axes added up to ``rank`` dimensions (unchanged if it has
    that many already).

    Example::

        >>> from fgrad import lax
        >>> lax.broadcast_to_rank(fnp.ones(3), 3).shape
        (1, 1, 3)
    """
    x = fnp.asarray(x)
    return x if x.ndim >= rank else fnp.reshape(x, (1,) * (rank - x.ndim) + x.shape)


def collapse(operand: ArrayLike, start_dimension: int, stop_dimension: int | None = None) -> Array:
    """``operand`` with the axes ``[start_dimension, stop_dimension)`` merged into one.

    Example::

        >>> from fgrad import lax
        >>> lax.collapse(fnp.zeros((2, 3, 4, 5)), 1, 3).shape
        (2, 12, 5)
    """
    operand = fnp.asarray(operand)
    lo = int(start_dimension) % (operand.ndim + 1) if start_dimension < 0 else int(start_dimension)
    hi = operand.ndim if stop_dimension is None else (
        int(stop_dimension) % (operand.ndim + 1) if stop_dimension < 0 else int(stop_dimension))
    merged = math.prod(operand.shape[lo:hi])
    return fnp.reshape(operand, operand.shape[:lo] + (merged,) + operand.shape[hi:])


def split(operand: ArrayLike, sizes: Sequence[int], axis: int = 0) -> list[Array]:
    """``operand`` cut along ``axis`` into pieces of the given ``sizes`` (which sum to the
    axis length).

    Example::

        >>> from fgrad import lax
        >>> [p.shape for p in lax.split(fnp.zeros((5, 2)), (2, 3))]
        [(2, 2), (3, 2)]
    """
    operand = fnp.asarray(operand)
    axis = int(axis) % operand.ndim
    sizes = [int(s) for s in sizes]
    if sum(sizes) != operand.shape[axis] or any(s < 0 for s in sizes):
        raise ValueError(f"lax.split: sizes {tuple(sizes)} must be non-negative and sum to the size "
                         f"{operand.shape[axis]} of axis {axis}")
    starts = np.cumsum([0] + sizes)
    return [_lax.slice_in_dim(operand, int(a), int(b), axis=axis) for a, b in zip(starts[:-1], starts[1:])]


def stack(operands: Sequence[ArrayLike], axis: int = 0) -> Array:
    """``operands`` (one shape) stacked along a new ``axis``.

    Example::

        >>> from fgrad import lax
        >>> lax.stack([fnp.zeros(2), fnp.ones(2)], axis=1).shape
        (2, 2)
    """
    return fnp.stack(list(operands), axis=axis)


def unstack(x: ArrayLike, axis: int = 0) -> tuple[Array, ...]:
    """The slices of ``x`` along ``axis``, that axis removed.

    Example::

        >>> from fgrad import lax
        >>> [a.shape for a in lax.unstack(fnp.zeros((2, 3)), axis=1)]
        [(2,), (2,), (2,)]
    """
    return fnp.unstack(x, axis=int(axis))  # JAX's unstack primitive


def tile(operand: ArrayLike, reps: Sequence[int]) -> Array:
    """``operand`` repeated ``reps[i]`` times along each axis (``jnp.tile``).

    Example::

        >>> from fgrad import lax
        >>> lax.tile(fnp.array([1, 2]), (2,))
        Array([1, 2, 1, 2], dtype=int64)
    """
    return fnp.tile(operand, tuple(int(r) for r in reps))


def batch_matmul(lhs: Shaped[ArrayLike, "*batch m k"], rhs: Shaped[ArrayLike, "*batch k n"],
                 precision: Any = None) -> Shaped[Array, "*batch m n"]:
    """Batched matrix product of two arrays of the same rank (>= 2) and batch shape.

    Example::

        >>> from fgrad import lax
        >>> lax.batch_matmul(fnp.ones((4, 2, 3)), fnp.ones((4, 3, 5))).shape
        (4, 2, 5)
    """
    lhs, rhs = fnp.asarray(lhs), fnp.asarray(rhs)
    if lhs.ndim != rhs.ndim or lhs.ndim < 2 or lhs.shape[:-2] != rhs.shape[:-2]:
        raise ValueError(f"batch_matmul: operands must have the same rank (>= 2) and batch dimensions, got "
                         f"shapes {lhs.shape} and {rhs.shape}")
    return fnp.matmul(lhs, rhs, precision=precision)


def with_sharding_constraint(x: Any, shardings: Any) -> Any:
    """``x``'s values unchanged: fgrad runs on one device per process (`fgrad.sharding`).
    Concrete arrays record ``shardings`` (one for every leaf, or a tuple/list/dict prefix of
    ``x``) as their ``.sharding``, as JAX's eager constraint places them; under ``jit`` the
    results follow `fgrad.core.sharding_flow`'s rules, as JAX's do on one device.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> from fgrad.sharding import NamedSharding, PartitionSpec as P
        >>> s = NamedSharding(fgrad.make_mesh((1,), ("x",)), P("x"))
        >>> lax.with_sharding_constraint(fnp.ones(2), s).sharding.spec
        P('x',)
    """
    from .transforms.jit import _record_shardings  # placing concrete arrays, as a jit's out_shardings
    return _record_shardings(x, shardings)


def platform_dependent(*args: Any, default: Callable | None = None, **per_platform: Callable) -> Any:
    """Call the branch for the platform fgrad computes on (``cpu``, or ``cuda`` on a GPU),
    else ``default``.

    Example::

        >>> from fgrad import lax
        >>> lax.platform_dependent(2.0, cpu=lambda x: x + 1, default=lambda x: x)
        3.0
    """
    platform = "cpu" if _default_backend() == "cpu" else "cuda"
    branch = per_platform.get(platform, default)
    if branch is None:
        raise NotImplementedError(f"platform_dependent: no branch for platform {platform!r} and no default")
    return branch(*args)


def empty(shape: Shape, dtype: DTypeLike) -> Array:
    """An array of ``shape`` and ``dtype`` whose values are unspecified (zeros here).

    Example::

        >>> from fgrad import lax
        >>> lax.empty((2,), "float32").shape
        (2,)
    """
    return fnp.zeros(shape, dtype)


def conv_shape_tuple(lhs_shape: Shape, rhs_shape: Shape, strides: Sequence[int],
                     pads: Sequence[tuple[int, int]] | str, batch_group_count: int = 1) -> tuple[int, ...]:
    """The output shape of a convolution in NC... / OI... layout with ``pads`` ``(low, high)``
    per spatial axis, or ``'SAME'``/``'SAME_LOWER'``/``'VALID'`` (by `padtype_to_pads`).

    Example::

        >>> from fgrad import lax
        >>> lax.conv_shape_tuple((8, 3, 32, 32), (16, 3, 5, 5), (1, 1), ((2, 2), (2, 2)))
        (8, 16, np.int64(32), np.int64(32))

    The spatial sizes are NumPy integers, as JAX's (it computes them with NumPy).
    """
    if isinstance(pads, str):
        pads = _padtype_to_pads(lhs_shape[2:], rhs_shape[2:], strides, pads)
    n = len(lhs_shape) - 2
    spatial = _out_spatial([int(s) for s in lhs_shape[2:]], [int(w) for w in rhs_shape[2:]],
                           [int(st) for st in strides], [(int(lo), int(hi)) for lo, hi in pads],
                           (1,) * n, (1,) * n)
    return (lhs_shape[0] // batch_group_count if batch_group_count > 1 else lhs_shape[0], rhs_shape[0],
            *(np.int64(d) for d in spatial))


def reduce_window_shape_tuple(operand_shape: Shape, window_dimensions: Sequence[int],
                              window_strides: Sequence[int], padding: Sequence[tuple[int, int]],
                              base_dilation: Sequence[int] | None = None,
                              window_dilation: Sequence[int] | None = None) -> tuple[int, ...]:
    """The output shape of `reduce_window` with explicit ``padding`` pairs.

    Example::

        >>> from fgrad import lax
        >>> lax.reduce_window_shape_tuple((4, 6), (2, 2), (2, 2), ((0, 0), (0, 0)))
        (2, 3)
    """
    n = len(operand_shape)
    return _out_spatial([int(s) for s in operand_shape], [int(w) for w in window_dimensions],
                        [int(st) for st in window_strides], [(int(lo), int(hi)) for lo, hi in padding],
                        tuple(int(d) for d in (base_dilation or (1,) * n)),
                        tuple(int(d) for d in (window_dilation or (1,) * n)))


def reduce_precision(operand: Shaped[ArrayLike, "*shape"], exponent_bits: int,
                     mantissa_bits: int) -> Shaped[Array, "*shape"]:
    """``operand`` rounded as if stored in a float with ``exponent_bits`` and
    ``mantissa_bits`` (kept in its own dtype): ``reduce_precision(x, 8, 7)`` emulates
    bfloat16.  Linear for derivatives (the tangent is rounded the same way), as in JAX.

    Example::

        >>> from fgrad import lax
        >>> float(lax.reduce_precision(fnp.float32(1.0 + 2 ** -10), 8, 7))
        1.0
    """
    operand = fnp.asarray(operand)
    if dtype_kind(operand.dtype) != "f":
        raise TypeError(f"reduce_precision: operand must be floating point, got {operand.dtype}")
    if int(exponent_bits) < 1 or int(mantissa_bits) < 0:
        raise ValueError(f"reduce_precision: exponent_bits must be >= 1 and mantissa_bits >= 0, got "
                         f"{exponent_bits} and {mantissa_bits}")
    return _bits.reduce_precision_p.bind(operand, exponent_bits=int(exponent_bits),
                                         mantissa_bits=int(mantissa_bits))


class GatherScatterMode(str, enum.Enum):
    """How indexing updates (`.at[]`) treat out-of-bounds indices; compares equal to the
    strings fgrad's ``mode=`` takes.

    Example::

        >>> from fgrad import lax
        >>> lax.GatherScatterMode.FILL_OR_DROP == "fill"
        True
    """

    CLIP = "clip"
    FILL_OR_DROP = "fill"
    PROMISE_IN_BOUNDS = "promise_in_bounds"
    ONE_HOT = "one_hot"

    @staticmethod
    def from_any(s: "str | GatherScatterMode | None") -> "GatherScatterMode":
        """The mode named by ``s`` (``None``: FILL_OR_DROP, JAX's default for updates)."""
        if isinstance(s, GatherScatterMode):
            return s
        if s is None:
            return GatherScatterMode.FILL_OR_DROP
        names = {"clip": "CLIP", "fill": "FILL_OR_DROP", "drop": "FILL_OR_DROP",
                 "promise_in_bounds": "PROMISE_IN_BOUNDS", "one_hot": "ONE_HOT"}
        if s not in names:
            raise ValueError(f"Unknown gather mode {s!r}")
        return GatherScatterMode[names[s]]


__all__ = [
    "complex", "reciprocal", "select_n", "reduce", "reduce_xor", "population_count", "clz",
    "dynamic_update_slice_in_dim", "dynamic_update_index_in_dim", "index_take", "broadcasted_iota",
    "broadcast_to_rank", "collapse", "split", "stack", "unstack", "tile", "batch_matmul",
    "with_sharding_constraint", "platform_dependent", "empty", "conv_shape_tuple",
    "reduce_window_shape_tuple", "reduce_precision", "GatherScatterMode", "lgamma", "digamma", "polygamma",
    "igamma", "igammac", "igamma_grad_a", "zeta", "bessel_i0e", "bessel_i1e", "betainc",
]
