"""Convolution and windowed-reduction rows (``lax.conv_general_dilated``, ``lax.conv_transpose``,
``lax.reduce_window``, ``numpy.convolve``/``correlate``).

The NumPy references are written independently of fgrad's im2col implementation: they shift
and accumulate, one kernel offset at a time, over explicitly dilated and padded inputs.
"""

from __future__ import annotations

import itertools

from hypothesis import strategies as st
import numpy as np

import fgrad
import fgrad.numpy as fnp

from ._base import Arg, F32, F64, OpRow

ROWS: list[OpRow] = []
LAX = fgrad.lax
_TOL = {F32: (1e-5, 1e-5), F64: (1e-12, 1e-12)}


def _spec(s: str, b: str, f: str) -> tuple:
    return (s.index(b), s.index(f)) + tuple(i for i, c in enumerate(s) if c not in (b, f))


def _np_dilate_pad(x, dil, pads, fill=0.0):
    """Dilate then pad (negative: crop) the trailing ``len(pads)`` axes of ``x``."""
    lead = x.ndim - len(pads)
    shape = x.shape[:lead] + tuple(0 if n == 0 else (n - 1) * d + 1 for n, d in zip(x.shape[lead:], dil))
    z = np.full(shape, fill, dtype=x.dtype)
    z[(slice(None),) * lead + tuple(slice(None, None, d) for d in dil)] = x
    for i, (lo, hi) in enumerate(pads):
        ax = lead + i
        if lo < 0:
            z = np.take(z, np.arange(-lo, z.shape[ax]), axis=ax)
        if hi < 0:
            z = np.take(z, np.arange(0, z.shape[ax] + hi), axis=ax)
        widths = [(0, 0)] * z.ndim
        widths[ax] = (max(lo, 0), max(hi, 0))
        z = np.pad(z, widths, constant_values=fill)
    return z


