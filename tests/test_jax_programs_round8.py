"""Twelve JAX programs in the style of JAX's documentation and tutorials (tests/jax_programs_round8/),
run unchanged with ``import jax`` resolved to fgrad (``python -m fgrad.jax_alias``), in JAX's
default 32-bit mode and with ``JAX_ENABLE_X64=1``.  Their printed output is compared with JAX
0.10.2's, stored in ``jax_programs_round8/expected/`` (and with the installed JAX, when there is
one, by the slow tests): the same text (dtypes, shapes, reprs, words) and the same numbers to
a tolerance suited to the precision.  Below them, the regression tests of the defects the
programs found (docs/jax-programs-round8.md).

The default run runs two programs in 32-bit mode; ``pytest tests/test_jax_programs_round8.py -m
slow`` runs all of them in both modes (about two minutes).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax
from fgrad.core.array import ShapedArray
from tests._host_numerics import avx2_environment

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = Path(__file__).resolve().parent / "jax_programs_round8"
EXPECTED = PROGRAMS / "expected"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py"))
FAST = {"random_keys", "sharp_bits"}  # the default run's programs (32-bit mode)

NUMBER = r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|\bnan\b|-?\binf\b"  # not in float32
# relative tolerances: float32 programs agree to a few ulps; training loops and the
# Gaussian-process solves (condition number ~1e4) accumulate those differences
RTOL = {"32": 2e-5, "64": 1e-9}
# (optax_loop prints the residual of a near-exact least-squares fit, ~1e-6, which amplifies
# the weights' last-digit differences)
RTOL_PROGRAM = {("gp_bayes", "32"): 5e-4, ("optax_loop", "32"): 2e-4, ("optax_loop", "64"): 5e-6,
                # float32 adaptive integration: fgrad's loops now compute what its eager ops do
                # (jit == eager; session 12's staging), XLA rounds its divisions by reciprocals
                # and its pow differently, and the step-size control amplifies last-bit
                # differences to ~3e-5 relative in the fitted trajectory
                ("neural_ode", "32"): 1e-4}


# programs (of any round) whose float32 output amplifies the last bits of NumPy's and OpenBLAS's
# vector kernels (chaotic or adaptive float32 iterations): their stored numbers are an AVX2
# host's, so on an AVX-512 host they run with those libraries' AVX2 kernels (fgrad's code is the
# same; docs/numerics.md, "Numbers that depend on the host")
AVX2_KERNELS = frozenset({("poincare_embeddings", "32"), ("lorenz_lyapunov", "32"), ("svgd_gmm", "32")})


def _run(name: str, bits: str, alias: bool, programs: Path = PROGRAMS) -> str:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           # the CPU backend: the programs use bfloat16, which CuPy (and the fake device) lack
           "JAX_PLATFORMS": "cpu", "FGRAD_BACKEND": "cpu",
           "JAX_ENABLE_X64": "1" if bits == "64" else "0", "OMP_NUM_THREADS": "1"}
    if (name, bits) in AVX2_KERNELS:
        env.update(avx2_environment())
    path = str(programs / f"{name}.py")
    args = ["-m", "fgrad.jax_alias", path] if alias else [path]
    done = subprocess.run([sys.executable, *args], capture_output=True, text=True, env=env,
                          timeout=600, cwd=ROOT, stdin=subprocess.DEVNULL)
    assert done.returncode == 0, f"{name} ({bits}-bit) failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


def _words(text: str) -> str:
    return re.sub(r"\s+", "", re.sub(NUMBER, "#", text))


def text_differences(got: str, want: str) -> list[str]:
    """The first line whose text differs once every number is ``#`` and white space is
    removed (the check of everything but the numbers' values), or [].

    >>> text_differences("a = 1\\nb = 2", "a = 1.5\\nc = 2")
    ["text differs at line 2: 'b = 2' != 'c = 2'"]
    """
    if _words(got) == _words(want):
        return []
    for i, (g, w) in enumerate(zip(got.splitlines(), want.splitlines()), 1):
        if _words(g) != _words(w):
            return [f"text differs at line {i}: {g!r} != {w!r}"]
    return ["text differs (line structure)"]


def same_output(got: str, want: str, rtol: float) -> list[str]:
    """The differences between two program outputs: the text with every number replaced by
    ``#`` and all white space removed (array reprs wrap differently when a digit differs)
    must be equal, and the numbers equal within ``rtol`` (NaN equals NaN, -0.0 equals 0.0).

    >>> same_output("x = [1.0  2.5]", "x = [1. 2.5000001]", 1e-6)
    []
    >>> same_output("Array(1, dtype=int32)", "Array(1, dtype=int64)", 1e-6)[0][:24]
    'text differs at line 1: '
    """
    def close(a: str, b: str) -> bool:
        x, y = float(a), float(b)
        return x == y or (np.isnan(x) and np.isnan(y)) or abs(x - y) <= rtol * abs(y) + 1e-30

    return output_differences(got, want, close)


def output_differences(got: str, want: str, close) -> list[str]:
    """`text_differences`, else the pairs of numbers (as printed) that ``close(a, b)`` rejects."""
    text = text_differences(got, want)
    if text:
        return text
    pairs = zip(re.findall(NUMBER, got), re.findall(NUMBER, want), strict=True)
    return [f"{a} != {b}" for a, b in pairs if not close(a, b)]


def _check(name: str, bits: str, got: str, expected: Path = EXPECTED,
           rtol_program: dict = RTOL_PROGRAM) -> None:
    want = (expected / f"{name}.x{bits}.txt").read_text()
    bad = same_output(got, want, rtol_program.get((name, bits), RTOL[bits]))
    assert not bad, f"{name} ({bits}-bit) differs from JAX 0.10.2: {bad[:5]}\n--- got:\n{got}"


def program_tests(programs: Path, names: list, fast: set, rtol_program: dict, min_count: int) -> tuple:
    """The four tests of a round of programs in ``programs`` (outputs in its ``expected/``):
    the ``fast`` programs in 32-bit mode, all in both modes (slow), the stored outputs
    against live JAX (slow), and the stored files' presence.  A round's test module assigns
    them to module-level names for pytest to collect."""
    expected = programs / "expected"

    def check(name, bits, alias):
        _check(name, bits, _run(name, bits, alias, programs), expected, rtol_program)

    @pytest.mark.cpu_program
    @pytest.mark.parametrize("name", sorted(fast))
    def test_program_prints_what_jax_prints_32bit(name):
        check(name, "32", alias=True)

    @pytest.mark.cpu_program
    @pytest.mark.slow
    @pytest.mark.parametrize("bits", ["32", "64"])
    @pytest.mark.parametrize("name", names)
    def test_program_prints_what_jax_prints(name, bits):
        check(name, bits, alias=True)

    @pytest.mark.cpu_program
    @pytest.mark.slow
    @pytest.mark.parametrize("bits", ["32", "64"])
    @pytest.mark.parametrize("name", names)
    def test_stored_output_is_live_jax(name, bits):
        pytest.importorskip("jax")
        check(name, bits, alias=False)

    def test_every_program_has_stored_outputs_and_no_fgrad_import():
        assert len(names) >= min_count
        for name in names:
            assert (expected / f"{name}.x32.txt").exists() and (expected / f"{name}.x64.txt").exists()
            assert "fgrad" not in (programs / f"{name}.py").read_text()

    return (test_program_prints_what_jax_prints_32bit, test_program_prints_what_jax_prints,
            test_stored_output_is_live_jax, test_every_program_has_stored_outputs_and_no_fgrad_import)


(test_program_prints_what_jax_prints_32bit, test_program_prints_what_jax_prints,
 test_stored_output_is_live_jax, test_every_program_has_stored_outputs_and_no_fgrad_import) = program_tests(
    PROGRAMS, NAMES, FAST, RTOL_PROGRAM, 8)


# ---- regression tests of what the programs found ----------------------------------------------


@pytest.fixture
def x32():
    with fgrad.enable_x64(False):
        yield


def _weak(x) -> bool:
    return bool(x.weak_type)


def test_derivatives_of_weak_inputs_are_weak():
    """JAX: a derivative has its primal's abstract value, weak type included
    (``grad(f)(1.0)`` prints ``weak_type=True``); fgrad returned strong arrays."""
    assert _weak(fgrad.grad(lambda p: p * 2.0)(1.0))
    assert _weak(fgrad.grad(lambda p: p["a"] * 2.0)({"a": fnp.asarray(0.0)})["a"])
    assert not _weak(fgrad.grad(lambda p: p * 2.0)(fnp.float64(1.0)))  # a strong input
    value, g = fgrad.value_and_grad(lambda p: p * 2.0)(1.0)
    assert _weak(value) and _weak(g)
    primal, tangent = fgrad.jvp(lambda p: p * 2.0, (1.0,), (1.0,))
    assert _weak(primal) and _weak(tangent)
    assert all(_weak(c) for c in fgrad.vjp(fnp.multiply, 2.0, 3.0)[1](1.0))
    assert _weak(fgrad.linearize(fnp.sin, 0.0)[1](2.0))
    assert _weak(fgrad.hessian(lambda p: p ** 3)(1.0)) and _weak(fgrad.jacfwd(lambda p: p ** 3)(1.0))
    assert _weak(fgrad.jacrev(lambda p: p ** 3)(1.0))
    # values unchanged, and a weak gradient still takes a float32 array's dtype
    assert float(fgrad.grad(lambda p: fnp.sin(p))(0.0)) == 1.0
    w = fgrad.grad(lambda p: p * 2.0)(1.0)
    assert (w * fnp.ones(2, fnp.float32)).dtype == np.float32


def test_derivatives_of_weak_inputs_match_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    cases = [(lambda g, n: g.grad(lambda p: p * 2.0)(1.0)),
             (lambda g, n: g.grad(lambda p: n.sin(p))(n.asarray(0.5))),
             (lambda g, n: g.jacfwd(lambda p: p ** 3)(1.0)),
             (lambda g, n: g.grad(lambda p: p * n.ones(2, n.float16).sum())(1.0))]
    with jax.enable_x64(True):
        for case in cases:
            want, got = case(jax, jnp), case(fgrad, fnp)
            assert (got.dtype, got.weak_type) == (want.dtype, want.weak_type)
            np.testing.assert_allclose(np.asarray(got), np.asarray(want))


def test_histogram_counts_are_floats_as_in_jax():
    """JAX's histogram counts in the inexact dtype of the data (NumPy's in integers);
    histogramdd/histogram2d count in the default int without weights."""
    counts, edges = fnp.histogram(fnp.asarray([0.0, 0.5, 1.0, 3.0]), bins=3)
    assert counts.dtype == np.float64 and counts.tolist() == [2.0, 1.0, 1.0]
    assert fnp.histogram(fnp.ones(4, fnp.int32), bins=2)[0].dtype == np.float32
    assert fnp.histogram(fnp.ones(4, fnp.float16), bins=2)[0].dtype == np.float16
    assert fnp.histogram(fnp.ones(4), bins=2, weights=fnp.ones(4, fnp.int32))[0].dtype == np.float64
    h = fnp.histogramdd(fnp.ones((4, 2)), bins=2)[0]
    assert h.dtype == np.int64 and int(h.sum()) == 4
    assert fnp.histogramdd(fnp.ones((4, 2)), bins=2, weights=fnp.ones(4))[0].dtype == np.float64
    assert fnp.histogram2d(fnp.ones(4), fnp.ones(4), bins=2, density=True)[0].dtype == np.float64


def test_histogram_counts_32bit(x32):
    assert fnp.histogram(fnp.arange(10.0), bins=3)[0].dtype == np.float32
    assert fnp.histogram2d(fnp.ones(4), fnp.ones(4), bins=2)[0].dtype == np.int32


def test_histogram_dtypes_match_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    calls = [lambda n: n.histogram(n.arange(10), bins=3)[0],
             lambda n: n.histogram(n.ones(4, n.float16), bins=2)[1],
             lambda n: n.histogram(n.arange(6.0), bins=2, weights=n.arange(6))[0],
             lambda n: n.histogram2d(n.arange(4.0), n.arange(4.0), bins=2)[0],
             lambda n: n.histogramdd(n.ones((3, 2)), bins=2, weights=n.ones(3))[0]]
    for x64 in (False, True):
        with jax.enable_x64(x64), fgrad.enable_x64(x64):
            for call in calls:
                want, got = call(jnp), call(fnp)
                assert got.dtype == want.dtype, (x64, got, want)
                np.testing.assert_allclose(np.asarray(got), np.asarray(want))


def test_random_bits_default_dtype_is_the_canonical_uint():
    """JAX: ``bits(key)`` is uint64 with 64-bit types on (fgrad gave uint32 always)."""
    b = fgrad.random.bits(fgrad.random.key(0), (2,))
    assert b.dtype == np.uint64
    assert b.tolist() == [7719171245655871230, 3989946895414531357]  # JAX 0.10.2
    with fgrad.enable_x64(False):
        assert fgrad.random.bits(fgrad.random.key(0), (2,)).dtype == np.uint32


def test_bfloat16_uniform_and_normal_streams_are_jax_streams():
    """JAX draws 8 random bits for a type with fewer than 8 mantissa bits (bfloat16);
    fgrad drew 16, so every bfloat16 sample differed from JAX's."""
    with fgrad.default_device("cpu"):  # CuPy (and the fake device) have no bfloat16
        u = fgrad.random.uniform(fgrad.random.PRNGKey(1), (4,), fnp.bfloat16)
        z = fgrad.random.normal(fgrad.random.PRNGKey(1), (4,), fnp.bfloat16)
    # JAX 0.10.2
    assert np.asarray(u, np.float32).tolist() == [0.7109375, 0.2421875, 0.4765625, 0.9375]
    assert np.asarray(z, np.float32).tolist() == [0.5625, -0.69140625, -0.053955078125, 1.546875]


