"""`odeint`: adaptive Dormand-Prince integration of ``dy/dt = func(y, t, *args)``, with
reverse-mode derivatives by the adjoint method, as ``jax.experimental.ode.odeint``.

The integrator is the Dormand-Prince 5(4) pair (Hairer, Norsett & Wanner, *Solving Ordinary
Differential Equations I*, II.4-5): first-same-as-last stages, the step accepted when the
RMS of the error estimate over ``atol + rtol * max(|y0|, |y1|)`` is at most 1, the next step
``dt * min(10, max(0.9 * ratio**(-1/5), 0.2 or 1))``, the initial step from Hairer's
estimate, and each output time read off the accepted step's 4th-order interpolant (fitted
through the step's ends and its Dormand-Prince midpoint).  The arithmetic follows JAX's so
the same program prints the same numbers.

The derivative is the adjoint method (Chen et al., 2018, "Neural ODEs"): between each pair
of output times the augmented system ``(y, a, a_t, a_args)`` runs backwards with the same
integrator, so memory does not grow with the number of steps.  ``func`` may close over
arrays (traced parameters included): `fgrad.closure_convert` makes them explicit arguments
of the rule.
"""

from __future__ import annotations

import operator
import threading
from collections import OrderedDict
from typing import Any, Callable

import numpy as np

from .. import lax
from .. import numpy as fnp
from .._config import _flags, trace_context
from ..backends import default_device
from ..core.array import ArrayImpl, Tracer, get_aval
from ..core.ir import eval_jaxpr
from ..core.jaxpr_key import jaxpr_key, value_key
from ..ops.control_flow import _as_arrays, trace_flat
from ..flatten_util import ravel_pytree
from ..transforms.ad import vjp
from ..transforms.batching import vmap
from ..transforms.closure_convert import trace_closure
from ..transforms.custom import custom_vjp
from ..tree_util import tree_flatten, tree_leaves, tree_map, tree_unflatten

__all__ = ["odeint"]

# Dormand-Prince 5(4): nodes, stage weights, the 5th-order solution and the error weights
# (5th minus 4th order), and the midpoint of the dense output
_NODES = (1 / 5, 3 / 10, 4 / 5, 8 / 9, 1.0, 1.0, 0.0)
_STAGES = (
    (1 / 5, 0, 0, 0, 0, 0, 0),
    (3 / 40, 9 / 40, 0, 0, 0, 0, 0),
    (44 / 45, -56 / 15, 32 / 9, 0, 0, 0, 0),
    (19372 / 6561, -25360 / 2187, 64448 / 6561, -212 / 729, 0, 0, 0),
    (9017 / 3168, -355 / 33, 46732 / 5247, 49 / 176, -5103 / 18656, 0, 0),
    (35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0),
)
_SOLUTION = (35 / 384, 0, 500 / 1113, 125 / 192, -2187 / 6784, 11 / 84, 0)
_ERROR = (35 / 384 - 1951 / 21600, 0, 500 / 1113 - 22642 / 50085, 125 / 192 - 451 / 720,
          -2187 / 6784 + 12231 / 42400, 11 / 84 - 649 / 6300, -1.0 / 60.0)
_MIDPOINT = (6025192743 / 30085553152 / 2, 0, 51252292925 / 65400821598 / 2,
             -2691868925 / 45128329728 / 2, 187940372067 / 1594534317056 / 2,
             -1776094331 / 19743644256 / 2, 11237099 / 235043384 / 2)


def odeint(func: Callable, y0: Any, t: Any, *args: Any, rtol: float = 1.4e-8, atol: float = 1.4e-8,
           mxstep: float = float("inf"), hmax: float = float("inf")) -> Any:
    """Solve ``dy/dt = func(y, t, *args)`` from ``y(t[0]) = y0``; returns ``y`` at every time
    of the increasing 1-D array ``t`` (stacked along a new leading axis of each leaf of the
    pytree ``y0``).  Differentiable in ``y0``, ``t``, ``args`` and arrays ``func`` closes
    over (adjoint method).  ``mxstep`` bounds the steps between two output times, ``hmax``
    the step size.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.experimental.ode import odeint
        >>> ys = odeint(lambda y, t, k: -k * y, 1.0, fnp.array([0.0, 1.0]), 2.0)
        >>> round(float(ys[1]), 8), round(float(fnp.exp(-2.0)), 8)
        (0.13533528, 0.13533528)
        >>> g = fgrad.grad(lambda k: odeint(lambda y, t, k: -k * y, 1.0, fnp.array([0.0, 1.0]), k)[1])(2.0)
        >>> round(float(g), 6), round(float(-fnp.exp(-2.0)), 6)  # d/dk e^(-k t) = -t e^(-k t)
        (-0.135335, -0.135335)
    """
    for arg in tree_leaves(args):
        if not isinstance(arg, (ArrayImpl, Tracer, np.ndarray, np.generic, int, float, complex, bool)):
            raise TypeError(f"The contents of odeint *args must be arrays or scalars, but got {arg}.")
    t = fnp.asarray(t)
    if t.ndim != 1:
        raise ValueError(f"odeint: t must be a 1-D array of increasing times, got shape {t.shape}")
    flat_y0, unravel = ravel_pytree(y0)
    dynamics = _Dynamics(func, unravel, y0, t[0], args)
    out = _odeint(dynamics, float(rtol), float(atol), float(mxstep), float(hmax), flat_y0, t,
                  *args, *dynamics.hoisted)
    return vmap(unravel)(out)


