"""Write ``tests/stored/jax_dtypes.json``: JAX's result dtypes for the sweep of
``tests/jax_dtype_sweep_cases.py`` (every public function of ``jax.numpy``, its ``linalg``
and ``fft``, ``jax.scipy.special``, ``jax.nn`` and the unary math of ``jax.lax``, on each
input dtype, with 64-bit types on and off), the reference of
``tests/test_jax_dtype_sweep.py`` where JAX is not installed.

Also the result types of `EXPRESSIONS` (weakly typed scalars, loop carries, ``has_aux``
outputs) in both modes.  Run with the real JAX installed (not under the alias)::

    python tools/make_jax_dtype_table.py                    # everything (about 15 minutes)
    python tools/make_jax_dtype_table.py --expressions      # the expressions only
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from pathlib import Path

os.environ.setdefault("JAX_PLATFORMS", "cpu")
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

import jax  # noqa: E402
import jax.nn  # noqa: E402
import jax.numpy as jnp  # noqa: E402
import jax.scipy.special  # noqa: E402
import ml_dtypes  # noqa: E402

import numpy as np  # noqa: E402
from jax_dtype_sweep_cases import (DTYPES, EXPRESSIONS, dump_table, encode_row, evaluate, make_input,  # noqa: E402
                                   public_names, result)

MODULES = {"numpy": jnp, "linalg": jnp.linalg, "fft": jnp.fft, "special": jax.scipy.special,
           "lax": jax.lax, "nn": jax.nn}


def arity_of(f) -> int | None:
    """1 or 2: the number of copies of the float32 input ``f`` takes (None: neither)."""
    jax.config.update("jax_enable_x64", True)
    x = make_input(jnp.asarray, "float32", ml_dtypes.bfloat16)
    for n in (1, 2):
        if result(f, x, n, jax.tree_util.tree_leaves) != "error":
            return n
    return None


def expressions() -> dict:
    names = {"jnp": jnp, "lax": jax.lax, "jax": jax, "np": np}
    out: dict = {}
    for x64 in (True, False):
        jax.config.update("jax_enable_x64", x64)
        for expr in EXPRESSIONS:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                got = evaluate(expr, names, jax.tree_util.tree_leaves)
            out.setdefault(expr, {})["x64" if x64 else "x32"] = got
    return out


def main() -> None:
    path = Path(__file__).resolve().parents[1] / "tests" / "stored" / "jax_dtypes.json"
    if "--expressions" in sys.argv:
        table = json.loads(path.read_text())
        table["expressions"] = expressions()
        path.write_text(dump_table(table))
        print(f"{len(table['expressions'])} expressions written to {path}")
        return
    cases: dict = {}
    for group, module in MODULES.items():
        for name in public_names(module, group):
            f = getattr(module, name)
            arity = arity_of(f)
            if arity is None:
                continue
            entry = {"arity": arity}
            for x64 in (True, False):
                jax.config.update("jax_enable_x64", x64)
                row = {}
                for dt in DTYPES:
                    with warnings.catch_warnings():
                        warnings.simplefilter("ignore")
                        x = make_input(jnp.asarray, dt, ml_dtypes.bfloat16)
                        row[dt] = result(f, x, arity, jax.tree_util.tree_leaves)
                entry["x64" if x64 else "x32"] = encode_row(row)
            cases[f"{group}.{name}"] = entry
        print(group, sum(k.startswith(group + ".") for k in cases), flush=True)
    table = {"jax": jax.__version__, "cases": cases, "expressions": expressions()}
    path.write_text(dump_table(table))
    print(f"{len(cases)} functions written to {path}")


if __name__ == "__main__":
    main()
