"""``torch.nn.utils.rnn``: variable-length sequences for the recurrent layers.

A `PackedSequence` holds the valid time steps of a batch of sequences sorted by decreasing
length, time-major: ``data`` (sum of lengths, *), ``batch_sizes[t]`` = how many sequences
are longer than t, and the permutations ``sorted_indices`` / ``unsorted_indices`` to and from
the caller's batch order. `RNN`, `LSTM` and `GRU` accept one and return one (final states in
the caller's order), as in PyTorch.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence, pad_sequence
    >>> seqs = [torch.ones(3, 2), torch.ones(1, 2), torch.ones(2, 2)]
    >>> padded = pad_sequence(seqs, batch_first=True)
    >>> packed = pack_padded_sequence(padded, [3, 1, 2], batch_first=True, enforce_sorted=False)
    >>> packed.batch_sizes
    tensor([3, 2, 1])
    >>> out, lengths = pad_packed_sequence(packed, batch_first=True)
    >>> out.shape, lengths
    (torch.Size([3, 3, 2]), tensor([3, 1, 2]))
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import fgrad.torch as torch

from ..._tensor import Tensor
from ... import _profile_state
from ..._dispatch import result_tensor
from ...autograd.grad_mode import STATE
from ..._stl_order import sort_order
from typing import Any

__all__ = [
    "PackedSequence",
    "pad_sequence",
    "pack_padded_sequence",
    "pad_packed_sequence",
    "pack_sequence",
    "unpad_sequence",
    "unpack_sequence",
    "invert_permutation",
]


class _PackedSequenceBase(NamedTuple):
    data: Tensor
    batch_sizes: Tensor
    sorted_indices: Tensor | None
    unsorted_indices: Tensor | None


class PackedSequence(_PackedSequenceBase):
    """``PackedSequence(data, batch_sizes, sorted_indices, unsorted_indices)``; build one with
    `pack_padded_sequence` or `pack_sequence`, not directly.

    Example::

        >>> import fgrad.torch as torch
        >>> packed = torch.nn.utils.rnn.pack_sequence([torch.tensor([1.0, 2.0, 3.0]), torch.tensor([4.0])])
        >>> packed.data, packed.batch_sizes
        (tensor([1., 4., 2., 3.]), tensor([2, 1, 1]))
    """

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None and sorted_indices is not None:
            unsorted_indices = invert_permutation(sorted_indices)
        return super().__new__(cls, data, batch_sizes, sorted_indices, unsorted_indices)

    def to(self, *args: Any, **kwargs: Any) -> PackedSequence:
        """``data`` moved/cast like ``Tensor.to``; the index tensors follow ``data``'s device."""
        data = self.data.to(*args, **kwargs)
        if data is self.data:
            return self
        device = data.device
        sorted_indices = None if self.sorted_indices is None else self.sorted_indices.to(device)
        unsorted_indices = None if self.unsorted_indices is None else self.unsorted_indices.to(device)
        return type(self)(data, self.batch_sizes, sorted_indices, unsorted_indices)

    def cpu(self) -> PackedSequence:
        return self.to("cpu")

    def double(self) -> PackedSequence:
        return self.to(dtype=torch.float64)

    def float(self) -> PackedSequence:
        return self.to(dtype=torch.float32)

    @property
    def is_cuda(self) -> bool:
        return self.data.is_cuda

    def is_pinned(self) -> bool:
        return False


def invert_permutation(permutation: Tensor | None) -> Tensor | None:
    """The inverse permutation (``out[permutation[i]] = i``).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.utils.rnn.invert_permutation(torch.tensor([2, 0, 1]))
        tensor([1, 2, 0])
    """
    if permutation is None:
        return None
    out = torch.empty_like(permutation)
    out.scatter_(0, permutation, torch.arange(permutation.numel(), device=permutation.device))
    return out


