"""`fgrad.lax` names added in session 10 (fgrad/_lax_round10.py) against JAX's numbers (stored in
tests/stored/lax_round10_jax.json by tools/make_lax_round10_stored.py; live when JAX is
installed), Python's exact integers, finite differences and loops."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lax_round10_cases import CONV_LOCAL, MULHI_DTYPES, cases

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.test_util import check_grads

STORED = json.loads((pathlib.Path(__file__).parent / "stored" / "lax_round10_jax.json").read_text())


@pytest.fixture(scope="module")
def ours():
    return cases(lax, fnp)


@pytest.mark.parametrize("key", sorted(STORED))
def test_equals_jax(ours, key):
    if key.startswith("mulhi") or key == "permutations":
        assert ours[key] == STORED[key]
    else:
        np.testing.assert_allclose(np.array(ours[key]), np.array(STORED[key]), rtol=1e-12, atol=1e-12)


def test_stored_numbers_are_jaxs():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    live = cases(jax.lax, jax.numpy)
    for key, want in STORED.items():
        if key.startswith("mulhi") or key == "permutations":
            assert live[key] == want, key
        else:
            np.testing.assert_allclose(np.array(live[key]), np.array(want), rtol=1e-12)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(MULHI_DTYPES), st.data())
def test_mulhi_is_the_high_half_of_the_exact_product(dtype, data):
    info = np.iinfo(dtype)
    xs = data.draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=1, max_size=6))
    ys = data.draw(st.lists(st.integers(int(info.min), int(info.max)), min_size=len(xs), max_size=len(xs)))
    got = np.asarray(lax.mulhi(np.array(xs, dtype), np.array(ys, dtype)))
    bits = info.bits
    want = [((a * b) >> bits) for a, b in zip(xs, ys)]  # Python's exact product, floor shift
    want = np.array([w - (1 << bits) if info.min < 0 and w >= (1 << (bits - 1)) else w for w in want])
    np.testing.assert_array_equal(
        got.astype(object), np.array(want, dtype=object).astype(dtype).astype(object)
    )


def test_mulhi_rejects_mixed_or_float_operands():
    with pytest.raises(TypeError, match="mulhi requires two integer arrays"):
        lax.mulhi(np.ones(2, np.int32), np.ones(2, np.int64))
    with pytest.raises(TypeError, match="mulhi requires two integer arrays"):
        lax.mulhi(np.ones(2), np.ones(2))


@pytest.mark.parametrize("k", range(len(CONV_LOCAL)))
def test_conv_local_gradients_and_vmap(k):
    shape, window, strides, padding, ld, rd, dn = CONV_LOCAL[k]
    rng = np.random.default_rng(k)
    lhs = rng.standard_normal(shape)
    probe = lax.conv_general_dilated_patches(
        fnp.asarray(lhs), window, strides, padding, lhs_dilation=ld, rhs_dilation=rd, dimension_numbers=dn
    )
    spatial = iter([probe.shape[dn[2].index(c)] for c in dn[1] if c not in "OI"])
    feat = shape[dn[0].index("C")] * int(np.prod(window))
    rhs = rng.standard_normal([2 if c == "O" else feat if c == "I" else next(spatial) for c in dn[1]])

    def f(a, b):
        return lax.conv_general_dilated_local(
            a, b, strides, padding, window, lhs_dilation=ld, rhs_dilation=rd, dimension_numbers=dn
        )

    check_grads(f, (lhs, rhs), order=2, modes=("fwd", "rev"))
    batched = fgrad.vmap(f, in_axes=(None, 0))(lhs, np.stack([rhs, 2 * rhs]))
    np.testing.assert_allclose(batched[1], 2 * np.asarray(f(lhs, rhs)), rtol=1e-12)
    np.testing.assert_allclose(fgrad.jit(f)(lhs, rhs), f(lhs, rhs), rtol=1e-12)


def test_ragged_dot_general_standard_layout_is_ragged_dot():
    rng = np.random.default_rng(1)
    lhs, rhs, sizes = rng.standard_normal((5, 3)), rng.standard_normal((2, 3, 4)), np.array([2, 3])
    dn = lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [0])
    np.testing.assert_array_equal(
        lax.ragged_dot_general(lhs, rhs, sizes, dn), lax.ragged_dot(lhs, rhs, sizes)
    )
    with pytest.raises(NotImplementedError, match="only ragged_dot's layout"):
        lax.ragged_dot_general(
            lhs, rhs, sizes, lax.RaggedDotDimensionNumbers((([1], [1]), ([], [])), [0], [1])
        )


def test_small_names():
    assert lax.broadcast_like(fnp.float32(1), fnp.zeros((2, 3))).dtype == np.float32
    tok = lax.create_token()
    assert type(lax.after_all(tok, tok)) is type(tok) and repr(tok) == "Token()"
    with pytest.raises(TypeError, match="operands must be tokens"):
        lax.after_all(1.0)
    np.testing.assert_allclose(
        lax.fft(fnp.ones(4, fnp.complex128), lax.FftType.FFT, (4,)), np.fft.fft(np.ones(4))
    )
    draws = np.asarray(lax.rng_uniform(2.0, 3.0, (100,)))
    assert draws.shape == (100,) and (draws >= 2).all() and (draws < 3).all()
    assert lax.dce_sink(fnp.ones(2)) is None
    assert lax.shape_as_value((2, 3)).tolist() == [2, 3]
    assert float(fgrad.jit(lambda x: lax.stage(x) * 2)(1.5)) == 3.0
    assert lax.Tolerance(atol=1e-3).rtol == 0.0 and lax.AccuracyMode.DEFAULT.value == 2
    assert lax.DotAlgorithmPreset.F32_F32_F32.name == "F32_F32_F32"


def test_lax_conj_is_complex_as_jax():
    """Regression: lax.conj of a real array kept the real dtype (JAX: complex, +0 imaginary)."""
    out = lax.conj(np.float32(2.0))
    assert out.dtype == np.complex64 and complex(out) == 2 + 0j and not np.signbit(np.imag(np.asarray(out)))
    assert lax.conj(np.float64(1.0)).dtype == np.complex128
    with pytest.raises(TypeError, match="conj does not accept dtype int32"):
        lax.conj(np.int32(1))
    assert float(fgrad.grad(lambda x: lax.real(lax.conj(x) * 3.0))(2.0)) == 3.0
    _, t = fgrad.jvp(lax.conj, (np.complex128(1 + 2j),), (np.complex128(0.5 - 1j),))
    assert complex(t) == 0.5 + 1j
