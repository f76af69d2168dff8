"""Fused elementwise kernels compiled to C (`fgrad.compile.native_kernels`, docs/speed-transformer.md
"Round 20").

Every result of a native kernel must have the NumPy kernel's bits (NaN: any NaN) and dtype:
each test runs the same function under `jit` with native loops on and off (each on a trace of
its own), checks that the native kernel was made where it can be, and compares bits.  The
shim's GELU, layer norm and softmax are checked through both faces, against finite
differences and against PyTorch (live when installed, stored otherwise).
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.backends import NUMPY, default_backend
from fgrad.compile import native_kernels
from fgrad.core import native_loops
from fgrad.nn._activations import gelu_erf_float32_arithmetic

ON_HOST = default_backend() is NUMPY  # (on a device backend no kernel runs on NumPy)
HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
RNG = np.random.default_rng(20)

F32_SPECIAL = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -1e-40, 1.4e-45, -1.4e-45, 3e38,
                        -3e38, 59.0, 60.0, 61.0, -14.0, 14.0, 1e9, 2e9, -1e10, 7.0, -7.0, 0.5, -0.5],
                       np.float32)


@pytest.fixture(autouse=True)
def _split_kernels_at_test_sizes(monkeypatch):
    """The bit-equality tests use arrays of a few thousand elements: kernels split by NumPy
    calls are made native from `MIN_ELEMENTS` on here (in use, from `MIN_ELEMENTS_SPLIT`;
    `test_small_split_kernels_stay_numpy` checks that)."""
    monkeypatch.setattr(native_kernels, "MIN_ELEMENTS_SPLIT", native_kernels.MIN_ELEMENTS)


def _both(f, *args):
    """``jit(f)(*args)`` with native loops on (its `COMPILE_AFTER`-th call), then off (fresh
    traces); the number of native kernels of the first program that ran their C code."""
    on = fgrad.jit(lambda *a: f(*a))
    for _ in range(native_kernels.COMPILE_AFTER):
        got = on(*args)
    n_native = _ran_native(on.lower(*args).compile())
    fgrad.config.update("native_loops", False)
    try:
        want = fgrad.jit(lambda *a: f(*a))(*args)
    finally:
        fgrad.config.update("native_loops", None)
    return got, want, n_native


def _ran_native(exe) -> int:
    return sum(1 for k, v in exe.ns.items() if k.startswith("nk") and v.state["native"] > 0)


def _assert_bits(got, want):
    got, want = fgrad.tree_util.tree_leaves(got), fgrad.tree_util.tree_leaves(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        assert native_loops.same_bits(g, w), (g, w)


def _expect_native(n_native, at_least=1):
    if ON_HOST and HAS_CC:
        assert n_native >= at_least, n_native


def _f32_values(shape):
    x = (RNG.standard_normal(shape) * 4).astype(np.float32)
    flat = x.reshape(-1)
    flat[:F32_SPECIAL.size] = F32_SPECIAL[:flat.size]
    return x


# ------------------------------------------------------------------------- the GELU kernel

@pytest.mark.parametrize("shape", [(512, 256), (300, 1000), (4096,)])
def test_float32_gelu_bit_equal_with_special_values(shape):
    """The shim's float32 GELU (35 passes and NumPy's own float32 ``exp``): native loops
    around the ``exp`` call give the NumPy kernel's bits, whole and blocked sizes."""
    x = _f32_values(shape)
    got, want, n_native = _both(gelu_erf_float32_arithmetic, x)
    _expect_native(n_native)
    _assert_bits(got, want)


def test_tanh_gelu_and_its_gradient_bit_equal():
    x = _f32_values((64, 96))
    for f in (lambda v: fgrad.nn.gelu(v, approximate=True),
              fgrad.grad(lambda v: fgrad.nn.gelu(v, approximate=True).sum())):
        got, want, n_native = _both(f, x)
        _expect_native(n_native)
        _assert_bits(got, want)


def test_gelu_gradient_matches_finite_differences():
    x = RNG.standard_normal(4096) * 3
    f = fgrad.jit(fgrad.grad(lambda v: fgrad.nn.gelu(v, approximate=False).sum()))
    h = 1e-6
    fd = (np.asarray(fgrad.nn.gelu(x + h, approximate=False))
          - np.asarray(fgrad.nn.gelu(x - h, approximate=False))) / (2 * h)
    np.testing.assert_allclose(np.asarray(f(x)), fd, rtol=1e-6, atol=1e-8)


