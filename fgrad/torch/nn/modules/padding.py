"""Padding modules: `ZeroPad1d/2d`, `ConstantPad1d/2d/3d`, `ReflectionPad1d/2d`,
`ReplicationPad1d/2d`, `CircularPad1d/2d`.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ZeroPad2d(1)(torch.ones(1, 1, 1, 1))
    tensor([[[[0., 0., 0.],
              [0., 1., 0.],
              [0., 0., 0.]]]])
"""

from __future__ import annotations

import fgrad.torch.nn.functional as F
from ...types import IntOrInts
from .module import Module
from fgrad.torch.types import Tensor

__all__ = ["ConstantPad1d", "ConstantPad2d", "ConstantPad3d", "ZeroPad1d", "ZeroPad2d", "ZeroPad3d",
           "ReflectionPad1d", "ReflectionPad2d", "ReplicationPad1d", "ReplicationPad2d", "CircularPad1d",
           "CircularPad2d"]


def _padding(p, n):
    if isinstance(p, (list, tuple)):
        if len(p) != 2 * n:
            raise ValueError(f"expected {2 * n} padding values, got {len(p)}")
        return tuple(p)
    return (int(p),) * (2 * n)


class _PadNd(Module):
    _n = 1
    _mode = "constant"

    def __init__(self, padding: IntOrInts, value: float = 0.0) -> None:
        super().__init__()
        self.padding = _padding(padding, self._n)
        if self._mode == "constant":
            self.value = value

    def forward(self, input: Tensor) -> Tensor:
        if self._mode == "constant":
            return F.pad(input, self.padding, "constant", self.value)
        return F.pad(input, self.padding, self._mode)

    def extra_repr(self) -> str:
        if self._mode == "constant" and not type(self).__name__.startswith("Zero"):
            return f"padding={self.padding}, value={self.value}"
        return f"{self.padding}"


def _make(name, n, mode, zero=False):
    if mode == "constant" and not zero:
        def init(self, padding: IntOrInts, value: float) -> None:  # PyTorch's: `value` has no default
            _PadNd.__init__(self, padding, value)
    else:
        def init(self, padding: IntOrInts) -> None:
            _PadNd.__init__(self, padding, 0.0)

    init.__qualname__ = f"{name}.__init__"
    return type(name, (_PadNd,), {"_n": n, "_mode": mode, "__init__": init, "__module__": __name__})


ConstantPad1d = _make("ConstantPad1d", 1, "constant")
ConstantPad2d = _make("ConstantPad2d", 2, "constant")
ConstantPad3d = _make("ConstantPad3d", 3, "constant")
ZeroPad1d = _make("ZeroPad1d", 1, "constant", zero=True)
ZeroPad2d = _make("ZeroPad2d", 2, "constant", zero=True)
ZeroPad3d = _make("ZeroPad3d", 3, "constant", zero=True)
ReflectionPad1d = _make("ReflectionPad1d", 1, "reflect")
ReflectionPad2d = _make("ReflectionPad2d", 2, "reflect")
ReplicationPad1d = _make("ReplicationPad1d", 1, "replicate")
ReplicationPad2d = _make("ReplicationPad2d", 2, "replicate")
CircularPad1d = _make("CircularPad1d", 1, "circular")
CircularPad2d = _make("CircularPad2d", 2, "circular")
ReflectionPad3d = _make("ReflectionPad3d", 3, "reflect")
ReplicationPad3d = _make("ReplicationPad3d", 3, "replicate")
CircularPad3d = _make("CircularPad3d", 3, "circular")

__all__ += ["ReflectionPad3d", "ReplicationPad3d", "CircularPad3d"]
