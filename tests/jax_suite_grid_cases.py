"""The case grids of JAX's own numerical test suites (``tests/lax_numpy_operators_test.py``,
``lax_numpy_reducers_test.py``, ``lax_numpy_indexing_test.py``, ``lax_numpy_test.py``,
``lax_test.py``, ``lax_autodiff_test.py`` of JAX 0.10.2), rewritten as data: which function,
how many arguments, which input dtypes and shapes, which kind of random values, and the
tolerance.  The harness is our own; the facts (names, arities, dtype and shape families,
value ranges, tolerances) are the records'.

Every case is an expression over the names ``jnp``, ``lax``, ``jax``, ``operator``, ``np`` and
its inputs ``a0, a1, ...`` (NumPy values made here from a seed derived from the case's id;
array inputs are passed through the library's ``asarray``, Python scalars as they are).  The
same code runs under JAX (``tools/make_jax_suite_grid_table.py`` writes
``tests/stored/jax_suite_grid.json``) and under fgrad (``tests/test_jax_suite_grids.py``).

An outcome is ``{"error": <the builtin base of the raised type>}`` or ``{"leaves": [[dtype,
shape, values, weak], ...]}`` for the result's array leaves.

This module is not a test module (no ``test_`` prefix): pytest does not collect it.
"""

from __future__ import annotations

import itertools
import math
import operator
import zlib
from dataclasses import dataclass, field

import ml_dtypes
import numpy as np

# -- dtype and shape families (as the records name them) ------------------------------------
FLOAT = ["bfloat16", "float16", "float32", "float64"]
COMPLEX = ["complex64", "complex128"]
INT = ["int8", "int16", "int32", "int64"]
UNSIGNED = ["uint8", "uint16", "uint32", "uint64"]
BOOL = ["bool"]
DEFAULT = FLOAT + INT
INEXACT = FLOAT + COMPLEX
NUMBER = FLOAT + COMPLEX + INT + UNSIGNED
REAL = FLOAT + INT + UNSIGNED
ALL = NUMBER + BOOL
INT_NO_UINT64 = [d for d in INT + UNSIGNED if d != "uint64"]

PY = "py"  # a Python scalar (bool, int, float, complex: the dtypes below stand for them)
PY_DTYPES = {"bool": bool, "int64": int, "float64": float, "complex128": complex}
NONEMPTY_NONSCALAR = [(4,), (3, 4), (3, 1), (1, 4), (2, 1, 4), (2, 3, 4)]
NONEMPTY_ARRAY = [(), *NONEMPTY_NONSCALAR]
EMPTY = [(0,), (0, 4), (3, 0)]
ALL_SHAPES = [PY, *NONEMPTY_ARRAY, *EMPTY]
NONEMPTY_SHAPES = [PY, *NONEMPTY_ARRAY]

# the scaled-down grid of the default run: a scalar, a Python scalar, a matrix, a broadcast
# against it, a 3-d array and an empty one; the representative dtypes of each kind
SMALL_SHAPES = [PY, (), (3, 4), (0, 4)]
SMALL_PAIRS = [((3, 4), (3, 4)), ((), (2, 1, 4)), ((0, 4), (1, 4)), ((3, 4), PY)]
SMALL_DTYPES = [
    "bool",
    "int8",
    "int32",
    "int64",
    "uint8",
    "bfloat16",
    "float16",
    "float32",
    "float64",
    "complex64",
]

# tolerances (relative and absolute) per result dtype, the records' own where they give one
TOL = {
    "bfloat16": 2e-2,
    "float16": 2e-3,
    "float32": 2e-5,
    "float64": 1e-12,
    "complex64": 2e-5,
    "complex128": 1e-12,
}


@dataclass(frozen=True)
class Record:
    """One record: ``expr`` is the call with ``{0}``, ``{1}`` ... standing for the inputs."""

    family: str  # the JAX test file's record list it comes from
    name: str
    nargs: int
    dtypes: list
    shapes: list
    rng: str = "default"
    tol: dict = field(default_factory=dict)
    expr: str = ""
    same_dtype: bool = False  # all arguments share one dtype (lax, bitwise)

    def call(self) -> str:
        return self.expr or f"jnp.{self.name}(" + ", ".join(f"{{{i}}}" for i in range(self.nargs)) + ")"


def _r(family, name, nargs, dtypes, shapes, rng="default", tol=None, expr="", same_dtype=False):
    return Record(family, name, nargs, list(dtypes), list(shapes), rng, dict(tol or {}), expr, same_dtype)


_NO_BF16 = [d for d in FLOAT if d != "bfloat16"]
OPS = "operators"
# JAX_ONE_TO_ONE_OP_RECORDS and JAX_COMPOUND_OP_RECORDS
OPERATOR_RECORDS = [
    _r(OPS, "abs", 1, ALL, ALL_SHAPES),
    _r(OPS, "add", 2, ALL, ALL_SHAPES),
    _r(OPS, "ceil", 1, FLOAT + INT + UNSIGNED, ALL_SHAPES),
    _r(OPS, "conj", 1, NUMBER, ALL_SHAPES),
    _r(OPS, "equal", 2, ALL, ALL_SHAPES, "some_equal"),
    _r(OPS, "exp", 1, NUMBER, ALL_SHAPES),
    _r(OPS, "fabs", 1, FLOAT, ALL_SHAPES),
    _r(
        OPS,
        "float_power",
        2,
        INEXACT,
        ALL_SHAPES,
        "positive",
        {"bfloat16": 1e-2, "float32": 1e-3, "complex64": 2e-4},
    ),
    _r(OPS, "floor", 1, FLOAT + INT + UNSIGNED, ALL_SHAPES),
    _r(OPS, "greater", 2, ALL, ALL_SHAPES, "some_equal"),
    _r(OPS, "greater_equal", 2, ALL, ALL_SHAPES, "some_equal"),
    _r(OPS, "i0", 1, FLOAT, ALL_SHAPES, tol={"float16": 3e-3}),
    _r(OPS, "ldexp", 2, INT, ALL_SHAPES, "int8"),
    _r(OPS, "less", 2, ALL, ALL_SHAPES, "some_equal"),
    _r(OPS, "less_equal", 2, ALL, ALL_SHAPES, "some_equal"),
    _r(OPS, "log", 1, NUMBER, ALL_SHAPES, "positive"),
    _r(OPS, "logical_and", 2, ALL, ALL_SHAPES, "bool"),
    _r(OPS, "logical_not", 1, ALL, ALL_SHAPES, "bool"),
    _r(OPS, "logical_or", 2, ALL, ALL_SHAPES, "bool"),
    _r(OPS, "logical_xor", 2, ALL, ALL_SHAPES, "bool"),
    _r(OPS, "maximum", 2, ALL, ALL_SHAPES, "some_inf"),
    _r(OPS, "minimum", 2, ALL, ALL_SHAPES, "some_inf"),
    _r(OPS, "multiply", 2, ALL, ALL_SHAPES),
    _r(OPS, "negative", 1, NUMBER, ALL_SHAPES),
    _r(OPS, "nextafter", 2, _NO_BF16, ALL_SHAPES, tol={"float16": 0, "float32": 0, "float64": 0}),
    _r(OPS, "not_equal", 2, ALL, ALL_SHAPES, "some_equal"),
    _r(OPS, "array_equal", 2, NUMBER, ALL_SHAPES, "some_equal"),
    _r(OPS, "array_equiv", 2, NUMBER, ALL_SHAPES, "some_equal"),
    _r(OPS, "reciprocal", 1, INEXACT, ALL_SHAPES, "nonzero"),
    _r(OPS, "subtract", 2, NUMBER, ALL_SHAPES),
    _r(OPS, "signbit", 1, DEFAULT + BOOL, ALL_SHAPES, "some_inf_and_nan"),
    _r(OPS, "trunc", 1, FLOAT + INT + UNSIGNED, ALL_SHAPES, "some_inf_and_nan"),
    *[_r(OPS, n, 1, NUMBER, ALL_SHAPES) for n in ("sin", "cos", "sinh", "cosh")],
    _r(OPS, "tan", 1, INEXACT + INT, ALL_SHAPES, "small"),
    _r(OPS, "tanh", 1, NUMBER, ALL_SHAPES, tol={"float64": 1e-7, "complex128": 1e-7}),
    *[
        _r(OPS, n, 1, NUMBER, ALL_SHAPES, "small")
        for n in ("arcsin", "arccos", "arctan", "arctanh", "asin", "acos", "atan", "atanh")
    ],
    *[
        _r(OPS, n, 1, NUMBER, ALL_SHAPES, tol={"complex64": 2e-4, "complex128": 2e-12})
        for n in ("arcsinh", "arccosh", "asinh", "acosh")
    ],
    _r(OPS, "arctan2", 2, FLOAT, ALL_SHAPES, "small"),
    _r(OPS, "atan2", 2, FLOAT, ALL_SHAPES, "small"),
    _r(OPS, "angle", 1, NUMBER, ALL_SHAPES),
    _r(OPS, "angle_deg", 1, NUMBER, ALL_SHAPES, expr="jnp.angle({0}, deg=True)"),
    *[_r(OPS, n, 1, DEFAULT, ALL_SHAPES) for n in ("atleast_1d", "atleast_2d", "atleast_3d")],
    _r(OPS, "cbrt", 1, DEFAULT, ALL_SHAPES, "some_inf"),
    _r(OPS, "conjugate", 1, NUMBER, ALL_SHAPES),
    _r(OPS, "deg2rad", 1, FLOAT, ALL_SHAPES),
    _r(OPS, "divide", 2, NUMBER, ALL_SHAPES, "nonzero"),
    _r(OPS, "divmod", 2, INT + FLOAT, ALL_SHAPES, "nonzero"),
    _r(OPS, "exp2", 1, NUMBER, ALL_SHAPES, tol={"bfloat16": 4e-2, "float16": 1e-2}),
    _r(OPS, "expm1", 1, NUMBER, ALL_SHAPES, "small_positive", {"float64": 1e-8}),
    _r(OPS, "fix", 1, FLOAT + INT + UNSIGNED, ALL_SHAPES),
    _r(OPS, "floor_divide", 2, DEFAULT + UNSIGNED, ALL_SHAPES, "nonzero"),
    _r(OPS, "fmin", 2, NUMBER, ALL_SHAPES, "some_nan"),
    _r(OPS, "fmax", 2, NUMBER, ALL_SHAPES, "some_nan"),
    _r(OPS, "fmod", 2, DEFAULT, ALL_SHAPES, "some_nan"),
    _r(OPS, "heaviside", 2, DEFAULT, ALL_SHAPES),
    _r(OPS, "hypot", 2, REAL, ALL_SHAPES),
    _r(OPS, "kron", 2, NUMBER, NONEMPTY_SHAPES),
    _r(OPS, "outer", 2, NUMBER, ALL_SHAPES),
    _r(OPS, "imag", 1, NUMBER, ALL_SHAPES, "some_inf"),
    _r(OPS, "iscomplex", 1, NUMBER, ALL_SHAPES, "some_inf"),
    *[_r(OPS, n, 1, INEXACT, ALL_SHAPES, "some_inf_and_nan") for n in ("isfinite", "isinf", "isnan")],
    *[_r(OPS, n, 1, FLOAT, ALL_SHAPES, "some_inf_and_nan") for n in ("isneginf", "isposinf")],
    _r(OPS, "isreal", 1, NUMBER, ALL_SHAPES, "some_inf"),
    _r(OPS, "isrealobj", 1, NUMBER, ALL_SHAPES, "some_inf"),
    _r(OPS, "log2", 1, NUMBER, ALL_SHAPES, "positive"),
    _r(OPS, "log10", 1, NUMBER, ALL_SHAPES, "positive"),
    _r(OPS, "log1p", 1, NUMBER, ALL_SHAPES, "small_positive", {"float64": 1e-12}),
    _r(OPS, "logaddexp", 2, FLOAT, ALL_SHAPES, "some_inf_and_nan"),
    _r(OPS, "logaddexp2", 2, FLOAT, ALL_SHAPES, "some_inf_and_nan", {"float16": 1e-2}),
    _r(
        OPS,
        "polyval",
        2,
        [d for d in NUMBER if d not in ("int8", "uint8")],
        NONEMPTY_NONSCALAR,
        tol={"bfloat16": 4e-2, "float16": 2e-2},
    ),
    _r(OPS, "positive", 1, NUMBER, ALL_SHAPES),
    _r(OPS, "power", 2, NUMBER, ALL_SHAPES, "positive", {"complex128": 1e-12}),
    _r(OPS, "pow", 2, NUMBER, ALL_SHAPES, "positive", {"complex128": 1e-12}),
    _r(OPS, "rad2deg", 1, FLOAT, ALL_SHAPES),
    _r(OPS, "ravel", 1, ALL, ALL_SHAPES),
    _r(OPS, "real", 1, NUMBER, ALL_SHAPES, "some_inf"),
    _r(OPS, "remainder", 2, DEFAULT, ALL_SHAPES, "some_zero", {"float16": 1e-2}),
    _r(OPS, "mod", 2, DEFAULT, ALL_SHAPES, "some_zero"),
    _r(OPS, "modf", 1, FLOAT + INT + UNSIGNED, ALL_SHAPES),
    _r(OPS, "rint", 1, INEXACT, ALL_SHAPES, "some_inf_and_nan"),
    _r(OPS, "rint", 1, INT + UNSIGNED, ALL_SHAPES),
    _r(OPS, "sign", 1, NUMBER, ALL_SHAPES, "some_inf_and_nan"),
    _r(OPS, "copysign", 2, DEFAULT + UNSIGNED, ALL_SHAPES, "some_inf_and_nan"),
    _r(OPS, "sinc", 1, [d for d in NUMBER if d != "bfloat16"], ALL_SHAPES, tol={"complex64": 1e-5}),
    _r(OPS, "square", 1, NUMBER, ALL_SHAPES),
    _r(OPS, "sqrt", 1, NUMBER, ALL_SHAPES, "positive"),
    _r(OPS, "transpose", 1, ALL, ALL_SHAPES),
    _r(OPS, "true_divide", 2, ALL, ALL_SHAPES, "nonzero"),
    _r(OPS, "ediff1d", 1, ["int32"], ALL_SHAPES),
    _r(OPS, "unwrap", 1, FLOAT, NONEMPTY_NONSCALAR, tol={"bfloat16": 1e-1, "float16": 1e-1}),
    _r(OPS, "isclose", 2, [d for d in ALL if d != "bfloat16"], ALL_SHAPES, "small_positive"),
    _r(OPS, "gcd", 2, INT_NO_UINT64, ALL_SHAPES),
    _r(OPS, "lcm", 2, INT_NO_UINT64, ALL_SHAPES),
    _r(OPS, "frexp", 1, FLOAT, ALL_SHAPES, "some_inf_and_nan"),
    _r(OPS, "spacing", 1, FLOAT, ALL_SHAPES),
    _r(OPS, "nan_to_num", 1, INEXACT, ALL_SHAPES, "some_inf_and_nan"),
    _r(OPS, "left_shift", 2, INT_NO_UINT64, ALL_SHAPES, "int8", same_dtype=True),
    _r(OPS, "right_shift", 2, INT_NO_UINT64, ALL_SHAPES, "int8", same_dtype=True),
    _r(OPS, "float_power_int", 2, INT, ALL_SHAPES, "positive", expr="jnp.float_power({0}, {1})"),
    _r(OPS, "sinc_int", 1, INT + BOOL, ALL_SHAPES, expr="jnp.sinc({0})"),
    _r(OPS, "logaddexp_int", 2, INT + BOOL, ALL_SHAPES, expr="jnp.logaddexp({0}, {1})"),
    _r(OPS, "arctan2_int", 2, INT + BOOL + COMPLEX, ALL_SHAPES, expr="jnp.arctan2({0}, {1})"),
]

