"""Structural primitives (concatenate, split, pad, rev) and the NumPy joining / splitting /
padding / triangle / diagonal functions: forward vs NumPy, derivatives vs central finite
differences (orders 1 and 2, forward and reverse), vmap vs a Python loop."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fgrad
import fgrad.numpy as fnp
from fgrad.core.primitive import PRIMITIVES
from fgrad.ops import structural as ST
from fgrad.testing.device_numerics import assert_equal_up_to_device_ulps
from fgrad.tree_util import tree_flatten, tree_unflatten

RNG = np.random.default_rng(1)


# ---------------------------------------------------------------------------------------
# local helpers


def _flat(out):
    return [np.asarray(o, dtype=np.float64) for o in tree_flatten(out)[0]]


def _fd(f, args, vs, eps=1e-6):
    def shift(s):
        return [fnp.asarray(np.asarray(a) + s * v) if v is not None else a
                for a, v in zip(args, vs, strict=True)]
    hi, lo = _flat(f(*shift(eps))), _flat(f(*shift(-eps)))
    return [(h - lo_) / (2 * eps) for h, lo_ in zip(hi, lo, strict=True)]


def check_grads(f, args, order=2, atol=1e-6, rtol=1e-6, seed=0):
    """jvp vs central differences; vjp vs jvp (<vjp(u), v> == <u, jvp(v)>) and vs central
    differences; recursively on the jvp and vjp functions up to ``order``."""
    rng = np.random.default_rng(seed)
    args = [fnp.asarray(a) for a in args]
    fl = [i for i, a in enumerate(args) if np.asarray(a).dtype.kind == "f"]
    vs = [rng.standard_normal(np.shape(a)) if i in fl else None for i, a in enumerate(args)]

    def jvp_fn(*xs):
        ts = [fnp.asarray(v) if v is not None else fnp.zeros_like(x) for x, v in zip(xs, vs, strict=True)]
        return fgrad.jvp(f, tuple(xs), tuple(ts))[1]

    flat_out, tree = tree_flatten(f(*args))
    us = [rng.standard_normal(np.shape(o)) for o in flat_out]

    def vjp_fn(*xs):
        _, pull = fgrad.vjp(f, *xs)
        cts = pull(tree_unflatten(tree, [fnp.asarray(u) for u in us]))
        return [cts[i] for i in fl]

    t = _flat(jvp_fn(*args))
    fd = _fd(f, args, vs)
    for a, b in zip(t, fd, strict=True):
        np.testing.assert_allclose(a, b, atol=atol * 10, rtol=rtol * 10, err_msg="jvp vs finite differences")
    ct = _flat(vjp_fn(*args))
    lhs = sum(float(np.sum(c * vs[i])) for c, i in zip(ct, fl, strict=True))
    rhs = sum(float(np.sum(u * tt)) for u, tt in zip(us, t, strict=True))
    rhs_fd = sum(float(np.sum(u * d)) for u, d in zip(us, fd, strict=True))
    np.testing.assert_allclose(lhs, rhs, atol=atol, rtol=rtol, err_msg="<vjp(u), v> vs <u, jvp(v)>")
    np.testing.assert_allclose(lhs, rhs_fd, atol=atol * 10, rtol=rtol * 10, err_msg="vjp vs fd")
    if order > 1:
        check_grads(jvp_fn, args, order - 1, atol, rtol, seed + 1)
        check_grads(vjp_fn, args, order - 1, atol, rtol, seed + 2)


def check_vmap(f, args, in_axes, out_axes=0):
    out = fgrad.vmap(f, in_axes=in_axes, out_axes=out_axes)(*args)
    axes = in_axes if isinstance(in_axes, (tuple, list)) else (in_axes,) * len(args)
    n = next(np.shape(a)[ax] for a, ax in zip(args, axes, strict=True) if ax is not None)
    rows = []
    for b in range(n):
        ab = [a if ax is None else fnp.asarray(np.take(np.asarray(a), b, axis=ax))
              for a, ax in zip(args, axes, strict=True)]
        rows.append(tree_flatten(f(*ab))[0])
    got = tree_flatten(out)[0]
    assert len(got) == len(rows[0])
    for k, g in enumerate(got):
        want = np.stack([np.asarray(r[k]) for r in rows], axis=out_axes)
        np.testing.assert_allclose(np.asarray(g), want, rtol=1e-12, atol=1e-12)
        assert np.asarray(g).dtype == want.dtype


def A(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def B(n, *shape, axis=0):
    return np.moveaxis(A(n, *shape), 0, axis)


def same_sum(got, want):
    """A sum (``trace``): NumPy's bits on the host; a GPU's reductions add in another order."""
    assert np.asarray(got).dtype == np.asarray(want).dtype
    assert_equal_up_to_device_ulps(got, want, ulps=4)


def same(got, want):
    if isinstance(want, (list, tuple)):
        assert isinstance(got, (list, tuple)) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            same(g, w)
        return
    g = np.asarray(got)
    assert g.shape == np.shape(want), (g.shape, np.shape(want))
    assert g.dtype == np.asarray(want).dtype, (g.dtype, np.asarray(want).dtype)
    np.testing.assert_array_equal(g, want)


# ---------------------------------------------------------------------------------------
# the primitives


def test_primitives_registered_with_rules():
    for name in ("concatenate", "split", "pad", "rev"):
        p = PRIMITIVES[name]
        assert p.jvp is not None and p.batch is not None and p.transpose is not None and p.linear


def _ref_lax_pad(x, pv, cfg):
    """Reference lax.pad: per axis, interior padding, then low/high (negative crops)."""
    out = np.asarray(x)
    for ax, (lo, hi, it) in enumerate(cfg):
        n = out.shape[ax]
        if it and n > 1:
            pos = np.repeat(np.arange(1, n), it)
            out = np.insert(out, pos, pv, axis=ax)
        widths = [(0, 0)] * out.ndim
        widths[ax] = (max(lo, 0), max(hi, 0))
        out = np.pad(out, widths, constant_values=pv)
        sl = [slice(None)] * out.ndim
        sl[ax] = slice(-min(lo, 0), out.shape[ax] + min(hi, 0))
        out = out[tuple(sl)]
    return out


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(1, 4), st.integers(-2, 3), st.integers(-2, 3), st.integers(0, 2)),
                min_size=1, max_size=3))
def test_lax_pad_forward_grad_vmap(spec):
    shape = tuple(s[0] for s in spec)
    cfg = [s[1:] for s in spec]
    if any(n + max(n - 1, 0) * it + lo + hi < 0 for n, (lo, hi, it) in zip(shape, cfg, strict=True)):
        return
    x = A(*shape)
    got = ST.pad(fnp.asarray(x), 0.5, cfg)
    np.testing.assert_array_equal(np.asarray(got), _ref_lax_pad(x, 0.5, cfg))
    # linear in (x, padding value): the vjp is the exact adjoint
    w = A(*np.shape(got))
    gx, gp = fgrad.grad(lambda x, p: fnp.sum(ST.pad(x, p, cfg) * w), argnums=(0, 1))(fnp.asarray(x), 0.5)
    eye = np.eye(x.size).reshape((x.size,) + shape)
    ref_gx = np.array([np.sum(_ref_lax_pad(e, 0.0, cfg) * w) for e in eye]).reshape(shape)
    np.testing.assert_allclose(np.asarray(gx), ref_gx, atol=1e-12)
    np.testing.assert_allclose(float(gp), np.sum(_ref_lax_pad(np.zeros(shape), 1.0, cfg) * w), atol=1e-12)
    xb = A(2, *shape)
    check_vmap(lambda x, p: ST.pad(x, p, cfg), [fnp.asarray(xb), fnp.asarray([1.5, -2.0])], in_axes=(0, 0))
    check_vmap(lambda x, p: ST.pad(x, p, cfg), [fnp.asarray(x), fnp.asarray([1.5, -2.0])], in_axes=(None, 0))
    check_vmap(lambda x: ST.pad(x, 3.0, cfg), [fnp.asarray(np.moveaxis(xb, 0, -1))], in_axes=-1)


def test_lax_pad_grads_second_order():
    cfg = [(1, -1, 1), (-1, 2, 0)]
    check_grads(lambda x, p: fnp.sin(ST.pad(x, p, cfg)) * ST.pad(x * x, p, cfg), [A(3, 4), np.array(0.3)])


def test_concatenate_primitive_rules():
    xs = [A(2, 3), A(2, 1), A(2, 4)]
    check_grads(lambda a, b, c: fnp.concatenate([a, b * b, c], axis=1) ** 2, xs)
    check_vmap(lambda a, b: fnp.concatenate([a, b], axis=0), [fnp.asarray(A(3, 2, 4)), fnp.asarray(A(5, 4))],
               in_axes=(0, None))
    check_vmap(lambda a, b: fnp.concatenate([a, b], axis=1),
               [fnp.asarray(A(2, 3, 4)), fnp.asarray(B(3, 2, 1, axis=2))],
               in_axes=(1, 2))
    check_vmap(lambda a, b: fnp.concatenate([a, b], axis=-1), [fnp.asarray(A(2, 4)), fnp.asarray(A(2, 3, 2))],
               in_axes=(None, 1), out_axes=1)
    # a non-differentiated operand (zero tangent) in the middle
    g = fgrad.grad(lambda a: fnp.sum(fnp.concatenate([a, fnp.ones(2), a * 3.0]) * fnp.arange(8.0)))(
        fnp.ones(3))
    np.testing.assert_allclose(np.asarray(g), np.arange(3.0) + 3 * np.arange(5.0, 8.0))


def test_split_primitive_rules():
    x = A(3, 7)
    parts = fnp.split(fnp.asarray(x), [2, 5], axis=1)
    same(parts, np.split(x, [2, 5], axis=1))
    check_grads(lambda x: [p * p for p in fnp.split(x, [2, 5], axis=1)], [x])
    # unused pieces get zero cotangents
    g = fgrad.grad(lambda x: fnp.sum(fnp.split(x, 3)[1]))(fnp.asarray(A(6)))
    np.testing.assert_array_equal(np.asarray(g), [0, 0, 1, 1, 0, 0])
    check_vmap(lambda x: fnp.split(x, [1, 3], axis=0), [fnp.asarray(A(4, 5, 2))], in_axes=1)
    check_vmap(lambda x: fnp.array_split(x, 3, axis=-1), [fnp.asarray(A(4, 5, 2))], in_axes=0, out_axes=1)


def test_rev_primitive_rules():
    x = A(2, 3, 4)
    for axes in (None, 0, (0, 2), -1):
        same(fnp.flip(fnp.asarray(x), axes), np.flip(x, axes))
    check_grads(lambda x: fnp.flip(x, (0, 2)) * x, [x])
    check_vmap(lambda x: fnp.flip(x, 1), [fnp.asarray(x)], in_axes=2)
    check_vmap(lambda x: fnp.flip(x), [fnp.asarray(x)], in_axes=1)


# ---------------------------------------------------------------------------------------
# joining


def test_concatenate_and_stacks_forward():
    a, b, c = A(3, 4), A(3, 4), A(2, 4)
    same(fnp.concatenate([a, c]), np.concatenate([a, c]))
    same(fnp.concatenate([a, b], axis=-1), np.concatenate([a, b], axis=-1))
    same(fnp.concatenate([a, c[0]], axis=None), np.concatenate([a, c[0]], axis=None))
    # JAX's promotion (not NumPy's): int64 joined with float32 is float32
    same(fnp.concatenate((a.astype(np.float32), np.arange(4)[None])), np.concatenate(
        (a.astype(np.float32), np.arange(4)[None])).astype(np.float32))
    same(fnp.concatenate([np.arange(3), np.arange(2)], dtype=np.float32),
         np.concatenate([np.arange(3), np.arange(2)], dtype=np.float32))
    same(fnp.concat([a, b], axis=1), np.concatenate([a, b], axis=1))
    for axis in (0, 1, 2, -1):
        same(fnp.stack([a, b], axis), np.stack([a, b], axis))
    same(fnp.stack(fnp.asarray(a)), np.stack(a))
    for fn in ("hstack", "vstack", "dstack", "column_stack"):
        scalars = [np.float64(1.0), np.float64(2.0)] if fn != "column_stack" else [a[0], b[0]]
        for args in ([a, b], [a[0], b[0]], scalars):
            same(getattr(fnp, fn)(args), getattr(np, fn)(args))
    same(fnp.append(a, c, axis=0), np.append(a, c, axis=0))
    same(fnp.append(a, [1.0, 2.0]), np.append(a, [1.0, 2.0]))
    same(fnp.unstack(fnp.asarray(a), axis=1), tuple(np.moveaxis(a, 1, 0)))


def test_join_errors():
    with pytest.raises(ValueError, match="zero-dimensional"):
        fnp.concatenate([fnp.asarray(1.0), fnp.asarray(2.0)])
    with pytest.raises(ValueError, match="must match exactly"):
        fnp.concatenate([fnp.ones((2, 3)), fnp.ones((2, 4))])
    with pytest.raises(ValueError, match="same number of dimensions"):
        fnp.concatenate([fnp.ones((2, 3)), fnp.ones(3)])
    with pytest.raises(ValueError, match="same shape"):
        fnp.stack([fnp.ones(2), fnp.ones(3)])
    with pytest.raises(ValueError, match="at least one"):
        fnp.concatenate([])
    with pytest.raises(ValueError, match="equal division"):
        fnp.split(fnp.ones(5), 2)


def test_stack_grads_and_vmap():
    check_grads(lambda a, b: fnp.stack([a * b, fnp.sin(a), b], axis=1), [A(3, 2), A(3, 2)])
    check_grads(lambda a, b: fnp.hstack([a, b * b]) + 0, [A(3), A(2)])
    check_vmap(lambda a, b: fnp.stack([a, b], axis=-1), [fnp.asarray(A(4, 3)), fnp.asarray(A(3, 4))],
               in_axes=(0, 1))
    check_vmap(lambda a, b: fnp.vstack([a, b]), [fnp.asarray(A(4, 3)), fnp.asarray(A(3))], in_axes=(0, None))
    check_vmap(lambda a, b: fnp.column_stack([a, b]), [fnp.asarray(A(3, 4)), fnp.asarray(A(3))],
               in_axes=(1, None))


def test_asarray_of_traced_list_uses_stack():
    # fnp.asarray([tracer, tracer]) is a stack (inside grad)
    g = fgrad.grad(lambda x: fnp.sum(fnp.stack([x[0] * x[1], x[1]]) ** 2))(fnp.asarray([2.0, 3.0]))
    np.testing.assert_allclose(np.asarray(g), [2 * 6 * 3, 2 * 6 * 2 + 2 * 3])


# ---------------------------------------------------------------------------------------
# splitting


@pytest.mark.parametrize("spec", [2, [1, 3], [-1, 2, 10], [3, 1], [0, 0], [5, -7, 2], []])
def test_array_split_matches_numpy(spec):
    x = A(3, 4)
    same(fnp.array_split(fnp.asarray(x), spec, axis=1), np.array_split(x, spec, axis=1))
    if not isinstance(spec, int) or 4 % spec == 0:
        same(fnp.split(fnp.asarray(x), spec, axis=1), np.split(x, spec, axis=1))


def test_split_family():
    x = A(4, 6, 2)
    same(fnp.hsplit(fnp.asarray(x), 3), np.hsplit(x, 3))
    same(fnp.vsplit(fnp.asarray(x), [1]), np.vsplit(x, [1]))
    same(fnp.dsplit(fnp.asarray(x), 2), np.dsplit(x, 2))
    same(fnp.hsplit(fnp.asarray(x[0, :, 0]), 2), np.hsplit(x[0, :, 0], 2))
    check_grads(lambda x: fnp.array_split(x, [3, 1], axis=1), [A(2, 4)])  # overlapping pieces


# ---------------------------------------------------------------------------------------
# tile / repeat / delete / insert / flips / roll / rot90


def test_tile_repeat_forward():
    x = A(2, 3)
    for reps in (2, (2, 1), (1, 2, 3), (0, 2)):
        same(fnp.tile(fnp.asarray(x), reps), np.tile(x, reps))
    same(fnp.tile(fnp.asarray(3.0), 2), np.tile(3.0, 2))
    for r, axis in ((2, None), (3, 0), (2, -1), (0, 1), (np.array([1, 0, 2]), 1), (np.array([2, 1]), 0)):
        same(fnp.repeat(fnp.asarray(x), r, axis=axis), np.repeat(x, r, axis=axis))
    same(fnp.asarray(x).repeat(2, axis=1), np.repeat(x, 2, axis=1))
    np.testing.assert_array_equal(np.asarray(fnp.repeat(fnp.arange(3), 2, total_repeat_length=4)),
                                  [0, 0, 1, 1])
    np.testing.assert_array_equal(np.asarray(fnp.repeat(fnp.arange(3), 2, total_repeat_length=8)),
                                  [0, 0, 1, 1, 2, 2, 2, 2])


def test_tile_repeat_grads_vmap():
    check_grads(lambda x: fnp.tile(x, (2, 2)) ** 2, [A(2, 3)])
    check_grads(lambda x: fnp.repeat(x, 3, axis=0)[:2] * fnp.repeat(x, np.array([1, 2, 0]), axis=1),
                [A(2, 3)])
    check_vmap(lambda x: fnp.tile(x, (3, 1)), [fnp.asarray(A(2, 3, 4))], in_axes=1)
    check_vmap(lambda x: fnp.repeat(x, np.array([2, 0, 1]), axis=-1), [fnp.asarray(A(4, 2, 3))], in_axes=0)


def test_repeat_traced_repeats_error():
    with pytest.raises(fgrad.ConcretizationError, match="repeat"):
        fgrad.vmap(lambda r: fnp.repeat(fnp.arange(3.0), r))(fnp.asarray([[1, 2, 0], [0, 1, 1]]))


def test_delete_insert():
    x = A(3, 5)
    mask = np.array([True, False, True, False, False])
    for obj, axis in ((1, 0), (np.array([0, 3]), 1), (slice(1, None, 2), None), (mask, 1)):
        same(fnp.delete(fnp.asarray(x), obj, axis), np.delete(x, obj, axis))
    # (arrays, not lists: JAX's insert/delete reject lists, as fgrad's do)
    for obj, vals, axis in ((1, 7.0, 0), (np.array([0, 2, 2]), np.array([1.0, 2.0, 3.0]), None),
                            (2, x[:, 0], 1),
                            (np.array([5]), x[:, :1], 1),
                            (slice(0, 2), -1.0, 1)):
        same(fnp.insert(fnp.asarray(x), obj, vals, axis), np.insert(x, obj, vals, axis))
    check_grads(lambda x, v: fnp.insert(fnp.delete(x, np.array([1]), 1), 2, v, 1), [x, A(3)])


def test_flips_roll_rot90():
    x = A(3, 4, 2)
    same(fnp.fliplr(fnp.asarray(x)), np.fliplr(x))
    same(fnp.flipud(fnp.asarray(x)), np.flipud(x))
    for shift, axis in ((2, None), (-1, 0), ((1, 2), (0, 1)), (5, (0, 2)), (7, -1)):
        same(fnp.roll(fnp.asarray(x), shift, axis), np.roll(x, shift, axis))
    for k in range(-2, 6):
        for axes in ((0, 1), (1, 0), (2, 0)):
            same(fnp.rot90(fnp.asarray(x), k, axes), np.rot90(x, k, axes))
    check_grads(lambda x: fnp.roll(x, 2, 1) * fnp.rot90(x, 1, (0, 2)).reshape(x.shape), [A(2, 3, 2)])


def test_roll_with_traced_shift():
    x = A(5)
    shifts = np.array([0, 2, -1, 7])
    out = fgrad.vmap(lambda s: fnp.roll(fnp.asarray(x), s))(fnp.asarray(shifts))
    for k, s in enumerate(shifts):
        np.testing.assert_array_equal(np.asarray(out[k]), np.roll(x, s))
    check_vmap(lambda x, s: fnp.roll(x, s, axis=0), [fnp.asarray(A(4, 5, 2)), fnp.asarray(shifts)],
               in_axes=(0, 0))
    g = fgrad.grad(lambda x, s: fnp.sum(fnp.roll(x, s) * fnp.arange(5.0)))(fnp.asarray(x), 2)
    np.testing.assert_allclose(np.asarray(g), np.roll(np.arange(5.0), -2))


# ---------------------------------------------------------------------------------------
# pad (NumPy API)

PAD_MODES = ["constant", "edge", "reflect", "symmetric", "wrap", "maximum", "minimum", "mean", "linear_ramp"]


@pytest.mark.parametrize("mode", PAD_MODES)
@pytest.mark.parametrize("width", [((1, 2), (3, 0)), 2, ((0, 1),), ((5, 7), (9, 1))])
def test_pad_matches_numpy(mode, width):
    x = A(3, 4)
    got, want = fnp.pad(fnp.asarray(x), width, mode=mode), np.pad(x, width, mode=mode)
    if mode == "linear_ramp":  # NumPy's linspace switches formulas when a step is 0: last-ulp differences
        np.testing.assert_allclose(np.asarray(got), want, rtol=1e-14, atol=1e-15)
    elif mode == "mean":
        # JAX's mean is sum * (1 / count) (XLA divides by a constant so), NumPy's sum / count, and
        # a device sums in its own order (cupy: a tree): a few ulps of the sum of magnitudes, not
        # equality.  JAX's own numbers: test_pad_mean_as_jax.
        np.testing.assert_allclose(np.asarray(got), want, rtol=0,
                                   atol=4 * np.finfo(x.dtype).eps * np.abs(x).sum(axis=None))
    else:
        same(got, want)



@pytest.mark.parametrize("width", [((1, 2), (3, 0)), 2, ((5, 7), (9, 1))])
def test_pad_mean_as_jax(width):
    """``pad(mode="mean")`` pads with ``jnp.mean`` of each axis in turn, as JAX does (its mean is
    the sum times ``1 / count``); live JAX agrees to an ulp (its jitted pad lets XLA refold the
    corner means: last-ulp differences)."""
    x = A(3, 4)
    got = np.asarray(fnp.pad(fnp.asarray(x), width, mode="mean"))
    want = x
    for ax, (lo, hi) in enumerate(np.broadcast_to(np.asarray(width), (2, 2))):
        m = np.asarray(fnp.mean(fnp.asarray(want), axis=ax, keepdims=True))
        want = np.concatenate([np.repeat(m, lo, ax), want, np.repeat(m, hi, ax)], ax)
    if got.shape == want.shape and fnp.asarray(x).device.platform == "cpu":
        np.testing.assert_array_equal(got, want)
    jnp = pytest.importorskip("jax.numpy")
    import jax
    jax.config.update("jax_enable_x64", True)  # the live tests all run JAX in x64
    live = np.asarray(jnp.pad(x, width, mode="mean"))
    np.testing.assert_allclose(got, live, rtol=4 * np.finfo(np.float64).eps, atol=0)

def test_pad_options_and_dtypes():
    x = A(3, 4)
    same(fnp.pad(fnp.asarray(x), 1, constant_values=((1, 2), (3, 4))),
         np.pad(x, 1, constant_values=((1, 2), (3, 4))))
    same(fnp.pad(fnp.asarray(x), ((2, 2), (1, 3)), mode="reflect", reflect_type="odd"),
         np.pad(x, ((2, 2), (1, 3)), mode="reflect", reflect_type="odd"))
    np.testing.assert_allclose(
        np.asarray(fnp.pad(fnp.asarray(x), ((2, 3), (3, 1)), mode="linear_ramp", end_values=(5, -1))),
        np.pad(x, ((2, 3), (3, 1)), mode="linear_ramp", end_values=(5, -1)), rtol=1e-14, atol=1e-15)
    xi = np.arange(12, dtype=np.int64).reshape(3, 4) * 7
    same(fnp.pad(fnp.asarray(xi), ((2, 3), (3, 1)), mode="linear_ramp", end_values=(5, -1)),
         np.pad(xi, ((2, 3), (3, 1)), mode="linear_ramp", end_values=(5, -1)))
    xi = np.arange(6, dtype=np.int32).reshape(2, 3)
    same(fnp.pad(fnp.asarray(xi), 1, constant_values=7), np.pad(xi, 1, constant_values=7))
    x32 = x.astype(np.float32)
    same(fnp.pad(fnp.asarray(x32), 1, mode="edge"), np.pad(x32, 1, mode="edge"))
    assert np.asarray(fnp.pad(fnp.asarray(x), 1, mode="empty")).shape == (5, 6)
    with pytest.raises(ValueError, match="negative"):
        fnp.pad(fnp.asarray(x), -1)


@pytest.mark.parametrize("mode", ["constant", "edge", "reflect", "symmetric", "wrap", "maximum", "mean",
                                  "linear_ramp"])
def test_pad_grads_and_vmap(mode):
    width = ((2, 1), (0, 3))
    check_grads(lambda x: fnp.pad(x, width, mode=mode) ** 2, [A(3, 4)], order=2)
    check_vmap(lambda x: fnp.pad(x, width, mode=mode), [fnp.asarray(A(3, 4, 2))], in_axes=2)


def test_pad_traced_constant_value():
    check_grads(lambda x, c: fnp.pad(x, 1, constant_values=c) * 2.0, [A(2, 3), np.array(0.7)])
    check_vmap(lambda x, c: fnp.pad(x, ((1, 0), (0, 2)), constant_values=c),
               [fnp.asarray(A(2, 3)), fnp.asarray([1.0, 2.0, 3.0])], in_axes=(None, 0))


# ---------------------------------------------------------------------------------------
# triangles, diagonals, trace


def test_tri_diag_forward():
    x = A(4, 5)
    y = A(2, 3, 4, 4)
    for k in (-2, 0, 1, 6):
        same(fnp.triu(fnp.asarray(x), k), np.triu(x, k))
        same(fnp.tril(fnp.asarray(y), k), np.tril(y, k))
        same(fnp.diagonal(fnp.asarray(x), k), np.diagonal(x, k))
        same(fnp.diag(fnp.asarray(x), k), np.diag(x, k))
        same(fnp.diag(fnp.asarray(x[0]), k), np.diag(x[0], k))
        same(fnp.diagflat(fnp.asarray(x[:2, :2]), k), np.diagflat(x[:2, :2], k))
        same_sum(fnp.trace(fnp.asarray(x), k), np.trace(x, k))
    same(fnp.diagonal(fnp.asarray(y), 1, 3, 1), np.diagonal(y, 1, 3, 1))
    same_sum(fnp.trace(fnp.asarray(y), -1, -1, 0), np.trace(y, -1, -1, 0))
    same(fnp.asarray(y).diagonal(0, 2, 3), y.diagonal(0, 2, 3))
    same_sum(fnp.asarray(x).trace(), x.trace())
    same(fnp.tril(fnp.asarray(x > 0)), np.tril(x > 0))


def test_tri_diag_grads_vmap():
    check_grads(lambda x: fnp.triu(x, 1) * fnp.tril(x, -1).T + fnp.diag(fnp.diagonal(x) ** 2, 0), [A(4, 4)])
    check_grads(lambda x: fnp.triu(x, -1) * fnp.tril(x, 2), [A(5, 3)])
    check_grads(lambda x: fnp.trace(x, 1) * fnp.diag(x, -1), [A(3, 3)])
    check_grads(lambda v: fnp.diag(v, 2) ** 2, [A(3)])
    check_vmap(lambda x: fnp.diagonal(x, 1), [fnp.asarray(A(3, 4, 5))], in_axes=1)
    check_vmap(lambda v: fnp.diag(v, -1), [fnp.asarray(A(3, 4))], in_axes=1)
    check_vmap(lambda x: fnp.triu(x), [fnp.asarray(A(3, 4, 5))], in_axes=2)
    check_vmap(lambda x: fnp.trace(x), [fnp.asarray(A(3, 4, 5))], in_axes=0)


def test_index_helpers():
    same(fnp.tril_indices(4, 1), np.tril_indices(4, 1))
    same(fnp.triu_indices(3, 0, 5), np.triu_indices(3, 0, 5))
    x = A(4, 4)
    same(fnp.tril_indices_from(fnp.asarray(x), -1), np.tril_indices_from(x, -1))
    same(fnp.triu_indices_from(fnp.asarray(x)), np.triu_indices_from(x))
    same(fnp.diag_indices(3, 3), np.diag_indices(3, 3))
    same(fnp.diag_indices_from(fnp.asarray(x)), np.diag_indices_from(x))
    same(fnp.asarray(x)[fnp.triu_indices(4, 1)], x[np.triu_indices(4, 1)])
    same(fnp.indices((2, 3)), np.indices((2, 3)))
    same(fnp.indices((2, 3), sparse=True), np.indices((2, 3), sparse=True))
    same(fnp.ix_(np.array([0, 2]), np.array([True, False, True, True])),
         np.ix_(np.array([0, 2]), np.array([True, False, True, True])))
    same(fnp.asarray(x)[fnp.ix_(np.array([0, 3]), np.array([1, 2, 2]))], x[np.ix_([0, 3], [1, 2, 2])])


def test_fill_diagonal():
    x = A(4, 4)
    ref = x.copy()
    np.fill_diagonal(ref, 2.0)
    same(fnp.fill_diagonal(fnp.asarray(x), 2.0, inplace=False), ref)
    ref = np.zeros((7, 3))
    np.fill_diagonal(ref, [1.0, 2.0])
    same(fnp.fill_diagonal(fnp.zeros((7, 3)), fnp.asarray([1.0, 2.0]), inplace=False), ref)
    # JAX raises NotImplementedError for both (fgrad computed wrap=True, raised ValueError for inplace)
    with pytest.raises(NotImplementedError, match="wrap=True"):
        fnp.fill_diagonal(fnp.zeros((7, 3)), 1.0, wrap=True, inplace=False)
    with pytest.raises(NotImplementedError, match="inplace"):
        fnp.fill_diagonal(fnp.asarray(x), 1.0)
    check_grads(lambda x, v: fnp.fill_diagonal(x, v, inplace=False), [x, A(4)], order=1)


# ---------------------------------------------------------------------------------------
# select / choose / meshgrid / unravel_index / ravel_multi_index


def test_select_choose():
    x = A(3, 4)
    conds = [x > 0.5, x < -0.5]
    same(fnp.select(conds, [x, x * 2], -1.0), np.select(conds, [x, x * 2], -1.0))
    same(fnp.select([x > 0, x > 1], [1, 2]), np.select([x > 0, x > 1], [1, 2]))
    same(fnp.select([x > 0], [x[0]], default=fnp.asarray(x)), np.select([x > 0], [x[0]], default=x))
    check_grads(lambda a, b: fnp.select(conds, [a * b, fnp.sin(b)], a), [x, A(3, 4)])
    check_vmap(lambda a, c: fnp.select([c > 0, c < -1], [a, -a], 0.0),
               [fnp.asarray(A(3, 4)), fnp.asarray(A(4, 3))], in_axes=(0, 1))
    idx = np.array([0, 2, 1, 1])
    ch = [x[0], x[1], x[2]]
    same(fnp.choose(idx, ch), np.choose(idx, ch))
    bad = np.array([0, 5, -1, 1])
    same(fnp.choose(bad, ch, mode="clip"), np.choose(bad, ch, mode="clip"))
    same(fnp.choose(bad, ch, mode="wrap"), np.choose(bad, ch, mode="wrap"))
    with pytest.raises(ValueError):
        fnp.select([x > 0], [x, x])


def test_meshgrid():
    a, b, c = A(3), A(4), A(2)
    for indexing in ("xy", "ij"):
        for sparse in (False, True):
            same(fnp.meshgrid(a, b, c, indexing=indexing, sparse=sparse),
                 np.meshgrid(a, b, c, indexing=indexing, sparse=sparse))
    same(fnp.meshgrid(a), np.meshgrid(a))
    check_grads(lambda a, b: fnp.meshgrid(a, b)[0] * fnp.meshgrid(a, b)[1], [a, b])


def test_unravel_ravel_multi_index():
    shape = (3, 4, 5)
    flat = np.array([0, 7, 59, 23])
    same(fnp.unravel_index(flat, shape), np.unravel_index(flat, shape))
    same(fnp.unravel_index(17, (4, 5)), np.unravel_index(17, (4, 5)))
    multi = np.unravel_index(flat, shape)
    same(fnp.ravel_multi_index(multi, shape), np.ravel_multi_index(multi, shape))
    same(fnp.ravel_multi_index(multi, shape, order="F"), np.ravel_multi_index(multi, shape, order="F"))
    # out of range: clipped, as jax.numpy.unravel_index (NumPy raises)
    same(fnp.unravel_index(np.array([60]), shape), tuple(np.array([k - 1]) for k in shape))
    # under vmap (traced): arithmetic, in-range values agree with numpy
    out = fgrad.vmap(lambda i: fnp.stack(fnp.unravel_index(i, shape)))(fnp.asarray(flat))
    np.testing.assert_array_equal(np.asarray(out), np.stack(np.unravel_index(flat, shape), axis=1))
    m = np.stack(multi, axis=1)
    out = fgrad.vmap(lambda r: fnp.ravel_multi_index((r[0], r[1], r[2]), shape, mode="clip"))(fnp.asarray(m))
    np.testing.assert_array_equal(np.asarray(out), flat)
    m2 = np.array([[5, -1, 7]])
    out = fgrad.vmap(lambda r: fnp.ravel_multi_index((r[0], r[1], r[2]), shape, mode="wrap"))(fnp.asarray(m2))
    np.testing.assert_array_equal(np.asarray(out), np.ravel_multi_index(tuple(m2.T), shape, mode="wrap"))


# ---------------------------------------------------------------------------------------
# dtypes


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.complex64])
def test_structural_ops_keep_dtype(dt):
    x = (A(3, 4) * 3).astype(dt)
    X = fnp.asarray(x)
    for got, want in (
        (fnp.concatenate([X, X]), np.concatenate([x, x])),
        (fnp.stack([X, X], 1), np.stack([x, x], 1)),
        (fnp.pad(X, 1), np.pad(x, 1)),
        (fnp.pad(X, 2, mode="reflect"), np.pad(x, 2, mode="reflect")),
        (fnp.flip(X, 0), np.flip(x, 0)),
        (fnp.roll(X, 1), np.roll(x, 1)),
        (fnp.tile(X, 2), np.tile(x, 2)),
        (fnp.triu(X), np.triu(x)),
        (fnp.diagonal(X), np.diagonal(x)),
        (fnp.split(X, 2, 1)[0], np.split(x, 2, 1)[0]),
    ):
        same(got, want)
    if dt == np.float32:
        g = fgrad.grad(lambda x: fnp.sum(fnp.pad(fnp.concatenate([x, x]), 1, mode="edge")))(X)
        assert g.dtype == np.float32


def test_structural_under_jit():
    jit = getattr(fgrad, "jit", None)
    if jit is None:
        pytest.skip("fgrad.jit not available")

    def f(x):
        parts = fnp.split(x, [1, 3], axis=1)
        y = fnp.concatenate([fnp.flip(parts[2], 0), parts[0] * 2.0, parts[1]], axis=1)
        z = fnp.pad(y, ((1, 0), (2, 1)), mode="reflect")[1:, 2:-1]
        return z + fnp.roll(fnp.pad(y, 1)[1:-1, 1:-1], 1, 0)

    x = fnp.asarray(A(3, 5))
    np.testing.assert_array_equal(np.asarray(jit(f)(x)), np.asarray(f(x)))
    g1 = jit(fgrad.grad(lambda x: fnp.sum(f(x) ** 2)))(x)
    g2 = fgrad.grad(lambda x: fnp.sum(f(x) ** 2))(x)
    np.testing.assert_allclose(np.asarray(g1), np.asarray(g2), rtol=1e-13)


@pytest.mark.parametrize("pv", [0.0, -0.0, 0, 2.5, np.float32(-0.0), np.array(0.0), np.array(1 + 2j), 1j,
                                True])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.complex64, np.bool_])
def test_pad_fill_values_on_the_fast_path(pv, dtype):
    # the no-crop, no-interior path fills with np.zeros for a positive zero: every other value
    # (-0.0 above all) must come out as the generic fill gives it
    kind = np.dtype(dtype).kind
    if (kind != "c" and np.iscomplexobj(pv)) or (kind in "biu" and isinstance(pv, float) and pv % 1):
        pytest.skip("a fill value the dtype cannot hold (pad's abstract rule takes one dtype)")
    x = np.arange(1, 4).astype(dtype)
    out = ST._pad_impl(np, x, pv, ((1, 2, 0),))
    ref = np.full(6, np.asarray(pv).astype(dtype) if np.dtype(dtype).kind != "b" else bool(pv), dtype)
    ref[1:4] = x
    assert out.dtype == ref.dtype and np.array_equal(out, ref)
    if kind in "fc":  # -0.0 stays -0.0
        assert np.array_equal(np.signbit(out.real), np.signbit(ref.real))
