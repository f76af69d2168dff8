"""Natural-gradient training in the style of Martens & Grosse's K-FAC written in JAX: per-example
Jacobians of a small softmax network by jax.vmap(jax.jacrev) over a ravel_pytree vector, the
exact Fisher information E[J^T (diag(p) - p p^T) J] against the empirical Fisher and the
Gauss-Newton matrix of the cross-entropy (jax.hessian of the loss in the logits), the Fisher
of a layer as a Kronecker product of activation and pre-activation-gradient covariances
(jnp.kron, checked exactly for one example), damped natural-gradient steps by
jnp.linalg.solve against K-FAC steps that only invert the small factors (cho_factor,
cho_solve), the Muon-style orthogonalized update by a Newton-Schulz iteration against the
polar factor from jnp.linalg.svd, and the optimizers' losses after the same number of steps."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.flatten_util import ravel_pytree
from jax.scipy.linalg import cho_factor, cho_solve

jnp.set_printoptions(precision=4, suppress=True)

C, D, H = 3, 4, 6
key = random.PRNGKey(9)
k_x, k_w, k_init = random.split(key, 3)
X = random.normal(k_x, (200, D))
labels = jnp.argmax(X @ random.normal(k_w, (D, C)) + 0.3 * X[:, :C] ** 2, axis=1)


def init(key):
    k1, k2 = random.split(key)
    return {"W1": random.normal(k1, (D, H)) / jnp.sqrt(D), "W2": random.normal(k2, (H, C)) / jnp.sqrt(H)}


def hidden(params, x):
    return jnp.tanh(x @ params["W1"])


def logits(params, x):
    return hidden(params, x) @ params["W2"]


def loss(params, x=X, y=labels):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits(params, x)), y[..., None], axis=-1))


params = init(k_init)
flat, unravel = ravel_pytree(params)
print("parameters", flat.size, "loss at init", f"{float(loss(params)):.4f}")

# ---- Fisher, empirical Fisher, Gauss-Newton ---------------------------------------------------------
J = jax.vmap(jax.jacrev(lambda f, x: logits(unravel(f), x)), in_axes=(None, 0))(flat, X)  # (N, C, P)
probs = jax.nn.softmax(logits(params, X))
out_cov = jax.vmap(lambda p: jnp.diag(p) - jnp.outer(p, p))(probs)
fisher = jnp.einsum("ncp,ncd,ndq->pq", J, out_cov, J) / X.shape[0]
example_grad = jax.grad(lambda f, x, y: loss(unravel(f), x, y))
per_example = jax.vmap(example_grad, in_axes=(None, 0, 0))(flat, X, labels)
empirical = per_example.T @ per_example / X.shape[0]
hess_logits = jax.vmap(jax.hessian(lambda z, y: -jax.nn.log_softmax(z)[y]))(logits(params, X), labels)
gauss_newton = jnp.einsum("ncp,ncd,ndq->pq", J, hess_logits, J) / X.shape[0]
print("per-example Jacobians", J.shape, "Fisher", fisher.shape)
print("Fisher equals the Gauss-Newton matrix of the cross-entropy:",
      bool(jnp.allclose(fisher, gauss_newton, atol=1e-5)))
print("Fisher is symmetric PSD:", bool(jnp.allclose(fisher, fisher.T, atol=1e-6)),
      bool(jnp.linalg.eigvalsh(fisher)[0] > -1e-5))
gap = jnp.linalg.norm(fisher - empirical) / jnp.linalg.norm(fisher)
print(f"relative gap |F - F_emp| / |F| {float(gap):.4f}")
print("top Fisher eigenvalues", jnp.linalg.eigvalsh(fisher)[::-1][:4])

# ---- the Kronecker structure of the output layer's Fisher ---------------------------------------------
# for W2 (H x C): dlogits/dW2 = a outer I, so F_W2 = E[a a^T (x) (diag p - p p^T)] -- exactly
# Kronecker for one example
a = hidden(params, X)
one = 0
block = J[one][:, D * H:]  # the W2 part of the ravelled vector (leaves in key order W1, W2)
exact_block = block.T @ out_cov[one] @ block
kron_block = jnp.kron(jnp.outer(a[one], a[one]), out_cov[one])
print("one example: the W2 Fisher block is A (x) G:", bool(jnp.allclose(exact_block, kron_block, atol=1e-6)))
A_fac = a.T @ a / X.shape[0]
G_fac = jnp.mean(out_cov, axis=0)
kfac = jnp.kron(A_fac, G_fac)
full_block = fisher[D * H:, D * H:]
kfac_error = jnp.linalg.norm(kfac - full_block) / jnp.linalg.norm(full_block)
print(f"batch: K-FAC approximation error of the W2 block {float(kfac_error):.4f}")


# ---- optimizers -------------------------------------------------------------------------------------
def fisher_of(flat):
    p = unravel(flat)
    J = jax.vmap(jax.jacrev(lambda f, x: logits(unravel(f), x)), in_axes=(None, 0))(flat, X)
    pr = jax.nn.softmax(logits(p, X))
    cov = jax.vmap(lambda q: jnp.diag(q) - jnp.outer(q, q))(pr)
    return jnp.einsum("ncp,ncd,ndq->pq", J, cov, J) / X.shape[0]


@jax.jit
def natural_step(flat, damping=0.05, lr=0.5):
    g = jax.grad(lambda f: loss(unravel(f)))(flat)
    F = fisher_of(flat)
    return flat - lr * jnp.linalg.solve(F + damping * jnp.eye(flat.size), g)


@jax.jit
def kfac_step(params, damping=1e-2, lr=0.5):
    g = jax.grad(loss)(params)
    new = {}
    a_in = {"W1": X, "W2": hidden(params, X)}
    # pre-activation gradients with labels sampled from the model would be K-FAC proper; we use the
    # expected output covariance for W2 and the back-propagated one for W1 (both deterministic)
    pr = jax.nn.softmax(logits(params, X))
    cov = jnp.mean(jax.vmap(lambda q: jnp.diag(q) - jnp.outer(q, q))(pr), axis=0)
    back = (1 - hidden(params, X) ** 2)
    g_cov = {"W2": cov, "W1": (back.T @ back / X.shape[0]) * (params["W2"] @ cov @ params["W2"].T)}
    for name in ("W1", "W2"):
        A = a_in[name].T @ a_in[name] / X.shape[0]
        cA = cho_factor(A + jnp.sqrt(damping) * jnp.eye(A.shape[0]))
        cG = cho_factor(g_cov[name] + jnp.sqrt(damping) * jnp.eye(g_cov[name].shape[0]))
        # (A (x) G)^-1 vec(g) = vec(A^-1 g G^-1) for row-major g of shape (in, out)
        step = cho_solve(cG, cho_solve(cA, g[name]).T).T
        new[name] = params[name] - lr * step
    return new


@jax.jit
def sgd_step(params, lr=0.5):
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, jax.grad(loss)(params))


def newton_schulz(G, steps=5):
    """Muon's quintic iteration towards the orthogonal polar factor U V^T of G."""
    a, b, c = 3.4445, -4.7750, 2.0315
    X = G / (jnp.linalg.norm(G) + 1e-7)
    transpose = G.shape[0] > G.shape[1]
    X = X.T if transpose else X

    def body(_, X):
        A = X @ X.T
        return a * X + (b * A + c * A @ A) @ X

    X = lax.fori_loop(0, steps, body, X)
    return X.T if transpose else X


