"""Fast eager reverse mode: a tape of cached per-operation VJP programs.

`vjp` at the top level (no other transform active, all values concrete) does not need the
general linearize machinery for every call.  For each primitive application it looks up a
cache keyed by (primitive, params, input shapes/dtypes, which inputs are differentiable).
On a miss it derives, *from the primitive's jvp rule*, two small programs (the shared
per-signature builder, `backward_program.stage`) and compiles them with the straight-line
executor:

* the primal program: primal inputs -> (outputs, residuals), and
* the VJP program: (residuals, output cotangents) -> input cotangents — the transpose of
  the linear part of the jvp rule.

A call then just runs the primal program and records (VJP program, residual buffers) on a
tape; the backward pass walks the tape in reverse running the VJP programs.  The rules are
the same jvp/transpose rules as everywhere else (one derivative table); only the bookkeeping
is cached.  Operations whose rules cannot be staged abstractly (they need concrete values),
custom rules, and non-hashable params fall back to a per-operation linearize.  The cache is
an LRU bounded by the config option ``tape_cache_size``.

The tape is a flat list and both passes are loops, so a chain of any depth (100,000 ops)
runs in linear time without recursion.
"""

from __future__ import annotations

import numpy as np

from .._lru import LRU
from ..backends import _BY_TYPE, xp_of
from ..core.narrow_floats import dtype_kind
from ..core.array import FLOAT0, ArrayImpl, Tracer, aval_text, get_aval, make_aval, wrap
from ..core.constants import constant_like, host_array
from ..core.executor import device_of, place_consts
from ..core.logs import get_logger
from ..core.primitive import check_same_device, eval_primitive
from ..core.quiet import switch
from ..core.trace import ConcretizationError, Trace, new_trace, state
from .backward_program import stage
from .jvp_trace import linearize_flat, strip_aux
from .transpose import backward_pass

_PY = (int, float, bool, complex)
_set_err, _IGNORE_ERR, _reset_err = switch()
_cache = LRU("tape_cache_size")
LOG = get_logger("tape")


class _Uncacheable:
    """Cache value for a signature whose VJP cannot be staged (linearized per call)."""

    __slots__ = ("tick",)


class TapeTracer(Tracer):
    # ``aval`` is a plain attribute, made once: the promotion and reduction wrappers ask each
    # operand for it, several times per operation (the primal is immutable)
    __slots__ = ("primal", "node", "k", "aval")

    def __init__(self, trace, primal: ArrayImpl, node: int, k: int) -> None:
        self._trace = trace
        self.primal = primal
        self.node = node
        self.k = k
        b = primal._buf
        self.aval = make_aval(b.shape, b.dtype, primal._weak)

    @property
    def shape(self):
        return self.primal._buf.shape

    @property
    def dtype(self):
        return self.primal._buf.dtype

    def __repr__(self) -> str:
        """JAX's (the value ``grad``/``vjp`` differentiate): ``GradTracer(primal=1.0,
        typeof(tangent)=f32[])``; an integer or bool primal's tangent is ``float0``."""
        av = self.aval
        tangent = av if av.dtype.kind in "fc" else make_aval(av.shape, FLOAT0)
        primal = self._part_text(self.primal)
        return f"GradTracer(primal={primal}, typeof(tangent)={aval_text(tangent, True)})"

    __str__ = __repr__


class _OpVJP:
    """Cached programs for one primitive signature."""

    __slots__ = ("primal_run", "primal_host", "n_out", "bwd_run", "bwd_host", "consts", "ct_mask", "in_mask",
                 "multi", "tick", "source", "variants")


def _build(prim, params, args, diff):
    """The primal and VJP programs of ``prim`` at this signature, from its jvp rule."""

    def jvp(primals, tangents):
        out, t_out = prim.jvp(primals, tangents, **params)
        if prim.multiple_results:
            return list(out), list(t_out)
        return [out], [t_out]

    avals = [a if type(a) in _PY else get_aval(a) for a in args]
    bp = stage(jvp, avals, diff, "vjp cache")
    op = _OpVJP()
    op.source = (jvp, avals, diff)
    op.variants = {}
    op.consts = bp.consts
    op.primal_run = bp.primal_run()
    op.primal_host = op.primal_run.host  # without the error-report switch: the caller sets it
    op.n_out = bp.n_out
    op.bwd_run = (bp.backward_run(), bp.bwd_consts)
    op.bwd_host = op.bwd_run[0].host
    op.ct_mask = bp.ct_mask
    op.in_mask = bp.in_mask
    op.multi = prim.multiple_results
    return op


