"""``torch.autograd.backward`` and ``torch.autograd.grad``: the entry points that seed the
tape's roots with their gradients and run the engine in `graph`.

Kept apart from the package so that `functional` and `gradcheck` import ``grad`` from here,
below the package ``__init__`` that re-exports them."""

from __future__ import annotations

import numpy as np
from ...core.narrow_floats import dtype_kind as _dtype_kind

import fgrad.torch._device as _dev
import fgrad.torch.autograd.graph as graph

from .._device import DEV as _DEV
from .._ops_creation import tensor as _tensor_of
from .._ops_creation import zeros_like as _zeros_like
from .._tensor import Tensor, _wrap
from .._dual_state import LEVEL as _DUAL_LEVEL, NO_REVERSE as _NO_REVERSE
from ...transforms.jvp_trace import JVPTracer
from fgrad.torch.types import TensorOrTensors
from collections.abc import Sequence

def _tensors(x):
    if isinstance(x, (Tensor, graph.GradientEdge)):
        return [x]
    if x is None:
        return []
    return list(x)


def _make_grads(outputs, grads, create_graph, is_grads_batched=False):
    res = []
    for i, (o, g) in enumerate(zip(outputs, grads, strict=False)):
        if g is None:
            if not o.requires_grad:
                res.append(None)
                continue
            if o._buf.size != 1:
                raise RuntimeError("grad can be implicitly created only for scalar outputs")
            if _dtype_kind(o._buf.dtype) != "f":
                raise RuntimeError(
                    f"grad can be implicitly created only for real scalar outputs but got {o.dtype}"
                )
            ob = o._buf
            if type(ob) in _DEV:
                b = _dev.full(ob.shape, 1, ob.dtype, _dev.index_of(ob))
            else:
                b = np.ones(ob.shape, ob.dtype)
            res.append(_wrap(b) if create_graph else b)
            continue
        if not isinstance(g, Tensor):

            g = _tensor_of(g, dtype=o.dtype)
        if g._buf.shape != o._buf.shape:
            if g._buf.size == o._buf.size and False:
                pass
            raise RuntimeError(
                f"Mismatch in shape: grad_output[{i}] has a shape of {g.shape} and output[{i}] has a "
                f"shape of {o.shape}."
            )
        if g.device != o.device:
            raise RuntimeError(
                f"invalid gradient at index {i} - expected device {o.device} but got {g.device}"
            )
        if (_dtype_kind(g._buf.dtype) in "fc" and _dtype_kind(o._buf.dtype) in "fc"
                and g._buf.dtype != o._buf.dtype):
            g = g.to(o.dtype)
        gb = g._buf
        res.append(g if create_graph else (gb if type(gb) in _DEV else np.asarray(gb)))
    return res


def _roots(outputs):
    roots = []
    for i, o in enumerate(outputs):
        if not o.requires_grad:
            raise RuntimeError(f"element {i} of tensors does not require grad and does not have a grad_fn")
        roots.append(graph.edge_of(o))
    return roots


_accumulating: list[bool] = []  # one entry per running backward()/grad() call, innermost last


def accumulating_into_leaves() -> bool:
    """Whether the innermost running backward pass is a ``.backward()`` without ``inputs``
    (it accumulates into every leaf's ``.grad``), not ``autograd.grad`` or
    ``backward(inputs=...)``; reentrant checkpointing needs that."""
    return not _accumulating or _accumulating[-1]


def backward(tensors: TensorOrTensors, grad_tensors: TensorOrTensors | None = None,
             retain_graph: bool | None = None, create_graph: bool = False,
             grad_variables: TensorOrTensors | None = None, inputs: TensorOrTensors | None = None) -> None:
    """Accumulate gradients of ``tensors`` into the leaves' ``.grad``.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.ones(2, requires_grad=True)
        >>> torch.autograd.backward((x * 3).sum())
        >>> x.grad
        tensor([3., 3.])
    """
    if grad_variables is not None:
        grad_tensors = grad_variables
    outs = _tensors(tensors)
    if grad_tensors is None:
        grads = [None] * len(outs)
    elif isinstance(grad_tensors, Tensor):
        grads = [grad_tensors]
    else:
        grads = list(grad_tensors)
    if len(grads) != len(outs):
        raise RuntimeError(f"got {len(grads)} tensors and {len(outs)} gradients")
    if retain_graph is None:
        retain_graph = create_graph
    roots = _roots(outs)
    gs = _make_grads(outs, grads, create_graph)
    pairs = [(r, g) for r, g in zip(roots, gs, strict=False) if g is not None]
    ins = None
    if inputs is not None:
        ins = _tensors(inputs)
        if not ins:
            raise RuntimeError("`inputs` argument to `backward()` cannot be empty.")
    _accumulating.append(ins is None)
    try:
        graph.run_backward(
            [p[0] for p in pairs],
            [p[1] for p in pairs],
            bool(retain_graph),
            bool(create_graph),
            ins,
            allow_unused=True,
            accumulate=True,
        )
    finally:
        _accumulating.pop()


