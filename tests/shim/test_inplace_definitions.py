"""In-place ops whose values come from their fgrad definitions (issue 11 follow-up):
``fill_``, ``zero_``, ``masked_fill_``, ``pow_``, ``copy_``, advanced ``__setitem__`` and
``index_put_(accumulate=True)``.  With autograd involved their written values are the
definition run through its cached program (no separate NumPy computation), the functional
mode and the device run the same definition, and without autograd the direct writes give
the same numbers.  ``fill_``/``zero_``/``masked_fill_`` were defined as ``x * 0 + value``:
NaN where ``x`` was inf or NaN (functional mode, the device).

Expected numbers: PyTorch 2.13 (stored; live when torch is installed), float64, the
gradient of ``(y * [1..6]).sum()``."""

from __future__ import annotations

import numpy as np
import pytest

import fgrad.torch as ft

INF, NAN = float("inf"), float("nan")
X = [INF, -1.5, NAN, 2.0, -INF, 0.5]
MASK = [True, False, True, False, True, False]
STORED = {
    "fill_": ([2.0] * 6, [0.0] * 6),
    "fill_t": ([3.0] * 6, [0.0] * 6),
    "zero_": ([0.0] * 6, [0.0] * 6),
    "masked_fill_": ([2.0, -1.5, 2.0, 2.0, 2.0, 0.5], [0.0, 2.0, 0.0, 4.0, 0.0, 6.0]),
    "pow_": ([INF, 2.25, NAN, 4.0, INF, 0.25], [INF, -6.0, NAN, 16.0, -INF, 6.0]),
    "copy_": ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], [0.0] * 6),
    "setitem_idx": ([7.0, -1.5, 8.0, 2.0, -INF, 0.5], [0.0, 2.0, 0.0, 4.0, 5.0, 6.0]),
    "index_put_acc": ([INF, 1.5, NAN, 5.0, -INF, 0.5], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]),
}


def _ops(torch):
    m = torch.tensor(MASK)

    def setitem(y):
        y[torch.tensor([0, 2])] = torch.tensor([7.0, 8.0], dtype=torch.float64)
        return y

    return {
        "fill_": lambda y: y.fill_(2.0),
        "fill_t": lambda y: y.fill_(torch.tensor(3.0, dtype=torch.float64)),
        "zero_": lambda y: y.zero_(),
        "masked_fill_": lambda y: y.masked_fill_(m, 2.0),
        "pow_": lambda y: y.pow_(2),
        "copy_": lambda y: y.copy_(torch.tensor([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], dtype=torch.float32)),
        "setitem_idx": setitem,
        "index_put_acc": lambda y: y.index_put_(
            (torch.tensor([1, 1, 3]),), torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64), accumulate=True),
    }


def _numbers(torch, name):
    a = torch.tensor(X, dtype=torch.float64, requires_grad=True)
    y = _ops(torch)[name](a * 1.0)
    (g,) = torch.autograd.grad((y * torch.arange(1.0, 7.0, dtype=torch.float64)).sum(), a)
    return y.detach().numpy(), g.numpy()


def _same(got, want):
    np.testing.assert_array_equal(np.asarray(got, np.float64), np.asarray(want, np.float64))


@pytest.mark.parametrize("name", list(STORED))
def test_inplace_values_and_gradients(name):
    y, g = _numbers(ft, name)
    _same(y, STORED[name][0])
    _same(g, STORED[name][1])


@pytest.mark.parametrize("name", list(STORED))
def test_inplace_without_autograd_and_in_functional_mode(name):
    """The direct write (no autograd) and the definition on fgrad values (``func.vmap``)
    give the same numbers as the recorded path."""
    with ft.no_grad():
        y = _ops(ft)[name](ft.tensor(X, dtype=ft.float64))
    _same(y.numpy(), STORED[name][0])
    batched = ft.func.vmap(lambda r: _ops(ft)[name](r.clone()))(ft.tensor([X, X], dtype=ft.float64))
    _same(batched.numpy(), [STORED[name][0]] * 2)


@pytest.mark.parametrize("name", list(STORED))
def test_inplace_version_counter_and_views(name):
    """A write bumps the shared version counter once and is seen through a view of the
    written tensor."""
    base = ft.tensor(X, dtype=ft.float64)
    view = base[:]
    v0 = base._version
    _ops(ft)[name](base)
    assert base._version == v0 + 1
    _same(view.numpy(), STORED[name][0])


def test_inplace_numbers_match_live_torch():
    torch = pytest.importorskip("torch")
    for name, (vals, grads) in STORED.items():
        y, g = _numbers(torch, name)
        _same(y, vals)
        _same(g, grads)
