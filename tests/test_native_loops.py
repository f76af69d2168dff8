"""Scalarized loops compiled to C at run time (`fgrad.core.native_loops`, docs/speed-loops.md,
"Round 19: native scalar loops").

Every result of the native code must have the array code's bits (NaN: any NaN) and dtype:
each test runs the same function three ways -- native (the default), the Python scalar code
(``native_loops`` switched off) and the array code (`scalar_loops.MAX_ELEMENTS = 0`) -- each
on a trace of its own, and checks the native code was taken.  The math functions are checked
against NumPy's ufuncs over dense sets of values on this machine, which is the rule the
generator itself applies before it writes a function in C.  Without a C compiler every loop
must still run, on the Python code, with the same numbers.
"""

from __future__ import annotations

import ctypes
import os
import stat
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.backends import NUMPY, default_backend
from fgrad.core import native_loops, scalar_loops
from fgrad.ops import control_flow

from benchmarks.cases.loops import kalman_nll, newton_fixed_point, rk4_loss, while_bisect

ON_HOST = default_backend() is NUMPY  # (on a device, loops never run on NumPy scalars)
HAS_CC = native_loops._compiler() is not None and native_loops.cache_dir() is not None
needs_cc = pytest.mark.skipif(not HAS_CC, reason="no C compiler or no private cache directory")


@pytest.fixture
def native(monkeypatch):
    """Records, per loop that takes the scalar code, whether it runs as native code."""
    seen = []
    for name in ("scalar_scan", "scalar_while"):
        make = getattr(control_flow, name)

        def spy(*args, _make=make):
            run = _make(*args)
            if run is not None:
                seen.append(hasattr(run, "python"))
            return run

        monkeypatch.setattr(control_flow, name, spy)
    return seen


def _jit(f):
    return fgrad.jit(lambda *args: f(*args))  # a trace (and generated loops) of its own


def _three_ways(seen, f, *args):
    """``f(*args)`` under `jit`: native, Python scalar code, array code; ``seen`` (the
    `native` fixture's list) keeps what the first made.  Eager ``f(*args)`` must give the
    array code's bits too."""
    del seen[:]
    got = _jit(f)(*args)
    n = len(seen)
    fgrad.config.update("native_loops", False)
    try:
        python = _jit(f)(*args)
    finally:
        fgrad.config.update("native_loops", None)
    old = scalar_loops.MAX_ELEMENTS
    scalar_loops.MAX_ELEMENTS = 0
    try:
        array = _jit(f)(*args)
    finally:
        scalar_loops.MAX_ELEMENTS = old
    _assert_bits(f(*args), array)  # eager (its loops run the same generated code)
    del seen[n:]
    return got, python, array


def _assert_bits(got, *wants):
    got = fgrad.tree_util.tree_leaves(got)
    for want in wants:
        want = fgrad.tree_util.tree_leaves(want)
        assert len(got) == len(want)
        for g, w in zip(got, want):
            g, w = np.asarray(g), np.asarray(w)
            assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
            assert native_loops.same_bits(g, w), (g, w)


def _expect_native(seen, n=None):
    """Every scalarized loop went native (and there were ``n``) -- where it can."""
    if ON_HOST and HAS_CC:
        assert all(seen) and (n is None or len(seen) == n), seen


# ------------------------------------------------------------------- the benchmarked loops

@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_rk4_scan_and_gradient_bit_equal(native, dtype):
    loss = rk4_loss(fnp, lax, 300)
    args = (fnp.asarray(dtype(2.0)), fnp.asarray(np.array([1.0, 0.0], dtype)))
    for f, n in ((loss, 1), (fgrad.value_and_grad(loss), 2)):
        got, python, array = _three_ways(native, f, *args)
        _expect_native(native, n)
        _assert_bits(got, python, array)


def test_while_bisection_bit_equal(native):
    got, python, array = _three_ways(native, while_bisect(fnp, lax), fnp.asarray(np.float32(5.0)))
    _expect_native(native, 1)
    _assert_bits(got, python, array)
    assert int(got[1]) == 23


