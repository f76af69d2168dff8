"""Write ``tests/stored/jax_suite_grid.json``: JAX's outcomes (values, dtypes, shapes, or the
raised error's type) for the stored subset of the case grids of JAX's own numerical tests
(``tests/jax_suite_grid_cases.py``), with 64-bit types on and off: the reference of
``tests/test_jax_suite_grids.py`` where JAX is not installed.  Run with the real JAX::

    python tools/make_jax_suite_grid_table.py            # about 10 minutes on one core
    python tools/make_jax_suite_grid_table.py --missing  # only the cases the file lacks
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
import jax.numpy as jnp  # noqa: E402

from jax_suite_grid_cases import import_scipy, outcome, stored_cases  # noqa: E402

import_scipy("jax")

OUT = Path(__file__).resolve().parents[1] / "tests" / "stored" / "jax_suite_grid.json"


def main() -> None:
    """Compute JAX's outcome of every stored case; with ``--missing`` only of the cases the
    file lacks (after records were added), keeping the others."""
    warnings.simplefilter("ignore")
    names = {"jnp": jnp, "lax": jax.lax, "jax": jax}
    old = json.loads(OUT.read_text()) if "--missing" in sys.argv and OUT.exists() else {}
    table = {"jax": jax.__version__}
    for mode in ("x64", "x32"):
        jax.config.update("jax_enable_x64", mode == "x64")
        have = old.get(mode, {})
        cases = stored_cases(mode == "x64")
        table[mode] = {}
        for i, c in enumerate(cases):
            if c.id not in have and i % 50 == 0:
                print(f"{mode}: {i}/{len(cases)}", flush=True)
            table[mode][c.id] = have[c.id] if c.id in have else outcome(
                c, names, jnp.asarray, jax.tree_util.tree_leaves)
    lines = ['{"jax": ' + json.dumps(table["jax"]) + ","]
    for mode in ("x64", "x32"):
        lines.append(f'"{mode}": {{')
        lines += [
            f"{json.dumps(k)}: {json.dumps(v, separators=(',', ':'))},"
            for k, v in sorted(table[mode].items())
        ]
        lines[-1] = lines[-1].rstrip(",")
        lines.append("},")
    lines[-1] = "}}"
    OUT.write_text("\n".join(lines) + "\n")
    print(f"wrote {OUT} ({sum(len(table[m]) for m in ('x64', 'x32'))} outcomes)")


if __name__ == "__main__":
    main()