def test_float32_normal_and_erf_inv_follow_xla():
    """JAX's float32 erf_inv is Giles' single-precision polynomial (fused multiply-adds) and
    ``random.normal`` is ``sqrt(2) * erf_inv(u)``; fgrad's correctly rounded erf_inv made 59%
    of float32 normal samples differ from JAX's by an ulp (now about 1%)."""
    with fgrad.enable_x64(False):
        z = np.asarray(fgrad.random.normal(fgrad.random.PRNGKey(42), (3,)))
    assert z.tolist() == [-0.02830461598932743, 0.4671318531036377, 0.2957029640674591]  # JAX
    x = fnp.asarray(np.array([-0.9, -0.5, 0.1, 0.7, 0.999], np.float32))
    want = np.array([-1.163087010383606, -0.4769362807273865, 0.08885598927736282, 0.7328690886497498,
                     2.3267576694488525], np.float32)
    np.testing.assert_array_equal(np.asarray(lax.erf_inv(x)), want)  # JAX 0.10.2's bits
    edges = np.asarray(lax.erf_inv(fnp.asarray(np.array([-1.0, 1.0, 1.5, 0.0], np.float32))))
    assert edges[0] == -np.inf and edges[1] == np.inf and np.isnan(edges[2]) and edges[3] == 0


