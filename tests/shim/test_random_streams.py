"""fgrad.torch draws PyTorch's CPU random streams: after ``manual_seed`` every sampler gives
PyTorch 2.13's numbers (stored below, and compared live over many seeds, sizes and dtypes when
torch is installed); generator states have PyTorch's byte layout and load both ways; a state
is parsed, never unpickled."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import fgrad.torch as ftorch
from _peers import torch_is_pinned

# torch.manual_seed(0) (or 1) then the call, recorded with PyTorch 2.13.0+cpu
STORED = {
    "randn(3) seed 1": ([0.6613521575927734, 0.2669241130352020, 0.0616772584617138],
                        lambda t: (t.manual_seed(1), t.randn(3))[1]),
    "rand(4) seed 0": ([0.4962565898895264, 0.7682217955589294, 0.0884774327278137, 0.1320304870605469],
                       lambda t: (t.manual_seed(0), t.rand(4))[1]),
    "randint(0, 10, (8,)) seed 0": ([4, 9, 3, 0, 3, 9, 7, 3],
                                    lambda t: (t.manual_seed(0), t.randint(0, 10, (8,)))[1]),
    "randperm(10) seed 0": ([4, 1, 7, 5, 3, 9, 0, 8, 6, 2], lambda t: (t.manual_seed(0), t.randperm(10))[1]),
    "dropout(ones(12), 0.5) seed 0": (
        [0, 0, 2, 0, 0, 0, 2, 2, 0, 2, 2, 2],
        lambda t: (t.manual_seed(0), t.nn.functional.dropout(t.ones(12), 0.5))[1]),
    "bernoulli(full(12, 0.3)) seed 0": ([0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0],
                                        lambda t: (t.manual_seed(0), t.bernoulli(t.full((12,), 0.3)))[1]),
    "random_() int64 seed 0": ([900450186894289455],
                               lambda t: (t.manual_seed(0), t.empty(1, dtype=t.int64).random_())[1]),
}


@pytest.mark.parametrize("name", sorted(STORED))
def test_stored_pytorch_draws(name):
    want, draw = STORED[name]
    got = draw(ftorch).numpy().astype(np.float64)
    np.testing.assert_allclose(got, want, rtol=1e-7, atol=0)


def test_randn_of_17_recomputes_the_last_16_from_fresh_uniforms():
    """17 values: 17 uniforms, Box-Muller on the first block of 16, then the LAST 16 values
    (positions 1..16) recomputed from 16 fresh uniforms, as PyTorch's normal_fill."""
    ftorch.manual_seed(0)
    a = ftorch.randn(17).numpy()
    ftorch.manual_seed(0)
    b = ftorch.randn(16).numpy()
    assert a[0] == b[0]
    assert not np.isin(a[1:], b).any()
    np.testing.assert_allclose(a[0], -1.1258398, rtol=1e-6)  # PyTorch 2.13: torch.randn(17)[0]


def test_small_normals_cache_the_second_box_muller_value():
    ftorch.manual_seed(3)
    a, b = ftorch.randn(1).item(), ftorch.randn(1).item()
    ftorch.manual_seed(3)
    both = ftorch.randn(2).numpy()
    np.testing.assert_array_equal(both, np.array([a, b], np.float32))


def test_manual_seed_clears_the_cached_normal():
    ftorch.manual_seed(3)
    first = ftorch.randn(1).item()
    ftorch.manual_seed(3)  # the cached second value must not leak into the new stream
    assert ftorch.randn(1).item() == first


def test_state_round_trip_and_layout():
    g = ftorch.Generator().manual_seed(11)
    g_state = g.get_state()
    assert g_state.dtype == ftorch.uint8 and tuple(g_state.shape) == (5056,)
    a = ftorch.randn(5, generator=g)
    g.set_state(g_state)
    np.testing.assert_array_equal(ftorch.randn(5, generator=g).numpy(), a.numpy())


