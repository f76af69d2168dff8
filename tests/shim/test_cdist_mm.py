"""``cdist`` with p=2 for more than 25 points takes PyTorch's matrix-product form: values and
gradients ``(x1_i - x2_j) / d_ij`` (0 at d = 0) against a direct NumPy reference and live
PyTorch, batch broadcasting, and ``compute_mode``."""

import numpy as np
import pytest

import fgrad
import fgrad.torch as torch
from fgrad.torch._conventions import euclidean_dist_mm


def _reference(a, b, w):
    diff = a[..., :, None, :] - b[..., None, :, :]
    d = np.sqrt((diff ** 2).sum(-1))
    ratio = np.divide(w, d, out=np.zeros_like(d), where=d != 0)
    ga = (ratio[..., None] * diff).sum(-2)
    gb = -(ratio[..., None] * diff).sum(-3)
    return d, ga, gb


@pytest.mark.parametrize("mode", [None, "use_mm_for_euclid_dist", "donot_use_mm_for_euclid_dist"])
@pytest.mark.parametrize("shapes", [((30, 5), (40, 5)), ((2, 30, 3), (27, 3)), ((5, 4), (6, 4))])
def test_values_and_gradients(shapes, mode):
    rng = np.random.default_rng(0)
    a = rng.standard_normal(shapes[0])
    b = rng.standard_normal(shapes[1])
    b[..., 0, :] = a.reshape(-1, a.shape[-1])[0]  # a zero distance
    A = torch.tensor(a, requires_grad=True)
    B = torch.tensor(b, requires_grad=True)
    out = torch.cdist(A, B, compute_mode=mode)
    w = rng.standard_normal(tuple(out.shape))
    (out * torch.tensor(w)).sum().backward()
    d, ga, gb = _reference(np.broadcast_to(a, out.shape[:-2] + a.shape[-2:]), b, w)
    np.testing.assert_allclose(np.asarray(out.detach()), d, rtol=1e-7, atol=1e-7)
    np.testing.assert_allclose(np.asarray(A.grad), ga.reshape(a.shape) if ga.shape == a.shape else ga.sum(0),
                               rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(np.asarray(B.grad), gb.reshape(b.shape) if gb.shape == b.shape
                               else gb.sum(tuple(range(gb.ndim - b.ndim))), rtol=1e-6, atol=1e-7)


def test_mm_form_derivatives_by_finite_differences():
    rng = np.random.default_rng(1)
    a, b = rng.standard_normal((4, 3)), rng.standard_normal((5, 3))
    fgrad.test_util.check_grads(lambda x, y: euclidean_dist_mm(x, y), (a, b), order=2, modes=["fwd", "rev"])


def test_bad_compute_mode():
    with pytest.raises(ValueError, match="compute_mode"):
        torch.cdist(torch.ones(2, 3), torch.ones(2, 3), compute_mode="fast")


def test_matches_torch_live():
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(2)
    a = rng.standard_normal((40, 8)).astype(np.float32)
    b = rng.standard_normal((30, 8)).astype(np.float32)
    outs = []
    for lib in (real, torch):
        A, B = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
        out = lib.cdist(A, B)
        out.sum().backward()
        vals = (out, A.grad, B.grad)
        outs.append([np.asarray(v.detach()) if lib is torch else v.detach().numpy() for v in vals])
    for want, got in zip(*outs):
        np.testing.assert_allclose(got, want, rtol=2e-5, atol=2e-5)
