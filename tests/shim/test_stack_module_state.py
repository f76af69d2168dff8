"""`torch.func.stack_module_state`: model ensembling as PyTorch's tutorial does it (stacked
parameters, `vmap` over `functional_call`), against a loop over the models and live PyTorch."""

from __future__ import annotations

import copy

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch.func import functional_call, stack_module_state, vmap


def _models(t, n=3):
    t.manual_seed(0)
    return [t.nn.Sequential(t.nn.Linear(4, 8), t.nn.BatchNorm1d(8), t.nn.ReLU(), t.nn.Linear(8, 2)).eval()
            for _ in range(n)]


def _ensemble(t, func):
    models = _models(t)
    params, buffers = func.stack_module_state(models)
    base = copy.deepcopy(models[0])
    x = t.arange(20, dtype=t.float32).reshape(5, 4) / 10

    def fmodel(p, b, x):
        return func.functional_call(base, (p, b), (x,))

    out = func.vmap(fmodel, in_dims=(0, 0, None))(params, buffers, x)
    loop = t.stack([m(x) for m in models])
    return params, buffers, out, loop


def test_stacked_ensemble_equals_the_loop():
    import fgrad.torch.func as func

    params, buffers, out, loop = _ensemble(torch, func)
    assert params["0.weight"].shape == (3, 8, 4) and params["0.weight"].requires_grad
    assert params["0.weight"].is_leaf and not buffers["1.running_mean"].requires_grad
    assert buffers["1.num_batches_tracked"].shape == (3,)
    np.testing.assert_allclose(out.detach().numpy(), loop.detach().numpy(), rtol=1e-6, atol=1e-7)


def test_errors_match_pytorch():
    with pytest.raises(RuntimeError, match="Expected at least one model, got 0"):
        stack_module_state([])
    a, b = torch.nn.Linear(2, 2), torch.nn.Linear(2, 2).eval()
    with pytest.raises(RuntimeError, match="same training/eval mode"):
        stack_module_state([a, b])
    assert functional_call is not None and vmap is not None


def test_live_against_pytorch():
    real = pytest.importorskip("torch")
    import torch.func as real_func

    import fgrad.torch.func as func

    _, _, ours, _ = _ensemble(torch, func)
    _, _, theirs, _ = _ensemble(real, real_func)
    np.testing.assert_allclose(ours.detach().numpy(), theirs.detach().numpy(), rtol=1e-5, atol=1e-6)
