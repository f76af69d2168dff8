"""bfloat16 (ml_dtypes) and float16 in the functional face: every case of
`narrow_float_cases` against JAX's results (stored bit patterns; live JAX when installed),
JAX's promotion lattice for bfloat16, finfo, random, transforms."""

from __future__ import annotations

import json
import pathlib

import ml_dtypes
import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.core import narrow_floats
from narrow_float_cases import CASES, inputs

STORED = json.loads((pathlib.Path(__file__).parent / "stored" / "narrow_floats_jax.json").read_text())
BF16 = np.dtype(ml_dtypes.bfloat16)
# cases whose result JAX rounds more than once (or in another order): compared to 2 ulps
ULPS = {"var_long": 2, "grad_tanh_sum": 4, "sigmoid": 1, "jit_chain": 1, "conv": 1, "grad_matmul": 1}


@pytest.fixture(autouse=True)
def _bfloat16_on_the_cpu(request):
    """bfloat16 arrays live on the CPU (CuPy, and the fake device that stands in for it, have
    no bfloat16); float16 cases run on the configured default device."""
    params = getattr(getattr(request.node, "callspec", None), "params", {})
    if params.get("dtype") == "float16":
        yield
        return
    with fgrad.default_device("cpu"):
        yield


def _from_bits(entry) -> np.ndarray:
    dt = BF16 if entry["dtype"] == "bfloat16" else np.dtype(entry["dtype"])
    raw = np.asarray(entry["bits"], np.uint16 if dt.itemsize == 2 else np.uint32)
    return raw.view(dt).reshape(entry["shape"])


