"""The Threefry-2x32 block cipher (Salmon et al., "Parallel random numbers: as easy as 1, 2,
3", SC 2011) on uint32 arrays, as fgrad ops: the engine of `fgrad.random`'s keys and of
``lax.rng_bit_generator``."""

from __future__ import annotations

from ..typing import Array, ArrayLike
from . import bits as _bits
from . import elementwise as _ew

_ROTATIONS = ((13, 15, 26, 6), (17, 29, 16, 24))
_PARITY = 0x1BD11BDA


def threefry2x32(k1: ArrayLike, k2: ArrayLike, x0: ArrayLike, x1: ArrayLike) -> tuple[Array, Array]:
    """Threefry-2x32 with 20 rounds: encrypt the counter words ``(x0, x1)`` (uint32 arrays,
    broadcasting) under the key words ``(k1, k2)``.  Returns two uint32 arrays.

    Example::

        >>> import numpy as np, fgrad.numpy as fnp, fgrad.random as random
        >>> z = fnp.asarray(np.uint32(0))
        >>> [hex(int(w)) for w in random.threefry2x32(z, z, z, z)]  # Random123's known answer
        ['0x6b200159', '0x99ba4efe']
    """
    add, xor = _ew.add, _ew.xor_p.bind
    ks = (k1, k2, xor(xor(k1, k2), _PARITY))
    x0 = add(x0, ks[0])
    x1 = add(x1, ks[1])
    for i in range(5):
        for r in _ROTATIONS[i % 2]:
            x0 = add(x0, x1)
            x1 = xor(x0, _bits.rotate_left(x1, r))
        x0 = add(x0, ks[(i + 1) % 3])
        x1 = add(add(x1, ks[(i + 2) % 3]), i + 1)
    return x0, x1
