"""`ds` (JAX's ``jax.ds``) and `Slice`: a slice given by a start and a size, where the start
may be traced, so ``x[fgrad.ds(i, 2)]`` works under `fgrad.jit` with a traced ``i``
(``x[i:i + 2]`` needs a concrete ``i``).

As JAX's: a stride-1 window is clamped to fit the axis (a negative start counts from the end
first), a strided one clamps each index (``ds(-2, 3, 2)`` on ``arange(10)`` selects 0, 0, 2).
`fgrad.numpy`'s indexing applies a `Slice` along its axis before the rest of the index.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> x = fnp.arange(10)
    >>> x[fgrad.ds(4, 2)], fgrad.jit(lambda i: x[fgrad.ds(i, 3)])(8)
    (Array([4, 5], dtype=int64), Array([7, 8, 9], dtype=int64))
"""

from __future__ import annotations

from typing import Any

from .core.array import ArrayImpl, Tracer
from .tree_util import register_pytree_node


def _static(v: Any) -> bool:
    return not isinstance(v, (ArrayImpl, Tracer))


class Slice:
    """``start``, ``size`` (an int, fixing the result's shape) and ``stride`` (an int >= 0);
    ``start`` may be an array or tracer.  A pytree: a non-int ``start`` is its leaf.

    Example::

        >>> Slice(1, 2)
        Slice(start=1, size=2, stride=1)
    """

    _fgrad_dslice = True  # fgrad.numpy's indexing's mark (fgrad.numpy sits below this module)
    __slots__ = ("start", "size", "stride")

    def __init__(self, start: Any, size: Any, stride: int = 1) -> None:
        if stride < 0:
            raise ValueError("`stride` must be >= 0.")
        self.start, self.size, self.stride = start, size, stride

    def __repr__(self) -> str:
        return f"Slice(start={self.start!r}, size={self.size!r}, stride={self.stride!r})"

    def __eq__(self, other: object) -> bool:
        return (type(other) is Slice and _static(self.start) and _static(other.start)
                and (self.start, self.size, self.stride) == (other.start, other.size, other.stride))

    def __hash__(self) -> int:
        return hash((self.start, self.size, self.stride)) if _static(self.start) else id(self)


def _flatten(s: Slice):
    dynamic = not _static(s.start)
    return ((s.start,) if dynamic else ()), (dynamic, None if dynamic else s.start, s.size, s.stride)


def _unflatten(aux, children) -> Slice:
    dynamic, start, size, stride = aux
    return Slice(children[0] if dynamic else start, size, stride)


register_pytree_node(Slice, _flatten, _unflatten)


def ds(start: Any, size: int | None = None, stride: int | None = None) -> slice | Slice:
    """A `Slice` of ``size`` elements from ``start`` (JAX's ``jax.ds``, ``dslice``):
    ``ds(None)`` is ``:``, ``ds(j)`` is ``:j``, ``ds(i, j)`` is ``i:i+j`` and ``ds(i, j, s)``
    is ``i:i+j:s`` with ``j`` elements; ``i`` may be traced.

    Example::

        >>> ds(3), ds(None)
        (Slice(start=0, size=3, stride=1), slice(None, None, None))
    """
    if start is None:
        return slice(None)
    if stride is None:
        stride = 1
    if not isinstance(stride, int):
        raise ValueError("Non-static stride in `dslice`")
    if size is None:
        start, size = 0, start
    return Slice(start, size, stride)


dslice = ds

__all__ = ["Slice", "ds", "dslice"]
