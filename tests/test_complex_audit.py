"""Complex inputs against JAX: values of `linalg.pinv`/`lstsq` (which used ``V^T`` instead of
``V^H``: silently wrong for complex matrices), and gradients of real functions of complex
inputs through the decompositions (cholesky, eigh, svd, qr, triangular solves), whose
derivative rules raised NotImplementedError for complex input.

fgrad follows JAX's convention for ``grad`` of a real function of a complex input
(``grad(abs)(3+4j) == 0.6-0.8j``, the conjugate of PyTorch's), and the decompositions use
JAX's gauges (eigenvector phases, the imaginary diagonal of ``V^H dA V`` in the SVD,
``diag(R)`` real in QR).  Stored numbers were recorded from jax
0.10.2 (x64); the live checks run when JAX is installed."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.scipy.linalg as fsl
from jax_snippets import snippet_tests

M = np.array([[1.0 + 0.5j, -0.3 + 0.2j], [0.4 - 0.7j, 2.0 + 0.1j]])
H = M @ M.conj().T + np.eye(2)
W = np.array([[1.0, 2.0], [3.0, 4.0]])
E = np.array([[1.0, 0.0], [0.0, 0.0]])


def _cases(xp, linalg):
    return {
        "pinv": (lambda x: xp.real(xp.sum(linalg.pinv(x) * W)), M),
        "cholesky": (lambda x: xp.real(xp.sum(linalg.cholesky(x) * W)), H),
        "eigh_values": (lambda x: xp.sum(linalg.eigvalsh(x) * xp.arange(2)), H),
        "eigh_vectors": (lambda x: xp.sum(xp.abs(linalg.eigh(x)[1]) ** 2 * E), H),
        "svd_values": (lambda x: xp.sum(linalg.svd(x, compute_uv=False) * xp.arange(2)), M),
        "svd_u": (lambda x: xp.sum(xp.abs(linalg.svd(x)[0]) ** 2 * E), M),
        "qr_r": (lambda x: xp.real(xp.sum(linalg.qr(x)[1] * W)) + xp.imag(xp.sum(linalg.qr(x)[1] * W)), M),
        "qr_q": (lambda x: xp.imag(xp.sum(linalg.qr(x)[0] * W)), M),
    }


JAX_GRADS = {
    "pinv": [
        [-1.22992247082177 - 0.34362760777133j, -0.47856421357587 - 0.77676001363194j],
        [-1.7119290563967 + 0.93278069203921j, -1.17793885019774 - 0.65401993970665j],
    ],
    "cholesky": [
        [0.87101147938896 + 0j, 1.17561866598889 + 0.51020074958236j],
        [1.17561866598889 - 0.51020074958236j, 0.91299081504212 + 0j],
    ],
    "eigh_values": [
        [0.12333768587538 + 0j, -0.12172623566223 - 0.30546394986936j],
        [-0.12172623566223 + 0.30546394986936j, 0.87666231412462 + 0j],
    ],
    "eigh_vectors": [
        [-0.04966683105744 + 0j, 0.02106079107968 + 0.05285066440749j],
        [0.02106079107968 - 0.05285066440749j, 0.04966683105744 + 0j],
    ],
    "svd_values": [
        [0.7749656174614 - 0.2515268383996j, 0.0119809123781 + 0.46117384268905j],
        [0.01996352021018 - 0.30495376545992j, 0.16235484591343 + 0.05986024286988j],
    ],
    "svd_u": [
        [0.15647595942162 - 0.12143247009498j, -0.12461339583467 - 0.22705723183701j],
        [-0.02900438259781 + 0.05722855641425j, -0.16489058381894 - 0.01335271600114j],
    ],
    "qr_r": [
        [-1.07578934216777 + 0.58239624068296j, -0.44125900515694 - 0.14583410477436j],
        [-1.92793226393018 + 1.08536498981757j, -4.8333514915368 - 0.65018171576223j],
    ],
    "qr_q": [
        [-1.44997547168022 + 1.50158427582163j, -1.18339461858492 - 0.1448333712298j],
        [0.47183261023701 + 2.87433509356604j, -0.10950815873472 + 1.64968742351988j],
    ],
}


def test_complex_pinv_and_lstsq_values():
    np.testing.assert_allclose(np.asarray(fnp.linalg.pinv(M)), np.linalg.pinv(M), rtol=1e-13)
    rng = np.random.default_rng(0)
    a = rng.normal(size=(4, 2)) + 1j * rng.normal(size=(4, 2))
    b = rng.normal(size=4) + 1j * rng.normal(size=4)
    np.testing.assert_allclose(
        np.asarray(fnp.linalg.lstsq(a, b)[0]), np.linalg.lstsq(a, b, rcond=None)[0], rtol=1e-12
    )


@pytest.mark.parametrize("name", sorted(JAX_GRADS))
def test_complex_decomposition_gradients_match_stored_jax(name):
    f, x = _cases(fnp, fnp.linalg)[name]
    np.testing.assert_allclose(
        np.asarray(fgrad.grad(f)(fnp.asarray(x))), JAX_GRADS[name], rtol=1e-10, atol=1e-12
    )


def test_complex_gradients_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    jnp = jax.numpy
    rng = np.random.default_rng(1)
    for name, (f, x) in _cases(fnp, fnp.linalg).items():
        jf, _ = _cases(jnp, jnp.linalg)[name]
        np.testing.assert_allclose(
            np.asarray(fgrad.grad(f)(fnp.asarray(x))),
            np.asarray(jax.grad(jf)(x)),
            rtol=1e-10,
            atol=1e-12,
            err_msg=name,
        )
        t = rng.normal(size=x.shape) + 1j * rng.normal(size=x.shape)
        _, tf = fgrad.jvp(f, (fnp.asarray(x),), (fnp.asarray(t),))
        _, tj = jax.jvp(jf, (x,), (t,))
        np.testing.assert_allclose(float(tf), float(tj), rtol=1e-10, atol=1e-12, err_msg=name)
    # elementwise and reductions (these already agreed: kept as regression checks)
    z = rng.normal(size=4) + 1j * rng.normal(size=4)
    for f, jf in [
        (lambda v: fnp.sum(fnp.abs(v)), lambda v: jnp.sum(jnp.abs(v))),
        (lambda v: fnp.sum(fnp.angle(v)), lambda v: jnp.sum(jnp.angle(v))),
        (lambda v: fnp.var(v), lambda v: jnp.var(v)),
        (lambda v: fnp.real(fnp.prod(v)), lambda v: jnp.real(jnp.prod(v))),
        (lambda v: fnp.linalg.norm(v), lambda v: jnp.linalg.norm(v)),
        (lambda v: fnp.sum(fnp.abs(fnp.fft.fft(v))), lambda v: jnp.sum(jnp.abs(jnp.fft.fft(v)))),
    ]:
        np.testing.assert_allclose(
            np.asarray(fgrad.grad(f)(fnp.asarray(z))), np.asarray(jax.grad(jf)(z)), rtol=1e-12, atol=1e-14
        )
    # tall/wide/batched svd and qr, complex triangular solves in every transpose mode
    for shape in [(4, 3), (3, 4), (2, 4, 3)]:
        a = rng.normal(size=shape) + 1j * rng.normal(size=shape)
        k = min(shape[-2:])
        for f, jf in [
            (
                lambda v: fnp.sum(fnp.abs(fnp.linalg.svd(v, full_matrices=False)[0]) ** 2 * fnp.arange(k)),
                lambda v: jnp.sum(jnp.abs(jnp.linalg.svd(v, full_matrices=False)[0]) ** 2 * jnp.arange(k)),
            ),
            (
                lambda v: fnp.sum(fnp.imag(fnp.linalg.qr(v)[1])) + fnp.sum(fnp.real(fnp.linalg.qr(v)[0])),
                lambda v: jnp.sum(jnp.imag(jnp.linalg.qr(v)[1])) + jnp.sum(jnp.real(jnp.linalg.qr(v)[0])),
            ),
        ]:
            np.testing.assert_allclose(
                np.asarray(fgrad.grad(f)(fnp.asarray(a))), np.asarray(jax.grad(jf)(a)), rtol=1e-9, atol=1e-11
            )
    low = np.tril(rng.normal(size=(3, 3)) + 1j * rng.normal(size=(3, 3))) + 3 * np.eye(3)
    rhs = rng.normal(size=(3, 2)) + 1j * rng.normal(size=(3, 2))
    for trans in (0, 1, 2):
        g = fgrad.grad(
            lambda a, b: fnp.sum(fnp.abs(fsl.solve_triangular(a, b, lower=True, trans=trans)) ** 2),
            argnums=(0, 1),
        )(low, rhs)
        jg = jax.grad(
            lambda a, b: jnp.sum(
                jnp.abs(jax.scipy.linalg.solve_triangular(a, b, lower=True, trans=trans)) ** 2
            ),
            argnums=(0, 1),
        )(low, rhs)
        for x, y in zip(g, jg, strict=True):
            np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-11, atol=1e-12)


def test_complex_second_order_through_eigh_and_cholesky():
    """Hessian-vector products of real functions of a Hermitian matrix: forward-over-reverse
    agrees with finite differences of the gradient."""
    rng = np.random.default_rng(5)
    d = rng.normal(size=(2, 2)) + 1j * rng.normal(size=(2, 2))
    d = d + d.conj().T
    for f in (
        lambda x: fnp.sum(fnp.linalg.eigvalsh(x) * fnp.arange(2)),
        lambda x: fnp.sum(fnp.real(fnp.linalg.cholesky(x))),
    ):
        g = fgrad.grad(f)
        _, hvp = fgrad.jvp(g, (fnp.asarray(H),), (fnp.asarray(d),))
        eps = 1e-6
        fd = (np.asarray(g(fnp.asarray(H + eps * d))) - np.asarray(g(fnp.asarray(H - eps * d)))) / (2 * eps)
        np.testing.assert_allclose(np.asarray(hvp), fd, rtol=1e-6, atol=1e-7)


# -- the signs of zero parts of complex results (JAX's docstring examples, session 16) ------------
# ``jnp.cos(1j * x)`` (cosh's example) printed ``10.068-0.j`` where JAX prints ``10.068+0.j``:
# fgrad's complex functions were NumPy's (C99's), JAX's are XLA's formulas, which give several
# zero parts the other sign.  fgrad.numpy and fgrad.lax bind these ops with ``xla_zeros=True``
# (`fgrad.ops.elementwise.XLA_ZERO_SIGNS`); the PyTorch face keeps PyTorch's (C99's) signs.

test_jax_complex_zero_signs, test_jax_complex_zero_signs_live = snippet_tests("complex_zeros")
_ihfft_prints, test_jax_ihfft_zero_signs_live = snippet_tests("ihfft_zeros")


@pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
def test_jax_ihfft_zero_signs(x64):
    """``ihfft`` conjugates and then normalizes, as JAX (``4.+0.j``, not ``4.-0.j``).  The
    signs come from the FFT's own zeros: an accelerator's FFT library signs them otherwise
    (docs/gpu_numerics.md), so this runs on the CPU."""
    if fgrad.backends.default_device().platform != "cpu":
        pytest.skip("an accelerator's FFT gives its zero parts other signs (docs/gpu_numerics.md)")
    _ihfft_prints(x64)

_SIGNS = json.loads((Path(__file__).parent / "stored" / "jax_complex_zero_signs.json").read_text())


def _zero_signs(y) -> str:
    """Per element, the real then the imaginary part: '+' +0., '-' -0., 'x' anything else."""
    return "".join("x" if p != 0 else ("-" if np.signbit(p) else "+")
                   for v in np.asarray(y).ravel() for p in (v.real, v.imag))


def _grid() -> np.ndarray:
    vals = _SIGNS["grid"]
    return np.array([complex(a, b) for a in vals for b in vals], np.complex64)


@pytest.mark.parametrize("name", sorted(_SIGNS["signs"]))
def test_complex_zero_signs_are_jaxs_eager_jit_vmap(name):
    """Every zero part of ``jnp.<name>`` on a grid of signed zeros and finite parts has JAX's
    sign (stored from JAX 0.10.2), eagerly, under ``jit`` and under ``vmap``; the nonzero
    parts are NumPy's values."""
    if fgrad.backends.default_device().platform != "cpu":
        pytest.skip("a device's own complex loops sign other zeros than NumPy's, which XLA_ZERO_SIGNS "
                    "corrects (docs/gpu_numerics.md)")
    z = _grid()
    f = getattr(fnp, name)
    want = _SIGNS["signs"][name]
    for how, g in (("eager", f), ("jit", fgrad.jit(f)), ("vmap", fgrad.vmap(f))):
        y = g(fnp.asarray(z))
        assert _zero_signs(y) == want, f"{name} ({how})"
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(np.asarray(f(fnp.asarray(z))), getattr(np, name)(z))