def pad_sequence(
    sequences: Tensor | list[Tensor], batch_first: bool = False, padding_value: float = 0.0,
                 padding_side: str = "right"
) -> Tensor:
    """Stack tensors of shape (L_i, *) into (max L, B, *) (or (B, max L, *)), filling with
    ``padding_value`` on the right (or left).

    Example::

        >>> import fgrad.torch as torch
        >>> torch.nn.utils.rnn.pad_sequence([torch.tensor([1, 2]), torch.tensor([3])], batch_first=True)
        tensor([[1, 2],
                [3, 0]])
    """
    if padding_side not in ("left", "right"):
        raise ValueError(f"Expected padding_side to be one of left or right, but got {padding_side}.")
    sequences = list(sequences)
    if not sequences:
        raise RuntimeError("received an empty list of sequences")
    max_len = max(s.size(0) for s in sequences)
    trailing = sequences[0].shape[1:]
    if len(sequences) > 1 and all(s.dim() >= 1 and s.shape[1:] == trailing for s in sequences):
        # one gather from the concatenated sequences and a padding row (instead of a
        # filler, a concatenation per sequence and a stack): the same values
        lens = [s.size(0) for s in sequences]
        starts = np.cumsum([0] + lens[:-1])
        t = np.arange(max_len)[:, None]
        lens_a = np.asarray(lens)[None, :]
        src = t if padding_side == "right" else t - (max_len - lens_a)
        idx = np.where((src >= 0) & (src < lens_a), starts[None, :] + src, sum(lens))  # (T, B)
        filler = torch.full((1, *trailing), padding_value, dtype=sequences[0].dtype,
                            device=sequences[0].device)
        return _gather_rows(torch.cat([*sequences, filler], 0), idx.T if batch_first else idx)
    rows = []
    for s in sequences:
        pad = max_len - s.size(0)
        if pad:
            filler = torch.full((pad, *s.shape[1:]), padding_value, dtype=s.dtype, device=s.device)
            s = torch.cat([s, filler] if padding_side == "right" else [filler, s], 0)
        rows.append(s)
    return torch.stack(rows, 0 if batch_first else 1)


def _gather_rows(rows: Tensor, index: np.ndarray) -> Tensor:
    """``rows[index]`` (an int64 index array of any shape into the first axis): the one
    gather that packing and padding are (its gradient scatters into distinct rows, so it
    gives each row exactly its own cotangent).  A host tensor with nothing to record (a
    ``collate_fn``'s ``pad_sequence``) is indexed by NumPy at once: the same copy, without
    staging a program for every new pair of shapes (variable-length batches)."""
    b = rows._buf
    if type(b) is np.ndarray and _profile_state.recorder is None and not (
            STATE.enabled and (rows._rg or rows._gfn is not None)):
        return result_tensor(b[np.ascontiguousarray(index)])  # (a C-ordered result)
    return rows[torch.tensor(index.astype(np.int64, copy=False), device=rows.device)]


def _lengths_array(lengths) -> np.ndarray:
    if isinstance(lengths, Tensor):
        if lengths.device.type != "cpu":
            raise RuntimeError(
                "'lengths' argument should be a 1D CPU int64 tensor, but got 1D "
                f"{lengths.device.type} Long tensor"
            )
        lengths = lengths.tolist()
    return np.asarray(lengths, dtype=np.int64).reshape(-1)


