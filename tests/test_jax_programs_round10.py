"""Round 10 of the JAX programs (tests/jax_programs_round10/): published-style research code
(MAML, a RealNVP flow, a VAE, HMC, a sparse GCN, a Transformer LM, a PINN with DP-SGD,
Lennard-Jones molecular dynamics, spectral PDE solvers, implicit differentiation, BFGS and
Gaussian processes, custom pytree classes, typed keys with checkify, and smaller APIs), run
unchanged with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's
default 32-bit mode and with ``JAX_ENABLE_X64=1``.  Their output is compared with JAX
0.10.2's, stored in ``jax_programs_round10/expected/`` (and with the installed JAX by the
slow tests), as in round 8 (`test_jax_programs_round8.same_output`).  Below them, the
regression tests of the defects the programs found (docs/jax-programs-round10.md).

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round10.py
-m slow`` runs all of them in both modes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.experimental import checkify
from fgrad.scipy.optimize import minimize
from test_jax_programs_round8 import program_tests

PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round10"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"pytree_classes", "keys_checkify_misc"}  # the default run's programs (32-bit mode)
# float32 training loops and optimizers amplify last-ulp differences (XLA's fused kernels and
# its division by a broadcast scalar as a multiplication by the reciprocal)
RTOL_PROGRAM = {("transformer_lm", "32"): 3e-4, ("scipy_minimize_gp", "32"): 5e-4,
                ("realnvp_flow", "32"): 1e-4, ("implicit_diff", "32"): 1e-4, ("spectral_pde", "32"): 1e-4,
                ("ssm_mixed_precision", "32"): 1e-4,
                # its attention softmax runs in float32 also with x64 (JAX's), through training steps
                ("transformer_lm", "64"): 1e-5}

(test_program_prints_what_jax_prints_32bit, test_program_prints_what_jax_prints,
 test_stored_output_is_live_jax, test_every_program_has_stored_outputs_and_no_fgrad_import) = program_tests(
    PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 12)


# ---- regression tests -------------------------------------------------------------------------


def test_var_method_under_jit_and_loop_bodies():
    """``x.var()`` on a traced array: the tracer of `jit`, `scan` and `fori_loop` bodies kept
    its IR variable in an attribute named ``var``, which hid the array method (TypeError
    "'Var' object is not callable" in any layer norm written ``x.var(-1)``)."""
    x = fnp.arange(6.0).reshape(2, 3)
    want = np.var(np.arange(6.0).reshape(2, 3), axis=-1)
    np.testing.assert_allclose(fgrad.jit(lambda v: v.var(-1))(x), want)
    np.testing.assert_allclose(fgrad.jit(lambda v: v.var(-1, keepdims=True))(x)[:, 0], want)
    out = lax.fori_loop(0, 2, lambda i, v: v + v.var(), fnp.ones(3))
    np.testing.assert_allclose(out, np.ones(3))
    _, ys = lax.scan(lambda c, r: (c, r.var()), 0.0, x)
    np.testing.assert_allclose(ys, want)
    assert fgrad.make_jaxpr(lambda v: v.var())(fnp.ones(3)).eqns  # and it is staged
    assert float(fgrad.grad(lambda v: fgrad.jit(lambda w: w.var())(v))(fnp.asarray([0.0, 2.0]))[1]) == 1.0


def test_vjp_function_called_inside_a_loop_body():
    """A VJP function made at the top level and called in a ``while_loop`` body (the backward
    pass of an implicit fixed-point layer): the body is traced twice and the second trace
    reused constants of the first (UnexpectedTracerError)."""
    w = fnp.eye(3) * 0.3
    _, vjp_z = fgrad.vjp(lambda z: fnp.tanh(w @ z), fnp.ones(3))
    jac = (1 - np.tanh(0.3) ** 2) * 0.3  # d tanh(0.3 z_i) / d z_i at z = 1

    def body(c):
        return vjp_z(c[0])[0] + 1.0, c[1] + 1

    u, _ = lax.while_loop(lambda c: c[1] < 3, body, (fnp.zeros(3), 0))
    np.testing.assert_allclose(u, 1 + jac + jac ** 2, rtol=1e-12)
    u = lax.fori_loop(0, 3, lambda i, u: vjp_z(u)[0] + 1.0, fnp.zeros(3))
    np.testing.assert_allclose(u, 1 + jac + jac ** 2, rtol=1e-12)
    u = fgrad.jit(lambda u: vjp_z(u)[0])(fnp.ones(3))
    np.testing.assert_allclose(u, jac, rtol=1e-12)


def test_checkify_flags_static_out_of_bounds_indices():
    """JAX stages ``x[5]`` (a Python int) as a dynamic slice, which checkify's `index_checks`
    check; fgrad's static gather escaped them, also for an int argument of the checkified
    function.  Messages are JAX 0.10.2's."""
    x = fnp.arange(3.0)
    msg = "out-of-bounds indexing for array of shape {}: index {} is out of bounds for axis {} with size {}. "
    cases = [(lambda v: v[5], ((3,), 5, 0, 3)), (lambda v: v.at[5].set(1.0), ((3,), 5, 0, 3)),
             (lambda v: v.at[-7].add(1.0), ((3,), -4, 0, 3)), (lambda v: v[-7], ((3,), -4, 0, 3)),
             (lambda v: v[1:][4], ((2,), 4, 0, 2)), (lambda v: fnp.ones((2, 3))[1, 3], ((2, 3), 3, 1, 3))]
    for f, args in cases:
        err, _ = checkify.checkify(f, errors=checkify.index_checks)(x)
        assert err.get() == msg.format(*args)
    err, out = checkify.checkify(lambda v, i: v[i], errors=checkify.index_checks)(x, 5)
    assert err.get() == msg.format((3,), 5, 0, 3) and float(out) == 2.0
    err, out = checkify.checkify(lambda v: v[-2], errors=checkify.index_checks)(x)
    assert err.get() is None and float(out) == 1.0
    err, _ = checkify.checkify(fgrad.jit(lambda v: v[3]), errors=checkify.index_checks)(x)
    assert err.get() == msg.format((3,), 3, 0, 3)
    err, _ = checkify.checkify(lambda v: v[5], errors=checkify.nan_checks)(x)  # not enabled
    assert err.get() is None


