"""``torch.utils.checkpoint``: activation checkpointing by recomputation.

``checkpoint(function, *args)`` runs ``function`` without recording its graph (its
intermediate activations are freed) and, when the backward pass reaches it, runs it again
with grad enabled (restoring the RNG state, so dropout draws the same mask) and
back-propagates through that recomputed graph: PyTorch's reentrant scheme
(``use_reentrant=True``), which like PyTorch needs ``.backward()`` without ``inputs``
(``torch.autograd.grad`` raises), gradients reaching parameters the function closes over only
through that ``.backward()``.  ``use_reentrant=False`` (PyTorch's recommended variant, which works with
``torch.autograd.grad``, ``backward(inputs=...)``, closed-over parameters and
``create_graph``) is PyTorch's saved-tensor-hooks scheme: ``function``'s graph is recorded as
usual, but under `saved_tensors_hooks` whose pack hook keeps a small placeholder instead of
each activation; the first time a backward pass reads one, ``function`` is run again under
hooks that fill every placeholder with the recomputed value (stopping once all are filled),
and each is dropped after it is read.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.utils.checkpoint import checkpoint
    >>> layer = torch.nn.Linear(3, 3)
    >>> x = torch.ones(2, 3, requires_grad=True)
    >>> y = checkpoint(lambda t: torch.tanh(layer(t)), x, use_reentrant=False)
    >>> y.sum().backward()
    >>> x.grad.shape, layer.weight.grad.shape
    (torch.Size([2, 3]), torch.Size([3, 3]))
"""

from __future__ import annotations

import contextlib
import warnings
import weakref

import fgrad.torch as torch

from .._tensor import Tensor
from ..autograd._grad import accumulating_into_leaves
from ..autograd.function import Function
from ..autograd.graph import current_graph_task_id
from ..autograd.saved_tensors import saved_tensors_hooks
from collections.abc import Callable
from typing import Any

__all__ = ["checkpoint", "checkpoint_sequential", "CheckpointError"]


class CheckpointError(RuntimeError):
    """A non-reentrant checkpoint's recomputation did not match its forward pass.

    Example::

        >>> from fgrad.torch.utils.checkpoint import CheckpointError
        >>> issubclass(CheckpointError, RuntimeError)
        True
    """


class _Recompute(Function):
    """forward: run without a graph; backward: recompute with one and back-propagate."""

    @staticmethod
    def forward(ctx, run_function, preserve_rng_state: bool, kwargs: dict, *args):
        ctx.run_function = run_function
        ctx.kwargs = kwargs
        ctx.rng_state = torch.get_rng_state() if preserve_rng_state else None
        ctx.tensor_positions = [i for i, a in enumerate(args) if isinstance(a, Tensor)]
        ctx.others = [None if isinstance(a, Tensor) else a for a in args]
        ctx.save_for_backward(*(args[i] for i in ctx.tensor_positions))
        return run_function(*args, **kwargs)

    @staticmethod
    def backward(ctx, *grads):
        if not accumulating_into_leaves():
            raise RuntimeError(
                "When use_reentrant=True, torch.utils.checkpoint is incompatible with .grad() or "
                "passing an `inputs` parameter to .backward(). To resolve this error, you can "
                "either set use_reentrant=False, or call .backward() without passing the "
                "`inputs` argument. (fgrad.torch recomputes reentrantly in both modes: call "
                ".backward() without `inputs`.)"
            )
        args = list(ctx.others)
        for i, t in zip(ctx.tensor_positions, ctx.saved_tensors):
            detached = t.detach()
            detached.requires_grad_(t.requires_grad)
            args[i] = detached
        current_rng = torch.get_rng_state() if ctx.rng_state is not None else None
        try:
            if ctx.rng_state is not None:
                torch.set_rng_state(ctx.rng_state)
            with torch.enable_grad():
                outputs = ctx.run_function(*args, **ctx.kwargs)
        finally:
            if current_rng is not None:
                torch.set_rng_state(current_rng)
        outputs = outputs if isinstance(outputs, tuple) else (outputs,)
        pairs = [
            (o, g)
            for o, g in zip(outputs, grads)
            if isinstance(o, Tensor) and o.requires_grad and g is not None
        ]
        if not pairs:
            raise RuntimeError("none of output has requires_grad=True, this checkpoint() is not necessary")
        torch.autograd.backward([o for o, _ in pairs], [g for _, g in pairs])
        input_grads = tuple(a.grad if isinstance(a, Tensor) else None for a in args)
        return (None, None, None, *input_grads)


