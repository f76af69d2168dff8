"""The Threefry-2x32 block cipher (Salmon et al., "Parallel random numbers: as easy as 1, 2,
3", SC 2011) on uint32 arrays: the engine of `fgrad.random`'s keys and of
``lax.rng_bit_generator``.

One primitive, ``threefry2x32`` (JAX has one too): its implementation runs the 20 rounds in
place on two uint32 buffers (five array passes per round, no temporaries per step), far
cheaper than ~120 separately dispatched integer ops; it broadcasts its four operands like an
elementwise op (so ``vmap`` aligns batch axes as for one), and has no derivative (integers).
"""

from __future__ import annotations

import math

import numpy as np

from ..core import native_rng as _native_rng
from ..core.array import ShapedArray
from ..core.primitive import Primitive
from ..core.rules import align_batched, defbatch, defzero
from ..typing import Array, ArrayLike

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = np.uint32(0x1BD11BDA)
_U32 = np.dtype(np.uint32)


_BLOCK = 65536  # elements per block of `_impl_blocked` (its three uint32 blocks, 768 KiB, stay in L2)


def _impl(xp, k1, k2, x0, x1):
    k1, k2, x0, x1 = (xp.asarray(a) for a in (k1, k2, x0, x1))
    if xp is np:  # on the host: the compiled loop (`core.native_rng`) where there is one
        out = _native_rng.threefry2x32(k1, k2, x0, x1)
        if out is not None:
            return out
    shape = np.broadcast_shapes(k1.shape, k2.shape, x0.shape, x1.shape)
    ks = (k1, k2, xp.bitwise_xor(xp.bitwise_xor(k1, k2), _PARITY))
    if xp is np and math.prod(shape) > 2 * _BLOCK and k1.size == 1 and k2.size == 1:
        return _impl_blocked(shape, tuple(k.reshape(()) for k in ks), x0, x1)
    a = xp.empty(shape, _U32)
    b = xp.empty(shape, _U32)
    xp.add(x0, ks[0], out=a)  # uint32 arithmetic wraps
    xp.add(x1, ks[1], out=b)
    _rounds(xp, ks, a, b, xp.empty(shape, _U32))
    return [a, b]


def _rounds(xp, ks, a, b, tmp):
    """The 20 rounds, in place on ``a`` and ``b`` (already keyed), ``tmp`` a scratch buffer."""
    # the key injections into ``b`` with their round number folded in (uint32 addition wraps,
    # so adding ``k + (i + 1)`` once is adding ``k`` then ``i + 1``: one pass fewer per injection)
    inj_b = [xp.add(ks[(i + 2) % 3], np.uint32(i + 1)) for i in range(5)]
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            xp.add(a, b, out=a)
            xp.left_shift(b, np.uint32(r), out=tmp)  # b = rotate_left(b, r) ^ a
            xp.right_shift(b, np.uint32(32 - r), out=b)
            xp.bitwise_or(b, tmp, out=b)
            xp.bitwise_xor(b, a, out=b)
        xp.add(a, ks[(i + 1) % 3], out=a)
        xp.add(b, inj_b[i], out=b)


def _impl_blocked(shape, ks, x0, x1):
    """`_impl` on the host for one key and many counters, block by block: the same passes on
    cache-sized slices of the outputs (one scratch block), so each of the ~115 passes reads
    and writes the cache instead of main memory."""
    a = np.empty(shape, _U32)
    b = np.empty(shape, _U32)
    fa, fb = a.reshape(-1), b.reshape(-1)
    n = fa.size
    # counters of a smaller shape (a scalar high word) are broadcast in full once
    x0, x1 = (np.ascontiguousarray(np.broadcast_to(x, shape)).reshape(-1) if x.size > 1 else x.reshape(())
              for x in (x0, x1))
    tmp = np.empty(_BLOCK, _U32)
    for start in range(0, n, _BLOCK):
        stop = min(start + _BLOCK, n)
        sa, sb = fa[start:stop], fb[start:stop]
        np.add(x0[start:stop] if x0.size > 1 else x0, ks[0], out=sa)
        np.add(x1[start:stop] if x1.size > 1 else x1, ks[1], out=sb)
        _rounds(np, ks, sa, sb, tmp[:stop - start])
    return [a, b]


def _abstract(k1, k2, x0, x1):
    for name, v in zip(("k1", "k2", "x0", "x1"), (k1, k2, x0, x1)):
        if v.dtype != _U32:
            raise TypeError(f"threefry2x32: every operand must be uint32, got {name} of dtype {v.dtype}")
    try:
        shape = np.broadcast_shapes(k1.shape, k2.shape, x0.shape, x1.shape)
    except ValueError:
        raise ValueError(
            f"threefry2x32: operand shapes {k1.shape}, {k2.shape}, {x0.shape}, {x1.shape} do not "
            "broadcast together") from None
    return [ShapedArray(shape, _U32), ShapedArray(shape, _U32)]


threefry2x32_p = Primitive("threefry2x32", _impl, _abstract, multiple_results=True, family="other")
defzero(threefry2x32_p)


def _batch(axis_size, vals, dims):
    new, d = align_batched(vals, dims)
    return threefry2x32_p.bind(*new), [d, d]


defbatch(threefry2x32_p, _batch)


def threefry2x32(k1: ArrayLike, k2: ArrayLike, x0: ArrayLike, x1: ArrayLike) -> tuple[Array, Array]:
    """Threefry-2x32 with 20 rounds: encrypt the counter words ``(x0, x1)`` (uint32 arrays,
    broadcasting) under the key words ``(k1, k2)``.  Returns two uint32 arrays.

    Example::

        >>> import numpy as np, fgrad.numpy as fnp, fgrad.random as random
        >>> z = fnp.asarray(np.uint32(0))
        >>> [hex(int(w)) for w in random.threefry2x32(z, z, z, z)]  # Random123's known answer
        ['0x6b200159', '0x99ba4efe']
    """
    b1, b2 = threefry2x32_p.bind(k1, k2, x0, x1)
    return b1, b2