# PyTorch 2.13.0+cpu, float32: F.gelu and its gradient at these points (printed by torch)
_TORCH_X = np.float32([-3.0, -1.0, -0.25, 0.0, 0.5, 2.0])
_TORCH_GELU = np.float32([-0.004050225, -0.15865526, -0.10032342, 0.0, 0.34573123, 1.9544997])
_TORCH_DGELU = np.float32([-0.011945605, -0.08331543, 0.3046267, 0.5, 0.86749506, 1.0852319])


def test_shim_gelu_matches_pytorch_live_and_stored():
    import fgrad.torch as ft

    x = np.tile(_TORCH_X, 512)  # big enough for a native kernel
    t = ft.tensor(x, requires_grad=True)
    y = ft.nn.functional.gelu(t)
    y.sum().backward()
    got_y, got_d = y.detach().numpy()[:6], t.grad.numpy()[:6]  # (PyTorch: within 1e-6 of the exact GELU)
    np.testing.assert_allclose(got_y, _TORCH_GELU, rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(got_d, _TORCH_DGELU, rtol=2e-6, atol=1e-6)
    torch = pytest.importorskip("torch")
    tt = torch.tensor(x, requires_grad=True)
    ty = torch.nn.functional.gelu(tt)
    ty.sum().backward()
    np.testing.assert_allclose(y.detach().numpy(), ty.detach().numpy(), rtol=2e-6, atol=1e-6)
    np.testing.assert_allclose(t.grad.numpy(), tt.grad.numpy(), rtol=2e-6, atol=1e-6)


# ---------------------------------------------------------- operands, dtypes and special values

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_row_column_and_scalar_operands(dtype):
    """Layer norm's elementwise shape: per-row statistics, per-column weight and bias."""
    x = RNG.standard_normal((256, 64)).astype(dtype)
    m = x.mean(-1, keepdims=True)
    r = (1 / (x.std(-1, keepdims=True) + 1e-5)).astype(dtype)
    w, b = RNG.standard_normal(64).astype(dtype), RNG.standard_normal(64).astype(dtype)
    got, want, n_native = _both(lambda x, m, r, w, b: ((x - m) * r * w + b) * 0.5, x, m, r, w, b)
    _expect_native(n_native)
    _assert_bits(got, want)


def test_comparisons_selects_conversions_and_division_specials():
    x = _f32_values((64, 64))
    y = _f32_values((64, 64))[::-1].copy()

    def f(x, y):
        q = x / y  # 0/0, x/0, inf/inf
        s = fnp.where(x > y, q, fnp.maximum(x, y))  # NaN-propagating maximum
        c = (x >= 0).astype(np.float32) - (y != y).astype(np.float32)
        return s * c, -q, fnp.abs(x) + fnp.sqrt(fnp.abs(y))

    got, want, n_native = _both(f, x, y)
    _expect_native(n_native)
    _assert_bits(got, want)


def test_integer_wraparound_and_bool_logic():
    a = RNG.integers(-2**31, 2**31 - 1, (128, 64), dtype=np.int32)
    b = RNG.integers(-2**31, 2**31 - 1, (128, 64), dtype=np.int32)
    got, want, n_native = _both(lambda a, b: ((a * b + a) ^ b, (a > b) & (b > 0)), a, b)
    _expect_native(n_native)
    _assert_bits(got, want)


def test_non_contiguous_inputs():
    base = _f32_values((128, 96))
    xt = base.T  # a transposed view
    got, want, n_native = _both(gelu_erf_float32_arithmetic, xt)
    _expect_native(n_native)
    _assert_bits(got, want)
    _assert_bits(gelu_erf_float32_arithmetic(np.ascontiguousarray(xt)), want)  # eager


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 70), cols=st.integers(1, 300), dtype=st.sampled_from([np.float32, np.float64]))
def test_shapes_bit_equal(rows, cols, dtype):
    x = (RNG.standard_normal((rows, cols)) * 3).astype(dtype)
    flat = x.reshape(-1)
    flat[:min(flat.size, 5)] = np.array([np.nan, -0.0, np.inf, 1e-310, -np.inf], dtype)[:min(flat.size, 5)]
    got, want, _ = _both(lambda x: fnp.exp(x * 0.5) * (x - 1.0) / (fnp.abs(x) + 2.0), x)
    _assert_bits(got, want)