class _Dynamics:
    """``func`` of one `odeint` call as the integrator calls it: ``(y, t, *args, *hoisted) ->
    dy/dt`` on the raveled state.  ``func`` is traced once per call (`trace_closure`): the
    closed-over traced values of inexact dtype are ``hoisted`` (arguments of the custom VJP,
    which differentiates them, as `closure_convert` does); the other closed-over values
    (concrete arrays, integers) are ``fixed``.  ``key`` is equal for two calls exactly when
    their traced programs, shapes and dtypes are (`jaxpr_key`; None: do not cache) -- it never
    depends on a closed-over value, which reaches the cached integrator as an input on every
    call (`_replayed`)."""

    __slots__ = ("branch", "hoist", "fixed", "hoisted", "in_tree", "out_tree", "unravel", "key")

    def __init__(self, func: Callable, unravel: Callable, y0: Any, t0: Any, args: tuple) -> None:
        branch, consts, self.hoist, self.in_tree, out_trees = trace_closure(func, y0, t0, *args)
        self.branch, self.out_tree, self.unravel = branch, out_trees[0], unravel
        self.fixed = [c for c, h in zip(consts, self.hoist) if not h]
        self.hoisted = [c for c, h in zip(consts, self.hoist) if h]
        program = jaxpr_key(branch.jaxpr)
        self.key = None if program is None else (program, tuple(self.hoist), self.in_tree, self.out_tree)

    def with_fixed(self, fixed: list) -> _Dynamics:
        """The same dynamics reading the closed-over values ``fixed`` (a cached trace's inputs)."""
        other = object.__new__(_Dynamics)
        for name in self.__slots__:
            setattr(other, name, getattr(self, name))
        other.fixed = list(fixed)
        return other

    def __call__(self, y, t, *args_and_hoisted):
        split = len(args_and_hoisted) - len(self.hoisted)
        args, given = args_and_hoisted[:split], iter(args_and_hoisted[split:])
        leaves, tree = tree_flatten((self.unravel(y), t, *args))
        if tree != self.in_tree:
            raise TypeError(f"odeint: the dynamics were traced for arguments of structure "
                            f"{self.in_tree}, got {tree}")
        fixed = iter(self.fixed)
        consts = [next(given) if h else next(fixed) for h in self.hoist]
        out = tree_unflatten(self.out_tree, self.branch(*consts, *_as_arrays(leaves)))
        return ravel_pytree(out)[0]


# integrator programs traced once per dynamics key, tolerances, and argument shapes and dtypes
_TRACES: OrderedDict = OrderedDict()
_TRACES_LOCK = threading.Lock()
MAX_TRACES = 64


