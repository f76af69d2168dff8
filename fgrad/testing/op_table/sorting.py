"""Sorting, searching, cumulative and order-statistic rows."""

from __future__ import annotations

from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
import numpy as np

import fgrad.numpy as fnp

from ._base import (Arg, F32, F64, INTS, OpRow, _as_input_dtype, jax_promoted, one_axis_kwargs, reduction,
                    shapes_of)
from .reductions import _distinct
from .structural import _kw

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# sorting, searching, cumulative and order statistics


def _sort_kwargs(shapes):
    nd = len(shapes[0])
    axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
    return st.fixed_dictionaries({"axis": axis, "descending": st.booleans()})


def _ref_sort(a, axis, descending):
    out = np.sort(a, axis=axis)
    if descending:
        out = np.flip(out, axis=-1 if axis is None else axis)
    return out


def _ref_argsort(a, axis, descending):
    if not descending:
        return np.argsort(a, axis=axis, stable=True)
    # stable descending: sort the negation
    return np.argsort(-a, axis=axis, stable=True)


def _cum_kwargs(shapes):
    nd = len(shapes[0])
    return st.fixed_dictionaries(
        {"axis": st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()}
    )


def _cumulative_kwargs(shapes):
    nd = len(shapes[0])
    axis = st.integers(-nd, nd - 1) if nd > 1 else st.sampled_from([None, 0] if nd else [None])
    return st.fixed_dictionaries({"axis": axis, "include_initial": st.booleans()})


def _q_kwargs(scale):
    def make(shapes):
        nd = len(shapes[0])
        q = st.one_of(
            st.sampled_from([0.0, 0.3, 0.5, 1.0]).map(lambda v: v * scale),
            st.lists(st.floats(0, 1).map(lambda v: round(v * scale, 3)), min_size=1, max_size=3).map(tuple),
        )
        axis = st.one_of(st.none(), st.integers(-nd, nd - 1)) if nd else st.none()
        return st.fixed_dictionaries(
            {
                "q": q,
                "axis": axis,
                "keepdims": st.booleans(),
                "method": st.sampled_from(["linear", "lower", "higher", "nearest", "midpoint"]),
            }
        )

    return make


def _qfn(f):
    return lambda a, q, **kw: f(a, np.asarray(q) if isinstance(q, tuple) else q, **kw)


def _searchsorted_args(rng, shapes, kw, dt):
    a = np.sort(rng.uniform(-2, 2, shapes[0])).astype(dt)
    v = rng.uniform(-2.5, 2.5, shapes[1]).astype(dt)
    v.flat[: min(v.size, a.size)] = a[: min(v.size, a.size)]  # exact hits exercise side=
    return [a, v]


def _nan_args(rng, shapes, kw, dt):
    """NaNs where the index sum is 1 mod 3: every slice (sides >= 3) keeps >= 2 numbers."""
    a = rng.uniform(-2, 2, shapes[0])
    idx = np.indices(shapes[0]).sum(axis=0) if a.ndim else np.zeros(())
    a[(idx % 3) == 1] = np.nan
    return [a.astype(dt)]


def _nan_reduction(name, **kw):
    kw.setdefault("shapes", shapes_of(1, min_dims=1, max_dims=3, min_side=3, max_side=4))
    return reduction(name, make_args=_nan_args, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-13, 1e-11)}, **kw)


