"""JAX's "Stateful computations" tutorial, cell by cell (rewritten, same operations; the
matplotlib plot is replaced by printing the fitted parameters): a stateful counter whose
jitted method runs its side effect once, the explicit-state counter under jit, and linear
regression with a NamedTuple of parameters."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class Counter:
    def __init__(self):
        self.n = 0

    def count(self) -> int:
        self.n += 1
        return self.n

    def reset(self):
        self.n = 0


counter = Counter()
for _ in range(3):
    print(counter.count())

counter.reset()
fast_count = jax.jit(counter.count)
for _ in range(3):
    print(fast_count())

CounterState = int


class CounterV2:
    def count(self, n: CounterState) -> tuple[int, CounterState]:
        return n + 1, n + 1

    def reset(self) -> CounterState:
        return 0


counter = CounterV2()
state = counter.reset()
for _ in range(3):
    value, state = counter.count(state)
    print(value)

state = counter.reset()
fast_count = jax.jit(counter.count)
for _ in range(3):
    value, state = fast_count(state)
    print(value)
print(repr(value), repr(state))


class Params(NamedTuple):
    weight: jnp.ndarray
    bias: jnp.ndarray


def init(rng) -> Params:
    weights_key, bias_key = jax.random.split(rng)
    weight = jax.random.normal(weights_key, ())
    bias = jax.random.normal(bias_key, ())
    return Params(weight, bias)


def loss(params: Params, x, y):
    pred = params.weight * x + params.bias
    return jnp.mean((pred - y) ** 2)


LEARNING_RATE = 0.005


@jax.jit
def update(params: Params, x, y) -> Params:
    grad = jax.grad(loss)(params, x, y)
    return jax.tree.map(lambda param, g: param - g * LEARNING_RATE, params, grad)


rng = jax.random.key(42)
true_w, true_b = 2, -1
x_rng, noise_rng = jax.random.split(rng)
xs = jax.random.normal(x_rng, (128, 1))
noise = jax.random.normal(noise_rng, (128, 1)) * 0.5
ys = xs * true_w + true_b + noise

params = init(rng)
print(params)
for _ in range(1000):
    params = update(params, xs, ys)
print(params)
print(loss(params, xs, ys))
