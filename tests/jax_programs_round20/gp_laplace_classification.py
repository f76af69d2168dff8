"""Gaussian-process classification with the Laplace approximation (Rasmussen & Williams,
Algorithms 3.1 and 3.2) in JAX: an RBF kernel, Newton's method for the posterior mode in
lax.while_loop with B = I + W^1/2 K W^1/2 factored by jax.scipy.linalg.cho_factor (upper,
the SciPy default) and cho_solve, the approximate log marginal likelihood with its gradient wrt
the log length-scale and log amplitude (through the converged mode, by implicit
differentiation with jax.lax.custom_root), probit-approximated predictive probabilities by
jax.scipy.stats.norm.cdf, checked against a dense jnp.linalg.slogdet / solve version."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cho_factor, cho_solve, solve_triangular
from jax.scipy.stats import norm

jnp.set_printoptions(precision=5, suppress=True)

key = jax.random.PRNGKey(0)
k1, k2 = jax.random.split(key)
X = jnp.sort(jax.random.uniform(k1, (24,), minval=-3.0, maxval=3.0))
f_true = jnp.sin(1.5 * X) + 0.3 * X
y = jnp.where(jax.random.uniform(k2, (24,)) < jax.nn.sigmoid(3 * f_true), 1.0, -1.0)
print("labels", y.astype(jnp.int32))


def kernel(a, b, log_ell, log_amp):
    d2 = (a[:, None] - b[None, :]) ** 2
    return jnp.exp(2 * log_amp) * jnp.exp(-0.5 * d2 / jnp.exp(2 * log_ell))


def log_lik(f):
    return jnp.sum(jax.nn.log_sigmoid(y * f))


def newton_step(f, K):
    pi = jax.nn.sigmoid(f)
    W = pi * (1 - pi)
    sW = jnp.sqrt(W)
    B = jnp.eye(f.shape[0]) + sW[:, None] * K * sW[None, :]
    c = cho_factor(B)
    grad = (y + 1) / 2 - pi
    b = W * f + grad
    a = b - sW * cho_solve(c, sW * (K @ b))
    return K @ a


def find_mode(K):
    def cond(state):
        f, f_prev, i = state
        return (jnp.max(jnp.abs(f - f_prev)) > 1e-6) & (i < 50)

    def body(state):
        f, _, i = state
        return newton_step(f, K), f, i + 1

    f0 = jnp.zeros(K.shape[0])
    f, _, iters = jax.lax.while_loop(cond, body, (newton_step(f0, K), f0, 1))
    return f, iters


def mode_implicit(K):
    """The mode as a root of f - K grad log p(y|f), differentiated implicitly."""
    def residual(f):
        return f - K @ ((y + 1) / 2 - jax.nn.sigmoid(f))

    def solve(res, f0):
        return find_mode(K)[0]

    def tangent_solve(g, v):
        return jnp.linalg.solve(jax.jacobian(g)(v), v)

    return jax.lax.custom_root(residual, jnp.zeros(K.shape[0]), solve, tangent_solve)


def approx_log_marginal(params):
    K = kernel(X, X, *params) + 1e-4 * jnp.eye(X.shape[0])
    f = mode_implicit(K)
    W = jax.nn.sigmoid(f) * (1 - jax.nn.sigmoid(f))
    sW = jnp.sqrt(W)
    B = jnp.eye(X.shape[0]) + sW[:, None] * K * sW[None, :]
    U, _ = cho_factor(B)  # upper: B = U^T U
    a = (y + 1) / 2 - jax.nn.sigmoid(f)  # K a = f at the mode (R&W 3.1, no solve with K)
    return -0.5 * a @ f + log_lik(f) - jnp.sum(jnp.log(jnp.diag(U)))


def approx_log_marginal_dense(params):
    K = kernel(X, X, *params) + 1e-4 * jnp.eye(X.shape[0])
    f = mode_implicit(K)
    W = jax.nn.sigmoid(f) * (1 - jax.nn.sigmoid(f))
    sign, logdet = jnp.linalg.slogdet(jnp.eye(X.shape[0]) + jnp.sqrt(W)[:, None] * K * jnp.sqrt(W)[None, :])
    return -0.5 * f @ jnp.linalg.solve(K, f) + log_lik(f) - 0.5 * logdet





params = jnp.array([0.0, 0.5])
K = kernel(X, X, *params) + 1e-4 * jnp.eye(X.shape[0])
f_hat, iters = find_mode(K)
print("newton iterations", int(iters))
print("mode[:6]", f_hat[:6])
print("stationary:", bool(jnp.allclose(f_hat, K @ ((y + 1) / 2 - jax.nn.sigmoid(f_hat)), atol=1e-4)))
U, lower = cho_factor(jnp.eye(3) + K[:3, :3])
print("cho_factor lower?", lower, "upper factor", U[0])
print("log marginal", float(approx_log_marginal(params)), float(approx_log_marginal_dense(params)))
g = jax.grad(approx_log_marginal)(params)
gd = jax.grad(approx_log_marginal_dense)(params)
print("grad", g, "dense", gd)
eps = 1e-3
fd = jnp.array([(approx_log_marginal(params + eps * e) - approx_log_marginal(params - eps * e)) / (2 * eps)
                for e in jnp.eye(2)])
print("grad vs central differences:", bool(jnp.allclose(g, fd, rtol=2e-2, atol=2e-2)))

# hyperparameters by gradient ascent
step = jax.jit(jax.value_and_grad(approx_log_marginal))
p = params
for i in range(10):
    v, gp = step(p)
    p = p + 0.05 * gp
    if i % 5 == 0:
        print(f"ascent {i}: log marginal {float(v):.5f}")
print("fitted log length-scale, log amplitude", p)

# predictive probabilities (Algorithm 3.2 with the probit approximation of the sigmoid)
Xs = jnp.linspace(-3.0, 3.0, 7)
K = kernel(X, X, *p) + 1e-4 * jnp.eye(X.shape[0])
f_hat, _ = find_mode(K)
pi = jax.nn.sigmoid(f_hat)
sW = jnp.sqrt(pi * (1 - pi))
L = jnp.linalg.cholesky(jnp.eye(X.shape[0]) + sW[:, None] * K * sW[None, :])
Ks = kernel(X, Xs, *p)
mean = Ks.T @ ((y + 1) / 2 - pi)
v = solve_triangular(L, sW[:, None] * Ks, lower=True)
var = jnp.exp(2 * p[1]) - jnp.sum(v**2, axis=0)
prob = norm.cdf(mean / jnp.sqrt(1 / (jnp.pi / 8) + var) * jnp.sqrt(jnp.pi / 8) * jnp.sqrt(1 / (jnp.pi / 8)))
print("predictive mean", mean)
print("predictive var ", var)
print("p(y=1)         ", jax.nn.sigmoid(mean / jnp.sqrt(1 + jnp.pi * var / 8)))
