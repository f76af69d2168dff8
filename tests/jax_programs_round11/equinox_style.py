"""An equinox-style module library in ~60 lines (as in equinox's "All of equinox" page):
modules as frozen dataclasses registered with jax.tree_util.register_dataclass (data and
static fields), filter-style partition/combine over is_array with tree_map and None
leaves, filter_jit and filter_grad built from jax.jit/jax.grad, dataclasses.replace for
tree surgery, jax.tree.flatten_with_path key names, and training an MLP made of Linear
modules with a hand-written SGD."""

import dataclasses
import functools

import jax
import jax.numpy as jnp


def module(cls):
    cls = dataclasses.dataclass(frozen=True)(cls)
    fields = dataclasses.fields(cls)
    data = [f.name for f in fields if not f.metadata.get("static", False)]
    meta = [f.name for f in fields if f.metadata.get("static", False)]
    return jax.tree_util.register_dataclass(cls, data_fields=data, meta_fields=meta)


def static_field(**kw):
    return dataclasses.field(metadata={"static": True}, **kw)


def is_array(x):
    return isinstance(x, jax.Array)


def partition(tree, pred):
    keep = jax.tree.map(lambda x: x if pred(x) else None, tree)
    rest = jax.tree.map(lambda x: None if pred(x) else x, tree)
    return keep, rest


def combine(*trees):
    return jax.tree.map(lambda *xs: next((x for x in xs if x is not None), None), *trees,
                        is_leaf=lambda x: x is None)


def filter_jit(fn):
    @functools.partial(jax.jit, static_argnums=1)
    def inner(dynamic, static):
        return fn(*combine(dynamic, static.value))

    def wrapper(*args):
        dynamic, static = partition(args, is_array)
        return inner(dynamic, _Static(static))
    return wrapper


@dataclasses.dataclass(frozen=True)
class _Static:
    value: object



def filter_grad(fn):
    def wrapper(model, *args):
        params, static = partition(model, is_array)
        return jax.grad(lambda p: fn(combine(p, static), *args))(params)
    return wrapper


@module
class Linear:
    weight: jax.Array
    bias: jax.Array
    name: str = static_field(default="linear")

    def __call__(self, x):
        return self.weight @ x + self.bias


@module
class MLP:
    layers: tuple
    activation: object = static_field(default=jnp.tanh)
    depth: int = static_field(default=2)

    def __call__(self, x):
        for layer in self.layers[:-1]:
            x = self.activation(layer(x))
        return self.layers[-1](x)


def make_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    layers = tuple(Linear(jax.random.normal(k, (o, i)) / jnp.sqrt(i), jnp.zeros(o), name=f"l{j}")
                   for j, (k, i, o) in enumerate(zip(keys, sizes[:-1], sizes[1:])))
    return MLP(layers, depth=len(layers))


model = make_mlp(jax.random.key(0), [1, 16, 16, 1])
leaves, treedef = jax.tree.flatten(model)
print("leaves", len(leaves), [l.shape for l in leaves])
print("paths", [jax.tree_util.keystr(p) for p, _ in jax.tree.flatten_with_path(model)[0]][:3])
params, static = partition(model, is_array)
print("static leaves", jax.tree.leaves(static, is_leaf=lambda x: x is None).count(None))
same = jax.tree.map(lambda a, b: bool(jnp.all(a == b)), combine(params, static), model)
print("roundtrip equal", jax.tree.all(same))

xs = jnp.linspace(-2.0, 2.0, 32)[:, None]
ys = jnp.sin(2 * xs)


def loss_fn(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


grad_fn = filter_grad(loss_fn)


@jax.jit
def sgd_step(params, x, y):
    grads = jax.grad(lambda p: loss_fn(combine(p, static), x, y))(params)
    return jax.tree.map(lambda p, g: p - 0.03 * g, params, grads), grads


print("initial loss", round(float(loss_fn(model, xs, ys)), 6))
for _ in range(300):
    params, grads = sgd_step(params, xs, ys)
model = combine(params, static)
print("final loss", round(float(loss_fn(model, xs, ys)), 6))
print("filter_jit loss", round(float(filter_jit(loss_fn)(model, xs, ys)), 6))
print("layer names", [l.name for l in model.layers], model.depth)
g = grad_fn(model, xs, ys)
print("grad type", type(g).__name__, type(g.layers[0]).__name__, g.layers[0].name)
print("grad norm", round(float(jnp.sqrt(sum(jnp.sum(a ** 2) for a in jax.tree.leaves(g)))), 6))
first = dataclasses.replace(model.layers[0], bias=jnp.ones(16))
zeroed = dataclasses.replace(model, layers=(first,) + model.layers[1:])
print("replaced bias sum", float(zeroed.layers[0].bias.sum()), round(float(zeroed(jnp.array([0.5]))[0]), 6))
outs = jax.vmap(lambda k: make_mlp(k, [1, 4, 1])(jnp.array([1.0])))(jax.random.split(jax.random.key(1), 3))
print("vmapped models", outs.shape)
counted = jax.tree_util.tree_reduce(lambda a, b: a + b, jax.tree.map(jnp.size, model))
print("parameter count", int(counted))
