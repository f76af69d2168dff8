"""Compositions of transforms, checked against analytic derivatives.

1. A composition matrix: every sequence of {grad, jvp, vmap} up to depth 3 (39 sequences,
   vmap over leading or trailing axes) applied to smooth elementwise functions whose
   derivatives of every order are known in closed form.  For an elementwise ``f``,
   ``grad(sum∘g)``, ``jvp(g, ones)`` and ``vmap(g)`` map ``f^(k)`` to ``f^(k+1)``,
   ``f^(k+1)`` and ``f^(k)``, so every sequence has an exact reference.
2. Mixed-order identities for a non-elementwise function (Hessian-vector products and third
   derivatives by every nesting of forward and reverse mode, jacfwd/jacrev/hessian, under
   vmap), checked against each other and against finite differences.
3. Derivatives of order 5 by nested grad, nested jvp, mixed nesting and jacobians.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.testing import check_grads

# --------------------------------------------------------------------------------------
# smooth functions with closed-form derivatives of every order


def _tanh_derivative(n, x):
    """d^n/dx^n tanh(x) = P_n(tanh x) with P_0(u) = u, P_{k+1}(u) = P_k'(u) (1 - u^2)."""
    P = np.polynomial.Polynomial([0.0, 1.0])
    one_minus_u2 = np.polynomial.Polynomial([1.0, 0.0, -1.0])
    for _ in range(n):
        P = P.deriv() * one_minus_u2
    return P(np.tanh(x))


def _power_derivative(k):
    def d(n, x):
        if n > k:
            return np.zeros_like(x)
        return math.factorial(k) / math.factorial(k - n) * x ** (k - n)

    return d


_C = 0.5 + 2.0j  # sin(2x) exp(x/2) = Im(exp(c x))

SMOOTH = {
    "sin": (fnp.sin, lambda n, x: np.sin(x + n * np.pi / 2)),
    "exp": (fnp.exp, lambda n, x: np.exp(x)),
    "tanh": (fnp.tanh, _tanh_derivative),
    "x**7": (lambda x: x ** 7, _power_derivative(7)),
    "sin(2x)*exp(x/2)": (lambda x: fnp.sin(2.0 * x) * fnp.exp(0.5 * x),
                         lambda n, x: np.imag(_C ** n * np.exp(_C * x))),
}

# --------------------------------------------------------------------------------------
# the composition matrix


def _G(g):
    return lambda x: fgrad.grad(lambda y: fnp.sum(g(y)))(x)


def _J(g):
    return lambda x: fgrad.jvp(g, (x,), (fnp.ones_like(x),))[1]


def _V0(g):
    return fgrad.vmap(g)


def _Vlast(g):
    return fgrad.vmap(g, in_axes=-1, out_axes=-1)


OPS = {"grad": (_G, 1), "jvp": (_J, 1), "vmap": (_V0, 0), "vmap[-1]": (_Vlast, 0)}
SEQUENCES = [seq for depth in (1, 2, 3) for seq in itertools.product(("grad", "jvp", "vmap"), repeat=depth)]
# the trailing-axis vmap variant on every depth-2 sequence with a vmap
SEQUENCES += [tuple("vmap[-1]" if s == "vmap" else s for s in seq)
              for seq in itertools.product(("grad", "jvp", "vmap"), repeat=2) if "vmap" in seq]


@pytest.mark.parametrize("fname", list(SMOOTH))
@pytest.mark.parametrize("seq", SEQUENCES, ids=["∘".join(s) for s in SEQUENCES])
def test_composition_matrix(seq, fname):
    f, deriv = SMOOTH[fname]
    g, order = f, 0
    for name in reversed(seq):  # seq is written outermost first: ("grad", "vmap") = grad(vmap(f))
        op, k = OPS[name]
        g, order = op(g), order + k
    x = np.random.default_rng(len(seq)).uniform(-1.2, 1.2, size=(2, 3, 2))
    out = g(fnp.asarray(x))
    assert out.shape == x.shape and out.dtype == np.float64
    np.testing.assert_allclose(np.asarray(out), deriv(order, x), rtol=1e-9, atol=1e-9,
                               err_msg=f"{'∘'.join(seq)} of {fname} (derivative order {order})")


@pytest.mark.parametrize("seq", [("grad", "vmap", "jvp"), ("vmap", "grad", "grad"), ("jvp", "jvp", "vmap")],
                         ids=lambda s: "∘".join(s))
def test_composition_matrix_float32(seq):
    g, order = fnp.tanh, 0
    for name in reversed(seq):
        op, k = OPS[name]
        g, order = op(g), order + k
    x = np.random.default_rng(0).uniform(-1, 1, size=(3, 4)).astype(np.float32)
    out = g(fnp.asarray(x))
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.asarray(out), _tanh_derivative(order, x.astype(np.float64)), rtol=2e-4,
                               atol=2e-5)


# --------------------------------------------------------------------------------------
# a non-elementwise function: all ways of computing second and third derivatives agree

