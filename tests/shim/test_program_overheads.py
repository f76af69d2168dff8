"""The shortcuts taken for the published programs' small per-call costs (docs/speed-programs.md)
give the values of the paths they skip: creation sizes (`_ops_creation._sizes`' plain-int
fast path), the random draws' element count (`_random._count`), the fill-value range check's
cached bound (`check_fill_value`) and integer sums (`ops.shape._sum_impl` calling
``np.add.reduce`` for every host array).  PyTorch 2.13's numbers are stored here and compared
live when torch is installed."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.ops.shape import _sum_impl

# PyTorch 2.13 after manual_seed(3): randint(0, 100, (2, 3)), randint(5, 9, [4]),
# rand(Size([2])), randn(2, 1), randint(3, (2,))
DRAWS_PT = ([[86, 48, 37], [67, 60, 80]], [5, 6, 6, 8], [0.45103132724761963, 0.7994906306266785],
            [[0.3374950885772705], [1.0111159086227417]], [0, 0])


def _draws(t):
    t.manual_seed(3)
    return (t.randint(0, 100, (2, 3)).tolist(), t.randint(5, 9, [4]).tolist(), t.rand(t.Size([2])).tolist(),
            t.randn(2, 1).tolist(), t.randint(3, (2,)).tolist())


def test_draws_with_every_size_form_are_pytorchs():
    ours = _draws(torch)
    assert ours[0] == DRAWS_PT[0] and ours[1] == DRAWS_PT[1] and ours[4] == DRAWS_PT[4]
    np.testing.assert_array_equal(np.float32(ours[2]), np.float32(DRAWS_PT[2]))
    np.testing.assert_array_equal(np.float32(ours[3]), np.float32(DRAWS_PT[3]))
    pt = pytest.importorskip("torch")
    assert _draws(pt) == DRAWS_PT


def test_sizes_of_other_types_still_take_the_checked_path():
    assert torch.zeros(2, np.int64(3)).shape == (2, 3)  # NumPy integers
    assert torch.zeros((2, torch.tensor(3))).shape == (2, 3)  # 0-d tensors
    assert torch.rand(0, 3).shape == (0, 3) and torch.randint(0, 7, (0, 3)).shape == (0, 3)
    assert torch.rand(()).shape == ()
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.zeros(2, -1)
    with pytest.raises(RuntimeError, match="negative dimension"):
        torch.rand(-1)
    with pytest.raises(TypeError, match="must be tuple of ints"):
        torch.zeros(2, 1.5)


def test_fill_values_beyond_the_dtype_still_raise():
    for _ in range(2):  # the second time from the cached bound
        with pytest.raises(RuntimeError, match="without overflow"):
            torch.full((2,), 65536.0, dtype=torch.float16)
        with pytest.raises(RuntimeError, match="without overflow"):
            torch.full((2,), 1e39)
    assert torch.full((1,), 3e38, dtype=torch.bfloat16).dtype == torch.bfloat16
    assert torch.full((1,), float("inf"), dtype=torch.float16).isinf().all()


@pytest.mark.parametrize("dt", ["bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64",
                                "uint64"])
def test_integer_sums_are_numpys_sums(dt):
    x = np.array([[1, 0, 1], [1, 1, 0]]).astype(dt)
    for axes in [(0,), (1,), (0, 1), ()]:
        a, b = _sum_impl(np, x, axes), np.sum(x, axis=axes)
        assert type(a) is type(b) and a.dtype == b.dtype and np.array_equal(a, b)


@pytest.mark.parametrize("dt", ["bool", "uint8", "int8", "int16", "int32", "int64"])
def test_shim_integer_sums_are_pytorchs(dt):
    x = torch.tensor([[1, 0, 1], [1, 1, 0]]).to(getattr(torch, dt))
    assert x.sum().dtype == torch.int64 and x.sum().item() == 4
    assert x.sum(0).tolist() == [2, 1, 1] and x.sum(1, keepdim=True).tolist() == [[2], [2]]
