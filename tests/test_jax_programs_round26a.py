"""Round 26a of the JAX programs (tests/jax_programs_round26a/): JAX's thinner API areas --
``jax.experimental.sparse.linalg`` (``lobpcg_standard`` on dense, BCOO and matrix-free
operators, ``spsolve`` of a CSR system with its derivatives), ``jax.experimental.jet``
(Taylor coefficients of elementwise functions, dots, reductions, an MLP, a Taylor-series ODE
solver, under ``jit``/``vmap``), ``jax.experimental.checkify`` (user checks and every error
set, ``Error.get``/``throw``, under ``jit``/``vmap``/``grad`` and control flow) and
``jax.custom_batching`` (``custom_vmap`` rules with ``out_batched`` flags, nested ``vmap``,
under ``jit``/``grad`` with ``custom_jvp``; ``sequential_vmap``) (docs/jax-programs-round26a.md)
-- run unchanged with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in
JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``, their output compared with JAX
0.10.2's (stored in ``jax_programs_round26a/expected/``; live JAX in the slow tests), as in
round 8 (`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round26a.py
-m slow`` runs all of them in both modes. Unit tests of the modules are in
tests/test_sparse_linalg_jax.py.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round26a"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"sparse_eigensolvers"}  # the default run's program (32-bit mode, ~3 s)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 4)