def _without_cts(op, missing: frozenset, xp, ref):
    """The backward program of ``op`` for a call where the outputs ``missing`` (positions)
    get no cotangent, staged with them as symbolic zeros: ``(run, consts, in_mask)``.

    Filling in zero arrays instead is wrong where the linear part multiplies a cotangent by
    an infinite factor: ``eigh``'s eigenvector tangent is ``V (F o M)`` with ``F_ij = 1 /
    (w_j - w_i)``, infinite at a repeated eigenvalue, so a zero eigenvector cotangent
    would turn the eigenvalues' gradient into NaN.  The variant reads the same residuals
    (the primal part does not depend on which cotangents are zero)."""
    hit = op.variants.get(missing)
    if hit is None:
        jvp, avals, diff = op.source
        bp = stage(jvp, avals, diff, "vjp cache", missing)
        hit = (bp.backward_run(), place_consts(bp.bwd_consts, xp, device_of([ref])), bp.in_mask)
        op.variants[missing] = hit
    return hit


def _place(op, bufs):
    """Place the constants of ``op`` (staged abstractly, so made on the default device) on
    the device of ``bufs`` (`place_consts`)."""
    xp = xp_of(bufs[0])
    dev = device_of(bufs)
    op.consts = place_consts(op.consts, xp, dev)
    bwd_run, bconsts = op.bwd_run
    op.bwd_run = (bwd_run, place_consts(bconsts, xp, dev))


