"""REINFORCE with a learned baseline on a pure-JAX CartPole (the gymnax / purejaxrl style):
the classic cart-pole physics (Barto, Sutton & Anderson) as a pure step function with
automatic reset through lax.cond, episodes rolled out with lax.scan and vmapped over a batch
of environments, actions drawn with jax.random.categorical, discounted returns by a reverse
lax.scan, a policy-gradient loss with an entropy bonus, jax.example_libraries.optimizers.adam
and a jitted update over a batch of keys."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax, random
from jax.example_libraries import optimizers

GRAVITY, MASSCART, MASSPOLE, LENGTH, FORCE_MAG, TAU = 9.8, 1.0, 0.1, 0.5, 10.0, 0.02
TOTAL_MASS = MASSCART + MASSPOLE
POLEMASS_LENGTH = MASSPOLE * LENGTH
THETA_LIMIT, X_LIMIT, MAX_STEPS = 12 * 2 * jnp.pi / 360, 2.4, 200
N_ENVS, HORIZON, GAMMA = 16, 64, 0.99


class EnvState(NamedTuple):
    x: jax.Array
    x_dot: jax.Array
    theta: jax.Array
    theta_dot: jax.Array
    time: jax.Array


def reset(key):
    s = random.uniform(key, (4,), minval=-0.05, maxval=0.05)
    return EnvState(s[0], s[1], s[2], s[3], jnp.array(0, dtype=jnp.int32))


def obs(state):
    return jnp.stack([state.x, state.x_dot, state.theta, state.theta_dot])


def physics(state, action):
    force = FORCE_MAG * action - FORCE_MAG * (1 - action)
    costheta, sintheta = jnp.cos(state.theta), jnp.sin(state.theta)
    temp = (force + POLEMASS_LENGTH * state.theta_dot ** 2 * sintheta) / TOTAL_MASS
    thetaacc = (GRAVITY * sintheta - costheta * temp) / (
        LENGTH * (4.0 / 3.0 - MASSPOLE * costheta ** 2 / TOTAL_MASS))
    xacc = temp - POLEMASS_LENGTH * thetaacc * costheta / TOTAL_MASS
    x = state.x + TAU * state.x_dot
    x_dot = state.x_dot + TAU * xacc
    theta = state.theta + TAU * state.theta_dot
    theta_dot = state.theta_dot + TAU * thetaacc
    return EnvState(x, x_dot, theta, theta_dot, state.time + 1)


def terminal(state):
    out = (jnp.abs(state.x) > X_LIMIT) | (jnp.abs(state.theta) > THETA_LIMIT)
    return out | (state.time >= MAX_STEPS)


def env_step(key, state, action):
    new = physics(state, action)
    done = terminal(new)
    # auto-reset, as gymnax's wrappers do: a finished episode starts again from a fresh state
    new = lax.cond(done, lambda: reset(key), lambda: new)
    return new, jnp.where(done, 0.0, 1.0), done


def init_params(key, sizes=(4, 32, 2)):
    keys = random.split(key, len(sizes))
    params = []
    for k, (m, n) in zip(keys, zip(sizes[:-1], sizes[1:])):
        params.append((random.normal(k, (m, n)) * jnp.sqrt(1.0 / m), jnp.zeros(n)))
    value = (random.normal(keys[-1], (sizes[1], 1)) * 0.1, jnp.zeros(1))
    return {"policy": params, "value": value}


def forward(params, o):
    (w1, b1), (w2, b2) = params["policy"]
    h = jnp.tanh(o @ w1 + b1)
    logits = h @ w2 + b2
    v = (h @ params["value"][0] + params["value"][1])[..., 0]
    return logits, v


def rollout(params, key):
    key, k0 = random.split(key)
    state = reset(k0)

    def step(carry, k):
        state = carry
        ka, kr = random.split(k)
        o = obs(state)
        logits, v = forward(params, o)
        action = random.categorical(ka, logits)
        state, reward, done = env_step(kr, state, action)
        return state, (o, action, reward, done, v)

    _, traj = lax.scan(step, state, random.split(key, HORIZON))
    return traj


def discounted_returns(rewards, dones):
    def back(g, rd):
        r, d = rd
        g = r + GAMMA * g * (1.0 - d)
        return g, g
    _, rets = lax.scan(back, 0.0, (rewards, dones.astype(rewards.dtype)), reverse=True)
    return rets


def loss_fn(params, batch):
    o, a, ret = batch
    logits, v = forward(params, o)
    logp = jax.nn.log_softmax(logits)
    logp_a = jnp.take_along_axis(logp, a[..., None], axis=-1)[..., 0]
    adv = lax.stop_gradient(ret - v)
    adv = (adv - adv.mean()) / (adv.std() + 1e-8)
    entropy = -(jnp.exp(logp) * logp).sum(-1).mean()
    pg = -(logp_a * adv).mean()
    vf = 0.5 * ((ret - v) ** 2).mean()
    return pg + 0.5 * vf - 0.01 * entropy, (pg, vf, entropy)


opt_init, opt_update, get_params = optimizers.adam(3e-3)


@jax.jit
def update(i, opt_state, key):
    params = get_params(opt_state)
    o, a, r, d, _ = jax.vmap(rollout, in_axes=(None, 0))(params, random.split(key, N_ENVS))
    ret = jax.vmap(discounted_returns)(r, d)
    (loss, aux), g = jax.value_and_grad(loss_fn, has_aux=True)(params, (o, a, ret))
    gnorm = optimizers.l2_norm(g)
    g = optimizers.clip_grads(g, 1.0)
    return opt_update(i, g, opt_state), loss, aux, r.sum() / jnp.maximum(d.sum(), 1), gnorm


key = random.PRNGKey(42)
s = reset(key)
print("reset state", obs(s), s.time.dtype)
s2, r, d = env_step(key, s, jnp.array(1))
print("one step", obs(s2), r, d)
falling = EnvState(*(jnp.array(v) for v in (0.0, 0.0, 0.25, 0.0)), jnp.array(0, dtype=jnp.int32))
print("terminal when tilted", terminal(falling), terminal(s))
print("returns", discounted_returns(jnp.ones(5), jnp.array([False, False, True, False, False])))

params = init_params(random.PRNGKey(0))
opt_state = opt_init(params)
print("param shapes", jax.tree.map(jnp.shape, params))
for i in range(30):
    key, sub = random.split(key)
    opt_state, loss, (pg, vf, ent), ep_len, gnorm = update(i, opt_state, sub)
    if i % 6 == 0 or i == 29:
        print(f"iter {i:2d} loss {loss:.4f} pg {pg:.4f} vf {vf:.4f} entropy {ent:.4f} "
              f"mean episode length {ep_len:.2f} grad norm {gnorm:.4f}")
params = get_params(opt_state)
logits, v = forward(params, obs(s))
print("final policy at reset", jax.nn.softmax(logits), v)
