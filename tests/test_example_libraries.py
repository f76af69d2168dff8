"""fgrad.example_libraries against JAX's: optimizer trajectories (independent NumPy
re-implementations from the update formulas, stored jax 0.10.2 trajectories, live JAX),
schedules, the optimizer state as a pytree (jit, pack/unpack, pickling), and stax layers
(shapes and outputs vs NumPy and live JAX; conv/pool layers only where fgrad.lax has the
functions they call)."""

from __future__ import annotations

import json
import math
import pathlib
import pickle

import numpy as np
import pytest

import fgrad
import fgrad.numpy as fnp
import fgrad.random as random
from fgrad.example_libraries import optimizers, stax

STORED = json.loads((pathlib.Path(__file__).parent / "stored" / "jax_optimizers.json").read_text())
SETUP = STORED["setup"]
CONFIGS = SETUP["configs"]
INIT = {k: np.array(v) for k, v in SETUP["init"].items()}
SCALE = {k: np.array(v) for k, v in SETUP["scale"].items()}


def _loss(params):
    return sum(fnp.sum(SCALE[k] * (params[k] - 1.0) ** 2) for k in sorted(params))


def _make(lib, name):
    maker, args, kwargs = CONFIGS[name]
    if args and isinstance(args[0], str):
        args = (getattr(lib, args[0])(*args[1:]),)
    return getattr(lib, maker)(*args, **kwargs)


def _run(name, update_wrapper=lambda f: f):
    init, update, get_params = _make(optimizers, name)
    update = update_wrapper(update)
    state = init({k: fnp.asarray(v) for k, v in INIT.items()})
    trajectory = []
    for i in range(SETUP["steps"]):
        state = update(i, fgrad.grad(_loss)(get_params(state)), state)
        trajectory.append({k: np.asarray(v) for k, v in get_params(state).items()})
    return trajectory


# --- independent NumPy references, one array at a time, from the published update rules


def _np_optimizer(name):
    maker, args, kw = CONFIGS[name]
    if args and isinstance(args[0], str):  # exponential_decay(step, decay_steps, rate)
        s0, steps, rate = args[1:]
        lr = lambda i: s0 * rate ** (i / steps)
    else:
        lr = lambda i, a=args[0]: a
    if maker == "sgd":
        return lambda x: [x], lambda i, g, s: [s[0] - lr(i) * g]
    if maker in ("momentum", "nesterov"):
        mass = kw["mass"]

        def upd(i, g, s):
            v = mass * s[1] + g
            return [s[0] - lr(i) * ((mass * v + g) if maker == "nesterov" else v), v]
        return lambda x: [x, 0 * x], upd
    if maker == "adagrad":
        mom = kw.get("momentum", 0.9)

        def upd(i, g, s):
            g_sq = s[1] + g * g
            m = (1 - mom) * g / np.sqrt(g_sq) + mom * s[2]
            return [s[0] - lr(i) * m, g_sq, m]
        return lambda x: [x, 0 * x, 0 * x], upd
    if maker in ("rmsprop", "rmsprop_momentum"):
        gamma, eps, mom = kw.get("gamma", 0.9), kw.get("eps", 1e-8), kw.get("momentum", 0.9)

        def upd(i, g, s):
            a = gamma * s[1] + (1 - gamma) * g * g
            if maker == "rmsprop":
                return [s[0] - lr(i) * g / np.sqrt(a + eps), a, s[2]]
            m = mom * s[2] + lr(i) * g / np.sqrt(a + eps)
            return [s[0] - m, a, m]
        return lambda x: [x, 0 * x, 0 * x], upd
    if maker in ("adam", "adamax"):
        b1, b2, eps = kw.get("b1", 0.9), kw.get("b2", 0.999), kw.get("eps", 1e-8)

        def upd(i, g, s):
            m = (1 - b1) * g + b1 * s[1]
            if maker == "adam":
                v = (1 - b2) * g * g + b2 * s[2]
                m_hat, v_hat = m / (1 - b1 ** (i + 1)), v / (1 - b2 ** (i + 1))
                return [s[0] - lr(i) * m_hat / (np.sqrt(v_hat) + eps), m, v]
            u = np.maximum(b2 * s[2], np.abs(g))
            return [s[0] - lr(i) / (1 - b1 ** (i + 1)) * m / (u + eps), m, u]
        return lambda x: [x, 0 * x, 0 * x], upd
    if maker == "sm3":
        mom = 0.9

        def upd(i, g, s):
            x, m, accs = s
            nd = x.ndim
            per_axis = [a.reshape([-1 if j == k else 1 for j in range(nd)]) for k, a in enumerate(accs)]
            acc = np.minimum.reduce(np.broadcast_arrays(*per_axis)) + g * g
            m = (1 - mom) * g / np.sqrt(acc) + mom * m
            new_accs = [acc.max(axis=tuple(j for j in range(nd) if j != k)) for k in range(nd)]
            return [x - lr(i) * m, m, new_accs]
        return lambda x: [x, 0 * x, [np.zeros(n) for n in x.shape]], upd
    raise AssertionError(name)


