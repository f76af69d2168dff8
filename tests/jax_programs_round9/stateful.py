"""JAX's "Stateful computations" tutorial: a counter whose state is passed explicitly, linear
regression with a NamedTuple of parameters updated by a jitted step, and state as a pytree
(an optimizer with momentum, a batch-norm running mean) threaded through lax.scan."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Counter:
    """A stateful counter: jit sees the state once, at tracing."""

    def __init__(self):
        self.n = 0

    def count(self) -> int:
        self.n += 1
        return self.n

    def reset(self):
        self.n = 0


counter = Counter()
print([counter.count() for _ in range(3)])
counter.reset()
fast_count = jax.jit(counter.count)
print([int(fast_count()) for _ in range(3)])

CounterState = int


class CounterV2:
    def count(self, n: CounterState) -> tuple[int, CounterState]:
        return n + 1, n + 1

    def reset(self) -> CounterState:
        return 0


counter = CounterV2()
state = counter.reset()
values = []
for _ in range(3):
    value, state = counter.count(state)
    values.append(value)
print(values)
state = counter.reset()
fast_count = jax.jit(counter.count)
out = []
for _ in range(3):
    value, state = fast_count(state)
    out.append(value)
print(out, repr(state))


class Params(NamedTuple):
    weight: jnp.ndarray
    bias: jnp.ndarray


def init(rng) -> Params:
    weights_key, bias_key = jax.random.split(rng)
    weight = jax.random.normal(weights_key, ())
    bias = jax.random.normal(bias_key, ())
    return Params(weight, bias)


def loss(params: Params, x: jnp.ndarray, y: jnp.ndarray) -> jnp.ndarray:
    pred = params.weight * x + params.bias
    return jnp.mean((pred - y) ** 2)


LEARNING_RATE = 0.005


@jax.jit
def update(params: Params, x: jnp.ndarray, y: jnp.ndarray) -> Params:
    grad = jax.grad(loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - LEARNING_RATE * g, params, grad)


rng = jax.random.key(42)
x_rng, noise_rng = jax.random.split(rng)
true_w, true_b = 2, -1
xs = jax.random.normal(x_rng, (128, 1))
noise = jax.random.normal(noise_rng, (128, 1)) * 0.5
ys = xs * true_w + true_b + noise
params = init(rng)
print(params)
for i in range(1000):
    params = update(params, xs, ys)
    if i % 250 == 0:
        print(i, loss(params, xs, ys))
print(params, loss(params, xs, ys))


# state as a pytree: momentum SGD threaded through scan
class OptState(NamedTuple):
    params: Params
    velocity: Params
    step: jnp.ndarray


def sgd_momentum_step(state: OptState, batch):
    x, y = batch
    g = jax.grad(loss)(state.params, x, y)
    velocity = jax.tree.map(lambda v, gi: 0.9 * v - 0.05 * gi, state.velocity, g)
    new_params = jax.tree.map(jnp.add, state.params, velocity)
    return OptState(new_params, velocity, state.step + 1), loss(new_params, x, y)


p0 = init(jax.random.key(0))
s0 = OptState(p0, jax.tree.map(jnp.zeros_like, p0), jnp.array(0))
batches = (xs.reshape(8, 16, 1), ys.reshape(8, 16, 1))
final, losses = jax.jit(lambda s: jax.lax.scan(sgd_momentum_step, s, batches))(s0)
print(final.step, final.params, losses)
print(jax.tree.structure(final), jax.tree.leaves(final.velocity))


# a running mean as state (batch-norm style)
def bn_apply(state, x, momentum=0.9):
    mean = x.mean(0)
    new_state = {"mean": momentum * state["mean"] + (1 - momentum) * mean, "count": state["count"] + 1}
    return (x - mean) / (x.std(0) + 1e-5), new_state


bn_state = {"mean": jnp.zeros(3), "count": 0}
data = jnp.arange(24.0).reshape(4, 2, 3) ** 1.5
for batch in data:
    y, bn_state = jax.jit(bn_apply)(bn_state, batch)
print(bn_state, y)
