"""Round 22 of the JAX programs (tests/jax_programs_round22/): t-SNE with perplexity
calibration by a vmapped ``while_loop``, a linear-chain CRF (forward algorithm, marginals by
``grad`` of log Z, Viterbi by a reverse ``scan``), GRU beam search in ``while_loop`` with
``top_k``/``take_along_axis``, a D2Q9 lattice Boltzmann channel with ``grad`` through 150
steps, an SIR epidemic (``odeint`` adjoint fit, Newton final size under ``jacfwd``,
tau-leaping with ``random.binomial``), Bayesian optimisation with expected improvement,
collaborative filtering by SGD and vmapped ALS, long-only portfolios by simplex projection and
mirror descent, capsule routing by agreement and kernel ridge regression with vmapped
cross-validation (docs/jax-programs-round22.md) -- run unchanged with ``import jax`` resolved
to fgrad (``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with
``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's (stored in
``jax_programs_round22/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round22.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round22"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"tsne_embedding"}  # the default run's program (32-bit mode, ~2 s)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 10)