_W = np.random.default_rng(1).normal(size=(4, 3))


def _scalar_f(x):
    """R^3 -> R, with cross terms: sum(tanh(W x)) + (x . x)^2 / 4 + x0 * sin(x1 x2)."""
    return (fnp.sum(fnp.tanh(fnp.asarray(_W) @ x)) + fnp.sum(x * x) ** 2 / 4.0
            + x[0] * fnp.sin(x[1] * x[2]))


def _hvp_variants():
    f = _scalar_f
    g = fgrad.grad(f)
    return {
        "jvp(grad)": lambda x, v: fgrad.jvp(g, (x,), (v,))[1],
        "grad(jvp)": lambda x, v: fgrad.grad(lambda y: fgrad.jvp(f, (y,), (v,))[1])(x),
        "grad(vdot grad)": lambda x, v: fgrad.grad(lambda y: fnp.sum(g(y) * v))(x),
        "linearize(grad)": lambda x, v: fgrad.linearize(g, x)[1](v),
        "vjp(grad)": lambda x, v: fgrad.vjp(g, x)[1](v)[0],
        "hessian@v": lambda x, v: fgrad.hessian(f)(x) @ v,
        "jacfwd(jacrev)@v": lambda x, v: fgrad.jacfwd(fgrad.jacrev(f))(x) @ v,
        "jacrev(jacfwd)@v": lambda x, v: fgrad.jacrev(fgrad.jacfwd(f))(x) @ v,
        "jacrev(grad)@v": lambda x, v: fgrad.jacrev(g)(x) @ v,
        "jvp(jacrev)": lambda x, v: fgrad.jvp(fgrad.jacrev(f), (x,), (v,))[1],
    }


def _fd_hvp(x, v, eps=1e-5):
    g = fgrad.grad(_scalar_f)
    return (np.asarray(g(fnp.asarray(x + eps * v))) - np.asarray(g(fnp.asarray(x - eps * v)))) / (2 * eps)


