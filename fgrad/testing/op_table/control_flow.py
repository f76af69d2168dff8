"""lax control-flow rows (functions as arguments)."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad.numpy as fnp

from ._base import Arg, F32, F64, OpRow, shapes_of
from .lax import LAX

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# lax control flow (functions as arguments)


def _np_scan(c, xs):
    ys = []
    for x in xs:
        c, y = c * x + 1.0, c * 2.0
        ys.append(y)
    return c, np.stack(ys)


def _np_fori(x):
    for i in range(3):
        x = x * 0.9 + np.sin(x) * i
    return x


def _np_while(x):
    i = 0
    while i < 4:
        i, x = i + 1, x * 1.1 + 0.1
    return x


_BRANCHES_NP = [np.sin, np.cos, np.tanh]

ROWS += [
    OpRow(
        "lax.cond",
        lambda p, x: LAX.cond(p > 0, fnp.sin, fnp.cos, x),
        lambda p, x: np.sin(x) if p > 0 else np.cos(x),
        args=(Arg(-1, 1, avoid=(0.0,), diff=False), Arg()),
        shapes=hnp.array_shapes(max_dims=2).map(lambda s: ((), s)),
        example_shapes=((), (3,)),
        covers=("lax.cond",),
    ),
    OpRow(
        "lax.switch",
        lambda i, x: LAX.switch(i, [fnp.sin, fnp.cos, fnp.tanh], x),
        lambda i, x: _BRANCHES_NP[int(np.clip(i, 0, 2))](x),
        args=(Arg(-1, 3, kind="int", dtype=np.int64), Arg()),
        shapes=hnp.array_shapes(max_dims=2).map(lambda s: ((), s)),
        example_shapes=((), (3,)),
        covers=("lax.switch",),
    ),
    OpRow(
        "lax.fori_loop",
        # NumPy promotion: the int64 index would turn a float32 carry into float64 (JAX's index
        # is weakly typed and would not), so the body casts it, as NumPy code must.
        lambda x: LAX.fori_loop(0, 3, lambda i, c: c * 0.9 + fnp.sin(c) * i.astype(c.dtype), x),
        _np_fori,
        covers=("lax.fori_loop",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "lax.while_loop",
        lambda x: LAX.while_loop(lambda c: c[0] < 4, lambda c: (c[0] + 1, c[1] * 1.1 + 0.1), (0, x))[1],
        _np_while,
        modes=("fwd",),
        covers=("lax.while_loop",),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)},
    ),
    OpRow(
        "lax.scan",
        lambda c, xs: LAX.scan(lambda c, x: (c * x + 1.0, c * 2.0), c, xs),
        _np_scan,
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), st.integers(1, 4)).map(
            lambda t: (t[0], (t[1],) + t[0])
        ),
        example_shapes=((2,), (3, 2)),
        covers=("lax.scan",),
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "lax.map",
        lambda xs: LAX.map(fnp.sin, xs),
        np.sin,
        shapes=shapes_of(1, min_dims=1),
        covers=("lax.map",),
    ),
    OpRow(
        "lax.dot_general",
        # batched matmul: contract a's last with b's middle axis, batch over axis 0
        lambda a, b: LAX.dot_general(a, b, (((2,), (1,)), ((0,), (0,)))),
        lambda a, b: np.einsum("bij,bjk->bik", a, b),
        args=(Arg(), Arg()),
        shapes=st.tuples(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.integers(1, 3)).map(
            lambda t: ((t[0], t[1], t[2]), (t[0], t[2], t[3]))
        ),
        example_shapes=((2, 3, 4), (2, 4, 2)),
        covers=("lax.dot_general",),
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "lax.pad",
        lambda x: LAX.pad(x, 0.0, ((1, 2, 0), (0, 1, 1))),
        lambda x: _np_lax_pad(x, ((1, 2, 0), (0, 1, 1))),
        shapes=st.tuples(st.integers(1, 3), st.integers(1, 3)).map(lambda t: (t,)),
        example_shapes=((2, 3),),
        covers=("lax.pad",),
    ),
]


def _np_lax_pad(x, config):
    """Reference for lax.pad: interior padding then edge padding, with zeros."""
    for axis, (lo, hi, interior) in enumerate(config):
        n = x.shape[axis]
        if interior and n > 1:
            shape = list(x.shape)
            shape[axis] = n + (n - 1) * interior
            out = np.zeros(shape, x.dtype)
            idx = [slice(None)] * x.ndim
            idx[axis] = slice(None, None, interior + 1)
            out[tuple(idx)] = x
            x = out
        widths = [(0, 0)] * x.ndim
        widths[axis] = (lo, hi)
        x = np.pad(x, widths)
    return x


