"""Contractions and linear algebra: forward vs NumPy, derivatives vs central finite
differences (jvp and vjp, orders 1 and 2), vmap vs a Python loop, einsum vs numpy.einsum."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.core.primitive import PRIMITIVES
from fgrad.ops import linalg as L
from fgrad.testing.op_table import rows_by_name
from fgrad.testing.op_table.products import numpy_cross

# ---------------------------------------------------------------------------------------
# helpers: finite differences on pytrees of arrays


def _flat(out):
    leaves = fgrad.tree_util.tree_flatten(out)[0]
    if not leaves:
        return np.zeros(0)
    return np.concatenate([np.ravel(np.asarray(x, dtype=np.float64)) for x in leaves])


def _rand_like(rng, xs):
    return tuple(rng.normal(size=np.shape(x)) for x in xs)


def _num_jvp(f, args, tans, eps=1e-6):
    plus = f(*[fnp.asarray(np.asarray(a) + eps * t) for a, t in zip(args, tans, strict=True)])
    minus = f(*[fnp.asarray(np.asarray(a) - eps * t) for a, t in zip(args, tans, strict=True)])
    return (_flat(plus) - _flat(minus)) / (2 * eps)


def check_jvp(f, args, rng, rtol=1e-5, atol=1e-6, eps=1e-6):
    args = tuple(np.asarray(a, dtype=np.float64) for a in args)
    tans = _rand_like(rng, args)
    out, t_out = fgrad.jvp(f, tuple(fnp.asarray(a) for a in args), tuple(fnp.asarray(t) for t in tans))
    np.testing.assert_allclose(_flat(out), _flat(f(*[fnp.asarray(a) for a in args])), rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(_flat(t_out), _num_jvp(f, args, tans, eps), rtol=rtol, atol=atol)


def check_vjp(f, args, rng, rtol=1e-5, atol=1e-6, eps=1e-6):
    """Dot-product test: <ct, J t> (numerical) == <J^T ct, t> (reverse mode)."""
    args = tuple(np.asarray(a, dtype=np.float64) for a in args)
    tans = _rand_like(rng, args)
    out, f_vjp = fgrad.vjp(f, *[fnp.asarray(a) for a in args])
    leaves, tree = fgrad.tree_util.tree_flatten(out)
    cts = [rng.normal(size=np.shape(x)) for x in leaves]
    ct_in = f_vjp(fgrad.tree_util.tree_unflatten(tree, [fnp.asarray(c) for c in cts]))
    lhs = float(sum(np.sum(np.asarray(c) * t) for c, t in zip(ct_in, tans, strict=True)))
    rhs = float(np.dot(np.concatenate([c.ravel() for c in cts]), _num_jvp(f, args, tans, eps)))
    np.testing.assert_allclose(lhs, rhs, rtol=rtol, atol=atol)


def check_grads(f, args, rng, order=2, rtol=1e-5, atol=1e-6):
    """jvp and vjp against finite differences; with order 2 also the derivatives of the
    forward (jvp) and reverse (vjp) derivative maps."""
    check_jvp(f, args, rng, rtol, atol)
    check_vjp(f, args, rng, rtol, atol)
    if order >= 2:
        args64 = tuple(np.asarray(a, dtype=np.float64) for a in args)
        t_fixed = tuple(fnp.asarray(t) for t in _rand_like(rng, args64))

        def fwd(*xs):
            return fgrad.jvp(f, xs, t_fixed)[1]

        out = f(*[fnp.asarray(a) for a in args64])
        leaves, tree = fgrad.tree_util.tree_flatten(out)
        ct_fixed = fgrad.tree_util.tree_unflatten(
            tree, [fnp.asarray(rng.normal(size=np.shape(x))) for x in leaves])

        def rev(*xs):
            return tuple(fgrad.vjp(f, *xs)[1](ct_fixed))

        for g in (fwd, rev):
            check_jvp(g, args64, rng, 10 * rtol, 10 * atol, eps=1e-5)
            check_vjp(g, args64, rng, 10 * rtol, 10 * atol, eps=1e-5)


def check_vmap(f, args, in_axes, out_axes=0):
    """vmap(f) against a Python loop over the mapped axis (outputs stacked on out_axes)."""
    if not isinstance(in_axes, tuple):
        in_axes = (in_axes,) * len(args)
    n = next(np.shape(a)[ax] for a, ax in zip(args, in_axes, strict=True) if ax is not None)
    got = fgrad.vmap(f, in_axes=in_axes, out_axes=out_axes)(*[fnp.asarray(a) for a in args])
    per = []
    for i in range(n):
        sl = [a if ax is None else np.take(a, i, axis=ax) for a, ax in zip(args, in_axes, strict=True)]
        per.append(f(*[fnp.asarray(s) for s in sl]))
    g_leaves, _ = fgrad.tree_util.tree_flatten(got)
    p_leaves = list(zip(*[fgrad.tree_util.tree_flatten(p)[0] for p in per], strict=True))
    assert len(g_leaves) == len(p_leaves)
    for g, ps in zip(g_leaves, p_leaves, strict=True):
        want = np.stack([np.asarray(p) for p in ps], axis=out_axes)
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-9, atol=1e-9)


def spd(rng, n, batch=()):
    a = rng.normal(size=batch + (n, n))
    return a @ np.swapaxes(a, -1, -2) + n * np.eye(n)


def sym_distinct(rng, n, batch=()):
    """Symmetric with well separated eigenvalues."""
    q = np.linalg.qr(rng.normal(size=batch + (n, n)))[0]
    w = np.arange(1, n + 1) * 1.5 + rng.uniform(-0.3, 0.3, size=batch + (n,))
    return (q * w[..., None, :]) @ np.swapaxes(q, -1, -2)


def distinct_sv(rng, m, n, batch=()):
    """Matrix with well separated, non-zero singular values."""
    k = min(m, n)
    u = np.linalg.qr(rng.normal(size=batch + (m, k)))[0]
    v = np.linalg.qr(rng.normal(size=batch + (n, k)))[0]
    s = np.arange(k, 0, -1) * 1.3 + 0.5 + rng.uniform(-0.2, 0.2, size=batch + (k,))
    return (u * s[..., None, :]) @ np.swapaxes(v, -1, -2)


def close(got, want, rtol=1e-7, atol=0.0):
    np.testing.assert_allclose(np.asarray(got), want, rtol=rtol, atol=atol)


@pytest.fixture
def rng():
    return np.random.default_rng(0)


# ---------------------------------------------------------------------------------------
# registry


def test_primitives_have_rules():
    for name in ("dot_general", "triangular_solve", "solve", "cholesky", "eigh", "svd", "qr", "slogdet"):
        p = PRIMITIVES[name]
        assert p.jvp is not None and p.batch is not None, name
    for name in ("dot_general", "triangular_solve", "solve"):
        assert PRIMITIVES[name].transpose is not None


# ---------------------------------------------------------------------------------------
# dot_general

DG_CASES = [
    # (x shape, y shape, dimension numbers)
    ((3, 4), (4, 5), (((1,), (0,)), ((), ()))),
    ((4, 3), (4, 5), (((0,), (0,)), ((), ()))),
    ((3, 4), (5, 4), (((1,), (1,)), ((), ()))),
    ((2, 3, 4), (2, 4, 5), (((2,), (1,)), ((0,), (0,)))),
    ((3, 2, 4), (4, 5, 2), (((2,), (0,)), ((1,), (2,)))),
    ((2, 3, 4, 5), (5, 4, 6), (((2, 3), (1, 0)), ((), ()))),
    ((6, 2, 3), (3, 6, 7, 2), (((2,), (0,)), ((0, 1), (1, 3)))),
    ((4,), (4,), (((0,), (0,)), ((), ()))),
    ((3,), (4,), (((), ()), ((), ()))),
    ((2, 3), (3, 2, 5), (((), ()), ((1,), (0,)))),
]


def _np_dot_general(x, y, dn):
    (lc, rc), (lb, rb) = dn
    letters = iter("abcdefghijklmnop")
    xl = [next(letters) for _ in range(x.ndim)]
    yl = [None] * y.ndim
    for i, j in zip(lc, rc, strict=True):
        yl[j] = xl[i]
    for i, j in zip(lb, rb, strict=True):
        yl[j] = xl[i]
    yl = [c if c is not None else next(letters) for c in yl]
    out = [xl[i] for i in lb] + [c for i, c in enumerate(xl) if i not in lc and i not in lb]
    out += [c for j, c in enumerate(yl) if j not in rc and j not in rb]
    return np.einsum(f"{''.join(xl)},{''.join(yl)}->{''.join(out)}", x, y)


@pytest.mark.parametrize("xs,ys,dn", DG_CASES)
def test_dot_general_forward_and_grads(rng, xs, ys, dn):
    x, y = rng.normal(size=xs), rng.normal(size=ys)
    out = L.dot_general(fnp.asarray(x), fnp.asarray(y), dn)
    np.testing.assert_allclose(np.asarray(out), _np_dot_general(x, y, dn), rtol=1e-12, atol=1e-12)
    check_grads(lambda a, b: L.dot_general(a, b, dn), (x, y), rng)


@pytest.mark.parametrize("xs,ys,dn", DG_CASES)
def test_dot_general_vmap(rng, xs, ys, dn):
    f = lambda a, b: L.dot_general(a, b, dn)
    x, y = rng.normal(size=xs), rng.normal(size=ys)
    for ax_x, ax_y in ((0, 0), (0, None), (None, 0), (len(xs), 1), (None, len(ys))):
        xb = np.stack([x + i for i in range(3)], axis=ax_x) if ax_x is not None else x
        yb = np.stack([y * (i + 1) for i in range(3)], axis=ax_y) if ax_y is not None else y
        check_vmap(f, (xb, yb), (ax_x, ax_y))
        check_vmap(f, (xb, yb), (ax_x, ax_y), out_axes=-1)


def test_dot_general_dtypes():
    x32 = fnp.ones((2, 3), dtype=np.float32)
    assert (x32 @ fnp.ones((3, 2), dtype=np.float32)).dtype == np.float32
    assert (x32 @ fnp.ones((3, 2))).dtype == np.float64
    assert (fnp.ones((2, 3), dtype=np.int32) @ fnp.ones((3, 2), dtype=np.int32)).dtype == np.int32
    # JAX 0.10.2: an integer meeting a float takes the float's type (NumPy widens to float64)
    assert (x32 @ fnp.ones((3, 2), dtype=np.int64)).dtype == np.float32
    # gradient keeps each operand's dtype
    g = fgrad.grad(lambda a, b: fnp.sum(a @ b), argnums=(0, 1))(x32, fnp.ones((3, 2)))
    assert g[0].dtype == np.float32 and g[1].dtype == np.float64


def test_dot_general_errors():
    with pytest.raises(ValueError, match="contracting dimensions must have equal sizes"):
        L.dot_general(fnp.ones((2, 3)), fnp.ones((4, 5)), (((1,), (0,)), ((), ())))
    with pytest.raises(ValueError, match="out of bounds"):
        L.dot_general(fnp.ones((2, 3)), fnp.ones((3, 5)), (((2,), (0,)), ((), ())))


def test_dot_general_grad_under_vmap(rng):
    # vmap of grad exercises batching of the transposed (reverse) program
    x, y = rng.normal(size=(4, 3, 5)), rng.normal(size=(5, 2))
    g = fgrad.vmap(fgrad.grad(lambda a, b: fnp.sum(fnp.tanh(a @ b))), in_axes=(0, None))
    check_vmap(fgrad.grad(lambda a, b: fnp.sum(fnp.tanh(a @ b))), (x, y), (0, None))
    assert g(fnp.asarray(x), fnp.asarray(y)).shape == (4, 3, 5)


# ---------------------------------------------------------------------------------------
# matmul, dot, inner, outer, vdot, tensordot, kron, cross

MATMUL_SHAPES = [
    ((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)), ((2, 3, 4), (4,)),
    ((4,), (2, 4, 5)), ((2, 3, 4), (4, 5)), ((3, 4), (2, 4, 5)), ((2, 3, 4), (2, 4, 5)),
    ((2, 1, 3, 4), (5, 4, 6)), ((1, 3, 4), (2, 1, 4, 6)), ((6, 1, 3, 4), (1, 2, 4, 5)),
]


@pytest.mark.parametrize("sa,sb", MATMUL_SHAPES)
def test_matmul_forward_grads(rng, sa, sb):
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    out = fnp.matmul(fnp.asarray(a), fnp.asarray(b))
    assert out.shape == (a @ b).shape
    np.testing.assert_allclose(np.asarray(out), a @ b, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(np.asarray(fnp.asarray(a) @ b), a @ b, rtol=1e-12, atol=1e-12)
    check_grads(fnp.matmul, (a, b), rng, order=1)


@settings(max_examples=40, deadline=None)
@given(
    batch_a=st.lists(st.integers(1, 3), max_size=3),
    batch_b=st.lists(st.integers(1, 3), max_size=3),
    m=st.integers(1, 4), k=st.integers(1, 4), n=st.integers(1, 4),
    vec_a=st.booleans(), vec_b=st.booleans(), seed=st.integers(0, 2**16),
)
def test_matmul_hypothesis(batch_a, batch_b, m, k, n, vec_a, vec_b, seed):
    rng = np.random.default_rng(seed)
    # make the batch shapes broadcast-compatible: each pair equal or one of them 1
    ba, bb = list(batch_a), list(batch_b)
    for i in range(1, min(len(ba), len(bb)) + 1):
        if ba[-i] != bb[-i] and 1 not in (ba[-i], bb[-i]):
            bb[-i] = ba[-i]
    sa = (k,) if vec_a else tuple(ba) + (m, k)
    sb = (k,) if vec_b else tuple(bb) + (k, n)
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    want = np.matmul(a, b)
    got = fnp.matmul(fnp.asarray(a), fnp.asarray(b))
    assert got.shape == want.shape
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-12, atol=1e-12)
    # reverse mode: gradient of <c, a @ b> w.r.t. a is c @ b^T summed over broadcasting
    c = rng.normal(size=want.shape)
    loss = lambda x, y: fnp.sum(fnp.matmul(x, y) * c)
    ga, gb = fgrad.grad(loss, argnums=(0, 1))(fnp.asarray(a), fnp.asarray(b))
    assert ga.shape == a.shape and gb.shape == b.shape
    t = rng.normal(size=sa)
    eps = 1e-6
    num = (np.sum(np.matmul(a + eps * t, b) * c) - np.sum(np.matmul(a - eps * t, b) * c)) / (2 * eps)
    np.testing.assert_allclose(np.sum(np.asarray(ga) * t), num, rtol=1e-6, atol=1e-8)


def test_matmul_shape_error_message():
    with pytest.raises(ValueError, match=r"matmul: contracting dimension mismatch: \(3, 4\) @ \(5, 2\)"):
        fnp.matmul(fnp.ones((3, 4)), fnp.ones((5, 2)))
    with pytest.raises(ValueError, match=r"matmul: contracting dimension mismatch: \(3,\) @ \(4,\)"):
        fnp.ones(3) @ fnp.ones(4)
    with pytest.raises(ValueError, match="batch dimensions cannot be broadcast"):
        fnp.matmul(fnp.ones((2, 3, 4)), fnp.ones((3, 4, 5)))
    with pytest.raises(ValueError, match="does not have enough dimensions"):
        fnp.matmul(fnp.ones(()), fnp.ones((3,)))


@pytest.mark.parametrize("sa,sb", [((), (3,)), ((4,), (4,)), ((3, 4), (4,)), ((2, 3, 4), (5, 4, 6)),
                                   ((4,), (4, 2)), ((3, 4), (4, 2))])
def test_dot(rng, sa, sb):
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    np.testing.assert_allclose(np.asarray(fnp.dot(fnp.asarray(a), fnp.asarray(b))), np.dot(a, b), rtol=1e-12)
    check_grads(fnp.dot, (a, b), rng, order=1)


def test_dot_method_and_errors(rng):
    a = rng.normal(size=(3, 4))
    np.testing.assert_allclose(np.asarray(fnp.asarray(a).dot(a.T)), a @ a.T, rtol=1e-12)
    with pytest.raises(ValueError, match="not aligned"):
        fnp.dot(fnp.ones((3, 4)), fnp.ones((3, 4)))


def test_inner_outer_vdot_vecdot_kron(rng):
    a, b = rng.normal(size=(2, 3, 4)), rng.normal(size=(5, 4))
    np.testing.assert_allclose(np.asarray(fnp.inner(a, b)), np.inner(a, b), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fnp.outer(a, b)), np.outer(a, b), rtol=1e-12)
    x, y = rng.normal(size=(3, 4)), rng.normal(size=(3, 4))
    np.testing.assert_allclose(np.asarray(fnp.vdot(x, y)), np.vdot(x, y), rtol=1e-12)
    xc = x + 1j * y
    np.testing.assert_allclose(np.asarray(fnp.vdot(xc, x)), np.vdot(xc, x), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fnp.vecdot(x, y[0])), np.vecdot(x, y[0]), rtol=1e-12)
    for sa, sb in (((2, 3), (4, 5)), ((3,), (2, 2)), ((2, 1, 3), (3, 2))):
        p, q = rng.normal(size=sa), rng.normal(size=sb)
        np.testing.assert_allclose(np.asarray(fnp.kron(p, q)), np.kron(p, q), rtol=1e-12)
    check_grads(fnp.inner, (a, b), rng, order=1)
    check_grads(fnp.outer, (a[0, 0], b[0]), rng, order=1)
    check_grads(fnp.vdot, (x, y), rng, order=1)
    check_grads(fnp.kron, (rng.normal(size=(2, 3)), rng.normal(size=(3, 2))), rng, order=1)


def test_matvec_vecmat(rng):
    m, v = rng.normal(size=(2, 3, 4)), rng.normal(size=(4,))
    np.testing.assert_allclose(np.asarray(fnp.matvec(m, v)), m @ v, rtol=1e-12)
    w = rng.normal(size=(2, 3))
    np.testing.assert_allclose(np.asarray(fnp.vecmat(w, m)), np.einsum("bi,bij->bj", w, m), rtol=1e-12)


@pytest.mark.parametrize("sa,sb,axes", [((3, 4, 5), (4, 5, 6), 2), ((3, 4, 5), (5, 4, 2), ([1, 2], [1, 0])),
                                        ((3, 4), (5, 6), 0), ((2, 3), (3, 2), (0, 1)), ((3, 4), (4,), 1)])
def test_tensordot(rng, sa, sb, axes):
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    np.testing.assert_allclose(np.asarray(fnp.tensordot(a, b, axes)), np.tensordot(a, b, axes), rtol=1e-12)
    check_grads(lambda x, y: fnp.tensordot(x, y, axes), (a, b), rng, order=1)


@pytest.mark.parametrize("sa,sb,kw", [((3,), (3,), {}), ((4, 3), (4, 3), {}), ((4, 3), (3,), {}),
                                      ((3, 4), (4, 3), dict(axisa=0, axisb=1, axisc=0)),
                                      ((5, 2), (5, 3), {}), ((2, 3), (3, 3), dict(axis=0))])
def test_cross(rng, sa, sb, kw):
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    close(fnp.cross(a, b, **kw), numpy_cross(a, b, **kw), rtol=1e-12, atol=1e-14)
    check_grads(lambda x, y: fnp.cross(x, y, **kw), (a, b), rng, order=1)


@pytest.mark.parametrize("sa,sb", [((2,), (2,)), ((4, 2), (3,)), ((3,), (2, 2))])
def test_cross_reference_of_2_vectors_does_not_need_numpys_2_vector_rule(rng, sa, sb):
    """NumPy 2.0 deprecated 2-vectors in ``np.cross`` and NumPy 2.5 removed them (JAX keeps
    them, and so does fgrad): the op table's reference must not use that path (it raised
    on the GPU machine's NumPy 2.5.2).  NumPy's DeprecationWarning is made an error here."""
    a, b = rng.normal(size=sa), rng.normal(size=sb)
    with warnings.catch_warnings():
        warnings.simplefilter("error", DeprecationWarning)
        got = rows_by_name()["cross"].call_ref([a, b], {})
    want = a[..., 0] * b[..., 1] - a[..., 1] * b[..., 0]  # the z component
    np.testing.assert_allclose(got if got.ndim == want.ndim else got[..., 2], want, rtol=1e-15)
    close(fnp.cross(a, b), got, rtol=1e-12, atol=1e-14)


def test_cross_2d_vectors(rng):
    a, b = rng.normal(size=(4, 2)), rng.normal(size=(4, 2))
    want = a[:, 0] * b[:, 1] - a[:, 1] * b[:, 0]
    np.testing.assert_allclose(np.asarray(fnp.cross(a, b)), want, rtol=1e-12)


def test_matmul_hot_path_is_one_blas_call(monkeypatch):
    """2-D float32 matmul runs exactly one numpy matmul on the input buffers (no copies,
    transposes or reshapes), so it costs what numpy's does; timing checked loosely."""
    import time

    rng = np.random.default_rng(0)
    a = rng.normal(size=(128, 784)).astype(np.float32)
    b = rng.normal(size=(784, 512)).astype(np.float32)
    A, B = fgrad.device_put(fnp.asarray(a), "cpu"), fgrad.device_put(fnp.asarray(b), "cpu")  # NumPy's
    calls = []
    real = np.matmul

    def spy(x, y, *args, **kw):
        calls.append((x, y))
        return real(x, y, *args, **kw)

    monkeypatch.setattr(np, "matmul", spy)
    out = A @ B
    monkeypatch.setattr(np, "matmul", real)
    assert len(calls) == 1
    assert calls[0][0] is A._buf and calls[0][1] is B._buf
    assert out._buf.flags["C_CONTIGUOUS"] and out.dtype == np.float32
    np.testing.assert_allclose(np.asarray(out), a @ b, rtol=1e-5, atol=1e-4)
    # the transpose rules also produce contiguous results in the operands' layouts
    gw = fgrad.grad(lambda w: fnp.sum(A @ w))(B)
    gx = fgrad.grad(lambda x: fnp.sum(x @ B))(A)
    assert gw._buf.flags["C_CONTIGUOUS"] and gx._buf.flags["C_CONTIGUOUS"]

    t_np = t_fg = float("inf")
    for _ in range(15):  # interleaved, best of: robust to a busy machine
        t0 = time.perf_counter()
        a @ b
        t1 = time.perf_counter()
        A @ B
        t2 = time.perf_counter()
        t_np, t_fg = min(t_np, t1 - t0), min(t_fg, t2 - t1)
    assert t_fg < 2 * t_np + 1e-3, (t_fg, t_np)


