"""Round 14b of the JAX programs (tests/jax_programs_round14b/): research-style code written
with jax alone (the flax/haiku/optax parts inline, as such repositories do) -- a flax-linen-like
module system over registered dataclasses, haiku-style ``transform_with_state`` with BatchNorm
state, a DDPM diffusion model and its samplers, contrastive InfoNCE/CLIP/SigLIP losses, a
graph attention network on padded adjacency, a mixture density network, a Bayesian network by
SVI, a particle filter against a Kalman filter, differentiable mass-spring physics, iLQR,
evolution strategies, ``jax.nn.dot_product_attention`` with masks and a KV cache, float16/
bfloat16 mixed precision with loss scaling, jax.random samplers with jax.scipy.stats
log-densities, least-squares fitting with jax.numpy.linalg, and a checkpointed training loop
saving ``.npz`` files -- run unchanged with ``import jax`` resolved to fgrad
(``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with ``JAX_ENABLE_X64=1``,
their output compared with JAX 0.10.2's (stored in ``jax_programs_round14b/expected/``; live
JAX in the slow tests), as in round 8 (`test_jax_programs_round8.same_output`).  The
regression tests of the defects the programs found are in the matching test modules
(docs/jax-programs-round14b.md lists them).

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round14b.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round14b"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"attention_masks", "checkpoint_npz"}  # the default run's programs (32-bit mode)
RTOL_PROGRAM: dict = {
    # float16 compute copies under jit: XLA evaluates a fused float16 chain (tanh's
    # derivative times the cotangent) in float32 and rounds once, where eager JAX and fgrad
    # (jit == eager) round every float16 operation; the loss-scaled gradients carry those
    # float16 ulps (eps 1e-3) into the weights: 5e-5 in the losses, 2e-3 in a small bias
    ("mixed_precision_master", "32"): 5e-3, ("mixed_precision_master", "64"): 5e-3,
    # ill-conditioned small coefficient (-0.0146, cancellation) of a float32 fit
    ("lsq_fitting", "32"): 5e-4,
    # ten gradient steps through a 200-step contact rollout (float32): JAX's own op-by-op
    # run (JAX_DISABLE_JIT=1) differs from its jit (the stored numbers) by 7e-5 in the
    # optimized actuation; fgrad (time i * DT a float32 product, as JAX) by 9e-5
    ("mass_spring_physics", "32"): 2e-4,
    # 100 float32 Adam steps: last-bit differences grow to ~4e-5 in one printed mean
    ("mixture_density", "32"): 1e-4,
    # dot_product_attention computes its softmax in float32 in both modes (as JAX)
    ("attention_masks", "64"): 2e-5,
    # the model's time input is float32 in both modes: one ulp of XLA's float32 cos against
    # NumPy's reaches the float64 state (~3e-8)
    ("particle_filter", "64"): 1e-6,
    # Adam divides by sqrt(v) + 1e-8: 1-ulp gradient differences near zero grow to ~2e-8
    ("ddpm_diffusion", "64"): 1e-7, ("evolution_strategies", "64"): 1e-8,
}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 15)
