"""jit's `batch_scan_products` pass: products of a scanned input and a constant are computed
for all steps before the loop, and carries that only accumulate products (or sums) of
per-step values become one product after it.  Values: the eager loop's up to the order of
the sums; derivatives by finite differences."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.test_util import check_grads

RNG = np.random.default_rng(0)


def _rnn_loss(params, xs):
    W, U, b = params

    def cell(h, x):
        h = fnp.tanh(h @ W + x @ U + b)
        return h, fnp.sum(h ** 2)

    _, per_step = lax.scan(cell, fnp.zeros((xs.shape[1], W.shape[0]), xs.dtype), xs)
    return fnp.sum(per_step)


def _params(dtype=np.float64):
    return (tuple(fnp.asarray((0.3 * RNG.standard_normal(s)).astype(dtype)) for s in ((6, 6), (4, 6), (6,))),
            fnp.asarray(RNG.standard_normal((7, 3, 4)).astype(dtype)))


def _scans(f, *args):
    return [e for e in f.lower(*args).optimized.eqns if e.prim.name == "scan"]


def test_rnn_gradient_matches_the_eager_loop():
    params, xs = _params()
    f = fgrad.jit(fgrad.value_and_grad(_rnn_loss))
    v, g = f(params, xs)
    ve, ge = fgrad.value_and_grad(_rnn_loss)(params, xs)
    np.testing.assert_allclose(np.asarray(v), np.asarray(ve), rtol=1e-13)
    for a, b in zip(g, ge):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-13)
    # the forward loop lost x @ U (computed before it); the backward loop kept only dh
    fwd, bwd = _scans(f, params, xs)
    names = [e.prim.name for e in f.lower(params, xs).optimized.eqns]
    assert names.index("dot_general") < names.index("scan")
    assert [e.prim.name for e in fwd.params["body"].jaxpr.eqns].count("dot_general") == 1
    assert bwd.params["n_carry"] == 1


def test_rnn_gradient_by_finite_differences():
    params, xs = _params()
    check_grads(fgrad.jit(lambda W, U, b: _rnn_loss((W, U, b), xs)), params, order=1, modes=("rev",))


@pytest.mark.parametrize("reverse", [False, True])
def test_accumulated_products_and_sums(reverse):
    xs, ys = RNG.standard_normal((5, 3, 4)), RNG.standard_normal((5, 3, 2))
    C = RNG.standard_normal((2, 2))

    def f(xs, ys):
        def body(c, xy):
            acc, tot, h = c
            x, y = xy
            z = fnp.sin(y @ C + h)  # a per-step value
            return (acc + x.T @ z, fnp.sum(z, axis=0) + tot, z), None

        init = (fnp.ones((4, 2)), fnp.full((2,), 0.5), fnp.zeros((3, 2)))
        return lax.scan(body, init, (xs, ys), reverse=reverse)[0]

    jf = fgrad.jit(f)
    got, want = jf(xs, ys), f(xs, ys)
    for a, b in zip(got, want):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-13, atol=1e-14)
    (s,) = _scans(jf, xs, ys)
    assert s.params["n_carry"] == 1  # acc and tot are computed after the loop


def test_carries_that_feed_the_loop_stay():
    """A carry read by the step (``acc @ M``), an accumulated product of a constant, and
    loops of one step keep their loop form; values are the eager loop's."""
    xs, M = RNG.standard_normal((6, 3)), RNG.standard_normal((3, 3)) / 3

    def f(xs):
        def body(c, x):
            acc, lin = c
            return (fnp.tanh(acc @ M) + x, lin + M @ x), None

        return lax.scan(body, (fnp.zeros(3), fnp.zeros(3)), xs)[0]

    jf = fgrad.jit(f)
    for a, b in zip(jf(xs), f(xs)):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-13)
    (s,) = _scans(jf, xs)
    assert s.params["n_carry"] == 2
    one = fgrad.jit(f)(xs[:1])
    for a, b in zip(one, f(xs[:1])):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-13)


def test_float32_gradient_close_to_float64():
    p32, x32 = _params(np.float32)
    p64 = tuple(fnp.asarray(np.asarray(p, np.float64)) for p in p32)
    x64 = fnp.asarray(np.asarray(x32, np.float64))
    g32 = fgrad.jit(fgrad.grad(_rnn_loss))(p32, x32)
    g64 = fgrad.grad(_rnn_loss)(p64, x64)
    for a, b in zip(g32, g64):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=2e-5, atol=2e-5)


def test_memory_budget_keeps_the_loop_form(monkeypatch):
    """Stacking per-step values costs memory proportional to the loop's length: over the
    budget, the loop is left as it is."""
    from fgrad.compile import scan_products

    monkeypatch.setattr(scan_products, "STACK_BUDGET", 0)
    params, xs = _params()
    f = fgrad.jit(fgrad.value_and_grad(_rnn_loss))
    fwd, bwd = _scans(f, params, xs)
    assert [e.prim.name for e in fwd.params["body"].jaxpr.eqns].count("dot_general") == 2
    assert bwd.params["n_carry"] == 4
    v, g = f(params, xs)
    ve, ge = fgrad.value_and_grad(_rnn_loss)(params, xs)
    for a, b in zip(g, ge):
        np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=1e-12, atol=1e-13)