def _np_run(name):
    init, upd = _np_optimizer(name)
    states = {k: init(v.copy()) for k, v in INIT.items()}
    trajectory = []
    for i in range(SETUP["steps"]):
        states = {k: upd(i, 2 * SCALE[k] * (s[0] - 1.0), s) for k, s in states.items()}
        trajectory.append({k: s[0] for k, s in states.items()})
    return trajectory


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_optimizer_matches_numpy_reference(name):
    for got, expected in zip(_run(name), _np_run(name)):
        for k in INIT:
            np.testing.assert_allclose(got[k], expected[k], rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_optimizer_matches_stored_jax(name):
    for got, expected in zip(_run(name), STORED[name]):
        for k in INIT:
            np.testing.assert_allclose(got[k], expected[k], rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("name", ["adam", "momentum", "sm3", "sgd_schedule"])
def test_optimizer_update_under_jit(name):
    jitted = _run(name, fgrad.jit)
    for got, expected in zip(jitted, STORED[name]):
        for k in INIT:
            np.testing.assert_allclose(got[k], expected[k], rtol=1e-13, atol=1e-15)


def test_optimizers_match_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    from jax.example_libraries import optimizers as jopt
    for name in CONFIGS:
        init, update, get_params = _make(jopt, name)
        state = init({k: np.array(v) for k, v in INIT.items()})
        for i, ours in enumerate(_run(name)):
            params = get_params(state)
            grads = {k: 2 * SCALE[k] * (np.asarray(params[k]) - 1.0) for k in params}
            state = update(i, grads, state)
            for k in INIT:
                np.testing.assert_allclose(ours[k], np.asarray(get_params(state)[k]), rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize("name", sorted(STORED["schedules"]))
def test_schedules_match_stored_jax(name):
    schedule = {
        "exponential_decay": optimizers.exponential_decay(0.2, 3, 0.5),
        "inverse_time_decay": optimizers.inverse_time_decay(0.2, 3, 0.5),
        "inverse_time_decay_staircase": optimizers.inverse_time_decay(0.2, 3, 0.5, staircase=True),
        "polynomial_decay": optimizers.polynomial_decay(0.2, 5, 0.01, 2.0),
        "piecewise_constant": optimizers.piecewise_constant([2, 5], [1.0, 0.5, 0.1]),
    }[name]
    got = [float(schedule(i)) for i in range(8)]
    np.testing.assert_allclose(got, STORED["schedules"][name], rtol=1e-14)
    # a traced step works too (schedules are called inside jit-compiled updates)
    np.testing.assert_allclose([float(fgrad.jit(schedule)(i)) for i in range(8)], got, rtol=1e-14)


def test_schedule_errors():
    with pytest.raises(ValueError, match="one more"):
        optimizers.piecewise_constant([1, 2], [1.0, 2.0])
    with pytest.raises(TypeError):
        optimizers.make_schedule(np.ones(3))


def test_optimizer_state_is_a_pytree():
    init, update, get_params = optimizers.adam(0.1)
    params = {"a": fnp.ones(3), "b": [fnp.zeros((2, 2)), fnp.asarray(1.0)]}
    state = init(params)
    leaves = fgrad.tree_leaves(state)
    assert len(leaves) == 3 * 3  # (x, m, v) per parameter leaf
    doubled = fgrad.tree_map(lambda x: 2 * x, state)
    assert isinstance(doubled, optimizers.OptimizerState)
    np.testing.assert_array_equal(np.asarray(get_params(doubled)["a"]), 2 * np.ones(3))
    # through jit and back: same structure, same numbers
    step = fgrad.jit(update)
    grads = fgrad.tree_map(fnp.ones_like, params)
    a, b = step(0, grads, state), update(0, grads, state)
    assert fgrad.tree_structure(a) == fgrad.tree_structure(b)
    for x, y in zip(fgrad.tree_leaves(a), fgrad.tree_leaves(b)):
        np.testing.assert_allclose(np.asarray(x), np.asarray(y), rtol=1e-15)


def test_update_rejects_a_mismatched_gradient_tree():
    init, update, _ = optimizers.sgd(0.1)
    state = init({"a": fnp.ones(2)})
    with pytest.raises(TypeError, match="did not match the parameter tree"):
        update(0, {"b": fnp.ones(2)}, state)


def test_pack_unpack_round_trip_and_pickle():
    init, update, get_params = optimizers.momentum(0.1, 0.9)
    state = update(0, [fnp.ones(2), fnp.ones(())], init([fnp.zeros(2), fnp.zeros(())]))
    unpacked = optimizers.unpack_optimizer_state(state)
    assert isinstance(unpacked[0], optimizers.JoinPoint)
    restored = optimizers.pack_optimizer_state(pickle.loads(pickle.dumps(unpacked)))
    assert fgrad.tree_structure(restored) == fgrad.tree_structure(state)
    for x, y in zip(fgrad.tree_leaves(restored), fgrad.tree_leaves(state)):
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))
    with pytest.raises(TypeError, match="JoinPoint"):
        optimizers.pack_optimizer_state([fnp.ones(2)])


def test_l2_norm_and_clip_grads():
    tree = {"a": fnp.asarray([3.0, 0.0]), "b": [fnp.asarray([[4.0]])]}
    assert float(optimizers.l2_norm(tree)) == 5.0
    clipped = optimizers.clip_grads(tree, 1.0)
    assert math.isclose(float(optimizers.l2_norm(clipped)), 1.0, rel_tol=1e-15)
    np.testing.assert_allclose(np.asarray(clipped["a"]), [0.6, 0.0])
    same = optimizers.clip_grads(tree, 10.0)
    np.testing.assert_array_equal(np.asarray(same["a"]), [3.0, 0.0])
    # differentiable (used inside training steps)
    g = fgrad.grad(lambda t: optimizers.l2_norm(t))(tree)
    np.testing.assert_allclose(np.asarray(g["a"]), [0.6, 0.0])


def test_sm3_keeps_scalar_and_matrix_shapes():
    init, update, get_params = optimizers.sm3(0.1)
    params = [fnp.asarray(2.0), fnp.ones((2, 3))]
    state = update(0, [fnp.asarray(1.0), fnp.ones((2, 3))], init(params))
    assert [p.shape for p in get_params(state)] == [(), (2, 3)]


# --------------------------------------------------------------------------------------
# stax

KEY = random.key(0)


def test_serial_mlp_shapes_and_output():
    init_fun, apply_fun = stax.serial(stax.Dense(8), stax.Relu, stax.Dense(3), stax.LogSoftmax)
    out_shape, params = init_fun(KEY, (-1, 5))
    assert out_shape == (-1, 3)
    (W1, b1), (), (W2, b2), () = params
    assert W1.shape == (5, 8) and b1.shape == (8,) and W2.shape == (8, 3)
    x = np.random.default_rng(0).standard_normal((4, 5))
    h = np.maximum(x @ np.asarray(W1) + np.asarray(b1), 0) @ np.asarray(W2) + np.asarray(b2)
    expected = h - np.log(np.exp(h).sum(1, keepdims=True))
    np.testing.assert_allclose(np.asarray(apply_fun(params, fnp.asarray(x))), expected, rtol=1e-13)


@pytest.mark.parametrize("layer,ref", [
    (stax.Tanh, np.tanh), (stax.Exp, np.exp), (stax.Sigmoid, lambda x: 1 / (1 + np.exp(-x))),
    (stax.Softplus, lambda x: np.log1p(np.exp(x))), (stax.Identity, lambda x: x),
    (stax.Elu, lambda x: np.where(x > 0, x, np.expm1(x))),
    (stax.LeakyRelu, lambda x: np.where(x >= 0, x, 0.01 * x)),
    (stax.Softmax, lambda x: np.exp(x) / np.exp(x).sum(-1, keepdims=True)),
])
def test_elementwise_layers(layer, ref):
    x = np.linspace(-3, 3, 12).reshape(3, 4)
    shape, params = layer[0](KEY, (3, 4))
    assert shape == (3, 4) and params == ()
    np.testing.assert_allclose(np.asarray(layer[1](params, fnp.asarray(x))), ref(x), rtol=1e-13)


def test_flatten_fanout_parallel_fanin():
    shape, _ = stax.Flatten[0](KEY, (7, 2, 3, 4))
    assert shape == (7, 24)
    assert stax.Flatten[1]((), fnp.ones((7, 2, 3, 4))).shape == (7, 24)
    init_fun, apply_fun = stax.serial(stax.FanOut(2), stax.parallel(stax.Dense(3), stax.Identity),
                                      stax.FanInConcat())
    shape, params = init_fun(KEY, (2, 4))
    assert shape == (2, 7)
    x = fnp.ones((2, 4))
    out = np.asarray(apply_fun(params, x))
    W, b = params[1][0]
    np.testing.assert_allclose(out[:, :3], np.ones((2, 4)) @ np.asarray(W) + np.asarray(b), rtol=1e-14)
    np.testing.assert_array_equal(out[:, 3:], np.ones((2, 4)))
    init_fun, apply_fun = stax.serial(stax.FanOut(3), stax.parallel(stax.Identity, stax.Tanh, stax.Exp),
                                      stax.FanInSum)
    shape, params = init_fun(KEY, (3,))
    assert shape == (3,)
    v = np.array([0.1, -0.2, 0.3])
    np.testing.assert_allclose(np.asarray(apply_fun(params, fnp.asarray(v))), v + np.tanh(v) + np.exp(v),
                               rtol=1e-15)


def test_dropout():
    init_fun, apply_fun = stax.Dropout(0.8)
    x = fnp.ones((200, 100))
    y = np.asarray(apply_fun((), x, rng=KEY))
    kept = y != 0
    assert set(np.unique(y)) == {0.0, 1.25}
    # keep probability 0.8 over 20000 units: standard error 0.0028; 5 sigma
    assert abs(kept.mean() - 0.8) < 0.015
    identity = np.asarray(stax.Dropout(0.8, mode="test")[1]((), x, rng=KEY))  # JAX wants rng here too
    np.testing.assert_array_equal(identity, np.ones((200, 100)))
    with pytest.raises(ValueError, match="PRNG key"):
        apply_fun((), x)
    # serial splits the rng among its layers
    _, serial_apply = stax.serial(stax.Dropout(0.5), stax.Dropout(0.5))
    z = np.asarray(serial_apply([(), ()], x, rng=KEY))
    assert set(np.unique(z)) == {0.0, 4.0}


def test_batchnorm():
    init_fun, apply_fun = stax.BatchNorm(axis=(0, 1))
    shape, (beta, gamma) = init_fun(KEY, (4, 5, 3))
    assert shape == (4, 5, 3) and beta.shape == (3,) and gamma.shape == (3,)
    x = np.random.default_rng(1).standard_normal((4, 5, 3)) * 3 + 2
    beta, gamma = fnp.asarray([1.0, 2.0, 3.0]), fnp.asarray([0.5, 1.0, 2.0])
    got = np.asarray(apply_fun((beta, gamma), fnp.asarray(x)))
    z = (x - x.mean((0, 1))) / np.sqrt(x.var((0, 1)) + 1e-5)
    np.testing.assert_allclose(got, z * np.asarray(gamma) + np.asarray(beta), rtol=1e-12)
    _, (b0, g0) = stax.BatchNorm(axis=0, center=False, scale=False)[0](KEY, (4, 2))
    assert b0 == () and g0 == ()


def test_shape_dependent():
    init_fun, apply_fun = stax.shape_dependent(lambda shape: stax.Dense(2 * shape[-1]))
    shape, params = init_fun(KEY, (3, 4))
    assert shape == (3, 8)
    assert apply_fun(params, fnp.ones((3, 4))).shape == (3, 8)


def test_stax_matches_live_jax():
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    from jax.example_libraries import stax as jstax

    def model(lib):
        return lib.serial(lib.Dense(6), lib.Gelu, lib.FanOut(2), lib.parallel(lib.Dense(3), lib.Dense(3)),
                          lib.FanInSum, lib.BatchNorm(axis=0), lib.Selu, lib.Flatten, lib.LogSoftmax)
    jinit, japply = model(jstax)
    finit, fapply = model(stax)
    jshape, jparams = jinit(jax.random.key(0), (5, 4))
    fshape, fparams = finit(KEY, (5, 4))
    assert tuple(jshape) == fshape
    # same parameter structure; run both on fgrad's parameters
    assert [np.shape(p) for p in jax.tree_util.tree_leaves(jparams)] == \
        [p.shape for p in fgrad.tree_leaves(fparams)]
    np_params = fgrad.tree_map(np.asarray, fparams)
    x = np.random.default_rng(0).standard_normal((5, 4))
    np.testing.assert_allclose(np.asarray(fapply(fparams, fnp.asarray(x))),
                               np.asarray(japply(np_params, x)), rtol=1e-12, atol=1e-13)


# --- convolution and pooling: run when fgrad.lax has the functions they call


def _needs_lax(*names):
    missing = [n for n in names if not hasattr(fgrad.lax, n)]
    if missing:
        pytest.skip(f"fgrad.lax lacks {missing} (the conv branch adds them)")


def _np_conv_nhwc(x, w, stride, pads):
    x = np.pad(x, ((0, 0), pads[0], pads[1], (0, 0)))
    kh, kw = w.shape[:2]
    oh = (x.shape[1] - kh) // stride[0] + 1
    ow = (x.shape[2] - kw) // stride[1] + 1
    out = np.zeros((x.shape[0], oh, ow, w.shape[3]))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride[0]:i * stride[0] + kh, j * stride[1]:j * stride[1] + kw]
            out[:, i, j] = np.einsum("nhwc,hwco->no", patch, w)
    return out


