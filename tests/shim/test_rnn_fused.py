"""`fgrad.torch.nn.LSTM` and `GRU` on the fused whole-sequence primitives (`fgrad.ops.rnn`).

Gradients against PyTorch live (every module option the shim supports: layers,
directions, batch_first, no bias, unbatched input, given initial states, dropout=0,
double backward) and against numbers stored from PyTorch 2.13 (so the check runs without
it); finite differences of a first gradient; one autograd node per layer direction (the
per-step graph grew with the sequence); PyTorch's error for an empty sequence.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch import nn

try:
    import torch as _torch

    _torch.set_num_threads(1)
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")


def _params(mod, seed: int, scale: float = 0.6):
    r = np.random.default_rng(seed)
    return [r.uniform(-scale, scale, tuple(p.shape)) for p in mod.parameters()]


def _load(mod, values, lib):
    with lib.no_grad():
        for p, v in zip(mod.parameters(), values):
            p.copy_(lib.from_numpy(np.array(v, dtype=np.asarray(p.detach().numpy()).dtype)))
    return mod


# stored from torch 2.13.0 (CPU, float64): LSTM(3, 4, num_layers=2, bidirectional=True), the
# parameters U(-0.6, 0.6) from default_rng(2026) in parameter order, then x (5, 2, 3), h0 and c0
# (4, 2, 4) standard normal from the same generator; loss = sum(out^2) + 2 sum(h_n) + 3 sum(c_n)
STORED_LOSS = -1.8457046405828792
STORED_W_HH_L0_ROWS_0_6 = [
    [0.253804018709, 0.014688692712, -0.108188390139, 0.03734042132],
    [0.06336410115, 0.320693387423, -0.386491026696, 0.598051500616],
    [-0.174259623496, -0.268893664844, 0.216187546982, -0.020072592129],
    [0.048760085872, 0.032952225364, -0.047917780884, 0.02993696993],
    [0.658173827226, 0.588479503872, -0.694736225114, 0.627547439386],
    [0.351998768325, 0.122767701231, -0.204894845665, -0.131961504383]]
STORED_W_IH_L1R_ROWS_0_4 = [
    [-0.224318267747, -0.120378875887, 0.108728933961, -0.019613950259, 0.156543939846, 0.231978565653,
     -0.063031002247, 0.179708233903],
    [0.477256216217, 0.213693983957, -0.345615211488, 0.282350677486, 0.027808839372, -0.762949201885,
     -0.006609875, -0.552589734152],
    [-0.200588543318, -0.132184623092, 0.16764960186, -0.157756280478, 0.022856882055, 0.405293951742,
     0.019540010115, 0.2315261582],
    [0.245924885572, 0.118363604033, -0.162371874002, 0.100337947083, 0.036001404589, -0.290604949371,
     -0.014124469842, -0.266691608748]]
STORED_B_HH_L1R = [
    -1.226854372569e+00, 2.345067649550e+00, -1.214209944466e+00, 1.136028310100e+00, 1.696504926745e-01,
    2.680889177843e+00, -3.641302469646e-01, 1.632037830833e+00, 8.939723179865e+00, 7.108889975676e+00,
    1.084874945406e+01, 9.430106343602e+00, -2.642363101208e-02, 1.322847089003e+00, -3.774168520899e-01,
    1.279835586122e-03]
STORED_C0_GRAD_1 = [[0.898603852125, -0.125245234622, 0.202199067072, -0.301463170931],
                    [0.756998555576, -0.218966263754, 0.636766541294, -0.572004658894]]
STORED_X_GRAD_2 = [[-0.551042697462, -0.347435845025, -0.668510881036],
                   [-0.072424854207, -0.524952680489, -0.023507425894]]


def test_gradients_match_stored_torch_numbers() -> None:
    m = nn.LSTM(3, 4, num_layers=2, bidirectional=True).double()
    r = np.random.default_rng(2026)
    with ft.no_grad():
        for p in m.parameters():
            p.copy_(ft.from_numpy(r.uniform(-0.6, 0.6, tuple(p.shape))))
    x = ft.from_numpy(r.standard_normal((5, 2, 3))).requires_grad_()
    h0 = ft.from_numpy(r.standard_normal((4, 2, 4))).requires_grad_()
    c0 = ft.from_numpy(r.standard_normal((4, 2, 4))).requires_grad_()
    o, (h, c) = m(x, (h0, c0))
    loss = (o ** 2).sum() + h.sum() * 2 + c.sum() * 3
    loss.backward()
    tol = dict(rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(loss.item(), STORED_LOSS, rtol=1e-12)
    np.testing.assert_allclose(m.weight_hh_l0.grad.numpy()[:6], STORED_W_HH_L0_ROWS_0_6, **tol)
    np.testing.assert_allclose(m.weight_ih_l1_reverse.grad.numpy()[:4], STORED_W_IH_L1R_ROWS_0_4, **tol)
    np.testing.assert_allclose(m.bias_hh_l1_reverse.grad.numpy(), STORED_B_HH_L1R, **tol)
    np.testing.assert_allclose(c0.grad.numpy()[1], STORED_C0_GRAD_1, **tol)
    np.testing.assert_allclose(x.grad.numpy()[2], STORED_X_GRAD_2, **tol)


# stored from torch 2.13.0 (CPU, float64): GRU(3, 4, num_layers=2, bidirectional=True,
# batch_first=True), parameters U(-0.6, 0.6) from default_rng(2027) in order, then x (2, 5, 3) and
# h0 (4, 2, 4) standard normal; loss = sum(out^2) + 2 sum(h_n)
GRU_STORED_LOSS = 37.47238054974589
GRU_STORED_W_HH_L0_ROWS_0_4 = [
    [-0.014393375885, 0.198717913976, -0.053547014751, -0.137080888864],
    [0.054447572129, -0.033207463672, -0.04704455858, 0.06363089865],
    [0.078301327261, -0.01032667579, 0.026564770011, 0.015639929119],
    [0.06926368696, 0.091798673142, -0.210962775371, 0.108569829781]]
GRU_STORED_B_HH_L1R = [
    0.871728510785, -0.503193782578, 0.915636415212, 0.359913688486, 1.603977226613, 2.065655707972,
    -0.233152754147, 0.778821136523, 1.875754256266, -2.10189546322, 1.881267210616, 1.210999099285]
GRU_STORED_H0_GRAD_3 = [[5.290328960527, -3.530572377559, 0.553874816134, -0.472072183615],
                        [3.711953223381, -1.521907653116, -0.810567941561, 0.322287333687]]
GRU_STORED_X_GRAD_1_2_4 = [[-0.11392018204, -0.557249205138, 0.014308527951],
                           [-0.757531638618, 0.43229472279, -1.272697653646]]


def test_gru_gradients_match_stored_torch_numbers() -> None:
    m = nn.GRU(3, 4, num_layers=2, bidirectional=True, batch_first=True).double()
    r = np.random.default_rng(2027)
    with ft.no_grad():
        for p in m.parameters():
            p.copy_(ft.from_numpy(r.uniform(-0.6, 0.6, tuple(p.shape))))
    x = ft.from_numpy(r.standard_normal((2, 5, 3))).requires_grad_()
    h0 = ft.from_numpy(r.standard_normal((4, 2, 4))).requires_grad_()
    o, h = m(x, h0)
    loss = (o ** 2).sum() + h.sum() * 2
    loss.backward()
    tol = dict(rtol=1e-9, atol=1e-11)
    np.testing.assert_allclose(loss.item(), GRU_STORED_LOSS, rtol=1e-12)
    np.testing.assert_allclose(m.weight_hh_l0.grad.numpy()[:4], GRU_STORED_W_HH_L0_ROWS_0_4, **tol)
    np.testing.assert_allclose(m.bias_hh_l1_reverse.grad.numpy(), GRU_STORED_B_HH_L1R, **tol)
    np.testing.assert_allclose(h0.grad.numpy()[3], GRU_STORED_H0_GRAD_3, **tol)
    np.testing.assert_allclose(x.grad.numpy()[1, 2:4], GRU_STORED_X_GRAD_1_2_4, **tol)


CONFIGS = [
    (dict(), (7, 3, 5), False),
    (dict(batch_first=True), (3, 6, 5), False),
    (dict(bias=False, num_layers=2), (4, 2, 5), True),
    (dict(num_layers=3, bidirectional=True, dropout=0.0), (5, 2, 5), True),
    (dict(bidirectional=True, batch_first=True, bias=False), (2, 4, 5), True),
    (dict(), (6, 5), True),  # unbatched
    (dict(num_layers=2), (1, 3, 5), False),  # one step
]


@needs_torch
@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
@pytest.mark.parametrize("kw,shape,with_state", CONFIGS)
def test_values_and_gradients_match_torch_live(mode, kw, shape, with_state) -> None:
    fm, tm = getattr(nn, mode)(5, 6, **kw).double(), getattr(_torch.nn, mode)(5, 6, **kw).double()
    vals = _params(fm, 1)
    _load(fm, vals, ft)
    _load(tm, vals, _torch)
    r = np.random.default_rng(2)
    x = r.standard_normal(shape)
    D = (2 if kw.get("bidirectional") else 1) * kw.get("num_layers", 1)
    B = shape[0] if kw.get("batch_first") else shape[1]
    sshape = (D, 6) if len(shape) == 2 else (D, B, 6)
    s0 = [r.standard_normal(sshape) for _ in range(2 if mode == "LSTM" else 1)]
    fx, tx = ft.tensor(x, requires_grad=True), _torch.tensor(x, requires_grad=True)
    fs = [ft.tensor(s, requires_grad=True) for s in s0]
    ts = [_torch.tensor(s, requires_grad=True) for s in s0]

    def run(m, x, states):
        """(output, [h_n, c_n]) or (output, [h_n])."""
        if mode == "LSTM":
            o, (h, c) = m(x, tuple(states)) if with_state else m(x)
            return o, [h, c]
        o, h = m(x, states[0]) if with_state else m(x)
        return o, [h]

    fo, fst = run(fm, fx, fs)
    to, tst = run(tm, tx, ts)
    for a, b in zip([fo] + fst, [to] + tst):
        np.testing.assert_allclose(a.detach().numpy(), b.detach().numpy(), rtol=1e-12, atol=1e-13)
    w = r.standard_normal(tuple(to.shape))
    ((fo * ft.tensor(w)).sum() + (fst[0] ** 2).sum() + 3 * fst[-1].sum()).backward()
    ((to * _torch.tensor(w)).sum() + (tst[0] ** 2).sum() + 3 * tst[-1].sum()).backward()
    np.testing.assert_allclose(fx.grad.numpy(), tx.grad.numpy(), rtol=1e-10, atol=1e-12)
    if with_state:
        for a, b in zip(fs, ts):
            np.testing.assert_allclose(a.grad.numpy(), b.grad.numpy(), rtol=1e-10, atol=1e-12)
    for (n, p), (_, tp) in zip(fm.named_parameters(), tm.named_parameters()):
        np.testing.assert_allclose(p.grad.numpy(), tp.grad.numpy(), rtol=1e-10, atol=1e-12, err_msg=n)


@needs_torch
@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_float32_training_step_matches_torch(mode) -> None:
    fm, tm = getattr(nn, mode)(8, 16, num_layers=2), getattr(_torch.nn, mode)(8, 16, num_layers=2)
    vals = _params(fm, 3, 0.25)
    _load(fm, vals, ft)
    _load(tm, vals, _torch)
    x = np.random.default_rng(4).standard_normal((20, 4, 8)).astype(np.float32)
    fo, _ = fm(ft.from_numpy(x))
    to, _ = tm(_torch.from_numpy(x))
    fo[-1].pow(2).sum().backward()
    to[-1].pow(2).sum().backward()
    np.testing.assert_allclose(fo.detach().numpy(), to.detach().numpy(), rtol=1e-5, atol=1e-6)
    for (n, p), (_, tp) in zip(fm.named_parameters(), tm.named_parameters()):
        np.testing.assert_allclose(p.grad.numpy(), tp.grad.numpy(), rtol=1e-4, atol=1e-6, err_msg=n)


@needs_torch
@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_double_backward_matches_torch(mode) -> None:
    fm = getattr(nn, mode)(2, 3, bidirectional=True).double()
    tm = getattr(_torch.nn, mode)(2, 3, bidirectional=True).double()
    vals = _params(fm, 5)
    _load(fm, vals, ft)
    _load(tm, vals, _torch)
    x = np.random.default_rng(6).standard_normal((3, 2, 2))
    res = []
    for lib, m in ((ft, fm), (_torch, tm)):
        xt = lib.tensor(x, requires_grad=True)
        out, _ = m(xt)
        (gw,) = lib.autograd.grad((out ** 2).sum(), [m.weight_hh_l0_reverse], create_graph=True)
        (gx,) = lib.autograd.grad((gw ** 2).sum(), [xt])
        res.append(gx.numpy())
    np.testing.assert_allclose(res[0], res[1], rtol=1e-9, atol=1e-11)


def test_first_gradient_matches_finite_differences() -> None:
    """d/dx of sum(grad_w(L)^2), reverse over reverse, against central differences."""
    m = nn.LSTM(2, 3).double()
    _load(m, _params(m, 7), ft)
    x0 = np.random.default_rng(8).standard_normal((4, 1, 2))

    def g2(x, create_graph):
        xt = ft.tensor(x, requires_grad=True)
        out, (h, c) = m(xt)
        (gw,) = ft.autograd.grad((out ** 2).sum() + c.sum(), [m.weight_hh_l0], create_graph=create_graph)
        return xt, (gw ** 2).sum()

    xt, val = g2(x0, True)
    (gx,) = ft.autograd.grad(val, [xt])
    eps = 1e-6
    fd = np.zeros_like(x0)
    for i in np.ndindex(x0.shape):
        d = np.zeros_like(x0)
        d[i] = eps
        fd[i] = (g2(x0 + d, False)[1].item() - g2(x0 - d, False)[1].item()) / (2 * eps)
    np.testing.assert_allclose(gx.numpy(), fd, rtol=1e-6, atol=1e-8)


def _count_nodes(t) -> int:
    seen, stack = set(), [t.grad_fn]
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        stack.extend(nx for nx, _ in n.next_functions)
    return len(seen)


@pytest.mark.parametrize("mode", ["LSTM", "GRU"])
def test_one_node_per_layer_direction(mode) -> None:
    """The graph does not grow with the sequence (it held one node per time step)."""
    m = getattr(nn, mode)(3, 4, num_layers=2, bidirectional=True)
    counts = [_count_nodes(m(ft.randn(T, 2, 3))[0]) for T in (2, 30)]
    assert counts[0] == counts[1]
    assert type(getattr(nn, mode)(3, 4)(ft.randn(5, 2, 3))[0].grad_fn).__name__ == "StackBackward0"


def test_functional_face_grad_and_vmap() -> None:
    """fgrad.grad / vmap through functional_call run the primitive on traced values."""
    m = nn.LSTM(3, 4).double()
    _load(m, _params(m, 9), ft)
    params = {k: v.detach() for k, v in m.named_parameters()}
    xs = np.random.default_rng(10).standard_normal((3, 5, 2, 3))

    def loss(p, x):
        out, (h, c) = ft.func.functional_call(m, p, (x,))
        return (out ** 2).sum() + c.sum()

    per = ft.func.vmap(ft.func.grad(loss), in_dims=(None, 0))(params, ft.tensor(xs))
    for k in range(3):
        m.zero_grad()
        loss(dict(m.named_parameters()), ft.tensor(xs[k])).backward()
        for n, p in m.named_parameters():
            np.testing.assert_allclose(per[n][k].numpy(), p.grad.numpy(), rtol=1e-10, atol=1e-12, err_msg=n)


def test_empty_sequence_raises_like_torch() -> None:
    for mod in (nn.LSTM(3, 4), nn.GRU(3, 4), nn.RNN(3, 4)):
        with pytest.raises(RuntimeError, match="Expected sequence length to be larger than 0 in RNN"):
            mod(ft.zeros(0, 2, 3))
    with pytest.raises(RuntimeError, match="Expected sequence length to be larger than 0 in RNN"):
        nn.LSTM(3, 4, batch_first=True)(ft.zeros(2, 0, 3))
