"""Elementwise rows: unary and binary math, comparisons and logic, where/clip."""

from __future__ import annotations

import numpy as np

import fgrad.numpy as fnp

from ._base import (
    Arg, BOOL, F32, F64, INTS, OpRow, _far_apart, binary, broadcast_shapes_of, near_half_integer,
    near_integer, shapes_of, unary, valid_mod, valid_not_tied,
)

ROWS: list[OpRow] = []

# --------------------------------------------------------------------------------------
# elementwise unary math

ROWS += [
    unary("exp"),
    unary("exp2"),
    unary("expm1"),
    unary("log", lo=0.1, hi=4.0),
    unary("log2", lo=0.1, hi=4.0),
    unary("log10", lo=0.1, hi=4.0),
    unary("log1p", lo=-0.9, hi=3.0),
    unary("sqrt", lo=0.1, hi=4.0),
    unary("cbrt", avoid=(0.0,)),
    unary("square"),
    unary("reciprocal", avoid=(0.0,)),
    unary("negative"),
    unary("positive"),
    unary("sin", lo=-4, hi=4),
    unary("cos", lo=-4, hi=4),
    unary("tan", lo=-1.3, hi=1.3),
    unary("arcsin", lo=-0.9, hi=0.9),
    unary("arccos", lo=-0.9, hi=0.9),
    unary("arctan", lo=-4, hi=4),
    unary("sinh"),
    unary("cosh"),
    unary("tanh", lo=-3, hi=3),
    unary("arcsinh", lo=-4, hi=4),
    unary("arccosh", lo=1.1, hi=4.0),
    unary("arctanh", lo=-0.9, hi=0.9),
    unary("abs", avoid=(0.0,)),
    unary("sign", avoid=(0.0,), grad="zero"),
    unary("floor", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("ceil", lo=-3, hi=3, avoid=near_integer, grad="zero"),
    unary("trunc", lo=-3, hi=3, avoid=near_integer, grad="zero"),
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
    unary("real"),
    unary("imag", grad="zero"),
    unary("conjugate"),
    unary("angle", grad="zero", avoid=np.abs),  # real input: 0 or pi (complex: tests/test_numerics_edges.py)
    unary("angle[deg]", fn=lambda x: fnp.angle(x, deg=True), ref=lambda x: np.angle(x, deg=True), grad="zero",
          avoid=np.abs, covers=("numpy.angle",)),
    unary("isnan", grad="no", specials=True),
    unary("isinf", grad="no", specials=True),
    unary("isfinite", grad="no", specials=True),
    unary("signbit", grad="no", specials=True),
    unary("nan_to_num", specials=True),
    unary("logical_not", grad="no", other_dtypes=(BOOL,)),
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
    for n in ("abs", "negative", "sign", "square", "exp")
]
ROWS += [unary("invert", lo=-9, hi=9, dtypes=(), other_dtypes=INTS + (BOOL,), grad="no")]

# --------------------------------------------------------------------------------------
# elementwise binary math

_pos = Arg(0.3, 3.0)
_nonzero = Arg(-3.0, 3.0, avoid=(0.0,), margin=0.3)

ROWS += [
    binary("add"),
    binary("subtract"),
    binary("multiply"),
    binary("divide", args=(Arg(), _nonzero)),
    binary("true_divide", args=(Arg(), _nonzero)),
    binary("power", args=(_pos, Arg())),
    binary("maximum", valid=valid_not_tied, specials=True),
    binary("minimum", valid=valid_not_tied, specials=True),
    binary("fmax", valid=valid_not_tied, specials=True),
    binary("fmin", valid=valid_not_tied, specials=True),
    binary("arctan2", args=(Arg(), _nonzero)),
    binary("hypot", args=(_nonzero, _nonzero)),
    binary("logaddexp"),
    binary("logaddexp2", fwd_tol={F32: (1e-6, 1e-5), F64: (1e-14, 1e-12)}),
    binary("mod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("remainder", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("fmod", args=(Arg(-4, 4), _nonzero), valid=valid_mod),
    binary("floor_divide", args=(Arg(-4, 4), _nonzero), valid=valid_mod, grad="zero"),
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
ROWS += [
    binary(
        f"{n}[int]",
        fn=getattr(fnp, n),
        ref=getattr(np, n),
        args=args,
        dtypes=(),
        other_dtypes=INTS,
        covers=(f"numpy.{n}",),
    )
    for n, args in [
        ("add", (_int_arg, _int_arg)),
        ("subtract", (_int_arg, _int_arg)),
        ("multiply", (_int_arg, _int_arg)),
        ("floor_divide", (_int_arg, _int_nonzero)),
        ("mod", (_int_arg, _int_nonzero)),
        ("maximum", (_int_arg, _int_arg)),
        ("minimum", (_int_arg, _int_arg)),
        ("true_divide", (_int_arg, _int_nonzero)),
    ]
]
ROWS += [
    binary(n, args=(_int_arg, _int_arg), dtypes=(), other_dtypes=INTS + (BOOL,), grad="no")
    for n in ("bitwise_and", "bitwise_or", "bitwise_xor")
]

# comparisons and logic (bool outputs; float, int and bool inputs)
ROWS += [
    binary(n, args=(Arg(-2, 2), Arg(-2, 2)), other_dtypes=INTS, grad="no", specials=True)
    for n in ("equal", "not_equal", "less", "less_equal", "greater", "greater_equal")
]
ROWS += [
    binary(n, args=(Arg(-1, 1), Arg(-1, 1)), other_dtypes=(BOOL,) + INTS, grad="no")
    for n in ("logical_and", "logical_or", "logical_xor")
]
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

