"""A flax-linen-like module system written with pytrees (as small research repos do to avoid
a flax dependency): modules are frozen dataclasses registered with
jax.tree_util.register_dataclass, ``init`` walks submodules with split keys and builds nested
parameter dicts, ``apply`` threads them through; a LayerNorm/Dense/MLP stack, parameter
counting with tree_flatten_with_path and keystr, a hand-written Adam with bias correction over
the nested dict, weight decay masks from the paths, and jit of the whole training step."""

import dataclasses
import functools

import jax
import jax.numpy as jnp
from jax import random
from jax.tree_util import keystr, register_dataclass, tree_flatten_with_path, tree_map


@functools.partial(register_dataclass, data_fields=[], meta_fields=["features", "use_bias"])
@dataclasses.dataclass(frozen=True)
class Dense:
    features: int
    use_bias: bool = True

    def init(self, key, x):
        w = jax.nn.initializers.lecun_normal()(key, (x.shape[-1], self.features))
        p = {"kernel": w}
        if self.use_bias:
            p["bias"] = jnp.zeros((self.features,))
        return p

    def apply(self, p, x):
        y = x @ p["kernel"]
        return y + p["bias"] if self.use_bias else y


@functools.partial(register_dataclass, data_fields=[], meta_fields=["eps"])
@dataclasses.dataclass(frozen=True)
class LayerNorm:
    eps: float = 1e-6

    def init(self, key, x):
        return {"scale": jnp.ones(x.shape[-1]), "bias": jnp.zeros(x.shape[-1])}

    def apply(self, p, x):
        mu = x.mean(-1, keepdims=True)
        var = jnp.mean(jnp.square(x - mu), -1, keepdims=True)
        return (x - mu) * jax.lax.rsqrt(var + self.eps) * p["scale"] + p["bias"]


@dataclasses.dataclass(frozen=True)
class MLP:
    widths: tuple

    def layers(self):
        out = {}
        for i, w in enumerate(self.widths):
            out[f"Dense_{i}"] = Dense(w, use_bias=i < len(self.widths) - 1)
            if i < len(self.widths) - 1:
                out[f"LayerNorm_{i}"] = LayerNorm()
        return out

    def init(self, key, x):
        params = {}
        keys = random.split(key, len(self.layers()))
        for k, (name, layer) in zip(keys, self.layers().items()):
            params[name] = layer.init(k, x)
            x = layer.apply(params[name], x)
            if name.startswith("LayerNorm"):
                x = jax.nn.gelu(x)
        return {"params": params}

    def apply(self, variables, x):
        for name, layer in self.layers().items():
            x = layer.apply(variables["params"][name], x)
            if name.startswith("LayerNorm"):
                x = jax.nn.gelu(x)
        return x


model = MLP((16, 16, 1))
key = random.PRNGKey(0)
kx, kinit = random.split(key)
X = random.uniform(kx, (64, 2), minval=-1.0, maxval=1.0)
Y = jnp.sin(3 * X[:, :1]) * jnp.cos(2 * X[:, 1:])
variables = model.init(kinit, X[:1])
print(jax.tree_util.tree_structure(Dense(3)))
print(jax.tree.leaves(Dense(3)), jax.tree.map(lambda x: x, LayerNorm(1e-5)))

leaves, _ = tree_flatten_with_path(variables)
for path, leaf in leaves:
    print(f"{keystr(path):45s} {leaf.shape} {leaf.dtype}")
print("params:", sum(x.size for x in jax.tree.leaves(variables)))
decay_mask = jax.tree_util.tree_map_with_path(lambda path, _: path[-1].key == "kernel", variables)
print("decay mask:", decay_mask)


def adam_init(params):
    z = tree_map(jnp.zeros_like, params)
    return {"m": z, "v": z, "count": jnp.zeros([], jnp.int32)}


def adamw_update(grads, state, params, lr=3e-3, b1=0.9, b2=0.999, eps=1e-8, wd=1e-4):
    count = state["count"] + 1
    m = tree_map(lambda m, g: b1 * m + (1 - b1) * g, state["m"], grads)
    v = tree_map(lambda v, g: b2 * v + (1 - b2) * g * g, state["v"], grads)
    mhat = tree_map(lambda m: m / (1 - b1 ** count), m)
    vhat = tree_map(lambda v: v / (1 - b2 ** count), v)
    new = tree_map(lambda p, mh, vh, d: p - lr * (mh / (jnp.sqrt(vh) + eps) + jnp.where(d, wd * p, 0.0)),
                   params, mhat, vhat, decay_mask)
    return new, {"m": m, "v": v, "count": count}


def loss_fn(variables, x, y):
    return jnp.mean((model.apply(variables, x) - y) ** 2)


@jax.jit
def train_step(variables, opt_state, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(variables, x, y)
    variables, opt_state = adamw_update(grads, opt_state, variables)
    return variables, opt_state, loss


opt_state = adam_init(variables)
for step in range(60):
    variables, opt_state, loss = train_step(variables, opt_state, X, Y)
    if step % 15 == 0:
        print(f"step {step:3d} loss {loss:.6f}")
print("final loss", loss_fn(variables, X, Y))
print("count", opt_state["count"], opt_state["count"].dtype)
print("out", model.apply(variables, jnp.array([[0.5, -0.25], [0.0, 0.0]])))
print("grad norm", jnp.sqrt(sum(jnp.sum(g ** 2) for g in jax.tree.leaves(
    jax.grad(loss_fn)(variables, X, Y)))))
