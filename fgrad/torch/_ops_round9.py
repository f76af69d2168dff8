"""PyTorch functions the shim lacked (round 9): the control-flow operators ``torch.cond`` and
``torch.while_loop`` (run eagerly, with PyTorch's checks), the functional RNN cells
(``lstm_cell``, ``gru_cell``, ``rnn_tanh_cell``, ``rnn_relu_cell``), ``nonzero_static``,
``constant_pad_nd``, ``empty_permuted``, the deprecated ``frobenius_norm``/``nuclear_norm``,
the ``unsafe_*`` splits, and the legacy ``Tensor.new`` constructor, ``Tensor.as_subclass``
and small ``Tensor`` queries.

Every computing function is a composition of the shim's recorded ops, so autograd, dtypes
and devices come from them.

Example::

    >>> import fgrad.torch as torch
    >>> torch.cond(torch.tensor(True), lambda x: x + 1, lambda x: x - 1, (torch.tensor([1.0]),))
    tensor([2.])
"""

from __future__ import annotations

import warnings
from typing import Any, Callable, Sequence

import fgrad.torch as torch
import fgrad.torch.nn.functional as F

from ._ops_shape import alias_view
from ._tensor import Tensor

__all__ = ["FUNCTIONS", "METHODS"]


# -- control flow ---------------------------------------------------------------------------


def _check_operands(name: str, operands) -> tuple:
    if not isinstance(operands, (tuple, list)):
        raise RuntimeError(
            f"{name}: operands must be a tuple or list of tensors, but got {type(operands).__name__}"
        )
    for o in operands:
        if not isinstance(o, (Tensor, int, float, bool)):
            raise RuntimeError(
                f"{name}: operands must be tensors or Python numbers, but got {type(o).__name__}"
            )
    return tuple(operands)


def _leaves(tree) -> list:
    if isinstance(tree, (tuple, list)):
        return [leaf for item in tree for leaf in _leaves(item)]
    if isinstance(tree, dict):
        return [leaf for key in sorted(tree) for leaf in _leaves(tree[key])]
    return [tree]


def _structure(tree):
    if isinstance(tree, (tuple, list)):
        return (type(tree).__name__, tuple(_structure(t) for t in tree))
    if isinstance(tree, dict):
        return ("dict", tuple((k, _structure(tree[k])) for k in sorted(tree)))
    return "leaf"


def _metadata(x):
    return (tuple(x.shape), x.dtype) if isinstance(x, Tensor) else type(x).__name__


def _pred_value(name: str, pred) -> bool:
    if isinstance(pred, Tensor):
        if pred.numel() != 1:
            raise RuntimeError(
                f"{name}: expected the predicate to be a tensor with one element or a bool, but "
                f"got a tensor of shape {tuple(pred.shape)}"
            )
        return bool(pred.item())
    if isinstance(pred, (bool, int)):
        return bool(pred)
    raise RuntimeError(
        f"{name}: expected the predicate to be a bool or a tensor, but got {type(pred).__name__}"
    )


def cond(
    pred: Tensor | bool,
    true_fn: Callable[..., Any],
    false_fn: Callable[..., Any],
    operands: tuple | list = (),
) -> Any:
    """``true_fn(*operands)`` if ``pred`` else ``false_fn(*operands)``, differentiable through
    the branch taken.  As PyTorch checks both branches, the other one runs too (without
    recording gradients) and both must return the same structure of tensors with the same
    shapes and dtypes.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.cond(torch.tensor(False), torch.sin, torch.cos, (torch.tensor([0.0]),))
        tensor([1.])
    """
    if not (callable(true_fn) and callable(false_fn)):
        raise RuntimeError("cond: expected true_fn and false_fn to be callable")
    operands = _check_operands("cond", operands)
    take = _pred_value("cond", pred)
    taken = (true_fn if take else false_fn)(*operands)
    with torch.no_grad():
        other = (false_fn if take else true_fn)(*operands)
    same = _structure(taken) == _structure(other) and [_metadata(a) for a in _leaves(taken)] == [
        _metadata(b) for b in _leaves(other)
    ]
    if not same:
        t, f = (taken, other) if take else (other, taken)
        raise RuntimeError(
            "cond: the branches must return the same structure of tensors with the same shapes and "
            f"dtypes, but true_fn returned {[_metadata(a) for a in _leaves(t)]} and false_fn "
            f"returned {[_metadata(b) for b in _leaves(f)]}"
        )
    return taken


