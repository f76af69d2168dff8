"""``fgrad.image`` against ``jax.image`` (x64): values and gradients of every method, from
stored numbers (``tests/stored/jax_image.json``, recorded by ``image_cases.py``) and live
when JAX is installed; errors."""

from __future__ import annotations

import json

import numpy as np
import pytest

import fgrad
import fgrad.image as fimage
import fgrad.numpy as fnp

from image_cases import CASES, STORED, image, run

STORED_NUMBERS = json.loads(STORED.read_text())


@pytest.mark.parametrize("name", sorted(CASES))
def test_matches_stored_jax_numbers(name):
    got = run(fimage, fgrad.grad, fnp.asarray, name)
    np.testing.assert_allclose(got["out"], STORED_NUMBERS[name]["out"], rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(got["grad"], STORED_NUMBERS[name]["grad"], rtol=1e-12, atol=1e-12)


def test_live_jax_float32():
    jax_image = pytest.importorskip("jax.image")
    import jax.numpy as jnp

    x = image().astype(np.float32)
    for method in ("linear", "cubic", "lanczos3", "area", "nearest"):
        want = np.asarray(jax_image.resize(jnp.asarray(x), (2, 8, 3), method))
        got = np.asarray(fimage.resize(fnp.asarray(x), (2, 8, 3), method))
        assert got.dtype == np.float32
        np.testing.assert_allclose(got, want, rtol=2e-6, atol=2e-6)


def test_nearest_keeps_integers_and_others_promote():
    x = fnp.arange(6, dtype=fnp.int32).reshape(2, 3)
    assert fimage.resize(x, (4, 6), "nearest").dtype == fnp.int32
    assert fnp.issubdtype(fimage.resize(x, (4, 6), "linear").dtype, fnp.floating)


def test_errors():
    x = fnp.zeros((2, 3))
    with pytest.raises(ValueError, match="shape must have length"):
        fimage.resize(x, (4,), "linear")
    with pytest.raises(ValueError, match="Unknown resize method"):
        fimage.resize(x, (4, 4), "bogus")
    with pytest.raises(ValueError, match="Nearest neighbor resampling is not currently supported"):
        fimage.scale_and_translate(x, (4, 4), (0,), [2.0], [0.0], "nearest")
    with pytest.raises(TypeError, match="must be concrete"):
        fgrad.jit(lambda s: fimage.scale_and_translate(x, (4, 3), (0,), s, [0.0], "linear"))(fnp.array([2.0]))


def test_under_vmap_and_jit():
    x = fnp.asarray(image())
    f = lambda im: fimage.resize(im, (7, 4), "cubic")  # noqa: E731
    np.testing.assert_allclose(
        np.asarray(fgrad.vmap(f)(x)),
        np.stack([np.asarray(f(x[i])) for i in range(2)]),
        rtol=1e-12,
        atol=1e-12,
    )
    np.testing.assert_allclose(np.asarray(fgrad.jit(f)(x[0])), np.asarray(f(x[0])), rtol=1e-12, atol=1e-12)