BITS = "bitwise"
BITWISE_RECORDS = [
    *[
        _r(BITS, n, 2, INT + UNSIGNED, ALL_SHAPES, "fullrange", same_dtype=True)
        for n in ("bitwise_and", "bitwise_or", "bitwise_xor")
    ],
    *[
        _r(BITS, n, 1, INT + UNSIGNED + BOOL, ALL_SHAPES, "fullrange")
        for n in ("bitwise_invert", "bitwise_not", "invert", "bitwise_count")
    ],
    *[_r(BITS, n, 2, BOOL, ALL_SHAPES, "bool") for n in ("bitwise_and", "bitwise_or", "bitwise_xor")],
]

OVER = "overloads"
OVERLOAD_RECORDS = [
    *[
        _r(OVER, f"__{n}__", 2, NUMBER, ALL_SHAPES, expr=f"operator.{n}({{0}}, {{1}})")
        for n in ("add", "sub", "mul", "eq", "ne")
    ],
    *[
        _r(OVER, f"__{n}__", 2, DEFAULT, ALL_SHAPES, expr=f"operator.{n}({{0}}, {{1}})")
        for n in ("lt", "le", "gt", "ge")
    ],
    *[
        _r(OVER, f"__{n}__", 1, NUMBER, ALL_SHAPES, expr=f"operator.{n}({{0}})")
        for n in ("pos", "neg", "abs")
    ],
    _r(
        OVER,
        "__pow__",
        2,
        INEXACT,
        ALL_SHAPES,
        "positive",
        {"float32": 2e-4, "complex64": 2e-4},
        expr="operator.pow({0}, {1})",
    ),
    _r(OVER, "__mod__", 2, DEFAULT, ALL_SHAPES, "nonzero", {"float16": 1e-1}, expr="operator.mod({0}, {1})"),
    _r(OVER, "__floordiv__", 2, DEFAULT, ALL_SHAPES, "nonzero", expr="operator.floordiv({0}, {1})"),
    _r(OVER, "__truediv__", 2, NUMBER, ALL_SHAPES, "nonzero", expr="operator.truediv({0}, {1})"),
    _r(OVER, "__invert__", 1, INT, ALL_SHAPES, expr="operator.invert({0})"),
    _r(OVER, "__lshift__", 2, INT_NO_UINT64, ALL_SHAPES, "int8", expr="operator.lshift({0}, {1})"),
    _r(OVER, "__rshift__", 2, INT_NO_UINT64, ALL_SHAPES, "int8", expr="operator.rshift({0}, {1})"),
    _r(
        OVER,
        "__rpow__",
        2,
        INEXACT,
        ALL_SHAPES,
        "positive",
        {"float32": 2e-4, "complex64": 1e-3},
        expr="{1}.__rpow__({0})",
    ),
    _r(OVER, "__rtruediv__", 2, NUMBER, ALL_SHAPES, "nonzero", expr="{1}.__rtruediv__({0})"),
    _r(OVER, "__rfloordiv__", 2, DEFAULT, ALL_SHAPES, "nonzero", expr="{1}.__rfloordiv__({0})"),
    _r(OVER, "__rmod__", 2, DEFAULT, ALL_SHAPES, "nonzero", {"float16": 1e-1}, expr="{1}.__rmod__({0})"),
]

# reducers: JAX_REDUCER_RECORDS (dtype=), _INITIAL_RECORDS (initial=), _WHERE_NO_INITIAL
# (where=), _NO_DTYPE_RECORDS (axis and keepdims only), argmin/argmax and the cumulative ones
RED = "reducers"
REDUCER_RECORDS = [
    *[
        _r(RED, n, 1, d, s, rng)
        for n, d, s, rng in [
            ("mean", NUMBER, NONEMPTY_SHAPES, "default"),
            ("prod", ALL, ALL_SHAPES, "small_positive"),
            ("sum", ALL, ALL_SHAPES, "default"),
            ("nanmean", INEXACT, NONEMPTY_SHAPES, "some_nan"),
            ("nanprod", ALL, ALL_SHAPES, "some_nan"),
            ("nansum", NUMBER, ALL_SHAPES, "some_nan"),
            ("all", ALL, ALL_SHAPES, "some_zero"),
            ("any", ALL, ALL_SHAPES, "some_zero"),
            ("max", ALL, NONEMPTY_SHAPES, "default"),
            ("min", ALL, NONEMPTY_SHAPES, "default"),
            ("var", ALL, NONEMPTY_SHAPES, "default"),
            ("std", ALL, NONEMPTY_SHAPES, "default"),
            ("nanmax", ALL, NONEMPTY_SHAPES, "some_nan"),
            ("nanmin", ALL, NONEMPTY_SHAPES, "some_nan"),
            ("nanvar", ALL, NONEMPTY_SHAPES, "some_nan"),
            ("nanstd", ALL, NONEMPTY_SHAPES, "some_nan"),
            ("ptp", NUMBER, NONEMPTY_SHAPES, "default"),
            ("argmin", ALL, NONEMPTY_SHAPES, "default"),
            ("argmax", ALL, NONEMPTY_SHAPES, "default"),
            ("nanargmin", INEXACT, NONEMPTY_SHAPES, "some_nan"),
            ("nanargmax", INEXACT, NONEMPTY_SHAPES, "some_nan"),
            ("median", FLOAT + INT, NONEMPTY_SHAPES, "default"),
            ("nanmedian", FLOAT, NONEMPTY_SHAPES, "some_nan"),
            ("cumsum", ALL, NONEMPTY_SHAPES, "default"),
            ("cumprod", ALL, NONEMPTY_SHAPES, "small_positive"),
            ("nancumsum", NUMBER, NONEMPTY_SHAPES, "some_nan"),
            ("nancumprod", NUMBER, NONEMPTY_SHAPES, "some_nan"),
            ("cumulative_sum", ALL, NONEMPTY_NONSCALAR, "default"),
            ("cumulative_prod", ALL, NONEMPTY_NONSCALAR, "small_positive"),
        ]
    ],
]
# the variants each reducer is run with (None where the reducer takes no such argument)
REDUCER_KWARGS = {
    "dtype": [
        "mean",
        "prod",
        "sum",
        "nanmean",
        "nanprod",
        "nansum",
        "cumsum",
        "cumprod",
        "nancumsum",
        "nancumprod",
    ],
    "initial": ["prod", "sum", "max", "min", "nanprod", "nansum", "nanmax", "nanmin"],
    "where": ["all", "any", "mean", "var", "std", "nanmean", "nanvar", "nanstd", "sum", "prod", "max", "min"],
    "ddof": ["var", "std", "nanvar", "nanstd"],
    "promote_integers": ["sum", "prod"],
}

LAX = "lax"
_LAX_FLOAT = FLOAT
LAX_RECORDS = [
    *[
        _r(LAX, n, 1, FLOAT + COMPLEX, NONEMPTY_ARRAY, rng, expr=f"lax.{n}({{0}})")
        for n, rng in [
            ("exp", "small"),
            ("exp2", "small"),
            ("expm1", "small"),
            ("log", "positive"),
            ("log1p", "positive"),
            ("tanh", "default"),
            ("sin", "default"),
            ("cos", "default"),
            ("tan", "small"),
            ("sqrt", "positive"),
            ("rsqrt", "positive"),
            ("asin", "small"),
            ("acos", "small"),
            ("atan", "small"),
            ("asinh", "default"),
            ("acosh", "positive"),
            ("atanh", "small"),
            ("sinh", "small"),
            ("cosh", "small"),
            ("logistic", "default"),
            ("square", "default"),
            ("reciprocal", "nonzero"),
            ("sign", "default"),
            ("neg", "default"),
            ("abs", "default"),
            ("real", "default"),
            ("imag", "default"),
            ("conj", "default"),
            ("is_finite", "some_inf_and_nan"),
            ("floor", "default"),
            ("ceil", "default"),
            ("round", "default"),
            ("cbrt", "default"),
            ("lgamma", "positive"),
            ("digamma", "positive"),
            ("erf", "small"),
            ("erfc", "small"),
            ("erf_inv", "small"),
            ("bessel_i0e", "default"),
            ("bessel_i1e", "default"),
        ]
    ],
    *[
        _r(LAX, n, 1, INT + UNSIGNED + BOOL, NONEMPTY_ARRAY, "fullrange", expr=f"lax.{n}({{0}})")
        for n in ("population_count", "clz", "bitwise_not", "neg", "abs", "sign", "exp", "floor")
    ],
    *[
        _r(LAX, n, 2, ALL, NONEMPTY_ARRAY, "default", expr=f"lax.{n}({{0}}, {{1}})", same_dtype=True)
        for n in ("add", "sub", "mul", "max", "min", "eq", "ne", "lt", "le", "gt", "ge")
    ],
    *[
        _r(LAX, n, 2, NUMBER, NONEMPTY_ARRAY, "nonzero", expr=f"lax.{n}({{0}}, {{1}})", same_dtype=True)
        for n in ("div", "rem")
    ],
    *[
        _r(
            LAX,
            n,
            2,
            FLOAT + COMPLEX,
            NONEMPTY_ARRAY,
            "positive",
            expr=f"lax.{n}({{0}}, {{1}})",
            same_dtype=True,
        )
        for n in ("pow", "atan2", "nextafter", "igamma", "igammac", "complex")
    ],
    *[
        _r(
            LAX,
            n,
            2,
            INT + UNSIGNED + BOOL,
            NONEMPTY_ARRAY,
            "int8",
            expr=f"lax.{n}({{0}}, {{1}})",
            same_dtype=True,
        )
        for n in (
            "shift_left",
            "shift_right_arithmetic",
            "shift_right_logical",
            "bitwise_and",
            "bitwise_or",
            "bitwise_xor",
        )
    ],
    _r(LAX, "integer_pow", 1, NUMBER, NONEMPTY_ARRAY, expr="lax.integer_pow({0}, 3)"),
    _r(LAX, "integer_pow_neg", 1, INEXACT, NONEMPTY_ARRAY, "nonzero", expr="lax.integer_pow({0}, -2)"),
    _r(
        LAX, "round_even", 1, FLOAT, NONEMPTY_ARRAY, expr="lax.round({0}, lax.RoundingMethod.TO_NEAREST_EVEN)"
    ),
    _r(
        LAX, "convert_element_type", 1, ALL, NONEMPTY_ARRAY, expr="lax.convert_element_type({0}, jnp.float32)"
    ),
    _r(LAX, "convert_to_int", 1, FLOAT, NONEMPTY_ARRAY, expr="lax.convert_element_type({0}, jnp.int32)"),
    _r(LAX, "polygamma", 1, FLOAT, NONEMPTY_ARRAY, "positive", expr="lax.polygamma(jnp.ones_like({0}), {0})"),
]

