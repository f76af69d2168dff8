"""Staging: record operations into a `Jaxpr` instead of running them.

A `StagingTrace` turns its tracers' operations into equations.  With ``partial=True`` it
is a *partial evaluator*: an operation none of whose inputs is one of its tracers is
"known" and runs at once in the parent trace; only operations that touch staged values are
recorded.  `linearize` uses that: it stages the tangent inputs, so the primal computation
runs eagerly while the (linear) tangent computation becomes a program we can evaluate
again or transpose.  ``partial=False`` stages everything: that is jit's tracer.
"""

from __future__ import annotations

import numpy as np

from ..core.array import ArrayImpl, ShapedArray, Tracer, concretization_error, get_aval, is_python_scalar
from ..core import x64_mode
from ..core.ir import Eqn, Jaxpr, Literal, Var
from ..core.trace import EVAL_TRACE, Trace, state
from ..core.primitive import eval_primitive
from ..core.provenance import CHECKS, RECORD_SOURCES, record_source


_COMPILE_TIME_EVAL = [0]  # > 0 inside `ensure_compile_time_eval`

# how a staging trace records custom_jvp / custom_vjp calls with their rules ("jvp", "vjp"):
# filled in by `fgrad.transforms.custom_call`, which builds on this module
CUSTOM_CALL_STAGING: dict = {}


class ensure_compile_time_eval:
    """Context manager: inside it, operations on values that are not traced (constants) run
    at once even under `jit`, so their results are concrete (JAX's
    ``jax.ensure_compile_time_eval``).  Operations on traced values are still staged.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> @fgrad.jit
        ... def f(x):
        ...     with fgrad.ensure_compile_time_eval():
        ...         n = int(fnp.sum(fnp.arange(4)))   # concrete: 6
        ...     return x * n
        >>> f(fnp.asarray(2.0))
        Array(12., dtype=float64, weak_type=True)
    """

    def __enter__(self):
        _COMPILE_TIME_EVAL[0] += 1
        return self

    def __exit__(self, *exc) -> None:
        _COMPILE_TIME_EVAL[0] -= 1


class ConstantTypeError(TypeError):
    """A value a staged function captured (a closure constant, an argument of a primitive) whose
    type no trace can hold: not an array, a NumPy scalar or a Python number.  Callers that can
    run the function eagerly instead (the PyTorch shim's cached forwards) catch exactly this
    and the concretization errors; any other exception while staging is a real error."""


class StagingTracer(Tracer):
    __slots__ = ("_var",)  # not "var": that is the array method `x.var()`
    staged = True

    def __init__(self, trace: "StagingTrace", var: Var) -> None:
        self._trace = trace
        self._var = var

    @property
    def aval(self) -> ShapedArray:
        return self._var.aval

    def __repr__(self) -> str:
        """JAX's: ``JitTracer(int32[3])``, ``~`` marking a weak type (``JitTracer(~float32[])``)."""
        av = self._var.aval
        return f"JitTracer({'~' if av.weak_type else ''}{av.str_short()})"

    __str__ = __repr__


class StagingTrace(Trace):
    __slots__ = ("partial", "linearizing", "eqns", "invars", "constvars", "consts", "_const_ids",
                 "hint")

    def __init__(self, parent, origin: str, partial: bool = False, hint: str = "") -> None:
        super().__init__(parent, origin)
        self.partial = partial
        # staging a JVP to split it into primal and linear parts (the tape's backward
        # programs): rules may then emit reverse-mode-friendly forms (control_flow's scan)
        self.linearizing = partial
        self.eqns: list[Eqn] = []
        self.invars: list[Var] = []
        self.constvars: list[Var] = []
        self.consts: list = []
        self._const_ids: dict[int, Var] = {}
        self.hint = hint

    def new_arg(self, aval: ShapedArray) -> StagingTracer:
        v = Var(aval)
        self.invars.append(v)
        return StagingTracer(self, v)

    def atom(self, x):
        """The IR atom for ``x``: its variable, a literal, or a captured constant."""
        if isinstance(x, StagingTracer) and x._trace is self:
            return x._var
        if is_python_scalar(x):
            return Literal(x, get_aval(x))
        if isinstance(x, np.generic) and x.dtype.kind in "biufc":
            # a NumPy scalar is inlined as JAX inlines it (`mul b 2.0:f32[]`), strongly typed:
            # the value in the dtype of its abstract value (narrowed with 64-bit types off)
            av = get_aval(x)
            return Literal(av.dtype.type(x), av)
        v = self._const_ids.get(id(x))
        if v is None:
            try:
                aval = get_aval(x)
            except TypeError as e:
                raise ConstantTypeError(f"a {type(x).__name__} cannot be a constant of a staged "
                                        f"function: {e}") from e
            v = Var(aval)
            self._const_ids[id(x)] = v
            self.constvars.append(v)
            self.consts.append(x)
        return v

    def is_own(self, x) -> bool:
        return isinstance(x, StagingTracer) and x._trace is self

    def process(self, prim, args, params):
        if self.partial or _COMPILE_TIME_EVAL[0]:
            for a in args:
                if type(a) is StagingTracer and a._trace is self:
                    break
            else:
                parent = self.parent
                if parent is EVAL_TRACE:
                    return eval_primitive(prim, args, params)
                return parent.process(prim, args, params)
        atoms = [self.atom(a) for a in args]
        out_aval = prim.abstract_eval(*[a.aval for a in atoms], **params)
        source = record_source() if CHECKS["on"] or RECORD_SOURCES["on"] else None
        if prim.multiple_results:
            outvars = [Var(av) for av in out_aval]
            self.eqns.append(Eqn(prim, atoms, outvars, params, source, "/".join(state.name_stack)))
            return [StagingTracer(self, v) for v in outvars]
        v = Var(out_aval)
        self.eqns.append(Eqn(prim, atoms, [v], params, source, "/".join(state.name_stack)))
        return StagingTracer(self, v)

    def concretize(self, tracer, what):
        raise concretization_error(tracer, what, self.hint)

    def process_custom_jvp(self, fun, jvp, args, symbolic_zeros=False):
        if self.partial and not any(self.is_own(a) for a in args):
            return self.parent.process_custom_jvp(fun, jvp, args, symbolic_zeros)
        stage = CUSTOM_CALL_STAGING.get("jvp")
        if stage is None:  # pragma: no cover - fgrad.transforms.custom_call not imported
            return super().process_custom_jvp(fun, jvp, args, symbolic_zeros)
        return stage(fun, jvp, args, symbolic_zeros)

    def process_custom_vjp(self, fun, fwd, bwd, args, out_tree_hint=None):
        if self.partial and not any(self.is_own(a) for a in args):
            return self.parent.process_custom_vjp(fun, fwd, bwd, args, out_tree_hint)
        stage = CUSTOM_CALL_STAGING.get("vjp")
        if stage is None:  # pragma: no cover - fgrad.transforms.custom_call not imported
            return super().process_custom_vjp(fun, fwd, bwd, args, out_tree_hint)
        return stage(fun, fwd, bwd, args, out_tree_hint)

    def to_jaxpr(self, outs) -> tuple[Jaxpr, list]:
        """Close the trace over ``outs``: returns the jaxpr and its constants."""
        outvars = [self.atom(o) for o in outs]
        consts = list(self.consts)
        if not x64_mode.enabled:  # raw 64-bit constants (NumPy arrays) narrowed, as their avals
            consts = [c if type(c) is ArrayImpl else x64_mode.narrow_buffer(c) for c in consts]
        return Jaxpr(list(self.constvars), list(self.invars), self.eqns, outvars), consts
