"""User-defined derivative rules: `custom_jvp` and `custom_vjp`.

Both flatten their arguments and hand the function and its rule to the current trace
(``process_custom_jvp`` / ``process_custom_vjp``).  The eval trace just calls the
function; the jvp trace calls the rule; the batch trace vmaps function and rule and hands
them down.  A custom VJP under reverse mode becomes a `custom_lin` primitive in the linear
program, whose transpose rule is the user's ``bwd``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any
import inspect

import numpy as np

from ..core.narrow_floats import dtype_kind
import dataclasses

from ..core.array import FLOAT0, ShapedArray, get_aval, is_float0
from ..core.primitive import Primitive
from ..core.constants import array_argument, zeros, zeros_like
from ..core.rules import defbatch, deflinear
from ..core.trace import state
from ..ops.shape import bdim_to_front
from ..tree_util import flatten_arrays as tree_flatten, tree_unflatten
from .batching import vmap


class SymbolicZero:
    """A zero tangent or cotangent known without its values (``jax.custom_derivatives.
    SymbolicZero``): a `custom_jvp` rule defined with ``symbolic_zeros=True`` receives one
    for each argument that carries no tangent, and may return one for an output.  Its
    ``shape``/``dtype`` are those of the tangent (``float0`` for integer primals).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.custom_derivatives import SymbolicZero
        >>> @fgrad.custom_jvp
        ... def f(x, y):
        ...     return x * y
        >>> def f_jvp(primals, tangents):
        ...     (x, y), (tx, ty) = primals, tangents
        ...     dx = 0.0 if isinstance(tx, SymbolicZero) else tx * y
        ...     dy = 0.0 if isinstance(ty, SymbolicZero) else x * ty
        ...     return f(x, y), dx + dy
        >>> _ = f.defjvp(f_jvp, symbolic_zeros=True)
        >>> fgrad.grad(f)(fnp.asarray(2.0), fnp.asarray(3.0))  # y carries no tangent
        Array(3., dtype=float64, weak_type=True)
    """

    def __init__(self, aval: ShapedArray) -> None:
        self.aval = aval

    def __getattr__(self, name: str):
        if name == "aval":
            raise AttributeError(name)
        try:
            return getattr(self.aval, name)
        except AttributeError:
            raise AttributeError(f"SymbolicZero has no attribute {name}") from None

    @property
    def ndim(self) -> int:
        return len(self.aval.shape)

    @property
    def size(self) -> int:
        return int(np.prod(self.aval.shape))

    def __repr__(self) -> str:
        return "SymbolicZero"

    @staticmethod
    def from_primal_value(val: Any) -> "SymbolicZero":
        """The symbolic zero tangent of the primal ``val``."""
        return SymbolicZero(_tangent_aval(get_aval(_as_array(val))))


def _tangent_aval(aval: ShapedArray) -> ShapedArray:
    return aval if dtype_kind(aval.dtype) in "fc" else ShapedArray(aval.shape, FLOAT0)


@dataclasses.dataclass
class CustomVJPPrimal:
    """A primal argument of a `custom_vjp` forward rule defined with ``symbolic_zeros=True``
    (``jax.custom_derivatives.CustomVJPPrimal``): its ``value`` and whether it is
    ``perturbed`` (carries a derivative: under eager differentiation, whether the argument
    has a tangent, as JAX; in a staged program every argument counts as perturbed, so the
    rule computes every cotangent, which is always correct).

    Example::

        >>> from fgrad.custom_derivatives import CustomVJPPrimal
        >>> CustomVJPPrimal(1.0, True).perturbed
        True
    """

    value: Any
    perturbed: bool


def custom_vjp_primal_tree_values(tree: Any) -> Any:
    """The values of the `CustomVJPPrimal` leaves of ``tree`` (the arguments a
    ``symbolic_zeros=True`` forward rule receives), as
    ``jax.custom_derivatives.custom_vjp_primal_tree_values``.

    Example::

        >>> from fgrad.custom_derivatives import CustomVJPPrimal, custom_vjp_primal_tree_values
        >>> custom_vjp_primal_tree_values({"w": CustomVJPPrimal(2.0, True)})
        {'w': 2.0}
    """
    def value(leaf):
        if type(leaf) is not CustomVJPPrimal:
            raise TypeError(f"unexpected leaf type {type(leaf)}")
        return leaf.value

    leaves, treedef = tree_flatten(tree, is_leaf=lambda x: type(x) is CustomVJPPrimal)
    return tree_unflatten(treedef, [value(x) for x in leaves])


def zero_from_primal(val: Any, symbolic_zeros: bool = False) -> Any:
    """The zero tangent of every leaf of ``val``: `SymbolicZero` objects with
    ``symbolic_zeros=True``, else zero arrays (``float0`` for integer and boolean leaves),
    as ``jax.custom_derivatives.zero_from_primal``.

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad.custom_derivatives import zero_from_primal
        >>> zero_from_primal(fnp.ones(2)), zero_from_primal(fnp.ones(2), symbolic_zeros=True)
        (Array([0., 0.], dtype=float64), SymbolicZero)
    """
    def zero(leaf):
        z = SymbolicZero.from_primal_value(leaf)
        if symbolic_zeros:
            return z
        if z.aval.dtype == FLOAT0:
            return np.zeros(z.aval.shape, FLOAT0)
        return zeros(z.aval.shape, z.aval.dtype)

    leaves, tree = tree_flatten(val)
    return tree_unflatten(tree, [zero(x) for x in leaves])


# which arguments of the next custom_vjp forward rule carry tangents (set by the JVP trace
# right before it calls the rule; read and cleared by the rule's flat wrapper)
PERTURBED: list = [None]


def _fn_name(f) -> str:
    return getattr(f, "__name__", type(f).__name__)


_as_array = array_argument  # a Python number weakly typed, as JAX's


def _resolve(fun, args, kwargs):
    if not kwargs:
        return args
    sig = inspect.signature(fun)
    bound = sig.bind(*args, **kwargs)
    bound.apply_defaults()
    return bound.args


def _check_jvp_rule_output(name: str, primals_out, tangents_out) -> None:
    """Each tangent must have its primal's shape and (for inexact primals) dtype, as in JAX;
    ``None`` (a symbolic zero) and integer primals' tangents are not checked."""
    for p, t in zip(primals_out, tangents_out):
        if t is None:
            continue
        ap = get_aval(p)
        if dtype_kind(ap.dtype) not in "fc":
            continue
        if is_float0(t):
            raise TypeError(
                f"Custom JVP rule of {name} must produce primal and tangent outputs with "
                f"corresponding shapes and dtypes. Expected {ap.str_short()} (tangent type of "
                f"{ap.str_short()}) but got a float0 tangent (the zero tangent of an integer "
                "value). Fix the rule so each tangent output has its primal output's dtype."
            )
        at = get_aval(t)
        # a Python-scalar (weak) tangent takes the primal's dtype, unless it is complex for a
        # real primal
        dtype_ok = at.dtype == ap.dtype or (at.weak_type and (dtype_kind(at.dtype) != "c"
                                                            or dtype_kind(ap.dtype) == "c"))
        if at.shape != ap.shape or not dtype_ok:
            raise TypeError(
                f"Custom JVP rule of {name} must produce primal and tangent outputs with "
                f"corresponding shapes and dtypes. Expected {ap.str_short()} (tangent type of "
                f"{ap.str_short()}) but got {at.str_short()}. Fix the rule so each tangent "
                "output has its primal output's shape and dtype."
            )


