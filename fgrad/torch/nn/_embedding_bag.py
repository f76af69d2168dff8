"""``F.embedding_bag``: sums, means or maxima of bags of embedding rows, without materialising
the per-index rows for ``sum`` and ``mean``.

The bags are read once, on the host, into an `fgrad.ops.resample.AxisMap` over the rows of
``weight``: bag ``b`` has one tap per member (index, weight 1; ``padding_idx`` members and the padding
of short bags weigh 0), and ``mean`` divides each bag's sum by its count, as PyTorch (a
product by ``1/count`` rounds differently: ``14 / 3`` against ``14 * (1/3)`` in float32).  The forward is one
``resample`` (a gather and a weighted sum) and the weight's gradient is its transposed map,
which lists for every row the bags that read it: a gather and a weighted sum again, never a
scatter-add.  ``per_sample_weights`` multiplies the gathered rows (one selection map) before
a bag-sum map over positions, so its gradient is the usual product rule; ``max`` gathers the
bags' rows into a padded ``(bags, longest, dim)`` block and reduces it (ties share the
gradient, as ``amax``; PyTorch sends it to one of them).

Example::

    >>> import fgrad.torch as torch
    >>> import fgrad.torch.nn.functional as F
    >>> w = torch.arange(6.0).reshape(3, 2)
    >>> F.embedding_bag(torch.tensor([0, 2, 1]), w, torch.tensor([0, 2]), mode="mean")
    tensor([[2., 3.],
            [2., 3.]])
"""

from __future__ import annotations

import numpy as np

import fgrad.numpy as fnp
from fgrad.ops.resample import AxisMap, resample, resample_p

from .. import _profile_state
from .._tensor import Tensor
from ..autograd import graph as _graph
from ._defop import buf, defop, is_concrete, run_eagerly, wrap


def _host(t: Tensor) -> np.ndarray:
    b = buf(t)
    return b if type(b) is np.ndarray else b.get()


def _bags(input: Tensor, offsets, include_last_offset: bool):
    """(flat indices, bag start positions, bag end positions)."""
    if input.dim() == 2:
        if offsets is not None:
            raise ValueError(
                "if input is 2D, then offsets has to be None, as input is treated is a mini-batch of fixed "
                f"length sequences. However, found offsets of type {type(offsets)}"
            )
        b, length = input.shape
        starts = np.arange(b) * length
        return _host(input).reshape(-1), starts, starts + length
    if input.dim() != 1:
        raise ValueError(f"input has to be 1D or 2D Tensor, but got Tensor of dimension {input.dim()}")
    if offsets is None:
        raise ValueError("offsets has to be a 1D Tensor but got None")
    if not isinstance(offsets, Tensor) or offsets.dim() != 1:
        raise ValueError("offsets has to be a 1D Tensor")
    flat = _host(input)
    off = _host(offsets).astype(np.int64)
    if off.size and off[0] != 0:
        raise RuntimeError(
            "offsets[0] has to be 0, i.e., the first sequence in the mini-batch has to start from position "
            "0. "
            f"However, got {off[0]}"
        )
    if off.size and (np.any(np.diff(off) < 0) or off[-1] > flat.size):
        raise RuntimeError(
            "embedding_bag: offsets must be non-decreasing and at most the number of indices "
            f"({flat.size}), got {off.tolist()}"
        )
    if include_last_offset:
        if off.size == 0:
            raise RuntimeError("embedding_bag: include_last_offset=True needs at least one offset")
        return flat, off[:-1], off[1:]
    return flat, off, np.append(off[1:], flat.size)


def _bag_table(starts, ends, keep) -> tuple[np.ndarray, np.ndarray]:
    """Positions (bags, longest) into the flat indices and a mask of the real, kept members
    (``keep``: a mask over the flat indices, or None: every one kept)."""
    lengths = ends - starts
    width = max(int(lengths.max(initial=0)), 1)
    pos = starts[:, None] + np.arange(width)[None, :]
    real = np.arange(width)[None, :] < lengths[:, None]
    pos = np.where(real, pos, 0)
    if keep is None:
        return pos, real
    member = real & (keep[pos] if keep.size else False)
    return pos, member


