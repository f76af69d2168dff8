"""fgrad.torch on the CUDA device.

The tests take the ``cuda`` fixture: on a machine with a GPU (CuPy) it is the real device;
elsewhere it is the fake device of `fgrad.testing.fake_device`, installed as ``cuda``
(`fake_device.install(platform="cuda")`: two devices whose arrays are a NumPy subclass that,
like CuPy, refuses host arrays in any computation -- so a host constant leaking into a device
op fails loudly, and every result must stay on the device).  The checks: tensors, modules and
optimizers move; forward, backward and optimizer steps stay on the device and agree with the
CPU; mixing devices raises PyTorch's error; ``save``/``load`` with ``map_location`` both ways;
the repr shows ``device='cuda:0'``.

The test marked ``gpu`` runs a training step on a real GPU and skips without one.  Without any
CUDA backend, ``torch.cuda.is_available()`` is False and ``.cuda()`` raises PyTorch's "Torch not
compiled with CUDA enabled".
"""

from __future__ import annotations

import copy
import io
import pickle
import zipfile

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad import backends as B
from fgrad.testing import fake_device
from fgrad.torch import nn
from fgrad.torch import _device as _dev
from fgrad.torch.nn import functional as F

FD = fake_device.FakeDeviceArray
MIX = "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"


def _real_cuda() -> bool:
    try:
        be = B.get_backend("cupy")
        return bool(be.devices())
    except Exception:  # noqa: BLE001
        return False


class _Cuda:
    """What a test needs to know about the CUDA device it runs on."""

    def __init__(self, real: bool) -> None:
        self.real = real
        self.two = torch.cuda.device_count() > 1
        self.i1 = 1 if self.two else 0  # a second device when there is one
        self.s1 = f"cuda:{self.i1}"
        # the fake device computes with NumPy (the CPU's numbers); a GPU sums in another order
        self.rtol, self.atol = (1e-4, 1e-5) if real else (1e-5, 1e-6)


@pytest.fixture
def cuda():
    """The CUDA device for the duration of a test: the real one when present, else the fake
    device installed as ``cuda`` (two devices)."""
    if _real_cuda():
        yield _Cuda(True)
        torch.set_default_device(None)
        return
    prev = fake_device.BACKEND
    prev_platform = prev.platform if prev is not None else None
    fake_device.install(platform="cuda")
    try:
        assert torch.cuda.is_available()
        yield _Cuda(False)
    finally:
        torch.set_default_device(None)
        fake_device.uninstall()
        if prev_platform is not None:
            fake_device.install(platform=prev_platform)
        _dev.backend()


def on_dev(t, index=0) -> bool:
    """``t``'s buffer is a device array on CUDA device ``index``."""
    b = t._buf
    if type(b) is FD:
        return b._fake_device == index
    return type(b).__module__.split(".")[0] == "cupy" and b.device.id == index


def host(t) -> np.ndarray:
    return t.detach().cpu().numpy()


# ---------------------------------------------------------------------------------------
# no CUDA


def test_without_cuda_nothing_changes(no_cuda):
    assert not torch.cuda.is_available()
    assert torch.cuda.device_count() == 0
    t = torch.ones(2)
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        t.cuda()
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        t.to("cuda")
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.zeros(2, device="cuda")
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        torch.cuda.current_device()
    with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
        nn.Linear(2, 2).cuda()
    torch.cuda.manual_seed(0)  # a no-op, as in a CPU-only PyTorch
    assert t.cpu() is t and t.to("cpu") is t
    assert t.device == torch.device("cpu") and not t.is_cuda and t.get_device() == -1
    buf = io.BytesIO()
    torch.save({"w": t}, buf)
    buf.seek(0)
    with pytest.raises(RuntimeError, match="torch.cuda.is_available\\(\\) is False"):
        torch.load(buf, map_location="cuda")


# ---------------------------------------------------------------------------------------
# torch.cuda and tensors


