"""fgrad.torch.nn: layers, functional ops, losses, init, Module API.

Numbers are checked three ways: against PyTorch itself when it is importable (same weights
in -> same outputs and gradients, 1e-5 in float32), against central finite differences in
float64 (independent of PyTorch), and against closed forms.  Strings (reprs, error
messages) are PyTorch 2.13's.
"""

from __future__ import annotations

import math
import pickle
import warnings

import numpy as np
import pytest

import fgrad
import fgrad.torch as ft
import fgrad.torch.nn.functional as F
from fgrad.torch import nn
from _peers import torch_is_pinned

try:  # PyTorch is optional (the `bench` extra); comparisons skip without it
    import torch as _torch

    _torch.set_num_threads(1)
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")
RTOL = ATOL = 1e-5


# ---------------------------------------------------------------------------------------
# helpers


def _np(t):
    return t.detach().numpy() if hasattr(t, "detach") else np.asarray(t)


def _close(a, b, rtol=RTOL, atol=ATOL, msg=""):
    np.testing.assert_allclose(_np(a), _np(b), rtol=rtol, atol=atol, err_msg=msg)


def _pair(arr, requires_grad=True):
    """The same data as an fgrad tensor and a torch tensor (both leaves)."""
    a = np.array(arr)
    f = ft.tensor(a, requires_grad=requires_grad and a.dtype.kind == "f")
    t = _torch.tensor(a, requires_grad=requires_grad and a.dtype.kind == "f")
    return f, t


def _sync(fmod, tmod):
    """Load torch module weights (and buffers) into the fgrad module."""
    sd = {k: ft.tensor(v.detach().numpy().copy()) for k, v in tmod.state_dict().items()}
    res = fmod.load_state_dict(sd)
    assert not res.missing_keys and not res.unexpected_keys
    return fmod


def _compare_module(fmod, tmod, *inputs, train=True, seed=0, rtol=RTOL, atol=ATOL, out_index=None):
    """Forward and backward (random cotangent) of the same module in fgrad and torch."""
    _sync(fmod, tmod)
    fmod.train(train)
    tmod.train(train)
    f_in, t_in = zip(*[_pair(x) for x in inputs]) if inputs else ((), ())
    fo, to = fmod(*f_in), tmod(*t_in)
    if out_index is not None:
        fo, to = fo[out_index], to[out_index]
    if isinstance(fo, tuple):
        fo, to = fo[0], to[0]
    _close(fo, to, rtol, atol, "forward")
    ct = np.random.default_rng(seed).standard_normal(tuple(to.shape)).astype(to.detach().numpy().dtype)
    fo.backward(ft.tensor(ct))
    to.backward(_torch.tensor(ct))
    for a, b in zip(f_in, t_in):
        if b.grad is not None:
            _close(a.grad, b.grad, rtol, atol, "input grad")
    tparams = dict(tmod.named_parameters())
    for name, p in fmod.named_parameters():
        tp = tparams[name]
        if tp.grad is None:
            assert p.grad is None or np.all(_np(p.grad) == 0), name
        else:
            _close(p.grad, tp.grad, rtol, atol, f"grad of {name}")
    for (name, b), (_, tb) in zip(fmod.named_buffers(), tmod.named_buffers()):
        _close(b, tb, rtol, atol, f"buffer {name}")
    return fo, to


def _fd_check(f, args, eps=1e-6, rtol=1e-6, atol=1e-7, seed=0):
    """Reverse-mode gradient of the scalar <f(args), v> vs central differences (float64)."""
    rng = np.random.default_rng(seed)
    xs = [ft.tensor(np.asarray(a, np.float64), requires_grad=True) for a in args]
    out = f(*xs)
    v = rng.standard_normal(tuple(out.shape))
    (out * ft.tensor(v)).sum().backward()
    for i, x in enumerate(xs):
        d = rng.standard_normal(tuple(x.shape))
        base = [np.asarray(a, np.float64) for a in args]
        plus = [b.copy() for b in base]
        minus = [b.copy() for b in base]
        plus[i] = plus[i] + eps * d
        minus[i] = minus[i] - eps * d
        with ft.no_grad():
            fp = _np(f(*[ft.tensor(b) for b in plus]))
            fm = _np(f(*[ft.tensor(b) for b in minus]))
        numeric = float(((fp - fm) / (2 * eps) * v).sum())
        analytic = float((_np(x.grad) * d).sum())
        assert abs(numeric - analytic) <= atol + rtol * abs(numeric) * 1e3, (i, numeric, analytic)


# ---------------------------------------------------------------------------------------
# Module API


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(4, 3)
        self.act = nn.ReLU()
        self.block = nn.Sequential(nn.Linear(3, 3), nn.Tanh())
        self.register_buffer("steps", ft.zeros(1))
        self.register_buffer("scratch", ft.ones(2), persistent=False)
        self.scale = nn.Parameter(ft.ones(1))

    def forward(self, x):
        return self.block(self.act(self.fc1(x))) * self.scale


def test_named_parameters_buffers_children_modules() -> None:
    net = Net()
    assert [n for n, _ in net.named_parameters()] == [
        "scale", "fc1.weight", "fc1.bias", "block.0.weight", "block.0.bias"]
    assert [n for n, _ in net.named_buffers()] == ["steps", "scratch"]
    assert [n for n, _ in net.named_children()] == ["fc1", "act", "block"]
    assert [n for n, _ in net.named_modules()] == ["", "fc1", "act", "block", "block.0", "block.1"]
    assert len(list(net.parameters())) == 5 and len(list(net.parameters(recurse=False))) == 1
    assert all(isinstance(p, nn.Parameter) and p.requires_grad for p in net.parameters())
    # shared modules and parameters are reported once
    lin = nn.Linear(2, 2)
    seq = nn.Sequential(lin, lin)
    assert len(list(seq.parameters())) == 2 and len(list(seq.modules())) == 2
    assert len(list(seq.named_modules(remove_duplicate=False))) == 3


def test_state_dict_layout_and_roundtrip() -> None:
    net = Net()
    sd = net.state_dict()
    assert list(sd) == ["scale", "steps", "fc1.weight", "fc1.bias", "block.0.weight", "block.0.bias"]
    keys = ("", "fc1", "act", "block", "block.0", "block.1")
    assert dict(sd._metadata) == {k: {"version": 1} for k in keys}
    assert all(not v.requires_grad for v in sd.values())
    # state_dict tensors share memory with the parameters (detach)
    sd["fc1.bias"][0] = 42.0
    assert net.fc1.bias[0].item() == 42.0
    assert net.state_dict(keep_vars=True)["fc1.weight"] is net.fc1.weight
    other = Net()
    before = other.fc1.weight
    res = other.load_state_dict(net.state_dict())
    assert repr(res) == "<All keys matched successfully>"
    assert other.fc1.weight is before  # copied in place
    x = ft.randn(5, 4)
    assert ft.equal(net(x), other(x))


def test_load_state_dict_errors_match_pytorch() -> None:
    net = nn.Linear(3, 2)
    sd = net.state_dict()
    del sd["bias"]
    sd["extra"] = ft.zeros(1)
    with pytest.raises(RuntimeError) as e:
        net.load_state_dict(sd)
    assert str(e.value) == ('Error(s) in loading state_dict for Linear:\n\tMissing key(s) in state_dict: '
                            '"bias". '
                            '\n\tUnexpected key(s) in state_dict: "extra". ')
    res = net.load_state_dict(sd, strict=False)
    assert res.missing_keys == ["bias"] and res.unexpected_keys == ["extra"]
    with pytest.raises(RuntimeError) as e:
        net.load_state_dict({"weight": ft.zeros(3, 3), "bias": ft.zeros(2)})
    assert ("size mismatch for weight: copying a param with shape torch.Size([3, 3]) from checkpoint, the "
            "shape in current model is torch.Size([2, 3]).") in str(e.value)


@needs_torch
def test_load_state_dict_messages_identical_to_torch() -> None:
    for build in (lambda m: m.Linear(3, 2), lambda m: m.Sequential(m.Linear(3, 2), m.BatchNorm1d(2))):
        fnet, tnet = build(nn), build(_torch.nn)
        fsd = {k: ft.zeros(1) for k in ("0.weight", "junk")}
        tsd = {k: _torch.zeros(1) for k in ("0.weight", "junk")}
        with pytest.raises(RuntimeError) as fe:
            fnet.load_state_dict(fsd)
        with pytest.raises(RuntimeError) as te:
            tnet.load_state_dict(tsd)
        assert str(fe.value) == str(te.value)


