"""fgrad.numpy.triu / tril keep the zeroed triangle 0 where the input is +-inf or NaN, as NumPy
does (they used to compute the zeros as ``m * 0``, NaN there -- which made PyTorch's causal mask
``triu(full(-inf), 1)`` NaN on the device path)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp


@pytest.mark.parametrize("fn", ["triu", "tril"])
@pytest.mark.parametrize("k", [-1, 0, 1])
def test_tri_of_nonfinite_values_matches_numpy(fn, k):
    a = np.array([[np.inf, -np.inf, np.nan], [1.0, np.nan, -np.inf], [np.inf, 2.0, 3.0]])
    np.testing.assert_array_equal(np.asarray(getattr(fnp, fn)(fnp.array(a), k)), getattr(np, fn)(a, k))
    batched = np.stack([a, -a])
    got = fgrad.vmap(lambda m: getattr(fnp, fn)(m, k))(fnp.array(batched))
    np.testing.assert_array_equal(np.asarray(got), np.stack([getattr(np, fn)(a, k), getattr(np, fn)(-a, k)]))


def test_causal_mask_and_gradient():
    mask = fnp.triu(fnp.full((3, 3), -np.inf), 1)
    assert not np.isnan(np.asarray(mask)).any()
    g = fgrad.grad(lambda m: fnp.triu(m * 3.0).sum())(fnp.ones((2, 2)))
    np.testing.assert_array_equal(np.asarray(g), [[3.0, 3.0], [0.0, 3.0]])
