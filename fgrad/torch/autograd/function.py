"""`autograd.Function`: user-defined forward/backward pairs.

``MyFn.apply(*args)`` runs ``forward(ctx, *args)`` without recording, then records one node
(named ``MyFnBackward``) that *is* the ``ctx``: it holds the saved tensors and calls
``backward(ctx, *grads)`` during the backward pass -- with grad mode on under
``create_graph=True``, so a backward written with tensor ops can be differentiated again
(unless it is marked `once_differentiable`).  Under fgrad transforms (functional mode, see
`fgrad.torch.func`) ``apply`` becomes an ``fgrad.custom_vjp`` with the same forward and
backward.
"""

from __future__ import annotations

import contextlib
import functools

import numpy as np
from ...core.narrow_floats import dtype_kind as _dtype_kind

import fgrad.torch._device as _dev
from .._device import DEV as _DEV
from .._tensor import Tensor, _alias, _wrap
import fgrad.torch.autograd.graph as G
from .grad_mode import STATE, enable_grad, no_grad
from .saved_tensors import HOOKS as _HOOKS, SavedTensor as _SavedTensor, pack as _pack
from ...core.array import ArrayImpl
from ...core.array import wrap as awrap
from ...transforms.custom import custom_vjp
from ...transforms.jvp_trace import ForwardTrace, JVPTracer
from ...core.array import Tracer
from ...transforms.batching import BatchTrace, BatchTracer
from ...core.trace import current as _current_trace
from .._dual_state import LEVEL as _DUAL
import fgrad.numpy as fnp
from collections.abc import Callable
from typing import Any, NamedTuple

_nd = np.ndarray


def _buf_index(b):
    """The CUDA index of a buffer (None: the host)."""
    return _dev.index_of(b) if type(b) in _DEV else None


class FunctionCtx:
    """Methods available on ``ctx`` (the backward node) inside ``forward``/``backward``.

    Example::

        >>> import fgrad.torch as torch
        >>> class Scale(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x, k):
        ...         ctx.k = k
        ...         return x * k
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         print(ctx.needs_input_grad)
        ...         return g * ctx.k, None
        ...
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> Scale.apply(x, 3.0).sum().backward()
        (True, False)
        >>> x.grad
        tensor([3., 3.])
    """

    def save_for_backward(self, *tensors: Any) -> None:
        for t in tensors:
            if t is not None and not isinstance(t, Tensor):
                raise TypeError(
                    f"save_for_backward can only save variables, but argument 0 is of type {type(t).__name__}"
                )
        self._to_save = tensors

    def save_for_forward(self, *tensors: Any) -> None:
        self._saved_fwd = tensors

    def mark_dirty(self, *tensors: Any) -> None:
        self._dirty = tensors

    def mark_non_differentiable(self, *outputs: Any) -> None:
        self._non_diff = {id(o) for o in outputs}

    def set_materialize_grads(self, value: bool) -> None:
        self._materialize = bool(value)

    @property
    def saved_tensors(self) -> tuple:
        saved = self.__dict__.get("_saved")
        if saved is G._RELEASED:
            raise RuntimeError(
                "Trying to backward through the graph a second time (or directly access saved tensors after "
                "they "
                "have already been freed). Saved intermediate values of the graph are freed when you call "
                ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through "
                "the "
                "graph a second time or if you need to access saved tensors after calling backward."
            )
        if saved is None:
            return tuple(getattr(self, "_to_save", ()))
        out = []
        for entry in saved:
            if entry is None:
                out.append(None)
                continue
            if type(entry) is _SavedTensor:  # packed by saved-tensor hooks
                out.append(entry.value(self))
                continue
            t, ver, is_out = entry
            if t._vc is not None and t._vc.v != ver:
                gfn = t._gfn
                G._raise_modified(
                    t._buf, t._vc.v, ver, None if gfn is None or gfn is self else type(gfn).__name__
                )
            out.append(t)
        return tuple(out)

    saved_variables = saved_tensors