def embedding_bag(
    input: Tensor,
    weight: Tensor,
    offsets=None,
    mode: str = "mean",
    per_sample_weights=None,
    include_last_offset: bool = False,
    padding_idx: int | None = None,
) -> Tensor:
    """PyTorch's ``F.embedding_bag`` without ``max_norm`` (applied by the caller).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.nn._embedding_bag import embedding_bag
        >>> embedding_bag(torch.tensor([[0, 1]]), torch.eye(2), mode='max')
        tensor([[1., 1.]])
    """
    if mode not in ("sum", "mean", "max"):
        raise ValueError("mode has to be one of sum, mean or max")
    if per_sample_weights is not None and mode != "sum":
        raise NotImplementedError(
            "embedding_bag: per_sample_weights was not None. per_sample_weights is only supported for "
            "mode='sum' "
            f"(got mode='{mode}'). Please open a feature request on GitHub."
        )
    if input.dtype.is_floating_point or input.dtype.is_complex or input.dtype.itemsize == 1:
        raise RuntimeError(
            "Expected tensor for argument #1 'indices' to have one of the following scalar "
            "types: "
            f"Long, Int; but got {input.type()} instead (while checking arguments for "
            "embedding_bag)"
        )
    if weight.dim() != 2:
        raise RuntimeError(
            f"embedding_bag: weight has to be a 2D Tensor, but got Tensor of dimension {weight.dim()}"
        )
    if not (is_concrete(input) and is_concrete(weight)):
        raise NotImplementedError("embedding_bag reads its bags on the host: it runs in eager mode only")
    n, dim = weight.shape
    if padding_idx is not None:
        if padding_idx > 0 and padding_idx >= n:
            raise AssertionError("padding_idx must be within the number of embeddings")
        if padding_idx < 0:
            if padding_idx < -n:
                raise AssertionError("padding_idx must be within the number of embeddings")
            padding_idx += n
    flat, starts, ends = _bags(input, offsets, include_last_offset)
    flat = flat.astype(np.int64)  # (a copy: the maps below must not see later writes to input)
    if flat.size and int(flat.view(np.uint64).max()) >= n:  # (one reduction: a negative index is huge)
        bad = int(flat[(flat < 0) | (flat >= n)][0])
        raise IndexError(f"embedding_bag: index {bad} is out of range for a weight of {n} rows")
    pos, member = _bag_table(starts, ends, flat != padding_idx if padding_idx is not None else None)
    rows = flat[pos] if flat.size else np.zeros(pos.shape, np.int64)
    bags = pos.shape[0]
    if per_sample_weights is not None:
        if not isinstance(per_sample_weights, Tensor) or tuple(per_sample_weights.shape) != tuple(
            input.shape
        ):
            got = tuple(per_sample_weights.shape) if isinstance(per_sample_weights, Tensor) else None
            raise ValueError(
                f"embedding_bag: per_sample_weights must have the shape of input "
                f"{tuple(input.shape)}, got {got}"
            )
        gather = AxisMap(
            flat[:, None] if flat.size else np.zeros((0, 1), np.int64), np.ones((flat.size, 1)), n
        )
        bag_sum = AxisMap(pos, member.astype(np.float64), max(flat.size, 1))

        def fn_weighted(w, psw):
            picked = resample(w, gather, 0) * fnp.reshape(psw, (-1, 1))
            if flat.size == 0:
                return fnp.zeros((bags, dim), w.dtype)
            return resample(picked, bag_sum, 0) + _POSITIVE_ZERO

        if _per_call_ok(weight, per_sample_weights):
            return _per_call(fn_weighted, (weight, per_sample_weights))
        return defop(
            "EmbeddingBagBackward0",
            ("embedding_bag_psw", gather, bag_sum),
            fn_weighted,
            (weight, per_sample_weights),
        )
    if mode == "max":
        picks = AxisMap(rows.reshape(-1, 1), np.ones((rows.size, 1)), n)
        width = pos.shape[1]
        mask = member[:, :, None]
        empty = ~member.any(axis=1)[:, None]

        def fn_max(w):
            block = fnp.reshape(resample(w, picks, 0), (bags, width, dim))
            block = fnp.where(mask, block, -fnp.inf)
            top = fnp.max(block, axis=1)
            return fnp.where(empty, fnp.zeros_like(top), top)

        if _host_node_ok(weight):
            return _max_on_host(weight, picks, rows, member)
        if _per_call_ok(weight):
            return _per_call(fn_max, (weight,))
        return defop(
            "EmbeddingBagBackward0",
            ("embedding_bag_max", picks, bags, width, member.tobytes()),
            fn_max,
            (weight,),
        )
    table = _recent(AxisMap(rows, member.astype(np.float64), n))
    counts = None
    if mode == "mean":  # PyTorch divides each bag's sum by its count (not a product by 1/count)
        counts = np.maximum(member.sum(axis=1), 1)[:, None].astype(np.float64)
    if _host_node_ok(weight):
        return _bags_on_host(weight, table, counts)
    key = ("embedding_bag" if counts is None else "embedding_bag_mean", table)

    def fn(w):
        out = resample(w, table, 0) + _POSITIVE_ZERO
        return out if counts is None else out / counts.astype(w.dtype)

    return defop("EmbeddingBagBackward0", key, fn, (weight,))


