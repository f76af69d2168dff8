"""More of `fgrad.lax` (JAX's ``jax.lax``): ``rng_bit_generator``, ``ragged_dot``,
``composite``, ``random_gamma_grad`` and the named-axis collective ``all_to_all``, each a
composition of fgrad ops (so `jit`, `vmap` and `grad` apply).

>>> import fgrad, fgrad.numpy as fnp
>>> from fgrad import lax
>>> lax.ragged_dot(fnp.ones((3, 2)), fnp.ones((2, 2, 1)), fnp.asarray([1, 2]))
Array([[2.],
       [2.],
       [2.]], dtype=float64)
"""

from __future__ import annotations

import enum
import functools
import math
from typing import Any, Callable, Hashable

import numpy as np

from . import numpy as fnp
from ._gamma_series import dlogx_da
from ._lax_collectives import all_gather, axis_index, axis_size
from ._naming import named_call
from .core.array import get_aval
from .core.narrow_floats import dtype_kind as _dtype_kind
from .ops.special_functions import igamma_grad_a, lgamma
from .ops.threefry import threefry2x32
from .typing import Array, ArrayLike, DTypeLike
from .transforms.ad import jvp
from .transforms.custom import custom_jvp
from .tree_util import map_arrays as tree_map

__all__ = ["RandomAlgorithm", "rng_bit_generator", "ragged_dot", "composite", "random_gamma_grad",
           "all_to_all", "pswapaxes"]


class RandomAlgorithm(enum.IntEnum):
    """The bit-generator algorithm of `rng_bit_generator` (JAX's ``lax.RandomAlgorithm``).

    Example::

        >>> import fgrad.numpy as jnp
        >>> from fgrad import lax
        >>> key = jnp.zeros(4, dtype=jnp.uint32)
        >>> _, bits = lax.rng_bit_generator(key, (2,), algorithm=lax.RandomAlgorithm.RNG_DEFAULT)
        >>> bits.shape, bits.dtype
        ((2,), dtype('uint32'))
    """

    RNG_DEFAULT = 0
    RNG_THREE_FRY = 1
    RNG_PHILOX = 2


_UNSIGNED = {np.dtype(np.uint8): 8, np.dtype(np.uint16): 16, np.dtype(np.uint32): 32,
             np.dtype(np.uint64): 64}


def rng_bit_generator(key: ArrayLike, shape: tuple[int, ...], dtype: DTypeLike = np.uint32,
                      algorithm: RandomAlgorithm = RandomAlgorithm.RNG_DEFAULT, *,
                      out_sharding: Any = None) -> tuple[Array, Array]:
    """``(new_key, bits)``: uniformly random unsigned integers of ``shape``/``dtype`` (uint8,
    16, 32 or 64) from a uint32 ``key`` of shape ``(4,)``, and the key to use next (JAX's
    ``lax.rng_bit_generator``: a stateless generator threaded by hand).

    fgrad generates with Threefry-2x32 for every ``algorithm``: the key's first two words are
    the cipher key, the last two a counter (``new_key`` increments it).  The bits are therefore
    **not** JAX's (XLA's Philox/ThreeFry stream layouts, which JAX documents as
    backend-dependent); their statistics are the same.

    >>> import fgrad.numpy as fnp
    >>> key = fnp.asarray([1, 2, 3, 4], dtype="uint32")
    >>> new_key, bits = rng_bit_generator(key, (2, 3))
    >>> new_key, bits.shape, bits.dtype
    (Array([1, 2, 3, 5], dtype=uint32), (2, 3), dtype('uint32'))
    """
    dt = np.dtype(dtype)
    if dt not in _UNSIGNED:
        raise TypeError(f"rng_bit_generator: unsupported dtype {dt}")
    RandomAlgorithm(algorithm)  # ValueError for an unknown algorithm
    key = fnp.asarray(key)
    if key.shape != (4,) or key.dtype != np.uint32:
        raise TypeError(f"rng_bit_generator: key must be a uint32 array of shape (4,), got "
                        f"{key.dtype}{list(key.shape)}")
    shape = tuple(int(s) for s in shape)
    words = [key[i] for i in range(4)]
    # mix the counter words into the cipher key, then encrypt the element counters under it
    k1, k2 = threefry2x32(*words)
    count = math.prod(shape)
    if count >= 2 ** 32:
        raise ValueError(f"rng_bit_generator: at most 2**32 values per call, got shape {shape}")
    b1, b2 = threefry2x32(k1, k2, fnp.zeros(count, np.uint32), fnp.arange(count, dtype=np.uint32))
    width = _UNSIGNED[dt]
    if width == 64:
        flat = (b1.astype(np.uint64) << np.uint64(32)) | b2.astype(np.uint64)
    else:
        flat = (b1 ^ b2).astype(dt)
    bits = fnp.reshape(flat, shape)
    low = words[3] + np.uint32(1)
    high = words[2] + (low == 0).astype(np.uint32)
    return fnp.stack([words[0], words[1], high, low]), bits


