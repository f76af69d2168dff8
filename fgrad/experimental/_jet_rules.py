"""Taylor arithmetic: how each primitive maps truncated Taylor series (the rules of
`fgrad.experimental.jet`'s interpreter).

A series here is a list ``[x0, x1, ..., xK]`` of *Taylor coefficients* (``x(t) = sum_k x_k
t^k``; ``x0`` the primal), every term an array of the primal's shape.  A rule takes the
primitive's operands as series (``None`` for an operand that is not part of the jet: an
integer index, a constant) and returns the output series -- one list, or one list per
result for primitives with several results.  The rules run on the trace below the jet's,
so they are themselves traced by ``jit``/``vmap``/``grad`` around `jet`.

* linear primitives (``p.linear``: add, reshape, reduce_sum, gather, ...) map each term;
* bilinear ones (mul, dot_general, conv) take the Cauchy product;
* exp, log, sin/cos, sinh/cosh, tanh, logistic, sqrt, div, pow and integer powers use the
  classical recurrences (each term from the earlier ones, O(K^2) work); max/min/abs follow
  the branch the primal takes; logaddexp (softplus) and erf compose the recurrences;
* every other primitive is expanded by nested forward mode (`by_nested_jvp`): the
  derivatives of ``p(x(t))`` in ``t`` -- exact for any differentiable primitive (control
  flow, special functions), at a cost doubling with the order.
"""

from __future__ import annotations

from math import factorial
from typing import Callable

import numpy as np

from ..core.narrow_floats import dtype_kind
from ..transforms.ad import jvp
import fgrad.numpy as fnp

__all__ = ["RULES", "apply", "by_nested_jvp", "derivatives_in_t", "is_inexact"]

Series = list


def is_inexact(x) -> bool:
    """Whether ``x`` has a floating or complex dtype (can carry a series)."""
    return dtype_kind(fnp.result_type(x)) in "fc"


def derivatives_in_t(g: Callable, n: int) -> Callable:
    """``t -> [g(t), g'(t), ..., g^(n)(t)]`` (``g`` returns a list of arrays) by nested JVPs
    in the scalar ``t``."""
    if n == 0:
        return lambda t: [g(t)]
    lower = derivatives_in_t(g, n - 1)

    def h(t):
        values, tangents = jvp(lower, (t,), (fnp.ones_like(t),))
        return list(values) + [tangents[-1]]
    return h


def by_nested_jvp(prim, primals: list, series: list, order: int, params: dict) -> list:
    """Any primitive: the Taylor coefficients of ``prim(x(t))`` from the derivatives in
    ``t`` of ``prim`` along the inputs' polynomials; one series per result."""
    def g(t):
        args = []
        for x, s in zip(primals, series):
            if s is None:
                args.append(x)
                continue
            tx = t.astype(fnp.result_type(x))
            moved, power = x, tx
            for term in s[1:]:
                moved = moved + term * power
                power = power * tx
            args.append(moved)
        out = prim.bind(*args, **params)
        return list(out) if prim.multiple_results else [out]

    levels = derivatives_in_t(g, order)(fnp.asarray(0.0, dtype=np.float64))
    outs = []
    for i, v in enumerate(levels[0]):
        if not is_inexact(v):
            outs.append([v] + [fnp.zeros_like(v) for _ in range(order)])
        else:
            outs.append([v] + [levels[k][i] / factorial(k) for k in range(1, order + 1)])
    return outs


def _zeros(x, order: int) -> Series:
    return [x] + [fnp.zeros_like(x) for _ in range(order)]


def _filled(x, s, order: int) -> Series:
    return s if s is not None else _zeros(x, order)


def _sum(terms):
    out = terms[0]
    for t in terms[1:]:
        out = out + t
    return out


def _is_index_operand(prim, position: int, x) -> bool:
    """Whether operand ``position`` of the linear ``prim`` is an index or a predicate (passed
    whole to every term) rather than a value the primitive is linear in: integer operands of
    the structural primitives (gather indices, slice starts) and ``select_n``'s predicate.
    An integer *value* -- ``a + 1``, ``where(c, a, 7)``, ``pad``'s padding value -- is a
    constant, whose higher terms are zero."""
    if is_inexact(x):
        return False
    if prim.name == "select_n":
        return position == 0
    return not prim.declared.get("broadcasting") and not (prim.name == "pad" and position == 1)


def _zero_like(x):
    return type(x)(0) if isinstance(x, (bool, int, float, complex)) else fnp.zeros_like(x)


def _linear(prim, primals, series, order, params):
    out0 = prim.bind(*primals, **params)
    results = [[o] for o in out0] if prim.multiple_results else [[out0]]
    for k in range(1, order + 1):
        args = []
        for i, (x, s) in enumerate(zip(primals, series)):
            if _is_index_operand(prim, i, x):
                args.append(x)
            else:
                args.append(s[k] if s is not None else _zero_like(x))
        out = prim.bind(*args, **params)
        for r, o in zip(results, out if prim.multiple_results else [out]):
            r.append(o)
    return results if prim.multiple_results else results[0]