def test_cuda_namespace(cuda):
    assert torch.cuda.is_available() and torch.cuda.is_initialized()
    assert torch.cuda.device_count() == (2 if not cuda.real else torch.cuda.device_count()) >= 1
    assert torch.cuda.current_device() == 0
    assert isinstance(torch.cuda.get_device_name(0), str)
    torch.cuda.synchronize()
    with torch.cuda.device(cuda.i1):
        assert torch.cuda.current_device() == cuda.i1
        assert torch.ones(1).cuda().device == torch.device(cuda.s1)
    assert torch.cuda.current_device() == 0
    torch.cuda.manual_seed(3)
    a = torch.randn(5, device="cuda")
    torch.cuda.manual_seed(3)
    b = torch.randn(5, device="cuda")
    assert on_dev(a) and np.array_equal(host(a), host(b))
    torch.manual_seed(4)  # seeds the CUDA generators too (PyTorch)
    c = torch.rand(3, device="cuda")
    torch.manual_seed(4)
    assert np.array_equal(host(c), host(torch.rand(3, device="cuda")))
    s = torch.cuda.get_rng_state()
    d = torch.randn(2, device="cuda")
    torch.cuda.set_rng_state(s)
    assert np.array_equal(host(d), host(torch.randn(2, device="cuda")))
    with pytest.raises(RuntimeError, match="invalid device ordinal"):
        torch.ones(1, device=f"cuda:{torch.cuda.device_count()}")
    ft = torch.cuda.FloatTensor([1, 2])
    assert on_dev(ft) and ft.dtype == torch.float32 and isinstance(ft, torch.cuda.FloatTensor)
    assert not isinstance(torch.ones(1), torch.cuda.FloatTensor)


def test_moves_and_device(cuda):
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    for y in (x.cuda(), x.to("cuda"), x.to("cuda:0"), x.to(torch.device("cuda", 0)), x.to(0),
              x.to(device="cuda"), x.to(torch.ones(1, device="cuda"))):
        assert on_dev(y)
        assert y.device == torch.device("cuda", 0) and str(y.device) == "cuda:0"
        assert y.is_cuda and not y.is_cpu and y.get_device() == 0
        assert np.array_equal(host(y), x.numpy())
    y = x.cuda()
    assert y.cuda() is y and y.to("cuda") is y  # no copy when already there
    assert y.to("cuda", copy=True) is not y
    y[0, 0] = 9.0  # a copy: the host tensor is untouched
    assert x[0, 0].item() == 1.0
    z = y.cpu()
    assert type(z._buf) is np.ndarray and z.device == torch.device("cpu") and z[0, 0].item() == 9.0
    assert z.cpu() is z
    w = x.to(cuda.s1)
    assert on_dev(w, cuda.i1) and str(w.device) == cuda.s1 and w.get_device() == cuda.i1
    assert on_dev(w.to("cuda:0"), 0) and on_dev(w.cuda(0), 0)
    d = x.to("cuda", torch.float64)
    assert on_dev(d) and d.dtype == torch.float64
    assert y.type() == "torch.cuda.FloatTensor" and x.type() == "torch.FloatTensor"
    assert on_dev(x.type("torch.cuda.DoubleTensor")) and y.type("torch.LongTensor").device.type == "cpu"
    assert y.untyped_storage().device == torch.device("cuda:0") and y.untyped_storage().is_cuda
    assert y.tolist() == [[9.0, 2.0], [3.0, 4.0]] and y[1, 1].item() == 4.0 and float(y[0, 1]) == 2.0
    assert f"{y[0, 0]:.1f}" == "9.0"


def test_numpy_of_a_cuda_tensor_raises(cuda):
    y = torch.ones(2, device="cuda")
    msg = ("can't convert cuda:0 device type tensor to numpy. Use Tensor.cpu() to copy the tensor to host "
           "memory first.")
    with pytest.raises(TypeError) as e:
        y.numpy()
    assert str(e.value) == msg
    with pytest.raises(TypeError):
        np.asarray(y)
    assert np.array_equal(y.cpu().numpy(), [1.0, 1.0])


