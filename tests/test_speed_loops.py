"""Loops under `jit` without per-iteration overhead (docs/speed-loops.md):

* the scan JVP leaves symbolic-zero tangents (of loop constants and xs) out of the step, so
  reverse mode through a scan computes no ``zeros @ W`` per step and saves no such residual;
* `scan` writes each step's ys into preallocated stacked outputs (no list + ``np.stack``);
* loops call their bodies' generated host functions directly, under one switch of NumPy's
  error state;
* the straight-line executor writes 0-d binary ufuncs on NumPy scalars (a loop counter, a
  convergence test) as Python operators, which NumPy computes the same way;
* ``reduce_max``/``reduce_min`` on the host call ``np.maximum.reduce``/``np.minimum.reduce``.

Each is checked for what it must not change (values, dtypes, weak types, 32-bit mode,
integer wrap-around, NaN) against eager evaluation, plain Python/NumPy loops and JAX (live
when installed, stored numbers otherwise), and for the structure that makes it fast.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core.executor import straight_line
from fgrad.ops import control_flow
from fgrad.testing.device_numerics import assert_equal_up_to_device_ulps

RNG = np.random.default_rng(3)
W = (RNG.standard_normal((5, 5)) * 0.3).astype(np.float32)
U = (RNG.standard_normal((3, 5)) * 0.3).astype(np.float32)
XS = RNG.standard_normal((7, 2, 3)).astype(np.float32)


def _rnn_loss(m, lax_):
    def loss(w, u, xs):
        def cell(h, x):
            h = m.tanh(h @ w + x @ u)
            return h, m.sum(h ** 2)

        _, per_step = lax_.scan(cell, m.zeros((xs.shape[1], w.shape[0]), xs.dtype), xs)
        return m.sum(per_step)

    return loss


def _rnn_loss_numpy(w, u, xs):
    """The same loss and its gradient in float64 NumPy, by hand (backpropagation through time)."""
    w, u, xs = (np.asarray(a, np.float64) for a in (w, u, xs))
    h = np.zeros((xs.shape[1], w.shape[0]))
    hs, total = [h], 0.0
    for x in xs:
        h = np.tanh(h @ w + x @ u)
        hs.append(h)
        total += np.sum(h ** 2)
    gw, gu, gh = np.zeros_like(w), np.zeros_like(u), np.zeros_like(h)
    for t in range(len(xs) - 1, -1, -1):
        h_new = hs[t + 1]
        g = (gh + 2 * h_new) * (1 - h_new ** 2)
        gw += hs[t].T @ g
        gu += xs[t].T @ g
        gh = g @ w.T
    return total, gw, gu


def _scan_bodies(jaxpr):
    """The scans' bodies as their loops run them (simplified: dead code dropped)."""
    return [control_flow._simplified(e.params["body"].jaxpr) for e in jaxpr.eqns
            if e.prim.name == "scan"]


def _count(jaxpr, name):
    return sum(e.prim.name == name for e in jaxpr.eqns)


def test_reverse_mode_computes_nothing_for_the_zero_tangent_of_xs():
    """The gradient with respect to the weights only: the primal (forward) scan body has the
    step's two matmuls, not a third ``zeros @ u`` for the xs's zero tangent."""
    jaxpr = fgrad.make_jaxpr(fgrad.value_and_grad(_rnn_loss(fnp, lax), argnums=(0, 1)))(W, U, XS)
    forward, backward = _scan_bodies(jaxpr)
    assert _count(forward, "dot_general") == 2, str(forward)
    # the forward scan takes no stacked zeros for the tangent of xs: its xs are the primal xs only
    scan_eqn = next(e for e in jaxpr.eqns if e.prim.name == "scan")
    n_xs = len(scan_eqn.invars) - scan_eqn.params["n_consts"] - scan_eqn.params["n_carry"]
    assert n_xs == 1
    assert _count(backward, "dot_general") == 3, str(backward)  # dh, dW, dU