def checkpoint(
    function: Callable[..., Any],
    *args: Any,
    use_reentrant: bool | None = None,
    context_fn: Any = None,
    determinism_check: str = "default",
    debug: bool = False,
    preserve_rng_state: bool = True,
    **kwargs: Any,
) -> Any:
    """``function(*args, **kwargs)`` without keeping its activations: recomputed during
    backward. ``use_reentrant`` should be passed explicitly (PyTorch warns otherwise).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.utils.checkpoint import checkpoint
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> checkpoint(torch.sin, x, use_reentrant=True).sum().backward()
        >>> torch.allclose(x.grad, torch.cos(x.detach()))
        True
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint: the use_reentrant parameter should be passed explicitly. Starting "
            "in PyTorch 2.9, calling checkpoint without use_reentrant will raise an exception. "
            "use_reentrant=False is recommended, but if you need to preserve the current default "
            "behavior, you can pass use_reentrant=True. Refer to docs for more details on the "
            "differences between the two variants.",
            UserWarning,
            stacklevel=2,
        )
        use_reentrant = True
    if use_reentrant and kwargs:
        raise ValueError("Unexpected keyword arguments: " + ",".join(kwargs))
    if context_fn is not None and use_reentrant:
        raise ValueError("Passing `context_fn` or `debug` is only supported when use_reentrant=False.")
    if not use_reentrant:
        return _checkpoint_without_reentrant(function, preserve_rng_state, context_fn, determinism_check,
                                             args, kwargs)
    if not torch.is_grad_enabled() or not any(isinstance(a, Tensor) and a.requires_grad for a in args):
        if torch.is_grad_enabled() and use_reentrant:
            warnings.warn(
                "None of the inputs have requires_grad=True. Gradients will be None",
                UserWarning,
                stacklevel=2,
            )
        return function(*args, **kwargs)
    return _Recompute.apply(function, preserve_rng_state, kwargs, *args)


class _Holder:
    """What the forward pack hook saves in place of an activation: the recomputed value per
    backward pass (graph task id), filled by the recomputation, dropped once read."""

    __slots__ = ("vals", "meta", "__weakref__")

    def __init__(self, meta) -> None:
        self.vals: dict = {}
        self.meta = meta


class _StopRecomputation(Exception):
    pass


def _meta(t: Tensor) -> tuple:
    return (tuple(t.shape), t.dtype, t.device)


class _Frame:
    """One non-reentrant checkpoint call: its inputs, the placeholders of its saved
    activations (weakly: a placeholder dies with the node that saved it) and how to rerun it."""

    def __init__(self, function, args, kwargs, rng_state, recompute_context, determinism_check):
        self.function = function
        self.args = args
        self.versions = [a._version if isinstance(a, Tensor) else None for a in args]
        self.kwargs = kwargs
        self.rng_state = rng_state
        self.recompute_context = recompute_context
        self.check = determinism_check != "none"
        self.holders: list = []
        self.recomputed: set = set()

    def pack(self, t: Tensor) -> _Holder:
        h = _Holder(_meta(t) if self.check else None)
        self.holders.append(weakref.ref(h))
        return h

    def unpack(self, h: _Holder) -> Tensor:
        gid = current_graph_task_id()
        if gid == -1:  # read outside a backward pass (``grad_fn._saved_self``): recompute each time
            gid = object()
        if gid not in self.recomputed:
            self.recompute(gid)
        if gid not in h.vals:
            raise CheckpointError(
                "torch.utils.checkpoint: Unpack is being triggered for a tensor that was already unpacked "
                "once. If you are calling ctx.saved_tensors in backward, make sure to do so only once. "
                "Otherwise please open an issue with details on your use case.")
        return h.vals.pop(gid)

    def recompute(self, gid) -> None:
        for a, v in zip(self.args, self.versions):
            if isinstance(a, Tensor) and a._version != v:
                raise RuntimeError(
                    "one of the variables needed for gradient computation has been modified by an inplace "
                    f"operation: an input of torch.utils.checkpoint is at version {a._version}; expected "
                    f"version {v} instead (the checkpointed function is recomputed from its inputs).")
        counter = [0]
        n = len(self.holders)

        def pack(t: Tensor) -> None:
            i = counter[0]
            counter[0] += 1
            if i >= n:
                raise CheckpointError(
                    "torch.utils.checkpoint: trying to save more tensors during recomputation than during "
                    "the original forward pass.")
            h = self.holders[i]()
            if h is not None:
                if h.meta is not None and h.meta != _meta(t):
                    raise CheckpointError(
                        "torch.utils.checkpoint: Recomputed values for the following tensors have different "
                        f"metadata than during the forward pass.\ntensor at position {i}:\nsaved metadata: "
                        f"{_meta_dict(h.meta)}\nrecomputed metadata: {_meta_dict(_meta(t))}\n")
                h.vals[gid] = t.detach() if t.requires_grad else t
            if counter[0] == n:
                raise _StopRecomputation
            return None

        def unpack(_):
            raise CheckpointError("torch.utils.checkpoint: the recomputed graph is not for backward")

        current_rng = torch.get_rng_state() if self.rng_state is not None else None
        try:
            if self.rng_state is not None:
                torch.set_rng_state(self.rng_state)
            with saved_tensors_hooks(pack, unpack), torch.enable_grad(), self.recompute_context:
                self.function(*self.args, **self.kwargs)
        except _StopRecomputation:
            pass
        finally:
            if current_rng is not None:
                torch.set_rng_state(current_rng)
        self.recomputed.add(gid)
        if counter[0] < n and any(r() is not None for r in self.holders[counter[0]:]):
            raise CheckpointError(
                "torch.utils.checkpoint: A different number of tensors was saved during the original forward "
                f"and recomputation.\nNumber of tensors saved during forward: {n}\nNumber of tensors saved "
                f"during recomputation: {counter[0]}.\n")


def _meta_dict(m: tuple) -> dict:
    return {"shape": torch.Size(m[0]), "dtype": m[1], "device": m[2]}


def _checkpoint_without_reentrant(function, preserve_rng_state, context_fn, determinism_check, args, kwargs):
    """PyTorch's non-reentrant checkpoint (see the module docstring)."""
    if determinism_check not in ("default", "none"):
        raise ValueError(
            f"determinism_check should be one of ['default', 'none'], but got {determinism_check}")
    if context_fn is not None:
        forward_context, recompute_context = context_fn()
    else:
        forward_context, recompute_context = contextlib.nullcontext(), contextlib.nullcontext()
    if not torch.is_grad_enabled():
        with forward_context:
            return function(*args, **kwargs)
    rng_state = torch.get_rng_state() if preserve_rng_state else None
    frame = _Frame(function, args, kwargs, rng_state, recompute_context, determinism_check)
    with saved_tensors_hooks(frame.pack, frame.unpack), forward_context:
        return function(*args, **kwargs)


