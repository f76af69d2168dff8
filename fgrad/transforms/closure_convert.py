"""`closure_convert`: a function with its closed-over values made explicit arguments.

A `custom_vjp` rule can only return cotangents for the arguments it is given; a function
that closes over traced values (parameters captured by a lambda while ``grad`` traces them)
would hide those from it.  `closure_convert` traces ``fun`` once at the example arguments'
shapes and returns ``(converted, consts)``: ``converted(*args, *consts)`` computes
``fun(*args)``, and ``consts`` are the closed-over *traced* values of inexact dtype (the ones a
derivative can flow into), hoisted out as JAX's ``jax.closure_convert`` does.  Other
closed-over values (concrete arrays, integers, booleans) stay inside.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.array import Tracer, get_aval
from ..core.narrow_floats import dtype_kind
from ..ops.control_flow import _as_arrays, trace_flat
from ..tree_util import tree_flatten, tree_unflatten


def trace_closure(fun: Callable, *example_args: Any) -> tuple:
    """``(branch, consts, hoist, in_tree, out_trees)``: ``fun`` traced at the shapes and dtypes
    of ``example_args`` to a `Branch` over ``(*consts, *flat_args)``; ``hoist[i]`` tells whether
    ``consts[i]`` is one `closure_convert` hoists (a traced value of inexact dtype);
    ``out_trees[0]`` is the result's tree structure.

    Example::

        >>> import fgrad.numpy as fnp
        >>> w = fnp.asarray([1.0, 2.0])
        >>> branch, consts, hoist, _, _ = trace_closure(lambda x: w * x, 1.0)
        >>> len(consts), hoist  # a concrete closed-over array is a constant, not hoisted
        (1, [False])
    """
    flat_args, in_tree = tree_flatten(example_args)
    out_trees: list = []

    def flat_fun(*leaves):
        out_leaves, out_tree = tree_flatten(fun(*tree_unflatten(in_tree, list(leaves))))
        out_trees.append(out_tree)
        return out_leaves

    branch, consts = trace_flat(flat_fun, [get_aval(a) for a in flat_args], "closure_convert")
    # JAX hoists the closed-over tracers only: a concrete array cannot carry a derivative
    hoist = [isinstance(c, Tracer) and dtype_kind(get_aval(c).dtype) in "fc" for c in consts]
    return branch, consts, hoist, in_tree, out_trees


def closure_convert(fun: Callable, *example_args: Any) -> tuple[Callable, list]:
    """``(converted, consts)`` with ``converted(*args, *consts) == fun(*args)`` and
    ``consts`` the traced inexact values ``fun`` closes over (traced at the shapes and dtypes of
    ``example_args``; call ``converted`` with arguments of those shapes and dtypes).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> def outer(w):
        ...     f = lambda x: fnp.sin(w * x)
        ...     g, consts = fgrad.closure_convert(f, 1.0)
        ...     return g(0.5, *consts)
        >>> float(fgrad.grad(outer)(2.0))  # d/dw sin(w x) = x cos(w x) at w = 2, x = 0.5
        0.2701511529340699
    """
    branch, consts, hoist, in_tree, out_trees = trace_closure(fun, *example_args)
    hoisted = [c for c, h in zip(consts, hoist) if h]
    n_hoisted = len(hoisted)

    def converted(*args_and_consts):
        split = len(args_and_consts) - n_hoisted
        args, given = args_and_consts[:split], iter(args_and_consts[split:])
        leaves, tree = tree_flatten(tuple(args))
        if tree != in_tree:
            raise TypeError(f"closure_convert: the converted function was traced for arguments of "
                            f"structure {in_tree}, got {tree}")
        all_consts = [next(given) if h else c for c, h in zip(consts, hoist)]
        return tree_unflatten(out_trees[0], branch(*all_consts, *_as_arrays(leaves)))

    return converted, hoisted