def test_set_state_parses_bytes_and_never_unpickles():
    g = ftorch.Generator()
    with pytest.raises(RuntimeError, match="RNG state size"):
        g.set_state(ftorch.tensor(np.frombuffer(b"cos\nsystem\n(S'echo'\ntR.", np.uint8).copy()))
    with pytest.raises(TypeError, match="ByteTensor"):
        g.set_state(ftorch.zeros(5056))
    bad = bytearray(g.get_state().numpy().tobytes())
    bad[8:12] = (5000).to_bytes(4, "little")  # the engine position
    with pytest.raises(RuntimeError, match="out of range"):
        g.set_state(ftorch.tensor(np.frombuffer(bytes(bad), np.uint8).copy()))


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**63 - 1), n=st.integers(0, 40))
def test_draws_depend_only_on_seed_and_size(seed, n):
    out = []
    for _ in range(2):
        ftorch.manual_seed(seed)
        out.append((ftorch.randn(n).numpy(), ftorch.rand(n, dtype=ftorch.float64).numpy(),
                    ftorch.randint(-3, 9, (n,)).numpy(), ftorch.randperm(n).numpy()))
    for a, b in zip(*out):
        np.testing.assert_array_equal(a, b)
    assert sorted(out[0][3].tolist()) == list(range(n))


# -- live: the installed PyTorch ----------------------------------------------------------

def _draws(t, seed, n):
    """Every sampler once, in one stream, after ``manual_seed(seed)``."""
    t.manual_seed(seed)
    p = t.tensor(np.linspace(0.0, 1.0, n, dtype=np.float32))
    res = [
        t.randn(n), t.randn(n, dtype=t.float64), t.rand(n), t.rand(n, dtype=t.float64),
        t.empty(n).uniform_(-0.37, 0.52), t.empty(n, dtype=t.float64).uniform_(-2.0, 5.0),
        t.empty(n).normal_(0.1, 0.7), t.randint(-5, 17, (n,)), t.randint(0, 2**40, (n,)),
        t.randperm(n), t.empty(n).bernoulli_(0.3), t.bernoulli(p), t.empty(n).exponential_(2.0),
        t.empty(n, dtype=t.int64).random_(), t.empty(n).random_(), t.empty(n, dtype=t.int32).random_(),
        t.empty(n).random_(3, 11), t.nn.functional.dropout(t.ones(n), 0.25), t.randn(n, 2).t().contiguous(),
        t.empty(n, dtype=t.float64).cauchy_(), t.empty(n, dtype=t.float64).geometric_(0.3),
        t.normal(t.zeros(n), 2.0),
    ]
    return [r.numpy() for r in res]


@pytest.mark.parametrize("seed", [0, 1, 7, 12345, 2**40 + 3])
@pytest.mark.parametrize("n", [1, 3, 15, 16, 17, 33, 200])
def test_every_sampler_matches_live_pytorch(seed, n):
    torch = pytest.importorskip("torch")
    want = _draws(torch, seed, n)
    got = _draws(ftorch, seed, n)
    for i, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype, i
        if w.dtype == np.float64 and i in (1, 3, 5, 19, 20):
            # float64 normals: log/sin/cos of the C library, reproduced to the last bit but for
            # rare 1-ulp differences; cauchy/geometric use tan/log of the C library too
            np.testing.assert_allclose(g, w, rtol=4e-16, atol=0, err_msg=str(i))
        else:
            np.testing.assert_array_equal(g, w, err_msg=f"sampler #{i}")


def test_module_initialisation_matches_live_pytorch():
    torch = pytest.importorskip("torch")

    def build(t):
        t.manual_seed(42)
        return [p.detach().numpy().copy() for m in (
            t.nn.Linear(7, 5), t.nn.Conv2d(3, 4, 3), t.nn.Embedding(10, 6),
            t.nn.LSTM(5, 4, bidirectional=True), t.nn.GRU(3, 2), t.nn.BatchNorm1d(4),
            t.nn.MultiheadAttention(8, 2)) for p in m.parameters()]

    for g, w in zip(build(ftorch), build(torch), strict=True):
        np.testing.assert_array_equal(g, w)


def test_states_load_both_ways_with_live_pytorch():
    torch = pytest.importorskip("torch")
    torch.manual_seed(5)
    torch.randn(3)  # leaves a cached normal in the state
    ftorch.set_rng_state(ftorch.tensor(torch.get_rng_state().numpy()))
    np.testing.assert_array_equal(ftorch.randn(5).numpy(), torch.randn(5).numpy())
    ftorch.manual_seed(9)
    ftorch.rand(5)
    torch.set_rng_state(torch.from_numpy(ftorch.get_rng_state().numpy()))
    np.testing.assert_array_equal(ftorch.randn(21).numpy(), torch.randn(21).numpy())
    assert torch.initial_seed() == 9


