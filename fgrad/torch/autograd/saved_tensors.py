"""Saved-tensor hooks: how the tape stores the tensors a backward pass reads.

A recorded node normally keeps the tensors its backward reads (the inputs, or the outputs
for ops such as ``exp``).  Under `saved_tensors_hooks(pack_hook, unpack_hook)` it keeps
``pack_hook(tensor)`` instead -- any Python object -- and the backward pass (or a
``grad_fn._saved_self`` access) calls ``unpack_hook`` on it to get the tensor back, as in
PyTorch.  `SavedTensor` is one such stored value (what ``grad_fn._raw_saved_self`` returns);
the engine (`graph.FnNode`, ``autograd.Function``'s ``save_for_backward``) makes them with
`pack` when the hook stack is not empty and reads them with `SavedTensor.value`.

Example::

    >>> import fgrad.torch as torch
    >>> calls = []
    >>> def pack(t):
    ...     calls.append("pack")
    ...     return t
    >>> def unpack(t):
    ...     calls.append("unpack")
    ...     return t
    >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
    >>> with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    ...     y = x * x
    >>> y.sum().backward()
    >>> calls, x.grad
    (['pack', 'pack', 'unpack', 'unpack'], tensor([2., 4.]))
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import Any

from .._tensor import Tensor, _alias
from .grad_mode import STATE

__all__ = [
    "SavedTensor",
    "saved_tensors_hooks",
    "save_on_cpu",
    "disable_saved_tensors_hooks",
    "allow_mutation_on_saved_tensors",
]


class _HookState(threading.local):
    def __init__(self) -> None:
        self.stack: list = []  # (pack_hook, unpack_hook) pairs, innermost last
        self.disabled: str | None = None  # error message of disable_saved_tensors_hooks


HOOKS = _HookState()
# one entry per hook pair entered in any thread: the recording hot path tests this plain list
# (a global read) before the thread's own stack
ANY: list = []

FREED = (
    "Trying to backward through the graph a second time (or directly access saved tensors after they "
    "have already been freed). Saved intermediate values of the graph are freed when you call "
    ".backward() or autograd.grad(). Specify retain_graph=True if you need to backward through the "
    "graph a second time or if you need to access saved tensors after calling backward."
)


class SavedTensor:
    """One tensor saved for backward (PyTorch's ``torch._C._autograd.SavedTensor``): what
    ``grad_fn._raw_saved_<name>`` returns.  ``register_hooks(pack_hook, unpack_hook)`` packs
    it now and unpacks it at each later read.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> y = x.pow(2)
        >>> y.grad_fn._raw_saved_self.register_hooks(lambda t: t * 4, lambda p: p / 4)
        >>> y.grad_fn._saved_self
        tensor([1., 2.], requires_grad=True)
    """

    __slots__ = ("_packed", "_unpack", "_edge", "_out", "_rg", "_owner", "_at")

    def __init__(self) -> None:
        self._unpack = None  # None: not packed by hooks (a view of an owner's plain entry)
        self._owner = None  # weakref to the node, for register_hooks on a plain entry
        self._at = None  # (kind, position) of that entry

    # -- reading --------------------------------------------------------------------------
    def value(self, node: Any) -> Tensor:
        """``unpack_hook(packed)`` as a tensor with the saved tensor's place in the graph:
        its grad_fn (output ``_out`` of ``node`` for a saved output) or leaf accumulator."""
        r = self._unpack(self._packed)
        if not isinstance(r, Tensor):
            raise TypeError(
                f"Output of saved tensor unpack_hook expected to be a Tensor but got result of type "
                f"{type(r).__name__}")
        t = _alias(r)
        if self._out is not None:
            t._gfn = node
            t._oi = self._out
            return t
        enode, oi = self._edge
        if enode is not None:
            if getattr(enode, "variable", None) is not None:  # a leaf: share its AccumulateGrad
                t._rg = True
                t._acc = weakref.ref(enode)
            else:
                t._gfn = enode
                t._oi = oi
        elif self._rg:
            t._rg = True
        return t

    def register_hooks(self, pack_hook: Callable[[Tensor], Any],
                       unpack_hook: Callable[[Any], Tensor]) -> None:
        """Pack this saved tensor with ``pack_hook`` now; ``unpack_hook`` runs at each read."""
        node = self._owner() if self._owner is not None else None
        if self._owner is not None and (node is None or node._live_saved() is None):
            raise RuntimeError(
                "Calling register_hooks on a saved tensor after it has been freed. Saved intermediate values "
                "of the graph are freed when you call .backward() or autograd.grad(). Specify "
                "retain_graph=True if you need to backward through the graph a second time or if you need "
                "to access saved variables after calling backward.")
        if self._unpack is not None or node is None:
            raise RuntimeError("Calling register_hooks on a saved tensor whose hooks have already been set. "
                               "Hint: only one pair of hooks is allowed at a time.")
        node._hook_saved(self, pack_hook, unpack_hook)

    def __repr__(self) -> str:
        return f"<torch._C._autograd.SavedTensor object at {hex(id(self))}>"


def pack(t: Tensor, edge: tuple, out: int | None, hooks: tuple | None = None) -> SavedTensor:
    """``t`` packed by ``hooks`` (default: the innermost `saved_tensors_hooks`), with no grad
    mode, as PyTorch packs; ``edge``: where gradients for ``t`` go ((node, index)), ``out``:
    ``t``'s output index when it is an output of the saving node (else None)."""
    pack_hook, unpack_hook = HOOKS.stack[-1] if hooks is None else hooks
    vc = t._get_vc()
    before = vc.v
    prev = STATE.enabled
    STATE.enabled = False
    try:
        packed = pack_hook(t)
    finally:
        STATE.enabled = prev
    if vc.v != before:
        raise RuntimeError(
            "A saved tensor pack hook is modifying its input in place. Tensors provided as input to pack "
            "hook cannot be modified by in-place operations as this can lead to unexpected side-effects. "
            "Please open an issue if you need to perform in-place operations on the input to a pack hook.")
    s = SavedTensor()
    s._packed = packed
    s._unpack = unpack_hook
    s._edge = edge
    s._out = out
    s._rg = t.requires_grad
    return s


class saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Context manager: tensors saved for backward inside it are stored as
    ``pack_hook(tensor)`` and read back with ``unpack_hook(packed)`` (which must return a
    tensor).  Nestable; the innermost pair applies.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([1.0, 3.0], requires_grad=True)
        >>> with torch.autograd.graph.saved_tensors_hooks(lambda t: t * 4, lambda p: p / 4):
        ...     y = torch.pow(x, 2)
        >>> y.sum().backward()
        >>> x.grad
        tensor([2., 6.])
    """

    def __init__(self, pack_hook: Callable[[Tensor], Any], unpack_hook: Callable[[Any], Tensor]) -> None:
        self.pack_hook = pack_hook
        self.unpack_hook = unpack_hook

    def __enter__(self) -> saved_tensors_hooks:
        if HOOKS.disabled is not None:
            raise RuntimeError(HOOKS.disabled)
        HOOKS.stack.append((self.pack_hook, self.unpack_hook))
        ANY.append(None)
        return self

    def __exit__(self, *exc: Any) -> None:
        HOOKS.stack.pop()
        ANY.pop()


class save_on_cpu(saved_tensors_hooks):  # noqa: N801 - PyTorch's name
    """Saved tensors are kept on the CPU (copied there when saved, moved back to their
    device when the backward pass reads them).  ``pin_memory`` asks for page-locked host
    copies (plain host memory here: fgrad has no pinned allocator).

    Example::

        >>> import fgrad.torch as torch
        >>> w = torch.tensor([1.0, 2.0], requires_grad=True)
        >>> with torch.autograd.graph.save_on_cpu():
        ...     loss = (w * w).sum()
        >>> loss.backward(); w.grad
        tensor([2., 4.])
    """

    def __init__(self, pin_memory: bool = False, device_type: str = "cuda") -> None:
        def pack_to_cpu(t: Tensor) -> tuple:
            return (t.device, t.cpu())

        def unpack_from_cpu(packed: tuple) -> Tensor:
            device, t = packed
            return t.to(device, non_blocking=pin_memory)

        super().__init__(pack_to_cpu, unpack_from_cpu)


class disable_saved_tensors_hooks:  # noqa: N801 - PyTorch's name
    """Context manager in which entering `saved_tensors_hooks` raises
    ``RuntimeError(error_message)`` (for features that do not work with them).

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autograd.graph.disable_saved_tensors_hooks("not here"):
        ...     try:
        ...         torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t).__enter__()
        ...     except RuntimeError as e:
        ...         print(e)
        not here
    """

    def __init__(self, error_message: str) -> None:
        self.error_message = error_message

    def __enter__(self) -> None:
        self._prev = HOOKS.disabled
        HOOKS.disabled = self.error_message

    def __exit__(self, *exc: Any) -> None:
        HOOKS.disabled = self._prev


class allow_mutation_on_saved_tensors:  # noqa: N801 - PyTorch's name
    """Context manager under which a tensor saved for backward may be modified in place
    afterwards: the backward pass reads the value it had when it was saved (PyTorch clones
    it when it is modified; here it is cloned when it is saved).  The backward pass must
    run inside the same context.

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autograd.graph.allow_mutation_on_saved_tensors():
        ...     a = torch.tensor([1.0, 2.0], requires_grad=True)
        ...     b = a.clone()
        ...     out = (b ** 2).sum()
        ...     _ = b.sin_()
        ...     out.backward()
        >>> a.grad
        tensor([2., 4.])
    """

    def __enter__(self) -> allow_mutation_on_saved_tensors:
        self._active = True
        active = self

        def pack_hook(t: Tensor) -> Tensor:
            return t.clone()

        def unpack_hook(t: Tensor) -> Tensor:
            if not active._active:
                raise AssertionError(
                    "Trying to backward outside of the 'allow_mutation_on_saved_tensors' contextin which "
                    "the graph was originally recorded.")  # PyTorch's words, missing space included
            return t

        self._hooks = saved_tensors_hooks(pack_hook, unpack_hook)
        self._hooks.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        self._hooks.__exit__(*exc)
        self._active = False
