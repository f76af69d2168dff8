"""Compiled random-number cores (`fgrad.core.native_rng`, docs/speed-random.md "Round 20").

Each kernel must give its NumPy twin's bits: Threefry over many keys, counters and
broadcasts; float32 ``erf_inv`` over every uniform ``random.normal`` can feed it (all 2**23)
and dense probe values; PyTorch's float32 Box-Muller blocks over every possible input of its
``log`` and ``sincos`` (2**24 each), with any mean and std.  The samplers built on them must
give the same bits with the kernels on and off (the ``native_loops`` switch), and without a
compiler (the NumPy code runs); JAX's and PyTorch's own numbers are compared live and stored.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
import fgrad.random as random
import fgrad.torch as ftorch
from fgrad.backends import NUMPY, default_backend
from fgrad.core import native_loops, native_rng
from fgrad.ops import special, threefry
from fgrad.torch import _cpu_rng
from tests._native_switch import native_loops_off

HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
needs_cc = pytest.mark.skipif(not HAS_CC, reason="no C compiler or no private cache directory")
ON_HOST = default_backend() is NUMPY  # (on a device the kernels are not used)
on_host = pytest.mark.skipif(not ON_HOST, reason="the kernels run on host (NumPy) buffers only")
F32 = np.float32


def _bits(a):
    a = np.asarray(a)
    return a.view({1: np.uint8, 2: np.uint16, 4: np.uint32, 8: np.uint64}[a.itemsize])


def _numpy_path(f, *args):
    """``f(*args)`` with the compiled kernels switched off."""
    fgrad.config.update("native_loops", False)
    try:
        return f(*args)
    finally:
        fgrad.config.update("native_loops", None)


# -- Threefry -----------------------------------------------------------------------------

_u32 = st.integers(0, 2 ** 32 - 1)


@needs_cc
@settings(max_examples=60, deadline=None)
@given(k=st.tuples(_u32, _u32), n=st.integers(0, 3000), form=st.sampled_from(["scalar_hi", "full", "keys"]),
       seed=st.integers(0, 2 ** 31))
def test_threefry_kernel_equals_numpy_passes(k, n, form, seed):
    rng = np.random.default_rng(seed)
    x1 = rng.integers(0, 2 ** 32, n, dtype=np.uint32)
    x0 = rng.integers(0, 2 ** 32, 1 if form == "scalar_hi" else n, dtype=np.uint32)
    x0 = x0.reshape(()) if form == "scalar_hi" else x0
    k1, k2 = np.uint32(k[0]), np.uint32(k[1])
    if form == "keys":  # a key per element (vmap over keys)
        k1, k2 = (rng.integers(0, 2 ** 32, n, dtype=np.uint32) for _ in range(2))
    got = native_rng.threefry2x32(k1, k2, x0, x1)
    want = _numpy_path(threefry._impl, np, k1, k2, x0, x1)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype == np.uint32 and g.shape == w.shape
        np.testing.assert_array_equal(g, w)


@needs_cc
@pytest.mark.parametrize("shapes", [((3, 1), (1, 4), (), (3, 4)), ((1, 1), (), (5,), (2, 5)),
                                    ((), (), (), ()), ((2, 1, 3), (), (4, 1), ())])
def test_threefry_kernel_broadcasts_as_numpy(shapes):
    rng = np.random.default_rng(len(str(shapes)))
    ops = [rng.integers(0, 2 ** 32, s, dtype=np.uint32) for s in shapes]
    got = threefry._impl(np, *ops)
    want = _numpy_path(threefry._impl, np, *ops)
    for g, w in zip(got, want):
        assert g.shape == w.shape == np.broadcast_shapes(*shapes)
        np.testing.assert_array_equal(g, w)


@needs_cc
def test_threefry_kernel_known_answer():
    z = np.zeros(5, np.uint32)
    a, b = native_rng.threefry2x32(np.uint32(0), np.uint32(0), z, z)
    assert (a == 0x6B200159).all() and (b == 0x99BA4EFE).all()  # Random123's known answer


_SAMPLERS = {
    "bits32": lambda k, s: random.bits(k, s, np.uint32),
    "bits8": lambda k, s: random.bits(k, s, np.uint8),
    "bits64": lambda k, s: random.bits(k, s, np.uint64),
    "uniform32": lambda k, s: random.uniform(k, s, np.float32, -2.0, 3.0),
    "uniform16": lambda k, s: random.uniform(k, s, np.float16),
    "uniform64": lambda k, s: random.uniform(k, s, np.float64),
    "normal32": lambda k, s: random.normal(k, s, np.float32),
    "normal16": lambda k, s: random.normal(k, s, np.float16),
    "split": lambda k, s: random.key_data(random.split(k, max(1, int(np.prod(s))))),
    "fold_in": lambda k, s: random.key_data(random.fold_in(k, int(np.prod(s)))),
    "randint": lambda k, s: random.randint(k, s, -7, 1000),
    "permutation": lambda k, s: random.permutation(k, max(1, int(np.prod(s)))),
}


@needs_cc
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(-(2 ** 31), 2 ** 31 - 1), name=st.sampled_from(sorted(_SAMPLERS)),
       shape=st.sampled_from([(), (1,), (7,), (3, 5), (1000,), (2, 0)]))
def test_samplers_same_bits_with_and_without_kernels(seed, shape, name):
    f = _SAMPLERS[name]
    k = random.key(seed)
    got = np.asarray(f(k, shape))
    want = np.asarray(_numpy_path(f, k, shape))
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(_bits(got), _bits(want))


# -- uniform floats in one loop (eager) --------------------------------------------------

_bound = st.one_of(st.floats(-1e6, 1e6), st.sampled_from([0.0, -0.0, 1.0, -1.0, 1e-30, 3e38, -3e38, 1e300]))


@needs_cc
@on_host
@settings(max_examples=60, deadline=None)
@given(seed=st.integers(-(2 ** 31), 2 ** 31 - 1), n=st.integers(0, 3000), lo=_bound, hi=_bound,
       dt=st.sampled_from([np.float32, np.float64]), unit=st.booleans())
def test_eager_uniform_kernel_equals_the_primitives(seed, n, lo, hi, dt, unit):
    """`random.uniform`'s one-loop eager path (cipher, unit floats, affine map) gives the
    primitives' bits for any Python-float bounds, float32 and float64 (`normal` too)."""
    k = random.key(seed)
    args = (k, (n,), dt) if unit else (k, (n,), dt, lo, hi)
    got = np.asarray(random.uniform(*args))
    want = np.asarray(_numpy_path(random.uniform, *args))
    assert got.dtype == want.dtype == dt and got.shape == want.shape
    np.testing.assert_array_equal(_bits(got), _bits(want))
    got, want = np.asarray(random.normal(k, (n,), dt)), np.asarray(_numpy_path(random.normal, k, (n,), dt))
    np.testing.assert_array_equal(_bits(got), _bits(want))