class TapeTrace(Trace):
    """Records, for each operation on its tracers, a node (vjp program, residuals, inputs)."""

    __slots__ = ("nodes",)

    def __init__(self, parent, origin) -> None:
        super().__init__(parent, origin)
        self.nodes: list = []

    def concretize(self, tracer, what):
        return tracer.primal

    def process(self, prim, args, params):
        # one pass: primal values, tape sources of differentiable inputs, the cache key
        prims, srcs, diff, key = [], [], [], [prim]
        bufs = []
        tb0, mixed, weak = None, False, False
        for a in args:
            t = type(a)
            if t is TapeTracer and a._trace is self:
                p = a.primal
                b = p._buf
                if dtype_kind(b.dtype) in "fc":
                    srcs.append((a.node, a.k))
                    diff.append(True)
                else:
                    diff.append(False)
            elif t is ArrayImpl:
                p = a
                b = a._buf
                diff.append(False)
            elif t in _PY:
                diff.append(False)
                prims.append(a)
                key.append(t)
                key.append(a)
                continue
            elif isinstance(a, Tracer):
                return self.parent.process(prim, args, params)
            else:
                return self.process(prim, [host_array(x) if x is a else x for x in args], params)
            if p._weak:
                weak = True
            prims.append(p)
            bufs.append(b)
            tb = type(b)
            key.append(b.shape)
            key.append(b.dtype)
            key.append(tb)  # the backend: cached programs carry its constants
            if tb0 is None:
                tb0 = tb
            elif tb is not tb0:
                mixed = True
        if not srcs:
            return eval_primitive(prim, prims, params)
        if mixed:
            check_same_device(prim, prims)  # DeviceMismatchError before any compiled program runs
        key.append(tuple(diff))
        try:
            if params:
                key.append(tuple(params.items()))
            key = tuple(key)
            op = _cache.get(key)
        except TypeError:
            key, op = None, _Uncacheable()
            LOG.debug("%s: parameters are not hashable; linearizing it per call", prim.name)
        if op is None:
            try:
                op = _build(prim, params, prims, diff)
                _place(op, bufs)  # the key has the backend: its constants go there
            except (ConcretizationError, TypeError, NotImplementedError, ValueError) as e:
                LOG.debug("%s: backward program not staged (%s: %s); linearizing it per call",
                          prim.name, type(e).__name__, e)
                op = _Uncacheable()
            _cache[key] = op
        if type(op) is _Uncacheable:
            it = iter(srcs)
            return self._fallback(prim, params, prims, [next(it) if d else None for d in diff])
        be = _BY_TYPE.get(tb0) if bufs else None
        xp = be.xp if be is not None else (xp_of(bufs[0]) if bufs else np)
        if xp is np:  # the host: NumPy's error reports switched off inline (no wrapper call)
            token = _set_err(_IGNORE_ERR)
            try:
                res = op.primal_host(np, op.consts + bufs if op.consts else bufs)
            finally:
                _reset_err(token)
        else:
            res = op.primal_run(xp, op.consts + bufs if op.consts else bufs)
        nodes = self.nodes
        node = len(nodes)
        n_out = op.n_out
        nodes.append((op, res[n_out:], srcs, xp))
        if weak:
            outs = _weak_outputs(prim, prims, params, res[:n_out])
        elif n_out == 1 and not op.multi:
            o = res[0]
            if type(o) is not ArrayImpl:
                o = wrap(np.asarray(o) if type(o) in _PY else o)
            return TapeTracer(self, o, node, 0) if op.ct_mask[0] else o
        else:
            outs = res[:n_out]
        if n_out == 1 and not op.multi:
            o = outs[0]
            if type(o) is not ArrayImpl:
                o = wrap(np.asarray(o) if type(o) in _PY else o)
            return TapeTracer(self, o, node, 0) if op.ct_mask[0] else o
        return self._wrap(outs, node, op.multi, op.ct_mask)

    def _wrap(self, outs, node, multi, ct_mask):
        wrapped = []
        for k, (o, live) in enumerate(zip(outs, ct_mask)):
            o = o if type(o) is ArrayImpl else wrap(o if not isinstance(o, _PY) else np.asarray(o))
            wrapped.append(TapeTracer(self, o, node, k) if live else o)
        return wrapped if multi else wrapped[0]

    def _fallback(self, prim, params, prims, sources):
        diff_idx = [i for i, s in enumerate(sources) if s is not None]

        def f(xs):
            full = list(prims)
            for i, x in zip(diff_idx, xs):
                full[i] = x
            out = prim.bind(*full, **params)
            return list(out) if prim.multiple_results else [out]

        with _parent_context(self):
            p_out, jaxpr, consts, _, _ = linearize_flat(f, [prims[i] for i in diff_idx], self.origin)
        node = len(self.nodes)
        # the last field (xp for cached nodes) holds a primal: zero cotangents are placed like it
        self.nodes.append(((jaxpr, consts), None, [sources[i] for i in diff_idx], prims[diff_idx[0]]))
        return self._wrap(p_out, node, prim.multiple_results, [v is not None for v in jaxpr.outvars])

    def _custom(self, call, args, inline):
        sources, prims = [], []
        for a in args:
            if type(a) is TapeTracer and a._trace is self:
                sources.append((a.node, a.k) if dtype_kind(a.primal._buf.dtype) in "fc" else None)
                prims.append(a.primal)
            else:
                sources.append(None)
                prims.append(a)
        if all(s is None for s in sources):
            # no argument is recorded here (a closed-over value may be): run the function,
            # recording its operations, as for any other code
            return inline(prims)
        diff_idx = [i for i, s in enumerate(sources) if s is not None]

        def f(xs):
            full = list(prims)
            for i, x in zip(diff_idx, xs):
                full[i] = x
            return list(call(full))

        with _parent_context(self):
            p_out, jaxpr, consts, _, _ = linearize_flat(f, [prims[i] for i in diff_idx], self.origin)
        node = len(self.nodes)
        self.nodes.append(((jaxpr, consts), None, [sources[i] for i in diff_idx], prims[diff_idx[0]]))
        return self._wrap(p_out, node, True, [v is not None for v in jaxpr.outvars])

    def process_custom_jvp(self, fun, jvp, args, symbolic_zeros=False):
        return self._custom(lambda xs: state.trace.process_custom_jvp(fun, jvp, xs, symbolic_zeros), args,
                            lambda xs: fun(*xs))

    def process_custom_vjp(self, fun, fwd, bwd, args, out_tree_hint=None):
        return self._custom(lambda xs: state.trace.process_custom_vjp(fun, fwd, bwd, xs, out_tree_hint),
                            args, lambda xs: fun(*xs))

    def backward(self, out_tracers, cts, n_inputs):
        """Cotangents (buffers or None) for the inputs, given output cotangents; the sums of
        cotangents (``inf + -inf``) are silent as the programs are."""
        token = _set_err(_IGNORE_ERR)
        try:
            return self._backward(out_tracers, cts, n_inputs)
        finally:
            _reset_err(token)

    def _backward(self, out_tracers, cts, n_inputs):
        node_cts: dict = {}
        for o, c in zip(out_tracers, cts):
            if type(o) is TapeTracer and o._trace is self and c is not None:
                k = (o.node, o.k)
                node_cts[k] = c if k not in node_cts else node_cts[k] + c
        nodes = self.nodes
        pop = node_cts.pop
        for i in range(len(nodes) - 1, -1, -1):
            op, res, sources, xp = nodes[i]
            if type(op) is _OpVJP:
                bwd_run, bconsts = op.bwd_run
                bwd_host, in_mask = op.bwd_host, op.in_mask
                if op.n_out == 1:
                    c = pop((i, 0), None)
                    if c is None:
                        continue
                    live = [c]
                else:
                    cts_out = [pop((i, k), None) for k in range(op.n_out)]
                    if all(c is None for c in cts_out):
                        continue
                    live = [c for c, m in zip(cts_out, op.ct_mask) if m]
                    if any(c is None for c in live):  # symbolic zeros, not zero arrays
                        missing = frozenset(k for k, (c, m) in enumerate(zip(cts_out, op.ct_mask))
                                            if m and c is None)
                        live = [c for c in live if c is not None]
                        bwd_run, bconsts, in_mask = _without_cts(op, missing, xp, live[0])
                        bwd_host = bwd_run.host
                in_cts = iter(bwd_host(np, [*bconsts, *res, *live]) if xp is np
                              else bwd_run(xp, [*bconsts, *res, *live]))
                for s, m in zip(sources, in_mask):
                    if not m:
                        continue
                    c = next(in_cts)
                    prev = node_cts.get(s)
                    node_cts[s] = c if prev is None else prev + c
                continue
            jaxpr, consts = op
            saved = jaxpr.outvars
            cts_out = [pop((i, k), None) for k in range(len(saved))]
            if all(c is None for c in cts_out):
                continue
            live_v = [v for v in saved if v is not None]
            ct_arr = [None if c is None else wrap(c)  # None: a symbolic zero (see `_without_cts`)
                      for c, v in zip(cts_out, saved) if v is not None]
            jaxpr.outvars = live_v
            try:
                res_cts = backward_pass(jaxpr, consts, ct_arr)
            finally:
                jaxpr.outvars = saved
            for s, c in zip(sources, res_cts):
                if s is None or c is None:
                    continue
                c = c._buf
                prev = node_cts.get(s)
                node_cts[s] = c if prev is None else prev + c
        return [node_cts.get((-1 - i, 0)) for i in range(n_inputs)]


