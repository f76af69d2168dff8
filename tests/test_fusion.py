"""The compile pipeline (fgrad/compile): passes, fusion partition, kernel code generation.

* kernel counts for known programs (a 10-op elementwise chain followed by a sum is ONE
  kernel; matmuls, reshapes of intermediates and control flow are barriers; no cycles);
* fused vs unfused execution is bit-identical (values and dtypes) — over the op table and
  on bigger arrays in every kernel mode (direct / whole / blocked, flat and by rows,
  trailing reductions per block, NumPy's pairwise sum tree, reductions after the loop);
* the optimizing passes (inline, DCE, CSE, constant folding, simplification) do what they
  say, and the compiled program still computes the traced function.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
from fgrad.compile import codegen, compile_executable
from fgrad.testing import op_table as T

RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _on_the_host():
    """These are the NumPy code generator's tests (raw host buffers, scratch memory,
    pointers); they run on the CPU whatever the default device (the CUDA code generator's
    are in test_cuda_codegen.py)."""
    with fgrad.default_device("cpu"):
        yield


def A(x, dtype=None):
    return fnp.asarray(np.asarray(x, dtype=dtype))


def compiled(f, *args, **opts):
    """(fused executable, unfused executable, numpy inputs) for ``f`` at ``args``."""
    lowered = fgrad.jit(f).lower(*args)
    fused = compile_executable(lowered.jaxpr, lowered.consts, **opts)
    unfused = compile_executable(lowered.jaxpr, lowered.consts, fuse=False)
    bufs = [a._buf if hasattr(a, "_buf") else a for a in args]
    return fused, unfused, bufs


def same_bits(a, b) -> bool:
    """Equal values, dtypes and shapes, NaNs in the same places, zeros with the same sign."""
    a, b = np.asarray(a), np.asarray(b)
    if a.dtype != b.dtype or a.shape != b.shape:
        return False
    if a.dtype.kind == "c":
        return same_bits(a.real, b.real) and same_bits(a.imag, b.imag)
    if a.dtype.kind == "f":
        return np.array_equal(a, b, equal_nan=True) and np.array_equal(np.signbit(a), np.signbit(b))
    return np.array_equal(a, b)


def assert_fused_matches(f, *args, **opts):
    fused, unfused, bufs = compiled(f, *args, **opts)
    got, want = fused.run(list(bufs)), unfused.run(list(bufs))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert same_bits(g, w), (fused.source, g, w)
    return fused


CHAIN10 = lambda x: fnp.tanh(fnp.exp(-x * x) * fnp.cos(3.0 * x) + fnp.sin(x) * 0.5 - 1.0) / (1.0 + x * x)


# -------------------------------------------------------------------------------------
# kernel counts


def test_ten_op_chain_then_sum_is_one_kernel():
    x = A(RNG.standard_normal(1000), np.float32)
    exe, _, _ = compiled(lambda x: fnp.sum(CHAIN10(x)), x)
    assert len(exe.program.eqns) >= 11
    assert exe.stats["kernels"] == 1 and exe.stats["ops"] == 0, exe.source
    (k,) = exe.kernels
    assert k.reduction is not None and k.reduction.prim.name == "reduce_sum"
    assert len(k.members) == len(exe.program.eqns) - 1


def test_diamond_and_multiple_outputs_fuse():
    x = A(RNG.standard_normal((8, 5)))
    f = lambda x: (fnp.sin(x) * fnp.cos(x) + fnp.exp(x), fnp.sin(x) - 1.0)
    exe = assert_fused_matches(f, x, scratch_min=1)
    assert exe.stats == {**exe.stats, "kernels": 1, "ops": 0}


def test_barriers_split_kernels():
    x, w = A(RNG.standard_normal((6, 4))), A(RNG.standard_normal((4, 3)))
    # elementwise -> matmul -> elementwise: two kernels around one op
    exe = assert_fused_matches(lambda x, w: fnp.tanh(fnp.sin(x) * 2.0 @ w) + 1.0, x, w)
    assert exe.stats["kernels"] == 2 and exe.stats["ops"] == 1
    # a reshape of an intermediate is a barrier
    exe = assert_fused_matches(lambda x: fnp.reshape(fnp.exp(x) + 1.0, (4, 6)) * 2.0 - 1.0, x)
    assert exe.stats["kernels"] == 2 and exe.stats["ops"] == 1
    # a reduction ends a kernel: whatever consumes it is another kernel
    exe = assert_fused_matches(lambda x: fnp.exp(x - fnp.max(x * 2.0, axis=1, keepdims=True)), x)
    assert exe.stats["kernels"] == 2


def test_no_cycle_through_a_barrier():
    """k feeds a matmul whose result is combined with k again: joining that combination into
    k's kernel would need the matmul's output before the kernel runs."""
    x, w = A(RNG.standard_normal((5, 5))), A(RNG.standard_normal((5, 5)))

    def f(x, w):
        k = fnp.exp(x) * 0.5
        return fnp.sin(k) + (k @ w) * k

    exe = assert_fused_matches(f, x, w, scratch_min=1)
    assert exe.stats["kernels"] == 2
    np.testing.assert_allclose(np.asarray(fgrad.jit(f)(x, w)), np.asarray(f(x, w)), rtol=1e-12)


def test_unfused_has_one_op_per_step():
    x = A(RNG.standard_normal(50))
    _, unfused, _ = compiled(CHAIN10, x)
    assert unfused.stats["kernels"] == len(unfused.program.eqns)


def test_softmax_cross_entropy_kernels():
    z = A(RNG.standard_normal((16, 10)), np.float32)
    y = A(np.eye(10, dtype=np.float32)[RNG.integers(0, 10, 16)])

    def loss(z, y):
        m = fnp.max(z, axis=1, keepdims=True)
        lse = fnp.log(fnp.sum(fnp.exp(z - m), axis=1, keepdims=True))
        return -fnp.sum((z - m - lse) * y)

    exe = assert_fused_matches(loss, z, y, scratch_min=1)
    # max | exp-sum | log | product-sum | negate: reductions end kernels, reshapes are barriers
    assert exe.stats["kernels"] <= 5, exe.source


# -------------------------------------------------------------------------------------
# bit-identical fused execution, every kernel mode


SMALL_BLOCKS = dict(block=256, block_min=1024, scratch_min=16)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [7, 300, 5000, 70001])
def test_chain_modes_bit_identical(dtype, n):
    x = A(RNG.standard_normal(n) * 3, dtype)
    exe = assert_fused_matches(lambda x: CHAIN10(x) * x, x, **SMALL_BLOCKS)
    mode = exe.stats["modes"][0]
    assert mode == ("direct" if n < 16 else "whole" if n < 1024 else "blocked")
    assert exe.run([x._buf])[0].dtype == dtype


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("n", [1500, 4099, 70001])
def test_full_sum_follows_numpy_pairwise_tree(dtype, n):
    x = A(RNG.standard_normal(n), dtype)
    f = lambda x: fnp.sum(fnp.sin(x) * 3.0 + x * x)
    exe = assert_fused_matches(f, x, **SMALL_BLOCKS)
    assert exe.stats["modes"] == ["blocked"] and "_st" in exe.source
    # and that is NumPy's own sum of the unfused values
    xs = x._buf
    assert exe.run([xs])[0] == np.sum(np.sin(xs) * dtype(3.0) + xs * xs)


def test_pairwise_leaves_cover_the_array():
    for n in (129, 1000, 65537, 10_000_000):
        leaves = codegen.pairwise_leaves(n, 256 if n < 10**6 else 65536)
        assert leaves[0][0] == 0 and leaves[-1][1] == n
        assert all(a[1] == b[0] for a, b in zip(leaves, leaves[1:]))
        # a binary tree: additions = leaves - 1
        assert sum(k for _, _, k in leaves) == len(leaves) - 1


@pytest.mark.parametrize("shape,axis", [((300, 40), 1), ((300, 40), 0), ((60, 7, 9), (1, 2)),
                                        ((60, 7, 9), None), ((2000, 3), 1)])
def test_row_blocked_reductions(shape, axis):
    x = A(RNG.standard_normal(shape), np.float32)
    b = A(RNG.standard_normal(shape[-1]), np.float32)
    for red in (fnp.sum, fnp.max, fnp.min, fnp.prod):
        f = lambda x, b: red(fnp.tanh(x * b + 0.5) + b, axis=axis)
        exe = assert_fused_matches(f, x, b, **SMALL_BLOCKS)
        assert exe.stats["kernels"] == 1


def test_broadcasting_inputs_rows_mode():
    x = A(RNG.standard_normal((500, 30)))
    col = A(RNG.standard_normal((500, 1)))
    row = A(RNG.standard_normal(30))
    s = A(np.float64(0.25))
    exe = assert_fused_matches(lambda x, c, r, s: fnp.exp(x * c - r) * s + x, x, col, row, s, **SMALL_BLOCKS)
    assert exe.stats["modes"] == ["blocked"]


def test_mixed_dtypes_casts_selects_and_non_ufunc_ops():
    x = A(RNG.standard_normal(3000) * 4, np.float32)
    i = A(RNG.integers(-5, 5, 3000), np.int32)

    def f(x, i):
        m = x > 0.5
        y = fnp.where(m, x * 2.0, -x) + i.astype(np.float32)
        z = fgrad.nn.sigmoid(y) * fnp.round(x)
        k = (i * 3 + 1) // 2
        return z, k, fnp.logical_and(m, i > 0), y.astype(np.float64) / 3.0

    exe = assert_fused_matches(f, x, i, **SMALL_BLOCKS)
    outs = exe.run([x._buf, i._buf])
    assert [o.dtype for o in outs] == [np.float32, np.int32, np.bool_, np.float64]


def test_integer_and_boolean_reductions():
    i = A(RNG.integers(-3, 4, (400, 6)), np.int32)
    f = lambda i: (fnp.sum(i * 2 + 1, axis=1), fnp.all(i > -3, axis=1), fnp.max(i - 1))
    exe = assert_fused_matches(f, i, **SMALL_BLOCKS)
    outs = exe.run([i._buf])
    eager = [np.asarray(o) for o in f(i)]
    for o, e in zip(outs, eager, strict=True):
        assert np.asarray(o).dtype == e.dtype and np.array_equal(o, e)


def test_scratch_buffers_do_not_leak_into_results():
    """Results must not alias scratch memory reused by later calls."""
    x = A(RNG.standard_normal(5000), np.float32)
    f = fgrad.jit(lambda x: (fnp.sin(x) * 2.0 + 1.0, fnp.sum(fnp.cos(x) * x)))
    a, s = f(x)
    a0, s0 = np.array(a), float(s)
    f(A(RNG.standard_normal(5000), np.float32))
    np.testing.assert_array_equal(np.asarray(a), a0)
    assert float(s) == s0


# -------------------------------------------------------------------------------------
# fused vs unfused over the op table


def _table_cases():
    out = []
    for row in T.ROWS:
        dts = [d for d in row.dtypes + row.other_dtypes]
        for dt in dts[:2]:
            out.append(pytest.param(row, dt, id=f"{row.name}-{np.dtype(dt).name}"))
    return out


def _table_program(row):
    kw = row.example_kwargs

    def f(*a):
        out = row.fn(*a, **kw)
        leaves = fgrad.tree_leaves(out)
        extra = []
        for o in leaves:
            dt = np.asarray(fgrad.core.array.get_aval(o).dtype)
            extra.append(o * o + o if dt.dtype.kind in "fc" else o)
        return leaves + extra

    return f


@pytest.mark.parametrize("row,dtype", _table_cases())
def test_fused_matches_unfused_over_op_table(row, dtype):
    # the host code generator's fusion, on host data: under FGRAD_BACKEND=fake the arrays and
    # the constants traced into the program would be device data, which `compile_executable`'s
    # NumPy executables must not meet (a while_loop body's host counter did, once another
    # test had left that row's program cached)
    with fgrad.default_device(fgrad.devices("cpu")[0]):
        _check_fused_matches_unfused(row, dtype)


def _check_fused_matches_unfused(row, dtype):
    rng = np.random.default_rng(1)
    try:
        vals = row.sample_args(rng, row.get_example_shapes(), row.example_kwargs, dtype)
    except Exception as e:  # noqa: BLE001 - a row whose inputs cannot be drawn is the table's business
        pytest.skip(f"cannot draw inputs: {e}")
    args = [fnp.asarray(v) for v in vals]
    f = _table_program(row)
    try:
        f(*args)
    except Exception as e:  # noqa: BLE001
        pytest.skip(f"row does not run eagerly: {type(e).__name__}")
    try:
        fgrad.make_jaxpr(f)(*args)
    except fgrad.ConcretizationError:
        pytest.skip("the row needs concrete values (not traceable)")
    fused, unfused, bufs = compiled(f, *args, block=2, block_min=2, scratch_min=1)
    got, want = fused.run(list(bufs)), unfused.run(list(bufs))
    for g, w in zip(got, want, strict=True):
        assert same_bits(g, w), (row.name, fused.source)


# -------------------------------------------------------------------------------------
# the passes


def test_passes_cse_dce_fold_simplify():
    W = np.random.default_rng(3).standard_normal((4, 4))
    Wa = fnp.asarray(W)
    x = A(RNG.standard_normal(4))

    def f(x):
        unused = fnp.exp(x) * 3.0  # noqa: F841  (dead)
        a = fnp.sin(x) + fnp.sin(x)  # CSE
        c = Wa @ Wa.T  # folded at compile time
        b = fnp.negative(-(a * 1.0)) / 1.0 + 0.0  # simplified away
        return c @ (b ** 2) + x.astype(x.dtype) * 1

    exe, _, _ = compiled(f, x)
    names = [e.prim.name for e in exe.program.eqns]
    assert names.count("sin") == 1 and "exp" not in names and "neg" not in names
    assert names.count("dot_general") == 1 and "pow" not in names and "convert_element_type" not in names
    np.testing.assert_allclose(exe.run([x._buf])[0], np.asarray(f(x)), rtol=1e-13)


def test_product_with_broadcast_ones_is_simplified():
    """``grad`` of ``sum(x[ids] * g)`` multiplies ``g`` by the sum's broadcast cotangent of
    ones: the product (a pass and a copy of the broadcast) is dropped and the gradient is
    one scatter-add of ``g``, bit for bit ``np.add.at``; a broadcast of 2.0 stays."""
    rng = np.random.default_rng(7)
    ids = rng.integers(0, 50, 300)
    w = A(rng.standard_normal((50, 8)).astype(np.float32))
    g = A(rng.standard_normal((300, 8)).astype(np.float32))
    for scale, products in ((1.0, 0), (2.0, 1)):
        f = fgrad.jit(fgrad.grad(lambda w, g: scale * fnp.sum(w[ids] * g)))
        names = [e.prim.name for e in f.lower(w, g).compile().program.eqns]
        assert names.count("mul") == products and names.count("scatter") == 1, names
        want = np.zeros((50, 8), np.float32)
        np.add.at(want, ids, np.float32(scale) * g._buf)
        np.testing.assert_array_equal(np.asarray(f(w, g)), want)


def test_outer_product_dot_general_becomes_multiply():
    x, y = A(RNG.standard_normal(6)), A(RNG.standard_normal((6, 5)))
    f = lambda x, y: fnp.einsum("i,ij->ij", x, y)
    exe, _, bufs = compiled(f, x, y)
    assert "dot_general" not in [e.prim.name for e in exe.program.eqns]
    np.testing.assert_allclose(exe.run(bufs)[0], np.asarray(x)[:, None] * np.asarray(y), rtol=1e-15)


def test_nested_jits_are_inlined_and_fused():
    inner = fgrad.jit(lambda x: fnp.sin(x) * 2.0)
    outer = fgrad.jit(lambda x: inner(inner(x) + 1.0) - x)
    x = A(RNG.standard_normal(20))
    exe = outer.lower(x).compile()
    assert "jit" not in [e.prim.name for e in exe.program.eqns]
    assert exe.stats["kernels"] == 1 and exe.stats["ops"] == 0
    np.testing.assert_allclose(np.asarray(outer(x)), np.sin(np.sin(x._buf) * 2 + 1) * 2 - x._buf, rtol=1e-14)


def test_big_results_are_recycled_only_when_dropped():
    n = 300_000  # 2.4 MB of float64: a blocked kernel, result recycled
    f = fgrad.jit(lambda x: fnp.sin(x) * 2.0 + x)
    x1, x2 = A(RNG.standard_normal(n)), A(RNG.standard_normal(n))
    kept = f(x1)
    kept_copy = np.array(kept)
    second = f(x2)  # `kept` is still referenced: a fresh array
    np.testing.assert_array_equal(np.asarray(kept), kept_copy)
    view = np.asarray(second)[::2]  # a view keeps `second`'s buffer alive
    del second
    third = f(x1)
    np.testing.assert_array_equal(np.asarray(third), kept_copy)
    np.testing.assert_array_equal(view, (np.sin(x2._buf) * 2.0 + x2._buf)[::2])
    ptr = np.asarray(third).__array_interface__["data"][0]
    del third
    fourth = f(x2)  # nothing holds the previous result any more: its memory is reused
    assert np.asarray(fourth).__array_interface__["data"][0] == ptr
    np.testing.assert_array_equal(np.asarray(fourth), np.sin(x2._buf) * 2.0 + x2._buf)


def test_recycled_results_are_bounded(request):
    fgrad.config.update("jit_recycle_bytes", 3 << 20)
    request.addfinalizer(lambda: fgrad.config.update("jit_recycle_bytes", None))
    n = 300_000  # 2.4 MB results: only the newest one fits the budget
    f = fgrad.jit(lambda x: fnp.cos(x) * 3.0 - x)
    g = fgrad.jit(lambda x: fnp.exp(x) * 0.5 + x)
    x = A(RNG.standard_normal(n))
    f(x)
    (site,) = [v for v in f.lower(x).compile().ns.values() if isinstance(v, codegen.RecycleSite)]
    assert len(site.held) == 1  # f's dropped result is held for reuse
    g(x)
    assert not site.held  # released: g's newer result took the budget
    np.testing.assert_array_equal(np.asarray(f(x)), np.cos(x._buf) * 3.0 - x._buf)


def test_results_fed_back_as_inputs_are_recycled():
    """A training-step pattern: each call's result is the next call's input; the result of
    two calls ago is free and gets reused."""
    n = 200_000
    step = fgrad.jit(lambda w: w * 0.5 + 1.0)
    w = A(RNG.standard_normal(n))
    ptrs = set()
    want = np.asarray(w).copy()
    for _ in range(6):
        w = step(w)
        want = want * 0.5 + 1.0
        ptrs.add(np.asarray(w).__array_interface__["data"][0])
    np.testing.assert_array_equal(np.asarray(w), want)
    assert len(ptrs) <= 3, ptrs


@pytest.mark.parametrize("xs,ys,dn", [
    ((5, 4), (5,), (((0,), (0,)), ((), ()))), ((4,), (3, 4), (((0,), (1,)), ((), ()))),
    ((2, 3, 4), (2, 3), (((0, 1), (0, 1)), ((), ()))), ((2, 3, 4), (3, 2), (((0, 1), (1, 0)), ((), ()))),
    ((3, 2), (5, 3, 2), (((0, 1), (1, 2)), ((), ()))), ((6, 4), (6, 3), (((0,), (0,)), ((), ()))),
    ((2, 6, 4), (2, 6, 3), (((1,), (1,)), ((0,), (0,)))), ((4, 3), (3, 4), (((1,), (0,)), ((), ()))),
])
def test_compiled_dot_general_plans(xs, ys, dn):
    x, y = A(RNG.standard_normal(xs)), A(RNG.standard_normal(ys))
    f = lambda x, y: fgrad.lax.dot_general(x, y, dn)
    got, want = np.asarray(fgrad.jit(f)(x, y)), np.asarray(f(x, y))
    assert got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-13)


def test_explicit_broadcasts_become_implicit():
    x = A(RNG.standard_normal((6, 5)))
    s = A(RNG.standard_normal(6))

    def f(x, s):
        b = fnp.broadcast_to(s[:, None], (6, 5))  # an explicit broadcast of a column
        c = fnp.broadcast_to(fnp.sum(s), (6, 5))  # and of a scalar
        return fnp.exp(x * b) + c

    exe = assert_fused_matches(f, x, s)
    assert "broadcast_in_dim" not in [e.prim.name for e in exe.program.eqns]
    np.testing.assert_allclose(exe.run([x._buf, s._buf])[0], np.asarray(f(x, s)), rtol=1e-15)


def test_complex_chains_and_strided_or_empty_inputs():
    z = A(RNG.standard_normal(3000) + 1j * RNG.standard_normal(3000), np.complex128)
    assert_fused_matches(lambda z: fnp.exp(z * 1j) * fnp.conj(z) + fnp.abs(z), z, **SMALL_BLOCKS)
    big = RNG.standard_normal((90, 70))
    xt = fnp.asarray(big).T  # a transposed (non-contiguous) input, flat blocks
    f = lambda x: fnp.tanh(x) * 2.0 + x * x
    assert_fused_matches(f, xt, **SMALL_BLOCKS)
    np.testing.assert_array_equal(np.asarray(fgrad.jit(f)(xt)), np.asarray(f(xt)))
    xs = fnp.asarray(big)[::2, ::3]  # a strided input, row blocks with a broadcast operand
    g = lambda x, b: fnp.sum(fnp.exp(x - b) * 2.0, axis=1)
    b = A(RNG.standard_normal(24))
    assert_fused_matches(g, xs, b, block=64, block_min=128, scratch_min=8)
    for shape in [(0,), (3, 0), (0, 5)]:
        e = A(np.zeros(shape))
        out = fgrad.jit(lambda x: (fnp.sin(x) * 2.0, fnp.sum(x * x, axis=-1)))(e)
        assert out[0].shape == shape and out[1].shape == shape[:-1]
