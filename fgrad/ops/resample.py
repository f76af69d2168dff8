"""``resample``: a fixed sparse linear map along one axis, the primitive under image resizing
(``F.interpolate``, ``fgrad.image.resize``) and bag reductions (``F.embedding_bag``).

An `AxisMap` holds, for each of ``out_size`` output positions ``j``, a few taps: input
positions ``index[j, t]`` and weights ``weight[j, t]``; the op computes

    out[..., j, ...] = sum_t weight[j, t] * x[..., index[j, t], ...]

along ``axis`` (a gather and a weighted sum over the taps: 1 tap for nearest-neighbour
resizing, 2 for linear, 4 for cubic, a window for area or antialiased kernels, a bag's
members for ``embedding_bag``).  Separable N-d resizing applies it once per axis.  A row
with fewer taps than the widest is padded with index -1 (weight 0): a padding tap is not in
the sum at all, so an infinite or NaN input it would point at does not reach the output as
``0 * inf`` (a tap of weight 0 that is given a real index is multiplied, as PyTorch's linear
kernels multiply theirs).  The transposed map of a padded map is padded the same way.

The op is linear in ``x``, and its transpose is the same op over the *transposed* map: for
each input position ``k`` the list of ``(j, weight)`` pairs that read it, built once per map
on the host (`AxisMap.transposed`, cached).  The backward pass is therefore a gather and a
weighted sum too -- no scatter-add, no ``add.at``, deterministic on every device -- and the
transpose of the transpose is the original op, so derivatives of every order stay in this
one primitive.  ``vmap`` shifts ``axis`` past the mapped axis.

Example::

    >>> import numpy as np
    >>> import fgrad.numpy as fnp
    >>> linear_2_to_3 = AxisMap(np.array([[0, 0], [0, 1], [1, 1]]),
    ...                         np.array([[1.0, 0.0], [0.5, 0.5], [1.0, 0.0]]), 2)
    >>> resample(fnp.array([0.0, 2.0]), linear_2_to_3, 0)
    Array([0., 1., 2.], dtype=float64)
"""

from __future__ import annotations

import math

import numpy as np

from ..core.array import ShapedArray, get_aval
from ..core.primitive import Primitive
from ..core.rules import defbatch, deflinear
from ._scipy import scipy_module

__all__ = ["AxisMap", "resample", "resample_p"]