@needs_cc
@on_host
def test_eager_uniform_kernel_runs_only_where_nothing_traces(monkeypatch):
    """Eager draws take the one-loop path; under jit, vmap, make_jaxpr and the NaN checks
    the primitives run (the program is unchanged), with the same values."""
    calls = []
    real = native_rng.uniform_floats
    monkeypatch.setattr(native_rng, "uniform_floats", lambda *a, **kw: calls.append(a) or real(*a, **kw))
    k = random.key(5)
    eager = np.asarray(random.uniform(k, (64,), np.float32, -2.0, 3.0))
    assert len(calls) == 1
    jitted = np.asarray(fgrad.jit(lambda key: random.uniform(key, (64,), np.float32, -2.0, 3.0))(k))
    mapped = np.asarray(fgrad.vmap(lambda key: random.uniform(key, (64,), np.float32, -2.0, 3.0))(
        random.split(k, 1)))[0]
    jaxpr = str(fgrad.make_jaxpr(lambda key: random.uniform(key, (4,), np.float32))(k))
    fgrad.config.update("jax_debug_nans", True)
    try:
        checked = np.asarray(random.uniform(k, (64,), np.float32, -2.0, 3.0))
    finally:
        fgrad.config.update("jax_debug_nans", False)
    assert len(calls) == 1
    assert "threefry2x32" in jaxpr and "shift_right_logical" in jaxpr
    np.testing.assert_array_equal(_bits(eager), _bits(jitted))
    np.testing.assert_array_equal(_bits(eager), _bits(checked))
    assert mapped.shape == (64,)


# -- float32 erf_inv ----------------------------------------------------------------------

def _every_normal_uniform(stride=1):
    """Every float32 value `random.normal` can pass to ``erf_inv`` (every ``stride``-th):
    the 2**23 unit floats ``1.m - 1`` scaled onto ``[nextafter(-1, 0), 1)`` as
    `random.uniform` does."""
    lo = np.nextafter(F32(-1), F32(0))
    f = ((np.arange(0, 1 << 23, stride, dtype=np.uint32)) | np.uint32(0x3F800000)).view(F32) - F32(1)
    return np.maximum(f * (F32(1) - lo) + lo, lo)


