"""torch.autocast / torch.amp: PyTorch's CPU per-op lists (a table probed from live PyTorch,
stored), nesting, decorator, deprecated aliases, gradients; GradScaler against PyTorch's
numbers for a training loop with injected overflows."""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pytest

import fgrad.torch as torch
from amp_loop_case import run as run_loop
from autocast_cases import OPS

STORED = pathlib.Path(__file__).parent.parent / "stored"
TABLE = json.loads((STORED / "autocast_cpu_torch.json").read_text())
LOOPS = json.loads((STORED / "grad_scaler_torch.json").read_text())


def _probe(t, name, ac, inp):
    t.manual_seed(0)

    def mk(*shape):
        return t.rand(*shape).to(getattr(t, inp))

    with t.autocast("cpu", dtype=getattr(t, ac)):
        try:
            return str(OPS[name](t, mk).dtype)[6:]
        except RuntimeError:
            return "error: RuntimeError"


@pytest.mark.parametrize("name", sorted(OPS))
def test_cpu_autocast_policy_matches_pytorch_table(name):
    for key, want in TABLE[name].items():
        ac, inp = key.split("/")
        assert _probe(torch, name, ac, inp) == want, (name, key)


@pytest.mark.parametrize("name", ["linear", "conv2d", "cross_entropy", "cat", "softmax", "einsum"])
def test_cpu_autocast_policy_matches_live_pytorch(name):
    pt = pytest.importorskip("torch")
    for ac in ("bfloat16", "float16"):
        for inp in ("float32", "bfloat16"):
            assert _probe(torch, name, ac, inp) == _probe(pt, name, ac, inp)


def test_outside_autocast_nothing_is_cast():
    assert (torch.ones(2, 3) @ torch.ones(3, 2)).dtype == torch.float32
    assert not torch.is_autocast_enabled("cpu")


def test_nesting_enabled_false_and_restore():
    a = torch.ones(2, 2)
    with torch.autocast("cpu"):
        assert torch.mm(a, a).dtype == torch.bfloat16 and torch.is_autocast_enabled("cpu")
        with torch.autocast("cpu", enabled=False):
            assert torch.mm(a, a).dtype == torch.float32
        with torch.autocast("cpu", dtype=torch.float16):
            assert torch.mm(a, a).dtype == torch.float16
        assert torch.mm(a, a).dtype == torch.bfloat16 and torch.get_autocast_dtype("cpu") == torch.bfloat16
    assert torch.mm(a, a).dtype == torch.float32 and not torch.is_autocast_enabled("cpu")


def test_state_restored_after_exception():
    with pytest.raises(ValueError), torch.autocast("cpu"):
        raise ValueError("boom")
    assert not torch.is_autocast_enabled("cpu")


def test_decorator_and_amp_alias():
    @torch.amp.autocast("cpu")
    def f(a):
        return torch.nn.functional.linear(a, torch.ones(2, 3))

    assert f(torch.ones(4, 3)).dtype == torch.bfloat16
    assert not torch.is_autocast_enabled("cpu")
    with pytest.raises(TypeError, match="callable"):
        torch.autocast("cpu")(3)


def test_float64_is_not_cast():
    a = torch.ones(2, 2, dtype=torch.float64)
    with torch.autocast("cpu"):
        assert torch.mm(a, a).dtype == torch.float64


def test_gradients_reach_float32_params_as_float32():
    lin = torch.nn.Linear(3, 2)
    conv = torch.nn.Conv2d(1, 2, 3)
    with torch.autocast("cpu", dtype=torch.bfloat16):
        h = conv(torch.ones(1, 1, 5, 5))
        y = lin(h.flatten(1)[:, :3])
        assert h.dtype == y.dtype == torch.bfloat16
        loss = torch.nn.functional.mse_loss(y, torch.zeros(1, 2))
        assert loss.dtype == torch.float32
    loss.backward()
    for p in (*lin.parameters(), *conv.parameters()):
        assert p.grad.dtype == torch.float32 and p.grad.shape == p.shape


def test_bad_device_and_dtype():
    with pytest.raises(RuntimeError, match="unsupported autocast device_type 'tpu'"):
        torch.autocast("tpu")
    with pytest.warns(UserWarning, match="target dtype is not supported. Disabling autocast"):
        with torch.autocast("cpu", dtype=torch.float64):
            assert not torch.is_autocast_enabled("cpu")


def test_cuda_without_cuda_warns_and_disables(no_cuda):
    with pytest.warns(UserWarning, match="CUDA is not available"), torch.autocast("cuda"):
        assert not torch.is_autocast_enabled("cuda")
    with pytest.warns(UserWarning, match="GradScaler is enabled, but CUDA is not available.  Disabling."):
        s = torch.amp.GradScaler("cuda")
    assert not s.is_enabled() and s.get_scale() == 1.0 and s.state_dict() == {}
    x = torch.ones(2)
    assert s.scale(x) is x


