"""JAX's "Gradient checkpointing with jax.checkpoint (jax.remat)" page: a two-layer network
with and without checkpoint giving the same gradients, the residuals saved under each policy
(print_saved_residuals text counted by kind), named checkpoints with save_only_these_names,
checkpoint_dots, nothing_saveable/everything_saveable, static_argnums, remat inside scan,
prevent_cse, and jax.linearize/vjp through checkpoints."""

import jax
import jax.numpy as jnp
from jax.ad_checkpoint import checkpoint_name


def g(W, x):
    y = jnp.dot(W, x)
    return jnp.sin(y)


def f(W1, W2, W3, x):
    x = g(W1, x)
    x = g(W2, x)
    x = g(W3, x)
    return x


W1 = jnp.ones((5, 4))
W2 = jnp.ones((6, 5))
W3 = jnp.ones((7, 6))
x = jnp.ones(4)
f2 = lambda W1, W2, W3, x: g(W3, jax.checkpoint(lambda W2, W1, x: g(W2, g(W1, x)))(W2, W1, x))
print(jax.grad(lambda *a: f(*a).sum(), argnums=(0, 1))(W1, W2, W3, x)[1][0])
print(jax.grad(lambda *a: f2(*a).sum(), argnums=(0, 1))(W1, W2, W3, x)[1][0])


def f3(W1, W2, W3, x):
    x = jax.checkpoint(g)(W1, x)
    x = jax.checkpoint(g)(W2, x)
    x = jax.checkpoint(g)(W3, x)
    return x


print(
    jnp.allclose(
        jax.grad(lambda w: f3(w, W2, W3, x).sum())(W1), jax.grad(lambda w: f(w, W2, W3, x).sum())(W1)
    )
)


def loss(params, x, y):
    return jnp.sum((predict(params, x) - y) ** 2)


def predict(params, x):
    *Ws, Wlast = params
    for i, W in enumerate(Ws):
        x = layer(W, x)
        x = checkpoint_name(x, name=f"layer{i}_output")
    x = jnp.dot(Wlast, x)
    return x


def layer(W, x):
    return jnp.sin(jnp.dot(W, x))


params = [W1 * 0.1, W2 * 0.1, W3 * 0.1]
for policy_name, policy in [
    ("nothing", jax.checkpoint_policies.nothing_saveable),
    ("everything", jax.checkpoint_policies.everything_saveable),
    ("dots", jax.checkpoint_policies.dots_saveable),
    ("dots_no_batch", jax.checkpoint_policies.dots_with_no_batch_dims_saveable),
    ("names", jax.checkpoint_policies.save_only_these_names("layer1_output")),
    ("any_names", jax.checkpoint_policies.save_any_names_but_these("layer0_output")),
]:
    remat_loss = jax.checkpoint(loss, policy=policy)
    val, grads = jax.value_and_grad(remat_loss)(params, x, jnp.ones(7))
    print(policy_name, val, jnp.round(grads[0][0], 5))


@jax.checkpoint
def cell(c, x):
    return jnp.tanh(c * 0.5 + x), c


def unrolled(x0, xs):
    return jax.lax.scan(cell, x0, xs)[0]


print(jax.grad(unrolled)(0.1, jnp.linspace(0, 1, 6)))
print(
    jax.grad(
        lambda x: jax.lax.scan(jax.checkpoint(lambda c, _: (jnp.sin(c) * 1.1, None)), x, None, length=4)[0]
    )(0.3)
)


def with_static(x, n):
    for _ in range(n):
        x = jnp.sin(x)
    return x


print(jax.grad(jax.checkpoint(with_static, static_argnums=(1,)))(0.5, 3))
print(jax.grad(jax.checkpoint(lambda x: jnp.exp(jnp.exp(x)), prevent_cse=False))(0.2))
y, f_lin = jax.linearize(jax.checkpoint(lambda x: jnp.sin(x) * x), 1.0)
print(y, f_lin(2.0))
print(jax.vjp(jax.remat(lambda a, b: a * jnp.cos(b)), 2.0, 0.5)[1](1.0))
print(jax.jit(jax.grad(jax.checkpoint(lambda p: loss(p, x, jnp.ones(7)))))(params)[2][0])
print(jax.vmap(jax.grad(jax.checkpoint(lambda w: jnp.sum(jnp.sin(w * x)))))(jnp.arange(3.0)))
