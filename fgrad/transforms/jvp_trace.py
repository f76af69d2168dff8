"""The forward-mode interpreter: `JVPTrace`, and `linearize_flat` built on it.

A `JVPTrace`'s tracers carry ``(primal, tangent)``; each primitive's ``jvp`` rule maps both.
A tangent of ``None`` is a symbolic zero: rules skip it, and a result with a zero tangent
leaves the trace as a plain value.  `linearize_flat` runs the JVP trace with its tangent
inputs staged by a partial evaluator (`StagingTrace(partial=True)`), so the primal runs
eagerly and the tangent computation is recorded as a linear jaxpr.  The user-facing
transforms (`fgrad.transforms.ad`), jit's rules and the reverse-mode tape build on this.
"""

from __future__ import annotations

import numpy as np

from ..core.narrow_floats import dtype_kind
from ..core.array import ArrayImpl, Tracer, aval_text, get_aval, wrap
from ..core.constants import zeros_like
from ..core.provenance import register_rule_frame
from ..core.trace import Trace, current, new_trace, state
from ..tree_util import map_arrays as tree_map
from .batching import insert_pvary, vma_scopes
from .custom import PERTURBED, custom_lin_p
from .staging import StagingTrace


class JVPTracer(Tracer):
    __slots__ = ("primal", "tangent")

    def __init__(self, trace, primal, tangent) -> None:
        self._trace = trace
        self.primal = primal
        self.tangent = tangent

    @property
    def aval(self):
        return get_aval(self.primal)

    @property
    def shape(self):
        return self.primal.shape if hasattr(self.primal, "shape") else ()

    def __repr__(self) -> str:
        """JAX's: ``JVPTracer(primal=1.0, tangent=1.0)`` (a zero tangent ``Zero(float32[])``)."""
        tangent = f"Zero({aval_text(self.aval)})" if self.tangent is None else self._part_text(self.tangent)
        return f"JVPTracer(primal={self._part_text(self.primal)}, tangent={tangent})"

    __str__ = __repr__


def to_concrete(x, what: str):
    if isinstance(x, Tracer):
        return x._concrete(what)
    if type(x) is ArrayImpl:
        return x
    return wrap(np.asarray(x))


class JVPTrace(Trace):
    __slots__ = ()

    def process(self, prim, args, params):
        primals, tangents, found = self.split(args)
        if not found:
            return self.parent.process(prim, args, params)
        rule = prim.jvp
        if rule is None:
            raise NotImplementedError(f"Differentiation rule for '{prim.name}' not implemented")
        st = state
        saved, st.trace = st.trace, self.parent
        try:
            if vma_scopes.depth:  # inside a shard_map(check_vma=True) body
                tangents = insert_pvary(prim, primals, tangents, params)
            out, t_out = rule(primals, tangents, **params)
        finally:
            st.trace = saved
        if prim.multiple_results:
            return [o if t is None else JVPTracer(self, o, t) for o, t in zip(out, t_out)]
        return out if t_out is None else JVPTracer(self, out, t_out)

    def concretize(self, tracer, what):
        return to_concrete(tracer.primal, what)

    def split(self, args):
        """Primals and tangents (None for values of other traces) and whether any value
        belongs to this trace."""
        primals, tangents, found = [], [], False
        for a in args:
            if type(a) is JVPTracer and a._trace is self:
                primals.append(a.primal)
                tangents.append(a.tangent)
                found = True
            else:
                primals.append(a)
                tangents.append(None)
        return primals, tangents, found

    def process_custom_jvp(self, fun, jvp, args, symbolic_zeros=False):
        primals, tangents, found = self.split(args)
        if not found:
            return self.parent.process_custom_jvp(fun, jvp, args, symbolic_zeros)
        if not symbolic_zeros:
            tangents = [zeros_like_tangent(p) if t is None else t for p, t in zip(primals, tangents)]
        with current(self.parent):
            outs, t_outs = jvp(primals, tangents)
        return [o if t is None else JVPTracer(self, o, t) for o, t in zip(outs, t_outs)]

    def process_custom_vjp(self, fun, fwd, bwd, args, out_tree_hint=None):
        primals, tangents, found = self.split(args)
        if not found:
            return self.parent.process_custom_vjp(fun, fwd, bwd, args, out_tree_hint)
        with current(self.parent):
            PERTURBED[0] = [t is not None for t in tangents]
            try:
                outs, res = fwd(*primals)
            finally:
                PERTURBED[0] = None
            tangents = [zeros_like_tangent(p) if t is None else t for p, t in zip(primals, tangents)]
            out_avals = tuple(get_aval(o) for o in outs)
            t_outs = custom_lin_p.bind(*tangents, res=res, bwd=bwd, out_avals=out_avals,
                                       in_avals=tuple(get_aval(p) for p in primals))
        return [JVPTracer(self, o, t) for o, t in zip(outs, t_outs)]


