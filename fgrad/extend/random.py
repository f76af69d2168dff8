"""``jax.extend.random``: the Threefry PRNG's pieces for libraries that build on JAX's keys
(`threefry_2x32`, the `threefry2x32_p` primitive, the `threefry_prng_impl` implementation and
keys made with it).  fgrad has this one implementation: JAX's ``rbg`` implementations and
custom ones (``define_prng_impl``) are not provided.

Example::

    >>> import numpy as np, fgrad.numpy as fnp
    >>> from fgrad.extend import random as xr
    >>> xr.threefry_2x32(fnp.asarray([0, 42], np.uint32), fnp.arange(2, dtype=np.uint32))
    Array([  64467757, 2916123636], dtype=uint32)
    >>> str(xr.seed_with_impl(xr.threefry_prng_impl, 3).dtype)
    'key<fry>'
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .. import numpy as fnp
from ..ops.threefry import threefry2x32_p
from ..random._keys import IMPL_NAME, PRNGKeyArray, key, threefry_2x32
from ..typing import ArrayLike

__all__ = ["PRNGImpl", "random_seed", "seed_with_impl", "threefry2x32_p", "threefry_2x32",
           "threefry_prng_impl"]


@dataclasses.dataclass(frozen=True)
class PRNGImpl:
    """A PRNG implementation's description (JAX's ``PRNGImpl``): its name, the shape of a key's
    data and the tag typed keys print (``key<fry>``).

    Example::

        >>> threefry_prng_impl.name, threefry_prng_impl.key_shape, threefry_prng_impl.tag
        ('threefry2x32', (2,), 'fry')
    """

    name: str
    key_shape: tuple
    tag: str

    def __str__(self) -> str:
        return self.tag


threefry_prng_impl = PRNGImpl(IMPL_NAME, (2,), "fry")


def seed_with_impl(impl: PRNGImpl, seed: int | ArrayLike) -> PRNGKeyArray:
    """A typed key of implementation ``impl`` from an integer seed (``random.key(seed, impl=impl)``).

    Example::

        >>> import fgrad.random as random
        >>> random.key_data(seed_with_impl(threefry_prng_impl, 7))
        Array([0, 7], dtype=uint32)
    """
    return key(seed, impl=impl)


def random_seed(seeds: int | ArrayLike, impl: PRNGImpl) -> Any:
    """Typed keys of implementation ``impl``, one per integer in ``seeds`` (an array of any
    shape; the keys have its shape), as JAX's ``random_seed``.

    Example::

        >>> import fgrad.random as random
        >>> random.key_data(random_seed(fnp.asarray([1, 2]), threefry_prng_impl))
        Array([[0, 1],
               [0, 2]], dtype=uint32)
    """
    seeds = fnp.asarray(seeds)
    if seeds.ndim == 0:
        return key(seeds, impl=impl)
    from .. import vmap

    flat = vmap(lambda s: key(s, impl=impl))(seeds.ravel())
    return flat.reshape(seeds.shape)
