"""Mixed-precision training as jmp-style research code does it by hand: float32 master weights,
bfloat16 (and float16) compute copies made by tree_map casting only floating leaves,
loss scaling (static and dynamic with the all-finite check and the scale's growth/backoff),
gradients cast back to float32, jnp.finfo of the half types, bfloat16 rounding of sums
versus float32 accumulation with preferred_element_type, and the skipped-step logic under
jit with lax.cond."""

import jax
import jax.numpy as jnp
from jax import lax, random

key = random.PRNGKey(0)
k1, k2, k3 = random.split(key, 3)
params = {"w": random.normal(k1, (8, 4)) * 0.3, "b": jnp.zeros(4), "step": jnp.array(0)}
X = random.normal(k2, (32, 8))
Y = jnp.tanh(X @ random.normal(k3, (8, 4)))


def cast_floating(tree, dtype):
    return jax.tree.map(lambda x: x.astype(dtype) if jnp.issubdtype(x.dtype, jnp.floating) else x, tree)


half = cast_floating(params, jnp.bfloat16)
print(jax.tree.map(lambda x: x.dtype, half))
for dt in [jnp.bfloat16, jnp.float16]:
    fi = jnp.finfo(dt)
    print(fi.dtype, fi.bits, fi.eps, fi.max, fi.tiny, fi.resolution)


def loss_fn(p, x, y):
    pred = jnp.tanh(x @ p["w"] + p["b"])
    return jnp.mean((pred.astype(jnp.float32) - y) ** 2)


x16 = X.astype(jnp.bfloat16)
l16 = loss_fn(half, x16, Y)
print("bf16 loss", l16, l16.dtype, "f32 loss", loss_fn(params, X, Y))
acc = lax.dot(x16, half["w"], preferred_element_type=jnp.float32)
print("preferred_element_type", acc.dtype, jnp.max(jnp.abs(acc - X @ params["w"])) < 0.1)
s = jnp.ones(1000, jnp.bfloat16) * jnp.bfloat16(0.1)
print("bf16 sum", jnp.sum(s), jnp.sum(s, dtype=jnp.float32), jnp.cumsum(s)[-1])
print("bf16 arithmetic", jnp.bfloat16(1.0) + jnp.bfloat16(1 / 256), jnp.array(3.14159, jnp.bfloat16))


def all_finite(tree):
    return jnp.all(jnp.array([jnp.all(jnp.isfinite(x)) for x in jax.tree.leaves(tree)]))


@jax.jit
def train_step(params, scale, good_steps, x, y):
    def scaled_loss(p):
        return loss_fn(cast_floating(p, jnp.float16), x.astype(jnp.float16), y) * scale
    grads = jax.grad(scaled_loss, allow_int=True)({"w": params["w"], "b": params["b"]})
    grads = jax.tree.map(lambda g: g.astype(jnp.float32) / scale, grads)
    finite = all_finite(grads)

    def apply(_):
        new = {"w": params["w"] - 0.5 * grads["w"], "b": params["b"] - 0.5 * grads["b"],
               "step": params["step"] + 1}
        grow = good_steps + 1 >= 5
        return new, jnp.where(grow, scale * 2, scale), jnp.where(grow, 0, good_steps + 1)

    def skip(_):
        return params, jnp.maximum(scale / 2, 1.0), jnp.zeros_like(good_steps)

    return lax.cond(finite, apply, skip, None) + (finite,)


scale, good = jnp.array(2.0 ** 15, jnp.float32), jnp.array(0, jnp.int32)
for i in range(12):
    params, scale, good, finite = train_step(params, scale, good, X, Y)
    print(i, "finite", finite, "scale", scale, "loss", loss_fn(params, X, Y))
print("steps taken", params["step"], params["w"].dtype, params["b"][:2])
g16 = jax.grad(lambda w: jnp.sum(w.astype(jnp.bfloat16) ** 2))(params["w"])
print("grad through cast", g16.dtype, g16[0, :2])
print("float16 overflow", jnp.float16(60000.0) * 2, jnp.isinf(jnp.float16(60000.0) * 2))
