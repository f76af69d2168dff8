"""`fgrad.config` takes JAX's option names: each is mapped to fgrad's behaviour, refused with a
clear error where fgrad cannot honour it, or stored (diagnostics that do not change results)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.transforms.jit import disable_jit


@pytest.fixture
def restore():
    names = ["jax_debug_nans", "jax_debug_infs", "jax_disable_jit", "jax_default_matmul_precision"]
    before = {n: fgrad.config.read(n) for n in names}
    yield
    for n, v in before.items():
        fgrad.config.update(n, v)
    fgrad.config.update("backend", "cpu")


def test_jax_names_read_as_attributes_and_values():
    c = fgrad.config
    assert c.jax_enable_x64 is True and c.read("jax_enable_x64") is True  # NumPy's dtypes
    assert c.jax_debug_nans is False and c.jax_numpy_rank_promotion == "allow"
    assert c.values["jax_disable_jit"] is False and c.values["jit_cache_size"] == c.jit_cache_size


def test_unknown_names_raise_attribute_error_as_jax():
    with pytest.raises(AttributeError, match="Unrecognized config option: jax_bogus"):
        fgrad.config.update("jax_bogus", 1)
    with pytest.raises(KeyError):  # fgrad's earlier type still catches it
        fgrad.config.update("jax_bogus", 1)
    with pytest.raises(AttributeError, match="jax_bogus"):
        fgrad.config.jax_bogus  # noqa: B018
    jax = pytest.importorskip("jax")
    with pytest.raises(AttributeError):
        jax.config.update("jax_bogus", 1)


def test_enable_x64_switches_the_default_precision_both_ways():
    fgrad.config.update("jax_enable_x64", True)
    assert fnp.asarray(1.0).dtype == np.float64
    try:
        fgrad.config.update("jax_enable_x64", False)
        assert fnp.asarray(1.0).dtype == np.float32 and fgrad.config.jax_enable_x64 is False
    finally:
        fgrad.config.update("jax_enable_x64", True)
    assert fnp.asarray(1.0).dtype == np.float64


def test_rank_promotion_bad_value_is_refused():
    with pytest.raises(ValueError, match="allow"):
        fgrad.config.update("jax_numpy_rank_promotion", "bogus")
    assert fgrad.config.jax_numpy_rank_promotion == "allow"


def test_rank_promotion_raise_through_config_update():
    """"raise" is implemented now (tests/test_jax_config_scopes.py covers the modes)."""
    fgrad.config.update("jax_numpy_rank_promotion", "raise")
    try:
        with pytest.raises(ValueError, match="rank_promotion"):
            fnp.ones(3) + fnp.ones((2, 3))
    finally:
        fgrad.config.update("jax_numpy_rank_promotion", "allow")
    assert (fnp.ones(3) + fnp.ones((2, 3))).shape == (2, 3)


def test_debug_nans_raises_floating_point_error(restore):
    fgrad.config.update("jax_debug_nans", True)
    with pytest.raises(FloatingPointError, match=r"invalid value \(nan\) encountered in log"):
        fnp.log(fnp.asarray(-1.0))  # the eager fast path is checked too
    with pytest.raises(FloatingPointError, match="nan"):
        fgrad.jit(fnp.sqrt)(fnp.asarray(-1.0))
    with pytest.raises(FloatingPointError, match="sqrt"):
        fgrad.grad(fnp.sqrt)(-1.0)
    with pytest.raises(FloatingPointError, match="mul"):  # backward values are checked too
        fgrad.grad(lambda x: fnp.sqrt(x) * 0.0)(0.0)
    assert float(fnp.log(fnp.asarray(math.e))) == 1.0  # finite results pass
    fgrad.config.update("jax_debug_nans", False)
    assert np.isnan(float(fnp.log(fnp.asarray(-1.0))))


def test_debug_infs(restore):
    fgrad.config.update("jax_debug_infs", True)
    with pytest.raises(FloatingPointError, match="inf"):
        fnp.asarray(1.0) / fnp.asarray(0.0)
    fgrad.config.update("jax_debug_infs", False)
    assert float(fnp.asarray(1.0) / fnp.asarray(0.0)) == math.inf


def test_disable_jit_and_platforms(restore):
    seen = []

    @fgrad.jit
    def f(x):
        seen.append(type(x).__name__)
        return x * 2

    fgrad.config.update("jax_disable_jit", True)
    assert disable_jit.active and fgrad.config.jax_disable_jit
    assert float(f(fnp.asarray(1.0))) == 2.0 and seen == ["ArrayImpl"]  # ran eagerly
    fgrad.config.update("jax_disable_jit", False)
    fgrad.config.update("jax_platform_name", "cpu")
    fgrad.config.update("jax_platforms", "cpu")
    assert fgrad.default_backend() == "cpu"
    if not fgrad.devices("cuda"):
        fgrad.config.update("jax_platforms", "cuda,cpu")  # the first available one
        assert fgrad.default_backend() == "cpu"
        with pytest.raises(RuntimeError):  # BackendUnavailableError
            fgrad.config.update("jax_platforms", "cuda")


def test_matmul_precision_values(restore):
    for v in ("highest", "float32", None):
        fgrad.config.update("jax_default_matmul_precision", v)
        assert fgrad.config.jax_default_matmul_precision == v
    with pytest.raises(ValueError):
        fgrad.config.update("jax_default_matmul_precision", "extreme")
