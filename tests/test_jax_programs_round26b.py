"""Round 26b of the JAX programs (tests/jax_programs_round26b/): JAX's thinner API areas --
ahead-of-time stages (``jit(f).trace/.lower/.compile``, ``jax.stages``, ``args_info`` with
donations, ``cost_analysis``), ``jax.export`` (symbolic shapes, several platforms), sharding on
one device (``Mesh``, ``NamedSharding``, ``device_put``, ``with_sharding_constraint``,
``shard_map`` with collectives), ``jax.profiler`` and ``jax.typing``/``jax.dtypes``/
``jax.errors`` (docs/jax-programs-round26b.md) -- run unchanged with ``import jax`` resolved to
fgrad (``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with
``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's (stored in
``jax_programs_round26b/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).  The regression tests of what they found are in
tests/test_jax_round26b_defects.py.

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round26b.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round26b"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"aot_stages"}  # the default run's program (32-bit mode)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 5)