def test_load_state_dict_assign_and_non_persistent() -> None:
    net = Net()
    new_w = ft.full((3, 4), 2.0)
    sd = dict(net.state_dict())
    sd["fc1.weight"] = new_w
    net.load_state_dict(sd, assign=True)
    assert isinstance(net.fc1.weight, nn.Parameter) and net.fc1.weight.requires_grad
    assert net.fc1.weight.data_ptr() == new_w.data_ptr()
    assert "scratch" not in net.state_dict()


def test_batchnorm_old_checkpoint_without_num_batches_tracked() -> None:
    bn = nn.BatchNorm1d(3)
    sd = bn.state_dict()
    del sd["num_batches_tracked"]
    sd._metadata[""]["version"] = 1
    assert repr(bn.load_state_dict(sd)) == "<All keys matched successfully>"


def test_train_eval_zero_grad_apply_requires_grad() -> None:
    net = Net()
    assert net.training and net.block[0].training
    net.eval()
    assert not net.training and not net.block[1].training
    net.train()
    assert net.block[0].training
    with pytest.raises(ValueError, match="training mode is expected to be boolean"):
        net.train("yes")
    net(ft.randn(2, 4)).sum().backward()
    assert net.fc1.weight.grad is not None
    net.zero_grad(set_to_none=False)
    assert float(net.fc1.weight.grad.abs().sum()) == 0.0
    net.zero_grad()
    assert all(p.grad is None for p in net.parameters())
    seen = []
    net.apply(lambda m: seen.append(type(m).__name__))
    assert seen == ["Linear", "ReLU", "Linear", "Tanh", "Sequential", "Net"]
    net.requires_grad_(False)
    assert not any(p.requires_grad for p in net.parameters())


def test_to_dtype_keeps_parameter_objects_and_devices() -> None:
    net = Net()
    w = net.fc1.weight
    opt = ft.optim.SGD(net.parameters(), lr=0.1)
    net.to(ft.float64)
    assert net.fc1.weight is w and w.dtype == ft.float64 and isinstance(w, nn.Parameter)
    assert net.steps.dtype == ft.float64
    net.double().float()
    assert w.dtype == ft.float32
    net(ft.randn(2, 4)).sum().backward()
    opt.step()  # the optimizer still holds the same (converted) parameters
    assert net.to("cpu") is net and net.cpu() is net
    assert net.to(ft.device("cpu"), ft.float32) is net
    with pytest.raises(TypeError, match="only accepts floating point"):
        net.to(ft.int64)
    if not ft.cuda.is_available():
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            net.cuda()


def test_setattr_registration_rules() -> None:
    m = nn.Module()
    m.w = nn.Parameter(ft.ones(2))
    m.sub = nn.Linear(1, 1)
    m.register_buffer("b", ft.zeros(1))
    m.b = ft.ones(1)
    assert "b" in m._buffers and float(m.b) == 1.0
    with pytest.raises(TypeError, match="cannot assign 'torch.FloatTensor' as parameter 'w'"):
        m.w = ft.ones(2)
    with pytest.raises(TypeError, match="as child module 'sub'"):
        m.sub = 3
    with pytest.raises(KeyError, match="attribute 'sub' already exists"):
        m.register_buffer("sub", ft.zeros(1))
    with pytest.raises(ValueError, match="Cannot assign non-leaf Tensor to parameter"):
        m.register_parameter("nl", nn.Parameter(ft.ones(1)) * 2 if False else _non_leaf_param())
    del m.w
    assert "w" not in dict(m.named_parameters())
    with pytest.raises(AttributeError, match="'Module' object has no attribute 'nope'"):
        _ = m.nope
    with pytest.raises(AttributeError, match="cannot assign parameters before Module.__init__"):
        class Bad(nn.Module):
            def __init__(self):
                self.p = nn.Parameter(ft.ones(1))

        Bad()
    assert "sub" in dir(m)


def _non_leaf_param():
    p = nn.Parameter(ft.ones(1))
    q = ft.Tensor._make_subclass(nn.Parameter, p.data, True)
    out = q * 2
    out.__class__ = nn.Parameter
    return out


def test_forward_hooks() -> None:
    lin = nn.Linear(2, 2)
    calls = []
    h1 = lin.register_forward_pre_hook(lambda m, args: (args[0] * 0,))
    h2 = lin.register_forward_hook(lambda m, args, out: calls.append(tuple(out.shape)) or out + 1)
    x = ft.ones(3, 2)
    y = lin(x)
    assert ft.allclose(y, lin.bias.detach().expand(3, 2) + 1)
    assert calls == [(3, 2)]
    h1.remove()
    h2.remove()
    assert ft.allclose(lin(x), F.linear(x, lin.weight, lin.bias))
    # kwargs hooks, prepend and always_call
    order = []
    lin.register_forward_hook(lambda m, a, kw, o: order.append("kw"), with_kwargs=True)
    lin.register_forward_hook(lambda m, a, o: order.append("first"), prepend=True)
    lin(x)
    assert order == ["first", "kw"]

    class Boom(nn.Module):
        def forward(self, x):
            raise ValueError("boom")

    b = Boom()
    seen = []
    b.register_forward_hook(lambda m, a, o: seen.append(o), always_call=True)
    with pytest.raises(ValueError):
        b(x)
    assert seen == [None]
    pre_kw = nn.Identity()
    pre_kw.register_forward_pre_hook(lambda m, a, kw: ((a[0] + 1,), kw), with_kwargs=True)
    assert float(pre_kw(ft.zeros(1))) == 1.0


def test_full_backward_hooks() -> None:
    lin = nn.Linear(3, 2)
    got = {}

    def hook(m, gin, gout):
        got["gin"], got["gout"] = gin, gout
        return (gin[0] * 2,)

    lin.register_full_backward_hook(hook)
    pre = []
    lin.register_full_backward_pre_hook(lambda m, gout: pre.append(gout[0].shape))
    x = ft.randn(4, 3, requires_grad=True)
    lin(x).sum().backward()
    assert pre == [ft.Size([4, 2])]
    assert ft.allclose(got["gout"][0], ft.ones(4, 2))
    assert ft.allclose(got["gin"][0], ft.ones(4, 2) @ lin.weight.detach())
    assert ft.allclose(x.grad, 2 * got["gin"][0])


def test_parameter_repr_and_pickle() -> None:
    p = nn.Parameter(ft.tensor([1.0, 2.0]))
    assert repr(p) == "Parameter containing:\ntensor([1., 2.], requires_grad=True)"
    q = nn.Parameter(ft.tensor([1, 2], dtype=ft.float64), requires_grad=False)
    assert repr(q) == "Parameter containing:\ntensor([1., 2.], dtype=torch.float64)"
    r = pickle.loads(pickle.dumps(p))
    assert isinstance(r, nn.Parameter) and r.requires_grad and ft.equal(r, p)
    import copy

    c = copy.deepcopy(nn.Linear(2, 2))
    assert isinstance(c.weight, nn.Parameter)