def test_loops_with_float32_numpy_math_call_numpy_s_loops(native):
    """NumPy's float32 cos and log are its own SIMD code, not libm's: the loops that call
    them call NumPy's inner loop on one element from C (`native_loops.np_loop_spelling`, the
    function NumPy's scalar call runs) and go native too -- the same numbers as the Python
    code and the array code.  Where that loop cannot be had, they keep the Python code."""
    got, python, array = _three_ways(native, newton_fixed_point(fnp, lax, 50), fnp.asarray(np.float32(2.0)))
    _assert_bits(got, python, array)
    zs = np.cumsum(np.random.default_rng(0).standard_normal(40)).astype(np.float32)
    got, python, array = _three_ways(native, fgrad.value_and_grad(kalman_nll(fnp, lax)),
                                     fnp.asarray(np.float32(0.1)), fnp.asarray(zs))
    _assert_bits(got, python, array)
    f32 = np.dtype(np.float32)
    if ON_HOST and HAS_CC and not native_loops.calibrated("log", f32):
        # the forward scan calls log; the reverse sweep has none
        assert native.count(True) == (2 if native_loops.np_loop_calibrated("log", f32) else 1)


def test_numpy_loop_calls_without_the_loop_table_stay_python(native, monkeypatch):
    """Where NumPy's loop cannot be found (the ufunc object does not read as expected) a loop
    calling float32 log keeps the Python code, with the same numbers."""
    monkeypatch.setattr(native_loops, "_np_loop_calibration", {})
    monkeypatch.setattr(native_loops, "_ufunc_loop", lambda ufunc, dt: None)
    zs = np.cumsum(np.random.default_rng(0).standard_normal(40)).astype(np.float32)
    got, python, array = _three_ways(native, fgrad.value_and_grad(kalman_nll(fnp, lax)),
                                     fnp.asarray(np.float32(0.1)), fnp.asarray(zs))
    _assert_bits(got, python, array)
    if ON_HOST and HAS_CC and not native_loops.calibrated("log", np.dtype(np.float32)):
        assert native.count(True) == 1


@pytest.mark.parametrize("name", native_loops.NP_LOOP_NAMES)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_numpy_loop_spelling_is_calibrated_bit_equal(name, dt):
    """Every float function NumPy's loop can spell in C: calibrated here (array and scalar
    calls) wherever the loop is found, and its spelling names the right table slot."""
    dt = np.dtype(dt)
    fmt = native_loops.np_loop_spelling(getattr(np, name), dt)
    if not (HAS_CC and ON_HOST):
        return
    assert native_loops._ufunc_loop(getattr(np, name), dt) is not None
    assert fmt is not None and f"({native_loops._np_loop_slot(name, dt)}, " in fmt


def test_rk4_against_jax():
    """The native loop's numbers are JAX's (stored, and live when JAX is installed)."""
    f = fgrad.jit(fgrad.value_and_grad(rk4_loss(fnp, lax, 1000)))
    k, y0 = np.float32(2.0), np.array([1.0, 0.0], np.float32)
    value, grad = f(fnp.asarray(k), fnp.asarray(y0))
    # JAX 0.10.2 (x64 off): jax.jit(jax.value_and_grad(rk4_loss(jnp, jax.lax, 1000)))(k, y0)
    jax_numbers = (0.7372362613677979, 0.2856532037258148)
    np.testing.assert_allclose([float(value), float(grad)], jax_numbers, rtol=1e-5)
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        want = jax.jit(jax.value_and_grad(rk4_loss(jax.numpy, jax.lax, 1000)))(k, y0)
    np.testing.assert_allclose([float(value), float(grad)], [float(w) for w in want], rtol=1e-5)


# --------------------------------------------------------------- hypothesis-drawn small loops

FLOAT_OPS = ("add", "sub", "mul", "div", "max", "min", "neg", "abs", "sqrt", "square", "where", "const",
             "floor", "cast")
INT_OPS = ("add", "sub", "mul", "max", "min", "neg", "abs", "and", "or", "xor", "where", "const", "square")


