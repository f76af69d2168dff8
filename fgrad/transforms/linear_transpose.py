"""`linear_transpose`: the transpose of a linear function, as JAX's ``jax.linear_transpose``.

The function is traced once to a program and the program is run backwards
(`transforms.transpose.backward_pass`), so only primitives with a transpose rule may appear
on the path from the inputs to the outputs: a non-linear function raises an error instead of
being silently linearized.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

from ..core.array import ShapeDtypeStruct, ShapedArray, get_aval
from ..core.constants import zeros, zeros_like
from ..core.ir import Literal
from ..core.narrow_floats import dtype_kind
from ..core.trace import new_trace
from ..ops.control_flow import _linear_carries
from ..ops.elementwise import convert_element_type
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from .staging import StagingTrace
from .transpose import backward_pass


def _aval_of(x) -> ShapedArray:
    """Shape and dtype of an array, a Python scalar or a ``ShapeDtypeStruct``."""
    if isinstance(x, ShapeDtypeStruct):
        return ShapedArray(tuple(x.shape), x.dtype)
    return get_aval(x)


def linear_transpose(fun: Callable, *primals: Any, reduce_axes: tuple = ()) -> Callable:
    """The transpose of the linear function ``fun``: ``t(ct)`` returns, as a tuple matching
    ``primals``, the cotangents ``v`` with ``<fun(u), ct> = <u, v>`` for every ``u``.
    ``primals`` give only the inputs' shapes and dtypes (arrays or ``ShapeDtypeStruct``).
    A Python scalar cotangent takes the output's dtype; an array cotangent must have the
    output's shape and dtype (``TypeError`` otherwise, as JAX).  A ``fun`` that is not
    linear in its inputs raises ``NotImplementedError`` naming the primitive.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> t = fgrad.linear_transpose(lambda x: 2.0 * x.sum(), fnp.zeros(3))
        >>> t(1.0)
        (Array([2., 2., 2.], dtype=float64),)
    """
    if reduce_axes:
        raise NotImplementedError("linear_transpose: reduce_axes is not supported (nor by JAX any more)")
    flat_primals, in_tree = tree_flatten(primals)
    in_avals = [_aval_of(p) for p in flat_primals]
    out_trees = []

    def flat_fun(*flat_args):
        out = fun(*tree_unflatten(in_tree, list(flat_args)))
        flat_out, out_tree = tree_flatten(out)
        out_trees.append(out_tree)
        return flat_out

    # trace to a program whose constants (closed-over values, tracers of an enclosing
    # transform included) are constvars: backward_pass treats only invars as linear inputs
    with new_trace(StagingTrace, "linear_transpose", partial=True) as staging:
        args = [staging.new_arg(a) for a in in_avals]
        jaxpr, consts = staging.to_jaxpr(list(flat_fun(*args)))
    out_tree = out_trees[0]
    out_avals = [v.aval if hasattr(v, "aval") else get_aval(v) for v in jaxpr.outvars]
    check_linear(jaxpr, [True] * len(jaxpr.invars))

    def transposed(out_cotangent: Any) -> tuple:
        flat_cts, ct_tree = tree_flatten(out_cotangent)
        if ct_tree != out_tree:
            raise TypeError(f"linear_transpose: cotangent tree {ct_tree} does not match the "
                            f"function's output tree {out_tree}")
        cts = [_check_cotangent(ct, aval) for ct, aval in zip(flat_cts, out_avals, strict=True)]
        cts_in = backward_pass(jaxpr, consts, cts)
        # zero cotangents for inputs the output does not use, placed like the cotangent
        like = next((c for c in cts if not isinstance(c, (bool, int, float, complex))), None)
        flat_in = [_zeros(like, a) if c is None else _cast(c, a.dtype)
                   for c, a in zip(cts_in, in_avals, strict=True)]
        return tuple(tree_unflatten(in_tree, flat_in))

    return transposed


def _check_cotangent(ct, aval):
    if isinstance(ct, (bool, int, float, complex)):  # weak where the output is (JAX)
        return convert_element_type(ct, aval.dtype, weak_type=aval.weak_type)
    ct_aval = get_aval(ct)
    if ct_aval.shape != aval.shape or ct_aval.dtype != aval.dtype:
        raise TypeError(f"linear_transpose: the cotangent has type {ct_aval.dtype}{list(ct_aval.shape)} "
                        f"but the function's output has type {aval.dtype}{list(aval.shape)}; pass a "
                        "cotangent of the output's shape and dtype")
    return ct


def _zeros(like, aval):
    if like is None:
        return zeros(tuple(aval.shape), aval.dtype)
    return zeros_like(like, dtype=aval.dtype, shape=tuple(aval.shape))


def _cast(ct, dt):
    if get_aval(ct).dtype == dt or dtype_kind(np.dtype(dt)) not in "fc":
        return ct
    return convert_element_type(ct, dt)


# inputs of these primitives that must not be linear (a divisor, a predicate or index)
_NONLINEAR_OPERANDS = {"div": (1,), "select_n": (0,)}


def check_linear(jaxpr, linear: list) -> None:
    """Raise ``NotImplementedError`` unless ``jaxpr`` is linear in the inputs marked in
    ``linear``: every equation reading a value that depends on them has a transpose rule, a
    bilinear one (``mul``, ``dot_general``) reads one such operand, a divisor or predicate
    none, and the bodies of ``scan``, ``cond`` and nested ``jit`` calls are linear in the
    operands that are (the transposes of control flow differentiate their bodies at zero,
    which is their transpose only for a linear body: a nonlinear one must not get there).

    Example::

        >>> import fgrad
        >>> check_linear(fgrad.make_jaxpr(lambda x: 2.0 * x)(1.0).jaxpr, [True])
        >>> try:
        ...     check_linear(fgrad.make_jaxpr(lambda x: x * x)(1.0).jaxpr, [True])
        ... except NotImplementedError as e:
        ...     print(str(e)[:47])
        linear_transpose: the function is not linear in
    """
    lin = {id(v) for v, m in zip(jaxpr.invars, linear) if m}
    for e in jaxpr.eqns:
        mask = [type(v) is not Literal and id(v) in lin for v in e.invars]
        if not any(mask):
            continue
        name = e.prim.name
        kind = e.prim.declared.get("kind")
        bad = e.prim.transpose is None or (kind == "bilinear" and sum(mask) > 1) or any(
            mask[i] for i in _NONLINEAR_OPERANDS.get(name, ()) if i < len(mask))
        if bad:
            raise NotImplementedError(
                f"linear_transpose: the function is not linear in its inputs (primitive "
                f"'{name}' applied nonlinearly to them); transpose a linear function, or use "
                f"fgrad.vjp to differentiate a nonlinear one")
        _check_nested(e, mask)
        lin.update(id(v) for v in e.outvars)


def _check_nested(e, mask: list) -> None:
    """`check_linear` on the bodies of control flow and nested ``jit`` calls."""
    name, params = e.prim.name, e.params
    if name == "jit" and "closed" in params:
        check_linear(params["closed"].jaxpr, mask)
    elif name == "cond":
        for branch in params["branches"]:
            check_linear(branch.jaxpr, [False] * branch.n_consts + mask[1:])
    elif name == "scan":
        body = params["body"]
        n_c, n_car = params["n_consts"], params["n_carry"]
        # a carry is linear when its initial value or its update depends on the inputs
        carry = _linear_carries(body.jaxpr, mask[:n_c], mask[n_c:n_c + n_car], mask[n_c + n_car:])
        check_linear(body.jaxpr, [False] * body.n_consts + mask[:n_c] + carry + mask[n_c + n_car:])
