"""`fgrad.experimental.ode.odeint` (jax.experimental.ode): values against closed forms and
JAX's numbers (stored, and live when jax is installed), adjoint derivatives against closed
forms and finite differences (in y0, t, args and closed-over arrays), jit and vmap against
eager runs and loops; and `fgrad.closure_convert`."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.experimental.ode import odeint


def _oscillator(y, t, a, b):
    return {"x": y["v"], "v": -a * y["x"] - b * y["v"] + fnp.sin(t)}


Y0 = {"x": np.array([1.0, 0.5]), "v": np.array([0.0, 0.2])}
TS = np.linspace(0.0, 5.0, 6)

# jax.experimental.ode.odeint under JAX 0.10.2 (x64), same program
JAX_X = [[1.0, 0.5], [0.3646470907819036, 0.36962168932953865], [-0.06889521394232274, 0.30291671913203805],
         [0.3065695600122597, 0.407735172984732], [0.21258523843520144, -0.03433112383543692],
         [-0.6821517265828669, -0.8267274196149105]]
JAX_GRAD_AB = (-0.6692087106009087, -1.393693824148418)
JAX_GRAD_X0 = [1.69016454930041, -0.189860450366116]
JAX_GRAD_TS = [-0.390053688503224, -0.807571854414101, 0.062301543404038, 0.16519968158709,
               -0.214743569685125, 2.152459633202557]


def _loss(a, b, y0, ts):
    return fnp.sum(odeint(_oscillator, y0, ts, a, b)["x"] ** 2)


def test_exponential_decay_matches_the_closed_form():
    ts = fnp.linspace(0.0, 3.0, 7)
    ys = odeint(lambda y, t, k: -k * y, fnp.array([1.0, 2.0]), ts, 0.7)
    want = np.exp(-0.7 * np.asarray(ts))[:, None] * np.array([1.0, 2.0])
    np.testing.assert_allclose(np.asarray(ys), want, rtol=1e-7)


def test_pytree_state_matches_jax_numbers():
    ys = odeint(_oscillator, Y0, TS, 2.0, 0.3)
    assert set(ys) == {"x", "v"} and ys["x"].shape == (6, 2)
    np.testing.assert_allclose(np.asarray(ys["x"]), JAX_X, rtol=1e-12, atol=1e-13)


def test_adjoint_gradients_match_jax_numbers():
    g = fgrad.grad(_loss, argnums=(0, 1, 2, 3))(2.0, 0.3, Y0, TS)
    np.testing.assert_allclose([float(g[0]), float(g[1])], JAX_GRAD_AB, rtol=1e-11)
    np.testing.assert_allclose(np.asarray(g[2]["x"]), JAX_GRAD_X0, rtol=1e-11)
    np.testing.assert_allclose(np.asarray(g[3]), JAX_GRAD_TS, rtol=1e-10, atol=1e-12)


def test_adjoint_gradients_match_finite_differences():
    eps = 1e-5
    g = fgrad.grad(_loss, argnums=(0, 1, 2, 3))(2.0, 0.3, Y0, TS)
    for i, (a, b) in enumerate([(eps, 0.0), (0.0, eps)]):
        fd = (float(_loss(2.0 + a, 0.3 + b, Y0, TS)) - float(_loss(2.0 - a, 0.3 - b, Y0, TS))) / (2 * eps)
        np.testing.assert_allclose(float(g[i]), fd, rtol=1e-6)
    for j in range(2):
        up = {"x": Y0["x"] + eps * np.eye(2)[j], "v": Y0["v"]}
        dn = {"x": Y0["x"] - eps * np.eye(2)[j], "v": Y0["v"]}
        fd = (float(_loss(2.0, 0.3, up, TS)) - float(_loss(2.0, 0.3, dn, TS))) / (2 * eps)
        np.testing.assert_allclose(float(g[2]["x"][j]), fd, rtol=1e-6)
    for j in (1, 3, 5):  # an output time moved: d/dt_j of |x(t_j)|^2 = 2 x(t_j) . v(t_j)
        e = eps * np.eye(6)[j]
        fd = (float(_loss(2.0, 0.3, Y0, TS + e)) - float(_loss(2.0, 0.3, Y0, TS - e))) / (2 * eps)
        np.testing.assert_allclose(float(g[3][j]), fd, rtol=1e-5, atol=1e-8)


def test_gradient_in_the_rate_is_the_closed_form():
    # y = e^(-k t): dy(1)/dk = -e^(-k); second derivative by finite differences of the adjoint
    dk = fgrad.grad(lambda k: odeint(lambda y, t, k: -k * y, 1.0, fnp.array([0.0, 1.0]), k, rtol=1e-11,
                                     atol=1e-11)[1])
    np.testing.assert_allclose(float(dk(2.0)), -np.exp(-2.0), rtol=1e-8)
    fd2 = (float(dk(2.0 + 1e-4)) - float(dk(2.0 - 1e-4))) / 2e-4
    np.testing.assert_allclose(fd2, np.exp(-2.0), rtol=1e-5)


def test_gradient_flows_into_closed_over_arrays():
    # func closes over W (a traced parameter): closure_convert hands it to the adjoint
    def loss(W):
        ys = odeint(lambda y, t: fnp.tanh(W @ y), fnp.array([1.0, -1.0]), fnp.array([0.0, 1.0, 2.0]),
                    rtol=1e-10, atol=1e-10)
        return fnp.sum(ys)

    W = np.array([[0.1, -0.4], [0.3, 0.2]])
    g = np.asarray(fgrad.grad(loss)(fnp.asarray(W)))
    np.testing.assert_allclose(g, [[4.186491635254137, -2.596237859795722],
                                   [3.105261827734846, -1.845426650153842]], rtol=1e-10)
    eps = 1e-6
    for i in range(2):
        for j in range(2):
            E = np.zeros((2, 2))
            E[i, j] = eps
            fd = (float(loss(fnp.asarray(W + E))) - float(loss(fnp.asarray(W - E)))) / (2 * eps)
            np.testing.assert_allclose(g[i, j], fd, rtol=1e-6)


def test_jit_and_vmap_equal_eager_and_loop():
    ts = fnp.array([0.0, 0.5, 1.0])
    f = lambda y0: odeint(lambda y, t: -y + fnp.cos(t), y0, ts)  # noqa: E731
    y0 = fnp.array([1.0, 2.0, 3.0])
    np.testing.assert_allclose(np.asarray(fgrad.jit(f)(y0)), np.asarray(f(y0)), rtol=1e-13)
    ks = fnp.array([0.5, 1.0, 2.0])
    batched = fgrad.vmap(lambda k: odeint(lambda y, t: -k * y, 1.0, ts))(ks)
    looped = np.stack([np.asarray(odeint(lambda y, t: -k * y, 1.0, ts)) for k in np.asarray(ks)])
    np.testing.assert_allclose(np.asarray(batched), looped, rtol=1e-9)


def test_mxstep_and_hmax_bound_the_steps():
    ts = fnp.array([0.0, 10.0])
    capped = odeint(lambda y, t: -y, 1.0, ts, mxstep=3)  # stops early: not the solution at t = 10
    assert abs(float(capped[1]) - np.exp(-10.0)) > 1e-6
    fine = odeint(lambda y, t: -y, 1.0, ts, hmax=0.01)
    np.testing.assert_allclose(float(fine[1]), np.exp(-10.0), rtol=1e-6)


def test_bad_arguments_raise_like_jax():
    with pytest.raises(TypeError, match="odeint \\*args must be arrays or scalars"):
        odeint(lambda y, t, s: -y, 1.0, fnp.array([0.0, 1.0]), "not an array")
    with pytest.raises(ValueError, match="1-D"):
        odeint(lambda y, t: -y, 1.0, fnp.zeros((2, 2)))


@pytest.mark.slow  # jax compiles the adjoint (~15 s); the stored JAX numbers above run by default
def test_live_against_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    from jax.experimental.ode import odeint as jax_odeint

    def jf(y, t, a, b):
        return {"x": y["v"], "v": -a * y["x"] - b * y["v"] + jnp.sin(t)}

    jy0 = {k: jnp.asarray(v) for k, v in Y0.items()}
    want = jax_odeint(jf, jy0, jnp.asarray(TS), 2.0, 0.3)
    got = odeint(_oscillator, Y0, TS, 2.0, 0.3)
    np.testing.assert_allclose(np.asarray(got["v"]), np.asarray(want["v"]), rtol=1e-12, atol=1e-13)
    jg = jax.grad(lambda a: jnp.sum(jax_odeint(jf, jy0, jnp.asarray(TS), a, 0.3)["x"] ** 2))(2.0)
    np.testing.assert_allclose(float(fgrad.grad(_loss)(2.0, 0.3, Y0, TS)), float(jg), rtol=1e-11)


# ---- closure_convert -------------------------------------------------------------------


def test_closure_convert_hoists_only_traced_closed_over_values():
    # JAX 0.10.2 hoists closed-over tracers only: concrete arrays stay in the program (0 consts)
    w, n = fnp.array([1.0, 2.0]), fnp.array(3)
    f = lambda x: w * x + n  # noqa: E731
    g, consts = fgrad.closure_convert(f, fnp.array([0.0, 0.0]))
    assert consts == []
    np.testing.assert_allclose(np.asarray(g(fnp.array([1.0, 1.0]))), [4.0, 5.0])


def test_closure_convert_under_custom_vjp_gives_gradients_of_closed_over_values():
    def outer(w):
        f = lambda x: fnp.sin(w * x)  # noqa: E731
        g, consts = fgrad.closure_convert(f, 1.0)
        return g(0.5, *consts)

    np.testing.assert_allclose(float(fgrad.grad(outer)(2.0)), 0.5 * np.cos(1.0), rtol=1e-14)


def test_adjoint_gradients_under_jit_use_the_adjoint_rule():
    # jit keeps odeint's custom_vjp (the adjoint ODE), so grad of the jitted loss is JAX's
    # adjoint gradient, not a derivative through the adaptive solver's loop
    g = fgrad.grad(fgrad.jit(_loss), argnums=(0, 1, 2))(2.0, 0.3, Y0, TS)
    np.testing.assert_allclose([float(g[0]), float(g[1])], JAX_GRAD_AB, rtol=1e-11)
    np.testing.assert_allclose(np.asarray(g[2]["x"]), JAX_GRAD_X0, rtol=1e-11)
    gj = fgrad.jit(fgrad.grad(_loss))(2.0, 0.3, Y0, TS)
    np.testing.assert_allclose(float(gj), JAX_GRAD_AB[0], rtol=1e-11)