ROWS += [
    OpRow(
        "sort",
        lambda a, axis, descending: fnp.sort(a, axis=axis, descending=descending),
        _ref_sort,
        args=(_distinct,),
        kwargs=_sort_kwargs,
        example_kwargs={"axis": -1, "descending": False},
    ),
    OpRow(
        "sort[ties]",
        lambda a, axis, descending: fnp.sort(a, axis=axis, descending=descending),
        _ref_sort,
        args=(Arg(-2, 2, kind="int"),),
        kwargs=_sort_kwargs,
        example_kwargs={"axis": 0, "descending": True},
        grad="skip",
        other_dtypes=INTS,
        covers=("numpy.sort",),
    ),
    OpRow(
        "argsort",
        lambda a, axis, descending: fnp.argsort(a, axis=axis, descending=descending),
        _ref_argsort,
        args=(Arg(-2, 2, kind="int"),),
        kwargs=_sort_kwargs,
        grad="no",
        other_dtypes=INTS,
        example_kwargs={"axis": -1, "descending": False},
    ),
    OpRow(
        "lexsort",
        lambda a, b: fnp.lexsort([a, b]),
        lambda a, b: np.lexsort([a, b]),
        args=(Arg(-2, 2, kind="int"), Arg(-1, 1, kind="int")),
        shapes=shapes_of(2, min_dims=1),
        grad="no",
        other_dtypes=INTS,
    ),
    OpRow(
        "partition",
        lambda a, kth: fnp.sort(fnp.partition(a, kth), axis=-1),
        lambda a, kth: np.sort(a),
        args=(_distinct,),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda shapes: st.fixed_dictionaries({"kth": st.integers(0, shapes[0][-1] - 1)}),
        example_kwargs={"kth": 1},
    ),
    OpRow(
        "argpartition",
        lambda a, kth: fnp.take_along_axis(a, fnp.argpartition(a, kth), -1)[..., kth],
        lambda a, kth: np.partition(a, kth)[..., kth],
        args=(_distinct,),
        shapes=shapes_of(1, min_dims=1),
        kwargs=lambda shapes: st.fixed_dictionaries({"kth": st.integers(0, shapes[0][-1] - 1)}),
        example_kwargs={"kth": 1},
    ),
    OpRow(
        "searchsorted",
        lambda a, v, side: fnp.searchsorted(a, v, side=side),
        lambda a, v, side: np.searchsorted(a, v, side=side).astype(np.int32),  # JAX 0.10: int32
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(min_dims=1, max_dims=1), hnp.array_shapes(max_dims=2)),
        kwargs=_kw(side=st.sampled_from(["left", "right"])),
        make_args=_searchsorted_args,
        grad="no",
        example_shapes=((5,), (3,)),
        example_kwargs={"side": "left"},
    ),
    OpRow(
        "digitize",
        lambda x, bins, right: fnp.digitize(x, bins, right),
        lambda x, bins, right: np.asarray(np.digitize(x, bins, right)).astype(np.int32),  # JAX: int32
        args=(Arg(), Arg()),
        shapes=st.tuples(hnp.array_shapes(max_dims=2), hnp.array_shapes(min_dims=1, max_dims=1)),
        kwargs=_kw(right=st.booleans()),
        grad="no",
        example_shapes=((5,), (3,)),
        example_kwargs={"right": False},
        make_args=lambda rng, shapes, kw, dt: _searchsorted_args(rng, (shapes[1], shapes[0]), kw, dt)[::-1],
    ),
    OpRow(
        "cumsum",
        lambda a, axis: fnp.cumsum(a, axis),
        lambda a, axis: np.cumsum(a, axis, dtype=None if a.dtype.kind == "b" else a.dtype),  # JAX's dtype
        kwargs=_cum_kwargs,
        example_kwargs={"axis": 1},
        other_dtypes=INTS,
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "cumprod",
        lambda a, axis: fnp.cumprod(a, axis),
        lambda a, axis: np.cumprod(a, axis),
        args=(Arg(0.5, 1.5),),
        kwargs=_cum_kwargs,
        example_kwargs={"axis": 0},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "cumprod[with zeros]",
        lambda a, axis: fnp.cumprod(a, axis),
        lambda a, axis: np.cumprod(a, axis),
        kwargs=_cum_kwargs,
        example_kwargs={"axis": 1},
        covers=("numpy.cumprod",),
        make_args=lambda rng, shapes, kw, dt: [
            np.where(rng.random(shapes[0]) < 0.3, 0.0, rng.uniform(-1.5, 1.5, shapes[0])).astype(dt)
        ],
    ),
    OpRow(
        "cumulative_sum",
        lambda a, **kw: fnp.cumulative_sum(a, **kw),
        lambda a, **kw: np.cumulative_sum(a, **kw),
        shapes=shapes_of(1, min_dims=1),
        kwargs=_cumulative_kwargs,
        example_kwargs={"axis": 1, "include_initial": True},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "cumulative_prod",
        lambda a, **kw: fnp.cumulative_prod(a, **kw),
        lambda a, **kw: np.cumulative_prod(a, **kw),
        args=(Arg(0.5, 1.5),),
        shapes=shapes_of(1, min_dims=1),
        kwargs=_cumulative_kwargs,
        example_kwargs={"axis": 0, "include_initial": False},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "nancumsum",
        lambda a, axis: fnp.nancumsum(a, axis),
        lambda a, axis: np.nancumsum(a, axis),
        kwargs=_cum_kwargs,
        make_args=_nan_args,
        example_kwargs={"axis": 1},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "nancumprod",
        lambda a, axis: fnp.nancumprod(a, axis),
        lambda a, axis: np.nancumprod(a, axis),
        kwargs=_cum_kwargs,
        make_args=lambda rng, s, kw, dt: [
            np.where(rng.random(s[0]) < 0.25, np.nan, rng.uniform(0.5, 1.5, s[0])).astype(dt)
        ],
        example_kwargs={"axis": 0},
        fwd_tol={F32: (1e-5, 1e-5), F64: (1e-13, 1e-12)},
    ),
    reduction("median", arg=_distinct, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    reduction(
        "median[ties]",
        fn=fnp.median,
        ref=jax_promoted(np.median),  # JAX: int32 in float32
        arg=Arg(-2, 2, kind="int"),
        grad="skip",
        other_dtypes=INTS,
        covers=("numpy.median",),
    ),
    OpRow(
        "quantile",
        _qfn(fnp.quantile),
        _as_input_dtype(_qfn(np.quantile)),  # JAX: a's dtype whatever q's
        args=(_distinct,),
        kwargs=_q_kwargs(1.0),
        example_kwargs={"q": 0.3, "axis": 1, "keepdims": False, "method": "linear"},
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-13, 1e-12)},
    ),
    OpRow(
        "percentile",
        _qfn(fnp.percentile),
        _as_input_dtype(_qfn(np.percentile)),
        args=(_distinct,),
        kwargs=_q_kwargs(100.0),
        example_kwargs={"q": 30.0, "axis": None, "keepdims": False, "method": "linear"},
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-13, 1e-12)},
    ),
    _nan_reduction("nansum"),
    _nan_reduction("nanmean"),
    _nan_reduction("nanprod"),
    _nan_reduction("nanmax"),
    _nan_reduction("nanmin"),
    _nan_reduction("nanvar"),
    _nan_reduction("nanstd"),
    _nan_reduction(
        "nanargmax",
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1, min_side=3),
        grad="no",
        example_kwargs={"axis": 1},
    ),
    _nan_reduction(
        "nanargmin",
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1, min_side=3),
        grad="no",
        example_kwargs={"axis": 0},
    ),
]


