"""Issue 16's jit rows (CNN step, jacrev, MLP step, while_loop Newton): the engine changes
behind them keep results bit-identical and never reuse memory someone can still see.

* recycled intermediates: a big blocked-kernel result that only the program reads is kept
  for the next call (`compile.codegen.RecycleSite`), but never while a view of it escaped;
* convolutions and window reductions on the host write their patches, products and results
  into `core.host_pool` arrays: a result the caller holds is never written again;
* `_shift_add_flat` (input gradients of 'SAME' convolutions) adds exactly what the per-slice
  loop adds, also when the products a cropped position would read are inf or NaN;
* ``transpose(dot_general(x, y))`` that swaps the free axes becomes ``dot_general(y, x)``
  (one product, no strided read afterwards), unless the product has other readers;
* the host executor calls ``np.maximum.reduce`` for ``reduce_max`` directly;
* a literal operand of a host max/min (``maximum(x, 0.0)``: ReLU, clamp) is passed as a
  constant array (`core.executor.constant_operand`), for NumPy's vectorized loop: the same
  bits as the scalar call, signed zeros and NaN payloads included.
"""

from __future__ import annotations

import re

import numpy as np
import pytest

import fgrad
import fgrad.lax as lax
import fgrad.numpy as fnp
from fgrad.compile import codegen
from fgrad.core.executor import straight_line
from fgrad.ops import convolution as C
from fgrad.testing.device_numerics import assert_equal_up_to_summation_order

RNG = np.random.default_rng(16)


@pytest.fixture
def _on_the_host():
    """Host memory (recycled NumPy arrays, the host executor): on the CPU whatever the
    default device."""
    with fgrad.default_device("cpu"):
        yield


host = pytest.mark.usefixtures("_on_the_host")


def _np(a) -> np.ndarray:
    return np.asarray(fgrad.device_get(a))


def _prims(f, *args):
    return [e.prim.name for e in f.lower(*args).compile().program.eqns]


# -- recycled intermediates ------------------------------------------------------------------


@host
def test_big_intermediates_are_recycled_across_calls():
    n = 300_000  # 2.4 MB of float64: a blocked kernel whose result only cumsum reads
    f = fgrad.jit(lambda x: fnp.cumsum(fnp.sin(x) * 2.0 + x))
    x1, x2 = fnp.asarray(RNG.standard_normal(n)), fnp.asarray(RNG.standard_normal(n))
    r1 = np.asarray(f(x1)).copy()
    sites = [v for v in f.lower(x1).compile().ns.values() if isinstance(v, codegen.RecycleSite)]
    assert len(sites) == 1 and len(sites[0].held) == 1  # held after the call that made it
    kept = id(sites[0].held[0])  # (an id: a reference would keep it from being reused)
    r2 = f(x2)
    assert [id(a) for a in sites[0].held] == [kept]  # the next call wrote into it: no new array
    np.testing.assert_array_equal(np.asarray(r2), np.asarray(fnp.cumsum(fnp.sin(x2) * 2.0 + x2)))  # eager
    np.testing.assert_array_equal(np.asarray(f(x1)), r1)


@host
def test_recycled_intermediate_is_not_reused_while_a_view_of_it_escaped():
    n = 300_000
    f = fgrad.jit(lambda x: ((fnp.sin(x) * 2.0 + x).reshape(600, 500), fnp.sum(fnp.sin(x) * 2.0 + x)))
    x1, x2 = fnp.asarray(RNG.standard_normal(n)), fnp.asarray(RNG.standard_normal(n))
    kept, _ = f(x1)
    want = (np.sin(x1._buf) * 2.0 + x1._buf).reshape(600, 500)
    second, _ = f(x2)
    np.testing.assert_array_equal(np.asarray(kept), want)  # not overwritten by the second call
    np.testing.assert_array_equal(np.asarray(second), (np.sin(x2._buf) * 2.0 + x2._buf).reshape(600, 500))


# -- host pool in convolutions and window reductions -------------------------------------------


def _conv(x, w):
    return lax.conv_general_dilated(x, w, (1, 1), ((1, 1), (1, 1)),
                                    dimension_numbers=("NCHW", "OIHW", "NCHW"))


