"""Helpers shared by the distributions: float promotion and support masks."""

from __future__ import annotations

from ... import lax
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


def clamp(lo, x, hi):
    """``x`` clipped to ``[lo, hi]`` with `lax.clamp`'s derivative, as JAX's distributions: the
    gradient reaches ``x`` only strictly inside, and a clipped point keeps a zero gradient even
    where the function's partial there is infinite (``jnp.clip``'s ``0 * inf`` is NaN)."""
    return lax.clamp(fnp.asarray(lo, x.dtype), x, fnp.asarray(hi, x.dtype))


def masked(cond, value, other):
    """``value`` where ``cond``, the constant ``other`` elsewhere."""
    return fnp.where(cond, value, fnp.full_like(value, other))


def standardized(x, loc, scale):
    """``(z, scale)`` with ``z = (x - loc) / scale``, all promoted to one floating dtype: the
    location-scale scaffolding every such distribution starts from."""
    x, loc, scale = promote(x, loc, scale)
    return (x - loc) / scale, scale


def quantile(q, loc, scale, standard_quantile):
    """``loc + scale * standard_quantile(q)``, all promoted to one floating dtype: the
    location-scale form of a ppf/isf."""
    q, loc, scale = promote(q, loc, scale)
    return loc + scale * standard_quantile(q)


def log1mexp(u):
    """``log(1 - exp(-u))`` for ``u >= 0``, accurate for small and large ``u`` (``-expm1``
    below ``log 2``, ``log1p`` above)."""
    small = u < 0.6931471805599453
    near = fnp.log(-fnp.expm1(-safe(small, u, 1.0)))
    far = fnp.log1p(-fnp.exp(-safe(~small, u, 1.0)))
    return fnp.where(small, near, far)