def while_loop(
    cond_fn: Callable[..., Any], body_fn: Callable[..., Any], carried_inputs: tuple | list
) -> tuple:
    """Run ``carried = body_fn(*carried)`` while ``cond_fn(*carried)``; the body must return
    tensors of the carried shapes and dtypes (PyTorch's check).

    Example::

        >>> import fgrad.torch as torch
        >>> step = lambda i, x: (i + 1, x * 2)
        >>> torch.while_loop(lambda i, x: i < 3, step, (torch.tensor(0), torch.ones(1)))
        (tensor(3), tensor([8.]))
    """
    if not (callable(cond_fn) and callable(body_fn)):
        raise RuntimeError("while_loop: expected cond_fn and body_fn to be callable")
    carried = _check_operands("while_loop", carried_inputs)
    expected = [_metadata(c) for c in carried]
    while _pred_value("while_loop", cond_fn(*carried)):
        out = body_fn(*carried)
        out = tuple(out) if isinstance(out, (tuple, list)) else (out,)
        got = [_metadata(c) for c in out]
        if got != expected:
            raise RuntimeError(
                f"while_loop: body_fn must return the carried inputs' shapes and dtypes {expected}, "
                f"but returned {got}"
            )
        carried = out
    return carried


# -- functional RNN cells ----------------------------------------------------------------------


def _check_cell(name: str, gates: int, input: Tensor, hx: Tensor, w_ih: Tensor, w_hh: Tensor) -> None:
    hidden = hx.shape[-1]
    if w_ih.shape[0] != gates * hidden:
        raise RuntimeError(
            f"weight_ih first dim must be {gates} * hidden_size = {gates * hidden}, but got {w_ih.shape[0]}"
            if gates > 1
            else f"{name}: weight_ih first dim must be hidden_size = {hidden}, but got {w_ih.shape[0]}"
        )
    if input.shape[-1] != w_ih.shape[1]:
        raise RuntimeError(
            f"{name}: input has inconsistent input_size: got {input.shape[-1]} expected {w_ih.shape[1]}"
        )


def _affine(x: Tensor, w: Tensor, b: Tensor | None) -> Tensor:
    return F.linear(x, w, b)


