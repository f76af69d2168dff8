"""``lax.custom_root``: implicit derivatives of a root finder (JAX's). Stored JAX 0.10.2 (x64)
numbers, live JAX, finite differences (orders 1-2, forward and reverse), jit, vmap, has_aux;
and the custom_jvp fix it needed (a float0 zero tangent for an integer output)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.custom_derivatives import zero_from_primal
from fgrad.test_util import check_grads

A = np.array([[3.0, 0.5, 0.1], [0.2, 4.0, 0.3], [0.1, 0.4, 5.0]])
THETA = np.array([0.5, -0.3, 0.8])
B = np.array([1.0, 2.0, -1.0])


def _program(J, np_, lax_):
    """The same program for fgrad and JAX: a scalar and a vector root, their derivatives."""
    def newton(f, x):
        for _ in range(30):
            x = x - f(x) / J.grad(f)(x)
        return x

    def sqrt(a):
        return lax_.custom_root(lambda x: x ** 2 - a, 1.0, newton, lambda g, y: y / g(1.0))

    a_mat = np_.asarray(A)

    def solve_vec(f, x):
        for _ in range(40):
            x = x - np_.linalg.solve(J.jacfwd(f)(x), f(x))
        return x

    def tsolve(g, y):
        return np_.linalg.solve(J.jacfwd(g)(y), y)

    def root_of(theta, b):
        return lax_.custom_root(lambda x: a_mat @ x + np_.sin(x) * theta - b, np_.zeros(3), solve_vec, tsolve)

    theta, b = np_.asarray(THETA), np_.asarray(B)
    return {
        "sqrt": [float(sqrt(2.0)), float(J.grad(sqrt)(2.0)), float(J.grad(J.grad(sqrt))(2.0))],
        "root": np.asarray(root_of(theta, b)),
        "jacrev_theta": np.asarray(J.jacrev(root_of)(theta, b)),
        "jacfwd_b": np.asarray(J.jacfwd(root_of, argnums=1)(theta, b)),
        "hessian": np.asarray(J.hessian(lambda t: root_of(t, b).sum())(theta)),
        "jit_grad": np.asarray(J.jit(J.grad(lambda t: (root_of(t, b) ** 2).sum()))(theta)),
        "vmap_grad": np.asarray(J.vmap(J.grad(sqrt))(np_.asarray([1.0, 4.0, 9.0]))),
    }


STORED = {  # JAX 0.10.2, x64
    "sqrt": [1.414213562373095, 0.3535533905932738, -0.08838834764831847],
    "root": [0.214322705083, 0.544150283363, -0.213860960673],
    "jacrev_theta": [[-0.061451615982, 0.019812595268, -0.000639145123],
                     [0.00321591062, -0.140104906233, -0.002924786221],
                     [0.000840364306, 0.009350191387, 0.036920894357]],
    "jacfwd_b": [[0.288931612514, -0.038271061817, -0.003011504712],
                 [-0.015120485054, 0.270634081743, -0.013780919489],
                 [-0.003951203076, -0.018061326531, 0.173962756295]],
    "hessian": [[0.032515834, -0.0058340876, 4.00743e-05], [-0.0058340876, 0.0507319607, -0.0009230499],
                [4.00743e-05, -0.0009230499, -0.011377995]],
    "jit_grad": [-0.023200518024, -0.147982952654, -0.019248888998],
    "vmap_grad": [0.5, 0.25, 0.166666666667],
}


def test_stored_jax_numbers():
    ours = _program(fgrad, fnp, lax)
    for key, ref in STORED.items():
        np.testing.assert_allclose(ours[key], ref, rtol=1e-8, atol=1e-10, err_msg=key)


def test_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    with jax.enable_x64(True):
        ref = _program(jax, jnp, jax.lax)
    ours = _program(fgrad, fnp, lax)
    for key in ref:
        np.testing.assert_allclose(ours[key], ref[key], rtol=1e-10, atol=1e-12, err_msg=key)


def _cube_root(a):
    def bisect(f, x):  # a solver with no derivative at all (a host loop on concrete values)
        lo, hi = 0.0, 10.0
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            lo, hi = (mid, hi) if float(f(mid)) < 0 else (lo, mid)
        return fnp.asarray(0.5 * (lo + hi))
    return lax.custom_root(lambda x: x ** 3 - a, 1.0, bisect, lambda g, y: y / g(1.0))


def test_finite_differences_and_a_solver_without_derivatives():
    check_grads(lambda a: lax.custom_root(lambda x: x ** 3 - a * x - 1.0, 1.5,
                                          lambda f, x: _newton(f, x), lambda g, y: y / g(1.0)),
                (2.0,), order=2, modes=["fwd", "rev"])
    # the solver runs on concrete values only; the derivative needs none of it
    assert abs(float(fgrad.grad(_cube_root)(8.0)) - 1 / 12) < 1e-12


def _newton(f, x):
    for _ in range(40):
        x = x - f(x) / fgrad.grad(f)(x)
    return x


def test_has_aux_returns_the_solver_output_without_derivative():
    def solve(f, x):
        return _newton(f, x), fnp.asarray(40)

    def root(a):
        return lax.custom_root(lambda x: x ** 3 - a, 1.0, solve, lambda g, y: y / g(1.0), has_aux=True)

    r, aux = root(8.0)
    assert abs(float(r) - 2.0) < 1e-12 and int(aux) == 40
    assert abs(float(fgrad.grad(lambda a: root(a)[0])(8.0)) - 1 / 12) < 1e-12
    _, (dr, daux) = fgrad.jvp(root, (8.0,), (1.0,))
    assert abs(float(dr) - 1 / 12) < 1e-12 and daux is not None


def test_custom_jvp_rule_may_return_float0_for_integer_outputs():
    """A rule returning ``zero_from_primal`` of an integer output (float0, as JAX documents)
    was refused with a dtype error from deep inside."""
    @fgrad.custom_jvp
    def f(x):
        return x * 2.0, fnp.asarray(3)

    @f.defjvp
    def f_jvp(primals, tangents):
        (x,), (t,) = primals, tangents
        out = f(x)
        return out, (t * 2.0, zero_from_primal(out[1]))

    assert float(fgrad.grad(lambda x: f(x)[0])(1.0)) == 2.0

    @fgrad.custom_jvp
    def bad(x):
        return x * 2.0

    @bad.defjvp
    def bad_jvp(primals, tangents):
        return bad(primals[0]), np.zeros((), fgrad.dtypes.float0)

    with pytest.raises(TypeError, match="float0 tangent"):
        fgrad.grad(bad)(1.0)


def test_closure_convert_accepts_python_scalars():
    """``converted(2.0, *consts)`` with a Python float (JAX accepts it) failed inside the
    traced program's first operation."""
    def outer(w):
        g, consts = fgrad.closure_convert(lambda x: fnp.sin(w * x), 1.0)
        return g(0.5, *consts)

    assert abs(float(outer(2.0)) - np.sin(1.0)) < 1e-15
    assert abs(float(fgrad.grad(outer)(2.0)) - 0.5 * np.cos(1.0)) < 1e-15
