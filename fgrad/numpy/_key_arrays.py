"""Typed PRNG key arrays (`fgrad.random.key`) in the `fgrad.numpy` functions JAX allows on
them (``stack``, ``concatenate``, ``where``): the op runs on the keys' ``uint32[..., 2]``
data, whose last axis is the key's own, and the result is a key array again.  A key array
marks itself with the class attribute ``_fgrad_key_array`` (fgrad.numpy stays below
fgrad.random).

Example::

    >>> import fgrad.numpy as fnp, fgrad.random as random
    >>> fnp.stack([random.key(0), random.key(1)]).shape
    (2,)
"""

from __future__ import annotations

from typing import Any, Sequence


def is_key_array(x: Any) -> bool:
    """Whether ``x`` is a typed key array."""
    return getattr(type(x), "_fgrad_key_array", False)


def key_operands(xs: Sequence, op: str) -> Any:
    """The first key array among ``xs`` if any is one (then all must be), else None."""
    first = next((x for x in xs if is_key_array(x)), None)
    if first is not None and not all(is_key_array(x) for x in xs):
        kinds = ", ".join(str(getattr(x, "dtype", type(x).__name__)) for x in xs)
        raise TypeError(f"fgrad.numpy.{op}: cannot combine typed key arrays with other arrays (got {kinds}); "
                        "wrap raw uint32 key data with fgrad.random.wrap_key_data first")
    return first


def data(x: Any) -> Any:
    """The ``uint32[..., 2]`` data of a key array."""
    return x._base


def rewrap(like: Any, raw: Any) -> Any:
    """``raw`` key data as a key array of ``like``'s kind."""
    return type(like)(raw)
