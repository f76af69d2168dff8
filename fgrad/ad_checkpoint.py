"""`checkpoint` (alias `remat`): rematerialization, trading compute for memory in reverse mode
(JAX's ``jax.checkpoint``).

Under ``grad``/``vjp``, a checkpointed function keeps only its inputs for the backward pass
and recomputes its intermediate values there (one block at a time), instead of storing every
intermediate of the forward pass.  Values, derivatives of every order, ``jit`` and ``vmap``
are unchanged; forward mode (``jvp``/``jacfwd``) simply differentiates the function.

Policies (`checkpoint_policies`) keep JAX's names and signature
(``policy(prim, *avals, **params) -> bool``: may this result be saved?).  fgrad saves the
results of linear and bilinear equations (``dot_general``, ``name``, ...) a policy allows,
besides the inputs; ``everything_saveable`` does not rematerialize.  `checkpoint_name` tags
a value for the name policies.  `saved_residuals` / `print_saved_residuals` list what reverse
mode keeps, in JAX's words (docs/jax-api-round11.md).

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> block = fgrad.checkpoint(lambda x: fnp.sin(fnp.sin(x)))
    >>> fgrad.grad(lambda x: block(block(x)))(0.5)
    Array(0.62933451, dtype=float64, weak_type=True)
"""

from __future__ import annotations

import functools
from typing import Any, Callable, NamedTuple, Sequence


from .core.array import Tracer, aval_text
from .core.array import get_aval as _get_aval
from .core.constants import zeros_like
from .core.provenance import RECORD_SOURCES, SOURCE_OVERRIDE
from .core.ir import Literal
from .core.trace import EVAL_TRACE, new_trace, state
from .ops.checkpoint_name import name_p
from .ops.elementwise import add as _add
from .ops.optimization_barrier import optimization_barrier_p
from .transforms.custom import custom_vjp
from .transforms.ad import vjp
from .transforms.jvp_trace import FORWARD_EVAL_TRACES, JVPTracer
from .transforms.staging import StagingTrace, StagingTracer
from .tree_util import flatten_arrays as tree_flatten, map_arrays as tree_map, tree_unflatten

__all__ = ["Offloadable", "Recompute", "Saveable", "checkpoint", "remat", "checkpoint_name",
           "checkpoint_policies", "print_saved_residuals",
           "saved_residuals"]


class _PolicyAnswer:
    """What a custom policy may return besides a bool: `Saveable` (truthy) or `Recompute`
    (falsy), JAX's ``jax.ad_checkpoint`` values."""

    def __init__(self, name: str, save: bool) -> None:
        self._name, self._save = name, save

    def __bool__(self) -> bool:
        return self._save

    def __repr__(self) -> str:
        return self._name


Saveable = _PolicyAnswer("Saveable", True)
Recompute = _PolicyAnswer("Recompute", False)


class Offloadable(NamedTuple):
    """A policy's answer "save it, in memory ``dst`` (moved from ``src``)" (JAX's
    ``jax.ad_checkpoint.Offloadable``).  fgrad has one memory space per device: an offloadable
    value is saved.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.ad_checkpoint import Offloadable, Recompute, Saveable
        >>> policy = lambda prim, *_, **__: Saveable if prim.name == "dot_general" else Recompute
        >>> f = fgrad.checkpoint(lambda w, x: fnp.sin(w @ x), policy=policy)
        >>> [why.split(" from <")[0] for _, why in fgrad.ad_checkpoint.saved_residuals(
        ...     f, fnp.ones((2, 2)), fnp.ones(2))]
        ['from the argument w', 'from the argument x', 'output of dot_general']
        >>> bool(Offloadable("device", "pinned_host")), bool(Recompute)
        (True, False)
    """

    src: str
    dst: str


def checkpoint_name(x: Any, name: str) -> Any:
    """``x`` itself, tagged ``name`` for the name-based policies (JAX's
    ``jax.ad_checkpoint.checkpoint_name``): it binds the identity primitive ``name``, which
    shows in ``make_jaxpr`` as ``name[name=h]`` and which ``save_only_these_names`` etc.
    select.  A pytree is tagged leaf by leaf.

    Example::

        >>> checkpoint_name(3.0, "h")  # a Python float stays weakly typed, as in JAX
        Array(3., dtype=float64, weak_type=True)
    """
    if not isinstance(name, str):
        raise TypeError(f"checkpoint_name: name must be a string, got {type(name).__name__}")
    return tree_map(lambda leaf: name_p.bind(leaf, name=name), x)


