"""8-bit (and narrower) floats promote as JAX's: with integers and bools to themselves, with
any other floating or complex type not at all (`TypePromotionError`). Regression:
``promote_types(float8_e4m3fn, float32)`` returned float32 (found by jaxapi14)."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import fgrad.numpy as fnp
from fgrad.numpy._promotion_checks import TypePromotionError

NAMES = ["float8_e4m3fn", "float8_e5m2", "float8_e4m3fnuz", "float32", "bfloat16", "float16", "int8",
         "uint8", "bool", "complex64"]
# JAX 0.10.2's answers ("error" for TypePromotionError), for the pairs with a float8 operand
JAX = {
    ("float8_e4m3fn", "float8_e4m3fn"): "float8_e4m3fn", ("float8_e4m3fn", "int8"): "float8_e4m3fn",
    ("float8_e4m3fn", "uint8"): "float8_e4m3fn", ("float8_e4m3fn", "bool"): "float8_e4m3fn",
    ("float8_e5m2", "int8"): "float8_e5m2", ("float8_e4m3fnuz", "bool"): "float8_e4m3fnuz",
    ("float8_e4m3fn", "float32"): "error", ("float8_e4m3fn", "bfloat16"): "error",
    ("float8_e4m3fn", "float16"): "error", ("float8_e4m3fn", "complex64"): "error",
    ("float8_e4m3fn", "float8_e5m2"): "error", ("float8_e5m2", "float8_e4m3fnuz"): "error",
}


def _ours(a, b):
    try:
        return np.dtype(fnp.promote_types(getattr(fnp, a) if a != "bool" else bool,
                                          getattr(fnp, b) if b != "bool" else bool)).name
    except TypePromotionError:
        return "error"


@pytest.mark.parametrize("pair", list(JAX))
def test_matches_jax_stored(pair):
    assert _ours(*pair) == JAX[pair]
    assert _ours(*pair[::-1]) == JAX[pair]  # symmetric


def test_matches_jax_live():
    jnp = pytest.importorskip("jax.numpy")
    from jax.dtypes import TypePromotionError as JaxError

    for a, b in itertools.product(NAMES, repeat=2):
        if "float8" not in a + b:
            continue
        try:
            theirs = np.dtype(jnp.promote_types(getattr(jnp, a) if a != "bool" else bool,
                                                getattr(jnp, b) if b != "bool" else bool)).name
        except JaxError:
            theirs = "error"
        assert _ours(a, b) == theirs, (a, b)