REPRS = [
    (lambda m: m.Sequential(m.Linear(784, 512), m.ReLU(), m.Linear(512, 10)),
     "Sequential(\n  (0): Linear(in_features=784, out_features=512, bias=True)\n  (1): ReLU()\n"
     "  (2): Linear(in_features=512, out_features=10, bias=True)\n)"),
    (lambda m: m.ModuleList([m.Linear(2, 2) for _ in range(3)] + [m.ReLU()]),
     "ModuleList(\n  (0-2): 3 x Linear(in_features=2, out_features=2, bias=True)\n  (3): ReLU()\n)"),
    (lambda m: m.ModuleDict({"a": m.ReLU(), "b": m.Linear(1, 1)}),
     "ModuleDict(\n  (a): ReLU()\n  (b): Linear(in_features=1, out_features=1, bias=True)\n)"),
    (lambda m: m.Sequential(), "Sequential()"),
    (lambda m: m.Conv2d(3, 8, 3, stride=2, padding=1, bias=False),
     "Conv2d(3, 8, kernel_size=(3, 3), stride=(2, 2), padding=(1, 1), bias=False)"),
    (lambda m: m.Conv2d(3, 8, (3, 5), padding="same", dilation=2, padding_mode="reflect"),
     "Conv2d(3, 8, kernel_size=(3, 5), stride=(1, 1), padding=same, dilation=(2, 2), padding_mode=reflect)"),
    (lambda m: m.Conv1d(256, 100, 2), "Conv1d(256, 100, kernel_size=(2,), stride=(1,))"),
    (lambda m: m.MaxPool2d(3, 2, 1, ceil_mode=True),
     "MaxPool2d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=True)"),
    (lambda m: m.AvgPool2d(2), "AvgPool2d(kernel_size=2, stride=2, padding=0)"),
    (lambda m: m.Embedding(10, 3, padding_idx=0, max_norm=1.0), "Embedding(10, 3, padding_idx=0, "
                                                                "max_norm=1.0)"),
    (lambda m: m.Dropout(0.2, inplace=True), "Dropout(p=0.2, inplace=True)"),
    (lambda m: m.BatchNorm1d(4),
     "BatchNorm1d(4, eps=1e-05, momentum=0.1, affine=True, bias=True, track_running_stats=True)"),
    (lambda m: m.BatchNorm2d(3, momentum=None, affine=False),
     "BatchNorm2d(3, eps=1e-05, momentum=None, affine=False, bias=False, track_running_stats=True)"),
    (lambda m: m.LayerNorm((2, 3), elementwise_affine=False, bias=False),
     "LayerNorm((2, 3), eps=1e-05, elementwise_affine=False, bias=False)"),
    (lambda m: m.LSTM(3, 4, num_layers=2, batch_first=True, bidirectional=True, dropout=0.1),
     "LSTM(3, 4, num_layers=2, batch_first=True, dropout=0.1, bidirectional=True)"),
    (lambda m: m.GRU(3, 4, bias=False), "GRU(3, 4, bias=False)"),
    (lambda m: m.RNNCell(3, 4, nonlinearity="relu"), "RNNCell(3, 4, nonlinearity=relu)"),
    (lambda m: m.GELU("tanh"), "GELU(approximate='tanh')"),
    (lambda m: m.Softmax(dim=1), "Softmax(dim=1)"),
    (lambda m: m.LogSoftmax(1), "LogSoftmax(dim=1)"),
    (lambda m: m.LeakyReLU(0.2, True), "LeakyReLU(negative_slope=0.2, inplace=True)"),
    (lambda m: m.Flatten(), "Flatten(start_dim=1, end_dim=-1)"),
    (lambda m: m.CrossEntropyLoss(), "CrossEntropyLoss()"),
    (lambda m: m.ParameterList([m.Parameter(_ones(m, 2)), m.Parameter(_ones(m, 2, 3))]),
     "ParameterList(\n    (0): Parameter containing: [torch.float32 of size 2]\n"
     "    (1): Parameter containing: [torch.float32 of size 2x3]\n)"),
]


def _ones(m, *shape):
    return (ft if m is nn else _torch).ones(*shape)


@pytest.mark.parametrize("build,expected", REPRS)
def test_module_repr_is_pytorchs(build, expected) -> None:
    assert repr(build(nn)) == expected
    if torch_is_pinned(_torch):  # reprs are PyTorch 2.13's (2.11's norms omit ``bias=``)
        assert repr(build(_torch.nn)) == expected


def test_containers() -> None:
    a, b, c = nn.Linear(1, 1), nn.ReLU(), nn.Tanh()
    seq = nn.Sequential(a, b)
    seq.append(c)
    assert len(seq) == 3 and seq[-1] is c and isinstance(seq[0:2], nn.Sequential) and len(seq[0:2]) == 2
    del seq[1]
    assert [type(m).__name__ for m in seq] == ["Linear", "Tanh"] and list(seq._modules) == ["0", "1"]
    seq.insert(1, b)
    assert seq[1] is b
    from collections import OrderedDict

    named = nn.Sequential(OrderedDict([("lin", a), ("act", b)]))
    assert named.lin is a and list(dict(named.named_children())) == ["lin", "act"]
    ml = nn.ModuleList([a])
    ml.extend([b, c])
    ml += [nn.Identity()]
    assert len(ml) == 4 and ml[1] is b and len(list(ml.parameters())) == 2
    md = nn.ModuleDict({"x": a})
    md["y"] = b
    assert list(md.keys()) == ["x", "y"] and "y" in md and md.pop("y") is b
    pl = nn.ParameterList([ft.ones(2)])
    assert isinstance(pl[0], nn.Parameter)
    pd = nn.ParameterDict({"w": ft.zeros(3)})
    assert isinstance(pd["w"], nn.Parameter) and [n for n, _ in pd.named_parameters()] == ["w"]


# ---------------------------------------------------------------------------------------
# init


def test_default_initialisations_are_pytorchs() -> None:
    ft.manual_seed(0)
    lin = nn.Linear(100, 50)
    bound = 1 / math.sqrt(100)  # kaiming_uniform_(a=sqrt(5)) gives the same bound as the bias
    w, b = _np(lin.weight), _np(lin.bias)
    assert np.abs(w).max() <= bound and np.abs(w).max() > 0.9 * bound
    assert np.abs(b).max() <= bound
    assert abs(w.std() - bound / math.sqrt(3)) < 0.05 * bound  # uniform(-a, a) has std a/sqrt(3)
    conv = nn.Conv2d(4, 6, 3)
    cb = 1 / math.sqrt(4 * 9)
    assert np.abs(_np(conv.weight)).max() <= cb and np.abs(_np(conv.bias)).max() <= cb
    emb = nn.Embedding(1000, 8, padding_idx=3)
    e = _np(emb.weight)
    assert np.all(e[3] == 0) and abs(e.std() - 1) < 0.05
    rnn = nn.LSTM(5, 16)
    assert all(np.abs(_np(p)).max() <= 0.25 for p in rnn.parameters())
    bn = nn.BatchNorm1d(3)
    assert np.all(_np(bn.weight) == 1) and np.all(_np(bn.bias) == 0) and np.all(_np(bn.running_var) == 1)
    assert bn.num_batches_tracked.dtype == ft.int64


def test_init_functions() -> None:
    assert nn.init.calculate_gain("relu") == math.sqrt(2)
    assert nn.init.calculate_gain("tanh") == 5 / 3
    assert nn.init.calculate_gain("leaky_relu", 0.2) == math.sqrt(2 / (1 + 0.04))
    assert nn.init.calculate_gain("conv2d") == 1 and nn.init.calculate_gain("selu") == 0.75
    w = ft.empty(200, 300)
    nn.init.xavier_uniform_(w)
    a = math.sqrt(6 / 500)
    assert np.abs(_np(w)).max() <= a
    nn.init.kaiming_normal_(w, mode="fan_out", nonlinearity="relu")
    assert abs(_np(w).std() - math.sqrt(2 / 200)) < 0.01 * math.sqrt(2 / 200) * 5
    nn.init.trunc_normal_(w, std=1.0, a=-0.5, b=0.5)
    assert np.abs(_np(w)).max() <= 0.5
    nn.init.constant_(w, 0.3)
    assert np.all(_np(w) == np.float32(0.3))
    e = ft.empty(3, 5)
    nn.init.eye_(e)
    assert np.array_equal(_np(e), np.eye(3, 5))
    q = ft.empty(6, 4)
    nn.init.orthogonal_(q)
    assert np.allclose(_np(q).T @ _np(q), np.eye(4), atol=1e-5)
    d = ft.empty(3, 3, 3)
    nn.init.dirac_(d)
    x = ft.randn(1, 3, 7)
    assert ft.allclose(F.conv1d(x, d, padding=1), x, atol=1e-6)
    with pytest.raises(ValueError, match="Fan in and fan out can not be computed"):
        nn.init.xavier_uniform_(ft.empty(3))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        nn.init.kaiming_uniform_(ft.empty(0, 3))
    assert any("zero-element" in str(r.message) for r in rec)


# ---------------------------------------------------------------------------------------
# layers vs PyTorch


@needs_torch
@pytest.mark.parametrize("shape,bias", [((5, 4), True), ((5, 4), False), ((4,), True), ((2, 3, 4), True),
                                        ((2, 3, 4), False)])
def test_linear_matches_torch(shape, bias) -> None:
    x = np.random.default_rng(1).standard_normal(shape).astype(np.float32)
    fo, to = _compare_module(nn.Linear(4, 3, bias=bias), _torch.nn.Linear(4, 3, bias=bias), x)
    assert type(fo.grad_fn).__name__ == type(to.grad_fn).__name__