def _never(*_, **__) -> bool:
    return False


def _always(*_, **__) -> bool:
    return True


def _is_dot(prim, *_, **__) -> bool:
    return getattr(prim, "name", str(prim)) == "dot_general"


def _dot_without_batch_dims(prim, *_, **params) -> bool:
    if not _is_dot(prim):
        return False
    dims = params.get("dimension_numbers")
    try:
        (_, _), (lb, rb) = dims
    except (TypeError, ValueError):
        return True
    return not lb and not rb


def _names_policy(names: Sequence[str], keep: bool) -> Callable[..., bool]:
    names = frozenset(names)

    def policy(prim, *_, **params) -> bool:
        if getattr(prim, "name", str(prim)) != "name":
            return False
        return (params.get("name") in names) == keep

    policy.names = names  # type: ignore[attr-defined]
    return policy


class _Policies:
    """JAX's ``jax.checkpoint_policies`` (see the module docstring for what fgrad honours)."""

    everything_saveable = staticmethod(_always)
    nothing_saveable = staticmethod(_never)
    dots_saveable = staticmethod(_is_dot)
    checkpoint_dots = staticmethod(_is_dot)
    dots_with_no_batch_dims_saveable = staticmethod(_dot_without_batch_dims)
    checkpoint_dots_with_no_batch_dims = staticmethod(_dot_without_batch_dims)

    @staticmethod
    def save_only_these_names(*names: str) -> Callable[..., bool]:
        return _names_policy(names, True)

    @staticmethod
    def save_any_names_but_these(*names: str) -> Callable[..., bool]:
        return _names_policy(names, False)

    @staticmethod
    def save_from_both_policies(a: Callable, b: Callable) -> Callable[..., bool]:
        return lambda *args, **params: a(*args, **params) or b(*args, **params)

    @staticmethod
    def save_and_offload_only_these_names(*, names_which_can_be_saved=(), names_which_can_be_offloaded=(),
                                          offload_src="device", offload_dst="pinned_host"):
        # one memory space: an offloadable value is simply saved
        return _names_policy(tuple(names_which_can_be_saved) + tuple(names_which_can_be_offloaded), True)

    @staticmethod
    def offload_dot_with_no_batch_dims(offload_src="device", offload_dst="pinned_host"):
        return _dot_without_batch_dims


checkpoint_policies = _Policies()


def _forward_mode(leaves) -> bool:
    """True if an input carries a forward-mode tangent (``jvp``), as opposed to the staged
    tangent of reverse mode's linearization."""
    for x in leaves:
        if type(x) is JVPTracer and x.tangent is not None:
            if id(x._trace) in FORWARD_EVAL_TRACES:  # linearize: evaluated forward, not transposed
                return True
            t = x.tangent
            if not (type(t) is StagingTracer and t._trace.partial):
                return True
    return False


