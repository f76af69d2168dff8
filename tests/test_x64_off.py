"""64-bit types off (``jax_enable_x64=False``, JAX's default): fgrad gives JAX's dtypes and
numbers, in eager code and under every transform, and switches back cleanly.

The cases (`x64_off_cases.CASES`) are expressions over ``jax``/``jnp``/``lax``/``random``/``np``
evaluated with those names bound to fgrad; `x64_off_cases.JAX_X32` holds JAX 0.10.2's results
(regenerate with ``python tests/test_x64_off.py --store``), and the live test compares with the
installed JAX.
"""

from __future__ import annotations

import os
import subprocess
import sys
import warnings

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad import lax, random
from fgrad.testing.device_numerics import rounds_like_numpy

from x64_off_cases import CASES, JAX_X32

# fgrad's float32 kernels (NumPy's) and XLA's may differ in the last place: exp, log1p inside
# erf_inv (random.normal), LAPACK vs XLA's solvers, sin (of int32 too: computed in float32, as JAX)
_ULPS = {"exp_weak": 1, "solve": 1, "eigh": 1, "round": 1, "logsumexp": 1, "softmax": 1, "sin_int": 1,
         "grad_int_input_float": 1, "random_gumbel": 1, "random_normal": 1}
# fgrad returns NumPy's integer counts where JAX returns float counts (documented)
_KNOWN = {"histogram"}


@pytest.fixture
def x32():
    fgrad.config.update("jax_enable_x64", False)
    try:
        yield
    finally:
        fgrad.config.update("jax_enable_x64", True)


def _evaluate(lib: str, expr: str):
    if lib == "jax":
        import jax
        import jax.numpy as jnp
        from jax import lax as jlax, random as jrandom
        env = {"jax": jax, "jnp": jnp, "lax": jlax, "random": jrandom, "np": np}
    else:
        env = {"jax": fgrad, "jnp": fnp, "lax": lax, "random": random, "np": np}
    return np.asarray(eval(expr, env))


def _summary(r: np.ndarray):
    if r.dtype.kind == "c":
        vals = [[z.real, z.imag] for z in np.ravel(r).tolist()]
    elif r.dtype == np.float32:
        vals = [float(v).hex() for v in np.ravel(r).tolist()]
    else:
        vals = np.ravel(r).tolist()
    return (r.dtype.name, list(r.shape), vals)


def _assert_same(name, got, want):
    assert got[0] == want[0], f"{name}: dtype {got[0]}, JAX {want[0]}"
    assert got[1] == want[1], f"{name}: shape {got[1]}, JAX {want[1]}"
    if got[0] == "float32":
        g = np.array([float.fromhex(v) for v in got[2]], np.float32)
        w = np.array([float.fromhex(v) for v in want[2]], np.float32)
        # on a GPU (cupy's cuSOLVER and fma-contracted kernels) a few ulps more
        ulps = _ULPS.get(name, 0) + (0 if rounds_like_numpy() else 4)
        if ulps:
            np.testing.assert_array_max_ulp(g, w, maxulp=ulps)
        else:
            np.testing.assert_array_equal(g, w, err_msg=name)
    else:
        assert got[2] == want[2], name


