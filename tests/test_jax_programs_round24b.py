"""Round 24b of the JAX programs (tests/jax_programs_round24b/), in the style of JAX's own
documentation: the ``example_libraries`` optimizers and schedules, a ``stax`` convolutional
autoencoder with the initializers and newer activations, jaxpr walkers recursing into loop and
branch sub-jaxprs, ``lax.gather``/``scatter`` with dimension numbers, the rarer
``jax.scipy.special``/``stats`` functions, NumPy reshaping odds, the rarer ``jax.random``
samplers, and ``PyTreeDef`` internals (docs/jax-programs-round24b.md) --
run unchanged with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's
default 32-bit mode and with ``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's
(stored in ``jax_programs_round24b/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round24b.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round24b"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"optimizers_zoo"}  # the default run's program (32-bit mode)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 8)
