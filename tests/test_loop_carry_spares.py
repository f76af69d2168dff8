"""Loops on the host reuse the carry a step replaced (docs/speed-loops.md, session 17): where
a step's next carry is the very array a fresh ufunc call of the step made, the rebinding
keeps the carry it replaces in a spare, and the next step's call writes into the spare
(``out=``) when nothing else refers to it -- two buffers in turn instead of an allocation per
step.  Checked for the structure and for what it must not change: values bit for bit against
plain NumPy loops, the caller's initial carry, a carry kept in another slot, views, arrays an
effect received, and a first carry of another dtype.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core.executor import host_loop, host_scan

A = np.random.default_rng(17).uniform(1, 8, 300).astype(np.float32)


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


def test_later_steps_write_the_next_carry_into_the_replaced_one():
    jx = fgrad.make_jaxpr(_newton_step)(A, A).jaxpr
    run = host_loop(jx, 1)
    first, later = run.source.split("while True:")
    assert "_refcount(" in later, run.source  # the next x goes into the spare when it is free
    # the rebinding keeps the replaced x in the spare
    assert any(ln.strip().startswith("ph") and ln.strip().endswith("= ah1") for ln in later.splitlines())
    x0 = np.full_like(A, 2)
    keep = x0.copy()
    with np.errstate(all="ignore"):
        got = run([A, x0])[0]
    np.testing.assert_array_equal(got, _newton_numpy(A, np.full_like(A, 2)))
    assert got.dtype == np.float32
    np.testing.assert_array_equal(x0, keep)  # the caller's initial carry is never written
    assert got is not x0


def test_jit_newton_matches_numpy_bit_for_bit():
    def cube_root(a):
        def cond(state):
            x, i = state
            return (fnp.max(fnp.abs(x ** 3 - a)) > 1e-5) & (i < 50)

        def body(state):
            x, i = state
            return x - (x ** 3 - a) / (3 * x ** 2), i + 1

        return lax.while_loop(cond, body, (fnp.ones_like(a) * 2, 0))

    x, i = fgrad.jit(cube_root)(fnp.asarray(A))
    ref, k = np.full_like(A, 2), 0
    while np.max(np.abs(ref * ref * ref - A)) > np.float32(1e-5) and k < 50:  # x ** 3: lax.integer_pow
        ref, k = ref - (ref * ref * ref - A) / (np.float32(3) * (ref * ref)), k + 1
    np.testing.assert_array_equal(np.asarray(x), ref)
    assert int(i) == k
    x2, _ = fgrad.jit(cube_root)(fnp.asarray(A))  # a second call: its own buffers
    np.testing.assert_array_equal(np.asarray(x2), ref)
    np.testing.assert_array_equal(np.asarray(x), ref)  # the first result is untouched


def test_a_replaced_carry_another_slot_keeps_is_not_overwritten():
    # (n, x, prev) -> (n - 1, x * 0.5 + 1, x): the replaced x lives on as the next `prev`
    x0 = np.arange(8.0)
    jx = fgrad.make_jaxpr(lambda n, x, p: (n > 0, n - 1, x * 0.5 + 1.0, x))(3, x0, x0).jaxpr
    assert "_refcount(" in host_loop(jx, 0).source  # a spare, used only when free

    def ref(n, x, p):
        while n > 0:
            x, p, n = x * 0.5 + 1.0, x, n - 1
        return x, p

    for n in (0, 1, 2, 5):
        _, x, p = host_loop(jx, 0)([n, x0.copy(), x0.copy()])
        want = ref(n, x0.copy(), x0.copy())
        np.testing.assert_array_equal(x, want[0])
        np.testing.assert_array_equal(p, want[1])
        if n > 1:
            assert not np.shares_memory(x, p)


def test_a_carry_with_a_view_in_another_slot_keeps_allocating():
    # the next carry and a view of it leave the step together: no spare for it
    jx = fgrad.make_jaxpr(lambda n, x, v: (n > 0, n - 1, x * 2.0 + 1.0, (x * 2.0 + 1.0).reshape(2, 4)))(
        1, np.ones(8), np.ones((2, 4))).jaxpr
    _, x, v = host_loop(jx, 0)([4, np.ones(8), np.ones((2, 4))])
    want = np.ones(8)
    for _ in range(4):
        want = want * 2.0 + 1.0
    np.testing.assert_array_equal(x, want)
    np.testing.assert_array_equal(v, want.reshape(2, 4))


def test_carries_an_effect_received_keep_their_values():
    seen = []

    def body(state):
        x, i = state
        fgrad.debug.callback(lambda v: seen.append(v), x)
        return x * 2.0 + 1.0, i + 1

    out = fgrad.jit(lambda x: lax.while_loop(lambda s: s[1] < 6, body, (x, 0)))(fnp.zeros(5))
    want = [np.full(5, float(2 ** k - 1)) for k in range(6)]
    assert len(seen) == 6
    for got, w in zip(seen, want):
        np.testing.assert_array_equal(np.asarray(got), w)
    np.testing.assert_array_equal(np.asarray(out[0]), np.full(5, 63.0))


def test_a_first_carry_of_another_dtype_is_not_written_into():
    # traced for float32, run on float64 inputs: the spare is float64 where later steps make
    # float64 too; the values are NumPy's float64 loop
    jx = fgrad.make_jaxpr(_newton_step)(A, A).jaxpr
    a64 = A.astype(np.float64)
    with np.errstate(all="ignore"):
        got = host_loop(jx, 1)([a64, np.full_like(a64, 2)])[0]
    x = np.full_like(a64, 2)
    while np.max(np.abs(x * x * x - a64)) > 1e-5:
        x = x - (x * x * x - a64) / (3.0 * (x * x))
    np.testing.assert_array_equal(got, x)


@pytest.mark.parametrize("reverse", [False, True])
def test_scan_carries_use_spares_and_match_a_python_loop(reverse):
    w = np.random.default_rng(3).standard_normal((16, 16)).astype(np.float32) * 0.3
    xs = np.random.default_rng(4).standard_normal((12, 4, 16)).astype(np.float32)

    def step(w, h, x):
        h2 = fnp.tanh(h @ w + x)
        return h2, fnp.sum(h2)

    h0 = np.zeros((4, 16), np.float32)
    jx = fgrad.make_jaxpr(step)(w, h0, xs[0]).jaxpr
    run = host_scan(jx, 1, 1, 12, reverse, _stacked)
    got_h, got_y = run([w, h0, xs])
    h, ys = h0, [None] * 12
    for i in (range(11, -1, -1) if reverse else range(12)):
        h = np.tanh(h @ w + xs[i])
        ys[i] = np.sum(h)
    np.testing.assert_array_equal(got_h, h)
    np.testing.assert_array_equal(got_y, np.array(ys, np.float32))
    np.testing.assert_array_equal(h0, 0)


def test_scan_whose_y_is_the_carry_stacks_every_step():
    def f(c, x):
        c2 = c * 2.0 + x
        return c2, c2

    c, ys = fgrad.jit(lambda xs: lax.scan(f, fnp.zeros(3), xs))(fnp.ones((5, 3)))
    want = np.zeros(3)
    rows = []
    for _ in range(5):
        want = want * 2.0 + 1.0
        rows.append(want)
    np.testing.assert_array_equal(np.asarray(ys), np.array(rows))
    np.testing.assert_array_equal(np.asarray(c), want)