@pytest.mark.parametrize("jit", [False, True])
def test_rnn_gradient_matches_backpropagation_by_hand(jit):
    f = fgrad.value_and_grad(_rnn_loss(fnp, lax), argnums=(0, 1))
    if jit:
        f = fgrad.jit(f)
    value, (gw, gu) = f(W, U, XS)
    ref_value, ref_gw, ref_gu = _rnn_loss_numpy(W, U, XS)
    assert value.dtype == np.float32 and gw.dtype == np.float32
    np.testing.assert_allclose(float(value), ref_value, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(gw), ref_gw, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(np.asarray(gu), ref_gu, rtol=1e-4, atol=1e-5)


def test_gradient_with_respect_to_xs_too():
    """With a tangent for xs the step keeps its ``dx @ u`` term: d/dxs by hand (finite
    differences of the float64 loss)."""
    f = fgrad.jit(fgrad.grad(_rnn_loss(fnp, lax), argnums=2))
    g = np.asarray(f(W.astype(np.float64), U.astype(np.float64), XS.astype(np.float64)))
    eps = 1e-6
    for idx in [(0, 0, 0), (3, 1, 2), (6, 0, 1)]:
        xp, xm = XS.astype(np.float64), XS.astype(np.float64)
        xp[idx] += eps
        xm[idx] -= eps
        fd = (_rnn_loss_numpy(W, U, xp)[0] - _rnn_loss_numpy(W, U, xm)[0]) / (2 * eps)
        np.testing.assert_allclose(g[idx], fd, rtol=1e-6, atol=1e-8)


def test_jvp_with_a_zero_constant_tangent():
    """Forward mode where a closed-over constant has a symbolic-zero tangent and the carry
    does not: the tangent scan still carries the carry's tangent."""
    def f(h0):
        return lax.scan(lambda h, x: (fnp.sin(h) * x, h * 2.0), h0, fnp.arange(1.0, 4.0))

    (c, ys), (tc, tys) = fgrad.jvp(f, (0.5,), (1.0,))
    h, dh, ref_ys, ref_tys = 0.5, 1.0, [], []
    for x in (1.0, 2.0, 3.0):
        ref_ys.append(h * 2.0)
        ref_tys.append(dh * 2.0)
        h, dh = np.sin(h) * x, np.cos(h) * x * dh
    np.testing.assert_allclose(float(c), h, rtol=1e-14)
    np.testing.assert_allclose(float(tc), dh, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(ys), ref_ys, rtol=1e-14)
    np.testing.assert_allclose(np.asarray(tys), ref_tys, rtol=1e-14)


# ------------------------------------------------------------------------- stacked ys


def test_scan_does_not_stack_a_list_of_steps(monkeypatch):
    """ys are written into preallocated outputs; ``np.stack`` (a list of every step's arrays,
    then one more copy) is not called."""
    def no_stack(*args, **kwargs):
        raise AssertionError("scan called np.stack")

    f = fgrad.jit(lambda xs: lax.scan(lambda c, x: (c + x, (c * x, x.astype(np.int32))), 0.0, xs))
    xs = fnp.arange(5.0)
    monkeypatch.setattr(np, "stack", no_stack)
    c, (a, b) = f(xs)
    monkeypatch.undo()
    np.testing.assert_array_equal(np.asarray(a), [0.0, 0.0, 2.0, 9.0, 24.0])
    assert b.dtype == np.int32 and c.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(b), np.arange(5))


@pytest.mark.parametrize("reverse", [False, True])
@pytest.mark.parametrize("jit", [False, True])
def test_scan_pytrees_ints_and_weak_types_match_a_python_loop(reverse, jit):
    """Pytree carry and ys, an int counter, a weak float carry started from a Python float,
    ys that alias the carry and the step's x: the same values and dtypes as a Python loop."""
    def step(carry, x):
        acc, (k, m) = carry
        acc = acc + x["a"] * m
        return (acc, (k + 1, m * 0.5)), {"acc": acc, "k": k, "x": x["a"], "b": x["b"] > 0}

    xs = {"a": fnp.asarray(RNG.standard_normal((6, 2))), "b": fnp.asarray(np.arange(6) - 2)}
    run = (lambda xs: lax.scan(step, (fnp.zeros(2), (0, 1.0)), xs, reverse=reverse))
    (acc, (k, m)), ys = (fgrad.jit(run) if jit else run)(xs)
    a = np.asarray(xs["a"])
    order = range(5, -1, -1) if reverse else range(6)
    r_acc, r_k, r_m = np.zeros(2), 0, 1.0
    r_ys = {"acc": np.zeros((6, 2)), "k": np.zeros(6, np.int64), "x": a, "b": np.arange(6) - 2 > 0}
    for i in order:
        r_acc = r_acc + a[i] * r_m
        r_ys["acc"][i], r_ys["k"][i] = r_acc, r_k
        r_k, r_m = r_k + 1, r_m * 0.5
    np.testing.assert_array_equal(np.asarray(acc), r_acc)
    assert int(k) == 6 and float(m) == r_m
    assert k.dtype == np.int64 and k.weak_type and m.weak_type and not acc.weak_type
    for key in r_ys:
        np.testing.assert_array_equal(np.asarray(ys[key]), r_ys[key])
        assert ys[key].dtype == r_ys[key].dtype, key


