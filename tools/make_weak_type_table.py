"""Write ``tests/stored/weak_types_jax.json``: JAX's result dtype and weak type for the
expressions of `weak_type_cases` (JAX 0.10.2, x64 on), the reference of
``tests/test_weak_types.py``.

Run with the real JAX installed (not under the alias)::

    python tools/make_weak_type_table.py
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402

from weak_type_cases import all_cases  # noqa: E402


def main() -> None:
    out = {}
    for expr in all_cases():
        try:
            r = eval(expr, {"jnp": jnp, "lax": lax, "jax": jax, "np": np})  # noqa: S307
            out[expr] = [r.dtype.name, bool(r.weak_type)]
        except AttributeError:
            out[expr] = [type(r).__name__, False]
        except TypeError as e:
            out[expr] = ["TypeError", str(e).splitlines()[0][:80]]
    path = Path(__file__).resolve().parents[1] / "tests" / "stored" / "weak_types_jax.json"
    path.write_text(json.dumps({"jax": jax.__version__, "x64": True, "cases": out}, indent=0) + "\n")
    print(f"{len(out)} cases written to {path}")


if __name__ == "__main__":
    main()
