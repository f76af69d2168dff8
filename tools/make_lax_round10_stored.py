"""Write tests/stored/lax_round10_jax.json from JAX (x64): the numbers tests/test_lax_round10.py
compares fgrad with.  Run: ``python tools/make_lax_round10_stored.py`` (needs jax)."""

import json
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

import jax  # noqa: E402

jax.config.update("jax_enable_x64", True)
import jax.numpy as jnp  # noqa: E402
from jax import lax  # noqa: E402

from lax_round10_cases import cases  # noqa: E402

(ROOT / "tests" / "stored" / "lax_round10_jax.json").write_text(json.dumps(cases(lax, jnp)))