class BackwardCFunction(G.Node, FunctionCtx):
    """The node of one ``Function.apply`` call (also its ``ctx``).

    Example::

        >>> import fgrad.torch as torch
        >>> class Double(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         return 2 * x
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         return 2 * g
        ...
        >>> y = Double.apply(torch.tensor([1.0], requires_grad=True))
        >>> isinstance(y.grad_fn, torch.autograd.function.BackwardCFunction)
        True
    """

    _fn_cls = None

    def __init__(self) -> None:
        G.Node.__init__(self)
        self._materialize = True

    def _n_outputs(self) -> int:
        return self._nout

    def _release(self) -> None:
        if self.__dict__.get("_saved") is not None:
            self._saved = G._RELEASED

    def _apply(self, cts, create_graph):
        cls = self._fn_cls
        grads = []
        for k, c in enumerate(cts):
            if c is None:
                if self._materialize:
                    shape, dt, di = self._out_meta[k]
                    c = np.zeros(shape, dt) if di is None else _dev.full(shape, 0, dt, di)
                else:
                    grads.append(None)
                    continue
            grads.append(c if isinstance(c, Tensor) else _wrap(c))
        if getattr(cls.backward, "_once_differentiable", False) or not create_graph:
            with no_grad():
                res = cls.backward(self, *grads)
        else:
            res = cls.backward(self, *grads)
        if not isinstance(res, tuple):
            res = (res,)
        n_in = self._n_inputs
        if len(res) != n_in:
            if len(res) > n_in and all(r is None for r in res[n_in:]):
                res = res[:n_in]
            else:
                raise RuntimeError(
                    f"function {type(self).__name__} returned an incorrect number of gradients "
                    f"(expected {n_in}, got {len(res)})"
                )
        out = []
        for pos, meta in zip(self._edge_args, self._in_meta, strict=False):
            g = res[pos]
            if g is None:
                out.append(None)
                continue
            if not isinstance(g, Tensor):
                raise TypeError(
                    f"function {type(self).__name__} returned a gradient of type {type(g).__name__} at "
                    f"index {pos}; expected a Tensor or None"
                )
            g = _validate(g, meta, pos, type(self).__name__, create_graph)
            out.append(g if create_graph else g._buf)
        return out

    def __repr__(self) -> str:
        return f"<torch.autograd.function.{type(self).__name__} object at {hex(id(self))}>"


def _validate(g: Tensor, meta, pos, name, create_graph):
    shape, dt, di = meta
    gi = _buf_index(g._buf)
    if gi != di:
        want = "cpu" if di is None else f"cuda:{di}"
        got = "cpu" if gi is None else f"cuda:{gi}"
        raise RuntimeError(f"Function {name} returned an invalid gradient at index {pos} - expected device "
                           f"{want} but got {got}")
    if g._buf.shape != shape:
        try:
            bs = np.broadcast_shapes(shape, g._buf.shape)
        except ValueError:
            bs = None
        if bs != g._buf.shape or bs is None:
            raise RuntimeError(
                f"Function {name} returned an invalid gradient at index {pos} - got "
                f"{list(g._buf.shape)} but expected shape compatible with {list(shape)}"
            )
        from .._ops import sum as sum_, reshape

        lead = len(g._buf.shape) - len(shape)
        axes = tuple(range(lead)) + tuple(
            i + lead for i, s in enumerate(shape) if s == 1 and g._buf.shape[i + lead] != 1
        )
        g = reshape(sum_(g, axes), shape) if axes else reshape(g, shape)
    if g._buf.dtype != dt:
        g = g.to(dt) if create_graph else _wrap(g._buf.astype(dt))
    return g


class FunctionMeta(type):
    """Creates the backward node class (``<Name>Backward``) of each Function subclass."""

    def __init__(cls, name, bases, attrs) -> None:
        super().__init__(name, bases, attrs)
        cls._backward_cls = type(name + "Backward", (BackwardCFunction,), {"_fn_cls": cls})