def test_float32_normal_matches_live_jax_in_most_samples():
    jax = pytest.importorskip("jax")
    want = np.asarray(jax.random.normal(jax.random.PRNGKey(0), (20000,), np.float32))
    with fgrad.enable_x64(False):
        got = np.asarray(fgrad.random.normal(fgrad.random.PRNGKey(0), (20000,)))
    assert np.mean(got != want) < 0.02
    np.testing.assert_allclose(got, want, rtol=3e-7)


def test_integer_meeting_float_promotes_to_the_float_as_in_jax():
    """JAX's lattice puts every integer below every float; NumPy's table widened int64 *
    float32 to float64 and int16 + float16 to float32."""
    assert (fnp.arange(3) * fnp.ones(3, fnp.float32)).dtype == np.float32
    assert (fnp.ones(2, fnp.int32) + fnp.ones(2, fnp.float16)).dtype == np.float16
    assert (fnp.ones(2, fnp.int64) < fnp.ones(2, fnp.float32)).dtype == np.bool_
    assert (fnp.ones(2, fnp.int32) * fnp.ones(2, fnp.complex64)).dtype == np.complex64
    assert fnp.promote_types(np.int64, np.float32) == np.float32
    assert fnp.promote_types(np.int8, np.float16) == np.float16
    assert fnp.promote_types(np.uint64, np.int8) == np.float64  # unchanged (NumPy = JAX)
    assert (fnp.ones(2, fnp.uint8) + fnp.ones(2, fnp.int8)).dtype == np.int16  # unchanged
    assert fgrad.grad(lambda x: (x * fnp.arange(3)).sum())(fnp.float32(1.0)).dtype == np.float32
    with fgrad.enable_x64(False):
        assert fnp.promote_types(np.uint32, np.int32) == np.int32
        assert fnp.promote_types(np.int16, np.uint32) == np.int32