def _rosen(m):
    return lambda p: m.sum(100.0 * (p[1:] - p[:-1] ** 2) ** 2 + (1 - p[:-1]) ** 2)


def test_minimize_follows_jax_bfgs():
    """``jax.scipy.optimize.minimize(method="BFGS")``'s own algorithm: its line search takes
    the first step from the previous decrease and zooms by cubic and quadratic steps, and
    from ``[-1.2, 1.0]`` on Rosenbrock's function it fails (status 3) after 8 iterations.
    fgrad's BFGS converged there (a different line search): other iterates, counts and
    statuses than every JAX program that prints them."""
    with fgrad.enable_x64(True):
        res = minimize(_rosen(fnp), fnp.asarray([-1.2, 1.0]), method="BFGS")
        counts = (int(res.status), bool(res.success), int(res.nit), int(res.nfev), int(res.njev))
        assert counts == (3, False, 8, 17, 17)
        np.testing.assert_allclose(res.x, [-0.2778069614751315, 0.043338775200157394], rtol=1e-10)
        np.testing.assert_allclose(float(res.fun), 1.7472911993555371, rtol=1e-10)
        res = minimize(lambda x: fnp.sum((x - 1.0) ** 2) + fnp.sum(x ** 4), fnp.zeros(2), method="BFGS")
        assert (int(res.status), int(res.nit), int(res.nfev)) == (0, 6, 7)
        np.testing.assert_allclose(res.x, [0.589754471939345, 0.5897544719393298], rtol=1e-12)
        res = minimize(_rosen(fnp), fnp.asarray([1.2, 1.0, 0.8, 0.7]), method="BFGS")
        assert (int(res.status), int(res.nit), int(res.nfev)) == (0, 22, 27)
        res = minimize(_rosen(fnp), fnp.asarray([-1.2, 1.0]), method="BFGS", options={"maxiter": 3})
        assert (int(res.status), int(res.nit)) == (1, 3)
    with fgrad.enable_x64(False):
        res = minimize(_rosen(fnp), fnp.asarray([-1.2, 1.0, 0.5]), method="BFGS")
        assert int(res.status) == 3 and res.x.dtype == np.float32
        np.testing.assert_allclose(res.x, [-0.7048668, 0.5241802, 0.27636728], rtol=1e-5)
    with pytest.raises(TypeError, match="must be a tuple"):
        minimize(_rosen(fnp), fnp.zeros(2), args=[1], method="BFGS")