class Function(metaclass=FunctionMeta):
    """Base class for custom autograd operations.

    Example::

        >>> import fgrad.torch as torch
        >>> class Square(torch.autograd.Function):
        ...     @staticmethod
        ...     def forward(ctx, x):
        ...         ctx.save_for_backward(x)
        ...         return x * x
        ...     @staticmethod
        ...     def backward(ctx, g):
        ...         (x,) = ctx.saved_tensors
        ...         return 2 * x * g
        >>> x = torch.tensor([3.0], requires_grad=True)
        >>> Square.apply(x).backward()
        >>> x.grad
        tensor([6.])
    """

    generate_vmap_rule = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        pass

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(
            "Legacy autograd function with non-static forward method is deprecated. Please use new-style "
            "autograd "
            "function with static forward method. (Example: https://pytorch.org/docs/stable/autograd.html"
            "#torch.autograd.Function)"
        )

    @staticmethod
    def forward(ctx: Any, *args: Any, **kwargs: Any) -> Any:
        raise NotImplementedError("You must implement the forward function for custom autograd.Function.")

    @staticmethod
    def setup_context(ctx: Any, inputs: tuple[Any, ...], output: Any) -> None:
        raise NotImplementedError("setup_context is not implemented.")

    @staticmethod
    def backward(ctx: Any, *grad_outputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement either the backward or vjp method for your custom "
            "autograd.Function to use it with backward mode AD."
        )

    vjp = backward

    @staticmethod
    def jvp(ctx: Any, *grad_inputs: Any) -> Any:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward mode AD."
        )

    @staticmethod
    def vmap(info: Any, in_dims: tuple[Any, ...], *args: Any) -> Any:
        raise NotImplementedError(
            "To use autograd.Function with vmap, you must either override the vmap staticmethod or set "
            "generate_vmap_rule=True."
        )

    @classmethod
    def apply(cls, *args: Any, **kwargs: Any) -> Any:
        if any(isinstance(a, Tensor) and type(a._buf) is not _nd and type(a._buf) not in _DEV for a in args):
            if _DUAL.trace is not None and any(_is_dual(a, _DUAL.trace) for a in args):
                return _apply_forward_ad(cls, args, kwargs, _DUAL.trace)
            fwd = _forward_level(args)
            if fwd is not None:  # torch.func.jvp / jacfwd: the Function's jvp staticmethod
                return _apply_forward_ad(cls, args, kwargs, fwd, dual_api=False)
            out = _call_vmap_rule(cls, args, kwargs)  # vmap innermost: the vmap staticmethod
            return _apply_functional(cls, args, kwargs) if out is None else out
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) and a.requires_grad for a in args)
        with no_grad():
            outputs = _call_forward(cls, ctx, args, kwargs)
        single = not isinstance(outputs, tuple)
        outs = (outputs,) if single else tuple(outputs)
        record = STATE.enabled and any(ctx.needs_input_grad)
        if not record:
            return outputs
        in_ids = {id(a) for a in args if isinstance(a, Tensor)}
        non_diff = getattr(ctx, "_non_diff", set())
        dirty = {id(t) for t in getattr(ctx, "_dirty", ())}
        fixed = []
        for o in outs:
            if isinstance(o, Tensor) and id(o) in in_ids and id(o) not in dirty:
                o2 = _alias(o)  # an input returned as-is becomes a new tensor (a view of it)
                if id(o) in non_diff:
                    non_diff = set(non_diff) | {id(o2)}
                o = o2
            fixed.append(o)
        outs = tuple(fixed)
        ctx._n_inputs = len(args)
        ctx._edge_args = tuple(i for i, a in enumerate(args) if isinstance(a, Tensor))
        ctx._in_meta = tuple(
            (args[i]._buf.shape, args[i]._buf.dtype, _buf_index(args[i]._buf)) for i in ctx._edge_args
        )
        ctx._next = tuple(G.edge_of(args[i]) for i in ctx._edge_args)
        ctx._nout = len(outs)
        ctx._out_meta = tuple(
            (o._buf.shape, o._buf.dtype, _buf_index(o._buf)) if isinstance(o, Tensor)
            else ((), np.float32, None)
            for o in outs
        )
        for k, o in enumerate(outs):
            if isinstance(o, Tensor) and id(o) not in non_diff and _dtype_kind(o._buf.dtype) in "fc":
                if id(o) in dirty:
                    o._get_vc()
                o._gfn = ctx
                o._oi = k
                o._rg = False
                o._nograd_view = False  # a view forward() made (under no_grad) gets this node
        to_save = getattr(ctx, "_to_save", None)
        if to_save is not None:
            saved = []
            out_ids = {id(o): k for k, o in enumerate(outs)}
            hooked = bool(_HOOKS.stack)
            for t in to_save:
                if t is None:
                    saved.append(None)
                elif hooked:
                    k = out_ids.get(id(t))
                    saved.append(_pack(t, G.edge_of(t) if k is None else None, k))
                else:
                    saved.append((t, t._get_vc().v, id(t) in out_ids))
            ctx._saved = saved
            del ctx._to_save
        else:
            ctx._saved = None
        return outs[0] if single else outs