def test_linear_errors() -> None:
    with pytest.raises(RuntimeError, match=r"mat1 and mat2 shapes cannot be multiplied \(2x5 and 4x3\)"):
        nn.Linear(4, 3)(ft.ones(2, 5))
    with pytest.raises(RuntimeError, match="mat1 and mat2 must have the same dtype, but got Double and "
                                           "Float"):
        nn.Linear(4, 3)(ft.ones(2, 4, dtype=ft.float64))


CONV_CASES = [
    dict(nd=1, cin=3, cout=4, k=3, stride=1, padding=0, dilation=1, groups=1, bias=True, mode="zeros"),
    dict(nd=1, cin=4, cout=6, k=2, stride=2, padding=1, dilation=2, groups=2, bias=False, mode="zeros"),
    dict(nd=2, cin=3, cout=5, k=3, stride=1, padding=1, dilation=1, groups=1, bias=True, mode="zeros"),
    dict(nd=2, cin=4, cout=4, k=(3, 2), stride=(2, 1), padding=(1, 0), dilation=(1, 2), groups=4, bias=True,
         mode="zeros"),
    dict(nd=2, cin=2, cout=3, k=3, stride=1, padding="same", dilation=2, groups=1, bias=True, mode="zeros"),
    dict(nd=2, cin=2, cout=3, k=4, stride=1, padding="same", dilation=1, groups=1, bias=True, mode="zeros"),
    dict(nd=2, cin=2, cout=3, k=3, stride=1, padding="valid", dilation=1, groups=1, bias=False, mode="zeros"),
    dict(nd=2, cin=2, cout=3, k=3, stride=1, padding=1, dilation=1, groups=1, bias=True, mode="reflect"),
    dict(nd=2, cin=2, cout=3, k=3, stride=2, padding=2, dilation=1, groups=1, bias=True, mode="replicate"),
    dict(nd=2, cin=2, cout=3, k=3, stride=1, padding=1, dilation=1, groups=1, bias=True, mode="circular"),
    dict(nd=3, cin=2, cout=2, k=2, stride=1, padding=1, dilation=1, groups=1, bias=True, mode="zeros"),
]


@needs_torch
@pytest.mark.parametrize("case", CONV_CASES)
def test_conv_matches_torch(case) -> None:
    nd = case["nd"]
    kw = dict(stride=case["stride"], padding=case["padding"], dilation=case["dilation"],
              groups=case["groups"],
              bias=case["bias"], padding_mode=case["mode"])
    fm = getattr(nn, f"Conv{nd}d")(case["cin"], case["cout"], case["k"], **kw)
    tm = getattr(_torch.nn, f"Conv{nd}d")(case["cin"], case["cout"], case["k"], **kw)
    spatial = (9, 8, 7)[:nd] if nd < 3 else (5, 4, 6)
    x = np.random.default_rng(2).standard_normal((2, case["cin"]) + spatial).astype(np.float32)
    fo, to = _compare_module(fm, tm, x, rtol=1e-4, atol=1e-5)
    assert type(fo.grad_fn).__name__ == type(to.grad_fn).__name__ or case["mode"] != "zeros"


@needs_torch
def test_conv_unbatched_and_notes_shape() -> None:
    x = np.random.default_rng(3).standard_normal((3, 10)).astype(np.float32)
    _compare_module(nn.Conv1d(3, 2, 3), _torch.nn.Conv1d(3, 2, 3), x)
    conv1 = nn.Conv1d(in_channels=256, out_channels=100, kernel_size=2)
    assert conv1(ft.randn(32, 35, 256).permute(0, 2, 1)).size() == ft.Size([32, 100, 34])


def test_conv_gradients_vs_finite_differences() -> None:
    rng = np.random.default_rng(4)
    x = rng.standard_normal((2, 4, 6, 5))
    w = rng.standard_normal((6, 2, 3, 2))
    b = rng.standard_normal(6)
    _fd_check(lambda x, w, b: F.conv2d(x, w, b, stride=(2, 1), padding=1, dilation=(1, 2), groups=2), [x, w,
                                                                                                       b])
    _fd_check(lambda x, w: F.conv1d(x, w, padding="same"), [rng.standard_normal((1, 2, 7)),
                                                            rng.standard_normal((3, 2, 4))])


def test_conv_errors() -> None:
    with pytest.raises(RuntimeError, match="expected input"):
        F.conv2d(ft.ones(1, 3, 5, 5), ft.ones(2, 2, 3, 3))
    with pytest.raises(ValueError, match="in_channels must be divisible by groups"):
        nn.Conv2d(3, 4, 3, groups=2)
    with pytest.raises(ValueError, match="padding='same' is not supported for strided convolutions"):
        nn.Conv2d(3, 4, 3, stride=2, padding="same")


POOL_CASES = [
    ("MaxPool2d", dict(kernel_size=2)),
    ("MaxPool2d", dict(kernel_size=3, stride=2, padding=1)),
    ("MaxPool2d", dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ("MaxPool2d", dict(kernel_size=(2, 3), stride=1, dilation=2)),
    ("MaxPool1d", dict(kernel_size=3, stride=2, ceil_mode=True)),
    ("AvgPool2d", dict(kernel_size=2)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, padding=1)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, padding=1, ceil_mode=True)),
    ("AvgPool2d", dict(kernel_size=3, stride=2, padding=1, ceil_mode=True, count_include_pad=False)),
    ("AvgPool2d", dict(kernel_size=2, divisor_override=3)),
    ("AvgPool1d", dict(kernel_size=3, stride=2, padding=1, count_include_pad=False)),
    ("AdaptiveAvgPool2d", dict(output_size=(3, 2))),
    ("AdaptiveAvgPool2d", dict(output_size=1)),
    ("AdaptiveMaxPool2d", dict(output_size=(3, 4))),
    ("AdaptiveAvgPool1d", dict(output_size=4)),
]


@needs_torch
@pytest.mark.parametrize("name,kw", POOL_CASES)
def test_pooling_matches_torch(name, kw) -> None:
    nd = 1 if name.endswith("1d") else 2
    shape = (2, 3, 11) if nd == 1 else (2, 3, 9, 10)
    x = np.random.default_rng(5).standard_normal(shape).astype(np.float32)
    _compare_module(getattr(nn, name)(**kw), getattr(_torch.nn, name)(**kw), x)


@needs_torch
def test_max_pool_ties_and_indices_match_torch() -> None:
    # after ReLU many windows are all zeros: PyTorch gives the whole gradient to the first maximum
    x = np.maximum(np.random.default_rng(6).standard_normal((2, 2, 8, 8)), 0).astype(np.float32)
    x[0, 0, :2, :2] = 0.0
    _compare_module(nn.MaxPool2d(2), _torch.nn.MaxPool2d(2), x)
    fx, tx = _pair(x, False)
    fv, fi = F.max_pool2d(fx, 3, 2, 1, return_indices=True)
    tv, ti = _torch.nn.functional.max_pool2d(tx, 3, 2, 1, return_indices=True)
    _close(fv, tv)
    assert np.array_equal(_np(fi), ti.numpy())
    fv, fi = F.adaptive_max_pool2d(fx, (3, 3), return_indices=True)
    tv, ti = _torch.nn.functional.adaptive_max_pool2d(tx, (3, 3), return_indices=True)
    assert np.array_equal(_np(fi), ti.numpy())


def test_pooling_closed_forms_and_fd() -> None:
    x = ft.arange(16.0).view(1, 1, 4, 4)
    assert ft.equal(nn.MaxPool2d(2)(x), ft.tensor([[[[5.0, 7.0], [13.0, 15.0]]]]))
    assert ft.equal(nn.AvgPool2d(2)(x), ft.tensor([[[[2.5, 4.5], [10.5, 12.5]]]]))
    assert ft.equal(nn.AdaptiveAvgPool2d(1)(x), x.mean().view(1, 1, 1, 1))
    rng = np.random.default_rng(7)
    _fd_check(lambda x: F.max_pool2d(x, 3, 2, 1, ceil_mode=True), [rng.standard_normal((1, 2, 7, 6))])
    _fd_check(lambda x: F.avg_pool2d(x, 3, 2, 1, ceil_mode=True, count_include_pad=False),
              [rng.standard_normal((1, 2, 7, 6))])
    _fd_check(lambda x: F.adaptive_avg_pool2d(x, (3, 4)), [rng.standard_normal((2, 1, 7, 9))])


