"""Lottery-ticket pruning (Frankle & Carbin) in the style of research code written in JAX:
masks as a pytree parallel to the parameters (biases kept, chosen by
jax.tree_util.tree_map_with_path and keystr), a global magnitude threshold from the
concatenated weights (jnp.sort), iterative magnitude pruning with rewinding to the initial
weights, masked training where gradients and weights stay zero off the mask (optimizers.sgd
in a jitted lax.scan with donate_argnums), per-layer sparsity, a random mask of the same
sparsity (random.bernoulli per layer with fold_in) as the control, and the saliency of
SNIP (|g * w| at initialization) compared with the magnitude mask."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.example_libraries import optimizers
from jax.tree_util import keystr, tree_leaves, tree_map, tree_map_with_path

jnp.set_printoptions(precision=4, suppress=True)

key = random.PRNGKey(21)
k_data, k_init, k_rand = random.split(key, 3)


def spirals(key, n=128):
    k1, k2 = random.split(key)
    t = jnp.sqrt(random.uniform(k1, (n,))) * 3.0 * jnp.pi
    arm = jnp.arange(n) % 2
    sign = 1.0 - 2.0 * arm
    x = jnp.stack([t * jnp.cos(t), t * jnp.sin(t)], axis=1) * sign[:, None] / 10.0
    return x + 0.05 * random.normal(k2, x.shape), arm


X, y = spirals(k_data)
X_test, y_test = spirals(random.fold_in(k_data, 1))


def init(key, sizes=(2, 64, 64, 2)):
    keys = random.split(key, len(sizes) - 1)
    he = jax.nn.initializers.he_normal()
    return {f"dense{i}": {"kernel": he(k, (m, n)), "bias": jnp.zeros(n)}
            for i, (k, m, n) in enumerate(zip(keys, sizes[:-1], sizes[1:]))}


def apply(params, x):
    names = sorted(params)
    for name in names[:-1]:
        x = jax.nn.relu(x @ params[name]["kernel"] + params[name]["bias"])
    return x @ params[names[-1]]["kernel"] + params[names[-1]]["bias"]


def loss(params, x, y):
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(apply(params, x)), y[:, None], axis=1))


def accuracy(params, x, y):
    return jnp.mean(jnp.argmax(apply(params, x), axis=1) == y)


def is_kernel(path):
    return keystr(path).endswith("['kernel']")


def full_mask(params):
    return tree_map(jnp.ones_like, params)


def kernel_leaves(tree):
    return [leaf for path, leaf in jax.tree_util.tree_flatten_with_path(tree)[0] if is_kernel(path)]


def magnitude_mask(params, mask, fraction):
    """Prune `fraction` of the surviving kernel weights with the smallest |w| (global threshold)."""
    alive = jnp.concatenate([jnp.abs(p[m > 0]) for p, m in zip(kernel_leaves(params), kernel_leaves(mask))])
    threshold = jnp.sort(alive)[int(fraction * alive.size)]
    return tree_map_with_path(
        lambda path, p, m: jnp.where(jnp.abs(p) >= threshold, m, 0.0) if is_kernel(path) else m,
        params, mask)


opt_init, opt_update, get_params = optimizers.sgd(0.1)


@partial(jax.jit, static_argnums=2, donate_argnums=0)
def train(params, mask, steps):
    params = tree_map(jnp.multiply, params, mask)

    def step(state, i):
        p = get_params(state)
        value, g = jax.value_and_grad(loss)(p, X, y)
        g = tree_map(jnp.multiply, g, mask)
        return opt_update(i, g, state), value

    state, losses = lax.scan(step, opt_init(params), jnp.arange(steps))
    return get_params(state), losses


def sparsity(mask):
    per_layer = {keystr(path): 1.0 - jnp.mean(m) for path, m in
                 jax.tree_util.tree_flatten_with_path(mask)[0] if is_kernel(path)}
    kernels = kernel_leaves(mask)
    return per_layer, sum(float(jnp.sum(m == 0)) for m in kernels) / sum(m.size for m in kernels)


params_init = init(k_init)
print("kernels:", [keystr(p) for p, _ in jax.tree_util.tree_flatten_with_path(params_init)[0]
                   if is_kernel(p)])
mask = full_mask(params_init)
dense, losses = train(jax.tree_util.tree_map(jnp.copy, params_init), mask, 400)
print(f"dense: loss {float(losses[0]):.6f} -> {float(losses[-1]):.6f}, "
      f"test accuracy {float(accuracy(dense, X_test, y_test)):.3f}")

trained = dense
for round_ in range(1, 4):
    mask = magnitude_mask(trained, mask, 0.5)
    per_layer, total = sparsity(mask)
    # rewind to the initial weights, train again under the mask
    trained, losses = train(jax.tree_util.tree_map(jnp.copy, params_init), mask, 400)
    off_mask = sum(float(jnp.sum(jnp.abs(p * (1 - m))))
                   for p, m in zip(tree_leaves(trained), tree_leaves(mask)))
    print(f"round {round_}: sparsity {total:.3f} per layer",
          {k: round(float(v), 3) for k, v in per_layer.items()})
    print(f"  ticket: final loss {float(losses[-1]):.6f}, test accuracy "
          f"{float(accuracy(trained, X_test, y_test)):.3f}, weights off the mask {off_mask}")

# a random mask with the same per-layer sparsity
rand_mask = tree_map_with_path(
    lambda path, m: (random.bernoulli(random.fold_in(k_rand, len(keystr(path))), jnp.mean(m), m.shape)
                     .astype(m.dtype) if is_kernel(path) else m), mask)
_, rand_total = sparsity(rand_mask)
rand_trained, rand_losses = train(jax.tree_util.tree_map(jnp.copy, params_init), rand_mask, 400)
print(f"random mask: sparsity {rand_total:.3f}, final loss {float(rand_losses[-1]):.6f}, "
      f"test accuracy {float(accuracy(rand_trained, X_test, y_test)):.3f}")

# SNIP: connection saliency |dL/dw * w| at initialization, keep the top 12.5%
g0 = jax.grad(loss)(params_init, X, y)
saliency = tree_map(lambda g, w: jnp.abs(g * w), g0, params_init)
scores = jnp.concatenate([s.ravel() for s in kernel_leaves(saliency)])
keep = int(0.125 * scores.size)
cut = jnp.sort(scores)[::-1][keep - 1]
snip = tree_map_with_path(lambda path, s, m: (s >= cut).astype(m.dtype) if is_kernel(path) else m,
                          saliency, mask)
overlap = sum(float(jnp.sum(a * b)) for a, b in zip(kernel_leaves(snip), kernel_leaves(mask)))
print(f"SNIP keeps {int(sum(float(jnp.sum(m)) for m in kernel_leaves(snip)))} kernel weights;"
      f" overlap with the lottery ticket {int(overlap)}")
snip_trained, snip_losses = train(jax.tree_util.tree_map(jnp.copy, params_init), snip, 400)
print(f"SNIP: final loss {float(snip_losses[-1]):.6f}, test accuracy "
      f"{float(accuracy(snip_trained, X_test, y_test)):.3f}")