def _check_bwd_output(name: str, diff_args, in_cts) -> None:
    """The bwd rule returns one cotangent (or None) per differentiable argument, each with
    that argument's structure and shapes; ``diff_args`` holds ``(structure, leaf avals)``
    per argument."""
    if not isinstance(in_cts, (tuple, list)) or len(in_cts) != len(diff_args):
        got = (f"a {type(in_cts).__name__} of length {len(in_cts)}" if isinstance(in_cts, (tuple, list))
               else f"a {type(in_cts).__name__}")
        raise TypeError(
            f"Custom VJP bwd rule of {name} must return a tuple with one cotangent per "
            f"differentiable argument of the primal function ({len(diff_args)}), but got {got}. "
            "Return e.g. `(ct_x,)` for a single argument."
        )
    for i, ((arg_tree, arg_leaves), c) in enumerate(zip(diff_args, in_cts)):
        if c is None:
            continue
        ct_leaves, ct_tree = tree_flatten(c)
        if arg_tree != ct_tree:
            raise TypeError(
                f"Custom VJP bwd rule of {name} must produce an output with the same container "
                f"(pytree) structure as the args tuple of the primal function, but at output[{i}] "
                f"it produced structure {ct_tree} for an input of structure {arg_tree}."
            )
        for a, ct in zip(arg_leaves, ct_leaves):
            if isinstance(ct, SymbolicZero):
                continue
            if is_float0(ct):  # JAX's zero cotangent of an integer/bool argument
                if tuple(ct.shape) != get_aval(a).shape:
                    raise ValueError(
                        f"Custom VJP bwd rule of {name} returned a float0 cotangent of shape "
                        f"{tuple(ct.shape)} at output[{i}] for an input of type {get_aval(a).str_short()}")
                continue
            aa, ac = get_aval(a), get_aval(ct)
            if aa.shape != ac.shape:
                raise ValueError(
                    f"Custom VJP bwd rule of {name} must produce an output with the same type as "
                    f"the args tuple of the primal function, but at output[{i}] the bwd rule "
                    f"produced an output of type {ac.str_short()} corresponding to an input of "
                    f"type {aa.str_short()}, so the shapes do not match."
                )