# lax_autodiff_test's grad records: reverse-mode derivatives of the unary math (the sum of the
# outputs' real parts), float64 and float32 and complex128
GRAD = "autodiff"
GRAD_RECORDS = (
    [
        _r(
            GRAD,
            f"grad_{n}",
            1,
            ["float64", "float32"],
            [(), (3, 4)],
            rng,
            {"float32": 2e-4, "float64": 1e-10},
            expr=f"jax.grad(lambda x: jnp.sum(lax.{n}(x)))({{0}})",
        )
        for n, rng in [
            ("exp", "small"),
            ("log", "positive"),
            ("sin", "default"),
            ("cos", "default"),
            ("tan", "small"),
            ("tanh", "default"),
            ("sinh", "small"),
            ("cosh", "small"),
            ("asin", "small"),
            ("acos", "small"),
            ("atan", "small"),
            ("asinh", "default"),
            ("acosh", "positive_above_one"),
            ("atanh", "small"),
            ("sqrt", "positive"),
            ("rsqrt", "positive"),
            ("cbrt", "positive"),
            ("logistic", "default"),
            ("log1p", "positive"),
            ("expm1", "small"),
            ("lgamma", "positive"),
            ("digamma", "positive"),
            ("erf", "small"),
            ("erfc", "small"),
            ("erf_inv", "small"),
            ("bessel_i0e", "default"),
            ("bessel_i1e", "default"),
            ("square", "default"),
            ("abs", "nonzero"),
            ("reciprocal", "nonzero"),
        ]
    ]
    + [
        _r(
            GRAD,
            f"grad_{n}",
            2,
            ["float64"],
            [(), (3, 4)],
            "positive",
            {"float64": 1e-10},
            expr=f"jax.grad(lambda x, y: jnp.sum(lax.{n}(x, y)), argnums=(0, 1))({{0}}, {{1}})",
        )
        for n in ("add", "sub", "mul", "div", "pow", "atan2", "max", "min", "rem", "igamma")
    ]
    + [
        _r(
            GRAD,
            f"grad_c_{n}",
            1,
            ["complex128"],
            [(3,)],
            rng,
            {"complex128": 1e-10},
            expr=f"jax.grad(lambda x: jnp.real(jnp.sum(lax.{n}(x))), holomorphic=False)({{0}})",
        )
        for n, rng in [
            ("exp", "small"),
            ("log", "positive"),
            ("sin", "default"),
            ("tanh", "small"),
            ("sqrt", "positive"),
            ("square", "default"),
            ("reciprocal", "nonzero"),
        ]
    ]
)


def _grid_shapes(rec: Record, small: bool) -> list:
    shapes = [s for s in rec.shapes if s in SMALL_SHAPES] if small else rec.shapes
    if rec.family in (LAX, GRAD):
        shapes = [s for s in shapes if s != PY]
    if not shapes:
        shapes = rec.shapes[:2]
    return shapes


def _broadcastable(shapes) -> bool:
    try:
        np.broadcast_shapes(*(() if s == PY else s for s in shapes))
    except ValueError:
        return False
    return True


def _valid(shape, dtype) -> bool:
    return shape != PY or dtype in PY_DTYPES


@dataclass(frozen=True)
class Case:
    """One call: ``id`` names it; ``expr`` is evaluated with the inputs bound."""

    id: str
    expr: str
    inputs: tuple  # (shape, dtype, rng) per input
    tol: dict


def _dtype_name(d) -> str:
    return "py" + PY_DTYPES[d].__name__ if False else d


def record_cases(rec: Record, small: bool) -> list[Case]:
    """The cases of one record: the shapes (combinations with replacement, broadcastable) times
    the dtypes (one dtype for all arguments; the full grid adds mixed pairs on one shape)."""
    shapes = _grid_shapes(rec, small)
    dts = [d for d in rec.dtypes if d in SMALL_DTYPES] if small else rec.dtypes
    dts = dts or rec.dtypes[:1]
    out = []
    combos = itertools.combinations_with_replacement(shapes, rec.nargs)
    if small and rec.nargs == 2:
        combos = [
            p
            for p in SMALL_PAIRS
            if all(s in rec.shapes for s in p) and (p[1] != PY or rec.family not in (LAX, GRAD))
        ]
    for shp in combos:
        if not _broadcastable(shp) or (rec.nargs > 1 and all(s == PY for s in shp)):
            continue
        for dt in dts:
            if all(_valid(s, dt) for s in shp):
                out.append(_case(rec, shp, (dt,) * rec.nargs))
    if rec.nargs == 2 and not rec.same_dtype:
        pairs = itertools.permutations(dts, 2)
        if small:  # every dtype against float32 and int32
            pairs = [(a, b) for a, b in pairs if b in ("float32", "int32")]
        base = (3, 4) if (3, 4) in rec.shapes else rec.shapes[-1]
        out += [_case(rec, (base, base), p) for p in pairs]
        # Python scalars (weakly typed) against each dtype
        for dt in dts:
            for pyt in ("int64", "float64") if small else ("int64", "float64", "complex128", "bool"):
                if PY in rec.shapes and pyt in rec.dtypes + ["int64", "float64"]:
                    out.append(_case(rec, (base, PY), (dt, pyt)))
    return out


def _case(rec: Record, shapes, dtypes) -> Case:
    sig = ",".join(f"{'py' if s == PY else 'x'.join(map(str, s)) or 's'}:{d}" for s, d in zip(shapes, dtypes))
    return Case(
        f"{rec.family}/{rec.name}/{rec.rng}[{sig}]",
        rec.call(),
        tuple((s, d, rec.rng) for s, d in zip(shapes, dtypes)),
        rec.tol,
    )


def reducer_cases(rec: Record, small: bool) -> list[Case]:
    """A reducer over each axis (and None) and keepdims, with the keyword variants its family
    takes (dtype=, initial=, where=, ddof=, promote_integers=)."""
    shapes = [
        s
        for s in _grid_shapes(rec, small)
        if s != PY or rec.name not in ("cumulative_sum", "cumulative_prod")
    ]
    if small:
        shapes = [s for s in shapes if s in ((3, 4), (), (0, 4))] or shapes[:1]
    dts = [d for d in rec.dtypes if d in SMALL_DTYPES] if small else rec.dtypes
    cumulative = rec.name.startswith(("cum", "nancum", "cumulative"))
    out = []
    for shape in shapes:
        nd = 0 if shape == PY else len(shape)
        axes = list(range(-nd, nd)) + ([] if rec.name.startswith("cumulative") and nd > 1 else [None])
        if small:
            axes = axes[-2:] if len(axes) > 2 else axes
        for dt in dts:
            if not _valid(shape, dt):
                continue
            for axis in axes:
                for kd in [False] if cumulative else [False, True]:
                    kw = f"axis={axis}" + ("" if cumulative else f", keepdims={kd}")
                    variants = [kw]
                    if not kd:
                        if rec.name in REDUCER_KWARGS["dtype"]:
                            variants += [f"{kw}, dtype=jnp.{o}" for o in ("float32", "int32", "complex64")][
                                : 1 if small else 3
                            ]
                        if rec.name in REDUCER_KWARGS["initial"]:
                            variants += [f"{kw}, initial=1"] + ([] if small else [f"{kw}, initial=0"])
                        if rec.name in REDUCER_KWARGS["where"] and shape != PY:
                            variants.append(
                                f"{kw}, where=np.arange(int(np.prod({shape!r}))).reshape({shape!r}) % 3 != 1"
                                + (", initial=0" if rec.name in ("max", "min") else "")
                            )
                        if rec.name in REDUCER_KWARGS["ddof"]:
                            variants.append(f"{kw}, ddof=1")
                        if rec.name in REDUCER_KWARGS["promote_integers"]:
                            variants.append(f"{kw}, promote_integers=False")
                    for v in variants:
                        sig = f"{'py' if shape == PY else 'x'.join(map(str, shape)) or 's'}:{dt}|{v}"
                        out.append(
                            Case(
                                f"{rec.family}/{rec.name}/{rec.rng}[{sig}]",
                                f"jnp.{rec.name}({{0}}, {v})",
                                ((shape, dt, rec.rng),),
                                {"float16": 1e-2, "bfloat16": 5e-2, "float32": 1e-4, "complex64": 1e-4},
                            )
                        )
    return out


# lax_numpy_indexing_test: basic, advanced and mixed indexing of a (3, 4, 5) array, and the
# .at[] updates with each mode (indices in and out of bounds)
_IDX = [
    "0",
    "-1",
    "2",
    "3",
    "-4",
    "slice(None)",
    "slice(1, 3)",
    "slice(None, None, -1)",
    "slice(-2, None, 2)",
    "(0, 1)",
    "(slice(None), 2)",
    "(Ellipsis, 1)",
    "(None, 0)",
    "(0, None, slice(None), None)",
    "(Ellipsis, None)",
    "(1, Ellipsis, 2)",
    "np.array([0, 2])",
    "np.array([[0, 1], [2, 0]])",
    "np.array([-1, 0])",
    "(np.array([0, 1]), np.array([1, 3]))",
    "(slice(None), np.array([0, 3, 1]))",
    "(np.array([0, 2]), slice(None), np.array([1, 4]))",
    "(Ellipsis, np.array([0, 4]))",
    "(np.array([[0], [1]]), np.array([[0, 1, 2]]))",
    "np.array([True, False, True])",
    "(slice(None), np.array([True, False, True, True]))",
    "np.ones((3, 4, 5), bool)",
    "(0, np.array([1, 2]), slice(1, 4))",
    "(None, np.array([0, 1]), None)",
    "[0, 1]",
    "[[0, 1]]",
    "(np.int32(1), slice(None))",
    "np.array(1)",
    "(np.array([0, 1]), None, np.array([1, 2]))",
    "(slice(None), None, np.array([0, 1]))",
    "(1, 2, 3)",
    "(1, 2, 3, 4)",
    "1.5",
    "(slice(None), 'a')",
    "np.array([0.0, 1.0])",
    "(Ellipsis, Ellipsis)",
]
_UPD_IDX = [
    "0",
    "np.array([0, 2, 0])",
    "(slice(None), np.array([1, 1, 3]))",
    "(np.array([0, 1]), 2)",
    "np.array([5, -7, 1])",
    "(slice(None), np.array([4, -5, 9]))",
    "slice(1, 3)",
    "(Ellipsis, 0)",
]
_MODES = ["None", "'clip'", "'drop'", "'fill'", "'promise_in_bounds'"]


def indexing_cases(small: bool) -> list[Case]:
    dts = (
        ["float32", "int32"]
        if small
        else ["float32", "float64", "int32", "int8", "bool", "complex64", "bfloat16", "uint8"]
    )
    out = []
    for dt in dts:
        for ix in _IDX:
            out.append(Case(f"indexing/get[{dt}|{ix}]", f"{{0}}[{ix}]", (((3, 4, 5), dt, "default"),), {}))
        for ix in _UPD_IDX:
            for mode in _MODES if not small or dt == "float32" else ["None"]:
                for meth in (
                    ("set", "add", "multiply", "min", "max", "get") if not small else ("set", "add", "get")
                ):
                    arg = "" if meth == "get" else "{1}, "
                    if meth == "get":
                        extra = ", fill_value=-1" if mode == "'fill'" else ""
                        inputs = (((3, 4, 5), dt, "default"),)
                    else:
                        extra = ""
                        inputs = (((3, 4, 5), dt, "default"), ((), dt, "default"))
                    out.append(
                        Case(
                            f"indexing/at.{meth}[{dt}|{ix}|{mode}]",
                            f"{{0}}.at[{ix}].{meth}({arg}mode={mode}{extra})",
                            inputs,
                            {},
                        )
                    )
        out.append(
            Case(
                f"indexing/at.set_shaped[{dt}]",
                "{0}.at[:, np.array([0, 2])].set({1})",
                (((3, 4, 5), dt, "default"), ((3, 2, 5), dt, "default")),
                {},
            )
        )
        out.append(
            Case(
                f"indexing/at.add_dups[{dt}]",
                "{0}.at[np.array([0, 0, 1, 0])].add({1})",
                (((3, 4), dt, "default"), ((4, 4), dt, "default")),
                {},
            )
        )
        out.append(
            Case(
                f"indexing/take[{dt}]",
                "jnp.take({0}, np.array([0, 7, -9]), axis=1, mode='clip')",
                (((3, 4, 5), dt, "default"),),
                {},
            )
        )
        out.append(
            Case(
                f"indexing/take_fill[{dt}]",
                "jnp.take({0}, np.array([0, 7, -9]), axis=1, mode='fill')",
                (((3, 4, 5), dt, "default"),),
                {},
            )
        )
        out.append(
            Case(
                f"indexing/take_along_axis[{dt}]",
                "jnp.take_along_axis({0}, np.array([[[0]], [[2]], [[1]]]), axis=1)",
                (((3, 4, 5), dt, "default"),),
                {},
            )
        )
    return out