class InplaceFunction(Function):
    """A `Function` that may modify its input in place (``inplace`` set by the constructor; PyTorch's
    legacy base).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.function import InplaceFunction
        >>> issubclass(InplaceFunction, torch.autograd.Function)
        True
    """
    def __init__(self, inplace: bool = False) -> None:
        self.inplace = inplace


class NestedIOFunction(Function):
    """PyTorch's legacy `Function` base for nested inputs and outputs (a plain `Function` here).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.autograd.function import NestedIOFunction
        >>> issubclass(NestedIOFunction, torch.autograd.Function)
        True
    """
    pass


def once_differentiable(fn: Callable[..., Any]) -> Callable[..., Any]:
    """Mark a ``backward`` as differentiable once only: it runs without recording (so it may
    use NumPy on ``.numpy()`` values)."""

    @functools.wraps(fn)
    def wrapper(ctx, *args):
        with no_grad():
            return fn(ctx, *args)

    wrapper._once_differentiable = True
    return wrapper


def _call_forward(cls, ctx, args, kwargs):
    """``cls.forward`` on ``args``: new style (``forward(*args)``, then ``setup_context``) or old
    style (``forward(ctx, *args)``) -- the one call eager, functional and forward-AD ``apply`` share.
    Under vmap a new-style Function with its own ``vmap`` staticmethod computes its outputs by
    that rule (`_call_vmap_rule`); ``setup_context`` still sees the logical inputs and outputs."""
    if cls.setup_context is not Function.setup_context:
        outputs = _call_vmap_rule(cls, args, kwargs)
        if outputs is None:
            outputs = cls.forward(*args, **kwargs)
        cls.setup_context(ctx, tuple(args), outputs)
        return outputs
    return cls.forward(ctx, *args, **kwargs)


class VmapInfo(NamedTuple):
    """What a Function's ``vmap`` staticmethod learns of the vmap it runs under."""

    batch_size: int
    randomness: str


def _innermost(traces):
    """The trace of ``traces`` nested inside all the others (the vmap applied last)."""
    for t in traces:
        outer, p = set(), t.parent
        while p is not None:
            outer.add(id(p))
            p = p.parent
        if all(u is t or id(u) in outer for u in traces):
            return t
    raise RuntimeError("autograd.Function.vmap: arguments batched by unrelated vmaps")


