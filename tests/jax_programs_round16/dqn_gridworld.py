"""Deep Q-learning (Mnih et al., 2015) on a pure-JAX gridworld, written as purejaxrl-style
code does: the environment step as a lax.switch over the four moves, a ring-buffer replay
memory updated with lax.dynamic_update_slice / .at[].set inside jit, epsilon-greedy actions
by jnp.where on a jax.random.uniform draw, minibatches by jax.random.randint, the TD target
from a target network refreshed by Polyak averaging with jax.tree.map, the Huber loss
(optax-free), and the learned greedy policy compared with exact value iteration."""

from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import lax, random

SIZE, GOAL, PIT, GAMMA = 5, (4, 4), (2, 2), 0.9
CAP, BATCH, TAU = 512, 32, 0.05
MOVES = jnp.array([[-1, 0], [1, 0], [0, -1], [0, 1]])


class Buffer(NamedTuple):
    obs: jax.Array
    action: jax.Array
    reward: jax.Array
    next_obs: jax.Array
    done: jax.Array
    ptr: jax.Array
    size: jax.Array


def one_hot_pos(pos):
    return jax.nn.one_hot(pos[0] * SIZE + pos[1], SIZE * SIZE)


def env_step(pos, action):
    branches = [lambda p, m=m: jnp.clip(p + MOVES[m], 0, SIZE - 1) for m in range(4)]
    new = lax.switch(action, branches, pos)
    at_goal = jnp.all(new == jnp.array(GOAL))
    in_pit = jnp.all(new == jnp.array(PIT))
    reward = jnp.where(at_goal, 1.0, jnp.where(in_pit, -1.0, -0.04))
    return new, reward, at_goal | in_pit


def init_q(key, hidden=32):
    k1, k2 = random.split(key)
    return {"w1": random.normal(k1, (SIZE * SIZE, hidden)) * 0.2, "b1": jnp.zeros(hidden),
            "w2": random.normal(k2, (hidden, 4)) * 0.2, "b2": jnp.zeros(4)}


def q_values(params, obs):
    return jax.nn.relu(obs @ params["w1"] + params["b1"]) @ params["w2"] + params["b2"]


def huber(x, delta=1.0):
    a = jnp.abs(x)
    return jnp.where(a <= delta, 0.5 * x ** 2, delta * (a - 0.5 * delta))


def add(buf, o, a, r, o2, d):
    i = buf.ptr
    return Buffer(lax.dynamic_update_slice(buf.obs, o[None], (i, 0)), buf.action.at[i].set(a),
                  buf.reward.at[i].set(r), lax.dynamic_update_slice(buf.next_obs, o2[None], (i, 0)),
                  buf.done.at[i].set(d), (i + 1) % CAP, jnp.minimum(buf.size + 1, CAP))


def td_loss(params, target, batch):
    o, a, r, o2, d = batch
    q = jnp.take_along_axis(q_values(params, o), a[:, None], axis=1)[:, 0]
    q_next = q_values(target, o2).max(axis=1)
    y = r + GAMMA * (1.0 - d) * lax.stop_gradient(q_next)
    return huber(q - y).mean()


@jax.jit
def run_episode_chunk(params, target, buf, pos, key, eps, lr=0.05):
    def step(carry, k):
        params, target, buf, pos = carry
        ke, ka, kb = random.split(k, 3)
        o = one_hot_pos(pos)
        greedy = jnp.argmax(q_values(params, o))
        action = jnp.where(random.uniform(ke) < eps, random.randint(ka, (), 0, 4), greedy)
        new_pos, r, done = env_step(pos, action)
        buf = add(buf, o, action, r, one_hot_pos(new_pos), done.astype(r.dtype))
        idx = random.randint(kb, (BATCH,), 0, jnp.maximum(buf.size, 1))
        batch = (buf.obs[idx], buf.action[idx], buf.reward[idx], buf.next_obs[idx], buf.done[idx])
        loss, g = jax.value_and_grad(td_loss)(params, target, batch)
        params = jax.tree.map(lambda p, g: p - lr * g, params, g)
        target = jax.tree.map(lambda t, p: (1 - TAU) * t + TAU * p, target, params)
        pos = jnp.where(done, jnp.zeros(2, pos.dtype), new_pos)
        return (params, target, buf, pos), (loss, r, done)

    (params, target, buf, pos), (loss, r, done) = lax.scan(
        step, (params, target, buf, pos), random.split(key, 100))
    return params, target, buf, pos, loss.mean(), r.sum(), done.sum()


def value_iteration(iters=100):
    states = jnp.array([(i, j) for i in range(SIZE) for j in range(SIZE)])

    def backup(v, _):
        def q_of(s):
            def per_action(a):
                s2, r, d = env_step(s, a)
                return r + GAMMA * (1 - d) * v[s2[0] * SIZE + s2[1]]
            return jax.vmap(per_action)(jnp.arange(4))
        q = jax.vmap(q_of)(states)
        return q.max(1), None

    v, _ = lax.scan(backup, jnp.zeros(SIZE * SIZE), None, length=iters)
    return v, states


print("step right from origin", env_step(jnp.array([0, 0]), 3))
print("into the wall", env_step(jnp.array([0, 0]), 0)[0], "into the goal", env_step(jnp.array([3, 4]), 1))
print("huber", huber(jnp.array([-3.0, -0.5, 0.0, 0.5, 3.0])))
v_star, states = value_iteration()
print("V* at start", v_star[0], "next to goal", v_star[3 * SIZE + 4])

key = random.PRNGKey(0)
key, kq = random.split(key)
params = init_q(kq)
target = params
buf = Buffer(jnp.zeros((CAP, SIZE * SIZE)), jnp.zeros(CAP, jnp.int32), jnp.zeros(CAP),
             jnp.zeros((CAP, SIZE * SIZE)), jnp.zeros(CAP), jnp.array(0), jnp.array(0))
pos = jnp.zeros(2, jnp.int32)
for chunk in range(12):
    key, sub = random.split(key)
    eps = jnp.maximum(0.05, 1.0 - chunk / 8)
    params, target, buf, pos, loss, ret, episodes = run_episode_chunk(params, target, buf, pos, sub, eps)
    if chunk % 3 == 0 or chunk == 11:
        print(f"chunk {chunk:2d} eps {eps:.3f} td loss {loss:.5f} reward {ret:.2f} "
              f"episodes {episodes} buffer {buf.size}")

q_all = q_values(params, jax.vmap(one_hot_pos)(states))
print("greedy actions\n", jnp.argmax(q_all, 1).reshape(SIZE, SIZE))
print("max Q at start", q_all[0].max(), "V*", v_star[0])
