"""The ``*_copy`` functions (``torch.t_copy``, ``torch.view_copy``, ...): the view op of the same
name, returning new contiguous tensors that share no memory with the input (PyTorch's
"view-copy" variants, used by functionalized programs).  One rule builds all of them from the
view ops: ``X_copy(input, *args, out=None) = X(input, *args)`` cloned, then written to ``out``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import fgrad.torch as torch

from ._dispatch import write_out, write_out_multi
from ._tensor import Tensor

def _slice(x: Tensor, dim: int, start: int | None, end: int | None, step: int) -> Tensor:
    """``x[..., start:end:step, ...]`` along ``dim`` (ATen's ``slice``)."""
    return x[(slice(None),) * (dim % max(x.dim(), 1)) + (slice(start, end, step),)]


# name -> (the view op, an example call, what PyTorch 2.13 prints for it)
_X = "torch.tensor([[1., 2., 3.], [4., 5., 6.]])"
_VIEW_COPIES: dict[str, tuple[Callable[..., Any], str, str]] = {
    "alias_copy": (
        lambda x: x.view_as(x),
        f"torch.alias_copy({_X})",
        "tensor([[1., 2., 3.],\n        [4., 5., 6.]])"),
    "as_strided_copy": (
        lambda x, size, stride, storage_offset=None: torch.as_strided(x, size, stride, storage_offset),
        f"torch.as_strided_copy({_X}, (2, 2), (1, 2))",
        "tensor([[1., 3.],\n        [2., 4.]])"),
    "detach_copy": (
        lambda x: x.detach(),
        f"torch.detach_copy({_X})",
        "tensor([[1., 2., 3.],\n        [4., 5., 6.]])"),
    "diagonal_copy": (
        lambda x, offset=0, dim1=0, dim2=1: torch.diagonal(x, offset, dim1, dim2),
        f"torch.diagonal_copy({_X})",
        "tensor([1., 5.])"),
    "expand_copy": (
        lambda x, size, *, implicit=False: x.expand(size),
        "torch.expand_copy(torch.tensor([[1., 2.]]), (2, 2))",
        "tensor([[1., 2.],\n        [1., 2.]])"),
    "narrow_copy": (
        lambda x, dim, start, length: torch.narrow(x, dim, start, length),
        f"torch.narrow_copy({_X}, 1, 1, 2)",
        "tensor([[2., 3.],\n        [5., 6.]])"),
    "permute_copy": (
        lambda x, dims: torch.permute(x, dims),
        f"torch.permute_copy({_X}, (1, 0))",
        "tensor([[1., 4.],\n        [2., 5.],\n        [3., 6.]])"),
    "select_copy": (
        lambda x, dim, index: torch.select(x, dim, index),
        f"torch.select_copy({_X}, 0, 1)",
        "tensor([4., 5., 6.])"),
    "slice_copy": (
        lambda x, dim=0, start=None, end=None, step=1: _slice(x, dim, start, end, step),
        f"torch.slice_copy({_X}, 1, 0, 3, 2)",
        "tensor([[1., 3.],\n        [4., 6.]])"),
    "split_copy": (
        lambda x, split_size, dim=0: torch.split(x, split_size, dim),
        f"torch.split_copy({_X}, 2, 1)",
        "(tensor([[1., 2.],\n        [4., 5.]]), tensor([[3.],\n        [6.]]))"),
    "split_with_sizes_copy": (
        lambda x, split_sizes, dim=0: torch.split(x, list(split_sizes), dim),
        f"torch.split_with_sizes_copy({_X}, [1, 2], 1)",
        "(tensor([[1.],\n        [4.]]), tensor([[2., 3.],\n        [5., 6.]]))"),
    "squeeze_copy": (
        lambda x, dim=None: torch.squeeze(x) if dim is None else torch.squeeze(x, dim),
        "torch.squeeze_copy(torch.tensor([[1., 2.]]))",
        "tensor([1., 2.])"),
    "t_copy": (
        lambda x: torch.t(x),
        f"torch.t_copy({_X})",
        "tensor([[1., 4.],\n        [2., 5.],\n        [3., 6.]])"),
    "transpose_copy": (
        lambda x, dim0, dim1: torch.transpose(x, dim0, dim1),
        f"torch.transpose_copy({_X}, 0, 1)",
        "tensor([[1., 4.],\n        [2., 5.],\n        [3., 6.]])"),
    "unbind_copy": (
        lambda x, dim=0: torch.unbind(x, dim),
        f"torch.unbind_copy({_X})",
        "(tensor([1., 2., 3.]), tensor([4., 5., 6.]))"),
    "unfold_copy": (
        lambda x, dimension, size, step: x.unfold(dimension, size, step),
        "torch.unfold_copy(torch.tensor([1., 2., 3., 4.]), 0, 2, 2)",
        "tensor([[1., 2.],\n        [3., 4.]])"),
    "unsqueeze_copy": (
        lambda x, dim: torch.unsqueeze(x, dim),
        "torch.unsqueeze_copy(torch.tensor([1., 2.]), 1)",
        "tensor([[1.],\n        [2.]])"),
    "view_copy": (
        lambda x, size: x.view(size),
        f"torch.view_copy({_X}, (3, 2))",
        "tensor([[1., 2.],\n        [3., 4.],\n        [5., 6.]])"),
    "view_as_real_copy": (
        lambda x: torch.view_as_real(x),
        "torch.view_as_real_copy(torch.tensor([1 + 2j]))",
        "tensor([[1., 2.]])"),
    "view_as_complex_copy": (
        lambda x: torch.view_as_complex(x),
        "torch.view_as_complex_copy(torch.tensor([[1., 2.]]))",
        "tensor([1.+2.j])"),
}


def _make(name: str, view: Callable[..., Any], call: str, printed: str) -> Callable[..., Any]:
    base = name[: -len("_copy")]

    def view_copy(input: Tensor, *args: Any, out: Tensor | tuple[Tensor, ...] | None = None,
                  **kwargs: Any) -> Tensor | tuple[Tensor, ...]:
        if not isinstance(input, Tensor):
            raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not "
                            f"{type(input).__name__}")
        res = view(input, *args, **kwargs)
        if isinstance(res, (tuple, list)):
            res = tuple(r.clone(memory_format=torch.contiguous_format) for r in res)
            return res if out is None else write_out_multi(out, res, name)
        res = res.clone(memory_format=torch.contiguous_format)
        return res if out is None else write_out(out, res, name, composite=True)

    view_copy.__name__ = view_copy.__qualname__ = name
    view_copy.__doc__ = (f"``torch.{base}`` with results that are new contiguous tensors (no memory "
                         f"shared with ``input``).\n\nExample::\n\n    >>> import fgrad.torch as torch\n"
                         f"    >>> {call}\n    " + printed.replace("\n", "\n    ") + "\n")
    return view_copy


def install(namespace: dict) -> None:
    """Add the ``*_copy`` functions to the ``fgrad.torch`` namespace."""
    for name, (view, call, printed) in _VIEW_COPIES.items():
        namespace[name] = _make(name, view, call, printed)


__all__ = ["install"]