# ---------------------------------------------------------------------------------------
# einsum

EINSUM_CASES = [
    ("ij,jk->ik", [(3, 4), (4, 5)]),
    ("ij,jk", [(3, 4), (4, 5)]),
    ("ij,kj->ik", [(3, 4), (5, 4)]),
    ("bij,bjk->bik", [(2, 3, 4), (2, 4, 5)]),
    ("i,i->", [(4,), (4,)]),
    ("i,i", [(4,), (4,)]),
    ("i,j->ij", [(3,), (4,)]),
    ("ij->ji", [(3, 4)]),
    ("ij", [(3, 4)]),
    ("ji", [(3, 4)]),
    ("ij->", [(3, 4)]),
    ("ij->j", [(3, 4)]),
    ("ii->i", [(4, 4)]),
    ("ii", [(4, 4)]),
    ("iij->ij", [(3, 3, 2)]),
    ("iji->j", [(3, 2, 3)]),
    ("...ij,...jk->...ik", [(2, 3, 4), (2, 4, 5)]),
    ("...ij,...jk->...ik", [(2, 1, 3, 4), (5, 4, 6)]),
    ("...ij,jk", [(2, 3, 4), (4, 5)]),
    ("i...->...", [(3, 2, 4)]),
    ("...i,...i->...", [(2, 3, 4), (3, 4)]),
    ("ij,jk,kl->il", [(2, 3), (3, 4), (4, 5)]),
    ("ij,jk,kl", [(2, 3), (3, 4), (4, 5)]),
    ("ab,bc,ca->", [(2, 3), (3, 4), (4, 2)]),
    ("i,i,i->i", [(3,), (3,), (3,)]),
    ("bhqd,bhkd->bhqk", [(2, 3, 4, 5), (2, 3, 6, 5)]),
    ("bhqk,bhkd->bqhd", [(2, 3, 4, 6), (2, 3, 6, 5)]),
    ("ijk,jil->kl", [(2, 3, 4), (3, 2, 5)]),
    ("i,jk->ijk", [(2,), (3, 4)]),
    ("ij,ij->ij", [(3, 4), (3, 4)]),
    ("ij,j->i", [(3, 4), (4,)]),
    ("ij,ij->", [(3, 1), (1, 4)]),
    ("ab,cd,bd->ac", [(2, 3), (4, 5), (3, 5)]),
    ("a,b,c->", [(2,), (3,), (4,)]),
    ("ii,ij->j", [(3, 3), (3, 2)]),
    (" ij , jk -> ik ", [(3, 4), (4, 5)]),
    ("i,j,ij->", [(3,), (4,), (3, 4)]),
    ("ab,bc,cd,da->", [(2, 3), (3, 4), (4, 5), (5, 2)]),
    ("ij,k,jk->i", [(2, 3), (4,), (3, 4)]),
    ("bi,bj,bk,ijk->b", [(2, 3), (2, 4), (2, 2), (3, 4, 2)]),
]