def pack_padded_sequence(
    input: Tensor, lengths: Tensor | list[int], batch_first: bool = False, enforce_sorted: bool = True
) -> PackedSequence:
    """Pack a padded batch (T, B, *) (or (B, T, *)) of sequences of the given lengths.
    ``enforce_sorted=True`` requires decreasing lengths; otherwise the batch is sorted (and
    the permutation kept so outputs come back in the caller's order), equal lengths in the
    order PyTorch's CPU sort leaves them (`fgrad.torch._stl_order.sort_order`).

    Example::

        >>> import fgrad.torch as torch
        >>> padded = torch.tensor([[1.0, 2.0], [3.0, 0.0]])
        >>> torch.nn.utils.rnn.pack_padded_sequence(padded, [2, 1], batch_first=True).data
        tensor([1., 3., 2.])
    """
    lens = _lengths_array(lengths)
    batch_dim = 0 if batch_first else 1
    if len(lens) != input.size(batch_dim):
        raise RuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(lens)} (batch_size="
            f"{input.size(batch_dim)})"
        )
    if lens.size and lens.min() <= 0:
        raise RuntimeError(
            "Length of all samples has to be greater than 0, but found an element in 'lengths' that is <= 0"
        )
    if enforce_sorted:
        if np.any(lens[1:] > lens[:-1]):
            raise RuntimeError(
                "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
                "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
                "pack_sequence to sidestep this requirement if you do not need ONNX "
                "exportability."
            )
        sorted_indices = None
        order = np.arange(len(lens))
    else:
        # PyTorch's torch.sort(lengths, descending=True): std::sort's order for equal lengths
        order = np.array(sort_order(lens.tolist(), descending=True), dtype=np.int64)
        sorted_indices = torch.tensor(order, dtype=torch.int64, device=input.device)
    if batch_first:
        input = input.transpose(0, 1)
    if lens.max() > input.size(0):
        raise RuntimeError(
            f"the length of a sequence ({lens.max()}) exceeds the padded length ({input.size(0)})"
        )
    sorted_lens = lens[order]
    batch_sizes = np.array([(sorted_lens > t).sum() for t in range(int(sorted_lens[0]))], dtype=np.int64)
    data = _pack_rows(input, batch_sizes, order)
    return PackedSequence(data, torch.tensor(batch_sizes), sorted_indices, invert_permutation(sorted_indices))


def _pack_rows(padded: Tensor, batch_sizes, order) -> Tensor:
    """The packed data of a time-major ``padded`` (T, B, *): step t's first
    ``batch_sizes[t]`` sequences in the sorted order ``order`` (caller's batch indices), as
    one gather from the (T * B, *) rows."""
    B = padded.size(1)
    sizes = np.asarray(batch_sizes, dtype=np.int64)
    t = np.repeat(np.arange(len(sizes)), sizes)
    j = np.arange(len(t)) - np.repeat(np.cumsum(sizes) - sizes, sizes)  # position in the step
    flat = padded.reshape(padded.size(0) * B, *padded.shape[2:])
    return _gather_rows(flat, t * B + np.asarray(order, dtype=np.int64)[j])


def pad_packed_sequence(
    sequence: PackedSequence,
    batch_first: bool = False,
    padding_value: float = 0.0,
    total_length: int | None = None,
) -> tuple[Tensor, Tensor]:
    """The inverse of `pack_padded_sequence`: ``(padded (T, B, *) or (B, T, *), lengths)``
    in the caller's batch order; ``total_length`` pads to a fixed T.

    Example::

        >>> import fgrad.torch as torch
        >>> packed = torch.nn.utils.rnn.pack_sequence([torch.tensor([1.0, 2.0]), torch.tensor([3.0])])
        >>> torch.nn.utils.rnn.pad_packed_sequence(packed, batch_first=True)
        (tensor([[1., 2.],
                [3., 0.]]), tensor([2, 1]))
    """
    data, batch_sizes = sequence.data, [int(n) for n in sequence.batch_sizes.tolist()]
    max_len = len(batch_sizes)
    if total_length is not None:
        if total_length < max_len:
            raise ValueError(
                "Expected total_length to be at least the length of the longest sequence in input, "
                f"but got total_length={total_length} and max sequence length being {max_len}"
            )
        max_len = total_length
    batch = batch_sizes[0]
    sizes = np.array(batch_sizes)
    lengths = np.array([(sizes > b).sum() for b in range(batch)], dtype=np.int64)
    cols = np.arange(batch)  # the sorted position of each output column
    if sequence.unsorted_indices is not None:
        cols = sequence.unsorted_indices.cpu().numpy().astype(np.int64)
        lengths = lengths[cols]
    # padded[t, b] is packed row offset[t] + cols[b] while cols[b] < batch_sizes[t], else a
    # padding row appended to the data: one gather
    n_rows = int(sizes.sum())
    offsets = np.cumsum(sizes) - sizes
    idx = np.full((max_len, batch), n_rows, dtype=np.int64)
    steps = len(batch_sizes)
    idx[:steps] = np.where(cols[None, :] < sizes[:, None], offsets[:, None] + cols[None, :], n_rows)
    rows = data
    if (idx == n_rows).any():
        filler = torch.full((1, *data.shape[1:]), padding_value, dtype=data.dtype, device=data.device)
        rows = torch.cat([data, filler], 0)
    padded = _gather_rows(rows, idx)
    if batch_first:
        padded = padded.transpose(0, 1)
    return padded, torch.tensor(lengths)


