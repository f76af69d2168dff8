"""Loop and branch bodies go through jit's pass pipeline (`compile.passes.optimize`, via
`control_flow._simplified`): common subexpressions, identities, ``x ** 2`` and no-op converts
are removed even where constant folding would leave a constant array, which a body cannot
keep (it may run on a device).  Values: jit against eager runs and Python loops; gradients
against finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.compile import compile_executable
from fgrad.compile.passes import drop_noop_converts, optimize
from fgrad.ops.control_flow import _simplified
from fgrad.test_util import check_grads


def _step(c, x):
    twos = lax.broadcast_in_dim(2.0, c.shape, ())  # folds to a constant array of twos
    a = fnp.sin(c) * twos + x
    b = fnp.sin(c) ** 2  # sin(c) again, and a square
    return a * 1.0, b


def _body(fun, *avals):
    """The step jaxpr of the one scan/while (its body) or cond (its first branch) in ``fun``'s
    program."""
    closed = fgrad.make_jaxpr(fun)(*avals)
    (e,) = [e for e in closed.jaxpr.eqns if e.primitive.name in ("scan", "while", "cond")]
    p = e.params
    body = p["branches"][0] if "branches" in p else p["body"] if "body" in p else p["jaxpr"]
    return body.jaxpr


def _names(jaxpr):
    return [e.prim.name for e in jaxpr.eqns]


C0 = np.linspace(-1.0, 1.0, 8).astype(np.float32)
XS = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)


def _scan(c, xs):
    return lax.scan(_step, c, xs)


def test_scan_body_is_simplified_where_folding_leaves_a_constant_array():
    """Before session 14 such a body kept every equation (only dead code was dropped)."""
    body = _body(_scan, C0, XS)
    assert _names(body).count("sin") == 2 and "integer_pow" in _names(body)
    prog = optimize(body, [])
    assert prog.constvars  # the folded twos: a body cannot keep them
    simple = _simplified(body)
    assert not simple.constvars
    names = _names(simple)
    assert names.count("sin") == 1 and "integer_pow" not in names
    assert len(simple.invars) == len(body.invars) and len(simple.outvars) == len(body.outvars)


def test_simplified_scan_matches_a_python_loop_and_eager():
    def loop(c, xs):
        ys = []
        for x in xs:
            s = np.sin(c)
            c, y = (s * np.float32(2.0) + x) * np.float32(1.0), s * s
            ys.append(y)
        return c, np.stack(ys)

    want_c, want_ys = loop(C0, XS)
    for f in (_scan, fgrad.jit(_scan)):
        c, ys = f(fnp.asarray(C0), fnp.asarray(XS))
        np.testing.assert_allclose(np.asarray(c), want_c, rtol=1e-6, atol=1e-6)
        np.testing.assert_allclose(np.asarray(ys), want_ys, rtol=1e-6, atol=1e-6)
    eager = _scan(fnp.asarray(C0), fnp.asarray(XS))
    jitted = fgrad.jit(_scan)(fnp.asarray(C0), fnp.asarray(XS))
    for a, b in zip(eager, jitted):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))


def test_gradients_through_the_simplified_scan():
    """Reverse mode saves residuals from the primal scan and reads them in the reverse
    sweep: both bodies are simplified; the gradient matches finite differences, eagerly and
    under jit."""
    def loss(c, xs):
        c, ys = _scan(c, xs)
        return fnp.sum(c ** 2) + fnp.sum(ys)

    c, xs = C0.astype(np.float64), XS.astype(np.float64)
    check_grads(loss, (c, xs), order=1, modes=["rev"])
    g_eager = fgrad.grad(loss, argnums=(0, 1))(c, xs)
    g_jit = fgrad.jit(fgrad.grad(loss, argnums=(0, 1)))(c, xs)
    for a, b in zip(g_eager, g_jit):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12)


def test_while_and_fori_bodies():
    def fori(c):
        return lax.fori_loop(0, 4, lambda i, c: _step(c, c)[0] * 0.25 + _step(c, c)[1], c)

    def while_(c):
        def cond(s):
            return s[1] < 4

        def body(s):
            c, i = s
            a, b = _step(c, c)
            return a * 0.25 + b, i + 1

        return lax.while_loop(cond, body, (c, 0))[0]

    want = C0.copy()
    for _ in range(4):
        s = np.sin(want)
        want = (s * np.float32(2.0) + want) * np.float32(0.25) + s * s
    for f in (fori, while_):
        body = _body(f, C0)
        simple = _simplified(body)
        assert "integer_pow" not in _names(simple) and _names(simple).count("sin") == 1, f
        for g in (f, fgrad.jit(f)):
            np.testing.assert_allclose(np.asarray(g(fnp.asarray(C0))), want, rtol=1e-6, atol=1e-6)


def test_cond_branches():
    def f(p, c):
        return lax.cond(p, lambda c: -c, lambda c: sum(_step(c, c)), c)

    body = _body(f, True, C0)  # the false branch (branches[0])
    assert "integer_pow" not in _names(_simplified(body))
    for p in (True, False):
        want = -C0 if p else np.sin(C0) * np.float32(2.0) + C0 + np.sin(C0) ** 2
        for g in (f, fgrad.jit(f)):
            np.testing.assert_allclose(np.asarray(g(p, fnp.asarray(C0))), want, rtol=1e-6, atol=1e-7)


def test_noop_converts_leave_straight_line_programs_too():
    """JAX's staging marks the weak ``i < 50`` strong with a same-dtype convert: the last pass
    drops it from jit's programs (it was an array copy) as from loop bodies; values unchanged."""
    def f(x, i):
        return (x > 0) & (i < 50)

    closed = fgrad.make_jaxpr(f)(np.float32(1.0), 3)
    assert "convert_element_type" in _names(closed.jaxpr)
    exe = compile_executable(closed.jaxpr, closed.consts)
    assert "convert_element_type" not in [e.prim.name for e in exe.program.eqns]
    for x, i in ((1.0, 3), (-1.0, 3), (1.0, 70)):
        assert bool(fgrad.jit(f)(np.float32(x), i)) == bool(f(np.float32(x), i)) == (x > 0 and i < 50)
    prog = optimize(closed.jaxpr, closed.consts)
    assert not drop_noop_converts(prog)  # idempotent: nothing left to drop