@pytest.mark.parametrize("spec,shapes", EINSUM_CASES)
def test_einsum_vs_numpy(rng, spec, shapes):
    ops = [rng.normal(size=s) for s in shapes]
    want = np.einsum(spec, *ops)
    got = fnp.einsum(spec, *[fnp.asarray(o) for o in ops])
    assert got.shape == np.shape(want)
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-11, atol=1e-12)


@pytest.mark.parametrize("spec,shapes", EINSUM_CASES[::3])
def test_einsum_grads(rng, spec, shapes):
    ops = [rng.normal(size=s) for s in shapes]
    check_grads(lambda *xs: fnp.einsum(spec, *xs), ops, rng, order=1)


def test_einsum_grad_order2_and_vmap(rng):
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 5))
    check_grads(lambda x, y: fnp.einsum("ij,jk->ik", fnp.tanh(x), y), (a, b), rng, order=2)
    ab, bb = rng.normal(size=(2, 3, 4)), rng.normal(size=(2, 4, 5))
    check_vmap(lambda x, y: fnp.einsum("ij,jk->ki", x, y), (ab, bb), (0, 0))
    check_vmap(lambda x, y: fnp.einsum("ij,jk->ki", x, y), (ab, b), (0, None))
    check_vmap(lambda x: fnp.einsum("ii->i", x), (rng.normal(size=(3, 4, 4)),), (0,))