def pack_sequence(sequences: list[Tensor], enforce_sorted: bool = True) -> PackedSequence:
    """Pack a list of tensors (L_i, *).

    Example::

        >>> import fgrad.torch as torch
        >>> seqs = [torch.tensor([1.0]), torch.tensor([2.0, 3.0])]
        >>> torch.nn.utils.rnn.pack_sequence(seqs, enforce_sorted=False)  # doctest: +NORMALIZE_WHITESPACE
        PackedSequence(data=tensor([2., 1., 3.]), batch_sizes=tensor([2, 1]),
                       sorted_indices=tensor([1, 0]), unsorted_indices=tensor([1, 0]))
    """
    lengths = [s.size(0) for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


def unpad_sequence(padded_sequences: Tensor, lengths: Tensor, batch_first: bool = False) -> list:
    """The list of unpadded sequences of a padded batch.

    Example::

        >>> import fgrad.torch as torch
        >>> padded = torch.tensor([[1.0, 2.0], [3.0, 0.0]])
        >>> torch.nn.utils.rnn.unpad_sequence(padded, torch.tensor([2, 1]), batch_first=True)
        [tensor([1., 2.]), tensor([3.])]
    """
    if not batch_first:
        padded_sequences = padded_sequences.transpose(0, 1)
    return [padded_sequences[i, :n] for i, n in enumerate(_lengths_array(lengths).tolist())]


def unpack_sequence(packed_sequences: PackedSequence) -> list:
    """The list of sequences of a `PackedSequence`, in the caller's order.

    Example::

        >>> import fgrad.torch as torch
        >>> packed = torch.nn.utils.rnn.pack_sequence([torch.tensor([1.0, 2.0]), torch.tensor([3.0])])
        >>> torch.nn.utils.rnn.unpack_sequence(packed)
        [tensor([1., 2.]), tensor([3.])]
    """
    padded, lengths = pad_packed_sequence(packed_sequences, batch_first=True)
    return unpad_sequence(padded, lengths, batch_first=True)


def _packed_to_padded_time_major(sequence: PackedSequence):
    """For the recurrent layers: (T, B, *) in the caller's order and the lengths array."""
    padded, lengths = pad_packed_sequence(sequence)
    return padded, lengths.numpy()


def _padded_to_packed_like(padded: Tensor, like: PackedSequence) -> PackedSequence:
    """Pack a (T, B, *) tensor in the caller's order with ``like``'s sizes and permutation."""
    batch_sizes = [int(n) for n in like.batch_sizes.tolist()]
    order = (np.arange(padded.size(1)) if like.sorted_indices is None
             else like.sorted_indices.cpu().numpy())
    data = _pack_rows(padded, batch_sizes, order)
    return PackedSequence(data, like.batch_sizes, like.sorted_indices, like.unsorted_indices)
