"""Kernel ridge regression with cross-validation as ML-course notebooks write it in JAX:
random Fourier features for an RBF kernel (jax.random.normal frequencies, uniform phases)
against the exact Gram matrix, ridge solutions by jnp.linalg.solve and by an eigen-
decomposition (jnp.linalg.eigh) that gives the whole regularisation path at once, k-fold
cross-validation with boolean fold masks vmapped over folds and over a grid of (lengthscale,
lambda), the closed-form leave-one-out error from the hat matrix against explicit LOO by vmap,
generalised cross-validation, and gradient-based tuning of log-hyperparameters through the
LOO formula with jax.value_and_grad."""

import jax
import jax.numpy as jnp
from jax.scipy.linalg import solve

jnp.set_printoptions(precision=4, suppress=True)
N, D_FEAT = 60, 400

key = jax.random.PRNGKey(4)
kx, kn, kw, kb = jax.random.split(key, 4)
x = jnp.sort(jax.random.uniform(kx, (N,), minval=-3.0, maxval=3.0))
y = jnp.sinc(x) + 0.5 * jnp.cos(2.0 * x) + 0.1 * jax.random.normal(kn, (N,))
print("data", x.shape, y.dtype, "y range", f"{float(y.min()):.4f}", f"{float(y.max()):.4f}")


def rbf(a, b, ls):
    return jnp.exp(-0.5 * (a[:, None] - b[None, :]) ** 2 / ls**2)


def fourier_features(x, ls, omega, phase):
    return jnp.sqrt(2.0 / D_FEAT) * jnp.cos(jnp.outer(x, omega / ls) + phase)


omega = jax.random.normal(kw, (D_FEAT,))
phase = jax.random.uniform(kb, (D_FEAT,), maxval=2 * jnp.pi)
Z = fourier_features(x, 0.7, omega, phase)
K = rbf(x, x, 0.7)
print(
    "RFF Gram error: max",
    f"{float(jnp.max(jnp.abs(Z @ Z.T - K))):.4f}",
    "mean",
    f"{float(jnp.mean(jnp.abs(Z @ Z.T - K))):.4f}",
)


def krr_fit_predict(x_tr, y_tr, x_te, ls, lam):
    alpha = solve(rbf(x_tr, x_tr, ls) + lam * jnp.eye(x_tr.shape[0]), y_tr, assume_a="pos")
    return rbf(x_te, x_tr, ls) @ alpha


def rff_fit_predict(x_tr, y_tr, x_te, ls, lam):
    Zt = fourier_features(x_tr, ls, omega, phase)
    w = jnp.linalg.solve(Zt.T @ Zt + lam * jnp.eye(D_FEAT), Zt.T @ y_tr)
    return fourier_features(x_te, ls, omega, phase) @ w


grid = jnp.linspace(-3, 3, 7)
print("exact KRR at grid", krr_fit_predict(x, y, grid, 0.7, 0.1))
print("RFF   KRR at grid", rff_fit_predict(x, y, grid, 0.7, 0.1))

# whole regularisation path from one eigendecomposition
evals, evecs = jnp.linalg.eigh(K)
lams = jnp.logspace(-1, 1, 5)  # float32 eigenvalues are noise below ~1e-5
proj = evecs.T @ y
path = jax.vmap(lambda lam: evecs @ (proj / (evals + lam)))(lams)
direct = jax.vmap(lambda lam: jnp.linalg.solve(K + lam * jnp.eye(N), y))(lams)
print("eigh path == direct solves:", bool(jnp.allclose(path, direct, rtol=1e-4, atol=1e-4)))
print("dual norms along the path", jnp.linalg.norm(path, axis=1))

# k-fold CV: boolean masks, vmapped over folds and hyperparameters
FOLDS = 5
fold_of = jnp.arange(N) % FOLDS


def masked_fit_predict(train_mask, ls, lam):
    Kf = rbf(x, x, ls)
    Km = Kf * train_mask[:, None] * train_mask[None, :] + jnp.diag(jnp.where(train_mask, lam, 1.0))
    alpha = jnp.linalg.solve(Km, y * train_mask)
    return Kf @ alpha


def cv_error(ls, lam):
    def fold(f):
        test = fold_of == f
        pred = masked_fit_predict(~test, ls, lam)
        return jnp.sum(jnp.where(test, (pred - y) ** 2, 0.0)) / jnp.sum(test)

    return jnp.mean(jax.vmap(fold)(jnp.arange(FOLDS)))


check = krr_fit_predict(x[fold_of != 0], y[fold_of != 0], x[fold_of == 0], 0.7, 0.1)
print(
    "masked fold fit == sliced fit:",
    bool(jnp.allclose(masked_fit_predict(fold_of != 0, 0.7, 0.1)[fold_of == 0], check, atol=1e-4)),
)
ls_grid = jnp.array([0.2, 0.5, 1.0, 2.0])
lam_grid = jnp.array([1e-3, 1e-2, 1e-1, 1.0])
table = jax.jit(jax.vmap(jax.vmap(cv_error, in_axes=(None, 0)), in_axes=(0, None)))(ls_grid, lam_grid)
print("5-fold CV error (rows: lengthscale, cols: lambda)\n", table)
best = jnp.unravel_index(jnp.argmin(table), table.shape)
print("best lengthscale", float(ls_grid[best[0]]), "lambda", float(lam_grid[best[1]]))


def loo_closed_form(log_ls, log_lam):
    Kf = rbf(x, x, jnp.exp(log_ls))
    H = Kf @ jnp.linalg.inv(Kf + jnp.exp(log_lam) * jnp.eye(N))
    resid = (y - H @ y) / (1.0 - jnp.diag(H))
    return jnp.mean(resid**2)


def loo_explicit(ls, lam):
    def leave(i):
        keep = jnp.arange(N) != i
        return (masked_fit_predict(keep, ls, lam)[i] - y[i]) ** 2

    return jnp.mean(jax.vmap(leave)(jnp.arange(N)))


a, b = loo_closed_form(jnp.log(0.7), jnp.log(0.1)), loo_explicit(0.7, 0.1)
print("LOO closed form", f"{float(a):.5f}", "explicit", f"{float(b):.5f}")
H = K @ jnp.linalg.inv(K + 0.1 * jnp.eye(N))
gcv = N * jnp.sum((y - H @ y) ** 2) / (N - jnp.trace(H)) ** 2
print("GCV", f"{float(gcv):.5f}", "effective degrees of freedom", f"{float(jnp.trace(H)):.3f}")

theta = jnp.array([jnp.log(1.5), jnp.log(0.5)])
vg = jax.jit(jax.value_and_grad(lambda t: loo_closed_form(t[0], t[1])))
for _ in range(40):
    value, g = vg(theta)
    theta = theta - 0.5 * g / (jnp.linalg.norm(g) + 1e-3) * 0.2
print(
    "tuned lengthscale",
    f"{float(jnp.exp(theta[0])):.3f}",
    "lambda",
    f"{float(jnp.exp(theta[1])):.4f}",
    "LOO",
    f"{float(loo_closed_form(*theta)):.5f}",
)