def test_deprecated_aliases_warn(no_cuda):
    with pytest.warns(FutureWarning, match=r"torch.cpu.amp.autocast\(args...\)` is deprecated"):
        ctx = torch.cpu.amp.autocast()
    with ctx:
        assert torch.mm(torch.ones(1, 1), torch.ones(1, 1)).dtype == torch.bfloat16
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.warns(FutureWarning, match=r"torch.cuda.amp.GradScaler\(args...\)` is deprecated"):
            torch.cuda.amp.GradScaler()
        with pytest.warns(FutureWarning, match=r"torch.cuda.amp.autocast\(args...\)` is deprecated"):
            torch.cuda.amp.autocast()


@pytest.mark.parametrize("loop", ["fp32", "autocast_bf16"])
def test_grad_scaler_loop_matches_pytorch_stored(loop):
    got, want = run_loop(torch, loop == "autocast_bf16"), LOOPS[loop]
    assert got["scale"] == want["scale"]  # 1024, grows to 2048 after 2 clean steps, halves at overflow
    assert got["stepped"] == want["stepped"] == [True, True, False, True, True, False, True]
    assert got["grad_dtype"] == want["grad_dtype"] == ["torch.float32"] * 7
    assert got["state_dict"] == want["state_dict"]
    np.testing.assert_allclose(got["weight"], want["weight"], rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(got["bias"], want["bias"], rtol=1e-5, atol=1e-6)


def test_grad_scaler_loop_matches_live_pytorch():
    pt = pytest.importorskip("torch")
    got, want = run_loop(torch, True), run_loop(pt, True)
    assert got["scale"] == want["scale"] and got["stepped"] == want["stepped"]
    np.testing.assert_allclose(got["weight"], want["weight"], rtol=1e-5, atol=1e-6)


def _one_param_step(scaler, grad_factor=1.0):
    w = torch.nn.Parameter(torch.ones(2))
    opt = torch.optim.SGD([w], lr=1.0)
    scaler.scale((w * grad_factor).sum()).backward()
    return w, opt


def test_unscale_divides_and_step_skips_on_nan():
    s = torch.amp.GradScaler("cpu", init_scale=8.0)
    w, opt = _one_param_step(s)
    assert w.grad.tolist() == [8.0, 8.0]
    s.unscale_(opt)
    assert w.grad.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="unscale_\\(\\) has already been called"):
        s.unscale_(opt)
    s.step(opt)
    with pytest.raises(RuntimeError, match="step\\(\\) has already been called"):
        s.step(opt)
    s.update()
    assert w.tolist() == [0.0, 0.0] and s.get_scale() == 8.0 and s.state_dict()["_growth_tracker"] == 1
    s2 = torch.amp.GradScaler("cpu", init_scale=8.0)
    w2, opt2 = _one_param_step(s2, float("nan"))
    assert s2.step(opt2) is None
    s2.update()
    assert w2.tolist() == [1.0, 1.0] and s2.get_scale() == 4.0


def test_scaler_errors_and_state_dict():
    s = torch.amp.GradScaler("cpu")
    with pytest.raises(AssertionError, match="did not use scaler.scale"):
        s.update()
    with pytest.raises(AssertionError, match="growth factor must be > 1.0"):
        torch.amp.GradScaler("cpu", growth_factor=1.0)
    w, opt = _one_param_step(s)
    with pytest.raises(RuntimeError, match="Closure use is not currently supported"):
        s.step(opt, closure=lambda: 0.0)
    s2 = torch.amp.GradScaler("cpu")
    s2.load_state_dict({**s.state_dict(), "scale": 32.0, "_growth_tracker": 3})
    assert s2.get_scale() == 32.0 and s2.state_dict()["_growth_tracker"] == 3
    with pytest.raises(RuntimeError, match="state dict is empty"):
        s2.load_state_dict({})
    scaled = s.scale([torch.ones(1), (torch.ones(1), torch.ones(1))])
    assert scaled[0].item() == 65536.0 and type(scaled[1]) is tuple
    fp16 = torch.nn.Parameter(torch.ones(2).half())
    fp16.grad = torch.ones(2).half()
    s3 = torch.amp.GradScaler("cpu")
    s3.scale(torch.ones(1))
    with pytest.raises(ValueError, match="Attempting to unscale FP16 gradients"):
        s3.unscale_(torch.optim.SGD([fp16], lr=1.0))


def test_disabled_scaler_passes_through():
    s = torch.amp.GradScaler("cpu", enabled=False)
    w, opt = _one_param_step(s)
    s.step(opt)
    s.update()
    assert w.tolist() == [0.0, 0.0] and s.get_scale() == 1.0