@pytest.mark.parametrize("jit", [False, True])
def test_pooled_conv_and_pool_results_are_not_overwritten(jit):
    # a 1 MB convolution and a 256 kB pooling result: both from the host pool
    x1 = fnp.asarray(RNG.standard_normal((2, 4, 64, 64)).astype(np.float32))
    x2 = fnp.asarray(RNG.standard_normal((2, 4, 64, 64)).astype(np.float32))
    w = fnp.asarray(RNG.standard_normal((32, 4, 3, 3)).astype(np.float32))

    def f(x):
        h = _conv(x, w)
        return h, lax.reduce_window(h, -fnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")

    g = fgrad.jit(f) if jit else f
    h1, p1 = g(x1)
    h1_copy, p1_copy = _np(h1).copy(), _np(p1).copy()
    for _ in range(3):
        h2, p2 = g(x2)
    np.testing.assert_array_equal(_np(h1), h1_copy)
    np.testing.assert_array_equal(_np(p1), p1_copy)
    assert not np.array_equal(_np(h2), h1_copy)
    np.testing.assert_array_equal(_np(g(x1)[0]), h1_copy)  # and the same numbers again


@host
def test_pooled_conv_gradients_match_unpooled_eager():
    """A CNN-style training step under jit (pooled patches, products, pads, scatters) gives
    the eager step's numbers bit for bit, call after call."""
    x = fnp.asarray(RNG.standard_normal((8, 3, 12, 12)).astype(np.float32))
    w = fnp.asarray((RNG.standard_normal((6, 3, 3, 3)) / 5).astype(np.float32))

    def loss(w, x):
        h = fnp.maximum(_conv(x, w), 0.0)
        h = lax.reduce_window(h, -fnp.inf, lax.max, (1, 1, 2, 2), (1, 1, 2, 2), "VALID")
        return fnp.sum(h ** 2)

    g = fgrad.jit(fgrad.grad(loss))
    want = np.asarray(fgrad.grad(loss)(w, x))
    for _ in range(3):
        np.testing.assert_array_equal(np.asarray(g(w, x)), want)


# -- flat shift-and-add ------------------------------------------------------------------------

FLAT_CASES = [
    # kernel, sin, padding, rhs_dilation
    ((3, 3), (7, 6), ((1, 1), (1, 1)), (1, 1)),
    ((3, 3), (5, 9), ((2, 0), (1, 1)), (1, 1)),  # output rows != input rows
    ((3, 2), (6, 7), ((1, 1), (1, 0)), (1, 1)),  # asymmetric padding along the inner axis
    ((3, 3), (7, 8), ((2, 2), (2, 2)), (2, 2)),  # rhs dilation
    ((5,), (9,), ((2, 2),), (1,)),
    ((3, 3, 3), (4, 5, 6), ((1, 1), (1, 1), (1, 1)), (1, 1, 1)),
    ((3, 5), (4, 3), ((1, 1), (2, 2)), (1, 1)),  # an offset that meets no input column
]


@host
@pytest.mark.parametrize("kernel,sin,padding,rd", FLAT_CASES)
def test_flat_shift_add_is_the_slice_loop(kernel, sin, padding, rd):
    nd = len(sin)
    out = C._out_spatial(sin, kernel, (1,) * nd, padding, (1,) * nd, rd)
    assert C._flat_shifts(nd, (1,) * nd, (1,) * nd, out, sin)
    n, g, og = 2, 2, 3
    z = RNG.standard_normal((n, g) + kernel + (og,) + sin).astype(np.float32)
    # products only cropped positions read: inf and NaN where no valid output looks
    z.reshape(-1)[RNG.integers(0, z.size, 40)] = np.inf
    z.reshape(-1)[RNG.integers(0, z.size, 40)] = np.nan
    want = np.zeros((n, g, og) + out, np.float32)
    C._shift_add_slices(np, z.copy(), want, kernel, sin, out, (1,) * nd, padding, (1,) * nd, rd)
    got = np.zeros((n, g, og) + out, np.float32)
    C._shift_add_flat(np, z.copy(), got, kernel, sin, padding, rd)
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))