def test_einsum_interleaved_and_dtype(rng):
    a, b = rng.normal(size=(3, 4)), rng.normal(size=(4, 5))
    np.testing.assert_allclose(np.asarray(fnp.einsum(a, [0, 1], b, [1, 2], [0, 2])), a @ b, rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fnp.einsum(a, [Ellipsis, 1], b, [1, 2])), a @ b, rtol=1e-12)
    i32 = np.arange(9, dtype=np.int32).reshape(3, 3)
    got = fnp.einsum("ii", i32)
    assert got.dtype == np.einsum("ii", i32).dtype and int(got) == np.trace(i32)
    f32 = fnp.asarray(a, dtype=np.float32)
    assert fnp.einsum("ij,jk", f32, fnp.asarray(b, dtype=np.float32)).dtype == np.float32


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_einsum_hypothesis(data):
    """Random two-operand contractions with random output subsets and leading batch axes."""
    letters = "abcdefg"
    n_labels = data.draw(st.integers(1, 5))
    labs = letters[:n_labels]
    sizes = {c: data.draw(st.integers(1, 3)) for c in labs}
    t1 = data.draw(st.lists(st.sampled_from(labs), min_size=1, max_size=4, unique=True))
    t2 = data.draw(st.lists(st.sampled_from(labs), min_size=1, max_size=4, unique=True))
    used = sorted(set(t1) | set(t2))
    out = data.draw(st.lists(st.sampled_from(used), max_size=len(used), unique=True))
    ell = data.draw(st.booleans())
    pre = (2,) if ell else ()
    spec = ("..." if ell else "") + "".join(t1) + "," + ("..." if ell else "") + "".join(t2)
    spec += "->" + ("..." if ell else "") + "".join(out)
    seed = data.draw(st.integers(0, 2**16))
    rng = np.random.default_rng(seed)
    x = rng.normal(size=pre + tuple(sizes[c] for c in t1))
    y = rng.normal(size=pre + tuple(sizes[c] for c in t2))
    want = np.einsum(spec, x, y)
    got = fnp.einsum(spec, fnp.asarray(x), fnp.asarray(y))
    np.testing.assert_allclose(np.asarray(got), want, rtol=1e-11, atol=1e-12)


def test_einsum_errors():
    with pytest.raises(ValueError, match="operand subscripts given"):
        fnp.einsum("ij,jk->ik", fnp.ones((2, 3)))
    with pytest.raises(ValueError, match="does not match previous terms"):
        fnp.einsum("ij,jk->ik", fnp.ones((2, 3)), fnp.ones((4, 5)))
    with pytest.raises(ValueError, match="does not appear"):
        fnp.einsum("ij->iz", fnp.ones((2, 3)))
    with pytest.raises(ValueError, match="do not match"):
        fnp.einsum("ijk", fnp.ones((2, 3)))


