"""In-place ``scatter_``/``scatter_add_`` on the host with no gradient to record are computed
in the tensor's own buffer (`_dispatch.write_in_place`) instead of into a copy that is then
copied back: the same values as PyTorch's (live), the version counter bumped, views written
through, and every case that needs the general path (gradients, aliasing, other dtypes)
still taking it."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ftorch
from fgrad.torch import _dispatch

torch = pytest.importorskip("torch")
RNG = np.random.default_rng(13)


def _both(a):
    return ftorch.from_numpy(a.copy()), torch.from_numpy(a.copy())


def _direct_calls(monkeypatch):
    """Counts the direct writes that happen."""
    calls = []
    real = _dispatch.write_in_place

    def spy(self, args, write):
        done = real(self, args, write)
        calls.append(done)
        return done

    import fgrad.torch._ops_shape as ops_shape
    monkeypatch.setattr(ops_shape, "write_in_place", spy)
    return calls


@pytest.mark.parametrize("dim", [0, 1, -1])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int64])
def test_scatter_add_in_place_matches_pytorch_with_repeated_indices(monkeypatch, dim, dtype):
    calls = _direct_calls(monkeypatch)
    z = (RNG.standard_normal((40, 30)) * 10).astype(dtype)
    j = RNG.integers(0, z.shape[dim], (40, 30) if dim == 0 else (40, 8))  # many repeats
    if dim == 0:
        j = j[:12]
    s = (RNG.standard_normal((40, 30)) * 10).astype(dtype)  # larger than the index: its corner
    fz, tz = _both(z)
    fs, ts = _both(s)
    v0 = fz._version
    r = fz.scatter_add_(dim, ftorch.from_numpy(j), fs)
    tz.scatter_add_(dim, torch.from_numpy(j), ts)
    assert r is fz and fz._version == v0 + 1
    np.testing.assert_array_equal(fz.numpy(), tz.numpy())
    assert calls == [True]


def test_scatter_in_place_with_a_value_and_through_a_view(monkeypatch):
    calls = _direct_calls(monkeypatch)
    base = RNG.standard_normal((6, 10)).astype(np.float32)
    fb, tb = _both(base)
    j = RNG.integers(0, 5, (6, 3))
    fb[:, ::2].scatter_(1, ftorch.from_numpy(j), 2.5)  # a strided view of the base
    tb[:, ::2].scatter_(1, torch.from_numpy(j), 2.5)
    np.testing.assert_array_equal(fb.numpy(), tb.numpy())
    s = RNG.standard_normal((6, 3)).astype(np.float32)
    fb.scatter_(1, ftorch.from_numpy(j), ftorch.from_numpy(s))
    tb.scatter_(1, torch.from_numpy(j), torch.from_numpy(s))
    np.testing.assert_array_equal(fb.numpy(), tb.numpy())
    assert calls == [True, True]


def test_gradients_and_aliasing_take_the_general_path(monkeypatch):
    calls = _direct_calls(monkeypatch)
    z = RNG.standard_normal((5, 4)).astype(np.float32)
    j = RNG.integers(0, 4, (5, 2))
    s = RNG.standard_normal((5, 2)).astype(np.float32)
    # the source tracks a gradient: recorded, and its gradient is PyTorch's
    outs = []
    for lib in (ftorch, torch):
        zz = lib.from_numpy(z.copy())
        ss = lib.from_numpy(s.copy()).requires_grad_()
        (zz.scatter_add_(1, lib.from_numpy(j), ss) ** 2).sum().backward()
        outs.append((zz.detach().numpy(), ss.grad.numpy()))
    for a, b in zip(*outs):
        np.testing.assert_allclose(a, b, rtol=1e-6)
    # the source shares memory with the destination: the general path's check, as before
    fz = ftorch.from_numpy(z.copy())
    with pytest.raises(RuntimeError):
        fz.scatter_add_(1, ftorch.from_numpy(j), fz[:, :2])
    # another dtype: PyTorch's error (no conversion), before any write
    fz = ftorch.from_numpy(z.copy())
    with pytest.raises(RuntimeError, match=r"scatter\(\): Expected self.dtype to be equal to src.dtype"):
        fz.scatter_add_(1, ftorch.from_numpy(j), ftorch.from_numpy(s.astype(np.float64)))
    np.testing.assert_array_equal(fz.numpy(), z)
    assert calls == [False, False]  # the gradient case and the aliased one


def test_out_of_bounds_index_still_raises_and_leaves_the_tensor():
    z = np.zeros((3, 4), np.float32)
    fz = ftorch.from_numpy(z.copy())
    with pytest.raises(RuntimeError, match="out of bounds"):
        fz.scatter_add_(1, ftorch.tensor([[0, 4]]), ftorch.ones(1, 2))
    np.testing.assert_array_equal(fz.numpy(), z)


@pytest.mark.parametrize("dim", [0, 1])
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32])
def test_index_add_in_place_equals_the_functional_op_and_pytorch(monkeypatch, dim, dtype):
    """In place (in the buffer) and functional (`index_add`, its copy) add the same sums in
    the same order, many repeats included; negative indices raise PyTorch's error."""
    calls = _direct_calls(monkeypatch)
    z = (RNG.standard_normal((50, 40)) * 100).astype(dtype)
    i = RNG.integers(0, z.shape[dim], 300)
    x = (RNG.standard_normal((300, 40) if dim == 0 else (50, 300)) * 100).astype(dtype)
    fz, tz = _both(z)
    want = ftorch.index_add(fz, dim, ftorch.from_numpy(i), ftorch.from_numpy(x)).numpy()
    assert fz.index_add_(dim, ftorch.from_numpy(i), ftorch.from_numpy(x)) is fz
    np.testing.assert_array_equal(fz.numpy().view(np.uint8), want.view(np.uint8))
    fz = ftorch.from_numpy(z.copy())
    fz.index_add_(dim, ftorch.from_numpy(i), ftorch.from_numpy(x))
    tz.index_add_(dim, torch.from_numpy(i), torch.from_numpy(x))
    if dtype == np.int32:
        np.testing.assert_array_equal(fz.numpy(), tz.numpy())
    else:
        np.testing.assert_allclose(fz.numpy(), tz.numpy(), rtol=1e-5, atol=1e-3)
    assert calls == [True, True]
    two = x[:2] if dim == 0 else x[:, :2]
    for bad in (z.shape[dim], -1):  # PyTorch (2.13, CPU) takes no negative index here
        with pytest.raises(RuntimeError, match=f"index {bad} is out of bounds for dimension {dim}"):
            fz.index_add_(dim, ftorch.tensor([0, bad]), ftorch.from_numpy(two))
