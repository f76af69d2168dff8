"""The additions of docs/torch-breadth.md on the CUDA device (the real one with CuPy, else
the fake device, which refuses host arrays in device computations like CuPy): attention and
transformers, the new optimizers and schedulers, checkpointing, packed sequences and
torch.special stay on the device and agree with the CPU."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad import backends as B
from fgrad.testing import fake_device
from fgrad.torch import _device as _dev
from fgrad.torch.utils.checkpoint import checkpoint

FD = fake_device.FakeDeviceArray


def _real_cuda() -> bool:
    try:
        return bool(B.get_backend("cupy").devices())
    except Exception:  # noqa: BLE001
        return False


@pytest.fixture
def tol():
    """Installs the fake device as ``cuda`` unless a real GPU is present; the tolerances."""
    if _real_cuda():
        yield (1e-4, 1e-5)
        torch.set_default_device(None)
        return
    prev = fake_device.BACKEND
    prev_platform = prev.platform if prev is not None else None
    fake_device.install(platform="cuda")
    try:
        yield (1e-6, 1e-7)
    finally:
        torch.set_default_device(None)
        fake_device.uninstall()
        if prev_platform is not None:
            fake_device.install(platform=prev_platform)
        _dev.backend()


def on_dev(t) -> bool:
    b = t._buf
    return type(b) is FD or type(b).__module__.split(".")[0] == "cupy"


def host(t) -> np.ndarray:
    return t.detach().cpu().numpy()


def _transformer_step(dev, opt_name, opt_kw):
    torch.manual_seed(0)
    model = torch.nn.Transformer(8, 2, 1, 1, 16, dropout=0.0, batch_first=True).double().to(dev)
    opt = getattr(torch.optim, opt_name)(model.parameters(), **opt_kw)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.01, total_steps=10) if "betas" in opt.defaults \
        else None
    rng = np.random.default_rng(0)
    src = torch.tensor(rng.standard_normal((2, 5, 8)), device=dev)
    tgt = torch.tensor(rng.standard_normal((2, 4, 8)), device=dev)
    kpm = torch.tensor([[False] * 4 + [True], [False] * 5], device=dev)
    mask = model.generate_square_subsequent_mask(4, device=dev, dtype=torch.float64)
    losses = []
    for _ in range(3):
        def closure():
            opt.zero_grad()
            out = model(src, tgt, tgt_mask=mask, src_key_padding_mask=kpm, memory_key_padding_mask=kpm)
            loss = out.pow(2).mean()
            loss.backward()
            return loss

        loss = opt.step(closure) if opt_name == "LBFGS" else None
        if loss is None:
            loss = closure()
            opt.step()
        if sched is not None:
            sched.step()
        losses.append(loss.item())
    if dev == "cuda":
        assert all(on_dev(p) for p in model.parameters()) and on_dev(loss)
        for state in opt.state.values():
            for k, v in state.items():
                if isinstance(v, torch.Tensor) and v.dim() > 0:
                    assert on_dev(v), k
    # Rprop follows the sign of each gradient; the key part of in_proj_bias has gradient 0 in
    # exact arithmetic (softmax ignores a shift shared by all keys), +-1e-17 in floating point
    skip = "in_proj_bias" if opt_name == "Rprop" else None
    return losses, [host(p) for name, p in model.named_parameters() if skip is None or skip not in name]


@pytest.mark.parametrize("opt_name,opt_kw", [
    ("Adadelta", {}), ("Adamax", dict(lr=0.01)), ("NAdam", dict(lr=0.01, weight_decay=0.1)),
    ("RAdam", dict(lr=0.01, decoupled_weight_decay=True, weight_decay=0.1)), ("ASGD", dict(lr=0.01, t0=1)),
    ("Rprop", dict(lr=0.01)), ("LBFGS", dict(max_iter=3, line_search_fn="strong_wolfe"))])
def test_transformer_training_on_the_device_matches_cpu(tol, opt_name, opt_kw):
    rtol, atol = tol
    cpu, dev = _transformer_step("cpu", opt_name, opt_kw), _transformer_step("cuda", opt_name, opt_kw)
    np.testing.assert_allclose(dev[0], cpu[0], rtol=rtol, atol=atol)
    for a, b in zip(dev[1], cpu[1]):
        np.testing.assert_allclose(a, b, rtol=10 * rtol, atol=10 * atol)


def test_sdpa_mha_checkpoint_packing_special_on_the_device(tol):
    rtol, atol = tol
    F = torch.nn.functional
    rng = np.random.default_rng(1)
    q, k, v = (rng.standard_normal(s) for s in ((2, 4, 3, 5), (2, 2, 6, 5), (2, 2, 6, 5)))
    bool_mask = rng.random((3, 6)) > 0.5
    x_mha = rng.standard_normal((3, 2, 5))
    results = {}
    for dev in ("cpu", "cuda"):
        qt, kt, vt = (torch.tensor(a, device=dev, requires_grad=True) for a in (q, k, v))
        a = F.scaled_dot_product_attention(qt, kt, vt, attn_mask=torch.tensor(bool_mask, device=dev),
                                           enable_gqa=True)
        b = F.scaled_dot_product_attention(qt, kt, vt, is_causal=True, enable_gqa=True, scale=0.5)
        torch.manual_seed(0)
        mha = torch.nn.MultiheadAttention(5, 1, kdim=4, vdim=3, add_bias_kv=True, add_zero_attn=True,
                                          dtype=torch.float64).to(dev)
        x = torch.tensor(x_mha, device=dev)
        kk = torch.tensor(np.ones((4, 2, 4)), device=dev)
        vv = torch.tensor(np.ones((4, 2, 3)), device=dev)
        c, w = mha(x, kk, vv, key_padding_mask=torch.tensor([[False, True, False, False]] * 2, device=dev))
        d = checkpoint(lambda t: torch.tanh(t * 2).sum(-1), qt, use_reentrant=False)
        torch.manual_seed(0)
        lstm = torch.nn.LSTM(5, 3, bidirectional=True, dtype=torch.float64).to(dev)
        packed = torch.nn.utils.rnn.pack_sequence([qt[0, 0], qt[1, 1, :2], qt[0, 2]], enforce_sorted=False)
        e, (h, _) = lstm(packed)
        s = torch.special.log_ndtr(qt * 10) + torch.special.ndtr(qt) + torch.special.entr(qt.abs())
        loss = sum(t.sum() for t in (a, b, c, w, d, e.data, h, s))
        loss.backward()
        if dev == "cuda":
            for t in (a, b, c, w, d, e.data, h, s, qt.grad, kt.grad, vt.grad):
                assert on_dev(t)
        results[dev] = [host(t) for t in (a, b, c, w, d, e.data, h, s, qt.grad, kt.grad, vt.grad)]
    for x_dev, x_cpu in zip(results["cuda"], results["cpu"]):
        np.testing.assert_allclose(x_dev, x_cpu, rtol=rtol, atol=atol)