@needs_torch
def test_embedding_matches_torch() -> None:
    idx = np.array([[1, 2, 0, 4], [4, 3, 0, 9]])
    for kw in (dict(), dict(padding_idx=0), dict(padding_idx=-1), dict(scale_grad_by_freq=True)):
        fm, tm = nn.Embedding(10, 3, **kw), _torch.nn.Embedding(10, 3, **kw)
        _sync(fm, tm)
        fo, to = fm(ft.tensor(idx)), tm(_torch.tensor(idx))
        _close(fo, to)
        ct = np.random.default_rng(8).standard_normal(to.shape).astype(np.float32)
        fo.backward(ft.tensor(ct))
        to.backward(_torch.tensor(ct))
        _close(fm.weight.grad, tm.weight.grad)
        assert type(fo.grad_fn).__name__ == "EmbeddingBackward0"
    fm, tm = nn.Embedding(10, 3, max_norm=1.0), _torch.nn.Embedding(10, 3, max_norm=1.0)
    _sync(fm, tm)
    _close(fm(ft.tensor(idx)), tm(_torch.tensor(idx)))
    _close(fm.weight, tm.weight)
    with pytest.raises(IndexError, match="index out of range in self"):
        fm(ft.tensor([10]))


@needs_torch
@pytest.mark.parametrize("name,shape,kw", [
    ("BatchNorm1d", (8, 4), dict()),
    ("BatchNorm1d", (8, 4, 5), dict(momentum=None)),
    ("BatchNorm2d", (4, 3, 5, 5), dict()),
    ("BatchNorm2d", (4, 3, 5, 5), dict(affine=False)),
    ("BatchNorm2d", (4, 3, 5, 5), dict(track_running_stats=False)),
    ("LayerNorm", (4, 5, 6), dict(normalized_shape=(5, 6))),
    ("LayerNorm", (4, 6), dict(normalized_shape=6, bias=False)),
    ("GroupNorm", (4, 6, 5), dict(num_groups=3, num_channels=6)),
    ("InstanceNorm2d", (2, 3, 4, 5), dict(num_features=3, affine=True)),
])
def test_normalization_matches_torch(name, shape, kw) -> None:
    args = () if name in ("LayerNorm", "GroupNorm", "InstanceNorm2d") else (shape[1],)
    fm, tm = getattr(nn, name)(*args, **kw), getattr(_torch.nn, name)(*args, **kw)
    rng = np.random.default_rng(9)
    for step in range(3):  # running statistics evolve identically
        x = (rng.standard_normal(shape) * 2 + 1).astype(np.float32)
        if step == 0:
            _compare_module(fm, tm, x, rtol=1e-4, atol=1e-5)
        else:
            fm(ft.tensor(x))
            tm(_torch.tensor(x))
    for (n, b), (_, tb) in zip(fm.named_buffers(), tm.named_buffers()):
        _close(b, tb, 1e-5, 1e-6, n)
    x = rng.standard_normal(shape).astype(np.float32)
    fm.eval()
    tm.eval()
    _close(fm(ft.tensor(x)), tm(_torch.tensor(x)), 1e-4, 1e-5)


def test_batchnorm_behaviour() -> None:
    bn = nn.BatchNorm1d(3)
    x = ft.randn(16, 3) * 3 + 2
    y = bn(x)
    assert np.allclose(_np(y).mean(0), 0, atol=1e-5) and np.allclose(_np(y).std(0), 1, atol=1e-3)
    assert int(bn.num_batches_tracked) == 1
    assert np.allclose(_np(bn.running_mean), 0.1 * _np(x).mean(0), atol=1e-5)
    assert np.allclose(_np(bn.running_var), 0.9 + 0.1 * _np(x).var(0, ddof=1), atol=1e-4)
    with pytest.raises(ValueError, match="Expected more than 1 value per channel when training"):
        bn(ft.randn(1, 3))
    bn.eval()
    bn(ft.randn(1, 3))  # fine in eval mode
    with pytest.raises(ValueError, match="expected 2D or 3D input"):
        bn(ft.randn(2, 3, 4, 5))
    rng = np.random.default_rng(10)
    _fd_check(lambda x, w, b: F.batch_norm(x, None, None, w, b, True), [rng.standard_normal((5, 3, 2)),
                                                                          rng.standard_normal(3),
                                                                          rng.standard_normal(3)])
    _fd_check(lambda x, w, b: F.layer_norm(x, (4,), w, b), [rng.standard_normal((3, 4)),
                                                            rng.standard_normal(4), rng.standard_normal(4)])


RNN_CASES = [
    ("RNN", dict(), (5, 2, 3)),
    ("RNN", dict(nonlinearity="relu", num_layers=2), (5, 2, 3)),
    ("LSTM", dict(), (5, 2, 3)),
    ("LSTM", dict(num_layers=2, bidirectional=True), (4, 3, 3)),
    ("LSTM", dict(batch_first=True, bias=False), (2, 6, 3)),
    ("GRU", dict(), (5, 2, 3)),
    ("GRU", dict(num_layers=2, bidirectional=True, batch_first=True), (3, 4, 3)),
    ("LSTM", dict(), (6, 3)),  # unbatched
    ("GRU", dict(num_layers=2), (6, 3)),
]


@needs_torch
@pytest.mark.parametrize("name,kw,shape", RNN_CASES)
def test_recurrent_layers_match_torch(name, kw, shape) -> None:
    fm, tm = getattr(nn, name)(3, 4, **kw), getattr(_torch.nn, name)(3, 4, **kw)
    assert [n for n, _ in fm.named_parameters()] == [n for n, _ in tm.named_parameters()]
    x = np.random.default_rng(11).standard_normal(shape).astype(np.float32)
    _compare_module(fm, tm, x, rtol=1e-4, atol=1e-5, out_index=0)
    # the final states too, with a given initial state
    fm.zero_grad()
    tm.zero_grad()
    D = (2 if kw.get("bidirectional") else 1) * kw.get("num_layers", 1)
    hshape = (D, 4) if len(shape) == 2 else (D, shape[0] if kw.get("batch_first") else shape[1], 4)
    h0 = np.random.default_rng(12).standard_normal(hshape).astype(np.float32)
    fh, th = _pair(h0)
    if name == "LSTM":
        fc, tc = _pair(h0 * 0.5)
        fo, (fhn, fcn) = fm(ft.tensor(x), (fh, fc))
        to, (thn, tcn) = tm(_torch.tensor(x), (th, tc))
        _close(fcn, tcn, 1e-4, 1e-5)
        (fo.sum() + fhn.sum() * 2 + fcn.sum() * 3).backward()
        (to.sum() + thn.sum() * 2 + tcn.sum() * 3).backward()
        _close(fc.grad, tc.grad, 1e-4, 1e-5)
    else:
        fo, fhn = fm(ft.tensor(x), fh)
        to, thn = tm(_torch.tensor(x), th)
        (fo.sum() + fhn.sum() * 2).backward()
        (to.sum() + thn.sum() * 2).backward()
    _close(fhn, thn, 1e-4, 1e-5)
    _close(fh.grad, th.grad, 1e-4, 1e-5)
    for (n, p), (_, tp) in zip(fm.named_parameters(), tm.named_parameters()):
        _close(p.grad, tp.grad, 1e-4, 1e-5, n)


@needs_torch
@pytest.mark.parametrize("name", ["RNNCell", "LSTMCell", "GRUCell"])
def test_cells_match_torch(name) -> None:
    fm, tm = getattr(nn, name)(3, 4), getattr(_torch.nn, name)(3, 4)
    _sync(fm, tm)
    rng = np.random.default_rng(13)
    x = rng.standard_normal((2, 3)).astype(np.float32)
    h = rng.standard_normal((2, 4)).astype(np.float32)
    fx, tx = _pair(x)
    fh, th = _pair(h)
    if name == "LSTMCell":
        fo = fm(fx, (fh, fh * 0.3))
        to = tm(tx, (th, th * 0.3))
        _close(fo[1], to[1])
        fo, to = fo[0] + fo[1], to[0] + to[1]
    else:
        fo, to = fm(fx, fh), tm(tx, th)
    _close(fo, to)
    fo.sum().backward()
    to.sum().backward()
    _close(fx.grad, tx.grad)
    _close(fh.grad, th.grad)
    unb = fm(ft.tensor(x[0]))
    assert (unb[0] if isinstance(unb, tuple) else unb).shape == ft.Size([4])


