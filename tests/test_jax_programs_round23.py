"""Round 23 of the JAX programs (tests/jax_programs_round23/): LDA topic modelling by
variational EM (``digamma``, Newton on the Dirichlet prior with ``hessian``), MFCC features
(``rfft``, mel filterbank, ``jax.scipy.fft.dct``, ``jax.scipy.signal.stft``) and a softmax
classifier, multi-armed bandits (epsilon-greedy, UCB1, Thompson sampling with
``random.beta``, LinUCB, gradient bandits), FastICA and Infomax, compressed sensing (FISTA,
ADMM with ``cho_factor``, OMP with ``lstsq``, total-variation denoising by Chambolle-Pock), a
gridworld MDP (value and policy iteration in ``while_loop``, Q-learning, MaxEnt IRL by
``grad`` through soft value iteration), CMA-ES, ranking models (Bradley-Terry by Newton, Elo
in ``scan``, Plackett-Luce with ``cumlogsumexp``), an echo state network and kernel density
estimation with mean-shift clustering (``gaussian_kde``, LOO bandwidth by ``grad``)
(docs/jax-programs-round23.md) -- run unchanged with ``import jax`` resolved to fgrad
(``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``,
their output compared with JAX 0.10.2's (stored in ``jax_programs_round23/expected/``; live
JAX in the slow tests), as in round 8 (`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round23.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round23"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"mfcc_classifier"}  # the default run's program (32-bit mode, ~2 s unloaded)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 10)