def test_conv_init_shapes_without_lax():
    # init needs no lax function: shapes follow the padding rules
    assert stax.Conv(4, (3, 3))[0](KEY, (2, 9, 8, 3))[0] == (2, 7, 6, 4)
    assert stax.Conv(4, (3, 3), strides=(2, 2), padding="SAME")[0](KEY, (2, 9, 8, 3))[0] == (2, 5, 4, 4)
    assert stax.Conv(4, (3, 2), padding=((1, 1), (0, 2)))[0](KEY, (1, 5, 5, 1))[0] == (1, 5, 6, 4)
    shape, (W, b) = stax.GeneralConv(("NCHW", "OIHW", "NCHW"), 6, (3, 3))[0](KEY, (2, 3, 9, 8))
    assert shape == (2, 6, 7, 6) and W.shape == (6, 3, 3, 3) and b.shape == (1, 6, 1, 1)
    assert stax.MaxPool((2, 2), strides=(2, 2))[0](KEY, (2, 9, 8, 3))[0] == (2, 4, 4, 3)
    assert stax.AvgPool((3, 3), padding="SAME")[0](KEY, (2, 9, 8, 3))[0] == (2, 9, 8, 3)
    assert stax.ConvTranspose(4, (3, 3), strides=(2, 2))[0](KEY, (1, 5, 5, 2))[0] == (1, 11, 11, 4)


