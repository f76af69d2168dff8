"""Per-signature backward programs of one operation, staged from its jvp rule.

Both eager reverse-mode engines -- the functional tape (`tape.py`) and the ``fgrad.torch``
autograd graph (torch/autograd/graph.py) -- differentiate an operation the same way, once
per signature (operation, input shapes/dtypes, differentiable inputs):

1. stage the operation's JVP abstractly (`stage`): primal inputs and tangents become
   staged inputs, the jvp rule runs on them, and the result is one jaxpr;
2. split it: the *primal* part (equations that read no tangent: primal inputs -> outputs
   and the residuals the linear part reads) and the *linear* part (residuals, tangents ->
   output tangents), which is transposed with `backward_pass` into the *backward* part
   (residuals, output cotangents -> input cotangents);
3. drop dead equations with `fgrad.compile.passes.dce` (the one DCE);
4. run with the straight-line executor (`fgrad.core.executor.straight_line`).

The tape runs the primal part forward and saves the residuals (`BackwardProgram.primal`,
`.backward`).  The shim computes its forward itself and saves inputs and outputs, so it
uses `recompute`: one program from (inputs, outputs, cotangents) to input cotangents that
recomputes the residuals it needs, reading an output where the primal part would recompute
it (``exp`` saves its result, as in PyTorch).

A jvp rule that needs concrete values raises `ConcretizationError` while staging; the
engines then linearize that operation per call instead.

Example::

    >>> import numpy as np
    >>> from fgrad.core.array import ShapedArray
    >>> from fgrad.ops.elementwise import sin_p
    >>> def jvp(primals, tangents):  # one output: lists of one
    ...     out, t_out = sin_p.jvp(primals, tangents)
    ...     return [out], [t_out]
    >>> bp = stage(jvp, [ShapedArray((3,), np.float64)], [True])
    >>> run = bp.backward_run()
    >>> res = bp.primal_run()(np, [*bp.consts, np.zeros(3)])[1:]
    >>> run(np, [*bp.bwd_consts, *res, np.ones(3)])
    [array([1., 1., 1.])]
"""

from __future__ import annotations

from typing import Callable

from ..compile.native_kernels import straight_line_kernel
from ..compile.passes import Program, dce
from ..core.array import ArrayImpl, ShapedArray
from ..core.executor import straight_line
from ..core.ir import Eqn, Jaxpr, Literal, Var, split_by_dependence
from ..core.trace import ConcretizationError, new_trace
from .staging import StagingTrace
from .transpose import backward_pass

_PY = (int, float, bool, complex)


def _buf(c):
    return c._buf if type(c) is ArrayImpl else c


def prune(jaxpr: Jaxpr, consts: list) -> tuple[Jaxpr, list]:
    """``jaxpr`` without the equations and constants its outputs do not need (`dce`)."""
    prog = Program(list(jaxpr.constvars), dict(zip(jaxpr.constvars, consts)), list(jaxpr.invars),
                   list(jaxpr.eqns), list(jaxpr.outvars))
    dce(prog)
    return prog.to_jaxpr(), [prog.consts[v] for v in prog.constvars]


class BackwardProgram:
    """One operation's staged JVP, split and transposed (see the module docstring).

    ``primal``: (``consts``, primal inputs) -> (outputs, residuals);
    ``backward``: (``bwd_consts``, residuals, cotangents of the outputs with a tangent)
    -> cotangents of the differentiable inputs that get one (``in_mask``);
    ``ct_mask``: which outputs have a tangent; ``out_avals``: every output's aval."""

    __slots__ = ("primal", "consts", "backward", "bwd_consts", "n_out", "ct_mask", "in_mask",
                 "out_avals")

    def primal_run(self) -> Callable:
        return straight_line(self.primal, native=straight_line_kernel)

    def backward_run(self) -> Callable:
        return straight_line(self.backward, native=straight_line_kernel)

    def recompute(self, reads: tuple[tuple, tuple] | None = None) -> tuple[Jaxpr, list, tuple, tuple, tuple]:
        """The backward program as a function of the inputs, outputs and cotangents it
        reads: returns ``(jaxpr, consts, in_used, out_used, ct_used)``, the jaxpr's inputs
        being the used primal inputs, then the used outputs, then the used cotangents (by
        position among all inputs / outputs).  ``reads``: ``(in_used, out_used)`` to take
        as inputs instead (those it does not read are unused inputs); None when the program
        needs one that ``reads`` lacks."""
        pj, bj = self.primal, self.backward
        n_out = self.n_out
        n_res = len(pj.outvars) - n_out
        # outputs: read as inputs wherever the primal part would recompute them
        defined = {v for e in pj.eqns for v in e.outvars}
        out_vars: list = []
        rename: dict = {}
        for v in pj.outvars[:n_out]:
            if type(v) is Var and v in defined and v not in rename:
                rename[v] = Var(v.aval)
                out_vars.append(rename[v])
            else:
                out_vars.append(None)
        eqns = [Eqn(e.prim, [rename.get(v, v) if type(v) is Var else v for v in e.invars],
                    e.outvars, e.params) for e in pj.eqns]
        # the backward part reads the residuals the primal part computes
        link = {b: rename.get(r, r) if type(r) is Var else r
                for b, r in zip(bj.invars[:n_res], pj.outvars[n_out:])}
        ct_vars: list = []
        it = iter(bj.invars[n_res:])
        for m in self.ct_mask:
            ct_vars.append(next(it) if m else None)
        for e in bj.eqns:
            eqns.append(Eqn(e.prim, [link.get(v, v) if type(v) is Var else v for v in e.invars],
                            e.outvars, e.params))
        outvars = [link.get(v, v) if type(v) is Var else v for v in bj.outvars]
        jaxpr, consts = prune(
            Jaxpr(list(pj.constvars) + list(bj.constvars), [], eqns, outvars),
            list(self.consts) + list(self.bwd_consts))
        live = {v for e in jaxpr.eqns for v in e.invars if type(v) is Var}
        live.update(v for v in jaxpr.outvars if type(v) is Var)
        in_used = tuple(i for i, v in enumerate(pj.invars) if v in live)
        out_used = tuple(k for k, v in enumerate(out_vars) if v is not None and v in live)
        ct_used = tuple(k for k, v in enumerate(ct_vars) if v is not None and v in live)
        if reads is not None:
            if not (set(in_used) <= set(reads[0]) and set(out_used) <= set(reads[1])) or any(
                    out_vars[k] is None for k in reads[1]):
                return None
            in_used, out_used = reads
        jaxpr.invars = ([pj.invars[i] for i in in_used] + [out_vars[k] for k in out_used]
                        + [ct_vars[k] for k in ct_used])
        return jaxpr, consts, in_used, out_used, ct_used


