"""Functions and static data as pytrees: `jax.tree_util.Partial` passed into and returned
from jit, vmap and grad, `register_static`, `tree_transpose`, `jax.tree.flatten_with_path`
and `keystr` of custom nodes with keys, `jax.tree.map_with_path`, `tree.reduce` with
`is_leaf`, `tree_util.all_leaves`, and the errors of mismatched structures."""

import functools

import jax
import jax.numpy as jnp
from jax.tree_util import Partial

scale = Partial(jnp.multiply, 3.0)
print(scale(jnp.arange(3.0)), jax.tree.leaves(scale), jax.tree.structure(scale).num_leaves)


@jax.jit
def apply(fn, x):
    return fn(x) + 1.0


print(apply(scale, jnp.arange(3.0)), apply(Partial(jnp.add, jnp.ones(3)), jnp.arange(3.0)))


@jax.jit
def make_affine(a, b):
    return Partial(lambda a, b, x: a * x + b, a, b)


aff = make_affine(2.0, jnp.array([1.0, -1.0]))
print(type(aff).__name__, aff(jnp.array([10.0, 20.0])), jax.tree.leaves(aff))
print(jax.vmap(lambda f, x: f(x), in_axes=(None, 0))(scale, jnp.ones((2, 3))))
print(jax.grad(lambda c, x: Partial(jnp.multiply, c)(x).sum())(2.0, jnp.arange(4.0)))
composed = Partial(functools.partial(jnp.where, True), 1.0)
print(composed(jnp.zeros(2)))


@jax.tree_util.register_static
class Config:
    def __init__(self, depth, act):
        self.depth, self.act = depth, act

    def __repr__(self):
        return f"Config({self.depth}, {self.act!r})"

    def __hash__(self):
        return hash((self.depth, self.act))

    def __eq__(self, other):
        return (self.depth, self.act) == (other.depth, other.act)


cfg = Config(3, "tanh")
print(jax.tree.leaves({"cfg": cfg, "w": jnp.ones(2)}), jax.tree.structure(cfg))


@jax.jit
def run(c, x):
    for _ in range(c.depth):
        x = getattr(jnp, c.act)(x) * 1.5
    return x


print(run(cfg, jnp.array([0.2, -0.4])))

batch = [{"a": 1, "b": (2, 3)}, {"a": 4, "b": (5, 6)}]
outer = jax.tree.structure([0, 0])
inner = jax.tree.structure({"a": 0, "b": (0, 0)})
print(jax.tree_util.tree_transpose(outer, inner, batch))


@jax.tree_util.register_pytree_with_keys_class
class Layer:
    def __init__(self, w, b, name):
        self.w, self.b, self.name = w, b, name

    def tree_flatten_with_keys(self):
        return ((jax.tree_util.GetAttrKey("w"), self.w), (jax.tree_util.GetAttrKey("b"), self.b)), self.name

    @classmethod
    def tree_unflatten(cls, name, children):
        return cls(*children, name)


model = {
    "enc": [Layer(jnp.ones((2, 2)), jnp.zeros(2), "l0"), Layer(2 * jnp.ones((2, 1)), None, "l1")],
    "scale": 0.5,
}
flat, treedef = jax.tree.flatten_with_path(model)
for path, leaf in flat:
    print(jax.tree_util.keystr(path), jnp.shape(leaf))
print(treedef.num_leaves, treedef.num_nodes)
norms = jax.tree.map_with_path(lambda p, v: (jax.tree_util.keystr(p), float(jnp.sum(jnp.abs(v)))), model)
print(jax.tree.leaves(norms, is_leaf=lambda n: isinstance(n, tuple)))
print(jax.tree.reduce(lambda a, b: a + b, model, 0.0, is_leaf=lambda n: isinstance(n, Layer) and False))
print(
    jax.tree.reduce(
        lambda a, b: a + (b.name if isinstance(b, Layer) else ""),
        model["enc"],
        "",
        is_leaf=lambda n: isinstance(n, Layer),
    )
)
print(jax.tree_util.all_leaves([1, 2.0, jnp.ones(2)]), jax.tree_util.all_leaves([[1], 2]))
print(
    jax.tree_util.keystr(
        (
            jax.tree_util.DictKey("x"),
            jax.tree_util.SequenceKey(2),
            jax.tree_util.GetAttrKey("w"),
            jax.tree_util.FlattenedIndexKey(1),
        )
    )
)

for a, b in [({"a": 1}, {"b": 1}), ([1, 2], [1, 2, 3]), ((1, 2), [1, 2])]:
    try:
        jax.tree.map(lambda u, v: u + v, a, b)
    except ValueError as e:
        print("ValueError", type(e).__name__)
try:
    jax.tree.unflatten(jax.tree.structure([0, 0]), [1])
except ValueError:
    print("ValueError unflatten")