def test_lstm_gradient_vs_finite_differences() -> None:
    ft.manual_seed(0)
    lstm = nn.LSTM(2, 3, num_layers=2, bidirectional=True).double()
    params = [p.detach().numpy().copy() for p in lstm.parameters()]
    names = [n for n, _ in lstm.named_parameters()]

    def f(x, w0):
        with ft.no_grad():
            getattr(lstm, names[0]).copy_(w0.detach())
        return lstm(x)[0] if not w0.requires_grad else _functional_lstm(lstm, names[0], x, w0)

    def _functional_lstm(mod, name, x, w):
        return ft.func.functional_call(mod, {name: w}, (x,))[0]

    rng = np.random.default_rng(14)
    _fd_check(f, [rng.standard_normal((4, 2, 2)), params[0]], rtol=1e-5)


@needs_torch
@pytest.mark.parametrize("name,kw", [
    ("ReLU", {}), ("ReLU6", {}), ("LeakyReLU", {"negative_slope": 0.2}), ("ELU", {"alpha": 0.7}), ("SELU",
                                                                                                   {}),
    ("CELU", {"alpha": 1.3}), ("GELU", {}), ("GELU", {"approximate": "tanh"}), ("SiLU", {}), ("Mish", {}),
    ("Sigmoid", {}), ("Tanh", {}), ("Hardtanh", {"min_val": -0.5, "max_val": 2.0}), ("Hardsigmoid", {}),
    ("Hardswish", {}), ("Hardshrink", {}), ("Softshrink", {}), ("Tanhshrink", {}),
    ("Threshold", {"threshold": 0.1, "value": -2.0}), ("LogSigmoid", {}), ("Softplus", {"beta": 2.0}),
    ("Softsign", {}), ("Softmax", {"dim": 1}), ("Softmin", {"dim": 0}), ("LogSoftmax", {"dim": -1}),
    ("PReLU", {}), ("PReLU", {"num_parameters": 4}), ("GLU", {}),
])
def test_activations_match_torch(name, kw) -> None:
    x = (np.random.default_rng(15).standard_normal((3, 4)) * 3).astype(np.float32)
    fo, to = _compare_module(getattr(nn, name)(**kw), getattr(_torch.nn, name)(**kw), x)
    assert type(fo.grad_fn).__name__ == type(to.grad_fn).__name__


def test_activations_closed_forms() -> None:
    x = ft.tensor([-2.0, -0.5, 0.0, 0.5, 3.0])
    assert ft.equal(F.relu(x), ft.tensor([0.0, 0.0, 0.0, 0.5, 3.0]))
    assert ft.allclose(F.softmax(x, 0).sum(), ft.tensor(1.0))
    assert ft.allclose(F.log_softmax(x, 0).exp(), F.softmax(x, 0))
    assert ft.allclose(F.gelu(x), x * 0.5 * (1 + ft.erf(x / math.sqrt(2))))
    y = x.clone()
    F.relu(y, inplace=True)
    assert ft.equal(y, F.relu(x))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        F.softmax(ft.ones(2, 3))
    assert "Implicit dimension choice for softmax has been deprecated" in str(rec[0].message)
    _fd_check(lambda x: F.gelu(x) + F.silu(x) + F.softplus(x, 2.0) + F.elu(x), [np.linspace(-3, 3, 11)])


# ---------------------------------------------------------------------------------------
# losses


LOSS_CASES = [
    ("mse_loss", dict()), ("mse_loss", dict(reduction="sum")), ("mse_loss", dict(reduction="none")),
    ("l1_loss", dict()), ("l1_loss", dict(reduction="none")),
    ("smooth_l1_loss", dict()), ("smooth_l1_loss", dict(beta=0.3, reduction="sum")),
    ("smooth_l1_loss", dict(beta=0.0)), ("huber_loss", dict(delta=0.5)),
    ("binary_cross_entropy", dict()), ("binary_cross_entropy", dict(reduction="none")),
    ("binary_cross_entropy_with_logits", dict()),
    ("binary_cross_entropy_with_logits", dict(pos_weight="pw", reduction="sum")),
    ("binary_cross_entropy_with_logits", dict(weight="w")),
    ("kl_div", dict(reduction="batchmean")), ("soft_margin_loss", dict()),
]


@needs_torch
@pytest.mark.parametrize("name,kw", LOSS_CASES)
def test_regression_and_binary_losses_match_torch(name, kw) -> None:
    rng = np.random.default_rng(16)
    x = rng.standard_normal((4, 5)).astype(np.float32)
    t = rng.standard_normal((4, 5)).astype(np.float32)
    if name == "binary_cross_entropy":
        x = 1 / (1 + np.exp(-x))
        t = (t > 0).astype(np.float32)
        t[0, 0] = 0.3
    if name == "binary_cross_entropy_with_logits":
        t = 1 / (1 + np.exp(-t))
    if name == "kl_div":
        x = np.log(np.exp(x) / np.exp(x).sum(1, keepdims=True))
        t = np.exp(t) / np.exp(t).sum(1, keepdims=True)
    if name == "soft_margin_loss":
        t = np.sign(t)
    extra_f, extra_t = {}, {}
    for k, v in kw.items():
        if v == "pw":
            arr = rng.uniform(0.5, 2, 5).astype(np.float32)
            extra_f[k], extra_t[k] = ft.tensor(arr), _torch.tensor(arr)
        elif v == "w":
            arr = rng.uniform(0.5, 2, (4, 5)).astype(np.float32)
            extra_f[k], extra_t[k] = ft.tensor(arr), _torch.tensor(arr)
        else:
            extra_f[k] = extra_t[k] = v
    fx, tx = _pair(x)
    ftg, ttg = _pair(t, requires_grad=name != "soft_margin_loss")
    fo = getattr(F, name)(fx, ftg, **extra_f)
    to = getattr(_torch.nn.functional, name)(tx, ttg, **extra_t)
    _close(fo, to)
    if fo.dim() == 0:
        fo.backward()
        to.backward()
    else:
        ct = rng.standard_normal(tuple(to.shape)).astype(np.float32)
        fo.backward(ft.tensor(ct))
        to.backward(_torch.tensor(ct))
    _close(fx.grad, tx.grad)
    if ttg.grad is not None:
        _close(ftg.grad, ttg.grad)
    assert type(fo.grad_fn).__name__ == type(to.grad_fn).__name__


CE_CASES = [
    dict(), dict(reduction="sum"), dict(reduction="none"), dict(weight=True), dict(ignore_index=2),
    dict(weight=True, ignore_index=1, reduction="mean"), dict(label_smoothing=0.2),
    dict(label_smoothing=0.1, weight=True), dict(label_smoothing=0.1, ignore_index=0, reduction="sum"),
    dict(probs=True), dict(probs=True, label_smoothing=0.3, weight=True), dict(spatial=True),
    dict(spatial=True, weight=True, ignore_index=1), dict(unbatched=True),
]


@needs_torch
@pytest.mark.parametrize("kw", CE_CASES)
def test_cross_entropy_and_nll_match_torch(kw) -> None:
    kw = dict(kw)
    rng = np.random.default_rng(17)
    C = 5
    shape = (3, C, 4, 2) if kw.pop("spatial", False) else ((C,) if kw.pop("unbatched", False) else (6, C))
    x = (rng.standard_normal(shape) * 2).astype(np.float32)
    tshape = shape[:1] + shape[2:] if len(shape) > 1 else ()
    target = rng.integers(0, C, tshape)
    probs = kw.pop("probs", False)
    fkw, tkw = dict(kw), dict(kw)
    if kw.pop("weight", False):
        w = rng.uniform(0.5, 2, C).astype(np.float32)
        fkw["weight"], tkw["weight"] = ft.tensor(w), _torch.tensor(w)
    fx, tx = _pair(x)
    if probs:
        p = np.exp(rng.standard_normal(shape)).astype(np.float32)
        p /= p.sum(1, keepdims=True)
        ftg, ttg = _pair(p)
    else:
        ftg, ttg = ft.tensor(target), _torch.tensor(target)
    fo = F.cross_entropy(fx, ftg, **fkw)
    to = _torch.nn.functional.cross_entropy(tx, ttg, **tkw)
    _close(fo, to)
    ct = rng.standard_normal(tuple(to.shape)).astype(np.float32)
    fo.backward(ft.tensor(ct))
    to.backward(_torch.tensor(ct))
    _close(fx.grad, tx.grad)
    if probs:
        _close(ftg.grad, ttg.grad)
    if not probs and "label_smoothing" not in kw:
        assert type(fo.grad_fn).__name__ == type(to.grad_fn).__name__
        # nll_loss on log-probabilities is the same number
        ln = F.nll_loss(F.log_softmax(ft.tensor(x), 1 if len(shape) > 1 else 0), ftg, **{
            k: v for k, v in fkw.items() if k != "label_smoothing"})
        _close(ln, to.detach())


