"""First-order optimizers over pytrees (``jax.example_libraries.optimizers``).

An optimizer is a triple ``(init_fun, update_fun, get_params)``:
``opt_state = init_fun(params)``; ``opt_state = update_fun(step, grads, opt_state)``;
``params = get_params(opt_state)``.  Each optimizer is written for one array (its
per-leaf state is a tuple of arrays) and the `optimizer` decorator lifts it to pytrees:
the state is an `OptimizerState`, itself a pytree, so it passes through ``jit``, ``vmap``
and ``scan``.  Step sizes are numbers or schedules ``step -> step_size``.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad.example_libraries import optimizers
    >>> opt_init, opt_update, get_params = optimizers.sgd(0.1)
    >>> state = opt_init({"w": fnp.asarray(1.0)})
    >>> state = opt_update(0, {"w": fnp.asarray(2.0)}, state)
    >>> get_params(state)["w"]
    Array(0.8, dtype=float64, weak_type=True)
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np

from .. import numpy as fnp
from ..tree_util import register_pytree_node, tree_flatten, tree_leaves, tree_map, tree_unflatten

__all__ = [
    "Optimizer", "OptimizerState", "optimizer", "sgd", "momentum", "nesterov", "adagrad", "rmsprop",
    "rmsprop_momentum", "adam", "adamax", "sm3", "constant", "exponential_decay", "inverse_time_decay",
    "polynomial_decay", "piecewise_constant", "make_schedule", "l2_norm", "clip_grads", "JoinPoint",
    "unpack_optimizer_state", "pack_optimizer_state",
]

Schedule = Callable[[Any], Any]


class OptimizerState(NamedTuple):
    """The state of a pytree optimizer: per parameter leaf, the flat leaves of its state
    (``packed_state``), and the structures to rebuild the parameters (``tree_def``) and each
    leaf's state (``subtree_defs``).  A pytree whose leaves are the state arrays.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad.example_libraries import optimizers
        >>> state = optimizers.momentum(0.1, 0.9).init_fn({'w': jnp.array([1.0])})
        >>> isinstance(state, optimizers.OptimizerState)
        True
    """
    packed_state: list
    tree_def: Any
    subtree_defs: tuple


register_pytree_node(
    OptimizerState,
    lambda s: ((s.packed_state,), (s.tree_def, s.subtree_defs)),
    lambda aux, children: OptimizerState(children[0], *aux),
)


class Optimizer(NamedTuple):
    """``(init_fn, update_fn, params_fn)``: what every optimizer factory returns.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad.example_libraries import optimizers
        >>> opt = optimizers.sgd(0.1)
        >>> isinstance(opt, optimizers.Optimizer)
        True
        >>> state = opt.init_fn(jnp.array([1.0]))
        >>> opt.params_fn(opt.update_fn(0, jnp.array([2.0]), state))
        Array([0.8], dtype=float64)
    """
    init_fn: Callable
    update_fn: Callable
    params_fn: Callable


def optimizer(opt_maker: Callable) -> Callable:
    """Decorator: lift an optimizer written for one array, ``opt_maker(*hyper) ->
    (init, update, get_params)`` with ``init(x) -> state``, ``update(i, g, state) -> state``,
    ``get_params(state) -> x`` (a state is any pytree of arrays), to parameter pytrees.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries.optimizers import optimizer
        >>> @optimizer
        ... def halve():
        ...     return (lambda x: x), (lambda i, g, x: x / 2), (lambda x: x)
        >>> init, update, get = halve()
        >>> get(update(0, [fnp.asarray(0.0)], init([fnp.asarray(4.0)])))
        [Array(2., dtype=float64, weak_type=True)]
    """
    @functools.wraps(opt_maker)
    def tree_opt_maker(*args, **kwargs) -> Optimizer:
        init, update, get_params = opt_maker(*args, **kwargs)

        def tree_init(x0_tree) -> OptimizerState:
            x0_flat, tree = tree_flatten(x0_tree)
            packed, subtrees = [], []
            for x0 in x0_flat:
                leaves, subtree = tree_flatten(init(x0))
                packed.append(leaves)
                subtrees.append(subtree)
            return OptimizerState(packed, tree, tuple(subtrees))

        def tree_update(i, grad_tree, opt_state: OptimizerState) -> OptimizerState:
            packed, tree, subtrees = opt_state
            grad_flat, grad_tree_def = tree_flatten(grad_tree)
            if grad_tree_def != tree:
                raise TypeError("optimizer update function was passed a gradient tree that did not match "
                                "the parameter tree structure with which it was initialized: parameter "
                                f"tree {tree} and grad tree {grad_tree_def}.")
            new_packed = []
            for g, leaves, subtree in zip(grad_flat, packed, subtrees):
                new_leaves, new_subtree = tree_flatten(update(i, g, tree_unflatten(subtree, leaves)))
                if new_subtree != subtree:
                    raise TypeError("optimizer update function produced an output structure that did not "
                                    f"match its input structure: input {subtree} and output {new_subtree}.")
                new_packed.append(new_leaves)
            return OptimizerState(new_packed, tree, subtrees)

        def tree_get_params(opt_state: OptimizerState):
            packed, tree, subtrees = opt_state
            return tree_unflatten(tree, [get_params(tree_unflatten(s, leaves))
                                         for leaves, s in zip(packed, subtrees)])

        return Optimizer(tree_init, tree_update, tree_get_params)
    return tree_opt_maker


# ---------------------------------------------------------------------------------------
# optimizers


def _zero_slots(count: int, update: Callable) -> tuple[Callable, Callable, Callable]:
    """The optimizer triple of an ``update`` whose per-leaf state is ``(x, *slots)``, with
    ``count`` slots that start at zero (momenta, accumulated squares, ...)."""

    def init(x0):
        return (x0, *(fnp.zeros_like(x0) for _ in range(count)))

    return init, update, _params_of_state


def _params_of_state(state):
    return state[0]


@optimizer
def sgd(step_size):
    """Stochastic gradient descent: ``x - step_size(i) * g``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.sgd(0.5)
        >>> get_params(update(0, fnp.asarray(1.0), init(fnp.asarray(0.0))))
        Array(-0.5, dtype=float64, weak_type=True)
    """
    step_size = make_schedule(step_size)
    return (lambda x0: x0), (lambda i, g, x: x - step_size(i) * g), (lambda x: x)


@optimizer
def momentum(step_size, mass: float):
    """Heavy-ball momentum: ``v = mass * v + g``; ``x - step_size(i) * v``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.momentum(1.0, mass=0.9)
        >>> s = update(1, fnp.asarray(1.0), update(0, fnp.asarray(1.0), init(fnp.asarray(0.0))))
        >>> float(get_params(s))  # -1 - (0.9 + 1)
        -2.9
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * velocity, velocity
    return _zero_slots(1, update)


