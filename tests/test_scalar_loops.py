"""Loops over tiny states as generated code on NumPy scalars (`fgrad.core.scalar_loops`,
docs/speed-loops.md, session 15).

The scalar code must compute what the array code computes, bit for bit and dtype for dtype:
each test runs the same function with the scalar path on and off (``MAX_ELEMENTS = 0``
turns it off: every value is then too large), eagerly and under `jit`, and checks the scalar
path was taken.  The workloads are checked against JAX (stored numbers, and live when
installed) and their gradients against finite differences.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.backends import NUMPY, default_backend
from fgrad.core import scalar_loops
from fgrad.ops import control_flow
from fgrad.test_util import check_grads

from benchmarks.cases.loops import kalman_nll, rk4_loss, while_bisect  # the benchmarked workloads


# with a device as the default (``FGRAD_BACKEND=fake``) loops run on device arrays: never
# on NumPy scalars (`_scan_impl` takes the host code only for NumPy); the values must agree
ON_HOST = default_backend() is NUMPY


class _Taken(list):
    """Per generated loop (scan) or joined while step, whether it runs on NumPy scalars."""

    def all(self, n: int | None = None) -> bool:
        """Each loop took the scalar code (and there were ``n``); on a device, where only
        the values are compared, always true (`test_device_arrays_take_the_array_code`)."""
        if not ON_HOST:
            return True
        return bool(self) and all(self) and (n is None or len(self) == n)

    def some(self) -> bool:
        """At least one loop took the scalar code (on a device: always true)."""
        return not ON_HOST or any(self)


@pytest.fixture
def taken(monkeypatch):
    """Records, per generated loop, whether it runs on NumPy scalars."""
    seen = _Taken()
    scan, loop = control_flow.scalar_scan, control_flow.scalar_while

    def scalar_scan(*args):
        run = scan(*args)
        seen.append(run is not None)
        return run

    def scalar_while(*args):
        run = loop(*args)
        seen.append(run is not None)
        return run

    monkeypatch.setattr(control_flow, "scalar_scan", scalar_scan)
    monkeypatch.setattr(control_flow, "scalar_while", scalar_while)
    return seen


def _array_path(f, *args):
    """``fgrad.jit(f)(*args)`` with the scalar loops off, on a trace of its own (a loop's
    generated code is cached with its traced body)."""
    old = scalar_loops.MAX_ELEMENTS
    scalar_loops.MAX_ELEMENTS = 0
    try:
        return _jit(f)(*args)
    finally:
        scalar_loops.MAX_ELEMENTS = old


def _jit(f):
    """``fgrad.jit`` of a new function object (a trace of its own)."""
    return fgrad.jit(lambda *args: f(*args))


def _assert_identical(got, want):
    got, want = fgrad.tree_util.tree_leaves(got), fgrad.tree_util.tree_leaves(want)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        g, w = np.asarray(g), np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
        np.testing.assert_array_equal(g, w)


K32, Y32 = np.float32(2.0), np.array([1.0, 0.0], np.float32)
# JAX 0.10.2 (x64 off): jax.jit(jax.value_and_grad(rk4_loss(jnp, jax.lax, 1000)))(K32, Y32)
JAX_RK4 = (0.7372362613677979, 0.2856532037258148)


def test_rk4_scan_and_gradient_equal_the_array_code(taken):
    loss = rk4_loss(fnp, lax, 1000)
    k, y0 = fnp.asarray(K32), fnp.asarray(Y32)
    for f in (loss, fgrad.value_and_grad(loss)):
        want = _array_path(f, k, y0)
        del taken[:]
        got = _jit(f)(k, y0)
        assert taken.all()  # the forward scan (and the gradient's reverse scan)
        _assert_identical(got, want)
        _assert_identical(f(k, y0), want)  # eager: the same loops


def test_rk4_against_jax():
    f = fgrad.jit(fgrad.value_and_grad(rk4_loss(fnp, lax, 1000)))
    value, grad = f(fnp.asarray(K32), fnp.asarray(Y32))
    assert value.dtype == grad.dtype == np.float32
    # XLA fuses and reorders the float32 arithmetic: a few ulps per step over 1,000 steps
    np.testing.assert_allclose([float(value), float(grad)], JAX_RK4, rtol=1e-5)
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    with jax.enable_x64(False):
        want = jax.jit(jax.value_and_grad(rk4_loss(jnp, jax.lax, 1000)))(K32, Y32)
    np.testing.assert_allclose([float(value), float(grad)], [float(w) for w in want], rtol=1e-5)


def test_rk4_gradient_matches_finite_differences(taken):
    """float64 (fgrad's default here): first and second order, both modes."""
    loss = rk4_loss(fnp, lax, 50)
    check_grads(lambda k: loss(k, fnp.asarray([1.0, 0.0])), (fnp.asarray(2.0),), order=2,
                modes=("fwd", "rev"))
    assert taken.some()


def test_vmap_of_the_loop_equals_a_python_loop(taken):
    g = fgrad.jit(fgrad.vmap(fgrad.value_and_grad(rk4_loss(fnp, lax, 200)), in_axes=(0, None)))
    ks = np.array([0.5, 1.0, 2.0, 3.0], np.float32)
    values, grads = g(fnp.asarray(ks), fnp.asarray(Y32))
    assert taken.all()  # (4, 2) carries: still tiny
    one = fgrad.jit(fgrad.value_and_grad(rk4_loss(fnp, lax, 200)))
    for j, k in enumerate(ks):
        v, d = one(fnp.asarray(k), fnp.asarray(Y32))
        assert np.asarray(values)[j] == np.asarray(v) and np.asarray(grads)[j] == np.asarray(d)


ZS = np.cumsum(0.1 + 0.3 * np.random.default_rng(0).standard_normal(40)).astype(np.float32)
# JAX 0.10.2 (x64 off): jax.jit(jax.value_and_grad(kalman_nll(jnp, jax.lax)))(0.1f, ZS)
JAX_KALMAN = (8.951122283935547, 53.35190963745117)


def test_kalman_filter_gradient(taken):
    f = fgrad.value_and_grad(kalman_nll(fnp, lax))
    q, zs = fnp.asarray(np.float32(0.1)), fnp.asarray(ZS)
    want = _array_path(f, q, zs)
    del taken[:]
    got = _jit(f)(q, zs)
    assert taken.all()
    _assert_identical(got, want)
    np.testing.assert_allclose([float(g) for g in got], JAX_KALMAN, rtol=1e-5)
    check_grads(kalman_nll(fnp, lax), (fnp.asarray(0.1), fnp.asarray(ZS.astype(np.float64))), order=1,
                modes=("rev",))
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    with jax.enable_x64(False):
        live = jax.jit(jax.value_and_grad(kalman_nll(jnp, jax.lax)))(np.float32(0.1), ZS)
    np.testing.assert_allclose([float(g) for g in got], [float(x) for x in live], rtol=1e-5)


# JAX 0.10.2 (x64 off): jax.jit(while_bisect(jnp, jax.lax))(np.float32(5.0))
JAX_BISECT = (1.7099759578704834, 23)


def test_while_loop_with_scalar_carries(taken):
    f = while_bisect(fnp, lax)
    a = fnp.asarray(np.float32(5.0))
    want = _array_path(f, a)
    del taken[:]
    got = _jit(f)(a)
    assert taken.all(1)
    _assert_identical(got, want)
    _assert_identical(f(a), want)
    np.testing.assert_allclose(float(got[0]), JAX_BISECT[0], rtol=1e-6)
    assert int(got[1]) == JAX_BISECT[1]
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    with jax.enable_x64(False):
        live = jax.jit(while_bisect(jnp, jax.lax))(np.float32(5.0))
    np.testing.assert_allclose(float(got[0]), float(live[0]), rtol=1e-6)
    assert int(got[1]) == int(live[1])


def test_while_loop_that_does_not_run(taken):
    """A loop whose condition is false at once returns its initial carry (the condition is
    tested before the body, whose hoisted constant part runs even so, silently)."""
    def f(v, k):
        return lax.while_loop(lambda s: s[1] >= 0,
                              lambda s: (s[0] * s[1].astype(s[0].dtype) + 1 / v, s[1] - 1), (v, k))

    for v, k in ((0.5, 3), (0.5, -1), (0.0, -1)):
        want = _array_path(f, fnp.asarray(v), fnp.asarray(k))
        del taken[:]
        got = _jit(f)(fnp.asarray(v), fnp.asarray(k))
        assert taken.all(1)
        _assert_identical(got, want)
    assert float(got[0]) == 0.0 and int(got[1]) == -1


def test_scalar_fori_loops(taken):
    def f(a):
        root = lax.fori_loop(0, 30, lambda i, x: 0.5 * (x + a / x), a)
        fixed = lax.fori_loop(0, 30, lambda i, x: fnp.cos(x), a)
        count = lax.fori_loop(0, 30, lambda i, c: c + i * i, 0)
        return root, fixed, count

    for a in (np.float32(2.0), 2.0):
        want = _array_path(f, fnp.asarray(a))
        del taken[:]
        got = _jit(f)(fnp.asarray(a))
        assert taken.all()
        _assert_identical(got, want)
        assert got[2] == sum(i * i for i in range(30))


@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_every_supported_kind_of_equation(taken, dtype):
    """Element moves (pad, concatenate, transpose, rev, reshape, broadcast, slices, static
    indexing), ufunc operators and calls, where, converts, comparisons, a reverse scan with
    several ys, a passed-through carry and a literal y: the same values and dtypes."""
    floating = np.dtype(dtype).kind == "f"

    def step(c, x):
        a, b, n = c
        m = fnp.concatenate([a[::-1], fnp.pad(b[:1], (1, 0))]).reshape(2, 2).T
        e = m * x[0] - m[:, :1] + fnp.broadcast_to(b[1], (2, 2))
        if floating:
            e = fnp.where(e > 0, fnp.sin(e) / (1 + e * e), fnp.exp(-e * e))
            f = e.astype(np.float32).astype(np.float64)
        else:
            e = fnp.where(e > 0, e // 3 - e % 5, e * e)
            f = e.astype(np.float64)
        return (e[0], e[:, 1], n + 1), (f, e.ravel()[::3], n * 0, x[1] < x[0])

    xs = np.random.default_rng(1).uniform(-2, 2, (9, 2))
    if not floating:
        xs = xs * 3
    args = (np.array([0.5, -1.0]), np.array([0.25, 2.0]), np.int32(0))
    args = tuple(fnp.asarray(np.asarray(a, dtype if k < 2 else np.int32)) for k, a in enumerate(args))
    xs = fnp.asarray(xs.astype(dtype))
    for reverse in (False, True):
        def f(c, xs, reverse=reverse):
            return lax.scan(step, c, xs, reverse=reverse)

        want = _array_path(f, args, xs)
        del taken[:]
        got = _jit(f)(args, xs)
        assert taken.all(1)
        _assert_identical(got, want)
        _assert_identical(f(args, xs), want)


def test_integer_wrap_and_float_overflow_without_warnings(taken):
    def step(c, _):
        i, x = c
        return (i + np.int32(2 ** 30), x * np.float32(1e30)), i

    init = (fnp.asarray(np.int32(1)), fnp.asarray(np.float32(3.0)))
    want = _array_path(lambda c: lax.scan(step, c, None, length=5), init)
    del taken[:]
    got = _jit(lambda c: lax.scan(step, c, None, length=5))(init)
    assert taken.all(1)
    _assert_identical(got, want)
    assert np.isinf(np.asarray(got[0][1])) and int(got[0][0]) == np.int32(1 + 5 * 2 ** 30 - 2 ** 32)


def test_large_or_unsupported_bodies_keep_the_array_code(taken):
    """A 100-element carry, a body with a matmul, an expensive call per element on a
    64-element carry (64 scalar calls cost more than one array call) and an empty carry are
    not scalarized."""
    w = fnp.asarray(np.eye(2))
    fgrad.jit(lambda c: lax.scan(lambda c, _: (c * 0.5, None), c, None, length=3))(fnp.ones(100))
    fgrad.jit(lambda c: lax.scan(lambda c, _: (w @ c, None), c, None, length=3))(fnp.ones(2))
    fgrad.jit(lambda c: lax.scan(lambda c, _: (fnp.sin(c), None), c, None, length=3))(fnp.ones(64))
    assert not any(taken)
    # an empty value (no element to name) also keeps the array code, with its values
    c, ys = fgrad.jit(lambda c: lax.scan(lambda c, _: ((c[0] + 1.0, c[1] * 2), c[1]), c, None, length=3))(
        (fnp.asarray(1.0), fnp.zeros((0,))))
    assert taken[-1:] == [False] or not ON_HOST
    assert float(c[0]) == 4.0 and c[1].shape == (0,) and ys.shape == (3, 0)


def test_generated_source_is_per_element():
    """The structural equations cost nothing: an RK4 step of a 2-vector is lines of scalar
    operators, no calls, inside one ``for`` loop."""
    jx = fgrad.make_jaxpr(lambda y: lax.scan(lambda y, _: (fnp.stack([y[1], -y[0]]) * 0.5 + y, None),
                                              y, None, length=4))(fnp.asarray(Y32))
    body = jx.eqns[0].params["body"]
    run = body.host_scan(0, 1, 4, False)
    loop = run.source.split("for i in range(4):")[1].split("return")[0]
    assert "(" not in loop and loop.count("\n") == 7  # 6 operators and the carry's rebinding
    got = run([np.array([1.0, 2.0], np.float32)])[0]
    y = np.array([1.0, 2.0], np.float32)
    for _ in range(4):
        y = np.stack([y[1], -y[0]]) * np.float32(0.5) + y
    _assert_identical(got, y)


@pytest.mark.skipif(ON_HOST, reason="a device as the default (FGRAD_BACKEND=fake)")
def test_device_arrays_take_the_array_code(taken):
    """Device arrays never become NumPy scalars: the scan and its gradient's reverse scan run
    on the device, and give the host's values."""
    loss = fgrad.value_and_grad(rk4_loss(fnp, lax, 100))
    got = _jit(loss)(fnp.asarray(K32), fnp.asarray(Y32))
    assert not any(taken)
    host = fgrad.devices("cpu")[0]
    want = _jit(loss)(fgrad.device_put(K32, host), fgrad.device_put(Y32, host))
    for g, w in zip(got, want):
        np.testing.assert_allclose(np.asarray(fgrad.device_get(g)), np.asarray(w), rtol=1e-6)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_division_by_zero_nan_and_bools(taken, dtype):
    """float64 values are held as Python floats: division by zero (which Python refuses)
    gives NumPy's inf and nan, NaN compares false, and comparisons' bools combine as NumPy's
    (``+`` of bools is logical or, not 2)."""
    def step(c, x):
        q = c / x
        both = (q > 0) & (x != x + 0)  # x != x: NaN only
        either = fnp.logical_or(q > 1, x < 0) + (q == q)
        return c + 1, (q, -c / x, both, either, fnp.where(either, q, x))

    xs = fnp.asarray(np.array([0.0, -0.0, 2.0, np.nan, -3.0, np.inf], dtype))
    init = fnp.asarray(np.asarray(0.0, dtype))
    f = lambda c, xs: lax.scan(step, c, xs)  # noqa: E731
    want = _array_path(f, init, xs)
    del taken[:]
    got = _jit(f)(init, xs)
    assert taken.all(1)
    _assert_identical(got, want)
    q = np.asarray(got[1][0])
    assert np.isnan(q[0]) and q[1] == -np.inf and q[2] == 1.0  # 0/0, 1/-0, 2/2


def test_long_steps_keep_the_array_code(taken, monkeypatch):
    """A step longer than `MAX_LINES` (whose source would cost the first call more to
    compile) keeps the array code, with the same values."""
    loss = rk4_loss(fnp, lax, 10)
    want = _jit(loss)(fnp.asarray(K32), fnp.asarray(Y32))
    monkeypatch.setattr(scalar_loops, "MAX_LINES", 20)
    del taken[:]
    got = _jit(loss)(fnp.asarray(K32), fnp.asarray(Y32))
    assert taken == [False] or not ON_HOST
    _assert_identical(got, want)
