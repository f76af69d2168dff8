"""`fgrad.experimental.jet`: Taylor-mode higher-order derivatives (JAX's
``jax.experimental.jet``).

``jet(fun, primals, series)`` pushes a truncated Taylor series through ``fun``: the inputs
move along the curve ``x(t) = x + sum_k series[k] t^(k+1) / (k+1)!`` (``series[k]`` is the
``(k+1)``-th derivative of the curve at ``t = 0``, JAX's ``factorial_scaled`` convention),
and the result is ``fun(x)`` with the derivatives ``d^(k+1)/dt^(k+1) fun(x(t))`` at 0.

A `JetTrace` propagates the series through the primitives, each with its rule of Taylor
arithmetic (`fgrad.experimental._jet_rules`): linear and bilinear primitives term by term
or by Cauchy products, exp/log/sin/cos/tanh/logistic/sqrt/div/pow by their recurrences
(O(K^2) work for K terms); any other primitive (control flow, special functions) by
nested forward mode along its inputs' polynomials, exact at a cost doubling with the
order.

Example::

    >>> import fgrad.numpy as fnp
    >>> from fgrad.experimental.jet import jet
    >>> y, (d1, d2, d3) = jet(fnp.sin, (0.5,), ((1.0, 0.0, 0.0),))
    >>> [round(float(v), 6) for v in (y, d1, d2, d3)]  # sin, cos, -sin, -cos at 0.5
    [0.479426, 0.877583, -0.479426, -0.877583]
"""

from __future__ import annotations

from math import factorial as _factorial
from typing import Any as _Any, Callable as _Callable, Sequence as _Sequence

from ..core.array import ArrayImpl as _ArrayImpl, Tracer as _Tracer, get_aval as _get_aval, wrap as _wrap
from ..core.ir import eval_jaxpr as _eval_jaxpr
from ..core.trace import Trace as _Trace, current as _current, new_trace as _new_trace
from ..transforms.jvp_trace import to_concrete as _to_concrete
from ..ops.elementwise import convert_element_type as _convert_element_type
from ..tree_util import flatten_arrays as _flatten_arrays, tree_structure as _tree_structure
from ..tree_util import tree_unflatten as _tree_unflatten, treedef_is_leaf as _treedef_is_leaf
from ._jet_rules import apply as _apply, is_inexact as _is_inexact
import fgrad.numpy as fnp

__all__ = ["JetTrace", "JetTracer", "jet"]


def _check_inputs(primals: _Sequence, series: _Sequence) -> int:
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
        if not _treedef_is_leaf(_tree_structure(x)):
            raise ValueError(f"primal value at position {i} is not an array")
        for j, t in enumerate(terms):
            if not _treedef_is_leaf(_tree_structure(t)):
                raise ValueError(f"term {j} for argument {i} is not an array")
            if fnp.shape(t) != fnp.shape(x):
                raise ValueError(f"jet: term {j} for argument {i} has shape {fnp.shape(t)}, but the "
                                 f"primal value has shape {fnp.shape(x)}; each term must have the "
                                 "primal's shape")
    return lengths.pop()


class JetTracer(_Tracer):
    """A value inside `jet`: its Taylor series ``[x0, x1, ..., xK]`` (coefficients).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad.experimental import jet
        >>> def f(x):
        ...     print(type(x).__name__)
        ...     return jnp.sin(x)
        ...
        >>> _ = jet.jet(f, (0.5,), ((1.0, 0.0),))
        JetTracer
    """

    __slots__ = ("series",)

    def __init__(self, trace, series: list) -> None:
        self._trace = trace
        self.series = series

    @property
    def aval(self):
        return _get_aval(self.series[0])


class JetTrace(_Trace):
    """The Taylor-mode interpreter: each primitive maps its operands' series with its rule
    (`fgrad.experimental._jet_rules`); ``jit`` programs are interpreted inline and custom
    derivative rules are skipped (their function is evaluated), as JAX's ``jet`` does.

    Example::

        >>> from fgrad.experimental import jet
        >>> jet.JetTrace.__name__
        'JetTrace'
    """

    __slots__ = ("order",)

    def __init__(self, parent, origin, order: int) -> None:
        super().__init__(parent, origin)
        self.order = order

    def process(self, prim, args, params):
        primals, series, found = [], [], False
        for a in args:
            if type(a) is JetTracer and a._trace is self:
                primals.append(a.series[0])
                series.append(a.series)
                found = True
            else:
                primals.append(a)
                series.append(None)
        if not found:
            return self.parent.process(prim, args, params)
        if prim.name == "jit":
            closed = params["closed"]
            consts = [c if isinstance(c, (_ArrayImpl, _Tracer)) else _wrap(c) for c in closed.consts]
            return _eval_jaxpr(closed.jaxpr, consts, list(args))
        with _current(self.parent):
            out = _apply(prim, primals, series, self.order, params)
        if prim.multiple_results:
            return [self._lift(s) for s in out]
        return self._lift(out)

    def _lift(self, series: list):
        return JetTracer(self, series) if _is_inexact(series[0]) else series[0]

    def concretize(self, tracer, what):
        return _to_concrete(tracer.series[0], what)


def _as_input(x):
    if isinstance(x, (_ArrayImpl, _Tracer)):
        return x
    return fnp.asarray(x)


def _term(t, dtype):
    """A series term as an array of the primal's dtype; a Python number stays weakly typed,
    as in JAX (so are the output terms that only weak terms reach)."""
    c = fnp.asarray(t, dtype=dtype)
    if isinstance(t, (int, float, complex)) and not isinstance(t, bool):
        return _convert_element_type(c, dtype, weak_type=True)
    return c


def jet(fun: _Callable, primals: _Sequence, series: _Sequence, factorial_scaled: bool = True,
        **_: _Any) -> tuple[_Any, _Any]:
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
    with _new_trace(JetTrace, "jet", order=order) as trace:
        ins = []
        for x, terms in zip(xs, series):
            if not _is_inexact(x) or order == 0:
                ins.append(x)
                continue
            dtype = fnp.result_type(x)
            coeffs = [_term(t, dtype) for t in terms]
            if factorial_scaled:
                coeffs = [c / _factorial(k + 1) for k, c in enumerate(coeffs)]
            ins.append(JetTracer(trace, [x] + coeffs))
        leaves, tree = _flatten_arrays(fun(*ins))
        outs = []
        for leaf in leaves:
            if type(leaf) is JetTracer and leaf._trace is trace:
                outs.append(leaf.series)
            else:
                v = _as_input(leaf)
                outs.append([v] + [fnp.zeros_like(v) for _ in range(order)])
    values = [s[0] for s in outs]
    out_terms = []
    for s in outs:
        terms = s[1:]
        if factorial_scaled:
            terms = [t * _factorial(k + 1) for k, t in enumerate(terms)]
        out_terms.append(terms)
    return _tree_unflatten(tree, values), _tree_unflatten(tree, out_terms)