@needs_cc
@pytest.mark.parametrize("stride", [pytest.param(1, marks=pytest.mark.slow), 7])
def test_erf_inv_kernel_equals_numpy_on_every_normal_input(stride):
    u = _every_normal_uniform(stride)
    got = native_rng.erf_inv_f32(u, special._GILES_CENTRAL, special._GILES_TAIL)
    with np.errstate(all="ignore"):
        want = special._erf_inv_single(np, u, special._BLOCK)
    np.testing.assert_array_equal(_bits(got), _bits(want))


@needs_cc
@pytest.mark.parametrize("stride", [pytest.param(1, marks=pytest.mark.slow), 509])
def test_erf_inv_kernel_central_polynomial_on_its_whole_domain(stride):
    """The kernel evaluates the central polynomial with float32 fused multiply-adds, NumPy with
    each step ``float32(double(p) * t + c)``: the same float32 for every ``w`` in [0, 5) (every
    ``stride``-th float32 there; stride 1 is all 1.08e9, as checked in session 26). ``w`` is
    handed to the second loop as the double ``-w``, with ``y = 0.5``: the result is ``p / 2``."""
    post = native_rng._kernel(native_rng._erf_inv_source(tuple(special._GILES_CENTRAL),
                                                         tuple(special._GILES_TAIL)),
                              "erf_inv_post", [native_rng._P, native_rng._P, native_rng._P, native_rng._L])
    end, part = int(F32(5).view(np.uint32)), stride << 22
    for start in range(0, end, part):
        w = np.arange(start, min(start + part, end), stride, dtype=np.uint32).view(F32)
        d, y, got = -w.astype(np.float64), np.full(w.size, F32(0.5)), np.empty(w.size, F32)
        post(y.ctypes.data, d.ctypes.data, got.ctypes.data, w.size)
        t = (w - F32(2.5)).astype(np.float64)
        p = np.full(w.size, F32(special._GILES_CENTRAL[0]))
        for c in special._GILES_CENTRAL[1:]:
            p = (p.astype(np.float64) * t + np.float64(F32(c))).astype(F32)
        np.testing.assert_array_equal(_bits(got), _bits(p * F32(0.5)))


@needs_cc
@on_host
@pytest.mark.parametrize("dt", [np.float32, np.float16])
def test_erf_inv_kernel_equals_numpy_on_probe_values(dt):
    y = native_loops.probe_values(np.dtype(dt), 1 << 15)  # bit patterns, specials, |y| > 1
    near = np.array([0.9999999, -0.99999, 0.9966], dt)
    y = np.concatenate([y, np.linspace(-1, 1, 20001).astype(dt), near])
    got = np.asarray(special.erf_inv(fnp.asarray(y)))
    want = np.asarray(_numpy_path(lambda v: special.erf_inv(fnp.asarray(v)), y))
    assert got.dtype == want.dtype == dt
    eq = (_bits(got) == _bits(want)) | (np.isnan(got) & np.isnan(want))
    assert eq.all(), y[~eq][:5]


# -- float64 erf_inv (SciPy's) -------------------------------------------------------------

def _scipy_erf_inv(v):
    from scipy.special import erfinv

    with np.errstate(all="ignore"):
        return np.copysign(erfinv(v), v)


def _erf_inv_f64_values(n):
    """Uniforms on (-1, 1), the tail ``1 - q`` for ``q`` log-uniform down to 1e-17 (both
    signs), dense values around every range boundary (``|y|`` 0.5 and 0.75, ``sqrt(-log q)``
    3, 6, 18 and 44), random bit patterns up to 1, the special values and ``|y| > 1``."""
    rng = np.random.default_rng(7)
    q = 10.0 ** rng.uniform(-17, 0, n)
    x = np.linspace(-0.05, 0.05, 4001)
    edges = [np.exp(-(b + x) ** 2) for b in (3.0, 6.0, 18.0, 44.0)]
    near = [np.nextafter(v, v + d * np.arange(1, 200) * 1e-15) for v in (0.5, 0.75) for d in (-1, 1)]
    bits = rng.integers(0, 0x3FF0000000000000, n, dtype=np.uint64).view(np.float64)
    special_values = [0.0, 1.0, 2.0, np.inf, np.nan, 5e-324, np.nextafter(1.0, 0.0)]
    pos = np.concatenate([rng.uniform(0, 1, n), 1 - q, 1 - np.concatenate(edges), *near, bits,
                          special_values, rng.uniform(1, 3, 100)])
    return np.concatenate([pos, -pos])


