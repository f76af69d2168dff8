"""Reduction rows."""

from __future__ import annotations

from hypothesis import strategies as st
import numpy as np

import fgrad.numpy as fnp

from ._base import (Arg, BOOL, F32, F64, INTS, OpRow, axis_kwargs, jax_promoted, one_axis_kwargs, reduction,
                    shapes_of)

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# reductions

_distinct = Arg(-2, 2, kind="distinct")
ROWS += [
    reduction("sum"),
    reduction("mean"),
    reduction("prod", arg=Arg(0.3, 1.6)),
    reduction(
        "prod[with zeros]",
        fn=fnp.prod,
        ref=np.prod,
        covers=("numpy.prod",),
        make_args=lambda rng, shapes, kw, dt: [
            np.where(rng.random(shapes[0]) < 0.3, 0.0, rng.uniform(-1.5, 1.5, shapes[0])).astype(dt)
        ],
    ),
    reduction("max", arg=_distinct),
    reduction("min", arg=_distinct),
    reduction("ptp", arg=_distinct),
    reduction("average"),
    reduction("count_nonzero", grad="skip", arg=Arg(-2, 2, kind="int"), other_dtypes=INTS),
    reduction(
        "max[ties]",
        fn=fnp.max,
        ref=np.max,
        covers=("numpy.max",),
        grad="skip",
        arg=Arg(-2, 2, kind="int"),
        other_dtypes=INTS,
    ),
    reduction(
        "min[ties]",
        fn=fnp.min,
        ref=np.min,
        covers=("numpy.min",),
        grad="skip",
        arg=Arg(-2, 2, kind="int"),
        other_dtypes=INTS,
    ),
    reduction("var", kwargs=axis_kwargs(), fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)}),
    reduction(
        "std",
        arg=_distinct,
        shapes=shapes_of(1, min_dims=1, min_side=2),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)},
    ),
    reduction(
        "var[ddof=1]",
        fn=lambda x, **kw: fnp.var(x, ddof=1, **kw),
        ref=lambda x, **kw: np.var(x, ddof=1, **kw),
        covers=("numpy.var",),
        shapes=shapes_of(1, min_dims=1, min_side=2),
        kwargs=one_axis_kwargs(keepdims=True),
        fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-11)},
    ),
    reduction(
        "argmax",
        arg=_distinct,
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1),
        grad="no",
        example_kwargs={"axis": 1},
    ),
    reduction(
        "argmin",
        arg=_distinct,
        kwargs=one_axis_kwargs(keepdims=True),
        shapes=shapes_of(1, min_dims=1),
        grad="no",
        example_kwargs={"axis": 1},
    ),
    reduction(
        "argmax[flat]",
        fn=fnp.argmax,
        ref=np.argmax,
        arg=Arg(-2, 2, kind="int"),
        dtypes=(),
        other_dtypes=INTS,
        kwargs=lambda s: st.just({}),
        grad="no",
        covers=("numpy.argmax",),
        example_kwargs={},
    ),
    reduction(
        "argmin[flat]",
        fn=fnp.argmin,
        ref=np.argmin,
        arg=Arg(-2, 2, kind="int"),
        dtypes=(),
        other_dtypes=INTS,
        kwargs=lambda s: st.just({}),
        grad="no",
        covers=("numpy.argmin",),
        example_kwargs={},
    ),
    reduction("all", arg=Arg(-1, 1, kind="int"), other_dtypes=(BOOL,) + INTS, grad="no"),
    reduction("any", arg=Arg(-1, 1, kind="int"), other_dtypes=(BOOL,) + INTS, grad="no"),
    reduction(
        "sum[int]",
        fn=fnp.sum,
        ref=np.sum,
        arg=Arg(-9, 9),
        dtypes=(),
        other_dtypes=INTS + (BOOL,),
        covers=("numpy.sum",),
        grad="no",
    ),
    reduction(
        "mean[int]",
        fn=fnp.mean,
        ref=jax_promoted(np.mean),  # JAX: int32 averages in float32
        arg=Arg(-9, 9),
        dtypes=(),
        other_dtypes=INTS,
        covers=("numpy.mean",),
        grad="no",
    ),
]

