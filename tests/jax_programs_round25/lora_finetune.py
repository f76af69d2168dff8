"""Low-rank adaptation (LoRA, Hu et al.) in the style of research code written in JAX: a small
regression network pre-trained on one task with Adam from jax.example_libraries.optimizers,
then adapted to a related task by rank-r adapters W + (alpha / r) A B with B initialized to
zero (the adapted model starts as the base model), gradients taken only with respect to the
adapters (jax.grad's argnums, the frozen base also checked with lax.stop_gradient), the
merged weights checked against the adapter forward pass, the rank of the update by
jnp.linalg.matrix_rank and its singular values, parameter counts from tree leaves, and a
comparison with full fine-tuning and with the rank swept by a Python loop over jit-compiled
trainers (static_argnames)."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.example_libraries import optimizers

jnp.set_printoptions(precision=4, suppress=True)

key = random.PRNGKey(8)
k_x, k_base, k_lora, k_shift = random.split(key, 4)
D_IN, HIDDEN = 8, 32
X = random.normal(k_x, (256, D_IN))
direction = random.normal(k_shift, (D_IN,))
y_a = jnp.sin(X @ jnp.linspace(-1.0, 1.0, D_IN) / 2.0)
y_b = y_a + 0.5 * jnp.tanh(X @ direction / 3.0)  # the new task: the old one plus a low-rank change


def init(key):
    k1, k2, k3 = random.split(key, 3)
    glorot = jax.nn.initializers.glorot_normal()
    return {"w1": glorot(k1, (D_IN, HIDDEN)), "b1": jnp.zeros(HIDDEN),
            "w2": glorot(k2, (HIDDEN, HIDDEN)), "b2": jnp.zeros(HIDDEN),
            "w3": glorot(k3, (HIDDEN, 1)), "b3": jnp.zeros(1)}


def forward(params, x):
    h = jax.nn.gelu(x @ params["w1"] + params["b1"])
    h = jax.nn.gelu(h @ params["w2"] + params["b2"])
    return (h @ params["w3"] + params["b3"])[..., 0]


def init_lora(key, base, rank):
    """A ~ N(0, 1/fan_in) and B = 0 for each of the matrices w1 and w2."""
    keys = random.split(key, 2)
    return {name: {"A": random.normal(k, (base[name].shape[0], rank)) / jnp.sqrt(base[name].shape[0]),
                   "B": jnp.zeros((rank, base[name].shape[1]))}
            for name, k in zip(("w1", "w2"), keys)}


def merge(base, lora, alpha):
    merged = dict(base)
    for name, ab in lora.items():
        rank = ab["A"].shape[1]
        merged[name] = base[name] + (alpha / rank) * ab["A"] @ ab["B"]
    return merged


def forward_lora(base, lora, x, alpha):
    """The adapter form: x W + (alpha / r) (x A) B, never forming A B."""
    def dense(name, h):
        out = h @ base[name]
        if name in lora:
            out = out + (alpha / lora[name]["A"].shape[1]) * (h @ lora[name]["A"]) @ lora[name]["B"]
        return out

    h = jax.nn.gelu(dense("w1", x) + base["b1"])
    h = jax.nn.gelu(dense("w2", h) + base["b2"])
    return (h @ base["w3"] + base["b3"])[..., 0]


def mse(pred, y):
    return jnp.mean((pred - y) ** 2)


def count(tree):
    return sum(leaf.size for leaf in jax.tree_util.tree_leaves(tree))


@partial(jax.jit, static_argnames=("steps",))
def fit(params, y, steps):
    opt_init, opt_update, get_params = optimizers.adam(1e-2)
    grad_fn = jax.value_and_grad(lambda p: mse(forward(p, X), y))

    def step(state, i):
        value, g = grad_fn(get_params(state))
        return opt_update(i, g, state), value

    state, losses = lax.scan(step, opt_init(params), jnp.arange(steps))
    return get_params(state), losses


@partial(jax.jit, static_argnames=("steps",))
def fit_lora(base, lora, alpha, steps):
    opt_init, opt_update, get_params = optimizers.adam(1e-2)
    grad_fn = jax.value_and_grad(lambda b, l: mse(forward_lora(b, l, X, alpha), y_b), argnums=1)

    def step(state, i):
        value, g = grad_fn(base, get_params(state))
        return opt_update(i, g, state), value

    state, losses = lax.scan(step, opt_init(lora), jnp.arange(steps))
    return get_params(state), losses


base, losses = fit(init(k_base), y_a, steps=300)
print(f"pre-training on task A: loss {float(losses[0]):.4f} -> {float(losses[-1]):.6e}")
print(f"base model on task B: loss {float(mse(forward(base, X), y_b)):.5f}")

lora = init_lora(k_lora, base, rank=2)
print("adapter shapes", jax.tree_util.tree_map(jnp.shape, lora))
print("zero-initialized B leaves the model unchanged:",
      bool(jnp.array_equal(forward_lora(base, lora, X, 4.0), forward(base, X))))
g_base, g_lora = jax.grad(lambda b, l: mse(forward_lora(b, l, X, 4.0), y_b), argnums=(0, 1))(base, lora)
print("at init only B has a gradient: |dA| =", float(jnp.abs(g_lora["w1"]["A"]).max()),
      "|dB| > 0:", bool(jnp.abs(g_lora["w1"]["B"]).max() > 0))
frozen = jax.grad(lambda b, l: mse(forward_lora(jax.lax.stop_gradient(b), l, X, 4.0), y_b))(base, lora)
print("stop_gradient freezes the base:",
      all(float(jnp.abs(g).max()) == 0.0 for g in jax.tree_util.tree_leaves(frozen)))

lora, losses = fit_lora(base, lora, 4.0, steps=300)
print(f"LoRA r=2 on task B: loss {float(losses[0]):.5f} -> {float(losses[-1]):.6e}, "
      f"trainable {count(lora)} of {count(base)}")
merged = merge(base, lora, 4.0)
print("merged weights reproduce the adapter forward pass:",
      bool(jnp.allclose(forward(merged, X), forward_lora(base, lora, X, 4.0), atol=1e-5)))
for name in ("w1", "w2"):
    delta = merged[name] - base[name]
    s = jnp.linalg.svd(delta, compute_uv=False)
    print(f"{name}: update rank {int(jnp.linalg.matrix_rank(delta))}, top singular values {s[:3]}, "
          f"relative size {float(jnp.linalg.norm(delta) / jnp.linalg.norm(base[name])):.4f}")
print(f"task A loss after adaptation {float(mse(forward(merged, X), y_a)):.5f}")

full, full_losses = fit(base, y_b, steps=300)
print(f"full fine-tuning: loss {float(full_losses[-1]):.6e}, trainable {count(full)}")
for rank in (1, 4, 8):
    fresh = init_lora(random.fold_in(k_lora, rank), base, rank)
    adapters, rank_losses = fit_lora(base, fresh, 4.0, steps=300)
    print(f"rank {rank}: trainable {count(adapters):4d}, final loss {float(rank_losses[-1]):.6e}")
