"""Round 24 of the JAX programs (tests/jax_programs_round24/): scientific computing and
numerical methods -- stiff pseudo-spectral PDEs (Kuramoto-Sivashinsky by ETDRK4 with contour
integrals, KdV solitons by an integrating-factor RK4), geometric multigrid (red-black
Gauss-Seidel, full weighting, a V-cycle preconditioning ``cg``), robot-arm kinematics
(``jacfwd`` Jacobians, damped least squares in a ``vmap``ped ``while_loop``, null-space
motion), quadrature (Golub-Welsch, Clenshaw-Curtis, Romberg, tanh-sinh, Gauss-Hermite
expectations), the 1-D Schroedinger equation (``eigh_tridiagonal``, Hellmann-Feynman by
``grad``, Crank-Nicolson with complex ``lu_factor``/``lu_solve``, ``expm``), SDE integrators
(Euler-Maruyama and Milstein strong orders by ``polyfit``, exit times in a ``vmap``ped
``while_loop``), shooting for boundary-value problems through ``odeint`` (Blasius,
Falkner-Skan with an implicit ``custom_vjp``, Sturm-Liouville, the pendulum period by an AGM),
computed tomography (a Radon transform by ``map_coordinates``, its adjoint by ``vjp`` and
``linear_transpose``, filtered back-projection, SIRT, TV), AR time series (Yule-Walker with
``toeplitz``, Levinson-Durbin, MLE by ``hessian``, ``roots``, forecasts), Hessian-free training
(Gauss-Newton products by ``linearize`` and ``linear_transpose``, CG, Levenberg-Marquardt
damping by ``lax.cond``), linear control design (``expm`` zero-order hold, Ackermann with ``poly``
and ``matrix_power``, discrete LQR in ``while_loop`` differentiated by ``jacfwd``, Bode plots) and
Stam's stable fluids (``map_coordinates(mode="wrap")``, FFT
projection, ``lax.switch`` forcing, ``vmap(out_axes=1)``) (docs/jax-programs-round24.md) --
run unchanged with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's
default 32-bit mode and with ``JAX_ENABLE_X64=1``, their output compared with JAX 0.10.2's
(stored in ``jax_programs_round24/expected/``; live JAX in the slow tests), as in round 8
(`test_jax_programs_round8.same_output`).

The default run runs one program in 32-bit mode; ``pytest tests/test_jax_programs_round24.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round24"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"kdv_etdrk4"}  # the default run's program (32-bit mode, ~3 s unloaded)
RTOL_PROGRAM: dict = {}

(
    test_program_prints_what_jax_prints_32bit,
    test_program_prints_what_jax_prints,
    test_stored_output_is_live_jax,
    test_every_program_has_stored_outputs_and_no_fgrad_import,
) = program_tests(PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 10)
