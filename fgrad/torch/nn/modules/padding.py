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


def _make(name, n, mode, zero=False, doc=None):
    if mode == "constant" and not zero:
        def init(self, padding: IntOrInts, value: float) -> None:  # PyTorch's: `value` has no default
            _PadNd.__init__(self, padding, value)
    else:
        def init(self, padding: IntOrInts) -> None:
            _PadNd.__init__(self, padding, 0.0)

    init.__qualname__ = f"{name}.__init__"
    return type(name, (_PadNd,), {"_n": n, "_mode": mode, "__init__": init, "__module__": __name__,
                                  "__doc__": doc})


ConstantPad1d = _make("ConstantPad1d", 1, "constant", doc="""
Pads the last dim of ``(C, W)`` / ``(N, C, W)`` input with ``value`` (``padding``: an int or
``(left, right)``).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ConstantPad1d((1, 2), 9.0)(torch.tensor([[1.0, 2.0]]))
    tensor([[9., 1., 2., 9., 9.]])
""")
ConstantPad2d = _make("ConstantPad2d", 2, "constant", doc="""
Pads the last 2 dims with ``value`` (``padding``: an int or ``(left, right, top, bottom)``).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ConstantPad2d((1, 0, 0, 1), 9.0)(torch.tensor([[[1.0, 2.0]]]))
    tensor([[[9., 1., 2.],
             [9., 9., 9.]]])
""")
ConstantPad3d = _make("ConstantPad3d", 3, "constant", doc="""
Pads the last 3 dims with ``value`` (``padding``: an int or 6 sizes, last dim first).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ConstantPad3d((1, 1, 0, 0, 0, 0), 9.0)(torch.tensor([[[[1.0]]]]))
    tensor([[[[9., 1., 9.]]]])
""")
ZeroPad1d = _make("ZeroPad1d", 1, "constant", zero=True, doc="""
Pads the last dim with zeros (``padding``: an int or ``(left, right)``).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ZeroPad1d((2, 1))(torch.tensor([[1.0, 2.0]]))
    tensor([[0., 0., 1., 2., 0.]])
""")
ZeroPad2d = _make("ZeroPad2d", 2, "constant", zero=True, doc="""
Pads the last 2 dims with zeros (``padding``: an int or ``(left, right, top, bottom)``).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ZeroPad2d(1)(torch.ones(1, 1, 2))
    tensor([[[0., 0., 0., 0.],
             [0., 1., 1., 0.],
             [0., 0., 0., 0.]]])
""")
ZeroPad3d = _make("ZeroPad3d", 3, "constant", zero=True, doc="""
Pads the last 3 dims with zeros (``padding``: an int or 6 sizes, last dim first).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ZeroPad3d((1, 0, 0, 0, 0, 1))(torch.ones(1, 1, 1, 1))
    tensor([[[[0., 1.]],
    <BLANKLINE>
             [[0., 0.]]]])
""")
ReflectionPad1d = _make("ReflectionPad1d", 1, "reflect", doc="""
Pads the last dim with its reflection (the edge not repeated).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ReflectionPad1d(2)(torch.tensor([[[1.0, 2.0, 3.0]]]))
    tensor([[[3., 2., 1., 2., 3., 2., 1.]]])
""")
ReflectionPad2d = _make("ReflectionPad2d", 2, "reflect", doc="""
Pads the last 2 dims with their reflection (the edge not repeated).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ReflectionPad2d((1, 1, 0, 0))(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
    tensor([[[[2., 1., 2., 1.],
              [4., 3., 4., 3.]]]])
""")
ReplicationPad1d = _make("ReplicationPad1d", 1, "replicate", doc="""
Pads the last dim by repeating its edge values.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ReplicationPad1d((1, 2))(torch.tensor([[[1.0, 2.0]]]))
    tensor([[[1., 1., 2., 2., 2.]]])
""")
ReplicationPad2d = _make("ReplicationPad2d", 2, "replicate", doc="""
Pads the last 2 dims by repeating their edge values.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ReplicationPad2d((0, 0, 1, 0))(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
    tensor([[[[1., 2.],
              [1., 2.],
              [3., 4.]]]])
""")
CircularPad1d = _make("CircularPad1d", 1, "circular", doc="""
Pads the last dim circularly (wrapping around).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.CircularPad1d(1)(torch.tensor([[[1.0, 2.0, 3.0]]]))
    tensor([[[3., 1., 2., 3., 1.]]])
""")
CircularPad2d = _make("CircularPad2d", 2, "circular", doc="""
Pads the last 2 dims circularly (wrapping around).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.CircularPad2d((1, 0, 0, 0))(torch.tensor([[[[1.0, 2.0], [3.0, 4.0]]]]))
    tensor([[[[2., 1., 2.],
              [4., 3., 4.]]]])
""")
ReflectionPad3d = _make("ReflectionPad3d", 3, "reflect", doc="""
Pads the last 3 dims with their reflection (the edge not repeated).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ReflectionPad3d(1)(torch.arange(8.0).reshape(1, 1, 2, 2, 2)).shape
    torch.Size([1, 1, 4, 4, 4])
""")
ReplicationPad3d = _make("ReplicationPad3d", 3, "replicate", doc="""
Pads the last 3 dims by repeating their edge values.

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.ReplicationPad3d((1, 0, 0, 0, 0, 0))(torch.tensor([[[[[1.0, 2.0]]]]]))
    tensor([[[[[1., 1., 2.]]]]])
""")
CircularPad3d = _make("CircularPad3d", 3, "circular", doc="""
Pads the last 3 dims circularly (wrapping around).

Example::

    >>> import fgrad.torch as torch
    >>> torch.nn.CircularPad3d((0, 1, 0, 0, 0, 0))(torch.tensor([[[[[1.0, 2.0]]]]]))
    tensor([[[[[1., 2., 1.]]]]])
""")

__all__ += ["ReflectionPad3d", "ReplicationPad3d", "CircularPad3d"]
