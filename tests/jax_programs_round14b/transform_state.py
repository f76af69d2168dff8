"""Haiku-style ``transform_with_state`` written by hand: a tiny frame that collects
parameters and state through ``get_parameter``/``get_state``/``set_state`` calls with a
module-name stack, an ``init``/``apply`` pair, BatchNorm with exponential moving averages kept
in state, a training loop that threads state through ``value_and_grad(has_aux=True)``, and
evaluation in test mode; jax.tree.map/leaves over the collected dicts."""

import contextlib

import jax
import jax.numpy as jnp
from jax import random

_FRAME = []


class Frame:
    def __init__(self, params, state, rng, init):
        self.params, self.state, self.rng, self.init = params, state, rng, init
        self.names = []

    def scope(self):
        return "/".join(self.names) or "~"


@contextlib.contextmanager
def name_scope(name):
    _FRAME[-1].names.append(name)
    try:
        yield
    finally:
        _FRAME[-1].names.pop()


def get_parameter(name, shape, init):
    f = _FRAME[-1]
    mod = f.params.setdefault(f.scope(), {})
    if name not in mod:
        if not f.init:
            raise ValueError(f"missing parameter {f.scope()}/{name}")
        f.rng, k = random.split(f.rng)
        mod[name] = init(k, shape)
    return mod[name]


def get_state(name, shape, init):
    f = _FRAME[-1]
    mod = f.state.setdefault(f.scope(), {})
    if name not in mod:
        mod[name] = init(shape)
    return mod[name]


def set_state(name, value):
    f = _FRAME[-1]
    f.state.setdefault(f.scope(), {})[name] = value


def transform_with_state(fn):
    def init(rng, *args):
        _FRAME.append(Frame({}, {}, rng, True))
        try:
            fn(*args)
            return _FRAME[-1].params, _FRAME[-1].state
        finally:
            _FRAME.pop()

    def apply(params, state, rng, *args):
        new_state = jax.tree.map(lambda x: x, state)
        _FRAME.append(Frame(params, new_state, rng, False))
        try:
            out = fn(*args)
            return out, _FRAME[-1].state
        finally:
            _FRAME.pop()
    return init, apply


def linear(x, n, name):
    with name_scope(name):
        w = get_parameter("w", (x.shape[-1], n),
                          lambda k, s: random.truncated_normal(k, -2.0, 2.0, s) / jnp.sqrt(s[0]))
        b = get_parameter("b", (n,), lambda k, s: jnp.zeros(s))
        return x @ w + b


def batch_norm(x, is_training, name, decay=0.9, eps=1e-5):
    with name_scope(name):
        mean_ema = get_state("mean", (x.shape[-1],), jnp.zeros)
        var_ema = get_state("var", (x.shape[-1],), jnp.ones)
        if is_training:
            mean, var = x.mean(0), x.var(0)
            set_state("mean", decay * mean_ema + (1 - decay) * mean)
            set_state("var", decay * var_ema + (1 - decay) * var)
        else:
            mean, var = mean_ema, var_ema
        scale = get_parameter("scale", (x.shape[-1],), lambda k, s: jnp.ones(s))
        offset = get_parameter("offset", (x.shape[-1],), lambda k, s: jnp.zeros(s))
        return (x - mean) * jax.lax.rsqrt(var + eps) * scale + offset


def net(x, is_training):
    with name_scope("mlp"):
        h = jax.nn.relu(batch_norm(linear(x, 12, "linear"), is_training, "batch_norm"))
        h = jax.nn.relu(batch_norm(linear(h, 12, "linear_1"), is_training, "batch_norm_1"))
        return linear(h, 3, "linear_2")


init, apply = transform_with_state(net)
key = random.PRNGKey(42)
kd, kl, ki = random.split(key, 3)
centers = jnp.array([[2.0, 0.0], [-1.0, 1.7], [-1.0, -1.7]])
labels = random.randint(kl, (96,), 0, 3)
X = centers[labels] + 0.6 * random.normal(kd, (96, 2))

params, state = init(ki, X, True)
for mod in sorted(params):
    print(mod, {k: v.shape for k, v in params[mod].items()})
print("state:", jax.tree.map(lambda s: s.shape, state))


def loss_fn(params, state, x, y):
    logits, state = apply(params, state, None, x, True)
    loss = -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))
    return loss, state


@jax.jit
def update(params, state, x, y):
    (loss, state), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, state, x, y)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return params, state, loss


for step in range(40):
    params, state, loss = update(params, state, X, labels)
    if step % 10 == 9:
        print(f"step {step + 1}: loss {loss:.5f}")
print("running mean", state["mlp/batch_norm"]["mean"])
print("running var", state["mlp/batch_norm_1"]["var"][:4])
logits, _ = jax.jit(lambda p, s, x: apply(p, s, None, x, False))(params, state, X)
print("test accuracy", jnp.mean(jnp.argmax(logits, -1) == labels))
try:
    apply({}, state, None, X, False)
except ValueError as e:
    print("ValueError:", e)