@needs_cc
@pytest.mark.parametrize("n", [pytest.param(2_000_000, marks=pytest.mark.slow), 100_000])
def test_erf_inv_f64_kernel_equals_scipy(n):
    """The compiled float64 erf_inv gives SciPy's bits (Boost's rational functions in Boost's
    evaluation order), -0.0, NaN, +-inf and |y| > 1 included."""
    pytest.importorskip("scipy")
    y = _erf_inv_f64_values(n)
    got = native_rng.erf_inv_f64(y, _scipy_erf_inv)
    assert got is not None
    assert native_loops.same_bits(got, _scipy_erf_inv(y))
    assert _bits(got[y == 0]).tolist() == _bits(y[y == 0]).tolist()  # signed zeros kept


@needs_cc
@on_host
def test_float64_normal_same_bits_with_and_without_the_kernel():
    pytest.importorskip("scipy")
    k = random.key(11)
    got = np.asarray(random.normal(k, (50_001,), np.float64))
    want = np.asarray(_numpy_path(random.normal, k, (50_001,), np.float64))
    small = np.asarray(special.erf_inv(fnp.asarray(np.array([0.3, -0.0, 1.0]))))
    np.testing.assert_array_equal(_bits(got), _bits(want))
    assert _bits(small).tolist() == _bits(_scipy_erf_inv(np.array([0.3, -0.0, 1.0]))).tolist()


@needs_cc
def test_erf_inv_f64_kernel_refuses_a_reference_it_does_not_match(monkeypatch):
    """Checked once against the reference (SciPy's function): another reference's bits
    (another SciPy or C library) leave the kernel unused."""
    monkeypatch.setattr(native_rng, "_checked", {})
    assert native_rng.erf_inv_f64(np.zeros(3), lambda v: _scipy_erf_inv(v) * (1 + 2 ** -50)) is None
    assert native_rng.erf_inv_f64(np.zeros(3), _scipy_erf_inv) is None  # (the verdict is kept)
    monkeypatch.setattr(native_rng, "_checked", {})
    assert native_rng.erf_inv_f64(np.zeros(3), _scipy_erf_inv) is not None


# -- PyTorch's float32 Box-Muller --------------------------------------------------------