def _replayed(what: str, fn: Callable, func: Any, statics: tuple, dynamic: tuple) -> Any:
    """``fn(func, *statics, *dynamic)``, evaluated from a trace of it cached per
    ``(what, func.key, statics, dynamic's structure, shapes, dtypes and weak types)`` and the
    options that change tracing.  The trace takes ``func``'s fixed closed-over values as
    inputs, so a cached trace never holds a value that can change between calls; the replay
    binds the same primitives as running ``fn`` would, so the values are the same bits.  Without
    a key (a ``func`` whose program cannot be compared), ``fn`` runs as it is."""
    if not isinstance(func, _Dynamics) or func.key is None:
        return fn(func, *statics, *dynamic)
    leaves, tree = tree_flatten(dynamic)
    avals = [get_aval(x) for x in leaves]
    try:
        # (the default device too: the constants a trace makes are placed there)
        key = (what, func.key, value_key(statics), tree, tuple(value_key(a) for a in avals),
               trace_context[0], tuple(sorted(_flags.items())), default_device())
        hash(key)
    except TypeError:  # an unhashable part: do not cache
        return fn(func, *statics, *dynamic)
    with _TRACES_LOCK:
        entry = _TRACES.get(key)
        if entry is not None:
            _TRACES.move_to_end(key)
    if entry is None:
        n_fixed, out_trees = len(func.fixed), []

        def flat(*inputs):
            out = fn(func.with_fixed(inputs[:n_fixed]), *statics,
                     *tree_unflatten(tree, list(inputs[n_fixed:])))
            outs, out_tree = tree_flatten(out)
            out_trees.append(out_tree)
            return outs

        branch, consts = trace_flat(flat, [get_aval(c) for c in func.fixed] + avals, f"odeint {what}")
        entry = (branch.jaxpr, consts, out_trees[0])
        if not any(isinstance(c, Tracer) for c in consts):
            with _TRACES_LOCK:
                _TRACES[key] = entry
                while len(_TRACES) > MAX_TRACES:
                    _TRACES.popitem(last=False)
    jaxpr, consts, out_tree = entry
    return tree_unflatten(out_tree, eval_jaxpr(jaxpr, [], [*consts, *func.fixed, *leaves]))


def _rk_step(func, y0, f0, t0, dt):
    """One Dormand-Prince step: ``(y1, f1, error estimate, stage derivatives k)``."""
    dt_y = fnp.astype(dt, f0.dtype)
    k = fnp.zeros((7,) + f0.shape, f0.dtype).at[0].set(f0)

    def stage(i, k):
        weights = fnp.asarray(_STAGES, f0.dtype)[i - 1]
        ti = t0 + dt * fnp.asarray(_NODES)[i - 1]
        yi = y0 + dt_y * fnp.dot(weights, k)
        return k.at[i].set(func(yi, ti))

    k = lax.fori_loop(1, 7, stage, k)
    y1 = dt_y * fnp.dot(fnp.asarray(_SOLUTION, f0.dtype), k) + y0
    error = dt_y * fnp.dot(fnp.asarray(_ERROR, f0.dtype), k)
    return y1, k[-1], error, k


def _error_ratio(error, rtol, atol, y0, y1):
    tolerance = atol + rtol * fnp.maximum(fnp.abs(y0), fnp.abs(y1))
    return fnp.sqrt(fnp.mean((error / fnp.astype(tolerance, error.dtype)) ** 2))


def _next_step(dt, ratio, safety=0.9, ifactor=10.0, dfactor=0.2, order=5.0):
    dfactor = fnp.where(ratio < 1, 1.0, dfactor)
    factor = fnp.minimum(ifactor, fnp.maximum(ratio ** (-1.0 / order) * safety, dfactor))
    return fnp.where(ratio == 0, dt * ifactor, dt * factor)


def _initial_step(func, t0, y0, order, rtol, atol, f0):
    """Hairer, Norsett & Wanner's starting step size (Sec. II.4)."""
    scale = atol + fnp.abs(y0) * rtol
    d0 = fnp.linalg.norm(y0 / fnp.astype(scale, y0.dtype))
    d1 = fnp.linalg.norm(f0 / fnp.astype(scale, y0.dtype))
    h0 = fnp.where((d0 < 1e-5) | (d1 < 1e-5), 1e-6, 0.01 * d0 / d1)
    f1 = func(y0 + fnp.astype(h0, y0.dtype) * f0, t0 + h0)
    d2 = fnp.linalg.norm((f1 - f0) / fnp.astype(scale, y0.dtype)) / h0
    h1 = fnp.where((d1 <= 1e-15) & (d2 <= 1e-15), fnp.maximum(1e-6, h0 * 1e-3),
                   (0.01 / fnp.maximum(d1, d2)) ** (1.0 / (order + 1.0)))
    return fnp.minimum(100.0 * h0, h1)


def _interpolant(y0, y1, k, dt):
    """Coefficients (highest power first) of the 4th-order polynomial in ``s = (t - t0) / dt``
    through the step's ends, end slopes and Dormand-Prince midpoint."""
    dt = fnp.astype(dt, y0.dtype)
    y_mid = y0 + dt * fnp.dot(fnp.asarray(_MIDPOINT, y0.dtype), k)
    dy0, dy1 = k[0], k[-1]
    a = -2.0 * dt * dy0 + 2.0 * dt * dy1 - 8.0 * y0 - 8.0 * y1 + 16.0 * y_mid
    b = 5.0 * dt * dy0 - 3.0 * dt * dy1 + 18.0 * y0 + 14.0 * y1 - 32.0 * y_mid
    c = -4.0 * dt * dy0 + dt * dy1 - 11.0 * y0 - 5.0 * y1 + 16.0 * y_mid
    return fnp.stack([a, b, c, dt * dy0, y0])