def test_repr_shows_the_device(cuda):
    assert repr(torch.tensor([1.0, 2.0], device="cuda")) == "tensor([1., 2.], device='cuda:0')"
    assert repr(torch.tensor([1, 2], dtype=torch.int32, device="cuda")) == \
        "tensor([1, 2], device='cuda:0', dtype=torch.int32)"
    assert repr(torch.ones(1, device="cuda", requires_grad=True)) == \
        "tensor([1.], device='cuda:0', requires_grad=True)"
    assert repr((torch.ones(2, device="cuda", requires_grad=True) * 2).sum()) == \
        "tensor(4., device='cuda:0', grad_fn=<SumBackward0>)"
    assert repr(torch.zeros(0, 3, device=cuda.s1)) == f"tensor([], device='{cuda.s1}', size=(0, 3))"
    p = nn.Parameter(torch.zeros(2, device="cuda"))
    assert repr(p) == "Parameter containing:\ntensor([0., 0.], device='cuda:0', requires_grad=True)"
    torch.set_default_device("cuda")  # PyTorch then omits cuda:0 and shows the CPU
    assert repr(torch.ones(1)) == "tensor([1.])"
    assert repr(torch.ones(1, device="cpu")) == "tensor([1.], device='cpu')"


def test_creation_on_the_device(cuda):
    kw = {"device": "cuda"}
    for t in (torch.zeros(2, 3, **kw), torch.ones(2, **kw), torch.empty(4, **kw), torch.full((2,), 7.0, **kw),
              torch.arange(5, **kw), torch.linspace(0, 1, 5, **kw), torch.eye(3, **kw),
              torch.tensor([1, 2], **kw), torch.randn(3, **kw), torch.rand(3, **kw),
              torch.randint(0, 5, (4,), **kw), torch.randperm(4, **kw), torch.as_tensor([1.0], **kw),
              torch.empty_strided((2, 2), (1, 2), **kw), torch.normal(0.0, 1.0, (3,), **kw),
              torch.tril_indices(3, 3, **kw)):
        assert on_dev(t), t
    assert np.array_equal(host(torch.arange(5, device="cuda")), np.arange(5))
    assert np.array_equal(host(torch.full((2,), 7.0, device="cuda")), [7.0, 7.0])
    y = torch.ones(2, 2, device=cuda.s1)
    for t in (torch.zeros_like(y), torch.ones_like(y), torch.empty_like(y), torch.full_like(y, 3),
              torch.randn_like(y), torch.rand_like(y), torch.randint_like(y, 4), y.new_zeros(3),
              y.new_ones(1), y.new_full((2,), 1.0), y.new_empty(2), y.new_tensor([1.0])):
        assert on_dev(t, cuda.i1), t
    assert torch.zeros_like(y, device="cpu").device.type == "cpu"
    with pytest.warns(UserWarning, match="To copy construct from a tensor"):
        t = torch.tensor(torch.ones(2, device="cuda"))
    assert on_dev(t)  # keeps the source's device (PyTorch)
    torch.set_default_device("cuda")
    assert torch.get_default_device() == torch.device("cuda:0")
    assert on_dev(torch.zeros(2)) and on_dev(torch.tensor([1.0])) and on_dev(torch.randn(2))
    assert torch.zeros(2, device="cpu").device.type == "cpu"
    torch.set_default_device("cpu")
    assert torch.zeros(2).device.type == "cpu"
    with torch.device(cuda.s1):
        assert on_dev(torch.zeros(2), cuda.i1) and on_dev(nn.Linear(2, 2).weight, cuda.i1)
        with torch.device("cpu"):
            assert torch.ones(1).device.type == "cpu"
        assert on_dev(torch.ones(1), cuda.i1)
    assert torch.zeros(2).device.type == "cpu"


# ---------------------------------------------------------------------------------------
# mixing devices


