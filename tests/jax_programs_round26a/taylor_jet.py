"""Taylor-mode automatic differentiation with jax.experimental.jet, in the style of the jet
docs and of Bettencourt et al.'s "Taylor-mode automatic differentiation for higher-order
derivatives": Taylor coefficients of elementwise functions (sin, exp, log, tanh, logistic,
sqrt, pow, division) against nested jax.jvp; a dot product and reductions (sum, max, mean);
a small MLP pushed along a line in input space; the Taylor-series solution of an ODE
(x' = f(x)) built coefficient by coefficient from jet, against an explicit solution; and
jet under jit and vmap."""

from math import factorial

import jax
import jax.numpy as jnp
from jax import random
from jax.experimental.jet import jet

jnp.set_printoptions(precision=5, suppress=True)


def nested_derivatives(f, x, v, order):
    """d^k/dt^k f(x + t v) at t = 0 for k = 1..order, by nested jvp."""
    outs = []
    g = f
    for _ in range(order):
        g_prev = g

        def g(y, g_prev=g_prev):
            return jax.jvp(g_prev, (y,), (v,))[1]
        outs.append(g(x))
    return outs


x0 = jnp.array([0.3, 0.7, 1.1])
v = jnp.array([1.0, -0.5, 0.25])
zero = jnp.zeros_like(x0)

print("== elementwise functions, order 4 ==")
funcs = {
    "sin": jnp.sin, "exp": jnp.exp, "log": jnp.log, "tanh": jnp.tanh,
    "logistic": jax.nn.sigmoid, "sqrt": jnp.sqrt, "cube": lambda x: x ** 3,
    "pow2.5": lambda x: x ** 2.5, "recip": lambda x: 1.0 / (1.0 + x),
    "sin*exp": lambda x: jnp.sin(x) * jnp.exp(-x), "log1p": jnp.log1p, "expm1": jnp.expm1,
    "int poly": lambda x: (x + 1) ** 2 * (3 - x), "x^(x+1)": lambda x: x ** (x + 1),
}
for name, f in funcs.items():
    y, ys = jet(f, (x0,), ((v, zero, zero, zero),))
    ref = nested_derivatives(f, x0, v, 4)
    err = max(float(jnp.max(jnp.abs(a - b) / (1 + jnp.abs(b)))) for a, b in zip(ys, ref))
    print(f"{name:9s} y={y} d4={ys[3]} agree={err < 1e-4}")

print("== a curve with higher input terms ==")
y, ys = jet(jnp.exp, (x0,), ((v, 0.5 * v, -v),))
print("exp along a cubic:", y, ys[0], ys[1], ys[2])
f = lambda x: jnp.tanh(x) * jnp.cos(x)
y, ys = jet(f, (x0,), ((v, v ** 2, zero),))
print("tanh*cos along a quadratic:", ys[2])

print("== dot and reductions ==")
key = random.PRNGKey(0)
A = random.normal(key, (4, 3))
y, ys = jet(lambda x: A @ x, (x0,), ((v, zero, zero),))
print("A @ x:", y, ys[0], ys[1])
y, ys = jet(lambda x: jnp.sum(jnp.exp(A @ x)), (x0,), ((v, zero, zero),))
print("sum exp(Ax):", y, [float(t) for t in ys])
print("   nested jvp:", [float(t) for t in nested_derivatives(lambda x: jnp.sum(jnp.exp(A @ x)), x0, v, 3)])
y, ys = jet(lambda x: jnp.max(jnp.sin(x)), (x0,), ((v, zero, zero),))
print("max sin(x):", float(y), [float(t) for t in ys])
y, ys = jet(lambda x: jnp.mean(x ** 2, axis=0), (jnp.stack([x0, 2 * x0]),),
            ((jnp.stack([v, v]), jnp.zeros((2, 3)), jnp.zeros((2, 3))),))
print("mean x^2 axis 0:", y, ys[0], ys[1])
y, ys = jet(lambda a, b: jnp.dot(a, b), (x0, v), ((v, zero), (x0, zero)))
print("dot(a, b) both moving:", float(y), [float(t) for t in ys])

print("== an MLP along a line ==")
k1, k2 = random.split(random.PRNGKey(1))
W1 = random.normal(k1, (8, 3)) * 0.5
W2 = random.normal(k2, (1, 8)) * 0.5


def mlp(x):
    return (W2 @ jnp.tanh(W1 @ x + 0.1))[0]


y, ys = jet(mlp, (x0,), ((v, zero, zero, zero),))
ref = nested_derivatives(mlp, x0, v, 4)
print("mlp:", float(y), [float(t) for t in ys])
print("nested jvp agree:",
      all(abs(float(a) - float(b)) < 1e-4 * (1 + abs(float(b))) for a, b in zip(ys, ref)))
hvv = jnp.dot(v, jax.hessian(mlp)(x0) @ v)
print("second term = v^T H v:", bool(jnp.allclose(ys[1], hvv, rtol=1e-4)))

print("== Taylor series solution of x' = f(x) ==")


def ode_rhs(x):
    return jnp.array([x[1], -jnp.sin(x[0])])  # the pendulum


def taylor_coefficients(f, x0, order):
    """Coefficients x_k (x(t) = sum x_k t^k) of the solution of x' = f(x) through x(0) = x0."""
    coeffs = [x0, f(x0)]
    for k in range(1, order):
        # derivatives of x(t) at 0: x^(j) = j! x_j
        series = [factorial(j) * coeffs[j] for j in range(1, k + 1)]
        _, fs = jet(f, (x0,), (series,))
        # x^(k+1) = d^k/dt^k f(x(t)) = fs[k-1]
        coeffs.append(fs[k - 1] / factorial(k + 1))
    return jnp.stack(coeffs)


c = taylor_coefficients(ode_rhs, jnp.array([0.5, 0.0]), 6)
print("pendulum coefficients:\n", c)
t = 0.2
approx = jnp.sum(c * (t ** jnp.arange(c.shape[0]))[:, None], axis=0)


def rk4(f, x, h, n):
    for _ in range(n):
        a = f(x)
        b = f(x + h / 2 * a)
        cc = f(x + h / 2 * b)
        d = f(x + h * cc)
        x = x + h / 6 * (a + 2 * b + 2 * cc + d)
    return x


print("x(0.2) Taylor:", approx, "RK4:", rk4(ode_rhs, jnp.array([0.5, 0.0]), 0.002, 100))
c_exp = taylor_coefficients(lambda x: -0.5 * x, jnp.array([2.0]), 5)
print("x' = -x/2 coefficients:", c_exp[:, 0], "exact:",
      jnp.array([2.0 * (-0.5) ** k / factorial(k) for k in range(6)]))

print("== jet under jit and vmap ==")


@jax.jit
def third_derivative_of_mlp(x, direction):
    _, ys = jet(mlp, (x,), ((direction, jnp.zeros_like(x), jnp.zeros_like(x)),))
    return ys[2]


print("jit:", float(third_derivative_of_mlp(x0, v)))
dirs = jnp.eye(3)
print("vmap over directions:", jax.vmap(lambda d: third_derivative_of_mlp(x0, d))(dirs))
scalars = jnp.linspace(0.1, 1.0, 4)
print("vmap over points:",
      jax.vmap(lambda s: jet(jnp.tanh, (s,), ((1.0, 0.0, 0.0),))[1][2])(scalars))