def checkpoint(fun: Callable | None = None, *, prevent_cse: bool = True, policy: Callable | None = None,
               static_argnums: int | Sequence[int] = ()) -> Callable:
    """``fun`` recomputed in the backward pass instead of storing its intermediates.  Usable
    as ``checkpoint(f)``, ``@checkpoint`` or ``@checkpoint(policy=..., static_argnums=...)``.
    ``static_argnums`` are passed through as Python values (not differentiated).
    ``prevent_cse`` (default True, as JAX): when the backward pass is staged (under ``jit``),
    the recomputation starts from its inputs passed through an `optimization_barrier`, so that
    jit's common-subexpression elimination cannot merge the recomputed values with the forward
    pass's (which would keep those alive and undo the memory saving).  ``prevent_cse=False``
    lets CSE merge them (no recomputation under jit: faster, no memory saved).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> @fgrad.checkpoint(static_argnums=(1,))
        ... def power_chain(x, n):
        ...     for _ in range(n):
        ...         x = fnp.sin(x)
        ...     return x
        >>> float(fgrad.grad(power_chain)(0.4, 3)) > 0
        True
    """
    if fun is None:
        return functools.partial(checkpoint, prevent_cse=prevent_cse, policy=policy,
                                 static_argnums=static_argnums)
    if not callable(fun):
        raise TypeError(f"checkpoint: expected a function, got {type(fun).__name__}")
    if policy is not None and not callable(policy):
        raise TypeError(f"checkpoint: policy must be callable (see fgrad.checkpoint_policies), got "
                        f"{type(policy).__name__}")
    snums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    if any(not isinstance(i, int) for i in snums):
        raise TypeError(f"checkpoint: static_argnums must be ints, got {static_argnums!r}")
    save_all = policy is _always
    keep = _never if policy is None else policy  # JAX's default: save nothing

    @functools.wraps(fun)
    def remat_fun(*args, **kwargs):
        n = len(args)
        for i in snums:
            if not -n <= i < n:
                raise ValueError(f"checkpoint: static_argnums {i} is out of range for {n} positional "
                                 "arguments")
        static = {i % n for i in snums}
        dyn = tuple(a for i, a in enumerate(args) if i not in static)
        leaves, tree = tree_flatten((dyn, kwargs))
        if save_all or _forward_mode(leaves) or (
                state.trace is EVAL_TRACE and not any(isinstance(x, Tracer) for x in leaves)):
            return fun(*args, **kwargs)

        def call(*flat):
            d, kw = tree_unflatten(tree, list(flat))
            it = iter(d)
            full = [args[i] if i in static else next(it) for i in range(n)]
            return fun(*full, **kw)

        # one program; values it closes over that belong to a transform (parameters under
        # grad, say) become explicit inputs, so derivatives reach them
        program, consts, out_tree = _stage(call, leaves, getattr(fun, "__name__", "function"))
        lifted = [i for i, c in enumerate(consts) if isinstance(c, Tracer)]
        k = len(lifted)

        def split(ins):
            cs = list(consts)
            for j, i in enumerate(lifted):
                cs[i] = ins[j]
            return cs, ins[k:]

        @custom_vjp
        def rematerialized(*ins):
            cs, xs = split(ins)
            return _run(program, cs, xs, _never)[0]

        def fwd(*ins):
            cs, xs = split(ins)
            outs, saved = _run(program, cs, xs, keep)
            return outs, (ins, saved)

        def bwd(residuals, cts):
            ins, saved = residuals
            if prevent_cse and any(isinstance(x, Tracer) for x in ins):
                ins = [optimization_barrier_p.bind(x) for x in ins]  # recompute, don't reuse

            def replay(*xs):
                cs, ys = split(xs)
                return _replay(program, cs, ys, saved)

            _, pullback = vjp(replay, *ins)  # recompute what was not saved, now
            return pullback(list(cts))

        rematerialized.defvjp(fwd, bwd)
        outs = rematerialized(*[consts[i] for i in lifted], *leaves)
        return tree_unflatten(out_tree, outs)

    return remat_fun


remat = checkpoint


def _stage(call: Callable, flat: Sequence, name: str):
    """``call`` traced into a program over ``flat``'s shapes: (jaxpr, consts, out_tree)."""
    with new_trace(StagingTrace, f"checkpoint of {name}", partial=False) as st:
        outs = call(*[st.new_arg(_get_aval(x)) for x in flat])
        leaves, out_tree = tree_flatten(outs)
        jaxpr, consts = st.to_jaxpr(leaves)
    return jaxpr, consts, out_tree


def _env(program, consts, args) -> dict:
    env = {id(v): c for v, c in zip(program.constvars, consts)}
    env.update((id(v), a) for v, a in zip(program.invars, args))
    return env


def _read(env, v):
    return v.val if type(v) is Literal else env[id(v)]


def _store(env, eqn, out) -> None:
    for v, o in zip(eqn.outvars, out if eqn.prim.multiple_results else [out]):
        env[id(v)] = o


def _run(program, consts, args, policy) -> tuple[list, dict]:
    """Evaluate ``program``, keeping the results of the equations ``policy`` may save:
    (outputs, {equation index: its results})."""
    env = _env(program, consts, args)
    saved: dict[int, Any] = {}
    for i, eqn in enumerate(program.eqns):
        if eqn.source is not None:  # staged again (print_saved_residuals): the line it was written on
            SOURCE_OVERRIDE[0] = eqn.source
            try:
                out = eqn.prim.bind(*[_read(env, v) for v in eqn.invars], **eqn.params)
            finally:
                SOURCE_OVERRIDE[0] = None
        else:
            out = eqn.prim.bind(*[_read(env, v) for v in eqn.invars], **eqn.params)
        if policy is not _never and _cheap_derivative(eqn) and \
                policy(eqn.prim, *[v.aval for v in eqn.invars], **eqn.params):
            saved[i] = out  # (a value whose derivative needs it too is recomputed: see _plan)
        _store(env, eqn, out)
    return [_read(env, v) for v in program.outvars], saved