def test_mixing_devices_raises(cuda):
    a = torch.ones(3, device="cuda")
    c = torch.ones(3)
    for f in (lambda: a + c, lambda: c + a, lambda: a * c, lambda: torch.cat([a, c]),
              lambda: torch.where(a > 0, a, c), lambda: torch.ones(2, 3, device="cuda") @ torch.ones(3, 2),
              lambda: a.add_(c), lambda: c.add_(a), lambda: torch.maximum(a, c),
              lambda: F.linear(torch.ones(2, 3), torch.ones(4, 3, device="cuda")),
              lambda: nn.Linear(3, 2).cuda()(torch.ones(1, 3))):
        with pytest.raises(RuntimeError) as e:
            f()
        assert str(e.value) == MIX
    if cuda.two:
        with pytest.raises(RuntimeError, match="cuda:0 and cuda:1"):
            a + torch.ones(3, device="cuda:1")
    # Python scalars and 0-dim CPU tensors are scalars (PyTorch)
    assert on_dev(a + 1) and on_dev(2.0 * a)
    assert on_dev(a + torch.tensor(2.0)) and on_dev(torch.tensor(2.0) * a)
    assert np.array_equal(host(a + torch.tensor(2.0)), [3.0, 3.0, 3.0])
    s = torch.tensor(3.0, requires_grad=True)  # a CPU scalar leaf: its gradient comes back to the CPU
    w = torch.ones(3, device="cuda", requires_grad=True)
    (w * s).sum().backward()
    assert s.grad.device.type == "cpu" and s.grad.item() == 3.0 and on_dev(w.grad)
    # explicit transfers are the way across
    assert on_dev(a + c.cuda()) and (a.cpu() + c).device.type == "cpu"


def test_copy_between_devices(cuda):
    a = torch.zeros(3, device="cuda")
    a.copy_(torch.tensor([1.0, 2.0, 3.0]))  # copy_ is a transfer (PyTorch)
    assert on_dev(a) and host(a).tolist() == [1.0, 2.0, 3.0]
    h = torch.zeros(3)
    h.copy_(a)
    assert type(h._buf) is np.ndarray and h.tolist() == [1.0, 2.0, 3.0]
    src = torch.tensor([1.0, 2.0], requires_grad=True)
    dst = torch.zeros(2, device="cuda")
    dst.copy_(src)
    (dst * torch.tensor([3.0, 4.0], device="cuda")).sum().backward()
    assert src.grad.tolist() == [3.0, 4.0] and src.grad.device.type == "cpu"
    a[1:] = torch.tensor([7.0, 8.0])  # basic-index assignment copies across devices too
    assert host(a).tolist() == [1.0, 7.0, 8.0]


# ---------------------------------------------------------------------------------------
# storage, views, versions, in-place ops


def test_views_share_device_memory(cuda):
    x = torch.arange(12.0, device="cuda")
    v = x.view(3, 4)
    s = v[1:, ::2]
    t = v.t()
    e = x[:1].expand(4)
    for w in (v, s, t, e, x.narrow(0, 2, 3), x.unsqueeze(0), v.select(0, 1), v.diagonal(),
              x.view(3, 4).permute(1, 0)):
        assert on_dev(w)
        assert w.untyped_storage().data_ptr() == x.untyped_storage().data_ptr()
    assert s.stride() == (4, 2) and s.storage_offset() == 4 and t.stride() == (1, 4) and e.stride() == (0,)
    assert not t.is_contiguous() and t.contiguous().is_contiguous() and on_dev(t.contiguous())
    s.mul_(10)
    assert host(x).tolist()[4:8] == [40.0, 5.0, 60.0, 7.0]
    assert x._version == v._version == s._version == 1
    v[0, 0] = -1.0
    assert x[0].item() == -1.0 and x._version == 2
    r = t.reshape(12)  # not a view (t is not contiguous): a copy on the device
    assert on_dev(r) and r.untyped_storage().data_ptr() != x.untyped_storage().data_ptr()
    d = copy.deepcopy(v)
    assert on_dev(d) and np.array_equal(host(d), host(v))
    with pytest.raises(RuntimeError, match="view size is not compatible"):
        t.view(12)