def test_scan_of_length_zero_and_fori_loop():
    c, ys = fgrad.jit(lambda xs: lax.scan(lambda c, x: (c + x, x * 2), fnp.ones(3), xs))(fnp.zeros((0, 3)))
    assert ys.shape == (0, 3) and float(np.asarray(c).sum()) == 3.0
    out = fgrad.jit(lambda x: lax.fori_loop(0, 4, lambda i, c: (c[0] * 2 + i, c[1] + 1), (x, 0)))(1.0)
    assert float(out[0]) == 2 * (2 * (2 * (2 * 1 + 0) + 1) + 2) + 3 and int(out[1]) == 4


# -------------------------------------------------------------------- while_loop bodies


def _newton(m, lax_):
    def cube_root(a):
        def cond(state):
            x, i = state
            return (m.max(m.abs(x ** 3 - a)) > 1e-5) & (i < 50)

        def body(state):
            x, i = state
            return x - (x ** 3 - a) / (3 * x ** 2), i + 1

        return lax_.while_loop(cond, body, (m.ones_like(a) * 2, 0))

    return cube_root


def _newton_numpy(a):
    """The loop in NumPy, with the powers as the products jit's passes make of them."""
    x, i = np.ones_like(a) * 2, 0
    while np.max(np.abs(x * x * x - a)) > np.float32(1e-5) and i < 50:
        x, i = x - (x * x * x - a) / (np.float32(3) * (x * x)), i + 1
    return x, i


A32 = np.random.default_rng(0).uniform(1, 8, 100).astype(np.float32)
# JAX 0.10.2, jax.jit(cube_root) on A32 (x64 off): the iteration count and three roots
JAX_NEWTON_ITERS = 5
JAX_NEWTON_ROOTS = {0: 1.7607481479644775, 17: 1.6857198476791382, 99: 1.8904988765716553}


@pytest.mark.parametrize("x64", [True, False])
def test_newton_while_loop_matches_numpy_and_jax(x64):
    fgrad.config.update("jax_enable_x64", x64)
    try:
        x, i = fgrad.jit(_newton(fnp, lax))(fnp.asarray(A32))
        eager_x, eager_i = _newton(fnp, lax)(fnp.asarray(A32))
    finally:
        fgrad.config.update("jax_enable_x64", True)
    ref_x, ref_i = _newton_numpy(A32)
    assert x.dtype == np.float32 and i.dtype == (np.int64 if x64 else np.int32) and i.weak_type
    assert int(i) == ref_i == int(eager_i) == JAX_NEWTON_ITERS
    np.testing.assert_array_equal(np.asarray(x), ref_x)
    np.testing.assert_array_equal(np.asarray(x), np.asarray(eager_x))
    for k, v in JAX_NEWTON_ROOTS.items():
        np.testing.assert_allclose(float(x[k]), v, rtol=2e-7)


def test_newton_matches_live_jax():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    with jax.enable_x64(False):
        jx, ji = jax.jit(_newton(jnp, jax.lax))(jnp.asarray(A32))
        jx, ji = np.asarray(jx), int(ji)
    x, i = fgrad.jit(_newton(fnp, lax))(fnp.asarray(A32))
    assert int(i) == ji
    np.testing.assert_allclose(np.asarray(x), jx, rtol=2e-7)