def _batched(outs, ins, grads, retain_graph, create_graph, allow_unused, materialize_grads):
    """``grad(..., is_grads_batched=True)``: each grad_output carries a leading batch dimension;
    one backward pass per batch row (PyTorch vmaps the backward pass: the same values), the
    results stacked along a new dim 0."""
    if any(g is None for g in grads):
        _make_grads(outs, grads, create_graph)  # PyTorch's error for an implicit non-scalar gradient
    for i, (o, g) in enumerate(zip(outs, grads, strict=True)):
        if not isinstance(g, Tensor) or tuple(g.shape[1:]) != tuple(o.shape) or g.dim() == 0:
            shape = g.shape[1:] if isinstance(g, Tensor) else type(g).__name__  # one batch row's
            raise RuntimeError(
                "If `is_grads_batched=True`, we interpret the first dimension of each grad_output as the "
                "batch dimension. The sizes of the remaining dimensions are expected to match the shape of "
                "corresponding output, but a mismatch was detected: "
                f"grad_output[{i}] has a shape of {shape} and output[{i}] has a shape of {o.shape}. If you "
                "only want some tensors in `grad_output` to be considered batched, consider using vmap.")
    sizes = [g.shape[0] for g in grads]
    if len(set(sizes)) != 1:
        raise ValueError("vmap: Expected all tensors to have the same size in the mapped dimension, "
                         f"got sizes {sizes} for the mapped dimension")
    n = sizes[0]
    rows = [grad(outs, ins, [g[i] for g in grads], retain_graph=retain_graph or i < n - 1,
                 create_graph=create_graph, allow_unused=allow_unused or materialize_grads)
            for i in range(n)]
    from .._ops_shape import stack as _stack  # (at call time: _ops_shape imports the autograd package)

    # an unused input's materialized gradient is zeros_like(input), without the batch dim (PyTorch's)
    return tuple((_zeros_like(t) if materialize_grads else None) if col[0] is None else _stack(list(col))
                 for col, t in zip(zip(*rows, strict=True), ins, strict=True))


def refuse_dual_inputs(inputs: Sequence) -> None:
    """``grad`` with respect to a dual tensor (forward-over-reverse, which PyTorch supports):
    refused naming the reason, instead of "not used in the graph".

    Example::

        >>> refuse_dual_inputs([])
    """
    for i, t in enumerate(inputs):
        if isinstance(t, Tensor) and type(t._buf) is JVPTracer and t._buf._trace is _DUAL_LEVEL.trace:
            raise NotImplementedError(
                f"torch.autograd.grad: input {i} is a dual tensor of torch.autograd.forward_ad "
                f"(forward-over-reverse): {_NO_REVERSE}")


def grad(outputs: TensorOrTensors,
         inputs: TensorOrTensors | graph.GradientEdge | Sequence[Tensor | graph.GradientEdge],
         grad_outputs: TensorOrTensors | None = None,
         retain_graph: bool | None = None, create_graph: bool = False, only_inputs: bool = True,
         allow_unused: bool | None = None, is_grads_batched: bool = False,
         materialize_grads: bool = False) -> tuple[Tensor | None, ...]:
    """Gradients of ``outputs`` with respect to ``inputs`` (returned, not accumulated).

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([2.0], requires_grad=True)
        >>> (g,) = torch.autograd.grad(x ** 3, x, create_graph=True)
        >>> torch.autograd.grad(g, x)[0]
        tensor([12.])
    """
    outs = _tensors(outputs)
    single_input = isinstance(inputs, Tensor)
    ins = _tensors(inputs)
    if not ins:
        raise RuntimeError("`inputs` argument to `grad()` cannot be empty.")
    if allow_unused is None:
        allow_unused = materialize_grads
    if grad_outputs is None:
        grads = [None] * len(outs)
    elif isinstance(grad_outputs, Tensor):
        grads = [grad_outputs]
    else:
        grads = list(grad_outputs)
    if len(grads) != len(outs):
        raise RuntimeError(
            f"grad requires one grad_output per output: got {len(grads)} grad_outputs and {len(outs)} outputs"
        )
    for i, t in enumerate(ins):
        if isinstance(t, graph.GradientEdge):  # where a gradient is computed (get_gradient_edge)
            if materialize_grads:
                raise RuntimeError("materialize_grads cannot be used when the given input is a GradientEdge")
            continue
        if not isinstance(t, Tensor):
            raise TypeError(f"grad(): inputs must be Tensors, got {type(t).__name__} at index {i}")
        if not t.requires_grad:
            raise RuntimeError("One of the differentiated Tensors does not require grad")
    if _DUAL_LEVEL.trace is not None:
        refuse_dual_inputs(ins)
    if retain_graph is None:
        retain_graph = create_graph
    if is_grads_batched:
        return _batched(outs, ins, grads, retain_graph, create_graph, allow_unused, materialize_grads)
    roots = _roots(outs)
    gs = _make_grads(outs, grads, create_graph)
    pairs = [(r, g) for r, g in zip(roots, gs, strict=False) if g is not None]
    _accumulating.append(False)
    try:
        res = graph.run_backward(
            [p[0] for p in pairs],
            [p[1] for p in pairs],
            bool(retain_graph),
            bool(create_graph),
            ins,
            allow_unused=allow_unused or materialize_grads,
            accumulate=False,
        )
    finally:
        _accumulating.pop()
    out = []
    for r, t in zip(res, ins, strict=False):
        if r is None and materialize_grads:

            r = _zeros_like(t)
        elif r is not None and not create_graph:
            if r._gfn is None:
                r = _wrap(r._buf.copy() if type(r._buf) in _DEV else np.array(r._buf))
        out.append(r)
    del single_input
    return tuple(out)
