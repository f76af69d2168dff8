"""Issue 16 (`torch_lstm`, `torch_gru`): what one time step of the fused recurrences costs in
array-library calls.  At the benchmark's shapes (batch 16, hidden 64) a NumPy call on a step's
block costs 0.5-3 us whatever it computes, so the step loops' call counts are their speed
(docs/speed-rnn.md, round 17).  The implementations are run on a counting stand-in for NumPy;
the calls a step adds are the count's growth with the sequence length.  The budgets are the
loops as they are: one matrix product per step each way, no activation function evaluated
again in the backward (it reads the saved gates), and the forward's transcendental calls."""

from __future__ import annotations

import types

import numpy as np
import pytest

import fgrad.ops.rnn as rnn


class _Counting(types.SimpleNamespace):
    """NumPy, with every call of a function or ufunc counted by name."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: dict[str, int] = {}

    def __getattr__(self, name: str):
        f = getattr(np, name)
        if not callable(f) or isinstance(f, type):
            return f

        def counted(*args, **kwargs):
            self.calls[name] = self.calls.get(name, 0) + 1
            return f(*args, **kwargs)

        return counted


def _operands(kind: str, T: int, B: int = 3, H: int = 4) -> list:
    r = np.random.default_rng(T)
    k = 4 if kind == "lstm" else 3
    states = [r.standard_normal((B, H)) for _ in range(2 if kind == "lstm" else 1)]
    weights = [r.standard_normal((k * H, H)), r.standard_normal(k * H)]
    return [r.standard_normal((T, B, k * H))] + states + weights


def _per_step(kind: str, direction: str, reverse: bool) -> dict[str, float]:
    """The calls one more time step adds to the forward or backward implementation."""
    fwd = rnn._fwd_impl if kind == "lstm" else rnn._gru_fwd_impl
    vjp = rnn._vjp_impl if kind == "lstm" else rnn._gru_vjp_impl
    counts = []
    for T in (4, 12):
        ops = _operands(kind, T)
        res = fwd(np, *ops, reverse=reverse)
        xp = _Counting()
        if direction == "forward":
            fwd(xp, *ops, reverse=reverse)
        else:
            outs = res[:2] if kind == "lstm" else res[:1]
            saved = [res[0]] + res[2:] if kind == "lstm" else res
            cts = [np.ones_like(o) for o in outs]
            vjp(xp, *ops, *saved, *cts, reverse=reverse, has_bias=True)
        counts.append(xp.calls)
    names = set(counts[0]) | set(counts[1])
    return {n: (counts[1].get(n, 0) - counts[0].get(n, 0)) / 8 for n in names
            if counts[1].get(n, 0) != counts[0].get(n, 0)}


@pytest.fixture(params=[False, True], ids=["exp-sigmoid", "tanh-sigmoid"])
def sigmoid_form(request, monkeypatch):
    monkeypatch.setattr(rnn, "_SIGMOID_BY_TANH", request.param)
    return request.param


@pytest.mark.parametrize("reverse", [False, True])
def test_lstm_forward_step_calls(sigmoid_form, reverse):
    step = _per_step("lstm", "forward", reverse)
    assert step.pop("matmul") == 1
    if sigmoid_form:  # tanh(x / 2) / 2 + 1 / 2 on all four gates, tanh(c_t)
        assert step.pop("tanh") == 2 and "exp" not in step
        assert sum(step.values()) == 7, step
    else:  # 1 / (1 + exp(-x)) on the three sigmoid gates, tanh on the candidate and on c_t
        assert step.pop("exp") == 1 and step.pop("tanh") == 2
        assert sum(step.values()) == 7, step


@pytest.mark.parametrize("reverse", [False, True])
def test_lstm_backward_step_calls(reverse):
    step = _per_step("lstm", "backward", reverse)
    assert step.pop("matmul") == 1
    assert not {"exp", "tanh", "divide"} & set(step), step  # the saved gates, no recomputation
    assert sum(step.values()) == 6, step


@pytest.mark.parametrize("reverse", [False, True])
def test_gru_step_calls(reverse):
    fwd = _per_step("gru", "forward", reverse)
    assert fwd.pop("matmul") == 1 and fwd.pop("exp") == 1 and fwd.pop("tanh") == 1
    assert sum(fwd.values()) == 9, fwd
    bwd = _per_step("gru", "backward", reverse)
    assert bwd.pop("matmul") == 1
    assert not {"exp", "tanh", "divide"} & set(bwd), bwd
    assert sum(bwd.values()) == 7, bwd