class ForwardTrace(JVPTrace):
    """The JVP trace of a PyTorch-face forward-mode transform (``torch.func.jvp``/``jacfwd``/
    ``hessian``'s outer jacfwd, ``torch.autograd.forward_ad``'s dual level), as opposed to the
    JVP traces other code builds reverse mode or staging from.  It behaves as `JVPTrace`; the
    PyTorch face asks for it because ``torch.no_grad`` stops reverse-mode derivatives only,
    never forward-mode tangents.  `fgrad.jvp` and `linearize_flat` make one while
    ``FORWARD_MARK[0]`` is set (``fgrad.torch.func`` sets it around its forward transforms;
    `forward_mark_taken` clears it inside, so transforms nested there get plain JVP traces)."""

    __slots__ = ()


FORWARD_MARK = [False]


class forward_mark_taken:
    """``with forward_mark_taken() as cls:`` the JVP trace class for the transform starting
    here — `ForwardTrace` if ``FORWARD_MARK[0]`` is set, else `JVPTrace` — with the mark
    cleared inside (transforms nested in this one are not the marked one) and restored after
    (so each chunk of a chunked ``jacfwd`` gets it)."""

    __slots__ = ("saved",)

    def __enter__(self) -> type:
        self.saved = FORWARD_MARK[0]
        FORWARD_MARK[0] = False
        return ForwardTrace if self.saved else JVPTrace

    def __exit__(self, *exc) -> None:
        FORWARD_MARK[0] = self.saved


# frames the NaN/inf checks' error reads to name the derivative rule that ran
register_rule_frame(JVPTrace.process.__code__, "jvp")
register_rule_frame(JVPTrace.process_custom_jvp.__code__, "custom_jvp")
register_rule_frame(JVPTrace.process_custom_vjp.__code__, "custom_vjp")


def is_float(x) -> bool:
    return dtype_kind(get_aval(x).dtype) in "fc"


def zeros_like_tangent(x):
    return zeros_like(x)


def strip_aux(aux, trace):
    """Auxiliary outputs are not differentiated: replace the transform's own tracers in
    ``aux`` by their primal values, so they stay usable after the transform returns."""
    return tree_map(lambda a: a.primal if isinstance(a, Tracer) and a._trace is trace else a, aux)


# the JVP traces of `linearize_flat(forward=True)` calls in progress (by id): their linear
# programs are evaluated forward (``fgrad.linearize``'s ``f_jvp``), never transposed, so
# ``checkpoint`` differentiates its function there as under ``jvp`` (its custom-VJP form has no
# forward rule)
FORWARD_EVAL_TRACES: set = set()


def linearize_flat(fun, flat_primals, where, has_aux: bool = False, forward: bool = False):
    """Linearize ``fun`` (taking and returning flat lists) at ``flat_primals``.

    Returns ``(primals_out, jaxpr, consts, diff_mask, aux)`` where ``jaxpr`` maps the
    tangents of the differentiable inputs to the output tangents.  ``forward``: the program
    will be evaluated forward only (`FORWARD_EVAL_TRACES`).
    """
    with new_trace(StagingTrace, where, partial=True) as staging, forward_mark_taken() as jvp_cls:
        with new_trace(jvp_cls, where) as jvp_trace, _forward_eval(jvp_trace, forward):
            ins, mask = [], []
            for p in flat_primals:
                if is_float(p):
                    ins.append(JVPTracer(jvp_trace, p, staging.new_arg(get_aval(p))))
                    mask.append(True)
                else:
                    ins.append(p)
                    mask.append(False)
            out = fun(ins)
            aux = None
            if has_aux:
                out, aux = out
                aux = strip_aux(aux, jvp_trace)
            p_out, t_out, _ = jvp_trace.split(out)
        jaxpr, consts = staging.to_jaxpr([t for t in t_out if t is not None])
    jaxpr.outvars = _spread_outvars(jaxpr.outvars, t_out)
    return p_out, jaxpr, consts, mask, aux


class _forward_eval:
    """Registers ``trace`` in `FORWARD_EVAL_TRACES` for the block (when ``on``)."""

    def __init__(self, trace, on: bool) -> None:
        self.key = id(trace) if on else None

    def __enter__(self) -> None:
        if self.key is not None:
            FORWARD_EVAL_TRACES.add(self.key)

    def __exit__(self, *exc) -> None:
        FORWARD_EVAL_TRACES.discard(self.key)


def _spread_outvars(outvars, t_out):
    it = iter(outvars)
    return [None if t is None else next(it) for t in t_out]
