"""An optax training loop: an MLP classifier on a toy problem with optax.chain (gradient
clipping, adamw with a warmup-cosine schedule), then SGD with momentum and an exponential
decay, and a multi_transform over parameter groups."""

import jax
import jax.numpy as jnp
import optax

key = jax.random.PRNGKey(0)
k_data, k_init = jax.random.split(key)
X = jax.random.normal(k_data, (128, 2))
labels = (X[:, 0] * X[:, 1] > 0).astype(jnp.int32)


def init(key, sizes):
    params = {}
    for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:])):
        key, sub = jax.random.split(key)
        params[f"dense_{i}"] = {"w": jax.random.normal(sub, (m, n)) * jnp.sqrt(2.0 / m),
                                "b": jnp.zeros(n)}
    return params


def apply(params, x):
    n = len(params)
    for i in range(n):
        x = x @ params[f"dense_{i}"]["w"] + params[f"dense_{i}"]["b"]
        if i < n - 1:
            x = jax.nn.relu(x)
    return x


def loss_fn(params, x, y):
    logits = apply(params, x)
    return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()


def accuracy(params, x, y):
    return jnp.mean(jnp.argmax(apply(params, x), -1) == y)


schedule = optax.warmup_cosine_decay_schedule(init_value=0.0, peak_value=0.05, warmup_steps=20,
                                              decay_steps=200, end_value=1e-3)
print([round(float(schedule(s)), 6) for s in (0, 10, 20, 100, 200, 300)])
optimizer = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(schedule, weight_decay=1e-4))

params = init(k_init, [2, 32, 32, 2])
opt_state = optimizer.init(params)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


for step in range(201):
    params, opt_state, loss = train_step(params, opt_state, X, labels)
    if step % 50 == 0:
        print(f"step {step:3d} loss {float(loss):.5f} acc {float(accuracy(params, X, labels)):.4f}")
print("global norm", optax.global_norm(params))

# SGD with momentum and an exponential decay schedule, on a least-squares problem
A = jax.random.normal(jax.random.PRNGKey(3), (20, 4))
w_true = jnp.array([1.0, -1.0, 2.0, 0.5])
b = A @ w_true
lr = optax.exponential_decay(0.05, transition_steps=10, decay_rate=0.9)
opt = optax.sgd(lr, momentum=0.9, nesterov=True)
w = jnp.zeros(4)
state = opt.init(w)
lsq = lambda w: 0.5 * jnp.mean((A @ w - b) ** 2)  # noqa: E731
for _ in range(100):
    g = jax.grad(lsq)(w)
    upd, state = opt.update(g, state)
    w = optax.apply_updates(w, upd)
print("sgd w", w, "loss", lsq(w))

# parameter groups: adam on weights, frozen biases
labels_tree = jax.tree_util.tree_map_with_path(
    lambda path, _: "frozen" if path[-1].key == "b" else "train", params)
multi = optax.multi_transform({"train": optax.adam(1e-2), "frozen": optax.set_to_zero()},
                              labels_tree)
ms = multi.init(params)
g = jax.grad(loss_fn)(params, X, labels)
u, ms = multi.update(g, ms, params)
print("bias updates zero", all(bool(jnp.all(u[k]["b"] == 0)) for k in u))
print("weight update norm", optax.global_norm({k: u[k]["w"] for k in u}))
print(optax.l2_loss(jnp.array([1.0, 2.0]), jnp.array([0.0, 0.0])),
      optax.huber_loss(jnp.array([0.5, 3.0])), optax.sigmoid_binary_cross_entropy(
          jnp.array([0.0, 2.0]), jnp.array([1.0, 0.0])))