@pytest.mark.slow  # JAX compiles every call
def test_minimize_matches_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    jso = pytest.importorskip("jax.scipy.optimize")
    a = np.array([[3.0, 0.5, 0.0], [0.5, 1.0, 0.2], [0.0, 0.2, 2.0]])

    def problems(m):
        return [(_rosen(m), [-1.2, 1.0]), (_rosen(m), [-1.2, 1.0, 0.5]), (_rosen(m), [1.2, 1.0, 0.8, 0.7]),
                (lambda x: 0.5 * x @ m.asarray(a) @ x - m.sum(x), [0.0, 0.0, 0.0]),
                (lambda x: m.sum(m.cosh(x - 0.3)) + x[0] * x[1], [2.0, -1.0]),
                (lambda x: m.sum(m.log1p(m.exp(x)) - 0.3 * x) + 0.01 * m.sum(x ** 4), [1.0, 5.0, -3.0])]

    for x64 in (True, False):
        with jax.enable_x64(x64), fgrad.enable_x64(x64):
            for (jf, x0), (ff, _) in zip(problems(jnp), problems(fnp)):
                for options in ({}, {"norm": 2, "gtol": 1e-7}, {"maxiter": 4}, {"line_search_maxiter": 3}):
                    want = jso.minimize(jf, jnp.asarray(x0), method="BFGS", options=options)
                    got = minimize(ff, fnp.asarray(x0), method="BFGS", options=options)
                    if not x64:  # float32: the last iterations run on rounding noise (XLA's and NumPy's)
                        for field in ("x", "fun"):
                            g, w = np.asarray(getattr(got, field)), np.asarray(getattr(want, field))
                            np.testing.assert_allclose(g, w, rtol=2e-3, atol=1e-4, err_msg=f"{x0} {options}")
                        continue
                    for field in ("status", "success", "nit", "nfev", "njev"):
                        assert int(getattr(got, field)) == int(getattr(want, field)), (x0, options, field)
                    for field in ("x", "fun", "jac", "hess_inv"):
                        g, w = np.asarray(getattr(got, field)), np.asarray(getattr(want, field))
                        np.testing.assert_allclose(g, w, rtol=1e-7, atol=1e-9)


def test_integer_round_with_negative_decimals_raises_as_jax():
    """``jnp.round(int_array, -1)`` raises NotImplementedError in JAX ("integer np.round not
    implemented for decimals < 0"); fgrad returned NumPy's values."""
    for call in (lambda: fnp.round(fnp.asarray([125, 135]), -1), lambda: fnp.asarray([7], fnp.int8).round(-2),
                 lambda: fnp.around(fnp.asarray([7], fnp.uint32), -1)):
        with pytest.raises(NotImplementedError, match="integer np.round not implemented for decimals < 0"):
            call()
    assert fnp.round(fnp.asarray([125, 135]), 1).tolist() == [125, 135]
    assert fnp.round(fnp.asarray([125.0, 135.0]), -1).tolist() == [120.0, 140.0]


