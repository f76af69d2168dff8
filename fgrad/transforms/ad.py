"""Automatic differentiation: forward mode (jvp), linearize, and reverse mode (vjp, grad).

Forward mode is a trace whose tracers carry ``(primal, tangent)``; each primitive's ``jvp``
rule maps both.  A tangent of ``None`` is a symbolic zero: rules skip it, and a result with
a zero tangent leaves the trace as a plain value.

Reverse mode is *linearize + transpose*: `linearize` runs the jvp trace with its tangent
inputs staged by a partial evaluator (`StagingTrace(partial=True)`), so the primal runs
eagerly and the tangent computation is recorded as a linear jaxpr; `vjp` transposes that
jaxpr with `backward_pass`.  There is one derivative table (the jvp rules) plus transpose
rules for the few linear primitives.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from ..backends import _BY_TYPE, NUMPY
from ..core.narrow_floats import dtype_kind

from ..core.array import ArrayImpl, Tracer, get_aval, is_float0, wrap
from ..core.constants import array_argument, host_array, ones_like
from ..core.ir import eval_jaxpr
from ..core.trace import EVAL_TRACE, current, new_trace, origin, state
from ..ops.elementwise import convert_element_type
from ..ops.shape import reshape
from ..ops.structural import split
from ..tree_util import flatten_arrays as tree_flatten, map_arrays as tree_map, tree_unflatten
from .chunking import check_chunking, map_basis
from .jvp_trace import (  # noqa: F401 (JVPTrace/JVPTracer/to_concrete re-exported)
    ForwardTrace, JVPTrace, JVPTracer, forward_mark_taken, is_float, linearize_flat, strip_aux, to_concrete,
    zeros_like_tangent)
from .tape import tape_vjp
from .staging import StagingTrace
from .transpose import backward_pass

TAPE_ENABLED = True  # the cached-tape fast path for top-level reverse mode


def _check_tangent(p, t, i):
    if is_float0(t):  # JAX's tangent type of an integer/bool primal (always zero)
        ap = get_aval(p)
        if dtype_kind(ap.dtype) not in "biu" or tuple(np.shape(t)) != ap.shape:
            raise TypeError(f"jvp: argument {i} has a float0 tangent of shape {np.shape(t)}, which is "
                            f"only valid for an integer/bool primal of that shape; the primal is "
                            f"{ap.str_short()}")
        return
    ap, at = get_aval(p), get_aval(t)
    if ap.shape != at.shape:
        raise ValueError(
            f"jvp: primal and tangent arguments must have equal shapes; argument {i} has "
            f"primal shape {ap.shape} and tangent shape {at.shape}"
        )
    if dtype_kind(ap.dtype) in "fc" and ap.dtype != at.dtype and not at.weak_type:
        raise TypeError(
            f"jvp: primal and tangent arguments must have equal dtypes; argument {i} has "
            f"primal dtype {ap.dtype} and tangent dtype {at.dtype}"
        )
    if dtype_kind(ap.dtype) in "biu" and dtype_kind(at.dtype) not in "biu":
        # JAX wants a float0 tangent here; fgrad has no float0 and takes a zero tangent of
        # the primal's own dtype (e.g. `fnp.zeros_like(x)`)
        raise TypeError(
            f"jvp: argument {i} has an integer/bool primal ({ap.dtype}), whose tangent is "
            f"always zero, but got a {at.dtype} tangent. Pass `fnp.zeros_like(x)`, or convert "
            "the primal to float to differentiate with respect to it."
        )


_as_array = array_argument  # a Python scalar is weakly typed, as in JAX


def _staging() -> bool:
    """Whether a program is being staged (jit, make_jaxpr) below the current level: scalars
    then stay scalars, staged as literals, as JAX stages them (a device program makes what it
    builds from them on its device); elsewhere they become arrays placed on the device (no
    host-to-device copy under vmap, nothing on another device)."""
    t = state.trace
    while t is not None and t is not EVAL_TRACE:
        if type(t) is StagingTrace and not t.partial:
            return True
        t = getattr(t, "parent", None)
    return False


def _scalar_or_array(x):
    """``x`` for a derivative program: while staging a Python or NumPy scalar stays a
    scalar, which is staged as a literal (JAX's ``mul 1.0:f64[] b``, not a captured
    constant); otherwise `_as_array`."""
    if _staging() and (type(x) in (int, float, complex) or (
            isinstance(x, np.generic) and x.dtype.kind in "iufc")):
        return x
    return _as_array(x)


def _unit_seed(out, av):
    """Reverse mode's cotangent 1 for the scalar output ``out``: while staging JAX's literal
    (a Python scalar when ``out`` is weakly typed, a NumPy scalar of its dtype otherwise);
    otherwise ones on ``out``'s device."""
    if not _staging():
        return ones_like(out)
    kind = dtype_kind(av.dtype)
    if av.weak_type and kind in "fc" and np.dtype(av.dtype) == get_aval(1.0 if kind == "f" else 1j).dtype:
        return 1.0 if kind == "f" else complex(1.0)
    return av.dtype.type(1)