def np_conv(
    lhs,
    rhs,
    window_strides,
    padding,
    lhs_dilation=None,
    rhs_dilation=None,
    dimension_numbers=None,
    feature_group_count=1,
    batch_group_count=1,
):
    """Reference conv_general_dilated: shift-and-accumulate over kernel offsets."""
    nd = lhs.ndim - 2
    if dimension_numbers is None:
        ls = rs = os_ = tuple(range(nd + 2))
    else:
        ls, rs, os_ = (
            _spec(dimension_numbers[0], "N", "C"),
            _spec(dimension_numbers[1], "O", "I"),
            _spec(dimension_numbers[2], "N", "C"),
        )
        sp = [dimension_numbers[1][i] for i in rs[2:]]
        ls = ls[:2] + tuple(dimension_numbers[0].index(c) for c in sp)
        os_ = os_[:2] + tuple(dimension_numbers[2].index(c) for c in sp)
    x, w = np.transpose(lhs, ls), np.transpose(rhs, rs)
    ld = lhs_dilation or (1,) * nd
    rd = rhs_dilation or (1,) * nd
    ksz = w.shape[2:]
    if isinstance(padding, str):
        pads = []
        for n, k, s, r in zip(x.shape[2:], ksz, window_strides, rd):
            ke = (k - 1) * r + 1
            out = -(-n // s)
            tot = max(0, (out - 1) * s + ke - n)
            pads.append((tot // 2, tot - tot // 2) if padding == "SAME" else (tot - tot // 2, tot // 2))
        if padding == "VALID":
            pads = [(0, 0)] * nd
    else:
        pads = list(padding)
    xp = _np_dilate_pad(x, ld, pads)
    n, c = xp.shape[:2]
    o, i = w.shape[:2]
    g, b = feature_group_count, batch_group_count
    out_sp = tuple((xp.shape[2 + a] - (ksz[a] - 1) * rd[a] - 1) // window_strides[a] + 1 for a in range(nd))
    res = np.zeros((n // b, o) + out_sp, dtype=np.result_type(lhs, rhs))
    for offs in itertools.product(*[range(k) for k in ksz]):
        sl = tuple(
            slice(k * r, k * r + (m - 1) * s + 1, s) for k, r, m, s in zip(offs, rd, out_sp, window_strides)
        )
        patch = xp[(slice(None), slice(None)) + sl]  # (N, C, *out)
        wk = w[(slice(None), slice(None)) + offs]  # (O, I)
        if b == 1:
            og = o // g
            for gi in range(g):
                res[:, gi * og : (gi + 1) * og] += np.einsum(
                    "nc...,oc->no...", patch[:, gi * i : (gi + 1) * i], wk[gi * og : (gi + 1) * og]
                )
        else:
            nb, ob = n // b, o // b
            for bi in range(b):
                res[:, bi * ob : (bi + 1) * ob] += np.einsum(
                    "nc...,oc->no...", patch[bi * nb : (bi + 1) * nb], wk[bi * ob : (bi + 1) * ob]
                )
    inv = [0] * (nd + 2)
    for k, a in enumerate(os_):
        inv[a] = k
    return np.transpose(res, inv)


_CONV_CASES = [
    # (name, lhs shape, rhs shape, kwargs)
    ("1d", (2, 3, 7), (4, 3, 3), dict(window_strides=(2,), padding=((1, 2),))),
    ("2d_same", (2, 2, 5, 4), (3, 2, 3, 2), dict(window_strides=(1, 2), padding="SAME")),
    (
        "2d_dilated",
        (1, 2, 5, 5),
        (2, 2, 2, 2),
        dict(window_strides=(2, 1), padding=((1, 0), (2, -1)), lhs_dilation=(2, 1), rhs_dilation=(1, 2)),
    ),
    (
        "2d_groups",
        (2, 4, 4, 3),
        (4, 2, 2, 2),
        dict(window_strides=(1, 1), padding="VALID", feature_group_count=2),
    ),
    (
        "2d_batch_groups",
        (4, 2, 4, 3),
        (4, 2, 2, 2),
        dict(window_strides=(1, 1), padding="SAME", batch_group_count=2),
    ),
    (
        "2d_nhwc",
        (2, 4, 5, 3),
        (2, 3, 3, 2),
        dict(window_strides=(1, 1), padding="SAME_LOWER", dimension_numbers=("NHWC", "HWIO", "NHWC")),
    ),
    ("3d", (1, 2, 3, 4, 3), (2, 2, 2, 2, 2), dict(window_strides=(1, 2, 1), padding="VALID")),
]

for _name, _ls, _rs, _kw in _CONV_CASES:
    ROWS.append(
        OpRow(
            f"lax.conv_general_dilated[{_name}]",
            (lambda kw: lambda x, w: LAX.conv_general_dilated(x, w, **kw))(_kw),
            (lambda kw: lambda x, w: np_conv(x, w, **kw))(_kw),
            args=(Arg(), Arg()),
            shapes=st.just((_ls, _rs)),
            example_shapes=(_ls, _rs),
            covers=("lax.conv_general_dilated",),
            fwd_tol=_TOL,
        )
    )

ROWS += [
    OpRow(
        "lax.conv",
        lambda x, w: LAX.conv(x, w, (1, 2), "SAME"),
        lambda x, w: np_conv(x, w, (1, 2), "SAME"),
        args=(Arg(), Arg()),
        shapes=st.just(((2, 2, 4, 5), (3, 2, 2, 3))),
        example_shapes=((2, 2, 4, 5), (3, 2, 2, 3)),
        covers=("lax.conv",),
        fwd_tol=_TOL,
    ),
    OpRow(
        "lax.conv_with_general_padding",
        lambda x, w: LAX.conv_with_general_padding(x, w, (2,), [(1, 1)], (2,), (1,)),
        lambda x, w: np_conv(x, w, (2,), [(1, 1)], (2,), (1,)),
        args=(Arg(), Arg()),
        shapes=st.just(((2, 2, 5), (3, 2, 3))),
        example_shapes=((2, 2, 5), (3, 2, 3)),
        covers=("lax.conv_with_general_padding",),
        fwd_tol=_TOL,
    ),
    # conv_transpose == a conv of the stride-dilated input (explicit padding): the kernel
    # flip of transpose_kernel=True is checked against the flipped reference
    OpRow(
        "lax.conv_transpose",
        lambda x, w: LAX.conv_transpose(
            x, w, (2, 1), [(1, 1), (0, 1)], dimension_numbers=("NCHW", "OIHW", "NCHW"), transpose_kernel=True
        ),
        lambda x, w: np_conv(x, np.swapaxes(w[:, :, ::-1, ::-1], 0, 1), (1, 1), [(1, 1), (0, 1)], (2, 1)),
        args=(Arg(), Arg()),
        shapes=st.just(((2, 3, 3, 4), (3, 2, 2, 3))),
        example_shapes=((2, 3, 3, 4), (3, 2, 2, 3)),
        covers=("lax.conv_transpose",),
        fwd_tol=_TOL,
    ),
]


# -- reduce_window -----------------------------------------------------------------------------


def np_reduce_window(
    x, kind, window_dimensions, window_strides, padding, base_dilation=None, window_dilation=None
):
    """Reference reduce_window: accumulate over window offsets."""
    nd = x.ndim
    bd = base_dilation or (1,) * nd
    wd = window_dilation or (1,) * nd
    if kind == "sum":
        fill, op = 0.0, np.add
    elif kind == "max":
        fill, op = -np.inf, np.maximum
    else:
        fill, op = np.inf, np.minimum
    xp = _np_dilate_pad(x, bd, padding, fill)
    out = tuple(
        (xp.shape[a] - (window_dimensions[a] - 1) * wd[a] - 1) // window_strides[a] + 1 for a in range(nd)
    )
    res = None
    for offs in itertools.product(*[range(k) for k in window_dimensions]):
        sl = tuple(
            slice(k * r, k * r + (m - 1) * s + 1, s) for k, r, m, s in zip(offs, wd, out, window_strides)
        )
        res = xp[sl] if res is None else op(res, xp[sl])
    return res.astype(x.dtype)


_RW_CASES = [
    (
        "pool2x2",
        (2, 3, 4, 6),
        dict(window_dimensions=(1, 1, 2, 2), window_strides=(1, 1, 2, 2), padding=((0, 0),) * 4),
    ),
    (
        "overlap",
        (2, 5, 4),
        dict(window_dimensions=(1, 3, 2), window_strides=(1, 1, 2), padding=((0, 0), (1, 1), (0, 1))),
    ),
    (
        "dilated",
        (5, 6),
        dict(
            window_dimensions=(2, 2),
            window_strides=(1, 2),
            padding=((1, -1), (0, 1)),
            base_dilation=(2, 1),
            window_dilation=(1, 2),
        ),
    ),
]

_INIT = {"max": -np.inf, "min": np.inf, "sum": 0.0}
for _kind in ("max", "min", "sum"):
    for _name, _shape, _kw in _RW_CASES:
        ROWS.append(
            OpRow(
                f"lax.reduce_window[{_kind},{_name}]",
                (lambda k, kw: lambda x: LAX.reduce_window(x, _INIT[k], k, **kw))(_kind, _kw),
                (lambda k, kw: lambda x: np_reduce_window(x, k, **kw))(_kind, _kw),
                args=(Arg(kind="distinct") if _kind != "sum" else Arg(),),
                shapes=st.just((_shape,)),
                example_shapes=(_shape,),
                covers=("lax.reduce_window",),
                fwd_tol=_TOL,
            )
        )


# -- numpy.convolve / correlate -------------------------------------------------------------------

for _mode in ("full", "same", "valid"):
    for _fname in ("convolve", "correlate"):
        ROWS.append(
            OpRow(
                f"{_fname}[{_mode}]",
                (lambda f, m: lambda a, v: getattr(fnp, f)(a, v, m))(_fname, _mode),
                (lambda f, m: lambda a, v: getattr(np, f)(a, v, m))(_fname, _mode),
                args=(Arg(), Arg()),
                shapes=st.sampled_from([((5,), (3,)), ((2,), (4,))]),
                example_shapes=((5,), (3,)),
                covers=(f"numpy.{_fname}",),
                fwd_tol=_TOL,
            )
        )