def test_preferred_element_type_accumulates_in_that_type():
    """JAX contracts with ``preferred_element_type`` *in* that type: bfloat16 products summed
    in float32, int8 in int32.  fgrad contracted in the operands' type and cast the narrow
    result (bfloat16-rounded sums, int8 overflow), so mixed-precision losses and their
    gradients differed from JAX's."""
    import ml_dtypes

    rng = np.random.RandomState(0)
    xb = rng.randn(16, 64).astype(ml_dtypes.bfloat16)
    wb = rng.randn(64, 3).astype(ml_dtypes.bfloat16)
    want = xb.astype(np.float32) @ wb.astype(np.float32)  # exact products, float32 sums
    with fgrad.default_device("cpu"):  # CuPy (and the fake device) have no bfloat16
        x, w = fnp.asarray(xb), fnp.asarray(wb)
        dn = (((1,), (0,)), ((), ()))
        for got in (lax.dot_general(x, w, dn, preferred_element_type=np.float32),
                    fnp.matmul(x, w, preferred_element_type=np.float32),
                    fnp.dot(x, w, preferred_element_type=np.float32),
                    fnp.tensordot(x, w, 1, preferred_element_type=np.float32)):
            assert got.dtype == np.float32
            np.testing.assert_allclose(np.asarray(got), want, rtol=2e-6, atol=2e-6)
        # the gradient with respect to a float32 weight goes through the bfloat16 cast (JAX 0.10.2)
        xs = fnp.asarray(np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(2, 4))

        def loss(w):
            xb, wb = xs.astype(fnp.bfloat16), w.astype(fnp.bfloat16)
            y = lax.dot_general(xb, wb, dn, preferred_element_type=np.float32)
            return fnp.sum(y ** 2)

        g = fgrad.grad(loss)(fnp.asarray(np.array([[0.3], [-0.7], [0.11], [0.5]], np.float32)))
        assert g.dtype == np.float32
        want_g = [-0.06982421875, 0.16015625, 0.392578125, 0.62109375]
        np.testing.assert_allclose(np.asarray(g)[:, 0], want_g, rtol=1e-6)
        # a convolution likewise
        lhs = fnp.asarray(rng.randn(1, 1, 40).astype(ml_dtypes.bfloat16))
        rhs = fnp.asarray(rng.randn(1, 1, 9).astype(ml_dtypes.bfloat16))
        got = lax.conv_general_dilated(lhs, rhs, (1,), "VALID", preferred_element_type=np.float32)
        ref = np.correlate(np.asarray(lhs, np.float32)[0, 0], np.asarray(rhs, np.float32)[0, 0], "valid")
        np.testing.assert_allclose(np.asarray(got)[0, 0], ref, rtol=2e-6, atol=2e-6)
    a = fnp.full((1, 4), 100, fnp.int8)
    assert lax.dot(a, a.T, preferred_element_type=np.int32).tolist() == [[40000]]
    assert fnp.matmul(a, a.T, preferred_element_type=np.int32).tolist() == [[40000]]


def test_dot_product_attention_computes_softmax_in_float32_as_jax():
    """``jax.nn.dot_product_attention`` forms the logits in at least float32 and takes the
    softmax in float32 for every input dtype, float64 included, then casts the probabilities
    to the key's dtype.  fgrad stayed in the input dtype (float16 logits; float64 softmax),
    so a Transformer's printed losses differed from JAX's in the 8th digit with x64."""
    from fgrad import random

    with fgrad.enable_x64(True):
        x = random.normal(random.PRNGKey(1), (8, 16))
        q, k, v = x[:, None, :4], x[:, None, 4:8], x[:, None, 8:12]
        got = fgrad.nn.dot_product_attention(q, k, v, is_causal=True)
        want = [-0.05064538917471914, -1.3524742133019472, -0.9859173415451911, -1.1198478915637922,
                1.7335698974417852, -0.9046958698146469]  # JAX 0.10.2
        assert got.dtype == np.float64
        np.testing.assert_allclose(np.asarray(got).ravel()[:6], want, rtol=1e-13)
        h = [a.astype(fnp.float16) for a in (q, k, v)]
        got = fgrad.nn.dot_product_attention(*h, is_causal=True)
        assert got.dtype == np.float16
        assert np.asarray(got).ravel()[:6].tolist() == [-0.0506591796875, -1.3525390625, -0.98583984375,
                                                        -1.1201171875, 1.7333984375, -0.904296875]
        # a fully masked row averages (the large negative is capped at float32's range)
        got = fgrad.nn.dot_product_attention(q, k, v, mask=fnp.zeros((1, 8, 8), bool))
        np.testing.assert_allclose(np.asarray(got)[0, 0], np.asarray(v).mean(0)[0], rtol=1e-6)
