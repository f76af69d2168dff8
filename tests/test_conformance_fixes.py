"""Regression tests for defects found by re-running the array API standard's test suite
(docs/conformance.md)."""

from __future__ import annotations

import numpy as np

import fgrad
import fgrad.numpy as fnp


def test_pinv_per_matrix_rtol():
    """``rtol`` with the stack's batch shape (one tolerance per matrix, as the standard and
    NumPy allow) was broadcast against the wrong axis and raised (or, for a square stack,
    applied the tolerances across singular values)."""
    rng = np.random.default_rng(0)
    a = rng.normal(size=(3, 4, 2))
    rtol = np.array([0.1, 0.5, 0.9])
    got = fnp.linalg.pinv(fnp.asarray(a), rtol=fnp.asarray(rtol))
    np.testing.assert_allclose(np.asarray(got), np.linalg.pinv(a, rtol=rtol), atol=1e-12)
    sq = rng.normal(size=(3, 3, 3))
    np.testing.assert_allclose(np.asarray(fnp.linalg.pinv(fnp.asarray(sq), rtol=rtol)),
                               np.linalg.pinv(sq, rtol=rtol), atol=1e-12)
    # the suite's falsifying example: an empty stack with an empty tolerance array
    assert fnp.linalg.pinv(fnp.zeros((0, 2, 1)), rtol=fnp.zeros((0,), dtype="float32")).shape == (0, 1, 2)
    g = fgrad.grad(lambda m: fnp.linalg.pinv(m, rtol=rtol).sum())(fnp.asarray(a))
    assert g.shape == a.shape and np.all(np.isfinite(np.asarray(g)))
