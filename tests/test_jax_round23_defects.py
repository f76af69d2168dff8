"""Regression tests of what round 23 of the JAX programs (tests/jax_programs_round23/,
docs/jax-programs-round23.md) found in fgrad, each compared with JAX 0.10.2's numbers (stored
here; live when JAX is installed)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp


def _cases(jnp):
    """Indexed updates whose operand and updates have different types."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # JAX warns of the unsafe int casts
        return {
            # a weakly typed float64 operand meets strong float32 updates: JAX adds in float32
            "weak f64 add f32": jnp.full(3, 1500.0).at[0].add(jnp.float32(0.1)),
            "weak f64 add f32 repeated": jnp.full(3, 1500.0).at[jnp.array([0, 0])].add(jnp.float32(0.1)),
            "weak f64 max f32": jnp.full(2, 0.3).at[0].max(jnp.float32(0.1)),
            "weak f64 mul f16": jnp.full(2, 1.0).at[1].mul(jnp.float16(0.1)),
            # an integer operand meets float updates: computed in float, converted back
            "int mul float": jnp.array([3, 5], jnp.int32).at[0].mul(1.5),
            "int add float repeated": jnp.array([5, 5], jnp.int32).at[jnp.array([0, 0])].add(0.7),
            # divide is x / ones.at[idx].mul(values): a float quotient of integers
            "int divide": jnp.array([6, 4], jnp.int32).at[0].divide(4),
            "weak f64 divide f32": jnp.full(3, 2.0).at[jnp.array([0, 0, 1])].divide(jnp.float32(3.0)),
            "strong add (unchanged)": jnp.zeros(2, jnp.float64).at[0].add(jnp.float32(0.1)),
            "set (unchanged)": jnp.full(2, 1.0).at[0].set(jnp.float32(0.1)),
        }


# JAX 0.10.2 with JAX_ENABLE_X64=1: (values as float.hex / ints, dtype, weak_type)
WANT = {
    "weak f64 add f32": (
        ["0x1.7706660000000p+10", "0x1.7700000000000p+10", "0x1.7700000000000p+10"],
        "float64",
        True,
    ),
    "weak f64 add f32 repeated": (
        ["0x1.770ccc0000000p+10", "0x1.7700000000000p+10", "0x1.7700000000000p+10"],
        "float64",
        True,
    ),
    # the whole operand passes through float32 (0.3 comes back rounded)
    "weak f64 max f32": (["0x1.3333340000000p-2", "0x1.3333340000000p-2"], "float64", True),
    "weak f64 mul f16": (["0x1.0000000000000p+0", "0x1.9980000000000p-4"], "float64", True),
    "int mul float": ([4, 5], "int32", False),
    "int add float repeated": ([6, 5], "int32", False),
    "int divide": (["0x1.8000000000000p+0", "0x1.0000000000000p+2"], "float32", False),
    "weak f64 divide f32": (
        ["0x1.c71c71c71c71cp-3", "0x1.5555555555555p-1", "0x1.0000000000000p+1"],
        "float64",
        True,
    ),
    "strong add (unchanged)": (["0x1.99999a0000000p-4", "0x0.0p+0"], "float64", False),
    "set (unchanged)": (["0x1.99999a0000000p-4", "0x1.0000000000000p+0"], "float64", True),
}


def _values(a):
    a = np.asarray(a)
    return a.tolist() if a.dtype.kind in "iu" else [float(v).hex() for v in a]


def _check(got):
    for name, (values, dtype, weak) in WANT.items():
        a = got[name]
        assert _values(a) == values, (name, _values(a))
        assert str(a.dtype) == dtype and bool(a.weak_type) == weak, (name, a.dtype, a.weak_type)


def test_indexed_updates_compute_in_the_joined_dtype_as_jax():
    """``x.at[i].add/mul/min/max(y)`` computes in the promotion of ``x``'s and ``y``'s types and
    converts back to ``x``'s dtype and weak type (JAX's ``_scatter_impl``): fgrad cast ``y`` to
    ``x``'s dtype first, so a weakly typed float64 operand (``jnp.full(n, 1500.0)``) added
    float32 updates in float64 (an Elo rating loop drifted from JAX's by 1e-6 relative), and
    ``int32.at[0].mul(1.5)`` gave 3 where JAX gives 4; ``divide`` multiplied by the updates'
    reciprocal where JAX divides by ones scatter-multiplied by the updates (an integer array
    divided gave integers; JAX, floats)."""
    with fgrad.enable_x64(True):
        _check(_cases(fnp))


def test_indexed_updates_under_jit_match_eager():
    with fgrad.enable_x64(True):
        f = fgrad.jit(lambda x, y: x.at[0].add(y))
        out = f(fnp.full(3, 1500.0), fnp.float32(0.1))
        assert float(out[0]).hex() == WANT["weak f64 add f32"][0][0]
        assert str(out.dtype) == "float64"


@pytest.mark.slow
def test_indexed_updates_live_jax():
    jax = pytest.importorskip("jax")
    with jax.enable_x64(True):
        _check(_cases(jax.numpy))