@host
def test_flat_shift_add_does_not_add_cropped_infinities():
    """An inf weight at a kernel corner reaches only outputs whose window holds that input;
    the border outputs that the offset crops stay finite (as in the per-slice loop)."""
    x = np.ones((1, 4, 5, 5), np.float32)  # more input than output channels: shift-and-add
    w = np.zeros((2, 4, 3, 3), np.float32)
    w[0, 0, 0, 0] = np.inf
    assert C._prefer_shift_add(x.shape, w.shape, (1, 1), ((1, 1), (1, 1)), (1, 1), (1, 1), 1)
    got = np.asarray(lax.conv_general_dilated(fnp.asarray(x), fnp.asarray(w), (1, 1), ((1, 1), (1, 1))))
    assert np.isinf(got[0, 0, 1:, 1:]).all()
    assert (got[0, 0, 0, :] == 0).all() and (got[0, 0, :, 0] == 0).all() and (got[0, 1] == 0).all()


# -- transpose of a dot ------------------------------------------------------------------------


def test_transpose_of_a_dot_is_the_swapped_dot():
    a = fnp.asarray(RNG.standard_normal((5, 7)).astype(np.float32))
    b = fnp.asarray(RNG.standard_normal((7, 3)).astype(np.float32))
    c = fnp.asarray(RNG.standard_normal((3, 5)).astype(np.float32))
    f = fgrad.jit(lambda a, b, c: (a @ b).T + c)
    assert "transpose" not in _prims(f, a, b, c)
    np.testing.assert_array_equal(_np(f(a, b, c)), (_np(a) @ _np(b)).T + _np(c))
    # batched: the batch axis stays first
    p = fnp.asarray(RNG.standard_normal((4, 5, 7)))
    q = fnp.asarray(RNG.standard_normal((4, 7, 3)))
    g = fgrad.jit(lambda p, q: fnp.swapaxes(p @ q, 1, 2) * 2.0)
    assert "transpose" not in _prims(g, p, q)
    np.testing.assert_allclose(_np(g(p, q)), np.swapaxes(_np(p) @ _np(q), 1, 2) * 2.0, rtol=1e-14)


def test_transpose_of_a_dot_with_other_readers_keeps_one_dot():
    a = fnp.asarray(RNG.standard_normal((4, 4)))
    b = fnp.asarray(RNG.standard_normal((4, 4)))
    f = fgrad.jit(lambda a, b: (a @ b).T + (a @ b))
    assert _prims(f, a, b).count("dot_general") == 1
    d = _np(a) @ _np(b)
    assert_equal_up_to_summation_order(f(a, b), d.T + d)  # a GPU's product adds in its own order


def test_jacrev_has_no_transposed_product():
    W = fnp.asarray((RNG.standard_normal((16, 16)) / 4).astype(np.float32))
    x = fnp.asarray(RNG.standard_normal(16).astype(np.float32))
    f = fgrad.jit(fgrad.jacrev(lambda x: fnp.tanh(W @ x) * x))
    assert "transpose" not in _prims(f, x)
    e = np.tanh(_np(W) @ _np(x))
    want = np.diag(e) + (_np(W) * (_np(x) * (1 - e * e))[:, None])
    np.testing.assert_allclose(_np(f(x)), want, rtol=2e-6, atol=1e-6)
    np.testing.assert_array_equal(_np(f(x)), _np(fgrad.jacrev(lambda x: fnp.tanh(W @ x) * x)(x)))


# -- host reductions ---------------------------------------------------------------------------


def _impl_calls(run) -> list:
    """Calls through a primitive's implementation in the host variant of a program."""
    host = run.source.split("def run_any")[0]
    return re.findall(r"= f\w+\(xp, ", host)


@host
@pytest.mark.parametrize("red,ref", [(fnp.max, np.max), (fnp.min, np.min)])
def test_host_program_reduces_with_the_ufunc(red, ref):
    closed = fgrad.make_jaxpr(lambda x: red(x, axis=0) * 2.0)(fnp.ones((3, 4)))
    run = straight_line(closed.jaxpr)
    assert not _impl_calls(run)  # the ufunc's reduce, not the implementation
    x = RNG.standard_normal((3, 4))
    x[1, 2] = np.nan
    (got,) = run(np, list(closed.consts) + [x])
    np.testing.assert_array_equal(got, ref(x, axis=0) * 2.0)
    with pytest.raises(ValueError, match="zero-size"):
        run(np, list(closed.consts) + [np.ones((0, 4))])