def split(jaxpr: Jaxpr, n_primal: int, n_out: int) -> tuple[list, list, list]:
    """Split a staged JVP (inputs: ``n_primal`` primals then tangents; outputs: ``n_out``
    primal outputs then tangents) into ``(primal equations, linear equations, residuals)``:
    the linear equations are those that read a tangent (transitively), the residuals the
    non-tangent values they read or return (constants included), in first-use order.
    Raises `ConcretizationError` if a primal output depends on a tangent."""
    primal_eqns, linear_eqns, tangent = split_by_dependence(jaxpr.eqns, jaxpr.invars[n_primal:])
    if any(type(v) is not Literal and v in tangent for v in jaxpr.outvars[:n_out]):
        raise ConcretizationError("a primal output depends on the tangents")
    res: list = []
    seen: set = set()
    for v in [v for e in linear_eqns for v in e.invars] + list(jaxpr.outvars[n_out:]):
        if type(v) is not Literal and v not in tangent and v not in seen:
            seen.add(v)
            res.append(v)
    return primal_eqns, linear_eqns, res


def stage(jvp: Callable, args: list, diff: list, where: str = "backward program",
          zero_cts: frozenset = frozenset()) -> BackwardProgram:
    """Stage ``jvp(primals, tangents) -> (outputs, output tangents)`` (lists; a tangent
    None is zero) at the signature ``args`` (avals of array inputs; Python scalars stay
    constants) with tangents for the inputs where ``diff`` is true, and split, transpose
    and prune it into a `BackwardProgram`.  ``zero_cts``: positions of outputs whose
    cotangent is always zero (transposed as symbolic zeros: the program neither takes nor
    propagates them).  Raises `ConcretizationError` when the rule needs concrete values or
    a primal output depends on a tangent."""
    with new_trace(StagingTrace, where, partial=False) as st:
        st.linearizing = True
        primals = [a if type(a) in _PY else st.new_arg(a) for a in args]
        n_primal = len(st.invars)
        tangents = [st.new_arg(a) if d else None for a, d in zip(args, diff)]
        outs, t_outs = jvp(primals, tangents)
        out_avals = tuple(o.aval if hasattr(o, "aval") else ShapedArray((), type(o)) for o in outs)
        jaxpr, consts = st.to_jaxpr(list(outs) + [t for t in t_outs if t is not None])
    n_out = len(outs)
    primal_eqns, linear_eqns, res = split(jaxpr, n_primal, n_out)
    outvars, lin_outvars = jaxpr.outvars[:n_out], jaxpr.outvars[n_out:]
    primal, p_consts = prune(
        Jaxpr(jaxpr.constvars, jaxpr.invars[:n_primal], primal_eqns, list(outvars) + res),
        [_buf(c) for c in consts])
    linear = Jaxpr(res, jaxpr.invars[n_primal:], linear_eqns, lin_outvars)
    with new_trace(StagingTrace, where, partial=False) as st2:
        res_in = [st2.new_arg(v.aval) for v in res]
        with_ct = [k for k, t in enumerate(t_outs) if t is not None]  # output of each linear output
        ct_in = [None if k in zero_cts else st2.new_arg(v.aval) for k, v in zip(with_ct, lin_outvars)]
        cts = backward_pass(linear, res_in, ct_in)
        bwd, b_consts = st2.to_jaxpr([c for c in cts if c is not None])
    bp = BackwardProgram()
    bp.primal, bp.consts = primal, p_consts
    bp.backward, bp.bwd_consts = prune(bwd, [_buf(c) for c in b_consts])
    bp.n_out = n_out
    bp.ct_mask = [t is not None and k not in zero_cts for k, t in enumerate(t_outs)]
    bp.in_mask = [c is not None for c in cts]
    bp.out_avals = out_avals
    return bp


__all__ = ["BackwardProgram", "stage", "split", "prune"]