def test_while_loop_counter_wraps_around_like_numpy():
    """An int32 counter past its maximum wraps (NumPy's and XLA's integer arithmetic), also
    where the body's ``+`` runs as an operator on NumPy scalars."""
    top = np.iinfo(np.int32).max - 2
    f = fgrad.jit(lambda k: lax.while_loop(lambda s: s[1] < 5, lambda s: (s[0] + 1, s[1] + 1),
                                           (k, 0)))
    k, n = f(fnp.asarray(np.int32(top)))
    with np.errstate(over="ignore"):
        expected = np.array(top, np.int32) + np.array(5, np.int32)
    assert k.dtype == np.int32 and int(n) == 5
    assert int(k) == int(expected) < 0


# ------------------------------------------------------------ executor: 0-d operators


def _host_source(fun, *avals):
    jaxpr = fgrad.make_jaxpr(fun)(*avals)
    run = straight_line(control_flow._simplified(jaxpr))
    return run, run.source.split("def run_any")[0]


def test_scalar_comparisons_and_counters_are_operators():
    run, src = _host_source(lambda m, i: (m > 1e-5) & (i < 50), np.float32(0), np.int64(0))
    assert "(" in src and " > " in src and " < " in src and " & " in src, src
    out = run(np, [np.float32(2e-5), np.int64(3)])[0]
    assert type(out) is np.bool_ and bool(out)
    # the first iteration's inputs are 0-d arrays, later ones NumPy scalars: the same result
    assert type(run(np, [np.asarray(np.float32(1e-6)), np.asarray(3)])[0]) is np.bool_


@pytest.mark.parametrize("a, b", [(2 ** 62, 2 ** 62), (-(2 ** 63), -1), (7, 3)])
def test_two_program_inputs_keep_numpys_rules_even_as_python_ints(a, b):
    """Neither operand is known to be NumPy's (inputs may be Python scalars): the ufunc runs,
    so int64 overflow wraps as in NumPy instead of growing as a Python int."""
    run, src = _host_source(lambda x, y: x + y * 1 - y + y, np.int64(0), np.int64(0))
    with np.errstate(over="ignore"):
        expected = np.int64(a) + np.int64(b) * np.int64(1) - np.int64(b) + np.int64(b)
    for args in ([a, b], [np.int64(a), np.int64(b)], [np.asarray(a), np.asarray(b)]):
        out = run(np, args)[0]
        assert out == expected and np.asarray(out).dtype == np.int64, (args, out)


_OPS = {"+": np.add, "-": np.subtract, "*": np.multiply, "<": np.less, "<=": np.less_equal,
        ">": np.greater, ">=": np.greater_equal, "==": np.equal, "!=": np.not_equal,
        "&": np.bitwise_and, "|": np.bitwise_or, "^": np.bitwise_xor}
_VALUES = {np.float32: [np.nan, -0.0, 3.5, 3e38], np.float64: [np.nan, 0.0, -2.0, 1e308],
           np.int32: [np.iinfo(np.int32).max, -7, 0], np.int64: [np.iinfo(np.int64).min, 5],
           np.uint8: [255, 0, 3], np.bool_: [True, False], np.complex64: [1 + 2j, np.nan]}


@pytest.mark.parametrize("dtype", list(_VALUES))
def test_operator_results_equal_the_ufuncs(dtype):
    """Every operator form against its ufunc, bit for bit and type for type, with the literal
    converted as NumPy converts it, on values including wrap-around, NaN and signed zeros."""
    if dtype is np.bool_:
        symbols = ["+", "*", "<", "<=", ">", ">=", "==", "!=", "&", "|", "^"]
    elif dtype is np.complex64:
        symbols = ["+", "-", "*", "==", "!="]
    elif dtype in (np.float32, np.float64):
        symbols = ["+", "-", "*", "<", "<=", ">", ">=", "==", "!="]
    else:
        symbols = list(_OPS)
    lit = True if dtype is np.bool_ else 2
    for sym in symbols:
        ufunc = _OPS[sym]
        run, src = _host_source(eval(f"lambda x: x {sym} {lit!r}"), np.zeros((), dtype))  # noqa: S307
        assert f" {sym} " in src, (sym, src)
        for v in _VALUES[dtype]:
            x = np.asarray(v, dtype)
            with np.errstate(all="ignore"):
                expected = ufunc(x, np.asarray(lit, dtype))
                got = [run(np, [x])[0], run(np, [x[()]])[0]]  # a 0-d array, then a NumPy scalar
            for out in got:
                assert type(out) is type(expected), (sym, v, out)
                np.testing.assert_array_equal(np.asarray(out), np.asarray(expected))


