"""Round 25 of the JAX programs (tests/jax_programs_round25/): machine-learning research code
of kinds the earlier rounds lacked -- spectral normalization by power iteration (an SN-GAN
critic), PPO with generalized advantage estimation on a pure environment in ``scan``,
sharpness-aware minimization (m-SAM by ``vmap``, Hessian top eigenvalues by ``jvp`` of
``grad``), lottery-ticket pruning (masks as pytrees by ``tree_map_with_path``, rewinding,
SNIP), LoRA adapters (``argnums``, ``stop_gradient``, merged weights), adversarial examples and
training (FGSM, PGD in ``fori_loop``, TRADES), hypergradients (unrolled in reverse and forward
mode, the implicit function theorem with ``cg`` and ``lax.custom_root``, hypergradient
descent), planar and radial flows for variational inference (stacked layers in ``scan``),
distillation and calibration (``stax`` models, mixup with ``random.beta``, focal loss, ECE by
``segment_sum``, temperature scaling by Newton in ``while_loop``) and natural-gradient
training (Fisher matrices by ``vmap(jacrev)``, K-FAC with ``cho_solve``, Muon's Newton-Schulz)
and few-shot learning (prototypical networks over ``vmap``ped episodes, Reptile)
(docs/jax-programs-round25.md) -- run unchanged with ``import jax`` resolved to fgrad
(``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``,
their output compared with JAX 0.10.2's (stored in ``jax_programs_round25/expected/``; live
JAX in the slow tests), as in round 8 (`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round25.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round25"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"spectral_norm"}  # the default run's program (32-bit mode, ~6 s loaded)
# float32 training runs whose printed losses amplify last-bit differences of the dot products
# (XLA's and OpenBLAS's summation orders): lottery_pruning's 400 SGD steps of a ReLU network
# agree to 1e-7 after one step, 4e-6 (weights) after 100 and 8e-5 (loss) after 400;
# lora_finetune's rank-1 adapters under Adam agree to 1e-7 after 200 steps and 2e-4 after 300
# (Adam's normalized steps oscillating about the minimum)
RTOL_PROGRAM: dict = {("lottery_pruning", "32"): 2e-4, ("lora_finetune", "32"): 5e-4}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 10)
