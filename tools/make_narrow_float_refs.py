"""Regenerate tests/stored/narrow_floats_jax.json and narrow_floats_torch.json: JAX's and
PyTorch's (CPU) results for bfloat16/float16 inputs (run with both installed, from the repo
root: ``python tools/make_narrow_float_refs.py``).  Values are stored as the 16-bit patterns
of the results, so the comparisons are bit-exact where the peer rounds once."""

from __future__ import annotations

import json
import pathlib

import sys

import jax
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "tests"), str(ROOT / "tests" / "shim")]
from narrow_float_cases import CASES, inputs  # noqa: E402
from narrow_float_shim_cases import CASES as SHIM_CASES, inputs as shim_inputs  # noqa: E402

OUT = ROOT / "tests" / "stored" / "narrow_floats_jax.json"
OUT_TORCH = ROOT / "tests" / "stored" / "narrow_floats_torch.json"


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
    types = ["bool", "uint8", "int8", "int32", "int64", "bfloat16", "float16", "float32", "float64",
             "complex64"]
    out["promote_types"] = {f"{a},{b}": str(jnp.promote_types(a, b)) for a in types for b in types}
    OUT.write_text(json.dumps(out, indent=0, sort_keys=True))
    out = {}
    for dt in ("bfloat16", "float16"):
        for name, fn in SHIM_CASES.items():
            args = [torch.tensor(a, dtype=torch.float32).to(getattr(torch, dt)) for a in shim_inputs(name)]
            r = fn(torch, *args)
            out[f"{name}/{dt}"] = bits(r.view(torch.int16).numpy().view(np.uint16).view(
                np.float16 if r.dtype == torch.float16 else np.dtype(ml_dtypes.bfloat16)))
    types = ["bool", "uint8", "int8", "int32", "int64", "bfloat16", "float16", "float32", "float64",
             "complex64"]
    out["promote_types"] = {f"{a},{b}": str(torch.promote_types(getattr(torch, a), getattr(torch, b)))[6:]
                            for a in types for b in types}
    OUT_TORCH.write_text(json.dumps(out, indent=0, sort_keys=True))


if __name__ == "__main__":
    main()