@pytest.mark.parametrize("f, arg", [
    (lambda x: lax.convert_element_type(x, np.float32), 1.5),  # a weak Python float made strong
    (lambda i: fnp.asarray(i, fnp.int32), 3),
    (lambda x: fnp.float32(1) * x, 2.0),
], ids=["convert", "asarray", "strong-times-weak"])
def test_a_dropped_convert_keeps_the_outputs_type(f, arg):
    """The output of a dropped convert is its (weak) operand's buffer: jit still returns the
    strong dtype and weak type that eager evaluation gives."""
    want, got = f(arg), fgrad.jit(f)(arg)
    assert (got.dtype, got.weak_type) == (want.dtype, want.weak_type) == (np.dtype(got.dtype), False)
    assert np.asarray(got).item() == np.asarray(want).item()


def _pendulums_numpy(x, v, forces):
    """The `jit_scan_cse` benchmark's scan as a Python loop (float32 throughout)."""
    h, d = np.float32(0.005), np.float32(0.1)
    energies, powers = [], []
    for f in forces:
        a = -np.sin(x) - d * v + f
        v_half = v + h * a
        x = x + np.float32(0.01) * v_half
        v = v_half + h * (-np.sin(x) - d * v_half + f)
        powers.append(np.sum(np.sin(x) * v))
        energies.append(np.sum(np.float32(0.5) * v * v + (np.float32(1.0) - np.cos(x))))
    return x, v, np.array(energies), np.array(powers)


def _tiny_case():
    from benchmarks.cases.workloads import JitScanSimplified

    case = JitScanSimplified()
    rng = np.random.default_rng(3)
    case.x0 = rng.uniform(-1, 1, 16).astype(np.float32)
    case.v0 = np.zeros(16, np.float32)
    case.forces = (0.1 * rng.standard_normal((6, 16))).astype(np.float32)
    return case


def test_scan_cse_benchmark_case_at_tiny_size():
    """A smoke run of the benchmark case (`benchmarks/cases/workloads.py`, ``jit_scan_cse``)
    at a tiny size, against a Python loop."""
    case = _tiny_case()
    got = case.fgrad()()
    want = _pendulums_numpy(case.x0, case.v0, case.forces)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


@pytest.mark.slow
def test_scan_cse_benchmark_case_matches_live_jax():
    pytest.importorskip("jax")
    case = _tiny_case()
    for a, b in zip(case.fgrad()(), case.jax()()):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-5)


def test_while_condition_and_body_join_where_folding_leaves_constants():
    """A while loop whose condition and body share work runs as one step (`_build_step`)
    also when the body's folding leaves a constant array (it gave up there before)."""
    from fgrad.ops import control_flow as cf

    def step(x, a):
        twos = lax.broadcast_in_dim(2.0, x.shape, ())
        return (x * x - a) / (twos * x)

    def sqrt(a):
        def cond(s):
            return fnp.max(fnp.abs(step(s[0], a))) > 1e-6

        def body(s):
            x, i = s
            return x - step(x, a), i + 1

        return lax.while_loop(cond, body, (fnp.ones_like(a), 0))

    a = np.linspace(1.0, 9.0, 16)
    x, n = np.ones_like(a), 0
    while np.max(np.abs((x * x - a) / (2.0 * x))) > 1e-6:
        x, n = x - (x * x - a) / (2.0 * x), n + 1
    cf._STEPS.clear()
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        got_x, got_n = fgrad.jit(sqrt)(fnp.asarray(a))
    np.testing.assert_array_equal(np.asarray(got_x), x)
    assert int(got_n) == n
    steps = [s for s in cf._STEPS.values() if s is not cf._NO_STEP]
    assert steps, "condition and body were not joined"