def test_inplace_and_version_errors(cuda):
    a = torch.ones(3, device="cuda", requires_grad=True)
    b = a * 2
    c = b.exp()  # saves its output
    c.add_(1)
    with pytest.raises(RuntimeError, match="modified by an inplace operation"):
        c.sum().backward()
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        a.add_(1)
    x = torch.ones(4, device="cuda", requires_grad=True)
    y = x * 1
    y[1:3].mul_(torch.tensor([2.0, 3.0], device="cuda"))  # in-place on a view of a non-leaf: CopySlices
    y.sum().backward()
    assert on_dev(x.grad) and host(x.grad).tolist() == [1.0, 2.0, 3.0, 1.0]
    z = torch.zeros(3, device="cuda")
    z += 1
    z.clamp_(max=0.5)
    z.sqrt_()
    z[torch.tensor([0, 2], device="cuda")] = 4.0
    z.masked_fill_(z > 3, 5.0)
    assert on_dev(z) and np.allclose(host(z), [5.0, np.sqrt(0.5), 5.0])


# ---------------------------------------------------------------------------------------
# autograd: the same numbers as on the CPU, everything on the device


def _graph(a, b, w, idx):
    h = torch.tanh(a @ w) + b[:, :3].sigmoid() * 2 - 1
    h = F.relu(h) + F.gelu(h) * 0.1 + F.softplus(h)
    p = F.log_softmax(h, dim=1)
    loss = F.nll_loss(p, idx) + F.mse_loss(h, b[:, 1:4]) + h.max(dim=1).values.mean()
    loss = loss + torch.where(h > 0, h, h * 0.1).pow(2).mean() + h[:, [0, 2]].sum() * 0.01
    loss = loss + torch.cat([h, a], 1).std() + h.sort(dim=1).values[:, -1].sum() * 0.1
    return loss + F.layer_norm(h, (3,)).abs().mean() + h.cumsum(1).var()


def test_autograd_matches_cpu(cuda):
    rng = np.random.default_rng(0)
    A, Bm, W = (rng.standard_normal(s).astype(np.float32) for s in ((5, 4), (5, 4), (4, 3)))
    idx = np.array([0, 2, 1, 1, 0])
    res = {}
    for dev in ("cpu", "cuda"):
        xs = [torch.tensor(v, device=dev, requires_grad=True) for v in (A, Bm, W)]
        loss = _graph(*xs, torch.tensor(idx, device=dev))
        loss.backward()
        res[dev] = (host(loss), [host(x.grad) for x in xs])
        if dev == "cuda":
            assert on_dev(loss) and all(on_dev(x.grad) for x in xs)
            assert type(loss.grad_fn).__name__ == "AddBackward0"
    np.testing.assert_allclose(res["cuda"][0], res["cpu"][0], rtol=cuda.rtol)
    for g1, g0 in zip(res["cuda"][1], res["cpu"][1]):
        np.testing.assert_allclose(g1, g0, rtol=10 * cuda.rtol, atol=cuda.atol)


def test_second_order_on_the_device(cuda):
    x = torch.tensor([0.5, -1.0, 2.0], device="cuda", requires_grad=True)
    (g,) = torch.autograd.grad((x ** 3).sum() + x.sin().sum(), x, create_graph=True)
    assert on_dev(g) and g.requires_grad
    (h,) = torch.autograd.grad(g.sum(), x)
    assert on_dev(h)
    xv = np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(host(h), 6 * xv - np.sin(xv), rtol=1e-5)


def test_gradient_crosses_a_transfer(cuda):
    w = torch.tensor([1.0, 2.0], requires_grad=True)  # CPU leaf
    y = w.cuda()
    assert type(y.grad_fn).__name__ == "ToCopyBackward0" and y.grad_fn.next_functions[0][0] is not None
    z = (y * y).sum().cpu() * 3
    z.backward()
    assert w.grad.device.type == "cpu" and w.grad.tolist() == [6.0, 12.0]
    v = torch.tensor([1.0, 2.0], device="cuda", requires_grad=True)
    (g,) = torch.autograd.grad((v.cpu() ** 2).sum(), v)
    assert on_dev(g) and host(g).tolist() == [2.0, 4.0]
    with pytest.raises(RuntimeError, match="expected device cuda:0 but got cpu"):
        torch.autograd.grad(v * 2, v, grad_outputs=torch.ones(2))