# added to the bags' sums: PyTorch's sums start from +0, so an empty bag (or one of padding
# only) is +0, where the map's zero-weighted entries of negative rows summed to -0
_POSITIVE_ZERO = 0.0
# sums and means of host float32/float64 weights run `_bags_on_host`, maxima `_max_on_host` (False:
# the staged `defop`, or `_per_call` for maxima)
LINEAR_NODES = True
_HOST_DTYPES = frozenset(map(np.dtype, (np.float32, np.float64)))
# the latest bag maps, so that a batch seen again (an evaluation loop, a replayed epoch) reuses
# its map's transposed map and sparse matrix (built on the first backward) instead of new ones
_RECENT: dict = {}
_RECENT_SIZE = 256


def _host_node_ok(weight: Tensor) -> bool:
    """Whether the bags of ``weight`` run directly on the host with a node linear in the
    cotangent (`_bags_on_host`, `_max_on_host`): host float32/float64, no profiler recording."""
    wb = buf(weight)
    return (LINEAR_NODES and type(wb) is np.ndarray and wb.dtype in _HOST_DTYPES
            and not _profile_state.recorder)


def _recent(table: AxisMap) -> AxisMap:
    """The map equal to ``table`` among the latest `_RECENT_SIZE` (else ``table``, remembered)."""
    got = _RECENT.get(table)
    if got is not None:
        return got
    if len(_RECENT) >= _RECENT_SIZE:
        del _RECENT[next(iter(_RECENT))]  # the oldest
    _RECENT[table] = table
    return table


# max mode and per_sample_weights on the host run `_per_call` (False: the staged `defop`)
PER_CALL_NODES = True


def _per_call_ok(*args: Tensor) -> bool:
    """Whether `_per_call` may run the op: every operand on the host, no profiler recording."""
    return PER_CALL_NODES and not _profile_state.recorder and all(type(buf(a)) is np.ndarray for a in args)


def _per_call(fn, args: tuple) -> Tensor:
    """``fn(*args)`` run eagerly and recorded with a VJP linearized for this call
    (`graph.record_per_call`): the same primitives as the staged `defop`, whose forward and
    backward programs are keyed by the bags -- a new batch would trace and compile both
    (~3 ms) and leave them in the program caches."""
    res = wrap(run_eagerly(fn, [buf(a) for a in args]))
    _graph.record_per_call("EmbeddingBagBackward0", fn, args, (res,))
    return res