@host
def test_host_program_keeps_the_transposed_short_row_reduction():
    """A max over short last-axis rows keeps `extremum`'s transposed copy (the same values)."""
    closed = fgrad.make_jaxpr(lambda x: fnp.max(x, axis=-1))(fnp.ones((256, 8), dtype=np.float32))
    run = straight_line(closed.jaxpr)
    assert _impl_calls(run)
    x = RNG.standard_normal((256, 8)).astype(np.float32)
    np.testing.assert_array_equal(run(np, list(closed.consts) + [x])[0], np.max(x, axis=-1))


# -- max/min with a literal operand -----------------------------------------------------------


def _special_values(shape, dtype):
    """Random values of ``dtype`` with ties for max/min: ``+-0.0``, NaNs of several payloads
    and signs, infinities (floats), or small integers."""
    dtype = np.dtype(dtype)
    if dtype.kind != "f":
        lo = 0 if dtype.kind == "u" else -5
        return RNG.integers(lo, 6, shape).astype(dtype)
    x = RNG.standard_normal(shape).astype(dtype).ravel()
    x[::5], x[1::5], x[2::11], x[3::13], x[4::17] = 0.0, -0.0, np.nan, -np.nan, np.inf
    bits = x.view(f"u{dtype.itemsize}")
    bits[6::19] = bits[2] | 0x15  # a NaN with a payload
    return x.reshape(shape)


def _bits(a) -> np.ndarray:
    a = np.asarray(a)
    return a.view(f"u{a.itemsize}") if a.dtype.kind == "f" else a


_MAXMIN = [(fnp.maximum, np.maximum), (fnp.minimum, np.minimum), (fnp.fmax, np.fmax),
           (fnp.fmin, np.fmin)]


@host
@pytest.mark.parametrize("ops", _MAXMIN, ids=lambda o: o[1].__name__)
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.uint8])
@pytest.mark.parametrize("shape", [(8, 32, 32), (80, 64, 64)], ids=["whole", "blocked"])
def test_max_min_of_a_literal_is_numpys_scalar_call_bit_for_bit(ops, dtype, shape):
    """Jitted ``max(x, c)``/``max(c, x)`` (in a fused kernel, whole and blocked) equal NumPy's
    call with the scalar, bit for bit: which zero or NaN comes out is the scalar loop's."""
    ours, ref = ops
    x = _special_values(shape, dtype)
    consts = [0, 3] if np.dtype(dtype).kind != "f" else [0.0, -0.0, 1.5, np.nan, -np.inf]
    for c in consts:
        f = fgrad.jit(lambda x, c=c: (ours(x * 1, c) + 0 * x, ours(c, x * 1) + 0 * x))
        got = f(fnp.asarray(x))
        with np.errstate(invalid="ignore"):
            want = (ref(x * 1, c) + 0 * x, ref(c, x * 1) + 0 * x)
        for g, w in zip(got, want):
            np.testing.assert_array_equal(_bits(_np(g)), _bits(w.astype(dtype)), err_msg=f"{c}")
    ns = f.lower(fnp.asarray(x)).compile().ns
    assert any(isinstance(v, np.ndarray) and not v.flags.writeable and v.ndim for v in ns.values())


@host
@pytest.mark.parametrize("ops", _MAXMIN, ids=lambda o: o[1].__name__)
def test_host_program_max_min_of_a_literal_is_numpys_scalar_call(ops):
    """The straight-line executor (tape programs, loop bodies, the shim's programs) passes
    the literal as a constant array too, with the same bits as the scalar call."""
    ours, ref = ops
    x = _special_values((8, 16, 28, 28), np.float32)
    for c in (0.0, -0.0, 2.5, np.nan):
        closed = fgrad.make_jaxpr(lambda x, c=c: ours(x, c) * 2.0)(fnp.ones(x.shape, dtype=np.float32))
        run = straight_line(closed.jaxpr)
        (got,) = run(np, list(closed.consts) + [x])
        np.testing.assert_array_equal(_bits(got), _bits(ref(x, np.float32(c)) * np.float32(2.0)))
    ns = run.host.__globals__  # the generated function's namespace
    assert any(isinstance(v, np.ndarray) and not v.flags.writeable and v.shape == (16, 28, 28)
               for v in ns.values())