def _samplers_and_inits(t):
    from_data = t.utils.data
    t.manual_seed(0)
    ds = from_data.TensorDataset(t.arange(20.0), t.arange(20))
    out = [yb.numpy() for _, yb in from_data.DataLoader(ds, batch_size=6, shuffle=True)]
    a, b = from_data.random_split(ds, [15, 5])
    out += [np.array(a.indices), np.array(b.indices)]
    out.append(np.array(list(from_data.RandomSampler(range(10), generator=t.Generator().manual_seed(3)))))
    out.append(np.array(list(from_data.WeightedRandomSampler([0.1, 0.5, 0.4], 6))))
    p = t.tensor([[0.2, 0.3, 0.5], [1.0, 0.0, 3.0]])
    out += [t.multinomial(p, 9, replacement=True).numpy(), t.multinomial(p, 2).numpy(),
            t.multinomial(p.double()[0], 1).numpy()]
    init = t.nn.init
    out += [init.orthogonal_(t.empty(3, 5)).numpy(), init.xavier_normal_(t.empty(2, 3)).numpy(),
            init.kaiming_normal_(t.empty(4, 3), mode="fan_out").numpy(),
            init.sparse_(t.empty(6, 4), 0.5).numpy()]
    for args in ((0, 1, -2, 2), (0, 1, 1.5, 3), (0, 1, -0.2, 0.2)):
        out.append(init.trunc_normal_(t.empty(40), *args).numpy())
    return out


# the last items: ``trunc_normal_``, whose algorithm PyTorch 2.13 changed (2.11: the inverse
# CDF of uniform draws; 2.13: normal draws with rejection, which fgrad reproduces)
N_TRUNC_NORMAL = 3


def test_data_order_samplers_and_inits_match_live_pytorch():
    torch = pytest.importorskip("torch")
    ours, theirs = _samplers_and_inits(ftorch), _samplers_and_inits(torch)
    assert len(ours) == len(theirs)
    if not torch_is_pinned(torch):  # another release's trunc_normal_ is another algorithm
        ours, theirs = ours[:-N_TRUNC_NORMAL], theirs[:-N_TRUNC_NORMAL]
    for i, (g, w) in enumerate(zip(ours, theirs, strict=True)):
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-7, err_msg=f"item {i}")


def _distribution_samples(t):
    D = t.distributions
    cases = [D.Normal(t.tensor([0.0, 1.0]), t.tensor([1.0, 2.0])),
             D.Uniform(t.tensor([0.0]), t.tensor([3.0])),
             D.Bernoulli(t.tensor([0.3, 0.6])), D.Categorical(t.tensor([0.2, 0.3, 0.5])),
             D.Exponential(t.tensor([2.0])), D.Cauchy(t.tensor([0.0]), t.tensor([1.0])),
             D.MultivariateNormal(t.zeros(2), t.tensor([[2.0, 0.5], [0.5, 1.0]])),
             D.OneHotCategorical(t.tensor([0.2, 0.3, 0.5]))]
    out = []
    for d in cases:
        t.manual_seed(1)
        out.append(d.sample((5,)).numpy())
        if d.has_rsample:
            out.append(d.rsample((3,)).detach().numpy())
    return out


def test_distribution_samples_match_live_pytorch():
    torch = pytest.importorskip("torch")
    # the same draws; the transformations' float arithmetic (MVN's matmul) may round 1 ulp apart
    for i, (g, w) in enumerate(zip(_distribution_samples(ftorch), _distribution_samples(torch), strict=True)):
        np.testing.assert_allclose(g, w, rtol=1e-6, atol=1e-7, err_msg=f"item {i}")


@pytest.mark.parametrize("s, c", [(1.0, 0.0), (0.3, 0.0), (-2.5, 0.0), (1.0, -7.25), (1.0, 1e-300),
                                  (3.0, -0.0), (0.7, 0.1)])
def test_fma64_shortcuts_round_as_the_fused_operation(s, c):
    from fgrad.torch._cpu_rng import _fma64, _fma64_scale

    r = np.random.default_rng(4)
    x = np.concatenate([[0.0, 2.0 ** -53, 1 - 2.0 ** -53, 0.5],
                        (r.integers(0, 2 ** 53, 5000) * 2.0 ** -53)])
    want = _fma64(x, np.float64(s), np.float64(c))
    got = _fma64_scale(x, np.float64(s), np.float64(c))
    np.testing.assert_array_equal(got.view(np.uint64), want.view(np.uint64))  # same bits, signed zeros too


@pytest.mark.parametrize("p", [0.9, 0.5, 0.1, 0.0, 1.0, 1 - 2.0 ** -53, 2.0 ** -53, 3 * 2.0 ** -53,
                               5e-324, 0.3, 0.7500000000000001])