def checkpoint_sequential(functions: Any, segments: int, input: Tensor, use_reentrant: bool | None = None,
                          **kwargs: Any) -> Any:
    """Split a Sequential (or list of modules) into ``segments`` checkpointed chunks; the last
    chunk runs normally.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.utils.checkpoint import checkpoint_sequential
        >>> net = torch.nn.Sequential(*[torch.nn.Linear(4, 4) for _ in range(4)])
        >>> checkpoint_sequential(net, 2, torch.ones(1, 4, requires_grad=True), use_reentrant=False).shape
        torch.Size([1, 4])
    """
    if use_reentrant is None:
        warnings.warn(
            "torch.utils.checkpoint.checkpoint_sequential: the use_reentrant parameter should be "
            "passed explicitly.",
            UserWarning,
            stacklevel=2,
        )
        use_reentrant = True
    if isinstance(functions, torch.nn.Sequential):
        functions = list(functions.children())
    functions = list(functions)

    def run_function(start: int, end: int, fns):
        def forward(x):
            for j in range(start, end + 1):
                x = fns[j](x)
            return x

        return forward

    segment_size = len(functions) // segments
    end = -1
    for start in range(0, segment_size * (segments - 1), segment_size):
        end = start + segment_size - 1
        input = checkpoint(run_function(start, end, functions), input, use_reentrant=use_reentrant, **kwargs)
    return run_function(end + 1, len(functions) - 1, functions)(input)
