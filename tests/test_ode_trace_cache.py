"""`odeint`'s cached integrator traces (`experimental.ode._replayed`): a second call with the
same dynamics program reuses the traced integrator and adjoint, and a closed-over value that
changed between calls is never the old one (it is an input of the cached trace)."""

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.experimental import ode
from fgrad.experimental.ode import odeint

TS = np.array([0.0, 0.5, 1.0])


@pytest.fixture
def traces(monkeypatch):
    """The cache, emptied, and a count of the traces made (cache misses)."""
    monkeypatch.setattr(ode, "_TRACES", type(ode._TRACES)())
    made = []
    real = ode.trace_flat

    def counting(*a, **k):
        made.append(a[2] if len(a) > 2 else k.get("what"))
        return real(*a, **k)

    monkeypatch.setattr(ode, "trace_flat", counting)
    return made


def _decay_loss(rate_box):
    """``y0 -> sum(y(TS))`` for ``y' = -rate * y``; ``rate`` read from ``rate_box[0]`` (a
    closed-over array the test replaces or mutates between calls)."""
    def loss(y0):
        return fnp.sum(odeint(lambda y, t: -rate_box[0] * y, y0, fnp.asarray(TS), rtol=1e-10, atol=1e-10))
    return loss


def _exact(rate, y0):
    e = np.exp(-np.outer(TS, rate))  # (times, components)
    return float(np.sum(e * y0)), np.sum(e, axis=0)


@pytest.mark.parametrize("change", ["replace", "mutate in place"])
def test_a_changed_closed_over_array_is_never_the_cached_one(traces, change):
    y0 = np.array([1.0, 2.0])
    box = [np.array([0.5, 1.5])]
    vg = fgrad.value_and_grad(_decay_loss(box))
    results, made = [], []
    for rate in ([0.5, 1.5], [2.0, 0.25], [3.0, 0.1]):
        if change == "replace":
            box[0] = np.array(rate)
        else:
            box[0][...] = rate
        value, grad = vg(fnp.asarray(y0))
        want_value, want_grad = _exact(np.array(rate), y0)
        np.testing.assert_allclose(float(value), want_value, rtol=1e-8)
        np.testing.assert_allclose(np.asarray(grad), want_grad, rtol=1e-8)
        results.append(float(value))
        made.append(len(traces))
    assert len(set(results)) == 3
    # the first call traced the integrator and the adjoint (and, inside the adjoint, the
    # augmented system's); the others replayed them
    assert "odeint forward" in traces and "odeint adjoint" in traces
    assert made[0] == made[1] == made[2] == len(ode._TRACES)


def test_a_changed_closed_over_traced_value_and_python_float(traces):
    """A traced value the dynamics close over (``k`` under ``grad``) is hoisted and passed;
    a Python float is a literal of the program, so a new one is a new program (a new trace),
    never the cached one."""
    scale = [1.0]

    def loss(k):
        ys = odeint(lambda y, t: -k * scale[0] * y, 1.0, fnp.asarray(TS), rtol=1e-10, atol=1e-10)
        return ys[-1]

    made = []
    for k in (0.5, 2.0):
        for s in (1.0, 3.0):
            scale[0] = s
            value, grad = fgrad.value_and_grad(loss)(k)
            np.testing.assert_allclose(float(value), np.exp(-k * s), rtol=1e-8)
            np.testing.assert_allclose(float(grad), -s * np.exp(-k * s), rtol=1e-7)
            made.append(len(traces))
    # new traces for each new value of the Python float, none for a new k
    assert 0 < made[0] < made[1] == made[2] == made[3]


def test_replayed_traces_give_the_bits_of_running_the_integrator(monkeypatch):
    """The cached path binds the primitives the integrator binds: the same bits as calling it
    directly (the code before the cache), for values, gradients and a pytree state."""
    a = fnp.asarray([[-0.1, 1.0], [-1.0, -0.1]])

    def loss(k, y0, p):
        ys = odeint(lambda y, t, p: k * (a @ y) + p["f"] * fnp.sin(t), y0, fnp.linspace(0.0, 2.0, 4), p)
        return fnp.sum(ys ** 2)

    args = (1.5, fnp.asarray([1.0, 0.0]), {"f": 0.3})

    def run():
        out = fgrad.value_and_grad(loss, argnums=(0, 1, 2))(*args)
        out += fgrad.jit(fgrad.value_and_grad(loss, argnums=(0, 1, 2)))(*args)
        return [np.asarray(x) for x in fgrad.tree_util.tree_leaves(out)]

    cached = run()
    cached_again = run()
    monkeypatch.setattr(ode, "_replayed", lambda what, fn, func, statics, dynamic:
                        fn(func, *statics, *dynamic))
    direct = run()
    for c, c2, d in zip(cached, cached_again, direct, strict=True):
        assert c.dtype == d.dtype and c.tobytes() == d.tobytes() == c2.tobytes()


def test_a_different_shape_or_tolerance_is_a_new_trace(traces):
    f = lambda y, t: -y  # noqa: E731
    odeint(f, fnp.ones(2), fnp.asarray(TS))
    odeint(f, fnp.ones(3), fnp.asarray(TS))
    odeint(f, fnp.ones(3), fnp.asarray(TS), rtol=1e-6)
    last = np.asarray(odeint(f, fnp.ones(3), fnp.asarray(TS)))[-1]
    np.testing.assert_allclose(last, np.exp(-1.0) * np.ones(3), rtol=1e-7)
    assert traces.count("odeint forward") == 3


def test_a_custom_rule_reading_changed_state_is_never_cached(traces):
    """A custom_jvp rule runs while the adjoint is traced and may read state no key can see
    (here a list it closes over): dynamics calling one are not cached, so the gradient always
    follows the rule's current state."""
    factor = [1.0]

    @fgrad.custom_jvp
    def scaled(x):
        return x

    @scaled.defjvp
    def _scaled_jvp(primals, tangents):
        return primals[0], factor[0] * tangents[0]

    def loss(k):
        return odeint(lambda y, t: -k * scaled(y), 1.0, fnp.asarray(TS), rtol=1e-10, atol=1e-10)[-1]

    grads = []
    for f in (1.0, 3.0, 1.0):
        factor[0] = f
        grads.append(float(fgrad.grad(loss)(0.5)))
        ode._TRACES.clear()
        assert float(fgrad.grad(loss)(0.5)) == grads[-1]  # as a run with nothing cached
    np.testing.assert_allclose(grads[0], -np.exp(-0.5), rtol=1e-7)  # the true derivative
    assert grads[1] != grads[0] == grads[2]
