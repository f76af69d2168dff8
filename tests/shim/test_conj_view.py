"""The conjugate bit (`fgrad.torch._complex_views`): ``Tensor.conj()`` of a complex tensor
is a conjugate view (``is_conj()``), writes through it reach its base and the base's writes
show in it, its views carry the bit, ``resolve_conj`` copies; values and gradients as
PyTorch's.  The scenario's printed lines are PyTorch 2.13's (stored), and are compared with
live PyTorch when it is installed."""

from __future__ import annotations

import io

import pytest

import fgrad.torch as ft


def scenario(torch):
    out = []

    def P(*a):
        out.append(" ".join(str(v) for v in a))

    def E(f):
        try:
            return f()
        except Exception as e:  # noqa: BLE001 - the error's type and message are the result
            return f"{type(e).__name__}: {str(e)[:60]}"

    x = torch.tensor([1 + 2j, 3 - 1j])
    y = x.conj()
    P(y, y.is_conj(), torch.is_conj(y), y.clone().is_conj(), (y + 0).is_conj(), y.resolve_conj().is_conj(),
      y.conj().is_conj())
    P(y.detach().is_conj(), y[0].is_conj(), y.view(2).is_conj(), y.reshape(2).is_conj(),
      y.expand(2).is_conj(), y.contiguous().is_conj())
    y[0] = 5 + 5j  # writes through the view reach the base, conjugated
    P(x, y)
    x.mul_(2)  # and the base's writes show in the view
    P(y, y._version == x._version)
    y.conj_physical_()
    P(x, y, y.is_conj())
    y[1:].add_(1j)
    P(x, y)
    y.zero_()
    P(x)
    x.fill_(1 + 1j)
    P(y)
    y.copy_(torch.tensor([2 + 3j, -1j]))
    P(x, y)
    x[0].mul_(2)
    P(y)
    r = torch.ones(2)
    P(r.conj() is r, r.conj().is_conj(), r.resolve_conj() is r, r.conj_physical().is_conj())
    P(E(lambda: y.numpy()), E(lambda: torch.view_as_real(y)))
    P(y.tolist(), y[0].item(), torch.allclose(y, y.resolve_conj()), (y @ y).item())
    P(y.abs(), y.real, y.imag, y.angle())
    torch.testing.assert_close(y, y.resolve_conj())
    P(torch.conj_physical(y).is_conj(), y.conj_physical().is_conj(), x.conj().conj().is_conj())
    # gradients
    leaf = torch.tensor([1 + 2j, -0.5 + 1j], requires_grad=True)
    w = torch.tensor([0.5 - 1j, 2 + 1j])
    (leaf.conj() * w).abs().sum().backward()
    P(leaf.grad)
    leaf.grad = None
    lc = leaf.conj()
    (lc.real * 2 + lc.imag ** 2).sum().backward()
    P(leaf.grad)
    P(E(lambda: leaf.conj().mul_(2)))
    P(type((leaf * 1).conj().grad_fn).__name__)
    b = io.BytesIO()
    torch.save(torch.tensor([1 + 1j]).conj(), b)
    b.seek(0)
    P(torch.load(b))
    return out


TORCH = [  # torch 2.13 (CPU)
    'tensor([1.-2.j, 3.+1.j]) True True False False False False',
    'True True True True True True',
    'tensor([5.-5.j, 3.-1.j]) tensor([5.+5.j, 3.+1.j])',
    'tensor([10.+10.j,  6.+2.j]) True',
    'tensor([10.+10.j,  6.+2.j]) tensor([10.-10.j,  6.-2.j]) True',
    'tensor([10.+10.j,  6.+1.j]) tensor([10.-10.j,  6.-1.j])',
    'tensor([0.-0.j, 0.-0.j])',
    'tensor([1.-1.j, 1.-1.j])',
    'tensor([2.-3.j, -0.+1.j]) tensor([2.+3.j, -0.-1.j])',
    'tensor([4.+6.j, -0.-1.j])',
    'True False True False',
    (
        "RuntimeError: Can't call numpy() on Tensor that has conjugate bit set. Use RuntimeError: "
        "view_as_real doesn't work on unresolved conjugated tensors. "
    ),
    '[(4+6j), (-0-1j)] (4+6j) True (-21+48j)',
    'tensor([7.2111, 1.0000]) tensor([4., -0.]) tensor([ 6., -1.]) tensor([ 0.9828, -1.5708])',
    'False False False',
    'tensor([ 0.5000+1.j, -1.0000+2.j])',
    'tensor([2.+4.j, 2.+2.j])',
    'RuntimeError: a view of a leaf Variable that requires grad is being used i',
    'ConjBackward0',
    'tensor([1.-1.j])',
]


def test_matches_stored_torch():
    assert scenario(ft) == TORCH


def test_live_torch():
    torch = pytest.importorskip("torch")
    assert scenario(torch) == TORCH


def test_base_written_after_view_with_grad_raises_not_stale():
    """fgrad does not regenerate a conjugate view's history when its base is written in
    place (PyTorch does): the backward pass raises instead of using the old history."""
    leaf = ft.tensor([1 + 2j], requires_grad=True)
    n = leaf * 1
    y = n.conj()
    n.mul_(2)
    assert y.tolist() == [(2 - 4j)]
    with pytest.raises(RuntimeError, match="conjugate view"):
        y.abs().sum().backward()


def test_dead_views_are_dropped():
    x = ft.tensor([1 + 1j])
    for _ in range(3):
        x.conj()
    x.add_(1)
    assert len(x._get_vc()._w) == 0
    y = x.conj()
    x.add_(1j)
    assert y.tolist() == [(2 - 2j)] and len(x._get_vc()._w) == 1