def _split_nondiff(args, nondiff_argnums):
    nondiff = tuple(args[i] for i in nondiff_argnums)
    diff = tuple(a for i, a in enumerate(args) if i not in nondiff_argnums)
    n_args = len(args)  # (``merge`` must not hold the arguments: a staged call keeps it)

    def merge(d):
        it = iter(d)
        nd = iter(nondiff)
        return [next(nd) if i in nondiff_argnums else next(it) for i in range(n_args)]

    return nondiff, diff, merge


def _flat_call(custom, args, kwargs):
    """Shared set-up of custom_jvp/custom_vjp calls: split static arguments, flatten the
    differentiable ones, and wrap the function to take and return flat lists (recording
    its output structure in ``out_tree``)."""
    args = _resolve(custom.fun, args, kwargs)
    nondiff, diff, merge = _split_nondiff(args, custom.nondiff_argnums)
    flat, tree = tree_flatten(diff)
    flat = [_as_array(x) for x in flat]
    out_tree: list = []

    def flat_fun(*xs):
        out = custom.fun(*merge(tree_unflatten(tree, xs)))
        leaves, t = tree_flatten(out)
        out_tree.append(t)
        return leaves

    flat_fun.__wrapped__ = custom.fun  # the name the NaN/inf checks' error shows
    return nondiff, diff, merge, flat, tree, out_tree, flat_fun


def _forward_attr(self, name: str):
    """Attributes the object lacks come from the function it wraps (JAX's
    ``forward_attr``): ``@custom_vjp`` over ``@custom_vmap`` keeps ``def_vmap`` reachable."""
    fun = self.__dict__.get("fun")
    if fun is None or name.startswith("__"):
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
    return getattr(fun, name)