def test_promotion_matches_live_jax():
    jax = pytest.importorskip("jax")
    jnp = pytest.importorskip("jax.numpy")
    dts = ["bool", "uint8", "int8", "int16", "uint32", "int32", "int64", "float16", "float32",
           "float64", "complex64"]
    for x64 in (False, True):
        with jax.enable_x64(x64), fgrad.enable_x64(x64), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for a in dts:
                for b in dts:
                    want = (jnp.ones(2, a) + jnp.ones(2, b)).dtype
                    assert (fnp.ones(2, a) + fnp.ones(2, b)).dtype == want, (x64, a, b)
                    assert fnp.promote_types(a, b) == jnp.promote_types(a, b), (x64, a, b)


def test_reductions_of_lists_raise_jax_type_error():
    """JAX's "Sharp bits": ``jnp.sum([1, 2, 3])`` raises TypeError; fgrad crashed with an
    AttributeError."""
    for f in (fnp.sum, fnp.mean, fnp.prod, fnp.max, fnp.min, fnp.var, fnp.std):
        with pytest.raises(TypeError, match="requires ndarray or scalar arguments"):
            f([1.0, 2.0])
    assert float(fnp.sum(fnp.asarray([1.0, 2.0]))) == 3.0 and float(fnp.sum(2.0)) == 2.0


