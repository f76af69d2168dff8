"""The ``jax.tree_util`` internals a "Pytrees" deep dive reaches: ``PyTreeDef`` objects
(``num_leaves``, ``num_nodes``, ``children``, ``node_data``, ``treedef_is_leaf``,
``treedef_tuple``, ``treedef_children``, ``compose``), ``flatten_one_level`` and its keyed form,
``tree_broadcast``, ``tree_reduce_associative``, ``all_leaves``, ``is_tree_node``, ``None`` as an
empty node, ``is_leaf`` cut-offs, and a ``register_pytree_node_class`` container whose
aux data must be hashable and comparable (the sharp bit: recompilation only on aux changes)."""

import jax
import jax.numpy as jnp
from jax import tree_util as tu

params = {"dense": (jnp.ones((2, 3)), jnp.zeros(3)), "scale": 2.0, "skip": None, "names": ["a", "b"]}
leaves, treedef = tu.tree_flatten(params)
print("leaves:", [getattr(x, "shape", x) for x in leaves])
print("treedef:", treedef)
print("num_leaves/num_nodes:", treedef.num_leaves, treedef.num_nodes)
print("children:", [str(c) for c in treedef.children()])
print("node_data type:", treedef.node_data()[0].__name__, treedef.node_data()[1])
print("treedef_children == children:", tu.treedef_children(treedef) == treedef.children())
leaf_def = tu.tree_structure(1.0)
print("treedef_is_leaf:", tu.treedef_is_leaf(leaf_def), tu.treedef_is_leaf(treedef))
pair = tu.treedef_tuple([leaf_def, tu.tree_structure((1, 2))])
print("treedef_tuple:", pair, pair.num_leaves)
print("unflatten:", pair.unflatten([10, 20, 30]))
composed = tu.tree_structure((0, 0)).compose(tu.tree_structure({"x": 0, "y": 0}))
print("compose:", composed, composed.num_leaves)
print("flatten_up_to:", tu.tree_structure((0, 0)).flatten_up_to(([1, 2], {"k": 3})))

# one level at a time
kids, meta = tu.flatten_one_level(params)
print("flatten_one_level:", len(kids), meta)
keyed, _ = tu.flatten_one_level_with_keys(params["dense"])
print("with keys:", [k for k, _ in keyed])
try:
    tu.flatten_one_level(jnp.ones(2))
except ValueError as e:
    print("ValueError:", "leaf" in str(e).lower() or "flatten" in str(e).lower())
print("is_tree_node:", tu.is_tree_node((1,)), tu.is_tree_node(jnp.ones(2)), tu.is_tree_node({}))
print("all_leaves:", tu.all_leaves([1.0, jnp.ones(2)]), tu.all_leaves([[1.0]]))

# None is a node with no children; is_leaf can make it (or anything) a leaf
print("None leaves:", tu.tree_leaves([None, 1, (None, 2)]),
      tu.tree_leaves([None, 1], is_leaf=lambda x: x is None))
print("map over None:", jax.tree.map(lambda x: x * 10, {"a": None, "b": 1}))
is_pair = lambda x: isinstance(x, tuple)  # noqa: E731
print("is_leaf on tuples:", jax.tree.map(lambda t: t[0] * t[1] if is_pair(t) else t,
                                          {"w": (2.0, 3.0), "v": [4.0]}, is_leaf=is_pair))

# broadcasting a prefix tree, associative reductions
prefix = {"dense": 0.5, "scale": 1.0, "skip": None, "names": [1, 2]}
print("tree_broadcast:", jax.tree.map(lambda p, x: p if isinstance(x, str) else p * x,
                                      tu.tree_broadcast(prefix, params), params)["dense"][1])
nums = [1.0, 2.0, (3.0, 4.0), {"z": 5.0}]
print("tree_reduce_associative:", tu.tree_reduce_associative(lambda a, b: a + b, nums),
      jax.tree.reduce_associative(max, nums))
print("tree_reduce:", tu.tree_reduce(lambda a, b: a * b, nums, 1.0))


@tu.register_pytree_node_class
class Affine:
    def __init__(self, w, b, activation="tanh"):
        self.w, self.b, self.activation = w, b, activation

    def tree_flatten(self):
        return (self.w, self.b), self.activation

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(*children, activation=aux)

    def __call__(self, x):
        return getattr(jnp, self.activation)(x @ self.w + self.b)

    def __repr__(self):
        return f"Affine(w={self.w.shape}, b={self.b.shape}, {self.activation})"


layer = Affine(jnp.eye(3) * 0.5, jnp.arange(3.0))
print("class treedef:", tu.tree_structure(layer))
print("grad wrt the object:", jax.grad(lambda m, x: m(x).sum())(layer, jnp.ones(3)).b)
traces = []


@jax.jit
def apply(m, x):
    traces.append(m.activation)
    return m(x)


for act in ["tanh", "tanh", "sin", "tanh"]:
    apply(Affine(layer.w, layer.b, act), jnp.ones(3))
print("traced for:", traces)
print("equal treedefs:", tu.tree_structure(Affine(1.0, 2.0)) == tu.tree_structure(layer),
      tu.tree_structure(Affine(1.0, 2.0, "sin")) == tu.tree_structure(layer))
paths = tu.tree_flatten_with_path(layer)[0]
print("paths:", [tu.keystr(p) for p, _ in paths])
print("tree.map over two objects:", jax.tree.map(lambda a, b: a + b, layer, layer).b)
try:
    jax.tree.map(lambda a, b: a + b, layer, Affine(layer.w, layer.b, "sin"))
except ValueError as e:
    print("ValueError: mismatch", "sin" in str(e) or "structure" in str(e).lower())
