"""A training loop with checkpoints as research repos write it without orbax: parameters and
optimizer state flattened with jax.tree_util.tree_flatten_with_path into '/'-joined names
(keystr with simple=True and separator), saved with numpy.savez to a temporary directory,
restored by matching names and tree_unflatten, resumed training reproducing the uninterrupted
run exactly, jax.device_get, np.asarray of arrays, dtypes kept through the round trip
(bfloat16 stored via a view), and a step counter in the file name."""

import os
import tempfile

import jax
import jax.numpy as jnp
import numpy as np
from jax import random
from jax.tree_util import keystr, tree_flatten_with_path, tree_structure, tree_unflatten

key = random.PRNGKey(0)
k1, k2, k3 = random.split(key, 3)
X = random.normal(k1, (40, 3))
Y = X @ jnp.array([1.0, -2.0, 0.5]) + 0.3
params = {"dense": {"w": random.normal(k2, (3,)) * 0.1, "b": jnp.zeros(())},
          "emb": random.normal(k3, (2, 2)).astype(jnp.bfloat16), "steps": jnp.array(0, jnp.int32)}
opt = {"mu": jax.tree.map(jnp.zeros_like, params["dense"]), "lr": jnp.array(0.1)}


def loss_fn(dense):
    return jnp.mean((X @ dense["w"] + dense["b"] - Y) ** 2)


@jax.jit
def step(params, opt):
    loss, g = jax.value_and_grad(loss_fn)(params["dense"])
    mu = jax.tree.map(lambda m, g: 0.9 * m + g, opt["mu"], g)
    dense = jax.tree.map(lambda p, m: p - opt["lr"] * m, params["dense"], mu)
    return {**params, "dense": dense, "steps": params["steps"] + 1}, {**opt, "mu": mu}, loss


def to_flat(tree):
    leaves, _ = tree_flatten_with_path(tree)
    out = {}
    for path, leaf in leaves:
        arr = np.asarray(jax.device_get(leaf))
        name = keystr(path, simple=True, separator="/")
        if arr.dtype == jnp.bfloat16:
            out[name + "@bf16"] = arr.view(np.uint16)
        else:
            out[name] = arr
    return out


def from_flat(flat, like):
    leaves, treedef = tree_flatten_with_path(like)
    restored = []
    for path, _ in leaves:
        name = keystr(path, simple=True, separator="/")
        if name + "@bf16" in flat:
            restored.append(jnp.asarray(flat[name + "@bf16"].view(jnp.bfloat16)))
        else:
            restored.append(jnp.asarray(flat[name]))
    return tree_unflatten(treedef, restored)


print(sorted(to_flat({"params": params, "opt": opt})))
with tempfile.TemporaryDirectory() as d:
    state = {"params": params, "opt": opt}
    losses = []
    for i in range(20):
        p, o, loss = step(state["params"], state["opt"])
        state = {"params": p, "opt": o}
        losses.append(float(loss))
        if (i + 1) % 10 == 0:
            np.savez(os.path.join(d, f"ckpt_{i + 1:05d}.npz"), **to_flat(state))
    print("files", sorted(os.listdir(d)))
    print("loss", losses[0], losses[9], losses[-1])

    with np.load(os.path.join(d, "ckpt_00010.npz")) as f:
        flat = dict(f)
    print({k: (v.dtype, v.shape) for k, v in sorted(flat.items())})
    restored = from_flat(flat, {"params": params, "opt": opt})
    print("structure equal", tree_structure(restored) == tree_structure(state))
    print("dtypes", jax.tree.map(lambda x: x.dtype, restored))
    print("steps", restored["params"]["steps"], restored["opt"]["lr"])
    resumed = restored
    for _ in range(10):
        p, o, loss = step(resumed["params"], resumed["opt"])
        resumed = {"params": p, "opt": o}
    same = jax.tree.map(lambda a, b: bool(jnp.array_equal(a, b)), resumed, state)
    print("resumed == uninterrupted", same)
    print("final w", resumed["params"]["dense"]["w"], resumed["params"]["emb"])

host = jax.device_get(state)
print(type(host["params"]["dense"]["w"]).__name__, host["params"]["steps"],
      np.asarray(state["opt"]["lr"]).dtype)
first_path = tree_flatten_with_path(params)[0][0][0]
print(keystr(first_path), keystr(first_path, simple=True))
