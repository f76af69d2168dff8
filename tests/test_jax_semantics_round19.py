"""JAX semantics where fgrad differed (round 19): `custom_vjp` rules traced only when the
call is differentiated, `jnp.linspace`'s bits, ... Each test runs the same program on
fgrad and -- when installed -- on JAX (x64 mode, fgrad's default), and compares both with
the answer stored here (taken from JAX 0.10.2, x64, by running the same snippet).
See docs/jax-semantics.md."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from tests._host_numerics import AVX512

import fgrad
from _peers import jax_faces
import fgrad.numpy as fnp
from fgrad import export, lax as flax


FACES = jax_faces()
face = pytest.mark.parametrize("name,jax,jnp,lax", FACES, ids=[f[0] for f in FACES])


# --- custom_vjp: fwd and bwd run only when the call is differentiated ------------------------

def _counted_vjp_sin(jax, jnp):
    """``sin`` whose custom VJP is ``3 cos(x) g``, and the list its rules append to."""
    calls = []

    @jax.custom_vjp
    def f(x):
        return jnp.sin(x)

    def fwd(x):
        calls.append("fwd")
        return jnp.sin(x), jnp.cos(x)

    def bwd(r, g):
        calls.append("bwd")
        return (3.0 * g * r,)

    f.defvjp(fwd, bwd)
    return f, calls


def _twice(g):
    return g(1.0), g(2.0)


# (program, the calls of fwd/bwd JAX makes): JAX 0.10.2, x64
VJP_CALLS = {
    "jit": (lambda J, jnp, lax, f: J.jit(f)(1.0), []),
    "jit twice": (lambda J, jnp, lax, f: _twice(J.jit(f)), []),
    "make_jaxpr": (lambda J, jnp, lax, f: J.make_jaxpr(f)(1.0), []),
    "eval_shape": (lambda J, jnp, lax, f: J.eval_shape(f, 1.0), []),
    "vmap": (lambda J, jnp, lax, f: J.vmap(f)(jnp.ones(3)), []),
    "jit(vmap)": (lambda J, jnp, lax, f: J.jit(J.vmap(f))(jnp.ones(3)), []),
    "jit(jit)": (lambda J, jnp, lax, f: J.jit(lambda x: J.jit(f)(x) * 2)(1.0), []),
    "scan": (lambda J, jnp, lax, f: lax.scan(lambda c, x: (c + f(x), None), 0.0, jnp.ones(3)), []),
    "cond": (lambda J, jnp, lax, f: lax.cond(True, f, lambda x: x, 1.0), []),
    "checkpoint": (lambda J, jnp, lax, f: J.checkpoint(f)(1.0), []),
    "grad": (lambda J, jnp, lax, f: J.grad(f)(1.0), ["fwd", "bwd"]),
    "grad(jit)": (lambda J, jnp, lax, f: J.grad(J.jit(f))(1.0), ["fwd", "bwd"]),
    "grad(jit) twice": (lambda J, jnp, lax, f: _twice(J.grad(J.jit(f))), ["fwd", "bwd"]),
    "jit(grad) twice": (lambda J, jnp, lax, f: _twice(J.jit(J.grad(f))), ["fwd", "bwd"]),
    "grad(jit(jit))": (lambda J, jnp, lax, f: J.grad(J.jit(lambda x: J.jit(f)(x) * 2))(1.0),
                       ["fwd", "bwd"]),
    "vmap(grad(jit))": (lambda J, jnp, lax, f: J.vmap(J.grad(J.jit(f)))(jnp.ones(3)), ["fwd", "bwd"]),
    "jit(vmap(grad))": (lambda J, jnp, lax, f: J.jit(J.vmap(J.grad(f)))(jnp.ones(3)), ["fwd", "bwd"]),
    "grad(vmap)": (lambda J, jnp, lax, f: J.grad(lambda x: J.vmap(f)(x).sum())(jnp.ones(3)),
                   ["fwd", "bwd"]),
    "grad(scan)": (lambda J, jnp, lax, f: J.grad(
        lambda xs: lax.scan(lambda c, x: (c + f(x), None), 0.0, xs)[0])(jnp.ones(3)), ["fwd", "bwd"]),
    "grad(checkpoint)": (lambda J, jnp, lax, f: J.grad(J.checkpoint(f))(1.0), ["fwd", "bwd"]),
    "vjp": (lambda J, jnp, lax, f: J.vjp(f, 1.0), ["fwd"]),
    "vjp(jit) called": (lambda J, jnp, lax, f: J.vjp(J.jit(f), 1.0)[1](1.0), ["fwd", "bwd"]),
}


@face
@pytest.mark.parametrize("case", list(VJP_CALLS))
def test_custom_vjp_rules_run_only_when_differentiated(name, jax, jnp, lax, case):
    """fgrad traced a custom_vjp's fwd and bwd whenever jit/make_jaxpr/eval_shape/scan/cond
    staged the call, so their side effects (prints, counters) happened without any
    differentiation (twice under scan, whose body is traced twice); JAX runs them only when
    the call is differentiated, once per trace."""
    program, expected = VJP_CALLS[case]
    f, calls = _counted_vjp_sin(jax, jnp)
    program(jax, jnp, lax, f)
    assert calls == expected


@face
def test_custom_vjp_staged_rules_give_the_rule_gradient(name, jax, jnp, lax):
    """The deferred rules are the ones every later derivative uses (3 cos x, not cos x)."""
    f, _ = _counted_vjp_sin(jax, jnp)
    xs = jnp.array([0.0, 0.5, 1.0])
    want = 3 * np.cos([0.0, 0.5, 1.0])
    np.testing.assert_allclose(jax.vmap(jax.grad(jax.jit(f)))(xs), want, rtol=1e-14)
    np.testing.assert_allclose(jax.jit(jax.vmap(jax.grad(jax.jit(f))))(xs), want, rtol=1e-14)
    np.testing.assert_allclose(
        jax.grad(lambda x: lax.scan(lambda c, _: (f(c), None), x, None, length=2)[0])(0.5),
        3 * np.cos(np.sin(0.5)) * 3 * np.cos(0.5), rtol=1e-14)
    np.testing.assert_allclose(jax.grad(jax.jit(lambda x: lax.cond(x > 0, f, jnp.cos, x)))(0.5),
                               3 * np.cos(0.5), rtol=1e-14)


@face
def test_custom_vjp_bwd_error_only_when_differentiated(name, jax, jnp, lax):
    """A bwd that raises: fgrad raised under jit/make_jaxpr even for a plain call (JAX: only
    when the call is differentiated)."""
    @jax.custom_vjp
    def f(x):
        return 2 * x

    def bwd(r, g):
        raise ValueError("bwd called")

    f.defvjp(lambda x: (2 * x, None), bwd)
    assert float(jax.jit(f)(1.0)) == 2.0
    jax.make_jaxpr(f)(1.0)
    assert jax.jit(jax.vmap(f))(jnp.ones(2)).tolist() == [2.0, 2.0]
    with pytest.raises(ValueError, match="bwd called"):
        jax.grad(jax.jit(f))(1.0)


@face
def test_custom_vjp_fwd_error_only_when_differentiated(name, jax, jnp, lax):
    @jax.custom_vjp
    def f(x):
        return 2 * x

    def fwd(x):
        raise ValueError("fwd called")

    f.defvjp(fwd, lambda r, g: (g,))
    assert float(jax.jit(f)(1.0)) == 2.0
    with pytest.raises(ValueError, match="fwd called"):
        jax.grad(jax.jit(f))(1.0)


@face
def test_custom_vjp_symbolic_zeros_perturbed_under_jit(name, jax, jnp, lax):
    """With the rules deferred, the forward rule of a staged call sees which arguments carry
    a tangent (before: every argument counted as perturbed in a staged program)."""
    seen = []

    @jax.custom_vjp
    def f(x, y):
        return x * y

    def fwd(x, y):
        seen.append((x.perturbed, y.perturbed))
        return f(x.value, y.value), (x.value, y.value)

    f.defvjp(fwd, lambda r, g: (g * r[1], g * r[0]), symbolic_zeros=True)
    assert float(jax.grad(jax.jit(f))(1.0, 2.0)) == 2.0
    assert float(jax.jit(jax.grad(f))(1.0, 3.0)) == 3.0
    assert seen == [(True, False), (True, False)]


def test_custom_vjp_python_residuals_keep_the_rule_under_jit():
    """A fwd whose residuals hold a Python object: fgrad dropped the rule when the call was
    staged (grad(jit(g)) gave the function's derivative 2, silently, where eager grad gave
    the rule's 5). The deferred rule keeps the object in Python. (JAX refuses such
    residuals with a TypeError in every mode; fgrad accepts them in every mode.)"""
    @fgrad.custom_vjp
    def g(x):
        return x * 2

    g.defvjp(lambda x: (x * 2, ("scale", 5.0)), lambda r, c: (c * r[1],))
    assert float(fgrad.grad(g)(1.0)) == 5.0
    assert float(fgrad.grad(fgrad.jit(g))(1.0)) == 5.0
    assert float(fgrad.jit(fgrad.grad(g))(1.0)) == 5.0
    assert fgrad.vmap(fgrad.grad(fgrad.jit(g)))(fnp.ones(2)).tolist() == [5.0, 5.0]


def test_custom_vjp_residual_object_holding_a_tracer_is_refused():
    """A Python-object residual that holds traced values cannot be kept in the deferred
    rule (its tracer would outlive its trace): a TypeError that says what to return."""
    class Box:
        def __init__(self, v):
            self.v = v

    @fgrad.custom_vjp
    def g(x):
        return x * 2

    g.defvjp(lambda x: (x * 2, Box(x)), lambda r, c: (c * r.v,))
    assert float(fgrad.grad(g)(3.0)) == 3.0  # eager: the object holds a value
    with pytest.raises(TypeError, match="residual of type Box"):
        fgrad.grad(fgrad.jit(g))(3.0)


def test_custom_vjp_rules_closing_over_a_traced_value_are_still_staged():
    """Rules that close over a value of the enclosing trace (here jit's argument ``w``) are
    traced where the call is staged, as before: the value is an operand of the call, and
    the gradient in ``x`` is the rule's, as in eager mode (100 w per step)."""
    calls = []

    def outer(w, x):
        @fgrad.custom_vjp
        def f(c):
            return c * w

        def fwd(c):
            calls.append("fwd")
            return c * w, None

        f.defvjp(fwd, lambda r, g: (g * w * 100.0,))
        return flax.scan(lambda c, _: (f(c), None), x, None, length=2)[0]

    assert float(fgrad.grad(outer, argnums=1)(3.0, 1.0)) == 90000.0
    assert float(fgrad.grad(fgrad.jit(outer), argnums=1)(3.0, 1.0)) == 90000.0
    calls.clear()
    assert float(fgrad.jit(outer)(3.0, 1.0)) == 9.0
    assert calls  # staged with the traced value: the rule was traced


def test_custom_vjp_nondiff_argnums_deferred():
    """A static (nondiff) argument reaches the deferred rules."""
    calls = []

    @functools.partial(fgrad.custom_vjp, nondiff_argnums=(0,))
    def f(k, x):
        return x * k

    def fwd(k, x):
        calls.append("fwd")
        return x * k, None

    f.defvjp(fwd, lambda k, r, g: (g * k * 10,))
    assert float(fgrad.jit(f, static_argnums=0)(2.0, 1.0)) == 2.0
    assert calls == []
    assert float(fgrad.grad(fgrad.jit(f, static_argnums=0), argnums=1)(2.0, 1.0)) == 20.0


def test_export_keeps_deferred_custom_vjp_rules():
    """Serializing a staged call whose rules were deferred traces them then, so the
    read-back program differentiates with the user's rule (3 cos x), not sin's own."""
    f, calls = _counted_vjp_sin(fgrad, fnp)
    exp = export.export(fgrad.jit(lambda x: f(x)))(fnp.zeros(3))
    assert calls == []
    back = export.deserialize(exp.serialize())
    assert calls == ["fwd", "bwd"]  # traced when written
    xs = fnp.array([-1.0, 0.0, 2.0])
    g = fgrad.grad(lambda x: back.call(x).sum())(xs)
    np.testing.assert_allclose(g, 3 * np.cos([-1.0, 0.0, 2.0]), rtol=1e-15)


def test_staged_custom_vjp_jaxpr_names_the_rules():
    f, _ = _counted_vjp_sin(fgrad, fnp)
    text = str(fgrad.make_jaxpr(f)(1.0))
    assert "fwd=fwd" in text and "bwd=bwd" in text


# --- jnp.linspace / logspace / histogram edges: JAX's bits -----------------------------------

# (dtype, start, stop, num, endpoint, {index: JAX's value as float.hex}): JAX 0.10.2 on x86-64
LINSPACE_BITS = [('float64',
  0.3,
  1.7,
  7,
  True,
  {0: '0x1.3333333333333p-2',
   1: '0x1.1111111111111p-1',
   2: '0x1.8888888888888p-1',
   3: '0x1.0000000000000p+0',
   4: '0x1.3bbbbbbbbbbbcp+0',
   5: '0x1.7777777777777p+0',
   6: '0x1.b333333333333p+0'}),
 ('float64',
  -2.5,
  13.25,
  50,
  True,
  {1: '-0x1.16db6db6db6dcp+1',
   2: '-0x1.db6db6db6db6ep+0',
   3: '-0x1.8924924924926p+0',
   16: '0x1.5249249249248p+1',
   25: '0x1.6249249249248p+2',
   41: '0x1.55b6db6db6db6p+3',
   45: '0x1.7edb6db6db6dap+3',
   47: '0x1.936db6db6db6dp+3',
   48: '0x1.9db6db6db6db6p+3'}),
 ('float64',
  0.001,
  -7.7,
  33,
  False,
  {1: '-0x1.dbe17757b10f1p-3',
   2: '-0x1.dce79c34e029bp-2',
   3: '-0x1.65ef3e5ef3e5fp-1',
   11: '-0x1.4872b020c49bap+1',
   16: '-0x1.ddccfc7669610p+1',
   24: '-0x1.6661ee7fb8819p+2',
   28: '-0x1.a21fa6a1fa6a2p+2',
   30: '-0x1.bffe82b31b5e6p+2',
   31: '-0x1.ceedf0bbabd89p+2'}),
 ('float32',
  0.30000001192092896,
  1.7000000476837158,
  11,
  True,
  {0: '0x1.3333340000000p-2',
   1: '0x1.c28f5c0000000p-2',
   2: '0x1.28f5c40000000p-1',
   3: '0x1.70a3d80000000p-1',
   4: '0x1.b851ec0000000p-1',
   5: '0x1.0000000000000p+0',
   6: '0x1.23d70a0000000p+0',
   7: '0x1.47ae140000000p+0',
   8: '0x1.6b851e0000000p+0',
   9: '0x1.8f5c2a0000000p+0',
   10: '0x1.b333340000000p+0'}),
 ('float32',
  -4.099999904632568,
  9.899999618530273,
  100,
  False,
  {1: '-0x1.fae1480000000p+1',
   2: '-0x1.e8f5c40000000p+1',
   3: '-0x1.d70a3e0000000p+1',
   33: '0x1.0a3d680000000p-1',
   50: '0x1.7333300000000p+1',
   91: '0x1.147ae00000000p+3',
   95: '0x1.2666640000000p+3',
   97: '0x1.2f5c280000000p+3',
   98: '0x1.33d7080000000p+3'}),
 ('float64',
  0.1,
  0.9,
  300,
  True,
  {1: '0x1.a48f278e4c5f4p-4',
   2: '0x1.af84b582ff24ep-4',
   3: '0x1.ba7a4377b1ea7p-4',
   100: '0x1.7861434bdbb29p-2',
   150: '0x1.00af58df4b2c6p-1',
   291: '0x1.c1d73ed81a073p-1',
   295: '0x1.c75205d2736a0p-1',
   297: '0x1.ca0f694fa01b6p-1',
   298: '0x1.cb6e1b0e36741p-1'}),
 ('float32',
  -1.2999999523162842,
  2.9000000953674316,
  500,
  False,
  {1: '-0x1.4aa64c0000000p+0',
   2: '-0x1.487fca0000000p+0',
   3: '-0x1.46594a0000000p+0',
   166: '0x1.82a9ba0000000p-4',
   250: '0x1.9999a00000000p-1',
   491: '0x1.6985f20000000p+1',
   495: '0x1.6dd2f40000000p+1',
   497: '0x1.6ff9740000000p+1',
   498: '0x1.710cb40000000p+1'}),
 ('float64',
  -3.3,
  8.1,
  1001,
  True,
  {1: '-0x1.a4f0d844d013ap+1',
   2: '-0x1.a37b4a2339c0ep+1',
   3: '-0x1.a205bc01a36e2p+1',
   333: '0x1.fc1bda5119ce1p-2',
   500: '0x1.3333333333333p+1',
   992: '0x1.004816f0068dbp+3',
   996: '0x1.01bda5119ce07p+3',
   998: '0x1.02786c226809dp+3',
   999: '0x1.02d5cfaacd9e8p+3'})]


@pytest.mark.parametrize("case", range(len(LINSPACE_BITS)))
def test_linspace_bits_are_jaxs(case):
    """fgrad computed ``start + k * step`` (NumPy's formula): the last bit differed from JAX
    in most draws. JAX's values come from XLA's CPU code for ``start * (1 - step) + stop *
    step`` (a reciprocal, a reassociated product and fused multiply-adds; see
    `fgrad.numpy._creation._xla_linspace`). Eager and jit give the same bits."""
    dt, a, b, num, endpoint, want = LINSPACE_BITS[case]
    a, b = np.dtype(dt).type(a), np.dtype(dt).type(b)
    eager = np.asarray(fnp.linspace(a, b, num, endpoint=endpoint))
    staged = np.asarray(fgrad.jit(lambda s, e: fnp.linspace(s, e, num, endpoint=endpoint))(a, b))
    assert eager.dtype == np.dtype(dt) and eager.shape == (num,)
    assert {i: float(eager[i]).hex() for i in want} == want
    assert eager.tobytes() == staged.tobytes()
    jnp = pytest.importorskip("jax.numpy")
    import jax
    jax.config.update("jax_enable_x64", True)
    assert np.asarray(jnp.linspace(a, b, num, endpoint=endpoint)).tobytes() == eager.tobytes()


def test_linspace_random_draws_match_jax():
    """200 seeded draws (float32/float64, 2..3000 points, both endpoint modes): every one bit
    for bit JAX's (the stored cases above hold without JAX)."""
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    jax.config.update("jax_enable_x64", True)
    rng = np.random.default_rng(19)
    for i in range(200):
        dt = (np.float32, np.float64)[i % 2]
        a, b = (rng.standard_normal(2) * 10.0 ** rng.integers(-3, 4)).astype(dt)
        num = int(rng.integers(0, 60)) if i % 4 else int(rng.integers(60, 3000))
        endpoint = bool(rng.integers(0, 2))
        want = np.asarray(jnp.linspace(a, b, num, endpoint=endpoint))
        got = np.asarray(fnp.linspace(a, b, num, endpoint=endpoint))
        assert got.dtype == want.dtype, (dt, a, b, num, endpoint)
        if AVX512 and dt == np.float32:  # XLA's float32 loop is 32 lanes wide there, not 8
            # (fused there, not here: a few ulps of the larger endpoint, where 1 - k r cancels)
            scale = np.spacing(np.maximum(abs(a), abs(b)))
            np.testing.assert_allclose(got, want, rtol=0, atol=4 * scale)
        else:
            assert got.tobytes() == want.tobytes(), (dt, a, b, num, endpoint)


@face
def test_linspace_edge_cases(name, jax, jnp, lax):
    """retstep, num 0/1, integer dtype (floored), array endpoints on several axes (JAX's
    numbers, stored)."""
    out, step = jnp.linspace(0.3, 1.7, 1, retstep=True)
    assert out.tolist() == [0.3] and np.isnan(step)
    out, step = jnp.linspace(0.3, 1.7, 1, endpoint=False, retstep=True)
    assert out.tolist() == [0.3] and float(step) == 1.4
    assert jnp.linspace(0.3, 1.7, 0).shape == (0,)
    assert jnp.linspace(-3.7, 12.2, 9, dtype=jnp.int32).tolist() == [-4, -2, 0, 2, 4, 6, 8, 10, 12]
    out, step = jnp.linspace(0.3, 1.7, 11, endpoint=False, retstep=True)
    assert float(step).hex() == "0x1.04a7904a7904ap-3"
    assert [float(x).hex() for x in (out[1], out[7])] == ["0x1.b586fb586fb58p-2", "0x1.30df6b0df6b0ep+0"]
    a = jnp.asarray([0.25, -1.5, 3.0])
    b = jnp.asarray([[1.0], [2.0]])
    assert jnp.linspace(a, b, 5).shape == (5, 2, 3)
    assert jnp.linspace(a, b, 5, axis=1).shape == (2, 5, 3)
    assert jnp.linspace(a, b, 5, axis=-1).shape == (2, 3, 5)
    np.testing.assert_array_equal(jnp.linspace(a, b, 5, axis=1)[1, :, 1], [-1.5, -0.625, 0.25, 1.125, 2.0])


@face
def test_linspace_gradient_in_its_endpoints(name, jax, jnp, lax):
    """d sum(linspace(a, b, n)) / da = sum(1 - k/div), / db = sum(k/div) (+1 with the
    endpoint): analytic."""
    def total(a, b):
        return jnp.linspace(a, b, 7).sum()

    ga, gb = jax.grad(total, argnums=(0, 1))(0.5, 2.0)
    np.testing.assert_allclose([ga, gb], [3.5, 3.5], rtol=1e-15)
    ga, gb = jax.jit(jax.grad(lambda a, b: jnp.linspace(a, b, 4, endpoint=False).sum(), argnums=(0, 1)))(
        0.5, 2.0)
    np.testing.assert_allclose([ga, gb], [2.5, 1.5], rtol=1e-15)


@face
def test_histogram_edges_and_logspace_bits(name, jax, jnp, lax):
    """Histogram bin edges are ``linspace(lo, hi, bins + 1)`` in JAX: fgrad's own ``lo + k *
    step`` differed in the last bit (with ``range=``); logspace is ``base ** linspace``
    (fgrad used NumPy's logspace)."""
    x = jnp.asarray(np.linspace(0, 1, 50) ** 2)
    edges = jnp.histogram(x, bins=10, range=(0.1, 0.77))[1]
    assert [float(v).hex() for v in edges] == [
        "0x1.999999999999ap-4", "0x1.5604189374bc7p-3", "0x1.df3b645a1cac2p-3", "0x1.34395810624dep-2",
        "0x1.78d4fdf3b645bp-2", "0x1.bd70a3d70a3d8p-2", "0x1.010624dd2f1abp-1", "0x1.2353f7ced9169p-1",
        "0x1.45a1cac083128p-1", "0x1.67ef9db22d0e6p-1", "0x1.8a3d70a3d70a4p-1"]
    want = [float.fromhex(h) for h in (
        "0x1.fec982d5bb8afp+0", "0x1.e6a4761d69f9cp+1", "0x1.cfa396736bce0p+2", "0x1.b9b914367a5e7p+3",
        "0x1.a4d7c6e611008p+4", "0x1.90f3253c017a0p+5")]
    if AVX512 and name == "fgrad":  # NumPy's float64 power there is another SIMD kernel (1 ulp)
        np.testing.assert_array_max_ulp(np.asarray(jnp.logspace(0.3, 1.7, 6)), np.asarray(want), 1)
    else:
        assert [float(v) for v in jnp.logspace(0.3, 1.7, 6)] == want
    assert [float(v).hex() for v in jnp.logspace(jnp.float32(0.3), jnp.float32(1.7), 6)] == [
        "0x1.fec9840000000p+0", "0x1.e6a47a0000000p+1", "0x1.cfa3980000000p+2", "0x1.b9b9140000000p+3",
        "0x1.a4d7c40000000p+4", "0x1.90f3280000000p+5"]


# --- found by tools/jax_fuzz.py ---------------------------------------------------------------

@face
def test_shift_of_a_python_int_under_jit_keeps_the_array_dtype(name, jax, jnp, lax):
    """``jit(left_shift)(2, int32 array)``: the Python int is a weakly typed tracer under
    jit, which fgrad promoted as int64 (the result was int64; eager gave int32)."""
    x = jnp.asarray(np.arange(3, dtype=np.int32))
    for out in (jax.jit(jnp.left_shift)(2, x), jax.jit(jnp.right_shift)(x, 1), jnp.left_shift(2, x)):
        assert out.dtype == np.int32 and not out.weak_type
    assert jax.jit(jnp.left_shift)(2, x).tolist() == [2, 4, 8]
    both = jnp.left_shift(2, 3)
    assert int(both) == 16 and both.dtype == np.int64 and both.weak_type


@face
def test_max_with_initial_over_an_empty_axis(name, jax, jnp, lax):
    """``max``/``min`` with ``initial`` over a zero-size axis is ``initial`` (fgrad raised
    NumPy's "zero-size array" ValueError), so softmax/log_softmax/logsumexp of an empty
    array work, as in JAX."""
    assert jnp.max(jnp.zeros(0), 0, keepdims=True, initial=-np.inf).tolist() == [-np.inf]
    assert jnp.max(jnp.ones((2, 0)), 1, initial=3.0).tolist() == [3.0, 3.0]
    out = jnp.min(jnp.ones((2, 0), np.int32), 1, initial=3)
    assert out.tolist() == [3, 3] and out.dtype == np.int32
    assert jax.jit(lambda x: jnp.max(x, 1, initial=-1.0))(jnp.ones((2, 0))).tolist() == [-1.0, -1.0]
    with pytest.raises(ValueError):
        jnp.max(jnp.zeros(0))
    assert float(jax.scipy.special.logsumexp(jnp.zeros(0))) == -np.inf
    lse = jax.scipy.special.logsumexp(jnp.zeros(0, np.int32))
    assert float(lse) == -np.inf and lse.dtype == np.float32  # (int32 -> float32, JAX)
    for f in (jax.nn.softmax, jax.nn.log_softmax):
        out = f(jnp.zeros((0,)))
        assert out.shape == (0,) and out.dtype == np.float64
    assert jax.nn.softmax(jnp.zeros((2, 0), np.complex64)).shape == (2, 0)
    # integer input keeps JAX's float32 (the -inf initial is for inexact input only); JAX
    # itself warns there (its -inf initial cast to int32), so only fgrad's run is checked
    if name == "fgrad":
        for f in (jax.nn.softmax, jax.nn.log_softmax, jax.jit(jax.nn.softmax)):
            assert f(jnp.asarray([1, 2], np.int32)).dtype == np.float32


def test_nan_to_num_of_a_python_int_is_an_array():
    """``nan_to_num(3)`` returned the Python int itself (an int64 value in 32-bit mode, found
    by tools/jax_fuzz.py); JAX returns a weakly typed Array of the default integer dtype."""
    out = fnp.nan_to_num(3)
    assert isinstance(out, fgrad.Array) and out.dtype == np.int64 and out.weak_type
    out = fnp.nan_to_num(True)
    assert isinstance(out, fgrad.Array) and out.dtype == np.bool_ and not out.weak_type
    fgrad.config.update("jax_enable_x64", False)
    try:
        out = fnp.nan_to_num(3)
        assert out.dtype == np.int32 and out.weak_type
    finally:
        fgrad.config.update("jax_enable_x64", True)
    jnp = pytest.importorskip("jax.numpy")
    assert repr(jnp.nan_to_num(True)) == "Array(True, dtype=bool)"  # (JAX's, stored above)


def test_may_capture_tracer_reads_slots():
    """A rule that reaches a traced value through an object with ``__slots__`` (the PyTorch
    shim's Tensor holds its buffer in a slot) must be traced where it is staged; deferring
    it kept the shim's saved tensors' tracers past their trace (``torch.compile`` of an
    ``autograd.Function`` could not stage its backward)."""
    from fgrad.transforms.custom_call import may_capture_tracer

    class Box:
        __slots__ = ("v",)

        def __init__(self, v):
            self.v = v

    def f(x):
        box = Box(x)
        return may_capture_tracer(lambda p, t: (box, p))

    assert f(1.0) is False
    assert bool(fgrad.jit(f)(1.0)) is True