@pytest.mark.parametrize("name", sorted(_SIGNS["signs"]))
def test_complex_zero_signs_live_jax(name):
    jnp = pytest.importorskip("jax.numpy")
    assert _zero_signs(getattr(jnp, name)(jnp.asarray(_grid()))) == _SIGNS["signs"][name]


def test_lax_faces_jaxs_zero_signs_and_torch_keeps_c99s():
    """``lax.cos``/``lax.sin`` bind with JAX's signs; ``torch.cos(3j)`` keeps PyTorch's
    ``10.0677-0.j`` (C99: ``-sin(0) sinh(3)``) and ``torch.fft.ihfft`` its ``-0.j`` DC term."""
    import fgrad.lax as lax
    import fgrad.torch as torch

    assert _zero_signs(lax.cos(fnp.complex64(3j))) == "x+"
    assert _zero_signs(lax.sin(fnp.asarray(np.complex64(complex(-0.0, 1.0))))) == "+x"
    assert _zero_signs(fnp.cos(fnp.complex64(3j))) == "x+"
    t = torch.cos(torch.tensor([3j], dtype=torch.complex64))
    assert _zero_signs(t.numpy()) == "x-"  # PyTorch 2.x: tensor([10.0677-0.j])
    h = torch.fft.ihfft(torch.tensor([1.0, 3.0, 5.0, 7.0]))
    assert _zero_signs(h.numpy()) == "x-xxx-"  # PyTorch: tensor([ 4.-0.j, -1.-1.j, -1.-0.j])


def test_xla_zero_signs_leave_derivatives_and_jaxprs_alone():
    """The zero signs are how the op evaluates: ``make_jaxpr`` prints ``cos`` as JAX does, and
    the derivative of ``cos`` at ``3j`` is ``-sin(3j)``, as without them."""
    z = fnp.asarray(np.complex64(3j))
    text = str(fgrad.make_jaxpr(fnp.cos)(z))
    assert "cos a" in text and "xla_zeros" not in text
    _, t = fgrad.jvp(fnp.cos, (z,), (fnp.asarray(np.complex64(1.0)),))
    np.testing.assert_allclose(np.asarray(t), -np.sin(np.complex64(3j)), rtol=1e-6)
