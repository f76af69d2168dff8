"""Round 25b of the JAX programs (tests/jax_programs_round25b/): science and numerics --
entropic optimal transport (log-domain Sinkhorn, envelope-theorem gradients, debiased
divergences, a Wasserstein barycenter), an ODE model fitted by
``jax.scipy.optimize.minimize(method="BFGS")`` through ``odeint`` (Fisher information, Wald and
profile intervals), transfer matrices with complex holomorphic derivatives (thin films,
quantum tunnelling), polynomial chaos (``polymul``/``polyder``/``polyint``/``roots``, Sobol
indices by ``lstsq``), integer and bit algorithms (xorshift, Murmur, Morton and Gray codes,
CRC-32, ``packbits``), finite-strain kinematics (``polar``, ``sqrtm``, ``schur``, ``funm``,
``expm_frechet``), finite elements on ``BCOO``/``BCSR`` matrices with ``cg``, spectral lines
(``wofz``, ``zeta``, ``polygamma``, ``sph_harm_y``) and censored likelihoods from
``jax.scipy.stats`` (docs/jax-programs-round25b.md) -- run unchanged with ``import jax``
resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's default 32-bit mode and with
``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's (stored in
``jax_programs_round25b/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round25b.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round25b"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"polynomial_chaos"}  # the default run's program (32-bit mode, ~9 s loaded)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 9)
