"""Proximal policy optimization in the style of PureJaxRL/CleanRL written in JAX: a point mass
pushed towards the origin as a pure environment (NamedTuple state, reset and step functions),
rollouts of several environments by lax.scan over time and jax.vmap over environments, a
Gaussian policy and a value network initialized with jax.nn.initializers.orthogonal,
generalized advantage estimation by a reverse lax.scan (checked against a Python loop),
the clipped surrogate objective with a value loss and an entropy bonus (has_aux metrics),
minibatch epochs over random.permutation, Adam from jax.example_libraries.optimizers, and
the approximate KL divergence and clipping fraction per update."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.example_libraries import optimizers
from jax.scipy.stats import norm

jnp.set_printoptions(precision=4, suppress=True)

N_ENVS, T, GAMMA, LAMBDA, CLIP = 8, 32, 0.95, 0.9, 0.2


class EnvState(NamedTuple):
    x: jax.Array
    v: jax.Array
    t: jax.Array


def reset(key):
    x = random.uniform(key, (), minval=-1.0, maxval=1.0)
    return EnvState(x, jnp.zeros_like(x), jnp.array(0))


def observe(s):
    return jnp.stack([s.x, s.v])


def env_step(s, action, key):
    force = jnp.clip(action, -1.0, 1.0)
    v = 0.9 * s.v + 0.2 * force
    x = s.x + 0.2 * v
    reward = -(x ** 2 + 0.1 * v ** 2 + 0.01 * force ** 2)
    done = (s.t + 1) >= 16
    new = EnvState(x, v, s.t + 1)
    new = jax.tree_util.tree_map(lambda a, b: jnp.where(done, a, b), reset(key), new)
    return new, reward, done


ortho = jax.nn.initializers.orthogonal


def init_net(key, sizes, last_scale):
    keys = random.split(key, len(sizes) - 1)
    layers = []
    for i, (k, m, n) in enumerate(zip(keys, sizes[:-1], sizes[1:])):
        scale = last_scale if i == len(sizes) - 2 else jnp.sqrt(2.0)
        layers.append({"w": ortho(scale)(k, (m, n)), "b": jnp.zeros(n)})
    return layers


def net(layers, x):
    for layer in layers[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    return x @ layers[-1]["w"] + layers[-1]["b"]


def init_params(key):
    k_pi, k_v = random.split(key)
    return {"pi": init_net(k_pi, (2, 32, 32, 1), 0.01), "v": init_net(k_v, (2, 32, 32, 1), 1.0),
            "log_std": jnp.full((1,), -0.5)}


def policy(params, obs):
    return net(params["pi"], obs)[..., 0], params["log_std"][0]


def value(params, obs):
    return net(params["v"], obs)[..., 0]


def rollout(params, env_state, key):
    """T steps of every environment; returns the final states and a time-major batch."""
    def one_step(env_state, key):
        k_act, k_env = random.split(key)
        obs = jax.vmap(observe)(env_state)
        mean, log_std = policy(params, obs)
        action = mean + jnp.exp(log_std) * random.normal(k_act, mean.shape)
        logp = norm.logpdf(action, mean, jnp.exp(log_std))
        new_state, reward, done = jax.vmap(env_step)(env_state, action, random.split(k_env, N_ENVS))
        return new_state, {"obs": obs, "action": action, "logp": logp, "reward": reward,
                           "done": done, "value": value(params, obs)}

    env_state, batch = lax.scan(one_step, env_state, random.split(key, T))
    last_value = value(params, jax.vmap(observe)(env_state))
    return env_state, batch, last_value


def gae(rewards, values, dones, last_value):
    def back(carry, xs):
        adv, next_value = carry
        r, v, d = xs
        not_done = 1.0 - d
        delta = r + GAMMA * next_value * not_done - v
        adv = delta + GAMMA * LAMBDA * not_done * adv
        return (adv, v), adv

    _, adv = lax.scan(back, (jnp.zeros_like(last_value), last_value),
                      (rewards, values, dones.astype(rewards.dtype)), reverse=True)
    return adv, adv + values


def gae_loop(rewards, values, dones, last_value):
    adv, next_value, out = jnp.zeros_like(last_value), last_value, []
    for t in reversed(range(rewards.shape[0])):
        not_done = 1.0 - dones[t]
        delta = rewards[t] + GAMMA * next_value * not_done - values[t]
        adv = delta + GAMMA * LAMBDA * not_done * adv
        out.append(adv)
        next_value = values[t]
    return jnp.stack(out[::-1])


def ppo_loss(params, mb):
    mean, log_std = policy(params, mb["obs"])
    logp = norm.logpdf(mb["action"], mean, jnp.exp(log_std))
    ratio = jnp.exp(logp - mb["logp"])
    adv = (mb["adv"] - mb["adv"].mean()) / (mb["adv"].std() + 1e-8)
    surrogate = jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - CLIP, 1 + CLIP) * adv)
    v_loss = 0.5 * jnp.mean((value(params, mb["obs"]) - mb["ret"]) ** 2)
    entropy = 0.5 * jnp.log(2 * jnp.pi * jnp.e) + log_std
    loss = -surrogate.mean() + 0.5 * v_loss - 0.001 * entropy
    metrics = {"approx_kl": jnp.mean((ratio - 1) - jnp.log(ratio)),
               "clip_frac": jnp.mean((jnp.abs(ratio - 1) > CLIP).astype(jnp.float32)),
               "v_loss": v_loss, "entropy": entropy}
    return loss, metrics


opt_init, opt_update, get_params = optimizers.adam(3e-3)
N_MINIBATCH, EPOCHS = 4, 4


@jax.jit
def update(opt_state, env_state, key, step0):
    params = get_params(opt_state)
    k_roll, k_perm = random.split(key)
    env_state, batch, last_value = rollout(params, env_state, k_roll)
    adv, ret = gae(batch["reward"], batch["value"], batch["done"], last_value)
    flat = {k: batch[k].reshape(-1) for k in ("obs", "action", "logp")}
    flat["obs"] = batch["obs"].reshape(-1, 2)
    flat["adv"], flat["ret"] = adv.reshape(-1), ret.reshape(-1)

    def epoch(carry, key):
        opt_state, step = carry
        perm = random.permutation(key, T * N_ENVS).reshape(N_MINIBATCH, -1)

        def minibatch(carry, idx):
            opt_state, step = carry
            mb = jax.tree_util.tree_map(lambda a: a[idx], flat)
            (_, metrics), g = jax.value_and_grad(ppo_loss, has_aux=True)(get_params(opt_state), mb)
            return (opt_update(step, g, opt_state), step + 1), metrics

        return lax.scan(minibatch, (opt_state, step), perm)

    (opt_state, step), metrics = lax.scan(epoch, (opt_state, step0), random.split(k_perm, EPOCHS))
    episode_reward = batch["reward"].sum() / jnp.maximum(batch["done"].sum(), 1)
    return opt_state, env_state, step, episode_reward, jax.tree_util.tree_map(jnp.mean, metrics)


key = random.PRNGKey(3)
k_init, k_env, k_run = random.split(key, 3)
params = init_params(k_init)
print("parameter shapes", jax.tree_util.tree_map(jnp.shape, params))
w = params["pi"][0]["w"]
print("orthogonal init: rows orthonormal up to the gain sqrt(2):",
      bool(jnp.allclose(w @ w.T / 2.0, jnp.eye(2), atol=1e-5)))
env_state = jax.vmap(reset)(random.split(k_env, N_ENVS))
_, batch, last_value = rollout(params, env_state, k_run)
print("rollout shapes", {k: v.shape for k, v in batch.items()})
adv, ret = gae(batch["reward"], batch["value"], batch["done"], last_value)
print("GAE scan equals the Python loop:",
      bool(jnp.allclose(adv, gae_loop(batch["reward"], batch["value"], batch["done"], last_value),
                        atol=1e-5)))
print("episodes finished", int(batch["done"].sum()), "mean advantage", f"{float(adv.mean()):.4f}")

opt_state = optimizers.adam(3e-3)[0](params)
step = jnp.array(0)
for it in range(8):
    opt_state, env_state, step, ep_reward, m = update(opt_state, env_state, random.fold_in(k_run, it), step)
    if it % 2 == 1:
        print(f"update {it + 1}: episode reward {float(ep_reward):8.4f}"
              f"  approx_kl {float(m['approx_kl']):.2e}"
              f"  clip_frac {float(m['clip_frac']):.3f}  v_loss {float(m['v_loss']):.4f}")
params = get_params(opt_state)
print("optimizer steps", int(step), "log_std", params["log_std"])
obs = jnp.array([[1.0, 0.0], [-1.0, 0.0], [0.0, 1.0]])
print("policy mean at (+-1, 0), (0, 1):", policy(params, obs)[0])