# lax_numpy_test: shape operations, creation, sorting/searching, set operations, histograms,
# padding, polynomials, windows; each an expression over one (3, 4) or (6,) input
_MISC = [
    ("{0}", "jnp.reshape({0}, (4, 3))"),
    ("{0}", "jnp.reshape({0}, (-1,))"),
    ("{0}", "jnp.reshape({0}, (5, -1))"),
    ("{0}", "jnp.squeeze({0}[:1])"),
    ("{0}", "jnp.squeeze({0}, axis=0)"),
    ("{0}", "jnp.expand_dims({0}, (0, 2))"),
    ("{0}", "jnp.swapaxes({0}, 0, 1)"),
    ("{0}", "jnp.moveaxis({0}, 0, -1)"),
    ("{0}", "jnp.flip({0})"),
    ("{0}", "jnp.flip({0}, 1)"),
    ("{0}", "jnp.rot90({0})"),
    ("{0}", "jnp.rot90({0}, 3)"),
    ("{0}", "jnp.roll({0}, 2)"),
    ("{0}", "jnp.roll({0}, (1, -1), (0, 1))"),
    ("{0}", "jnp.tile({0}, (2, 1))"),
    ("{0}", "jnp.repeat({0}, 2)"),
    ("{0}", "jnp.repeat({0}, np.array([1, 0, 2]), axis=0)"),
    ("{0}", "jnp.concatenate([{0}, {0}], axis=1)"),
    ("{0}", "jnp.stack([{0}, {0}], axis=-1)"),
    ("{0}", "jnp.split({0}, 2, axis=1)"),
    ("{0}", "jnp.array_split({0}, 3, axis=1)"),
    ("{0}", "jnp.split({0}, [1, 3], axis=1)"),
    ("{0}", "jnp.hstack([{0}, {0}])"),
    ("{0}", "jnp.vstack([{0}, {0}])"),
    ("{0}", "jnp.dstack([{0}, {0}])"),
    ("{0}", "jnp.column_stack([{0}, {0}])"),
    ("{0}", "jnp.broadcast_to({0}, (2, 3, 4))"),
    ("{0}", "jnp.triu({0})"),
    ("{0}", "jnp.tril({0}, -1)"),
    ("{0}", "jnp.diag({0})"),
    ("{0}", "jnp.diagonal({0}, 1)"),
    ("{0}", "jnp.trace({0})"),
    ("{0}", "jnp.diagflat({0}[0])"),
    ("{0}", "jnp.sort({0})"),
    ("{0}", "jnp.sort({0}, axis=0)"),
    ("{0}", "jnp.sort({0}, axis=None)"),
    ("{0}", "jnp.argsort({0})"),
    ("{0}", "jnp.argsort({0}, descending=True)"),
    ("{0}", "jnp.argsort({0}, stable=True, axis=0)"),
    ("{0}", "jnp.lexsort([{0}[0], {0}[1]])"),
    ("{0}", "jnp.partition({0}, 1)"),
    ("{0}", "jnp.argpartition({0}, 1)[..., :1]"),
    ("{0}", "jnp.searchsorted(jnp.sort({0}.ravel()), {0})"),
    ("{0}", "jnp.searchsorted(jnp.sort({0}.ravel()), {0}, side='right')"),
    ("{0}", "jnp.searchsorted(jnp.sort({0}.ravel()), {0}, method='sort')"),
    ("{0}", "jnp.searchsorted(jnp.sort({0}.ravel()), {0}, method='compare_all')"),
    ("{0}", "jnp.unique({0})"),
    ("{0}", "jnp.unique({0}, return_index=True, return_inverse=True, return_counts=True)"),
    ("{0}", "jnp.unique({0}, axis=0)"),
    ("{0}", "jnp.unique({0}, size=15, fill_value=0)"),
    ("{0}", "jnp.unique_values({0})"),
    ("{0}", "jnp.unique_counts({0})"),
    ("{0}", "jnp.unique_inverse({0})"),
    ("{0}", "jnp.unique_all({0})"),
    ("{0}", "jnp.union1d({0}[0], {0}[1])"),
    ("{0}", "jnp.intersect1d({0}[0], {0}[1])"),
    ("{0}", "jnp.setdiff1d({0}, {0}[0])"),
    ("{0}", "jnp.setxor1d({0}[0], {0}[1])"),
    ("{0}", "jnp.isin({0}, {0}[0])"),
    ("{0}", "jnp.isin({0}, {0}[0], invert=True)"),
    ("{0}", "jnp.histogram({0})"),
    ("{0}", "jnp.histogram({0}, bins=4, range=(-2, 2))"),
    ("{0}", "jnp.histogram({0}, bins=np.array([-3., 0., 1., 4.]), density=True)"),
    ("{0}", "jnp.histogram_bin_edges({0}, bins=5)"),
    ("{0}", "jnp.histogram2d({0}[0], {0}[1], bins=3)"),
    ("{0}", "jnp.histogramdd({0}.reshape(-1, 2), bins=2)"),
    ("{0}", "jnp.bincount(jnp.abs({0}).astype(int).ravel())"),
    ("{0}", "jnp.bincount(jnp.abs({0}).astype(int).ravel(), length=10)"),
    ("{0}", "jnp.digitize({0}, np.array([-1., 0., 2.]))"),
    ("{0}", "jnp.digitize({0}, np.array([-1., 0., 2.]), right=True)"),
    *[
        ("{0}", f"jnp.pad({{0}}, 2, mode='{m}')")
        for m in (
            "constant",
            "edge",
            "reflect",
            "symmetric",
            "wrap",
            "maximum",
            "minimum",
            "mean",
            "median",
            "linear_ramp",
            "empty",
        )
    ],
    ("{0}", "jnp.pad({0}, ((1, 2), (0, 3)), mode='constant', constant_values=((1, 2), (3, 4)))"),
    ("{0}", "jnp.pad({0}, ((1, 2), (0, 3)), mode='reflect', reflect_type='odd')"),
    ("{0}", "jnp.pad({0}, ((1, 2), (0, 3)), mode='linear_ramp', end_values=(1, 2))"),
    ("{0}", "jnp.pad({0}, ((1, 2), (0, 3)), mode='maximum', stat_length=2)"),
    ("{0}", "jnp.pad({0}, 5, mode='wrap')"),
    ("{0}", "jnp.pad({0}, 5, mode='reflect')"),
    ("{0}", "jnp.polyfit(jnp.arange(4.0), {0}[0], 2)"),
    ("{0}", "jnp.polyfit(jnp.arange(4.0), {0}.T, 1)"),
    ("{0}", "jnp.polyfit(jnp.arange(4.0), {0}[0], 2, full=True)"),
    ("{0}", "jnp.roots({0}[0])"),
    ("{0}", "jnp.polyadd({0}[0], {0}[1])"),
    ("{0}", "jnp.polymul({0}[0], {0}[1])"),
    ("{0}", "jnp.polysub({0}[0], {0}[1][:2])"),
    ("{0}", "jnp.polydiv({0}[0], {0}[1][:2])"),
    ("{0}", "jnp.polyder({0}[0], 2)"),
    ("{0}", "jnp.polyint({0}[0], 2)"),
    ("{0}", "jnp.poly({0}[0])"),
    ("{0}", "jnp.convolve({0}[0], {0}[1])"),
    ("{0}", "jnp.convolve({0}[0], {0}[1][:3], mode='same')"),
    ("{0}", "jnp.convolve({0}[0], {0}[1][:3], mode='valid')"),
    ("{0}", "jnp.correlate({0}[0], {0}[1], mode='full')"),
    ("{0}", "jnp.interp({0}, jnp.arange(4.0) - 1, jnp.arange(4.0) ** 2)"),
    ("{0}", "jnp.interp({0}, jnp.arange(4.0) - 1, jnp.arange(4.0) ** 2, left=-1, right=9)"),
    ("{0}", "jnp.interp({0}, jnp.arange(4.0) - 1, jnp.arange(4.0) ** 2, period=3)"),
    ("{0}", "jnp.diff({0})"),
    ("{0}", "jnp.diff({0}, n=2, axis=0)"),
    ("{0}", "jnp.diff({0}, prepend=0, append={0}[:, :1])"),
    ("{0}", "jnp.gradient({0})"),
    ("{0}", "jnp.gradient({0}, 2.0, axis=1)"),
    ("{0}", "jnp.cross({0}[:, :3], {0}[:, 1:])"),
    ("{0}", "jnp.trapezoid({0})"),
    ("{0}", "jnp.trapezoid({0}, dx=0.5, axis=0)"),
    ("{0}", "jnp.corrcoef({0})"),
    ("{0}", "jnp.cov({0})"),
    ("{0}", "jnp.cov({0}, rowvar=False, ddof=0)"),
    ("{0}", "jnp.cov({0}, aweights=jnp.arange(1.0, 5.0))"),
    ("{0}", "jnp.percentile({0}, 30)"),
    ("{0}", "jnp.quantile({0}, np.array([0.1, 0.5]), axis=1)"),
    *[
        ("{0}", f"jnp.quantile({{0}}, 0.3, method='{m}')")
        for m in (
            "linear",
            "lower",
            "higher",
            "midpoint",
            "nearest",
            "inverted_cdf",
            "averaged_inverted_cdf",
            "closest_observation",
            "interpolated_inverted_cdf",
            "hazen",
            "weibull",
            "median_unbiased",
            "normal_unbiased",
        )
    ],
    ("{0}", "jnp.nanpercentile({0}, 60, axis=0, keepdims=True)"),
    ("{0}", "jnp.average({0}, axis=1, weights=jnp.arange(1.0, 5.0))"),
    ("{0}", "jnp.average({0}, returned=True)"),
    ("{0}", "jnp.count_nonzero({0}, axis=0)"),
    ("{0}", "jnp.nonzero({0})"),
    ("{0}", "jnp.nonzero({0}, size=5, fill_value=-1)"),
    ("{0}", "jnp.flatnonzero({0})"),
    ("{0}", "jnp.argwhere({0})"),
    ("{0}", "jnp.where({0} > 0, {0}, -{0})"),
    ("{0}", "jnp.where({0} > 0)"),
    ("{0}", "jnp.select([{0} > 1, {0} < 0], [{0}, -{0}], 7)"),
    ("{0}", "jnp.piecewise({0}, [{0} > 1, {0} < 0], [lambda x: x * 2, lambda x: -x, 0.5])"),
    ("{0}", "jnp.clip({0}, -1, 1)"),
    ("{0}", "jnp.clip({0}, max=0.5)"),
    ("{0}", "jnp.round({0}, 1)"),
    ("{0}", "jnp.around({0}, -1)"),
    ("{0}", "jnp.extract({0} > 0, {0})"),
    ("{0}", "jnp.compress(np.array([True, False, True]), {0}, axis=0)"),
    ("{0}", "jnp.place({0}, {0} > 0, np.array([9., 8.]), inplace=False)"),
    ("{0}", "jnp.put({0}, np.array([0, 5]), np.array([7., 6.]), inplace=False)"),
    ("{0}", "jnp.fill_diagonal({0}, 3, inplace=False)"),
    ("{0}", "jnp.vander({0}[0])"),
    ("{0}", "jnp.vander({0}[0], 3, increasing=True)"),
    ("{0}", "jnp.tensordot({0}, {0}.T, 1)"),
    ("{0}", "jnp.tensordot({0}, {0}, ((0, 1), (0, 1)))"),
    ("{0}", "jnp.einsum('ij,kj->ik', {0}, {0})"),
    ("{0}", "jnp.einsum('ij->', {0})"),
    ("{0}", "jnp.einsum('ii->i', {0}[:, :3])"),
    ("{0}", "jnp.inner({0}, {0})"),
    ("{0}", "jnp.dot({0}, {0}.T)"),
    ("{0}", "jnp.matmul({0}, {0}.T)"),
    ("{0}", "jnp.vdot({0}, {0})"),
    ("{0}", "jnp.vecdot({0}, {0})"),
    ("{0}", "jnp.matvec({0}, {0}[0])"),
    ("{0}", "jnp.vecmat({0}[:, 0], {0})"),
    ("{0}", "jnp.linalg.norm({0})"),
    ("{0}", "jnp.linalg.norm({0}, ord=1)"),
    ("{0}", "jnp.linalg.norm({0}, ord='nuc')"),
    ("{0}", "jnp.linalg.norm({0}, ord=-np.inf, axis=1)"),
    ("{0}", "jnp.nan_to_num({0}, nan=1.0, posinf=2.0)"),
    ("{0}", "jnp.ravel_multi_index((np.array([0, 2]), np.array([1, 3])), (3, 4))"),
    ("{0}", "jnp.unravel_index(np.array([3, 11]), (3, 4))"),
    ("{0}", "jnp.meshgrid({0}[0], {0}[1][:2])"),
    ("{0}", "jnp.meshgrid({0}[0], {0}[1][:2], indexing='ij', sparse=True)"),
    ("{0}", "jnp.linspace({0}[0], {0}[1], 5)"),
    ("{0}", "jnp.linspace(0, 1, 5, endpoint=False, retstep=True)"),
    ("{0}", "jnp.logspace(0, 2, 4)"),
    ("{0}", "jnp.geomspace(1, 1000, 4)"),
    ("{0}", "jnp.arange(2, 11, 3)"),
    ("{0}", "jnp.arange(0.5, 3)"),
    ("{0}", "jnp.eye(3, 4, k=1)"),
    ("{0}", "jnp.tri(3, 4, -1)"),
    ("{0}", "jnp.identity(3, jnp.int8)"),
    ("{0}", "jnp.full((2, 2), {0}[0, 0])"),
    ("{0}", "jnp.full_like({0}, 2)"),
    ("{0}", "jnp.zeros_like({0}, dtype=jnp.int8)"),
    ("{0}", "jnp.ones_like({0}, shape=(2,))"),
    ("{0}", "jnp.empty_like({0}).shape"),
    ("{0}", "jnp.array({0}, copy=True)"),
    ("{0}", "jnp.asarray([1, 2.5])"),
    ("{0}", "jnp.array([[1, 2], [3, 4]], dtype=jnp.float16)"),
    ("{0}", "jnp.frombuffer(np.arange(4, dtype=np.int16).tobytes(), dtype=jnp.int16)"),
    ("{0}", "jnp.tril_indices(3, 1)"),
    ("{0}", "jnp.triu_indices_from({0})"),
    ("{0}", "jnp.diag_indices(3)"),
    ("{0}", "jnp.indices((2, 3))"),
    ("{0}", "jnp.fromfunction(lambda i, j: i + j, (2, 3))"),
    ("{0}", "jnp.hamming(5)"),
    ("{0}", "jnp.hanning(5)"),
    ("{0}", "jnp.bartlett(5)"),
    ("{0}", "jnp.blackman(5)"),
    ("{0}", "jnp.kaiser(5, 3.0)"),
    ("{0}", "jnp.apply_along_axis(jnp.sum, 1, {0})"),
    ("{0}", "jnp.apply_over_axes(jnp.sum, {0}, [0, 1])"),
    ("{0}", "jnp.rollaxis({0}, 1)"),
    ("{0}", "jnp.resize({0}, (5, 3))"),
    ("{0}", "jnp.trim_zeros(jnp.concatenate([jnp.zeros(2), {0}[0], jnp.zeros(1)]))"),
    ("{0}", "jnp.delete({0}, 1, axis=1)"),
    ("{0}", "jnp.delete({0}, np.array([0, 2]))"),
    ("{0}", "jnp.insert({0}, 1, 9.0, axis=1)"),
    ("{0}", "jnp.insert({0}, np.array([0, 2]), {0}[:, :1], axis=1)"),
    ("{0}", "jnp.append({0}, {0}, axis=0)"),
    ("{0}", "jnp.append({0}, 1.0)"),
    ("{0}", "jnp.block([[{0}, {0}], [{0}, {0}]])"),
    ("{0}", "jnp.packbits({0} > 0)"),
    ("{0}", "jnp.packbits({0} > 0, axis=1, bitorder='little')"),
    ("{0}", "jnp.unpackbits(jnp.arange(3, dtype=jnp.uint8))"),
    ("{0}", "jnp.unpackbits(jnp.arange(3, dtype=jnp.uint8), count=-3)"),
    ("{0}", "jnp.ldexp({0}, np.array([1, 2, 3, 4], np.int32))"),
    ("{0}", "jnp.frexp({0})"),
    ("{0}", "jnp.histogram({0}, bins='auto')"),
    ("{0}", "jnp.logspace(0, 2, 4, base=2.0, endpoint=False)"),
    ("{0}", "jnp.astype({0}, jnp.int16)"),
    ("{0}", "jnp.isclose({0}, {0} + 1e-9)"),
    ("{0}", "jnp.allclose({0}, {0})"),
    ("{0}", "jnp.array_equal({0}, {0}, equal_nan=True)"),
    ("{0}", "jnp.iscomplexobj({0})"),
    ("{0}", "jnp.ndim({0})"),
    ("{0}", "jnp.shape({0})"),
    ("{0}", "jnp.size({0}, 1)"),
    ("{0}", "jnp.result_type({0}, 1.0)"),
    ("{0}", "jnp.cumsum({0}, axis=1, dtype=jnp.int32)"),
    ("{0}", "jnp.cumulative_sum({0}, axis=1, include_initial=True)"),
    ("{0}", "jnp.argmax({0}, axis=1, keepdims=True)"),
    ("{0}", "jnp.max({0}, axis=(0, 1))"),
    ("{0}", "jnp.sum({0}, axis=())"),
]
MISC_DTYPES = ["float32", "float64", "int32", "bool", "complex64", "bfloat16", "float16", "int8", "uint8"]


