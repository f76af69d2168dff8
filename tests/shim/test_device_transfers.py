"""A training step on the CUDA device moves no data between host and device.

On the first real GPU run the shim's train steps were 4-16x slower than PyTorch CUDA because
the host stalled on the device: target range checks read on the host, out-of-bounds checks of
every gather, and small index constants uploaded again at every call.  Here the fake device
stands in for ``cuda`` and counts every host<->device copy and every host read of a device
value (``bool``, ``int``, ``float``, ``item``: each a synchronisation on a GPU): after warm-up a
step of an MLP, a CNN and a small GPT does none, apart from the ``loss.item()`` the user asks
for.  Bad class indices still raise PyTorch's IndexError -- at that next synchronisation, as
PyTorch CUDA's device-side assert does.
"""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad import backends as B
from fgrad.testing import fake_device
from fgrad.torch import _device as shim_device

nn, F = torch.nn, torch.nn.functional


@pytest.fixture
def fake_cuda():
    if "cupy" in B._BACKENDS:
        pytest.skip("the real cupy backend is loaded: transfers are counted on the fake device only")
    prev = fake_device.BACKEND
    prev_platform = prev.platform if prev is not None else None
    be = fake_device.install(platform="cuda")
    shim_device.backend()
    try:
        yield be
    finally:
        shim_device.PENDING.clear()
        if prev_platform != "cuda":
            fake_device.uninstall()
            if prev_platform is not None:
                fake_device.install(platform=prev_platform)
        shim_device.backend()


class _Block(nn.Module):
    def __init__(self, d: int, heads: int) -> None:
        super().__init__()
        self.heads = heads
        self.ln1, self.ln2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.proj = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.fc, self.out = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)

    def forward(self, x):
        B_, T, C = x.shape
        h = self.heads
        q, k, v = self.qkv(self.ln1(x)).split(C, dim=2)
        q, k, v = (z.view(B_, T, h, C // h).transpose(1, 2) for z in (q, k, v))
        att = (q @ k.transpose(-2, -1)) * (1.0 / (C // h) ** 0.5)
        mask = torch.tril(torch.ones(T, T, device=x.device)) == 0
        att = F.softmax(att.masked_fill(mask, float("-inf")), dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B_, T, C)
        x = x + self.proj(y)
        return x + self.out(F.gelu(self.fc(self.ln2(x))))


class _GPT(nn.Module):
    def __init__(self, vocab: int = 40, seq: int = 8, d: int = 16, heads: int = 2) -> None:
        super().__init__()
        self.tok, self.pos = nn.Embedding(vocab, d), nn.Embedding(seq, d)
        self.block = _Block(d, heads)
        self.ln, self.head = nn.LayerNorm(d), nn.Linear(d, vocab)

    def forward(self, idx):
        x = self.tok(idx) + self.pos(torch.arange(idx.shape[1], device=idx.device))
        return self.head(self.ln(self.block(x)))


def _case(name: str):
    torch.manual_seed(0)
    if name == "mlp":
        return (nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 10)),
                torch.randn(8, 16), torch.randint(0, 10, (8,)))
    if name == "cnn":
        return (nn.Sequential(nn.Conv2d(3, 4, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2), nn.Flatten(),
                              nn.Linear(4 * 4 * 4, 10)),
                torch.randn(8, 3, 8, 8), torch.randint(0, 10, (8,)))
    return _GPT(), torch.randint(0, 40, (2, 8)), torch.randint(0, 40, (2, 8))


def _step_fn(model, x, y):
    opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)

    def step():
        opt.zero_grad()
        out = model(x)
        loss = F.cross_entropy(out.reshape(-1, out.shape[-1]), y.reshape(-1))
        loss.backward()
        opt.step()
        return loss

    return step


@pytest.mark.parametrize("name", ["mlp", "cnn", "gpt"])
def test_a_train_step_on_the_device_moves_nothing(fake_cuda, name):
    model, x, y = _case(name)
    cpu_model, _, _ = _case(name)
    cpu_step = _step_fn(cpu_model, x, y)
    step = _step_fn(model.cuda(), x.cuda(), y.cuda())
    for _ in range(2):  # warm-up: programs staged, index constants uploaded once
        step()
    fake_cuda.reset_counters()
    for _ in range(3):
        loss = step()
    assert fake_cuda.transfers == {"h2d": 0, "d2h": 0}
    got = loss.item()  # the one synchronisation the user asked for (and the deferred checks)
    assert fake_cuda.transfers["h2d"] == 0
    for _ in range(5):
        want = cpu_step().item()
    assert got == pytest.approx(want, rel=1e-6)


def test_bad_targets_on_the_device_raise_at_the_next_synchronisation(fake_cuda):
    logits = torch.randn(4, 3).cuda()
    good = torch.tensor([0, 2, 1, 1]).cuda()
    bad = torch.tensor([0, 3, 1, -1]).cuda()
    F.cross_entropy(logits, good).item()
    loss = F.cross_entropy(logits, bad)  # no synchronisation here
    with pytest.raises(IndexError, match="Target 3 is out of bounds."):
        loss.item()
    F.cross_entropy(logits, good).item()  # reported once
    F.nll_loss(F.log_softmax(logits, dim=1), bad)
    with pytest.raises(IndexError, match="Target 3 is out of bounds."):
        torch.cuda.synchronize()
    with pytest.raises(IndexError, match="Target 3 is out of bounds."):  # on the CPU: at once
        F.cross_entropy(logits.cpu(), bad.cpu())
    assert np.isfinite(F.cross_entropy(logits, good, ignore_index=-1).item())


@pytest.mark.parametrize("return_indices", [False, True])
def test_max_pooling_picks_pytorchs_cell_on_the_device_without_a_sync(fake_cuda, return_indices):
    """PyTorch's pick in NaN and all -inf windows (round 25) on a device takes the pick path
    outright: checking the result for such windows would move it to the host every step."""
    x0 = np.arange(32, dtype=np.float32).reshape(1, 2, 4, 4)
    x0[0, 0, 0, :2] = np.nan
    x0[0, 0, 1, 0] = np.nan
    x0[0, 1, 2:, 2:] = -np.inf
    g0 = np.linspace(-1, 1, 8, dtype=np.float32).reshape(1, 2, 2, 2)
    got = []
    for device in ("cpu", "cuda", "cuda"):  # the second device run: constants uploaded
        x = torch.tensor(x0, device=device, requires_grad=True)
        g = torch.tensor(g0, device=device)
        fake_cuda.reset_counters()
        out = F.max_pool2d(x, 2, return_indices=return_indices)
        y = out[0] if return_indices else out
        y.backward(g)
        if len(got) == 2:
            assert fake_cuda.transfers == {"h2d": 0, "d2h": 0}
        got.append([x.grad.cpu().numpy()] + ([out[1].cpu().numpy()] if return_indices else []))
    for a, b in zip(got[0], got[2], strict=True):
        np.testing.assert_array_equal(a, b)
