"""Views, indexing, joining and gathering.

A view op makes a NumPy view of the input's buffer (so memory is shared exactly as in
PyTorch), remembers its autograd base and the fgrad function that maps the base's value to
the view's (``_vfn``: a chain of ``(function, params)``), and records a node whose fgrad
definition is that function (a reshape, transpose, broadcast or static ``gather``).
"""

from __future__ import annotations

import builtins
import math

import numpy as np
from ..core.narrow_floats import dtype_kind as _dtype_kind, sortable as _sortable

from ..ops import elementwise as ew
from ..ops import indexing as I
from ..ops import shape as S
from ..ops import structural as ST
import fgrad.torch._device as _dev
import fgrad.torch._deprecations as _deprecations
import fgrad.numpy as fnp
import fgrad.torch._dtypes as D
from ._device import DEV as _DEV
from ._dispatch import (
    bump_version,
    check_no_internal_overlap,
    check_no_alias,
    run_functional,
    apply_inplace,
    write_in_place,
    is_functional,
    result_tensor,
    apply_op,
    write_out,
    tracks_grad,
    standin,
)
import fgrad.torch._errors as _errors
from ._promotion import can_cast, scalar_type_name, result_dtype
from ._storage import check_view
from ._tensor import Size, Tensor, _wrap, wrap_dim as _wrap_dim
from .autograd import graph as G
from .autograd.grad_mode import STATE
from ._refused_derivatives import (
    needs_refusal as _needs_refusal,
    refused_inplace as _refused_inplace,
    refused_op as _refused_op,
)
from ._ops import contiguous_format
from ..core.array import Tracer
from ._dispatch import fresh_buffer, run_forward
from ._ops import copy_
from ._ops_creation import check_fill_value, scalar_tensor
from ._dispatch import fgrad_value, functional_write, no_grad_value
from . import _profile_state
from ._ops import clone
from ._ops_creation import tensor
from ._ops import where
from ._conventions import overwrite as _overwrite
from ._ops_creation import zeros
from ._autocast_state import fp32 as _autocast_fp32, promote as _autocast_promote
from collections.abc import Sequence
from fgrad.torch.types import Dims, IntOrInts, Number, SizeLike, TensorOrScalar, TensorOrTensors
from typing import Any

_nd = np.ndarray
_i64 = np.dtype(np.int64)


def _as_strided(x, shape, strides, writeable=True):
    return _dev.as_strided(x, shape, strides, writeable=writeable)


def _traced(b) -> bool:
    """True for a tracer / fgrad value (functional mode), False for a host or device buffer."""
    return type(b) is not _nd and type(b) not in _DEV


def _wr(x) -> bool:
    return x.flags.writeable if type(x) is _nd else _dev.writeable(x)


def _reshape_view(b, shape):
    """``b`` viewed with ``shape`` (ValueError if that needs a copy), on ``b``'s device."""
    if type(b) is _nd:
        return b.reshape(shape, copy=False)
    if b.flags.c_contiguous:
        return b.reshape(shape)
    strides = _nocopy_strides(b.shape, b.strides, shape)
    if strides is None:
        raise ValueError("reshape needs a copy")
    return _dev.as_strided(b, shape, strides)


def _nocopy_strides(old_shape, old_strides, new_shape):
    """Strides (bytes) viewing a (C-order) array of ``old_shape``/``old_strides`` with
    ``new_shape`` without a copy, or None (NumPy's attempt_nocopy_reshape)."""
    olds = [(n, st) for n, st in zip(old_shape, old_strides, strict=False) if n != 1]
    news = list(new_shape)
    if 0 in news or 0 in old_shape:
        return tuple(0 for _ in news)
    out = [0] * len(news)
    oi = ni = 0
    on, nn = len(olds), len(news)
    while oi < on and ni < nn:
        np_, op = news[ni], olds[oi][0]
        oj, nj = oi + 1, ni + 1
        while np_ != op:
            if np_ < op:
                np_ *= news[nj]
                nj += 1
            else:
                op *= olds[oj][0]
                oj += 1
        for k in range(oi, oj - 1):
            if olds[k][1] != olds[k + 1][0] * olds[k + 1][1]:
                return None
        out[nj - 1] = olds[oj - 1][1]
        for k in range(nj - 1, ni, -1):
            out[k - 1] = out[k] * news[k]
        oi, ni = oj, nj
    last = olds[-1][1] if olds else 1
    for k in range(ni, nn):
        out[k] = last
    # size-1 new dims: any stride works; give them the next one's for tidiness
    for k in range(nn):
        if news[k] == 1 and k + 1 < nn:
            out[k] = out[k + 1] * news[k + 1]
    return tuple(out)


# ---------------------------------------------------------------------------------------
# view functions (fgrad definitions of views; params are hashable)


def _v_reshape(x, shape):
    return S.reshape(x, shape)


def _v_transpose(x, perm):
    return S.transpose(x, perm)


def _v_expand(x, shape):
    return S.broadcast_to(x, shape)


def _v_gather(x, indexer):
    return I.gather(x, [], indexer, "clip")


def _v_diagonal(x, offset, d1, d2):
    return fnp.diagonal(x, offset, d1, d2)


def _v_strided(x, size, stride, rel_offset):
    """The as_strided view of ``x`` (contiguous, starting at storage offset ``-rel_offset``
    relative to the view) as a gather, for autograd and functional replay."""
    idx = np.full(size, rel_offset, np.int64)
    for ax, k in enumerate(stride):
        shp = [1] * len(size)
        shp[ax] = size[ax]
        idx = idx + np.arange(size[ax], dtype=np.int64).reshape(shp) * k
    return fnp.take(S.reshape(x, (-1,)), idx, mode="clip")


def _v_unfold(x, dim, size, step):
    n = x.shape[dim]
    count = (n - size) // step + 1
    idx = (np.arange(count)[:, None] * step + np.arange(size)[None, :]).astype(np.int64)
    y = fnp.take(x, idx.reshape(-1), axis=dim, mode="clip")
    shp = list(x.shape)
    shp[dim : dim + 1] = [count, size]
    y = S.reshape(y, tuple(shp))
    return fnp.moveaxis(y, dim + 1, -1)


def _v_real(x):
    return ew.real(x)


def _v_imag(x):
    return ew.imag(x)


def _make_view(src: Tensor, buf, gname: str, vf, params, out_index=None, record: bool = True):
    """A view of ``src`` over ``buf`` whose value is ``vf(src_value, *params)`` (``record``:
    its own grad_fn when grad mode is on; off for the views one node records together)."""
    t = object.__new__(Tensor)
    t._buf = buf
    t._gfn = None
    t._rg = False
    vc = src._get_vc()
    t._vc = vc
    if src._inf:
        t._inf = True  # a view of an inference tensor is one (of a normal tensor, normal)
    if src._conj_of is not None:
        t._conj_of = src._conj_of  # a view of a conjugate view has the conjugate bit too
    base = src._base
    if base is None:
        base = src
        t._vfn = ((vf, params),)
    else:
        t._vfn = src._vfn + ((vf, params),)
    t._base = base
    t._vver = vc.v
    if src._rg or src._gfn is not None:
        if not STATE.enabled:  # PyTorch: the view still requires grad, as a dead end of the graph
            t._rg = True
            t._nograd_view = True
        elif record:

            def fn(x):
                return vf(x, *params)

            G.record(gname, (vf.__name__, params), fn, (src,), (t,))
    return t


def _fview(src: Tensor, out: Tensor, vf, params) -> Tensor:
    """Mark ``out`` (computed from traced ``src`` in functional mode) as the view
    ``vf(src, *params)``: an in-place write to it updates its base, and it re-reads the base
    after the base is written (`fgrad.torch._dispatch.functional_write`), as PyTorch's
    functionalization does under torch.func."""
    base = src._fbase
    if base is None:
        out._fbase, out._fvfn = src, ((vf, params),)
    else:
        out._fbase, out._fvfn = base, src._fvfn + ((vf, params),)
    out._fver = out._fbase._fver
    return out


def _view_or_functional(src, buf_fn, gname, vf, params):
    b = src._buf
    if _traced(b):
        return _fview(src, run_functional(lambda x: vf(x, *params), (src,)), vf, params)
    return _make_view(src, buf_fn(b), gname, vf, params)


# ---------------------------------------------------------------------------------------
# shapes


def _size_args(shape, name="view"):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, Size)):
        shape = tuple(shape[0])
    try:
        return tuple(int(s) for s in shape)
    except TypeError:
        raise TypeError(
            f"{name}(): argument 'size' must be tuple of ints, but found element of type "
            f"{type(shape[0]).__name__} at pos 0"
        ) from None