def _apply(op, a, b, w, cst, dtype):
    if op == "add":
        return a + b
    if op == "sub":
        return a - b
    if op == "mul":
        return a * b
    if op == "div":
        return a / b
    if op == "max":
        return fnp.maximum(a, b)
    if op == "min":
        return fnp.minimum(a, b)
    if op == "neg":
        return -a
    if op == "abs":
        return fnp.abs(a)
    if op == "sqrt":
        return fnp.sqrt(fnp.abs(a))
    if op == "square":
        return fnp.square(a)
    if op == "where":
        return fnp.where(a < b, w, a)
    if op == "const":
        return a * dtype(cst) + dtype(cst)
    if op == "floor":
        return fnp.floor(a * dtype(cst))
    if op == "cast":  # through the other float width and back
        other = np.float64 if dtype == np.float32 else np.float32
        return a.astype(other).astype(dtype)
    if op == "and":
        return a & b
    if op == "or":
        return a | b
    return a ^ b


def _program(dtype):
    ops = FLOAT_OPS if np.dtype(dtype).kind == "f" else INT_OPS
    csts = st.sampled_from([-3, -1, 0, 1, 2, 7]) if np.dtype(dtype).kind != "f" else \
        st.sampled_from([-2.5, -1.0, -0.0, 0.0, 0.1, 0.5, 1.5, 1e30])
    ins = st.tuples(st.sampled_from(ops), st.integers(0, 50), st.integers(0, 50), st.integers(0, 50), csts)
    return st.lists(ins, min_size=1, max_size=12)


def _step(prog, dtype, n):
    def step(c, x):
        vals = list(c) + [x]
        for op, i, j, k, cst in prog:
            vals.append(_apply(op, vals[i % len(vals)], vals[j % len(vals)], vals[k % len(vals)], cst, dtype))
        return tuple(vals[-n:]), vals[-1] - vals[0]

    return step


def _values(draw_seed, dtype, shape):
    rng = np.random.default_rng(draw_seed)
    if np.dtype(dtype).kind == "f":
        v = rng.choice(np.array([0.0, -0.0, 1.0, -2.0, 0.5, 3e38, np.inf, np.nan, 1e-40], dtype), shape)
        return np.where(rng.random(shape) < 0.5, rng.standard_normal(shape).astype(dtype), v)
    ii = np.iinfo(dtype)
    return rng.integers(ii.min, ii.max, shape, dtype=dtype, endpoint=True)


DTYPES = [np.float32, np.float64, np.int32]


@pytest.mark.parametrize("dtype", DTYPES)
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # (reset per draw)
@given(prog=_program(np.float32), seed=st.integers(0, 2 ** 16), reverse=st.booleans())
def test_drawn_scans_bit_equal(native, dtype, prog, seed, reverse):
    if np.dtype(dtype).kind != "f":
        prog = [(op if op in INT_OPS else "add", i, j, k, int(np.clip(c, -3, 7))) for op, i, j, k, c in prog]
    n = 2
    init = tuple(fnp.asarray(v) for v in _values(seed, dtype, (n,)))
    xs = fnp.asarray(_values(seed + 1, dtype, (6,)))

    def f(c, xs):
        return lax.scan(_step(prog, dtype, n), c, xs, reverse=reverse)

    with np.errstate(all="ignore"):
        got, python, array = _three_ways(native, f, init, xs)
    _expect_native(native)
    _assert_bits(got, python, array)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # (reset per draw)
@given(prog=_program(np.float32), seed=st.integers(0, 2 ** 16))
def test_drawn_scan_gradients_bit_equal(native, dtype, prog, seed):
    """The reverse sweep of a drawn scan (a reverse scan of its own) too."""
    init = fnp.asarray(np.random.default_rng(seed).standard_normal(2).astype(dtype))

    def loss(c0):
        (a, b), ys = lax.scan(_step(prog, dtype, 2), (c0[0], c0[1]), fnp.linspace(0, 1, 5).astype(dtype))
        return a + b + ys.sum()

    with np.errstate(all="ignore"):
        got, python, array = _three_ways(native, fgrad.value_and_grad(loss), init)
    _expect_native(native)
    _assert_bits(got, python, array)