class custom_jvp:
    """A function with a user-supplied forward-mode rule (reverse mode follows from it).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> @fgrad.custom_jvp
        ... def f(x):
        ...     return fnp.sin(x)
        >>> @f.defjvp
        ... def f_jvp(primals, tangents):
        ...     (x,), (t,) = primals, tangents
        ...     return f(x), 2.0 * t
        >>> fgrad.grad(f)(0.0)
        Array(2., dtype=float64, weak_type=True)
    """

    def __init__(self, fun: Callable[..., Any], nondiff_argnums: Sequence[int] = ()) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.jvp = None
        self.symbolic_zeros = False

    __getattr__ = _forward_attr

    def defjvp(self, jvp: Callable[..., Any], symbolic_zeros: bool = False) -> Callable[..., Any]:
        self.jvp = jvp
        self.symbolic_zeros = symbolic_zeros
        return jvp

    def defjvps(self, *jvps: Callable[..., Any] | None) -> None:
        """One rule per argument: ``rule(tangent, ans, *primals) -> tangent of out``."""

        def jvp(primals, tangents):
            ans = self(*primals)
            out = None
            for rule, t in zip(jvps, tangents):
                if rule is None:
                    continue
                contrib = rule(t, ans, *primals)
                out = contrib if out is None else out + contrib
            if out is None:
                out = zeros_like(ans)
            return ans, out

        self.defjvp(jvp)

    def __call__(self, *args, **kwargs):
        if self.jvp is None:
            raise AttributeError(f"No JVP defined for custom_jvp function {self.__name__} using defjvp.")
        nondiff, diff, merge, flat, tree, out_tree, flat_fun = _flat_call(self, args, kwargs)

        def flat_jvp(primals, tangents):
            if self.symbolic_zeros:  # absent tangents reach the rule as SymbolicZero (JAX)
                tangents = [SymbolicZero(_tangent_aval(get_aval(p))) if t is None else t
                            for p, t in zip(primals, tangents)]
            p = tree_unflatten(tree, primals)
            t = tree_unflatten(tree, tangents)
            pair = self.jvp(*nondiff, tuple(p), tuple(t))
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                raise TypeError(
                    f"Custom JVP rule {_fn_name(self.jvp)} for function {self.__name__} must produce "
                    "a pair (list or tuple of length two) representing primal and tangent outputs, "
                    f"but got {pair}.")
            out, t_out = pair
            leaves, tr = tree_flatten(out)
            t_leaves, t_tr = tree_flatten(t_out)
            t_leaves = [None if isinstance(x, SymbolicZero) else x for x in t_leaves]
            if tr != t_tr:
                raise TypeError(
                    f"custom_jvp rule of {self.__name__} must produce primal and tangent outputs "
                    f"with equal container structures, got {tr} and {t_tr}"
                )
            _check_jvp_rule_output(self.__name__, leaves, t_leaves)
            t_leaves = [None if is_float0(x) else x for x in t_leaves]  # integer outputs' zeros
            out_tree.append(tr)
            return leaves, t_leaves

        flat_jvp.__wrapped__ = self.jvp
        outs = state.trace.process_custom_jvp(flat_fun, flat_jvp, flat, self.symbolic_zeros)
        return tree_unflatten(out_tree[-1], outs)


class custom_vjp:
    """A function with a user-supplied reverse-mode rule.

    ``fwd(*args) -> (out, residuals)``; ``bwd(residuals, ct) -> tuple of input cotangents``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> @fgrad.custom_vjp
        ... def clip_grad(x):
        ...     return x
        >>> clip_grad.defvjp(lambda x: (x, None), lambda _, g: (fnp.clip(g, -1, 1),))
        >>> fgrad.grad(lambda x: 5 * clip_grad(x))(0.0)
        Array(1., dtype=float64, weak_type=True)
    """

    def __init__(self, fun: Callable[..., Any], nondiff_argnums: Sequence[int] = ()) -> None:
        functools.update_wrapper(self, fun)
        self.fun = fun
        self.nondiff_argnums = tuple(nondiff_argnums)
        self.fwd = self.bwd = None
        self.symbolic_zeros = False

    __getattr__ = _forward_attr

    def defvjp(self, fwd: Callable[..., Any], bwd: Callable[..., Any], symbolic_zeros: bool = False,
               optimize_remat: bool = False) -> None:
        """Set the rules: ``fwd(*args) -> (out, residuals)`` and ``bwd(residuals, ct) ->
        cotangents``; with ``symbolic_zeros=True`` the forward rule receives each
        differentiable argument leaf as a `CustomVJPPrimal` (JAX's convention).
        ``optimize_remat`` (JAX's experimental flag to recompute ``fwd`` in the backward
        pass) is accepted; the values are the same either way, so fgrad keeps residuals."""
        if symbolic_zeros and optimize_remat:
            raise NotImplementedError("remat optimization for custom_vjp does not support symbolic zeros")
        self.fwd, self.bwd = fwd, bwd
        self.symbolic_zeros = symbolic_zeros

    def __call__(self, *args, **kwargs):
        if self.fwd is None:
            raise AttributeError(f"No VJP defined for custom_vjp function {self.__name__} using defvjp.")
        nondiff, diff, merge, flat, tree, out_tree, flat_fun = _flat_call(self, args, kwargs)

        def flat_fwd(*xs):
            flags, PERTURBED[0] = PERTURBED[0], None
            if self.symbolic_zeros:  # an argument is perturbed when it carries a tangent
                flags = flags if flags is not None and len(flags) == len(xs) else [True] * len(xs)
                xs = [CustomVJPPrimal(x, f) for x, f in zip(xs, flags)]
            pair = self.fwd(*merge(tree_unflatten(tree, xs)))
            if not isinstance(pair, (list, tuple)) or len(pair) != 2:
                fwd_name = _fn_name(self.fwd)
                raise TypeError(
                    f"Custom VJP fwd rule {fwd_name} for function {self.__name__} must produce a pair "
                    "(list or tuple of length two) where the first element represents the primal "
                    f"output (equal to those of the custom_vjp-decorated function {self.__name__}) "
                    "and the second element represents residuals (i.e. values stored from the "
                    "forward pass for use on the backward pass), but instead of a pair the fwd "
                    f"rule {fwd_name} produced {pair}.")
            out, res = pair
            leaves, t = tree_flatten(out)
            out_tree.append(t)
            return leaves, res

        # the rules hold the arguments' types, never the arguments: a staged call keeps them
        # as Python until it is differentiated (JAX's laziness), long after its tracers end
        diff_avals = []  # per argument: (structure, leaf avals)
        for arg in diff:
            leaves_, tree_ = tree_flatten(arg)
            diff_avals.append((tree_, [get_aval(x) for x in leaves_]))

        def flat_bwd(res, cts):
            ct = tree_unflatten(out_tree[-1], list(cts))
            in_cts = self.bwd(*nondiff, res, ct)
            _check_bwd_output(self.__name__, diff_avals, in_cts)
            place = cts[0] if len(cts) else None

            def zero(av):  # the zero cotangent of an argument, on the cotangents' device
                return zeros(av.shape, av.dtype) if place is None else zeros_like(place, av.dtype, av.shape)

            leaves = []
            for (_, arg_leaves), c in zip(diff_avals, in_cts):
                if c is None:
                    leaves.extend(zero(a) for a in arg_leaves)
                else:
                    leaves.extend(zero(a) if is_float0(ct) or isinstance(ct, SymbolicZero) else ct
                                  for a, ct in zip(arg_leaves, tree_flatten(c)[0]))
            return leaves

        flat_bwd.__wrapped__ = self.bwd
        flat_fwd.__name__ = getattr(self.fwd, "__name__", "fwd")  # (a printed jaxpr's fwd=)
        outs = state.trace.process_custom_vjp(flat_fun, flat_fwd, flat_bwd, flat)
        return tree_unflatten(out_tree[-1], outs)


