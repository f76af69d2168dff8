"""User-defined batching rules: `custom_vmap` and its `custom_vmap_call` primitive.

``@custom_vmap def f(*args)`` with ``@f.def_vmap def rule(axis_size, in_batched, *args) ->
(out, out_batched)``: outside ``vmap`` the function runs as written; under ``vmap`` the rule
runs instead, on the arguments with the batch axis at the front (``in_batched`` says, per
leaf, which arguments carry it; ``out_batched`` says which outputs do).  This is
``jax.custom_batching.custom_vmap``.

The call is traced into a program (its closed-over values become operands, as for the
staged custom derivative rules) and bound as one `custom_vmap_call` primitive, so the rule
is honoured wherever a batch trace meets it: eager ``vmap``, ``vmap`` of a ``jit``-ed
function, nested ``vmap`` (the rule runs at each level), ``jit`` of ``vmap``.

Derivatives follow JAX: forward mode is the ``custom_vmap`` of the function's JVP whose rule
is the JVP of the user's rule (so ``vmap(jvp(f))`` differentiates the rule); reverse mode is
not supported (JAX's ``ValueError``) -- wrap the function in `custom_vjp` to give it one.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from ..core.array import get_aval
from ..core.constants import zeros_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule, deflinear_in
from ..ops.shape import bdim_to_front, moveaxis
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from .custom import _as_array, _forward_attr, _resolve
from .custom_call import _jvp_of, _run, _trace


class custom_vmap:
    """A function with its own ``vmap`` rule (``jax.custom_batching.custom_vmap``).

    Register the rule with ``@f.def_vmap``: ``rule(axis_size, in_batched, *args)`` gets the
    batch size, a pytree of bools shaped like the arguments (which leaves are batched, with
    the batch axis first) and the arguments; it returns ``(out, out_batched)``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.custom_batching import custom_vmap
        >>> @custom_vmap
        ... def f(x, y):
        ...     return x + y
        >>> @f.def_vmap
        ... def f_vmap_rule(axis_size, in_batched, xs, ys):
        ...     return xs * ys, True
        >>> f(fnp.asarray(2.0), fnp.asarray(3.0))
        Array(5., dtype=float64, weak_type=True)
        >>> fgrad.vmap(f)(fnp.arange(3.0), fnp.arange(1.0, 4.0))  # the rule: xs * ys
        Array([0., 2., 6.], dtype=float64)
    """

    def __init__(self, fun: Callable[..., Any]) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.vmap_rule: Callable[..., Any] | None = None

    __getattr__ = _forward_attr

    def def_vmap(self, vmap_rule: Callable[..., tuple[Any, Any]]) -> Callable[..., tuple[Any, Any]]:
        """Set the batching rule ``vmap_rule(axis_size, in_batched, *args) -> (out,
        out_batched)``; returns it unchanged (usable as a decorator)."""
        self.vmap_rule = vmap_rule
        return vmap_rule

    def __call__(self, *args, **kwargs):
        name = getattr(self.fun, "__name__", "function")
        if self.vmap_rule is None:
            raise AttributeError(f"No batching rule defined for custom_vmap function {name} using def_vmap.")
        try:
            args = _resolve(self.fun, args, kwargs)
        except TypeError as e:
            raise TypeError(f"The input arguments to the custom_vmap-decorated function {name} could not "
                            f"be resolved to positional-only arguments. Binding failed with the error:\n{e}"
                            ) from e
        flat, in_tree = tree_flatten(tuple(args))
        flat = [_as_array(x) for x in flat]
        out_trees: list = []

        def flat_fun(*xs):
            leaves, tree = tree_flatten(self.fun(*tree_unflatten(in_tree, list(xs))))
            out_trees.append(tree)
            return leaves

        program, consts = _trace(flat_fun, [get_aval(x) for x in flat], f"custom_vmap function {name}")
        out_tree = out_trees[-1]
        rule = _FlatRule(self.vmap_rule, in_tree, out_tree)
        outs = custom_vmap_call_p.bind(*consts, *flat, fun=program, rule=rule, n_consts=len(consts))
        return tree_unflatten(out_tree, list(outs))


class _FlatRule:
    """The user's rule on flat lists: ``(axis_size, in_batched, args) -> (outs,
    out_batched)``, checking the output structures as JAX does."""

    def __init__(self, rule: Callable, in_tree, out_tree) -> None:
        self.rule, self.in_tree, self.out_tree = rule, in_tree, out_tree

    def __call__(self, axis_size: int, in_batched: list, args: list):
        name = getattr(self.rule, "__name__", "<unnamed rule>")
        batched_tree = tree_unflatten(self.in_tree, list(in_batched))
        out, out_batched = self.rule(axis_size, list(batched_tree), *tree_unflatten(self.in_tree, list(args)))
        outs, tree = tree_flatten(out)
        flags, flag_tree = tree_flatten(out_batched)
        if flag_tree != tree:
            raise ValueError(
                f"structure of output value and output batching specification returned by custom vmap "
                f"rule ({name}) do not match.\nOutput values: {tree}\nBatching spec: {flag_tree}")
        if tree != self.out_tree:
            raise ValueError(
                f"structure of output returned by custom vmap rule ({name}) does not match that of the "
                f"original custom-vmapped function.\nOriginal output: {self.out_tree}\nRule output: {tree}")
        return outs, [bool(b) for b in flags]


def _impl(xp, *bufs, fun, rule, n_consts):
    return _run(fun, xp, list(bufs))


def _abstract(*avals, fun, rule, n_consts):
    return [v.aval for v in fun.jaxpr.outvars]


custom_vmap_call_p = Primitive("custom_vmap_call", _impl, _abstract, multiple_results=True,
                               family="higher-order")


def _batch(axis_size, vals, dims, *, fun, rule, n_consts):
    if any(d is not None for d in dims[:n_consts]):
        raise NotImplementedError(
            "custom_vmap: the function closes over a value that this vmap batches; its rule "
            "cannot see it. Pass the value as an argument of the custom_vmap function instead.")
    args = [v if d is None else moveaxis(v, d, 0) for v, d in zip(vals[n_consts:], dims[n_consts:])]
    outs, out_batched = rule(axis_size, [d is not None for d in dims[n_consts:]], args)
    outs = [_as_array(o) for o in outs]
    for o, b, av in zip(outs, out_batched, _abstract(fun=fun, rule=rule, n_consts=n_consts)):
        want = ((axis_size,) if b else ()) + av.shape
        if tuple(get_aval(o).shape) != want:
            raise ValueError(
                f"custom vmap rule ({getattr(rule.rule, '__name__', '<unnamed rule>')}) returned an "
                f"output of shape {tuple(get_aval(o).shape)} marked {'batched' if b else 'unbatched'}; "
                f"expected {want} (the function's output shape {av.shape}"
                f"{f' with the batch axis of size {axis_size} first' if b else ''})")
    return outs, [0 if b else None for b in out_batched]


class _JVPRule:
    """The batching rule of a custom_vmap function's JVP: the JVP of the user's rule.  A
    primal and its tangent are brought to the same batched-ness (broadcasting the unbatched
    one), so the rule runs once on the primals and is differentiated along the tangents."""

    def __init__(self, rule: Callable, n_args: int) -> None:
        self.rule, self.n_args = rule, n_args

    def __call__(self, axis_size: int, in_batched: list, args: list):
        n = self.n_args
        prim_b, tan_b = in_batched[:n], in_batched[n:]
        both = [p or t for p, t in zip(prim_b, tan_b)]
        args = [bdim_to_front(a, None, axis_size) if want and not had else a
                for a, want, had in zip(args, both + both, in_batched)]
        primals, tangents = args[:n], args[n:]
        out_flags: list = []

        def on_primals(*ps):
            outs, flags = self.rule(axis_size, both, list(ps))
            out_flags.append(flags)
            return outs

        program, consts = _trace(on_primals, [get_aval(p) for p in primals], "custom_vmap rule")
        outs, t_outs = _jvp_of(program, consts + primals, [None] * len(consts) + tangents)
        t_outs = [zeros_like(o) if t is None else t for o, t in zip(outs, t_outs)]
        return list(outs) + list(t_outs), out_flags[-1] * 2


def _jvp(primals, tangents, *, fun, rule, n_consts):
    args, arg_t = list(primals[n_consts:]), list(tangents[n_consts:])
    if any(t is not None for t in tangents[:n_consts]):
        raise NotImplementedError(
            "custom_vmap: differentiating with respect to a value the function closes over is not "
            "supported; pass the value as an argument of the custom_vmap function.")
    arg_t = [zeros_like(p) if t is None else t for p, t in zip(args, arg_t)]
    n = len(args)
    consts = list(primals[:n_consts])

    def flat_jvp(*xs):
        outs, t_outs = _jvp_of(fun, consts + list(xs[:n]), [None] * n_consts + list(xs[n:]))
        return list(outs) + [zeros_like(o) if t is None else t for o, t in zip(outs, t_outs)]

    program, jvp_consts = _trace(flat_jvp, [get_aval(x) for x in args + arg_t], "custom_vmap jvp")
    outs = custom_vmap_call_p.bind(*jvp_consts, *args, *arg_t, fun=program, rule=_JVPRule(rule, n),
                                   n_consts=len(jvp_consts))
    k = len(outs) // 2
    return list(outs[:k]), list(outs[k:])


def _transpose(cts, *args, fun, rule, n_consts):
    raise ValueError(
        "Linearization failed: reverse-mode differentiation (grad, vjp, jacrev) of a "
        "custom_vmap function is not supported, as in JAX. Give it a reverse-mode rule by "
        "wrapping it in fgrad.custom_vjp (outside the custom_vmap), or use forward mode "
        "(jvp, jacfwd).")


defjvp_rule(custom_vmap_call_p, _jvp)
deflinear_in(custom_vmap_call_p, _transpose)
defbatch(custom_vmap_call_p, _batch)

__all__ = ["custom_vmap", "custom_vmap_call_p"]
