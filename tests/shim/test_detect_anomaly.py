"""`torch.autograd.detect_anomaly` / `set_detect_anomaly`: PyTorch's RuntimeError for a node
whose backward returns NaN, with fgrad's provenance (the forward line, whether the NaN came in
with the gradient); the PyTorch messages are stored and compared live when torch is here."""

from __future__ import annotations

import os
import re

import numpy as np
import pytest

import fgrad.torch as torch

HERE = os.path.abspath(__file__)

# PyTorch 2.13's first lines for the cases below (checked live in test_matches_pytorch)
STORED = {
    "sqrt": "Function 'SqrtBackward0' returned nan values in its 0th output.",
    "incoming": "Function 'MulBackward0' returned nan values in its 0th output.",
    "custom": "Function 'BadBackwardBackward' returned nan values in its 0th output.",
}


def line_of(marker: str) -> int:
    with open(HERE) as fh:
        for i, text in enumerate(fh, 1):
            if text.rstrip().endswith(f"# {marker}"):
                return i
    raise AssertionError(marker)


@pytest.fixture(autouse=True)
def anomaly_off_after():
    yield
    torch.autograd.set_detect_anomaly(False)


def run_sqrt(tm):
    x = tm.tensor([0.0, 1.0], requires_grad=True)
    y = tm.sqrt(x)  # FORWARD_SQRT
    (y * 0.0).sum().backward()
    return x


def run_incoming(tm):
    x = tm.tensor([0.0, 1.0], requires_grad=True)
    y = x * 2.0  # FORWARD_MUL
    y.backward(tm.tensor([float("nan"), 1.0]))
    return x


def make_bad_backward(tm):
    class BadBackward(tm.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 1.0

        @staticmethod
        def backward(ctx, g):
            return g * float("nan")

    return BadBackward


def run_custom(tm):
    x = tm.tensor([1.0, 2.0], requires_grad=True)
    make_bad_backward(tm).apply(x).sum().backward()  # FORWARD_CUSTOM
    return x


CASES = {"sqrt": run_sqrt, "incoming": run_incoming, "custom": run_custom}


@pytest.mark.parametrize("case", CASES)
def test_message_first_line_is_pytorchs(case):
    with torch.autograd.detect_anomaly(), pytest.raises(RuntimeError) as info:
        CASES[case](torch)
    assert str(info.value).splitlines()[0] == STORED[case]


@pytest.mark.parametrize("case", CASES)
def test_matches_pytorch(case):
    real = pytest.importorskip("torch")
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns that anomaly mode slows things down
        with real.autograd.detect_anomaly(), pytest.raises(RuntimeError) as info:
            CASES[case](real)
    assert str(info.value).splitlines()[0] == STORED[case]


def test_provenance_names_the_forward_line_and_the_producer():
    with torch.autograd.detect_anomaly(), pytest.raises(RuntimeError) as info:
        run_sqrt(torch)
    msg = str(info.value)
    assert "produced in the backward pass of SqrtBackward0" in msg
    assert re.search(re.escape(f"the forward operation's line: {HERE}:{line_of('FORWARD_SQRT')}"),
                     msg)
    assert "y = tm.sqrt(x)" in msg


def test_nan_that_came_in_with_the_gradient_is_not_blamed_on_the_node():
    with torch.autograd.set_detect_anomaly(True), pytest.raises(RuntimeError) as info:
        run_incoming(torch)
    msg = str(info.value)
    assert "already had nan values" in msg and "produced in the backward pass" not in msg
    assert f"{HERE}:{line_of('FORWARD_MUL')}" in msg


def test_custom_function_line():
    with torch.autograd.detect_anomaly(), pytest.raises(RuntimeError) as info:
        run_custom(torch)
    assert f"{HERE}:{line_of('FORWARD_CUSTOM')}" in str(info.value)


def test_off_or_check_nan_false_gives_the_nan_gradient():
    x = run_sqrt(torch)
    assert np.isnan(x.grad.numpy()[0])
    with torch.autograd.detect_anomaly(check_nan=False):
        assert torch.is_anomaly_enabled() and not torch.is_anomaly_check_nan_enabled()
        x = run_sqrt(torch)
    assert np.isnan(x.grad.numpy()[0])
    assert not torch.is_anomaly_enabled() and torch.is_anomaly_check_nan_enabled()


def test_forward_traceback_is_recorded_only_in_anomaly_mode():
    x = torch.tensor([1.0], requires_grad=True)
    assert "traceback_" not in (x * 2).grad_fn.metadata
    torch.autograd.set_detect_anomaly(True)
    y = x * 2  # TRACEBACK
    stack = y.grad_fn.metadata["traceback_"]
    assert f'line {line_of("TRACEBACK")}' in stack[-1] and "fgrad/torch" not in stack[-1]


def test_decorator_and_context_manager_restore():
    @torch.autograd.detect_anomaly()
    def inside():
        return torch.is_anomaly_enabled()

    assert inside() and not torch.is_anomaly_enabled()
    with torch.autograd.set_detect_anomaly(True):
        assert torch.is_anomaly_enabled()
    assert not torch.is_anomaly_enabled()
