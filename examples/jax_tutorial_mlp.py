"""A JAX-tutorial-style program: fit a small MLP whose parameters are a pytree, check its
gradients with ``check_grads``, and print from inside ``jit`` with ``debug.print``.

It is written against JAX's API.  To run it with JAX, change the four fgrad imports below to

    import jax
    import jax.numpy as jnp
    from jax.test_util import check_grads
    from jax.flatten_util import ravel_pytree

and nothing else (``tests/test_examples.py`` does exactly that and compares the output).

Run: ``python examples/jax_tutorial_mlp.py`` (about a second).  It saves its loss curve to
``examples/plots/jax_tutorial_mlp.png`` with matplotlib installed (``--plot FILE.png``, ``--no-plot``).
"""

import numpy as np

import fgrad as jax
import fgrad.numpy as jnp
from fgrad.test_util import check_grads
from fgrad.flatten_util import ravel_pytree
from _training_plot import TrainingCurves, plot_arguments  # examples/_training_plot.py

jax.config.update("jax_enable_x64", True)  # float64, as NumPy


def init_params(rng, sizes):
    """One dict per layer: the parameters are a pytree (a list of dicts of arrays)."""
    return [{"w": jnp.asarray(rng.standard_normal((m, n)) / np.sqrt(m)), "b": jnp.zeros(n)}
            for m, n in zip(sizes[:-1], sizes[1:])]


def predict(params, x):
    for layer in params[:-1]:
        x = jnp.tanh(x @ layer["w"] + layer["b"])
    last = params[-1]
    return (x @ last["w"] + last["b"])[:, 0]


def loss(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


@jax.jit
def update(params, x, y, lr):
    grads = jax.grad(loss)(params, x, y)
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


@jax.jit
def report(params, x, y, step):
    grads = jax.grad(loss)(params, x, y)
    grad_norm = jnp.sqrt(sum(jnp.sum(g ** 2) for g in jax.tree.leaves(grads)))
    jax.debug.print("step {s:4d}  loss {l:.8f}  grad norm {g:.8f}", s=step, l=loss(params, x, y),
                    g=grad_norm)


def main():
    args = plot_arguments()
    rng = np.random.default_rng(0)
    x = jnp.asarray(np.linspace(-1.0, 1.0, 64)[:, None])
    y = jnp.sin(3.0 * x[:, 0])
    params = init_params(rng, [1, 16, 16, 1])

    # the pytree: its leaves by key path, and as one flat vector
    for path, leaf in jax.tree_util.tree_flatten_with_path(params)[0]:
        print(f"{jax.tree_util.keystr(path):12s} {tuple(leaf.shape)}")
    flat, unravel = ravel_pytree(params)
    print(f"parameters: {flat.shape[0]}")
    assert jax.tree.all(jax.tree.map(lambda a, b: bool(jnp.all(a == b)), unravel(flat), params))

    # derivatives of the loss, first and second order, forward and reverse mode, against
    # finite differences
    check_grads(loss, (params, x, y), order=2, modes=("fwd", "rev"), atol=1e-4, rtol=1e-4)
    print("check_grads passed (order 2, fwd and rev)")

    curves = TrainingCurves("jax_tutorial_mlp: 1-16-16-1 MLP fitting sin(3x)")
    for step in range(301):
        if step % 10 == 0:
            curves.add("loss", "train", step, float(loss(params, x, y)))
        if step % 100 == 0:
            report(params, x, y, step)
        params = update(params, x, y, 0.1)
    print(f"final loss {float(loss(params, x, y)):.8f}")
    curves.save("jax_tutorial_mlp", args)


if __name__ == "__main__":
    main()
