"""Cases shared by ``tests/test_image.py`` and its recorder (``python tests/image_cases.py``
writes ``tests/stored/jax_image.json`` from live JAX with x64 enabled)."""

from __future__ import annotations

import json
import pathlib

import numpy as np

STORED = pathlib.Path(__file__).parent / "stored" / "jax_image.json"
IMAGE_SHAPE = (2, 5, 6)
CASES = {}
for _method in ["nearest", "linear", "cubic", "cubic-pytorch", "lanczos3", "lanczos5", "area"]:
    for _shape in [(2, 9, 4), (2, 3, 13), (1, 2, 7)]:
        for _aa in (True, False):
            CASES[f"resize[{_method},{_shape},aa={_aa}]"] = ("resize", _shape, _method, _aa)
for _method in ["linear", "cubic", "lanczos3", "area"]:
    CASES[f"scale_and_translate[{_method}]"] = ("scale_and_translate", (2, 7, 4), _method, True)


def image() -> np.ndarray:
    return np.sin(np.arange(np.prod(IMAGE_SHAPE)) * 0.9).reshape(IMAGE_SHAPE)


def cotangent(shape) -> np.ndarray:
    return np.cos(np.arange(np.prod(shape)) * 0.4).reshape(shape)


def run(image_module, grad, asarray, name: str) -> dict:
    kind, shape, method, aa = CASES[name]
    ct = asarray(cotangent(shape))
    if kind == "resize":
        f = lambda x: image_module.resize(x, shape, method, antialias=aa)  # noqa: E731
    else:
        f = lambda x: image_module.scale_and_translate(  # noqa: E731
            x, shape, (1, 2), asarray(np.array([1.7, 0.6])), asarray(np.array([0.3, -0.5])), method
        )
    x = asarray(image())
    return {
        "out": np.asarray(f(x)).tolist(),
        "grad": np.asarray(grad(lambda x: (f(x) * ct).sum())(x)).tolist(),
    }


if __name__ == "__main__":
    import jax

    jax.config.update("jax_enable_x64", True)
    import jax.image
    import jax.numpy as jnp

    STORED.write_text(json.dumps({n: run(jax.image, jax.grad, jnp.asarray, n) for n in CASES}))
    print(f"wrote {len(CASES)} cases to {STORED}")
