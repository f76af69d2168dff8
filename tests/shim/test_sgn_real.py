"""``torch.sgn`` of a real tensor records PyTorch's ``SgnBackward0`` (it recorded
``SignBackward0``, the node of ``torch.sign``), with sign's values and a zero gradient."""

from __future__ import annotations

import fgrad.torch as ft


def test_sgn_of_real_records_sgnbackward0():
    x = ft.tensor([1.5, -2.0, 0.0], requires_grad=True)
    y = ft.sgn(x)
    assert type(y.grad_fn).__name__ == "SgnBackward0"
    assert type(ft.sign(x).grad_fn).__name__ == "SignBackward0"
    assert y.tolist() == [1.0, -1.0, 0.0]
    y.sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0]


def test_sgn_of_integers_and_bools_keeps_dtype():
    assert ft.sgn(ft.tensor([3, -2, 0])).tolist() == [1, -1, 0]
    assert ft.sgn(ft.tensor([True, False])).dtype == ft.bool
    assert ft.sgn(ft.tensor([1.0, -1.0], dtype=ft.bfloat16)).dtype == ft.bfloat16