@optimizer
def nesterov(step_size, mass: float):
    """Nesterov momentum: ``v = mass * v + g``; ``x - step_size(i) * (mass * v + g)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.nesterov(1.0, mass=0.5)
        >>> float(get_params(update(0, fnp.asarray(1.0), init(fnp.asarray(0.0)))))
        -1.5
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, velocity = state
        velocity = mass * velocity + g
        return x - step_size(i) * (mass * velocity + g), velocity
    return _zero_slots(1, update)


@optimizer
def adagrad(step_size, momentum: float = 0.9):
    """Adagrad (Duchi et al., 2011) with momentum: ``s += g**2``;
    ``m = (1 - momentum) * g / sqrt(s) + momentum * m`` (0 where ``s = 0``); ``x - step_size(i) * m``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.adagrad(1.0, momentum=0.0)
        >>> float(get_params(update(0, fnp.asarray(3.0), init(fnp.asarray(0.0)))))
        -1.0
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, g_sq, m = state
        g_sq = g_sq + fnp.square(g)
        positive = g_sq > 0
        inv_sqrt = fnp.where(positive, 1.0 / fnp.sqrt(fnp.where(positive, g_sq, 1.0)), 0.0)
        m = (1.0 - momentum) * (g * inv_sqrt) + momentum * m
        return x - step_size(i) * m, g_sq, m
    return _zero_slots(2, update)


