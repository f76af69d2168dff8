"""Independent component analysis as blind-source-separation code writes it in JAX: three
sources (sine, square wave by jnp.sign, sawtooth by jnp.mod) mixed by a random matrix,
centring and PCA whitening by jnp.linalg.eigh of the covariance, symmetric FastICA (the
log-cosh contrast's fixed point with tanh and its derivative, vmapped over components, then
symmetric decorrelation W <- (W W^T)^{-1/2} W by eigh) in lax.while_loop until the rows stop
turning, deflation FastICA with Gram-Schmidt in lax.fori_loop, the Amari index of the
recovered unmixing, |correlation| with the true sources, negentropy approximations, and
natural-gradient Infomax with jax.grad of the log-likelihood of a logistic source model."""

import jax
import jax.numpy as jnp
from jax import lax, random

jnp.set_printoptions(precision=4, suppress=True)
N = 2000

t = jnp.linspace(0.0, 8.0, N)
S = jnp.stack([jnp.sin(2.0 * t), jnp.sign(jnp.sin(3.0 * t + 0.5)), 2.0 * jnp.mod(1.3 * t, 1.0) - 1.0])
S = S + 0.02 * random.normal(random.PRNGKey(0), S.shape)
A = jnp.array([[1.0, 1.0, 1.0], [0.5, 2.0, 1.0], [1.5, 1.0, 2.0]])
X = A @ S
print("mixtures", X.shape, "means", X.mean(1))

Xc = X - X.mean(axis=1, keepdims=True)
cov = Xc @ Xc.T / N
d, E = jnp.linalg.eigh(cov)
whitener = E @ jnp.diag(1.0 / jnp.sqrt(d)) @ E.T  # symmetric (ZCA) whitening: sign-free
Z = whitener @ Xc
print("eigenvalues of the covariance", d)
print("whitened covariance is I:", bool(jnp.allclose(Z @ Z.T / N, jnp.eye(3), atol=1e-4)))


def sym_decorrelate(W):
    s, U = jnp.linalg.eigh(W @ W.T)
    return U @ jnp.diag(1.0 / jnp.sqrt(s)) @ U.T @ W


def fastica_update(w, Z):
    wx = w @ Z
    g, g_prime = jnp.tanh(wx), 1.0 - jnp.tanh(wx) ** 2
    return (Z * g).mean(axis=1) - g_prime.mean() * w


@jax.jit
def fastica_symmetric(W0, Z, tol=1e-5, max_iter=200):
    def cond(state):
        _, it, change = state
        return (change > tol) & (it < max_iter)

    def body(state):
        W, it, _ = state
        W_new = sym_decorrelate(jax.vmap(fastica_update, in_axes=(0, None))(W, Z))
        change = jnp.max(jnp.abs(jnp.abs(jnp.sum(W_new * W, axis=1)) - 1.0))
        return W_new, it + 1, change

    W, iters, change = lax.while_loop(cond, body, (sym_decorrelate(W0), 0, jnp.inf))
    return W, iters


def amari_index(W, A):
    P = jnp.abs(W @ A)
    rows = jnp.sum(P / P.max(axis=1, keepdims=True), axis=1) - 1.0
    cols = jnp.sum(P / P.max(axis=0, keepdims=True), axis=0) - 1.0
    n = P.shape[0]
    return (rows.sum() + cols.sum()) / (2 * n * (n - 1))


W0 = random.normal(random.PRNGKey(1), (3, 3))
W, iters = fastica_symmetric(W0, Z)
unmix = W @ whitener
Y = unmix @ Xc
corr = jnp.abs(jnp.corrcoef(jnp.concatenate([Y, S]))[:3, 3:])
print(
    "symmetric FastICA iterations",
    int(iters),
    "W orthogonal:",
    bool(jnp.allclose(W @ W.T, jnp.eye(3), atol=1e-4)),
)
print("|corr(recovered, true)| max per source", corr.max(axis=0), "assignment", jnp.argmax(corr, axis=0))
print(f"Amari index {float(amari_index(unmix, A)):.4f} (random W: {float(amari_index(W0, A)):.4f})")


@jax.jit
def fastica_deflation(W0, Z):
    def one_component(i, W):
        def body(_, w):
            w = fastica_update(w, Z)
            mask = (jnp.arange(3) < i)[:, None]
            w = w - (mask * W).T @ ((mask * W) @ w)  # Gram-Schmidt against the found rows
            return w / jnp.linalg.norm(w)

        w = lax.fori_loop(0, 100, body, W0[i] / jnp.linalg.norm(W0[i]))
        return W.at[i].set(w)

    return lax.fori_loop(0, 3, one_component, jnp.zeros((3, 3)))


Wd = fastica_deflation(W0, Z)
print(f"deflation FastICA Amari index {float(amari_index(Wd @ whitener, A)):.4f}")


def negentropy(y):
    y = (y - y.mean()) / y.std()
    gauss = random.normal(random.PRNGKey(2), (20000,))
    G = lambda u: jnp.log(jnp.cosh(u))
    return (G(y).mean() - G(gauss).mean()) ** 2


print("negentropy of recovered", jax.vmap(negentropy)(Y), "of mixtures", jax.vmap(negentropy)(Xc))


# Infomax: maximise sum log p(W x) + log|det W| with a logistic source density
def log_likelihood(Wm, Z):
    U = Wm @ Z
    log_p = -U - 2.0 * jax.nn.softplus(-U)  # log of the logistic density's derivative form
    return jnp.mean(jnp.sum(log_p, axis=0)) + jnp.linalg.slogdet(Wm)[1]


@jax.jit
def infomax(Wm, Z):
    def step(Wm, _):
        g = jax.grad(log_likelihood)(Wm, Z)
        return Wm + 0.1 * g @ Wm.T @ Wm, log_likelihood(Wm, Z)  # natural gradient

    return lax.scan(step, Wm, None, length=300)


Wi, trace = infomax(jnp.eye(3), Z)
print(
    "infomax log-likelihood",
    trace[jnp.array([0, 100, 299])],
    f"Amari {float(amari_index(Wi @ whitener, A)):.4f}",
)
