"""Regenerate tests/stored/narrow_floats_jax.json: JAX's results for bfloat16/float16 inputs
(run with jax installed: ``python tools/make_narrow_float_refs.py``).  Values are stored as
the 16-bit patterns of the results, so the comparison is bit-exact where JAX rounds once."""

from __future__ import annotations

import json
import pathlib

import jax
import jax.numpy as jnp
import numpy as np

from narrow_float_cases import CASES, inputs  # tests/narrow_float_cases.py

OUT = pathlib.Path(__file__).resolve().parent.parent / "tests" / "stored" / "narrow_floats_jax.json"


def bits(x) -> list:
    x = np.asarray(x)
    return {"dtype": str(x.dtype), "shape": list(x.shape),
            "bits": x.reshape(-1).view(np.uint16 if x.dtype.itemsize == 2 else np.uint32).tolist()}


def main() -> None:
    out = {}
    for dt in ("bfloat16", "float16"):
        for name, fn in CASES.items():
            args = [jnp.asarray(a) for a in inputs(name, dt)]
            out[f"{name}/{dt}"] = bits(fn(jnp, jax, *args))
    types = ["bool", "uint8", "int8", "int32", "int64", "bfloat16", "float16", "float32", "float64", "complex64"]
    out["promote_types"] = {f"{a},{b}": str(jnp.promote_types(a, b)) for a in types for b in types}
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
