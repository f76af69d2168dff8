"""L1-regularized logistic regression on a sparse design matrix with
jax.experimental.sparse, as in sparse-ML examples: a BCOO matrix from a dense one
(BCOO.fromdense) and from (data, indices) with nse, sparse @ dense products, transposes,
sparse.sparsify of a dense-written loss, gradients with respect to the dense weights and
to the sparse values (BCOO data), proximal gradient descent (ISTA) with soft thresholding
in lax.fori_loop under jit, bcoo_sum_duplicates, todense round trips, and a sparse
Gram-matrix check."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.experimental import sparse

key = random.PRNGKey(0)
k1, k2, k3 = random.split(key, 3)
n, d = 40, 12
dense = random.normal(k1, (n, d)) * (random.uniform(k2, (n, d)) < 0.25)
X = sparse.BCOO.fromdense(dense)
print("nse:", X.nse, "shape:", X.shape, "density:", X.nse / (n * d))
w_true = jnp.zeros(d).at[jnp.array([1, 4, 7])].set(jnp.array([2.0, -3.0, 1.5]))
y = (dense @ w_true + 0.1 * random.normal(k3, (n,)) > 0).astype(jnp.float32)
print("labels mean:", y.mean())

print("X @ w matches dense:", bool(jnp.allclose(X @ w_true, dense @ w_true, atol=1e-6)))
print("X.T @ r matches dense:", bool(jnp.allclose(X.T @ y, dense.T @ y, atol=1e-5)))
print("sum axis 0 (first 4):", X.sum(axis=0).todense()[:4])


def nll(w, b, X):
    z = X @ w + b
    return jnp.mean(jax.nn.softplus(z) - y * z)


print("nll at zero:", nll(jnp.zeros(d), 0.0, X))
gw, gb = jax.grad(nll, argnums=(0, 1))(jnp.zeros(d), 0.0, X)
gd, _ = jax.grad(nll, argnums=(0, 1))(jnp.zeros(d), 0.0, dense)
print("grad sparse == dense:", bool(jnp.allclose(gw, gd, atol=1e-6)), "grad b:", gb)


@sparse.sparsify
def gram(A):
    return A.T @ A


G = gram(X)
print("sparsified gram:", type(G).__name__, G.shape, "nse:", G.nse,
      bool(jnp.allclose(G.todense(), dense.T @ dense, atol=1e-4)))
print("gram data[:5]:", G.data[:5], "indices[:3]:", G.indices[:3].tolist())

# gradient with respect to the stored values of the sparse matrix
gdata = jax.grad(lambda data: nll(w_true, 0.0, sparse.BCOO((data, X.indices), shape=X.shape)))(X.data)
print("grad wrt sparse data:", gdata.shape, jnp.round(jnp.sum(jnp.abs(gdata)), 5))


def soft_threshold(v, t):
    return jnp.sign(v) * jnp.maximum(jnp.abs(v) - t, 0.0)


@jax.jit
def ista(X, lam, lr):
    def body(i, wb):
        w, b = wb
        gw, gb = jax.grad(nll, argnums=(0, 1))(w, b, X)
        return soft_threshold(w - lr * gw, lr * lam), b - lr * gb
    return lax.fori_loop(0, 300, body, (jnp.zeros(d), jnp.array(0.0)))


for lam in [0.01, 0.05]:
    w, b = ista(X, lam, 1.0)
    print(f"lam {lam}: nonzeros {int(jnp.sum(w != 0))}, support {jnp.nonzero(w)[0]}, nll {nll(w, b, X):.5f}")
    print("   w:", jnp.round(w, 4))

# duplicates and explicit construction
data = jnp.array([1.0, 2.0, 3.0, 4.0])
idx = jnp.array([[0, 0], [1, 2], [0, 0], [2, 1]])
M = sparse.BCOO((data, idx), shape=(3, 3))
print("with duplicates todense:\n", M.todense())
Ms = sparse.bcoo_sum_duplicates(M)
print("summed nse:", Ms.nse, "data:", Ms.data, "indices:", Ms.indices.tolist())
print("M @ M (dense):\n", (M @ M.todense()))
print("vmap over rows of sparse product:", jax.vmap(lambda v: X @ v)(jnp.eye(d)[:2]).shape)