class AxisMap:
    """A sparse linear map from ``in_size`` positions to ``index.shape[0]`` positions:
    output ``j`` is ``sum_t weight[j, t] * x[index[j, t]]``.  Hashable by value (it is a
    primitive parameter: the cache keys of jit and of the shim's backward programs).

    Example::

        >>> import numpy as np
        >>> m = AxisMap(np.array([[0], [0], [1]]), np.ones((3, 1)), 2)
        >>> m.transposed().index.tolist(), m.transposed().weight.tolist()
        ([[0, 1], [2, 0]], [[1.0, 1.0], [1.0, 0.0]])
    """

    __slots__ = ("index", "weight", "in_size", "_hash", "_transposed", "is_selection", "_on_device",
                 "_segments", "present")

    def __init__(self, index, weight, in_size: int) -> None:
        index = np.ascontiguousarray(index, dtype=np.int64)
        weight = np.ascontiguousarray(weight, dtype=np.float64)
        if index.ndim != 2 or index.shape != weight.shape:
            raise ValueError(
                f"AxisMap: index and weight must be 2-d arrays of one shape (outputs, taps), "
                f"got {index.shape} and {weight.shape}"
            )
        if index.size and (index.min() < -1 or index.max() >= max(in_size, 1)):
            raise IndexError(f"AxisMap: an index lies outside [0, {in_size}) (or is not -1, a padding tap)")
        # padding taps (-1): read position 0 and are masked out of the sum (`present`)
        self.present = None
        if index.size and index.min() < 0:
            self.present = index >= 0
            self.present.flags.writeable = False
            weight = np.where(self.present, weight, 0.0)
            index = np.maximum(index, 0)
        index.flags.writeable = False
        weight.flags.writeable = False
        self.index, self.weight, self.in_size = index, weight, int(in_size)
        # Python's own hash of the bytes (SipHash in C, ~4x faster than a blake2b digest of them;
        # a map is made per batch by `embedding_bag`): equal maps hash alike, `__eq__` decides
        pad = b"" if self.present is None else self.present.tobytes()
        self._hash = hash((index.shape, self.in_size, index.tobytes(), weight.tobytes(), pad))
        self._transposed = None
        self._on_device: dict = {}
        self._segments = None  # {"coo": (rows, cols, weights), dtype: CSR matrix} (`transposed`)
        self.is_selection = index.shape[1] == 1 and bool(np.all(weight == 1.0))

    @property
    def out_size(self) -> int:
        return self.index.shape[0]

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        if other is self:
            return True
        return (
            isinstance(other, AxisMap)
            and self._hash == other._hash
            and self.in_size == other.in_size
            and np.array_equal(self.index, other.index)
            and np.array_equal(self.weight, other.weight)
            and np.array_equal(self.present, other.present)
        )

    def __repr__(self) -> str:
        return f"AxisMap({self.in_size} -> {self.out_size}, taps={self.index.shape[1]})"

    def transposed(self) -> "AxisMap":
        """The map ``k -> [(j, weight[j, t]) for every tap with index[j, t] == k]`` (zero
        weights dropped; rows padded with weight 0, or with padding taps when this map has
        them)."""
        if self._transposed is None:
            out, taps = self.index.shape
            j = np.repeat(np.arange(out, dtype=np.int64), taps)
            k, w = self.index.ravel(), self.weight.ravel()
            keep = w != 0
            j, k, w = j[keep], k[keep], w[keep]
            order = np.argsort(k, kind="stable")
            j, k, w = j[order], k[order], w[order]
            counts = np.bincount(k, minlength=self.in_size)
            width = max(int(counts.max(initial=0)), 1)
            starts = np.cumsum(counts) - counts
            slot = np.arange(k.size) - np.repeat(starts, counts)
            index_t = np.full((self.in_size, width), 0 if self.present is None else -1, np.int64)
            weight_t = np.zeros((self.in_size, width))
            index_t[k, slot] = j
            weight_t[k, slot] = w
            t = AxisMap(index_t, weight_t, out)
            if index_t.size > 2 * k.size:
                # mostly padding (an embedding's popular rows read by many bags): on the host
                # it runs as a sparse-matrix product (`_segmented`), work ~ taps
                t._segments = {"coo": (k, j, w)}
            t._transposed = self
            self._transposed = t
        return self._transposed

    def buffers(self, xp):
        """The index and weight arrays on ``xp``'s device (uploaded once per backend), and the
        padding mask (None when there is no padding tap)."""
        got = self._on_device.get(xp)
        if got is None:
            got = (self.index, self.weight, self.present)
            if xp is not np:
                got = tuple(None if a is None else xp.asarray(a) for a in got)
            self._on_device[xp] = got
        return got


def _check(shape: tuple, dtype, table: AxisMap, axis: int) -> None:
    if not 0 <= axis < len(shape):
        raise ValueError(f"resample: axis {axis} is out of range for an operand of shape {shape}")
    if shape[axis] != table.in_size:
        raise ValueError(
            f"resample: the map reads {table.in_size} positions but axis {axis} of the operand "
            f"(shape {shape}) has {shape[axis]}"
        )
    if not table.is_selection and np.dtype(dtype).kind not in "fc":
        raise TypeError(f"resample: a weighted map needs a floating input, got {dtype}")


def _impl(xp, x, *, table: AxisMap, axis: int):
    _check(x.shape, x.dtype, table, axis)
    if table._segments is not None and xp is np:
        out = _segmented(x, table, axis)
        if out is not None:
            return out
    index, weight, present = table.buffers(xp)
    if table.is_selection:
        return xp.take(x, index[:, 0], axis=axis)
    out, taps = index.shape
    tail = (1,) * (x.ndim - axis - 1)
    if taps <= 8:  # few taps (linear, cubic resizing): one gather per tap, summed in tap order --
        # the same additions as the reduction below, without NumPy's slow small-axis reduce
        w = weight.astype(x.dtype, copy=False)

        def term(t):
            v = xp.take(x, index[:, t], axis=axis) * w[:, t].reshape((out,) + tail)
            return v if present is None else xp.where(present[:, t].reshape((out,) + tail), v, 0)

        acc = term(0)
        for t in range(1, taps):
            acc += term(t)
        return acc
    gathered = xp.take(x, index.reshape(-1), axis=axis)
    gathered = gathered.reshape(x.shape[:axis] + (out, taps) + x.shape[axis + 1 :])
    w = weight.astype(x.dtype, copy=False).reshape((out, taps) + tail)
    terms = gathered * w
    if present is not None:
        terms = xp.where(present.reshape((out, taps) + tail), terms, 0)
    return terms.sum(axis=axis + 1)