@pytest.mark.parametrize("dtype", DTYPES)
@settings(deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])  # (reset per draw)
@given(prog=_program(np.float32), seed=st.integers(0, 2 ** 16), limit=st.integers(0, 9))
def test_drawn_while_loops_bit_equal(native, dtype, prog, seed, limit):
    if np.dtype(dtype).kind != "f":
        prog = [(op if op in INT_OPS else "xor", i, j, k, int(np.clip(c, -3, 7))) for op, i, j, k, c in prog]
    a, b, x = (fnp.asarray(v) for v in _values(seed, dtype, (3,)))
    step = _step(prog, dtype, 2)

    def f(a, b, x):
        def cond(c):
            i, u, v = c
            return (i < limit) & ~(u == v + v)  # (an exit that depends on the values too)

        def body(c):
            i, u, v = c
            (u, v), _ = step((u, v), x)
            return i + 1, u, v

        return lax.while_loop(cond, body, (0, a, b))

    with np.errstate(all="ignore"):
        got, python, array = _three_ways(native, f, a, b, x)
    _expect_native(native)
    _assert_bits(got, python, array)


def test_integer_wrapping_bit_equal(native):
    def f(c):
        def step(c, _):
            i, j, k = c
            return (i * np.int32(65599) + np.int32(2 ** 30), -j - np.int8(100), k * k + np.uint16(40000)), i

        return lax.scan(step, c, None, length=20)

    init = (fnp.asarray(np.int32(7)), fnp.asarray(np.int8(-128)), fnp.asarray(np.uint16(65535)))
    got, python, array = _three_ways(native, f, init)
    _expect_native(native, 1)
    _assert_bits(got, python, array)


def test_while_loop_longer_than_one_native_call(native, monkeypatch):
    """A loop running past `WHILE_BUDGET` iterations continues from the carry of the call."""
    monkeypatch.setattr(native_loops, "WHILE_BUDGET", 7)

    def f(x):
        return lax.while_loop(lambda c: c[0] < 100, lambda c: (c[0] + 1, c[1] * np.float32(1.01)), (0, x))

    got, python, array = _three_ways(native, f, fnp.asarray(np.float32(1.0)))
    _expect_native(native, 1)
    _assert_bits(got, python, array)
    assert int(got[0]) == 100


# ------------------------------------------------------------------------ the math functions

def _all_spellings():
    out = []
    for dt in (np.float32, np.float64):
        out += [(name, np.dtype(dt)) for name in sorted(native_loops._FLOAT_FUNCS)]
    for dt in (np.int8, np.int32, np.int64, np.uint16):
        out += [(name, np.dtype(dt)) for name in sorted(native_loops._INT_FUNCS)]
    return out + [(name, np.dtype(np.bool_)) for name in sorted(native_loops._BOOL_FUNCS)]


@needs_cc
@pytest.mark.parametrize("name,dtype", _all_spellings(), ids=lambda x: str(x))
def test_calibrated_functions_are_bit_equal_to_numpy(name, dtype):
    """Where the generator writes a function in C, it has NumPy's bits on values it was not
    calibrated on (another seed); the exact IEEE operations are always written."""
    ok = native_loops.calibrated(name, dtype)
    if name in ("sqrt", "absolute", "floor", "ceil", "trunc", "rint", "square", "maximum", "minimum",
                "fmax", "fmin", "invert") or dtype.kind == "b":
        assert ok, (name, dtype)
    if not ok:
        assert native_loops.spelling(getattr(np, name), dtype) is None
        return
    lib = native_loops.load(native_loops._probe_source(dtype))
    a = native_loops.probe_values(dtype, 1 << 16, seed=12345)
    b = np.random.default_rng(7).permutation(a)
    ufunc = getattr(np, name)
    with np.errstate(all="ignore"):
        want = ufunc(a, b) if ufunc.nin == 2 else ufunc(a)
    got = np.empty_like(a)
    getattr(lib, f"probe_{name}")(ctypes.c_void_p(a.ctypes.data), ctypes.c_void_p(b.ctypes.data),
                                  ctypes.c_void_p(got.ctypes.data), ctypes.c_long(a.size))
    assert native_loops.same_bits(got, want)


