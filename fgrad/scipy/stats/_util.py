"""Helpers shared by the distributions: float promotion and support masks."""

from __future__ import annotations

from ... import lax
from ... import numpy as fnp
from ...core.array import get_aval
from ...ops.elementwise import convert_element_type, operands_join_is_weak
from .._dtypes import inexact_dtype


def promote(*xs):
    """The arguments as arrays of one floating dtype (integers become float64), weakly typed
    when their join is (JAX's ``promote_args_inexact``): Python scalars are weak, so
    ``loc=0`` keeps float32 inputs float32 and a function of Python numbers only is weak."""
    dt = inexact_dtype(*xs)
    xs = [fnp.asarray(x) for x in xs]
    weak = operands_join_is_weak(*xs)
    return [convert_element_type(x, dt, weak_type=weak) for x in xs]


def safe(cond, x, fill=1.0):
    """``x`` where ``cond``, ``fill`` elsewhere (keeps unselected branches finite, so their
    zero cotangents stay zero)."""
    return fnp.where(cond, x, fnp.full_like(x, fill))


def clamp(lo, x, hi):
    """``x`` clipped to ``[lo, hi]`` with `lax.clamp`'s derivative, as JAX's distributions: the
    gradient reaches ``x`` only strictly inside, and a clipped point keeps a zero gradient even
    where the function's partial there is infinite (``jnp.clip``'s ``0 * inf`` is NaN)."""
    weak = get_aval(x).weak_type  # JAX's bounds (``_lax_const(x, lo)``) keep x's weak type
    return lax.clamp(convert_element_type(lo, x.dtype, weak_type=weak), x,
                     convert_element_type(hi, x.dtype, weak_type=weak))


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