@pytest.mark.parametrize("name", list(_hvp_variants()))
def test_hessian_vector_products_agree(name):
    rng = np.random.default_rng(2)
    x, v = rng.normal(size=3), rng.normal(size=3)
    hv = _hvp_variants()[name](fnp.asarray(x), fnp.asarray(v))
    np.testing.assert_allclose(np.asarray(hv), _fd_hvp(x, v), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name", ["jvp(grad)", "grad(jvp)", "vjp(grad)", "hessian@v", "jacfwd(jacrev)@v"])
def test_hessian_vector_products_under_vmap(name):
    rng = np.random.default_rng(3)
    xs, vs = rng.normal(size=(4, 3)), rng.normal(size=(4, 3))
    fn = _hvp_variants()[name]
    batched = fgrad.vmap(fn)(fnp.asarray(xs), fnp.asarray(vs))
    loop = np.stack([np.asarray(fn(fnp.asarray(x), fnp.asarray(v))) for x, v in zip(xs, vs, strict=True)])
    np.testing.assert_allclose(np.asarray(batched), loop, rtol=1e-10, atol=1e-12)
    # a shared direction (in_axes None) and a batched one
    shared = fgrad.vmap(fn, in_axes=(0, None))(fnp.asarray(xs), fnp.asarray(vs[0]))
    loop = np.stack([np.asarray(fn(fnp.asarray(x), fnp.asarray(vs[0]))) for x in xs])
    np.testing.assert_allclose(np.asarray(shared), loop, rtol=1e-10, atol=1e-12)


def _third_variants():
    """D^3 f [u, v, w] by every nesting of forward (J) and reverse (R) mode."""
    f = _scalar_f

    def J(h, t):  # directional derivative of a function returning a scalar
        return lambda x: fgrad.jvp(h, (x,), (t,))[1]

    def R_dot(h, t):  # reverse mode: <grad h, t>
        return lambda x: fnp.sum(fgrad.grad(h)(x) * t)

    out = {}
    for kinds in itertools.product("JR", repeat=3):
        def make(kinds=kinds):
            def d3(x, u, v, w):
                h = f
                for kind, t in zip(kinds, (u, v, w), strict=True):
                    h = J(h, t) if kind == "J" else R_dot(h, t)
                return h(x)

            return d3

        out["".join(kinds)] = make()
    return out


@pytest.mark.parametrize("kinds", list(_third_variants()))
def test_third_derivatives_agree(kinds):
    rng = np.random.default_rng(4)
    x, u, v, w = (fnp.asarray(rng.normal(size=3)) for _ in range(4))
    val = _third_variants()[kinds](x, u, v, w)
    ref = _third_variants()["JJJ"]
    # finite difference of the exact second derivative D^2 f[u, v] along w
    eps = 1e-5
    d2 = lambda y: fgrad.jvp(lambda z: fgrad.jvp(_scalar_f, (z,), (u,))[1], (y,), (v,))[1]
    fd = (float(d2(x + eps * w)) - float(d2(x - eps * w))) / (2 * eps)
    np.testing.assert_allclose(float(val), fd, rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(float(val), float(ref(x, u, v, w)), rtol=1e-11, atol=1e-12)


def test_vmap_of_third_derivative_and_grad_of_vmap():
    rng = np.random.default_rng(5)
    xs = rng.normal(size=(3, 3))
    u, v, w = (fnp.asarray(rng.normal(size=3)) for _ in range(3))
    d3 = _third_variants()["JRJ"]
    batched = fgrad.vmap(lambda x: d3(x, u, v, w))(fnp.asarray(xs))
    loop = [float(d3(fnp.asarray(x), u, v, w)) for x in xs]
    np.testing.assert_allclose(np.asarray(batched), loop, rtol=1e-10)
    # grad of a vmapped per-example loss == sum of per-example grads
    g = fgrad.grad(lambda X: fnp.sum(fgrad.vmap(_scalar_f)(X)))(fnp.asarray(xs))
    loop = np.stack([np.asarray(fgrad.grad(_scalar_f)(fnp.asarray(x))) for x in xs])
    np.testing.assert_allclose(np.asarray(g), loop, rtol=1e-10)


def test_check_grads_order_3_on_composite():
    rng = np.random.default_rng(6)
    check_grads(_scalar_f, (fnp.asarray(rng.normal(size=3)),), order=3)
    check_grads(lambda x: fgrad.vmap(_scalar_f)(x), (fnp.asarray(rng.normal(size=(2, 3))),), order=2)


# --------------------------------------------------------------------------------------
# derivatives of order 5


def _nest(kinds, f):
    """Apply derivative operators (``"G"``: grad, ``"J"``: jvp with tangent 1,
    ``"F"``: jacfwd, ``"R"``: jacrev) innermost-last."""
    g = f
    for k in reversed(kinds):
        if k == "G":
            g = fgrad.grad(g)
        elif k == "J":
            g = (lambda h: lambda x: fgrad.jvp(h, (x,), (fnp.ones_like(x),))[1])(g)
        elif k == "F":
            g = fgrad.jacfwd(g)
        else:
            g = fgrad.jacrev(g)
    return g


ORDER5 = ["GGGGG", "JJJJJ", "GJGJG", "JGJGJ", "GGJJJ", "JJJGG", "FRFRF", "RRGJF"]


@pytest.mark.parametrize("kinds", ORDER5)
@pytest.mark.parametrize("fname", list(SMOOTH))
def test_fifth_derivative(fname, kinds):
    f, deriv = SMOOTH[fname]
    for x in (0.3, -0.8):
        d5 = _nest(kinds, f)(fnp.asarray(x))
        np.testing.assert_allclose(float(d5), deriv(5, x), rtol=1e-9, atol=1e-9,
                                   err_msg=f"{kinds} of {fname} at {x}")


@pytest.mark.parametrize("fname", ["tanh", "sin(2x)*exp(x/2)"])
def test_fifth_derivative_under_vmap(fname):
    f, deriv = SMOOTH[fname]
    xs = np.linspace(-1.0, 1.0, 5)
    inner = fgrad.vmap(_nest("GJGJG", f))(fnp.asarray(xs))          # vmap outside
    np.testing.assert_allclose(np.asarray(inner), deriv(5, xs), rtol=1e-9, atol=1e-9)
    g = f
    for _ in range(5):  # a vmap inside every derivative level (over two copies of the point)
        g = (lambda h: fgrad.grad(lambda y: fnp.sum(fgrad.vmap(h)(fnp.stack([y, y]))) / 2.0))(g)
    np.testing.assert_allclose(float(g(0.3)), deriv(5, 0.3), rtol=1e-9, atol=1e-9)


def test_fifth_derivative_float32():
    x = fnp.asarray(np.float32(0.3))
    d5 = _nest("GJGJG", fnp.sin)(x)
    assert d5.dtype == np.float32
    np.testing.assert_allclose(float(d5), np.cos(0.3), rtol=1e-5)


def test_fifth_order_mixed_partial():
    # f(x, y) = exp(x y): d^5 / dx^2 dy^3 at (a, b) computed by nested grads over argnums
    f = lambda x, y: fnp.exp(x * y)
    g = fgrad.grad(f, argnums=0)
    g = fgrad.grad(g, argnums=0)
    g = fgrad.grad(g, argnums=1)
    g = fgrad.grad(g, argnums=1)
    g = fgrad.grad(g, argnums=1)
    a, b = 0.4, -0.7
    # d^2/dx^2 exp(xy) = y^2 e^{xy};  d^3/dy^3 [y^2 e^{xy}] by Leibniz
    e = np.exp(a * b)
    ref = e * (b ** 2 * a ** 3 + 3 * 2 * b * a ** 2 + 3 * 2 * a)
    np.testing.assert_allclose(float(g(a, b)), ref, rtol=1e-10)
