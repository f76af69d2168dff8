"""Round 19 of the JAX programs (tests/jax_programs_round19/): research-style programs of kinds
the earlier rounds lacked -- a Linear Recurrent Unit by ``lax.associative_scan`` over complex
pairs, image registration with ``jax.scipy.ndimage.map_coordinates`` and ``jax.image``, a Cox
model by ``lax.cumlogsumexp``, int8 quantization-aware training with integer ``dot_general``,
``jnp.piecewise``/``vectorize``/``histogram``/``quantile``, a ``register_dataclass``
transformer with grouped-query ``jax.nn.dot_product_attention``, Lorenz sensitivities and
Lyapunov exponents, cubic splines by ``tridiagonal_solve``, and the others listed in
docs/jax-programs-round19.md -- run unchanged with ``import jax`` resolved to fgrad
(``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``,
their output compared with JAX 0.10.2's (stored in ``jax_programs_round19/expected/``; live
JAX in the slow tests), as in round 8 (`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round19.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round19"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"int8_quantization"}  # the default run's program (32-bit mode, ~3 s)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 8)