def ragged_dot(lhs: ArrayLike, rhs: ArrayLike, group_sizes: ArrayLike, precision: Any = None,
               preferred_element_type: DTypeLike | None = None, group_offset: ArrayLike | None = None,
               out_sharding: Any = None) -> Array:
    """Grouped matrix product (JAX's ``lax.ragged_dot``, as in mixture-of-experts layers):
    ``lhs`` ``(m, k)``'s rows fall into consecutive groups of ``group_sizes`` ``(g,)`` rows;
    a row of group ``i`` is multiplied by ``rhs[i]`` (``rhs``: ``(g, k, n)``).  Rows past
    ``sum(group_sizes)`` give zeros.  Differentiable in ``lhs`` and ``rhs`` (the backward pass is
    two einsums, no scatter).

    >>> import fgrad.numpy as fnp
    >>> ragged_dot(fnp.arange(4.0).reshape(4, 1), fnp.asarray([[[1.0]], [[10.0]]]), fnp.asarray([1, 2]))
    Array([[ 0.],
           [10.],
           [20.],
           [ 0.]], dtype=float64)
    """
    if group_offset is not None:
        raise NotImplementedError("ragged_dot: group_offset is not supported by fgrad")
    lhs, rhs, group_sizes = fnp.asarray(lhs), fnp.asarray(rhs), fnp.asarray(group_sizes)
    if lhs.ndim != 2 or rhs.ndim != 3 or group_sizes.ndim != 1:
        raise TypeError(f"ragged_dot: expected lhs (m, k), rhs (g, k, n) and group_sizes (g,), got "
                        f"shapes {lhs.shape}, {rhs.shape}, {group_sizes.shape}")
    if lhs.shape[1] != rhs.shape[1] or rhs.shape[0] != group_sizes.shape[0]:
        raise TypeError(f"ragged_dot: contracting dimensions or group counts differ: lhs {lhs.shape}, "
                        f"rhs {rhs.shape}, group_sizes {group_sizes.shape}")
    if _dtype_kind(group_sizes.dtype) not in "iu":
        raise TypeError(f"ragged_dot: group_sizes must be integers, got {group_sizes.dtype}")
    m = lhs.shape[0]
    ends = fnp.cumsum(group_sizes)
    starts = ends - group_sizes
    rows = fnp.arange(m)[:, None]
    member = ((rows >= starts[None, :]) & (rows < ends[None, :]))  # (m, g) one-hot (or none)
    dt = fnp.result_type(lhs.dtype, rhs.dtype)
    out = fnp.einsum("mg,mk,gkn->mn", member.astype(dt), lhs.astype(dt), rhs.astype(dt),
                     optimize=[(0, 1), (0, 1)])
    return out if preferred_element_type is None else out.astype(preferred_element_type)


def composite(decomposition: Callable[..., Any], name: str, version: int = 0) -> Callable[..., Any]:
    """Mark ``decomposition`` as a named composite op (JAX's ``lax.composite``, a hint for
    compilers that lower it specially).  fgrad runs the decomposition, under a `named_call`
    scope ``name`` (so it shows in ``make_jaxpr``); keyword arguments are its attributes.
    Unlike JAX (which has no JVP rule for composites) it is differentiable.

    >>> import fgrad.numpy as fnp
    >>> scale = composite(lambda x, *, alpha: x * alpha, name="my.scale")
    >>> scale(fnp.ones(2), alpha=3.0)
    Array([3., 3.], dtype=float64)
    """
    if not isinstance(name, str):
        raise TypeError(f"composite: name must be a string, got {name!r}")
    scoped = named_call(decomposition, name=name)

    @functools.wraps(decomposition)
    def wrapped(*args: Any, **attributes: Any) -> Any:
        return scoped(*args, **attributes)

    wrapped.composite_name, wrapped.composite_version = name, int(version)
    return wrapped


def _gamma_sample_slope_by_series(a, x):
    """``d x / d a`` by the implicit derivative's series (a ``while_loop``, as JAX's)."""
    return x * dlogx_da(a, fnp.log(x))


@custom_jvp
def _gamma_sample_slope(a, x):
    log_density = (a - 1) * fnp.log(x) - x - lgamma(a)
    return -igamma_grad_a(a, x) / fnp.exp(log_density)


@_gamma_sample_slope.defjvp
def _gamma_sample_slope_jvp(primals, tangents):
    # JAX's derivative is the series' (a while_loop): forward mode works, reverse mode raises
    # its ValueError, in ``a`` and in ``x``
    _, slope_dot = jvp(_gamma_sample_slope_by_series, primals, tangents)
    return _gamma_sample_slope(*primals), slope_dot


