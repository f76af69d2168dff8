"""fgrad.random: Threefry known answers, key derivation, statistical checks of every sampler
(moments, Kolmogorov-Smirnov-style distance, frequencies, independence), and behaviour under
transforms (vmap over keys equals stacking per-key calls, grad through distribution
parameters, jit)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.random as random
from fgrad.testing.device_numerics import assert_equal_up_to_device_ulps

N = 20000
# statistical checks use fixed keys (deterministic) and ~5 sigma / alpha=1e-3 thresholds
KS_CRIT = 1.95 / math.sqrt(N)
_verf = np.vectorize(math.erf)


def A(x, dtype=None):
    return fnp.asarray(np.asarray(x, dtype=dtype))


def np_(x):
    if isinstance(x, random.PRNGKeyArray):  # typed keys: compare their data
        x = random.key_data(x)
    return np.asarray(x)


def ks_distance(samples, cdf):
    s = np.sort(np.asarray(samples, dtype=np.float64).ravel())
    n = s.size
    f = cdf(s)
    i = np.arange(1, n + 1)
    return max(np.max(i / n - f), np.max(f - (i - 1) / n))


def normal_cdf(x):
    return 0.5 * (1 + _verf(x / math.sqrt(2)))


def assert_mean(x, mean, sd, n_sigma=5.0):
    x = np.asarray(x, dtype=np.float64).ravel()
    assert abs(x.mean() - mean) < n_sigma * sd / math.sqrt(x.size), (x.mean(), mean)


# --------------------------------------------------------------------------------------
# the cipher and keys


@pytest.mark.parametrize("key,ctr,expected", [
    ((0x00000000, 0x00000000), (0x00000000, 0x00000000), (0x6B200159, 0x99BA4EFE)),
    ((0xFFFFFFFF, 0xFFFFFFFF), (0xFFFFFFFF, 0xFFFFFFFF), (0x1CB996FC, 0xBB002BE7)),
    ((0x13198A2E, 0x03707344), (0x243F6A88, 0x85A308D3), (0xC4923A9C, 0x483DF7A0)),
])
def test_threefry2x32_known_answers(key, ctr, expected):
    # Random123 known-answer vectors for threefry2x32 with 20 rounds
    u = lambda v: A(np.uint32(v))
    out = random.threefry2x32(u(key[0]), u(key[1]), u(ctr[0]), u(ctr[1]))
    assert [int(v) for v in out] == list(expected)


def test_threefry_vectorizes_over_counters():
    k1, k2 = A(np.uint32(7)), A(np.uint32(99))
    c0 = np.arange(6, dtype=np.uint32)
    c1 = (np.arange(6, dtype=np.uint32) * 2654435761).astype(np.uint32)
    b0, b1 = random.threefry2x32(k1, k2, A(c0), A(c1))
    for i in range(6):
        e0, e1 = random.threefry2x32(k1, k2, A(c0[i]), A(c1[i]))
        assert (int(b0[i]), int(b1[i])) == (int(e0), int(e1))
    v0, v1 = fgrad.vmap(random.threefry2x32, in_axes=(None, None, 0, 0))(k1, k2, A(c0), A(c1))
    np.testing.assert_array_equal(np_(v0), np_(b0))
    np.testing.assert_array_equal(np_(v1), np_(b1))


@pytest.mark.parametrize("seed", [0, 1, 42, 2 ** 32 + 5, -1, -(2 ** 63), 2 ** 63 - 1, 2 ** 64 - 1])
def test_key_from_seed(seed):
    s = seed & (2 ** 64 - 1)
    k = random.PRNGKey(seed)
    assert k.dtype == np.uint32 and k.shape == (2,)
    assert [int(v) for v in k] == [s >> 32, s & 0xFFFFFFFF]
    np.testing.assert_array_equal(np_(random.key_data(random.key(seed))), np_(k))  # typed: same data


def test_key_from_traced_seed_matches_concrete():
    seeds = np.array([0, 1, 42, -1, 2 ** 40 + 3])
    got = fgrad.vmap(random.PRNGKey)(A(seeds))
    np.testing.assert_array_equal(np_(got), np.stack([np_(random.PRNGKey(int(s))) for s in seeds]))
    with pytest.raises(OverflowError):
        random.PRNGKey(2 ** 64)


def test_split_and_fold_in():
    k = random.PRNGKey(1701)
    ks = random.split(k, 5)
    assert ks.shape == (5, 2) and ks.dtype == np.uint32
    rows = {tuple(int(v) for v in r) for r in np_(ks)} | {tuple(int(v) for v in np_(k))}
    assert len(rows) == 6  # all distinct, and different from the parent
    assert random.split(k, (2, 3)).shape == (2, 3, 2)
    np.testing.assert_array_equal(np_(random.split(k)), np_(ks)[:2])  # counter-based: a prefix
    for i in range(5):
        np.testing.assert_array_equal(np_(random.fold_in(k, i)), np_(ks)[i])
    assert not np.array_equal(np_(random.fold_in(k, 0)), np_(random.fold_in(k, 1)))
    got = fgrad.vmap(lambda d: random.fold_in(k, d))(A(np.arange(5, dtype=np.uint32)))
    np.testing.assert_array_equal(np_(got), np_(ks))
    with pytest.raises(TypeError):
        random.fold_in(k, A([1, 2]))


def test_same_key_same_numbers_and_keys_are_checked():
    k = random.PRNGKey(3)
    np.testing.assert_array_equal(np_(random.normal(k, (10,))), np_(random.normal(k, (10,))))
    assert not np.array_equal(np_(random.normal(k, (10,))), np_(random.normal(random.PRNGKey(4), (10,))))
    with pytest.raises(TypeError, match="vmap"):
        random.normal(random.split(k, 3), (2,))
    with pytest.raises(TypeError):
        random.uniform(A([1.0, 2.0]), (2,))


# --------------------------------------------------------------------------------------
# bits and uniform


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64])
def test_bits_are_balanced(dtype):
    b = np_(random.bits(random.key(11), (N,), dtype))
    assert b.dtype == dtype
    nbits = np.dtype(dtype).itemsize * 8
    ones = np.array([((b >> np.array(i, dtype)) & np.array(1, dtype)).mean() for i in range(nbits)])
    assert np.all(np.abs(ones - 0.5) < 5 * 0.5 / math.sqrt(N)), ones


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_uniform_statistics(dtype):
    u = np_(random.uniform(random.key(0), (N,), dtype))
    assert u.dtype == dtype
    assert u.min() >= 0.0 and u.max() < 1.0
    assert_mean(u, 0.5, math.sqrt(1 / 12))
    assert abs(u.var() - 1 / 12) < 5 * math.sqrt(1 / 180) / math.sqrt(N)
    assert ks_distance(u, lambda s: s) < KS_CRIT
    # pairs of consecutive values are uncorrelated
    assert abs(np.corrcoef(u[:-1], u[1:])[0, 1]) < 5 / math.sqrt(N)


def test_uniform_bounds_and_shapes():
    k = random.key(5)
    u = np_(random.uniform(k, (3, N // 3), minval=-2.0, maxval=3.0))
    assert u.shape == (3, N // 3) and u.min() >= -2.0 and u.max() < 3.0
    assert ks_distance(u, lambda s: (s + 2.0) / 5.0) < KS_CRIT
    lo = np.array([0.0, 10.0, -5.0])
    u = np_(random.uniform(k, (1000, 3), minval=A(lo), maxval=A(lo + 1)))
    assert np.all((u >= lo) & (u < lo + 1))
    with pytest.raises(ValueError):  # JAX raises ValueError for a non-float dtype
        random.uniform(k, (2,), np.int32)


def test_uniform_gradient_wrt_bounds():
    k = random.key(9)
    u01 = np_(random.uniform(k, (100,)))
    g_lo, g_hi = fgrad.grad(lambda a, b: fnp.mean(random.uniform(k, (100,), minval=a, maxval=b)),
                            argnums=(0, 1))(-1.0, 2.0)
    np.testing.assert_allclose(float(g_lo), 1 - u01.mean(), rtol=1e-12)
    np.testing.assert_allclose(float(g_hi), u01.mean(), rtol=1e-12)


# --------------------------------------------------------------------------------------
# normal and other continuous distributions


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_normal_statistics(dtype):
    z = np_(random.normal(random.key(42), (N,), dtype))
    assert z.dtype == dtype and np.all(np.isfinite(z))
    zd = z.astype(np.float64)
    assert_mean(zd, 0.0, 1.0)
    assert abs(zd.var() - 1) < 5 * math.sqrt(2 / N)
    assert abs(np.mean(zd ** 3)) < 5 * math.sqrt(15 / N)  # skewness
    assert abs(np.mean(zd ** 4) - 3) < 5 * math.sqrt(96 / N)  # kurtosis
    assert ks_distance(zd, normal_cdf) < KS_CRIT
    tail = np.mean(np.abs(zd) > 2.5)
    p = 2 * (1 - normal_cdf(np.array(2.5)))
    assert abs(tail - p) < 5 * math.sqrt(p * (1 - p) / N)


@pytest.mark.parametrize("name", ["uniform", "normal", "gumbel", "exponential", "laplace", "logistic",
                                  "cauchy"])
def test_float32_samplers_stay_float32(name):
    x = getattr(random, name)(random.key(1), (5,), np.float32)
    assert x.dtype == np.float32
    assert random.truncated_normal(random.key(1), -1.0, 1.0, (5,), np.float32).dtype == np.float32
    assert random.uniform(random.key(1), (5,), np.float32, A(0.0), A(2.0)).dtype == np.float32


def test_split_keys_give_independent_streams():
    k1, k2 = random.split(random.key(123))
    a, b = np_(random.normal(k1, (N,))), np_(random.normal(k2, (N,)))
    assert abs(np.corrcoef(a, b)[0, 1]) < 5 / math.sqrt(N)
    # many keys from one split: the first sample of each key is itself standard normal
    ks = random.split(random.key(7), N)
    firsts = np_(fgrad.vmap(lambda k: random.normal(k))(ks))
    assert ks_distance(firsts, normal_cdf) < KS_CRIT
    # and subsequent splits do not repeat keys
    rows = np_(ks)
    assert len({(int(r[0]), int(r[1])) for r in rows}) == N


def test_truncated_normal():
    lo, hi = -1.0, 2.0
    x = np_(random.truncated_normal(random.key(2), lo, hi, (N,)))
    assert x.min() > lo and x.max() < hi
    phi = lambda t: math.exp(-t * t / 2) / math.sqrt(2 * math.pi)
    Z = float(normal_cdf(np.array(hi)) - normal_cdf(np.array(lo)))
    mean = (phi(lo) - phi(hi)) / Z
    var = 1 + (lo * phi(lo) - hi * phi(hi)) / Z - mean ** 2
    assert_mean(x, mean, math.sqrt(var))
    cdf = lambda s: (normal_cdf(s) - normal_cdf(np.array(lo))) / Z
    assert ks_distance(x, cdf) < KS_CRIT
    x2 = np_(random.truncated_normal(random.key(2), A([-1.0, 0.0]), A([0.0, 1.0]), (500, 2)))
    assert np.all(x2[:, 0] <= 0) and np.all(x2[:, 0] >= -1) and np.all(x2[:, 1] >= 0)


@pytest.mark.parametrize("name,mean,var,cdf", [
    ("exponential", 1.0, 1.0, lambda s: 1 - np.exp(-s)),
    ("gumbel", np.euler_gamma, np.pi ** 2 / 6, lambda s: np.exp(-np.exp(-s))),
    ("laplace", 0.0, 2.0, lambda s: np.where(s < 0, 0.5 * np.exp(s), 1 - 0.5 * np.exp(-s))),
    ("logistic", 0.0, np.pi ** 2 / 3, lambda s: 1 / (1 + np.exp(-s))),
    ("cauchy", None, None, lambda s: 0.5 + np.arctan(s) / np.pi),
])
def test_other_continuous_distributions(name, mean, var, cdf):
    x = np_(getattr(random, name)(random.key(17), (N,)))
    assert np.all(np.isfinite(x))
    if mean is not None:
        assert_mean(x, mean, math.sqrt(var))
    assert ks_distance(x, cdf) < KS_CRIT


# --------------------------------------------------------------------------------------
# discrete distributions


def test_bernoulli():
    k = random.key(8)
    for p in (0.0, 0.1, 0.5, 0.93, 1.0):
        b = np_(random.bernoulli(k, p, (N,)))
        assert b.dtype == np.bool_
        assert abs(b.mean() - p) <= 5 * math.sqrt(p * (1 - p) / N)
    ps = np.array([0.2, 0.7, 0.5])
    b = np_(random.bernoulli(k, A(ps), (N // 3, 3)))
    assert np.all(np.abs(b.mean(0) - ps) < 5 * np.sqrt(ps * (1 - ps) / (N // 3)))
    assert random.bernoulli(k, A(ps)).shape == (3,)


def test_rademacher():
    r = np_(random.rademacher(random.key(3), (N,)))
    assert set(np.unique(r)) == {-1, 1}
    assert_mean(r, 0.0, 1.0)


@pytest.mark.parametrize("lo,hi,dtype", [(0, 10, np.int64), (-3, 4, np.int32), (5, 6, np.int64),
                                         (0, 7, np.uint8), (-1000, 1000, np.int16)])
def test_randint_frequencies(lo, hi, dtype):
    x = np_(random.randint(random.key(21), (N,), lo, hi, dtype))
    assert x.dtype == dtype
    assert x.min() >= lo and x.max() < hi
    k = hi - lo
    if k <= 10:
        counts = np.bincount((x.astype(np.int64) - lo), minlength=k)
        expected = N / k
        chi2 = np.sum((counts - expected) ** 2 / expected)
        assert chi2 < k - 1 + 5 * math.sqrt(2 * (k - 1)) + 1, counts
    else:
        assert ks_distance((x.astype(float) - lo + 0.5) / k, lambda s: s) < KS_CRIT + 1 / k


def test_randint_edge_cases():
    k = random.key(4)
    np.testing.assert_array_equal(np_(random.randint(k, (5,), 3, 3)), [3] * 5)
    np.testing.assert_array_equal(np_(random.randint(k, (5,), 3, -7)), [3] * 5)
    big = np_(random.randint(k, (N,), -(2 ** 63), 2 ** 63 - 1))
    assert big.dtype == np.int64
    assert (big < 0).mean() == pytest.approx(0.5, abs=5 * 0.5 / math.sqrt(N))
    x = np_(random.randint(k, (N,), 250, 300, np.uint8))  # maxval beyond uint8: up to 255 inclusive
    assert x.min() >= 250 and x.max() == 255
    lo = A(np.array([0, 100, -50]))
    x = np_(random.randint(k, (1000, 3), lo, lo + 5))
    assert np.all((x >= np_(lo)) & (x < np_(lo) + 5))


def test_permutation():
    k = random.key(31)
    p = np_(random.permutation(k, 10))
    np.testing.assert_array_equal(np.sort(p), np.arange(10))
    # each element lands in each position equally often, across many keys
    keys = random.split(k, 3000)
    perms = np_(fgrad.vmap(lambda kk: random.permutation(kk, 5))(keys))
    for i in range(3000):
        assert sorted(perms[i]) == list(range(5))
    where0 = np.argmax(perms == 0, axis=1)
    counts = np.bincount(where0, minlength=5)
    assert np.all(np.abs(counts - 600) < 5 * math.sqrt(3000 * 0.2 * 0.8)), counts
    x = np.arange(12.0).reshape(3, 4)
    px = np_(random.permutation(k, A(x), axis=1))
    col_perm = [int(c) for c in px[0]]
    np.testing.assert_array_equal(px, x[:, col_perm])
    pi = np_(random.permutation(k, A(np.tile(np.arange(50.0), (4, 1))), axis=1, independent=True))
    for row in pi:
        np.testing.assert_array_equal(np.sort(row), np.arange(50.0))
    assert len({tuple(r) for r in pi}) == 4
    # differentiable in x: the gradient is the weight at each element's destination
    w = np.arange(1.0, 11.0)
    g = np_(fgrad.grad(lambda v: fnp.sum(random.permutation(k, v) * A(w)))(A(np.zeros(10))))
    perm = np_(random.permutation(k, A(np.arange(10.0)))).astype(int)
    want = np.zeros(10)
    want[perm] = w
    np.testing.assert_array_equal(g, want)


def test_choice():
    k = random.key(13)
    c = np_(random.choice(k, 10, (5,), replace=False))
    assert len(set(c.tolist())) == 5 and c.min() >= 0 and c.max() < 10
    p = np.array([0.1, 0.2, 0.0, 0.4, 0.3])
    c = np_(random.choice(k, 5, (N,), p=A(p)))
    freq = np.bincount(c, minlength=5) / N
    assert np.all(np.abs(freq - p) < 5 * np.sqrt(p * (1 - p) / N) + 1e-12), freq
    c = np_(random.choice(k, 5, (N,)))
    assert np.all(np.abs(np.bincount(c, minlength=5) / N - 0.2) < 5 * math.sqrt(0.16 / N))
    # without replacement with probabilities: first draws follow p
    draw = lambda kk: random.choice(kk, 5, (2,), replace=False, p=A(p))
    firsts = np_(fgrad.vmap(draw)(random.split(k, 4000)))
    assert np.all(firsts[:, 0] != firsts[:, 1])
    assert 2 not in set(firsts.ravel().tolist())
    f0 = np.bincount(firsts[:, 0], minlength=5) / 4000
    assert np.all(np.abs(f0 - p) < 5 * np.sqrt(p * (1 - p) / 4000) + 1e-12), f0
    a = np.arange(20.0).reshape(4, 5)
    c = np_(random.choice(k, A(a), (3,), axis=1))
    assert c.shape == (4, 3)
    for j in range(3):
        assert any(np.array_equal(c[:, j], a[:, i]) for i in range(5))
    with pytest.raises(ValueError):
        random.choice(k, 3, (4,), replace=False)


def test_categorical():
    k = random.key(99)
    logits = np.array([[0.0, 1.0, -1.0, 2.0], [3.0, 0.0, 0.0, -np.inf]])
    s = np_(random.categorical(k, A(logits), shape=(N, 2)))
    assert s.shape == (N, 2)
    probs = np.exp(logits) / np.exp(logits).sum(1, keepdims=True)
    for r in range(2):
        freq = np.bincount(s[:, r], minlength=4) / N
        assert np.all(np.abs(freq - probs[r]) < 5 * np.sqrt(probs[r] * (1 - probs[r]) / N) + 1e-12)
    assert np.all(s[:, 1] != 3)
    assert random.categorical(k, A(logits)).shape == (2,)
    s0 = np_(random.categorical(k, A(logits.T), axis=0, shape=(1000, 2)))
    assert s0.shape == (1000, 2) and np.all(s0[:, 1] != 3)


# --------------------------------------------------------------------------------------
# transforms


@pytest.mark.parametrize("sampler", [
    lambda k: random.normal(k, (3, 2)),
    lambda k: random.uniform(k, (4,), np.float32, -1.0, 2.0),
    lambda k: random.split(k, 3),
    lambda k: random.fold_in(k, 7),
    lambda k: random.bits(k, (5,), np.uint64),
    lambda k: random.randint(k, (6,), -5, 5),
    lambda k: random.bernoulli(k, 0.3, (4,)),
    lambda k: random.permutation(k, 6),
    lambda k: random.permutation(k, A(np.arange(8.0).reshape(2, 4)), axis=1, independent=True),
    lambda k: random.choice(k, 7, (3,), replace=False),
    lambda k: random.categorical(k, A([0.5, 1.0, 0.0]), shape=(4,)),
    lambda k: random.truncated_normal(k, -0.5, 0.5, (3,)),
])
def test_vmap_over_keys_equals_per_key_calls(sampler):
    keys = random.split(random.key(2024), 4)
    got = fgrad.vmap(sampler)(keys)
    want = np.stack([np_(sampler(keys[i])) for i in range(4)])
    np.testing.assert_array_equal(np_(got), want)
    # legacy keys (their raw data) batched along another axis give the same numbers
    got = fgrad.vmap(sampler, in_axes=1)(fnp.transpose(random.key_data(keys)))
    np.testing.assert_array_equal(np_(got), want)


def test_grad_through_samples_wrt_loc_and_scale():
    k = random.key(77)
    z = np_(random.normal(k, (500,)))

    def loss(loc, scale):
        x = loc + scale * random.normal(k, (500,))
        return fnp.mean(x ** 2)

    g_loc, g_scale = fgrad.grad(loss, argnums=(0, 1))(0.3, 1.7)
    x = 0.3 + 1.7 * z
    np.testing.assert_allclose(float(g_loc), np.mean(2 * x), rtol=1e-12)
    np.testing.assert_allclose(float(g_scale), np.mean(2 * x * z), rtol=1e-12)
    # per-example gradients over a batch of keys
    keys = random.split(k, 3)
    per = fgrad.vmap(lambda kk: fgrad.grad(lambda s: fnp.sum(s * random.normal(kk, (4,))))(2.0))(keys)
    np.testing.assert_allclose(np_(per), [float(np_(random.normal(keys[i], (4,))).sum()) for i in range(3)],
                               rtol=1e-13)
    _, t = fgrad.jvp(lambda s: s * random.normal(k, (3,)), (1.0,), (1.0,))
    np.testing.assert_array_equal(np_(t), z[:3])
    h = fgrad.hessian(lambda s: fnp.sum((s * random.normal(k, (5,))) ** 2))(1.5)
    np.testing.assert_allclose(float(h), 2 * np.sum(np_(random.normal(k, (5,))) ** 2), rtol=1e-13)


def test_jit_matches_eager():
    f = lambda k: (random.normal(k, (4,)), random.randint(k, (3,), 0, 9), random.split(k))
    k = random.key(6)
    # bit-identical on NumPy; a few ulps on a GPU (cupy's eager kernels contract fma, fgrad's
    # generated ones do not: docs/gpu_numerics.md)
    for a, b in zip(fgrad.jit(f)(k), f(k), strict=True):
        assert_equal_up_to_device_ulps(np_(a), np_(b))
    g = fgrad.jit(lambda s: random.uniform(random.key(s), (3,)))
    assert_equal_up_to_device_ulps(np_(g(A(5))), np_(random.uniform(random.key(5), (3,))))


def _threefry_reference(k1: int, k2: int, x0: int, x1: int) -> tuple[int, int]:
    """Threefry-2x32 (20 rounds) on Python ints, one block: the reference for the primitive."""
    m = 0xFFFFFFFF
    ks = (k1, k2, k1 ^ k2 ^ 0x1BD11BDA)
    rot = ((13, 15, 26, 6), (17, 29, 16, 24))
    x0, x1 = (x0 + ks[0]) & m, (x1 + ks[1]) & m
    for i in range(5):
        for r in rot[i % 2]:
            x0 = (x0 + x1) & m
            x1 = (((x1 << r) | (x1 >> (32 - r))) & m) ^ x0
        x0 = (x0 + ks[(i + 1) % 3]) & m
        x1 = (x1 + ks[(i + 2) % 3] + i + 1) & m
    return x0, x1


def test_threefry_primitive_broadcasts_batches_and_jits_as_the_reference():
    rng = np.random.default_rng(5)
    k1 = rng.integers(0, 2**32, (3, 1), dtype=np.uint32)
    k2 = rng.integers(0, 2**32, (), dtype=np.uint32)
    c0 = rng.integers(0, 2**32, (4,), dtype=np.uint32)
    c1 = rng.integers(0, 2**32, (3, 4), dtype=np.uint32)
    want = np.array([[_threefry_reference(int(k1[i, 0]), int(k2), int(c0[j]), int(c1[i, j]))
                      for j in range(4)] for i in range(3)], dtype=np.uint32)
    for f in (random.threefry2x32, fgrad.jit(random.threefry2x32)):
        b0, b1 = f(A(k1), A(k2), A(c0), A(c1))
        np.testing.assert_array_equal(np_(b0), want[..., 0])
        np.testing.assert_array_equal(np_(b1), want[..., 1])
    # vmap over the key's rows and the counters' rows (a transposed copy: batch axis 1)
    v0, v1 = fgrad.vmap(random.threefry2x32, in_axes=(0, None, None, 1), out_axes=1)(
        A(k1[:, 0]), A(k2), A(c0), A(np.ascontiguousarray(c1.T)))
    np.testing.assert_array_equal(np_(v0), want[..., 0].T)
    np.testing.assert_array_equal(np_(v1), want[..., 1].T)
    with pytest.raises(TypeError, match="uint32"):
        random.threefry2x32(A(np.int32(1)), A(k2), A(c0), A(c0))