def test_lax_explicit_64bit_requests_warn_in_32bit_mode_and_fgrad_itself_is_quiet(x32):
    """JAX warns when the user asks ``lax.argmax``/``convert_element_type``/
    ``bitcast_convert_type`` for a 64-bit type while they are off; fgrad's own calls stay
    silent."""
    x = fnp.arange(6.0).reshape(2, 3)
    for call in (lambda: lax.argmax(x, 0, np.int64), lambda: lax.argmin(x, 1, np.int64),
                 lambda: lax.convert_element_type(x, np.float64),
                 lambda: lax.bitcast_convert_type(fnp.ones(2, fnp.float32), np.int64)):
        with pytest.warns(UserWarning, match="Explicitly requested dtype"):
            out = call()
        assert out.dtype.itemsize == 4
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert lax.argmax(x, 0, np.int32).dtype == np.int32
        assert lax.argmax(x, 0).dtype == np.int32  # the default index type
        fnp.argmax(x), fnp.argsort(x), fnp.histogram(x), fgrad.nn.one_hot(fnp.arange(3), 3)
        fgrad.random.randint(fgrad.random.PRNGKey(0), (2,), 0, 5), fnp.unique(fnp.arange(3))
        fgrad.random.normal(fgrad.random.PRNGKey(0), (2,)), fnp.bincount(fnp.arange(3))


def test_scan_stacked_outputs_keep_the_weak_type():
    """JAX: ``ys`` stacked from weakly typed body outputs are weak (fgrad dropped it)."""
    carry, ys = lax.scan(lambda c, _: (c * 2, c), 1, None, length=3)
    assert _weak(carry) and _weak(ys) and ys.tolist() == [1, 2, 4]
    _, ys = fgrad.jit(lambda: lax.scan(lambda c, _: (c * 2, c), 1, None, length=3))()
    assert _weak(ys)
    _, ys = lax.scan(lambda c, x: (c, x * 1.5), 0.0, fnp.arange(3.0))
    assert not _weak(ys)  # computed from the strongly typed xs: strong, as in JAX


def test_shaped_array_repr_is_jax_repr():
    avals = fgrad.make_jaxpr(lambda x: fnp.sum(x * 2))(fnp.ones(3)).out_avals
    assert repr(avals) == "[ShapedArray(float64[])]"
    assert str(avals[0]) == "float64[]"
    assert repr(ShapedArray((2,), np.float32, True)) == "ShapedArray(float32[2], weak_type=True)"