# ------------------------------------------------------------------------------- fallbacks

def test_switched_off_at_run_time_takes_the_numpy_code():
    x = _f32_values((128, 128))
    f = fgrad.jit(lambda v: gelu_erf_float32_arithmetic(v))
    for _ in range(native_kernels.COMPILE_AFTER):
        on = f(x)
    _expect_native(_ran_native(f.lower(x).compile()))
    fgrad.config.update("native_loops", False)
    try:
        off = f(x)  # the same program: its NumPy branch
    finally:
        fgrad.config.update("native_loops", None)
    _assert_bits(on, off)


def test_runner_declines_inputs_of_another_dtype_or_shape():
    if not (ON_HOST and HAS_CC):
        pytest.skip("no native kernels here")
    f = fgrad.jit(lambda v: v * 2.0 + 1.0)
    x = np.ones((64, 64), np.float32)
    exe = f.lower(x).compile()
    (run,) = [v for k, v in exe.ns.items() if k.startswith("nk")]
    for _ in range(native_kernels.COMPILE_AFTER):
        got = run(x)
    assert got is not None
    assert run(x.astype(np.float64)) is None and run(x[:32]) is None


@pytest.mark.parametrize("program", ["one_result", "two_results", "row_sum", "hessian"])
def test_consecutive_calls_never_share_result_buffers(program):
    """The runner's per-call path makes fresh result arrays: results of consecutive calls
    (returned to the caller, or views of them) never alias, and an earlier result keeps its
    values when the program runs again on other inputs (guard against any buffer reuse)."""
    A = RNG.standard_normal((64, 64)).astype(np.float32) / 8
    fns = {"one_result": lambda v: v * 2.0 + 1.0,
           "two_results": lambda v: (v * 3.0 - 1.0, (v * 3.0 - 1.0) * v),
           "row_sum": lambda v: fnp.sum(v * v * 0.5, axis=-1),
           "hessian": fgrad.hessian(lambda v: fnp.sum(fnp.tanh(fnp.asarray(A) @ v) ** 2))}
    x = _f32_values((64,) if program == "hessian" else (64, 64))
    f = fgrad.jit(fns[program])
    calls = [f(x + np.float32(k)) for k in range(native_kernels.COMPILE_AFTER + 3)]
    _expect_native(_ran_native(f.lower(x).compile()))
    leaves = [[np.asarray(r) for r in fgrad.tree_util.tree_leaves(c)] for c in calls]
    for i, a in enumerate(leaves):
        for b in leaves[i + 1:]:
            assert not any(np.shares_memory(p, q) for p in a for q in b)
    fgrad.config.update("native_loops", False)
    try:
        for k, got in enumerate(calls):
            _assert_bits(got, fgrad.jit(fns[program])(x + np.float32(k)))
    finally:
        fgrad.config.update("native_loops", None)


def test_without_a_compiler_no_native_kernel(monkeypatch):
    monkeypatch.setitem(native_loops._state, "cc", None)
    x = _f32_values((128, 128))
    f = fgrad.jit(lambda v: gelu_erf_float32_arithmetic(v))
    assert f.lower(x).compile().stats["native"] == 0
    monkeypatch.undo()
    _assert_bits(f(x), fgrad.jit(lambda v: gelu_erf_float32_arithmetic(v))(x))


def test_compiled_on_the_third_call(tmp_path, monkeypatch):
    """A kernel whose library is not in the cache runs NumPy code on its first two calls
    (no compiler run for kernels that run once), then its C code; a second process (here: a
    fresh trace) finds the library in the cache and runs it from the first call."""
    if not (ON_HOST and HAS_CC):
        pytest.skip("no native kernels here")
    monkeypatch.setitem(native_loops._state, "dir", str(tmp_path))
    x = _f32_values((64, 64))
    f = fgrad.jit(lambda v: v * 3.0 - 1.0)
    f(x)
    f(x)
    (run,) = [v for k, v in f.lower(x).compile().ns.items() if k.startswith("nk")]
    assert run.state["native"] == 0 and not list(tmp_path.iterdir())
    f(x)
    assert run.state["native"] == 1 and len(list(tmp_path.glob("*.so"))) == 1
    native_loops._libs.clear()
    g = fgrad.jit(lambda v: v * 3.0 - 1.0)
    g(x)
    (run2,) = [v for k, v in g.lower(x).compile().ns.items() if k.startswith("nk")]
    assert run2.state["native"] == 1


