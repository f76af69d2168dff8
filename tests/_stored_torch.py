"""Stored-and-live PyTorch comparisons for the shim's fuzz-defect regression tests
(tests/shim/test_torch_round2*_fuzz_defects.py): each call's outcome under ``fgrad.torch``
must equal PyTorch 2.13's stored outcome, and, where torch is installed, the live one."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft


def live_torch():
    """The installed PyTorch (the test is skipped without it)."""
    return pytest.importorskip("torch")


def same(mine, theirs, rtol=1e-12):
    """Equal nested lists of numbers: NaN where NaN, infinities and the sign of zero alike
    (ragged lists compared item by item)."""
    try:
        a, b = np.asarray(mine, dtype=float), np.asarray(theirs, dtype=float)
    except ValueError:  # ragged: a value and its gradients
        assert isinstance(mine, (list, tuple)) and len(mine) == len(theirs), (mine, theirs)
        for m, t in zip(mine, theirs):
            same(m, t, rtol)
        return
    assert a.shape == b.shape, (mine, theirs)
    np.testing.assert_allclose(a, b, rtol=rtol, atol=1e-300)
    assert (np.signbit(a) == np.signbit(b))[(a == 0) & (b == 0)].all(), (mine, theirs)


def outcome(T, call):
    """``("ok", call(T))``, or the exception's type name and words."""
    try:
        r = call(T)
    except Exception as e:  # noqa: BLE001 - the type and words are what is compared
        return type(e).__name__, str(e)
    return "ok", r


def same_outcome(mine, theirs, rtol=None) -> None:
    """Assert two `outcome` pairs agree: the same exception type and words, or results equal
    (``rtol`` given: numbers compared by `same`, NaN where NaN)."""
    if rtol is None or mine[0] != "ok" or theirs[0] != "ok":
        assert mine == theirs
    else:
        same(mine[1], theirs[1], rtol)


def stored_and_live(cases: dict, want: dict, rtol: float | None = None) -> tuple:
    """Two tests over the calls in ``cases`` (name -> ``call(T)``): fgrad's outcome equals
    PyTorch's stored one in ``want``, and (torch installed) the live PyTorch outcome
    (``rtol``: the results are nested lists of numbers compared by `same`)."""

    @pytest.mark.parametrize("name", sorted(cases))
    def stored(name):
        same_outcome(outcome(ft, cases[name]), want[name], rtol)

    @pytest.mark.parametrize("name", sorted(cases))
    def live(name):
        same_outcome(outcome(ft, cases[name]), outcome(live_torch(), cases[name]), rtol)

    return stored, live
