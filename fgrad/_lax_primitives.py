"""``lax.add_p``, ``lax.exp_p``, ...: JAX's primitive objects, for programs that import them.

Programs that walk a jaxpr (JAX's "Writing custom Jaxpr interpreters" tutorial) key rules on
primitive objects (``{lax.exp_p: jnp.log, lax.tanh_p: jnp.arctanh}``) and compare them with
``eqn.primitive``.  fgrad's jaxprs record fgrad's primitives, so ``fgrad.lax.exp_p`` *is* the
primitive ``fgrad.numpy.exp`` binds: the comparison holds and ``bind`` computes.

Only primitives whose ``bind`` takes JAX's operands and gives JAX's results for every dtype JAX
accepts are exported, under JAX's name.  Left out on purpose: ``div_p`` (fgrad's is true
division: JAX's truncates integers), ``rem_p`` (C's ``fmod`` as JAX's, but an integer
``x % 0`` is 0 where XLA gives ``x``; ``lax.rem`` fixes it up), ``select_n_p`` (fgrad's takes a
boolean predicate and two cases only),
``round_p`` and the structural primitives (reduce_*, gather, scatter, ...), whose parameters
differ from JAX's (``slice_p``, ``squeeze_p``, ``stack_p`` and ``unstack_p`` take JAX's);
``tests/test_jax_programs_round9.py``
compares every exported one with JAX.

>>> import fgrad
>>> import fgrad.numpy as fnp
>>> from fgrad import lax
>>> lax.exp_p.name, float(lax.add_p.bind(1.0, 2.0))
('exp', 3.0)
>>> [e.primitive is lax.exp_p for e in fgrad.make_jaxpr(fnp.exp)(1.0).eqns]
[True]
"""

from __future__ import annotations

from .ops.bits import shift_left_p, shift_right_arithmetic_p, shift_right_logical_p, stop_gradient_p
from .ops.elementwise import (
    abs_p, acos_p, acosh_p, add_p, and_p, asin_p, asinh_p, atan2_p, atan_p, atanh_p, cbrt_p, ceil_p,
    clamp_p, complex_p, cos_p, cosh_p, eq_p, exp2_p, exp_p, expm1_p, floor_p, ge_p, gt_p, imag_p,
    integer_pow_p,
    le_p, log1p_p, log_p, logistic_p, lt_p, max_p, min_p, mul_p, ne_p, neg_p, or_p, pow_p, real_p,
    rsqrt_p, sign_p, sin_p, sinh_p, sqrt_p, square_p, sub_p, tan_p, tanh_p, xor_p,
)
from .ops.shape import squeeze_p
from .ops.structural import slice_p, stack_p, unstack_p
from .ops.elementwise_more import nextafter_p
from .ops.special import erf_inv_p, erf_p, erfc_p
from .ops.special_functions import (
    bessel_i0e_p, bessel_i1e_p, digamma_p, igamma_grad_a_p, igamma_p, igammac_p, lgamma_p, polygamma_p,
    zeta_p,
)

__all__ = [
    "abs_p", "acos_p", "acosh_p", "add_p", "and_p", "asin_p", "asinh_p", "atan2_p", "atan_p", "atanh_p",
    "bessel_i0e_p", "bessel_i1e_p", "cbrt_p", "ceil_p", "clamp_p", "complex_p", "cos_p", "cosh_p",
    "digamma_p", "eq_p",
    "erf_inv_p", "erf_p", "erfc_p", "exp2_p", "exp_p", "expm1_p", "floor_p", "ge_p", "gt_p",
    "igamma_grad_a_p", "igamma_p", "igammac_p", "imag_p", "integer_pow_p", "le_p", "lgamma_p", "log1p_p",
    "log_p",
    "logistic_p", "lt_p", "max_p",
    "min_p", "mul_p", "ne_p", "neg_p", "nextafter_p", "or_p", "polygamma_p", "pow_p", "real_p", "rsqrt_p",
    "shift_left_p", "shift_right_arithmetic_p", "shift_right_logical_p", "sign_p", "sin_p", "sinh_p",
    "slice_p", "sqrt_p", "square_p", "squeeze_p", "stack_p", "stop_gradient_p", "sub_p", "tan_p", "tanh_p",
    "unstack_p", "xor_p",
    "zeta_p",
]
