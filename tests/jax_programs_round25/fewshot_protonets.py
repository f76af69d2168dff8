"""Few-shot learning in the style of Snell et al.'s prototypical networks and Nichol et al.'s
Reptile written in JAX: N-way K-shot episodes sampled from synthetic classes (random.choice
without replacement, fold_in per episode), an embedding network with
jax.nn.initializers.variance_scaling, class prototypes as support means (jax.ops.segment_sum
against jnp.mean over a reshaped axis), the squared-Euclidean softmax classifier, a batch of
episodes by jax.vmap with in_axes=(None, 0, 0, 0), meta-training by jax.jit with
donate_argnums, and Reptile's first-order meta-update (inner SGD in lax.fori_loop, the
interpolation w + eps (w_task - w) by tree_map) compared with the episode accuracy before
adaptation.  Accuracies are means of k/n with n a multiple of 20 and print with five
decimals, where no value lies on a rounding boundary."""

from functools import partial

import jax
import jax.numpy as jnp
from jax import lax, random

jnp.set_printoptions(precision=4, suppress=True)

N_CLASSES, DIM, WAY, SHOT, QUERY = 20, 6, 4, 3, 5
key = random.PRNGKey(77)
k_means, k_init, k_train, k_test = random.split(key, 4)
class_means = 0.7 * random.normal(k_means, (N_CLASSES, DIM))
class_scales = 0.5 + 0.5 * random.uniform(random.fold_in(k_means, 1), (N_CLASSES, DIM))


def sample_episode(key, classes):
    k_cls, k_pts = random.split(key)
    chosen = random.choice(k_cls, classes, (WAY,), replace=False)
    noise = random.normal(k_pts, (WAY, SHOT + QUERY, DIM))
    points = class_means[chosen][:, None] + class_scales[chosen][:, None] * noise
    support = points[:, :SHOT].reshape(WAY * SHOT, DIM)
    query = points[:, SHOT:].reshape(WAY * QUERY, DIM)
    return support, query, jnp.repeat(jnp.arange(WAY), QUERY)


train_classes, test_classes = jnp.arange(14), jnp.arange(14, N_CLASSES)


def init(key, sizes=(DIM, 32, 8)):
    init_w = jax.nn.initializers.variance_scaling(1.0, "fan_avg", "uniform")
    keys = random.split(key, len(sizes) - 1)
    return [{"w": init_w(k, (m, n)), "b": jnp.zeros(n)} for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


def embed(params, x):
    for layer in params[:-1]:
        x = jax.nn.elu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def prototypes(params, support):
    z = embed(params, support)
    return z.reshape(WAY, SHOT, -1).mean(axis=1)


def episode_loss(params, support, query, labels):
    protos = prototypes(params, support)
    zq = embed(params, query)
    d2 = jnp.sum((zq[:, None, :] - protos[None]) ** 2, axis=-1)
    log_p = jax.nn.log_softmax(-d2, axis=-1)
    loss = -jnp.mean(log_p[jnp.arange(labels.shape[0]), labels])
    return loss, jnp.mean(jnp.argmax(log_p, axis=-1) == labels)


params = init(k_init)
support, query, labels = sample_episode(k_train, train_classes)
print("episode shapes", support.shape, query.shape, labels)
ids = jnp.repeat(jnp.arange(WAY), SHOT)
seg = jax.ops.segment_sum(embed(params, support), ids, WAY) / SHOT
print("segment_sum prototypes equal the reshaped means:",
      bool(jnp.allclose(seg, prototypes(params, support), atol=1e-6)))
loss, acc = episode_loss(params, support, query, labels)
print(f"untrained: loss {float(loss):.4f}, accuracy {float(acc):.5f}")
# the prototype classifier is a linear model in the embedding: -|z - c|^2 = 2 c.z - |c|^2 - |z|^2
protos = prototypes(params, support)
zq = embed(params, query)
linear = zq @ (2 * protos.T) - jnp.sum(protos ** 2, axis=1)
print("equivalent linear layer gives the same predictions:",
      bool(jnp.array_equal(jnp.argmax(linear, 1), jnp.argmax(-jnp.sum((zq[:, None] - protos) ** 2, -1), 1))))

batched = jax.vmap(episode_loss, in_axes=(None, 0, 0, 0))


def batch_of_episodes(key, classes, n=8):
    return jax.vmap(sample_episode, in_axes=(0, None))(random.split(key, n), classes)


@partial(jax.jit, donate_argnums=0)
def meta_step(params, key):
    s, q, l = batch_of_episodes(key, train_classes)
    mean_loss = lambda p: tuple(x.mean() for x in batched(p, s, q, l))
    (loss, acc), g = jax.value_and_grad(mean_loss, has_aux=True)(params)
    return jax.tree_util.tree_map(lambda p, gi: p - 0.05 * gi, params, g), loss, acc


def evaluate(params, key, n=200):
    s, q, l = batch_of_episodes(key, test_classes, n)
    loss, acc = batched(params, s, q, l)
    return loss.mean(), acc.mean()


loss0, acc0 = evaluate(params, k_test)
print(f"held-out classes before training: loss {float(loss0):.4f}, accuracy {float(acc0):.5f}")
proto_params = jax.tree_util.tree_map(jnp.copy, params)
for step in range(150):
    proto_params, loss, acc = meta_step(proto_params, random.fold_in(k_train, step))
    if step % 50 == 49:
        print(f"meta step {step + 1}: episode loss {float(loss):.4f}, accuracy {float(acc):.5f}")
loss1, acc1 = evaluate(proto_params, k_test)
print(f"held-out classes after training: loss {float(loss1):.4f}, accuracy {float(acc1):.5f}")


# ---- Reptile on the same episodes: a linear head on the embedding, adapted by SGD ----------------------
def head_loss(params, x, y):
    logits = embed(params, x)[:, :WAY]
    return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))


def adapt(params, support, labels, steps=10, lr=0.1):
    return lax.fori_loop(0, steps, lambda _, p: jax.tree_util.tree_map(
        lambda a, g: a - lr * g, p, jax.grad(head_loss)(p, support, labels)), params)


def head_accuracy(params, x, y):
    return jnp.mean(jnp.argmax(embed(params, x)[:, :WAY], axis=1) == y)


@jax.jit
def reptile_step(params, key, eps=0.2):
    support, query, labels = sample_episode(key, train_classes)
    adapted = adapt(params, support, jnp.repeat(jnp.arange(WAY), SHOT))
    return jax.tree_util.tree_map(lambda w, w_task: w + eps * (w_task - w), params, adapted)


@jax.jit
def reptile_eval(params, key):
    support, query, labels = sample_episode(key, test_classes)
    adapted = adapt(params, support, jnp.repeat(jnp.arange(WAY), SHOT))
    return head_accuracy(params, query, labels), head_accuracy(adapted, query, labels)


def reptile_scores(params):
    before, after = jax.vmap(reptile_eval, in_axes=(None, 0))(params, random.split(k_test, 100))
    return float(before.mean()), float(after.mean())


print("Reptile at init: accuracy without / with 10 adaptation steps %.5f / %.5f" % reptile_scores(params))
reptile_params = params
for step in range(200):
    reptile_params = reptile_step(reptile_params, random.fold_in(k_train, 1000 + step))
print("Reptile after 200 meta steps: without / with adaptation %.5f / %.5f" % reptile_scores(reptile_params))