def random_gamma_grad(a: ArrayLike, x: ArrayLike) -> Array:
    """``d x / d a`` of a Gamma(``a``, 1) sample ``x`` by implicit reparameterization
    (JAX's ``lax.random_gamma_grad``): ``-(d igamma(a, x) / d a) / (d igamma(a, x) / d x)``.
    Its derivatives are those of the series ``x d log x / d a`` summed by a ``while_loop``, as
    JAX's: ``jacfwd``/``jvp`` work, ``grad``/``jacrev`` raise JAX's ``ValueError``.

    >>> import fgrad.numpy as fnp
    >>> random_gamma_grad(fnp.asarray(2.0), fnp.asarray(1.5))
    Array(0.93663907, dtype=float64)
    """
    a, x = fnp.asarray(a), fnp.asarray(x)
    dt = fnp.result_type(a.dtype, x.dtype)
    if not fnp.issubdtype(dt, fnp.floating):  # JAX raises TypeError; fgrad computes in floats
        dt = fnp.result_type(dt, fnp.float_)
    return _gamma_sample_slope(a.astype(dt), x.astype(dt))


def all_to_all(x: Any, axis_name: Hashable, split_axis: int, concat_axis: int, *,
               axis_index_groups: Any = None, tiled: bool = False) -> Any:
    """Each example along the named axis splits ``x`` along ``split_axis`` into one block per
    example and sends block ``j`` to example ``j``, which joins what it receives (in source
    order) along ``concat_axis`` (JAX's ``lax.all_to_all``).  Without ``tiled`` the split axis
    must have the axis size and is removed, a new axis of that size appears at
    ``concat_axis``; with ``tiled`` the blocks are concatenated.  Differentiable (its
    transpose is an all_to_all back).

    >>> import fgrad, fgrad.numpy as fnp
    >>> x = fnp.arange(4.0).reshape(2, 2)
    >>> fgrad.vmap(lambda v: all_to_all(v, "i", 0, 0), axis_name="i")(x)
    Array([[0., 2.],
           [1., 3.]], dtype=float64)
    """
    if axis_index_groups is not None:
        raise NotImplementedError("all_to_all: axis_index_groups is not supported by fgrad")
    n = axis_size(axis_name)
    me = axis_index(axis_name)

    def one(leaf: Array) -> Array:
        nd = get_aval(leaf).ndim
        if not -nd <= split_axis < nd:
            raise ValueError(f"all_to_all: split_axis {split_axis} is out of range for rank {nd}")
        s = split_axis % nd
        size = get_aval(leaf).shape[s]
        if not tiled and size != n:
            raise ValueError(f"all_to_all requires the size of the mapped axis axis_name to equal "
                             f"x.shape[split_axis], but they are {n} and {size} respectively.")
        if tiled and size % n:
            raise ValueError(f"all_to_all: x.shape[split_axis] = {size} is not a multiple of the "
                             f"axis size {n}")
        if not -nd <= concat_axis < nd:
            raise ValueError(f"all_to_all: concat_axis {concat_axis} is out of range for rank {nd}")
        c = concat_axis % nd
        blocks = fnp.reshape(leaf, leaf.shape[:s] + (n, size // n) + leaf.shape[s + 1:])
        gathered = all_gather(blocks, axis_name)             # (source, ..., n, block, ...)
        mine = fnp.take(gathered, me, axis=s + 1)             # my block from every source
        if not tiled:
            mine = fnp.squeeze(mine, axis=s + 1)              # (source, ... without split ...)
            return fnp.moveaxis(mine, 0, c)
        mine = fnp.moveaxis(mine, 0, c)                       # (..., source, c-size, ...)
        shape = mine.shape
        return fnp.reshape(mine, shape[:c] + (shape[c] * shape[c + 1],) + shape[c + 2:])

    return tree_map(one, x)


def pswapaxes(x: Any, axis_name: Hashable, axis: int, *, axis_index_groups: Any = None) -> Any:
    """Swap the named axis ``axis_name`` with the array axis ``axis`` (whose size must be the
    axis size): `all_to_all` with ``split_axis = concat_axis = axis``, as JAX's
    ``lax.pswapaxes``.

    >>> import fgrad, fgrad.numpy as fnp
    >>> fgrad.vmap(lambda v: pswapaxes(v, "i", 0), axis_name="i")(fnp.arange(4.0).reshape(2, 2))
    Array([[0., 2.],
           [1., 3.]], dtype=float64)
    """
    return all_to_all(x, axis_name, axis, axis, axis_index_groups=axis_index_groups)
