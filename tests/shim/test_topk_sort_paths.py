"""``topk`` without a full sort (argpartition, then the k sorted) gives the full sort's first
k indices, ties by position (``_topk_idx``); ``torch.topk`` then replaces the tied rows by
PyTorch's choice (round 13); descending integer sorts order the minimum value last."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fgrad.torch as torch
from fgrad.torch._ops import _sort_idx, _topk_idx


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), dtype=st.sampled_from(["float32", "float64", "int64", "int32",
                                                          "uint8", "int8"]),
       largest=st.booleans(), ties=st.booleans())
def test_topk_equals_the_full_sort_prefix(seed, dtype, largest, ties):
    rng = np.random.default_rng(seed)
    shape = tuple(rng.integers(1, 30, rng.integers(1, 4)))
    d = int(rng.integers(0, len(shape)))
    if ties:
        b = rng.integers(-3, 4, shape).astype(dtype)
    else:
        b = (rng.standard_normal(shape) * 100).astype(dtype)
    k = int(rng.integers(0, shape[d] + 1))
    want = _sort_idx(b, d, largest)[(slice(None),) * d + (slice(0, k),)]
    got = _topk_idx(b, d, k, largest)
    if got is not None:
        np.testing.assert_array_equal(got, want)
    vals, idx = torch.topk(torch.tensor(b), k, dim=d, largest=largest)
    np.testing.assert_array_equal(np.asarray(vals), np.take_along_axis(b, want, d))
    # among ties the indices are PyTorch's (its libstdc++ selection, round 13), not the sort's
    np.testing.assert_array_equal(np.take_along_axis(b, np.asarray(idx), d), np.asarray(vals))
    if np.unique(b).size == b.size:  # no equal values anywhere: one right answer
        np.testing.assert_array_equal(np.asarray(idx), want)
    try:
        import torch as real
    except ImportError:
        return
    want_idx = real.topk(real.tensor(b), k, dim=d, largest=largest).indices.numpy()
    np.testing.assert_array_equal(np.asarray(idx), want_idx)


def test_descending_sort_of_integer_minimum():
    # -b overflowed: int8's -128 sorted as the largest value
    b = np.array([3, -128, 127, 0, -128, 5], np.int8)
    got = torch.sort(torch.tensor(b), descending=True, stable=True)
    assert np.asarray(got.values).tolist() == [127, 5, 3, 0, -128, -128]
    assert np.asarray(got.indices).tolist() == [2, 5, 0, 3, 1, 4]
    top = torch.topk(torch.tensor(np.tile(b, 10)), 2)
    assert np.asarray(top.values).tolist() == [127, 127]


def test_topk_matches_torch_live():
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(3)
    x = rng.integers(-5, 5, (4, 200)).astype(np.float32)
    for largest in (True, False):
        want = real.topk(real.tensor(x), 7, dim=1, largest=largest)
        got = torch.topk(torch.tensor(x), 7, dim=1, largest=largest)
        np.testing.assert_array_equal(np.asarray(got.values), want.values.numpy())
    b = np.array([3, -128, 127, 0, -128, 5], np.int8)
    want = real.sort(real.tensor(b), descending=True, stable=True)
    got = torch.sort(torch.tensor(b), descending=True, stable=True)
    np.testing.assert_array_equal(np.asarray(got.indices), want.indices.numpy())


def test_descending_sort_of_integer_minimum_on_the_device(cuda_device):
    # the device path negated integers too (int8's -128 first, uint64 wrapped to int64)
    b = np.array([3, -128, 127, 0, -128, 5], np.int8)
    got = torch.sort(torch.tensor(b, device="cuda"), descending=True, stable=True)
    assert got.indices.cpu().tolist() == [2, 5, 0, 3, 1, 4]
    u = np.array([1, 2**63 + 5, 7], np.uint64)
    got = torch.sort(torch.tensor(u, device="cuda"), descending=True, stable=True)
    assert got.indices.cpu().tolist() == [1, 2, 0]


@pytest.mark.parametrize("largest", [True, False])
def test_topk_rows_with_and_without_surplus_ties(largest):
    """Some rows hold more values equal to the k-th than they need (the first by position
    are taken), others exactly as many; every row's positions are its own."""
    rng = np.random.default_rng(5)
    b = rng.standard_normal((6, 64)).astype(np.float32)
    b[1, 10:20] = b[1].max() + 1 if largest else b[1].min() - 1   # ten equal extremes, k = 4
    b[3, ::8] = 0.0
    b[4, 5] = -0.0
    for k in (1, 4, 8):
        want = _sort_idx(b, 1, largest)[:, :k]
        np.testing.assert_array_equal(_topk_idx(b, 1, k, largest), want)
        np.testing.assert_array_equal(_topk_idx(b.T.copy(), 0, k, largest), want.T)
