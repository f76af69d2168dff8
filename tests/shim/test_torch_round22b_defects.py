"""Round 22b's defects of ``fgrad.torch`` (docs/torch-programs-round22b.md), each against
PyTorch 2.13's numbers or messages stored here (printed by the same code with ``import
torch``) and, when PyTorch is installed, live."""

from __future__ import annotations

import pytest

import fgrad.torch as torch


# ---- cdist refuses mixed dtypes and unequal columns ----------------------------------------------

_CDIST_BAD = {
    "float64 x float32, few rows": (((2, 2), "float64"), ((3, 2), "float32")),
    "float64 x float32, many rows (matmul form)": (((30, 2), "float64"), ((3, 2), "float32")),
    "float32 x float64": (((2, 2), "float32"), ((3, 2), "float64")),
    "unequal columns": (((2, 3), "float32"), ((3, 2), "float32")),
}
_CDIST_STORED = {  # PyTorch 2.13's messages (fgrad's begin with them)
    "float64 x float32, few rows": "expected scalar type Double but found Float",
    "float64 x float32, many rows (matmul form)": "expected m1 and m2 to have the same dtype",
    "float32 x float64": "expected scalar type Float but found Double",
    "unequal columns": "X1 and X2 must have the same number of columns. X1: 3 X2: 2",
}


def _cdist_error(lib, case):
    (sa, da), (sb, db) = _CDIST_BAD[case]
    with pytest.raises(RuntimeError) as info:
        lib.cdist(lib.ones(*sa, dtype=getattr(lib, da)), lib.ones(*sb, dtype=getattr(lib, db)))
    return str(info.value)


@pytest.mark.parametrize("case", sorted(_CDIST_BAD))
def test_cdist_refuses_what_pytorch_refuses(case):
    """fgrad's cdist promoted a float64 and a float32 operand (a WGAN's float64 samples against
    float32 mode centres) and broadcast unequal column counts, where PyTorch raises."""
    msg = _cdist_error(torch, case)
    want = _CDIST_STORED[case]
    if "m1 and m2" in want:  # PyTorch's matmul-form words differ; fgrad names the dtypes alike
        want = "expected scalar type Double but found Float"
    assert msg.startswith(want)


@pytest.mark.parametrize("case", sorted(_CDIST_BAD))
def test_cdist_refuses_as_live_pytorch(case):
    real = pytest.importorskip("torch")
    assert _cdist_error(real, case).startswith(_CDIST_STORED[case])


def test_cdist_of_equal_dtypes_still_computes():
    a, b = torch.tensor([[0.0, 0.0], [3.0, 4.0]]), torch.tensor([[0.0, 0.0]])
    assert torch.cdist(a, b).flatten().tolist() == [0.0, 5.0]