def test_custom_function_hooks_and_gradcheck(cuda):
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3

        @staticmethod
        def backward(ctx, g):
            (x,) = ctx.saved_tensors
            return 3 * x * x * g

    class Bad(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2

        @staticmethod
        def backward(ctx, g):
            return g.cpu()

    x = torch.tensor([1.0, -2.0], device="cuda", requires_grad=True)
    seen = []
    x.register_hook(lambda g: seen.append(g.device) or g * 2)
    Cube.apply(x).sum().backward()
    assert on_dev(x.grad) and host(x.grad).tolist() == [6.0, 24.0] and seen == [torch.device("cuda:0")]
    with pytest.raises(RuntimeError, match="expected device cuda:0 but got cpu"):
        Bad.apply(x).sum().backward()
    x64 = torch.tensor([0.3, -0.7], dtype=torch.float64, device="cuda", requires_grad=True)
    assert torch.autograd.gradcheck(lambda t: (t.sin() * t).sum(), (x64,))
    assert torch.autograd.gradgradcheck(lambda t: t.exp() * t, (x64,))


# ---------------------------------------------------------------------------------------
# modules and optimizers


def _all_on_dev(model, opt=None, index=0):
    for t in list(model.parameters()) + list(model.buffers()):
        assert on_dev(t, index), t
        if t.grad is not None:
            assert on_dev(t.grad, index)
    if opt is not None:
        for st in opt.state.values():
            for k, v in st.items():
                if isinstance(v, torch.Tensor) and k != "step":
                    assert on_dev(v, index), (k, type(v._buf))


def _net():
    torch.manual_seed(0)
    # (no bias before the batch norm: its gradient is rounding noise, which Adam would amplify)
    return nn.Sequential(nn.Linear(6, 8, bias=False), nn.BatchNorm1d(8), nn.ReLU(), nn.Dropout(0.0),
                         nn.Linear(8, 3))


@pytest.mark.parametrize("make_opt", [
    lambda p: torch.optim.SGD(p, lr=0.1, momentum=0.9, nesterov=True, weight_decay=1e-3),
    lambda p: torch.optim.Adam(p, lr=0.01, amsgrad=True),
    lambda p: torch.optim.AdamW(p, lr=0.01),
    lambda p: torch.optim.RMSprop(p, lr=0.01, momentum=0.5),
    lambda p: torch.optim.Adagrad(p, lr=0.1),
], ids=["sgd", "adam", "adamw", "rmsprop", "adagrad"])
def test_training_on_the_device_matches_cpu(cuda, make_opt):
    rng = np.random.default_rng(1)
    X = rng.standard_normal((16, 6)).astype(np.float32)
    Y = rng.integers(0, 3, 16)
    out = {}
    for dev in ("cpu", "cuda"):
        model = _net()
        params = list(model.parameters())
        model.to(dev)  # in place: the same Parameter objects move
        assert all(p is q for p, q in zip(params, model.parameters()))
        opt = make_opt(model.parameters())
        x, y = torch.tensor(X, device=dev), torch.tensor(Y, device=dev)
        losses = []
        for _ in range(3):
            opt.zero_grad()
            loss = F.cross_entropy(model(x), y)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        if dev == "cuda":
            _all_on_dev(model, opt)
            assert on_dev(loss)
        out[dev] = (losses, [host(p) for p in model.parameters()], host(model[1].running_mean))
    np.testing.assert_allclose(out["cuda"][0], out["cpu"][0], rtol=cuda.rtol)
    for a, b in zip(out["cuda"][1], out["cpu"][1]):
        np.testing.assert_allclose(a, b, rtol=10 * cuda.rtol, atol=cuda.atol)
    np.testing.assert_allclose(out["cuda"][2], out["cpu"][2], rtol=cuda.rtol)


def test_optimizer_made_before_the_move(cuda):
    torch.manual_seed(0)
    model = nn.Linear(4, 3)
    opt = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)  # lazily-made state
    opt2 = torch.optim.Adam(model.parameters(), lr=0.5)
    model.cuda()
    for o in (opt, opt2):
        o.zero_grad()
        model(torch.ones(2, 4, device="cuda")).pow(2).sum().backward()
        o.step()
        _all_on_dev(model, o)


