"""erf_inv's host paths: float64 through SciPy's erfinv (within 2 ulp of PyTorch's, which is
correctly rounded on these samples), float32 as XLA's Giles polynomial with the tail
polynomial applied only where it is needed -- both with the edge values JAX gives."""

import numpy as np
import pytest

import fgrad.lax as lax
import fgrad.numpy as fnp


def _ulps(a, b):
    return np.abs(a - b) / np.spacing(np.abs(b))


def test_float64_edges():
    y = np.array([-0.0, 0.0, 1.0, -1.0, 1.5, -2.0, np.nan, 5e-324])
    got = np.asarray(lax.erf_inv(fnp.asarray(y)))
    assert np.signbit(got[0]) and not np.signbit(got[1])
    assert got[2] == np.inf and got[3] == -np.inf
    assert np.isnan(got[4:7]).all() and got[7] > 0


def test_float64_inverts_erf():
    rng = np.random.default_rng(0)
    y = np.concatenate([rng.uniform(-1, 1, 2000), 1 - np.logspace(-15, -1, 50)])
    x = np.asarray(lax.erf_inv(fnp.asarray(y)))
    back = np.asarray(lax.erf(fnp.asarray(x)))
    np.testing.assert_allclose(back, y, rtol=1e-15, atol=1e-300)


def test_float64_matches_torch():
    torch = pytest.importorskip("torch")
    from fgrad.ops.special import _erf_inv_impl  # the host path (whatever the default device)

    y = np.random.default_rng(1).uniform(-1, 1, 5000)
    got = _erf_inv_impl(y)
    assert _ulps(got, torch.erfinv(torch.tensor(y)).numpy()).max() <= 2


def test_float32_tail_and_central_agree_with_one_polynomial_each():
    # the same values alone (all central) and mixed with tail values give the same bits
    central = np.linspace(-0.99, 0.99, 257, dtype=np.float32)
    tails = np.float32([0.9999, -0.99999, 0.99999994, 1.0, -1.0])
    alone = np.asarray(lax.erf_inv(fnp.asarray(central)))
    mixed = np.asarray(lax.erf_inv(fnp.asarray(np.concatenate([central, tails]))))
    np.testing.assert_array_equal(mixed[:257], alone)
    assert mixed[-2] == np.inf and mixed[-1] == -np.inf
    f64 = np.asarray(lax.erf_inv(fnp.asarray(np.concatenate([central, tails[:3]]).astype(np.float64))))
    # Giles' single-precision polynomials: relative error a few 1e-6 at worst (the far tail)
    np.testing.assert_allclose(mixed[:260].astype(np.float64), f64, rtol=1e-5)
