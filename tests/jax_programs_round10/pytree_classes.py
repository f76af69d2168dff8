"""tree_util-heavy code (the "Working with pytrees" and "Custom pytree nodes" docs, flax-
and equinox-style modules): register_pytree_node_class, register_dataclass,
register_pytree_with_keys, NamedTuple and dataclass parameters, tree_map with is_leaf and
None leaves, tree_flatten_with_path and keystr, tree_transpose, tree_reduce,
jax.tree.* aliases, Partial, and modules passed through jit/grad/vmap."""

import dataclasses
import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp
from jax import tree_util
from jax.tree_util import (Partial, register_pytree_node_class, tree_flatten, tree_flatten_with_path,
                           tree_map, tree_structure, tree_unflatten)


@register_pytree_node_class
class Linear:
    def __init__(self, w, b, name="linear"):
        self.w, self.b, self.name = w, b, name

    def __call__(self, x):
        return x @ self.w + self.b

    def tree_flatten(self):
        return (self.w, self.b), self.name

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, name=aux)

    def __repr__(self):
        return f"Linear(name={self.name}, w={self.w.shape}, b={self.b.shape})"


@functools.partial(jax.tree_util.register_dataclass, data_fields=["layers", "scale"], meta_fields=["act"])
@dataclasses.dataclass
class MLP:
    layers: list
    scale: jax.Array
    act: str = "tanh"

    def __call__(self, x):
        f = getattr(jnp, self.act)
        for layer in self.layers[:-1]:
            x = f(layer(x))
        return self.scale * self.layers[-1](x)


class Opt(NamedTuple):
    lr: float
    momentum: jax.Array


key = jax.random.PRNGKey(0)
ks = jax.random.split(key, 3)
mlp = MLP([Linear(jax.random.normal(ks[0], (3, 4)) * 0.5, jnp.zeros(4), "l0"),
           Linear(jax.random.normal(ks[1], (4, 2)) * 0.5, jnp.ones(2) * 0.1, "l1")], jnp.array(2.0))
print(mlp.layers)
leaves, treedef = tree_flatten(mlp)
print(len(leaves), [l.shape for l in leaves])
print(treedef.num_leaves, treedef.num_nodes)
print(tree_unflatten(treedef, leaves).layers[1].name)
for path, leaf in tree_flatten_with_path(mlp)[0]:
    print(tree_util.keystr(path), leaf.shape)

x = jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
print("out", mlp(x))


def loss(model, x):
    return jnp.sum(model(x) ** 2)


g = jax.jit(jax.grad(loss))(mlp, x)
print(type(g).__name__, type(g.layers[0]).__name__, g.layers[0].name, g.scale)
print("grad w0", g.layers[0].w)
new = tree_map(lambda p, d: p - 0.1 * d, mlp, g)
print("new loss", loss(new, x), new.act)
print("vmap", jax.vmap(lambda m, xi: m(xi), in_axes=(None, 0))(mlp, x).shape)

# is_leaf and None
tree = {"a": [1.0, None, (2.0, 3.0)], "b": Opt(0.1, jnp.ones(2))}
print(tree_util.tree_leaves(tree))
print(tree_map(lambda v: v * 2, tree))
print(tree_map(lambda t: "tuple" if isinstance(t, tuple) and not isinstance(t, Opt) else t, tree,
               is_leaf=lambda t: isinstance(t, tuple) and not isinstance(t, Opt)))
print(tree_util.tree_leaves(tree, is_leaf=lambda t: t is None))
print(tree_structure(tree))

# transpose a list of trees into a tree of lists
trees = [{"w": jnp.full(2, float(i)), "b": jnp.array(i)} for i in range(3)]
outer = tree_structure([0] * 3)
inner = tree_structure({"w": 0, "b": 0})
print(tree_util.tree_transpose(outer, inner, trees))
stacked = tree_map(lambda *xs: jnp.stack(xs), *trees)
print("stacked", tree_map(jnp.shape, stacked))
print("reduce", tree_util.tree_reduce(lambda a, b: a + jnp.sum(b), stacked, 0.0))
print("all", tree_util.tree_all(tree_map(lambda v: jnp.all(v >= 0), stacked)))

# jax.tree namespace
print(jax.tree.map(lambda a, b: a + b, {"x": 1, "y": (2, 3)}, {"x": 10, "y": (20, 30)}))
print(jax.tree.leaves({"z": 1, "a": 2}), jax.tree.structure((1, {"k": 2})))
print(jax.tree.reduce(max, [3, (7, 1)]), jax.tree.flatten([1, [2]])[0])


# register_pytree_with_keys: custom key paths
class Pair:
    def __init__(self, left, right):
        self.left, self.right = left, right


tree_util.register_pytree_with_keys(
    Pair,
    lambda p: (((tree_util.GetAttrKey("left"), p.left), (tree_util.GetAttrKey("right"), p.right)), None),
    lambda aux, children: Pair(*children))
pair = Pair(jnp.ones(2), {"deep": jnp.zeros(3)})
print([tree_util.keystr(k) for k, _ in tree_flatten_with_path(pair)[0]])
print(jax.tree_util.tree_map_with_path(lambda p, v: len(p) + v.sum(), pair).right)

# Partial is a pytree: pass a closure with array state through jit
scale_by = Partial(jnp.multiply, jnp.array([1.0, 2.0, 3.0]))
print(jax.jit(lambda f, v: f(v))(scale_by, jnp.ones(3)))
print(len(tree_util.tree_leaves(scale_by)))

# optimizer state as a NamedTuple threaded through a scan
def sgd_step(state_and_params, _):
    state, params = state_and_params
    grads = jax.grad(lambda p: jnp.sum((p - 1.0) ** 2))(params)
    mom = state.momentum * 0.9 + grads
    return (Opt(state.lr, mom), params - state.lr * mom), jnp.sum(params)


(final_state, final_params), traj = jax.lax.scan(sgd_step, (Opt(0.1, jnp.zeros(2)), jnp.zeros(2)), None,
                                                 length=5)
print(type(final_state).__name__, final_params, traj)
print(jax.tree_util.tree_flatten(final_state)[1])
