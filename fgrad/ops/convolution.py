"""``conv_general_dilated``: N-d convolution with lax semantics, one primitive.

The forward pass is im2col + GEMM: the (dilated, padded) input's windows are a strided view
(no copy) of shape ``(N, C, *out, *kernel)``; one reshape gathers them into a patch matrix
per feature group and one batched ``matmul`` contracts it with the kernel.  The operation is
bilinear, so its JVP is two convolutions and its transposes are convolutions too (the lhs
transpose convolves the cotangent with the spatially flipped kernel, input and kernel roles
of stride and lhs dilation swapped; the rhs transpose convolves the input with the
cotangent, batch and feature axes swapped) -- no scatter-add anywhere.  ``vmap`` folds the
mapped axis into the batch axis (lhs only) or into feature groups (rhs, or both), as JAX
does.

Layouts are given by dimension numbers: ``lhs_spec = (batch, feature, *spatial)``,
``rhs_spec = (out_feature, in_feature, *spatial)``, ``out_spec = (batch, feature,
*spatial)``, each a tuple of axis positions (`ConvDimensionNumbers`); strings such as
``("NCHW", "OIHW", "NCHW")`` are converted by `conv_dimension_numbers`.

Example::

    >>> import fgrad.numpy as fnp
    >>> x, w = fnp.ones((1, 1, 4, 4)), fnp.ones((1, 1, 3, 3))
    >>> conv_general_dilated(x, w, (1, 1), "VALID").shape
    (1, 1, 2, 2)
"""

from __future__ import annotations

from typing import Any
from ..typing import Array, ArrayLike, DTypeLike, Shape

import functools
import math
from collections.abc import Sequence
from typing import NamedTuple, Union

import numpy as np
from ..core.narrow_floats import float32 as F32, is_narrow, promote_types

from ..core.array import ShapedArray, get_aval
from ..core import native_pad as _native_pad
from ..core import native_shift_add as _native_shift_add
from ..core import native_strided_copy as _native_strided_copy
from ..core.host_pool import empty as pooled_empty
from ..core.primitive import Primitive
from ..core.quiet import quiet
from ..core.rules import defbatch, defbilinear
from .elementwise import convert_element_type
from .linalg import widen_to_preferred
from .shape import moveaxis, reshape, transpose
from .structural import rev


class ConvDimensionNumbers(NamedTuple):
    """Axis positions of each operand's dimensions: ``lhs_spec = (batch, feature,
    *spatial)``, ``rhs_spec = (out_feature, in_feature, *spatial)``, ``out_spec = (batch,
    feature, *spatial)``.

    Example::

        >>> ConvDimensionNumbers((0, 1, 2), (0, 1, 2), (0, 1, 2)).lhs_spec
        (0, 1, 2)
    """

    lhs_spec: tuple
    rhs_spec: tuple
    out_spec: tuple


# what the ``dimension_numbers`` arguments accept: the named tuple, a triple of layout strings
# such as ``("NHWC", "HWIO", "NHWC")``, or None (``NC...``/``OI...`` layouts)
ConvGeneralDilatedDimensionNumbers = Union[ConvDimensionNumbers, tuple[str, str, str], None]


def _spec_from_string(s: str, batch: str, feature: str, op: str) -> tuple:
    if batch not in s or feature not in s:
        raise ValueError(f"{op}: dimension spec {s!r} must contain {batch!r} and {feature!r}")
    return (s.index(batch), s.index(feature)) + tuple(i for i, c in enumerate(s) if c not in (batch, feature))


def conv_dimension_numbers(lhs_shape: Shape, rhs_shape: Shape,
                           dimension_numbers: ConvGeneralDilatedDimensionNumbers) -> ConvDimensionNumbers:
    """Normalize ``dimension_numbers`` (None, a `ConvDimensionNumbers`, or a triple of strings
    like ``("NHWC", "HWIO", "NHWC")`` or of int specs) for operands of these shapes.

    Spatial dimensions are matched by their order in the rhs string: the rhs's first
    non-``O``/``I`` letter pairs with the same letter in the lhs and output strings.

    Example::

        >>> conv_dimension_numbers((1, 5, 5, 3), (3, 3, 3, 8), ("NHWC", "HWIO", "NHWC"))
        ConvDimensionNumbers(lhs_spec=(0, 3, 1, 2), rhs_spec=(3, 2, 0, 1), out_spec=(0, 3, 1, 2))
    """
    nd = len(lhs_shape)
    if len(rhs_shape) != nd:
        raise TypeError(
            f"conv_general_dilated: lhs and rhs must have the same rank, got lhs shape "
            f"{tuple(lhs_shape)} and rhs shape {tuple(rhs_shape)}"
        )
    if nd < 2:
        raise TypeError(f"conv_general_dilated: operands need rank >= 2, got shape {tuple(lhs_shape)}")
    if dimension_numbers is None:
        iota = tuple(range(nd))
        return ConvDimensionNumbers(iota, iota, iota)
    if isinstance(dimension_numbers, ConvDimensionNumbers):
        specs = tuple(tuple(int(a) for a in s) for s in dimension_numbers)
    else:
        try:
            lhs, rhs, out = dimension_numbers
        except (TypeError, ValueError):
            raise TypeError(
                "conv_general_dilated: dimension_numbers must be None, a ConvDimensionNumbers "
                f"or a (lhs, rhs, out) triple, got {dimension_numbers!r}"
            ) from None
        if all(isinstance(s, str) for s in (lhs, rhs, out)):
            for s in (lhs, rhs, out):
                if len(s) != nd:
                    raise TypeError(
                        f"conv_general_dilated: dimension spec {s!r} does not match operand rank {nd}"
                    )
            if sorted(lhs) != sorted(out) or set(lhs) - set("NC") != set(rhs) - set("OI"):
                raise TypeError(f"conv_general_dilated: inconsistent dimension specs {dimension_numbers!r}")
            rs = _spec_from_string(rhs, "O", "I", "conv_general_dilated")
            spatial = [rhs[i] for i in rs[2:]]
            ls = (lhs.index("N"), lhs.index("C")) + tuple(lhs.index(c) for c in spatial)
            os_ = (out.index("N"), out.index("C")) + tuple(out.index(c) for c in spatial)
            specs = (ls, rs, os_)
        else:
            specs = tuple(tuple(int(a) for a in s) for s in (lhs, rhs, out))
    for s in specs:
        if sorted(s) != list(range(nd)):
            raise TypeError(
                f"conv_general_dilated: dimension numbers {specs} are not permutations of range({nd})"
            )
    return ConvDimensionNumbers(*specs)


def _dilate(size: int, d: int) -> int:
    return 0 if size == 0 else 1 + d * (size - 1)


