"""The optimizers' fused path (`Optimizer._step_plain`, PyTorch's ``foreach``): NumPy calls on
the buffers instead of one shim op per operation.  It must give the per-op path's values bit
for bit (``foreach=False`` takes the per-op path), bump the same version counters, and step
aside wherever the per-op path does something else (device tensors, ``maximize``, ...)."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch

CONFIGS = [
    ("Adam", dict(lr=1e-2)),
    ("Adam", dict(lr=1e-2, weight_decay=0.1)),
    ("Adam", dict(lr=1e-2, amsgrad=True)),
    ("AdamW", dict(lr=1e-2)),
    ("AdamW", dict(lr=3e-3, betas=(0.8, 0.99), eps=1e-6, weight_decay=0.5, amsgrad=True)),
    ("SGD", dict(lr=0.1)),
    ("SGD", dict(lr=0.1, momentum=0.9)),
    ("SGD", dict(lr=0.1, momentum=0.9, dampening=0.3, weight_decay=0.01)),
    ("SGD", dict(lr=0.1, momentum=0.9, nesterov=True)),
    ("SGD", dict(lr=0.05, momentum=0.8, nesterov=True, weight_decay=5e-4)),
    ("SGD", dict(lr=0.0)),
]


def _run(name, kw, foreach, dtype, steps=4):
    rng = np.random.default_rng(0)
    shapes = [(5, 3), (3,), (2, 2, 2), ()]
    params = [torch.nn.Parameter(torch.tensor(rng.standard_normal(s), dtype=dtype)) for s in shapes]
    opt = getattr(torch.optim, name)(params, foreach=foreach, **kw)
    for k in range(steps):
        for i, p in enumerate(params):
            if k == 1 and i == 1:
                p.grad = None  # a parameter without a gradient this step
            else:
                p.grad = torch.tensor(rng.standard_normal(p.shape) * 10.0 ** (i - 2), dtype=dtype)
        opt.step()
    states = [{k: (v.numpy().copy() if isinstance(v, torch.Tensor) else v, getattr(v, "_version", None))
               for k, v in opt.state[p].items()} for p in params]
    return [p.detach().numpy().copy() for p in params], [p._version for p in params], states


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64])
@pytest.mark.parametrize("name,kw", CONFIGS)
def test_fused_step_is_the_per_op_step(name, kw, dtype):
    fused, per_op = _run(name, kw, None, dtype), _run(name, kw, False, dtype)
    for a, b in zip(fused[0], per_op[0], strict=True):
        assert a.dtype == b.dtype and a.tobytes() == b.tobytes()
    assert fused[1] == per_op[1]
    for sa, sb in zip(fused[2], per_op[2], strict=True):
        assert sa.keys() == sb.keys()
        for k in sa:
            (va, vera), (vb, verb) = sa[k], sb[k]
            assert np.asarray(va).tobytes() == np.asarray(vb).tobytes(), k
            assert vera == verb, k


def test_fused_adam_matches_pytorch_live():
    pt = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    w0 = rng.standard_normal((4, 3)).astype(np.float32)
    grads = [rng.standard_normal((4, 3)).astype(np.float32) for _ in range(3)]
    out = []
    for t in (torch, pt):
        w = t.nn.Parameter(t.tensor(w0.copy()))
        opt = t.optim.AdamW([w], lr=0.05, weight_decay=0.1)
        for g in grads:
            w.grad = t.tensor(g.copy())
            opt.step()
        out.append(w.detach().numpy())
    np.testing.assert_allclose(out[0], out[1], rtol=1e-6, atol=1e-7)


def test_fused_step_keeps_autograd_errors():
    # a tensor saved for backward and then stepped on raises at backward, as per op
    w = torch.nn.Parameter(torch.ones(3))
    opt = torch.optim.SGD([w], lr=0.1)
    y = (w * w).sum()
    w.grad = torch.ones(3)
    opt.step()
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        y.backward()


def test_maximize_and_aliased_gradients_take_the_per_op_path():
    w = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = torch.optim.SGD([w], lr=0.5, maximize=True)
    w.grad = torch.tensor([1.0, 1.0])
    opt.step()
    np.testing.assert_array_equal(w.detach().numpy(), [1.5, 2.5])
    v = torch.nn.Parameter(torch.tensor([1.0, 2.0]))
    opt = torch.optim.SGD([v], lr=0.5)
    v.grad = v.detach()  # the gradient is the parameter's own memory
    opt.step()
    np.testing.assert_array_equal(v.detach().numpy(), [0.5, 1.0])


def _fused_calls(monkeypatch, cls) -> list:
    """The parameters ``cls._update_plain`` (the fused path) is called with, from now on."""
    calls = []
    real = cls._update_plain
    monkeypatch.setattr(cls, "_update_plain", lambda self, p, *a: calls.append(p) or real(self, p, *a))
    return calls


def test_host_parameters_take_the_fused_path(monkeypatch):
    calls = _fused_calls(monkeypatch, torch.optim.Adam)
    w = torch.nn.Parameter(torch.ones(3))
    for foreach in (None, False):
        opt = torch.optim.AdamW([w], foreach=foreach)
        w.grad = torch.ones(3)
        opt.step()
    host = type(w._buf) is np.ndarray  # (FGRAD_BACKEND=fake: device buffers, per op)
    assert calls == ([w] if host else [])


def test_nesterov_sgd_takes_the_fused_path(monkeypatch):
    calls = _fused_calls(monkeypatch, torch.optim.SGD)
    w = torch.nn.Parameter(torch.ones(3))
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.9, nesterov=True)
    g = torch.tensor([1.0, -2.0, 0.5])
    w.grad = g
    opt.step()
    host = type(w._buf) is np.ndarray  # (FGRAD_BACKEND=fake: device buffers, per op)
    assert calls == ([w] if host else [])
    np.testing.assert_array_equal(g.numpy(), np.float32([1.0, -2.0, 0.5]))  # the gradient kept


# PyTorch 2.13: SGD(lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01), w0 and the
# gradients of test_nesterov_sgd_matches_pytorch, three steps (float32)
NESTEROV_PT = [[0.77772534, -1.3041862, 0.39449719], [1.5016378, -0.29100487, -1.3710041]]


def _nesterov_run(t):
    w = t.nn.Parameter(t.tensor([[1.0, -1.0, 0.25], [1.5, 0.0, -0.5]]))
    opt = t.optim.SGD([w], lr=0.05, momentum=0.9, nesterov=True, weight_decay=0.01)
    g, shift = t.tensor([[0.3, 0.7, -0.2], [0.1, 0.4, 1.2]]), t.tensor([[0, 0.5, 0], [0.2, 0, 0]])
    for k in range(3):
        w.grad = g * (k + 1) - shift
        opt.step()
    return w.detach().numpy()


def test_nesterov_sgd_matches_pytorch():
    np.testing.assert_allclose(_nesterov_run(torch), NESTEROV_PT, rtol=1e-6, atol=1e-7)
    pt = pytest.importorskip("torch")
    np.testing.assert_allclose(_nesterov_run(torch), _nesterov_run(pt), rtol=1e-6, atol=1e-7)


def test_a_state_of_another_dtype_takes_the_per_op_path():
    # a float64 exp_avg for a float32 parameter (a state loaded from elsewhere): the per-op
    # path's type promotion, not NumPy's out= casting, decides the values
    rng = np.random.default_rng(3)
    w0, g1, g2 = (rng.standard_normal(1000).astype(np.float32) for _ in range(3))

    def run(foreach):
        w = torch.nn.Parameter(torch.tensor(w0))
        opt = torch.optim.Adam([w], lr=0.1, foreach=foreach)
        w.grad = torch.tensor(g1)
        opt.step()
        st = opt.state[w]
        st["exp_avg"] = st["exp_avg"].double()
        w.grad = torch.tensor(g2)
        opt.step()
        return w.detach().numpy().copy(), opt.state[w]["exp_avg"].dtype

    (a, da), (b, db) = run(None), run(False)
    assert da == db and a.tobytes() == b.tobytes()


def test_tensor_hyper_parameters_take_the_per_op_path(monkeypatch):
    calls = []
    real = torch.optim.Adam._update_plain
    monkeypatch.setattr(torch.optim.Adam, "_update_plain",
                        lambda self, p, *a: calls.append(p) or real(self, p, *a))

    def run(foreach, beta1):
        w = torch.nn.Parameter(torch.tensor([1.0, -2.0, 0.5]))
        opt = torch.optim.Adam([w], lr=0.1, betas=(beta1, 0.999), foreach=foreach)
        w.grad = torch.tensor([0.3, -0.2, 0.1])
        opt.step()
        return w.detach().numpy().copy()

    want = run(False, torch.tensor(0.9))  # (1 - beta1 in float32 arithmetic: not 0.9's path)
    np.testing.assert_array_equal(run(None, torch.tensor(0.9)), want)
    assert calls == []