def _call_vmap_rule(cls, args, kwargs):
    """The outputs of ``cls`` on ``args`` by its user-written ``vmap`` staticmethod when some
    tensor argument is batched by the innermost trace, a vmap (PyTorch's
    ``custom_function_call_vmap``); None otherwise (the forward is batched primitive by primitive,
    as ``generate_vmap_rule=True`` asks).  Called by ``apply`` (the physical batch axes as the
    caller's ``in_dims`` made them) and by `_call_forward` for a forward run inside a
    grad under the vmap (``vmap(grad(f))``: the arguments are batched, the innermost trace is
    the grad's).  The rule sees the physical tensors (batch axis included) and ``in_dims``;
    it returns ``(outputs, out_dims)`` and the outputs become batched again."""
    if cls.vmap is Function.vmap or cls.generate_vmap_rule:
        return None
    traces = {id(a._buf._trace): a._buf._trace for a in args
              if isinstance(a, Tensor) and isinstance(a._buf, Tracer)}
    if not traces:
        return None
    trace = _innermost(list(traces.values()))
    if type(trace) is not BatchTrace:
        return None
    in_dims = tuple(a._buf.bdim if isinstance(a, Tensor) and type(a._buf) is BatchTracer
                    and a._buf._trace is trace else None for a in args)
    from .._dispatch import from_fgrad_value

    phys = [from_fgrad_value(a._buf.val) if d is not None else a for a, d in zip(args, in_dims)]
    with _current_trace(trace.parent):
        result = cls.vmap(VmapInfo(trace.axis_size, getattr(trace, "randomness", "error")), in_dims,
                          *phys, **kwargs)
    if not (isinstance(result, tuple) and len(result) == 2):
        raise RuntimeError(f"{cls.__name__}.vmap must return a tuple of two elements (outputs, out_dims), "
                           f"got {type(result).__name__}")
    out, out_dims = result
    single = not isinstance(out, tuple)
    outs = (out,) if single else tuple(out)
    dims = (out_dims,) * len(outs) if out_dims is None or isinstance(out_dims, int) else tuple(out_dims)
    if len(dims) != len(outs):
        raise ValueError(f"{cls.__name__}.vmap returned {len(outs)} outputs but {len(dims)} out_dims")
    wrapped = tuple(_wrap(BatchTracer(trace, as_value(o), d)) if isinstance(o, Tensor) and d is not None
                    else o for o, d in zip(outs, dims))
    return wrapped[0] if single else wrapped


# -- forward AD: Function.apply on dual tensors ------------------------------------------


def _is_dual(a, trace) -> bool:
    return isinstance(a, Tensor) and type(a._buf) is JVPTracer and a._buf._trace is trace


def _forward_level(args):
    """The forward-mode trace of ``torch.func.jvp``/``jacfwd`` (a `ForwardTrace`) when it is the
    innermost transform of ``args`` (the tangents to push through the Function's ``jvp``);
    None otherwise (reverse mode and vmap: `_apply_functional`)."""
    traces = {id(a._buf._trace): a._buf._trace for a in args
              if isinstance(a, Tensor) and isinstance(a._buf, Tracer)}
    if not traces:
        return None
    inner = _innermost(list(traces.values()))
    return inner if type(inner) is ForwardTrace else None