def test_conv_apply_matches_numpy():
    _needs_lax("conv_general_dilated")
    init_fun, apply_fun = stax.Conv(4, (3, 2), strides=(2, 1), padding="SAME")
    shape, (W, b) = init_fun(KEY, (2, 7, 6, 3))
    x = np.random.default_rng(0).standard_normal((2, 7, 6, 3))
    got = np.asarray(apply_fun((W, b), fnp.asarray(x)))
    pads = [(1, 1), (0, 1)]  # SAME for (7, stride 2, window 3) and (6, stride 1, window 2)
    expected = _np_conv_nhwc(x, np.asarray(W), (2, 1), pads) + np.asarray(b)
    assert got.shape == shape
    np.testing.assert_allclose(got, expected, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("layer,reduce", [("MaxPool", np.max), ("SumPool", np.sum), ("AvgPool", np.mean)])
def test_pooling_apply_matches_numpy(layer, reduce):
    _needs_lax("reduce_window")
    init_fun, apply_fun = getattr(stax, layer)((2, 2), strides=(2, 1))
    x = np.random.default_rng(0).standard_normal((2, 6, 5, 3))
    shape, params = init_fun(KEY, x.shape)
    got = np.asarray(apply_fun(params, fnp.asarray(x)))
    expected = np.stack([np.stack([reduce(x[:, 2 * i:2 * i + 2, j:j + 2], axis=(1, 2)) for j in range(4)], 1)
                         for i in range(3)], 1)
    assert got.shape == shape
    np.testing.assert_allclose(got, expected, rtol=1e-13)


def test_avgpool_same_padding_divides_by_the_unpadded_count():
    _needs_lax("reduce_window")
    _, apply_fun = stax.AvgPool((3, 3), padding="SAME")
    got = np.asarray(apply_fun((), fnp.ones((1, 4, 4, 1))))
    np.testing.assert_allclose(got, np.ones((1, 4, 4, 1)), rtol=1e-14)


def test_conv_apply_without_lax_says_what_is_missing():
    if hasattr(fgrad.lax, "conv_general_dilated"):
        pytest.skip("fgrad.lax has conv_general_dilated")
    init_fun, apply_fun = stax.Conv(2, (3, 3))
    _, params = init_fun(KEY, (1, 5, 5, 1))
    with pytest.raises(NotImplementedError, match="conv_general_dilated"):
        apply_fun(params, fnp.ones((1, 5, 5, 1)))


@pytest.mark.parametrize("make,shape", [
    (lambda s: s.Conv(3, (3, 2), strides=(2, 1), padding="SAME"), (2, 7, 6, 3)),
    (lambda s: s.GeneralConv(("NCHW", "OIHW", "NCHW"), 4, (2, 2), padding="VALID"), (2, 3, 7, 6)),
    (lambda s: s.ConvTranspose(3, (3, 3), strides=(2, 2), padding="SAME"), (2, 5, 4, 3)),
    (lambda s: s.ConvTranspose(2, (3, 2), strides=(2, 1), padding="VALID"), (2, 5, 4, 3)),
    (lambda s: s.Conv1DTranspose(2, (3,), strides=(2,), padding="SAME"), (2, 7, 3)),
    (lambda s: s.MaxPool((2, 2), padding="SAME"), (2, 7, 6, 3)),
    (lambda s: s.AvgPool((3, 2), strides=(2, 1), padding="SAME"), (2, 7, 6, 3)),
    (lambda s: s.SumPool((2, 2), strides=(1, 2)), (2, 7, 6, 3)),
    (lambda s: s.AvgPool((2,), spec="NCW"), (2, 3, 7)),
])
def test_conv_and_pool_layers_match_live_jax(make, shape):
    jax = pytest.importorskip("jax")
    jax.config.update("jax_enable_x64", True)
    from jax.example_libraries import stax as jstax
    _needs_lax("conv_general_dilated", "conv_transpose", "reduce_window")
    (finit, fapply), (jinit, japply) = make(stax), make(jstax)
    fshape, params = finit(KEY, shape)
    jshape, _ = jinit(jax.random.key(0), shape)
    assert tuple(jshape) == fshape
    x = np.random.default_rng(0).standard_normal(shape)
    expected = np.asarray(japply(fgrad.tree_map(np.asarray, params), x))
    got = np.asarray(fapply(params, fnp.asarray(x)))
    assert got.shape == fshape
    np.testing.assert_allclose(got, expected, rtol=1e-10, atol=1e-12)
