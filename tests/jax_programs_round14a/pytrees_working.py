"""JAX's "Working with pytrees" page and jax.tree reference: what is a leaf (None is an empty
subtree), tree_map over several trees, tree_structure/treedef printing, custom nodes with
register_pytree_node, register_pytree_with_keys and register_dataclass, flatten_with_path
with keystr, tree_transpose, is_leaf to stop at tuples, all_leaves, tree.reduce, leaves of
namedtuples, the errors of mismatched structures, and a pytree of parameters through grad,
jit and vmap."""

import functools
from collections import namedtuple
from dataclasses import dataclass

import jax
import jax.numpy as jnp
from jax import tree_util

example_trees = [
    [1, "a", object()],
    (1, (2, 3), ()),
    [1, {"k1": 2, "k2": (3, 4)}, 5],
    {"a": 2, "b": (2, 3)},
    jnp.array([1, 2, 3]),
    None,
    [None, 1, (None,)],
]
for pytree in example_trees:
    leaves = jax.tree.leaves(pytree)
    print(f"{len(leaves)} leaves")
list_of_lists = [[1, 2, 3], [1, 2], [1, 2, 3, 4]]
print(jax.tree.map(lambda x: x * 2, list_of_lists))
print(jax.tree.map(lambda x, y: x + y, list_of_lists, list_of_lists))
print(jax.tree.structure([1, {"a": 2, "b": None}, (3,)]))
print(jax.tree.structure([1, {"a": 2, "b": None}, (3,)]).num_leaves, jax.tree.structure((1, 2)).num_nodes)
print(jax.tree.leaves([None, None, 1]), jax.tree.map(lambda x: 1, [None, 2]))


def init_mlp_params(layer_widths):
    params = []
    for n_in, n_out in zip(layer_widths[:-1], layer_widths[1:]):
        params.append(dict(weights=jnp.ones((n_in, n_out)) / n_in, biases=jnp.ones(n_out)))
    return params


params = init_mlp_params([1, 4, 2])
print(jax.tree.map(lambda x: x.shape, params))


def forward(params, x):
    *hidden, last = params
    for layer in hidden:
        x = jax.nn.relu(x @ layer["weights"] + layer["biases"])
    return x @ last["weights"] + last["biases"]


def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


x = jnp.linspace(-1, 1, 8).reshape(-1, 1)
y = jnp.concatenate([x**2, x], axis=1)
grads = jax.grad(loss_fn)(params, x, y)
params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
print(jax.tree.map(lambda g: float(jnp.round(jnp.sum(g), 5)), grads), loss_fn(params, x, y))


class MyContainer:
    def __init__(self, name: str, a: int, b: int, c: int):
        self.name = name
        self.a, self.b, self.c = a, b, c

    def __repr__(self):
        return f"MyContainer({self.name}, {self.a}, {self.b}, {self.c})"


def flatten_MyContainer(container):
    return [container.a, container.b, container.c], container.name


def unflatten_MyContainer(aux_data, flat_contents):
    return MyContainer(aux_data, *flat_contents)


tree_util.register_pytree_node(MyContainer, flatten_MyContainer, unflatten_MyContainer)
tree = [MyContainer("Alice", 1, 2, 3), MyContainer("Bob", 4, 5, 6)]
print(jax.tree.leaves(tree), jax.tree.map(lambda x: x + 1, tree))


class Special:
    def __init__(self, x, y):
        self.x, self.y = x, y


def special_flatten_with_keys(s):
    return ((tree_util.GetAttrKey("x"), s.x), (tree_util.GetAttrKey("y"), s.y)), None


tree_util.register_pytree_with_keys(
    Special, special_flatten_with_keys, lambda aux, children: Special(*children)
)
flat, _ = tree_util.tree_flatten_with_path({"s": Special(1.0, [2.0, 3.0]), "t": (4.0,)})
for path, leaf in flat:
    print(tree_util.keystr(path), leaf, [type(k).__name__ for k in path])


@functools.partial(tree_util.register_dataclass, data_fields=["w", "b"], meta_fields=["act"])
@dataclass
class Dense:
    w: jax.Array
    b: jax.Array
    act: str


layer = Dense(jnp.ones((2, 2)), jnp.zeros(2), "relu")
print(jax.tree.leaves(layer), jax.tree.structure(layer).num_leaves)
g = jax.grad(lambda l: jnp.sum(jnp.tanh(jnp.ones(2) @ l.w + l.b)))(layer)
print(type(g).__name__, g.act, g.w, g.b)
print(jax.jit(lambda l: l.w.sum() + l.b.sum())(layer))

Point = namedtuple("Point", ["x", "y"])
pts = Point(jnp.arange(3.0), jnp.ones(3))
print(jax.tree.map(lambda v: v * 2, pts))
print(jax.vmap(lambda p: p.x + p.y)(pts), jax.tree.leaves_with_path(pts)[1][0])


def tree_transpose(list_of_trees):
    return jax.tree.map(lambda *xs: list(xs), *list_of_trees)


episode_steps = [dict(t=1, obs=3), dict(t=2, obs=4)]
print(tree_transpose(episode_steps))
print(
    jax.tree.transpose(
        jax.tree.structure([0 for e in episode_steps]), jax.tree.structure(episode_steps[0]), episode_steps
    )
)
nested = [(1, 2), (3, (4, 5))]
print(jax.tree.leaves(nested, is_leaf=lambda n: isinstance(n, tuple)))
print(jax.tree.map(lambda t: len(t), nested, is_leaf=lambda n: isinstance(n, tuple) and len(n) == 2))
print(jax.tree.reduce(lambda a, b: a + b, {"a": 1, "b": [2, 3]}), jax.tree.reduce(max, [3, 9, 1], 0))
print(tree_util.all_leaves([1, 2.0]), tree_util.all_leaves([[1]]))
print(jax.tree.map(lambda x, y: x * y, {"a": 1, "b": 2}, {"b": 10, "a": 3}))
try:
    jax.tree.map(lambda x, y: x + y, [1, 2], (1, 2))
except ValueError as e:
    print("ValueError", type(e).__name__)
try:
    jax.tree.map(lambda x, y: x + y, {"a": 1}, {"b": 1})
except ValueError:
    print("ValueError keys")
leaves, treedef = jax.tree.flatten({"x": [1.0, 2.0], "y": None})
print(leaves, treedef, treedef.unflatten([5.0, 6.0]))
print(jax.tree.unflatten(treedef, [0, 1]), treedef.children())
print(tree_util.tree_flatten_with_path([1, {"k": (2, None)}])[0])
print(jax.tree.map(jnp.shape, jax.tree_util.tree_map(jnp.zeros_like, {"m": jnp.ones((2, 3))})))