def _bags_on_host(weight: Tensor, table: AxisMap, counts) -> Tensor:
    """The bags' sums (``counts`` None) or means of host ``weight`` computed directly, and
    recorded as a linear node whose transpose divides by the counts and applies the
    transposed map (`graph.record_linear`): the same operations, in the same order, as the
    staged program of ``resample(w, table) / counts`` and its backward program -- but those
    are keyed by the bags, so a new batch would trace and compile both (~1 ms) and crowd
    the program caches."""
    wb = buf(weight)
    dt = wb.dtype
    c = None if counts is None else counts.astype(dt)
    with np.errstate(all="ignore"):  # IEEE special values silently, as the programs
        out = resample_p.impl(np, wb, table=table, axis=0)
        np.add(out, _POSITIVE_ZERO, out=out)
        if c is not None:
            out = np.divide(out, c)
    res = wrap(out)

    def host_transpose(ct):
        with np.errstate(all="ignore"):
            g = ct if c is None else np.divide(ct, c)
            return resample_p.impl(np, g, table=table.transposed(), axis=0)

    def tensor_transpose(ct: Tensor) -> Tensor:  # create_graph: a differentiable op again
        def fn_t(g):
            return resample(g if c is None else g / c.astype(g.dtype), table.transposed(), 0)

        return defop("EmbeddingBagBackwardBackward0", ("embedding_bag_t", table, c is None), fn_t, (ct,))

    _graph.record_linear("EmbeddingBagBackward0", weight, res, host_transpose, tensor_transpose)
    return res


def _max_on_host(weight: Tensor, picks: AxisMap, rows: np.ndarray, member: np.ndarray) -> Tensor:
    """The bags' maxima of host ``weight`` computed directly -- the gathered ``(bags, longest,
    dim)`` block, padding at ``-inf``, its maximum along the bag, empty bags ``+0`` -- and
    recorded as a node linear in the cotangent (`graph.record_linear`): with the block's
    maxima fixed by the forward (as PyTorch's saved ``max_indices``), the backward is the
    transpose of ``fn_max``'s derivative, in the order the linearized VJP of `_per_call`
    computes it: the cotangent ``+0`` at empty bags, divided by each maximum's number of
    ties (the padding counted where a bag's maximum is ``-inf``, as ``reduce_max``'s rule),
    placed at the ties, zero at the padding, and summed into the rows in position order
    (the transposed selection map).  No VJP is traced per call; ``create_graph``
    differentiates the transpose (linear in the cotangent) per call."""
    wb = buf(weight)
    bags, width = rows.shape
    with np.errstate(all="ignore"):  # IEEE special values silently, as the programs
        block = np.where(member[:, :, None], wb[rows], -np.inf).astype(wb.dtype, copy=False)
        top = np.maximum.reduce(block, axis=1)
        empty = ~member.any(axis=1)
        out = np.where(empty[:, None], wb.dtype.type(0), top)
    res = wrap(out)

    flat_rows = rows.reshape(-1)
    ties = block == top[:, None, :]  # (a padding cell ties where a bag's maximum is -inf)
    counts = np.add.reduce(ties, axis=1)
    inside = member[:, :, None]

    def host_transpose(ct):
        with np.errstate(all="ignore"):
            share = np.where(empty[:, None], ct.dtype.type(0), ct) / counts.astype(ct.dtype)
            # (a product with the ties, as `reduce_max`'s rule: an infinite share gives NaN
            # at a member that is not the maximum, as the per-call path)
            g = np.where(inside, share[:, None, :] * ties.astype(ct.dtype), ct.dtype.type(0))
            # each row's terms summed from +0 in position order: the transposed map's sums
            gw = np.zeros(wb.shape, ct.dtype)
            np.add.at(gw, flat_rows, g.reshape(bags * width, -1))
            return gw

    def fn_t(c):  # the same on Tensors (create_graph), linear in the cotangent
        share = fnp.where(empty[:, None], fnp.zeros_like(c), c) / counts.astype(c.dtype)
        g = fnp.where(inside, fnp.reshape(share, (bags, 1, -1)) * ties.astype(c.dtype),
                      fnp.zeros_like(c)[:, None, :])
        return resample(fnp.reshape(g, (bags * width, -1)), picks.transposed(), 0)

    def tensor_transpose(ct: Tensor) -> Tensor:
        return _per_call(fn_t, (ct,))

    _graph.record_linear("EmbeddingBagBackward0", weight, res, host_transpose, tensor_transpose)
    return res
