"""Pytree key paths as used by checkpointing and parameter-labelling code (flax/optax
style): tree_flatten_with_path, tree_map_with_path, keystr (with simple=True and a
separator), DictKey/SequenceKey/GetAttrKey/FlattenedIndexKey, register_pytree_with_keys
for a custom class, NamedTuple and dataclass paths, weight-decay masks built from paths,
tree_util.Partial through jit, tree_transpose, tree_reduce, tree_structure comparisons,
and a path-labelled parameter count."""

from dataclasses import dataclass
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import tree_util as tu


class Dense(NamedTuple):
    kernel: jax.Array
    bias: jax.Array


class Block:
    def __init__(self, name, layers, scale):
        self.name, self.layers, self.scale = name, layers, scale

    def __repr__(self):
        return f"Block({self.name})"


def block_flatten_with_keys(b):
    return ((tu.GetAttrKey("layers"), b.layers), (tu.GetAttrKey("scale"), b.scale)), b.name


def block_unflatten(name, children):
    return Block(name, *children)


tu.register_pytree_with_keys(Block, block_flatten_with_keys, block_unflatten)


@tu.register_dataclass
@dataclass
class Norm:
    gamma: jax.Array
    beta: jax.Array


params = {
    "encoder": Block("enc", [Dense(jnp.ones((3, 4)), jnp.zeros(4)),
                             Dense(jnp.ones((4, 2)) * 2, jnp.zeros(2))], jnp.array(0.5)),
    "norm": Norm(jnp.ones(2), jnp.zeros(2)),
    "head": (jnp.arange(4.0).reshape(2, 2), None),
}

flat, treedef = tu.tree_flatten_with_path(params)
for path, leaf in flat:
    print(f"{tu.keystr(path):40s} {leaf.shape}")
print("simple:", [tu.keystr(p, simple=True, separator="/") for p, _ in flat])
print("key types:", [type(k).__name__ for k in flat[0][0]])
print("num leaves:", treedef.num_leaves, "num nodes:", treedef.num_nodes)


def decay_mask(path, leaf):
    last = path[-1]
    name = getattr(last, "name", getattr(last, "key", None))
    return leaf.ndim > 1 and name not in ("bias", "beta", "gamma")


mask = tu.tree_map_with_path(decay_mask, params)
print("decay mask:", [m for _, m in tu.tree_flatten_with_path(mask)[0]])

grads = tu.tree_map(lambda x: jnp.full_like(x, 0.1), params)
new = tu.tree_map(lambda p, g, m: p - 0.1 * (g + (0.01 * p if m else 0.0)), params, grads, mask)
print("updated kernel[0]:", new["encoder"].layers[0].kernel[0], "bias:", new["encoder"].layers[0].bias)
print("scale:", new["encoder"].scale, "name kept:", new["encoder"].name)

counts = {tu.keystr(p): int(l.size) for p, l in tu.tree_leaves_with_path(params)}
print("param counts:", counts, "total:", sum(counts.values()))
print("tree_reduce max:", tu.tree_reduce(lambda a, b: jnp.maximum(a, jnp.max(b)), params, -jnp.inf))


def loss(p, x):
    h = x
    for layer in p["encoder"].layers:
        h = jnp.tanh(h @ layer.kernel + layer.bias)
    h = p["norm"].gamma * h * p["encoder"].scale + p["norm"].beta
    return jnp.sum(h @ p["head"][0])


x = jnp.linspace(-0.3, 0.4, 6).reshape(2, 3)
g = jax.grad(loss)(params, x)
for path, leaf in tu.tree_flatten_with_path(g)[0]:
    print(f"grad {tu.keystr(path)}: {jnp.linalg.norm(leaf.ravel()):.5f}")

scale = tu.Partial(jnp.multiply, 3.0)
print("Partial through jit:", jax.jit(lambda f, v: f(v))(scale, jnp.arange(3.0)))
print("Partial is pytree:", tu.tree_leaves(scale))

pairs = [{"a": 1, "b": 2}, {"a": 3, "b": 4}, {"a": 5, "b": 6}]
outer = tu.tree_structure([0, 0, 0])
inner = tu.tree_structure({"a": 0, "b": 0})
print("transpose:", tu.tree_transpose(outer, inner, pairs))
print("structures equal:", tu.tree_structure(params) == tu.tree_structure(new),
      tu.tree_structure(params) == tu.tree_structure(mask))
seq_path = tu.tree_flatten_with_path([[1, 2], (3,)])[0]
print("nested seq paths:", [(tu.keystr(p), v) for p, v in seq_path])
print("flattened index key:", tu.keystr((tu.FlattenedIndexKey(2), tu.DictKey("x"), tu.SequenceKey(0))))
print("all_leaves:", tu.all_leaves([jnp.ones(1), 2.0]), tu.all_leaves([[1]]))