def test_loss_modules_and_errors() -> None:
    x = ft.tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], requires_grad=True)
    t = ft.tensor([1, 2])
    ce, nll = nn.CrossEntropyLoss()(x, t), nn.NLLLoss()(nn.LogSoftmax(dim=1)(x), t)
    assert ft.allclose(ce, nll)
    expected = -(math.log(math.exp(2) / (math.exp(1) + math.exp(2) + math.exp(0.5)))
                 + math.log(math.exp(3) / (math.exp(0.1) + math.exp(-1) + math.exp(3)))) / 2
    assert abs(ce.item() - expected) < 1e-6
    assert nn.MSELoss(reduction="sum")(ft.ones(3), ft.zeros(3)).item() == 3.0
    with warnings.catch_warnings(record=True):
        warnings.simplefilter("always")
        assert nn.MSELoss(size_average=False).reduction == "sum"
    with pytest.raises(ValueError, match="Expected input batch_size \\(2\\) to match target batch_size "
                                         "\\(3\\)"):
        F.cross_entropy(x, ft.tensor([0, 1, 2]))
    with pytest.raises(IndexError, match="Target 7 is out of bounds"):
        F.cross_entropy(x, ft.tensor([0, 7]))
    with pytest.raises(ValueError, match="is not a valid value for reduction"):
        F.mse_loss(x, x, reduction="avg")
    with pytest.raises(ValueError, match="different to the input size"):
        F.binary_cross_entropy(ft.rand(3), ft.rand(2))
    with pytest.raises(RuntimeError, match="all elements of input should be between 0 and 1"):
        F.binary_cross_entropy(ft.tensor([1.5]), ft.tensor([1.0]))
    with warnings.catch_warnings(record=True) as rec:
        warnings.simplefilter("always")
        F.mse_loss(ft.ones(3, 1), ft.ones(3))
    assert "different to the input size" in str(rec[0].message)
    # all targets ignored: PyTorch gives nan for 'mean'
    assert math.isnan(F.cross_entropy(x, ft.tensor([-100, -100])).item())
    rng = np.random.default_rng(18)
    _fd_check(lambda x: F.cross_entropy(x, ft.tensor([0, 2, 1]), label_smoothing=0.1),
              [rng.standard_normal((3, 4))])
    _fd_check(lambda x, t: F.binary_cross_entropy_with_logits(x, t, pos_weight=ft.tensor([2.0, 0.5])),
              [rng.standard_normal((3, 2)), rng.uniform(0, 1, (3, 2))])


@needs_torch
def test_double_backward_matches_torch() -> None:
    """create_graph through layers and losses (gradient penalty)."""
    rng = np.random.default_rng(19)
    x = rng.standard_normal((3, 2, 6, 6)).astype(np.float32)
    res = []
    for lib, mod in ((ft, nn), (_torch, _torch.nn)):
        lib.manual_seed(0)
        net = mod.Sequential(mod.Conv2d(2, 3, 3), mod.Tanh(), mod.Flatten(), mod.Linear(48, 4))
        res.append(net)
    _sync(res[0], res[1])
    outs = []
    for lib, net in ((ft, res[0]), (_torch, res[1])):
        xi = lib.tensor(x, requires_grad=True)
        loss = lib.nn.functional.cross_entropy(net(xi), lib.tensor([0, 3, 1]))
        (g,) = lib.autograd.grad(loss, xi, create_graph=True)
        penalty = (g ** 2).sum()
        penalty.backward()
        outs.append((g, net[0].weight.grad, net[3].weight.grad))
    for a, b in zip(*outs):
        _close(a, b, 1e-4, 1e-6)


# ---------------------------------------------------------------------------------------
# functional odds and ends


@needs_torch
@pytest.mark.parametrize("mode,pad", [("constant", (1, 2)), ("constant", (1, 1, 2, 0)), ("constant", (-1, 2)),
                                      ("reflect", (2, 1, 1, 2)), ("replicate", (3, 1, 0, 2)), ("circular",
                                                                                               (1, 2, 2, 1))])
def test_pad_matches_torch(mode, pad) -> None:
    x = np.random.default_rng(20).standard_normal((2, 3, 4, 5)).astype(np.float32)
    fx, tx = _pair(x)
    kw = {"value": 1.5} if mode == "constant" else {}
    fo, to = F.pad(fx, pad, mode, **kw), _torch.nn.functional.pad(tx, pad, mode, **kw)
    _close(fo, to)
    ct = np.random.default_rng(21).standard_normal(tuple(to.shape)).astype(np.float32)
    fo.backward(ft.tensor(ct))
    to.backward(_torch.tensor(ct))
    _close(fx.grad, tx.grad)


def test_dropout() -> None:
    ft.manual_seed(0)
    x = ft.ones(200, 100)
    y = F.dropout(x, 0.3, True)
    vals = set(np.unique(_np(y)).tolist())
    assert vals <= {0.0, np.float32(1 / 0.7).item()}
    assert abs((_np(y) == 0).mean() - 0.3) < 0.02
    assert abs(_np(y).mean() - 1.0) < 0.03
    assert F.dropout(x, 0.3, False) is x
    assert float(F.dropout(x, 1.0).abs().sum()) == 0.0
    with pytest.raises(ValueError, match="dropout probability has to be between 0 and 1, but got 1.5"):
        F.dropout(x, 1.5)
    d = nn.Dropout(0.5)
    xr = ft.ones(4, 4, requires_grad=True)
    out = d(xr)
    out.sum().backward()
    assert ft.equal(xr.grad, out.detach())  # gradient is the same mask times 1/(1-p)
    d.eval()
    assert ft.equal(d(x), x)
    y2 = F.dropout2d(ft.ones(2, 50, 3, 3), 0.5)
    per_channel = _np(y2).reshape(2, 50, 9)
    assert np.all(per_channel.min(-1) == per_channel.max(-1))


def test_one_hot_normalize_cosine_unfold() -> None:
    assert ft.equal(F.one_hot(ft.tensor([0, 2, 1]), 4), ft.tensor([[1, 0, 0, 0], [0, 0, 1, 0], [0, 1, 0, 0]]))
    assert F.one_hot(ft.tensor([3])).shape == ft.Size([1, 4])
    v = ft.tensor([[3.0, 4.0]])
    assert ft.allclose(F.normalize(v), ft.tensor([[0.6, 0.8]]))
    assert ft.allclose(F.cosine_similarity(v, 2 * v), ft.tensor([1.0]))
    x = ft.arange(2 * 3 * 4 * 5.0).view(2, 3, 4, 5)
    cols = F.unfold(x, (2, 3), padding=1, stride=(1, 2))
    w = ft.randn(4, 3, 2, 3)
    conv = F.conv2d(x, w, padding=1, stride=(1, 2))
    assert ft.allclose((w.view(4, -1) @ cols).view(conv.shape), conv, atol=1e-4)


@needs_torch
def test_unfold_matches_torch() -> None:
    x = np.random.default_rng(22).standard_normal((2, 3, 6, 7)).astype(np.float32)
    fx, tx = _pair(x)
    fo = F.unfold(fx, (2, 3), dilation=(1, 2), padding=1, stride=2)
    to = _torch.nn.functional.unfold(tx, (2, 3), dilation=(1, 2), padding=1, stride=2)
    _close(fo, to)
    fo.sum().backward()
    to.sum().backward()
    _close(fx.grad, tx.grad)