def _cheap_derivative(eqn) -> bool:
    """Whether ``eqn``'s tangent needs no value of its result: a linear or bilinear
    primitive (``name``, ``dot_general``, ``mul``, ...) over floating operands."""
    return (not eqn.prim.multiple_results and not eqn.prim.effectful
            and eqn.prim.declared.get("kind") in ("linear", "bilinear")
            and all(v.aval.dtype.kind in "fc" for v in eqn.invars))


def _plan(program, saved: dict) -> list[str]:
    """For each equation of ``program``, how the backward pass's replay makes it: "saved"
    (its saved value), "tangent" (its result's value is used by nothing: only its tangent
    is formed, from a linear or bilinear rule) or "recompute"."""
    needed = {id(v) for v in program.outvars if type(v) is not Literal}
    plan = []
    for i in range(len(program.eqns) - 1, -1, -1):
        eqn = program.eqns[i]
        used = any(id(v) in needed for v in eqn.outvars)
        if i in saved and _cheap_derivative(eqn):
            mode = "saved"
        elif not used and _cheap_derivative(eqn):
            mode = "tangent"
        else:
            mode = "recompute"
        if mode == "recompute" or eqn.prim.declared.get("kind") == "bilinear":
            needed.update(id(v) for v in eqn.invars if type(v) is not Literal)
        plan.append(mode)
    return plan[::-1]


def _replay(program, consts, args, saved: dict) -> list:
    """Evaluate ``program`` again (under the backward pass's ``vjp``), recomputing only
    what the derivative needs: a saved equation gives its saved value, an equation whose
    value nothing uses gives only its tangent (`_reuse`), the others are recomputed."""
    env = _env(program, consts, args)
    for i, (eqn, mode) in enumerate(zip(program.eqns, _plan(program, saved))):
        ins = [_read(env, v) for v in eqn.invars]
        if mode == "recompute":
            out = eqn.prim.bind(*ins, **eqn.params)
        else:
            av = eqn.outvars[0].aval
            value = saved[i] if mode == "saved" else zeros_like(ins[0], dtype=av.dtype, shape=av.shape)
            out = _reuse(eqn, ins, value)
        _store(env, eqn, out)
    return [_read(env, v) for v in program.outvars]


def _reuse(eqn, ins: list, value):
    """``value`` in place of ``eqn``'s result at ``ins``, with ``eqn``'s tangent: its linear
    or bilinear primitive applied to the tangents, so the primitive is not evaluated."""
    prim, params = eqn.prim, eqn.params
    kind = prim.declared.get("kind")

    def fun(*xs):
        return [value]

    def jvp(primals, tangents):
        if kind == "linear":
            if all(t is None for t in tangents):
                return [value], [None]
            filled = [zeros_like(p) if t is None else t for p, t in zip(primals, tangents)]
            return [value], [prim.bind(*filled, **params)]
        parts = []
        for k, t in enumerate(tangents):
            if t is not None:
                parts.append(prim.bind(*[t if j == k else p for j, p in enumerate(primals)], **params))
        out = None
        for part in parts:
            out = part if out is None else _add(out, part)
        return [value], [out]

    return state.trace.process_custom_jvp(fun, jvp, list(ins), True)[0]