def _all_uniform_pairs(start, stop, stride=1):
    """Blocks of 16 whose first halves hold the float32 uniforms ``k * 2**-24`` for
    ``start <= k < stop`` (every ``stride``-th; all: every ``log`` input) and second halves
    the same set reversed (every ``sincos`` input)."""
    ks = np.arange(start, stop, stride, dtype=np.int64)
    ks = ks[:ks.size - ks.size % 8]
    u = ks.astype(F32) * F32(2.0 ** -24)
    d = np.empty((ks.size // 8, 16), F32)
    d[:, :8] = u.reshape(-1, 8)
    d[:, 8:] = u[::-1].reshape(-1, 8)
    return d.reshape(-1)


@needs_cc
@pytest.mark.parametrize("part,stride", [pytest.param(p, 1, marks=pytest.mark.slow) for p in range(4)]
                         + [(0, 31)])
def test_box_muller_kernel_equals_numpy_on_every_uniform(part, stride):
    """All 2**24 float32 uniforms through ``log`` and ``sincos`` (in four parts; the fast
    run: every 31st of them)."""
    q = 1 << 22 if stride == 1 else 1 << 24
    d = _all_uniform_pairs(part * q, (part + 1) * q, stride)
    for mean, std in [(0.0, 1.0), (0.25, 1.0)]:
        got, want = d.copy(), d.copy()
        assert native_rng.fill16_f32(got, mean, std, _cpu_rng._CEPHES)
        _cpu_rng._fill16_f32_numpy(want, mean, std)
        np.testing.assert_array_equal(_bits(got), _bits(want))


@needs_cc
@settings(max_examples=30, deadline=None)
@given(mean=st.floats(-2.0 ** 100, 2.0 ** 100, width=32), std=st.floats(0, 2.0 ** 100, width=32),
       seed=st.integers(0, 2 ** 31))
def test_box_muller_kernel_equals_numpy_for_any_mean_and_std(mean, std, seed):
    d = np.random.default_rng(seed).integers(0, 1 << 24, 16 * 64).astype(F32) * F32(2.0 ** -24)
    for m, s in [(mean, std), (0.0, 1e-38), (1e-38, std), (mean, 2.0 ** -140)]:  # subnormal results too
        got, want = d.copy(), d.copy()
        assert native_rng.fill16_f32(got, m, s, _cpu_rng._CEPHES)
        with np.errstate(all="ignore"):
            _cpu_rng._fill16_f32_numpy(want, m, s)
        eq = (_bits(got) == _bits(want)) | (np.isnan(got) & np.isnan(want))
        assert eq.all(), (m, s)


def _torch_draws(t, seed, n):
    t.manual_seed(seed)
    return [t.randn(n).numpy(), t.empty(n).normal_(0.3, 2.5).numpy(), t.randn(n, dtype=t.float16).numpy(),
            t.rand(n).numpy(), t.randint(0, 10, (n,)).numpy(), t.randint(-(2 ** 40), 7, (n,)).numpy(),
            t.empty(n, dtype=t.int64).random_(-3, 2 ** 31).numpy()]


@needs_cc
@pytest.mark.parametrize("n", [16, 17, 100_003])
def test_shim_draws_same_bits_with_and_without_kernels(n):
    got = _torch_draws(ftorch, 5, n)
    want = _numpy_path(_torch_draws, ftorch, 5, n)
    for g, w in zip(got, want):
        np.testing.assert_array_equal(_bits(g), _bits(w))


# torch.manual_seed(0); torch.randn(100_003)[IDX] (PyTorch 2.13, CPU), as float32 bits
TORCH_IDX = [0, 15, 16, 50_000, 99_983, 99_986, 100_002]
TORCH_STORED = [3213892485, 3195876988, 3215795138, 1062136433, 1057320918, 1049264838, 1050129432]


def test_large_randn_matches_stored_pytorch():
    ftorch.manual_seed(0)
    got = ftorch.randn(100_003).numpy()[TORCH_IDX]
    np.testing.assert_array_equal(_bits(got), np.array(TORCH_STORED, np.uint32))


def test_large_randn_matches_live_pytorch():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    want = torch.randn(100_003).numpy()
    ftorch.manual_seed(0)
    np.testing.assert_array_equal(ftorch.randn(100_003).numpy(), want)


# -- fallback -----------------------------------------------------------------------------

def test_no_compiler_runs_the_numpy_code(monkeypatch):
    k = random.key(3)
    draws = lambda: [np.asarray(random.normal(k, (5000,), np.float32)),  # noqa: E731
                     np.asarray(random.normal(k, (5000,), np.float64)),
                     np.asarray(random.bits(k, (33,), np.uint32)), *_torch_draws(ftorch, 2, 200)]
    before = draws()
    monkeypatch.setattr(native_loops, "load", lambda source, *a, **k: None)
    monkeypatch.setattr(native_loops, "_functions", {})  # (`compiled_function`'s: `native_fma`)
    monkeypatch.setattr(native_rng, "_kernels", {})
    assert native_rng.threefry2x32(np.uint32(0), np.uint32(0), np.uint32(0), np.uint32(0)) is None
    assert native_rng.erf_inv_f32(np.zeros(3, F32), special._GILES_CENTRAL, special._GILES_TAIL) is None
    assert native_rng.erf_inv_f64(np.zeros(3), np.copysign) is None
    assert native_rng.uniform_floats(np.zeros(2, np.uint32), 5, np.float32) is None
    assert not native_rng.fill16_f32(np.zeros(16, F32), 0.0, 1.0, _cpu_rng._CEPHES)
    assert native_rng.uniform24_f32(np.random.MT19937(0), 5) is None
    assert native_rng.randint32(np.random.MT19937(0), 5, 0, 3) is None
    assert native_rng.bernoulli53(np.random.MT19937(0), 5, 3) is None
    assert native_rng.randperm32(np.random.MT19937(0), 5) is None
    for g, w in zip(draws(), before):
        np.testing.assert_array_equal(_bits(g), _bits(w))


@needs_cc
def test_threefry_kernel_leaves_other_dtypes_to_the_numpy_code():
    """An int32 operand is not read as uint32: the NumPy code raises the TypeError."""
    z = np.uint32(0)
    assert native_rng.threefry2x32(np.int32(1), z, z, z) is None
    with pytest.raises(TypeError, match="uint32"):
        random.threefry2x32(fnp.asarray(np.int32(1)), *(fnp.asarray(z),) * 3)


def test_switch_off_skips_the_kernels():
    fgrad.config.update("native_loops", False)
    try:
        assert native_rng.threefry2x32(np.uint32(0), np.uint32(0), np.uint32(0), np.uint32(0)) is None
        assert not native_rng.fill16_f32(np.zeros(16, F32), 0.0, 1.0, _cpu_rng._CEPHES)
    finally:
        fgrad.config.update("native_loops", None)


@needs_cc
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(0, 3000), low=st.integers(-(2 ** 63), 2 ** 63 - 1),
       span=st.integers(1, 2 ** 32 - 1))
def test_mt19937_draw_kernels_equal_random_raw(seed, n, low, span):
    """The native draws read NumPy's own MT19937 words: the same values, and the stream
    continues where `random_raw` would."""
    a, b = np.random.MT19937(0), np.random.MT19937(0)
    a._legacy_seeding(seed)
    b._legacy_seeding(seed)
    got = native_rng.uniform24_f32(a, n)
    raw = b.random_raw(n)
    want = (raw & np.uint64(0xFFFFFF)).astype(F32) * F32(2.0 ** -24)
    np.testing.assert_array_equal(_bits(got), _bits(want))
    got = native_rng.randint32(a, n, low, span)
    want = ((b.random_raw(n) % np.uint64(span)) + np.uint64(low % 2 ** 64)).view(np.int64)
    np.testing.assert_array_equal(got, want)
    assert a.random_raw() == b.random_raw()


@needs_cc
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(0, 6000), p=st.floats(0.0, 1.0))
def test_bernoulli_kernel_equals_the_wide_draws(seed, n, p):
    """``bernoulli53`` reads NumPy's MT19937 64-bit draws (`_wide_draws`, first word high):
    the same booleans as their low 53 bits compared with ``ceil(p * 2**53)``, and the stream
    continues where the draws leave it."""
    a, b = np.random.MT19937(0), np.random.MT19937(0)
    a._legacy_seeding(seed)
    b._legacy_seeding(seed)
    threshold = math.ceil(p * 2.0 ** 53)
    got = native_rng.bernoulli53(a, n, threshold)
    m = np.random.Generator(b).integers(0, 1 << 64, n, dtype=np.uint64) & np.uint64(2 ** 53 - 1)
    np.testing.assert_array_equal(got, m < np.uint64(threshold))
    assert got.dtype == np.bool_
    assert a.random_raw() == b.random_raw()


