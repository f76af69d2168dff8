"""Loops on the host keep the arrays a step allocates and drops (docs/speed-loops.md,
session 12): the generated loop runs its first iteration on its own, keeps each fresh ufunc
result that nothing outside the iteration can see, and the later iterations write into it
(``out=``).  Checked for the structure (later iterations pass the kept array) and for what
it must not change: values bit for bit against plain NumPy loops, arrays an effect received,
carries and ys that are views of a step's result, a first iteration whose dtype is not the
traced one, and loops of zero and one iteration.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core.executor import host_loop, host_scan

A = np.random.default_rng(12).uniform(1, 8, 200).astype(np.float32)


def _newton_step(a, x):
    """A while loop's joined step: the condition on the carry, then the next carry."""
    t = x * x * x - a
    return fnp.max(fnp.abs(t)) > 1e-5, x - t / (3 * (x * x))


def _newton_numpy(a, x):
    while True:
        t = x * x * x - a
        if not np.max(np.abs(t)) > np.float32(1e-5):
            return x
        x = x - t / (np.float32(3) * (x * x))


def _stacked(xp, y, n):
    return np.empty((n,) + np.shape(y), np.asarray(y).dtype)


def test_later_iterations_write_into_the_arrays_the_first_made():
    jx = fgrad.make_jaxpr(_newton_step)(A, A).jaxpr
    run = host_loop(jx, 1)
    first, later = run.source.split("while True:")
    assert "_ndarray" in first  # the first iteration keeps its arrays
    # x * x and abs(t) die within an iteration: later iterations write into the kept ones
    kept = [ln for ln in later.splitlines() if ln.strip().startswith("rh") and ln.rstrip(")").endswith(tuple(
        f"sh{k}" for k in range(200)))]
    assert len(kept) >= 2, run.source
    with np.errstate(all="ignore"):
        got = run([A, np.full_like(A, 2)])[0]
    np.testing.assert_array_equal(got, _newton_numpy(A, np.full_like(A, 2)))
    assert got.dtype == np.float32


def test_a_first_iteration_of_another_dtype_keeps_allocating():
    # traced for float32, run on float64: the first iteration's x * x is float64, not the
    # traced dtype, so nothing is kept and every iteration computes in float64 as NumPy does
    jx = fgrad.make_jaxpr(_newton_step)(A, A).jaxpr
    run = host_loop(jx, 1)
    a64 = A.astype(np.float64)
    with np.errstate(all="ignore"):
        got = run([a64, np.full_like(a64, 2)])[0]
    assert got.dtype == np.float64

    def numpy64(a, x):
        while True:
            t = x * x * x - a
            if not np.max(np.abs(t)) > np.float32(1e-5):
                return x
            x = x - t / (3.0 * (x * x))

    np.testing.assert_array_equal(got, numpy64(a64, np.full_like(a64, 2)))


def test_a_loop_that_stops_at_once_or_after_one_step():
    jx = fgrad.make_jaxpr(_newton_step)(A, A).jaxpr
    run = host_loop(jx, 1)
    root = np.cbrt(A.astype(np.float64)).astype(np.float32)
    with np.errstate(all="ignore"):
        for x0 in (root, root * np.float32(1.0001)):
            np.testing.assert_array_equal(run([A, x0.copy()])[0], _newton_numpy(A, x0.copy()))


def test_scan_steps_write_into_kept_arrays_and_match_a_python_loop():
    def step(c, x):
        u = fnp.sin(c) * 2.0  # fresh and dropped within the step: kept
        return c * 0.5 + x, fnp.sum(u * x)

    c0 = np.linspace(0, 1, 16).astype(np.float32)
    xs = np.random.default_rng(0).standard_normal((9, 16)).astype(np.float32)
    jx = fgrad.make_jaxpr(step)(c0, xs[0]).jaxpr
    run = host_scan(jx, 0, 1, len(xs), False, _stacked)
    assert "_ndarray" in run.source and run.source.count("for _i in _it") == 2
    with np.errstate(all="ignore"):
        c, ys = run([c0, xs])
    cn, yn = c0, []
    for x in xs:
        u = np.sin(cn) * np.float32(2.0)
        cn, y = cn * np.float32(0.5) + x, np.sum(u * x)
        yn.append(y)
    np.testing.assert_array_equal(c, cn)
    np.testing.assert_array_equal(ys, np.array(yn, np.float32))