def test_narrow_floats_keep_the_ufunc():
    run, src = _host_source(lambda x: x * 1 > 0.5, np.float16(0))
    assert " > " not in src, src
    assert bool(run(np, [np.float16(0.75)])[0])


# ------------------------------------------------------------------- max/min reductions


@pytest.mark.parametrize("fn, ref", [(fnp.max, np.max), (fnp.min, np.min)])
def test_max_min_reductions(fn, ref):
    x = np.array([[1.0, np.nan, 3.0], [-0.0, 2.0, -5.0]], np.float32)
    for axis in (None, 0, 1):
        out = fn(fnp.asarray(x), axis=axis)
        expected = ref(x, axis=axis)
        assert out.dtype == np.float32
        np.testing.assert_array_equal(np.asarray(out), expected)
    i = np.array([3, -2, 9], np.int16)
    assert int(fn(fnp.asarray(i))) == int(ref(i)) and fn(fnp.asarray(i)).dtype == np.int16
    with pytest.raises(ValueError):
        fn(fnp.zeros((0,)))


# ------------------------------------------- while_loop: condition and body as one program


def _fused_steps():
    """The joined steps that run the body ahead (not the scalar loops of `host_only` steps,
    which test the condition first: docs/speed-loops.md, session 15)."""
    return [s for s in control_flow._STEPS.values() if s is not control_flow._NO_STEP and not s.host_only]


def test_newton_runs_condition_and_body_as_one_program():
    """The convergence test and the step share ``x * x``, ``x * x * x - a``: one generated
    program computes both, each once per iteration."""
    control_flow._STEPS.clear()
    x, i = fgrad.jit(_newton(fnp, lax))(fnp.asarray(A32))
    (step,) = _fused_steps()
    simplified = control_flow._simplified(step.jaxpr)
    assert sum(e.prim.name == "mul" for e in simplified.eqns) == 3  # x*x, (x*x)*x, 3*(x*x)
    assert int(i) == JAX_NEWTON_ITERS
    np.testing.assert_array_equal(np.asarray(x), _newton_numpy(A32)[0])


def test_body_with_an_effect_runs_once_per_iteration():
    """A body with a callback is never run ahead: the callback sees each iteration once."""
    seen = []

    def body(s):
        v, k = s
        fgrad.debug.callback(lambda k: seen.append(int(k)), k)
        return v * v * 0.5, k + 1

    def cond(s):
        v, k = s
        return (fnp.max(v * v * 0.5) > 0.1) & (k < 10)

    control_flow._STEPS.clear()
    v, k = fgrad.jit(lambda v: lax.while_loop(cond, body, (v, 0)))(fnp.full(4, 1.5))
    assert seen == list(range(int(k))) and int(k) > 1
    assert not _fused_steps()


def test_body_with_a_nested_loop_is_not_run_ahead():
    """The body shares ``tanh(2 x)`` with the condition, but its inner loop's trip count
    depends on the outer carry and never ends for the carry that fails the outer condition
    (the target is 0 and it counts up from 1): running that body once more would not
    return."""
    def cond(x):
        return fnp.max(fnp.tanh(x * 2.0)) < 0.99

    def body(x):
        target = 5 * (fnp.max(fnp.tanh(x * 2.0)) < 0.99).astype(np.int64)
        steps = lax.while_loop(lambda k: k != target, lambda k: k + 1, fnp.asarray(1))
        return x + steps.astype(x.dtype) * 0.25

    control_flow._STEPS.clear()
    out = fgrad.jit(lambda x: lax.while_loop(cond, body, x))(fnp.zeros(3))
    np.testing.assert_array_equal(np.asarray(out), np.full(3, 2.5))  # 5 steps of 0.25, twice
    assert not _fused_steps()