def _ulp_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Distance in units in the last place of 16-bit floats (sign-magnitude order)."""
    ia, ib = (np.asarray(v).view(np.uint16).astype(np.int64) for v in (a, b))
    ia = np.where(ia & 0x8000, 0x8000 - ia, ia)
    ib = np.where(ib & 0x8000, 0x8000 - ib, ib)
    return np.abs(ia - ib)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name", sorted(CASES))
def test_case_matches_jax_stored(name, dtype):
    want = _from_bits(STORED[f"{name}/{dtype}"])
    got = np.asarray(CASES[name](fnp, fgrad, *[fnp.asarray(a) for a in inputs(name, dtype)]))
    assert got.dtype == want.dtype, (name, got.dtype, want.dtype)
    assert got.shape == want.shape
    if want.dtype.itemsize == 2:
        assert int(_ulp_distance(got, want).max()) <= ULPS.get(name, 0), (got, want)
    else:
        np.testing.assert_allclose(got, want, rtol=1e-6)


@pytest.mark.parametrize("dtype", ["bfloat16", "float16"])
@pytest.mark.parametrize("name", ["sum_long", "matmul_long", "mean_long", "conv", "add", "exp"])
def test_case_matches_live_jax(name, dtype):
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    args = inputs(name, dtype)
    want = np.asarray(CASES[name](jnp, jax, *[jnp.asarray(a) for a in args]))
    got = np.asarray(CASES[name](fnp, fgrad, *[fnp.asarray(a) for a in args]))
    assert got.dtype == want.dtype
    assert int(_ulp_distance(got, want).max()) <= ULPS.get(name, 0)


def test_sum_accumulates_in_float32():
    # 1000 x 0.01 accumulated in bfloat16 stalls at 4 (NumPy's own bfloat16 sum); JAX gives 10
    x = fnp.full(1000, 0.01, fnp.bfloat16)
    assert float(np.asarray(x._buf).sum()) == 4.0  # the naive answer this guards against
    assert float(fnp.sum(x)) == 10.0
    assert float(fgrad.jit(fnp.sum)(fnp.full(1000, 0.01, fnp.float16))) == pytest.approx(10.0, abs=0.01)


def test_matmul_keeps_bfloat16():
    a = fnp.ones((2, 3), fnp.bfloat16)
    assert (a @ a.T).dtype == BF16  # NumPy's ml_dtypes matmul would give float32
    assert fgrad.jit(lambda u: u @ u.T)(a).dtype == BF16


@pytest.mark.parametrize("pair", sorted(k for k in STORED["promote_types"] if "bfloat16" in k))
def test_promote_types_bfloat16_like_jax(pair):
    a, b = pair.split(",")
    assert str(fnp.promote_types(a if a != "bfloat16" else BF16, b if b != "bfloat16" else BF16)) == \
        STORED["promote_types"][pair]


@pytest.mark.parametrize("other,expect", [(np.int32, BF16), (np.int64, BF16), (np.uint8, BF16),
                                          (np.float16, np.dtype(np.float32)),
                                          (np.float32, np.dtype(np.float32)),
                                          (np.float64, np.dtype(np.float64))])
def test_mixed_operands_promote(other, expect):
    x = fnp.ones(3, fnp.bfloat16)
    y = fnp.ones(3, other)
    for f in (lambda a, b: a + b, lambda a, b: b * a, fgrad.jit(lambda a, b: a - b)):
        assert f(x, y).dtype == expect


def test_python_scalars_are_weak():
    x = fnp.ones(3, fnp.bfloat16)
    assert (x + 1.5).dtype == BF16 and (2 * x).dtype == BF16 and (x / 3.0).dtype == BF16
    assert fgrad.jit(lambda v: v * 0.1)(x).dtype == BF16
    assert fnp.result_type(x, 1.0) == BF16
    assert (x + 1j).dtype == np.complex64


def test_finfo_and_issubdtype():
    fi = fnp.finfo(fnp.bfloat16)
    assert float(fi.eps) == 2.0 ** -7 and float(fi.max) == pytest.approx(3.3895e38, rel=1e-4)
    assert float(fnp.finfo(fnp.float16).eps) == 2.0 ** -10
    assert fnp.issubdtype(fnp.bfloat16, fnp.floating) and not fnp.issubdtype(fnp.bfloat16, fnp.integer)
    assert fnp.isdtype(BF16, "real floating") and fnp.isdtype(BF16, "numeric")


def test_grad_needs_no_int_conversion_and_keeps_dtype():
    x = fnp.asarray([0.5, -1.0, 2.0], fnp.bfloat16)
    g = fgrad.grad(lambda v: fnp.sum(v * v))(x)
    assert g.dtype == BF16 and np.asarray(g).astype(np.float32).tolist() == [1.0, -2.0, 4.0]
    t = fgrad.jvp(lambda v: fnp.exp(v), (x,), (fnp.ones(3, fnp.bfloat16),))[1]
    assert t.dtype == BF16
    v = fgrad.vmap(lambda r: fnp.sum(r * 2.0))(fnp.ones((4, 3), fnp.bfloat16))
    assert v.dtype == BF16 and np.asarray(v).astype(float).tolist() == [6.0] * 4


def test_astype_roundtrip_and_grad_through_cast():
    x = fnp.asarray([1.0, 2.0, 3.0])
    f = lambda v: fnp.sum(v.astype(fnp.bfloat16).astype(fnp.float32) * 2.0)  # noqa: E731
    assert fgrad.grad(f)(x).dtype == np.float64
    np.testing.assert_array_equal(np.asarray(fgrad.grad(f)(x)), [2.0, 2.0, 2.0])
    y = fnp.asarray([1.00390625], fnp.float32).astype(fnp.bfloat16)  # 1 + 2^-8 rounds to even: 1
    assert float(y[0]) == 1.0


def test_random_normal_bfloat16():
    key = fgrad.random.PRNGKey(0)
    z = fgrad.random.normal(key, (2000,), fnp.bfloat16)
    assert z.dtype == BF16
    zf = np.asarray(z).astype(np.float64)
    assert abs(zf.mean()) < 0.1 and abs(zf.std() - 1) < 0.1
    u = fgrad.random.uniform(key, (2000,), fnp.bfloat16)
    uf = np.asarray(u).astype(np.float64)
    assert u.dtype == BF16 and uf.min() >= 0 and uf.max() < 1


def test_dtype_kind_helper():
    assert narrow_floats.dtype_kind(BF16) == "f" and BF16.kind == "V"
    assert narrow_floats.is_narrow(BF16) and not narrow_floats.is_narrow(np.dtype(np.float32))
