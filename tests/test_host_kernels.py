"""The host executor's kernels for ``dot_general`` (`ops.linalg._dg_host_kernel`: the impl's
plan made once per shape) and ``reduce_sum`` (`ops.shape._sum_host_kernel`): bit-identical
to the impls for every layout, quiet on overflow like them."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
from fgrad import lax
from fgrad.core.executor import straight_line
from fgrad.ops.linalg import _dg_host_kernel, _dg_impl, dot_general_p
from fgrad.ops.shape import _sum_host_kernel, _sum_impl

CASES = [
    ((4, 5), (5, 3), (((1,), (0,)), ((), ()))),  # a plain matmul: np.matmul itself
    ((4, 5), (3, 5), (((1,), (1,)), ((), ()))),  # x @ y.T
    ((5, 4), (5, 3), (((0,), (0,)), ((), ()))),  # x.T @ y
    ((5,), (5, 3), (((0,), (0,)), ((), ()))),  # vector @ matrix
    ((2, 4, 5), (2, 5, 3), (((2,), (1,)), ((0,), (0,)))),  # batched
    ((4, 2, 5), (5, 2, 3), (((2,), (0,)), ((1,), (1,)))),  # batch axes in the middle
    ((3, 4, 5), (5, 6), (((2,), (0,)), ((), ()))),  # several free axes
]


@pytest.mark.parametrize("xs,ys,dn", CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64])
def test_host_kernel_matches_the_impl(xs, ys, dn, dtype):
    rng = np.random.default_rng(0)
    x = (10 * rng.standard_normal(xs)).astype(dtype)
    y = (10 * rng.standard_normal(ys)).astype(dtype)
    want = _dg_impl(np, x, y, dn)
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        jx = fgrad.make_jaxpr(lambda a, b: lax.dot_general(a, b, dn))(x, y).jaxpr
    run = straight_line(jx)
    host = run.source.split("def run_any")[0].split("\n", 1)[1]
    assert "(xp, " not in host, run.source  # the host code calls the kernel, not the impl
    (got,) = run.host(np, [x, y])
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_array_equal(got, want)
    if (xs, ys) == ((4, 5), (5, 3)):
        assert _dg_host_kernel({"dimension_numbers": dn}, [a.aval for a in jx.invars]) is np.matmul


def test_no_kernel_for_mixed_or_16_bit_dtypes():
    from fgrad.core.array import ShapedArray

    dn = (((1,), (0,)), ((), ()))
    f32, f64 = ShapedArray((2, 2), np.float32), ShapedArray((2, 2), np.float64)
    assert _dg_host_kernel({"dimension_numbers": dn}, [f32, f64]) is None
    f16 = ShapedArray((2, 2), np.float16)
    assert _dg_host_kernel({"dimension_numbers": dn}, [f16, f16]) is None
    assert dot_general_p.host_kernel is _dg_host_kernel


@pytest.mark.parametrize("axes", [(0,), (1,), (0, 2), (0, 1, 2)])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.complex64])
def test_sum_kernel_matches_the_impl(axes, dtype):
    from fgrad.core.array import ShapedArray

    x = np.random.default_rng(1).standard_normal((5, 7, 3)).astype(dtype)
    k = _sum_host_kernel({"axes": axes}, [ShapedArray(x.shape, x.dtype)])
    np.testing.assert_array_equal(k(x), _sum_impl(np, x, axes))


def test_sum_kernel_leaves_integers_and_16_bit_floats_to_the_impl():
    from fgrad.core.array import ShapedArray

    for dt in (np.int8, np.int32, np.float16):
        assert _sum_host_kernel({"axes": (0,)}, [ShapedArray((3,), dt)]) is None


def test_overflowing_sum_in_a_loop_body_is_quiet():
    """float32 sums overflow to inf silently (as in JAX), in a scan body as elsewhere."""
    xs = np.full((3, 4), 3e38, np.float32)
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        f = fgrad.jit(lambda xs: lax.scan(lambda c, x: (c + fgrad.numpy.sum(x), None),
                                          np.float32(0), xs)[0])
        assert np.isinf(np.asarray(f(xs)))


_EXTREMA = [
    [1.0, np.nan, 3.0, np.nan],  # NaN propagates (the first NaN: argmax/argmin's pick)
    [-0.0, 0.0], [0.0, -0.0], [-0.0] * 40 + [0.0] + [-0.0] * 40,  # signed zeros: reduce's sign
    [0.0] * 40 + [-0.0] + [0.0] * 40, [np.inf, -np.inf, 2.0], [-3.0, 5.0, 5.0, -7.0], [0.5],
]


@pytest.mark.parametrize("values", _EXTREMA)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64, np.uint8])
def test_vector_extremum_kernel_has_the_reductions_bits(values, dtype):
    """A 1-d max/min reads the element at argmax/argmin (a third of ``reduce``'s fixed cost,
    a while loop's convergence test): the same value, type and sign of zero as ``reduce``."""
    from fgrad.core.array import ShapedArray
    from fgrad.ops.reductions import reduce_max_p, reduce_min_p

    if np.dtype(dtype).kind != "f":
        values = [v for v in values if np.isfinite(v)] or [0]
    with np.errstate(invalid="ignore"):
        x = np.abs(values).astype(dtype) if np.dtype(dtype).kind == "u" else np.asarray(values, dtype)
    for prim, ufunc in ((reduce_max_p, np.maximum), (reduce_min_p, np.minimum)):
        kernel = prim.host_kernel({"axes": (0,)}, [ShapedArray(x.shape, x.dtype)])
        got, want = kernel(x), ufunc.reduce(x)
        assert type(got) is type(want)
        assert np.array_equal(got, want, equal_nan=True) and np.signbit(got) == np.signbit(want), (got, want)


def test_scan_host_kernel_is_bound_once_and_matches_eager():
    """`jit`'s code calls a scan through `control_flow._scan_host_kernel` (parameters and
    the generated loop bound once, not `_scan_impl` per call): a literal lower bound, a
    Python-float initial carry, a tiny native loop and an array loop give eager's values, and
    with NaN checks on the loop still reports the NaN."""
    from fgrad.ops.control_flow import _scan_host_kernel, scan_p

    assert scan_p.host_kernel is _scan_host_kernel

    def f(a, v):
        root = lax.fori_loop(0, 30, lambda i, x: 0.5 * (x + a / x), a)
        s = lax.fori_loop(0, 5, lambda i, x: x * 0.5 + fgrad.numpy.sin(v), v)
        c, ys = lax.scan(lambda c, x: (c * 0.9 + x, c), 1.0, v)
        return root, s, c, ys

    a, v = np.float32(2.0), np.linspace(-1, 1, 300).astype(np.float32)
    jf = fgrad.jit(f)
    for _ in range(2):
        got = jf(a, v)
    ns = jf.lower(a, v).compile().ns
    name = "_scan_host_kernel.<locals>.kernel"
    kernels = [k for k, fn in ns.items() if getattr(fn, "__qualname__", "") == name]
    from fgrad.backends import NUMPY, default_backend

    assert len(kernels) == (3 if default_backend() is NUMPY else 0)  # (a device program: cupy's code)
    with fgrad.disable_jit():
        want = f(a, v)
    for g, w in zip(got, want):
        assert np.asarray(g).dtype == np.asarray(w).dtype
        np.testing.assert_array_equal(np.asarray(g), np.asarray(w))
    with fgrad.debug_nans(True):
        with pytest.raises(FloatingPointError):
            loop = fgrad.jit(lambda x: lax.fori_loop(0, 3, lambda i, y: fgrad.numpy.log(y - 1.0), x))
            loop(np.float32(0.5))


@pytest.fixture
def x32():
    fgrad.config.update("jax_enable_x64", False)
    try:
        yield
    finally:
        fgrad.config.update("jax_enable_x64", True)


def _index_times_step_loss(x0, w):
    """A float32 fori_loop whose body multiplies the (weakly typed int32) index by a Python
    float, as a physics rollout computes its time ``i * DT``."""
    def body(i, x):
        return x + 2e-3 * fgrad.numpy.tanh(w * x * (1.0 + fgrad.numpy.sin(20.0 * (i * 2e-3))))
    return fgrad.numpy.sum(lax.fori_loop(0, 100, body, x0) ** 2)


def test_scan_host_kernel_gives_the_op_by_op_bits_of_a_float32_loop_gradient(x32):
    """Round 23's bound scan call was reverted because eager gradients through a float32
    ``fori_loop`` moved by 1-3 ulps.  The cause was not the host loop's code but its body's
    dtypes: a weakly typed int32 index times a Python float was computed by NumPy as a float64
    product, so the host scan stacked ``sin(20 * i * DT)`` as float64 residuals and the
    reverse loop multiplied float32 cotangents by them in float64 (the per-step path rounded
    them to float32 at the program boundary first).  JAX converts the index to float32 first
    (`ops.elementwise._int_operands_as_weak`); now eager (the bound kernel), the op-by-op
    path (NaN checks on) and jit's gradient with respect to the loop's initial value agree
    bit for bit."""
    x0 = fgrad.numpy.asarray(np.linspace(0.1, 1, 7).astype(np.float32))
    w = fgrad.numpy.asarray(np.float32(1.3))
    grad = fgrad.grad(_index_times_step_loss, argnums=(0, 1))
    got = grad(x0, w)
    with fgrad.debug_nans(True):  # each step evaluated equation by equation
        want = grad(x0, w)
    for g, o in zip(got, want):
        assert np.asarray(g).dtype == np.float32
        np.testing.assert_array_equal(np.asarray(g), np.asarray(o))
    np.testing.assert_array_equal(np.asarray(fgrad.jit(grad)(x0, w)[0]), np.asarray(got[0]))


def test_host_scan_stacks_each_value_in_its_dtype(x32):
    """Every output of the host scan kernel has its variable's dtype in 32-bit mode: a weak
    int32 carry times a Python float is a float32 ``ys``, equal to float32 arithmetic (was
    stacked as float64)."""
    from fgrad.ops.control_flow import _scan_host_kernel

    def f(x):
        return lax.scan(lambda c, _: (c + 1, fgrad.numpy.sin(c * 2e-3) * x), 0, None, length=50)

    x = np.float32(1.5)
    eqn = next(e for e in fgrad.make_jaxpr(f)(x).jaxpr.eqns if e.prim.name == "scan")
    kernel = _scan_host_kernel(eqn.params, [v.aval for v in eqn.invars])
    outs = kernel(*[v.val if hasattr(v, "val") else x for v in eqn.invars])
    for o, v in zip(outs, eqn.outvars):
        assert np.asarray(o).dtype == v.aval.dtype, (np.asarray(o).dtype, v.aval)
    k = np.arange(50, dtype=np.float32)
    np.testing.assert_array_equal(outs[1], np.sin(k * np.float32(2e-3)) * x)
