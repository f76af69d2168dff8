"""`linear_call`: a function linear in some arguments, with a user-supplied transpose
(``jax.custom_derivatives.linear_call``).

``linear_call(fun, fun_transpose, residual_args, linear_args)`` computes
``fun(residual_args, linear_args)``; it is linear in ``linear_args``, and reverse mode
transposes it with ``fun_transpose(residual_args, ct)`` instead of differentiating ``fun``.
Both functions are traced into programs (closed-over values become operands) and bound as one
`linear_call` primitive: its JVP is the call on the tangents (the residuals must not carry
tangents, as in JAX), its transpose runs the transpose program, its batching rule vmaps both
programs.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.array import get_aval
from ..core.constants import zeros, zeros_like
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule, deflinear_in
from ..ops.shape import bdim_to_front
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from .batching import vmap
from .custom import _as_array
from .custom_call import _run, _trace


def linear_call(fun: Callable, fun_transpose: Callable, residual_args: Any, linear_args: Any) -> Any:
    """``fun(residual_args, linear_args)``, linear in ``linear_args``, transposed by
    ``fun_transpose(residual_args, ct)`` (which returns cotangents shaped like
    ``linear_args``) in reverse mode.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.custom_derivatives import linear_call
        >>> def scale(a, x):
        ...     return a * x
        >>> def scale_t(a, ct):
        ...     return 10.0 * ct  # a deliberately different transpose: reverse mode uses it
        >>> f = lambda x: linear_call(scale, scale_t, fnp.asarray(2.0), x)
        >>> f(fnp.asarray(3.0)), fgrad.grad(f)(fnp.asarray(3.0))
        (Array(6., dtype=float64, weak_type=True), Array(10., dtype=float64, weak_type=True))
    """
    res, res_tree = tree_flatten(residual_args)
    lin, lin_tree = tree_flatten(linear_args)
    res = [_weak_as_array(x) for x in res]
    lin = [_weak_as_array(x) for x in lin]
    avals = [get_aval(x) for x in res + lin]
    n_res = len(res)
    out_trees: list = []

    def fun_flat(*xs):
        out = fun(tree_unflatten(res_tree, list(xs[:n_res])), tree_unflatten(lin_tree, list(xs[n_res:])))
        leaves, tree = tree_flatten(out)
        out_trees.append(tree)
        return leaves

    name = getattr(fun, "__name__", "function")
    fun_p, fun_consts = _trace(fun_flat, avals, f"linear_call {name}")
    out_tree = out_trees[-1]
    out_avals = [v.aval for v in fun_p.jaxpr.outvars]

    def transpose_flat(*xs):
        ct = tree_unflatten(out_tree, list(xs[n_res:]))
        cts = fun_transpose(tree_unflatten(res_tree, list(xs[:n_res])), ct)
        leaves, tree = tree_flatten(cts)
        if tree != lin_tree:
            raise TypeError(
                f"linear_call: the transpose {getattr(fun_transpose, '__name__', fun_transpose)!r} "
                f"returned a value of structure {tree}; it must match the linear arguments' "
                f"structure {lin_tree}")
        for c, x in zip(leaves, lin):
            if get_aval(c).shape != get_aval(x).shape:
                raise ValueError(f"linear_call: the transpose returned a cotangent of shape "
                                 f"{get_aval(c).shape} for a linear argument of shape {get_aval(x).shape}")
        return leaves

    tr_p, tr_consts = _trace(transpose_flat, avals[:n_res] + out_avals,
                             f"linear_call transpose of {name}")
    outs = linear_call_p.bind(*fun_consts, *tr_consts, *res, *lin, fun=fun_p, transpose=tr_p,
                              counts=(len(fun_consts), len(tr_consts), n_res))
    return tree_unflatten(out_tree, list(outs))


# an argument as an array; a Python number weakly typed, as JAX's: ``linear_call(f, t, 3., 9.)``
# computes with ``~float32`` values
_weak_as_array = _as_array


def _split(args, counts):
    nf, nt, nr = counts
    return (list(args[:nf]), list(args[nf:nf + nt]), list(args[nf + nt:nf + nt + nr]),
            list(args[nf + nt + nr:]))


def _impl(xp, *bufs, fun, transpose, counts):
    fc, _, res, lin = _split(bufs, counts)
    return _run(fun, xp, fc + res + lin)


def _abstract(*avals, fun, transpose, counts):
    return [v.aval for v in fun.jaxpr.outvars]


linear_call_p = Primitive("linear_call", _impl, _abstract, multiple_results=True, family="higher-order")


def _jvp(primals, tangents, *, fun, transpose, counts):
    k = sum(counts)
    if any(t is not None for t in tangents[:k]):
        raise NotImplementedError(
            "linear_call: differentiating with respect to the residual arguments (or values the "
            "functions close over) is not supported, as in JAX; the call is linear only in its "
            "linear arguments.")
    outs = linear_call_p.bind(*primals, fun=fun, transpose=transpose, counts=counts)
    lin = primals[k:]
    t_lin = [zeros_like(p) if t is None else t for p, t in zip(lin, tangents[k:])]
    t_outs = linear_call_p.bind(*primals[:k], *t_lin, fun=fun, transpose=transpose, counts=counts)
    return outs, t_outs


def _transpose(cts, *args, fun, transpose, counts):
    _, tc, res, lin = _split(args, counts)
    cts = [zeros(v.aval.shape, v.aval.dtype) if c is None else c for c, v in zip(cts, fun.jaxpr.outvars)]
    ct_lin = transpose(*tc, *res, *cts)
    return [None] * sum(counts) + list(ct_lin)


def _batch(axis_size, vals, dims, *, fun, transpose, counts):
    vals = [bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims)]
    fc, tc, res, lin = _split(vals, counts)

    def fun_b(r, xs):
        return vmap(lambda *a: list(fun(*a)))(*r[0], *r[2], *xs)

    def transpose_b(r, ct):
        return vmap(lambda *a: list(transpose(*a)))(*r[1], *r[2], *ct)

    outs = linear_call(fun_b, transpose_b, (fc, tc, res), lin)
    return list(outs), [0] * len(outs)


defjvp_rule(linear_call_p, _jvp)
deflinear_in(linear_call_p, _transpose)
defbatch(linear_call_p, _batch)

__all__ = ["linear_call", "linear_call_p"]