@needs_cc
def test_a_spelling_with_other_bits_is_refused(monkeypatch):
    """The calibration is what keeps a C function out: a spelling that is off by one ulp
    somewhere (here: sqrt written as ``sqrt(x) + tiny``) is refused."""
    monkeypatch.setitem(native_loops._FLOAT_FUNCS, "sqrt", "(sqrt{f}({0}) * (1 + 1e-7{f}))")
    monkeypatch.setattr(native_loops, "_calibration", {})
    assert not native_loops.calibrated("sqrt", np.dtype(np.float32))
    assert native_loops.spelling(np.sqrt, np.dtype(np.float32)) is None


def test_literal_keeps_every_bit():
    assert native_loops.literal(-0.0, np.dtype(np.float32)) == "F32(0x80000000u)"
    assert native_loops.literal(0.1, np.dtype(np.float64)) == "F64(0x3fb999999999999aull)"
    assert native_loops.literal(-1, np.dtype(np.int8)) == "((int8_t)0xffull)"
    assert native_loops.literal(True, np.dtype(np.bool_)) == "((uint8_t)0x1ull)"


# ---------------------------------------------------------------- fallbacks, switch, security

def _fresh_state(monkeypatch, **state):
    monkeypatch.setattr(native_loops, "_state", dict(state))
    monkeypatch.setattr(native_loops, "_libs", {})
    monkeypatch.setattr(native_loops, "_calibration", {})


def test_without_a_compiler_the_python_code_runs(native, monkeypatch):
    monkeypatch.setattr(native_loops.shutil, "which", lambda name: None)
    _fresh_state(monkeypatch)
    got, python, array = _three_ways(native, rk4_loss(fnp, lax, 50), fnp.asarray(np.float32(2.0)),
                                     fnp.asarray(np.array([1.0, 0.0], np.float32)))
    assert not any(native)
    _assert_bits(got, python, array)


def test_a_failing_compiler_falls_back(native, monkeypatch, tmp_path):
    cc = tmp_path / "cc"
    cc.write_text("#!/bin/sh\necho 1\nexit 1\n")  # answers -dumpversion... with failure
    cc.chmod(0o700)
    _fresh_state(monkeypatch, cc=(str(cc), "1"), dir=native_loops.cache_dir())
    got, python, array = _three_ways(native, while_bisect(fnp, lax), fnp.asarray(np.float32(5.0)))
    assert not any(native)
    _assert_bits(got, python, array)


def test_switch_off_takes_effect_on_compiled_loops(native, monkeypatch):
    f = fgrad.jit(rk4_loss(fnp, lax, 20))
    args = (fnp.asarray(np.float32(2.0)), fnp.asarray(np.array([1.0, 0.0], np.float32)))
    want = f(*args)
    calls = []
    monkeypatch.setattr(native_loops, "flag", lambda name: calls.append(name) or False)
    _assert_bits(f(*args), want)
    if ON_HOST and HAS_CC:
        assert calls == ["native_loops"]  # asked, and the Python code ran


def test_environment_switch():
    code = "import fgrad; print(fgrad.config.read('native_loops'))"
    for value, want in (("0", "False"), ("1", "True"), ("", "True")):
        env = {**os.environ, "FGRAD_NATIVE_LOOPS": value}
        out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                             check=True, cwd=os.path.dirname(os.path.dirname(__file__)))
        assert out.stdout.strip() == want


