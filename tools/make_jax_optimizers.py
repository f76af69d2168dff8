"""Regenerate tests/stored/jax_optimizers.json (with jax installed: python tools/make_jax_optimizers.py).

Each optimizer runs STEPS updates on the quadratic loss sum(A * (x - 1)**2) over a pytree of
two parameters; the file records the parameters after every step (float64, jax_enable_x64)."""

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np
from jax.example_libraries import optimizers

jax.config.update("jax_enable_x64", True)

CONFIGS = {
    "sgd": ("sgd", (0.1,), {}),
    "sgd_schedule": ("sgd", ("exponential_decay", 0.2, 3, 0.5), {}),
    "momentum": ("momentum", (0.05,), {"mass": 0.9}),
    "nesterov": ("nesterov", (0.05,), {"mass": 0.8}),
    "adagrad": ("adagrad", (0.3,), {}),
    "adagrad_m0": ("adagrad", (0.3,), {"momentum": 0.0}),
    "rmsprop": ("rmsprop", (0.05,), {}),
    "rmsprop_momentum": ("rmsprop_momentum", (0.02,), {"gamma": 0.8, "momentum": 0.7}),
    "adam": ("adam", (0.1,), {}),
    "adam_b": ("adam", (0.05,), {"b1": 0.5, "b2": 0.9, "eps": 1e-3}),
    "adamax": ("adamax", (0.1,), {}),
    "sm3": ("sm3", (0.2,), {}),
}
STEPS = 6
INIT = {"w": np.array([[0.5, -1.0, 2.0], [3.0, 0.0, -0.25]]), "b": np.array([0.1, -0.2, 0.3])}
SCALE = {"w": np.array([[1.0, 2.0, 0.5], [0.1, 3.0, 1.5]]), "b": np.array([1.0, 0.3, 2.0])}


def loss(params, scale):
    return sum(jnp.sum(scale[k] * (params[k] - 1.0) ** 2) for k in params)


def step_size_of(spec):
    if isinstance(spec, tuple):
        return getattr(optimizers, spec[0])(*spec[1:])
    return spec


def run(lib, grad_fn, name):
    maker, args, kwargs = CONFIGS[name]
    args = (step_size_of(args if args and isinstance(args[0], str) else args[0]),) + (
        () if args and isinstance(args[0], str) else args[1:])
    init, update, get_params = getattr(lib, maker)(*args, **kwargs)
    state = init({k: np.array(v) for k, v in INIT.items()})
    trajectory = []
    for i in range(STEPS):
        state = update(i, grad_fn(get_params(state), SCALE), state)
        trajectory.append({k: np.asarray(v).tolist() for k, v in get_params(state).items()})
    return trajectory


if __name__ == "__main__":
    out = {name: run(optimizers, jax.grad(loss), name) for name in CONFIGS}
    s = {"exponential_decay": [float(optimizers.exponential_decay(0.2, 3, 0.5)(i)) for i in range(8)],
         "inverse_time_decay": [float(optimizers.inverse_time_decay(0.2, 3, 0.5)(i)) for i in range(8)],
         "inverse_time_decay_staircase": [float(optimizers.inverse_time_decay(0.2, 3, 0.5, True)(i))
                                          for i in range(8)],
         "polynomial_decay": [float(optimizers.polynomial_decay(0.2, 5, 0.01, 2.0)(i)) for i in range(8)],
         "piecewise_constant": [float(optimizers.piecewise_constant([2, 5], [1.0, 0.5, 0.1])(i))
                                for i in range(8)]}
    out["schedules"] = s
    out["setup"] = {"configs": CONFIGS, "steps": STEPS, "init": {k: v.tolist() for k, v in INIT.items()},
                    "scale": {k: v.tolist() for k, v in SCALE.items()}}
    path = pathlib.Path(__file__).resolve().parent.parent / "tests" / "stored" / "jax_optimizers.json"
    path.write_text(json.dumps(out))
    print("wrote", path)
