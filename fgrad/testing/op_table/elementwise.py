"""Elementwise rows: unary and binary math, comparisons and logic, where/clip."""

from __future__ import annotations

import numpy as np

import fgrad.numpy as fnp

from .from_specs import spec_rows
from ._base import (
    Arg, F32, F64, INTS, OpRow, _far_apart, binary, broadcast_shapes_of, near_half_integer,
    shapes_of, unary, valid_mod,
)

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# elementwise unary math

ROWS += [
    unary("square"),
    unary("reciprocal", avoid=(0.0,)),
    unary("positive"),
    unary("rint", lo=-3, hi=3, avoid=near_half_integer, grad="zero"),
    unary("round", lo=-3, hi=3, avoid=near_half_integer, grad="zero"),
    unary(
        "round[decimals=1]",
        fn=lambda x: fnp.round(x, 1),
        ref=lambda x: np.round(x, 1),
        lo=-3,
        hi=3,
        avoid=lambda v: near_half_integer(v * 10) / 10,
        grad="zero",
        covers=("numpy.round",),
    ),
    unary("deg2rad"),
    unary("rad2deg"),
    unary("sinc", lo=-3, hi=3, fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    # real input: 0 or pi (complex: tests/test_numerics_edges.py); JAX computes a 0-d real
    # float in the default float
    unary("angle", grad="zero", avoid=np.abs,
          ref=lambda x: np.angle(x).astype(np.float64 if np.ndim(x) == 0 else np.asarray(x).dtype)),
    unary("angle[deg]", fn=lambda x: fnp.angle(x, deg=True), grad="zero",
          ref=lambda x: np.angle(x, deg=True).astype(np.float64 if np.ndim(x) == 0 else np.asarray(x).dtype),
          avoid=np.abs, covers=("numpy.angle",)),
    unary("nan_to_num", specials=True),
    unary(
        "astype[float32]",
        fn=lambda x: fnp.astype(x, np.float32),
        ref=lambda x: x.astype(np.float32),
        covers=("numpy.astype",),
        f32_grad_scale=1.0,
    ),
    unary(
        "astype[float64]",
        fn=lambda x: fnp.astype(x, np.float64),
        ref=lambda x: x.astype(np.float64),
        covers=("numpy.astype",),
    ),
    unary(
        "astype[int32]",
        fn=lambda x: fnp.astype(x, np.int32),
        ref=lambda x: x.astype(np.int32),
        covers=("numpy.astype",),
        grad="no",
        lo=-50,
        hi=50,
    ),
    unary("power[x**2]", fn=lambda x: fnp.power(x, 2), ref=lambda x: np.power(x, 2), covers=("numpy.power",)),
    unary("power[x**3]", fn=lambda x: x**3, ref=lambda x: x**3, covers=("numpy.power",)),
    unary("power[x**0.5]", fn=lambda x: x**0.5, ref=lambda x: x**0.5, lo=0.1, hi=3, covers=("numpy.power",)),
    unary(
        "power[x**-1.5]",
        fn=lambda x: fnp.power(x, -1.5),
        ref=lambda x: np.power(x, -1.5),
        lo=0.2,
        hi=3,
        covers=("numpy.power",),
    ),
    unary(
        "power[2**x]", fn=lambda x: fnp.power(2.0, x), ref=lambda x: np.power(2.0, x), covers=("numpy.power",)
    ),
    unary(
        "clip", fn=lambda x: fnp.clip(x, -0.5, 0.7), ref=lambda x: np.clip(x, -0.5, 0.7), avoid=(-0.5, 0.7)
    ),
    unary(
        "clip[lo]",
        fn=lambda x: fnp.clip(x, -0.5),
        ref=lambda x: np.clip(x, -0.5, None),
        avoid=(-0.5,),
        covers=("numpy.clip",),
    ),
]

# Integer inputs through unary ops that accept them (forward and vmap only).
ROWS += [
    unary(
        f"{n}[int]",
        fn=getattr(fnp, n),
        ref=getattr(np, n),
        lo=-5,
        hi=5,
        dtypes=(),
        other_dtypes=INTS,
        covers=(f"numpy.{n}",),
    )
    for n in ("square",)
]

# --------------------------------------------------------------------------------------
# elementwise binary math

_pos = Arg(0.3, 3.0)
_nonzero = Arg(-3.0, 3.0, avoid=(0.0,), margin=0.3)

ROWS += [
    binary("divmod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("copysign", args=(_nonzero, _nonzero)),
    binary("heaviside", args=(Arg(avoid=(0.0,)), Arg()), grad="zero"),
    binary(
        "arctan2[quadrants]",
        fn=fnp.arctan2,
        ref=np.arctan2,
        args=(_nonzero, _nonzero),
        covers=("numpy.arctan2",),
    ),
]

_int_arg = Arg(-9, 9)
_int_nonzero = Arg(-9, 9, avoid=(0,))

# the ops declared in fgrad.ops.specs: their rows come from their specs
ROWS += spec_rows("unary") + spec_rows("binary")
ROWS += [
    binary("isclose", args=(Arg(-1, 1), Arg(-1, 1)), grad="no", specials=True),
    OpRow(
        "allclose",
        fnp.allclose,
        np.allclose,
        args=(Arg(-1, 1), Arg(-1, 1)),
        shapes=broadcast_shapes_of(2),
        grad="no",
        make_args=lambda rng, shapes, kw, dt: [
            rng.uniform(-1, 1, shapes[0]).astype(dt),
            (rng.uniform(-1, 1, shapes[1]) * 1e-9).astype(dt),
        ],
    ),
    OpRow(
        "array_equal",
        fnp.array_equal,
        np.array_equal,
        args=(Arg(-1, 1), Arg(-1, 1)),
        grad="no",
        shapes=shapes_of(2),
        make_args=lambda rng, shapes, kw, dt: [
            np.round(rng.uniform(-1, 1, shapes[0])).astype(dt),
            np.round(rng.uniform(-1, 1, shapes[1])).astype(dt),
        ],
    ),
]

# where / clip with array bounds
ROWS += [
    OpRow(
        "where",
        fnp.where,
        np.where,
        args=(Arg(kind="bool", diff=False), Arg(), Arg()),
        shapes=broadcast_shapes_of(3),
        example_shapes=((3, 2), (2,), (3, 1)),
    ),
    OpRow(
        "clip[arrays]",
        fnp.clip,
        np.clip,
        args=(Arg(), Arg(-2, -0.1), Arg(0.1, 2)),
        shapes=broadcast_shapes_of(3),
        example_shapes=((3, 2), (2,), (3, 1)),
        covers=("numpy.clip",),
        valid=lambda v, kw: _far_apart(v[0], v[1]) and _far_apart(v[0], v[2]),
    ),
]

