"""The cache-blocked host paths of `fgrad.random` (issue 16, `docs/speed-random.md`):
``threefry2x32`` and float32/float16 ``erf_inv`` run block by block on arrays of more than
two blocks, and random counters carry a scalar high word.  Each must give the bits of the
whole-array evaluation (checked by forcing it) and JAX's bits: stored values (jax 0.10.2,
key 0, 300,001 elements, at indices on both sides of block boundaries) and live JAX."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.numpy as fnp
import fgrad.random as random
from fgrad.ops import special, threefry

N = 300_001  # more than four 65,536-element blocks, and a partial last block
IDX = [0, 65535, 65536, 131071, 131072, 200000, 262143, 262144, 300000]
# jax.random.<sampler>(jax.random.key(0), (N,), dtype)[IDX], as unsigned integer bits
STORED = {
    "normal32": [1070576317, 1058815492, 3198409668, 1054324743, 1072167401, 3166673312, 1061771008,
                 1061235382, 3218206574],
    "uniform32": [1064475214, 1060809534, 1052752536, 1059703344, 1064766536, 1056651548, 1061732826,
                  1061574028, 1028574912],
    "bits": [4070199207, 3131784761, 1608338834, 2848600264, 4144777396, 2107412093, 3368147783,
             3327495182, 216853673],
    "normal64": [13819956301806572573, 4606402739533219063, 4603682286063252618, 4600973082902310337,
                 4594437064766110330, 4612862483103390340, 13833525234671762665, 4606658728780328179,
                 4600850748388453325],
}


def _draw(name):
    k = random.key(0)
    if name == "bits":
        return np.asarray(random.bits(k, (N,), np.uint32))
    f = random.normal if name.startswith("normal") else random.uniform
    return np.asarray(f(k, (N,), np.float32 if name.endswith("32") else np.float64))


@pytest.fixture
def numpy_path():
    """The NumPy passes these tests are about: the compiled kernels (`core.native_rng`,
    tested in test_native_rng.py) switched off."""
    import fgrad

    fgrad.config.update("native_loops", False)
    yield
    fgrad.config.update("native_loops", None)


def _as_bits(a):
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])


@pytest.mark.parametrize("name", sorted(STORED))
def test_large_draws_match_stored_jax(name):
    got = _draw(name)[IDX]
    want = np.array(STORED[name], dtype=np.uint64).astype(_as_bits(got).dtype).view(got.dtype)
    if name == "normal64":  # SciPy's erfinv, not XLA's: within a few ulp (test_random_jax)
        np.testing.assert_allclose(got, want, rtol=1e-12)
    else:
        np.testing.assert_array_equal(_as_bits(got), _as_bits(want))


@pytest.mark.parametrize("name", sorted(STORED))
def test_large_draws_match_live_jax(name):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    k = jax.random.key(0)
    if name == "bits":
        want = jax.random.bits(k, (N,), np.uint32)
    else:
        f = jax.random.normal if name.startswith("normal") else jax.random.uniform
        want = f(k, (N,), np.float32 if name.endswith("32") else np.float64)
    got, want = _draw(name), np.asarray(want)
    if name == "normal32":
        # XLA's float32 log1p is not correctly rounded (`special._erf_inv_single`): ~1% of
        # values are 1-3 ulp off JAX's (as before blocking: the blocked path is bit-identical)
        d = np.abs(_as_bits(got).astype(np.int64) - _as_bits(want).astype(np.int64))
        assert d.max() <= 3 and np.mean(d != 0) < 0.02
    elif name == "normal64":  # SciPy's erfinv, not XLA's
        np.testing.assert_allclose(got, want, rtol=1e-12)
    else:
        np.testing.assert_array_equal(got, want)


def test_blocked_threefry_equals_whole_array(monkeypatch, numpy_path):
    rng = np.random.default_rng(0)
    x0, x1 = (rng.integers(0, 2 ** 32, N, dtype=np.uint32) for _ in range(2))
    k1, k2 = np.asarray(np.uint32(12345)), np.asarray(np.uint32(0xDEADBEEF))
    # full counters and broadcast single-element words of any rank
    for hi in (x0, np.asarray(np.uint32(7)), np.full((1, 1), 7, np.uint32)):
        got = threefry._impl(np, k1, k2, hi, x1)
        monkeypatch.setattr(threefry, "_BLOCK", 10 ** 9)
        want = threefry._impl(np, k1, k2, hi, x1)
        monkeypatch.undo()
        assert got[0].shape == want[0].shape == np.broadcast_shapes(hi.shape, x1.shape)
        np.testing.assert_array_equal(got[0], want[0])
        np.testing.assert_array_equal(got[1], want[1])
    # single-element keys of any rank broadcast like scalars (here to shape (1, N))
    a, b = threefry._impl(np, k1.reshape(1, 1), k2.reshape(1, 1), x0, x1)
    want = threefry._impl(np, k1, k2, x0, x1)
    assert a.shape == b.shape == (1, N)
    np.testing.assert_array_equal(a[0], want[0])
    np.testing.assert_array_equal(b[0], want[1])
    # Random123's known answer survives blocking (zeros in, broadcast to N)
    z = np.zeros(N, np.uint32)
    a, b = threefry._impl(np, np.uint32(0), np.uint32(0), z, z)
    assert (a == 0x6B200159).all() and (b == 0x99BA4EFE).all()


@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_blocked_erf_inv_equals_whole_array(monkeypatch, numpy_path, dt):
    rng = np.random.default_rng(1)
    y = rng.uniform(-1, 1, N)
    y[:3000] = rng.uniform(0.999, 1, 3000)  # the tail polynomial
    y[-9:] = [1, -1, 0, -0.0, np.nan, 2, -2, 0.9999999, -0.99999]
    y = y.astype(dt)
    got = np.asarray(special.erf_inv(fnp.asarray(y)))
    monkeypatch.setattr(special, "_BLOCK", 10 ** 9)
    want = np.asarray(special.erf_inv(fnp.asarray(y)))
    assert got.dtype == want.dtype == dt
    np.testing.assert_array_equal(_as_bits(got), _as_bits(want))
    assert np.isinf(got[-9]) and got[-9] > 0 and np.isnan(got[-5]) and np.signbit(got[-6])


def test_erf_inv_blocked_grad_matches_closed_form():
    import fgrad

    y = np.linspace(-0.99, 0.99, N).astype(np.float32)
    g = np.asarray(fgrad.grad(lambda v: special.erf_inv(v).sum())(fnp.asarray(y)))
    x = np.asarray(special.erf_inv(fnp.asarray(y)), np.float64)
    np.testing.assert_allclose(g, np.sqrt(np.pi) / 2 * np.exp(x * x), rtol=1e-5)