# ---------------------------------------------------------------------------------------
# linalg forward vs numpy (with batch axes)

BATCHES = [(), (2,), (2, 3)]


@pytest.mark.parametrize("batch", BATCHES)
def test_linalg_forward(rng, batch):
    n = 4
    a = rng.normal(size=batch + (n, n)) + n * np.eye(n)
    s = spd(rng, n, batch)
    b = rng.normal(size=batch + (n, 2))
    LA = fnp.linalg
    close = lambda x, y: np.testing.assert_allclose(np.asarray(x), y, rtol=1e-9, atol=1e-10)
    close(LA.inv(a), np.linalg.inv(a))
    close(LA.solve(a, b), np.linalg.solve(a, b))
    close(LA.solve(a, b[..., 0] if not batch else b), np.linalg.solve(a, b[..., 0] if not batch else b))
    close(LA.det(a), np.linalg.det(a))
    sign, logdet = LA.slogdet(a)
    ns, nl = np.linalg.slogdet(a)
    close(sign, ns)
    close(logdet, nl)
    close(LA.cholesky(s), np.linalg.cholesky(s))
    close(LA.cholesky(s, upper=True), np.swapaxes(np.linalg.cholesky(s), -1, -2))
    w, v = LA.eigh(s)
    close(w, np.linalg.eigvalsh(s))
    close(np.asarray(v) @ (np.asarray(w)[..., None] * np.swapaxes(np.asarray(v), -1, -2)), s)
    close(LA.eigvalsh(s), np.linalg.eigvalsh(s))
    for m, k in ((n, n), (5, 3), (3, 5)):
        x = rng.normal(size=batch + (m, k))
        close(LA.svd(x, compute_uv=False), np.linalg.svd(x, compute_uv=False))
        for full in (False, True):
            u, sv, vh = LA.svd(x, full_matrices=full)
            nu, _, nvh = np.linalg.svd(x, full_matrices=full)
            assert u.shape == nu.shape and vh.shape == nvh.shape
            kk = min(m, k)
            close(np.asarray(u)[..., :kk] * np.asarray(sv)[..., None, :] @ np.asarray(vh)[..., :kk, :], x)
        for mode in ("reduced", "complete"):
            q, r = LA.qr(x, mode=mode)
            nq, nr = np.linalg.qr(x, mode=mode)
            assert q.shape == nq.shape and r.shape == nr.shape
            close(np.asarray(q) @ np.asarray(r), x)
            close(np.abs(np.asarray(r)), np.abs(nr))
        close(LA.qr(x, mode="r"), np.linalg.qr(x, mode="r"))
        close(LA.pinv(x), np.linalg.pinv(x))
    close(LA.matrix_power(a, 3), np.linalg.matrix_power(a, 3))
    close(LA.matrix_power(a, -2), np.linalg.matrix_power(a, -2))
    close(LA.matrix_power(a, 0), np.linalg.matrix_power(a, 0))


def test_linalg_solve_broadcasting(rng):
    a = rng.normal(size=(2, 1, 3, 3)) + 3 * np.eye(3)
    b = rng.normal(size=(4, 3, 2))
    np.testing.assert_allclose(np.asarray(fnp.linalg.solve(a, b)), np.linalg.solve(a, b), rtol=1e-10)
    b1 = rng.normal(size=(3,))
    np.testing.assert_allclose(np.asarray(fnp.linalg.solve(a, b1)), np.linalg.solve(a, b1), rtol=1e-10)


def test_linalg_int_input_and_dtype():
    a = np.array([[2, 1], [1, 3]])
    out = fnp.linalg.inv(a)
    assert out.dtype == np.float64
    np.testing.assert_allclose(np.asarray(out), np.linalg.inv(a))
    a32 = fnp.asarray(a, dtype=np.float32)
    for f in (fnp.linalg.inv, fnp.linalg.cholesky, fnp.linalg.det, lambda x: fnp.linalg.eigh(x)[1],
              lambda x: fnp.linalg.svd(x)[0], lambda x: fnp.linalg.qr(x)[1], fnp.linalg.norm):
        assert f(a32).dtype == np.float32


def test_linalg_failures_give_nan(backend):
    """Like JAX: a failed factorization yields NaN (a singular solve the LU's infinities)
    rather than an exception, on every backend (cupy's cuSOLVER calls report no failure
    unless asked: they returned a partial factor)."""
    bad = np.array([[[1.0, 2.0], [2.0, 1.0]], [[2.0, 0.0], [0.0, 2.0]]])
    out = fnp.linalg.cholesky(bad)
    assert backend.on_device(out)
    out = np.asarray(out)
    assert np.isnan(out[0]).all()
    np.testing.assert_allclose(out[1], np.linalg.cholesky(bad[1]))
    assert np.isnan(np.asarray(fnp.linalg.cholesky(bad[0]))).all()
    sing = np.array([[[1.0, 2.0], [2.0, 4.0]], [[2.0, 0.0], [0.0, 2.0]]])
    # an exactly singular solve is the LU's division by the zero pivot, JAX's values (round 25)
    x = np.asarray(fnp.linalg.solve(sing, np.ones((2, 2, 1))))
    np.testing.assert_array_equal(x[0], [[-np.inf], [np.inf]])
    assert np.allclose(x[1], 0.5)
    np.testing.assert_array_equal(np.asarray(fnp.linalg.solve(sing[0], np.ones(2))), [-np.inf, np.inf])
    tri = np.array([[[1.0, 0.0], [2.0, 0.0]], [[2.0, 0.0], [1.0, 4.0]]])  # the first is singular
    t = np.asarray(L.triangular_solve(fnp.asarray(tri), fnp.ones((2, 2, 1)), left_side=True, lower=True))
    assert np.isnan(t[0]).all()
    np.testing.assert_allclose(t[1], np.linalg.solve(tri[1], np.ones((2, 1))))


def test_linalg_errors():
    with pytest.raises(np.linalg.LinAlgError, match="square"):
        fnp.linalg.inv(fnp.ones((2, 3)))
    with pytest.raises(np.linalg.LinAlgError, match="at least two-dimensional"):
        fnp.linalg.det(fnp.ones(3))
    with pytest.raises(ValueError, match="invalid norm order"):
        fnp.linalg.norm(fnp.ones(3), "fro")


# ---------------------------------------------------------------------------------------
# norms

VEC_ORDS = [None, 1, 2, 3, 0.5, np.inf, -np.inf, 0, -1]
MAT_ORDS = [None, "fro", "nuc", 1, -1, 2, -2, np.inf, -np.inf]


