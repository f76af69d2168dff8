"""``F.gelu`` (erf form) computes its derivative beside its value only where one may be
asked (autograd recording, a forward-AD level, traced input); under ``no_grad``, in
evaluation or on an input that does not require grad it runs a value-only program.  Both
give the same bits."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.nn.functional as F
from fgrad.torch import _dispatch


def _x(dtype):
    x = (3 * np.random.default_rng(26).standard_normal(5000)).astype(np.float32)
    x[:4] = [0.0, -0.0, 40.0, -40.0]
    return torch.tensor(x).to(dtype)


def _value_only_programs():
    return [k for k in _dispatch._FORWARDS._d if k[0][:1] == ("gelu",) and "value" in k[0]]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.bfloat16, torch.float16])
def test_no_grad_value_has_the_bits_of_the_recorded_one(dtype):
    x = _x(dtype).requires_grad_()
    recorded = F.gelu(x)
    assert recorded.grad_fn is not None
    with torch.no_grad():
        plain = F.gelu(x)
    assert plain.grad_fn is None and plain.dtype == dtype
    np.testing.assert_array_equal(plain.float().numpy().view(np.uint32),
                                  recorded.detach().float().numpy().view(np.uint32))
    np.testing.assert_array_equal(F.gelu(x.detach()).float().numpy(), plain.float().numpy())
    assert _value_only_programs()


def test_recorded_gelu_still_differentiates():
    x = _x(torch.float64).requires_grad_()
    F.gelu(x).sum().backward()
    v = x.detach().numpy()
    cdf = 0.5 * (1 + np.vectorize(math.erf)(v / np.sqrt(2)))
    want = cdf + v * np.exp(-v * v / 2) / np.sqrt(2 * np.pi)
    np.testing.assert_allclose(x.grad.numpy(), want, rtol=1e-12, atol=1e-300)


def test_forward_ad_gets_the_derivative():
    import fgrad.torch.autograd.forward_ad as fwAD

    x = torch.tensor([-1.0, 0.5, 2.0], dtype=torch.float64)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(3, dtype=torch.float64))
        tangent = fwAD.unpack_dual(F.gelu(d)).tangent
    v = x.numpy()
    cdf = 0.5 * (1 + np.vectorize(math.erf)(v / np.sqrt(2)))
    np.testing.assert_allclose(tangent.numpy(), cdf + v * np.exp(-v * v / 2) / np.sqrt(2 * np.pi),
                               rtol=1e-12)