def test_bernoulli_scalar_compares_integers_as_the_float64_uniforms_do(p):
    # bernoulli_(p) / dropout: `uniform(float64) < p`, computed as `low 53 bits < ceil(p 2^53)`
    from fgrad.torch._cpu_rng import Engine

    a, b = Engine(11), Engine(11)
    n = 20000
    want = a.uniform(n, np.float64) < p
    got = b.bernoulli_scalar(n, p)
    np.testing.assert_array_equal(got, want)
    # both consumed the same words
    np.testing.assert_array_equal(a.random32(4), b.random32(4))
    # at the boundaries: a uniform equal to p is not below it; one step under is
    e = Engine(0)
    raw = e._bits.random_raw(2 * 8)  # replay: the same words, re-seeded
    e.seed(0)
    m = ((raw[0::2] & np.uint64((1 << 21) - 1)) << np.uint64(32)) | raw[1::2]
    u = m.astype(np.float64) * 2.0 ** -53
    for k in range(8):
        e.seed(0)
        np.testing.assert_array_equal(e.bernoulli_scalar(8, float(u[k])), u < u[k])


# -- randperm: the Fisher-Yates swaps, computed without the Python loop ---------------------

def _swap_loop(picks):
    r = list(range(len(picks) + 1))
    for i, p in enumerate(picks):
        r[i], r[i + p] = r[i + p], r[i]
    return r


@settings(max_examples=60, deadline=None)
@given(data=st.data(), n=st.integers(1, 300))
def test_fisher_yates_result_equals_the_swap_loop(data, n):
    from fgrad.torch._cpu_rng import _fisher_yates
    picks = [data.draw(st.integers(0, n - 1 - i)) for i in range(n - 1)]
    assert _fisher_yates(np.array(picks, np.int64)).tolist() == _swap_loop(picks)


def test_fisher_yates_long_chains():
    """Picks that move one value along every position (the longest chain) or none."""
    from fgrad.torch._cpu_rng import _fisher_yates
    for picks in ([1] * 999, [0] * 999, list(range(999, 0, -1)), [1, 0] * 499 + [1]):
        assert _fisher_yates(np.array(picks, np.int64)).tolist() == _swap_loop(picks)


@pytest.mark.parametrize("n", [0, 1, 2, 5, 1000, 10000, 65537, 1_000_000])
def test_randperm_matches_live_pytorch_at_large_sizes(n):
    torch = pytest.importorskip("torch")
    for seed in (0, 3):
        torch.manual_seed(seed)
        ftorch.manual_seed(seed)
        np.testing.assert_array_equal(ftorch.randperm(n).numpy(), torch.randperm(n).numpy())
        np.testing.assert_array_equal(ftorch.rand(3).numpy(), torch.rand(3).numpy())  # same position


# a continuous random fill of an integer or bool tensor: PyTorch 2.13 refuses it (fgrad truncated the
# draws into the integers, silently)
_FILL_ERRORS = {
    "uniform_": (NotImplementedError, "\"check_uniform_bounds\" not implemented for '{legacy}'"),
    "normal_": (NotImplementedError, "\"normal_kernel_cpu\" not implemented for '{legacy}'"),
    "log_normal_": (NotImplementedError, "\"log_normal_cpu\" not implemented for '{legacy}'"),
    "cauchy_": (RuntimeError, "Cauchy distribution is a continuous probability distribution. dtype must be a "
                "floating point but you specified {ctype}"),
    "exponential_": (RuntimeError, "Exponential distribution is a continuous probability distribution. "
                     "dtype must be a floating point but you specified {legacy}"),
}
_INT_TYPES = [("int64", "Long", "long int"), ("int32", "Int", "int"), ("int16", "Short", "short int"),
              ("int8", "Char", "signed char"), ("uint8", "Byte", "unsigned char"), ("bool", "Bool", "bool")]


@pytest.mark.parametrize("method", sorted(_FILL_ERRORS))
def test_continuous_random_fill_of_integers_raises(method):
    import fgrad.torch as ft

    exc, template = _FILL_ERRORS[method]
    faces = [ft]
    try:
        import torch as real
    except ImportError:
        real = None
    else:
        faces.append(real)
    for face in faces:
        for dt, legacy, ctype in _INT_TYPES:
            x = face.zeros(3, dtype=getattr(face, dt))
            with pytest.raises(exc) as e:
                getattr(x, method)()
            assert str(e.value) == template.format(legacy=legacy, ctype=ctype)
            assert x.tolist() == [0] * 3  # left unchanged
        face.manual_seed(0)
        assert face.zeros(2).uniform_().dtype == face.float32  # floats still fill
