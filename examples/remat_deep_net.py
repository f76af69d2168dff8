"""A deep residual MLP trained with rematerialization: every layer is wrapped in
``jax.checkpoint`` with a policy that saves the matrix products (``dots_saveable``) and the
value tagged ``checkpoint_name(..., "pre")``, so the backward pass recomputes only the cheap
elementwise work of each layer instead of storing it.

It is written against JAX's API.  To run it with JAX, change the three fgrad imports below to

    import jax
    import jax.numpy as jnp
    from jax.ad_checkpoint import checkpoint_name

and nothing else (``tests/test_examples_jax_more.py`` checks that and compares the output).

Run: ``python examples/remat_deep_net.py`` (a few seconds).  It saves its loss curve to
``examples/plots/remat_deep_net.png`` with matplotlib installed (``--plot FILE.png``, ``--no-plot``).
"""

import numpy as np

import fgrad as jax
import fgrad.numpy as jnp
from fgrad.ad_checkpoint import checkpoint_name
from _training_plot import TrainingCurves, plot_arguments  # examples/_training_plot.py

jax.config.update("jax_enable_x64", True)  # float64, as NumPy

DEPTH, WIDTH = 8, 32
policy = jax.checkpoint_policies.save_from_both_policies(
    jax.checkpoint_policies.dots_saveable, jax.checkpoint_policies.save_only_these_names("pre"))


def init_params(rng):
    layers = [{"w": jnp.asarray(rng.standard_normal((WIDTH, WIDTH)) / np.sqrt(WIDTH)),
               "b": jnp.zeros(WIDTH)} for _ in range(DEPTH)]
    return {"inp": jnp.asarray(rng.standard_normal((2, WIDTH)) / np.sqrt(2.0)),
            "layers": layers,
            "out": jnp.asarray(rng.standard_normal((WIDTH, 1)) / np.sqrt(WIDTH))}


def layer(p, h):
    pre = checkpoint_name(h @ p["w"] + p["b"], "pre")
    return h + 0.5 * jnp.tanh(pre) * jax.nn.sigmoid(pre)  # a gated residual block


def predict(params, x, remat=True):
    block = jax.checkpoint(layer, policy=policy) if remat else layer
    h = jnp.tanh(x @ params["inp"])
    for p in params["layers"]:
        h = block(p, h)
    return (h @ params["out"])[:, 0]


def loss(params, x, y, remat=True):
    return jnp.mean((predict(params, x, remat) - y) ** 2)


@jax.jit
def train_step(params, velocity, x, y):
    value, grads = jax.value_and_grad(loss)(params, x, y)
    velocity = jax.tree.map(lambda v, g: 0.9 * v + g, velocity, grads)
    params = jax.tree.map(lambda p, v: p - 0.02 * v, params, velocity)
    return params, velocity, value


def main():
    args = plot_arguments()
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.uniform(-1.0, 1.0, (256, 2)))
    y = jnp.sin(2.0 * x[:, 0]) * jnp.cos(3.0 * x[:, 1])
    params = init_params(rng)

    remat_grads = jax.grad(loss)(params, x, y)
    plain_grads = jax.grad(loss)(params, x, y, False)
    diff = max(float(jnp.max(jnp.abs(a - b)))
               for a, b in zip(jax.tree.leaves(remat_grads), jax.tree.leaves(plain_grads)))
    print(f"max |remat grad - plain grad| = {diff:.1e}")

    velocity = jax.tree.map(jnp.zeros_like, params)
    curves = TrainingCurves("remat_deep_net: deep MLP, jax.checkpoint per layer")
    for step in range(301):
        params, velocity, value = train_step(params, velocity, x, y)
        curves.add("loss", "train", step, float(value))
        if step % 100 == 0:
            print(f"step {step:4d}  loss {float(value):.8f}")
    print(f"final loss {float(loss(params, x, y)):.8f}")
    curves.save("remat_deep_net", args)


if __name__ == "__main__":
    main()
