"""A sparse mixture-of-experts layer (Switch / GShard style, as in JAX research code such as
t5x and MaxText written with jax alone): a router with jax.lax.top_k over softmax gates,
expert capacity enforced by a cumsum over one-hot assignments, dispatch and combine tensors
built with jax.nn.one_hot and einsum, the load-balancing auxiliary loss and the router
z-loss, experts applied with jax.vmap over stacked weights, and a few SGD steps on a
regression task under jit with the gradients of the router flowing through the gates."""

import jax
import jax.numpy as jnp
from jax import lax, random

N_TOKENS, D_MODEL, D_FF, N_EXPERTS, TOP_K, CAPACITY_FACTOR = 32, 8, 16, 4, 2, 1.25


def init(key):
    kr, k1, k2, kt = random.split(key, 4)
    return {
        "router": random.normal(kr, (D_MODEL, N_EXPERTS)) * 0.5,
        "w1": random.normal(k1, (N_EXPERTS, D_MODEL, D_FF)) / jnp.sqrt(D_MODEL),
        "w2": random.normal(k2, (N_EXPERTS, D_FF, D_MODEL)) / jnp.sqrt(D_FF),
    }


def route(router_w, x, capacity):
    logits = x @ router_w
    gates = jax.nn.softmax(logits, axis=-1)
    top_gates, top_idx = lax.top_k(gates, TOP_K)                 # (T, K)
    top_gates = top_gates / top_gates.sum(-1, keepdims=True)
    # position of each (token, choice) in its expert's buffer: choices ranked first-choice-first
    mask = jax.nn.one_hot(top_idx, N_EXPERTS, dtype=jnp.int32)   # (T, K, E)
    flat = mask.transpose(1, 0, 2).reshape(TOP_K * x.shape[0], N_EXPERTS)
    position = (jnp.cumsum(flat, axis=0) - 1) * flat
    position = position.reshape(TOP_K, x.shape[0], N_EXPERTS).transpose(1, 0, 2)
    keep = (position < capacity) & (mask > 0)
    pos_in_expert = jnp.sum(position * keep, axis=-1)             # (T, K)
    kept_choice = keep.any(-1)                                    # (T, K)
    dispatch = (jax.nn.one_hot(top_idx, N_EXPERTS)[..., None]
                * jax.nn.one_hot(pos_in_expert, capacity)[:, :, None, :]
                * kept_choice[..., None, None])                   # (T, K, E, C)
    combine = (top_gates[..., None, None] * dispatch).sum(1)      # (T, E, C)
    dispatch = dispatch.sum(1)
    # auxiliary losses (Switch Transformer): load balance and router z-loss
    density = mask[:, 0, :].mean(0).astype(gates.dtype)
    density_proxy = gates.mean(0)
    balance = N_EXPERTS * jnp.sum(density * density_proxy)
    z_loss = jnp.mean(jax.nn.logsumexp(logits, axis=-1) ** 2)
    return dispatch, combine, balance, z_loss, kept_choice


def expert(w1, w2, h):
    return jax.nn.gelu(h @ w1, approximate=False) @ w2


def moe(params, x):
    capacity = int(CAPACITY_FACTOR * TOP_K * x.shape[0] / N_EXPERTS)
    dispatch, combine, balance, z_loss, kept = route(params["router"], x, capacity)
    expert_in = jnp.einsum("tec,td->ecd", dispatch, x)
    expert_out = jax.vmap(expert)(params["w1"], params["w2"], expert_in)
    y = jnp.einsum("tec,ecd->td", combine, expert_out)
    return y, (balance, z_loss, kept.mean())


def loss_fn(params, x, y):
    pred, (balance, z_loss, kept) = moe(params, x)
    mse = jnp.mean((pred + x - y) ** 2)
    return mse + 0.01 * balance + 1e-3 * z_loss, (mse, balance, z_loss, kept)


key = random.PRNGKey(0)
kp, kx, kt = random.split(key, 3)
params = init(kp)
x = random.normal(kx, (N_TOKENS, D_MODEL))
target_w = random.normal(kt, (D_MODEL, D_MODEL)) * 0.3
y = x + jnp.tanh(x @ target_w)

top_vals, top_idx = lax.top_k(jnp.array([0.1, 0.5, 0.2, 0.5, 0.3]), 3)
print("top_k with a tie", top_vals, top_idx)
capacity = int(CAPACITY_FACTOR * TOP_K * N_TOKENS / N_EXPERTS)
dispatch, combine, balance, z_loss, kept = route(params["router"], x, capacity)
print("capacity", capacity, "dispatch", dispatch.shape, dispatch.dtype)
print("tokens per expert", dispatch.sum((0, 2)), "max slot use", dispatch.sum(0).max())
print("combine weights per token (first 6)", combine.sum((1, 2))[:6])
print("balance", balance, "z-loss", z_loss, "kept fraction", kept.mean())


@jax.jit
def step(params, x, y, lr=0.1):
    (loss, aux), g = jax.value_and_grad(loss_fn, has_aux=True)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, g), loss, aux, g


for i in range(60):
    params, loss, (mse, balance, z_loss, kept), g = step(params, x, y)
    if i % 15 == 0 or i == 59:
        print(f"step {i:2d} loss {loss:.5f} mse {mse:.5f} balance {balance:.4f} "
              f"z {z_loss:.4f} kept {kept:.4f} |g_router| {jnp.linalg.norm(g['router']):.5f}")
print("router grads reach every expert column", bool(jnp.all(jnp.abs(g["router"]).sum(0) > 0)))