def test_arrays_an_effect_received_are_never_overwritten():
    seen = []

    def step(c, x):
        u = c * 2.0 + x  # fresh, dropped within the step, but a callback holds it
        fgrad.debug.callback(seen.append, u)
        return c + 1.0, fnp.sum(u)

    xs = np.arange(12.0, dtype=np.float32).reshape(4, 3)
    fgrad.jit(lambda xs: lax.scan(step, fnp.zeros(3, np.float32), xs))(fnp.asarray(xs))
    c = np.zeros(3, np.float32)
    for k, x in enumerate(xs):
        np.testing.assert_array_equal(np.asarray(seen[k]), c * np.float32(2.0) + x)
        c = c + np.float32(1.0)


@pytest.mark.parametrize("reverse", [False, True])
def test_views_that_leave_the_step_are_not_kept(reverse):
    def step(c, x):
        u = c * 3.0 - x  # fresh; a reshape of it is the next carry (and c is read after it)
        return u.reshape(4, 2).reshape(8), (u + c).reshape(2, 4)

    c0 = np.ones(8, np.float32)
    xs = np.random.default_rng(1).standard_normal((6, 8)).astype(np.float32)
    c, ys = fgrad.jit(lambda c, xs: lax.scan(step, c, xs, reverse=reverse))(fnp.asarray(c0), fnp.asarray(xs))
    cn, yn = c0, []
    for x in (xs[::-1] if reverse else xs):
        u = cn * np.float32(3.0) - x
        yn.append((u + cn).reshape(2, 4))
        cn = u
    if reverse:
        yn = yn[::-1]
    np.testing.assert_array_equal(np.asarray(c), cn)
    np.testing.assert_array_equal(np.asarray(ys), np.stack(yn))


def test_scan_of_length_zero_and_one():
    def step(c, x):
        u = fnp.exp(c)
        return c + x, fnp.sum(u)

    for n in (0, 1):
        xs = np.ones((n, 4), np.float32)
        c, ys = fgrad.jit(lambda xs: lax.scan(step, fnp.zeros(4, np.float32), xs))(fnp.asarray(xs))
        np.testing.assert_array_equal(np.asarray(c), xs.sum(0))
        assert np.asarray(ys).shape == (n,)
        np.testing.assert_array_equal(np.asarray(ys), np.full(n, 4.0, np.float32))


def test_while_host_kernel_follows_the_alias_pattern_of_each_call():
    # the condition reads ``a``, the body ``b``: one input when both are the same array
    def solve(a, b):
        def cond(s):
            x, i = s
            return (fnp.max(fnp.abs(x * x - a)) > 1e-4) & (i < 8)

        def body(s):
            x, i = s
            return x - (x * x - b) / (2 * x), i + 1

        return lax.while_loop(cond, body, (fnp.ones_like(a) * 2, 0))[0]

    def numpy(a, b):
        x, i = np.full_like(a, 2), 0
        while np.max(np.abs(x * x - a)) > np.float32(1e-4) and i < 8:
            x, i = x - (x * x - b) / (np.float32(2) * x), i + 1
        return x

    f = fgrad.jit(solve)
    b = A + np.float32(1)
    for x, y in ((A, A), (A, b), (A, A), (b, A)):
        xa = fnp.asarray(x)
        ya = xa if y is x else fnp.asarray(y)
        np.testing.assert_array_equal(np.asarray(f(xa, ya)), numpy(x, y))