def lstm_cell(
    input: Tensor,
    hx: Sequence[Tensor],
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> tuple[Tensor, Tensor]:
    """One LSTM step: ``(h', c')`` from ``input`` and ``hx = (h, c)`` (gates i, f, g, o).

    Example::

        >>> import fgrad.torch as torch
        >>> h, c = torch.lstm_cell(torch.zeros(1, 2), (torch.zeros(1, 3), torch.zeros(1, 3)),
        ...                        torch.zeros(12, 2), torch.zeros(12, 3))
        >>> h.shape, c.shape
        (torch.Size([1, 3]), torch.Size([1, 3]))
    """
    h, c = hx
    _check_cell("lstm_cell", 4, input, h, w_ih, w_hh)
    gates = _affine(input, w_ih, b_ih) + _affine(h, w_hh, b_hh)
    i, f, g, o = gates.chunk(4, -1)
    c_next = torch.sigmoid(f) * c + torch.sigmoid(i) * torch.tanh(g)
    return torch.sigmoid(o) * torch.tanh(c_next), c_next


def gru_cell(
    input: Tensor,
    hx: Tensor,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> Tensor:
    """One GRU step (gates r, z, n as ``nn.GRUCell``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.gru_cell(torch.zeros(1, 2), torch.ones(1, 3), torch.zeros(9, 2), torch.zeros(9, 3))
        tensor([[0.5000, 0.5000, 0.5000]])
    """
    _check_cell("gru_cell", 3, input, hx, w_ih, w_hh)
    i_r, i_z, i_n = _affine(input, w_ih, b_ih).chunk(3, -1)
    h_r, h_z, h_n = _affine(hx, w_hh, b_hh).chunk(3, -1)
    r = torch.sigmoid(i_r + h_r)
    z = torch.sigmoid(i_z + h_z)
    n = torch.tanh(i_n + r * h_n)
    return (1 - z) * n + z * hx


def _elman_cell(name: str, activation, input, hx, w_ih, w_hh, b_ih, b_hh) -> Tensor:
    _check_cell(name, 1, input, hx, w_ih, w_hh)
    return activation(_affine(input, w_ih, b_ih) + _affine(hx, w_hh, b_hh))


def rnn_tanh_cell(
    input: Tensor,
    hx: Tensor,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> Tensor:
    """One Elman RNN step with ``tanh``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.rnn_tanh_cell(torch.zeros(1, 2), torch.zeros(1, 3), torch.zeros(3, 2), torch.zeros(3, 3))
        tensor([[0., 0., 0.]])
    """
    return _elman_cell("rnn_tanh_cell", torch.tanh, input, hx, w_ih, w_hh, b_ih, b_hh)


def rnn_relu_cell(
    input: Tensor,
    hx: Tensor,
    w_ih: Tensor,
    w_hh: Tensor,
    b_ih: Tensor | None = None,
    b_hh: Tensor | None = None,
) -> Tensor:
    """One Elman RNN step with ``relu``.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.rnn_relu_cell(torch.ones(1, 2), torch.zeros(1, 3), torch.ones(3, 2), torch.zeros(3, 3))
        tensor([[2., 2., 2.]])
    """
    return _elman_cell("rnn_relu_cell", torch.relu, input, hx, w_ih, w_hh, b_ih, b_hh)


# -- small functions ----------------------------------------------------------------------------


def nonzero_static(input: Tensor, *, size: int, fill_value: int = -1) -> Tensor:
    """The indices of the nonzero elements (as ``nonzero``), truncated or padded with
    ``fill_value`` to exactly ``size`` rows.

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nonzero_static(torch.tensor([0, 1, 0, 2]), size=3).flatten()
        tensor([ 1,  3, -1])
    """
    if size < 0:
        raise RuntimeError(f"nonzero_static: 'size' must be an non-negative integer, but got {size}")
    idx = torch.nonzero(input)
    if idx.shape[0] >= size:
        return idx[:size]
    pad = torch.full((size - idx.shape[0], idx.shape[1]), fill_value, dtype=idx.dtype, device=idx.device)
    return torch.cat([idx, pad])


def constant_pad_nd(input: Tensor, pad: Sequence[int], value: float = 0) -> Tensor:
    """``F.pad(input, pad, "constant", value)`` (negative pads crop).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.constant_pad_nd(torch.ones(2), [1, 1], 5.0)
        tensor([5., 1., 1., 5.])
    """
    return F.pad(input, list(pad), mode="constant", value=value)


def empty_permuted(
    size: Sequence[int],
    physical_layout: Sequence[int],
    *,
    dtype: Any = None,
    layout: Any = None,
    device: Any = None,
    requires_grad: bool = False,
    pin_memory: bool = False,
) -> Tensor:
    """An uninitialised tensor of ``size`` whose memory runs in the order ``physical_layout``
    (``(0, 2, 3, 1)`` is channels-last for NCHW).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.empty_permuted((2, 3, 4), (0, 2, 1)).stride()
        (12, 1, 3)
    """
    size, layout_order = list(size), list(physical_layout)
    if sorted(layout_order) != list(range(len(size))):
        raise RuntimeError(
            f"Number of dimensions in size does not match the length of the physical_layout; "
            f"i.e. len(size) = {len(size)} is not equal to len(physical_layout) = "
            f"{len(layout_order)}"
        )
    physical = torch.empty([size[d] for d in layout_order], dtype=dtype, device=device)
    inverse = [layout_order.index(d) for d in range(len(size))]
    return physical.permute(inverse).requires_grad_(requires_grad)


def frobenius_norm(input: Tensor, dim: int | Sequence[int] = (-2, -1), keepdim: bool = False) -> Tensor:
    """Deprecated (PyTorch warns): ``linalg.vector_norm(input, 2, dim, keepdim)``.

    Example::

        >>> import fgrad.torch as torch
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.frobenius_norm(torch.ones(2, 2))
        tensor(2.)
    """
    warnings.warn(
        "at::frobenius_norm is deprecated and it is just left for JIT compatibility. It will be "
        "removed in a future PyTorch release. Please use `linalg.vector_norm(A, 2., dim, keepdim)` "
        "instead",
        UserWarning,
        stacklevel=2,
    )
    dim = (dim,) if isinstance(dim, int) else tuple(dim)
    return torch.linalg.vector_norm(input, 2.0, dim=dim, keepdim=keepdim)


def nuclear_norm(input: Tensor, dim: Sequence[int] | bool | None = None, keepdim: bool = False) -> Tensor:
    """Deprecated (PyTorch warns): ``linalg.matrix_norm(input, "nuc", dim, keepdim)``.

    Example::

        >>> import fgrad.torch as torch
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     torch.nuclear_norm(torch.eye(2))
        tensor(2.)
    """
    warnings.warn(
        "at::nuclear_norm is deprecated and it is just left for JIT compatibility. It will be "
        "removed in a future PyTorch release. Please use `linalg.matrix_norm(A, 'nuc', dim, keepdim)` "
        "instead",
        UserWarning,
        stacklevel=2,
    )
    if isinstance(dim, bool):  # nuclear_norm(input, keepdim)
        dim, keepdim = None, dim
    return torch.linalg.matrix_norm(
        input, "nuc", dim=(-2, -1) if dim is None else tuple(dim), keepdim=keepdim
    )


def unsafe_chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    """``chunk`` (PyTorch's variant without view tracking; the same values here).

    Example::

        >>> import fgrad.torch as torch
        >>> [t.tolist() for t in torch.unsafe_chunk(torch.arange(4), 2)]
        [[0, 1], [2, 3]]
    """
    return tuple(torch.chunk(input, chunks, dim))


def unsafe_split(
    tensor: Tensor, split_size_or_sections: int | Sequence[int], dim: int = 0
) -> tuple[Tensor, ...]:
    """``split`` (PyTorch's variant without view tracking).

    Example::

        >>> import fgrad.torch as torch
        >>> [t.tolist() for t in torch.unsafe_split(torch.arange(3), 2)]
        [[0, 1], [2]]
    """
    return tuple(torch.split(tensor, split_size_or_sections, dim))


def unsafe_split_with_sizes(input: Tensor, split_sizes: Sequence[int], dim: int = 0) -> tuple[Tensor, ...]:
    """``split_with_sizes`` (PyTorch's variant without view tracking).

    Example::

        >>> import fgrad.torch as torch
        >>> [t.tolist() for t in torch.unsafe_split_with_sizes(torch.arange(3), [1, 2])]
        [[0], [1, 2]]
    """
    return tuple(torch.split(input, list(split_sizes), dim))


# -- Tensor methods -------------------------------------------------------------------------------


def _new(
    self: Tensor, *args: Any, dtype: Any = None, device: Any = None, requires_grad: bool = False
) -> Tensor:
    """The legacy constructor: ``x.new()`` (empty), ``x.new(2, 3)`` / ``x.new(torch.Size(...))``
    (uninitialised, of that shape), ``x.new(data)`` (a tensor of ``data``), all with ``x``'s dtype
    and device; ``x.new(tensor)`` returns ``tensor`` (of ``x``'s dtype, as PyTorch requires).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.zeros(2, dtype=torch.float64).new([1, 2])
        tensor([1., 2.], dtype=torch.float64)
    """
    dt = self.dtype if dtype is None else dtype
    dev = self.device if device is None else device
    if not args:
        return torch.empty(0, dtype=dt, device=dev, requires_grad=requires_grad)
    if len(args) == 1 and isinstance(args[0], Tensor):
        if args[0].dtype != dt:
            raise TypeError(f"new(): expected a tensor of dtype {dt} (the tensor's), but got {args[0].dtype}")
        return args[0].detach()
    if len(args) == 1 and isinstance(args[0], torch.Size):
        return torch.empty(tuple(args[0]), dtype=dt, device=dev, requires_grad=requires_grad)
    if all(isinstance(a, int) and not isinstance(a, bool) for a in args):
        return torch.empty(args, dtype=dt, device=dev, requires_grad=requires_grad)
    if len(args) == 1:
        return torch.tensor(args[0], dtype=dt, device=dev, requires_grad=requires_grad)
    raise TypeError(
        f"new() received an invalid combination of arguments - got {tuple(type(a).__name__ for a in args)}"
    )


def _as_subclass(self: Tensor, cls: type) -> Tensor:
    """A tensor of the ``Tensor`` subclass ``cls`` sharing ``self``'s data and autograd history.

    Example::

        >>> import fgrad.torch as torch
        >>> class MyTensor(torch.Tensor): pass
        >>> type(torch.ones(1).as_subclass(MyTensor)).__name__
        'MyTensor'
    """
    if not (isinstance(cls, type) and issubclass(cls, Tensor)):
        raise TypeError(f"as_subclass(): argument 'cls' must be a subclass of torch.Tensor, but got {cls!r}")
    out = alias_view(self)
    out.__class__ = cls
    return out


_STORAGE_OF = {
    "float32": "FloatStorage",
    "float64": "DoubleStorage",
    "float16": "HalfStorage",
    "bfloat16": "BFloat16Storage",
    "int64": "LongStorage",
    "int32": "IntStorage",
    "int16": "ShortStorage",
    "int8": "CharStorage",
    "uint8": "ByteStorage",
    "bool": "BoolStorage",
    "complex64": "ComplexFloatStorage",
    "complex128": "ComplexDoubleStorage",
}


def _storage_type(self: Tensor) -> type:
    """The legacy storage class of this tensor's dtype (``torch.FloatStorage``...), with
    PyTorch's deprecation warning for typed storages.

    Example::

        >>> import fgrad.torch as torch
        >>> import warnings
        >>> with warnings.catch_warnings():
        ...     warnings.simplefilter("ignore")
        ...     print(torch.ones(1).storage_type().__name__)
        FloatStorage
    """
    warnings.warn(
        "TypedStorage is deprecated. It will be removed in the future and UntypedStorage will be the "
        "only storage class. This should only matter to you if you are using storages directly.  To "
        "access UntypedStorage directly, use tensor.untyped_storage() instead of tensor.storage()",
        UserWarning,
        stacklevel=2,
    )
    name = _STORAGE_OF.get(str(self.dtype).removeprefix("torch."))
    if name is None:
        raise RuntimeError(f"storage_type(): no legacy storage class for dtype {self.dtype}")
    return getattr(torch, name)


def _is_distributed(self: Tensor) -> bool:
    """False (PyTorch's answer for every dense tensor).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.ones(1).is_distributed()
        False
    """
    return False


def _const_data_ptr(self: Tensor) -> int:
    """``data_ptr()`` (the address of the first element).

    Example::

        >>> import fgrad.torch as torch
        >>> t = torch.ones(1)
        >>> t.const_data_ptr() == t.data_ptr()
        True
    """
    return self.data_ptr()


FUNCTIONS = {
    "cond": cond,
    "while_loop": while_loop,
    "lstm_cell": lstm_cell,
    "gru_cell": gru_cell,
    "rnn_tanh_cell": rnn_tanh_cell,
    "rnn_relu_cell": rnn_relu_cell,
    "nonzero_static": nonzero_static,
    "constant_pad_nd": constant_pad_nd,
    "empty_permuted": empty_permuted,
    "frobenius_norm": frobenius_norm,
    "nuclear_norm": nuclear_norm,
    "unsafe_chunk": unsafe_chunk,
    "unsafe_split": unsafe_split,
    "unsafe_split_with_sizes": unsafe_split_with_sizes,
}
METHODS = {
    "new": _new,
    "as_subclass": _as_subclass,
    "storage_type": _storage_type,
    "is_distributed": _is_distributed,
    "const_data_ptr": _const_data_ptr,
    "nonzero_static": nonzero_static,
    "unsafe_chunk": unsafe_chunk,
    "unsafe_split": unsafe_split,
    "unsafe_split_with_sizes": unsafe_split_with_sizes,
}