def padtype_to_pads(in_shape: Shape, window_shape: Shape, window_strides: Sequence[int],
                    padding: str) -> tuple:
    """Explicit ``(lo, hi)`` pads for ``'SAME'``, ``'SAME_LOWER'`` or ``'VALID'`` (lax's rule:
    the output size is ``ceil(in / stride)`` for SAME; SAME puts the odd pad at the end).

    Example::

        >>> padtype_to_pads((5,), (3,), (2,), "SAME")
        ((1, 1),)
    """
    p = padding.upper()
    if p == "VALID":
        return tuple((0, 0) for _ in in_shape)
    if p not in ("SAME", "SAME_LOWER"):
        raise ValueError(
            f"conv_general_dilated: unknown padding {padding!r}; use 'SAME', 'SAME_LOWER', "
            "'VALID' or a sequence of (low, high) pairs"
        )
    pads = []
    for n, k, s in zip(in_shape, window_shape, window_strides):
        out = -(-n // s)
        total = max(0, (out - 1) * s + k - n)
        small, big = total // 2, total - total // 2
        pads.append((small, big) if p == "SAME" else (big, small))
    return tuple(pads)


def _ints(v, n: int, name: str) -> tuple:
    if v is None:
        return (1,) * n
    t = tuple(int(a) for a in v)
    if len(t) != n:
        raise TypeError(
            f"conv_general_dilated: {name} must have {n} entries (one per spatial dimension), got {tuple(v)}"
        )
    if any(a < 1 for a in t):
        raise ValueError(f"conv_general_dilated: {name} must be positive, got {t}")
    return t


# -- the implementation: canonical layout, strided windows, one matmul ---------------------


def window_view(xp, x, window: tuple, strides: tuple, dilation: tuple, out: tuple, first: int):
    """Strided view of ``x``'s windows over the axes ``first, first+1, ...``: the result has
    shape ``x.shape[:first] + out + window`` (no copy)."""
    lead = x.shape[:first]
    st = x.strides
    shape = lead + tuple(out) + tuple(window)
    nd = len(window)
    strides_ = (
        st[:first]
        + tuple(st[first + i] * strides[i] for i in range(nd))
        + tuple(st[first + i] * dilation[i] for i in range(nd))
    )
    return xp.lib.stride_tricks.as_strided(x, shape=shape, strides=strides_)


def _matmul(xp, a, b, out=None):
    """``xp.matmul(a, b)`` for the batched products here, whose batch axes broadcast.  cupy
    (14) then builds per-matrix pointers with an unsigned kernel from the batch strides, and
    raises ``OverflowError`` on a negative one; ``ascontiguousarray`` leaves those on size-1
    axes (a flipped kernel reshaped), which count as contiguous.  Such axes get stride 0 (a
    view: the stride of a size-1 axis is never used).  ``out``: where to write the product
    (a recycled array, see `_copy`)."""
    a, b = _unit_strides_nonnegative(xp, a), _unit_strides_nonnegative(xp, b)
    return xp.matmul(a, b) if out is None else xp.matmul(a, b, out=out)


def _copy(xp, x):
    """A C-contiguous copy of ``x`` (a strided window view), into a recycled array on the host
    (`core.host_pool`): the patches of a training step's convolutions are megabytes that a new
    array would page-fault in on every call.  On the host one native pass
    (`core.native_strided_copy`; NumPy copies a window view one short row at a time)."""
    buf = pooled_empty(xp, x.shape, x.dtype)
    if xp is not np or not _native_strided_copy.copy_strided(x, buf):
        buf[...] = x
    return buf


def _unit_strides_nonnegative(xp, x):
    if all(s >= 0 or n != 1 for n, s in zip(x.shape, x.strides)):
        return x
    strides = tuple(0 if n == 1 else s for n, s in zip(x.shape, x.strides))
    return xp.lib.stride_tricks.as_strided(x, shape=x.shape, strides=strides)


def dilate_and_pad(xp, x, first: int, dilation: tuple, padding: tuple, fill=0, tail: int = 0):
    """``x`` with ``dilation - 1`` fill values between elements and ``padding`` (negative:
    cropping) on the axes from ``first`` on: one allocation and one strided copy.  ``tail``:
    the result is a C-contiguous view at the start of a buffer with that many more elements,
    holding ``fill`` (for strided views that read a little past its end, `_wide_windows`)."""
    if tail == 0 and all(d == 1 for d in dilation) and all(lo == 0 and hi == 0 for lo, hi in padding):
        return x
    shape, dst, src = list(x.shape[:first]), [slice(None)] * first, [slice(None)] * first
    empty = False
    for a, (d, (lo, hi)) in enumerate(zip(dilation, padding)):
        n = x.shape[first + a]
        size = max(_dilate(n, d) + lo + hi, 0)
        shape.append(size)
        j0 = max(0, -(lo // d))  # the first element at a position >= 0
        j1 = min(n - 1, (size - 1 - lo) // d)  # the last element inside
        empty = empty or j1 < j0
        dst.append(slice(lo + j0 * d, lo + j1 * d + 1, d))
        src.append(slice(j0, j1 + 1))
    if empty and not tail:
        return xp.full(tuple(shape), fill, dtype=x.dtype)
    size = math.prod(shape)
    if xp is np and len(padding) == 2 and first == x.ndim - 2 and tuple(dilation) == (1, 1) and not empty:
        # two spatial axes padded, not dilated: one native pass (`core.native_pad`), same values
        flat = pooled_empty(xp, (size + tail,), x.dtype)
        if _native_pad.pad_planes(x, flat, padding, fill):
            return flat[:size].reshape(shape)
    if tail:
        z = pooled_empty(xp, (size + tail,), x.dtype)
        z[...] = fill
        z = z[:size].reshape(shape)
    else:
        z = pooled_empty(xp, tuple(shape), x.dtype)
        z[...] = fill
    if not empty:
        z[tuple(dst)] = x[tuple(src)]
    return z


def _inverse(perm) -> tuple:
    inv = [0] * len(perm)
    for i, p in enumerate(perm):
        inv[p] = i
    return tuple(inv)


def _out_spatial(lhs_sp, rhs_sp, strides, padding, lhs_dilation, rhs_dilation) -> tuple:
    out = []
    for n, k, s, (lo, hi), ld, rd in zip(lhs_sp, rhs_sp, strides, padding, lhs_dilation, rhs_dilation):
        span = _dilate(n, ld) + lo + hi - _dilate(k, rd)
        out.append(max(0, span // s + 1) if span >= 0 else 0)
    return tuple(out)


def _conv_impl(
    xp,
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
    keep=False,
):
    lspec, rspec, ospec = dimension_numbers
    x = lhs.transpose(lspec) if lspec != tuple(range(lhs.ndim)) else lhs  # (N, C, *S)
    w = rhs.transpose(rspec) if rspec != tuple(range(rhs.ndim)) else rhs  # (O, I, *K)
    dt = promote_types(x.dtype, w.dtype)
    if is_narrow(dt):  # accumulate in float32 and round once, as JAX and PyTorch do
        res = _conv_impl(xp, lhs.astype(F32), rhs.astype(F32), window_strides=window_strides,
                          padding=padding,
                          lhs_dilation=lhs_dilation, rhs_dilation=rhs_dilation,
                          dimension_numbers=dimension_numbers, feature_group_count=feature_group_count,
                          batch_group_count=batch_group_count).astype(dt)
        return (res, None) if keep else res
    x, w = x.astype(dt, copy=False), w.astype(dt, copy=False)
    nd = x.ndim - 2
    if _prefer_swapped(x.shape, w.shape, window_strides, padding, lhs_dilation, rhs_dilation,
                       feature_group_count, batch_group_count):
        res = _conv_swapped(xp, x, w, padding, lhs_dilation)
        return _out_layout(xp, res, ospec, keep, None)
    if batch_group_count == 1 and _prefer_shift_add(
        x.shape, w.shape, window_strides, padding, lhs_dilation, rhs_dilation, feature_group_count
    ):
        res = _conv_shift_add(
            xp, x, w, window_strides, padding, lhs_dilation, rhs_dilation, feature_group_count
        )
        return _out_layout(xp, res, ospec, keep, None)
    if _wide_rows(xp, x.shape, w.shape, window_strides, padding, lhs_dilation, rhs_dilation,
                  feature_group_count, batch_group_count):
        res, patches = _wide_rows_product(xp, x, w, padding, lhs_dilation, rhs_dilation, keep)
        return _out_layout(xp, res, ospec, keep, patches)
    x = dilate_and_pad(xp, x, 2, lhs_dilation, padding)
    kernel = w.shape[2:]
    out = _out_spatial(x.shape[2:], kernel, window_strides, ((0, 0),) * nd, (1,) * nd, rhs_dilation)
    n, c = x.shape[:2]
    o, i = w.shape[:2]
    kn, p = math.prod(kernel), math.prod(out)
    v = window_view(xp, x, kernel, window_strides, rhs_dilation, out, 2)  # (N, C, *out, *K)
    sp = tuple(range(3, 3 + nd))
    ks = tuple(range(3 + nd, 3 + 2 * nd))
    # groups: feature groups split C (lhs) and O (rhs); batch groups split N (lhs) and O (rhs)
    if batch_group_count == 1:
        g, nb, cg = feature_group_count, n, i
        v = v.reshape((n, g, i) + out + kernel)  # (N, G, I, *out, *K): splitting an axis is free
        lead = (0, 1)  # (Nb, G)
    else:
        g, nb, cg = batch_group_count, n // batch_group_count, c
        v = v.reshape((g, nb, c) + out + kernel)
        lead = (1, 0)
    og = o // g
    patches = None
    if _rows_layout(cg, kn, p):
        # patches as columns (Nb, G, I*K, P), a few images at a time: the copy runs along
        # output rows and the product lands in (Nb, O, *out) order directly.  Kept for the
        # weight gradient (`conv_from_patches`) in its layout, (C*K, N*P)
        kept = keep and g == 1 and batch_group_count == 1
        res, patches = _rows_product(xp, v.transpose(lead + (2,) + ks + sp), w, out, kept)
    elif _per_feature(g, batch_group_count, i, kn):
        # a weight gradient (few output positions, a long kernel: the forward's output
        # plane): the forward's patch matrix as (B*Q, I*K) -- the forward convolution's
        # (C*K, N*P) -- and one product over all of I*K
        cols = _copy(xp, v.transpose((0, 1) + sp + (2,) + ks)).reshape(n * p, i * kn)
        res = per_feature_product(xp, cols, w, out)
    else:
        w3 = (w if w.flags.c_contiguous else _copy(xp, w)).reshape(g, og, cg * kn)
        # few output positions (a weight gradient): one GEMM per group over Nb*P rows
        cols = _copy(xp, v.transpose((lead[1],) + (lead[0],) + sp + (2,) + ks)).reshape(g, nb * p, cg * kn)
        res = _matmul(xp, cols, w3.transpose(0, 2, 1))  # (G, Nb*P, Og)
        res = res.reshape((g, nb, p, og)).transpose(1, 0, 3, 2).reshape((nb, o) + out)
    return _out_layout(xp, res, ospec, keep, patches)


def _prefer_swapped(xs, ws, strides, padding, lhs_dilation, rhs_dilation, groups, batch_groups) -> bool:
    """Whether `_conv_impl` runs a convolution with a dilated lhs as `_conv_swapped`: unit
    window strides, an undilated kernel, one group, and fewer output positions than kernel
    positions (the weight gradient of a transposed convolution, whose kernel is a
    cotangent): the swapped convolution multiplies only the lhs's real elements, where
    im2col would copy the inserted zeros and shift-and-add would form a product per kernel
    position."""
    if groups != 1 or batch_groups != 1 or all(d == 1 for d in lhs_dilation):
        return False
    if any(s != 1 for s in strides) or any(d != 1 for d in rhs_dilation):
        return False
    out = _out_spatial(xs[2:], ws[2:], strides, padding, lhs_dilation, rhs_dilation)
    return min(out) > 0 and math.prod(out) < math.prod(ws[2:])


def _conv_swapped(xp, x, w, padding, lhs_dilation):
    """The convolution of ``x`` (N, C, *S) dilated by ``lhs_dilation`` and padded, with ``w``
    (O, C, *K), unit strides, as a convolution of ``w`` (batch O, features C) with ``x`` as
    its kernel (outputs N), dilated by ``lhs_dilation`` instead, read backwards: per axis,
    ``out[p] = sum_q x[q] w[lo + s q - p] = rev(corr(pad(w, P-1-lo, P-1-hi), x dilated by
    s))[p]`` (``P`` output positions).  The same products, without the inserted zeros.

    Example::

        >>> import numpy as np
        >>> x, w = np.arange(3.0).reshape(1, 1, 3), np.arange(4.0).reshape(1, 1, 4)
        >>> _conv_swapped(np, x, w, ((1, 1),), (2,)).tolist()  # x dilated: [0 0 0 1 0 2 0]
        [[[3.0, 2.0, 7.0, 4.0]]]
    """
    nd = x.ndim - 2
    out = _out_spatial(x.shape[2:], w.shape[2:], (1,) * nd, padding, lhs_dilation, (1,) * nd)
    pads = tuple((p - 1 - lo, p - 1 - hi) for p, (lo, hi) in zip(out, padding))
    res = _conv_impl(xp, w, x, window_strides=(1,) * nd, padding=pads, lhs_dilation=(1,) * nd,
                     rhs_dilation=tuple(lhs_dilation), dimension_numbers=(tuple(range(nd + 2)),) * 3,
                     feature_group_count=1, batch_group_count=1)  # (O, N, *out), reversed
    return res.transpose((1, 0) + tuple(range(2, nd + 2)))[(slice(None),) * 2 + (slice(None, None, -1),) * nd]


def _rows_layout(cg: int, kn: int, p: int) -> bool:
    """Whether a convolution copies its patches as columns (`_rows_product`): many output
    positions, or few features times kernel positions for them."""
    return p >= _ROWS_LAYOUT_MIN_P or p * 4 >= cg * kn


def _wide_rows(xp, xs, ws, strides, padding, lhs_dilation, rhs_dilation, groups, batch_groups) -> bool:
    """Whether `_conv_impl` takes `_wide_rows_product`: a host convolution of the columns
    layout with unit window strides, one group and at least two spatial axes."""
    if xp is not np or groups != 1 or batch_groups != 1 or len(xs) < 4:
        return False
    if any(s != 1 for s in strides):
        return False
    padded = tuple(_dilate(n, d) + lo + hi for n, d, (lo, hi) in zip(xs[2:], lhs_dilation, padding))
    out = _out_spatial(padded, ws[2:], strides, ((0, 0),) * len(padded), (1,) * len(padded), rhs_dilation)
    return min(out) > 0 and _rows_layout(ws[1], math.prod(ws[2:]), math.prod(out))


def _wide_rows_product(xp, x, w, padding, lhs_dilation, rhs_dilation, keep=False):
    """`_rows_product` for unit window strides, (N, O, *out), on *wide* rows: output row
    ``r`` of image ``n`` is computed at every position of the padded input's row, ``(r,
    *padded[1:])``, so that each patch row (feature ``c``, kernel offset ``k``) is one
    contiguous run of the padded input, ``xpad[n, c].flat[off(k) : off(k) + out[0] *
    prod(padded[1:])]``; the copy moves long runs instead of ``out[-1]``-long pieces.  The
    positions past ``out`` on the inner axes are computed and dropped (each output column is
    its own dot product over the same terms in the same order as in `_rows_product`; the
    BLAS may block a longer row differently, so they can differ from that layout's in the
    last bits).  The padded input gets a zero tail for the dropped positions of the last
    plane to read.  Returns ``(result, patches)``: with ``keep``, the products run on one
    wide patch matrix and ``patches`` is the plain (C*K, N*P) one copied out of it (for
    `per_feature_product`, the weight gradient), so a compiled program that keeps its
    patches computes the very numbers an eager call does; else ``patches`` is None.

    Example::

        >>> import numpy as np
        >>> x, w = np.ones((1, 1, 3, 3)), np.ones((1, 1, 2, 2))
        >>> _wide_rows_product(np, x, w, ((0, 0), (0, 0)), (1, 1), (1, 1))[0][0, 0].tolist()
        [[4.0, 4.0], [4.0, 4.0]]
    """
    kernel = w.shape[2:]
    nd = len(kernel)
    # the flat steps of the padded plane's axes, and how far past a plane a dropped position reads
    padded = tuple(_dilate(n, d) + lo + hi for n, d, (lo, hi) in zip(x.shape[2:], lhs_dilation, padding))
    out = _out_spatial(padded, kernel, (1,) * nd, ((0, 0),) * nd, (1,) * nd, rhs_dilation)
    steps = tuple(math.prod(padded[a + 1:]) for a in range(nd))
    tail = sum((k - 1) * d * st for k, d, st in zip(kernel[1:], rhs_dilation[1:], steps[1:]))
    z = dilate_and_pad(xp, x, 2, lhs_dilation, padding, tail=tail)
    if tail == 0:  # nothing read past the end: an unpadded ``x`` serves as it is, C-ordered
        z = xp.ascontiguousarray(z)
    n, c = x.shape[:2]
    plane, wide = math.prod(padded), out[0] * steps[0]
    e = z.itemsize
    windows = xp.lib.stride_tricks.as_strided(  # (N, G=1, C, *K, wide): a view into z and its tail
        z, shape=(n, 1, c) + tuple(kernel) + (wide,),
        strides=(c * plane * e, c * plane * e, plane * e)
        + tuple(d * st * e for d, st in zip(rhs_dilation, steps)) + (e,))
    res, wide_patches = _rows_product(xp, windows, w, (wide,), keep)  # (N, O, wide), (C*K, N*wide)
    inner = (slice(None),) * 3 + tuple(slice(0, m) for m in out[1:])
    res = res.reshape((n, w.shape[0], out[0]) + padded[1:])[inner]
    if not keep:
        return res, None
    ck = wide_patches.shape[0]
    patches = pooled_empty(xp, (ck, n * math.prod(out)), z.dtype)
    patches.reshape((ck, n) + out)[...] = wide_patches.reshape((ck, n, out[0]) + padded[1:])[inner]
    return res, patches


def _out_layout(xp, res, ospec, keep, cols):
    if ospec != tuple(range(res.ndim)):
        res = res.transpose(_inverse(ospec))
    res = xp.ascontiguousarray(res)
    return (res, cols) if keep else res


def _rows_product(xp, windows, w, out, keep=False):
    """The forward-style product, (Nb, O, *out): kernel ``w`` (O, I, *K) times the patches
    ``windows`` (Nb, G, I, *K, *out; a strided view of the input), copied a few images at a
    time into one recycled block of about ``_CHUNK_BYTES`` on the host: the block stays in
    the core's cache between its copy and its product, where the whole patch matrix
    (megabytes) would go out to memory and back.
    Each image's product is the same GEMM as in one batched call, so the numbers are the
    same bit for bit.  Returns ``(result, patches)``: with ``keep`` (one group) the blocks
    are the parts of one patch matrix laid out (I*K, Nb*P) for the weight gradient
    (`per_feature_product`), else ``patches`` is None.

    Example::

        >>> import numpy as np
        >>> windows = np.ones((3, 1, 2, 4, 5))  # (Nb, G, I, K, P)
        >>> res, _ = _rows_product(np, windows, np.ones((6, 2, 4)), (5,))
        >>> res[0, 0].tolist()
        [8.0, 8.0, 8.0, 8.0, 8.0]
    """
    nb, g = windows.shape[:2]
    nk = windows.ndim - 2 - len(out)  # the feature axis and the kernel's
    ck, p = math.prod(windows.shape[2:2 + nk]), math.prod(out)
    b = max(1, _CHUNK_BYTES // (g * ck * p * windows.itemsize)) if xp is np else nb
    o = w.shape[0]
    w3 = (w if w.flags.c_contiguous else _copy(xp, w)).reshape(g, o // g, ck)
    res = pooled_empty(xp, (nb, g, o // g, p), windows.dtype)
    patches = None
    if keep:  # memory order (I, *K, Nb, G, *out): the blocks are strided views into it
        patches = pooled_empty(xp, (ck, nb * g * p), windows.dtype)
        lay = patches.reshape(windows.shape[2:2 + nk] + (nb, g) + tuple(out))
        dst = lay.transpose((nk, nk + 1) + tuple(range(nk)) + tuple(range(nk + 2, lay.ndim)))
        cols_all = patches.reshape(ck, nb, g, p).transpose(1, 2, 0, 3)
    else:
        block = pooled_empty(xp, (min(b, nb),) + windows.shape[1:], windows.dtype)
    for s in range(0, nb, b):
        e = min(nb, s + b)
        if keep:
            dst[s:e] = windows[s:e]
            cols = cols_all[s:e]
        else:
            cols = block[: e - s]
            cols[...] = windows[s:e]
            cols = cols.reshape(e - s, g, ck, p)
        _matmul(xp, w3, cols, res[s:e])
    return res.reshape((nb, o) + tuple(out)), patches


_CHUNK_BYTES = 1 << 20  # patch block per product: in a core's cache (L2 + some L3)
_PER_FEATURE_MIN_K = 64  # kernel positions per product: shorter ones are one GEMM over all
_PER_FEATURE_MAX_I = 1024  # features: with few patch rows, that many small GEMMs


def _per_feature(g: int, batch_groups: int, i: int, kn: int) -> bool:
    """Whether a convolution with few output positions (a weight gradient) runs on the
    forward's patch matrix (`per_feature_product`)."""
    return g == 1 and batch_groups == 1 and kn >= _PER_FEATURE_MIN_K and i <= _PER_FEATURE_MAX_I


def per_feature_product(xp, cols, w, out):
    """``res[b, o, q] = sum_i sum_k cols[b*Q + q, i*K + k] * w[o, i, k]``: one GEMM over the
    whole ``I*K`` (``w`` as (O, I*K) times ``cols`` transposed).  ``cols`` (B*Q, I*K) is the
    forward convolution's patch matrix (C*K, N*P) when this is its weight gradient (the sum
    runs over the batch and the output positions), so a compiled program can hand that
    matrix over (`conv_from_patches`) instead of copying the patches again.  Returns
    (B, O, *out).

    Example::

        >>> import numpy as np
        >>> cols, w = np.ones((3, 8)), np.ones((5, 2, 4))
        >>> per_feature_product(np, cols, w, (3,)).shape
        (1, 5, 3)
    """
    bq = cols.shape[0]
    o, i = w.shape[:2]
    if w.flags.c_contiguous or bq >= _ONE_GEMM_MIN_ROWS:
        w2 = (w if w.flags.c_contiguous else _copy(xp, w)).reshape(o, -1)  # (O, I*K)
        # (O, B*Q) as the transpose of ``cols @ w2.T``: the same products summed in the same
        # order (bit for bit), but OpenBLAS runs a GEMM with few rows (O) and a long sum
        # (the whole batch) up to 2x slower than its transpose with few columns
        res = _matmul(xp, cols, w2.T, pooled_empty(xp, (bq, o), cols.dtype)).T
    else:
        # few patch rows: copying ``w`` (a cotangent, batch-major) would cost more than one
        # long GEMM saves; one GEMM per feature over the column blocks of ``cols``, summed
        kn = cols.shape[1] // i
        w3 = w.reshape(o, i, kn).transpose(1, 0, 2)  # (I, O, K)
        blocks = cols.reshape(bq, i, kn).transpose(1, 2, 0)  # (I, K, B*Q): strided, no copy
        res = xp.add.reduce(_matmul(xp, w3, blocks, pooled_empty(xp, (i, o, bq), cols.dtype)), axis=0)
    q = math.prod(out)
    res = res.reshape((o, bq // q) + tuple(out))
    return res.transpose((1, 0) + tuple(range(2, res.ndim)))


_ONE_GEMM_MIN_ROWS = 64  # patch rows (C*K) from which one GEMM pays for copying the cotangent


def patch_key(lhs_shape, rhs_shape, dtype, params) -> tuple | None:
    """What the host implementation's patch matrix of a convolution is, for a compiled
    program to share one matrix between a forward convolution and its weight gradient
    (same lhs): ``("rows", key, out)`` for a convolution that copies its lhs into the forward's
    patches and can keep them as (C*K, N*P) (`conv_keeping_patches`), ``("features", key,
    out)`` for one that copies the same matrix as (B*Q, I*K) (`conv_from_patches`), None
    otherwise.  Equal keys on the same lhs array mean equal matrices: the same lhs axes as
    batch and feature, padding, dilation, and window positions and steps (a weight
    gradient's outputs are the forward's kernel offsets, its kernel the forward's outputs).
    ``out``: the convolution's output extents.

    Example::

        >>> import numpy as np
        >>> p = dict(window_strides=(1, 1), padding=((1, 1), (1, 1)), lhs_dilation=(1, 1),
        ...          rhs_dilation=(1, 1), feature_group_count=1, batch_group_count=1,
        ...          dimension_numbers=ConvDimensionNumbers((0, 1, 2, 3), (0, 1, 2, 3), (0, 1, 2, 3)))
        >>> patch_key((8, 4, 16, 16), (8, 4, 3, 3), np.dtype(np.float32), p)[0]
        'rows'
    """
    lspec, rspec, _ = params["dimension_numbers"]
    if params["feature_group_count"] != 1 or params["batch_group_count"] != 1 or is_narrow(dtype):
        return None
    xs = tuple(lhs_shape[a] for a in lspec)
    ws = tuple(rhs_shape[a] for a in rspec)
    strides, padding = tuple(params["window_strides"]), tuple(map(tuple, params["padding"]))
    ld, rd = tuple(params["lhs_dilation"]), tuple(params["rhs_dilation"])
    if _prefer_shift_add(xs, ws, strides, padding, ld, rd, 1):
        return None
    padded = tuple(_dilate(n, d) + lo + hi for n, d, (lo, hi) in zip(xs[2:], ld, padding))
    out = _out_spatial(padded, ws[2:], strides, ((0, 0),) * len(padded), (1,) * len(padded), rd)
    kn, p = math.prod(ws[2:]), math.prod(out)
    geometry = (tuple(lspec[2:]), padding, ld, str(np.dtype(dtype)))
    if _rows_layout(ws[1], kn, p):
        # patches (C, K, N, P): lhs axis N, C; offsets K stepping rd, positions P stepping strides
        return "rows", (lspec[0], lspec[1]) + geometry + (tuple(ws[2:]), rd, out, strides), out
    if _per_feature(1, 1, ws[1], kn):
        # patches (B, Q, I, K): lhs axis I plays N and B plays C; outputs Q are the offsets
        return "features", (lspec[1], lspec[0]) + geometry + (out, strides, tuple(ws[2:]), rd), out
    return None


def conv_keeping_patches(xp, lhs, rhs, **params):
    """The host convolution (a ``rows`` `patch_key`) and its patch matrix, ``(result,
    patches)``: a compiled program keeps the patches for the weight gradient
    (`conv_from_patches`).  ``patches`` is None where the implementation made none.

    Example::

        >>> import numpy as np
        >>> p = dict(window_strides=(1,), padding=((0, 0),), lhs_dilation=(1,), rhs_dilation=(1,),
        ...          feature_group_count=1, batch_group_count=1,
        ...          dimension_numbers=ConvDimensionNumbers((0, 1, 2), (0, 1, 2), (0, 1, 2)))
        >>> res, patches = conv_keeping_patches(np, np.ones((2, 3, 70)), np.ones((4, 3, 3)), **p)
        >>> res.shape, patches.shape
        ((2, 4, 68), (9, 136))
    """
    return _conv_impl(xp, lhs, rhs, keep=True, **params)


def conv_from_patches(xp, patches, lhs, rhs, *, out, **params):
    """The host convolution of a ``features`` `patch_key` (``out``: its output extents)
    given the patch matrix of its lhs that the forward convolution made
    (`conv_keeping_patches`): what `_conv_impl` computes after copying that matrix itself,
    and `_conv_impl` where there is none.

    Example::

        >>> import numpy as np
        >>> x, g = np.ones((2, 3, 70)), np.ones((2, 4, 68))  # g: a cotangent of the above
        >>> p = dict(window_strides=(1,), padding=((0, 0),), lhs_dilation=(1,), rhs_dilation=(1,),
        ...          feature_group_count=1, batch_group_count=1,
        ...          dimension_numbers=ConvDimensionNumbers((1, 0, 2), (1, 0, 2), (1, 0, 2)))
        >>> conv_from_patches(np, None, x, g, out=(3,), **p)[0, 0]
        array([136., 136., 136.])
    """
    _, rspec, ospec = params["dimension_numbers"]
    w = rhs.transpose(rspec) if rspec != tuple(range(rhs.ndim)) else rhs
    if patches is None or promote_types(lhs.dtype, w.dtype) != patches.dtype:
        return _conv_impl(xp, lhs, rhs, **params)
    res = per_feature_product(xp, patches, w.astype(patches.dtype, copy=False), out)
    return _out_layout(xp, res, ospec, False, None)


_ROWS_LAYOUT_MIN_P = 64


def _prefer_shift_add(xs, ws, strides, padding, lhs_dilation, rhs_dilation, groups) -> bool:
    """Whether `_conv_shift_add` moves less memory than im2col: it writes ``O * K`` products
    per input position, im2col copies ``C * K`` values per output position (of the dilated
    input).  True for input gradients with fewer input than output channels and for
    transposed convolutions (lhs dilation), where im2col would copy the inserted zeros."""
    if any(s != 1 and d != 1 for s, d in zip(strides, lhs_dilation)):
        return False
    c, o = xs[1], ws[0]
    p_in = math.prod(xs[2:])
    p_out = math.prod(_out_spatial(xs[2:], ws[2:], strides, padding, lhs_dilation, rhs_dilation))
    return o * p_in < c * p_out


def _shift_slices(n_in: int, n_out: int, k: int, s: int, lo: int, ld: int, rd: int):
    """For kernel offset ``k`` on one axis: the output slice and the input slice that meet
    (output p reads dilated input q = p*s + k*rd - lo, a real input i = q / ld), or None."""
    off = k * rd - lo
    if ld == 1:  # i = p*s + off
        p0 = max(0, -(off // s))  # ceil(-off / s)
        p1 = min(n_out - 1, (n_in - 1 - off) // s)
        if p1 < p0:
            return None
        return slice(p0, p1 + 1), slice(p0 * s + off, p1 * s + off + 1, s)
    # s == 1: the dilated coordinate p + off is a real input i when it is i * ld
    i0 = max(0, -(-off // ld))  # ceil(off / ld)
    i1 = min(n_in - 1, (n_out - 1 + off) // ld)
    if i1 < i0:
        return None
    return slice(i0 * ld - off, i1 * ld - off + 1, ld), slice(i0, i1 + 1)


def _conv_shift_add(xp, x, w, strides, padding, lhs_dilation, rhs_dilation, groups):
    """Convolution as GEMM then shift-and-add (col2im): ``Z = W @ x`` gives every kernel
    offset's product at every input position; each offset's block is then added into its
    output positions with one strided slice add.  The input is never copied into patches
    (nor dilated: lhs dilation becomes the output slices' step)."""
    n, c = x.shape[:2]
    o, i = w.shape[:2]
    kernel, sin = w.shape[2:], x.shape[2:]
    nd = len(kernel)
    g, og, kn = groups, o // groups, math.prod(kernel)
    out_sp = _out_spatial(sin, kernel, strides, padding, lhs_dilation, rhs_dilation)
    wk = w.reshape((g, og, i) + kernel)
    wk = wk.transpose((0,) + tuple(range(3, 3 + nd)) + (1, 2)).reshape(g, kn * og, i)  # (G, K*Og, I)
    xr = x.reshape(n, g, i, -1)
    z = _matmul(xp, wk, xr, pooled_empty(xp, (n, g, kn * og, xr.shape[-1]), x.dtype))  # (N, G, K*Og, P_in)
    z = z.reshape((n, g) + tuple(kernel) + (og,) + tuple(sin))
    res = pooled_empty(xp, (n, g, og) + out_sp, z.dtype)
    if xp is np and nd <= 2:  # the same additions in one native loop, plane by plane
        rows = _slice_rows(tuple(kernel), tuple(sin), tuple(out_sp), tuple(strides),
                           tuple(lo for lo, _ in padding), tuple(lhs_dilation), tuple(rhs_dilation))
        if _native_shift_add.shift_add_2d(z.reshape((n * g,) + z.shape[2:]),
                                          res.reshape((n * g,) + res.shape[2:]), rows):
            return res.reshape((n, o) + out_sp)
    res[...] = 0
    if _flat_shifts(nd, strides, lhs_dilation, out_sp, sin):
        _shift_add_flat(xp, z, res, kernel, sin, padding, rhs_dilation)
    else:
        _shift_add_slices(xp, z, res, kernel, sin, out_sp, strides, padding, lhs_dilation, rhs_dilation)
    return res.reshape((n, o) + out_sp)


def _flat_shifts(nd, strides, lhs_dilation, out_sp, sin) -> bool:
    """Whether `_shift_add_flat` applies (see there)."""
    return bool(nd and all(s == 1 for s in strides) and all(d == 1 for d in lhs_dilation)
                and tuple(out_sp[1:]) == tuple(sin[1:]) and 0 not in out_sp)


def _shift_add_slices(xp, z, res, kernel, sin, out_sp, strides, padding, lhs_dilation,
                      rhs_dilation) -> None:
    """``res[..., out slice] += z[..., offset, ..., in slice]`` for each kernel offset, in
    `np.ndindex` order (``z``: ``(N, G, *K, Og, *sin)``, ``res``: ``(N, G, Og, *out)``, zeros).

    With short output rows (small planes: a strided slice add would run a few elements per
    row) the additions run in a layout with the batch and channels last, ``(G, *out, N, Og)``:
    each offset's add then runs over rows of ``N * Og`` contiguous elements.  Every output
    element gets the same sums in the same order, from zero, so the result is the same."""
    plan, used = _slice_plan(tuple(kernel), tuple(sin), tuple(out_sp), tuple(strides),
                             tuple(lo for lo, _ in padding), tuple(lhs_dilation), tuple(rhs_dilation))
    n, g, og, nd = res.shape[0], res.shape[1], res.shape[2], len(sin)
    # worth copying z only when most of it is added (a transposed convolution: each product
    # once), not when most offsets meet few outputs (a gradient's large kernel)
    if not (nd and out_sp[-1] < _SHORT_ROW and n * og >= _SHORT_ROW
            and 2 * used >= math.prod(kernel) * math.prod(sin)):
        for r, zi in plan:
            res[r] += z[zi]
        return
    # z as (G, *K, *sin, N, Og), the result as (G, *out, N, Og)
    zt = pooled_empty(xp, (g,) + tuple(kernel) + tuple(sin) + (n, og), z.dtype)
    zt[...] = z.transpose((1,) + tuple(range(2, 2 + nd)) + tuple(range(3 + nd, 3 + 2 * nd)) + (0, 2 + nd))
    rt = pooled_empty(xp, (g,) + tuple(out_sp) + (n, og), res.dtype)
    rt[...] = 0
    whole = (slice(None),)
    for r, zi in plan:  # r: (N, G, Og, *out slices); zi: (N, G, *offset, Og, *in slices)
        rt[whole + r[3:]] += zt[whole + zi[2:2 + nd] + zi[3 + nd:]]
    res[...] = rt.transpose((nd + 1, 0, nd + 2) + tuple(range(1, nd + 1)))


_SHORT_ROW = 16  # output rows shorter than this add in the channels-last layout


@functools.lru_cache(maxsize=256)
def _slice_plan(kernel, sin, out_sp, strides, pad_lo, lhs_dilation, rhs_dilation) -> tuple:
    """`_shift_add_slices`' ``(res index, z index)`` pairs, per geometry (a training step's
    convolutions repeat theirs on every call), and how many products they add per plane."""
    nd = len(sin)
    plan = []
    used = 0
    for offs in np.ndindex(*kernel):
        pairs = [
            _shift_slices(sin[a], out_sp[a], offs[a], strides[a], pad_lo[a], lhs_dilation[a], rhs_dilation[a])
            for a in range(nd)
        ]
        if any(pr is None for pr in pairs):
            continue
        plan.append(((slice(None),) * 3 + tuple(pr[0] for pr in pairs),
                     (slice(None), slice(None)) + offs + (slice(None),) + tuple(pr[1] for pr in pairs)))
        used += math.prod(len(range(n_in)[pr[1]]) for n_in, pr in zip(sin, pairs))
    return tuple(plan), used


@functools.lru_cache(maxsize=256)
def _slice_rows(kernel, sin, out_sp, strides, pad_lo, lhs_dilation, rhs_dilation) -> np.ndarray:
    """`_slice_plan` as `core.native_shift_add`'s table (one or two spatial axes)."""
    plan, _ = _slice_plan(kernel, sin, out_sp, strides, pad_lo, lhs_dilation, rhs_dilation)
    return _native_shift_add.plan_rows(plan, len(sin))


def _shift_add_flat(xp, z, res, kernel, sin, padding, rhs_dilation) -> None:
    """`_conv_shift_add`'s additions when the output planes have the input planes' shape on
    every spatial axis but the first (unit strides, no lhs dilation: 'SAME'-style padding).
    A kernel offset then moves every output position by one flat offset into the input
    plane, so each offset is a single add over the flattened planes (long contiguous runs,
    where the per-row slices of the general loop run 13 or 14 elements).

    Output positions that the flat offset wraps onto a neighbouring row (their true input
    is outside the plane along an inner axis) read an input element that no valid output
    reads for this offset -- its coordinate along that axis lies in the band the offset
    shifts out.  Those bands of the offset's products are set to zero first, so the wrapped
    positions add ``+0.0``: the same sums, in the same order, as the general loop (``res``
    starts at ``+0.0`` and never holds ``-0.0``, so adding ``+0.0`` changes nothing), and a
    product that only a cropped position would read (``inf``, NaN) is never added."""
    nd = len(sin)
    lead = z.ndim - nd - nd - 1  # (N, G)
    P = math.prod(sin)
    plane = [math.prod(sin[a + 1:]) for a in range(nd)]  # flat stride of each spatial axis
    rf = res.reshape(res.shape[: res.ndim - nd] + (-1,))
    for offs in np.ndindex(*kernel):
        off = [offs[a] * rhs_dilation[a] - padding[a][0] for a in range(nd)]
        # output rows along the first axis whose input row exists
        r0 = max(0, -off[0])
        r1 = min(res.shape[-nd] - 1, sin[0] - 1 - off[0])
        if r1 < r0 or any(abs(off[a]) >= sin[a] for a in range(1, nd)):
            continue  # this offset meets no input (the general loop skips it too)
        zk = z[(slice(None),) * lead + offs]  # (N, G, Og, *sin)
        for a in range(1, nd):
            band = slice(0, off[a]) if off[a] > 0 else slice(sin[a] + off[a], None) if off[a] < 0 else None
            if band is not None:
                zk[(Ellipsis, band) + (slice(None),) * (nd - 1 - a)] = 0
        shift = sum(off[a] * plane[a] for a in range(nd))
        q0 = max(r0 * plane[0], -shift)
        q1 = min((r1 + 1) * plane[0], P - shift)
        zf = zk.reshape(zk.shape[: zk.ndim - nd] + (P,))
        rf[..., q0:q1] += zf[..., q0 + shift:q1 + shift]


def _conv_shape(
    lhs_shape,
    rhs_shape,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
) -> tuple:
    lspec, rspec, ospec = dimension_numbers
    n, c = lhs_shape[lspec[0]], lhs_shape[lspec[1]]
    o, i = rhs_shape[rspec[0]], rhs_shape[rspec[1]]
    g, b = feature_group_count, batch_group_count
    what = f"lhs shape {tuple(lhs_shape)}, rhs shape {tuple(rhs_shape)}"
    if g < 1 or b < 1:
        raise ValueError(
            f"conv_general_dilated: feature_group_count and batch_group_count must be >= 1, got {g} and {b}"
        )
    if g > 1 and b > 1:
        raise ValueError(
            "conv_general_dilated: at most one of feature_group_count and batch_group_count may "
            f"exceed 1, got {g} and {b}"
        )
    if c != i * g:
        raise TypeError(
            f"conv_general_dilated: lhs feature dimension ({c}) must equal rhs input feature "
            f"dimension ({i}) times feature_group_count ({g}); {what}"
        )
    if o % g or o % b:
        raise ValueError(
            f"conv_general_dilated: rhs output feature dimension ({o}) must be a multiple of "
            f"feature_group_count ({g}) and batch_group_count ({b}); {what}"
        )
    if n % b:
        raise ValueError(
            f"conv_general_dilated: lhs batch dimension ({n}) must be a multiple of "
            f"batch_group_count ({b}); {what}"
        )
    nsp = len(lhs_shape) - 2
    if len(padding) != nsp:
        raise TypeError(f"conv_general_dilated: padding needs {nsp} (low, high) pairs, got {padding}")
    sp = _out_spatial(
        [lhs_shape[a] for a in lspec[2:]],
        [rhs_shape[a] for a in rspec[2:]],
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
    )
    canon = (n // b, o) + sp
    shape = [0] * len(canon)
    for k, a in enumerate(ospec):
        shape[a] = canon[k]
    return tuple(shape)


def _conv_abstract(lhs, rhs, **params):
    shape = _conv_shape(lhs.shape, rhs.shape, **params)
    return ShapedArray(shape, promote_types(lhs.dtype, rhs.dtype), lhs.weak_type and rhs.weak_type)


# quiet: a product of inf and 0 is NaN silently, as dot_general (the eager path; programs are
# quiet already); some BLAS kernels also raise the invalid flag on padded lanes
conv_general_dilated_p = Primitive("conv_general_dilated", quiet(_conv_impl), _conv_abstract,
                                   family="contraction")


def conv_general_dilated(
    lhs: ArrayLike,
    rhs: ArrayLike,
    window_strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    lhs_dilation: Sequence[int] | None = None,
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    feature_group_count: int = 1,
    batch_group_count: int = 1,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """General dilated convolution (``jax.lax.conv_general_dilated``): ``padding`` is
    ``'SAME'``, ``'SAME_LOWER'``, ``'VALID'`` or one ``(low, high)`` pair per spatial
    dimension (negative pads crop); ``lhs_dilation`` dilates the input (a transposed
    convolution), ``rhs_dilation`` the kernel (atrous).  ``precision`` is accepted and
    ignored; ``preferred_element_type`` casts the result.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x = fnp.arange(5.0).reshape(1, 1, 5)
        >>> conv_general_dilated(x, fnp.ones((1, 1, 2)), (1,), [(0, 0)])
        Array([[[1., 3., 5., 7.]]], dtype=float64)
    """
    la, ra = get_aval(lhs), get_aval(rhs)
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    nsp = la.ndim - 2
    strides = _ints(window_strides, nsp, "window_strides")
    ld = _ints(lhs_dilation, nsp, "lhs_dilation")
    rd = _ints(rhs_dilation, nsp, "rhs_dilation")
    if isinstance(padding, str):
        lsp = [la.shape[a] for a in dn.lhs_spec[2:]]  # undilated, as lax does
        ksp = [_dilate(ra.shape[a], d) for a, d in zip(dn.rhs_spec[2:], rd)]
        pads = padtype_to_pads(lsp, ksp, strides, padding)
    else:
        try:
            pads = tuple((int(lo), int(hi)) for lo, hi in padding)
        except (TypeError, ValueError):
            raise TypeError(
                "conv_general_dilated: padding must be a string or a sequence of (low, high) "
                f"pairs, got {padding!r}"
            ) from None
    lhs, rhs = widen_to_preferred(preferred_element_type, lhs, rhs)
    out = conv_general_dilated_p.bind(
        lhs,
        rhs,
        window_strides=strides,
        padding=pads,
        lhs_dilation=ld,
        rhs_dilation=rd,
        dimension_numbers=dn,
        feature_group_count=int(feature_group_count),
        batch_group_count=int(batch_group_count),
    )
    if preferred_element_type is not None and get_aval(out).dtype != np.dtype(preferred_element_type):
        out = convert_element_type(out, np.dtype(preferred_element_type))
    return out


# -- transposes ------------------------------------------------------------------------------


def _split_axis(x, axis: int, major: int):
    """Split ``axis`` into ``(major, size // major)`` in place (the new axis at ``axis``)."""
    s = get_aval(x).shape
    return reshape(x, s[:axis] + (major, s[axis] // major) + s[axis + 1 :])


def _merge_axis(x, src: int, dst: int):
    """Move axis ``src`` next to ``dst`` (as the major part) and merge them; ``dst`` counts
    positions after ``src``'s removal."""
    s = get_aval(x).shape
    perm = [a for a in range(len(s)) if a != src]
    perm.insert(dst, src)
    y = transpose(x, tuple(perm)) if perm != list(range(len(s))) else x
    rest = [s[a] for a in range(len(s)) if a != src]
    rest[dst] *= s[src]
    return reshape(y, tuple(rest))


def _swap01(spec) -> tuple:
    return (spec[1], spec[0]) + tuple(spec[2:])


def _cast_like(res, aval):
    return res if get_aval(res).dtype == aval.dtype else convert_element_type(res, aval.dtype)


def _transpose_lhs(
    ct,
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
):
    lspec, rspec, ospec = dimension_numbers
    lhs_aval = lhs.aval
    rshape = get_aval(rhs).shape
    ctshape = get_aval(ct).shape
    g = feature_group_count
    # the kernel's out/in roles swap; its groups move from the out-feature into the in-feature axis
    w = rhs
    if g > 1 or batch_group_count > 1:
        gg = max(g, batch_group_count)
        w = _split_axis(w, rspec[0], gg)
        w = _merge_axis(w, rspec[0], rspec[1])
        g = gg
    w = rev(w, tuple(rspec[2:]))
    pads = []
    for k in range(len(lspec) - 2):
        n_in = _dilate(lhs_aval.shape[lspec[2 + k]], lhs_dilation[k])
        kd = _dilate(rshape[rspec[2 + k]], rhs_dilation[k])
        od = _dilate(ctshape[ospec[2 + k]], window_strides[k])
        lo = kd - padding[k][0] - 1
        pads.append((lo, n_in + kd - 1 - od - lo))
    dn = ConvDimensionNumbers(ospec, _swap01(rspec), lspec)
    res = conv_general_dilated_p.bind(
        ct,
        w,
        window_strides=lhs_dilation,
        padding=tuple(pads),
        lhs_dilation=window_strides,
        rhs_dilation=rhs_dilation,
        dimension_numbers=dn,
        feature_group_count=g,
        batch_group_count=1,
    )
    if batch_group_count > 1:
        res = _split_axis(res, lspec[1], batch_group_count)
        res = _merge_axis(res, lspec[1], lspec[0])
    return _cast_like(res, lhs_aval)


def _transpose_rhs(
    ct,
    lhs,
    rhs,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
):
    lspec, rspec, ospec = dimension_numbers
    rhs_aval = rhs.aval
    lshape = get_aval(lhs).shape
    ctshape = get_aval(ct).shape
    g, b = feature_group_count, batch_group_count
    if b > 1:
        g, b = b, 1
    elif g > 1:
        g, b = 1, g
    pads = []
    for k in range(len(lspec) - 2):
        n_in = _dilate(lshape[lspec[2 + k]], lhs_dilation[k])
        kd = _dilate(rhs_aval.shape[rspec[2 + k]], rhs_dilation[k])
        od = _dilate(ctshape[ospec[2 + k]], window_strides[k])
        lo = padding[k][0]
        pads.append((lo, od - n_in + kd - lo - 1))
    dn = ConvDimensionNumbers(_swap01(lspec), _swap01(ospec), _swap01(rspec))
    res = conv_general_dilated_p.bind(
        lhs,
        ct,
        window_strides=rhs_dilation,
        padding=tuple(pads),
        lhs_dilation=lhs_dilation,
        rhs_dilation=window_strides,
        dimension_numbers=dn,
        feature_group_count=g,
        batch_group_count=b,
    )
    return _cast_like(res, rhs_aval)


defbilinear(conv_general_dilated_p, _transpose_lhs, _transpose_rhs, cast_to_out=True)


# -- batching: the mapped axis joins the batch axis or the feature groups --------------------


def _canonical(x, spec, bdim):
    """``x`` with its mapped axis first and the rest in canonical order."""
    x = moveaxis(x, bdim, 0)
    perm = (0,) + tuple(1 + a for a in spec)
    return transpose(x, perm) if perm != tuple(range(len(perm))) else x


def _conv_batch(
    axis_size,
    vals,
    dims,
    *,
    window_strides,
    padding,
    lhs_dilation,
    rhs_dilation,
    dimension_numbers,
    feature_group_count,
    batch_group_count,
):
    lhs, rhs = vals
    dl, dr = dims
    lspec, rspec, ospec = dimension_numbers
    nd = len(lspec)
    iota = tuple(range(nd))
    g, b = feature_group_count, batch_group_count
    B = axis_size
    params = dict(
        window_strides=window_strides,
        padding=padding,
        lhs_dilation=lhs_dilation,
        rhs_dilation=rhs_dilation,
        dimension_numbers=ConvDimensionNumbers(iota, iota, iota),
    )
    rest = lambda s: tuple(s[2:])  # noqa: E731
    if dl is not None:
        x = _canonical(lhs, lspec, dl)  # (B, N, C, *S)
        xs = get_aval(x).shape
    else:
        x = transpose(lhs, lspec)
        xs = (None,) + get_aval(x).shape
    if dr is not None:
        w = _canonical(rhs, rspec, dr)  # (B, O, I, *K)
        ws = get_aval(w).shape
    else:
        w = transpose(rhs, rspec)
        ws = (None,) + get_aval(w).shape
    n, c = xs[1], xs[2]
    o, i = ws[1], ws[2]
    if dr is None:  # lhs mapped: fold into the batch axis
        if b == 1:
            y = conv_general_dilated_p.bind(
                reshape(x, (B * n, c) + rest(xs[1:])), w, feature_group_count=g, batch_group_count=1, **params
            )
            ys = get_aval(y).shape
            y = reshape(y, (B, n) + ys[1:])
        else:
            nb = n // b
            xg = reshape(x, (B, b, nb, c) + rest(xs[1:]))
            xg = moveaxis(xg, 0, 1)  # (b, B, nb, C, *S)
            y = conv_general_dilated_p.bind(
                reshape(xg, (b * B * nb, c) + rest(xs[1:])),
                w,
                feature_group_count=1,
                batch_group_count=b,
                **params,
            )
            ys = get_aval(y).shape
            y = reshape(y, (B, nb) + ys[1:])
    elif dl is None:  # rhs mapped: fold into the output features, inside each group
        gg = max(g, b)
        og = o // gg
        wg = reshape(w, (B, gg, og, i) + rest(ws[1:]))
        wg = moveaxis(wg, 0, 1)  # (G, B, Og, I, *K)
        y = conv_general_dilated_p.bind(
            x,
            reshape(wg, (gg * B * og, i) + rest(ws[1:])),
            feature_group_count=g,
            batch_group_count=b,
            **params,
        )
        ys = get_aval(y).shape  # (N', G*B*Og, *S')
        y = reshape(y, (ys[0], gg, B, og) + ys[2:])
        y = moveaxis(y, 2, 0)  # (B, N', G, Og, *S')
        y = reshape(y, (B, ys[0], o) + ys[2:])
    else:  # both mapped: each example is its own group
        if b == 1:
            xm = reshape(moveaxis(x, 0, 1), (n, B * c) + rest(xs[1:]))
            y = conv_general_dilated_p.bind(
                xm,
                reshape(w, (B * o, i) + rest(ws[1:])),
                feature_group_count=B * g,
                batch_group_count=1,
                **params,
            )
            ys = get_aval(y).shape
            y = moveaxis(reshape(y, (ys[0], B, o) + ys[2:]), 1, 0)
        else:
            y = conv_general_dilated_p.bind(
                reshape(x, (B * n, c) + rest(xs[1:])),
                reshape(w, (B * o, i) + rest(ws[1:])),
                feature_group_count=1,
                batch_group_count=B * b,
                **params,
            )
            ys = get_aval(y).shape
            y = moveaxis(reshape(y, (ys[0], B, o) + ys[2:]), 1, 0)
    # (B, *canonical out) -> the mapped axis first, then the output layout
    perm = (0,) + tuple(1 + _inverse(ospec)[a] for a in range(nd))
    return (transpose(y, perm) if perm != tuple(range(nd + 1)) else y), 0


defbatch(conv_general_dilated_p, _conv_batch)


# -- the other lax faces ------------------------------------------------------------------


def conv(lhs: ArrayLike, rhs: ArrayLike, window_strides: Sequence[int],
         padding: str | Sequence[tuple[int, int]], precision: Any = None,
         preferred_element_type: DTypeLike | None = None) -> Array:
    """``conv_general_dilated`` in NCHW/OIHW layout without dilation (``jax.lax.conv``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> conv(fnp.ones((1, 2, 4, 4)), fnp.ones((3, 2, 2, 2)), (1, 1), "VALID").shape
        (1, 3, 3, 3)
    """
    return conv_general_dilated(
        lhs, rhs, window_strides, padding, precision=precision, preferred_element_type=preferred_element_type
    )


def conv_with_general_padding(lhs: ArrayLike, rhs: ArrayLike, window_strides: Sequence[int],
                              padding: str | Sequence[tuple[int, int]], lhs_dilation: Sequence[int] | None,
                              rhs_dilation: Sequence[int] | None, precision: Any = None,
                              preferred_element_type: DTypeLike | None = None ) -> Array:
    """``conv_general_dilated`` in NCHW/OIHW layout (``jax.lax.conv_with_general_padding``).

    Example::

        >>> import fgrad.numpy as fnp
        >>> x, w = fnp.ones((1, 1, 3)), fnp.ones((1, 1, 2))
        >>> conv_with_general_padding(x, w, (1,), [(1, 1)], None, None).shape
        (1, 1, 4)
    """
    return conv_general_dilated(
        lhs,
        rhs,
        window_strides,
        padding,
        lhs_dilation,
        rhs_dilation,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def _conv_transpose_padding(k: int, s: int, padding) -> tuple:
    if padding == "SAME":
        pad_len = k + s - 2
        lo = (k - 1) if s > k - 1 else int(math.ceil(pad_len / 2))
    elif padding == "VALID":
        pad_len = k + s - 2 + max(k - s, 0)
        lo = k - 1
    else:
        raise ValueError(
            f"conv_transpose: padding must be 'SAME', 'VALID' or explicit pairs, got {padding!r}"
        )
    return lo, pad_len - lo


def conv_transpose(
    lhs: ArrayLike,
    rhs: ArrayLike,
    strides: Sequence[int],
    padding: str | Sequence[tuple[int, int]],
    rhs_dilation: Sequence[int] | None = None,
    dimension_numbers: ConvGeneralDilatedDimensionNumbers = None,
    transpose_kernel: bool = False,
    precision: Any = None,
    preferred_element_type: DTypeLike | None = None,
) -> Array:
    """Transposed convolution (``jax.lax.conv_transpose``): the input is dilated by
    ``strides``; with ``transpose_kernel=True`` the kernel is flipped spatially and its
    in/out axes swapped, which makes this the gradient of ``conv_general_dilated`` (as in
    TensorFlow's ``conv2d_transpose``).  ``dimension_numbers`` defaults to channels-last
    layouts (``("NHWC", "HWIO", "NHWC")`` in 2-d), as in lax.

    Example::

        >>> import fgrad.numpy as fnp
        >>> x, w = fnp.ones((1, 3, 1)), fnp.ones((2, 1, 1))
        >>> conv_transpose(x, w, (2,), "VALID", dimension_numbers=("NWC", "WIO", "NWC")).shape
        (1, 6, 1)
    """
    la, ra = get_aval(lhs), get_aval(rhs)
    nd = la.ndim
    if dimension_numbers is None:  # channels last, as lax.conv_transpose
        sp = "HWDXYZ"[: nd - 2]
        dimension_numbers = ("N" + sp + "C", sp + "IO", "N" + sp + "C")
    dn = conv_dimension_numbers(la.shape, ra.shape, dimension_numbers)
    k_sdims = [ra.shape[a] for a in dn.rhs_spec[2:]]
    rd = _ints(rhs_dilation, nd - 2, "rhs_dilation")
    strides = _ints(strides, nd - 2, "strides")
    kd = [_dilate(k, d) for k, d in zip(k_sdims, rd)]
    if isinstance(padding, str):
        pads = tuple(_conv_transpose_padding(k, s, padding.upper()) for k, s in zip(kd, strides))
    else:
        pads = tuple((int(lo), int(hi)) for lo, hi in padding)
    if transpose_kernel:
        rhs = rev(rhs, tuple(dn.rhs_spec[2:]))
        rs = dn.rhs_spec
        sw = list(range(nd))
        sw[rs[0]], sw[rs[1]] = rs[1], rs[0]
        rhs = transpose(rhs, tuple(sw))
    return conv_general_dilated(
        lhs,
        rhs,
        (1,) * (nd - 2),
        pads,
        strides,
        rd,
        dn,
        precision=precision,
        preferred_element_type=preferred_element_type,
    )


def conv_general_shape_tuple(lhs_shape: Shape, rhs_shape: Shape, window_strides: Sequence[int],
                             padding: str | Sequence[tuple[int, int]],
                             dimension_numbers: ConvGeneralDilatedDimensionNumbers) -> tuple:
    """The output shape of ``conv_general_dilated`` (no dilation) for operands of these shapes
    (``jax.lax.conv_general_shape_tuple``).  Its entries are NumPy integers, as JAX's are
    (JAX computes the shape with ``np.take``; ``stax.Conv`` output shapes print so).

    Example::

        >>> conv_general_shape_tuple((1, 5, 5, 3), (3, 3, 3, 8), (2, 2), "SAME", ("NHWC", "HWIO", "NHWC"))
        (np.int64(1), np.int64(3), np.int64(3), np.int64(8))
    """
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    nsp = len(lhs_shape) - 2
    strides = _ints(window_strides, nsp, "window_strides")
    if isinstance(padding, str):
        lsp = [lhs_shape[a] for a in dn.lhs_spec[2:]]
        pads = padtype_to_pads(lsp, [rhs_shape[a] for a in dn.rhs_spec[2:]], strides, padding)
    else:
        pads = tuple((int(lo), int(hi)) for lo, hi in padding)
    return _numpy_ints(_conv_shape(tuple(lhs_shape), tuple(rhs_shape), strides, pads, (1,) * nsp,
                                   (1,) * nsp, dn, 1, 1))


def _numpy_ints(shape: tuple) -> tuple:
    """``shape`` with NumPy integer entries, as JAX's shape helpers return them."""
    return tuple(np.asarray(shape, dtype=np.int64))


def conv_transpose_shape_tuple(lhs_shape: Shape, rhs_shape: Shape, window_strides: Sequence[int],
                               padding: str | Sequence[tuple[int, int]],
                               dimension_numbers: ConvGeneralDilatedDimensionNumbers) -> tuple:
    """The output shape of ``conv_transpose`` (``jax.lax.conv_transpose_shape_tuple``), with
    NumPy integer entries as JAX's.

    Example::

        >>> conv_transpose_shape_tuple((1, 3, 3, 2), (2, 2, 2, 4), (2, 2), "SAME", ("NHWC", "HWIO", "NHWC"))
        (np.int64(1), np.int64(6), np.int64(6), np.int64(4))
    """
    dn = conv_dimension_numbers(lhs_shape, rhs_shape, dimension_numbers)
    nsp = len(lhs_shape) - 2
    strides = _ints(window_strides, nsp, "window_strides")
    ks = [rhs_shape[a] for a in dn.rhs_spec[2:]]
    if isinstance(padding, str):
        pads = tuple(_conv_transpose_padding(k, s, padding.upper()) for k, s in zip(ks, strides))
    else:
        pads = tuple((int(lo), int(hi)) for lo, hi in padding)
    return _numpy_ints(_conv_shape(tuple(lhs_shape), tuple(rhs_shape), (1,) * nsp, pads, strides,
                                   (1,) * nsp, dn, 1, 1))


__all__ = [
    "ConvDimensionNumbers",
    "conv_dimension_numbers",
    "conv_general_dilated",
    "conv_general_dilated_p",
    "conv",
    "conv_with_general_padding",
    "conv_transpose",
    "padtype_to_pads",
    "window_view",
    "dilate_and_pad",
    "conv_general_shape_tuple",
    "conv_transpose_shape_tuple",
]
