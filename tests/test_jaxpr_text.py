"""Printed jaxprs are JAX 0.10.2's text: a corpus of functions from JAX's documentation
(tests/jaxpr_text_cases.py) printed with 64-bit types on and off, against the text JAX
printed for them (tests/jaxpr_text_expected.json, made by ``python tests/jaxpr_text_cases.py``;
compared live when jax is installed)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core import pretty as pp
from fgrad.core.ir import aval_text, short_dtype

from jaxpr_text_cases import KNOWN_DIFFERENT, cases, jax_texts_in_subprocess

EXPECTED = json.loads(pathlib.Path(__file__).with_name("jaxpr_text_expected.json").read_text())
MODES = {"x64": True, "x32": False}
NAMES = sorted(EXPECTED["x64"])


def _fgrad_text(name: str, x64: bool) -> str:
    with fgrad.enable_x64(x64):
        fn, args = cases(fgrad, fnp, lax)[name]
        return str(fgrad.make_jaxpr(fn)(*args))


def test_corpus_is_large_enough():
    assert len([n for n in NAMES if n not in KNOWN_DIFFERENT]) >= 40
    assert set(KNOWN_DIFFERENT) <= set(NAMES)


@pytest.mark.parametrize("mode", sorted(MODES))
@pytest.mark.parametrize("name", [n for n in NAMES if n not in KNOWN_DIFFERENT])
def test_prints_as_jax(name, mode):
    assert _fgrad_text(name, MODES[mode]) == EXPECTED[mode][name]


@pytest.mark.parametrize("name", sorted(KNOWN_DIFFERENT))
def test_known_differences_still_differ(name):
    """A case listed as different that starts matching must move to the matching ones."""
    assert _fgrad_text(name, True) != EXPECTED["x64"][name], f"{name} now prints as JAX"


@pytest.mark.slow
@pytest.mark.parametrize("mode", sorted(MODES))
def test_expected_texts_are_jaxs(mode):
    pytest.importorskip("jax")
    assert jax_texts_in_subprocess(MODES[mode]) == EXPECTED[mode]


def test_issue_example_text():
    """The example of the issue, spelled out (JAX 0.10.2, x64 on)."""
    def f(x, y):
        return fnp.sum(fnp.dot(fnp.sin(x) * y, y.T)) + 2.0
    x = fnp.ones((3, 4))
    assert str(fgrad.make_jaxpr(f)(x, x)) == """\
{ lambda ; a:f64[3,4] b:f64[3,4]. let
    c:f64[3,4] = sin a
    d:f64[3,4] = mul c b
    e:f64[4,3] = transpose[permutation=(1, 0)] b
    f:f64[3,3] = dot_general[
      dimension_numbers=(([1], [0]), ([], []))
      preferred_element_type=float64
    ] d e
    g:f64[] = reduce_sum[axes=(0, 1) out_sharding=None] f
    h:f64[] = add g 2.0:f64[]
  in (h,) }"""


def test_closed_jaxpr_views():
    cj = fgrad.make_jaxpr(lambda x: fnp.sin(x) * 2.0)(fnp.zeros(3))
    assert cj.pretty_print() == str(cj) == str(cj.jaxpr) == cj.jaxpr.pretty_print()
    assert [e.primitive.name for e in cj.eqns] == ["sin", "mul"]
    # JAX 0.10.2: .pretty_print(width=20)
    assert cj.pretty_print(width=20) == ("{ lambda ; a:f64[3]. let\n    b:f64[3] = sin a\n"
                                         "    c:f64[3] = mul b\n      2.0:f64[]\n  in (c,) }")


def test_constants_before_semicolon_and_dropped_results():
    c = fnp.arange(3.0)
    text = str(fgrad.make_jaxpr(lambda x: (fnp.cos(x), x + c)[1])(c))
    # JAX 0.10.2 (a program that fits in 80 columns is printed on one line)
    assert text == "{ lambda a:f64[3]; b:f64[3]. let _:f64[3] = cos b; c:f64[3] = add b a in (c,) }"


def test_variable_names_go_past_z():
    def f(x):
        for _ in range(30):
            x = fnp.sin(x)
        return x
    text = str(fgrad.make_jaxpr(f)(1.0))
    assert "    ba:f64[] = sin z\n" in text and text.endswith("    be:f64[] = sin bd\n  in (be,) }")


def test_name_stack_annotations():
    def f(x):
        with fgrad.named_scope("block"):
            y = fnp.sin(x) * 2.0
        return fnp.tanh(y + 1.0)
    text = fgrad.make_jaxpr(f)(fnp.ones(4)).pretty_print(name_stack=True)
    assert text == ("{ lambda ; a:f64[4]. let\n    b:f64[4] = sin a           # [block]\n"
                    "    c:f64[4] = mul b 2.0:f64[] # [block]\n    d:f64[4] = add c 1.0:f64[] # []\n"
                    "    e:f64[4] = tanh d          # []\n  in (e,) }")


def test_short_dtype_names():
    names = {d: short_dtype(np.dtype(d)) for d in
             ["float16", "float32", "float64", "int8", "int32", "int64", "uint8", "uint32",
              "bool", "complex64", "complex128"]}
    assert names == {"float16": "f16", "float32": "f32", "float64": "f64", "int8": "i8",
                     "int32": "i32", "int64": "i64", "uint8": "u8", "uint32": "u32",
                     "bool": "bool", "complex64": "c64", "complex128": "c128"}
    import ml_dtypes
    assert short_dtype(np.dtype(ml_dtypes.bfloat16)) == "bf16"
    assert aval_text(fgrad.ShapeDtypeStruct((2, 3), np.float32)) == "f32[2,3]"


def test_layout_engine_breaks_groups_that_do_not_fit():
    doc = pp.group(pp.concat([pp.text("f["), pp.nest(2, pp.concat(
        [pp.brk(""), pp.text("a=1"), pp.brk(), pp.text("b=2")])), pp.brk(""), pp.text("]")]))
    assert doc.format(80) == "f[a=1 b=2]"
    assert doc.format(9) == "f[\n  a=1\n  b=2\n]"