def test_integer_power_that_raises_past_the_end_is_not_run_ahead():
    """``2 ** k`` for an int ``k`` raises in NumPy once ``k`` is negative, which is the
    carry that fails the condition: the body (which shares ``sin(cos(v ** 3))`` with the
    condition) is not run on it."""
    def cond(s):
        v, k = s
        return (fnp.sum(fnp.sin(fnp.cos(v * v * v))) > -10) & (k >= 0)

    def body(s):
        v, k = s
        return fnp.sin(fnp.cos(v * v * v)) + 2 ** fnp.full(2, k), k - 1

    control_flow._STEPS.clear()
    v, k = fgrad.jit(lambda v: lax.while_loop(cond, body, (v, 2)))(fnp.ones(2))
    ref = np.ones(2)
    for j in (2, 1, 0):
        ref = np.sin(np.cos(ref * ref * ref)) + 2 ** np.full(2, j)
    assert int(k) == -1
    assert_equal_up_to_device_ulps(v, ref, ulps=8)  # cupy's sin/cos/pow: ulps off NumPy's, x3
    assert not _fused_steps()


def test_debug_nans_never_runs_the_body_ahead(monkeypatch):
    """With NaN checks on, a NaN the extra evaluation would make must not be reported, so
    the loop runs condition and body separately."""
    def refuse(*args):
        raise AssertionError("fused step used while checking for NaNs")

    monkeypatch.setattr(control_flow, "_cond_and_body", refuse)
    with fgrad.debug_nans(True):
        out = lax.while_loop(lambda x: fnp.max(x * x) < 4.0,
                             lambda x: x * x * 0.0 + x + 1.0 + 0.0 * fnp.log(2.5 - x), fnp.zeros(2))
    np.testing.assert_array_equal(np.asarray(out), [2.0, 2.0])


# --------------------------------------------------------- recycled stacked outputs


def test_large_stacked_outputs_reuse_memory_nobody_holds():
    """A scan's large stacked ys (here 512 kB) come from `HOST_POOL`: once the previous
    call's result is dropped, the next call writes into the same memory instead of
    faulting in fresh pages."""
    from fgrad.core.host_pool import HOST_POOL

    HOST_POOL.clear()
    f = fgrad.jit(lambda xs: lax.scan(lambda c, x: (c + x, x * 2.0), fnp.zeros(1024), xs)[1])
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        xs = fnp.asarray(RNG.standard_normal((64, 1024)))
        first = f(xs)
        del first
        second = f(xs)
    pooled = [a for arrays in HOST_POOL._arrays.values() for a in arrays]
    assert len(pooled) == 1 and np.shares_memory(pooled[0], np.asarray(second))
    np.testing.assert_array_equal(np.asarray(second), np.asarray(xs) * 2.0)


def test_held_results_and_views_are_never_overwritten():
    from fgrad.core.host_pool import HOST_POOL

    HOST_POOL.clear()
    f = fgrad.jit(lambda xs: lax.scan(lambda c, x: (c + x, x * 2.0), fnp.zeros(1024), xs)[1])
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        a, b, c = (fnp.asarray(np.full((64, 1024), v)) for v in (1.0, 2.0, 3.0))
        held = f(a)
        view = np.asarray(f(b))[10:]           # only a NumPy view of the second result survives
        raw = np.asarray(f(c))                 # a plain NumPy array of the third
        for _ in range(3):
            f(a + 10.0)
    np.testing.assert_array_equal(np.asarray(held), 2.0)
    np.testing.assert_array_equal(view, 4.0)
    np.testing.assert_array_equal(raw, 6.0)


def test_pool_refuses_arrays_still_referenced():
    from fgrad.core.host_pool import HostPool

    pool = HostPool(min_bytes=8)
    a = pool.empty((4, 4), np.float64)
    view = a[1:]
    del a
    b = pool.empty((4, 4), np.float64)
    assert not np.shares_memory(b, view)
    del view
    assert pool.empty((4, 4), np.float64) is not b  # b is held here
    small = HostPool(min_bytes=1 << 20)
    assert small.empty((4,), np.float32) is not small.empty((4,), np.float32)
