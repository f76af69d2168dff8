"""Helpers shared by the distributions: float promotion and support masks."""

from __future__ import annotations

from ... import numpy as fnp
from .._dtypes import inexact_dtype


def promote(*xs):
    """The arguments as arrays of one floating dtype (integers become float64); Python
    scalars are weakly typed, as in JAX: ``loc=0`` keeps float32 inputs float32."""
    dt = inexact_dtype(*xs)
    return [fnp.asarray(x).astype(dt) for x in xs]


def safe(cond, x, fill=1.0):
    """``x`` where ``cond``, ``fill`` elsewhere (keeps unselected branches finite, so their
    zero cotangents stay zero)."""
    return fnp.where(cond, x, fnp.full_like(x, fill))


def masked(cond, value, other):
    """``value`` where ``cond``, the constant ``other`` elsewhere."""
    return fnp.where(cond, value, fnp.full_like(value, other))
