"""Integer powers with negative exponents (``power(int array, int array)``): the truncated value
of ``1 / x**-y`` -- 1 for x == 1, +-1 for x == -1, 0 otherwise -- as PyTorch computes it, on
both faces, eagerly and under ``jit``.  Before, NumPy's ``ValueError`` escaped (the shim even
reported it as "shapes [5] and [5] are not broadcastable").  JAX (XLA) returns
``x ** (y mod 2**bits)`` there, a wrapped product of no meaning: a deliberate deviation,
docs/numerics.md."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
from fgrad.compile.cuda_codegen import helpers_for
from tests._peers import torch_or_none

DTYPES = [np.int8, np.int16, np.int32, np.int64]


def _reference(x: int, y: int, dtype) -> int:
    if y >= 0:
        return int(np.array(x, dtype) ** np.array(y, dtype))  # wraps as NumPy does
    return 1 if x == 1 else ((-1) ** -y if x == -1 else 0)


@pytest.mark.parametrize("dtype", DTYPES)
@given(pairs=st.lists(st.tuples(st.integers(-4, 4), st.integers(-5, 5)), min_size=1, max_size=12))
def test_values_match_the_truncated_reciprocal(dtype, pairs):
    x = np.array([p[0] for p in pairs], dtype)
    y = np.array([p[1] for p in pairs], dtype)
    want = np.array([_reference(a, b, dtype) for a, b in pairs], dtype)
    for got in (fnp.power(x, y), fgrad.jit(fnp.power)(x, y), ft.pow(ft.tensor(x), ft.tensor(y)).numpy()):
        assert np.asarray(got).dtype == dtype
        np.testing.assert_array_equal(np.asarray(got), want)


def test_stored_pytorch_numbers_and_broadcasting():
    x = np.array([[0], [1], [-1], [3], [-3]], np.int32)
    y = np.array([-1, -2, -5, 0, 2], np.int32)
    # torch.pow(torch.tensor(x), torch.tensor(y)) with torch 2.13
    want = np.array([[0, 0, 0, 1, 0], [1, 1, 1, 1, 1], [-1, 1, -1, 1, 1], [0, 0, 0, 1, 9], [0, 0, 0, 1, 9]])
    np.testing.assert_array_equal(fnp.power(x, y), want)
    np.testing.assert_array_equal((ft.tensor(x) ** ft.tensor(y)).numpy(), want)


def test_live_pytorch():
    torch = torch_or_none()
    if torch is None:
        pytest.skip("PyTorch is not installed")
    x = np.arange(-4, 5, dtype=np.int64).repeat(5)
    y = np.tile(np.arange(-3, 2, dtype=np.int64), 9)
    np.testing.assert_array_equal(ft.pow(ft.tensor(x), ft.tensor(y)).numpy(),
                                  torch.pow(torch.tensor(x), torch.tensor(y)).numpy())


def test_scalar_negative_exponent_still_refused():
    """A Python-int exponent is ``integer_pow`` (JAX: TypeError) or PyTorch's scalar pow
    (RuntimeError), both refusing a negative power of an integer, as the peers do."""
    with pytest.raises(TypeError, match="negative"):
        fnp.power(np.array([2, 3]), -1)
    with pytest.raises(RuntimeError, match="negative integer powers"):
        ft.tensor([2, 3]) ** -1


def test_device_kernel_brings_the_helper_it_calls():
    """The signed kernel's helper calls the unsigned one: both are emitted, callee first."""
    text = helpers_for("fg_ipow_i(a, b)")
    assert text.index("fg_ipow(T a") < text.index("fg_ipow_i(T a")