@optimizer
def rmsprop(step_size, gamma: float = 0.9, eps: float = 1e-8):
    """RMSProp (Tieleman & Hinton, 2012): ``a = gamma * a + (1 - gamma) * g**2``;
    ``x - step_size(i) * g / sqrt(a + eps)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.rmsprop(0.1, gamma=0.0, eps=0.0)
        >>> float(get_params(update(0, fnp.asarray(-4.0), init(fnp.asarray(0.0)))))
        0.1
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad = state
        avg_sq_grad = avg_sq_grad * gamma + fnp.square(g) * (1.0 - gamma)
        return x - step_size(i) * g / fnp.sqrt(avg_sq_grad + eps), avg_sq_grad
    return _zero_slots(1, update)


@optimizer
def rmsprop_momentum(step_size, gamma: float = 0.9, eps: float = 1e-8, momentum: float = 0.9):
    """RMSProp with momentum: ``a`` as in `rmsprop`;
    ``m = momentum * m + step_size(i) * g / sqrt(a + eps)``; ``x - m``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.rmsprop_momentum(0.1, gamma=0.0, eps=0.0)
        >>> float(get_params(update(0, fnp.asarray(2.0), init(fnp.asarray(0.0)))))
        -0.1
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, avg_sq_grad, mom = state
        avg_sq_grad = avg_sq_grad * gamma + fnp.square(g) * (1.0 - gamma)
        mom = momentum * mom + step_size(i) * g / fnp.sqrt(avg_sq_grad + eps)
        return x - mom, avg_sq_grad, mom
    return _zero_slots(2, update)


def _bias_correction(beta: float, i, like):
    """``1 - beta**(i + 1)`` in the dtype of ``like`` (``i`` may be traced)."""
    dtype = fnp.asarray(like).dtype
    return 1.0 - fnp.power(fnp.asarray(beta, dtype=dtype), fnp.astype(fnp.asarray(i) + 1, dtype))


