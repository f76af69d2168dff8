"""Equation parameters as JAX prints them: for each primitive, the names, values and order
JAX's printed programs show (``dot_general[dimension_numbers=(([1], [0]), ([], []))
preferred_element_type=float64]``), computed from fgrad's own parameters.

Example::

    >>> display("reduce_sum", {"axes": (0,)})
    [('axes', (0,)), ('out_sharding', None)]
"""

from __future__ import annotations

from typing import Any, Callable, Sequence

import numpy as np

_RULES: dict[str, Callable[[dict, list], dict]] = {}


# how fgrad evaluates an equation for JAX's face, which JAX's printed programs do not show:
# ``xla_zeros`` (the signs of zero parts of complex results, `fgrad.ops.elementwise.XLA_ZERO_SIGNS`)
# and ``xla`` (XLA's CPU algorithm of a real function, `fgrad.ops.xla_math`)
_HIDDEN = frozenset({"xla_zeros", "xla"})


def rule(*names: str):
    """Register ``fn(params, out_avals) -> printed params`` for the primitives ``names``.

    Example::

        >>> @rule("doc_scale")
        ... def _doc_scale(p, outs):
        ...     return {"factor": p["k"]}
        >>> display("doc_scale", {"k": 2})
        [('factor', 2)]
    """
    def register(fn):
        for n in names:
            _RULES[n] = fn
        return fn
    return register


def display(name: str, params: dict, out_avals: Sequence = ()) -> list[tuple[str, Any]]:
    """``[(name, value)]``: the parameters JAX prints for primitive ``name`` (sorted, but
    ``name=`` first as JAX puts it); ``out_avals`` are the equation's result types.

    Example::

        >>> display("transpose", {"permutation": (1, 0)})
        [('permutation', (1, 0))]
    """
    fn = _RULES.get(name)
    params = {k: v for k, v in params.items() if k not in _HIDDEN}
    shown = params if fn is None else fn(params, list(out_avals))
    keys = sorted(shown)
    if "name" in shown:
        keys.remove("name")
        keys.insert(0, "name")
    return [(k, shown[k]) for k in keys]


class _Name(str):
    """A dtype's or function's name, printed bare (``float32``, ``<lambda>``)."""


def _dtype(d) -> _Name:
    return _Name(np.dtype(d).name)


@rule("reduce_sum")
def _reduce_sum(p, outs):
    return {"axes": tuple(p.get("axes", ())), "out_sharding": None}


@rule("reduce_max", "reduce_min", "reduce_prod", "reduce_and", "reduce_or", "reduce_xor")
def _reduce(p, outs):
    return {"axes": tuple(p.get("axes", ()))}


@rule("argmax", "argmin")
def _arg_reduce(p, outs):
    dtype = outs[0].dtype if outs else p["index_dtype"]  # (narrowed when x64 is off)
    return {"axes": (p["axis"],), "index_dtype": _dtype(dtype)}


@rule("div")
def _div(p, outs):  # ``by_reciprocal`` is how XLA evaluates JAX's div there: JAX shows no parameter
    return {}


@rule("broadcast_in_dim")
def _broadcast_in_dim(p, outs):  # the shape is the result's type; () dimensions not shown
    dims = tuple(p.get("broadcast_dimensions", ()))
    return {"broadcast_dimensions": dims} if dims else {}


@rule("reshape")
def _reshape(p, outs):
    return {"dimensions": None, "new_sizes": tuple(p["new_sizes"]), "sharding": None}


@rule("convert_element_type")
def _convert(p, outs):
    return {"new_dtype": _dtype(p["new_dtype"]), "weak_type": bool(p.get("weak_type", False))}


@rule("dot_general")
def _dot_general(p, outs):
    (lc, rc), (lb, rb) = p["dimension_numbers"]
    shown = {"dimension_numbers": ((list(lc), list(rc)), (list(lb), list(rb)))}
    preferred = p.get("preferred_element_type")
    if preferred is None and outs:  # jnp.dot/matmul/einsum ask for the result's dtype
        preferred = outs[0].dtype
    if preferred is not None:
        shown["preferred_element_type"] = _dtype(preferred)
    if p.get("precision") is not None:
        shown["precision"] = p["precision"]
    return shown


@rule("jit")
def _jit(p, outs):
    closed = p.get("closed")
    return {"name": _Name(getattr(closed, "fun_name", None) or getattr(closed, "name", "jit")),
            "jaxpr": closed}


@rule("cond")
def _cond(p, outs):
    return {"branches": tuple(p["branches"])}


@rule("scan")
def _scan(p, outs):
    return {"jaxpr": p["body"], "length": p["length"], "num_carry": p["n_carry"],
            "num_consts": p["n_consts"], "reverse": p["reverse"], "unroll": p.get("unroll", 1)}


@rule("while")
def _while(p, outs):
    return {"body_jaxpr": p["body"], "body_nconsts": p["n_bc"], "cond_jaxpr": p["cond"],
            "cond_nconsts": p["n_cc"]}


def _fn_name(f) -> _Name:
    """The user's function name of a traced rule (fgrad names them ``custom_jvp rule f``)."""
    name = getattr(f, "name", None) or getattr(f, "__name__", None) or "fun"
    return _Name(name.rsplit(" ", 1)[-1])


@rule("custom_vjp_call")
def _custom_vjp(p, outs):
    fun = p["fun"]
    lazy = p.get("lazy_vjp")  # rules still Python (deferred until differentiated)
    fwd = p.get("fwd") or (lazy and lazy.fwd)
    bwd = p.get("bwd") or (lazy and getattr(lazy.bwd, "__wrapped__", lazy.bwd))
    shown = {"name": _fn_name(fun), "call_jaxpr": fun, "fwd": _fn_name(fwd),
             "bwd": _fn_name(bwd), "symbolic_zeros": p.get("symbolic_zeros", False)}
    n_consts = p.get("n_consts") or (0,)
    if n_consts[0]:
        shown["num_consts"] = n_consts[0]
    return shown


@rule("custom_jvp_call")
def _custom_jvp(p, outs):
    fun = p["fun"]
    shown = {"name": _fn_name(fun), "call_jaxpr": fun,
             "jvp": _fn_name(p.get("jvp") or getattr(p.get("lazy_jvp"), "__wrapped__", p.get("lazy_jvp"))),
             "symbolic_zeros": p.get("symbolic_zeros", False)}
    if p.get("n_fun_consts"):
        shown["num_consts"] = p["n_fun_consts"]
    return shown


__all__ = ["display", "rule"]