def test_norm_forward(rng):
    x = rng.normal(size=(3, 4, 5))
    for o in VEC_ORDS:
        for axis in (0, 1, -1):
            for kd in (False, True):
                np.testing.assert_allclose(np.asarray(fnp.linalg.norm(x, o, axis, kd)),
                                           np.linalg.norm(x, o, axis, kd), rtol=1e-12)
        close(fnp.linalg.norm(x[0, 0], o), np.linalg.norm(x[0, 0], o), rtol=1e-12)
    for o in MAT_ORDS:
        for axis in ((0, 1), (1, 2), (2, 0), (-1, -2)):
            for kd in (False, True):
                np.testing.assert_allclose(np.asarray(fnp.linalg.norm(x, o, axis, kd)),
                                           np.linalg.norm(x, o, axis, kd), rtol=1e-12)
        close(fnp.linalg.norm(x[0], o), np.linalg.norm(x[0], o), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fnp.linalg.norm(x)), np.linalg.norm(x), rtol=1e-12)
    close(fnp.linalg.norm(x, keepdims=True), np.linalg.norm(x, keepdims=True))
    xc = x + 1j * rng.normal(size=x.shape)
    close(fnp.linalg.norm(xc, axis=-1), np.linalg.norm(xc, axis=-1), rtol=1e-12)
    np.testing.assert_allclose(np.asarray(fnp.linalg.vector_norm(x, ord=3)), np.linalg.vector_norm(x, ord=3))
    np.testing.assert_allclose(np.asarray(fnp.linalg.matrix_norm(x, ord="nuc")),
                               np.linalg.matrix_norm(x, ord="nuc"), rtol=1e-12)


def test_norm_grads(rng):
    x = rng.normal(size=(4, 5))
    for o in (None, 1, 2, 3, np.inf):
        check_grads(lambda v: fnp.linalg.norm(v, o, axis=-1), (x,), rng, order=1)
    for o in (None, "fro", "nuc", 2, -2, 1, np.inf):
        check_grads(lambda m: fnp.linalg.norm(m, o), (distinct_sv(rng, 4, 5),), rng, order=1)
    check_grads(lambda v: fnp.linalg.norm(v), (x,), rng, order=2)


def test_norm_grad_at_zero_is_nan_like_jax():
    g = fgrad.grad(fnp.linalg.norm)(fnp.zeros(3))
    assert np.isnan(np.asarray(g)).all()
    g1 = fgrad.grad(lambda v: fnp.linalg.norm(v, 1))(fnp.zeros(3))
    np.testing.assert_array_equal(np.asarray(g1), 1.0)  # JAX: abs'(0) = 1


# ---------------------------------------------------------------------------------------
# derivatives of the decompositions (gauge-invariant outputs), orders 1 and 2


def _eigh_inv(a):
    w, v = fnp.linalg.eigh(a)
    # eigenvalues and the spectral projectors v_k v_k^T (independent of eigenvector signs)
    return w, fnp.einsum("...ik,...jk->...kij", v, v)


def _svd_inv(a):
    u, s, vh = fnp.linalg.svd(a, full_matrices=False)
    return s, fnp.einsum("...ik,...jk->...kij", u, u), fnp.einsum("...ki,...kj->...kij", vh, vh), \
        (u * fnp.expand_dims(fnp.sin(s), -2)) @ vh


def _qr_fixed(a, mode="reduced"):
    q, r = fnp.linalg.qr(a, mode=mode)
    k = min(r.shape[-2:])
    d = fnp.sign(fnp.einsum("...ii->...i", r[..., :k, :k]))  # fix the sign gauge (d sign = 0)
    return q * fnp.expand_dims(d, -2), r * fnp.expand_dims(d, -1)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_grads_inv_solve_det(rng, batch):
    n = 3
    a = rng.normal(size=batch + (n, n)) + 2 * n * np.eye(n)
    b = rng.normal(size=batch + (n, 2))
    check_grads(fnp.linalg.inv, (a,), rng)
    check_grads(fnp.linalg.solve, (a, b), rng)
    check_grads(fnp.linalg.det, (a,), rng)
    check_grads(lambda x: tuple(fnp.linalg.slogdet(x)), (a,), rng)
    check_grads(lambda x: fnp.linalg.matrix_power(x, 3), (a,), rng, order=1)
    check_grads(lambda x: fnp.linalg.matrix_power(x, -2), (a,), rng, order=1)


def test_det_grad_formula(rng):
    a = rng.normal(size=(4, 4))
    g = fgrad.grad(fnp.linalg.det)(fnp.asarray(a))
    np.testing.assert_allclose(np.asarray(g), np.linalg.det(a) * np.linalg.inv(a).T, rtol=1e-10)
    a2 = a.copy()
    a2[0] *= -1  # negative determinant
    g = fgrad.grad(lambda x: fnp.linalg.slogdet(x)[1])(fnp.asarray(a2))
    np.testing.assert_allclose(np.asarray(g), np.linalg.inv(a2).T, rtol=1e-10)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_grads_cholesky(rng, batch):
    s = spd(rng, 4, batch)
    check_grads(fnp.linalg.cholesky, (s,), rng)
    check_grads(lambda x: fnp.linalg.cholesky(x, upper=True), (s,), rng, order=1)
    # gradient is symmetric (the input is symmetrized, as in JAX)
    g = fgrad.grad(lambda x: fnp.sum(fnp.sin(fnp.linalg.cholesky(x))))(fnp.asarray(s))
    np.testing.assert_allclose(np.asarray(g), np.swapaxes(np.asarray(g), -1, -2), atol=1e-12)


@pytest.mark.parametrize("batch", [(), (2,)])
def test_grads_eigh(rng, batch):
    a = sym_distinct(rng, 4, batch)
    check_grads(_eigh_inv, (a,), rng)
    check_grads(fnp.linalg.eigvalsh, (a,), rng)


def test_eigh_eigenvalue_grad_formula(rng):
    a = sym_distinct(rng, 4)
    w, v = np.linalg.eigh(a)
    g = fgrad.grad(lambda x: fnp.linalg.eigvalsh(x)[-1])(fnp.asarray(a))
    np.testing.assert_allclose(np.asarray(g), np.outer(v[:, -1], v[:, -1]), atol=1e-10)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 3), (2, 3, 4)])
def test_grads_svd(rng, shape):
    a = distinct_sv(rng, shape[-2], shape[-1], shape[:-2])
    check_grads(_svd_inv, (a,), rng, order=2 if len(shape) == 2 else 1)
    check_grads(lambda x: fnp.linalg.svd(x, compute_uv=False), (a,), rng)


@pytest.mark.parametrize("shape", [(3, 3), (5, 3), (3, 5), (2, 5, 3)])
def test_svd_full_matrices_grads(rng, shape):
    """full_matrices=True: the extra columns of U (rows of Vh) are only defined up to a
    rotation of the complement; the projector onto the complement is gauge invariant."""
    m, n = shape[-2:]
    k = min(m, n)
    a = distinct_sv(rng, m, n, shape[:-2])

    def f(x):
        u, s, vh = fnp.linalg.svd(x, full_matrices=True)
        u2, v2 = u[..., :, k:], fnp.swapaxes(vh, -1, -2)[..., :, k:]
        return s, u2 @ fnp.swapaxes(u2, -1, -2), v2 @ fnp.swapaxes(v2, -1, -2), _svd_inv(x)[1]

    check_grads(f, (a,), rng, order=1)
    # the full factors stay orthogonal to first order, and U S Vh reproduces dA
    t = rng.normal(size=a.shape)
    (u, s, vh), (du, ds, dvh) = fgrad.jvp(lambda x: tuple(fnp.linalg.svd(x)), (fnp.asarray(a),),
                                          (fnp.asarray(t),))
    u, s, vh, du, ds, dvh = map(np.asarray, (u, s, vh, du, ds, dvh))
    uT = np.swapaxes(u, -1, -2)
    np.testing.assert_allclose(uT @ du, -np.swapaxes(uT @ du, -1, -2), atol=1e-12)
    np.testing.assert_allclose(dvh @ np.swapaxes(vh, -1, -2), -vh @ np.swapaxes(dvh, -1, -2), atol=1e-12)
    sm = np.zeros(a.shape)
    dsm = np.zeros(a.shape)
    for i in range(k):
        sm[..., i, i], dsm[..., i, i] = s[..., i], ds[..., i]
    np.testing.assert_allclose(du @ sm @ vh + u @ dsm @ vh + u @ sm @ dvh, t, atol=1e-10)