def jvp(fun: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any],
        has_aux: bool = False) -> tuple[Any, ...]:
    """Forward-mode derivative: ``(fun(*primals), J·tangents)``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.jvp(fnp.sin, (0.0,), (1.0,))
        (Array(0., dtype=float64, weak_type=True), Array(1., dtype=float64, weak_type=True))
    """
    if not isinstance(primals, (tuple, list)) or not isinstance(tangents, (tuple, list)):
        raise TypeError("jvp: primals and tangents must be tuples or lists of arguments")
    flat_p, tree_p = tree_flatten(tuple(primals))
    flat_t, tree_t = tree_flatten(tuple(tangents))
    if tree_p != tree_t or type(primals) is not type(tangents):  # JAX: a tuple is no list
        raise TypeError("primal and tangent arguments to jax.jvp must have the same tree structure; "
                        f"primals have tree structure {tree_flatten(primals)[1]} whereas tangents "
                        f"have tree structure {tree_flatten(tangents)[1]}.")
    flat_p = [_as_array(p) for p in flat_p]
    for i, (p, t) in enumerate(zip(flat_p, flat_t)):
        _check_tangent(p, t, i)
    with forward_mark_taken() as jvp_cls, new_trace(jvp_cls, origin(f"jvp of {_fname(fun)}")) as trace:
        ins = [JVPTracer(trace, p, _tangent_like(t, p)) if is_float(p) else p for p, t in zip(flat_p, flat_t)]
        out = fun(*tree_unflatten(tree_p, ins))
        if has_aux:
            out, aux = out
            aux = strip_aux(aux, trace)
        flat_o, tree_o = tree_flatten(out)
        p_out, t_out, _ = trace.split(flat_o)
        t_out = [zeros_like_tangent(p) if t is None else t for p, t in zip(p_out, t_out)]
    t_out = [_weak_as(t, p) for p, t in zip(p_out, t_out)]
    res = (tree_unflatten(tree_o, p_out), tree_unflatten(tree_o, t_out))
    return res + (aux,) if has_aux else res


def _tangent_like(t, p):
    """A tangent array with the primal's dtype (Python-scalar tangents are weak)."""
    if isinstance(t, (Tracer, ArrayImpl)):
        return t
    if _staging() and type(t) in (int, float, complex) and get_aval(p).weak_type \
            and get_aval(t).dtype == get_aval(p).dtype:
        return t  # staged as a literal, as JAX stages it (`mul 1.0:f64[] c`)
    return _weak_as(host_array(t, get_aval(p).dtype), p)


def _weak_if(t, weak: bool):
    """``t`` weakly typed iff ``weak`` (JAX's Jacobians take the weak type of the primal leaf
    that each block belongs to)."""
    return t if get_aval(t).weak_type == weak else convert_element_type(t, get_aval(t).dtype,
                                                                         weak_type=weak)


def _weak_as(t, p, real_outputs: bool = False):
    """``t`` (a tangent or cotangent of ``p``) weakly typed exactly when ``p`` is, as in JAX,
    where a derivative's abstract value is its primal's: ``grad(f)(1.0)`` is weak, like 1.0.
    But a cotangent of a complex ``p`` that reached it from ``real_outputs`` only is strong:
    JAX's transposes of ``real``/``imag``/``abs`` build it from a strong zero, so
    ``grad(lambda z: jnp.real(z) ** 2)(3. + 4j)`` is a strong complex64 (the "Advanced
    automatic differentiation" tutorial prints it), while holomorphic ones stay weak."""
    if t is None or p is None:
        return t
    at, ap = get_aval(t), get_aval(p)
    weak = ap.weak_type and not (real_outputs and dtype_kind(ap.dtype) == "c")
    if at.weak_type == weak or at.dtype != ap.dtype or at.shape != ap.shape:
        return t
    return convert_element_type(t, at.dtype, weak_type=weak)


def _fname(f) -> str:
    return getattr(f, "__name__", type(f).__name__)


def _eval_linear(jaxpr, consts, tangents, out_primals):
    outvars = jaxpr.outvars
    live = [v for v in outvars if v is not None]
    jaxpr.outvars = live
    try:
        vals = iter(eval_jaxpr(jaxpr, consts, tangents))
    finally:
        jaxpr.outvars = outvars
    return [zeros_like_tangent(p) if v is None else next(vals) for v, p in zip(outvars, out_primals)]


