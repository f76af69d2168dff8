"""jax.scipy.optimize.minimize (BFGS) on Rosenbrock and on a logistic regression, and
Gaussian-process hyperparameters fitted with it (as in the GP tutorials): the negative
log marginal likelihood through cho_factor/cho_solve, a softplus parameterization,
OptimizeResults fields, predictions with solve_triangular, and a vmap'd minimize."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import cho_factor, cho_solve, solve_triangular
from jax.scipy.optimize import minimize


def rosen(p):
    return jnp.sum(100.0 * (p[1:] - p[:-1] ** 2) ** 2 + (1 - p[:-1]) ** 2)


res = minimize(rosen, jnp.array([-1.2, 1.0, 0.5]), method="BFGS")
print("success", res.success, res.status)
print("x", res.x)
print("fun < 1e-6", res.fun < 1e-6, "nit > 5", res.nit > 5, res.nfev > res.nit)
print("jac small", jnp.max(jnp.abs(res.jac)) < 1e-3)
print("hess_inv", res.hess_inv.shape)
print(type(res).__name__)

# logistic regression
key = jax.random.PRNGKey(0)
kx, kn = jax.random.split(key)
Xd = jax.random.normal(kx, (50, 3))
w_true = jnp.array([1.5, -2.0, 0.5])
yd = (Xd @ w_true + 0.5 * jax.random.normal(kn, (50,)) > 0).astype(jnp.float32)


def nll(w):
    logits = Xd @ w
    return jnp.mean(jax.nn.softplus(logits) - yd * logits) + 0.01 * jnp.sum(w ** 2)


r = minimize(nll, jnp.zeros(3), method="BFGS", options={"maxiter": 100, "gtol": 1e-6})
print("logreg", r.x, r.fun)
print("grad at optimum", jnp.max(jnp.abs(jax.grad(nll)(r.x))) < 1e-4)

# Gaussian process
Xtr = jnp.linspace(-3.0, 3.0, 15)[:, None]
ytr = jnp.sin(2 * Xtr[:, 0]) + 0.1 * jax.random.normal(jax.random.PRNGKey(1), (15,))


def kernel(a, b, ls, var):
    return var * jnp.exp(-0.5 * jnp.sum((a[:, None] - b[None]) ** 2, -1) / ls ** 2)


def neg_mll(log_params):
    ls, var, noise = jax.nn.softplus(log_params) + 1e-4
    K = kernel(Xtr, Xtr, ls, var) + noise * jnp.eye(Xtr.shape[0])
    c, low = cho_factor(K, lower=True)
    alpha = cho_solve((c, low), ytr)
    return 0.5 * ytr @ alpha + jnp.sum(jnp.log(jnp.diag(c))) + 0.5 * len(ytr) * jnp.log(2 * jnp.pi)


p0 = jnp.array([0.0, 0.0, -2.0])
print("initial nmll", neg_mll(p0))
gp = minimize(neg_mll, p0, method="BFGS")
print("fitted", jax.nn.softplus(gp.x) + 1e-4, gp.fun)
ls, var, noise = jax.nn.softplus(gp.x) + 1e-4
K = kernel(Xtr, Xtr, ls, var) + noise * jnp.eye(15)
Lk = jnp.linalg.cholesky(K)
Xte = jnp.array([[-2.0], [0.0], [1.5]])
Ks = kernel(Xte, Xtr, ls, var)
alpha = solve_triangular(Lk.T, solve_triangular(Lk, ytr, lower=True), lower=False)
v = solve_triangular(Lk, Ks.T, lower=True)
print("mean", Ks @ alpha)
print("std", jnp.sqrt(var - jnp.sum(v ** 2, 0)))

# many small problems at once
centers = jnp.array([[1.0, 2.0], [-1.0, 0.5], [3.0, -3.0]])
sols = jax.vmap(lambda c: minimize(lambda p: jnp.sum((p - c) ** 2) + 0.1 * jnp.sum(p ** 4), jnp.zeros(2),
                                   method="BFGS").x)(centers)
print("vmapped", sols)
print("jit", jax.jit(lambda x0: minimize(rosen, x0, method="BFGS").fun < 1e-6)(jnp.array([0.0, 0.0, 0.0])))
