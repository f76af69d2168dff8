"""Every shim op's forward is its fgrad definition (issue 11): the definitions give PyTorch's
numbers at the points where they used to differ from the hand-written NumPy forwards that
have been removed.  Each case runs eagerly and under ``torch.func.vmap`` (functional mode,
which always ran the definition) and is compared with PyTorch's result, stored here and
checked live when torch is installed."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import fgrad.numpy as fnp
import fgrad.torch as ft

nan, inf = float("nan"), float("inf")

# name -> (op on the library's tensors, arguments as nested lists + dtype, PyTorch's result)
CASES = {
    # a NaN bound propagates (np.maximum semantics), it is not ignored
    "clamp_nan_tensor_bound": (
        lambda t, x, lo, hi: t.clamp(x, lo, hi),
        (([1.0, 5.0, -3.0, nan], "float32"), ([nan, 0.0, 0.0, 0.0], "float32"), ([2.0] * 4, "float32")),
        [nan, 2.0, 0.0, nan],
    ),
    # PyTorch's floor division of floats is NumPy's floor_divide, not floor(x / y)
    "div_floor_float": (
        lambda t, x: t.div(x, 0.1, rounding_mode="floor"),
        (([1.0, -1.0, 7.5], "float64"),),
        [9.0, -10.0, 74.0],
    ),
    # integer division rounding toward zero stays integer
    "div_trunc_int": (
        lambda t, x: t.div(x, 2, rounding_mode="trunc"),
        (([5, -7, 8, -1], "int64"),),
        [2, -3, 4, 0],
    ),
    "nansum_skips_nan": (lambda t, x: t.nansum(x), (([nan, 1.0, 2.0], "float32"),), 3.0),
    "nanmean_skips_nan": (lambda t, x: t.nanmean(x), (([nan, 1.0, 2.0], "float32"),), 1.5),
    "std_one_element": (lambda t, x: t.std(x), (([5.0], "float64"),), nan),
    "var_no_dof_left": (lambda t, x: t.var(x, correction=3), (([5.0, 6.0], "float64"),), inf),
    "var_no_dof_zero": (lambda t, x: t.var(x, correction=2), (([5.0, 5.0], "float64"),), nan),
    "vector_norm_nan": (lambda t, x: t.linalg.vector_norm(x), (([nan, 1.0], "float64"),), nan),
}


def _args(lib, spec):
    return [lib.tensor(np.asarray(v, dtype)) for v, dtype in spec]


@pytest.mark.parametrize("name", sorted(CASES))
def test_eager_matches_pytorch(name):
    op, spec, want = CASES[name]
    got = op(ft, *_args(ft, spec)).numpy()
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


@pytest.mark.parametrize("name", sorted(CASES))
def test_functional_mode_matches_pytorch(name):
    op, spec, want = CASES[name]
    batched = [a.unsqueeze(0) for a in _args(ft, spec)]
    got = ft.func.vmap(lambda *xs: op(ft, *xs))(*batched).numpy()[0]
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


@pytest.mark.parametrize("name", sorted(CASES))
def test_stored_numbers_are_pytorchs(name):
    torch = pytest.importorskip("torch")
    op, spec, want = CASES[name]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns about var's degrees of freedom
        got = op(torch, *_args(torch, spec)).numpy()
    np.testing.assert_array_equal(got, np.asarray(want, got.dtype))


def test_fgrad_numpy_var_without_degrees_of_freedom_is_nan_as_jax():
    """``fnp.var`` with ``ddof >= N`` is NaN (JAX's ``where(N - ddof > 0, ..., nan)``), with
    gradient 0, not ``sum / (N - ddof)`` (a negative or -0.0 "variance")."""
    import fgrad

    x = np.array([5.0, 6.0])
    assert np.isnan(float(fnp.var(x, ddof=3)))
    assert np.isnan(float(fnp.var(x[:1], ddof=1)))
    assert np.isnan(float(fnp.var(np.zeros(0), ddof=1)))
    np.testing.assert_array_equal(np.asarray(fgrad.grad(lambda v: fnp.var(v, ddof=2))(x)), [0.0, 0.0])
    assert float(fnp.var(x, ddof=1)) == 0.5
    jnp = pytest.importorskip("jax.numpy")
    assert np.isnan(float(jnp.var(jnp.asarray(x), ddof=3)))


def test_relu_keeps_negative_zero_as_pytorch():
    """``relu(-0.0) = -0.0`` and ``relu(-2.0) = +0.0`` (PyTorch's ``x < 0 ? 0 : x``); the removed
    NumPy forward ``maximum(x, 0)`` gave ``+0.0`` for ``-0.0``."""
    import fgrad.torch.nn.functional as F

    x = ft.tensor([-0.0, -2.0, nan, 3.0])
    for got in (F.relu(x).numpy(), ft.relu(x).numpy()):
        assert list(np.signbit(got[:2])) == [True, False]
        assert np.isnan(got[2]) and got[3] == 3.0
    torch = pytest.importorskip("torch")
    want = torch.relu(torch.tensor([-0.0, -2.0])).numpy()
    assert list(np.signbit(want)) == [True, False]