def _transpose_linear(jaxpr, consts, cts, in_primals):
    outvars = jaxpr.outvars
    live_cts = [c for v, c in zip(outvars, cts) if v is not None]
    jaxpr.outvars = [v for v in outvars if v is not None]
    try:
        cts_in = backward_pass(jaxpr, consts, live_cts)
    finally:
        jaxpr.outvars = outvars
    return [zeros_like_tangent(p) if c is None else c for c, p in zip(cts_in, in_primals)]


def linearize(fun: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple[Any, ...]:
    """``(fun(*primals), f_jvp)`` where ``f_jvp(*tangents)`` evaluates the JVP at the
    linearization point without re-running ``fun``; with ``has_aux`` ``fun`` returns
    ``(out, aux)`` and the result is ``(out, f_jvp, aux)``, as JAX's.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> y, f_jvp = fgrad.linearize(fnp.sin, 0.0)
        >>> f_jvp(2.0)
        Array(2., dtype=float64, weak_type=True)
    """
    flat_p, tree_p = tree_flatten(primals)
    flat_p = [_as_array(p) for p in flat_p]
    out_tree = []

    def flat_fun(ins):
        return _flat_outputs(fun(*tree_unflatten(tree_p, ins)), has_aux, out_tree)

    p_out, jaxpr, consts, mask, aux = linearize_flat(
        flat_fun, flat_p, origin(f"linearize of {_fname(fun)}"), has_aux=has_aux, forward=True
    )

    def f_jvp(*tangents):
        flat_t, tree_t = tree_flatten(tangents)
        if tree_t != tree_p:
            raise TypeError(f"linearized function expects tangents of structure {tree_p}, got {tree_t}")
        for i, (t, p) in enumerate(zip(flat_t, flat_p)):
            ap, at = get_aval(p), get_aval(t)
            if ap.shape != at.shape or (dtype_kind(ap.dtype) in "fc" and ap.dtype != at.dtype
                                        and not at.weak_type):
                raise ValueError(
                    "linearized function called on tangent values inconsistent with the original "
                    f"primal values: got tangent {at.str_short()} for primal {ap.str_short()} "
                    f"(argument leaf {i}); tangents must have their primal's shape and dtype"
                )
        ts = [_as_array(t) for t, m in zip(flat_t, mask) if m]
        t_out = _eval_linear(jaxpr, consts, ts, p_out)
        return tree_unflatten(out_tree[0], [_weak_as(t, p) for t, p in zip(t_out, p_out)])

    if has_aux:
        return tree_unflatten(out_tree[0], p_out), f_jvp, aux
    return tree_unflatten(out_tree[0], p_out), f_jvp


def vjp(fun: Callable[..., Any], *primals: Any, has_aux: bool = False,
        reduce_axes: Sequence[Any] = ()) -> tuple[Any, ...]:
    """``(fun(*primals), vjp_fun)`` where ``vjp_fun(ct)`` returns a tuple of cotangents,
    one per primal.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> y, f_vjp = fgrad.vjp(fnp.multiply, 2.0, 3.0)
        >>> f_vjp(1.0)
        (Array(3., dtype=float64, weak_type=True), Array(2., dtype=float64, weak_type=True))
    """
    _check_reduce_axes(reduce_axes)
    flat_p, tree_p = tree_flatten(primals)
    flat_p = [_as_array(p) for p in flat_p]
    out_tree = []

    def flat_fun(ins):
        return _flat_outputs(fun(*tree_unflatten(tree_p, ins)), has_aux, out_tree)

    where = origin(f"vjp of {_fname(fun)}")
    if state.trace is EVAL_TRACE and TAPE_ENABLED:
        # top level: cached per-op VJP programs on a tape (fgrad/transforms/tape.py)
        recorded = tape_vjp(flat_fun, flat_p, where, has_aux), None, None
    else:
        p_out, jaxpr, consts, mask, aux = linearize_flat(flat_fun, flat_p, where, has_aux)
        recorded = (p_out, None, mask, aux), jaxpr, consts
    return _vjp_result(flat_fun, flat_p, tree_p, out_tree[0], where, has_aux, *recorded)


def _flat_outputs(out, has_aux: bool, out_tree: list):
    """A differentiated function's result as `vjp`'s flat function returns it: the output's
    leaves (and ``aux`` with ``has_aux``), its structure appended to ``out_tree``."""
    if has_aux:
        if not isinstance(out, (tuple, list)) or len(out) != 2:
            raise TypeError("expected function with aux output to return a two-element tuple, but "
                            f"got type {type(out)} with value {out!r}")
        out, aux = out
    flat, t = tree_flatten(out)
    out_tree.append(t)
    return (flat, aux) if has_aux else flat


class _CotangentStructureError(ValueError, TypeError):
    """JAX raises ValueError for a cotangent of the wrong structure; fgrad raised TypeError
    before, so the error is both."""


def _float0_cotangent(c, p):
    """A ``float0`` cotangent (JAX's zero cotangent of an integer/bool output) as a zero of
    the output's dtype; it is valid only for such an output of its shape."""
    if not is_float0(c):
        return c
    ap = get_aval(p)
    if dtype_kind(ap.dtype) not in "biu" or tuple(np.shape(c)) != ap.shape:
        raise ValueError(
            "unexpected JAX type (e.g. shape/dtype) for argument to VJP function: got a float0 "
            f"cotangent of shape {tuple(np.shape(c))}, but expected {ap.str_short()} because the "
            f"corresponding output of the differentiated function had JAX type {ap.str_short()}")
    return np.zeros(ap.shape, ap.dtype)


def _check_reduce_axes(reduce_axes) -> None:
    if reduce_axes:
        raise NotImplementedError("reduce_axes argument to grad is deprecated")


def _vjp_result(flat_fun, flat_p, tree_p, tree_o, where, has_aux, tape_out, jaxpr, consts):
    """``vjp``'s result once ``flat_fun`` has run on ``flat_p`` (of structure ``tree_p``):
    ``tape_out`` is `tape_vjp`'s ``(p_out, backward, mask, aux)`` (``backward`` None when
    ``jaxpr``, ``consts`` hold `linearize_flat`'s linear program instead)."""
    p_out, tape_backward, mask, aux = tape_out
    diff_primals = [p for p, m in zip(flat_p, mask) if m]
    general = []

    def transpose(flat_ct):
        if tape_backward is not None:
            if state.trace is EVAL_TRACE and all(type(c) is ArrayImpl for c in flat_ct):
                cts = tape_backward(flat_ct)
                return [zeros_like_tangent(p) if c is None else c for c, p in zip(cts, flat_p)], True
            if not general:  # called under a transform (e.g. jacrev's vmap): linearize for real,
                # at the top level where `vjp` was called: its constants must be concrete, not
                # values of the transform that happens to call first (a loop body traced twice)
                with current(EVAL_TRACE):
                    general.append(linearize_flat(flat_fun, flat_p, where, has_aux))
            _, jx, cs, _, _ = general[0]
            return _transpose_linear(jx, cs, flat_ct, diff_primals), False
        return _transpose_linear(jaxpr, consts, flat_ct, diff_primals), False

    def vjp_fun(ct):
        flat_ct, tree_ct = tree_flatten(ct)
        if tree_ct != tree_o:
            raise _CotangentStructureError(
                f"unexpected tree structure: vjp function expects a cotangent of the output's "
                f"structure {tree_o}, got {tree_ct}"
            )
        flat_ct = [_float0_cotangent(c, p) for c, p in zip(flat_ct, p_out)]
        for c, p in zip(flat_ct, p_out):
            ac, ap = get_aval(c), get_aval(p)
            if ac.shape != ap.shape:
                raise ValueError(
                    f"vjp: cotangent shape {ac.shape} does not match the output's "
                    f"shape {ap.shape}"
                )
            if dtype_kind(ap.dtype) in "fc" and ac.dtype != ap.dtype and not ac.weak_type:
                raise ValueError(
                    f"vjp: unexpected cotangent dtype: got {ac.str_short()}, but expected "
                    f"{ap.str_short()} because the corresponding output of the differentiated "
                    f"function is {ap.str_short()}. Cast the cotangent (`.astype({ap.dtype.name})`)."
                )
        cts, full_list = transpose([_scalar_or_array(c) for c in flat_ct])
        real = all(dtype_kind(get_aval(o).dtype) != "c" for o in p_out)
        if full_list:
            return tree_unflatten(tree_p, [_weak_as(c, p, real) for c, p in zip(cts, flat_p)])
        it = iter(cts)
        full = [next(it) if m else zeros_like_tangent(p) for p, m in zip(flat_p, mask)]
        return tree_unflatten(tree_p, [_weak_as(c, p, real) for c, p in zip(full, flat_p)])

    out = tree_unflatten(tree_o, p_out)
    return (out, vjp_fun, aux) if has_aux else (out, vjp_fun)


def _check_callable(fun, name: str) -> None:
    if not callable(fun):
        raise TypeError(f"{name}: expected a callable value, got {fun!r}")


def _check_argnums(argnums, nargs, name):
    if isinstance(argnums, (int, np.integer)) and not isinstance(argnums, bool):
        nums = (int(argnums),)
    elif isinstance(argnums, (tuple, list)) and all(
            isinstance(a, (int, np.integer)) and not isinstance(a, bool) for a in argnums):
        nums = tuple(int(a) for a in argnums)
    else:
        raise TypeError(f"{name}: argnums must be an int or a tuple of ints, got {argnums!r}")
    for a in nums:
        if not -nargs <= a < nargs:
            raise TypeError(
                f"{name}: argnums={argnums!r} is out of range for a function called with "
                f"{nargs} positional argument(s)"
            )
    return tuple(a % nargs for a in nums)


def _split_args(args, argnums, name):
    nums = _check_argnums(argnums, len(args), name)
    dyn = tuple(args[i] for i in nums)

    def rebuild(new_dyn):
        a = list(args)
        for i, v in zip(nums, new_dyn):
            a[i] = v
        return a

    return dyn, rebuild


def _dtype_name(dt) -> str:
    return np.dtype(dt).name


def _check_input_dtypes_rev(tree, name: str, holomorphic: bool, allow_int: bool) -> None:
    """JAX's input rule for reverse mode (grad, value_and_grad, jacrev): inexact inputs;
    integers/bools only with ``allow_int``; complex only with ``holomorphic``."""
    for leaf in tree_flatten(tree)[0]:
        dt = get_aval(leaf).dtype
        if holomorphic:
            if dtype_kind(dt) != "c":
                raise TypeError(
                    f"{name} with holomorphic=True requires inputs with complex dtype, but got "
                    f"{_dtype_name(dt)}. Convert the input with `.astype(complex)`, or drop "
                    "holomorphic=True to differentiate a real function."
                )
        elif dtype_kind(dt) in "biu":
            if not allow_int:
                raise TypeError(
                    f"{name} requires real- or complex-valued inputs (input dtype that is a "
                    f"sub-dtype of np.inexact), but got {_dtype_name(dt)}. If you want to use "
                    "Boolean- or integer-valued inputs, use vjp or set allow_int to True "
                    "(or convert the input with `.astype(float)`, or differentiate with "
                    "respect to another argument via `argnums`)."
                )
        elif dtype_kind(dt) not in "fc":
            raise TypeError(
                f"{name} requires numerical-valued inputs (input dtype that is a sub-dtype of "
                f"np.bool_ or np.number), but got {_dtype_name(dt)}."
            )


def _check_output_dtypes_rev(tree, name: str, holomorphic: bool) -> None:
    """JAX's output rule for reverse mode: real floating outputs, or complex outputs with
    ``holomorphic=True`` (a complex output's "gradient" is ambiguous otherwise)."""
    for leaf in tree_flatten(tree)[0]:
        dt = get_aval(leaf).dtype
        if holomorphic:
            if dtype_kind(dt) != "c":
                raise TypeError(
                    f"{name} with holomorphic=True requires outputs with complex dtype, but got "
                    f"{_dtype_name(dt)}."
                )
        elif dtype_kind(dt) == "c":
            raise TypeError(
                f"{name} requires real-valued outputs (output dtype that is a sub-dtype of "
                f"np.floating), but got {_dtype_name(dt)}. For holomorphic differentiation, "
                "pass holomorphic=True. For differentiation of non-holomorphic functions "
                "involving complex outputs, use fgrad.vjp directly."
            )
        elif dtype_kind(dt) != "f":
            raise TypeError(
                f"{name} requires real-valued outputs (output dtype that is a sub-dtype of "
                f"np.floating), but got {_dtype_name(dt)}. For differentiation of functions "
                "with integer outputs, use fgrad.vjp directly."
            )


def _check_input_dtypes_fwd(tree, name: str, holomorphic: bool) -> None:
    """JAX's input rule for jacfwd: real floating inputs, complex only with holomorphic."""
    for leaf in tree_flatten(tree)[0]:
        dt = get_aval(leaf).dtype
        if holomorphic:
            if dtype_kind(dt) != "c":
                raise TypeError(
                    f"{name} with holomorphic=True requires inputs with complex dtype, but got "
                    f"{_dtype_name(dt)}. Convert the input with `.astype(complex)`."
                )
        elif dtype_kind(dt) != "f":
            raise TypeError(
                f"{name} requires real-valued inputs (input dtype that is a sub-dtype of "
                f"np.floating), but got {_dtype_name(dt)}. For holomorphic differentiation, "
                "pass holomorphic=True. For differentiation of non-holomorphic functions "
                "involving complex inputs or integer inputs, use fgrad.jvp directly "
                "(integer inputs: convert with `.astype(float)`)."
            )


def _check_output_dtypes_fwd(tree, name: str, holomorphic: bool) -> None:
    if holomorphic:
        _check_output_dtypes_rev(tree, name, True)


def value_and_grad(fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False,
                   holomorphic: bool = False, allow_int: bool = False,
                   reduce_axes: Sequence[Any] = ()) -> Callable[..., tuple[Any, Any]]:
    """Like `grad`, but returns ``(fun(*args), gradient)`` (``((value, aux), grad)`` with
    ``has_aux``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.value_and_grad(lambda x: (x ** 2).sum())(fnp.arange(3.0))
        (Array(5., dtype=float64), Array([0., 2., 4.], dtype=float64))
    """
    _check_callable(fun, "value_and_grad")
    _check_reduce_axes(reduce_axes)  # JAX: removed, NotImplementedError when passed
    # one differentiated argument, real inputs: `_tape_value_and_grad` at the top level
    fast = type(argnums) is int and not holomorphic

    def general(*args, **kwargs):
        name = f"grad of {_fname(fun)}"
        dyn, rebuild = _split_args(args, argnums, "grad")
        dyn = tree_map(_as_array, dyn)
        _check_input_dtypes_rev(dyn, "grad", holomorphic, allow_int)

        def f_dyn(*d):
            return fun(*rebuild(d), **kwargs)

        f_dyn.__name__ = _fname(fun)
        if has_aux:
            out, f_vjp, aux = vjp(f_dyn, *dyn, has_aux=True)
        else:
            (out, f_vjp), aux = vjp(f_dyn, *dyn), None
        return _grad_result(out, f_vjp, aux, name, argnums, has_aux, holomorphic)

    def value_and_grad_f(*args, **kwargs):
        if fast and state.trace is EVAL_TRACE and TAPE_ENABLED:
            res = _tape_value_and_grad(fun, args, kwargs, argnums, has_aux)
            if res is not None:
                return res
        return general(*args, **kwargs)

    value_and_grad_f.__name__ = f"value_and_grad_{_fname(fun)}"
    value_and_grad_f.__wrapped__ = fun
    return value_and_grad_f


def _grad_result(out, f_vjp, aux, name, argnums, has_aux, holomorphic):
    """``value_and_grad``'s result from ``vjp``'s: the output checked (a real scalar, or a
    complex one with ``holomorphic``) and pulled back with the cotangent 1."""
    av = get_aval(out) if not isinstance(out, (tuple, list, dict)) else None
    if av is None or av.shape != ():
        shape = av.shape if av is not None else type(out).__name__
        raise TypeError(
            f"Gradient only defined for scalar-output functions. Output of {name} had "
            f"shape: {shape}. Reduce it (e.g. `.sum()`), or use `vjp`/`jacrev` for "
            "non-scalar outputs."
        )
    _check_output_dtypes_rev(out, "grad", holomorphic)
    # cotangent 1 (1+0j for complex outputs): for a holomorphic f this gives f'(z)
    g = f_vjp(_unit_seed(out, av))
    g = g[0] if isinstance(argnums, int) else tuple(g)
    return ((out, aux), g) if has_aux else (out, g)

def _tape_value_and_grad(fun, args, kwargs, argnum: int, has_aux: bool):
    """``value_and_grad``'s result for one differentiated argument ``args[argnum]`` that is a
    concrete inexact array, at the top level (the caller checked): `vjp`'s tape path without
    its pytree and argument handling, which cannot change anything here (the argument is a
    single leaf that needs no conversion and passes the input checks).  The same recording,
    output checks, seed and backward walk, so the same numbers, dtypes and weak types.
    None when the argument is anything else (the general path handles it)."""
    n = len(args)
    if not -n <= argnum < n:
        return None
    x = args[argnum]
    if type(x) is not ArrayImpl or dtype_kind(x._buf.dtype) not in "fc":
        return None
    argnum %= n
    out_tree = []

    def flat_fun(ins):
        a = list(args)
        a[argnum] = ins[0]
        return _flat_outputs(fun(*a, **kwargs), has_aux, out_tree)

    where = origin(f"vjp of {_fname(fun)}")
    p_out, backward, mask, aux = tape_out = tape_vjp(flat_fun, [x], where, has_aux)
    o = p_out[0] if len(p_out) == 1 else None
    if type(o) is not ArrayImpl or o._buf.shape != () or dtype_kind(o._buf.dtype) != "f" \
            or out_tree[0].node_type is not None:
        # not one real scalar array: `vjp`'s result and `value_and_grad`'s checks and errors
        f_vjp = _vjp_result(flat_fun, [x], tree_flatten((x,))[1], out_tree[0], where, has_aux, tape_out,
                            None, None)
        out = f_vjp[0]
        return _grad_result(out, f_vjp[1], aux, f"grad of {_fname(fun)}", argnum, has_aux, False)
    b = o._buf
    # the seed 1 (`_unit_seed`: ones_like on the output's device); a host scalar made directly
    (g,) = backward([wrap(np.ones((), b.dtype)) if _BY_TYPE.get(type(b)) is NUMPY else ones_like(o)])
    g = _weak_as(zeros_like_tangent(x) if g is None else g, x, True)  # a real scalar output
    return ((o, aux), g) if has_aux else (o, g)


def grad(fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False,
         holomorphic: bool = False, allow_int: bool = False,
         reduce_axes: Sequence[Any] = ()) -> Callable[..., Any]:
    """The gradient of a scalar function with respect to argument(s) ``argnums``.

    The output must be a real scalar. With ``holomorphic=True`` inputs and output are
    complex and the result is the complex derivative ``f'(z)``. With ``allow_int=True``
    integer/bool inputs are accepted and get zero gradients of their own dtype (JAX
    returns ``float0`` zeros; fgrad has no ``float0``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.grad(fnp.sin)(0.0)
        Array(1., dtype=float64, weak_type=True)
        >>> fgrad.grad(fgrad.grad(fnp.sin))(0.0)
        Array(-0., dtype=float64, weak_type=True)
    """
    _check_callable(fun, "grad")
    _check_reduce_axes(reduce_axes)
    vg = value_and_grad(fun, argnums, has_aux, holomorphic, allow_int)

    def grad_f(*args, **kwargs):
        if has_aux:
            (_, aux), g = vg(*args, **kwargs)
            return g, aux
        return vg(*args, **kwargs)[1]

    grad_f.__name__ = f"grad_{_fname(fun)}"
    grad_f.__wrapped__ = fun
    return grad_f


def jacfwd(fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False, chunk_size: int | None = None,
           memory_budget: int | str | None = None) -> Callable[..., Any]:
    """Jacobian by forward mode (one jvp per input element, batched with vmap).

    Inputs must be real; with ``holomorphic=True`` inputs and outputs are complex and the
    result is the complex Jacobian ``df_i/dz_j``.  ``chunk_size=k`` pushes forward ``k``
    input directions at a time (``1``: one plain jvp per input element; None: all at once),
    and ``memory_budget`` (bytes, or a string like ``"2GB"``) picks ``k`` from the estimated
    cost of one direction (`fgrad.transforms.chunking`), so large Jacobians need not
    batch every direction at once.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.jacfwd(lambda x: x ** 2)(fnp.arange(2.0))
        Array([[0., 0.],
               [0., 2.]], dtype=float64)
        >>> fgrad.jacfwd(lambda x: x ** 2, chunk_size=1)(fnp.arange(2.0))
        Array([[0., 0.],
               [0., 2.]], dtype=float64)
    """
    _check_callable(fun, "jacfwd")
    budget = check_chunking("jacfwd", chunk_size, memory_budget)

    def jacfun(*args, **kwargs):
        dyn, rebuild = _split_args(args, argnums, "jacfwd")
        dyn = tree_map(_as_array, dyn)
        _check_input_dtypes_fwd(dyn, "jacfwd", holomorphic)
        flat, tree_in = tree_flatten(dyn)
        sizes = [int(np.prod(get_aval(x).shape, dtype=np.int64)) for x in flat]

        def push(*t_flat):
            def f_flat(*d_flat):
                d = tree_unflatten(tree_in, d_flat)
                return fun(*rebuild(d), **kwargs)

            f_flat.__name__ = _fname(fun)

            res = jvp(f_flat, tuple(flat), tuple(t_flat), has_aux=has_aux)
            out_weak[:] = [get_aval(o).weak_type for o in tree_flatten(res[0])[0]]
            return (res[1], res[2]) if has_aux else res[1]

        out_weak: list = []

        res = map_basis("jacfwd", push, flat, chunk_size, budget, out_axes=-1, aux=has_aux)
        jac, aux = res if has_aux else (res, None)
        flat_j, tree_out = tree_flatten(jac)
        _check_output_dtypes_fwd(flat_j, "jacfwd", holomorphic)
        leaves = []
        for j, weak in zip(flat_j, out_weak or [False] * len(flat_j)):
            parts = split(j, sizes, get_aval(j).ndim - 1) if len(sizes) > 1 else [j]
            leaves.append(tree_unflatten(tree_in, [
                _weak_if(reshape(p, get_aval(j).shape[:-1] + get_aval(x).shape), weak)
                for p, x in zip(parts, flat)
            ]))
        leaves = [lf[0] if isinstance(argnums, int) else lf for lf in leaves]
        out = tree_unflatten(tree_out, leaves)
        return (out, aux) if has_aux else out

    return jacfun


def jacrev(fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False,
           holomorphic: bool = False, allow_int: bool = False, chunk_size: int | None = None,
           memory_budget: int | str | None = None) -> Callable[..., Any]:
    """Jacobian by reverse mode (one vjp per output element, batched with vmap).

    Outputs must be real; with ``holomorphic=True`` inputs and outputs are complex and the
    result is the complex Jacobian ``df_i/dz_j``.  ``chunk_size=k`` pulls back ``k`` output
    directions at a time (``1``: one plain vjp per output element; None: all at once), and
    ``memory_budget`` (bytes, or a string like ``"2GB"``) picks ``k`` from the estimated
    cost of one direction (`fgrad.transforms.chunking`).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.jacrev(lambda x: x ** 2)(fnp.arange(2.0))
        Array([[0., 0.],
               [0., 2.]], dtype=float64)
    """
    _check_callable(fun, "jacrev")
    budget = check_chunking("jacrev", chunk_size, memory_budget)

    def jacfun(*args, **kwargs):
        dyn, rebuild = _split_args(args, argnums, "jacrev")
        dyn = tree_map(_as_array, dyn)
        _check_input_dtypes_rev(dyn, "jacrev", holomorphic, allow_int)

        def f_dyn(*d):
            return fun(*rebuild(d), **kwargs)

        f_dyn.__name__ = _fname(fun)
        res = vjp(f_dyn, *dyn, has_aux=has_aux)
        y, f_vjp = res[0], res[1]
        flat_y, tree_out = tree_flatten(y)
        _check_output_dtypes_rev(flat_y, "jacrev", holomorphic)
        sizes = [int(np.prod(get_aval(y).shape, dtype=np.int64)) for y in flat_y]

        def pull(*b):
            return f_vjp(tree_unflatten(tree_out, list(b)))

        if budget is not None:
            # the estimate traces a fresh vjp: tracing `f_vjp` would cache its linearization
            # with the estimate's tracers in it
            def pull_fresh(*b):
                return vjp(f_dyn, *dyn, has_aux=has_aux)[1](tree_unflatten(tree_out, list(b)))
        cts = map_basis("jacrev", pull, flat_y, chunk_size, budget,
                        estimate_fn=pull_fresh if budget is not None else None)
        # cts: tuple over dyn args of pytrees with leading axis = total output size
        flat_c, tree_c = tree_flatten(cts)
        flat_dyn = tree_flatten(dyn)[0]
        offs = np.cumsum([0] + sizes)
        per_out = []
        for k, yk in enumerate(flat_y):
            ys = get_aval(yk).shape
            leaves = [_weak_if(reshape(c[offs[k]:offs[k + 1]], ys + get_aval(c).shape[1:]),
                               get_aval(x).weak_type) for c, x in zip(flat_c, flat_dyn)]
            t = tree_unflatten(tree_c, leaves)
            per_out.append(t[0] if isinstance(argnums, int) else t)
        out = tree_unflatten(tree_out, per_out)
        return (out, res[2]) if has_aux else out

    return jacfun


def hessian(fun: Callable[..., Any], argnums: int | Sequence[int] = 0, has_aux: bool = False,
            holomorphic: bool = False, chunk_size: int | None = None,
            memory_budget: int | str | None = None) -> Callable[..., Any]:
    """Hessian: ``jacfwd(jacrev(fun))`` (both with ``holomorphic`` for complex ``fun``, and
    both with ``chunk_size``/``memory_budget``: the outer jacfwd's row estimate counts the
    whole inner jacrev, so the two chunk sizes together stay within the budget).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.hessian(lambda x: (x ** 3).sum())(fnp.asarray([1.0, 2.0]))
        Array([[ 6.,  0.],
               [ 0., 12.]], dtype=float64)
        >>> fgrad.hessian(lambda x: (x ** 3).sum(), chunk_size=1)(fnp.asarray([1.0, 2.0]))
        Array([[ 6.,  0.],
               [ 0., 12.]], dtype=float64)
    """
    chunks = {"chunk_size": chunk_size, "memory_budget": memory_budget}
    return jacfwd(jacrev(fun, argnums, has_aux=has_aux, holomorphic=holomorphic, **chunks),
                  argnums, has_aux=has_aux, holomorphic=holomorphic, **chunks)