@pytest.mark.parametrize("name", sorted(set(CASES) - _KNOWN))
def test_results_match_jax_without_x64(x32, name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # explicit 64-bit requests warn (tested below)
        got = _summary(_evaluate("fgrad", CASES[name]))
    _assert_same(name, got, JAX_X32[name])


def test_results_match_live_jax_without_x64(x32):
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        live = {n: _summary(_evaluate("jax", e)) for n, e in CASES.items()}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for name in sorted(set(CASES) - _KNOWN):
            _assert_same(name, _summary(_evaluate("fgrad", CASES[name])), live[name])


@pytest.mark.parametrize("make, what", [
    (lambda: fnp.zeros(2, dtype=fnp.float64), "zeros"),
    (lambda: fnp.ones(2, dtype="int64"), "ones"),
    (lambda: fnp.asarray([1.0], dtype=np.complex128), "asarray"),
    (lambda: fnp.arange(3.0).astype(np.float64), "astype"),
    (lambda: fnp.float64(1.5), "asarray"),
    (lambda: random.uniform(random.PRNGKey(0), (2,), dtype=fnp.float64), "uniform"),
    (lambda: random.randint(random.PRNGKey(0), (2,), 0, 3, dtype=np.int64), "randint"),
])
def test_an_explicit_64_bit_request_warns_as_jax_and_narrows(x32, make, what):
    with pytest.warns(UserWarning, match=f"Explicitly requested dtype [a-z]+(64|128) requested in .*{what}"):
        out = make()
    assert out.dtype.itemsize <= 4 or out.dtype == np.complex64


def test_valid_programs_do_not_warn(x32):
    """Python's ``float``/``int`` are not explicit requests, and fgrad's own code (histogram,
    one_hot, random samplers, linear algebra) never warns about its internal dtypes."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        fnp.zeros(2, dtype=float)
        fnp.ones(2, dtype=int)
        fnp.histogram(fnp.array([0.1, 0.4]), bins=2)
        fnp.bincount(fnp.array([0, 1, 1]))
        fgrad.nn.one_hot(fnp.array([0, 2]), 3)
        random.gamma(random.PRNGKey(0), 2.0, (3,))
        random.poisson(random.PRNGKey(0), 3.0, (3,))
        random.choice(random.PRNGKey(0), 5, (2,), p=fnp.ones(5) / 5)
        fnp.linalg.inv(fnp.eye(2) * 2.0)
        fgrad.jit(lambda x: fnp.sort(x) @ x)(fnp.arange(3.0))


def test_every_value_is_32_bit_under_transforms(x32):
    def f(x):
        h = fnp.tanh(x @ fnp.ones((3, 2))) / 3
        return fnp.sum(h ** 2) + fnp.mean(fnp.arange(4)) * 0.5

    x = fnp.arange(6.0).reshape(2, 3) / 10
    assert x.dtype == np.float32
    eager = f(x)
    assert eager.dtype == np.float32
    jitted = fgrad.jit(f)(x)
    assert jitted.dtype == np.float32
    np.testing.assert_allclose(np.asarray(jitted), np.asarray(eager), rtol=1e-6)
    g = fgrad.grad(f)(x)
    assert g.dtype == np.float32
    gj = fgrad.jit(fgrad.grad(f))(x)
    assert gj.dtype == np.float32
    np.testing.assert_allclose(np.asarray(gj), np.asarray(g), rtol=1e-5, atol=1e-7)
    # the gradient is right: central differences of the float64 function (64-bit on again)
    with fgrad.enable_x64(True):
        x64 = np.asarray(x, np.float64)
        eps = 1e-6
        fd = np.zeros_like(x64)
        for i in np.ndindex(x64.shape):
            d = np.zeros_like(x64)
            d[i] = eps
            fd[i] = (float(f(fnp.asarray(x64 + d))) - float(f(fnp.asarray(x64 - d)))) / (2 * eps)
    np.testing.assert_allclose(np.asarray(g), fd, rtol=1e-4, atol=1e-6)
    h = fgrad.hessian(lambda v: fnp.sum(fnp.sin(v) ** 3))(fnp.arange(3.0))
    assert h.dtype == np.float32
    v = fgrad.vmap(f)(fnp.stack([x, 2 * x]))
    assert v.dtype == np.float32
    np.testing.assert_allclose(np.asarray(v), [float(f(x)), float(f(2 * x))], rtol=1e-6)
    _, t = fgrad.jvp(f, (x,), (fnp.ones_like(x),))
    assert t.dtype == np.float32


def test_loop_index_keeps_a_float32_carry(x32):
    out = lax.fori_loop(0, 4, lambda i, c: c * 0.5 + i, fnp.float32(1.0))
    assert out.dtype == np.float32 and float(out) == 1.0 * 0.5 ** 4 + 0.5 ** 3 * 0 + 0.5 ** 2 + 0.5 * 2 + 3
    carry, ys = lax.scan(lambda c, x: (c + x * 2, c), 0.0, fnp.arange(3.0))
    assert carry.dtype == ys.dtype == np.float32
    w = lax.while_loop(lambda c: c[0] < 5, lambda c: (c[0] + 1, c[1] * 1.5), (0, 1.0))
    assert w[0].dtype == np.int32 and w[1].dtype == np.float32


_INT_FLOAT_OPS = {"mul": lambda x, s: x * s, "rmul": lambda x, s: s * x, "add": lambda x, s: x + s,
                  "rsub": lambda x, s: s - x, "rem": lambda x, s: x % s, "floordiv": lambda x, s: x // s,
                  "lt": lambda x, s: x < s}


@pytest.mark.parametrize("op", sorted(_INT_FLOAT_OPS))
def test_an_integer_array_beside_a_python_float_computes_in_float32_as_jax(x32, op):
    """JAX stages ``int32_array * 0.002`` as ``convert_element_type[float32, weak]`` then a
    float32 op; NumPy computes int32 times a Python float in float64.  fgrad rounded that
    float64 product once (1 ulp from JAX in half of ``arange(200) * 0.002``), and in host
    loops kept it float64.  Eager, jit, a weak (traced) index and a ``fori_loop`` index give
    float32 arithmetic's bits (and the live JAX's, when installed)."""
    f = _INT_FLOAT_OPS[op]
    ints = np.arange(-3, 300, dtype=np.int32)
    for s in (0.002, 1.7):
        want = f(ints.astype(np.float32), np.float32(s))
        got = [f(fnp.asarray(ints), s), fgrad.jit(lambda x: f(x, s))(ints),
               fgrad.jit(f)(ints, s),  # a weakly typed traced float
               lax.fori_loop(0, ints.size, lambda i, c: c.at[i].set(f(i - 3, s)),
                             fnp.zeros(ints.size, want.dtype))]
        for g in got:
            assert np.asarray(g).dtype == want.dtype
            np.testing.assert_array_equal(np.asarray(g), want)
    jaxpr = fgrad.make_jaxpr(lambda i: i * 0.002)(np.int32(3))
    assert [e.prim.name for e in jaxpr.jaxpr.eqns] == ["convert_element_type", "mul"]
    jax = pytest.importorskip("jax")
    with jax.enable_x64(False):
        live = np.asarray(f(jax.numpy.asarray(ints), 0.002))
    np.testing.assert_array_equal(np.asarray(f(fnp.asarray(ints), 0.002)), live)


def test_integer_arithmetic_wraps_at_32_bits_as_jax(x32):
    big = fnp.array([2 ** 31 - 1], fnp.int32)
    assert int((big + 1)[0]) == -2 ** 31
    assert int(fnp.sum(fnp.array([2 ** 30, 2 ** 30], fnp.int32) * 2)) == 0
    assert fgrad.jit(lambda v: fnp.sum(v * 2))(fnp.array([2 ** 30, 2 ** 30])).dtype == np.int32


def test_a_python_int_beyond_int32_is_an_overflow_error_not_a_wrapped_value(x32):
    for value in (2 ** 40, [1, -2 ** 33]):
        with pytest.raises(OverflowError, match="int32"):
            fnp.asarray(value)
    assert int(fnp.asarray(2 ** 31 - 1)) == 2 ** 31 - 1
    with pytest.raises(OverflowError):
        fnp.arange(3, dtype=fnp.int32) + 2 ** 40


def test_a_jitted_function_follows_the_switch():
    f = fgrad.jit(lambda x: x * 2 + fnp.arange(2))
    assert f(fnp.ones(2)).dtype == np.float64
    with fgrad.enable_x64(False):
        assert f(fnp.ones(2)).dtype == np.float32
        assert f(np.ones(2)).dtype == np.float32  # a NumPy float64 argument is narrowed too
    assert f(fnp.ones(2)).dtype == np.float64
    assert fnp.arange(2).dtype == np.int64 and fnp.asarray(1.0).dtype == np.float64


def test_numpy_constants_captured_by_a_traced_function_are_narrowed(x32):
    c = np.linspace(0.0, 1.0, 3)  # float64 NumPy data closed over
    out = fgrad.jit(lambda x: x * c)(fnp.ones(3))
    assert out.dtype == np.float32
    np.testing.assert_allclose(np.asarray(out), c.astype(np.float32))


def test_canonical_dtypes_follow_the_switch(x32):
    assert fgrad.dtypes.canonicalize_dtype(np.float64) == np.float32
    assert fgrad.dtypes.canonicalize_dtype(np.int64) == np.int32
    assert fnp.result_type(float) == np.float32
    assert fnp.result_type(fnp.arange(2), 1.5) == np.float32
    assert fnp.dtype(float) == np.float64  # a NumPy dtype, as jnp.dtype(float) in JAX


def test_the_pytorch_face_refuses_32_bit_mode(x32):
    import fgrad.torch as torch
    with pytest.raises(RuntimeError, match="jax_enable_x64"):
        torch.tensor([1, 2])


def test_jax_enable_x64_environment_variable_at_import():
    code = ("import fgrad, fgrad.numpy as fnp; "
            "print(fgrad.config.jax_enable_x64, fnp.arange(2.0).dtype, fnp.arange(2).dtype)")
    env = dict(os.environ, JAX_ENABLE_X64="0")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                         timeout=120, check=True)
    assert out.stdout.split() == ["False", "float32", "int32"]


def _train(jax, jnp, random) -> list:
    """A small JAX-style program without any dtype in it: MLP init from a key, 20 SGD steps of
    ``value_and_grad`` under ``jit``; returns the losses and the final parameters' dtypes."""
    key = random.PRNGKey(0)
    k1, k2, k3 = random.split(key, 3)
    x = random.normal(k1, (32, 4))
    y = jnp.sin(x.sum(axis=1, keepdims=True))
    params = [(random.normal(k2, (4, 16)) * 0.5, jnp.zeros(16)),
              (random.normal(k3, (16, 1)) * 0.25, jnp.zeros(1))]

    def loss(ps, x, y):
        h = x
        for w, b in ps[:-1]:
            h = jnp.tanh(h @ w + b)
        w, b = ps[-1]
        return jnp.mean((h @ w + b - y) ** 2)

    @jax.jit
    def step(ps, x, y):
        val, g = jax.value_and_grad(loss)(ps, x, y)
        return [(w - 0.1 * gw, b - 0.1 * gb) for (w, b), (gw, gb) in zip(ps, g)], val

    losses = []
    for _ in range(20):
        params, val = step(params, x, y)
        losses.append(float(val))
    return losses, sorted({str(a.dtype) for p in params for a in p} | {str(val.dtype)})