def misc_cases(small: bool) -> list[Case]:
    dts = ["float32", "int32"] if small else MISC_DTYPES
    return [
        Case(
            f"numpy/{expr}[{dt}]",
            expr,
            (((3, 4), dt, "default"),),
            {"float32": 1e-4, "float16": 1e-2, "bfloat16": 5e-2, "complex64": 1e-4},
        )
        for dt in dts
        for _, expr in _MISC
    ]


# the differences this suite found, fixed (each a regression case, stored in full): ``{0}``
# is a float32 (3, 4) array, ``{1}`` an int32 one
FIXES = [
    ("partition", "jnp.partition({1}, 1)"),
    ("argpartition", "jnp.argpartition({1}, 1)"),
    (
        "searchsorted",
        "jnp.searchsorted(jnp.asarray([1., 2., 3.]), jnp.asarray([0.5, 2.0, 3.5]), side='right')",
    ),
    ("digitize", "jnp.digitize(jnp.asarray([0.5, 2.0, 3.5]), jnp.asarray([3., 2., 1.]))"),
    ("tri", "jnp.tri(2, 3, 0)"),
    ("append", "jnp.append({0}[0], 1.5)"),
    ("append_int", "jnp.append({1}[0], 1.5)"),
    ("diff", "jnp.diff({0}, prepend=0)"),
    ("polyint", "jnp.polyint({0}[0])"),
    ("polyder", "jnp.polyder({1}[0])"),
    ("poly", "jnp.poly({1}[0, :2])"),
    ("roots", "jnp.sort_complex(jnp.roots(jnp.asarray([1, -3, 2], jnp.int32)))"),
    ("polydiv", "jnp.polydiv({1}[0], {1}[1, :2] + 10)"),
    ("polyfit", "jnp.polyfit(jnp.arange(4.0, dtype=jnp.float32), {0}[0], 1, full=True)"),
    (
        "array_equal",
        "jnp.array_equal(jnp.asarray([1.0, np.nan]), jnp.asarray([1.0, np.nan]), equal_nan=True)",
    ),
    ("array_equal_shape", "jnp.array_equal({0}, {0}[0])"),
    ("average", "jnp.average({0}, axis=1, weights=jnp.asarray([1.0, 2.0, 3.0, 4.0]), returned=True)"),
    ("average_returned", "jnp.average({0}, axis=0, returned=True)"),
    ("cov_aweights", "jnp.cov({0}, aweights=jnp.asarray([1.0, 2.0, 3.0, 4.0]))"),
    ("quantile_q_array", "jnp.quantile({0}, np.array([0.1, 0.5]), axis=1)"),
    ("reshape_size", "jnp.reshape({0}, (5, -1))"),
    ("index_float", "{0}[1.5]"),
    ("index_list", "{0}[[0, 1]]"),
    ("index_float_array", "{0}[np.array([0.0, 1.0])]"),
    ("at_index_list", "{0}.at[[0, 1]].set(1.0)"),
    ("lax_exp_int", "lax.exp({1})"),
    ("lax_add_bool", "lax.add({1} > 2, {1} > 3)"),
    ("lax_shift_float", "lax.shift_left({0}, {0})"),
    ("lax_lt_complex", "lax.lt({0} + 1j, {0} + 1j)"),
    ("lax_real_float", "lax.real({0})"),
    ("lax_complex_float16", "lax.complex({0}.astype(jnp.float16), {0}.astype(jnp.float16))"),
    ("pad_median", "jnp.pad({1}, ((1, 2), (0, 1)), mode='median')"),
    ("pad_stat_length", "jnp.pad({0}, ((1, 1), (2, 0)), mode='maximum', stat_length=2)"),
    (
        "pad_ramp_uint8",
        "jnp.pad(jnp.asarray([3, 1, 4], jnp.uint8), (2, 2), mode='linear_ramp', end_values=(5, 7))",
    ),
    ("angle", "(jnp.angle(2.0), jnp.angle({0}[0, 0]), jnp.angle({0}[0]))"),
    ("histogram_auto", "jnp.histogram({0}, bins='auto')"),
    ("arctan2_complex", "jnp.arctan2({0} + 0.5j, {0} * 0.5 + 1)"),
    ("logaddexp_complex", "jnp.logaddexp({0} + 0.5j, 2.0 - {0})"),
    ("logaddexp2_complex", "jnp.logaddexp2({0} + 0.5j, 2.0 - {0})"),
    ("unwrap_bfloat16", "jnp.unwrap(jnp.asarray([0.1, 3.0, -2.5, 6.0], jnp.bfloat16))"),
    ("cumulative_sum_int", "jnp.cumulative_sum({1}, axis=1, include_initial=True)"),
    ("cumulative_sum_uint8", "jnp.cumulative_sum({1}.astype(jnp.uint8), axis=0)"),
    ("gradient_int_float_spacing", "jnp.gradient({1}, 2.0, axis=1)"),
    # session 12: the nan-reducers' where=, quantile's inverted_cdf (and weights), select of
    # arrays, JAX's lattice where NumPy widens (an integer meeting a float takes the float's
    # type), the functions of Python scalars
    ("nanmean_where", "jnp.nanmean({0}.at[0, 1].set(np.nan), axis=1, where={1} > 0)"),
    ("nanvar_where_ddof", "jnp.nanvar({0}.at[0, 1].set(np.nan), axis=0, ddof=1, where={1} > -2)"),
    ("nanstd_where", "jnp.nanstd({0}.at[2].set(np.nan), axis=1, keepdims=True, where={1} != 0)"),
    ("nanmean_where_int", "jnp.nanmean({1}, axis=0, where={1} > 0)"),
    (
        "quantile_inverted_cdf_weights",
        "jnp.quantile({0}, jnp.asarray([0.1, 0.5, 0.9], jnp.float32), axis=1, method='inverted_cdf', "
        "weights=jnp.abs({0}[0]))",
    ),
    (
        "nanquantile_inverted_cdf",
        "jnp.nanquantile({0}.at[1, 2].set(np.nan), jnp.asarray([0.25, 0.75], jnp.float32), axis=0, "
        "method='inverted_cdf')",
    ),
    ("quantile_weights_linear", "jnp.quantile({0}, 0.5, weights=jnp.abs({0}))"),
    ("quantile_unknown_method", "jnp.quantile({0}, 0.5, method='hazen')"),
    ("select_arrays", "jnp.select({0} > 0, {0} * 2, -1.0)"),
    ("heaviside_weak", "jnp.heaviside({0}.astype(jnp.float16), 2)"),
    ("heaviside_int_float", "jnp.heaviside({1}, {0})"),
    ("where_int_float", "jnp.where({0} > 0, {1}, {0})"),
    ("result_type_int_float", "jnp.result_type({1}, {0})"),
    ("dot_int_float", "jnp.dot({1}, {0}.T)"),
    ("einsum_int_float", "jnp.einsum('ij,ij->i', {1}, {0})"),
    ("cross_int_float", "jnp.cross({1}[:, :3], {0}[:, :3])"),
    ("polyval_int_float", "jnp.polyval({1}[0], {0})"),
    ("lcm_weak", "jnp.lcm({1}.astype(jnp.int16), 6)"),
    ("gcd_float", "jnp.gcd({1}, 2.5)"),
    ("real_py", "jnp.real(3)"),
    ("imag_py", "jnp.imag(2.5)"),
    ("transpose_py", "jnp.transpose(2.0)"),
    ("norm_ppf_dtype", "jax.scipy.stats.norm.ppf(jnp.abs({0}) / 4 + 0.01, 0.5, 2.0).dtype"),
    ("norm_isf_dtype", "jax.scipy.stats.norm.isf(jnp.abs({1}) / 4 + 0.01).dtype"),
    ("factorial_exact", "jax.scipy.special.factorial(5, exact=True)"),
]


