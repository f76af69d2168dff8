"""Spectral clustering of three noisy rings-and-blobs: an RBF affinity matrix, the
symmetric normalized graph Laplacian, its eigenvalues by jnp.linalg.eigh (eigenvectors
compared up to sign and through their projector, as they are only defined up to a basis),
the embedding rows normalized, k-means with a k-means++ style deterministic seeding in
lax.while_loop, subspace iteration with jnp.linalg.qr checked against eigh, the SVD of the
embedding, and the gradient of the spectral gap with respect to the kernel bandwidth."""

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax, random

np.set_printoptions(precision=5, suppress=True)
key = random.PRNGKey(0)
k1, k2, k3 = random.split(key, 3)
centers = jnp.array([[0.0, 0.0], [4.0, 0.0], [2.0, 3.5]])
pts = jnp.concatenate([c + 0.5 * random.normal(k, (12, 2)) for c, k in zip(centers, (k1, k2, k3))])
labels_true = jnp.repeat(jnp.arange(3), 12)


def laplacian(x, sigma):
    d2 = jnp.sum((x[:, None, :] - x[None, :, :]) ** 2, axis=-1)
    W = jnp.exp(-d2 / (2 * sigma**2)) * (1 - jnp.eye(x.shape[0]))
    dinv = 1 / jnp.sqrt(W.sum(1))
    return jnp.eye(x.shape[0]) - dinv[:, None] * W * dinv[None, :]


L = laplacian(pts, 1.0)
print("symmetric:", bool(jnp.allclose(L, L.T)))
evals, evecs = jnp.linalg.eigh(L)
print("smallest eigenvalues:", evals[:5])
U = evecs[:, :3]
P = U @ U.T  # the projector is basis-independent
print("projector trace:", f"{float(jnp.trace(P)):.5f}",
      "idempotent:", bool(jnp.allclose(P @ P, P, atol=1e-4)))
emb = U / jnp.linalg.norm(U, axis=1, keepdims=True)


def kmeans(x, k, iters=20):
    # deterministic farthest-point seeding
    def seed(i, c):
        d = jnp.min(jnp.sum((x[:, None] - c[None]) ** 2, -1) + jnp.where(jnp.arange(k) < i, 0.0, jnp.inf), 1)
        return c.at[i].set(x[jnp.argmax(d)])

    c = lax.fori_loop(1, k, seed, jnp.zeros((k, x.shape[1])).at[0].set(x[0]))

    def cond(s):
        c, old, it = s
        return (it < iters) & jnp.any(jnp.abs(c - old) > 1e-6)

    def body(s):
        c, _, it = s
        a = jnp.argmin(jnp.sum((x[:, None] - c[None]) ** 2, -1), 1)
        onehot = jax.nn.one_hot(a, k, dtype=x.dtype)
        new = (onehot.T @ x) / jnp.maximum(onehot.sum(0), 1)[:, None]
        return new, c, it + 1

    c, _, it = lax.while_loop(cond, body, (c, c + 1.0, 0))
    return jnp.argmin(jnp.sum((x[:, None] - c[None]) ** 2, -1), 1), it


assign, iters = kmeans(emb, 3)
# clusters as sets: relabel by first appearance
first = jnp.array([jnp.argmax(assign == j) for j in range(3)])
order = jnp.argsort(first)
relabel = jnp.zeros(3, jnp.int32).at[order].set(jnp.arange(3))
print("clusters:", relabel[assign])
print("k-means iterations:", int(iters))
print("matches truth:", bool(jnp.all(relabel[assign] == labels_true)))


def subspace_iteration(A, k, n=60):
    Q = jnp.linalg.qr(jnp.eye(A.shape[0], k) + 0.01)[0]
    B = 2.0 * jnp.eye(A.shape[0]) - A  # the smallest of A are the largest of B
    Q = lax.fori_loop(0, n, lambda i, q: jnp.linalg.qr(B @ q)[0], Q)
    return jnp.linalg.eigvalsh(Q.T @ A @ Q)


print("subspace iteration eigenvalues:", subspace_iteration(L, 3))
print("agree with eigh:", bool(jnp.allclose(subspace_iteration(L, 3), evals[:3], atol=1e-4)))
s = jnp.linalg.svd(emb, compute_uv=False)
print("embedding singular values:", s)
q, r = jnp.linalg.qr(emb, mode="reduced")
print("qr |diag r|:", jnp.abs(jnp.diag(r)),
      "q orthonormal:", bool(jnp.allclose(q.T @ q, jnp.eye(3), atol=1e-5)))


def gap(sigma):
    ev = jnp.linalg.eigvalsh(laplacian(pts, sigma))
    return ev[3] - ev[2]


for sg in (0.5, 1.0, 2.0):
    print(f"sigma {sg}: gap {float(gap(sg)):.6f}, d gap/d sigma {float(jax.grad(gap)(sg)):.6f}")
eps = 1e-3
fd = (gap(1.0 + eps) - gap(1.0 - eps)) / (2 * eps)
print("fd check:", bool(jnp.allclose(jax.grad(gap)(1.0), fd, rtol=1e-2)))