def _bilinear(prim, primals, series, order, params):
    x, y = series
    if y is None:  # a constant factor: a linear map of the other
        return [prim.bind(t, primals[1], **params) for t in x]
    if x is None:
        return [prim.bind(primals[0], t, **params) for t in y]
    return [_sum([prim.bind(x[j], y[k - j], **params) for j in range(k + 1)]) for k in range(order + 1)]


def _cauchy(a: Series, b: Series, order: int) -> Series:
    return [_sum([a[j] * b[k - j] for j in range(k + 1)]) for k in range(order + 1)]


def _exp_series(z0, x, order):
    z = [z0]
    for k in range(1, order + 1):
        z.append(_sum([j * x[j] * z[k - j] for j in range(1, k + 1)]) / k)
    return z


def _log_series(z0, x, order, x0=None):
    x0 = x[0] if x0 is None else x0
    z = [z0]
    for k in range(1, order + 1):
        acc = x[k]
        if k > 1:
            acc = acc - _sum([j * z[j] * x[k - j] for j in range(1, k)]) / k
        z.append(acc / x0)
    return z


def _sin_cos_series(s0, c0, x, order, sign):
    """Series of (sin, cos) (``sign=-1``) or (sinh, cosh) (``sign=1``) together."""
    s, c = [s0], [c0]
    for k in range(1, order + 1):
        s.append(_sum([j * x[j] * c[k - j] for j in range(1, k + 1)]) / k)
        c.append(sign * _sum([j * x[j] * s[k - j] for j in range(1, k + 1)]) / k)
    return s, c


def _tanh_series(z0, x, order):
    z, w = [z0], [1 - z0 * z0]  # tanh' = 1 - tanh^2
    for k in range(1, order + 1):
        z.append(_sum([j * x[j] * w[k - j] for j in range(1, k + 1)]) / k)
        w.append(-_sum([z[i] * z[k - i] for i in range(k + 1)]))
    return z


def _logistic_series(z0, x, order):
    z, w = [z0], [z0 - z0 * z0]  # logistic' = z - z^2
    for k in range(1, order + 1):
        z.append(_sum([j * x[j] * w[k - j] for j in range(1, k + 1)]) / k)
        w.append(z[k] - _sum([z[i] * z[k - i] for i in range(k + 1)]))
    return z


def _sqrt_series(z0, x, order):
    z = [z0]
    for k in range(1, order + 1):
        acc = x[k]
        if k > 1:
            acc = acc - _sum([z[j] * z[k - j] for j in range(1, k)])
        z.append(acc / (2 * z0))
    return z


def _power_series(z0, x, order, a):
    """``x ** a`` for a constant real ``a``: ``k x0 z_k = sum_j ((a+1) j - k) x_j z_{k-j}``."""
    z = [z0]
    for k in range(1, order + 1):
        z.append(_sum([((a + 1) * j - k) * x[j] * z[k - j] for j in range(1, k + 1)]) / (k * x[0]))
    return z


def _int_power_series(x, n, order):
    """``x ** n`` for a Python integer ``n >= 0`` by repeated squaring (exact at ``x0 = 0``)."""
    result, base = None, x
    while n:
        if n & 1:
            result = base if result is None else _cauchy(result, base, order)
        n >>= 1
        if n:
            base = _cauchy(base, base, order)
    if result is None:
        return [fnp.ones_like(x[0])] + [fnp.zeros_like(x[0]) for _ in range(order)]
    return result


def _div_series(z0, x, y, order):
    z = [z0]
    for k in range(1, order + 1):
        z.append((x[k] - _sum([y[j] * z[k - j] for j in range(1, k + 1)])) / y[0])
    return z


def _unary(fn):
    """A rule for a one-operand primitive from ``fn(out, x_series, order) -> z_series``."""
    def rule(prim, primals, series, order, params):
        return fn(prim.bind(primals[0], **params), series[0], order)
    return rule


def _div(prim, primals, series, order, params):
    x, y = series
    z0 = prim.bind(*primals, **params)
    if y is None:  # a constant denominator: linear in x
        return [z0] + [prim.bind(t, primals[1], **params) for t in x[1:]]
    return _div_series(z0, _filled(primals[0], x, order), y, order)


def _pow(prim, primals, series, order, params):
    x, y = series
    xp, yp = primals
    z0 = prim.bind(xp, yp, **params)
    if y is None:
        if isinstance(yp, (int, np.integer)) and not isinstance(yp, (bool, np.bool_)):
            if yp >= 0:
                return _int_power_series(x, int(yp), order)
            one = _zeros(fnp.ones_like(xp), order)
            return _int_power_series(_div_series(1 / xp, one, x, order), -int(yp), order)
        if isinstance(yp, (float, np.floating)):
            return _power_series(z0, x, order, yp)
        y = _zeros(yp, order)
    xs = _filled(xp, x, order)  # x ** y = exp(y log x)
    u = _cauchy(y, _log_series(fnp.log(xp), xs, order), order)
    return _exp_series(z0, u, order)