def fix_cases() -> list[Case]:
    return [
        Case(
            f"fixes/{name}",
            expr,
            (((3, 4), "float32", "default"), ((3, 4), "int32", "default")),
            {"float32": 1e-5, "bfloat16": 1e-2, "complex64": 1e-5},
        )
        for name, expr in FIXES
    ]


# -- JAX's scipy and random tests (session 12) ----------------------------------------------
# lax_scipy_special_functions_test / lax_scipy_test: each special function over the float
# dtypes and the shapes, with the record's kind of values; its gradient (the sum of the
# outputs) where the record tests autodiff.  ``S`` is ``jax.scipy.special``.
SCI = "scipy"
_S = "jax.scipy.special."
_SP_TOL = {"bfloat16": 5e-2, "float16": 5e-3, "float32": 2e-4, "float64": 1e-9}
SPECIAL_RECORDS = [
    # (name, nargs, rng, differentiable, call with {0}, {1}, ... or "" for S.name(args))
    ("betaln", 2, "positive", True, ""),
    ("betainc", 3, "unit", False, ""),
    ("digamma", 1, "positive", True, ""),
    ("gamma", 1, "positive", True, ""),
    ("gammaln", 1, "positive", True, ""),
    ("loggamma", 1, "positive", True, ""),
    ("gammainc", 2, "positive", True, ""),
    ("gammaincc", 2, "positive", True, ""),
    ("gammasgn", 1, "default", False, ""),
    ("erf", 1, "small", True, ""),
    ("erfc", 1, "small", True, ""),
    ("erfinv", 1, "unit", True, ""),
    ("erfcx", 1, "default", True, ""),
    ("expit", 1, "default", True, ""),
    ("logit", 1, "unit", True, ""),
    ("ndtr", 1, "default", True, ""),
    ("ndtri", 1, "unit", True, ""),
    ("log_ndtr", 1, "default", True, ""),
    ("entr", 1, "positive", True, ""),
    ("i0", 1, "default", True, ""),
    ("i0e", 1, "default", True, ""),
    ("i1", 1, "default", True, ""),
    ("i1e", 1, "default", True, ""),
    ("xlogy", 2, "positive", True, ""),
    ("xlog1py", 2, "positive", True, ""),
    ("kl_div", 2, "positive", False, ""),
    ("rel_entr", 2, "positive", False, ""),
    ("zeta", 2, "positive", False, _S + "zeta({0} + 1.5, {1})"),
    ("polygamma1", 1, "positive", False, _S + "polygamma(1, {0})"),
    ("polygamma3", 1, "positive", False, _S + "polygamma(3, {0})"),
    ("multigammaln", 1, "positive", False, _S + "multigammaln({0} + 2.0, 3)"),
    ("expi", 1, "positive", True, ""),
    ("exp1", 1, "positive", True, ""),
    ("expn", 1, "positive", False, _S + "expn(2, {0})"),
    ("spence", 1, "positive", False, ""),
    ("dawsn", 1, "default", False, ""),
    ("owens_t", 2, "default", False, ""),
    ("poch", 2, "positive", False, ""),
    ("boxcox", 2, "positive", False, ""),
    ("boxcox1p", 2, "positive", False, ""),
    ("hyp1f1", 3, "small_positive", False, ""),
    ("sici", 1, "positive", False, ""),
    ("fresnel", 1, "small", False, ""),
    ("bessel_jn", 1, "positive", False, _S + "bessel_jn({0}, v=3)"),
    ("lpmn", 1, "small", False, _S + "lpmn(2, 3, {0}.ravel())"),
    ("lpmn_values", 1, "small", False, _S + "lpmn_values(2, 3, {0}.ravel(), True)"),
    ("logsumexp", 1, "default", True, ""),
    ("logsumexp_axis", 1, "default", True, _S + "logsumexp({0}, axis=-1, keepdims=True)"),
    ("logsumexp_b", 2, "default", False, _S + "logsumexp({0}, b={1})"),
    ("logsumexp_sign", 2, "default", False, _S + "logsumexp({0}, axis=0, b={1}, return_sign=True)"),
    ("logsumexp_where", 1, "default", False, _S + "logsumexp({0}, axis=-1, where={0} > 0)"),
    ("softmax", 1, "default", True, _S + "softmax({0}, axis=-1)"),
    ("log_softmax", 1, "default", True, _S + "log_softmax({0}, axis=-1)"),
]
SPECIAL_INT_ONLY = [
    ("bernoulli", _S + "bernoulli(7)"),
    ("factorial", _S + "factorial(jnp.arange(6))"),
    ("factorial_exact", _S + "factorial(5, exact=True)"),
    ("comb", _S + "comb(jnp.arange(6.0), 2.0)"),
    ("sph_harm_y", _S + "sph_harm_y(jnp.asarray([2, 3]), jnp.asarray([1, -2]), jnp.asarray([0.3, 1.1]), "
     "jnp.asarray([0.5, 2.0]), n_max=3)"),
]


def _special_record(name, nargs, rng, grad, call):
    expr = call or _S + name + "(" + ", ".join(f"{{{i}}}" for i in range(nargs)) + ")"
    recs = [_r(SCI, "special." + name, nargs, FLOAT, [(), (3, 4), (2, 1, 4)], rng, _SP_TOL, expr)]
    if grad:  # d/d(last argument) of the sum, the others fixed
        last = "{%d}" % (nargs - 1)
        g = "jax.grad(lambda v: " + expr.replace(last, "v") + ".sum())(" + last + ")"
        recs.append(_r(SCI, "special_grad." + name, nargs, ["float32", "float64"], [(3, 4)], rng,
                       {"float32": 1e-3, "float64": 1e-8}, g))
    return recs


