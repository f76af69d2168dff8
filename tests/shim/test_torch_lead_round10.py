"""PyTorch pieces added in session 10 by the lead: ``torch.signal.windows``,
``torch.__future__`` with ``torch.utils.swap_tensors``, the ``*_copy`` view variants,
``torch.func.linearize``/``functionalize``/``replace_all_batch_norm_modules_``, and aliases
(``torch.GradScaler``, ``torch.OutOfMemoryError``, deprecated ``nn.init`` names).  Compared
with PyTorch 2.13's numbers (stored; live when torch is installed)."""

from __future__ import annotations

import json
import pathlib
import warnings

import numpy as np
import pytest
from _peers import torch_is_pinned

import fgrad.torch as torch

WINDOWS = json.loads((pathlib.Path(__file__).parents[1] / "stored" / "torch_signal_windows.json").read_text())
KWARGS = {
    "exponential": {"tau": 2.5},
    "gaussian": {"std": 1.7},
    "general_cosine": {"a": [0.4, 0.3, 0.2]},
    "general_hamming": {"alpha": 0.6},
    "kaiser": {"beta": 5.0},
}


def _window(mod, key):
    name, M, sym, dt = key.split("|")
    return getattr(mod.signal.windows, name)(
        int(M), sym=bool(int(sym)), dtype=getattr(mod, dt), **KWARGS.get(name, {})
    )


@pytest.mark.parametrize("key", sorted(WINDOWS))
def test_signal_windows_equal_pytorchs(key):
    got = _window(torch, key)
    assert got.dtype == getattr(torch, key.split("|")[3])
    # float32: exp/i0 may differ from PyTorch's vectorized ones in the last bits
    tol = 2e-6 if key.endswith("float32") else 1e-13
    np.testing.assert_allclose(got.numpy(), np.array(WINDOWS[key]), rtol=tol, atol=tol)


def test_signal_windows_live():
    real = pytest.importorskip("torch")
    for key in list(WINDOWS)[::7]:
        if torch_is_pinned(real):
            np.testing.assert_array_equal(_window(real, key).numpy(), np.array(WINDOWS[key]))
        else:  # another release may round a window's last bit otherwise (2.11's exponential)
            np.testing.assert_array_max_ulp(_window(real, key).numpy(), np.array(WINDOWS[key]), maxulp=2)


def test_signal_windows_reject_bad_input_as_pytorch():
    W = torch.signal.windows
    with pytest.raises(ValueError, match="requires non-negative window length, got M=-1"):
        W.hann(-1)
    with pytest.raises(ValueError, match="expects float32 or float64 dtypes, got: torch.int64"):
        W.hann(3, dtype=torch.int64)
    with pytest.raises(ValueError, match="Standard deviation must be positive"):
        W.gaussian(3, std=0.0)
    with pytest.raises(ValueError, match="Center must be None for symmetric windows"):
        W.exponential(3, center=1.0)
    with pytest.raises(ValueError, match="Coefficients cannot be empty"):
        W.general_cosine(3, a=[])
    assert W.hann(4, requires_grad=True).requires_grad


def test_future_switches_change_module_conversion():
    F = torch.__future__
    assert not F.get_overwrite_module_params_on_conversion() and not F.get_swap_module_params_on_conversion()
    try:
        F.set_overwrite_module_params_on_conversion(True)
        m = torch.nn.Linear(2, 2)
        w = m.weight
        m.weight.grad = torch.ones(2, 2)
        m.double()
        assert m.weight is not w and w.dtype == torch.float32 and m.weight.dtype == torch.float64
        assert m.weight.grad.dtype == torch.float64
        F.set_overwrite_module_params_on_conversion(False)
        F.set_swap_module_params_on_conversion(True)
        m = torch.nn.Linear(2, 2)
        w = m.weight
        m.double()
        assert m.weight is w and w.dtype == torch.float64 and isinstance(w, torch.nn.Parameter)
        m.load_state_dict({"weight": torch.ones(2, 2, dtype=torch.float64), "bias": torch.zeros(2)})
        assert m.weight is w and w.tolist() == [[1.0, 1.0], [1.0, 1.0]]
    finally:
        F.set_overwrite_module_params_on_conversion(False)
        F.set_swap_module_params_on_conversion(False)
    m = torch.nn.Linear(2, 2)
    w = m.weight
    m.double()
    assert m.weight is w  # the default: .data is replaced


def test_swap_tensors_exchanges_contents_and_class():
    a, b = torch.nn.Parameter(torch.ones(2)), torch.zeros(3)
    torch.utils.swap_tensors(a, b)
    assert type(a) is torch.Tensor and a.tolist() == [0.0, 0.0, 0.0]
    assert type(b) is torch.nn.Parameter and b.requires_grad and b.tolist() == [1.0, 1.0]
    with pytest.raises(RuntimeError, match="views"):
        x = torch.ones(4)
        torch.utils.swap_tensors(x[:2], torch.ones(2))