def test_cache_directory_is_private(monkeypatch, tmp_path):
    path = tmp_path / "made" / "here"
    monkeypatch.setenv("FGRAD_NATIVE_CACHE", str(path))
    _fresh_state(monkeypatch)
    assert native_loops.cache_dir() == str(path)
    assert stat.S_IMODE(os.lstat(path).st_mode) == 0o700
    # a directory others can write to is not used
    open_dir = tmp_path / "open"
    open_dir.mkdir()
    open_dir.chmod(0o777)
    monkeypatch.setenv("FGRAD_NATIVE_CACHE", str(open_dir))
    _fresh_state(monkeypatch)
    assert native_loops.cache_dir() is None
    assert native_loops.load("int run_loop(void) { return 1; }\n") is None
    # nor a link to a directory
    link = tmp_path / "link"
    link.symlink_to(path)
    monkeypatch.setenv("FGRAD_NATIVE_CACHE", str(link))
    _fresh_state(monkeypatch)
    assert native_loops.cache_dir() is None


@needs_cc
def test_libraries_are_named_by_source_and_replaced_when_not_trusted(monkeypatch, tmp_path):
    monkeypatch.setenv("FGRAD_NATIVE_CACHE", str(tmp_path / "c"))
    _fresh_state(monkeypatch)
    src = "int run_loop(void) { return 41; }\n"
    assert native_loops.load(src).run_loop() == 41
    (so,) = os.listdir(tmp_path / "c")
    assert so.endswith(".so") and len(so) == 64 + 3
    assert not stat.S_IMODE(os.lstat(tmp_path / "c" / so).st_mode) & 0o077
    # a file others could have written is compiled again, not loaded
    (tmp_path / "c" / so).chmod(0o666)
    _fresh_state(monkeypatch)
    assert native_loops.load(src).run_loop() == 41
    assert not stat.S_IMODE(os.lstat(tmp_path / "c" / so).st_mode) & 0o022


@pytest.mark.parametrize("src", [np.bool_, np.int8, np.uint8, np.int32, np.uint32, np.int64, np.uint64,
                                 np.float32, np.float64])
def test_converts_bit_equal(native, src):
    """Widening converts as C casts: every integer width to float32 and float64 (rounding
    to nearest even, as NumPy's casts), float32 <-> float64, bool to integers."""
    rng = np.random.default_rng(3)
    if np.dtype(src).kind == "b":
        vals = rng.integers(0, 2, 16).astype(bool)
    elif np.dtype(src).kind == "f":
        vals = native_loops.probe_values(np.dtype(src), 8, seed=3)[:32]
    else:
        ii = np.iinfo(src)
        vals = np.concatenate([rng.integers(ii.min, ii.max, 24, dtype=src, endpoint=True),
                               np.array([ii.min, ii.max, 0, (1 << 24) + 1 if ii.max > 1 << 25 else 1], src)])
    targets = [np.float32, np.float64] + ([np.int16, np.int64] if np.dtype(src).kind == "b" else [])

    def f(xs):
        def step(c, x):
            outs = tuple(x.astype(t) for t in targets)
            return c, outs

        return lax.scan(step, fnp.asarray(np.float32(0)), xs)

    with np.errstate(all="ignore"):
        got, python, array = _three_ways(native, f, fnp.asarray(vals))
    _expect_native(native, 1)
    _assert_bits(got, python, array)
    for out, t in zip(got[1], targets if ON_HOST else []):  # (a device may flush subnormals)
        with np.errstate(all="ignore"):
            assert native_loops.same_bits(np.asarray(out), vals.astype(t))


@needs_cc
def test_cache_keeps_at_most_max_cached_libraries(monkeypatch, tmp_path):
    monkeypatch.setenv("FGRAD_NATIVE_CACHE", str(tmp_path / "c"))
    monkeypatch.setattr(native_loops, "MAX_CACHED", 5)
    _fresh_state(monkeypatch)
    for k in range(6):
        assert native_loops.load(f"int run_loop(void) {{ return {k}; }}\n").run_loop() == k
    assert len(os.listdir(tmp_path / "c")) == 4  # pruned to 4/5 of the bound at the sixth
    _fresh_state(monkeypatch)  # a pruned library is compiled again
    assert native_loops.load("int run_loop(void) { return 0; }\n").run_loop() == 0
