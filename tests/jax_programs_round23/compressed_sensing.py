"""Sparse recovery and total-variation denoising as signal-processing code writes them in JAX:
a k-sparse signal measured by a Gaussian matrix, the lasso solved by FISTA (soft
thresholding, Nesterov momentum, step 1/L with L from jnp.linalg.norm(A, 2)) in
lax.fori_loop, by ADMM with one cached jax.scipy.linalg.cho_factor, and orthogonal matching
pursuit (greedy argmax of correlations, least squares on a masked support by
jnp.linalg.lstsq) in lax.scan; the lasso's KKT conditions checked through jax.grad of the
smooth part, a warm-started regularisation path by lax.scan, and 1-D total-variation
denoising of a piecewise-constant signal by the Chambolle-Pock primal-dual algorithm with
jnp.diff and its adjoint."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.linalg import cho_factor, cho_solve

jnp.set_printoptions(precision=4, suppress=True)
M, N, K = 40, 100, 5

k_support, k_values, k_matrix, k_noise = random.split(random.PRNGKey(0), 4)
support = random.choice(k_support, N, (K,), replace=False)
x_true = (
    jnp.zeros(N)
    .at[support]
    .set(random.normal(k_values, (K,)) + 2.0 * jnp.sign(random.normal(k_values, (K,))))
)
A = random.normal(k_matrix, (M, N)) / jnp.sqrt(M)
y = A @ x_true + 0.01 * random.normal(k_noise, (M,))
print("support", jnp.sort(support), "values", x_true[jnp.sort(support)])


def soft(v, t):
    return jnp.sign(v) * jnp.maximum(jnp.abs(v) - t, 0.0)


def smooth(x, lam):
    return 0.5 * jnp.sum((A @ x - y) ** 2)


def lasso_objective(x, lam):
    return smooth(x, lam) + lam * jnp.sum(jnp.abs(x))


L = jnp.linalg.norm(A, 2) ** 2


@jax.jit
def fista(lam, x0, iters=300):
    def body(_, state):
        x, z, t = state
        x_new = soft(z - jax.grad(smooth)(z, lam) / L, lam / L)
        t_new = (1.0 + jnp.sqrt(1.0 + 4.0 * t**2)) / 2.0
        return x_new, x_new + (t - 1.0) / t_new * (x_new - x), t_new

    return lax.fori_loop(0, iters, body, (x0, x0, 1.0))[0]


@jax.jit
def admm(lam, rho=1.0, iters=300):
    factor = cho_factor(A.T @ A + rho * jnp.eye(N))
    Aty = A.T @ y

    def body(_, state):
        x, z, u = state
        x = cho_solve(factor, Aty + rho * (z - u))
        z = soft(x + u, lam / rho)
        return x, z, u + x - z

    zeros = jnp.zeros(N)
    return lax.fori_loop(0, iters, body, (zeros, zeros, zeros))[1]


lam = 0.02
x_f, x_a = fista(lam, jnp.zeros(N)), admm(lam)
print(f"FISTA objective {float(lasso_objective(x_f, lam)):.5f} ADMM {float(lasso_objective(x_a, lam)):.5f}")
print(
    "FISTA support",
    jnp.nonzero(jnp.abs(x_f) > 1e-3, size=K)[0],
    "error",
    f"{float(jnp.linalg.norm(x_f - x_true)):.4f}",
)
print("FISTA == ADMM:", bool(jnp.allclose(x_f, x_a, atol=1e-3)))
# KKT: on the support grad = -lam sign(x); off it |grad| <= lam
g = jax.grad(smooth)(x_f, lam)
on = jnp.abs(x_f) > 1e-6
print(
    "KKT on support:",
    bool(jnp.allclose(jnp.where(on, g + lam * jnp.sign(x_f), 0.0), 0.0, atol=1e-3)),
    "off support:",
    bool(jnp.all(jnp.where(on, 0.0, jnp.abs(g)) <= lam + 1e-4)),
)


@jax.jit
def omp(A, y):
    def step(state, _):
        mask, residual = state
        corr = jnp.abs(A.T @ residual) * (1.0 - mask)
        mask = mask.at[jnp.argmax(corr)].set(1.0)
        coef = jnp.linalg.lstsq(A * mask, y)[0] * mask
        return (mask, y - A @ coef), (jnp.linalg.norm(y - A @ coef), coef)

    _, (norms, coefs) = lax.scan(step, (jnp.zeros(A.shape[1]), y), None, length=K)
    return norms, coefs[-1]


norms, x_omp = omp(A, y)
print("OMP residual norms", norms, "error", f"{float(jnp.linalg.norm(x_omp - x_true)):.4f}")
print("OMP found the support:", bool(jnp.all(jnp.sort(jnp.nonzero(x_omp, size=K)[0]) == jnp.sort(support))))


# regularisation path with warm starts (largest lambda first: lambda_max = ||A^T y||_inf)
lam_max = jnp.max(jnp.abs(A.T @ y))
lams = lam_max * jnp.logspace(0.0, -2.0, 8)


def path_step(x, lam):
    x = fista(lam, x, 100)
    return x, (jnp.sum(jnp.abs(x) > 1e-6), lasso_objective(x, lam))


_, (nnz, objs) = lax.scan(path_step, jnp.zeros(N), lams)
print(f"lambda_max {float(lam_max):.4f} path nonzeros", nnz, "objectives", objs)

# total-variation denoising: min_x 0.5 ||x - b||^2 + w ||D x||_1 by Chambolle-Pock
clean = jnp.repeat(jnp.array([0.0, 1.0, -0.5, 0.7, 0.2]), 40)
noisy = clean + 0.15 * random.normal(random.PRNGKey(4), clean.shape)


def D(x):
    return jnp.diff(x)


def D_adjoint(p):
    return jnp.concatenate([-p[:1], p[:-1] - p[1:], p[-1:]])


@jax.jit
def tv_denoise(b, w=0.5, iters=400):
    tau = sigma = 0.49  # tau * sigma * ||D||^2 < 1 with ||D||^2 <= 4

    def body(_, state):
        x, x_bar, p = state
        p = jnp.clip(p + sigma * D(x_bar), -w, w)
        x_new = (x - tau * D_adjoint(p) + tau * b) / (1.0 + tau)
        return x_new, 2.0 * x_new - x, p

    return lax.fori_loop(0, iters, body, (b, b, jnp.zeros(b.shape[0] - 1)))[0]


v = random.normal(random.PRNGKey(5), (200,))
p = random.normal(random.PRNGKey(6), (199,))
print("adjoint test <Dv,p> == <v,D*p>:", bool(jnp.allclose(D(v) @ p, v @ D_adjoint(p), atol=1e-4)))
x_tv = tv_denoise(noisy)
print(
    f"TV denoising RMSE noisy {float(jnp.sqrt(jnp.mean((noisy - clean) ** 2))):.4f}",
    f"denoised {float(jnp.sqrt(jnp.mean((x_tv - clean) ** 2))):.4f}",
)
print(
    "segment means", x_tv.reshape(5, 40).mean(1), "jumps found", int(jnp.sum(jnp.abs(jnp.diff(x_tv)) > 0.1))
)
