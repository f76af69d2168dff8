"""MAML on sine-wave regression (Finn et al.; the "MAML in JAX" blog post): a stax MLP,
an inner SGD step taken with grad, the meta-gradient through it (grad of grad), tasks
batched with vmap, and example_libraries.optimizers.adam for the outer loop."""

import jax
import jax.numpy as jnp
from jax import grad, jit, random, value_and_grad, vmap
from jax.example_libraries import optimizers, stax
from jax.example_libraries.stax import Dense, Relu
from jax.tree_util import tree_map

net_init, net_apply = stax.serial(Dense(40), Relu, Dense(40), Relu, Dense(1))
rng = random.PRNGKey(0)
out_shape, net_params = net_init(rng, (-1, 1))
print("out shape", out_shape)
print("param shapes", tree_map(lambda p: p.shape, net_params))


def loss(params, inputs, targets):
    predictions = net_apply(params, inputs)
    return jnp.mean((targets - predictions) ** 2)


def inner_update(p, x1, y1, alpha=0.1):
    grads = grad(loss)(p, x1, y1)
    return tree_map(lambda p, g: p - alpha * g, p, grads)


def maml_loss(p, x1, y1, x2, y2):
    p2 = inner_update(p, x1, y1)
    return loss(p2, x2, y2)


def sample_tasks(key, outer_batch_size, inner_batch_size):
    ka, kp, kx1, kx2 = random.split(key, 4)
    As = random.uniform(ka, (outer_batch_size,), minval=0.1, maxval=5.0)
    phases = random.uniform(kp, (outer_batch_size,), maxval=jnp.pi)

    def get_batch(k):
        xs = random.uniform(k, (outer_batch_size, inner_batch_size, 1), minval=-5.0, maxval=5.0)
        ys = As[:, None, None] * jnp.sin(xs + phases[:, None, None])
        return xs, ys

    x1, y1 = get_batch(kx1)
    x2, y2 = get_batch(kx2)
    return x1, y1, x2, y2


x1, y1, x2, y2 = sample_tasks(random.PRNGKey(1), 4, 10)
print("task batch", x1.shape, y1.dtype)
print("single maml loss", maml_loss(net_params, x1[0], y1[0], x2[0], y2[0]))
g = grad(maml_loss)(net_params, x1[0], y1[0], x2[0], y2[0])
print("meta-grad norms", [float(jnp.linalg.norm(leaf)) for leaf in jax.tree_util.tree_leaves(g)])


def batch_maml_loss(p, x1_b, y1_b, x2_b, y2_b):
    task_losses = vmap(maml_loss, in_axes=(None, 0, 0, 0, 0))(p, x1_b, y1_b, x2_b, y2_b)
    return jnp.mean(task_losses)

opt_init, opt_update, get_params = optimizers.adam(step_size=1e-3)
opt_state = opt_init(net_params)


@jit
def step(i, opt_state, x1, y1, x2, y2):
    p = get_params(opt_state)
    l, g = value_and_grad(batch_maml_loss)(p, x1, y1, x2, y2)
    return opt_update(i, g, opt_state), l


key = random.PRNGKey(2)
for i in range(6):
    key, sub = random.split(key)
    opt_state, l = step(i, opt_state, *sample_tasks(sub, 4, 10))
    print(i, l)

# second-order term: the Hessian-vector product hidden in the meta-gradient
p = get_params(opt_state)
first_order = grad(lambda q: loss(q, x2[0], y2[0]))(inner_update(p, x1[0], y1[0]))
full = grad(maml_loss)(p, x1[0], y1[0], x2[0], y2[0])
diff = tree_map(lambda a, b: jnp.max(jnp.abs(a - b)), first_order, full)
print("second-order contribution > 0:", all(float(d) > 0 for d in jax.tree_util.tree_leaves(diff)))
print("state type", type(opt_state).__name__, len(optimizers.unpack_optimizer_state(opt_state)))