def test_small_kernels_stay_numpy():
    x = np.ones(native_kernels.MIN_ELEMENTS // 2, np.float32)
    assert fgrad.jit(lambda v: v * 2.0 + 1.0).lower(x).compile().stats["native"] == 0


def test_small_split_kernels_stay_numpy(monkeypatch):
    """A kernel split by a NumPy call that C cannot make on blocks (float32 ``fmod``: no
    bit-equal C spelling, not one of NumPy's loops C calls) below `MIN_ELEMENTS_SPLIT`
    elements keeps the NumPy code: its C loops' fixed costs made a 4096-element logistic loss
    slower (107 us against 80 us, before block kernels); at the threshold it is native."""
    monkeypatch.setattr(native_kernels, "MIN_ELEMENTS_SPLIT", 65536)

    def loss(v):
        return fnp.fmod(v * 1.5, 2.0) * 2.0 + 1.0

    small = np.ones(4096, np.float32)
    assert fgrad.jit(loss).lower(small).compile().stats["native"] == 0
    if ON_HOST and HAS_CC:
        big = np.ones(65536, np.float32)
        assert fgrad.jit(loss).lower(big).compile().stats["native"] == 1


def test_kernels_with_a_trailing_reduction_bit_equal():
    """A whole-mode kernel ending in a reduction (the backward of ``jit(grad(layer norm))``:
    products summed over rows) runs its elementwise part in C, which also returns the
    reduction's operand; NumPy's reduction follows on it, so the sums are NumPy's bits."""
    def layer_norm_loss(x, g, b):
        mu = fnp.mean(x, axis=-1, keepdims=True)
        xc = x - mu
        v = fnp.mean(xc * xc, axis=-1, keepdims=True)
        return fnp.sum(((xc / fnp.sqrt(v + 1e-5)) * g + b) ** 2)

    x = _f32_values((128, 64))
    x[0] = 1.0  # (a constant row: variance zero)
    g, b = RNG.standard_normal(64).astype(np.float32), RNG.standard_normal(64).astype(np.float32)
    grad = fgrad.grad(layer_norm_loss, argnums=(0, 1, 2))
    got, want, n_native = _both(grad, x, g, b)
    _assert_bits(got, want)
    _expect_native(n_native, 3)
    got, want, n_native = _both(lambda v: (fnp.sum(v * v - 1.0, axis=-1), fnp.max(fnp.abs(v) * 2.0, axis=0)),
                                x)
    _assert_bits(got, want)
    _expect_native(n_native, 2)


# ------------------------------------------------------- block kernels calling NumPy's loops

def _block_kernels(exe) -> list:
    return [v for k, v in exe.ns.items() if k.startswith("nk") and "np_block_" in v.c_source]


@pytest.mark.parametrize("n", [2048, 2049, 5000, 3 * native_loops.KERNEL_BLOCK + 7])
def test_block_kernel_chain_bit_equal(n, monkeypatch):
    """The 14-op chain (float32 sin, cos, exp, tanh: NumPy's own SIMD loops, no bit-equal
    libm spelling) is one C function over blocks of `native_loops.KERNEL_BLOCK` that calls
    NumPy's loops on each block; any size from `MIN_ELEMENTS` (no `MIN_ELEMENTS_SPLIT`), a
    ragged last block, special values: the NumPy kernel's bits."""
    monkeypatch.setattr(native_kernels, "MIN_ELEMENTS_SPLIT", 1 << 30)

    def chain(x):
        return x * fnp.sin(x) + fnp.exp(-x ** 2) * fnp.cos(3 * x) - fnp.tanh(x) / (1 + x ** 2)

    x = _f32_values((n,))
    got, want, n_native = _both(chain, x)
    _assert_bits(got, want)
    _expect_native(n_native)
    if ON_HOST and HAS_CC:
        assert len(_block_kernels(fgrad.jit(chain).lower(x).compile())) == 1


def test_block_kernel_rows_columns_and_several_results_bit_equal(monkeypatch):
    """Per-row and per-column operands, values crossing a NumPy call (stored per block) and
    several results (one a NumPy call's, one a C value's), float32 and float64."""
    monkeypatch.setattr(native_kernels, "MIN_ELEMENTS_SPLIT", 1 << 30)

    def f(x, r, c):
        e = fnp.exp(x * r - c)
        t = fnp.log1p(e * e) + x
        return t * fnp.sin(t), e + 1.0

    for dt in (np.float32, np.float64):
        x = (RNG.standard_normal((37, 3000)) * 3).astype(dt)
        x.reshape(-1)[:F32_SPECIAL.size] = F32_SPECIAL
        r = RNG.standard_normal((37, 1)).astype(dt)
        c = RNG.standard_normal(3000).astype(dt)
        got, want, n_native = _both(f, x, r, c)
        _assert_bits(got, want)
        _expect_native(n_native)
        if ON_HOST and HAS_CC:
            assert len(_block_kernels(fgrad.jit(f).lower(x, r, c).compile())) == 1


def test_block_kernel_gradient_matches_finite_differences():
    """``jit(grad)`` of a loss whose backward kernels call float64 ``tanh``/``exp`` per block
    agrees with central differences (float64) and with eager."""
    def loss(x):
        return fnp.sum(fnp.tanh(x) * fnp.exp(-x * x) + fnp.sin(x) * x)

    x = RNG.standard_normal(70000)
    g = np.asarray(fgrad.jit(fgrad.grad(loss))(x))
    _assert_bits(g, np.asarray(fgrad.grad(loss)(x)))
    idx = RNG.integers(0, x.size, 8)
    h = 1e-6
    for i in idx:
        e = np.zeros_like(x)
        e[i] = h
        fd = (float(loss(x + e)) - float(loss(x - e))) / (2 * h)
        assert abs(g[i] - fd) < 1e-5 * max(1.0, abs(fd)), (i, g[i], fd)


def test_block_loops_calibrated():
    """NumPy's float32 ``exp`` loop called from C on blocks (the first short, so later ones
    start misaligned) gives the array call's bits on the dense probe values."""
    if not HAS_CC:
        pytest.skip("no C compiler")
    assert native_loops.np_block_call(np.exp, np.dtype(np.float32)) is not None
    assert native_loops.np_block_call(np.add, np.dtype(np.float32)) is None  # (an operator: C)


def test_block_kernels_with_a_trailing_reduction_bit_equal():
    """A whole-mode kernel ending in a reduction whose members call NumPy's loops (a softmax's
    ``exp``, a sum of ``tanh``) is a block kernel returning the reduction's operand; NumPy
    reduces it: the NumPy kernel's bits."""
    def f(x):
        e = fnp.exp(x - fnp.max(x, axis=-1, keepdims=True))
        return e / fnp.sum(e, axis=-1, keepdims=True), fnp.sum(fnp.tanh(x) * 2.0)

    for shape in [(64, 300), (16, 4097)]:
        x = _f32_values(shape)
        got, want, n_native = _both(f, x)
        _assert_bits(got, want)
        _expect_native(n_native)
        if ON_HOST and HAS_CC:
            assert len(_block_kernels(fgrad.jit(f).lower(x).compile())) >= 2


def test_block_kernel_buffers_bounded(monkeypatch):
    """A block kernel keeps the values crossing NumPy calls in stack buffers of one block:
    past `MAX_BLOCK_STACK` bytes the kernel is the split one (same bits)."""
    monkeypatch.setattr(native_kernels, "MIN_ELEMENTS_SPLIT", 1 << 30)
    monkeypatch.setattr(native_kernels, "MAX_BLOCK_STACK", 1)

    def f(x):
        return x * fnp.sin(x) + fnp.exp(-x * x)

    x = _f32_values((5000,))
    got, want, _ = _both(f, x)
    _assert_bits(got, want)
    assert not _block_kernels(fgrad.jit(f).lower(x).compile())


# ------------------------------------------------- row sums in the kernel (session 24)

def _row_sum_kernels(exe) -> list:
    return [v for k, v in exe.ns.items() if k.startswith("nk") and "np_reduce_row" in v.c_source]


def _layer_norm(x, g, b):
    mu = fnp.mean(x, axis=-1, keepdims=True)
    xc = x - mu
    var = fnp.mean(xc * xc, axis=-1, keepdims=True)
    return xc / fnp.sqrt(var + 1e-5) * g + b


def _row_values(shape, dt):
    """Rows of every magnitude (so another summation order would show in the last bits), a
    row of negative zeros and one with an infinity."""
    x = (RNG.standard_normal(shape) * np.exp(RNG.uniform(-12, 12, shape))).astype(dt)
    x[0] = -0.0
    if shape[0] > 2:
        x[2, -1] = np.inf
    return x


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=st.integers(1, 40),
       cols=st.one_of(st.integers(2, 300), st.sampled_from([1024, 2047, 2049, 4099])),
       dtype=st.sampled_from([np.float32, np.float64]))