# JAX 0.10.2 with x64 off: the losses of `_train` (every 5th) and its dtypes
_TRAIN_JAX_X32 = ([1.069838285446167, 0.43709924817085266, 0.3915446400642395, 0.3592835068702698],
                  ["float32"])


def test_a_training_program_gives_jax_32_bit_numbers(x32):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        losses, dtypes = _train(fgrad, fnp, random)
    assert dtypes == _TRAIN_JAX_X32[1]
    np.testing.assert_allclose(losses[::5], _TRAIN_JAX_X32[0], rtol=2e-5)
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    with jax.enable_x64(False):
        live, live_dtypes = _train(jax, jnp, jax.random)
    assert dtypes == live_dtypes
    np.testing.assert_allclose(losses, live, rtol=2e-5)


_WIDE = {np.dtype(t) for t in (np.float64, np.int64, np.uint64, np.complex128)}


def _op_table_rows(every: int):
    from fgrad.testing.op_table import ROWS

    return [r for i, r in enumerate(ROWS) if i % every == 0]


def _check_row_in_32_bit_mode(row) -> None:
    """One op-table row on float32 (or its first dtype) examples with 64-bit types off: eager
    and jit give the same 32-bit dtypes and values; its gradient (eager and under jit) is
    32-bit too; nothing warns."""
    from fgrad.testing.op_table._record import example_args
    from fgrad.tree_util import tree_flatten

    dts = [np.dtype(d) for d in (*row.dtypes, *row.other_dtypes)]
    dtype = np.dtype(np.float32) if np.float32 in dts else dts[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # example inputs are made as float64 and narrowed
        args = example_args(row, dtype)

    def f(*a):
        return row.fn(*a, **row.example_kwargs)

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        eager = tree_flatten(f(*args))[0]
        try:
            jitted = tree_flatten(fgrad.jit(f)(*args))[0]
        except fgrad.errors.ConcretizationTypeError:
            jitted = None  # output shape depends on values (nonzero, unique, ...)
    dtypes = [np.dtype(x.dtype) for x in eager if hasattr(x, "dtype")]
    assert not any(d in _WIDE for d in dtypes), (row.name, dtypes)
    if jitted is not None:
        assert [np.dtype(x.dtype) for x in jitted if hasattr(x, "dtype")] == dtypes, row.name
        for a, b in zip(eager, jitted):
            if np.dtype(a.dtype).kind in "fc":
                np.testing.assert_allclose(np.asarray(b), np.asarray(a), rtol=1e-4, atol=1e-5,
                                           err_msg=row.name)
    if row.grad not in ("yes", "zero") or dtype.kind != "f" or "while_loop" in row.name:
        return
    dn = row.diff_argnums(dtype)

    def total(*d):
        full = list(args)
        for i, v in zip(dn, d):
            full[i] = v
        return sum(fnp.sum(fnp.real(o)) for o in tree_flatten(f(*full))[0]
                   if np.dtype(o.dtype).kind in "fc")

    argnums = tuple(range(len(dn)))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        grads = list(fgrad.grad(total, argnums)(*[args[i] for i in dn]))
        if jitted is not None:
            grads += fgrad.jit(fgrad.grad(total, argnums))(*[args[i] for i in dn])
    assert not any(np.dtype(g.dtype) in _WIDE for g in grads), row.name


@pytest.mark.parametrize("row", _op_table_rows(16), ids=lambda r: r.name)
def test_op_table_rows_stay_32_bit_and_jit_agrees(x32, row):
    _check_row_in_32_bit_mode(row)


@pytest.mark.slow
@pytest.mark.parametrize("row", _op_table_rows(1), ids=lambda r: r.name)
def test_every_op_table_row_stays_32_bit_and_jit_agrees(x32, row):
    _check_row_in_32_bit_mode(row)


def _store() -> None:  # pragma: no cover - regenerates the stored JAX results
    import pprint

    import jax

    with jax.enable_x64(False), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        results = {n: _summary(_evaluate("jax", e)) for n, e in CASES.items()}
    path = os.path.join(os.path.dirname(__file__), "x64_off_cases.py")
    src = open(path).read()
    src = src[: src.index("JAX_X32 = ")] + "JAX_X32 = " + pprint.pformat(results, width=108) + "\n"
    with open(path, "w") as f:
        f.write(src)


if __name__ == "__main__":  # pragma: no cover
    if "--store" in sys.argv:
        _store()