@optimizer
def adam(step_size, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8):
    """Adam (Kingma & Ba, 2015): moment estimates ``m``, ``v`` with bias correction;
    ``x - step_size(i) * m_hat / (sqrt(v_hat) + eps)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.adam(0.1)
        >>> round(float(get_params(update(0, fnp.asarray(5.0), init(fnp.asarray(0.0))))), 6)
        -0.1
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, v = state
        m = (1 - b1) * g + b1 * m
        v = (1 - b2) * fnp.square(g) + b2 * v
        m_hat = m / _bias_correction(b1, i, m)
        v_hat = v / _bias_correction(b2, i, m)
        return x - step_size(i) * m_hat / (fnp.sqrt(v_hat) + eps), m, v
    return _zero_slots(2, update)


@optimizer
def adamax(step_size, b1: float = 0.9, b2: float = 0.999, eps: float = 1e-8):
    """AdaMax (Kingma & Ba, 2015, section 7): ``m`` as in Adam, ``u = max(b2 * u, |g|)``;
    ``x - step_size(i) / (1 - b1**(i+1)) * m / (u + eps)``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.adamax(0.1)
        >>> round(float(get_params(update(0, fnp.asarray(5.0), init(fnp.asarray(0.0))))), 6)
        -0.1
    """
    step_size = make_schedule(step_size)

    def update(i, g, state):
        x, m, u = state
        m = (1 - b1) * g + b1 * m
        u = fnp.maximum(b2 * u, fnp.abs(g))
        return x - (step_size(i) / _bias_correction(b1, i, m)) * m / (u + eps), m, u
    return _zero_slots(2, update)


@optimizer
def sm3(step_size, momentum: float = 0.9):
    """SM3 (Anil et al., 2019): adagrad with memory linear in the sum, not the product, of
    the parameter's dimensions: one accumulator per axis, combined by a minimum.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, update, get_params = optimizers.sm3(1.0, momentum=0.0)
        >>> get_params(update(0, fnp.full((2, 2), 3.0), init(fnp.zeros((2, 2)))))
        Array([[-1., -1.],
               [-1., -1.]], dtype=float64)
    """
    step_size = make_schedule(step_size)

    def init(x0):
        x0 = fnp.asarray(x0)
        x1 = fnp.atleast_1d(x0)
        accumulators = [fnp.zeros(n, dtype=x1.dtype) for n in x1.shape]
        # the original shape rides along as a zero-size array (shape metadata, no leaf values)
        return x1, fnp.zeros_like(x1), accumulators, fnp.zeros(x0.shape + (0,), dtype=x1.dtype)

    def update(i, g, state):
        x, m, accumulators, shape_marker = state
        g = fnp.reshape(g, x.shape)
        nd = x.ndim
        per_axis = [fnp.reshape(v, tuple(-1 if a == j else 1 for a in range(nd)))
                    for j, v in enumerate(accumulators)]
        accum = functools.reduce(fnp.minimum, per_axis) + fnp.square(g)
        positive = accum > 0
        inv_sqrt = fnp.where(positive, 1.0 / fnp.sqrt(fnp.where(positive, accum, 1.0)), 0.0)
        m = (1.0 - momentum) * (g * inv_sqrt) + momentum * m
        x = x - step_size(i) * m
        accumulators = [fnp.max(accum, axis=tuple(a for a in range(nd) if a != j)) for j in range(nd)]
        return x, m, accumulators, shape_marker

    def get_params(state):
        x, _, _, shape_marker = state
        return fnp.reshape(x, shape_marker.shape[:-1])
    return init, update, get_params


# ---------------------------------------------------------------------------------------
# step-size schedules


def constant(step_size) -> Schedule:
    """The schedule ``i -> step_size``.

    Example::

        >>> from fgrad.example_libraries import optimizers
        >>> optimizers.constant(0.1)(1000)
        0.1
    """
    def schedule(i):
        return step_size
    return schedule


def exponential_decay(step_size, decay_steps, decay_rate) -> Schedule:
    """``step_size * decay_rate ** (i / decay_steps)``.

    Example::

        >>> from fgrad.example_libraries import optimizers
        >>> float(optimizers.exponential_decay(1.0, 10, 0.5)(20))
        0.25
    """
    def schedule(i):
        return step_size * fnp.power(decay_rate, fnp.asarray(i) / decay_steps)
    return schedule


def inverse_time_decay(step_size, decay_steps, decay_rate, staircase: bool = False) -> Schedule:
    """``step_size / (1 + decay_rate * i / decay_steps)`` (``floor(i / decay_steps)`` with
    ``staircase``).

    Example::

        >>> from fgrad.example_libraries import optimizers
        >>> float(optimizers.inverse_time_decay(1.0, 10, 1.0, staircase=True)(15))
        0.5
    """
    def schedule(i):
        t = fnp.asarray(i) / decay_steps
        return step_size / (1 + decay_rate * (fnp.floor(t) if staircase else t))
    return schedule


def polynomial_decay(step_size, decay_steps, final_step_size, power: float = 1.0) -> Schedule:
    """From ``step_size`` to ``final_step_size`` over ``decay_steps`` steps as
    ``(1 - i / decay_steps) ** power``, then constant.

    Example::

        >>> from fgrad.example_libraries import optimizers
        >>> s = optimizers.polynomial_decay(1.0, 10, 0.0)
        >>> float(s(5)), float(s(50))
        (0.5, 0.0)
    """
    def schedule(step_num):
        step_num = fnp.minimum(step_num, decay_steps)
        step_mult = fnp.power(1 - step_num / decay_steps, power)
        return step_mult * (step_size - final_step_size) + final_step_size
    return schedule


def piecewise_constant(boundaries, values) -> Schedule:
    """``values[k]`` for steps in ``(boundaries[k-1], boundaries[k]]``.

    Example::

        >>> from fgrad.example_libraries import optimizers
        >>> s = optimizers.piecewise_constant([10, 20], [1.0, 0.5, 0.1])
        >>> float(s(10)), float(s(11)), float(s(100))
        (1.0, 0.5, 0.1)
    """
    boundaries = np.asarray(boundaries)
    values = np.asarray(values)
    if not values.shape[0] == boundaries.shape[0] + 1:
        raise ValueError("Length of values must be one more than length of boundaries, got "
                         f"{values.shape[0]} values and {boundaries.shape[0]} boundaries.")

    def schedule(i):
        return fnp.asarray(values)[fnp.sum(fnp.asarray(i) > boundaries)]
    return schedule


def make_schedule(scalar_or_schedule) -> Schedule:
    """A schedule from a number (constant) or a callable (itself).

    Example::

        >>> from fgrad.example_libraries import optimizers
        >>> optimizers.make_schedule(0.1)(5)
        0.1
    """
    if callable(scalar_or_schedule):
        return scalar_or_schedule
    if np.ndim(scalar_or_schedule) == 0:
        return constant(scalar_or_schedule)
    raise TypeError(type(scalar_or_schedule))


# ---------------------------------------------------------------------------------------
# utilities


def l2_norm(tree):
    """The Euclidean norm of all the leaves of ``tree`` together.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> float(optimizers.l2_norm({"a": fnp.asarray([3.0]), "b": fnp.asarray(4.0)}))
        5.0
    """
    leaves = tree_leaves(tree)
    return fnp.sqrt(sum(fnp.vdot(x, x) for x in leaves))


def clip_grads(grad_tree, max_norm):
    """Scale ``grad_tree`` down to global norm ``max_norm`` if its `l2_norm` is larger.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> optimizers.clip_grads([fnp.asarray([3.0, 4.0])], 1.0)
        [Array([0.6, 0.8], dtype=float64)]
    """
    norm = l2_norm(grad_tree)
    return tree_map(lambda g: fnp.where(norm < max_norm, g, g * (max_norm / norm)), grad_tree)


class JoinPoint:
    """Marks where a parameter leaf's optimizer state sits in an unpacked state tree, so
    tree functions treat that subtree as one leaf.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad.example_libraries import optimizers
        >>> state = optimizers.adam(0.1).init_fn({'w': jnp.array([1.0])})
        >>> tree = optimizers.unpack_optimizer_state(state)
        >>> isinstance(tree['w'], optimizers.JoinPoint)
        True
    """

    def __init__(self, subtree) -> None:
        self.subtree = subtree

    def __iter__(self):
        return iter((self.subtree,))

    def __repr__(self) -> str:
        return f"JoinPoint({self.subtree!r})"


def unpack_optimizer_state(opt_state: OptimizerState):
    """The state as a pytree shaped like the parameters, each leaf a `JoinPoint` around
    that parameter's state (plain Python containers and arrays: picklable).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, _, _ = optimizers.momentum(0.1, 0.9)
        >>> tree = optimizers.unpack_optimizer_state(init({"w": fnp.asarray(1.0)}))
        >>> tree["w"].subtree
        (Array(1., dtype=float64, weak_type=True), Array(0., dtype=float64, weak_type=True))
    """
    packed, tree, subtrees = opt_state
    return tree_unflatten(tree, [JoinPoint(tree_unflatten(s, leaves)) for leaves, s in zip(packed, subtrees)])


def pack_optimizer_state(marked_pytree) -> OptimizerState:
    """Inverse of `unpack_optimizer_state`.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.example_libraries import optimizers
        >>> init, _, get_params = optimizers.adam(0.1)
        >>> state = init([fnp.asarray(1.0)])
        >>> get_params(optimizers.pack_optimizer_state(optimizers.unpack_optimizer_state(state)))
        [Array(1., dtype=float64, weak_type=True)]
    """
    joins, tree = tree_flatten(marked_pytree, is_leaf=lambda x: isinstance(x, JoinPoint))
    if not all(isinstance(j, JoinPoint) for j in joins):
        raise TypeError("pack_optimizer_state: expected a tree whose leaves are JoinPoints (from "
                        "unpack_optimizer_state)")
    packed, subtrees = [], []
    for j in joins:
        leaves, subtree = tree_flatten(j.subtree)
        packed.append(leaves)
        subtrees.append(subtree)
    return OptimizerState(packed, tree, tuple(subtrees))