def test_row_sums_in_the_kernel_bit_equal(rows, cols, dtype):
    """A kernel ending in a sum over its last axis computes the sum in its C loop (NumPy's
    own ``add`` loop in reduction form on each row, `native_loops.np_row_sum_call`): rows
    shorter than 8, of 8-128 (NumPy's unrolled loop) and longer (its pairwise halves), rows
    longer than one block: ``np.add.reduce``'s bits, op by op, and the NumPy kernel's."""
    rows = max(rows, -(-native_kernels.MIN_ELEMENTS // cols))  # (a native kernel's size)
    x = _row_values((rows, cols), dtype)
    r = RNG.standard_normal((rows, 1)).astype(dtype)

    def f(x, r):
        d = x - r
        return fnp.sum(d * d, axis=-1), d

    got, want, n_native = _both(f, x, r)
    _assert_bits(got, want)
    d = x - r
    with np.errstate(over="ignore", invalid="ignore"):
        _assert_bits(got, (np.add.reduce(d * d, axis=-1), d))
    _expect_native(n_native)
    if ON_HOST and HAS_CC:
        assert len(_row_sum_kernels(fgrad.jit(f).lower(x, r).compile())) == 1


@pytest.mark.parametrize("shape", [(64, 300), (300, 1000)])
def test_layer_norm_and_its_gradient_with_row_sums_bit_equal(shape):
    """The layer norm (whole mode at 64 x 300, blocked over rows at 300 x 1000): the variance's
    kernel and the backward's per-row sums are C loops ending in row sums, with the NumPy
    kernels' bits, forward and gradient."""
    x = _f32_values(shape)
    x[1] = 1.0  # (a constant row: variance zero)
    g, b = RNG.standard_normal(shape[1]).astype(np.float32), RNG.standard_normal(shape[1]).astype(np.float32)
    got, want, n_native = _both(_layer_norm, x, g, b)
    _assert_bits(got, want)
    _expect_native(n_native, 2)
    loss = fgrad.grad(lambda x, g, b: fnp.sum(_layer_norm(x, g, b) * g), argnums=(0, 1, 2))
    got, want, n_native = _both(loss, x, g, b)
    _assert_bits(got, want)
    _expect_native(n_native, 3)
    if ON_HOST and HAS_CC:
        assert len(_row_sum_kernels(fgrad.jit(_layer_norm).lower(x, g, b).compile())) == 1
        assert len(_row_sum_kernels(fgrad.jit(loss).lower(x, g, b).compile())) >= 2


def test_layer_norm_gradient_with_row_sums_matches_finite_differences():
    """``jit(grad)`` of a float64 layer norm loss through row-sum kernels agrees with central
    differences."""
    x = RNG.standard_normal((40, 96))
    g, b = RNG.standard_normal(96), RNG.standard_normal(96)

    def loss(x):
        return fnp.sum(fnp.tanh(_layer_norm(x, g, b)) * g)

    grad = fgrad.jit(fgrad.grad(loss))
    for _ in range(native_kernels.COMPILE_AFTER):
        got = np.asarray(grad(x))
    h = 1e-6
    for i, j in RNG.integers(0, (40, 96), (6, 2)):
        e = np.zeros_like(x)
        e[i, j] = h
        fd = (float(loss(x + e)) - float(loss(x - e))) / (2 * h)
        assert abs(got[i, j] - fd) < 1e-6 * max(1.0, abs(fd)), (i, j, got[i, j], fd)


def test_rows_longer_than_checked_keep_numpys_sum(monkeypatch):
    """A row longer than `native_loops.ROW_SUM_MAX` (what calibration checked) is summed by
    NumPy after the kernel, as before: same bits."""
    monkeypatch.setattr(native_loops, "ROW_SUM_MAX", 100)
    x = _row_values((20, 300), np.float32)
    got, want, _ = _both(lambda x: fnp.sum(x * x, axis=-1), x)
    _assert_bits(got, want)
    assert not _row_sum_kernels(fgrad.jit(lambda x: fnp.sum(x * x, axis=-1)).lower(x).compile())


def test_row_sums_calibrated():
    """NumPy's ``add`` loop called from C in reduction form on rows of every length checked
    gives ``np.add.reduce``'s bits (float32 and float64); a sum of a cast stays NumPy's."""
    if not HAS_CC:
        pytest.skip("no C compiler")
    for dt in (np.float32, np.float64):
        assert native_loops.np_row_sum_calibrated(np.dtype(dt))
        assert native_loops.np_row_sum_call(np.dtype(dt)) is not None
    assert native_loops.np_row_sum_call(np.dtype(np.int32)) is None


@pytest.mark.parametrize("shape", [(8, 16, 28, 28), (4, 3, 5, 40, 7)])
def test_per_channel_operands_bit_equal(shape):
    """A per-channel operand (a convolution's bias ``(1, C, 1, 1)``, or one over two middle
    axes) is read at the row's index modulo its size, the loop's columns starting after its
    axes: the bias-add and ReLU kernel of a CNN and its derivative mask are one C loop with
    the NumPy kernel's bits."""
    x = _f32_values(shape)
    band = (1,) + shape[1:-2] + (1, 1)
    b = RNG.standard_normal(band).astype(np.float32)

    def f(x, b):
        h = fnp.maximum(x + b, 0.0)
        return h, fgrad.grad(lambda x: fnp.sum(fnp.maximum(x + b, 0.0) * x))(x)

    got, want, n_native = _both(f, x, b)
    _assert_bits(got, want)
    _expect_native(n_native)
    if ON_HOST and HAS_CC:
        sources = [v.c_source for k, v in fgrad.jit(f).lower(x, b).compile().ns.items() if k.startswith("nk")]
        assert any("(r % " in s for s in sources)


@pytest.mark.skipif(not ON_HOST, reason="a device backend's constants are device arrays (no native kernel)")
def test_folded_transposed_constant_is_bound_c_ordered_once():
    """A folded constant a kernel reads transposed (the Hessian's ``Aᵀ``) is read-only, and
    the kernel is handed a C-ordered copy bound at build time (its runner copied the 16 KB
    view on every call): the same bits as the NumPy code."""
    from fgrad.compile.codegen import frozen

    A = RNG.standard_normal((64, 64)).astype(np.float32) / 8
    f = fgrad.jit(fgrad.hessian(lambda v: fnp.sum(fnp.tanh(fnp.asarray(A) @ v) ** 2)))
    x = _f32_values((64,))
    for _ in range(native_kernels.COMPILE_AFTER + 1):
        got = f(x)
    exe = f.lower(x).compile()
    _expect_native(_ran_native(exe))
    folded = [v for k, v in exe.ns.items() if k.startswith("c") and isinstance(v, np.ndarray)
              and v.shape == (64, 64) and not v.flags.c_contiguous]
    assert folded and all(frozen(c) for c in folded)
    copies = [v for k, v in exe.ns.items() if k.startswith("c") and isinstance(v, np.ndarray)
              and v.flags.c_contiguous and not v.flags.writeable
              and any(np.array_equal(v, c) for c in folded)]
    assert copies
    fgrad.config.update("native_loops", False)
    try:
        _assert_bits(got, fgrad.jit(fgrad.hessian(lambda v: fnp.sum(fnp.tanh(fnp.asarray(A) @ v) ** 2)))(x))
    finally:
        fgrad.config.update("native_loops", None)


@pytest.mark.skipif(not ON_HOST, reason="a device backend copies the constant to the device")
def test_constant_viewing_writeable_data_is_read_at_each_call():
    """A constant that views a writeable NumPy array (a closure over the user's data) is not
    snapshotted by the C-ordered binding: a later write into the data shows in the next
    call, as it does in the NumPy code."""
    A = RNG.standard_normal((64, 64)).astype(np.float32)
    f = fgrad.jit(lambda v: fnp.tanh(v * A.T) * 2.0 + v)
    x = _f32_values((64, 64))
    for _ in range(native_kernels.COMPILE_AFTER + 1):
        before = np.asarray(f(x))
    _expect_native(_ran_native(f.lower(x).compile()))
    A *= 0.5
    after = np.asarray(f(x))
    with np.errstate(all="ignore"):
        want = np.tanh(x * A.T) * np.float32(2.0) + x
    np.testing.assert_allclose(after, want, rtol=1e-6)
    assert not np.array_equal(before, after, equal_nan=True)
