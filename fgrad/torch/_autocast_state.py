"""Autocast's state and PyTorch's per-op casting policies (the ``torch.autocast`` machinery
under `fgrad.torch.amp`).

Each op on one of PyTorch's autocast lists is decorated with its policy:

* `lower_precision` (``conv*``, ``linear``, ``matmul``, ``mm``, ``bmm``, ``addmm``,
  ``baddbmm``, ...): floating-point tensor arguments (not float64) are cast to the autocast
  dtype (bfloat16 on the CPU by default, float16 on CUDA);
* `fp32` (losses, ``prod``, ``cdist``, 3-d pooling, ...): they are cast to float32;
* `promote` (``cat``, ``stack``): to the widest floating dtype among them.

The op then runs with autocast off (PyTorch excludes its autocast key below the cast), so the
ops it is made of are not cast again.  Autocast state is per thread and per device type.

Example::

    >>> import fgrad.torch as torch
    >>> with torch.autocast("cpu"):
    ...     (torch.ones(2, 3) @ torch.ones(3, 2)).dtype
    torch.bfloat16
"""

from __future__ import annotations

import functools
import threading
from typing import Any, Callable

import fgrad.torch._dtypes as D
from ._tensor import Tensor

DEFAULT_DTYPES: dict[str, D.dtype] = {"cpu": D.bfloat16, "cuda": D.float16}


class _ThreadState(threading.local):
    def __init__(self) -> None:
        self.enabled: dict[str, bool] = {"cpu": False, "cuda": False}
        self.dtype: dict[str, D.dtype] = dict(DEFAULT_DTYPES)
        self.cache_enabled = True
        self.active = 0  # how many device types are enabled: the ops' fast check
        self.excluded = 0  # > 0 inside a policy op: its parts are not cast again


STATE = _ThreadState()


def is_enabled(device_type: str) -> bool:
    """Whether autocast is on for ``device_type`` in this thread.

    Example::

        >>> is_enabled("cpu")
        False
    """
    return STATE.enabled.get(device_type, False)


def set_enabled(device_type: str, enabled: bool) -> None:
    """Switch autocast for ``device_type`` on or off in this thread (``torch.set_autocast_enabled``).

    Example::

        >>> set_enabled("cpu", False)
    """
    STATE.enabled[device_type] = bool(enabled)
    STATE.active = sum(STATE.enabled.values())


def get_dtype(device_type: str) -> D.dtype:
    """The dtype autocast casts to on ``device_type`` (``torch.get_autocast_dtype``).

    Example::

        >>> get_dtype("cpu")
        torch.bfloat16
    """
    return STATE.dtype[device_type]


def set_dtype(device_type: str, dtype: D.dtype) -> None:
    """Set the autocast dtype of ``device_type`` (``torch.set_autocast_dtype``).

    Example::

        >>> set_dtype("cpu", D.bfloat16)
    """
    STATE.dtype[device_type] = dtype


def _device_type(t: Tensor) -> str:
    return "cpu" if t.device.type == "cpu" else "cuda"


def _first_tensor(args, kwargs) -> Tensor | None:
    for a in (*args, *kwargs.values()):
        if isinstance(a, Tensor):
            return a
        if isinstance(a, (list, tuple)):
            for b in a:
                if isinstance(b, Tensor):
                    return b
    return None


def _eligible(a: Any, device_type: str) -> bool:
    return (isinstance(a, Tensor) and a.is_floating_point() and a.dtype is not D.float64
            and _device_type(a) == device_type)


def _cast_all(value: Any, dtype: D.dtype, device_type: str) -> Any:
    if _eligible(value, device_type):
        return value if value.dtype is dtype else value.to(dtype)
    if isinstance(value, (list, tuple)) and any(isinstance(v, Tensor) for v in value):
        return type(value)(_cast_all(v, dtype, device_type) for v in value)
    return value


def _widest(args, kwargs, device_type: str, op_name: str) -> D.dtype | None:
    """PyTorch's ``promote`` rule: float64 > float32 > the autocast dtype; another 16-bit
    float beside the autocast dtype is an error, as in PyTorch."""
    lower = STATE.dtype[device_type]
    found: set = set()

    def visit(v: Any) -> None:
        if isinstance(v, Tensor):
            if v.is_floating_point() and _device_type(v) == device_type:
                found.add(v.dtype)
        elif isinstance(v, (list, tuple)):
            for w in v:
                visit(w)

    for v in (*args, *kwargs.values()):
        visit(v)
    if not found:
        return None
    for d in (D.float64, D.float32):
        if d in found:
            return d
    if found == {lower}:
        return lower
    raise RuntimeError(f"{op_name}: Unexpected floating ScalarType in at::autocast::prioritize "
                       f"(inputs {sorted(str(d) for d in found)} under autocast to {lower})")


def policy_dtype(kind: str, t: Any) -> D.dtype | None:
    """The dtype autocast's ``kind`` policy gives the tensor ``t`` at this moment, or None where
    it leaves ``t`` as it is (autocast off, ``t`` not a float tensor of an autocast device,
    ``promote``).

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autocast("cpu"):
        ...     policy_dtype("fp32", torch.ones(2, dtype=torch.bfloat16))
        torch.float32
    """
    if not STATE.active or STATE.excluded or not isinstance(t, Tensor):
        return None
    device_type = _device_type(t)
    if not STATE.enabled.get(device_type, False) or not _eligible(t, device_type):
        return None
    return {"fp32": D.float32, "lower": STATE.dtype[device_type]}.get(kind)


def _policy(kind: str) -> Callable[[Callable], Callable]:
    def decorate(op: Callable) -> Callable:
        @functools.wraps(op)
        def autocast_op(*args, **kwargs):
            if not STATE.active or STATE.excluded:
                return op(*args, **kwargs)
            first = _first_tensor(args, kwargs)
            if first is None:
                return op(*args, **kwargs)
            device_type = _device_type(first)
            if not STATE.enabled.get(device_type, False):
                return op(*args, **kwargs)
            if kind == "lower":
                dtype: D.dtype | None = STATE.dtype[device_type]
            elif kind == "fp32":
                dtype = D.float32
            else:
                dtype = _widest(args, kwargs, device_type, op.__name__)
            if dtype is not None:
                args = tuple(_cast_all(a, dtype, device_type) for a in args)
                kwargs = {k: _cast_all(v, dtype, device_type) for k, v in kwargs.items()}
            STATE.excluded += 1
            try:
                return op(*args, **kwargs)
            finally:
                STATE.excluded -= 1

        autocast_op.autocast_policy = kind
        return autocast_op

    return decorate


lower_precision = _policy("lower")
fp32 = _policy("fp32")
promote = _policy("promote")