def test_module_moves_and_conv(cuda):
    torch.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.MaxPool2d(2), nn.Flatten(), nn.Linear(8, 2))
    x = torch.randn(3, 1, 4, 4)
    ref = net(x)
    ref.sum().backward()
    g_ref = [host(p.grad) for p in net.parameters()]
    net.cuda()  # grads move with their parameters (Module._apply)
    _all_on_dev(net)
    net.zero_grad()
    y = net(x.cuda())
    y.sum().backward()
    assert on_dev(y)
    np.testing.assert_allclose(host(y), host(ref), rtol=cuda.rtol, atol=cuda.atol)
    for p, g in zip(net.parameters(), g_ref):
        np.testing.assert_allclose(host(p.grad), g, rtol=10 * cuda.rtol, atol=cuda.atol)
    net.to(cuda.s1)
    _all_on_dev(net, index=cuda.i1)
    net.cpu()
    assert all(type(p._buf) is np.ndarray and type(p.grad._buf) is np.ndarray for p in net.parameters())
    lin = nn.Linear(3, 2, device="cuda")
    assert on_dev(lin.weight) and on_dev(lin.bias)
    emb = nn.Embedding(5, 2).cuda()
    assert on_dev(emb(torch.tensor([1, 4], device="cuda")))
    lstm = nn.LSTM(3, 4, batch_first=True).cuda()
    o, (h, c) = lstm(torch.randn(2, 5, 3, device="cuda"))
    assert on_dev(o) and on_dev(h) and on_dev(c)
    d = nn.Dropout(0.5).train()
    assert on_dev(d(torch.ones(8, device="cuda")))


def test_optimizer_state_follows_params_on_load(cuda):
    model = nn.Linear(4, 2)
    opt = torch.optim.Adam(model.parameters(), lr=0.1)
    model(torch.ones(1, 4)).sum().backward()
    opt.step()
    sd = opt.state_dict()
    model2 = nn.Linear(4, 2).cuda()
    opt2 = torch.optim.Adam(model2.parameters(), lr=0.1)
    opt2.load_state_dict(sd)  # state cast to each parameter's device (PyTorch)
    _all_on_dev(model2, opt2)
    st = opt2.state[model2.weight]
    assert st["step"].device.type == "cpu"
    np.testing.assert_allclose(host(st["exp_avg"]), host(opt.state[model.weight]["exp_avg"]))
    model2(torch.ones(1, 4, device="cuda")).sum().backward()
    opt2.step()
    _all_on_dev(model2, opt2)
    nn.utils.clip_grad_norm_(model2.parameters(), 0.1)
    _all_on_dev(model2, opt2)


# ---------------------------------------------------------------------------------------
# save / load


def _roundtrip(obj, **kw):
    buf = io.BytesIO()
    torch.save(obj, buf)
    buf.seek(0)
    return torch.load(buf, **kw), buf


def test_save_load_map_location(cuda):
    torch.manual_seed(0)
    m = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4)).cuda()
    sd = m.state_dict()
    got, buf = _roundtrip(sd)  # no map_location: back on cuda:0
    assert all(on_dev(v) for v in got.values())
    with zipfile.ZipFile(buf) as zf:
        pkl = zf.read(next(n for n in zf.namelist() if n.endswith("data.pkl")))
    assert b"cuda:0" in pkl  # the storage location PyTorch reads
    for ml in ("cpu", torch.device("cpu"), {"cuda:0": "cpu"}, lambda s, loc: s):
        buf.seek(0)
        got = torch.load(buf, map_location=ml)
        for k, v in got.items():
            assert type(v._buf) is np.ndarray
            np.testing.assert_array_equal(v.numpy(), host(sd[k]))
    buf.seek(0)
    got = torch.load(buf, map_location={"cuda:0": cuda.s1})
    assert all(on_dev(v, cuda.i1) for v in got.values())
    buf.seek(0)
    got = torch.load(buf, map_location=lambda s, loc: s.cuda(cuda.i1))
    assert all(on_dev(v, cuda.i1) for v in got.values())
    cpu_sd = nn.Linear(3, 4).state_dict()  # CPU -> CUDA
    for ml in ("cuda", "cuda:0", torch.device("cuda", 0), {"cpu": "cuda:0"}):
        got, _ = _roundtrip(cpu_sd, map_location=ml)
        for k, v in got.items():
            assert on_dev(v)
            np.testing.assert_array_equal(host(v), cpu_sd[k].numpy())
    m2 = nn.Linear(3, 4).cuda()
    m2.load_state_dict(cpu_sd)  # copy_ across devices
    np.testing.assert_array_equal(host(m2.weight), cpu_sd["weight"].numpy())
    x = torch.arange(6.0, device="cuda")
    (a, v), _ = _roundtrip([x, x[2:5]])  # views of one storage stay views of one storage
    v[0] = 100.0
    assert on_dev(a) and a[2].item() == 100.0
    p = nn.Parameter(torch.ones(2, device="cuda"))
    q, _ = _roundtrip(p, map_location="cpu")
    assert isinstance(q, nn.Parameter) and q.requires_grad and q.device.type == "cpu"


