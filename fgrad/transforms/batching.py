"""Vectorization: `vmap`.

A `BatchTracer` holds a value with one extra axis, ``bdim``, the batch axis (its logical
shape is the value's shape without that axis).  Each primitive's ``batch`` rule computes the
batched result from batched inputs at once, so ``vmap(f)(xs)`` runs ``f`` a single time on
whole arrays.  A result whose batch axis is ``None`` is the same for every example and
leaves the trace as a plain value.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Hashable
from typing import Any

import numpy as np

from ..core.array import ShapedArray, Tracer, aval_text, get_aval, make_aval
from ..core.trace import Trace, concretization_error_type, caller_site, current, new_trace, origin, state
from ..core.constants import array_argument, zeros_like
from ..core.provenance import register_rule_frame
from ..ops.named_axes import FAMILY as NAMED_AXIS, as_varying_p, psum_invariant_p, pvary_p
from ..ops.shape import bdim_to_front, broadcast_to, expand_dims, move_or_broadcast, moveaxis
from ..tree_util import flatten_prefix, flatten_arrays as tree_flatten, tree_unflatten


class BatchTracer(Tracer):
    __slots__ = ("val", "bdim", "_aval")

    def __init__(self, trace, val, bdim: int) -> None:
        self._trace = trace
        self.val = val
        self.bdim = bdim
        self._aval = None

    @property
    def aval(self) -> ShapedArray:
        av = self._aval  # computed once: a rule asks several times, and val never changes
        if av is None:
            inner = get_aval(self.val)
            b = self.bdim
            av = self._aval = make_aval(inner.shape[:b] + inner.shape[b + 1:], inner.dtype, inner.weak_type)
        return av

    def __repr__(self) -> str:
        """JAX's: ``VmapTracer(aval=float32[], batched=float32[3])`` (the batched value's type)."""
        return f"VmapTracer(aval={aval_text(self.aval)}, batched={aval_text(get_aval(self.val))})"

    __str__ = __repr__


class BatchTrace(Trace):
    """``vma``: the examples are the blocks of a ``shard_map`` that tracks varying manual
    axes (``check_vma=True``): an unbatched value is *invariant* along the axis, a batched one
    *varying*, and reverse mode follows JAX's typed rules (`insert_pvary`).  ``processes``:
    how many processes the named axis spans (a ``pmap`` under ``mpiexec``: each process holds
    ``axis_size`` consecutive entries of an axis ``processes * axis_size`` long, and the
    named-axis collectives reduce over all of them); 1 for an ordinary vmap."""

    __slots__ = ("axis_size", "axis_name", "vma", "processes")

    def __init__(self, parent, origin: str, axis_size: int = 0, axis_name=None, processes: int = 1) -> None:
        super().__init__(parent, origin)
        self.axis_size = axis_size
        self.axis_name = axis_name
        self.vma = False
        self.processes = processes

    def split(self, args):
        vals, dims, found = [], [], False
        for a in args:
            if type(a) is BatchTracer and a._trace is self:
                vals.append(a.val)
                dims.append(a.bdim)
                found = True
            else:
                vals.append(a)
                dims.append(None)
        return vals, dims, found

    def process(self, prim, args, params):
        vals, dims, found = self.split(args)
        if not found and not (prim.family == NAMED_AXIS and self.axis_name in params["axes"]) and not (
                self.axis_name is not None and prim.declared.get("batch_axis_name")
                and holds_axis(params, self.axis_name)):
            return self.parent.process(prim, args, params)
        rule = prim.batch
        if self.axis_name is not None and prim.declared.get("batch_axis_name"):
            params = {**params, "bound_axis": self.axis_name}
            if self.processes > 1:
                params["bound_processes"] = self.processes
        if rule is None:
            raise NotImplementedError(
                f"Batching rule for '{prim.name}' not implemented: vmap cannot vectorize this "
                "primitive. Use a Python loop with fgrad.numpy.stack, or file an issue."
            )
        st = state
        saved, st.trace = st.trace, self.parent
        try:
            out, out_dim = rule(self.axis_size, vals, dims, **params)
        finally:
            st.trace = saved
        if prim.multiple_results:
            if isinstance(out_dim, int) or out_dim is None:
                out_dim = [out_dim] * len(out)
            return [o if d is None else BatchTracer(self, o, d) for o, d in zip(out, out_dim)]
        return out if out_dim is None else BatchTracer(self, out, out_dim)

    def concretize(self, tracer, what):
        raise concretization_error_type(what)(
            f"Python control flow ({what}) on a value that varies across the vmapped axis, at "
            f"{caller_site()}.\nUnder {self.origin} each example may take a different branch, so "
            "the value has no single Python truth value. Use `fgrad.numpy.where(cond, a, b)` "
            "or `fgrad.lax.cond`/`select` to choose per example."
        )

    def _to_front(self, vals, dims):
        return [
            broadcast_to(expand_dims(v, 0), (self.axis_size,) + get_aval(v).shape)
            if d is None else moveaxis(v, d, 0)
            for v, d in zip(vals, dims)
        ]

    def process_custom_jvp(self, fun, jvp, args, symbolic_zeros=False):
        vals, dims, found = self.split(args)
        if not found:
            return self.parent.process_custom_jvp(fun, jvp, args, symbolic_zeros)
        with current(self.parent):
            vals = self._to_front(vals, dims)
            n = self.axis_size

            def fun_b(*xs):
                return vmap(lambda *a: list(fun(*a)), axis_size=n)(*xs)

            def jvp_b(primals, tangents):
                def one(p, t):
                    o, to = jvp(list(p), list(t))
                    return list(o), [zeros_like(x) if y is None else y for x, y in zip(o, to)]

                return vmap(one, axis_size=n)(list(primals), list(tangents))

            jvp_b.__wrapped__ = getattr(jvp, "__wrapped__", jvp)  # the user's rule

            outs = self.parent.process_custom_jvp(fun_b, jvp_b, vals, symbolic_zeros)
        return [BatchTracer(self, o, 0) for o in outs]

    def process_custom_vjp(self, fun, fwd, bwd, args, out_tree_hint=None):
        vals, dims, found = self.split(args)
        if not found:
            return self.parent.process_custom_vjp(fun, fwd, bwd, args, out_tree_hint)
        n = self.axis_size
        with current(self.parent):
            vals = self._to_front(vals, dims)

            def fun_b(*xs):
                return vmap(lambda *a: list(fun(*a)), axis_size=n)(*xs)

            def fwd_b(*xs):
                return vmap(lambda *a: _list_first(fwd(*a)), axis_size=n)(*xs)

            def bwd_b(res, cts):
                return vmap(lambda r, c: list(bwd(r, c)), axis_size=n)(res, list(cts))

            bwd_b.__wrapped__ = getattr(bwd, "__wrapped__", bwd)  # the user's rule

            outs = self.parent.process_custom_vjp(fun_b, fwd_b, bwd_b, vals, out_tree_hint)
        return [BatchTracer(self, o, 0) for o in outs]


register_rule_frame(BatchTrace.process.__code__, "vmap")  # read by the NaN/inf checks' error


class _VmaScopes(threading.local):
    depth = 0  # how many vma batch traces are active (JVPTrace checks it before anything else)


vma_scopes = _VmaScopes()


def varying_axes(x) -> frozenset:
    """The names of the vma batch traces (``shard_map`` axes) along which ``x`` varies."""
    names = set()
    while isinstance(x, Tracer):
        if type(x) is BatchTracer:
            if x._trace.vma:
                names.add(x._trace.axis_name)
            x = x.val
        elif hasattr(x, "primal"):  # a tracer of a derivative transform outside the shard_map
            x = x.primal
        else:
            break
    return frozenset(names)


def active_vma_axes() -> frozenset:
    """The axis names of the active vma batch traces."""
    names, t = set(), state.trace
    while t is not None:
        if type(t) is BatchTrace and t.vma:
            names.add(t.axis_name)
        t = t.parent
    return frozenset(names)


def insert_pvary(prim, primals: list, tangents: list, params: dict) -> list:
    """JAX's implicit ``pvary`` in a shard_map body: where an operand that is invariant
    along a manual axis meets one that varies along it, its tangent is marked varying
    (``pvary``, identity on values), so that reverse mode sums its cotangent over the axis
    (pvary's transpose is ``psum``) -- the derivative of the whole mapped program, as JAX's
    ``check_vma=True`` gives.  Called by `JVPTrace.process` while a vma trace is active."""
    if all(t is None for t in tangents):
        return tangents
    if prim is pvary_p or prim is psum_invariant_p or prim is as_varying_p:
        return tangents
    if prim.family == NAMED_AXIS:  # a collective over an invariant operand: pvary, then the collective
        union = frozenset(params.get("axes", ())) & active_vma_axes()
    elif len(primals) < 2:
        return tangents
    else:
        union = None
    kinds = [varying_axes(p) for p in primals]
    if union is None:
        union = frozenset().union(*kinds)
    if not union:
        return tangents
    out = list(tangents)
    for i, (k, t) in enumerate(zip(kinds, tangents)):
        missing = union - k
        if t is not None and missing:
            out[i] = pvary_p.bind(t, axes=tuple(sorted(missing, key=str)))
    return out


def _list_first(pair):
    outs, res = pair
    return list(outs), res


_as_array = array_argument  # a Python number (an unmapped output computed from Python numbers)
# is weakly typed, as JAX's: vmap(lambda x, y: y * 2., in_axes=(0, None))(xs, 4.) is weak float32


def vmap(fun: Callable[..., Any], in_axes: Any = 0, out_axes: Any = 0, axis_name: Hashable | None = None,
         axis_size: int | None = None, spmd_axis_name: Hashable | tuple[Hashable, ...] | None = None
         ) -> Callable[..., Any]:
    """Vectorize ``fun`` over an axis of its arguments.

    ``in_axes``/``out_axes``: an int, None (not mapped), or a pytree prefix of the
    arguments/outputs; negative axes count from the end.  ``spmd_axis_name`` (JAX: the mesh
    axis the mapped axis is sharded over) is accepted and has no effect: fgrad keeps each
    array whole on one device.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> fgrad.vmap(fnp.dot, in_axes=(0, None))(fnp.ones((3, 2)), fnp.arange(2.0))
        Array([1., 1., 1.], dtype=float64)
    """
    if not callable(fun):
        raise TypeError(f"vmap: expected a callable value, got {fun!r}")
    if isinstance(in_axes, list):
        in_axes = tuple(in_axes)
    _check_axis_spec(in_axes, "in_axes")
    _check_axis_spec(out_axes, "out_axes")
    if axis_size is not None and (not isinstance(axis_size, (int, np.integer)) or axis_size < 0):
        raise TypeError(f"vmap: axis_size must be a non-negative int or None, got {axis_size!r}")
    for name in spmd_axis_name if isinstance(spmd_axis_name, tuple) else (spmd_axis_name,):
        hash(name)  # TypeError for an unhashable mesh axis name, as JAX

    def vmapped(*args, **kwargs):
        # keyword arguments are mapped over axis 0, like JAX
        axes = in_axes
        if isinstance(axes, tuple) and len(axes) != len(args):
            raise ValueError(
                f"vmap in_axes must be an int, None, or a tuple of entries corresponding to the "
                f"positional arguments passed to the function, but got len(in_axes)={len(axes)}, "
                f"len(args)={len(args)}"
            )
        flat_args, tree_args = tree_flatten(args)
        flat_kw, tree_kw = tree_flatten(kwargs)
        if isinstance(axes, int):
            flat_axes = [axes] * len(flat_args)
        else:
            flat_axes = flatten_prefix(axes, args, "vmap in_axes")
        flat_axes = flat_axes + [0] * len(flat_kw)
        flat_all = flat_args + flat_kw
        sizes = {}
        norm_axes = []
        for i, (x, ax) in enumerate(zip(flat_all, flat_axes)):
            if ax is None:
                norm_axes.append(None)
                continue
            av = get_aval(x)
            if not -av.ndim <= ax < av.ndim or av.ndim == 0:
                raise ValueError(
                    f"vmap was requested to map its argument along axis {ax}, which implies "
                    f"that its rank should be at least {max(ax + 1, -ax)}, but is only "
                    f"{av.ndim} (its shape is {av.shape})"
                )
            ax = ax % av.ndim
            norm_axes.append(ax)
            sizes.setdefault(av.shape[ax], []).append(i)
        if len(sizes) > 1 or (sizes and axis_size is not None and axis_size not in sizes):
            desc = "; ".join(
                f"size {s} for flat argument(s) {idx} (shapes "
                f"{', '.join(str(get_aval(flat_all[i]).shape) for i in idx[:3])})"
                for s, idx in sizes.items())
            given = f"the axis_size argument was {axis_size}; " if axis_size is not None else ""
            raise ValueError(
                f"vmap got inconsistent sizes for array axes to be mapped: {given}{desc}. All "
                "mapped axes must have the same length; use in_axes=None for arguments that "
                "should not be mapped."
            )
        if sizes:
            n = next(iter(sizes))
        elif axis_size is not None:
            n = axis_size
        else:
            raise ValueError("vmap must have at least one non-None value in in_axes (or pass axis_size)")
        where = origin(f"vmap of {getattr(fun, '__name__', 'function')}")
        with new_trace(BatchTrace, where, axis_size=n, axis_name=axis_name) as trace:
            ins = [
                x if ax is None else BatchTracer(trace, _as_array(x), ax)
                for x, ax in zip(flat_all, norm_axes)
            ]
            a = tree_unflatten(tree_args, ins[: len(flat_args)])
            kw = tree_unflatten(tree_kw, ins[len(flat_args):])
            out = fun(*a, **kw)
            flat_out, tree_out = tree_flatten(out)
            if isinstance(out_axes, int) or out_axes is None:
                flat_oax = [out_axes] * len(flat_out)
            else:
                flat_oax = flatten_prefix(out_axes, out, "vmap out_axes")
            results = []

            for o, oax in zip(flat_out, flat_oax):
                if type(o) is BatchTracer and o._trace is trace:
                    val, bd = o.val, o.bdim
                    if oax is None:
                        raise ValueError(
                            "vmap has mapped output but out_axes is None: the output varies "
                            "along the mapped axis, so it cannot be returned unmapped"
                        )
                else:
                    val, bd = o, None
                if oax is None:
                    results.append(val)
                    continue
                val = _as_array(val)
                nd = get_aval(val).ndim + (1 if bd is None else 0)
                if not -nd <= oax < nd:
                    raise ValueError(f"vmap out_axes={oax} is out of range for an output of rank {nd - 1}")
                oax = oax % nd
                results.append(move_or_broadcast(val, bd, oax, n))
        return tree_unflatten(tree_out, results)

    vmapped.__name__ = f"vmap_{getattr(fun, '__name__', 'function')}"
    vmapped.__wrapped__ = fun
    return vmapped


def holds_axis(params: dict, name: Hashable) -> bool:
    """Whether a program among ``params`` (a jit's, a loop's body, a cond's branches: anything
    with a ``jaxpr``), or one nested in it, holds a collective over the axis ``name``: such a
    higher-order primitive is batched along the axis even when no operand varies along it
    (``jit(lambda: lax.psum(1, "i"))()`` inside a map over ``"i"``)."""
    todo = [v for v in params.values()]
    while todo:
        v = todo.pop()
        if isinstance(v, (tuple, list)):
            todo.extend(v)
            continue
        jaxpr = getattr(v, "jaxpr", None)
        if jaxpr is None or not hasattr(jaxpr, "eqns"):
            continue
        for e in jaxpr.eqns:
            if e.prim.family == NAMED_AXIS and name in e.params.get("axes", ()):
                return True
            todo.extend(e.params.values())
    return False


def vmap_on_axis(fun: Callable, *, in_axes: Any, axis_size: int | None, axis_name: Hashable | None,
                 processes: int = 1, out_axes: Any = 0) -> Callable:
    """``vmap(fun, ...)`` whose trace binds ``axis_name`` spanning ``processes`` processes
    (`BatchTrace.processes`): what a batching rule of a higher-order primitive (cond, scan,
    while) uses to re-map its body over the axis it was batched along, so that named-axis
    collectives in the body reduce over it; and what pmap maps with."""
    if processes > 1:
        inner = fun

        def fun(*args, **kwargs):
            state.trace.processes = processes  # (vmap runs fun with its own trace current)
            return inner(*args, **kwargs)

    return vmap(fun, in_axes=in_axes, out_axes=out_axes, axis_name=axis_name, axis_size=axis_size)


def _check_axis_spec(spec, what: str) -> None:
    """Each leaf of an in_axes/out_axes specification is an int or None."""
    bad = [a for a in tree_flatten(spec, is_leaf=lambda v: v is None)[0]
           if a is not None and (not isinstance(a, (int, np.integer)) or isinstance(a, bool))]
    if bad:
        raise TypeError(
            f"vmap {what} must be an int, None, or a (nested) tuple/list/dict of them matching "
            f"the arguments, but got {spec!r} (entry {bad[0]!r} of type {type(bad[0]).__name__})."
        )


def every_example_true(value) -> bool:
    """Whether every element of ``value`` is true in every example of the enclosing vmaps:
    a batched value is checked whole (PyTorch's batching rule of ``torch._is_all_true``, which
    its distributions' argument validation calls under ``torch.func.vmap``); under
    differentiation the primal is checked; a staged value refuses as ``bool()`` does.

    >>> import numpy as np
    >>> every_example_true(np.array([True, False]))
    False
    """
    while isinstance(value, Tracer):
        if isinstance(value, BatchTracer):
            value = value.val
        elif hasattr(value, "primal"):
            value = value.primal
        else:
            value = value._concrete("bool()")
    return bool(np.all(np.asarray(value)))


__all__ = ["vmap", "every_example_true", "vmap_on_axis", "holds_axis", "BatchTrace", "BatchTracer",
           "move_or_broadcast",
           "bdim_to_front", "insert_pvary", "varying_axes", "vma_scopes"]