@pytest.mark.parametrize("shape", [(4, 4), (5, 3), (3, 5), (2, 4, 3), (2, 3, 5)])
def test_grads_qr(rng, shape):
    a = rng.normal(size=shape) + np.eye(*shape[-2:])
    check_grads(_qr_fixed, (a,), rng, order=2 if len(shape) == 2 else 1)
    m, n = shape[-2:]
    if m <= n:
        check_grads(lambda x: _qr_fixed(x, "complete"), (a,), rng, order=1)
    else:  # complete q of a tall matrix: the complement projector is gauge invariant
        def f(x):
            q, r = fnp.linalg.qr(x, mode="complete")
            q2 = q[..., :, n:]
            r1 = fnp.swapaxes(fnp.swapaxes(r, -1, -2)[..., :n], -1, -2)  # rows :n
            d = fnp.sign(fnp.einsum("...ii->...i", r1))
            return q2 @ fnp.swapaxes(q2, -1, -2), r1 * fnp.expand_dims(d, -1)

        check_grads(f, (a,), rng, order=1)
        t = rng.normal(size=a.shape)
        (q, r), (dq, dr) = fgrad.jvp(lambda x: tuple(fnp.linalg.qr(x, mode="complete")),
                                     (fnp.asarray(a),), (fnp.asarray(t),))
        q, r, dq, dr = map(np.asarray, (q, r, dq, dr))
        np.testing.assert_allclose(dq @ r + q @ dr, t, atol=1e-10)
        np.testing.assert_allclose(np.swapaxes(q, -1, -2) @ dq, -np.swapaxes(dq, -1, -2) @ q, atol=1e-12)
        assert np.all(np.tril(dr, -1) == 0)


def test_grads_pinv(rng):
    for shape in ((4, 3), (3, 4), (3, 3)):
        check_grads(fnp.linalg.pinv, (distinct_sv(rng, *shape),), rng, order=1)


@pytest.mark.parametrize("left_side", [True, False])
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("transpose_a", [True, False])
@pytest.mark.parametrize("unit_diagonal", [True, False])
def test_triangular_solve(rng, left_side, lower, transpose_a, unit_diagonal):
    n = 4
    a = rng.normal(size=(2, n, n)) + 3 * np.eye(n)  # the unused triangle is garbage on purpose
    b = rng.normal(size=(2, n, 3) if left_side else (2, 3, n))
    kw = dict(left_side=left_side, lower=lower, transpose_a=transpose_a, unit_diagonal=unit_diagonal)
    tri = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        tri = tri - tri * np.eye(n) + np.eye(n)
    op = np.swapaxes(tri, -1, -2) if transpose_a else tri
    want = np.linalg.solve(op, b) if left_side else np.swapaxes(
        np.linalg.solve(np.swapaxes(op, -1, -2), np.swapaxes(b, -1, -2)), -1, -2)
    f = lambda x, y: L.triangular_solve(x, y, **kw)
    np.testing.assert_allclose(np.asarray(f(fnp.asarray(a), fnp.asarray(b))), want, rtol=1e-10, atol=1e-12)
    check_grads(f, (a, b), rng, order=2 if lower and not transpose_a else 1)
    check_vmap(f, (a, b), (0, 0))
    check_vmap(f, (a[0], b), (None, 0))
    check_vmap(f, (a, b[0]), (0, None))
    check_vmap(f, (a[0], np.moveaxis(b, 0, -1)), (None, 2), out_axes=1)


# ---------------------------------------------------------------------------------------
# vmap of the linalg primitives vs a Python loop


def test_vmap_linalg(rng):
    n = 3
    a = rng.normal(size=(4, n, n)) + 2 * n * np.eye(n)
    b = rng.normal(size=(4, n, 2))
    s = spd(rng, n, (4,))
    LA = fnp.linalg
    for axes in ((0, 0), (0, None), (None, 0)):
        aa = a if axes[0] == 0 else a[0]
        bb = b if axes[1] == 0 else b[0]
        check_vmap(LA.solve, (aa, bb), axes)
    check_vmap(LA.solve, (np.moveaxis(a, 0, 2), np.moveaxis(b, 0, 1)), (2, 1))
    check_vmap(LA.inv, (a,), 0)
    check_vmap(LA.det, (np.moveaxis(a, 0, 1),), 1)
    check_vmap(lambda x: tuple(LA.slogdet(x)), (a,), 0)
    check_vmap(LA.cholesky, (np.moveaxis(s, 0, -1),), -1)
    check_vmap(_eigh_inv, (sym_distinct(rng, n, (4,)),), 0)
    check_vmap(_svd_inv, (np.moveaxis(distinct_sv(rng, 4, 3, (5,)), 0, 1),), 1)
    check_vmap(_qr_fixed, (rng.normal(size=(3, 5, 4)),), 0)
    check_vmap(lambda x: LA.norm(x, "nuc"), (rng.normal(size=(3, 5, 4)),), 0)
    # leading batch axes on top of the vmapped one
    check_vmap(LA.inv, (rng.normal(size=(2, 4, n, n)) + 2 * n * np.eye(n),), 1)


def test_vmap_of_grad_linalg(rng):
    n = 3
    s = spd(rng, n, (4,))
    f = fgrad.grad(lambda x: fnp.sum(fnp.linalg.cholesky(x) ** 2) + fnp.linalg.slogdet(x)[1])
    check_vmap(f, (s,), 0)
    a = rng.normal(size=(4, n, n)) + 2 * n * np.eye(n)
    g = fgrad.grad(lambda x, y: fnp.sum(fnp.linalg.solve(x, y)), argnums=(0, 1))
    check_vmap(g, (a, rng.normal(size=(n, 2))), (0, None))
    check_vmap(g, (a[0], rng.normal(size=(4, n, 2))), (None, 0))


def test_jacobians_agree(rng):
    a = sym_distinct(rng, 3)
    jf = fgrad.jacfwd(fnp.linalg.eigvalsh)(fnp.asarray(a))
    jr = fgrad.jacrev(fnp.linalg.eigvalsh)(fnp.asarray(a))
    np.testing.assert_allclose(np.asarray(jf), np.asarray(jr), atol=1e-10)
    h = fgrad.hessian(lambda x: fnp.linalg.slogdet(x)[1])(fnp.asarray(spd(rng, 3)))
    assert h.shape == (3, 3, 3, 3)
    np.testing.assert_allclose(np.asarray(h), np.transpose(np.asarray(h), (2, 3, 0, 1)), atol=1e-10)


