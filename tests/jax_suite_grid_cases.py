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
    has some), and every ``fixes/`` case."""
    every = 4 if x64 else 16
    return [
        c
        for c in all_cases(small=True)
        if c.id.startswith("fixes/") or zlib.crc32(c.id.encode()) % every == 0
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