def test_functional_call_through_fgrad_grad() -> None:
    """A module's loss through fgrad.grad (the functional face) equals backward()."""
    ft.manual_seed(0)
    net = nn.Sequential(nn.Linear(4, 8), nn.ReLU(), nn.Linear(8, 3))
    x, y = ft.randn(5, 4), ft.tensor([0, 2, 1, 1, 0])
    params = {k: v.detach() for k, v in net.named_parameters()}

    def loss_fn(p):
        # in functional mode functional_call returns fgrad arrays; wrap them back as Tensors
        out = ft.func._from_array(ft.func.functional_call(net, p, (x,)))
        return F.cross_entropy(out, y)

    grads = ft.func.grad(loss_fn)(params)
    loss = F.cross_entropy(net(x), y)
    loss.backward()
    for k, p in net.named_parameters():
        _close(grads[k], p.grad, 1e-5, 1e-6, k)
    # and under the core's own transforms: fgrad.grad of a function of fgrad arrays
    arrays = {k: ft.func._to_array(v) for k, v in params.items()}

    def core_loss(a):
        out = ft.func.functional_call(net, {k: ft.func._from_array(v) for k, v in a.items()}, (x,))
        return ft.func._to_array(F.cross_entropy(ft.func._from_array(out), y))

    g2 = fgrad.grad(core_loss)(arrays)
    for k, p in net.named_parameters():
        np.testing.assert_allclose(np.asarray(g2[k]._buf), _np(p.grad), rtol=1e-5, atol=1e-6)


def test_mlp_step_is_few_nodes() -> None:
    """Linear is one recorded op (AddmmBackward0), relu one, cross-entropy two (the weight's
    TBackward0 PyTorch shows under AddmmBackward0 is display only: never run)."""
    net = nn.Sequential(nn.Linear(6, 5), nn.ReLU(), nn.Linear(5, 3))
    loss = F.cross_entropy(net(ft.randn(4, 6)), ft.tensor([0, 1, 2, 0]))
    names, stack, seen = [], [loss.grad_fn], set()
    while stack:
        n = stack.pop()
        if n is None or id(n) in seen:
            continue
        seen.add(id(n))
        names.append(type(n).__name__ + (" (shown)" if isinstance(n, ft.autograd.graph.ShownNode) else ""))
        stack.extend(f for f, _ in n.next_functions)
    assert sorted(names) == sorted(["NllLossBackward0", "LogSoftmaxBackward0", "AddmmBackward0",
                                    "ReluBackward0",
                                    "AddmmBackward0"] + ["AccumulateGrad"] * 4 + ["TBackward0 (shown)"] * 2)


@needs_torch
def test_bilinear_flatten_padding_modules_match_torch() -> None:
    rng = np.random.default_rng(23)
    a = rng.standard_normal((4, 2)).astype(np.float32)
    b = rng.standard_normal((4, 3)).astype(np.float32)
    _compare_module(nn.Bilinear(2, 3, 5), _torch.nn.Bilinear(2, 3, 5), a, b)
    x = rng.standard_normal((2, 6, 3)).astype(np.float32)
    _compare_module(nn.Unflatten(1, (2, 3)), _torch.nn.Unflatten(1, (2, 3)), x)
    x = rng.standard_normal((1, 2, 4, 5)).astype(np.float32)
    for name, arg in (("ZeroPad2d", (1, 2, 0, 1)), ("ReflectionPad2d", 2), ("ReplicationPad2d", 1),
                      ("ConstantPad2d", 1)):
        args = (arg, 0.5) if name == "ConstantPad2d" else (arg,)
        fm, tm = getattr(nn, name)(*args), getattr(_torch.nn, name)(*args)
        _compare_module(fm, tm, x)
        assert repr(fm) == repr(tm)


@needs_torch
def test_clip_grad_matches_torch() -> None:
    rng = np.random.default_rng(24)
    grads = [rng.standard_normal(s).astype(np.float32) for s in ((3, 4), (5,))]
    for kw in (dict(max_norm=1.0), dict(max_norm=0.5, norm_type=1.0), dict(max_norm=2.0,
                                                                           norm_type=float("inf")),
               dict(max_norm=100.0)):
        fp = [ft.zeros(g.shape, requires_grad=True) for g in grads]
        tp = [_torch.zeros(g.shape, requires_grad=True) for g in grads]
        for p, q, g in zip(fp, tp, grads):
            p.grad, q.grad = ft.tensor(g), _torch.tensor(g)
        fn = nn.utils.clip_grad_norm_(fp, **kw)
        tn = _torch.nn.utils.clip_grad_norm_(tp, **kw)
        _close(fn, tn)
        for p, q in zip(fp, tp):
            _close(p.grad, q.grad)
    p = ft.zeros(3, requires_grad=True)
    p.grad = ft.tensor([-3.0, 0.5, 9.0])
    nn.utils.clip_grad_value_([p], 1.0)
    assert p.grad.tolist() == [-1.0, 0.5, 1.0]
    net = nn.Linear(3, 2)
    v = nn.utils.parameters_to_vector(net.parameters())
    assert v.shape == ft.Size([8])
    nn.utils.vector_to_parameters(ft.arange(8.0), net.parameters())
    assert net.bias.tolist() == [6.0, 7.0]


def test_docstring_examples_run() -> None:
    """The runnable examples in the docstrings of nn, optim, utils.data and serialization."""
    import doctest
    import importlib

    mods = ["fgrad.torch.nn", "fgrad.torch.nn.functional", "fgrad.torch.nn.init", "fgrad.torch.nn.parameter",
            "fgrad.torch.nn.utils.clip_grad", "fgrad.torch.optim.optimizer", "fgrad.torch.optim.sgd",
            "fgrad.torch.optim.adam", "fgrad.torch.optim.lr_scheduler", "fgrad.torch.utils.data._collate",
            "fgrad.torch.utils.data.dataset", "fgrad.torch.utils.data.sampler",
            "fgrad.torch.utils.data.dataloader", "fgrad.torch.serialization"]
    mods += ["fgrad.torch.nn.modules." + m for m in (
        "module", "container", "linear", "conv", "pooling", "rnn", "sparse", "loss", "batchnorm",
        "normalization", "activation", "dropout", "flatten", "padding")]
    total = 0
    for name in mods:
        res = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
        assert res.failed == 0, name
        total += res.attempted
    assert total > 40


def test_vmap_and_jit_through_layers() -> None:
    """Per-example gradients (vmap of grad) and jit through conv, relu, linear and
    cross-entropy in functional mode equal a loop of backward() calls."""
    ft.manual_seed(0)
    net = nn.Sequential(nn.Conv1d(2, 3, 3, padding=1), nn.ReLU(), nn.Flatten(), nn.Linear(15, 4))
    x, y = ft.randn(6, 2, 5), ft.tensor([0, 1, 2, 3, 0, 1])
    params = {k: ft.func._to_array(v.detach()) for k, v in net.named_parameters()}
    A, T = ft.func._to_array, ft.func._from_array

    def loss(p, xi, yi):
        out = ft.func.functional_call(net, {k: T(v) for k, v in p.items()}, (T(xi[None]),))
        return A(F.cross_entropy(T(out), T(yi[None])))

    per_ex = fgrad.vmap(fgrad.grad(loss), in_axes=(None, 0, 0))(params, A(x), A(y))
    for i in range(6):
        net.zero_grad()
        F.cross_entropy(net(x[i:i + 1]), y[i:i + 1]).backward()
        for k, p in net.named_parameters():
            np.testing.assert_allclose(np.asarray(per_ex[k]._buf)[i], _np(p.grad), rtol=1e-5, atol=1e-6)
    jl = fgrad.jit(lambda p: loss(p, A(x[0]), A(y[0])))
    assert abs(float(np.asarray(jl(params)._buf)) - F.cross_entropy(net(x[:1]), y[:1]).item()) < 1e-6


def test_hardshrink_gives_positive_zero_and_keeps_nan() -> None:
    """Inside ``[-lambd, lambd]`` PyTorch's kernel writes +0 (fgrad wrote ``x * 0``: -0 for a
    negative ``x``, visible in the printed tensor), and NaN is outside (value NaN, gradient 1)."""
    x = ft.tensor([float("nan"), -0.2, 0.2, -0.0, -0.5, 0.5, -2.0], dtype=ft.float64, requires_grad=True)
    y = F.hardshrink(x, 0.5)
    # PyTorch 2.13: y.signbit(), x.grad after y.sum().backward()
    assert y.signbit().tolist() == [False, False, False, False, False, False, True]
    assert np.isnan(y[0].item()) and y[1:].tolist() == [0.0, 0.0, 0.0, 0.0, 0.0, -2.0]
    y.sum().backward()
    assert x.grad.tolist() == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    assert str(nn.Hardshrink()(ft.tensor([-0.25]))) == "tensor([0.])"
