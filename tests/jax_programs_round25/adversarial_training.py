"""Adversarial examples and adversarial training in the style of Madry et al.'s and the TRADES
code written in JAX: input gradients by jax.grad with argnums=1 and per-example by jax.vmap,
the fast gradient sign method (jnp.sign) checked against the closed form for a linear model
(the margin drops by eps |w|_1), projected gradient descent in an L-infinity ball with a
random start (random.uniform) in lax.fori_loop, projection by jnp.clip, robust accuracy
against eps, adversarial training on PGD examples in a jitted lax.scan, and the TRADES loss
(KL between clean and perturbed predictions by jax.scipy.special.rel_entr) with its inner
maximization."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.special import rel_entr

jnp.set_printoptions(precision=4, suppress=True)

key = random.PRNGKey(17)
k_data, k_init, k_pgd, k_test = random.split(key, 4)
N_CLASSES = 3


def blobs(key, n=150):
    k1, k2 = random.split(key)
    centers = jnp.array([[0.0, 1.2], [1.1, -0.6], [-1.1, -0.6]])
    labels = jnp.arange(n) % N_CLASSES
    return centers[labels] + 0.45 * random.normal(k1, (n, 2)), labels


X, y = blobs(k_data)
X_test, y_test = blobs(k_test)

# ---- FGSM on a linear model against its closed form ----------------------------------------------
w_lin = jnp.array([1.5, -2.0])
b_lin = 0.3


def linear_margin(x):
    return x @ w_lin + b_lin


x0 = jnp.array([0.4, -0.2])
eps = 0.1
x_adv = x0 - eps * jnp.sign(jax.grad(linear_margin)(x0))
print("FGSM on a linear model: margin", f"{float(linear_margin(x0)):.4f} ->",
      f"{float(linear_margin(x_adv)):.4f}", "= margin - eps |w|_1:",
      bool(jnp.allclose(linear_margin(x_adv), linear_margin(x0) - eps * jnp.abs(w_lin).sum())))

# ---- a small classifier -------------------------------------------------------------------------


def init(key, sizes=(2, 32, 32, N_CLASSES)):
    keys = random.split(key, len(sizes) - 1)
    init_w = jax.nn.initializers.lecun_normal()
    return [(init_w(k, (m, n)), jnp.zeros(n)) for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def logits(params, x):
    for w, b in params[:-1]:
        x = jax.nn.softplus(x @ w + b) - jnp.log(2.0)
    w, b = params[-1]
    return x @ w + b


def xent(params, x, label):
    return -jax.nn.log_softmax(logits(params, x))[label]


input_grad = jax.vmap(jax.grad(xent, argnums=1), in_axes=(None, 0, 0))


def fgsm(params, x, labels, eps):
    return x + eps * jnp.sign(input_grad(params, x, labels))


@partial(jax.jit, static_argnames="steps")
def pgd(params, x, labels, eps, key, steps=10):
    alpha = 2.5 * eps / steps
    start = x + random.uniform(key, x.shape, minval=-eps, maxval=eps)

    def body(_, x_adv):
        x_adv = x_adv + alpha * jnp.sign(input_grad(params, x_adv, labels))
        return jnp.clip(x_adv, x - eps, x + eps)

    return lax.fori_loop(0, steps, body, start)


def accuracy(params, x, labels):
    return jnp.mean(jnp.argmax(logits(params, x), axis=1) == labels)


def batch_loss(params, x, labels):
    return jnp.mean(jax.vmap(xent, in_axes=(None, 0, 0))(params, x, labels))


@partial(jax.jit, static_argnames="mode")
def train(params, key, mode):
    def step(params, key):
        x = X
        if mode == "adversarial":
            x = pgd(params, X, y, 0.3, key, steps=5)
        loss, g = jax.value_and_grad(batch_loss)(params, x, y)
        return jax.tree_util.tree_map(lambda p, gi: p - 0.2 * gi, params, g), loss

    return lax.scan(step, params, random.split(key, 200))


params0 = init(k_init)
g = input_grad(params0, X[:4], y[:4])
fd = jnp.stack([(xent(params0, X[0] + h, y[0]) - xent(params0, X[0] - h, y[0])) / 2e-2
                for h in jnp.eye(2) * 1e-2])
print("input gradient shape", g.shape, "central difference agrees:", bool(jnp.allclose(g[0], fd, atol=1e-3)))

standard, losses = train(params0, k_pgd, "standard")
print(f"standard training: loss {float(losses[-1]):.4f}, clean test accuracy "
      f"{float(accuracy(standard, X_test, y_test)):.3f}")
for eps in (0.1, 0.2, 0.3, 0.5):
    acc_fgsm = accuracy(standard, fgsm(standard, X_test, y_test, eps), y_test)
    x_pgd = pgd(standard, X_test, y_test, eps, random.fold_in(k_pgd, 1))
    acc_pgd = accuracy(standard, x_pgd, y_test)
    inside = bool(jnp.all(jnp.abs(x_pgd - X_test) <= eps + 1e-6))
    print(f"  eps {eps}: FGSM accuracy {float(acc_fgsm):.3f}, PGD accuracy {float(acc_pgd):.3f},"
          f" inside the ball: {inside}")

robust, losses = train(params0, k_pgd, "adversarial")
print(f"adversarial training (PGD eps 0.3): loss {float(losses[-1]):.4f}, clean test accuracy "
      f"{float(accuracy(robust, X_test, y_test)):.3f}")
for eps in (0.1, 0.3, 0.5):
    x_pgd = pgd(robust, X_test, y_test, eps, random.fold_in(k_pgd, 2))
    print(f"  eps {eps}: PGD accuracy {float(accuracy(robust, x_pgd, y_test)):.3f}")


# ---- TRADES: clean loss + beta KL(p(x) || p(x')) ------------------------------------------------
def kl(params, x, x_adv):
    p = jax.nn.softmax(logits(params, x))
    q = jax.nn.softmax(logits(params, x_adv))
    return jnp.sum(rel_entr(p, q), axis=-1)


def trades_inner(params, x, eps, key, steps=5):
    x_adv = x + 0.001 * random.normal(key, x.shape)
    grad_kl = jax.grad(lambda xa: jnp.sum(kl(params, x, xa)))
    for _ in range(steps):
        x_adv = jnp.clip(x_adv + 0.5 * eps * jnp.sign(grad_kl(x_adv)), x - eps, x + eps)
    return lax.stop_gradient(x_adv)


x_trades = trades_inner(standard, X_test, 0.3, random.fold_in(k_pgd, 3))
kls = kl(standard, X_test, x_trades)
print(f"TRADES inner maximization: mean KL {float(kls.mean()):.4f}, max {float(kls.max()):.4f},"
      f" KL >= 0: {bool(jnp.all(kls >= -1e-6))}")
trades_loss = batch_loss(standard, X_test, y_test) + 6.0 * kls.mean()
print(f"TRADES objective (beta 6) of the standard model {float(trades_loss):.4f}")
