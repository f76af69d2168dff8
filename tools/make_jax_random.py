"""Regenerate tests/stored/jax_random.json (with jax installed: python tools/make_jax_random.py).

Records, from jax (x64): key data of key/split/fold_in, uniform and normal draws (fgrad's
threefry streams for these match JAX's bit for bit), and jax.lax.random_gamma_grad (the
implicit derivative dx/da of a gamma sample) on a grid of (a, x)."""

import json
import pathlib

import jax
import numpy as np

jax.config.update("jax_enable_x64", True)

if __name__ == "__main__":
    k = jax.random.key(42)
    a = np.array([1e-3, 0.1, 0.5, 0.7, 1.0, 1.0, 2.0, 3.5, 10.0, 50.0, 50.0, 1000.0, 1e4])
    x = np.array([1e-30, 0.02, 0.3, 0.5, 2.0, 1e-3, 6.0, 3.0, 15.0, 55.0, 40.0, 980.0, 10150.0])
    out = {
        "key_data_42": np.asarray(jax.random.key_data(k)).tolist(),
        "split_42_3": np.asarray(jax.random.key_data(jax.random.split(k, 3))).tolist(),
        "fold_in_42_5": np.asarray(jax.random.key_data(jax.random.fold_in(k, 5))).tolist(),
        "uniform_42_5": np.asarray(jax.random.uniform(k, (5,))).tolist(),
        "normal_42_5": np.asarray(jax.random.normal(k, (5,))).tolist(),
        "gamma_grad": {"a": a.tolist(), "x": x.tolist(),
                       "dx_da": np.asarray(jax.lax.random_gamma_grad(a, x)).tolist()},
    }
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "stored" / "jax_random.json"
    path.write_text(json.dumps(out))
    print("wrote", path)
