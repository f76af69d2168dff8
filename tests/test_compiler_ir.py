"""`jit(f).lower(x).compiler_ir()`: fgrad's optimized program in HLO's text layout, and the
simplifications that make equivalent formulations compile to one program (optax's
numerics_test compares such texts)."""

from __future__ import annotations

import re

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax


def _abs_sq(x):
    return (x.conj() * x).real


def _body(f, x) -> str:
    text = fgrad.jit(f).lower(x).compiler_ir(dialect="hlo").as_hlo_text()
    body = re.search(r"ENTRY.*", text, re.DOTALL).group()
    return re.sub("ROOT.*?=", "ROOT r =", re.sub("ENTRY.*?{", "ENTRY X", body))


@pytest.mark.parametrize("x", [3, 3.0, np.array([4, 5.2]), np.arange(3, dtype=np.int32),
                               1j, 3.0 + 1j, np.array([4 + 1j, 5.2 + 1j])])
@pytest.mark.parametrize("square", [lambda x: x ** 2, lambda x: x * x, fnp.square])
def test_squares_compile_to_one_program_for_reals_only(x, square):
    same = _body(square, x) == _body(_abs_sq, x)
    assert same == (np.asarray(x).dtype.kind != "c")
    np.testing.assert_allclose(np.asarray(fgrad.jit(_abs_sq)(x)), np.abs(np.asarray(x)) ** 2)


def test_conj_and_real_of_a_real_value_are_dropped_exactly():
    x = fnp.asarray([1.5, -2.0])
    body = _body(lambda v: fnp.real(fnp.conj(v)) + 1.0, x)
    assert "conj" not in body and "real" not in body
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda v: fnp.real(fnp.conj(v)))(x)), [1.5, -2.0])
    z = fnp.asarray([1.0 + 2.0j])
    assert "conj" in _body(fnp.conj, z) and "real" in _body(fnp.real, z)


def test_integer_square_by_product_wraps_as_power():
    x = fnp.asarray([2 ** 40, -7, 3 * 2 ** 31], dtype=np.int64)
    np.testing.assert_array_equal(np.asarray(fgrad.jit(lambda v: v ** 2)(x)), np.asarray(x) ** 2)


def test_text_layout():
    text = str(fgrad.jit(lambda x, y: (x * y, fnp.sin(x))).lower(1.0, 2.0).compiler_ir())
    assert text.startswith("HloModule jit__lambda_\n\nENTRY main {")
    assert "a = f64[] parameter(0)" in text and "b = f64[] parameter(1)" in text
    assert re.search(r"ROOT tuple = \(f64\[\], f64\[\]\) tuple\(\w, \w\)", text)
    loop = fgrad.jit(lambda x: lax.fori_loop(0, 3, lambda i, c: c * 2.0, x)).lower(1.0)
    assert "ROOT" in loop.compiler_ir("stablehlo").as_text()
    with pytest.raises(ValueError, match="dialect"):
        fgrad.jit(fnp.sin).lower(1.0).compiler_ir("llvm")