@needs_cc
@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2 ** 32 - 1), n=st.integers(2, 3000))
def test_randperm_kernel_equals_the_array_shuffle(seed, n):
    """``randperm32`` runs PyTorch's swaps one by one in C; `_fisher_yates` computes their
    result from the same words with array passes: the same permutation, ``n - 1`` words read."""
    a, b = np.random.MT19937(0), np.random.MT19937(0)
    a._legacy_seeding(seed)
    b._legacy_seeding(seed)
    got = native_rng.randperm32(a, n)
    picks = (b.random_raw(n - 1) % np.arange(n, 1, -1, dtype=np.uint64)).astype(np.int64)
    np.testing.assert_array_equal(got, _cpu_rng._fisher_yates(picks))
    assert got.dtype == np.int64
    assert a.random_raw() == b.random_raw()


def test_randperm_is_the_same_with_the_kernel_on_and_off():
    def draws():
        ftorch.manual_seed(11)
        return [ftorch.randperm(n).numpy() for n in (0, 1, 2, 64, 5000)] + [ftorch.rand(3).numpy()]

    on = draws()
    with native_loops_off():
        off = draws()
    for a, b in zip(on, off):
        np.testing.assert_array_equal(a, b)


def test_dropout_masks_are_the_same_with_the_kernel_on_and_off():
    """The shim's dropout and ``bernoulli_(p)`` (which take `bernoulli53` from 64 values on)
    draw the same masks, and leave the generator at the same place, with native loops off."""
    def draws():
        ftorch.manual_seed(7)
        x = ftorch.ones(3000)
        drop = ftorch.nn.functional.dropout
        out = [drop(x, 0.3).numpy(), ftorch.empty(100).bernoulli_(0.25).numpy(),
               ftorch.empty(40).bernoulli_(0.5).numpy(), drop(ftorch.ones(8, 700), 0.1).numpy()]
        return out + [ftorch.rand(5).numpy()]

    on = draws()
    with native_loops_off():
        off = draws()
    for a, b in zip(on, off):
        np.testing.assert_array_equal(_bits(a), _bits(b))