def saved_residuals(f: Callable, *args: Any, **kwargs: Any) -> list[tuple[Any, str]]:
    """What reverse-mode differentiation of ``f`` at ``args`` keeps from the forward pass for
    the backward pass (JAX's ``jax.ad_checkpoint.saved_residuals``): ``(aval, where)`` pairs,
    arguments first, then values in the order the program computes them, ``where`` as JAX
    words it (``"from the argument x"``, ``"output of cos from file.py:3:11 (f)"``, ``"named
    'h' from ..."``).  `checkpoint` and its policies change the list: a checkpointed
    function keeps only its inputs and what its policy saves.

    Example::

        >>> import fgrad.numpy as fnp
        >>> [where for _, where in saved_residuals(lambda x: fnp.sin(x) * x, 1.0)][:1]
        ['from the argument x']
    """
    from .transforms.jvp_trace import linearize_flat
    from .transforms.staging import StagingTrace

    leaves, tree = tree_flatten((args, kwargs))
    names = _argument_names(f, args, kwargs, len(leaves))

    def flat_f(ins):
        a, kw = tree_unflatten(tree, list(ins))
        return tree_flatten(f(*a, **kw))[0]

    previous = RECORD_SOURCES["on"]
    RECORD_SOURCES["on"] = True
    try:
        with new_trace(StagingTrace, "saved_residuals", partial=False) as st:
            ins = [st.new_arg(_get_aval(x)) for x in leaves]
            _, linear, consts, _, _ = linearize_flat(flat_f, ins, "saved_residuals")
            # the linear program's constants, and the residuals its rules hold in their
            # parameters (a custom_vjp's, such as a checkpoint's, in ``custom_lin``'s ``res``)
            held = list(consts) + [leaf for e in linear.eqns for value in e.params.values()
                                   for leaf in _param_leaves(value)]
            residuals = [c for c in held if isinstance(c, StagingTracer) and c._trace is st]
            jaxpr, _ = st.to_jaxpr(residuals)
    finally:
        RECORD_SOURCES["on"] = previous
    wanted = {v for v in jaxpr.outvars if type(v) is not Literal}
    found: list[tuple[Any, str]] = []
    for v in jaxpr.constvars:
        if v in wanted:
            found.append((v.aval, "from a constant"))
    for i, v in enumerate(jaxpr.invars):
        if v in wanted:
            found.append((v.aval, f"from the argument {names[i]}"))
    named = {v: e for e in jaxpr.eqns if e.prim.name == "name" for v in e.invars}
    for eqn in jaxpr.eqns:
        for v in eqn.outvars:
            if v not in wanted:
                continue
            if eqn.prim.name == "name" or v in named:
                source = eqn if eqn.prim.name == "name" else named[v]
                found.append((v.aval, f"named {source.params['name']!r} from {_where(source)}"))
            else:
                found.append((v.aval, f"output of {eqn.prim.name} from {_where(eqn)}"))
    return found


def _param_leaves(value: Any) -> list:
    """The tracers in an equation parameter (a pytree of residuals, or anything else)."""
    if isinstance(value, Tracer):
        return [value]
    if isinstance(value, (tuple, list, dict)):
        try:
            return [x for x in tree_flatten(value)[0] if isinstance(x, Tracer)]
        except (TypeError, ValueError):  # pragma: no cover - an unflattenable parameter
            return []
    return []


def _short(aval) -> str:
    """JAX's ``str_short`` of an aval: ``f64[5,4]``, ``i32[]``, ``bool[3]``, ``bf16[2]``."""
    return aval_text(aval, True)


def print_saved_residuals(f: Callable, *args: Any, **kwargs: Any) -> None:
    """Print `saved_residuals`, one per line: the value's type (``f64[5,4]``) and where it
    comes from (JAX's ``jax.ad_checkpoint.print_saved_residuals``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> print_saved_residuals(lambda x: x * 2.0, fnp.ones(3))
    """
    for aval, where in saved_residuals(f, *args, **kwargs):
        print(f"{_short(aval)} {where}")


def _where(eqn) -> str:
    """JAX's summary of an equation's source: ``file:line:column (function)``."""
    forward = eqn.source
    line = getattr(forward, "source", None)
    if line is None:
        return "unknown"
    column = "" if line.column is None else f":{line.column}"
    return f"{line.filename}:{line.lineno}{column} ({line.qualname or line.function})"


def _argument_names(f: Callable, args: tuple, kwargs: dict, n: int) -> list[str]:
    """The name of each flattened argument leaf, as JAX's debug info gives it: the
    parameter's name, with the leaf's key path inside a pytree argument."""
    import inspect

    from .tree_util import keystr, tree_flatten_with_path

    try:
        params = [p for p in inspect.signature(f).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names: list[str] = []
    for i, a in enumerate(args):
        base = params[i].name if i < len(params) else f"args[{i}]"
        paths = [p for p, _ in tree_flatten_with_path(a)[0]]
        names += [base + keystr(p) for p in paths] if paths and paths != [()] else [base]
    for k in sorted(kwargs):
        paths = [p for p, _ in tree_flatten_with_path(kwargs[k])[0]]
        names += [k + keystr(p) for p in paths] if paths and paths != [()] else [k]
    names += [f"flattened index {i}" for i in range(len(names), n)]
    return names[:n]