def test_pickle_and_real_pytorch_reads_cuda_files(cuda):
    t = torch.arange(4.0, device="cuda").requires_grad_()
    u = pickle.loads(pickle.dumps(t))
    assert on_dev(u) and u.requires_grad and np.array_equal(host(u), host(t))
    real = pytest.importorskip("torch")
    if not hasattr(real, "load") or "fgrad" in getattr(real, "__version__", "fgrad"):
        pytest.skip("PyTorch is not installed")
    _, buf = _roundtrip({"w": t.detach()})
    buf.seek(0)
    r = real.load(buf, map_location="cpu")
    assert r["w"].tolist() == [0.0, 1.0, 2.0, 3.0]


# ---------------------------------------------------------------------------------------
# functional_call and no leaks


def test_functional_call_on_device(cuda):
    model = nn.Linear(3, 1).cuda()
    params = {k: v.detach() for k, v in model.named_parameters()}
    x = torch.randn(4, 3, device="cuda")

    def loss(p):  # under fgrad.grad the module's ops run their fgrad definitions on the device
        out = torch.func.functional_call(model, p, (x,))  # a Tensor, as in PyTorch
        return (out * out).mean()

    g = torch.func.grad(loss)(params)
    ref = {k: v.clone().requires_grad_() for k, v in params.items()}
    torch.func.functional_call(model, ref, (x,)).pow(2).mean().backward()
    for k in params:
        assert on_dev(g[k])
        np.testing.assert_allclose(host(g[k]), host(ref[k].grad), rtol=1e-5)


# ---------------------------------------------------------------------------------------
# a real GPU


@pytest.mark.gpu
def test_real_gpu_training_step():
    if not _real_cuda():
        pytest.skip("needs cupy and a CUDA device")
    import cupy

    assert torch.cuda.is_available() and torch.cuda.device_count() >= 1
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(32, 64), nn.ReLU(), nn.Linear(64, 10)).cuda()
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    x = torch.randn(128, 32, device="cuda")
    y = torch.randint(0, 10, (128,), device="cuda")
    losses = []
    for _ in range(20):
        opt.zero_grad()
        loss = F.cross_entropy(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    torch.cuda.synchronize()
    assert losses[-1] < losses[0]
    for p in model.parameters():
        assert isinstance(p._buf, cupy.ndarray) and isinstance(p.grad._buf, cupy.ndarray)
    assert repr(torch.ones(1, device="cuda")) == "tensor([1.], device='cuda:0')"
    with pytest.raises(RuntimeError, match="cuda:0 and cpu"):
        x + torch.ones(128, 32)
    with pytest.raises(TypeError, match="can't convert cuda:0 device type tensor to numpy"):
        x.numpy()
    got, _ = _roundtrip(model.state_dict(), map_location="cpu")
    assert all(type(v._buf) is np.ndarray for v in got.values())
    got, _ = _roundtrip(model.cpu().state_dict(), map_location="cuda")
    assert all(isinstance(v._buf, cupy.ndarray) for v in got.values())
