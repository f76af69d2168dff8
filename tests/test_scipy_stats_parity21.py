"""`fgrad.scipy.stats`/`special` against JAX 0.10.2 at and around the support's ends: values at
non-integer and out-of-support points of the pmfs, at NaN, for invalid parameters, and
gradients where JAX's formulas would leak a masked branch.

The numbers are JAX's, stored by ``python tools/stats_parity.py --store``
(``tests/stored/scipy_stats_parity21.json``); with JAX installed they are also recomputed
live (``-m slow``). fgrad must reproduce every value and gradient, with one deliberate exception (listed in
docs/jax-semantics.md): where JAX's gradient is NaN at a point whose value is not NaN -- a
constant region outside the support, where JAX's unselected ``where`` branch leaks NaN --
fgrad's gradient is the true one, 0.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.scipy as fsp

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "tools"))
from stats_parity import REGRESSION_CASES, regression_results  # noqa: E402

_STORED = os.path.join(os.path.dirname(__file__), "stored", "scipy_stats_parity21.json")
with open(_STORED) as _f:
    _CASES = {c["name"] + "/" + c["dtype"]: c for c in json.load(_f)["cases"]}


def _ids(case):
    return case[0] + "/" + case[2]


def _close(expected, actual, dtype):
    # the support conventions differ by far more; JAX's betaln (betabinom) is off by 1e-7
    rtol = 1e-6 if dtype == "float64" else 1e-5
    e, a = np.asarray(expected, np.float64), np.asarray(actual, np.float64)
    return np.isclose(e, a, rtol=rtol, atol=0.0, equal_nan=True) | (e == a)


def _check(reference_value, reference_grads, case):
    name, args, dtype, argnums = case
    value, grads = regression_results(fsp, fnp, fgrad.grad, name, args, dtype, argnums)
    ok = _close(reference_value, value, dtype)
    assert ok.all(), f"{name}: values differ at {np.flatnonzero(~ok)}: {reference_value} vs {value}"
    ref_value = np.asarray(reference_value, np.float64)
    for i, (rg, fg) in zip(argnums, zip(reference_grads, grads)):
        rg, fg = np.asarray(rg, np.float64), np.asarray(fg, np.float64)
        leak = np.isnan(rg) & ~np.isnan(ref_value)  # JAX's NaN from an unselected branch
        assert (fg[leak] == 0).all(), f"{name} d/darg{i}: expected 0 where JAX leaks NaN, got {fg}"
        ok = _close(rg[~leak], fg[~leak], dtype)
        assert ok.all(), f"{name} d/darg{i}: {rg} vs {fg}"


@pytest.mark.parametrize("case", REGRESSION_CASES, ids=_ids)
def test_matches_stored_jax(case):
    stored = _CASES[_ids(case)]
    _check(stored["value"], stored["grads"], case)


@pytest.mark.slow  # JAX compiles each function (up to 4 s for truncnorm)
@pytest.mark.skipif(importlib.util.find_spec("jax") is None, reason="JAX not installed")
@pytest.mark.parametrize("case", REGRESSION_CASES, ids=_ids)
def test_matches_live_jax(case):
    import jax
    import jax.numpy as jnp
    import jax.scipy as jsp
    jax.config.update("jax_enable_x64", True)
    name, args, dtype, argnums = case
    value, grads = regression_results(jsp, jnp, jax.grad, name, args, dtype, argnums)
    stored = _CASES[_ids(case)]
    assert _close(stored["value"], value, dtype).all(), "stored JAX values are stale"
    _check(value, grads, case)


def test_leaked_nan_points_are_truly_flat():
    """Where the rule above expects 0 instead of JAX's NaN, fgrad's own value is constant on
    at least one side (both, out of the support; outside only, at its end, where 0 is the
    outside one-sided derivative), so 0 is the derivative."""
    checked = 0
    for name, args, dtype, argnums in REGRESSION_CASES:
        stored = _CASES[name + "/" + dtype]
        fn = getattr(getattr(fsp.stats, name.split(".")[1], None), name.split(".")[-1], None)
        for i, rg in zip(argnums, stored["grads"]):
            for j in np.flatnonzero(np.isnan(rg) & ~np.isnan(stored["value"])):
                point = [np.asarray(a[j] if isinstance(a, list) else a, np.float64) for a in args]
                if not np.isfinite(point[i]) or fn is None:
                    continue
                flat = []
                for step in (1e-6, -1e-6):
                    moved = list(point)
                    moved[i] = point[i] + step
                    flat.append(float(fn(*point)) == float(fn(*moved)))
                assert any(flat), (name, i, point)
                checked += 1
    assert checked >= 4
