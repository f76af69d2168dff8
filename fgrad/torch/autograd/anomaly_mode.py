"""``torch.autograd`` anomaly detection: ``set_detect_anomaly``, ``detect_anomaly``.

While it is on, every ``grad_fn`` node records the user's source line and the stack of the
forward call that created it (``node.metadata["traceback_"]``, as PyTorch does), and the
backward engine checks each node's gradients: a NaN raises PyTorch's RuntimeError,
``Function 'SqrtBackward0' returned nan values in its 0th output.``, followed by fgrad's
provenance: whether the gradients flowing into the node already had NaNs or the node's
backward produced them, and the forward line (found by the same code as the functional
core's ``jax_debug_nans``, `fgrad.core.provenance`).

Example::

    >>> import fgrad.torch as torch
    >>> x = torch.tensor([0.0], requires_grad=True)
    >>> with torch.autograd.detect_anomaly():
    ...     y = (torch.sqrt(x) * 0.0).sum()
    ...     try:
    ...         y.backward()
    ...     except RuntimeError as e:
    ...         print(str(e).splitlines()[0])
    Function 'SqrtBackward0' returned nan values in its 0th output.
"""

from __future__ import annotations

import sys
import traceback

from ...backends import backend_of_buffer
from ...core.provenance import user_source
from collections.abc import Callable
from typing import Any


class _AnomalyState:
    """The process-wide switch (PyTorch's is global too)."""

    __slots__ = ("enabled", "check_nan")

    def __init__(self) -> None:
        self.enabled = False
        self.check_nan = True


ANOMALY = _AnomalyState()


class set_detect_anomaly:
    """Turn anomaly detection on or off (PyTorch's ``torch.autograd.set_detect_anomaly``):
    a plain call sets it; used as a context manager, the previous state is restored after.

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autograd.set_detect_anomaly(True):
        ...     torch.is_anomaly_enabled()
        True
        >>> torch.is_anomaly_enabled()
        False
    """

    def __init__(self, mode: bool, check_nan: bool = True) -> None:
        self._saved = (ANOMALY.enabled, ANOMALY.check_nan)
        ANOMALY.enabled = bool(mode)
        ANOMALY.check_nan = bool(check_nan)

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> None:
        ANOMALY.enabled, ANOMALY.check_nan = self._saved


class detect_anomaly:
    """Context manager (and decorator): anomaly detection on in the block.

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autograd.detect_anomaly():
        ...     torch.is_anomaly_enabled()
        True
    """

    def __init__(self, check_nan: bool = True) -> None:
        self.check_nan = bool(check_nan)

    def __enter__(self):
        self._saved = (ANOMALY.enabled, ANOMALY.check_nan)
        ANOMALY.enabled, ANOMALY.check_nan = True, self.check_nan
        return self

    def __exit__(self, *exc) -> None:
        ANOMALY.enabled, ANOMALY.check_nan = self._saved

    def __call__(self, fn: Callable[..., Any]) -> Any:
        def wrapped(*args, **kwargs):
            with detect_anomaly(self.check_nan):
                return fn(*args, **kwargs)

        wrapped.__wrapped__ = fn
        wrapped.__name__ = getattr(fn, "__name__", "wrapped")
        return wrapped


def is_anomaly_enabled() -> bool:
    """Whether anomaly detection is on.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_anomaly_enabled()
        False
    """
    return ANOMALY.enabled


def is_anomaly_check_nan_enabled() -> bool:
    """Whether anomaly detection checks gradients for NaNs.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.is_anomaly_check_nan_enabled()
        True
    """
    return ANOMALY.check_nan


def record_forward(node: Any) -> None:
    """Store where ``node`` was created: its user's line and the forward stack.

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autograd.detect_anomaly():
        ...     y = torch.tensor([1.0], requires_grad=True) * 2
        ...
        >>> y.grad_fn.name()
        'MulBackward0'
    """
    frame = sys._getframe(2)
    source = user_source(frame)
    while frame is not None and not (frame.f_code.co_filename == getattr(source, "filename", None)
                                      and frame.f_lineno == source.lineno):
        frame = frame.f_back
    # the forward stack up to the user's call (fgrad's own frames left out)
    node.metadata["traceback_"] = traceback.format_stack(frame) if frame is not None else []
    node.metadata["fgrad_source_"] = source


def _has_nan(g) -> bool:
    b = getattr(g, "_buf", g)
    if b is None or getattr(b, "dtype", None) is None or b.dtype.kind not in "fc":
        return False
    return bool(backend_of_buffer(b).xp.isnan(b).any())


def check_node_gradients(node: Any, grads_in: Any, grads_out: Any) -> None:
    """After ``node``'s backward: raise PyTorch's error if output ``i`` (a gradient of one
    of the node's inputs) has a NaN; the message says whether the gradients that flowed in
    (``grads_in``) already had NaNs and where the node's forward call was.

    Example::

        >>> import fgrad.torch as torch
        >>> x = torch.tensor([0.0], requires_grad=True)
        >>> with torch.autograd.detect_anomaly():
        ...     try:
        ...         torch.sqrt(x * 0).backward()
        ...     except RuntimeError as e:
        ...         print(str(e).split(' returned')[0])
        ...
        Function 'MulBackward0'
    """
    for i, g in enumerate(grads_out):
        if g is None or not _has_nan(g):
            continue
        incoming = [k for k, c in enumerate(grads_in) if c is not None and _has_nan(c)]
        lines = [f"Function '{node.name()}' returned nan values in its {i}th output."]
        if incoming:
            lines.append(f"  the gradient flowing into it (output {incoming[0]} of its forward) "
                         "already had nan values: they came from the gradient passed to "
                         "backward() or a hook")
        else:
            lines.append(f"  produced in the backward pass of {node.name()}: the gradients "
                         "flowing into it had no nan (inf * 0, 0 / 0, inf - inf, ... in its "
                         "derivative, or a nan/inf saved from the forward pass)")
        src = node.metadata.get("fgrad_source_") if node.metadata_ else None
        if src is not None:
            lines.append(f"  the forward operation's line: {src}")
        else:
            lines.append("  (the forward call was made before anomaly detection was on: no "
                         "forward line recorded)")
        raise RuntimeError("\n".join(lines))


__all__ = ["set_detect_anomaly", "detect_anomaly", "is_anomaly_enabled",
           "is_anomaly_check_nan_enabled", "ANOMALY", "record_forward", "check_node_gradients"]
