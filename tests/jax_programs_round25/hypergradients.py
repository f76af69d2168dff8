"""Gradient-based hyperparameter optimization in the style of Maclaurin et al., Pedregosa's
HOAG and Baydin et al.'s hypergradient descent written in JAX: the validation loss after an
unrolled run of training (lax.fori_loop) differentiated with respect to the log learning rate
and log weight decay, in reverse mode (jax.grad) and forward mode (jax.jacfwd) against a
central difference; the implicit-function-theorem hypergradient at the inner optimum with
Hessian-vector products (jvp of grad) solved by jax.scipy.sparse.linalg.cg, against the
closed-form ridge solution differentiated through jnp.linalg.solve, and through
lax.custom_root; the weight decay tuned by gradient steps on the validation loss; and online
hypergradient descent of the learning rate (the dot product of consecutive gradients) in
lax.scan."""

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.scipy.sparse.linalg import cg

jnp.set_printoptions(precision=4, suppress=True)

key = random.PRNGKey(31)
k_x, k_w, k_n, k_v = random.split(key, 4)
N, D = 40, 12
w_true = random.normal(k_w, (D,)) * (jnp.arange(D) < 4)
X = random.normal(k_x, (N, D))
y = X @ w_true + 0.5 * random.normal(k_n, (N,))
X_val = random.normal(k_v, (100, D))
y_val = X_val @ w_true


def train_loss(w, log_wd):
    return 0.5 * jnp.mean((X @ w - y) ** 2) + 0.5 * jnp.exp(log_wd) * jnp.sum(w ** 2)


def val_loss(w):
    return 0.5 * jnp.mean((X_val @ w - y_val) ** 2)


# ---- unrolled differentiation ---------------------------------------------------------------------
def unrolled(hyper, steps=60):
    log_lr, log_wd = hyper[0], hyper[1]
    grad_w = jax.grad(train_loss)

    def body(_, w):
        return w - jnp.exp(log_lr) * grad_w(w, log_wd)

    return val_loss(lax.fori_loop(0, steps, body, jnp.zeros(D)))


hyper = jnp.array([jnp.log(0.1), jnp.log(0.05)])
rev = jax.grad(unrolled)(hyper)
fwd = jax.jacfwd(unrolled)(hyper)
h = 1e-3
fd = jnp.array([(unrolled(hyper + h * e) - unrolled(hyper - h * e)) / (2 * h) for e in jnp.eye(2)])
print(f"unrolled validation loss {float(unrolled(hyper)):.5f}")
print("hypergradient (d/dlog lr, d/dlog wd): reverse", rev, "forward", fwd)
print("reverse equals forward:", bool(jnp.allclose(rev, fwd, rtol=1e-4, atol=1e-6)),
      " central difference agrees:", bool(jnp.allclose(rev, fd, rtol=2e-2, atol=1e-4)))


# ---- implicit differentiation at the optimum -----------------------------------------------------
def ridge_closed_form(log_wd):
    A = X.T @ X / N + jnp.exp(log_wd) * jnp.eye(D)
    return jnp.linalg.solve(A, X.T @ y / N)


def implicit_hypergradient(log_wd):
    w = ridge_closed_form(log_wd)
    g_val = jax.grad(val_loss)(w)
    hvp = lambda v: jax.jvp(lambda u: jax.grad(train_loss)(u, log_wd), (w,), (v,))[1]
    q, _ = cg(hvp, g_val, tol=1e-10, maxiter=100)
    # d w*/d log_wd = -H^{-1} d(grad_w L)/d log_wd, and that cross derivative is exp(log_wd) w
    cross = jax.jacfwd(lambda lw: jax.grad(train_loss)(w, lw))(log_wd)
    return -jnp.dot(q, cross)


log_wd = jnp.log(0.05)
direct = jax.grad(lambda lw: val_loss(ridge_closed_form(lw)))(log_wd)
implicit = implicit_hypergradient(log_wd)
print(f"IFT hypergradient {float(implicit):.6f}, through the solve {float(direct):.6f}, agree:",
      bool(jnp.allclose(implicit, direct, rtol=1e-3)))


def inner_solution(log_wd):
    """The optimum as lax.custom_root of grad_w: Newton in the forward pass, IFT in the backward."""
    f = lambda w: jax.grad(train_loss)(w, log_wd)

    def solve(f, w0):
        H = jax.jacfwd(f)(w0)
        return w0 - jnp.linalg.solve(H, f(w0))

    def tangent_solve(g, b):
        return jnp.linalg.solve(jax.jacfwd(g)(b), b)

    return lax.custom_root(f, jnp.zeros(D), solve, tangent_solve)


w_root = inner_solution(log_wd)
print("custom_root optimum equals the closed form:",
      bool(jnp.allclose(w_root, ridge_closed_form(log_wd), atol=1e-5)))
root_grad = jax.grad(lambda lw: val_loss(inner_solution(lw)))(log_wd)
print(f"custom_root hypergradient {float(root_grad):.6f}, agrees:",
      bool(jnp.allclose(root_grad, direct, rtol=1e-3)))

# ---- tuning the weight decay -------------------------------------------------------------------
outer = jax.jit(jax.value_and_grad(lambda lw: val_loss(ridge_closed_form(lw))))
lw = jnp.log(1.0)
for it in range(30):
    value, g = outer(lw)
    if it % 10 == 0:
        print(f"outer step {it:2d}: weight decay {float(jnp.exp(lw)):.5f},",
              f"validation loss {float(value):.5f}")
    lw = lw - 2.0 * g
grid = jnp.linspace(-8.0, 1.0, 91)
losses = jax.vmap(lambda lw: val_loss(ridge_closed_form(lw)))(grid)
best = jnp.exp(grid[jnp.argmin(losses)])
print(f"tuned weight decay {float(jnp.exp(lw)):.5f} (grid optimum {float(best):.5f})")


# ---- hypergradient descent of the learning rate -------------------------------------------------
def hd_step(carry, _):
    w, lr, g_prev = carry
    g = jax.grad(train_loss)(w, jnp.log(1e-3))
    lr = lr + 0.01 * jnp.dot(g, g_prev)  # d loss_t / d lr = -g_t . g_{t-1}
    w = w - lr * g
    return (w, lr, g), (train_loss(w, jnp.log(1e-3)), lr)


(w_hd, lr_final, _), (hd_losses, lrs) = lax.scan(hd_step, (jnp.zeros(D), jnp.array(0.01), jnp.zeros(D)),
                                                 None, length=100)
print("hypergradient descent: learning rate", lrs[jnp.array([0, 9, 49, 99])])
print(f"  training loss {float(hd_losses[0]):.4f} -> {float(hd_losses[-1]):.5f}")
fixed = lax.fori_loop(0, 100, lambda _, w: w - 0.01 * jax.grad(train_loss)(w, jnp.log(1e-3)), jnp.zeros(D))
print(f"  fixed learning rate 0.01: {float(train_loss(fixed, jnp.log(1e-3))):.5f}")