_SPARSE_DTYPES = frozenset(map(np.dtype, (np.float32, np.float64, np.complex64, np.complex128)))


def _segmented(x, table: AxisMap, axis: int):
    """``_impl`` on the host for a map that is mostly padding, as a sparse-matrix product
    (SciPy's CSR kernel: each output row sums its taps in order, starting from zero; rows no
    tap reaches stay zero), or None when SciPy or ``x``'s dtype does not allow it."""
    sparse = scipy_module("sparse")
    if sparse is None or x.dtype not in _SPARSE_DTYPES:
        return None
    cache = table._segments
    a = cache.get(x.dtype)
    if a is None:
        rows, cols, w = cache["coo"]
        shape = (table.out_size, table.in_size)
        a = cache[x.dtype] = _csr_matrix(sparse, rows, cols, w.astype(x.dtype), shape)
    moved = np.moveaxis(x, axis, 0) if axis else x
    out = np.asarray(a @ moved.reshape(moved.shape[0], math.prod(moved.shape[1:])))  # (empty: no -1)
    out = out.reshape((table.out_size,) + moved.shape[1:])
    return np.moveaxis(out, 0, axis) if axis else out


def _csr_matrix(sparse, rows, cols, w, shape: tuple):
    """SciPy's ``csr_matrix((w, (rows, cols)), shape)`` for entries sorted by row and, within
    a row, by column (`AxisMap.transposed`'s order), built from its arrays directly: the
    COO route's conversion, sort and duplicate merge cost ~10x the product for a bag map.
    Duplicate entries are merged into one (their weights summed) as SciPy merges them --
    exactly, so done here only when every weight is 1 (sums of ones, in any order); other
    maps with duplicates take the COO route."""
    n = rows.size
    if n > 1:
        dup = (rows[1:] == rows[:-1]) & (cols[1:] == cols[:-1])
        if dup.any():
            if not np.all(w == 1):
                return sparse.csr_matrix((w, (rows, cols)), shape=shape)
            first = np.concatenate(([True], ~dup))
            w = np.add.reduceat(w, np.flatnonzero(first))
            rows, cols = rows[first], cols[first]
    indptr = np.zeros(shape[0] + 1, np.int64)
    np.cumsum(np.bincount(rows, minlength=shape[0]), out=indptr[1:])
    return sparse.csr_matrix((w, cols, indptr), shape=shape)


def _abstract(x, *, table: AxisMap, axis: int):
    _check(x.shape, x.dtype, table, axis)
    shape = x.shape[:axis] + (table.out_size,) + x.shape[axis + 1 :]
    return ShapedArray(shape, x.dtype, getattr(x, "weak_type", False))


resample_p = Primitive("resample", _impl, _abstract, family="structural")


def _transpose(ct, x, *, table: AxisMap, axis: int):
    return [resample_p.bind(ct, table=table.transposed(), axis=axis)]


deflinear(resample_p, _transpose)


def _batch(axis_size, vals, dims, *, table: AxisMap, axis: int):
    (x,), (d,) = vals, dims
    return resample_p.bind(x, table=table, axis=axis + 1 if d <= axis else axis), d


defbatch(resample_p, _batch)


def resample(x, table: AxisMap, axis: int):
    """Apply the sparse linear map ``table`` along ``axis`` of ``x`` (see the module
    docstring).

    Example::

        >>> import numpy as np
        >>> import fgrad.numpy as fnp
        >>> nearest_2x = AxisMap(np.array([[0], [0], [1], [1]]), np.ones((4, 1)), 2)
        >>> resample(fnp.array([[1.0, 2.0]]), nearest_2x, 1)
        Array([[1., 1., 2., 2.]], dtype=float64)
    """
    ndim = len(get_aval(x).shape)
    if not -ndim <= axis < ndim:
        raise ValueError(f"resample: axis {axis} is out of range for a {ndim}-d operand")
    return resample_p.bind(x, table=table, axis=axis % ndim)