# scipy.stats: every method JAX 0.10.2 has of every distribution, at fixed parameters
# (``{0}`` the points; a float32 and a float64 grid); the parameters are Python floats so the
# points' dtype decides
_STATS = {
    "norm": ("default", "0.5, 2.0", ["cdf", "isf:u", "logcdf", "logpdf", "logsf", "pdf", "ppf:u", "sf"]),
    "t": ("default", "3.5, 0.5, 2.0", ["logpdf", "pdf"]),
    "beta": ("unit", "2.0, 3.0", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]),
    "gamma": ("positive", "2.5, 0.0, 1.5", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]),
    "cauchy": ("default", "0.5, 2.0", ["cdf", "isf:u", "logcdf", "logpdf", "logsf", "pdf", "ppf:u", "sf"]),
    "chi2": ("positive", "3.0", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]),
    "expon": ("positive", "0.0, 1.5", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf:u", "sf"]),
    "gennorm": ("default", "1.5", ["cdf", "logpdf", "pdf"]),
    "gumbel_l": ("default", "0.5, 2.0", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf:u", "sf"]),
    "gumbel_r": ("default", "0.5, 2.0", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf:u", "sf"]),
    "laplace": ("default", "0.5, 2.0", ["cdf", "logpdf", "pdf"]),
    "logistic": ("default", "0.5, 2.0", ["cdf", "isf:u", "logpdf", "pdf", "ppf:u", "sf"]),
    "pareto": ("positive_above_one", "2.5", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "ppf:u", "sf"]),
    "truncnorm": ("small", "-0.5, 1.0", ["cdf", "logcdf", "logpdf", "logsf", "pdf", "sf"]),
    "uniform": ("unit", "0.1, 0.8", ["cdf", "logpdf", "pdf", "ppf:u"]),
    "vonmises": ("default", "1.5", ["logpdf", "pdf"]),
    "wrapcauchy": ("positive", "0.4", ["logpdf", "pdf"]),
    "poisson": ("int8", "2.5", ["cdf", "logpmf", "pmf"]),
    "bernoulli": ("int8", "0.3", ["cdf", "logpmf", "pmf", "ppf:u"]),
    "binom": ("int8", "7, 0.3", ["logpmf", "pmf"]),
    "nbinom": ("int8", "4, 0.3", ["logpmf", "pmf"]),
    "geom": ("int8", "0.3", ["logpmf", "pmf"]),
    "betabinom": ("int8", "7, 2.0, 3.0", ["logpmf", "pmf"]),
}
STATS_EXTRA = [
    ("poisson.entropy", "jax.scipy.stats.poisson.entropy(jnp.asarray([0.5, 2.5, 10.0]))"),
    ("multivariate_normal.logpdf",
     "jax.scipy.stats.multivariate_normal.logpdf({0}, jnp.asarray([0.1, -0.2, 0.3, 0.0]), "
     "jnp.eye(4) * 2.0 + 0.5)"),
    ("multivariate_normal.pdf", "jax.scipy.stats.multivariate_normal.pdf({0}, jnp.zeros(4), jnp.eye(4))"),
    ("dirichlet.logpdf",
     "jax.scipy.stats.dirichlet.logpdf(jnp.asarray([0.2, 0.3, 0.5]), jnp.asarray([1.5, 2.0, 3.0]))"),
    ("dirichlet.pdf", "jax.scipy.stats.dirichlet.pdf(jnp.asarray([0.2, 0.3, 0.5]), "
        "jnp.asarray([1.5, 2.0, 3.0]))"),
    ("multinomial.logpmf",
     "jax.scipy.stats.multinomial.logpmf(jnp.asarray([2.0, 3.0, 5.0]), 10, jnp.asarray([0.2, 0.3, 0.5]))"),
    ("multinomial.pmf",
     "jax.scipy.stats.multinomial.pmf(jnp.asarray([2.0, 3.0, 5.0]), 10, jnp.asarray([0.2, 0.3, 0.5]))"),
    ("norm.grad_logpdf", "jax.grad(lambda v: jax.scipy.stats.norm.logpdf(v, 0.5, 2.0).sum())({0})"),
    ("gamma.grad_logpdf_a",
     "jax.grad(lambda a: jax.scipy.stats.gamma.logpdf(jnp.abs({0}) + 0.5, a).sum())(2.5)"),
    ("beta.grad_cdf", "jax.grad(lambda v: jax.scipy.stats.beta.cdf(v, 2.0, "
        "3.0).sum())(jnp.abs({0}) * 0.1 + 0.2)"),
]


def _stats_records():
    recs = []
    for dist, (rng, params, methods) in _STATS.items():
        for m in methods:
            meth, _, kind = m.partition(":")
            r = "unit" if kind == "u" else rng
            dts = ["int32", "float32", "float64"] if rng == "int8" else ["float16", "float32", "float64"]
            recs.append(_r(SCI, f"stats.{dist}.{meth}", 1, dts, [(3, 4)], r,
                           {"float16": 5e-3, "float32": 2e-4, "float64": 1e-9},
                           f"jax.scipy.stats.{dist}.{meth}({{0}}, {params})"))
    return recs


# scipy.linalg, scipy.signal, scipy.fft, ndimage, interpolate, spatial.transform, cluster:
# expressions over a (4, 4) input ``{0}`` (made well-conditioned where the function needs it)
_SPD = "({0} @ {0}.T + 4 * jnp.eye(4, dtype={0}.dtype))"
SCIPY_MISC = [
    ("linalg.expm", "jax.scipy.linalg.expm({0} * 0.3)"),
    ("linalg.expm_frechet", "jax.scipy.linalg.expm_frechet({0} * 0.3, jnp.ones_like({0}), "
        "compute_expm=False)"),
    ("linalg.sqrtm", f"jax.scipy.linalg.sqrtm({_SPD})"),
    ("linalg.cholesky", f"jax.scipy.linalg.cholesky({_SPD}, lower=True)"),
    ("linalg.cho_solve", f"jax.scipy.linalg.cho_solve(jax.scipy.linalg.cho_factor({_SPD}), {{0}}[:, 0])"),
    ("linalg.lu_solve", f"jax.scipy.linalg.lu_solve(jax.scipy.linalg.lu_factor({_SPD}), {{0}}[:, :2])"),
    ("linalg.lu", f"jax.scipy.linalg.lu({_SPD})"),
    ("linalg.solve", f"jax.scipy.linalg.solve({_SPD}, {{0}}[:, 0], assume_a='pos')"),
    ("linalg.solve_triangular", "jax.scipy.linalg.solve_triangular(jnp.tril({0}) + 4 * jnp.eye(4), "
        "{0}, lower=True)"),
    ("linalg.solve_triangular_trans",
     "jax.scipy.linalg.solve_triangular(jnp.triu({0}) + 4 * jnp.eye(4), {0}[0], trans=1)"),
    ("linalg.block_diag", "jax.scipy.linalg.block_diag({0}[:2, :2], {0}[2:, 1:], jnp.ones((1, 1)))"),
    ("linalg.toeplitz", "jax.scipy.linalg.toeplitz({0}[0], {0}[1])"),
    ("linalg.hessenberg_h", "jnp.abs(jax.scipy.linalg.hessenberg({0}))"),
    ("linalg.eigh_vals", f"jax.scipy.linalg.eigh({_SPD}, eigvals_only=True)"),
    ("linalg.det", "jax.scipy.linalg.det({0})"),
    ("linalg.inv", f"jax.scipy.linalg.inv({_SPD})"),
    ("linalg.schur_t_diag", f"jnp.sort(jnp.diag(jax.scipy.linalg.schur({_SPD})[0]))"),
    ("linalg.polar_p", f"jax.scipy.linalg.polar({_SPD})[1]"),
    ("linalg.funm_exp", "jax.scipy.linalg.funm(jnp.diag(jnp.diag({0})) + jnp.triu({0}, "
        "1) * 0.1, jnp.exp)"),
    ("linalg.svd_vals", "jax.scipy.linalg.svd({0}, compute_uv=False)"),
    ("linalg.pinvh", f"jax.scipy.linalg.pinvh({_SPD})"),
    ("linalg.qr_r", "jnp.abs(jax.scipy.linalg.qr({0})[1])"),
    ("signal.convolve_full", "jax.scipy.signal.convolve({0}[0], {0}[1])"),
    ("signal.convolve_same", "jax.scipy.signal.convolve({0}, {0}[:2, :3], mode='same')"),
    ("signal.convolve_valid", "jax.scipy.signal.convolve({0}, {0}[:2, :3], mode='valid')"),
    ("signal.correlate_full", "jax.scipy.signal.correlate({0}[0], {0}[1])"),
    ("signal.correlate_same", "jax.scipy.signal.correlate({0}, {0}[:3, :2], mode='same')"),
    ("signal.convolve2d", "jax.scipy.signal.convolve2d({0}, {0}[:2, :2], mode='full')"),
    ("signal.correlate2d", "jax.scipy.signal.correlate2d({0}, {0}[:2, :3], mode='valid')"),
    ("signal.fftconvolve", "jax.scipy.signal.fftconvolve({0}[0], {0}[1])"),
    ("signal.fftconvolve_same", "jax.scipy.signal.fftconvolve({0}, {0}[:2, :3], mode='same')"),
    ("signal.detrend", "jax.scipy.signal.detrend({0}, axis=1)"),
    ("signal.detrend_const", "jax.scipy.signal.detrend({0}, axis=0, type='constant')"),
    ("signal.welch", "jax.scipy.signal.welch({0}.ravel(), nperseg=8)"),
    ("signal.csd", "jax.scipy.signal.csd({0}.ravel(), {0}.ravel()[::-1], nperseg=8)"),
    ("signal.stft", "jax.scipy.signal.stft(jnp.concatenate([{0}.ravel()] * 2), nperseg=8)"),
    ("signal.istft",
     "jax.scipy.signal.istft(jax.scipy.signal.stft(jnp.concatenate([{0}.ravel()] * 2), "
     "nperseg=8)[2], nperseg=8)"),
    *[(f"fft.dct{t}", f"jax.scipy.fft.dct({{0}}, type={t}, axis=-1)") for t in (1, 2, 3, 4)],
    *[(f"fft.idct{t}", f"jax.scipy.fft.idct({{0}}, type={t}, norm='ortho')") for t in (1, 2, 3, 4)],
    ("fft.dctn", "jax.scipy.fft.dctn({0}, type=2, norm='ortho')"),
    ("fft.idctn", "jax.scipy.fft.idctn({0}, type=3, s=(4, 4))"),
    ("ndimage.map_coordinates1",
     "jax.scipy.ndimage.map_coordinates({0}, [jnp.asarray([0.5, 1.7, 2.2]), jnp.asarray([0.1, 2.5, "
     "3.9])], order=1)"),
    ("ndimage.map_coordinates0",
     "jax.scipy.ndimage.map_coordinates({0}, [jnp.asarray([0.5, 1.7, -1.2]), jnp.asarray([0.1, 2.5, 3.9])], "
     "order=0, mode='nearest')"),
    ("ndimage.map_coordinates_wrap",
     "jax.scipy.ndimage.map_coordinates({0}, [jnp.asarray([0.5, 4.7, -1.2]), jnp.asarray([0.1, 2.5, 5.9])], "
     "order=1, mode='wrap')"),
    ("ndimage.map_coordinates_constant",
     "jax.scipy.ndimage.map_coordinates({0}, [jnp.asarray([0.5, 4.7, -1.2]), jnp.asarray([0.1, 2.5, 5.9])], "
     "order=1, mode='constant', cval=-3.0)"),
    ("interpolate.rgi",
     "jax.scipy.interpolate.RegularGridInterpolator((jnp.arange(4.0), jnp.arange(4.0) * 2), {0})"
     "(jnp.asarray([[0.5, 1.0], [2.2, 5.9], [3.0, 0.1]]))"),
    ("interpolate.rgi_nearest",
     "jax.scipy.interpolate.RegularGridInterpolator((jnp.arange(4.0), jnp.arange(4.0) * 2), {0}, "
     "method='nearest')"
     "(jnp.asarray([[0.5, 1.0], [2.2, 5.9], [3.0, 0.1]]))"),
    ("spatial.rotation_matrix", "jax.scipy.spatial.transform.Rotation.from_rotvec({0}[:, "
        ":3] * 0.5).as_matrix()"),
    ("spatial.rotation_quat", "jax.scipy.spatial.transform.Rotation.from_euler('xyz', {0}[:, :3]).as_quat()"),
    ("spatial.rotation_apply",
     "jax.scipy.spatial.transform.Rotation.from_quat({0}).apply(jnp.asarray([1.0, 2.0, 3.0]))"),
    ("spatial.rotation_inv_rotvec", "jax.scipy.spatial.transform.Rotation.from_quat({0}).inv().as_rotvec()"),
    ("spatial.slerp",
     "jax.scipy.spatial.transform.Slerp.init(jnp.asarray([0.0, 1.0]), "
     "jax.scipy.spatial.transform.Rotation.from_quat({0}[:2]))(jnp.asarray([0.25, 0.5])).as_quat()"),
    ("cluster.vq", "jax.scipy.cluster.vq.vq({0}, {0}[:2])"),
    ("integrate.trapezoid", "jax.scipy.integrate.trapezoid({0}, dx=0.5, axis=0)"),
]


def scipy_cases(small: bool) -> list[Case]:
    """The special-function, stats and other scipy records (the scaled-down grid: the float32
    and float64 dtypes, a matrix; the full one every dtype and shape of the record)."""
    out = []
    recs = [r for rec in SPECIAL_RECORDS for r in _special_record(*rec)] + _stats_records()
    for rec in recs:
        dts = rec.dtypes
        shapes = rec.shapes
        if small:
            dts = [d for d in dts if d in ("float32", "float64", "int32", "bfloat16")][:3]
            shapes = [(3, 4)] if (3, 4) in shapes else shapes[:1]
        for shp in shapes:
            for dt in dts:
                out.append(_case(rec, (shp,) * rec.nargs, (dt,) * rec.nargs))
    tol = {"float32": 2e-4, "float64": 1e-9}
    dts = ["float32", "float64"]
    for name, expr in SPECIAL_INT_ONLY:
        out.append(Case(f"{SCI}/special.{name}", expr, (), tol))
    for name, expr in STATS_EXTRA:
        out += [Case(f"{SCI}/stats.{name}[{dt}]", expr, (((3, 4), dt, "default"),), tol) for dt in dts]
    for name, expr in SCIPY_MISC:
        out += [Case(f"{SCI}/{name}[{dt}]", expr, (((4, 4), dt, "default"),), tol) for dt in dts]
    return out


# random_test: each sampler's bits for a fixed key (a new-style typed key and a raw uint32
# PRNGKey), its shapes and dtypes, and the gradients JAX defines (reparameterized gamma,
# beta, dirichlet); ``jr`` stands for ``jax.random``
RND = "random"
_K = "jax.random.key(42)"
RANDOM_EXPRS = [
    ("key_data", "jax.random.key_data(jax.random.key(7))"),
    ("PRNGKey", "jax.random.PRNGKey(7)"),
    ("split", f"jax.random.key_data(jax.random.split({_K}, 3))"),
    ("split_raw", "jax.random.split(jax.random.PRNGKey(3), 4)"),
    ("fold_in", f"jax.random.key_data(jax.random.fold_in({_K}, 5))"),
    ("bits", f"jax.random.bits({_K}, (3, 4))"),
    ("bits_uint8", f"jax.random.bits({_K}, (5,), jnp.uint8)"),
    ("bits_uint64", f"jax.random.bits({_K}, (3,), jnp.uint64)"),
    ("uniform", f"jax.random.uniform({_K}, (3, 4))"),
    ("uniform_raw_key", "jax.random.uniform(jax.random.PRNGKey(0), (5,), minval=-2.0, maxval=3.0)"),
    ("uniform_f16", f"jax.random.uniform({_K}, (4,), jnp.float16)"),
    ("uniform_bf16", f"jax.random.uniform({_K}, (4,), jnp.bfloat16)"),
    ("uniform_f64", f"jax.random.uniform({_K}, (4,), jnp.float64)"),
    ("normal", f"jax.random.normal({_K}, (3, 4))"),
    ("normal_f16", f"jax.random.normal({_K}, (4,), jnp.float16)"),
    ("normal_complex", f"jax.random.normal({_K}, (3,), jnp.complex64)"),
    ("randint", f"jax.random.randint({_K}, (3, 4), -5, 17)"),
    ("randint_uint8", f"jax.random.randint({_K}, (6,), 0, 255, jnp.uint8)"),
    ("randint_int64", f"jax.random.randint({_K}, (4,), -(2 ** 40), 2 ** 40, jnp.int64)"),
    ("randint_full_uint32", f"jax.random.randint({_K}, (4,), 0, 2 ** 32, jnp.uint32)"),
    ("randint_int8_clipped", f"jax.random.randint({_K}, (6,), -300, 300, jnp.int8)"),
    ("randint_int16_empty_span", f"jax.random.randint({_K}, (3,), 5, 2, jnp.int16)"),
    ("key_dtype", "jax.random.key_dtype()"),
    ("geometric_f32", f"jax.random.geometric({_K}, jnp.float32(0.2), (5,))"),
    ("bernoulli", f"jax.random.bernoulli({_K}, 0.3, (3, 4))"),
    ("bernoulli_p", f"jax.random.bernoulli({_K}, jnp.asarray([0.1, 0.5, 0.9]))"),
    ("truncated_normal", f"jax.random.truncated_normal({_K}, -1.0, 2.0, (3, 4))"),
    ("beta", f"jax.random.beta({_K}, 2.0, 3.0, (5,))"),
    ("gamma", f"jax.random.gamma({_K}, jnp.asarray([0.3, 1.0, 2.5, 10.0]))"),
    ("loggamma", f"jax.random.loggamma({_K}, jnp.asarray([0.3, 1.0, 2.5]))"),
    ("dirichlet", f"jax.random.dirichlet({_K}, jnp.asarray([0.5, 1.0, 2.0]), (2,))"),
    ("exponential", f"jax.random.exponential({_K}, (5,))"),
    ("laplace", f"jax.random.laplace({_K}, (5,))"),
    ("logistic", f"jax.random.logistic({_K}, (5,))"),
    ("cauchy", f"jax.random.cauchy({_K}, (5,))"),
    ("gumbel", f"jax.random.gumbel({_K}, (5,))"),
    ("pareto", f"jax.random.pareto({_K}, 2.5, (5,))"),
    ("t", f"jax.random.t({_K}, 3.5, (5,))"),
    ("chisquare", f"jax.random.chisquare({_K}, 3.0, (5,))"),
    ("f", f"jax.random.f({_K}, 3.0, 5.0, (5,))"),
    ("poisson", f"jax.random.poisson({_K}, 3.5, (6,))"),
    ("poisson_large", f"jax.random.poisson({_K}, jnp.asarray([20.0, 150.0]))"),
    ("binomial", f"jax.random.binomial({_K}, 10.0, 0.3, (5,))"),
    ("geometric", f"jax.random.geometric({_K}, 0.3, (5,))"),
    ("categorical", f"jax.random.categorical({_K}, jnp.log(jnp.asarray([0.1, 0.2, 0.7])), shape=(6,))"),
    ("choice", f"jax.random.choice({_K}, 10, (4,), replace=False)"),
    ("choice_p", f"jax.random.choice({_K}, jnp.arange(5), (6,), p=jnp.asarray([0.1, 0.2, 0.3, 0.2, 0.2]))"),
    ("permutation", f"jax.random.permutation({_K}, 8)"),
    ("permutation_array", f"jax.random.permutation({_K}, jnp.arange(12).reshape(3, 4), axis=1)"),
    ("rademacher", f"jax.random.rademacher({_K}, (6,))"),
    ("maxwell", f"jax.random.maxwell({_K}, (4,))"),
    ("double_sided_maxwell", f"jax.random.double_sided_maxwell({_K}, 0.5, 2.0, (4,))"),
    ("weibull_min", f"jax.random.weibull_min({_K}, 1.5, 2.0, (4,))"),
    ("rayleigh", f"jax.random.rayleigh({_K}, 2.0, (4,))"),
    ("wald", f"jax.random.wald({_K}, 1.5, (4,))"),
    ("lognormal", f"jax.random.lognormal({_K}, 0.5, (4,))"),
    ("triangular", f"jax.random.triangular({_K}, 0.0, 1.0, 3.0, (4,))"),
    ("generalized_normal", f"jax.random.generalized_normal({_K}, 1.5, (4,))"),
    ("ball", f"jax.random.ball({_K}, 3, 2, (2,))"),
    ("orthogonal", f"jax.random.orthogonal({_K}, 3)"),
    ("multivariate_normal",
     f"jax.random.multivariate_normal({_K}, jnp.zeros(2), jnp.asarray([[2.0, 0.5], [0.5, 1.0]]), (3,))"),
    ("multinomial", f"jax.random.multinomial({_K}, 10.0, jnp.asarray([0.2, 0.3, 0.5]))"),
    ("grad_gamma", f"jax.grad(lambda a: jax.random.gamma({_K}, a).sum())(jnp.asarray([0.3, 1.0, 2.5]))"),
    ("grad_beta", f"jax.grad(lambda a: jax.random.beta({_K}, a, 2.0, (3,)).sum())(1.5)"),
    ("grad_dirichlet",
     f"jax.grad(lambda a: (jax.random.dirichlet({_K}, "
         "a) * jnp.arange(3.0)).sum())(jnp.asarray([0.5, 1.0, 2.0]))"),
    ("grad_normal_loc", f"jax.grad(lambda m: (m + jax.random.normal({_K}, (3,))).prod())(1.0)"),
]


SCIPY_SUBMODULES = ["special", "stats", "linalg", "signal", "fft", "ndimage", "interpolate",
                    "spatial.transform", "cluster.vq", "integrate"]


def import_scipy(root: str) -> None:
    """Import ``root``'s scipy submodules the cases name (``jax.scipy.special`` ...)."""
    import importlib

    for sub in SCIPY_SUBMODULES:
        importlib.import_module(f"{root}.scipy.{sub}")


def random_cases() -> list[Case]:
    """Every sampler once (no inputs: the key is fixed); the same cases in both modes."""
    return [Case(f"{RND}/{name}", expr, (), {"float32": 2e-6, "float16": 1e-3, "bfloat16": 1e-2,
                                               "float64": 1e-12, "complex64": 2e-6})
            for name, expr in RANDOM_EXPRS]


def all_cases(small: bool) -> list[Case]:
    """Every case of every record; ``small`` for the scaled-down grid of the default run."""
    out = []
    for rec in OPERATOR_RECORDS + BITWISE_RECORDS + OVERLOAD_RECORDS + LAX_RECORDS + GRAD_RECORDS:
        out += record_cases(rec, small)
    for rec in REDUCER_RECORDS:
        out += reducer_cases(rec, small)
    out += indexing_cases(small)
    out += misc_cases(small)
    out += fix_cases()
    out += scipy_cases(small)
    out += random_cases()
    seen, unique = set(), []
    for c in out:
        if c.id not in seen:
            seen.add(c.id)
            unique.append(c)
    return unique


# -- inputs -------------------------------------------------------------------------------
def _np_dtype(name: str):
    return ml_dtypes.bfloat16 if name == "bfloat16" else np.dtype(name)


def make_value(shape, dtype: str, rng_kind: str, seed: int):
    """A NumPy input (or a Python scalar for shape `PY`) of the record's kind of values."""
    rng = np.random.default_rng(seed)
    shp = () if shape == PY else shape
    dt = _np_dtype(dtype)
    kind = np.dtype(dt).kind if dtype != "bfloat16" else "f"
    if rng_kind == "fullrange" and kind in "iu":
        info = np.iinfo(dt)
        x = rng.integers(info.min, info.max, size=shp, dtype=dt, endpoint=True)
    elif rng_kind == "bool" or kind == "b":
        x = rng.random(shp) > 0.5
    elif rng_kind == "int8":
        x = rng.integers(0, 8, size=shp)
    else:
        scale = {"small": 0.3, "small_positive": 0.3}.get(rng_kind, 3.0)
        x = rng.normal(size=shp) * scale
        if kind == "c":
            x = x + 1j * rng.normal(size=shp) * scale
        if rng_kind in ("positive", "small_positive"):
            x = np.abs(x) + (0.05 if rng_kind == "small_positive" else 0.5)
        if rng_kind == "unit":
            x = rng.uniform(0.05, 0.95, size=shp)
        if rng_kind == "positive_above_one":
            x = np.abs(x) + 1.2
        if kind in "iu":
            x = np.round(x.real)
            if kind == "u":
                x = np.abs(x)
            if rng_kind in ("nonzero", "positive", "small_positive"):
                x = np.where(x == 0, 1, x)
        if rng_kind == "nonzero":
            x = np.where(np.abs(x) < 0.1, 1.0, x)
        if rng_kind in ("some_nan", "some_inf", "some_inf_and_nan", "some_zero") and x.size and kind in "fc":
            flat = x.reshape(-1).copy()
            spots = rng.random(flat.size)
            specials = {
                "some_nan": [np.nan],
                "some_inf": [np.inf, -np.inf],
                "some_zero": [0.0],
                "some_inf_and_nan": [np.inf, -np.inf, np.nan],
            }[rng_kind]
            for i, s in enumerate(specials):
                flat = np.where((spots > 0.8 - 0.1 * i) & (spots <= 0.9 - 0.1 * i), s, flat)
            x = flat.reshape(x.shape)
        elif rng_kind == "some_zero" and x.size:
            x = np.where(rng.random(shp) > 0.7, 0, x)
    x = np.asarray(x).astype(dt)
    if shape == PY:
        return PY_DTYPES[dtype](x.item()) if dtype in PY_DTYPES else x.item()
    return x


def case_inputs(case: Case, asarray) -> list:
    seed = zlib.crc32(case.id.encode())
    out = []
    for i, (shape, dtype, kind) in enumerate(case.inputs):
        v = make_value(shape, dtype, kind, seed + i)
        out.append(v if shape == PY else asarray(v))
    return out


# -- outcomes -----------------------------------------------------------------------------
_BUILTIN_ERRORS = (
    IndexError,
    KeyError,
    ValueError,
    TypeError,
    NotImplementedError,
    ZeroDivisionError,
    OverflowError,
    AttributeError,
    RuntimeError,
)


def error_kind(exc: BaseException) -> str:
    """The builtin types a raised error is an instance of (libraries raise subclasses of
    them), joined by ``|``; its own name when none."""
    kinds = [t.__name__ for t in _BUILTIN_ERRORS if isinstance(exc, t)]
    return "|".join(kinds) or type(exc).__name__


def _leaf(x, to_host=np.asarray) -> list:
    if isinstance(x, (bool, int, float, complex)) and not hasattr(x, "dtype"):
        v = complex(x) if isinstance(x, complex) else float(x)
        return ["py" + type(x).__name__, [], _encode(np.asarray(v)), True]
    if isinstance(x, (np.dtype, type, str)) or x is None or not (
        hasattr(x, "dtype") or isinstance(x, (bool, int, float, complex))
    ):  # result_type and friends, NotImplemented from a reflected operator
        name = np.dtype(x).name if isinstance(x, (np.dtype, type)) else repr(x)
        return [f"object:{name}", [], [[0], []], False]
    a = np.asarray(to_host(x))
    dtype = np.dtype(getattr(x, "dtype", a.dtype)).name
    return [dtype, list(a.shape), _encode(a), bool(getattr(x, "weak_type", False))]


def _encode(a: np.ndarray) -> list:
    """Values as JSON-ready lists (complex as [re, im] pairs, non-finite as strings; floats
    narrower than 64 bits to 9 significant digits, 64-bit ones to 17: both round-trip)."""
    a = np.asarray(a)
    digits = 17 if a.dtype.itemsize >= (16 if a.dtype.kind == "c" else 8) else 9  # round trips
    if a.dtype.kind == "c":
        a = np.stack([a.real, a.imag], -1)
    if a.dtype.kind in "fV" or a.dtype == ml_dtypes.bfloat16:
        a = a.astype(np.float64)
    if a.dtype.kind == "f":
        flat = [float(f"{v:.{digits}g}") if math.isfinite(v) else repr(v) for v in a.reshape(-1).tolist()]
        return [list(a.shape), flat]
    return [list(a.shape), a.reshape(-1).tolist()]


def decode(enc: list) -> np.ndarray:
    shape, flat = enc
    vals = [float(v) if isinstance(v, str) else v for v in flat]
    return np.asarray(vals).reshape(shape) if vals else np.zeros(shape)


def stored_cases(x64: bool) -> list[Case]:
    """The representative subset whose JAX outcomes are stored (``tests/stored/
    jax_suite_grid.json``): a quarter of the scaled-down grid with 64-bit types on, a
    sixteenth with them off (chosen by a hash of the case's id, so every record and family
    has some), every ``fixes/`` and ``random/`` case, and every ``scipy/`` case with them on."""
    every = 4 if x64 else 16
    return [
        c
        for c in all_cases(small=True)
        if c.id.startswith(("fixes/", "random/")) or (x64 and c.id.startswith("scipy/"))
        or zlib.crc32(c.id.encode()) % every == 0
    ]


def outcome(case: Case, names: dict, asarray, leaves, to_host=np.asarray) -> dict:
    """What ``case`` gives with the library's modules ``names`` (``jnp``, ``lax``, ``jax``)."""
    try:
        inputs = case_inputs(case, asarray)
        expr = case.expr.format(*(f"a{i}" for i in range(len(inputs))))
        env = dict(names, operator=operator, np=np, **{f"a{i}": v for i, v in enumerate(inputs)})
        out = eval(expr, env)  # noqa: S307 - the expressions of this module
        return {"leaves": [_leaf(x, to_host) for x in leaves(out)]}
    except Exception as e:  # noqa: BLE001 - the raised type is the outcome
        return {"error": error_kind(e)}


def compare(case: Case, want: dict, got: dict) -> str | None:
    """None when ``got`` agrees with ``want``, otherwise what differs."""
    if "error" in want or "error" in got:
        # fgrad's error must be caught by ``except <JAX's type>``
        if "error" in want and "error" in got and want["error"].split("|")[0] in got["error"].split("|"):
            return None
        return f"{case.id}: JAX {want.get('error') or 'returns'}, fgrad {got.get('error') or 'returns'}"
    wl, gl = want["leaves"], got["leaves"]
    if len(wl) != len(gl):
        return f"{case.id}: JAX {len(wl)} leaves, fgrad {len(gl)}"
    for i, (w, g) in enumerate(zip(wl, gl)):
        if w[0] != g[0] or w[1] != g[1]:
            return f"{case.id}: leaf {i}: JAX {w[0]}{tuple(w[1])}, fgrad {g[0]}{tuple(g[1])}"
        if "empty" in case.expr or "empty_like" in case.expr:
            continue
        wv, gv = decode(w[2]), decode(g[2])
        if wv.shape != gv.shape:
            return f"{case.id}: leaf {i}: value shapes {wv.shape} vs {gv.shape}"
        dt = w[0].replace("py", "")
        tol = case.tol.get(dt, TOL.get({"float": "float64", "complex": "complex128"}.get(dt, dt), 0))
        if wv.dtype == object or gv.dtype == object:
            ok = str(wv) == str(gv)
        elif wv.dtype.kind in "biu" and gv.dtype.kind in "biu":
            ok = np.array_equal(wv, gv)
        else:
            ok = np.allclose(gv.astype(float), wv.astype(float), rtol=tol, atol=tol, equal_nan=True)
        if not ok:
            return (f"{case.id}: leaf {i} ({w[0]}): values differ\n  JAX   {wv.ravel()[:8]}\n"
                    f"  fgrad {gv.ravel()[:8]}")
    return None