def test_constant_operand_covers_trailing_axes_only_where_it_pays():
    from fgrad.core.executor import constant_operand

    c = constant_operand(np.maximum, -0.0, np.float32, (64, 16, 28, 28))
    assert c.shape == (16, 28, 28) and not c.flags.writeable and np.signbit(c).all()
    assert constant_operand(np.maximum, 0.0, np.float32, (10, 10)) is None  # small
    assert constant_operand(np.maximum, 0.0, np.float16, (64, 4096)) is None  # no faster loop
    assert constant_operand(np.add, 0.0, np.float32, (64, 4096)) is None
    assert constant_operand(np.minimum, 0, np.float64, (2, 1 << 20)) is None  # too big a row
    assert constant_operand(np.maximum, 300, np.uint8, (64, 4096)) is None  # NumPy would raise


@pytest.mark.parametrize("jit", [False, True])
def test_relu_clamp_gradients_unchanged_by_constant_operands(jit):
    """ReLU and clamp's values and gradients against PyTorch (live), ties at the bounds
    included, eager and jitted."""
    torch = pytest.importorskip("torch")
    x = _special_values((64, 16, 28), np.float32)
    x = np.where(np.isnan(x), 0.5, x).astype(np.float32)

    def f(x):
        return fnp.sum(fnp.maximum(x, 0.0) * 3.0 + fnp.minimum(x, 1.5) * 2.0)

    g = fgrad.jit(fgrad.grad(f)) if jit else fgrad.grad(f)
    got = _np(g(fnp.asarray(x)))
    xt = torch.from_numpy(x.copy()).requires_grad_()
    (torch.relu(xt) * 3.0 + torch.clamp(xt, max=1.5) * 2.0).sum().backward()
    want = xt.grad.numpy()
    ties = (x == 0) | (x == 1.5)  # JAX's convention splits the tangent at ties, PyTorch's does not
    np.testing.assert_array_equal(got[~ties], want[~ties])
    np.testing.assert_array_equal(got[x == 0], 3.0 * 0.5 + 2.0)
    np.testing.assert_array_equal(got[x == 1.5], 3.0 + 2.0 * 0.5)


def test_loop_steps_drop_same_dtype_converts():
    """JAX's staging marks a weak value strong with a same-dtype convert (``i < 50`` in a
    while condition); loop steps are generated without the rewrite pass, so the executor drops
    them itself (it cost an array copy per iteration: jit_newton 1.03x -> 1.43x JAX).  The
    loop's results are unchanged.  Since session 14 the pass pipeline's last pass
    (`compile.passes.drop_noop_converts`) drops them from every body."""
    import fgrad
    from fgrad.ops.control_flow import _simplified

    def cube_root(a):
        def cond(s):
            x, i = s
            return (fnp.max(fnp.abs(x ** 3 - a)) > 1e-5) & (i < 50)

        def body(s):
            x, i = s
            return x - (x ** 3 - a) / (3 * x ** 2), i + 1

        return fgrad.lax.while_loop(cond, body, (fnp.ones_like(a) * 2, 0))

    a = np.linspace(1, 8, 64).astype(np.float32)
    closed = fgrad.make_jaxpr(cube_root)(a)
    (loop,) = [e for e in closed.jaxpr.eqns if e.primitive.name == "while"]
    cond = loop.params["cond"]
    cond = getattr(cond, "jaxpr", cond)
    names = [e.prim.name for e in cond.eqns]
    assert "convert_element_type" in names
    assert "convert_element_type" not in [e.prim.name for e in _simplified(cond).eqns]
    x, n = fgrad.jit(cube_root)(a)
    xs, ns = cube_root(a)  # eager
    np.testing.assert_array_equal(np.asarray(x), np.asarray(xs))
    assert int(n) == int(ns)
    np.testing.assert_allclose(np.asarray(x) ** 3, a, rtol=1e-5)