def _integrate(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    def f(y, t):
        return func(y, t, *args)

    def to_output_time(carry, target):
        def more_steps(state):
            i, _, _, t, dt, _, _ = state
            return (t < target) & (i < mxstep) & (dt > 0)

        def step(state):
            i, y, fy, t, dt, last_t, coeffs = state
            y1, f1, error, k = _rk_step(f, y, fy, t, dt)
            t1 = t + dt
            ratio = _error_ratio(error, rtol, atol, y, y1)
            new_coeffs = _interpolant(y, y1, k, dt)
            dt = fnp.clip(_next_step(dt, ratio), 0.0, hmax)
            accepted = [i + 1, y1, f1, t1, dt, t, new_coeffs]
            rejected = [i + 1, y, fy, t, dt, last_t, coeffs]
            return [fnp.where(ratio <= 1.0, a, r) for a, r in zip(accepted, rejected)]

        _, *carry = lax.while_loop(more_steps, step, [0] + carry)
        _, _, t, _, last_t, coeffs = carry
        s = (target - last_t) / (t - last_t)
        return carry, fnp.polyval(coeffs, fnp.astype(s, coeffs.dtype))

    f0 = f(y0, ts[0])
    dt = fnp.clip(_initial_step(f, ts[0], y0, 4, rtol, atol, f0), 0.0, hmax)
    coeffs = fnp.stack([y0] * 5)
    _, ys = lax.scan(to_output_time, [y0, f0, ts[0], dt, ts[0], coeffs], ts[1:])
    return fnp.concatenate([y0[None], ys])


def _integrate_replayed(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    return _replayed("forward", _integrate, func, (rtol, atol, mxstep, hmax), (y0, ts, *args))


_odeint = custom_vjp(_integrate_replayed, nondiff_argnums=(0, 1, 2, 3, 4))


def _odeint_fwd(func, rtol, atol, mxstep, hmax, y0, ts, *args):
    ys = _odeint(func, rtol, atol, mxstep, hmax, y0, ts, *args)
    return ys, (ys, ts, args)


def _odeint_bwd(func, rtol, atol, mxstep, hmax, residuals, g):
    """The adjoint method: from the last output time back to the first, integrate
    ``(y, a, a_t0, a_args)`` backwards in time (as forwards in ``-t``), adding each output's
    cotangent to ``a`` and collecting the cotangents of the output times."""
    ys, ts, args = residuals

    def augmented(state, minus_t, *args):
        y, a, _, _ = state
        dy, pullback = vjp(func, y, -minus_t, *args)
        return (-dy, *pullback(a))

    def back_one_interval(carry, i):
        a, t0_bar, args_bar = carry
        t_bar = fnp.real(fnp.dot(func(ys[i], ts[i], *args), g[i]))  # moving the output time
        t0_bar = t0_bar - t_bar
        _, a, t0_bar, args_bar = odeint(augmented, (ys[i], a, t0_bar, args_bar),
                                        fnp.stack([-ts[i], -ts[i - 1]]), *args,
                                        rtol=rtol, atol=atol, mxstep=mxstep, hmax=hmax)
        a, t0_bar, args_bar = tree_map(operator.itemgetter(1), (a, t0_bar, args_bar))
        return (a + g[i - 1], t0_bar, args_bar), t_bar

    init = (g[-1], fnp.zeros((), ts.dtype), tree_map(fnp.zeros_like, args))
    (a, t0_bar, args_bar), ts_bar_reversed = lax.scan(back_one_interval, init,
                                                      fnp.arange(ts.shape[0] - 1, 0, -1))
    ts_bar = fnp.concatenate([fnp.reshape(t0_bar, (1,)), ts_bar_reversed[::-1]])
    return (a, ts_bar, *args_bar)


def _odeint_bwd_replayed(func, rtol, atol, mxstep, hmax, residuals, g):
    return _replayed("adjoint", _odeint_bwd, func, (rtol, atol, mxstep, hmax), (residuals, g))


_odeint.defvjp(_odeint_fwd, _odeint_bwd_replayed)