COPIES = [
    ("alias_copy", lambda m, x: m.alias_copy(x)),
    ("as_strided_copy", lambda m, x: m.as_strided_copy(x, (2, 2), (1, 2))),
    ("detach_copy", lambda m, x: m.detach_copy(x)),
    ("diagonal_copy", lambda m, x: m.diagonal_copy(x, 1)),
    ("expand_copy", lambda m, x: m.expand_copy(x[:1], (2, 3))),
    ("narrow_copy", lambda m, x: m.narrow_copy(x, 1, 1, 2)),
    ("permute_copy", lambda m, x: m.permute_copy(x, (1, 0))),
    ("select_copy", lambda m, x: m.select_copy(x, 1, 2)),
    ("slice_copy", lambda m, x: m.slice_copy(x, 1, 0, 3, 2)),
    ("split_copy", lambda m, x: m.split_copy(x, 2, 1)),
    ("split_with_sizes_copy", lambda m, x: m.split_with_sizes_copy(x, [1, 2], 1)),
    ("squeeze_copy", lambda m, x: m.squeeze_copy(x[:1])),
    ("t_copy", lambda m, x: m.t_copy(x)),
    ("transpose_copy", lambda m, x: m.transpose_copy(x, 0, 1)),
    ("unbind_copy", lambda m, x: m.unbind_copy(x, 1)),
    ("unfold_copy", lambda m, x: m.unfold_copy(x, 1, 2, 1)),
    ("unsqueeze_copy", lambda m, x: m.unsqueeze_copy(x, 0)),
    ("view_copy", lambda m, x: m.view_copy(x, (3, 2))),
    ("view_as_real_copy", lambda m, x: m.view_as_real_copy(x * 1j)),
    ("view_as_complex_copy", lambda m, x: m.view_as_complex_copy(x[:, :2].contiguous())),
]


@pytest.mark.parametrize("name,call", COPIES, ids=[c[0] for c in COPIES])
def test_view_copies_are_fresh_contiguous_tensors(name, call):
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    res = call(torch, x)
    outs = res if isinstance(res, tuple) else (res,)
    for o in outs:
        assert o.is_contiguous() and o._base is None
        assert not np.shares_memory(o.detach().numpy(), x.detach().numpy())
    if name == "detach_copy":
        assert not res.requires_grad
    else:
        sum(o.abs().sum() for o in outs).backward()  # differentiable, as PyTorch's
        assert x.grad is not None
    real = pytest.importorskip("torch")
    want = call(real, real.tensor(x.tolist()))
    for o, w in zip(outs, want if isinstance(want, tuple) else (want,), strict=True):
        np.testing.assert_array_equal(o.detach().numpy(), w.numpy())


def test_view_copy_out_argument():
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    out = torch.empty(2, 2)
    assert torch.t_copy(x, out=out) is out and out.tolist() == [[1.0, 3.0], [2.0, 4.0]]


def test_func_linearize_matches_jvp_and_ignores_no_grad():
    def f(x):
        with torch.no_grad():
            c = x * 2  # forward mode ignores grad mode (PyTorch)
        return torch.sin(x) * c

    x, t = torch.tensor([0.5, 1.5]), torch.tensor([1.0, -2.0])
    out, jvp_fn = torch.func.linearize(f, x)
    _, want = torch.func.jvp(f, (x,), (t,))
    np.testing.assert_allclose(jvp_fn(t).numpy(), want.numpy(), rtol=1e-6)
    np.testing.assert_allclose(
        want.numpy(), (np.cos([0.5, 1.5]) * 2 * [0.5, 1.5] + np.sin([0.5, 1.5]) * 2) * [1.0, -2.0], rtol=1e-6
    )
    with pytest.raises(RuntimeError, match="expected 1 tangents"):
        jvp_fn(t, t)


def test_func_functionalize_and_batch_norm_replacement():
    def f(x):
        y = x.clone()
        y.add_(1)
        return y

    assert torch.func.functionalize(f)(torch.tensor([1.0])).tolist() == [2.0]
    with pytest.raises(RuntimeError, match="invalid argument for remove"):
        torch.func.functionalize(f, remove="views")
    m = torch.nn.Sequential(torch.nn.BatchNorm1d(3), torch.nn.Linear(3, 1))
    assert torch.func.replace_all_batch_norm_modules_(m) is m
    bn = m[0]
    assert bn.running_mean is None and bn.running_var is None and not bn.track_running_stats
    x = torch.randn(4, 3)
    np.testing.assert_allclose(bn(x).mean(0).detach().numpy(), 0, atol=1e-6)  # batch statistics


def test_top_level_aliases_and_deprecated_init_names():
    assert torch.GradScaler is torch.amp.GradScaler
    assert torch.OutOfMemoryError is torch.cuda.OutOfMemoryError and issubclass(
        torch.OutOfMemoryError, RuntimeError
    )
    for name in ("eye", "dirac", "orthogonal", "sparse"):
        t = torch.empty(3, 3, 3) if name == "dirac" else torch.empty(3, 3)
        args = (0.5,) if name == "sparse" else ()
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            getattr(torch.nn.init, name)(t, *args)
        assert f"`nn.init.{name}` is now deprecated in favor of `nn.init.{name}_`." in str(w[0].message)