# JAX's message first (programs print it), then the fix
NO_FORWARD_MODE = ("can't apply forward-mode autodiff (jvp) to a custom_vjp function. Define a "
                   "custom_jvp rule instead, or use reverse mode (grad/vjp/jacrev).")


def _custom_lin_impl(xp, *tangents, res, bwd, out_avals, in_avals):
    raise TypeError(NO_FORWARD_MODE)


def _custom_lin_abstract(*avals, res, bwd, out_avals, in_avals):
    return list(out_avals)


custom_lin_p = Primitive("custom_lin", _custom_lin_impl, _custom_lin_abstract, multiple_results=True,
                         family="custom")


def _custom_lin_transpose(cts, *args, res, bwd, out_avals, in_avals):
    cts = [zeros(av.shape, av.dtype) if c is None else c for c, av in zip(cts, out_avals)]
    return list(bwd(res, cts))


def _custom_lin_batch(axis_size, vals, dims, *, res, bwd, out_avals, in_avals):
    vals = [bdim_to_front(v, d, axis_size) for v, d in zip(vals, dims)]

    def bwd_b(r, cts):
        return vmap(lambda c: list(bwd(r, c)))(list(cts))

    outs = custom_lin_p.bind(
        *vals, res=res, bwd=bwd_b,
        out_avals=tuple(ShapedArray((axis_size,) + a.shape, a.dtype) for a in out_avals),
        in_avals=tuple(ShapedArray((axis_size,) + a.shape, a.dtype) for a in in_avals),
    )
    return outs, 0


def _custom_lin_jvp(primals, tangents, **params):
    raise NotImplementedError(
        "Differentiation rule for 'custom_lin' not implemented: can't apply forward-mode autodiff "
        "(jvp/jacfwd) to the reverse-mode derivative of a custom_vjp function; define a custom_jvp "
        "rule instead.")


deflinear(custom_lin_p, _custom_lin_transpose, jvp=_custom_lin_jvp)
defbatch(custom_lin_p, _custom_lin_batch)
__all__ = ["CustomVJPPrimal", "SymbolicZero", "custom_jvp", "custom_vjp", "custom_lin_p",
           "custom_vjp_primal_tree_values", "zero_from_primal"]