@jax.jit
def muon_step(params, lr=0.1):
    g = jax.grad(loss)(params)
    def update(p, gi):
        return p - lr * newton_schulz(gi) * jnp.sqrt(max(1.0, gi.shape[0] / gi.shape[1]))

    return jax.tree_util.tree_map(update, params, g)


G = jax.grad(loss)(params)["W1"]
U, S, Vt = jnp.linalg.svd(G, full_matrices=False)
O = newton_schulz(G, 10)
print("Newton-Schulz singular values", jnp.linalg.svd(O, compute_uv=False),
      f"distance to the polar factor {float(jnp.linalg.norm(O - U @ Vt)):.3f}")

runs = {"SGD": params, "natural gradient": flat, "K-FAC": params, "Muon": params}
for step in range(20):
    runs["SGD"] = sgd_step(runs["SGD"])
    runs["natural gradient"] = natural_step(runs["natural gradient"])
    runs["K-FAC"] = kfac_step(runs["K-FAC"])
    runs["Muon"] = muon_step(runs["Muon"])
    if step in (0, 4, 19):
        values = {k: float(loss(unravel(v) if k == "natural gradient" else v)) for k, v in runs.items()}
        print(f"step {step + 1:2d}: " + ", ".join(f"{k} {v:.4f}" for k, v in values.items()))
final = unravel(runs["natural gradient"])
print(f"natural-gradient training accuracy {float(jnp.mean(jnp.argmax(logits(final, X), 1) == labels)):.3f}")
