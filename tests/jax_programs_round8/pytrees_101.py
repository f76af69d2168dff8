"""JAX 101-style pytrees: MLP parameters as a list of dicts, tree maps over several trees,
custom pytree nodes, key paths, transposes and flatten/unflatten round trips."""

from collections import namedtuple
from typing import NamedTuple

import jax
import jax.numpy as jnp
import numpy as np


def init_mlp_params(layer_widths, key):
    params = []
    for n_in, n_out in zip(layer_widths[:-1], layer_widths[1:]):
        key, wkey = jax.random.split(key)
        params.append(dict(weights=jax.random.normal(wkey, (n_in, n_out)) * np.sqrt(2 / n_in),
                           biases=jnp.ones(shape=(n_out,))))
    return params


params = init_mlp_params([1, 16, 16, 1], jax.random.PRNGKey(0))
print(jax.tree_util.tree_map(lambda x: x.shape, params))
print("leaves:", len(jax.tree_util.tree_leaves(params)))
print(jax.tree_util.tree_structure(params))


def forward(params, x):
    *hidden, last = params
    for layer in hidden:
        x = jax.nn.relu(x @ layer["weights"] + layer["biases"])
    return x @ last["weights"] + last["biases"]


def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


LEARNING_RATE = 0.0001


@jax.jit
def update(params, x, y):
    grads = jax.grad(loss_fn)(params, x, y)
    return jax.tree_util.tree_map(lambda p, g: p - LEARNING_RATE * g, params, grads)


xs = np.linspace(-1.0, 1.0, 128).reshape(128, 1)
ys = xs ** 2
for step in range(200):
    params = update(params, xs, ys)
    if step % 50 == 0:
        print(f"step {step:3d} loss {float(loss_fn(params, xs, ys)):.6f}")

# several trees at once
a = [1, 2, 3]
b = [10, 20, 30]
print(jax.tree.map(lambda x, y: x + y, a, b))
print(jax.tree.map(lambda x: x * 2, {"a": a, "b": (4, 5)}))

example_trees = [
    [1, "a", object()],
    (1, (2, 3), ()),
    [1, {"k1": 2, "k2": (3, 4)}, 5],
    {"a": 2, "b": (2, 3)},
    jnp.array([1, 2, 3]),
]
for pytree in example_trees:
    leaves = jax.tree_util.tree_leaves(pytree)
    print(f"{type(pytree).__name__:<10} has {len(leaves)} leaves")


# a custom pytree node
class MyContainer:
    def __init__(self, name: str, a: int, b: int, c: int):
        self.name = name
        self.a = a
        self.b = b
        self.c = c


def flatten_mc(container):
    return [container.a, container.b, container.c], container.name


def unflatten_mc(name, contents):
    return MyContainer(name, *contents)


jax.tree_util.register_pytree_node(MyContainer, flatten_mc, unflatten_mc)
trees = [MyContainer("Alice", 1, 2, 3), MyContainer("Bob", 4, 5, 6)]
print(jax.tree_util.tree_leaves(trees))
added = jax.tree_util.tree_map(lambda x: x + 1, trees)
print([(t.name, t.a, t.b, t.c) for t in added])


class Point(NamedTuple):
    x: float
    y: float


Pair = namedtuple("Pair", ["left", "right"])
print(jax.tree_util.tree_leaves([Point(1.0, 2.0), Pair(3, None)]))
print(jax.tree_util.tree_leaves([None, None, 1]))
print(jax.tree_util.tree_structure([None, (None,), {"x": None}]))

# transposing a list of trees into a tree of lists
episode = [dict(t=1, obs=3), dict(t=2, obs=4)]
print(jax.tree.map(lambda *xs: list(xs), *episode))
outer = jax.tree_util.tree_structure([0 for _ in episode])
inner = jax.tree_util.tree_structure(episode[0])
print(jax.tree_util.tree_transpose(outer, inner, episode))

# key paths
tree = {"layer1": {"w": jnp.ones((2, 2)), "b": jnp.zeros(2)}, "scale": [1.0, (2.0, 3.0)]}
flat, treedef = jax.tree_util.tree_flatten_with_path(tree)
for path, leaf in flat:
    print(jax.tree_util.keystr(path), jnp.shape(leaf))
print(jax.tree_util.tree_map_with_path(lambda p, x: len(p), tree))

leaves, treedef = jax.tree_util.tree_flatten(tree)
rebuilt = jax.tree_util.tree_unflatten(treedef, [jnp.asarray(x) * 2 for x in leaves])
print(jax.tree_util.tree_reduce(lambda acc, x: acc + jnp.sum(x), rebuilt, 0.0))
print(jax.tree.all(jax.tree.map(lambda x: bool(jnp.all(x >= 0)), rebuilt)))
print(treedef.num_leaves, treedef.num_nodes)

# flattening a whole parameter tree into one vector
from jax.flatten_util import ravel_pytree  # noqa: E402

flat_params, unravel = ravel_pytree(params)
print("flat", flat_params.shape, flat_params.dtype)
print(jax.tree_util.tree_all(jax.tree.map(lambda u, v: bool(jnp.allclose(u, v)),
                                          unravel(flat_params), params)))