def _weak_outputs(prim, prims, params, outs):
    """The primal outputs of ``prim`` marked weakly typed where its abstract rule says so
    (the compiled primal program computes buffers only; JAX: ``grad(f)(1.0)`` is weak)."""
    try:
        avals = prim.abstract_eval(*[get_aval(p) for p in prims], **params)
    except Exception:  # noqa: BLE001 - a rule that needs more than avals: results stay strong
        return outs
    avals = avals if prim.multiple_results else [avals]
    return [_as_weak(o) if getattr(av, "weak_type", False) else o for o, av in zip(outs, avals)]


def _as_weak(o):
    if type(o) is ArrayImpl:
        return wrap(o._buf, True)
    return wrap(np.asarray(o) if isinstance(o, (*_PY, np.generic)) else o, True)


class _parent_context:
    """Run the fallback linearization with the tape's parent (eval) as the current trace."""

    def __init__(self, trace) -> None:
        self.trace = trace

    def __enter__(self):
        self.saved = state.trace
        state.trace = self.trace.parent

    def __exit__(self, *exc):
        state.trace = self.saved


def tape_vjp(fun, flat_primals, where, has_aux=False):
    """Top-level reverse mode.  Returns ``(outs, backward, mask, aux)`` like linearize."""
    with new_trace(TapeTrace, where) as trace:
        ins, mask = [], []
        for i, p in enumerate(flat_primals):
            if type(p) is ArrayImpl and dtype_kind(p._buf.dtype) in "fc":
                ins.append(TapeTracer(trace, p, -1 - i, 0))
                mask.append(True)
            else:
                ins.append(p)
                mask.append(False)
        out = fun(ins)
        aux = None
        if has_aux:
            out, aux = out
            aux = strip_aux(aux, trace)
        p_out = [o.primal if type(o) is TapeTracer and o._trace is trace else o for o in out]
    n = len(flat_primals)

    def backward(cts):
        bufs = [c._buf if type(c) is ArrayImpl else (None if c is None else _host_ct(c, o))
                for c, o in zip(cts, p_out)]
        res = trace.backward(out, bufs, n)
        return [None if r is None else wrap(_cast(r, p)) for r, p in zip(res, flat_primals)]

    return p_out, backward, mask, aux


def _host_ct(c, out):
    """A cotangent given as host data, placed like the output it belongs to."""
    return constant_like(np.asarray(c), out)._buf


def _cast(buf, primal):
    """``buf`` with the dtype and shape of ``primal``, with the array module of its backend."""
    pb = primal._buf
    if buf.dtype != pb.dtype:
        if buf.dtype.kind == "c" and pb.dtype.kind != "c":
            buf = buf.real  # the cotangent of a real input: the real part (JAX's rule)
        buf = buf.astype(pb.dtype)
    if buf.shape != pb.shape:
        # never broadcast a gradient into shape: a (1,) or (n, 1) cotangent for an (n,) input
        # is a bug upstream, and broadcasting it would return a wrong gradient silently (cupy's
        # zeros_like(shape=()) once made one); only an all-zero scalar may be expanded
        xp = xp_of(pb)
        if buf.size != 1 or bool(xp.any(buf != 0)):
            raise RuntimeError(
                f"fgrad internal error: reverse mode produced a gradient of shape {buf.shape} for an "
                f"input of shape {pb.shape} ({pb.dtype}); please report this with the function")
        buf = xp.zeros_like(pb)
    return buf