def _sin_cos_rule(which: int, sign: int, fns):
    def rule(prim, primals, series, order, params):
        x0 = primals[0]
        pair = _sin_cos_series(fns[0](x0), fns[1](x0), series[0], order, sign)
        return pair[which]
    return rule


def _log1p_rule(prim, primals, series, order, params):
    x0 = primals[0]
    return _log_series(prim.bind(x0, **params), series[0], order, x0=1 + x0)


def _expm1_rule(prim, primals, series, order, params):
    z0 = prim.bind(primals[0], **params)
    return [z0] + _exp_series(z0 + 1, series[0], order)[1:]


def _abs_rule(prim, primals, series, order, params):
    sign = fnp.sign(primals[0])
    return [prim.bind(primals[0], **params)] + [sign * t for t in series[0][1:]]


def _choose(pick_x: bool):
    """max (``pick_x`` where ``x > y``) and min: each term follows the operand the primal
    chose; at a tie, the mean of both (the derivative fgrad's and JAX's ``jvp`` give)."""
    def rule(prim, primals, series, order, params):
        xp, yp = primals
        x, y = (_filled(p, s, order) for p, s in zip(primals, series))
        gt, lt = fnp.greater(xp, yp), fnp.less(xp, yp)
        first, second = (gt, lt) if pick_x else (lt, gt)
        out = [prim.bind(xp, yp, **params)]
        for k in range(1, order + 1):
            out.append(fnp.where(first, x[k], fnp.where(second, y[k], (x[k] + y[k]) / 2)))
        return out
    return rule


def _logaddexp(prim, primals, series, order, params):
    """``log(exp(x) + exp(y))`` as ``m + log(exp(x - m) + exp(y - m))`` (``m`` the larger
    primal): the exp and log recurrences on shifted series."""
    xp, yp = primals
    x, y = (_filled(p, s, order) for p, s in zip(primals, series))
    m = fnp.maximum(xp, yp)
    ex = _exp_series(fnp.exp(xp - m), x, order)
    ey = _exp_series(fnp.exp(yp - m), y, order)
    return _log_series(prim.bind(xp, yp, **params), [a + b for a, b in zip(ex, ey)], order)


def _erf_rule(prim, primals, series, order, params):
    """``erf' = 2/sqrt(pi) exp(-x^2)``: the exp recurrence on ``-x^2``, then the integral."""
    x = series[0]
    neg_sq = [-t for t in _cauchy(x, x, order)]
    w = _exp_series(fnp.exp(neg_sq[0]), neg_sq, order)
    scale = 2.0 / np.sqrt(np.pi)
    z = [prim.bind(primals[0], **params)]
    for k in range(1, order + 1):
        z.append(scale * _sum([j * x[j] * w[k - j] for j in range(1, k + 1)]) / k)
    return z


RULES: dict[str, Callable] = {
    "logaddexp": _logaddexp,
    "erf": _erf_rule,
    "max": _choose(True),
    "min": _choose(False),
    "exp": _unary(_exp_series),
    "expm1": _expm1_rule,
    "log": _unary(_log_series),
    "log1p": _log1p_rule,
    "sin": _sin_cos_rule(0, -1, (fnp.sin, fnp.cos)),
    "cos": _sin_cos_rule(1, -1, (fnp.sin, fnp.cos)),
    "sinh": _sin_cos_rule(0, 1, (fnp.sinh, fnp.cosh)),
    "cosh": _sin_cos_rule(1, 1, (fnp.sinh, fnp.cosh)),
    "tanh": _unary(_tanh_series),
    "logistic": _unary(_logistic_series),
    "sqrt": _unary(_sqrt_series),
    "div": _div,
    "pow": _pow,
    "abs": _abs_rule,
}

# linear primitives whose terms do not map one by one (a scatter's multiply/min/max modes)
_NOT_TERMWISE = ("custom_lin", "scatter", "scatter_add_along_axis")


def apply(prim, primals: list, series: list, order: int, params: dict):
    """The output series of ``prim`` (one list, or a list per result) for operands
    ``primals`` whose series are ``series`` (None: not part of the jet)."""
    if prim.name in RULES and all(is_inexact(x) or s is None for x, s in zip(primals, series)):
        return RULES[prim.name](prim, primals, series, order, params)
    if prim.linear and prim.name not in _NOT_TERMWISE:
        return _linear(prim, primals, series, order, params)
    if prim.declared.get("kind") == "bilinear":
        return _bilinear(prim, primals, series, order, params)
    outs = by_nested_jvp(prim, primals, series, order, params)
    return outs if prim.multiple_results else outs[0]