def _apply_forward_ad(cls, args, kwargs, trace, dual_api=True):
    """``cls.apply`` on dual tensors: ``forward`` runs on the primals and the outputs' tangents
    are ``cls.jvp(ctx, *input_tangents)``, as in PyTorch (which requires a ``jvp`` staticmethod
    for forward mode).  ``trace``: the dual level (``torch.autograd.forward_ad``, ``dual_api``)
    or the forward trace of ``torch.func.jvp``/``jacfwd``, where the forward is not run under
    no_grad (a reverse-mode transform below still differentiates it)."""
    if cls.jvp is Function.jvp:
        raise NotImplementedError(
            "You must implement the jvp function for custom autograd.Function to use it with forward "
            "mode AD.")
    from .._dispatch import from_fgrad_value
    from .._dual_marks import mark_no_reverse, requires_reverse

    primals, tangents = [], []
    for a in args:
        if _is_dual(a, trace):
            primals.append(from_fgrad_value(a._buf.primal))
            tangents.append(from_fgrad_value(a._buf.tangent))
        else:
            primals.append(a)
            tangents.append(from_fgrad_value(fnp.zeros_like(as_value(a))) if isinstance(a, Tensor) else None)
    ctx = cls._backward_cls()
    ctx.needs_input_grad = tuple(isinstance(a, Tensor) for a in args)
    with no_grad() if dual_api else contextlib.nullcontext():
        outputs = _call_forward(cls, ctx, primals, kwargs)
    if getattr(ctx, "_saved_fwd", None) is not None:
        ctx._to_save = ctx._saved_fwd
    ctx._saved = None
    t_out = cls.jvp(ctx, *tangents)
    single = not isinstance(outputs, tuple)
    outs = (outputs,) if single else tuple(outputs)
    t_outs = (t_out,) if not isinstance(t_out, tuple) else tuple(t_out)
    if len(t_outs) != len(outs):
        raise RuntimeError(f"function {cls.__name__}.jvp returned an incorrect number of forward gradients "
                           f"(expected {len(outs)}, got {len(t_outs)})")
    res = []
    for o, t in zip(outs, t_outs, strict=True):
        if isinstance(o, Tensor) and isinstance(t, Tensor) and _dtype_kind(o._buf.dtype) in "fc":
            if tuple(t.shape) != tuple(o.shape):
                raise RuntimeError(f"function {cls.__name__}.jvp returned a tangent of shape {list(t.shape)} "
                                   f"for an output of shape {list(o.shape)}")
            d = _wrap(JVPTracer(trace, as_value(o), as_value(t)))
            if dual_api:
                _DUAL.track(d)
                if STATE.enabled and requires_reverse(args):
                    mark_no_reverse(d)
            res.append(d)
        else:
            res.append(o)
    return res[0] if single else tuple(res)


def as_value(t):
    """The fgrad value a tensor holds (its buffer wrapped, or its tracer)."""
    b = t._buf
    return awrap(b) if type(b) is _nd or type(b) in _DEV else b


# -- functional mode: Function.apply inside fgrad transforms ----------------------------


def _apply_functional(cls, args, kwargs):

    tensor_pos = [i for i, a in enumerate(args) if isinstance(a, Tensor)]

    def as_val(t):
        b = t._buf
        return awrap(b) if type(b) is _nd or type(b) in _DEV else b

    def run_forward(vals):
        full = list(args)
        for i, v in zip(tensor_pos, vals, strict=False):
            full[i] = _wrap(v)
        ctx = cls._backward_cls()
        ctx.needs_input_grad = tuple(isinstance(a, Tensor) for a in full)
        out = _call_forward(cls, ctx, full, kwargs)
        single = not isinstance(out, tuple)
        outs = (out,) if single else tuple(out)
        ctx._saved = None
        vals_out = tuple(o._buf if isinstance(o, Tensor) else o for o in outs)
        return vals_out, ctx, single

    def f(*vals):
        return run_forward(vals)[0]

    fcv = custom_vjp(f)

    def fwd(*vals):
        out, ctx, _ = run_forward(vals)
        return out, (ctx, tuple(awrap(np.zeros(())) for _ in ()))

    def bwd(res, cts):
        ctx = res[0]
        grads = [_wrap(c._buf if type(c) is ArrayImpl else c) for c in cts]
        backward = cls.backward
        if getattr(backward, "_once_differentiable", False):  # traced: differentiable anyway
            backward = backward.__wrapped__
        with enable_grad():  # traced values under no_grad would stop the backward's derivative
            g = backward(ctx, *grads)
        if not isinstance(g, tuple):
            g = (g,)
        outs = []
        for i in tensor_pos:
            gi = g[i] if i < len(g) else None
            if gi is None:

                outs.append(fnp.zeros_like(as_val(args[i])))
            else:
                outs.append(as_val(gi))
        return tuple(outs)

    fcv.defvjp(fwd, bwd)
    res = fcv(*[as_val(args[i]) for i in tensor_pos])
    from .._dispatch import from_fgrad_value

    outs = tuple(from_fgrad_value(r) for r in res)
    return outs[0] if len(outs) == 1 else outs


__all__ = [
    "Function",
    "FunctionCtx",
    "BackwardCFunction",
    "once_differentiable",
    "InplaceFunction",
    "NestedIOFunction",
]
