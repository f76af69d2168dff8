"""`fgrad.experimental.jet`: Taylor-mode higher-order derivatives (JAX's
``jax.experimental.jet``).

``jet(fun, primals, series)`` pushes a truncated Taylor series through ``fun``: the inputs
move along the curve ``x(t) = x + sum_k series[k] t^(k+1) / (k+1)!`` (``series[k]`` is the
``(k+1)``-th derivative of the curve at ``t = 0``, JAX's ``factorial_scaled`` convention),
and the result is ``fun(x)`` with the derivatives ``d^(k+1)/dt^(k+1) fun(x(t))`` at 0.

The derivatives are computed by nested forward mode along the curve (the ``k``-th
derivative is the JVP of the ``(k-1)``-th in ``t``): exact, for any function fgrad can
differentiate forward (control flow, custom rules, ``jit`` inside), at a cost that
doubles with each order (an order-5 series costs about 32 evaluations).

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.experimental.jet import jet
    >>> y, (d1, d2, d3) = jet(fnp.sin, (0.5,), ((1.0, 0.0, 0.0),))
    >>> [round(float(v), 6) for v in (y, d1, d2, d3)]  # sin, cos, -sin, -cos at 0.5
    [0.479426, 0.877583, -0.479426, -0.877583]
"""

from __future__ import annotations

from math import factorial
from typing import Any, Callable, Sequence

import numpy as np

from ..core.array import ArrayImpl, Tracer
from ..core.narrow_floats import dtype_kind
from ..transforms.ad import jvp
from ..tree_util import flatten_arrays, tree_structure, tree_unflatten, treedef_is_leaf
import fgrad.numpy as fnp

__all__ = ["jet"]


def _check_inputs(primals: Sequence, series: Sequence) -> int:
    """The series' order, after JAX's checks of the arguments' structure."""
    if not isinstance(primals, (tuple, list)) or not isinstance(series, (tuple, list)):
        raise TypeError(f"jet: primals and series must be tuples or lists, got "
                        f"{type(primals).__name__} and {type(series).__name__}")
    lengths = {len(terms) for terms in series}
    if len(lengths) != 1:
        raise ValueError("jet terms have inconsistent lengths for different arguments")
    if len(primals) != len(series):
        raise ValueError(f"jet: {len(primals)} primal values but {len(series)} series (one series "
                         "of terms per argument)")
    for i, (x, terms) in enumerate(zip(primals, series)):
        if not treedef_is_leaf(tree_structure(x)):
            raise ValueError(f"primal value at position {i} is not an array")
        for j, t in enumerate(terms):
            if not treedef_is_leaf(tree_structure(t)):
                raise ValueError(f"term {j} for argument {i} is not an array")
            if fnp.shape(t) != fnp.shape(x):
                raise ValueError(f"jet: term {j} for argument {i} has shape {fnp.shape(t)}, but the "
                                 f"primal value has shape {fnp.shape(x)}; each term must have the "
                                 "primal's shape")
    return lengths.pop()


def _is_inexact(x) -> bool:
    return dtype_kind(fnp.result_type(x)) in "fc"


def _curve(primals: list, series: list, order: int) -> Callable:
    """``t -> x(t)``: the inputs along the polynomial their series describe (derivative
    terms); integer inputs stay where they are."""
    def at(t):
        out = []
        for x, terms in zip(primals, series):
            if not _is_inexact(x) or order == 0:
                out.append(x)
                continue
            tx = t.astype(fnp.result_type(x))
            moved, power = x, tx
            for k, term in enumerate(terms):
                moved = moved + term * (power / factorial(k + 1))
                power = power * tx
            out.append(moved)
        return out
    return at


def _derivatives(g: Callable, n: int) -> Callable:
    """``t -> [g(t), g'(t), ..., g^(n)(t)]`` by nested JVPs in the scalar ``t``."""
    if n == 0:
        return lambda t: [g(t)]
    lower = _derivatives(g, n - 1)

    def h(t):
        values, tangents = jvp(lower, (t,), (fnp.ones_like(t),))
        return list(values) + [tangents[-1]]
    return h


def _as_input(x):
    if isinstance(x, (ArrayImpl, Tracer)):
        return x
    return fnp.asarray(x)


def jet(fun: Callable, primals: Sequence, series: Sequence, factorial_scaled: bool = True,
        **_: Any) -> tuple[Any, Any]:
    """Taylor-mode derivatives: ``(fun(*primals), series_out)`` where the inputs follow the
    truncated Taylor series ``series`` (one list of terms per argument, term ``k`` the
    ``(k+1)``-th derivative along the curve) and ``series_out`` holds the output's
    derivatives along it, a list of terms per output leaf in ``fun``'s output structure.
    ``factorial_scaled=False`` takes and returns Taylor coefficients (derivatives divided
    by ``k!``) instead.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.experimental.jet import jet
        >>> y, terms = jet(fnp.exp, (0.0,), ((1.0, 0.0, 0.0),))
        >>> float(y), [float(t) for t in terms]
        (1.0, [1.0, 1.0, 1.0])
        >>> _, terms = jet(lambda x: x ** 3, (2.0,), ((1.0, 0.0, 0.0),))  # 3x^2, 6x, 6
        >>> [float(t) for t in terms]
        [12.0, 12.0, 6.0]
    """
    order = _check_inputs(primals, series)
    xs = [_as_input(x) for x in primals]
    terms = []
    for x, ts in zip(xs, series):
        row = [fnp.asarray(t, dtype=fnp.result_type(x)) if _is_inexact(x) else fnp.asarray(t)
               for t in ts]
        if not factorial_scaled:
            row = [t * factorial(k + 1) for k, t in enumerate(row)]
        terms.append(row)
    out_tree: list = []

    def g(t):
        leaves, tree = flatten_arrays(fun(*_curve(xs, terms, order)(t)))
        out_tree.append(tree)
        return [fnp.asarray(v) for v in leaves]

    levels = _derivatives(g, order)(fnp.asarray(0.0, dtype=np.float64))
    values = levels[0]
    tree = out_tree[-1]
    out_terms = []
    for i, v in enumerate(values):
        if not _is_inexact(v):
            out_terms.append([fnp.zeros_like(v) for _ in range(order)])
            continue
        ts = [levels[k + 1][i] for k in range(order)]
        if not factorial_scaled:
            ts = [t / factorial(k + 1) for k, t in enumerate(ts)]
        out_terms.append(ts)
    primal_out = tree_unflatten(tree, values)
    return primal_out, tree_unflatten(tree, out_terms)
