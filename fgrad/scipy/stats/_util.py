"""Helpers shared by the distributions: float promotion and support masks."""

from __future__ import annotations

import numpy as np

from ... import numpy as fnp


def promote(*xs):
    """The arguments as arrays of one inexact dtype (integers become float64)."""
    xs = [fnp.asarray(x) for x in xs]
    dt = np.result_type(*[x.dtype for x in xs])
    if dt.kind not in "f":
        dt = np.dtype(np.float64)
    return [x.astype(dt) for x in xs]


def safe(cond, x, fill=1.0):
    """``x`` where ``cond``, ``fill`` elsewhere (keeps unselected branches finite, so their
    zero cotangents stay zero)."""
    return fnp.where(cond, x, fnp.full_like(x, fill))


def masked(cond, value, other):
    """``value`` where ``cond``, the constant ``other`` elsewhere."""
    return fnp.where(cond, value, fnp.full_like(value, other))