def test_multi_dot_lstsq_misc(rng):
    a, b, c, d = (rng.normal(size=s) for s in ((5,), (5, 3), (3, 7), (7,)))
    close(fnp.linalg.multi_dot([a, b, c, d]), np.linalg.multi_dot([a, b, c, d]))
    np.testing.assert_allclose(np.asarray(fnp.linalg.multi_dot([b, c])), b @ c)
    check_grads(lambda x, y, z: fnp.linalg.multi_dot([x, y, z]), (b.T, b, c), rng, order=1)
    m, y = rng.normal(size=(6, 3)), rng.normal(size=(6,))
    x, res, rank, sv = fnp.linalg.lstsq(m, y)
    nx, nres, nrank, nsv = np.linalg.lstsq(m, y)
    np.testing.assert_allclose(np.asarray(x), nx, rtol=1e-10)
    np.testing.assert_allclose(np.asarray(res), nres, rtol=1e-10)
    assert int(rank) == nrank
    np.testing.assert_allclose(np.asarray(sv), nsv, rtol=1e-12)
    assert int(fnp.linalg.matrix_rank(np.outer(y, y))) == 1
    np.testing.assert_allclose(np.asarray(fnp.linalg.cond(m[:3])), np.linalg.cond(m[:3]), rtol=1e-10)
    t = rng.normal(size=(2, 3, 6)) + np.eye(6).reshape(2, 3, 6)
    bt = rng.normal(size=(2, 3))
    close(fnp.linalg.tensorsolve(t, bt), np.linalg.tensorsolve(t, bt), rtol=1e-9)
    ti = rng.normal(size=(4, 6, 8, 3)) + 0.0
    np.testing.assert_allclose(np.asarray(fnp.linalg.tensorinv(ti, ind=2)), np.linalg.tensorinv(ti, ind=2),
                               rtol=1e-8, atol=1e-10)


def test_jit_linalg(rng):
    """Staged (jit) versions agree with eager ones: abstract evaluation of every primitive."""
    n = 3
    a = rng.normal(size=(2, n, n)) + 2 * n * np.eye(n)
    s = spd(rng, n, (2,))
    w = distinct_sv(rng, 4, 3, (2,))
    LA = fnp.linalg
    fns = {
        "solve": lambda x: LA.solve(x, x[..., :2]),
        "slogdet": lambda x: LA.slogdet(x)[1],
        "chol": lambda x: LA.cholesky(x @ fnp.swapaxes(x, -1, -2)),
        "eigh": lambda x: _eigh_inv(x @ fnp.swapaxes(x, -1, -2))[1],
        "svd": lambda x: _svd_inv(x)[3],
        "qr": lambda x: _qr_fixed(x)[1],
        "tri": lambda x: L.triangular_solve(x, x, left_side=False, lower=False),
        "einsum": lambda x: fnp.einsum("bij,bjk,bkl->bil", x, x, x),
    }
    for name, f in fns.items():
        x = fnp.asarray(w if name in ("svd", "qr") else (s if name == "eigh" else a))
        loss = lambda v: fnp.sum(fnp.sin(f(v)))
        np.testing.assert_allclose(np.asarray(fgrad.jit(f)(x)), np.asarray(f(x)), rtol=1e-10, atol=1e-12,
                                   err_msg=name)
        g_jit, g = fgrad.jit(fgrad.grad(loss))(x), fgrad.grad(loss)(x)
        np.testing.assert_allclose(np.asarray(g_jit), np.asarray(g), rtol=1e-9, atol=1e-11, err_msg=name)


def test_triangular_solve_without_scipy(rng, monkeypatch):
    """The NumPy-only fallback (masked general solve) agrees with the scipy path."""
    a = rng.normal(size=(2, 4, 4)) + 3 * np.eye(4)
    b = rng.normal(size=(2, 4, 3))
    for kw in (dict(lower=True), dict(lower=False, transpose_a=True), dict(lower=True, unit_diagonal=True),
               dict(lower=False, left_side=False)):
        bb = np.swapaxes(b, -1, -2) if kw.get("left_side") is False else b
        want = np.asarray(L.triangular_solve(fnp.asarray(a), fnp.asarray(bb), **kw))
        monkeypatch.setattr(L, "scipy_module", lambda name: None)
        got = np.asarray(L.triangular_solve(fnp.asarray(a), fnp.asarray(bb), **kw))
        monkeypatch.undo()
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-12)


def test_linalg_array_api_aliases(rng):
    x = rng.normal(size=(2, 3, 3))
    close(fnp.linalg.trace(x), np.linalg.trace(x), rtol=1e-12)
    close(fnp.linalg.diagonal(x), np.linalg.diagonal(x))
    close(fnp.linalg.matrix_transpose(x), np.linalg.matrix_transpose(x))
    close(fnp.linalg.svdvals(x), np.linalg.svdvals(x), rtol=1e-12)
    close(fnp.linalg.vecdot(x, x[0]), np.linalg.vecdot(x, x[0]), rtol=1e-12)
    close(fnp.linalg.matmul(x, x), np.linalg.matmul(x, x), rtol=1e-12)
    y = rng.normal(size=(3, 3, 2))
    close(fnp.linalg.tensordot(x, y, axes=2), np.linalg.tensordot(x, y, axes=2), rtol=1e-12)


def test_lstsq_residuals_are_jaxs_and_jit_agrees_with_eager():
    """JAX always returns the residuals (squared column norms of b - a x), whatever the rank,
    so the result's shape never depends on values; NumPy's empty residuals need
    ``numpy_resid=True`` and a concrete rank (JAX 0.10.2's numbers)."""
    a = np.random.default_rng(0).normal(size=(4, 3))
    b = np.arange(4.0)
    for f in (fnp.linalg.lstsq, fgrad.jit(fnp.linalg.lstsq)):
        x, res, rank, s = f(a, b)
        assert res.shape == (1,)
        np.testing.assert_allclose(np.asarray(res), [10.06829289], rtol=1e-8)
        x2, res2, _, _ = f(a[:2], np.ones((2, 2)))  # wide: NumPy would give no residuals
        assert res2.shape == (2,) and np.all(np.asarray(res2) < 1e-28)
    _, res, rank, _ = fnp.linalg.lstsq(np.ones((3, 3)), b[:3])  # rank 1
    assert int(rank) == 1 and np.allclose(np.asarray(res), [2.0])
    assert fnp.linalg.lstsq(a[:2], np.ones((2, 2)), numpy_resid=True)[1].shape == (0,)
    with pytest.raises(fgrad.errors.ConcretizationTypeError):
        fgrad.jit(lambda a, b: fnp.linalg.lstsq(a, b, numpy_resid=True))(a, b)


def test_contraction_shape_errors_are_typeerror_as_in_jax():
    """Contracted axes of different lengths: JAX raises TypeError (dot_general's shape rule)
    for ``@``/``matmul``, ``dot``, ``vdot``, ``inner``, ``tensordot`` and ``lax.dot_general``;
    fgrad raised ValueError only, so ``except TypeError`` (JAX's "Einsum/tensordot" code)
    missed it.  The error is both (NumPy code catching ValueError still works)."""
    a = fnp.ones((2, 3))
    calls = [lambda: a @ a, lambda: fnp.matmul(a, a), lambda: fnp.dot(a, a),
             lambda: fnp.dot(fnp.ones(2), fnp.ones(3)), lambda: fnp.vdot(fnp.ones(2), fnp.ones(3)),
             lambda: fnp.inner(fnp.ones(2), fnp.ones(3)),
             lambda: fnp.tensordot(a, a, axes=([0], [1])),
             lambda: fgrad.jit(fnp.matmul)(a, a),
             lambda: fgrad.lax.dot_general(a, a, (((1,), (0,)), ((), ())))]
    for call in calls:
        with pytest.raises(TypeError) as info:
            call()
        assert isinstance(info.value, ValueError)
    with pytest.raises(ValueError) as info:  # batch axes that do not broadcast: ValueError, as JAX
        fnp.matmul(fnp.ones((2, 2, 3)), fnp.ones((3, 3, 2)))
    assert not isinstance(info.value, TypeError)