def _infer_shape(shape, numel):
    neg = [i for i, s in enumerate(shape) if s == -1]
    if len(neg) > 1:
        raise RuntimeError("only one dimension can be inferred")
    for s in shape:
        if s < -1:
            raise RuntimeError(f"invalid shape dimension {s}")
    if neg:
        known = math.prod(s for s in shape if s != -1)
        if known == 0 or numel % known:
            if known == 0 and numel == 0:
                raise RuntimeError(
                    f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                    "unspecified dimension size -1 can be any value and is ambiguous"
                )
            raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
        shape = tuple(numel // known if s == -1 else s for s in shape)
    elif math.prod(shape) != numel:
        raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")
    return shape


def view(self: Tensor, *shape: int | Sequence[int] | D.dtype) -> Tensor:
    if len(shape) == 1 and isinstance(shape[0], D.dtype):
        return _view_dtype(self, shape[0])
    shape = _infer_shape(_size_args(shape), math.prod(self._buf.shape))
    b = self._buf
    if _traced(b):
        return _fview(self, run_functional(lambda x: S.reshape(x, shape), (self,)), _v_reshape, (shape,))
    try:
        nb = _reshape_view(b, shape)
    except ValueError:
        raise RuntimeError(
            "view size is not compatible with input tensor's size and stride (at least one "
            "dimension spans across two contiguous subspaces). Use .reshape(...) instead."
        ) from None
    return _make_view(self, nb, "ViewBackward0", _v_reshape, (shape,))


def _view_dtype(self, dt):
    dt = D.canonical(dt)
    b = self._buf
    if dt.itemsize != b.itemsize and (b.ndim == 0 or b.strides[-1] != b.itemsize):
        raise RuntimeError("self.stride(-1) must be 1 to view with a different element size")
    t = _wrap(b.view(dt.np))
    t._vc = self._get_vc()
    t._stsrc = self._base if self._base is not None else self
    return t


def _v_alias(x):
    return x


def alias_view(self: Tensor) -> Tensor:
    """A view of all of ``self`` (PyTorch's ``aten::alias``, grad_fn ``AliasBackward0``): what
    ``as_subclass`` returns, with the subclass."""
    if _traced(self._buf):
        return _fview(self, run_functional(_v_alias, (self,)), _v_alias, ())
    return _make_view(self, self._buf, "AliasBackward0", _v_alias, ())


def view_as(self: Tensor, other: Tensor) -> Tensor:
    return view(self, other._buf.shape)


def reshape(input: Tensor, *shape: int | Sequence[int]) -> Tensor:
    shape = _infer_shape(_size_args(shape, "reshape"), math.prod(input._buf.shape))
    b = input._buf
    if _traced(b):
        return _fview(input, run_functional(lambda x: S.reshape(x, shape), (input,)), _v_reshape, (shape,))
    try:
        nb = _reshape_view(b, shape)
    except ValueError:

        c = clone(input, memory_format=_contig())
        return apply_op(
            "UnsafeViewBackward0",
            ("reshape", shape),
            lambda x: S.reshape(x, shape),
            (c,),
        )
    return _make_view(input, nb, "ViewBackward0", _v_reshape, (shape,))


def _contig():

    return contiguous_format


def reshape_as(self: Tensor, other: Tensor) -> Tensor:
    return reshape(self, other._buf.shape)


def flatten(input: Tensor, start_dim: int = 0, end_dim: int = -1) -> Tensor:
    b = input._buf
    nd = b.ndim
    if nd == 0:
        return reshape(input, (1,))
    s = _wrap_dim(start_dim, nd)
    e = _wrap_dim(end_dim, nd)
    if s > e:
        raise RuntimeError("flatten() has invalid args: start_dim cannot come after end_dim")
    if s == e:
        return input
    shp = b.shape[:s] + (math.prod(b.shape[s : e + 1]),) + b.shape[e + 1 :]
    return reshape(input, shp)


def unflatten(self: Tensor, dim: int, sizes: SizeLike) -> Tensor:
    b = self._buf
    d = _wrap_dim(dim, b.ndim)
    sizes = tuple(sizes)
    n = b.shape[d]
    if -1 in sizes:
        known = math.prod(s for s in sizes if s != -1)
        sizes = tuple(n // known if s == -1 else s for s in sizes)
    if math.prod(sizes) != n:
        raise RuntimeError(
            f"unflatten: Provided sizes {list(sizes)} don't multiply up to the size of dim {dim} "
            f"({n}) in the input tensor"
        )
    return view(self, b.shape[:d] + sizes + b.shape[d + 1 :])


def unsqueeze(input: Tensor, dim: int) -> Tensor:
    b = input._buf
    d = _wrap_dim(dim, b.ndim + 1)
    shp = b.shape[:d] + (1,) + b.shape[d:]
    return _view_or_functional(input, lambda x: x.reshape(shp), "UnsqueezeBackward0", _v_reshape, (shp,))


def squeeze(input: Tensor, dim: Dims = None) -> Tensor:
    b = input._buf
    nd = b.ndim
    if dim is None:
        shp = tuple(s for s in b.shape if s != 1)
        name = "SqueezeBackward0"
    else:
        dims = (
            tuple(_wrap_dim(d, nd) for d in dim) if isinstance(dim, (tuple, list)) else (_wrap_dim(dim, nd),)
        )
        shp = tuple(s for i, s in enumerate(b.shape) if not (i in dims and s == 1))
        name = "SqueezeBackward2" if isinstance(dim, (tuple, list)) else "SqueezeBackward1"
    return _view_or_functional(input, lambda x: x.reshape(shp), name, _v_reshape, (shp,))


def expand(self: Tensor, *sizes: int | Sequence[int]) -> Tensor:
    sizes = _size_args(sizes, "expand")
    b = self._buf
    nd = b.ndim
    if len(sizes) < nd:
        raise RuntimeError(
            f"expand(torch.{D.from_np(b.dtype)._legacy}Tensor{{{list(b.shape)}}}, size={list(sizes)}): "
            "the number of sizes provided (" + str(len(sizes)) + ") must be greater or equal to "
            f"the number of dimensions in the tensor ({nd})"
        )
    lead = len(sizes) - nd
    shp = []
    strides = []
    item = b.itemsize
    for i, s in enumerate(sizes):
        if i < lead:
            if s == -1:
                raise RuntimeError(
                    f"The expanded size of the tensor (-1) isn't allowed in a leading, non-existing "
                    f"dimension {i}"
                )
            shp.append(s)
            strides.append(0)
            continue
        cur = b.shape[i - lead]
        if s == -1 or s == cur:
            shp.append(cur)
            strides.append(b.strides[i - lead] if not _traced(b) else 0)
        elif cur == 1:
            shp.append(s)
            strides.append(0)
        else:
            raise RuntimeError(
                f"The expanded size of the tensor ({s}) must match the existing size ({cur}) at "
                f"non-singleton dimension {i}.  Target sizes: {list(sizes)}.  Tensor sizes: "
                f"{list(b.shape)}"
            )
    shp = tuple(shp)
    del item
    return _view_or_functional(
        self,
        lambda x: _as_strided(x, shp, tuple(strides), writeable=_wr(x)),
        "ExpandBackward0",
        _v_expand,
        (shp,),
    )


def expand_as(self: Tensor, other: Tensor) -> Tensor:
    return expand(self, other._buf.shape)


def broadcast_to(input: Tensor, size: SizeLike) -> Tensor:
    return expand(input, tuple(size))


def broadcast_tensors(*tensors: Tensor) -> tuple[Tensor, ...]:
    if len(tensors) == 1 and isinstance(tensors[0], (list, tuple)):
        tensors = tensors[0]
    msg = _errors._broadcast_mismatch([t._buf.shape for t in tensors])
    if msg:
        raise RuntimeError(msg)  # PyTorch's error, not NumPy's ValueError
    shp = np.broadcast_shapes(*[t._buf.shape for t in tensors])
    return tuple(expand(t, shp) for t in tensors)


def broadcast_shapes(*shapes: int | Sequence[int]) -> Size:
    shapes = [tuple(s) if not isinstance(s, int) else (s,) for s in shapes]
    current: tuple = ()
    for i, s in enumerate(shapes):  # PyTorch's RuntimeError naming the first shape that does not fit
        for k in range(1, min(len(s), len(current)) + 1):
            if s[-k] != current[-k] and 1 not in (s[-k], current[-k]):
                raise RuntimeError(
                    f"Attempting to broadcast a dimension of length {s[-k]} at {-k}! Mismatching argument at "
                    f"index {i} had {s}; but expected shape should be broadcastable to {list(current)}")
        current = np.broadcast_shapes(current, s)
    return Size(current)


def permute(input: Tensor, *dims: int | Sequence[int]) -> Tensor:
    if not dims:  # (a 0-d tensor's ordering is ``()``, given explicitly)
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = _size_args(dims, "permute")
    b = input._buf
    nd = b.ndim
    if len(dims) != nd:
        raise RuntimeError(
            f"permute(sparse_coo): number of dimensions in the tensor input does not match the "
            f"length of the desired ordering of dimensions i.e. input.dim() = {nd} is not equal to "
            f"len(dims) = {len(dims)}"
        )
    perm = tuple(_wrap_dim(d, nd) for d in dims)
    if len(set(perm)) != nd:
        raise RuntimeError("permute(): duplicate dims are not allowed.")
    return _view_or_functional(input, lambda x: x.transpose(perm), "PermuteBackward0", _v_transpose, (perm,))


def transpose(input: Tensor, dim0: int, dim1: int) -> Tensor:
    b = input._buf
    nd = b.ndim
    d0, d1 = _wrap_dim(dim0, nd), _wrap_dim(dim1, nd)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    if nd == 0:
        return _view_or_functional(input, lambda x: x.view(), "TransposeBackward0", _v_reshape, ((),))
    perm = list(range(nd))
    perm[d0], perm[d1] = perm[d1], perm[d0]
    perm = tuple(perm)
    return _view_or_functional(
        input, lambda x: x.transpose(perm), "TransposeBackward0", _v_transpose, (perm,)
    )


swapaxes = swapdims = transpose


def t(input: Tensor) -> Tensor:
    b = input._buf
    nd = b.ndim
    if nd > 2:
        raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {nd}D")
    perm = tuple(range(nd))[::-1]
    return _view_or_functional(input, lambda x: x.transpose(perm), "TBackward0", _v_transpose, (perm,))


def _T(self) -> Any:
    nd = self._buf.ndim
    if nd != 2:
        import warnings

        if nd > 2:
            warnings.warn(
                "The use of `x.T` on tensors of dimension other than 2 to reverse their shape is "
                "deprecated and it will throw an error in a future release.",
                UserWarning,
                stacklevel=2,
            )
    return permute(self, tuple(range(nd))[::-1])


def _mT(self) -> Any:
    if self._buf.ndim < 2:
        raise RuntimeError("tensor.mT is only supported on matrices or batches of matrices. Got 1-D tensor.")
    return transpose(self, -2, -1)


def movedim(input: Tensor, source: IntOrInts, destination: IntOrInts) -> Tensor:
    b = input._buf
    nd = b.ndim
    src = [source] if isinstance(source, int) else list(source)
    dst = [destination] if isinstance(destination, int) else list(destination)
    src = [_wrap_dim(s, nd) for s in src]
    dst = [_wrap_dim(d, nd) for d in dst]
    if nd == 0:  # PyTorch: dim 0/-1 of a 0-d tensor, nothing to move
        return permute(input, [])
    order = [n for n in range(nd) if n not in src]
    for d, s in sorted(zip(dst, src, strict=False)):
        order.insert(d, s)
    return permute(input, order)


moveaxis = movedim


def narrow(input: Tensor, dim: int, start: int | Tensor, length: int) -> Tensor:
    b = input._buf
    if b.ndim == 0:
        raise RuntimeError("narrow() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, b.ndim)
    start = int(start)
    n = b.shape[d]
    if start < 0:
        start += n
    if not 0 <= start <= n or length < 0 or start + length > n:
        raise RuntimeError(f"start ({start}) + length ({length}) exceeds dimension size ({n}).")
    return _index_view(input, (slice(None),) * d + (slice(start, start + length),), "SliceBackward0")


def select(input: Tensor, dim: int, index: int) -> Tensor:
    b = input._buf
    if b.ndim == 0:
        raise IndexError("select() cannot be applied to a 0-dim tensor.")
    d = _wrap_dim(dim, b.ndim)
    n = b.shape[d]
    i = int(index)
    if not -n <= i < n:
        raise IndexError(
            f"select(): index {i} out of range for tensor of size {list(b.shape)} at dimension {d}"
        )
    return _index_view(input, (slice(None),) * d + (i % n,), "SelectBackward0")


def _basic(b, idx):
    """``b[idx]`` for a basic index, always a view (never a NumPy scalar)."""
    for i in idx:
        if i is Ellipsis:
            return b[idx]
    return b[idx + (Ellipsis,)]


def _index_view(input, idx, gname):
    b = input._buf
    indexer, arrays = I.parse_index(b.shape, idx, "indexing")
    if _traced(b):
        return _fview(input, run_functional(lambda x: I.gather(x, [], indexer, "clip"), (input,)),
                      _v_gather, (indexer,))
    return _make_view(input, _basic(b, idx), gname, _v_gather, (indexer,))


def unbind(input: Tensor, dim: int = 0) -> tuple[Tensor, ...]:
    b = input._buf
    if b.ndim == 0:
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    d = _wrap_dim(dim, b.ndim)
    n = b.shape[d]
    return _multi_view(input, [(slice(None),) * d + (i,) for i in range(n)], "UnbindBackward0",
                       [(i, i + 1) for i in range(n)], d, squeeze=True)


def _pieces_fn(bounds, d: int, n: int, squeeze: bool):
    """The fgrad definition of views that tile axis ``d`` (length ``n``) with the contiguous
    ranges ``bounds``, as one ``split`` (whose transpose is one ``concatenate``: the backward
    writes each piece's cotangent once, instead of one full-size zero-padded gradient per
    piece), or None when the ranges do not tile the axis in order."""
    lo = 0
    for a, b in bounds:
        if a != lo or b < a:
            return None
        lo = b
    if lo != n:
        return None
    sizes = [b - a for a, b in bounds]

    def fn(x):
        parts = ST.split(x, sizes, d)
        if squeeze:
            return tuple(S.reshape(p, p.shape[:d] + p.shape[d + 1:]) for p in parts)
        return tuple(parts)

    return fn


def _multi_view(input, idxs, gname, bounds=None, d: int = 0, squeeze: bool = False):
    """Several views recorded by one node (unbind / split / chunk); ``bounds``: the views'
    ranges along axis ``d`` when they are contiguous pieces of it (``squeeze``: the axis
    dropped, as ``unbind``)."""
    b = input._buf
    parsed = [I.parse_index(b.shape, idx, "indexing")[0] for idx in idxs]
    if _traced(b):  # one split (its transpose one concatenate), as the recorded node
        fn = None if bounds is None else _pieces_fn(bounds, d, b.shape[d], squeeze)
        if fn is not None:
            outs = run_functional(fn, (input,), multi=True)
        else:
            outs = [run_functional(lambda x, ix=ix: I.gather(x, [], ix, "clip"), (input,)) for ix in parsed]
        return tuple(_fview(input, o, _v_gather, (ix,)) for o, ix in zip(outs, parsed, strict=True))
    outs = []
    need = STATE.enabled and (input._rg or input._gfn is not None)
    for idx, ix in zip(idxs, parsed, strict=False):
        outs.append(_make_view(input, _basic(b, idx), gname, _v_gather, (ix,), record=False))
    if need and outs:
        fn = None if bounds is None else _pieces_fn(bounds, d, b.shape[d], squeeze)
        if fn is not None:
            key = ("pieces", tuple(bounds), d, squeeze)
        else:
            key = ("multi_view", tuple(parsed))

            def fn(x):
                return tuple(I.gather(x, [], ix, "clip") for ix in parsed)

        G.record(gname, key, fn, (input,), outs, multi=True)
        for v in outs:
            v._vver = v._vc.v
    return tuple(outs)


def split(tensor: Tensor, split_size_or_sections: IntOrInts, dim: int = 0) -> tuple[Tensor, ...]:
    b = tensor._buf
    if b.ndim == 0:
        raise RuntimeError("split expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, b.ndim)
    n = b.shape[d]
    if isinstance(split_size_or_sections, int):
        s = split_size_or_sections
        if s <= 0 and n:
            raise RuntimeError(
                f"split_size can only be 0 if dimension size is 0, but got dimension size of {n}"
            )
        bounds = list(range(0, n, s)) if s and n else [0]  # an empty dim: one empty piece (PyTorch)
        sizes = [(a, builtins.min(a + s, n)) for a in bounds]
        name = "SplitBackward0"
    else:
        sizes = []
        a = 0
        secs = [int(x) for x in split_size_or_sections]
        if builtins.sum(secs) != n:
            raise RuntimeError(
                f"split_with_sizes expects split_sizes to sum exactly to {n} (input tensor's size at "
                f"dimension {d}), but got split_sizes={secs}"
            )
        for s in secs:
            sizes.append((a, a + s))
            a += s
        name = "SplitWithSizesBackward0"
    idxs = [(slice(None),) * d + (slice(lo, hi),) for lo, hi in sizes]
    return _multi_view(tensor, idxs, name, sizes, d)


def chunk(input: Tensor, chunks: int, dim: int = 0) -> tuple[Tensor, ...]:
    b = input._buf
    if not b.ndim:
        raise RuntimeError("chunk expects at least a 1-dimensional tensor")
    d = _wrap_dim(dim, b.ndim)
    n = b.shape[d]
    if chunks <= 0:
        raise RuntimeError("chunk expects `chunks` to be greater than 0, got: " + str(chunks))
    if n == 0:  # PyTorch: `chunks` empty pieces
        return split(input, [0] * chunks, d)
    return split(input, -(-n // chunks), d)


def tensor_split(input: Tensor, indices_or_sections: Tensor | int | Sequence[int],
                 dim: int = 0) -> tuple[Tensor, ...]:
    b = input._buf
    d = _wrap_dim(dim, b.ndim)
    n = b.shape[d]
    if isinstance(indices_or_sections, int):
        k = indices_or_sections
        q, r = divmod(n, k)
        bounds = [0]
        for i in range(k):
            bounds.append(bounds[-1] + q + (1 if i < r else 0))
    else:
        bounds = [0] + [builtins.min(int(i), n) for i in indices_or_sections] + [n]
    idxs = [
        (slice(None),) * d + (slice(lo, builtins.max(lo, hi)),)
        for lo, hi in zip(bounds[:-1], bounds[1:], strict=False)
    ]
    return _multi_view(input, idxs, "SplitBackward0")


def diagonal(input: Tensor, offset: int = 0, dim1: int = 0, dim2: int = 1) -> Tensor:
    b = input._buf
    nd = b.ndim
    d1, d2 = _wrap_dim(dim1, nd), _wrap_dim(dim2, nd)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")

    def mk(x):
        n1, n2 = x.shape[d1], x.shape[d2]
        r0, c0 = (0, offset) if offset >= 0 else (-offset, 0)
        length = builtins.max(0, builtins.min(n1 - r0, n2 - c0))
        sl = [slice(None)] * x.ndim
        sl[d1] = slice(builtins.min(r0, n1), None)
        sl[d2] = slice(builtins.min(c0, n2), None)
        start = x[tuple(sl)]
        keep = [k for k in range(x.ndim) if k not in (d1, d2)]
        shape = tuple(x.shape[k] for k in keep) + (length,)
        strides = tuple(x.strides[k] for k in keep) + (x.strides[d1] + x.strides[d2],)
        return _as_strided(start, shape, strides, writeable=_wr(x))

    return _view_or_functional(input, mk, "DiagonalBackward0", _v_diagonal, (offset, d1, d2))


def unfold(self: Tensor, dimension: int, size: int, step: int) -> Tensor:
    b = self._buf
    d = _wrap_dim(dimension, b.ndim) if b.ndim else 0
    n = b.shape[d] if b.ndim else 1
    if size > n:
        raise RuntimeError(f"maximum size for tensor at dimension {d} is {n} but size is {size}")
    count = (n - size) // step + 1

    def mk(x):
        shp = x.shape[:d] + (count,) + x.shape[d + 1 :] + (size,)
        st = x.strides[:d] + (x.strides[d] * step,) + x.strides[d + 1 :] + (x.strides[d],)
        return _as_strided(x, shp, st, writeable=_wr(x))

    return _view_or_functional(self, mk, "UnfoldBackward0", _v_unfold, (d, size, step))


def as_strided(input: Tensor, size: SizeLike, stride: SizeLike, storage_offset: int | None = None) -> Tensor:
    b = input._buf
    size, stride = tuple(int(s) for s in size), tuple(int(s) for s in stride)
    st = input._storage()
    off = input.storage_offset() if storage_offset is None else int(storage_offset)
    flat = st._flat
    check_view(size, stride, off, flat.shape[0], b.itemsize)
    nb = _as_strided(flat[off:], size, tuple(k * b.itemsize for k in stride))
    if not b.flags.c_contiguous:
        raise NotImplementedError("fgrad.torch.as_strided: the input must be contiguous for autograd")
    # the autograd / functional view function gathers lazily: the view itself costs O(1)
    rel = off - input.storage_offset()
    return _make_view(input, nb, "AsStridedBackward0", _v_strided, (size, stride, rel))


def real(input: Tensor) -> Tensor:
    b = input._buf
    if _dtype_kind(b.dtype) != "c":
        return input
    return _view_or_functional(input, lambda x: x.real, "RealBackward0", _v_real, ())


def imag(input: Tensor) -> Tensor:
    b = input._buf
    if _dtype_kind(b.dtype) != "c":
        raise RuntimeError("imag is not implemented for tensors with non-complex dtypes.")
    return _view_or_functional(input, lambda x: x.imag, "ImagBackward0", _v_imag, ())


# -- in-place view ops ------------------------------------------------------------------


def _inplace_view_op(self, new_view: Tensor, gname: str):
    """``self`` takes ``new_view``'s layout (squeeze_, unsqueeze_, t_, transpose_)."""
    self._buf = new_view._buf
    if new_view._gfn is not None:
        node = new_view._gfn
        node._next = tuple(node._next)
        self._gfn = node
        self._oi = 0
        new_view_node_rename(node, gname)
    if new_view._base is not None and self._base is not None:
        self._vfn = new_view._vfn
        self._vver = new_view._vver
    return self


def new_view_node_rename(node, gname):
    if type(node).__name__ != gname:
        node.__class__ = G.node_class(gname, type(node).__mro__[1])


def squeeze_(self: Tensor, dim: Dims = None) -> Tensor:
    return _inplace_view_op(
        self, squeeze(self, dim), "SqueezeBackward3" if dim is None else "SqueezeBackward4"
    )


def unsqueeze_(self: Tensor, dim: int) -> Tensor:
    return _inplace_view_op(self, unsqueeze(self, dim), "UnsqueezeBackward1")


def t_(self: Tensor) -> Tensor:
    return _inplace_view_op(self, t(self), "TBackward1")


def transpose_(self: Tensor, dim0: int, dim1: int) -> Tensor:
    return _inplace_view_op(self, transpose(self, dim0, dim1), "TransposeBackward1")


swapaxes_ = swapdims_ = transpose_


def as_strided_(self: Tensor, size: SizeLike, stride: SizeLike, storage_offset: int | None = None) -> Tensor:
    return _inplace_view_op(self, as_strided(self, size, stride, storage_offset), "AsStridedBackward1")


# ---------------------------------------------------------------------------------------
# indexing


def _is_basic(idx) -> bool:
    for item in idx:
        if item is None or item is Ellipsis or isinstance(item, slice):
            continue
        if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)):
            continue
        if isinstance(item, Tensor) and item._buf.ndim == 0 and item._buf.dtype.kind in "iu" and False:
            continue
        return False
    return True


def _check_basic(b, idx) -> None:
    nd = b.ndim
    consumed = builtins.sum(1 for i in idx if i is not None and i is not Ellipsis)
    if consumed > nd:
        raise IndexError(f"too many indices for tensor of dimension {nd}")
    # positions of ints / slices
    ax = 0
    n_after = 0
    seen_ell = False
    for item in idx:
        if item is Ellipsis:
            seen_ell = True
            n_after = builtins.sum(
                1 for j in idx[idx.index(Ellipsis) + 1 :] if j is not None and j is not Ellipsis
            )
            ax = nd - n_after
            continue
        if item is None:
            continue
        if isinstance(item, slice):
            if item.step is not None and int(item.step) <= 0:
                raise ValueError("step must be greater than zero")
        else:
            size = b.shape[ax]
            i = int(item)
            if not -size <= i < size:
                raise IndexError(f"index {i} is out of bounds for dimension {ax} with size {size}")
        ax += 1
    del seen_ell


def _basic_name(idx) -> str:
    name = "SliceBackward0"
    for item in idx:
        if item is None:
            name = "UnsqueezeBackward0"
        elif item is Ellipsis:
            continue
        elif isinstance(item, slice):
            if not (item.start is None and item.stop is None and item.step is None):
                name = "SliceBackward0"
        else:
            name = "SelectBackward0"
    return name


def _np_index_item(item, arrays, tmpl):
    """Convert one index item for NumPy; array entries are collected in ``arrays``."""
    if isinstance(item, Tensor):
        a = item._buf
        if type(a) is not _nd and type(a) not in _DEV:

            if isinstance(a, Tracer):
                if np.dtype(a.dtype).kind in "iu":  # an integer index stays traced (vmap, jit)
                    tmpl.append(("A", len(arrays)))
                    arrays.append(a if a.dtype == np.int64 else ew.convert_element_type(a, np.int64))
                    return
                a = a._concrete("indexing")._buf
            else:
                a = a._buf if type(a._buf) in _DEV else np.asarray(a._buf)
    elif isinstance(item, (list, tuple)):
        a = np.asarray([_dev.to_host(i._buf) if isinstance(i, Tensor) else i for i in item])
    elif isinstance(item, np.ndarray):
        a = item
    elif isinstance(item, (bool, np.bool_)):
        a = np.asarray(bool(item))
    else:
        tmpl.append(item)
        return
    if a.dtype == np.bool_ or a.dtype == np.uint8 and isinstance(item, Tensor):
        if a.ndim == 0:
            tmpl.append(bool(a))
            return
        for nz in (_dev.xp_of(a).nonzero(a) if type(a) in _DEV else np.nonzero(a)):
            tmpl.append(("A", len(arrays)))
            arrays.append(nz.astype(np.int64))
        return
    if _dtype_kind(a.dtype) not in "iu":
        raise IndexError("tensors used as indices must be long, int, byte or bool tensors")
    tmpl.append(("A", len(arrays)))
    arrays.append(a.astype(np.int64, copy=False))


def _mask_ndim(item) -> int | None:
    """The number of dims a boolean-mask index covers (None: not a mask of ndim >= 1)."""
    if isinstance(item, Tensor) and item._buf.dtype in (np.bool_, np.uint8) and item._buf.ndim:
        return item._buf.ndim
    if isinstance(item, np.ndarray) and item.dtype == np.bool_ and item.ndim:
        return item.ndim
    return None


def _check_masks(idx, shape) -> None:
    """A boolean mask must have the shape of the dims it indexes (PyTorch's IndexError);
    NumPy would otherwise index with the mask's nonzero positions, silently."""
    if not builtins.any(_mask_ndim(i) for i in idx):
        return
    covered = 0
    for item in idx:
        if item is None or item is Ellipsis or isinstance(item, (bool, np.bool_)):
            continue
        k = _mask_ndim(item)
        covered += k if k else 1
    pos = 0
    for item in idx:
        if item is Ellipsis:
            pos += builtins.max(len(shape) - covered, 0)
            continue
        if item is None or isinstance(item, (bool, np.bool_)):
            continue
        k = _mask_ndim(item)
        if k:
            mshape = tuple(item.shape)
            for j in range(k):
                if pos + j >= len(shape) or mshape[j] != shape[pos + j]:
                    raise IndexError(
                        f"The shape of the mask {list(mshape)} at index {j} does not match the shape of "
                        f"the indexed tensor {list(shape)} at index {pos + j}"
                    )
            pos += k
        else:
            pos += 1


def _split_index(idx, shape=None):
    """(template, index arrays): template entries are ints/slices/None/Ellipsis/bools or
    ("A", k) placeholders for ``arrays[k]``.  With ``shape`` (the indexed tensor's), boolean
    masks are checked against it."""
    if shape is not None:
        _check_masks(idx, shape)
    arrays: list = []
    tmpl: list = []
    for item in idx:
        _np_index_item(item, arrays, tmpl)
    return tmpl, arrays


_I64, _U64 = np.dtype(np.int64), np.dtype(np.uint64)


def _check_index_arrays(tmpl, arrays, shape) -> None:
    """PyTorch's IndexError for an index array entry outside its dimension (the fgrad
    definition of indexing clamps, as JAX does, so the shim checks the values first)."""
    if len(tmpl) == 1 and type(tmpl[0]) is tuple and shape:  # x[index]: one reduction when in bounds
        a = arrays[tmpl[0][1]]
        if type(a) is _nd and a.dtype == _I64 and (not a.size or a.view(_U64).max() < shape[0]):
            return  # (a negative index is huge unsigned: the general check below)
    consumes = [0 if e is None or e is Ellipsis or isinstance(e, bool) else 1 for e in tmpl]
    ax = 0
    for i, e in enumerate(tmpl):
        if e is Ellipsis:
            ax = len(shape) - builtins.sum(consumes[i + 1:])
            continue
        if isinstance(e, tuple) and ax < len(shape):
            a, size = arrays[e[1]], shape[ax]
            if type(a) is _nd and a.size and (a.min() < -size or a.max() >= size):
                v = int(a[(a < -size) | (a >= size)].flat[0])
                raise IndexError(f"index {v} is out of bounds for dimension {ax} with size {size}")
        ax += consumes[i]


def _rebuild(tmpl, arrays):
    return tuple(arrays[e[1]] if isinstance(e, tuple) else e for e in tmpl)


def _hashable(tmpl):
    out = []
    for e in tmpl:
        if isinstance(e, slice):
            out.append(("slice", e.start, e.stop, e.step))
        elif e is Ellipsis:
            out.append("...")
        else:
            out.append(e)
    return tuple(out)


def _norm_idx(idx):
    if not isinstance(idx, tuple):
        idx = (idx,)
    out = []
    for item in idx:
        if (
            isinstance(item, Tensor)
            and item._buf.ndim == 0
            and _dtype_kind(item._buf.dtype) in "iu"
            and type(item._buf) is _nd
        ):
            out.append(int(item._buf))
        elif isinstance(item, slice):
            out.append(slice(_int_or_none(item.start), _int_or_none(item.stop), _int_or_none(item.step)))
        else:
            out.append(item)
    return tuple(out)


def _int_or_none(v):
    if v is None:
        return None
    if isinstance(v, Tensor):
        return int(v.item())
    return int(v)


def _ints_first(idx):
    """PyTorch's two steps for an index mixing integers with index tensors: the integers (with
    the slices, None and Ellipsis) select a view first, then the tensors index what is left;
    ``(first, rest)``, or None when there is nothing to split.  NumPy treats an integer as an
    index array broadcast with the others, which moves the result's dims:
    ``a[0, :, [1, 3]]`` of a (2, 3, 4) tensor is (3, 2) in PyTorch, (2, 3) in NumPy."""
    def is_int(i):
        return isinstance(i, (int, np.integer)) and not isinstance(i, (bool, np.bool_))

    if not builtins.any(is_int(i) for i in idx) or builtins.any(isinstance(i, (bool, np.bool_)) for i in idx):
        return None
    first, rest = [], []
    for item in idx:
        if is_int(item):
            first.append(item)
        elif item is None or item is Ellipsis or isinstance(item, slice):
            first.append(item)
            rest.append(item if item is Ellipsis else slice(None))
        else:  # an index tensor or array; a k-dim mask spans k dims
            first.extend([slice(None)] * (_mask_ndim(item) or 1))
            rest.append(item)
    return tuple(first), tuple(rest)


def _ints_in_range(idx: tuple, shape: tuple) -> bool:
    """Whether ``idx`` is a non-empty tuple of plain ints (not bools), one per leading dim of
    ``shape`` at most, each in range: the index is a chain of selects."""
    if not idx or len(idx) > len(shape):
        return False
    for i, n in zip(idx, shape):
        if type(i) is not int or not -n <= i < n:
            return False
    return True


def getitem(self, idx):
    b = self._buf
    if type(idx) is int and type(b) is _nd and b.ndim and -b.shape[0] <= idx < b.shape[0]:
        # the hot case (a dataset's ``t[i]``): the view `parse_index` would describe
        return _make_view(self, b[idx, ...], "SelectBackward0", _v_gather, ((("i", idx),),))
    if type(idx) is tuple and type(b) is _nd and _ints_in_range(idx, b.shape):
        # ``t[i, j]``: as above, one select per int (what `parse_index` would describe)
        return _make_view(self, b[idx + (Ellipsis,)], "SelectBackward0", _v_gather,
                          (tuple([("i", i) for i in idx]),))
    idx = _norm_idx(idx)
    if not _is_basic(idx):
        split = _ints_first(idx)
        if split is not None:
            return getitem(getitem(self, split[0]), split[1])
    if _is_basic(idx):
        _check_basic(b, idx)
        if _traced(b):
            indexer, _ = I.parse_index(b.shape, idx, "indexing")
            return _fview(self, run_functional(lambda x: I.gather(x, [], indexer, "clip"), (self,)),
                          _v_gather, (indexer,))
        indexer, _ = I.parse_index(b.shape, idx, "indexing")
        return _make_view(self, _basic(b, idx), _basic_name(idx), _v_gather, (indexer,))
    tmpl, arrays = _split_index(idx, b.shape)
    key_t = _hashable(tmpl)

    def fn(x, *arrs):
        return fnp._getitem(x, _rebuild(tmpl, arrs))

    if _traced(b):
        return run_functional(fn, (self,) + tuple(arrays))
    _check_index_arrays(tmpl, arrays, b.shape)
    return apply_op("IndexBackward0", ("index", key_t), fn, (self,) + tuple(arrays), edges=(0,))


def setitem(self, idx, value):
    idx = _norm_idx(idx)
    if not _is_basic(idx):
        split = _ints_first(idx)
        if split is not None:
            return setitem(getitem(self, split[0]), split[1], value)
    b = self._buf
    if _traced(b) or (isinstance(value, Tensor) and _traced(value._buf)) or builtins.any(
            isinstance(i, Tensor) and _traced(i._buf) for i in idx):
        return _setitem_functional(self, idx, value)
    vt = isinstance(value, Tensor)
    if type(b) in _DEV or (vt and type(value._buf) in _DEV):
        return _setitem_device(self, idx, value)
    if not vt and not isinstance(value, (int, float, bool, complex, np.generic)):

        value = tensor(value, dtype=D.from_np(b.dtype))
        vt = True
    grad = STATE.enabled and (
        tracks_grad(self) or (vt and tracks_grad(value)) or (
            self._base is not None and tracks_grad(self._base)
        )
    )
    basic = _is_basic(idx)
    if basic:
        _check_basic(b, idx)
    if type(b) is _nd and not grad and (not vt or type(value._buf) is _nd):
        vb = value._buf if vt else value
        if vt and not can_cast(vb.dtype, b.dtype) and _dtype_kind(b.dtype) != "b":
            pass
        target = b
        if basic:
            target = b[idx]
            if isinstance(target, _nd):
                check_no_internal_overlap(target)
        if vt and np.may_share_memory(b, vb):
            if isinstance(target, _nd):
                check_no_alias(target, vb)
            vb = vb.copy()
        try:
            b[_rebuild(*_split_index(idx, b.shape)) if not basic else idx] = vb
        except ValueError as e:
            raise RuntimeError(f"index_put_: {e} (the value must broadcast to the indexed region)") from None
        bump_version(self)
        return
    if basic:
        v = getitem(self, idx)

        if not vt:  # PyTorch wraps the scalar in a tensor and copies it

            value = scalar_tensor(value, dtype=D.from_np(b.dtype))
        copy_(v, value)
        return
    # advanced indexing: index_put_
    tmpl, arrays = _split_index(idx, b.shape)
    dt = b.dtype
    if not vt:
        value = np.asarray(value, dt)

    write = _write_at(tmpl)

    def fn(x, v, *arrs):  # (a value written twice: PyTorch's gradient, `_conventions.overwrite`)
        return _overwrite(write, x, ew.convert_element_type(v, dt), *arrs)

    if type(b) is not _nd:
        return apply_inplace(
            self,
            "IndexPutBackward0",
            ("index_put", _hashable(tmpl), dt),
            fn,
            (self, value) + tuple(arrays),
            None,
            (0, 1),
        )
    key = ("index_put", _hashable(tmpl), dt)
    _check_index_arrays(tmpl, arrays, b.shape)  # the definition drops out-of-bounds writes
    new = run_forward(key, fn, [b, value._buf if vt else value, *arrays], False)
    apply_inplace(
        self,
        "IndexPutBackward0",
        ("index_put", _hashable(tmpl), dt),
        fn,
        (self, value) + tuple(arrays),
        new,
        (0, 1),
    )


def _split_index_on(b, idx):
    """`_split_index` with the index arrays on ``b``'s device (an explicit upload of host
    index data, as PyTorch does for CPU indices of a CUDA tensor)."""
    tmpl, arrays = _split_index(idx, b.shape)
    if type(b) in _DEV:
        di = _dev.index_of(b)
        arrays = [_dev.to_dev(a, di) for a in arrays]
    elif builtins.any(type(a) in _DEV for a in arrays):
        raise RuntimeError(
            "indices should be either on cpu or on the same device as the indexed tensor (cpu)")
    return tmpl, arrays


def _setitem_device(self, idx, value):
    """``self[idx] = value`` when a CUDA tensor is involved.  Basic indexing is a view plus
    ``copy_`` (which may transfer, as in PyTorch); advanced indexing needs ``value`` on
    ``self``'s device (or a scalar / 0-dim tensor)."""

    b = self._buf
    vt = isinstance(value, Tensor)
    if not vt and not isinstance(value, (int, float, bool, complex, np.generic)):

        value = tensor(value, dtype=D.from_np(b.dtype), device=self.device)
        vt = True
    basic = _is_basic(idx)
    if basic:
        _check_basic(b, idx)
        v = getitem(self, idx)
        if not vt:

            value = scalar_tensor(value, dtype=D.from_np(b.dtype), device=self.device)
        copy_(v, value)
        return
    if type(b) not in _DEV:
        raise RuntimeError(
            "indices should be either on cpu or on the same device as the indexed tensor (cpu)")
    if vt and type(value._buf) is _nd:
        if value._buf.ndim:
            raise _dev.same_device_error(str(self.device), "cpu")
        value = value.to(self.device)
    tmpl, arrays = _split_index_on(b, idx)
    grad = STATE.enabled and (
        tracks_grad(self) or (vt and tracks_grad(value)) or (
            self._base is not None and tracks_grad(self._base)
        )
    )
    if not grad:
        vb = value._buf if vt else value
        if vt:
            check_no_alias(b, vb)
            vb = fresh_buffer(vb, [b]) if vb is not b else vb.copy()
        b[_rebuild(tmpl, arrays)] = vb
        bump_version(self)
        return
    dt = b.dtype
    if not vt:
        value = np.asarray(value, dt)

    write = _write_at(tmpl)

    def fn(x, v, *arrs):  # (a value written twice: PyTorch's gradient, `_conventions.overwrite`)
        return _overwrite(write, x, ew.convert_element_type(v, dt), *arrs)

    apply_inplace(
        self,
        "IndexPutBackward0",
        ("index_put", _hashable(tmpl), dt),
        fn,
        (self, value) + tuple(arrays),
        None,
        (0, 1),
    )


def _write_at(tmpl):
    """``write(x, v, arrays, mode)`` for `_conventions.overwrite`: ``x.at[index].<mode>(v)``
    with the index ``tmpl`` rebuilt around ``arrays``."""
    def write(x, v, arrs, mode):
        return fnp._scatter(x, _rebuild(tmpl, arrs), v, mode)

    return write


def _setitem_functional(self, idx, value):
    """``x[idx] = v`` in functional mode: ``x`` is rebound to ``x.at[idx].set(v)``."""

    tmpl, arrays = _split_index(idx)
    x = fgrad_value(self)
    v = fgrad_value(value) if isinstance(value, Tensor) else value
    new = _overwrite(_write_at(tmpl), x, v, *[fgrad_value(a) for a in arrays])
    if not STATE.enabled:  # under no_grad: no derivative through the write
        new = no_grad_value(new)
    functional_write(self, new)


def index_put_(self: Tensor, indices: Sequence[Tensor | None], values: Tensor,
               accumulate: bool = False) -> Tensor:
    if isinstance(values, Tensor) and values.dtype != self.dtype:  # (`x[i] = v` converts; this does not)
        raise RuntimeError(
            f"Index put requires the source and destination dtypes match, got "
            f"{scalar_type_name(self._buf.dtype)} for the destination and "
            f"{scalar_type_name(values._buf.dtype)} for the source.")
    if not accumulate:
        setitem(self, tuple(indices), values)
        return self
    tmpl, arrays = _split_index_on(self._buf, tuple(indices))
    dt = self._buf.dtype

    def fn(x, v, *arrs):
        return fnp._scatter(x, _rebuild(tmpl, arrs), ew.convert_element_type(v, dt), "add")

    b = self._buf
    if type(b) is _nd and type(values._buf) is _nd:  # the definition's numbers, through its program
        _check_index_arrays(tmpl, arrays, b.shape)  # the definition drops out-of-bounds updates
        new = run_forward(("index_put_acc", _hashable(tmpl), dt), fn, [b, values._buf, *arrays], False)
    else:
        new = None  # the device: the definition runs there
    return apply_inplace(
        self,
        "IndexPutBackward0",
        ("index_put_acc", _hashable(tmpl), dt),
        fn,
        (self, values) + tuple(arrays),
        new,
        (0, 1),
    )


def index_put(input: Tensor, indices: Sequence[Tensor | None], values: Tensor,
              accumulate: bool = False) -> Tensor:

    return index_put_(clone(input), indices, values, accumulate)


# ---------------------------------------------------------------------------------------
# gather / scatter / index_select / masked ops


def _idx_buf(index, name="index"):
    if not isinstance(index, Tensor):
        index = _as_t(index)
    b = index._buf
    if _dtype_kind(b.dtype) not in "iu":
        raise RuntimeError(f"{name}(): Expected dtype int64 for index")
    return b.astype(np.int64, copy=False)


def _as_t(x):

    return x if isinstance(x, Tensor) else tensor(x)


def _along_arrays(ishape, dim, idx):
    """Index arrays selecting ``[..., idx, ...]`` along ``dim`` for an index of shape ishape:
    ``idx`` at ``dim``, and at every other axis ``d`` an ``arange`` shaped to broadcast along
    it (1 elsewhere; the gather broadcasts the arrays together, as NumPy's indexing)."""
    nd = len(ishape)
    arrs = []
    for d in range(nd):
        if d == dim:
            arrs.append(idx)
        else:
            sh = [1] * nd
            sh[d] = ishape[d]
            arrs.append(np.arange(ishape[d], dtype=np.int64).reshape(sh))
    return tuple(arrs)


def _check_index_range(ib, size: int, d: int) -> None:
    """gather/scatter indices must lie in [0, size): PyTorch's RuntimeError otherwise."""
    if ib.size == 0 or type(ib) is not _nd:
        return
    if ib.dtype == np.int64 and ib.view(np.uint64).max() < size:  # negatives are huge unsigned
        return
    first = _first_out_of_range(ib, size)
    if first is not None:
        raise RuntimeError(f"index {first} is out of bounds for dimension {d} with size {size}")


def gather(input: Tensor, dim: int, index: Tensor, *, sparse_grad: bool = False,
           out: Tensor | None = None) -> Tensor:
    b = input._buf
    nd = b.ndim
    d = _wrap_dim(dim, nd) if nd else 0
    ib = _idx_buf(index, "gather")
    if ib.ndim != nd and not (nd == 0 and ib.ndim <= 1):
        raise RuntimeError("Index tensor must have the same number of dimensions as input tensor")
    for k in range(nd):
        if k != d and ib.shape[k] > b.shape[k]:
            raise RuntimeError(
                f"Size does not match at dimension {k} expected index {list(ib.shape)} to be no "
                f"larger than self {list(b.shape)} apart from dimension {d}"
            )
    _check_index_range(ib, b.shape[d] if nd else 1, d)
    arrs = _along_arrays(ib.shape, d, ib) if nd else ()
    indexer = tuple(("a", k) for k in range(nd))

    def fn(x, *a):
        return I.gather(x, list(a), indexer, "clip")

    res = apply_op(
        "GatherBackward0",
        ("gather", indexer),
        fn,
        (input,) + tuple(np.ascontiguousarray(a) if type(a) is np.ndarray else a for a in arrs),
        edges=(0,),
    )
    return res if out is None else write_out(out, res, "gather")


def take_along_dim(input: Tensor, indices: Tensor, dim: int | None = None) -> Tensor:
    if dim is None:
        return gather(reshape(input, (-1,)), 0, reshape(indices, (-1,)))
    b, ib = input._buf, indices._buf
    d = _wrap_dim(dim, b.ndim)
    shp = list(
        np.broadcast_shapes(
            tuple(s if k != d else 1 for k, s in enumerate(b.shape)),
            tuple(s if k != d else 1 for k, s in enumerate(ib.shape)),
        )
    )
    xs = list(shp)
    xs[d] = b.shape[d]
    js = list(shp)
    js[d] = ib.shape[d]
    return gather(expand(input, xs), d, expand(indices, js))


def _first_out_of_range(ib, size: int) -> int | None:
    """The first index outside [0, size) (PyTorch's index_add/index_copy/index_select take no
    negative indices), or None."""
    if type(ib) is not _nd or ib.size == 0:
        return None
    bad = (ib < 0) | (ib >= size)
    return int(ib[bad].flat[0]) if bad.any() else None


def _check_same_dtype(self_buf, src, message: str) -> None:
    """PyTorch's dtype check of index_add/index_copy/scatter sources (no conversion)."""
    if isinstance(src, Tensor) and src._buf.dtype != self_buf.dtype:
        raise RuntimeError(message.format(self=D.from_np(self_buf.dtype)._legacy,
                                          src=D.from_np(src._buf.dtype)._legacy))


def _check_index_add(b, d: int, ib, source) -> None:
    """index_add's checks: same dtype, indices in [0, size) (IndexError for a 1-d self,
    RuntimeError naming the index otherwise, as PyTorch's two kernels)."""
    _check_same_dtype(b, source,
                      "index_add_(): self ({self}) and source ({src}) must have the same scalar type")
    size = b.shape[d] if b.ndim else 1
    bad = _first_out_of_range(ib, size)
    if bad is not None:
        if b.ndim <= 1:
            raise IndexError("index out of range in self")
        raise RuntimeError(f"index {bad} is out of bounds for dimension {d} with size {size}")


def _check_index_copy(b, d: int, ib, source) -> None:
    _check_same_dtype(b, source, "index_copy_(): self and source expected to have the same dtype, but got "
                                 "(self) {self} and (source) {src}")
    size = b.shape[d] if b.ndim else 1
    bad = _first_out_of_range(ib, size)
    if bad is not None:
        raise IndexError(f"index_copy_(): index {bad} is out of bounds for dimension {d} with size {size}")


def _scatter_common(input, dim, index, src, reduce, name, gname, inplace=False):
    b = input._buf
    nd = b.ndim
    d = _wrap_dim(dim, nd) if nd else 0
    ib = _idx_buf(index, name)
    _check_index_range(ib, b.shape[d] if nd else 1, d)
    _check_same_dtype(b, src, "scatter(): Expected self.dtype to be equal to src.dtype")
    # host index arrays made contiguous; a device index buffer is used as it is
    arrs = tuple(np.ascontiguousarray(a) if type(a) is np.ndarray else a
                 for a in _along_arrays(ib.shape, d, ib))
    indexer = tuple(("a", k) for k in range(nd))
    dt = b.dtype
    if isinstance(src, Tensor):
        sb = src._buf
        srcv = src
        src_is_t = True
    else:
        sb = srcv = np.asarray(src, dt)
        src_is_t = False
    mode = {
        None: "set",
        "add": "add",
        "sum": "add",
        "multiply": "mul",
        "prod": "mul",
        "amax": "max",
        "amin": "min",
        "mean": "add",
    }[reduce]

    def fn(x, s, *a):
        if src_is_t:
            s = ew.convert_element_type(s, dt)
            s = I.gather(s, [], tuple(("s", 0, k, 1) for k in ib.shape), "clip") if s.shape != ib.shape else s
        else:
            s = S.broadcast_to(ew.convert_element_type(s, dt), ib.shape)
        if mode == "set":  # (a value written twice: PyTorch's gradient, `_conventions.overwrite`)
            return _overwrite(_write_along, x, s, *a)
        return I.scatter(x, s, list(a), indexer, mode, "drop")

    key = (gname, indexer, mode, src_is_t, dt)
    args = (input, srcv) + arrs
    edges = (0, 1)
    if inplace:
        if type(b) is not _nd:  # tracers, or the device: the fgrad definition computes it
            return apply_inplace(input, gname, key, fn, args, None, edges)
        if (nd and mode in ("set", "add") and reduce != "mean" and type(sb) is _nd and sb.dtype == dt
                and sb.ndim in (0, nd)
                and write_in_place(input, args, lambda buf: _scatter_into(buf, sb, ib.shape, arrs, mode))):
            return input  # no gradient to record: written in place, as `fn` computes it
        return apply_inplace(input, gname, key, fn, args, run_forward(key, fn, [b, sb, *arrs], False), edges)
    return apply_op(gname, key, fn, args, edges=edges)


def _write_along(x, s, arrays, mode):
    """``write(x, s, arrays, mode)`` for `_conventions.overwrite`: `scatter`'s write of ``s``
    (of the index's shape) at one index array per dim."""
    return I.scatter(x, s, list(arrays), tuple(("a", k) for k in range(len(arrays))), mode, "drop")


def _scatter_into(buf, sb, ishape, arrs, mode) -> None:
    """`_scatter_common`'s ``fn`` (host, in-bounds indices, ``sb`` of ``buf``'s dtype)
    computed in ``buf`` itself: the same values, with no copy of ``buf`` in and out."""
    if sb.shape != ishape:
        sb = np.broadcast_to(sb, ishape) if sb.ndim == 0 else sb[tuple(slice(0, k) for k in ishape)]
    idx, pad = I._np_index(np, buf.shape, tuple(("a", k) for k in range(len(arrs))), arrs, "drop")
    assert not pad  # `_check_index_range` raised for out-of-bounds indices
    if mode == "set":
        buf[idx] = sb
    else:
        I._ufunc_at(np, mode, buf, idx, sb)


def _index_add_into(buf, d, ib, sb) -> None:
    """``index_add``'s scatter-add (host, in-bounds indices, ``sb`` of ``buf``'s dtype and of
    the indexed shape) computed in ``buf`` itself."""
    indexer = tuple(("s", 0, n, 1) for n in buf.shape[:d]) + (("a", 0),)
    idx, pad = I._np_index(np, buf.shape, indexer, [ib], "drop")
    assert not pad  # `index_add_` raised for out-of-range indices
    I._ufunc_at(np, "add", buf, idx, sb)


def scatter(input: Tensor, dim: int, index: Tensor, src: TensorOrScalar | None = None,
            value: TensorOrScalar | None = None, *, reduce: str | None = None) -> Tensor:
    s = src if src is not None else value
    if reduce is not None and _needs_refusal(input, s):  # PyTorch: no derivative (its backward raises)
        return _refused_op(lambda x, v: scatter(x, dim, index, v, reduce=reduce), "scatter", input, s)
    return _scatter_common(
        input,
        dim,
        index,
        s,
        reduce,
        "scatter",
        "ScatterBackward0" if isinstance(s, Tensor) else "ScatterBackward1",
    )


def scatter_(self: Tensor, dim: int, index: Tensor, src: TensorOrScalar | None = None,
             value: TensorOrScalar | None = None, *, reduce: str | None = None) -> Tensor:
    s = src if src is not None else value
    if reduce is not None and _needs_refusal(self, s):  # PyTorch: no derivative (its backward raises)
        return _refused_inplace(lambda x, v: scatter_(x, dim, index, v, reduce=reduce), "scatter_", self, s)
    return _scatter_common(
        self,
        dim,
        index,
        s,
        reduce,
        "scatter_",
        "ScatterBackward0" if isinstance(s, Tensor) else "ScatterBackward1",
        inplace=True,
    )


def scatter_add(input: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_common(input, dim, index, src, "add", "scatter_add", "ScatterAddBackward0")


def scatter_add_(self: Tensor, dim: int, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_common(self, dim, index, src, "add", "scatter_add_", "ScatterAddBackward0", inplace=True)


def scatter_reduce(input: Tensor, dim: int, index: Tensor, src: Tensor, reduce: str, *,
                   include_self: bool = True) -> Tensor:
    return _scatter_common(input, dim, index, src, reduce, "scatter_reduce", "ScatterReduceBackward0")


def index_select(input: Tensor, dim: int, index: Tensor, *, out: Tensor | None = None) -> Tensor:
    b = input._buf
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    ib = _idx_buf(index, "index_select")
    if ib.ndim > 1:
        raise IndexError("index_select(): Index is supposed to be a vector")
    n = b.shape[d] if b.ndim else 1
    if ib.size and (ib.max() >= n or ib.min() < 0):  # PyTorch takes no negative indices here
        raise IndexError("index out of range in self")
    ib = ib.reshape(-1)

    def fn(x, i):
        return fnp.take(x, i, axis=d, mode="clip") if x.ndim else x

    res = apply_op(
        "IndexSelectBackward0",
        ("index_select", d),
        fn,
        (input, ib),
        edges=(0,),
    )
    return res if out is None else write_out(out, res, "index_select")


def take(input: Tensor, index: Tensor) -> Tensor:
    ib = _idx_buf(index, "take")
    n = input._buf.size
    if ib.size and (ib.max() >= n or ib.min() < -n):
        raise IndexError(f"out of range: tried to access index {int(ib.max())} on a tensor of {n} elements.")

    def fn(x, i):
        return fnp.take(S.reshape(x, (-1,)), i, mode="clip")

    return apply_op(
        "TakeBackward0", ("take",), fn, (input, ib), edges=(0,)
    )


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    mb = mask._buf if isinstance(mask, Tensor) else np.asarray(mask)
    if mb.dtype != np.bool_:
        raise RuntimeError("masked_select: expected BoolTensor for mask")
    msg = _errors._broadcast_mismatch([mb.shape, input._buf.shape])  # (PyTorch names the mask "a")
    if msg:
        raise RuntimeError(msg)  # PyTorch's error, not NumPy's ValueError
    shp = np.broadcast_shapes(input._buf.shape, mb.shape)
    if not shp:  # 0-d input and mask: select from their one element (NumPy has no 0-d nonzero)
        return masked_select(reshape(input, (1,)), result_tensor(np.reshape(mb, (1,))))
    x = expand(input, shp) if input._buf.shape != shp else input
    m = np.broadcast_to(mb, shp)
    arrs = tuple(a.astype(np.int64) for a in np.nonzero(m))
    indexer = tuple(("a", k) for k in range(len(shp)))

    def fn(v, *a):
        return I.gather(v, list(a), indexer, "clip")

    return apply_op(
        "MaskedSelectBackward0",
        ("masked_select", indexer),
        fn,
        (x,) + arrs,
        edges=(0,),
    )


def masked_fill(input: Tensor, mask: Tensor, value: TensorOrScalar) -> Tensor:

    mb = mask._buf if isinstance(mask, Tensor) else np.asarray(mask)
    if mb.dtype != np.bool_:
        raise RuntimeError(
            f"masked_fill_ only supports boolean masks, but got mask with dtype {D.from_np(mb.dtype)}"
        )
    dt = D.from_np(input._buf.dtype)
    if isinstance(value, Tensor):
        if value._buf.ndim != 0:
            raise RuntimeError(
                f"masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                f"{value._buf.ndim} dimension(s)."
            )
        v = value.to(dt)
    else:
        v = np.asarray(check_fill_value(value, input._buf.dtype, "masked_fill")).astype(dt.np).item()
    traced = isinstance(mask, Tensor) and type(mb) is not np.ndarray and type(mb) not in _DEV
    res = where(mask if traced else result_tensor(mb), v, input)  # a traced mask (torch.compile) as is
    if res._gfn is not None:
        new_view_node_rename(res._gfn, "MaskedFillBackward0")
        if not isinstance(value, Tensor):
            res._gfn._next = tuple(
                e for e, a in zip(res._gfn._next, res._gfn._edge_args, strict=False) if a == 2
            )
            res._gfn._edge_args = (2,)
    if res._buf.shape != input._buf.shape:
        raise RuntimeError(
            f"masked_fill: mask of shape {list(mb.shape)} is not broadcastable to {list(input._buf.shape)}"
        )
    return res


def masked_fill_(self: Tensor, mask: Tensor, value: TensorOrScalar) -> Tensor:

    mb = mask._buf if isinstance(mask, Tensor) else np.asarray(mask)
    b = self._buf
    if not isinstance(value, Tensor):
        value = check_fill_value(value, b.dtype, "masked_fill_")
    if (
        not (
            STATE.enabled
            and (tracks_grad(self) or (isinstance(value, Tensor) and tracks_grad(value))
                 or self._base is not None)
        )
        and type(b) is _nd
    ):
        check_no_internal_overlap(b)
        vb = value._buf if isinstance(value, Tensor) else value
        np.copyto(b, np.asarray(vb, b.dtype), where=np.broadcast_to(mb, b.shape))
        bump_version(self)
        return self
    dt = b.dtype
    vv = value if isinstance(value, Tensor) else np.asarray(value, dt)

    def fn(x, m, v):  # (``x * 0 + v`` was NaN where x is inf or NaN)
        return ew.select(m, ew.convert_element_type(v, dt), x)

    if type(b) is _nd and type(mb) is _nd:  # the definition's numbers, through its program
        new = run_forward(("masked_fill", dt), fn, [b, mb, vv._buf if isinstance(vv, Tensor) else vv], False)
    else:  # tracers or the device: the fgrad definition computes it there
        new = None
    return apply_inplace(
        self,
        "MaskedFillBackward0",
        ("masked_fill", dt),
        fn,
        (self, mb, vv),
        new,
        (0, 2) if isinstance(value, Tensor) else (0,),
    )


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    if isinstance(source, Tensor) and source.dtype != input.dtype:
        raise RuntimeError(
            f"masked_scatter: expected self and source to have same dtypes but got "
            f"{scalar_type_name(input._buf.dtype)} and {scalar_type_name(source._buf.dtype)}")
    shape = broadcast_shapes(input.shape, mask.shape)  # out of place, input and mask broadcast together
    if tuple(input.shape) != tuple(shape):
        input = input.expand(shape)
    mb = _dev.xp_of(mask._buf).broadcast_to(mask._buf, input._buf.shape)
    n = int(mb.sum())
    src = reshape(source, (-1,))[:n] if n else None
    out = input.clone() if src is None else index_put(input, (result_tensor(mb.copy()),), src)
    return out


def _zero_d_index_op(name: str, t: Tensor, dim: int, index, source) -> tuple[Tensor, Tensor | None]:
    """``index_add``/``index_copy``/``index_fill`` of a 0-d tensor: PyTorch treats it as one
    element along dim 0.  Checks PyTorch's 0-d rules and returns the 1-element views of ``t``
    and ``source`` (a Tensor source; else None) that the op then writes."""
    _wrap_dim(dim, 0)  # dims in [-1, 0]
    ib = _idx_buf(index, name)
    n = ib.size
    outside = [int(i) for i in np.asarray(_dev.to_host(ib)).reshape(-1) if not -1 <= i <= 0]
    if name == "index_fill" and outside:  # (index_fill wraps -1)
        raise IndexError(f"index {outside[0]} is out of bounds for dimension 0 with size 1")
    src = source if isinstance(source, Tensor) else None
    if name == "index_add" and src is not None:
        if src.dim():
            raise RuntimeError(
                "source tensor shape must match self tensor shape, excluding the specified dimension. "
                f"Got self.shape = [] source.shape = {list(src.shape)}")
        if n != 1:
            raise IndexError("Dimension specified as 0 but tensor has no dimensions")
    if name == "index_copy" and src is not None:
        if not src.dim() and n != 1:
            raise IndexError(f"index_copy_(): When source is scalar, index should have one element (got {n})")
        if src.dim() and n != src.shape[0]:
            raise IndexError(f"index_copy_(): Number of indices ({n}) should be equal to source.size(dim) "
                             f"({src.shape[0]})")
    return t.reshape(1), (None if src is None else src.reshape(-1))


def index_add(input: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: float = 1) -> Tensor:
    b = input._buf
    if not b.ndim:
        one, src = _zero_d_index_op("index_add", input, dim, index, source)
        return index_add(one, 0, index, src, alpha=alpha).reshape(())
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    ib = _idx_buf(index, "index_add").reshape(-1)
    _check_index_add(b, d, ib, source)
    dt = b.dtype

    def fn(x, s, i):
        s = ew.convert_element_type(s, dt)
        if alpha != 1:
            s = ew.mul(s, alpha)
        idx = (slice(None),) * d + (i,)
        return fnp._scatter(x, idx, s, "add")

    return apply_op(
        "IndexAddBackward0", ("index_add", d, alpha, dt), fn, (input, source, ib), edges=(0, 1)
    )


def index_add_(self: Tensor, dim: int, index: Tensor, source: Tensor, *, alpha: float = 1) -> Tensor:
    if not self._buf.ndim:
        one, src = _zero_d_index_op("index_add", self, dim, index, source)
        index_add_(one, 0, index, src, alpha=alpha)
        return self
    if isinstance(source, Tensor):
        check_no_alias(self._buf, source._buf, full_ok=False)
    b = self._buf
    if (alpha == 1 and type(b) is _nd and b.ndim and isinstance(source, Tensor) and type(source._buf) is _nd
            and source._buf.dtype == b.dtype and source._buf.ndim == b.ndim):
        d = _wrap_dim(dim, b.ndim)
        ib = _idx_buf(index, "index_add").reshape(-1)
        _check_index_add(b, d, ib, source)
        # no gradient to record: added in the buffer itself, as `index_add`'s scatter adds
        if source._buf.shape == b.shape[:d] + ib.shape + b.shape[d + 1:] and write_in_place(
                self, (self, source, ib), lambda buf: _index_add_into(buf, d, ib, source._buf)):
            return self
    res = index_add(self.detach(), dim, index, source.detach(), alpha=alpha)

    if not (STATE.enabled and (tracks_grad(self) or tracks_grad(source))):
        return copy_(self, res)
    b = self._buf
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    ib = _idx_buf(index, "index_add").reshape(-1)
    _check_index_add(b, d, ib, source)
    dt = b.dtype

    def fn(x, s, i):
        s = ew.convert_element_type(s, dt)
        if alpha != 1:
            s = ew.mul(s, alpha)
        return fnp._scatter(x, (slice(None),) * d + (i,), s, "add")

    return apply_inplace(
        self, "IndexAddBackward0", ("index_add", d, alpha, dt), fn, (self, source, ib), res._buf, (0, 1)
    )


def index_copy(input: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    b = input._buf
    if not b.ndim:
        one, src = _zero_d_index_op("index_copy", input, dim, index, source)
        return index_copy(one, 0, index, src).reshape(())
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    ib = _idx_buf(index).reshape(-1)
    _check_index_copy(b, d, ib, source)
    idx = (slice(None),) * d + (result_tensor(ib),)
    out = input.clone()
    setitem(out, idx, source)
    return out


def index_copy_(self: Tensor, dim: int, index: Tensor, source: Tensor) -> Tensor:
    b = self._buf
    if not b.ndim:
        one, src = _zero_d_index_op("index_copy", self, dim, index, source)
        index_copy_(one, 0, index, src)
        return self
    if isinstance(source, Tensor):
        check_no_alias(b, source._buf, full_ok=False)
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    ib = _idx_buf(index).reshape(-1)
    _check_index_copy(b, d, ib, source)
    setitem(self, (slice(None),) * d + (result_tensor(ib),), source)
    return self


def index_fill(input: Tensor, dim: int, index: Tensor, value: TensorOrScalar) -> Tensor:
    out = input.clone()
    return index_fill_(out, dim, index, value)


def index_fill_(self: Tensor, dim: int, index: Tensor, value: TensorOrScalar) -> Tensor:
    b = self._buf
    if not b.ndim:
        one, _ = _zero_d_index_op("index_fill", self, dim, index, value)
        index_fill_(one, 0, index, value)
        return self
    d = _wrap_dim(dim, b.ndim)  # a 0-d tensor: dims in [-1, 0], as PyTorch
    setitem(self, (slice(None),) * d + (result_tensor(_idx_buf(index).reshape(-1)),), value)
    return self


def put_(self: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    if isinstance(source, Tensor) and source.dtype != self.dtype:
        raise RuntimeError(
            f"put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{scalar_type_name(self._buf.dtype)} and source.dtype = {scalar_type_name(source._buf.dtype)}")
    ib = _idx_buf(index).reshape(-1)
    flat = reshape(self, (-1,)) if self._buf.flags.c_contiguous else None
    if flat is None:
        raise NotImplementedError("put_ on a non-contiguous tensor")
    index_put_(flat, (result_tensor(ib),), reshape(source, (-1,)), accumulate)
    return self


def nonzero(input: Tensor, *, out: Tensor | None = None,
            as_tuple: bool = False) -> Tensor | tuple[Tensor, ...]:
    b = input._buf
    nz = _dev.xp_of(b).nonzero(b if b.ndim else b.reshape(1))
    if as_tuple:
        return tuple(result_tensor(a.astype(np.int64)) for a in nz)
    xp = _dev.xp_of(b)
    res = result_tensor(
        xp.ascontiguousarray(xp.stack(nz, axis=1).astype(np.int64))
        if b.ndim
        else xp.zeros((int(bool(b)), 0), np.int64)
    )
    return res if out is None else write_out(out, res, "nonzero")


def argwhere(input: Tensor) -> Tensor:
    return nonzero(input)


# ---------------------------------------------------------------------------------------
# joining


_EMPTY_1D = (0,)


def _seq(tensors, name):
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    ts = list(tensors)
    if ts and _JUST_TENSOR.issuperset(map(type, ts)):  # all plain tensors: one C pass
        return ts
    if not ts:
        if name == "cat":  # PyTorch: ValueError for cat, RuntimeError for stack
            raise ValueError("torch.cat(): expected a non-empty list of Tensors")
        raise RuntimeError(f"{name}(): expected a non-empty list of Tensors")
    return [t if isinstance(t, Tensor) else _as_t(t) for t in ts]


def _plain_host_bufs(ts) -> tuple[list, np.dtype] | None:
    """``(buffers, dtype)`` of ``ts`` when joining them (`cat`, `stack`) is a plain NumPy call:
    every buffer a host array of one dtype (so the result's dtype, PyTorch's promotion of equal
    dtypes) and nothing to record (no gradient to track, no ``torch.profiler`` recorder), so
    ``apply_op`` would run that very call and keep nothing else; else None.  Set and list
    comprehensions, not a Python loop, over the operands (a collate of many rows)."""
    if _profile_state.recorder is not None:
        return None
    bufs = [t._buf for t in ts]
    if {type(b) for b in bufs} != _JUST_NDARRAY:
        return None
    dtypes = {b.dtype for b in bufs}
    if len(dtypes) != 1:
        return None
    if STATE.enabled and (True in [t._rg for t in ts] or [t._gfn for t in ts].count(None) != len(ts)):
        return None
    return bufs, dtypes.pop()


_JUST_NDARRAY = {np.ndarray}
_JUST_TENSOR = {Tensor}


def _concat_rows(bufs: list, out: np.ndarray | None = None) -> np.ndarray | None:
    """NumPy's concatenate of ``bufs`` along their first axis (into ``out`` when given); None
    when their trailing sizes or ranks differ (the caller's checks then raise PyTorch's error)."""
    try:
        return np.concatenate(bufs, out=out)
    except ValueError:
        return None


def _stacked_rows(bufs: list, shape: tuple, dtype: np.dtype) -> np.ndarray | None:
    """``bufs`` (host arrays of ``dtype``, at least 1-d, each ``shape[0]`` long) stacked along a
    new first axis: their rows one after another, concatenated into new memory the result
    owns; None when their trailing sizes differ."""
    r = np.empty((len(bufs),) + shape, dtype)
    return r if _concat_rows(bufs, r.reshape((len(bufs) * shape[0],) + shape[1:])) is not None else None


@_autocast_promote
def cat(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    ts = _seq(tensors, "cat")
    plain = _plain_host_bufs(ts)
    if plain is not None and type(dim) is int and dim == 0 and ts[0]._buf.ndim:
        # the common case: NumPy's concatenate checks the sizes; an empty operand (PyTorch skips
        # 1-D ones) or unlike sizes take the checks below, which raise PyTorch's errors
        try:
            r = None if 0 in map(len, plain[0]) else _concat_rows(plain[0])
        except TypeError:  # a 0-d operand
            r = None
        if r is not None:
            res = result_tensor(r)
            return res if out is None else write_out(out, res, "cat")
    shapes = [t._buf.shape for t in ts]
    keep = ts
    skipped = False
    if _EMPTY_1D in shapes:  # legacy: 1-D empty tensors are skipped (by the shape checks)
        keep = [t for t, s in zip(ts, shapes) if s != _EMPTY_1D] or ts
        skipped = keep is not ts
        shapes = [t._buf.shape for t in keep]
    ref = shapes[0]
    nd = len(ref)
    if nd == 0:
        raise RuntimeError("zero-dimensional tensor (at position 0) cannot be concatenated")
    d = _wrap_dim(dim, nd)
    for i, t in enumerate(() if shapes.count(ref) == len(shapes) else keep):  # all alike: no checks
        s = t._buf.shape
        if s == ref:
            continue
        if len(s) != nd:
            raise RuntimeError(f"Tensors must have same number of dimensions: got {nd} and {len(s)}")
        for k in range(nd):
            if k != d and s[k] != ref[k]:
                raise RuntimeError(
                    f"Sizes of tensors must match except in dimension {d}. Expected size {ref[k]} but "
                    f"got size {s[k]} for tensor number {i} in the list."
                )
    if skipped and STATE.enabled and any(t._rg or t._gfn is not None for t in ts):
        # PyTorch records the skipped ones too (their gradients are empty): as empty pieces
        piece = ref[:d] + (0,) + ref[d + 1:]
        keep = [t.reshape(piece) if t._buf.shape == _EMPTY_1D else t for t in ts]
    if plain is not None:  # the skipped ones took part in the promotion (PyTorch)
        bufs, Rd = plain
        if keep is not ts:
            bufs = [t._buf for t in keep]
        # host operands of the result's dtype, nothing to record: NumPy's concatenate at once
        # (exact, what the cached program runs), without staging a program for every new
        # combination of shapes (a collate_fn's variable-length batches: ~300 us each)
        res = result_tensor(np.concatenate(bufs, axis=d))
        return res if out is None else write_out(out, res, "cat")
    Rd = result_dtype(*ts)

    def fn(*xs):
        return fnp.concatenate([ew.convert_element_type(x, Rd) for x in xs], axis=d)

    res = apply_op("CatBackward0", ("cat", d, Rd), fn, tuple(keep))
    return res if out is None else write_out(out, res, "cat")


concat = concatenate = cat


@_autocast_promote
def stack(tensors: Sequence[Tensor], dim: int = 0, *, out: Tensor | None = None) -> Tensor:
    ts = _seq(tensors, "stack")
    shp = ts[0]._buf.shape
    plain = _plain_host_bufs(ts)
    if plain is not None and shp and type(dim) is int and dim == 0:
        # the common collate: rows of one length one after another.  NumPy's concatenate checks
        # the trailing sizes, ``len`` the leading one (cheaper than reading every ``.shape``)
        bufs, Rd = plain
        r = _stacked_rows(bufs, shp, Rd) if set(map(len, bufs)) == {shp[0]} else None
        if r is not None:
            res = result_tensor(r)
            return res if out is None else write_out(out, res, "stack")
    if len({t._buf.shape for t in ts}) != 1:
        for i, t in enumerate(ts):
            if t._buf.shape != shp:
                raise RuntimeError(
                    f"stack expects each tensor to be equal size, but got {list(shp)} at entry 0 and "
                    f"{list(t._buf.shape)} at entry {i}"
                )
    d = _wrap_dim(dim, len(shp) + 1)
    if plain is not None:
        bufs, Rd = plain
        # as in `cat`: NumPy's stack at once (exact copies), no program staged per count of
        # operands (``default_collate`` of a custom dataset's rows: 64 rows, ~240 -> ~30 us)
        # (d == 0 here: a negative ``dim``; the shapes are equal, so the rows always fit)
        res = result_tensor(_stacked_rows(bufs, shp, Rd) if d == 0 and shp else np.stack(bufs, axis=d))
        return res if out is None else write_out(out, res, "stack")
    Rd = result_dtype(*ts)

    def fn(*xs):
        return fnp.stack([ew.convert_element_type(x, Rd) for x in xs], axis=d)

    res = apply_op("StackBackward0", ("stack", d, Rd), fn, tuple(ts))
    return res if out is None else write_out(out, res, "stack")


def _atleast(t, k):
    while t._buf.ndim < k:
        t = unsqueeze(t, 0) if t._buf.ndim == 0 or k == 2 else unsqueeze(t, -1)
    return t


def atleast_1d(*tensors: Tensor | Sequence[Tensor]) -> Tensor | tuple[Tensor, ...]:
    r = [reshape(t, (1,)) if t._buf.ndim == 0 else t for t in _flat_args(tensors)]
    return r[0] if len(r) == 1 else tuple(r)


def atleast_2d(*tensors: Tensor | Sequence[Tensor]) -> Tensor | tuple[Tensor, ...]:
    r = []
    for t in _flat_args(tensors):
        nd = t._buf.ndim
        r.append(reshape(t, (1,) * (2 - nd) + t._buf.shape) if nd < 2 else t)
    return r[0] if len(r) == 1 else tuple(r)


def atleast_3d(*tensors: Tensor | Sequence[Tensor]) -> Tensor | tuple[Tensor, ...]:
    r = []
    for t in _flat_args(tensors):
        s = t._buf.shape
        if len(s) == 0:
            t = reshape(t, (1, 1, 1))
        elif len(s) == 1:
            t = reshape(t, (1, s[0], 1))
        elif len(s) == 2:
            t = reshape(t, s + (1,))
        r.append(t)
    return r[0] if len(r) == 1 else tuple(r)


def _flat_args(ts):
    if len(ts) == 1 and isinstance(ts[0], (list, tuple)):
        return list(ts[0])
    return list(ts)


def hstack(tensors: Sequence[Tensor], *, out: Tensor | None = None) -> Tensor:
    ts = [atleast_1d(t) for t in _seq(tensors, "hstack")]
    return cat(ts, 0 if ts[0]._buf.ndim == 1 else 1, out=out)


def vstack(tensors: TensorOrTensors, *, out: Tensor | None = None) -> Tensor:
    return cat([atleast_2d(t) for t in _seq(tensors, "vstack")], 0, out=out)


row_stack = vstack


def dstack(tensors: Sequence[Tensor], *, out: Tensor | None = None) -> Tensor:
    return cat([atleast_3d(t) for t in _seq(tensors, "dstack")], 2, out=out)


def column_stack(tensors: Sequence[Tensor], *, out: Tensor | None = None) -> Tensor:
    ts = [reshape(t, (-1, 1)) if t._buf.ndim <= 1 else t for t in _seq(tensors, "column_stack")]
    return cat(ts, 1, out=out)


# ---------------------------------------------------------------------------------------
# copies that move data


def flip(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    b = input._buf
    if isinstance(dims, int):
        dims = (dims,)
    ds = tuple(sorted(_wrap_dim(d, b.ndim) for d in dims)) if b.ndim else ()  # 0-d: dim 0/-1, nothing to flip

    def fn(x):
        return fnp.flip(x, ds) if ds else x

    return apply_op("FlipBackward0", ("flip", ds), fn, (input,))


def fliplr(input: Tensor) -> Tensor:
    return flip(input, (1,))


def flipud(input: Tensor) -> Tensor:
    return flip(input, (0,))


def roll(input: Tensor, shifts: IntOrInts, dims: int | Sequence[int] | None = None) -> Tensor:
    sh = (shifts,) if isinstance(shifts, int) else tuple(shifts)
    ds = None if dims is None else ((dims,) if isinstance(dims, int) else tuple(dims))

    def fn(x):
        return fnp.roll(x, sh if len(sh) > 1 else sh[0], ds)

    return apply_op(
        "RollBackward0",
        ("roll", sh, ds),
        fn,
        (input,),
    )


def rot90(input: Tensor, k: int = 1, dims: int | Sequence[int] = (0, 1)) -> Tensor:
    dims = tuple(dims)

    def fn(x):
        return fnp.rot90(x, k, dims)

    return apply_op("RotBackward0", ("rot90", k, dims), fn, (input,))


def repeat(self: Tensor, *sizes: int | Sequence[int]) -> Tensor:
    sizes = _size_args(sizes, "repeat")
    b = self._buf
    if len(sizes) < b.ndim:
        raise RuntimeError(
            "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor"
        )

    def fn(x):
        return fnp.tile(x, sizes)

    return apply_op("RepeatBackward0", ("repeat", sizes), fn, (self,))


def tile(input: Tensor, dims: int | Sequence[int]) -> Tensor:
    dims = tuple(dims)
    nd = input._buf.ndim
    if len(dims) < nd:
        dims = (1,) * (nd - len(dims)) + dims
    return repeat(input, dims)


def repeat_interleave(input: Tensor, repeats: Tensor | int | None = None, dim: int | None = None, *,
                      output_size: int | None = None) -> Tensor:
    if repeats is None:  # torch.repeat_interleave(repeats)
        r = input._buf
        return result_tensor(np.repeat(np.arange(r.shape[0], dtype=np.int64), r))
    rep = repeats._buf if isinstance(repeats, Tensor) else repeats
    b = input._buf
    if dim is None:
        x = reshape(input, (-1,))
        d = 0
    else:
        x = input
        d = _wrap_dim(dim, b.ndim)
    rep_c = np.asarray(_dev.to_host(rep)).astype(np.int64)
    n = x._buf.shape[d]
    idx = np.repeat(np.arange(n, dtype=np.int64), np.broadcast_to(rep_c, (n,)) if rep_c.ndim == 0 else rep_c)
    return index_select(x, d, result_tensor(idx))


def tril(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor:
    k = int(diagonal)
    res = apply_op(
        "TrilBackward0", ("tril", k), lambda x: fnp.tril(x, k), (input,)
    )
    return res if out is None else write_out(out, res, "tril")


def triu(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor:
    k = int(diagonal)
    res = apply_op(
        "TriuBackward0", ("triu", k), lambda x: fnp.triu(x, k), (input,)
    )
    return res if out is None else write_out(out, res, "triu")


def tril_(self: Tensor, diagonal: int = 0) -> Tensor:
    k = int(diagonal)
    key, b = ("tril", k), self._buf

    def fn(x):
        return fnp.tril(x, k)

    new = run_forward(key, fn, [b], False) if type(b) is _nd else None
    return apply_inplace(self, "TrilBackward0", key, fn, (self,), new)


def triu_(self: Tensor, diagonal: int = 0) -> Tensor:
    k = int(diagonal)
    key, b = ("triu", k), self._buf

    def fn(x):
        return fnp.triu(x, k)

    new = run_forward(key, fn, [b], False) if type(b) is _nd else None
    return apply_inplace(self, "TriuBackward0", key, fn, (self,), new)


def diag(input: Tensor, diagonal: int = 0, *, out: Tensor | None = None) -> Tensor:
    b = input._buf
    k = int(diagonal)
    if b.ndim == 1:
        res = apply_op(
            "DiagEmbedBackward0", ("diag1", k), lambda x: fnp.diag(x, k), (input,)
        )
    elif b.ndim == 2:
        res = apply_op(
            "DiagonalBackward0",
            ("diag2", k),
            lambda x: fnp.diag(x, k),
            (input,),
        )
    else:
        raise RuntimeError("diag(): Supports 1D or 2D tensors. Got " + str(b.ndim) + "D")
    return res if out is None else write_out(out, res, "diag")


def diag_embed(input: Tensor, offset: int = 0, dim1: int = -2, dim2: int = -1) -> Tensor:
    b = input._buf
    n = b.shape[-1] + builtins.abs(offset)
    eye = np.zeros((b.shape[-1], n, n), bool)
    for i in range(b.shape[-1]):
        r, c = (i, i + offset) if offset >= 0 else (i - offset, i)
        eye[i, r, c] = True
    d1, d2 = _wrap_dim(dim1, b.ndim + 1), _wrap_dim(dim2, b.ndim + 1)
    if d1 == d2:
        raise RuntimeError(f"diagonal dimensions cannot be identical {dim1}, {dim2}")
    if (d1, d2) != (b.ndim - 1, b.ndim):  # the matrices on the last two dims, moved to (dim1, dim2)
        return movedim(diag_embed(input, offset), (-2, -1), (d1, d2))

    def fn(x, e):  # (the sum in x's dtype: NumPy's would widen integers and bools)
        return fnp.sum(ew.mul(x[..., :, None, None], ew.convert_element_type(e, x.dtype)), axis=-3,
                       dtype=x.dtype)

    return apply_op(
        "DiagEmbedBackward0",
        ("diag_embed", offset),
        fn,
        (input, eye),
        edges=(0,),
    )


def diagflat(input: Tensor, offset: int = 0) -> Tensor:
    return diag(reshape(input, (-1,)), offset)


@_autocast_fp32
def trace(input: Tensor) -> Tensor:
    b = input._buf
    if b.ndim != 2:
        raise RuntimeError(f"trace: expected a matrix, but got tensor with dim {b.ndim}")
    odt = _i64 if _dtype_kind(b.dtype) in "biu" else b.dtype

    def fn(x):
        return fnp.trace(ew.convert_element_type(x, odt))

    return apply_op(
        "TraceBackward0", ("trace", odt), fn, (input,)
    )


def meshgrid(*tensors: Tensor, indexing: str | None = None) -> tuple[Tensor, ...]:
    ts = _flat_args(tensors)
    if indexing is None:
        _deprecations.warn_once("meshgrid")
    indexing = "ij" if indexing is None else indexing  # (PyTorch's default)
    if indexing not in ("ij", "xy"):
        raise RuntimeError(f'torch.meshgrid: indexing must be one of "xy" or "ij", but received: {indexing}')
    n = len(ts)
    sizes = [t._buf.size for t in ts]
    if indexing == "xy" and n >= 2:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    out = []
    for i, t in enumerate(ts):
        shp = [1] * n
        pos = i
        if indexing == "xy" and n >= 2 and i < 2:
            pos = 1 - i
        shp[pos] = t._buf.size
        out.append(expand(reshape(t, shp), sizes))
    return tuple(out)


def cartesian_prod(*tensors: Tensor) -> Tensor:
    grids = meshgrid(*tensors, indexing="ij")
    if len(grids) == 1:
        return tensors[0]
    return stack([reshape(g, (-1,)) for g in grids], 1)


def block_diag(*tensors: Tensor) -> Tensor:
    ts = [atleast_2d(t) for t in tensors]
    rows = builtins.sum(t._buf.shape[0] for t in ts)
    cols = builtins.sum(t._buf.shape[1] for t in ts)
    Rd = result_dtype(*ts)

    out = zeros(rows, cols, dtype=D.from_np(Rd), device=ts[0].device)
    r = c = 0
    parts = []
    for t_ in ts:
        h, w = t_._buf.shape
        parts.append((r, c, h, w))
        r += h
        c += w
    pieces = list(ts)
    if not builtins.any(tracks_grad(p) for p in pieces) or not STATE.enabled:
        for (r0, c0, h, w), t_ in zip(parts, ts, strict=False):
            out._buf[r0 : r0 + h, c0 : c0 + w] = t_._buf
        return out
    for (r0, c0, h, w), t_ in zip(parts, ts, strict=False):
        setitem(out, (slice(r0, r0 + h), slice(c0, c0 + w)), t_)
    return out


def bucketize(input: Tensor, boundaries: Tensor, *, out_int32: bool = False, right: bool = False) -> Tensor:
    b = input._buf if isinstance(input, Tensor) else np.asarray(input)
    r = np.searchsorted(_sortable(boundaries._buf), _sortable(b), side="right" if right else "left")
    return result_tensor(r.astype(np.int32 if out_int32 else np.int64))


def searchsorted(sorted_sequence: Tensor, input: TensorOrScalar, *, out_int32: bool = False,
                 right: bool = False, side: str | None = None, sorter: Tensor | None = None) -> Tensor:
    s = sorted_sequence._buf
    v = input._buf if isinstance(input, Tensor) else np.asarray(input)
    if type(s) is _nd:  # bfloat16: NumPy's comparisons misplace NaNs
        s, v = _sortable(s), _sortable(v)
    sd = side or ("right" if right else "left")
    srt = None if sorter is None else sorter._buf
    if s.ndim == 1:
        r = np.searchsorted(s, v, side=sd, sorter=srt)
    else:
        r = np.stack([np.searchsorted(s[i], v[i], side=sd, sorter=None if srt is None else srt[i])
                      for i in range(s.shape[0])])
    r = r if type(r) in _DEV else np.asarray(r)
    return result_tensor(r.astype(np.int32 if out_int32 else np.int64))


def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim: int | None = None) -> Tensor | tuple[Tensor, ...]:  # noqa: A002
    b = input._buf
    wide = _sortable(b) if type(b) is _nd else b  # bfloat16: NumPy's sort misplaces NaNs
    # PyTorch keeps every NaN apart (NaN != NaN); NumPy merges them by default
    nan_apart = {"equal_nan": False} if dim is None and type(b) is _nd and wide.dtype.kind in "fc" else {}
    res = np.unique(wide, return_inverse=return_inverse, return_counts=return_counts, axis=dim, **nan_apart)
    if wide is not b:
        res = (res[0].astype(b.dtype), *res[1:]) if isinstance(res, tuple) else res.astype(b.dtype)
    if not (return_inverse or return_counts):
        return result_tensor(res)
    out = [result_tensor(res[0])]
    k = 1
    if return_inverse:
        out.append(result_tensor(res[k].reshape(b.shape if dim is None else -1).astype(np.int64)))
        k += 1
    if return_counts:
        out.append(result_tensor(res[k].astype(np.int64)))
    return tuple(out)


def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False,
                       dim: int | None = None) -> Tensor | tuple[Tensor, ...]:
    b = input._buf.reshape(-1)
    if b.size == 0:
        return result_tensor(b.copy())
    change = np.concatenate([[True], b[1:] != b[:-1]])
    vals = b[change]
    out = [result_tensor(vals)]
    if return_inverse:
        out.append(result_tensor((np.cumsum(change) - 1).reshape(input._buf.shape).astype(np.int64)))
    if return_counts:
        idx = np.flatnonzero(change)
        out.append(result_tensor(np.diff(np.append(idx, b.size)).astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


def bincount(input: Tensor, weights: Tensor | None = None, minlength: int = 0) -> Tensor:
    w = None if weights is None else weights._buf
    r = np.bincount(input._buf, w, minlength)
    if w is not None and w.dtype == np.float32:  # PyTorch: float32 weights sum in float32, others float64
        r = r.astype(np.float32)
    return result_tensor(r)


def histc(input: Tensor, bins: int = 100, min: Number = 0, max: Number = 0) -> Tensor:  # noqa: A002
    b = input._buf
    kind = _dtype_kind(b.dtype)
    if kind != "f":  # PyTorch's kernels refuse what NumPy would silently count
        legacy = input.dtype._legacy
        kernel = {"b": "linspace_cpu", "c": "aminmax_cpu"}.get(kind, "histogram_cpu")
        raise NotImplementedError(f"\"{kernel}\" not implemented for '{legacy}'")
    lo, hi = float(min), float(max)
    if lo == hi:
        lo, hi = float(b.min()), float(b.max())
    h, _ = np.histogram(b, bins=bins, range=(lo, hi))
    return result_tensor(h.astype(b.dtype))


_ = (can_cast, scalar_type_name, standin, is_functional)
