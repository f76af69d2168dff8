"""Creation functions give the same dtype, weak type and values inside ``jit`` (where they
stage JAX's ``broadcast_in_dim`` of a literal) as eagerly, and as JAX, in both 64-bit modes.

Regression: ``jit(lambda: fnp.zeros((3, 2)))()`` was int64 (the fill's Python int literal
was staged weakly typed), so ``zeros(n).at[i].add(0.5)`` inside ``jit`` truncated to 0."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp

CASES = {
    "zeros": lambda N: N.zeros((3, 2)), "zeros_int": lambda N: N.zeros((3,), int),
    "ones": lambda N: N.ones((2,)),
    "empty": lambda N: N.empty((2, 2)), "full_float": lambda N: N.full((2,), 2.5),
    "full_int": lambda N: N.full((2,), 3), "full_bool": lambda N: N.full((2,), True),
    "full_np32": lambda N: N.full((2,), np.float32(1.5)), "eye": lambda N: N.eye(3),
    "arange": lambda N: N.arange(4), "arange_float": lambda N: N.arange(0.0, 1.0, 0.25),
    "linspace": lambda N: N.linspace(0, 1, 5), "zeros_like": lambda N: N.zeros_like(N.arange(3)),
    "full_like": lambda N: N.full_like(N.arange(2), 0.5), "zeros_0d": lambda N: N.zeros(()),
    "at_add": lambda N: N.zeros((2,)).at[0].add(0.5), "zeros_plus_1": lambda N: N.zeros(3) + 1,
    "ones_times_half": lambda N: N.ones((2, 2)) * 0.5,
}


def _summary(x):
    return str(x.dtype), bool(getattr(x, "weak_type", False)), np.asarray(x).tolist()


@pytest.fixture(params=[True, False], ids=["x64", "x32"])
def x64(request):
    with fgrad.enable_x64(request.param):
        yield request.param


@pytest.mark.parametrize("name", list(CASES))
def test_jit_equals_eager(name, x64):
    f = CASES[name]
    assert _summary(fgrad.jit(lambda: f(fnp))()) == _summary(f(fnp))


@pytest.mark.parametrize("name", list(CASES))
def test_matches_jax_live(name, x64):
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    f = CASES[name]
    with jax.enable_x64(x64):
        theirs = _summary(jax.jit(lambda: f(jnp))())
    assert _summary(fgrad.jit(lambda: f(fnp))()) == theirs


def test_at_add_inside_jit_keeps_the_fraction():
    out = fgrad.jit(lambda v: fnp.zeros((3,)).at[1].add(v))(0.5)
    assert out.dtype == np.float64 and out.tolist() == [0.0, 0.5, 0.0]
