"""torch.testing (assert_close's checks, tolerances and exact messages; make_tensor's draws),
torch.random (fork_rng), torch.jit (the eager stand-ins), and the process-wide switches
(set_float32_matmul_precision, deterministic flags, threads, torch.version): PyTorch's
behaviour, stored and live."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as ft

CASES = [  # (actual, expected, PyTorch 2.13's message or None when they are close)
    (
        lambda t: t.tensor([1.0, 2.0, 3.0]),
        lambda t: t.tensor([1.0, 2.1, 3.0]),
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 3 (33.3%)\nGreatest absolute difference: "
        "0.09999990463256836 at index (1,) (up to 1e-05 allowed)\nGreatest relative difference: "
        "0.04761900380253792 "
        "at index (1,) (up to 1.3e-06 allowed)",
    ),
    (
        lambda t: 1.0,
        lambda t: 1.1,
        "Scalars are not close!\n\nExpected 1.1 but got 1.0.\nAbsolute difference: "
        "0.10000000000000009 (up to 1e-07 "
        "allowed)\nRelative difference: 0.09090909090909098 (up to 1e-07 allowed)",
    ),
    (
        lambda t: t.tensor([1, 2, 3]),
        lambda t: t.tensor([1, 3, 3]),
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 3 (33.3%)\nGreatest absolute "
        "difference: 1 at index "
        "(1,)\nGreatest relative difference: 0.3333333432674408 at index (1,)",
    ),
    (
        lambda t: t.tensor([1.0, 2.0]),
        lambda t: t.tensor([1.0, 2.0, 3.0]),
        "The values for attribute 'shape' do not match: torch.Size([2]) != torch.Size([3]).",
    ),
    (
        lambda t: t.tensor([1.0]),
        lambda t: t.tensor([1.0], dtype=t.float64),
        "The values for attribute 'dtype' do not match: torch.float32 != torch.float64.",
    ),
    (
        lambda t: [t.tensor(1.0), t.tensor(2.0)],
        lambda t: [t.tensor(1.0), t.tensor(2.5)],
        "Scalars are not close!\n\nExpected 2.5 but got 2.0.\nAbsolute difference: 0.5 (up to 1e-05 "
        "allowed)\n"
        "Relative difference: 0.2 (up to 1.3e-06 allowed)\n\nThe failure occurred for item [1]",
    ),
    (
        lambda t: {"a": t.tensor(1.0)},
        lambda t: {"a": t.tensor(1.5)},
        "Scalars are not close!\n\nExpected 1.5 but got 1.0.\nAbsolute difference: 0.5 (up to 1e-05 "
        "allowed)\n"
        "Relative difference: 0.3333333333333333 (up to 1.3e-06 allowed)\n\nThe failure occurred for "
        "item ['a']",
    ),
    (
        lambda t: t.tensor([float("nan")]),
        lambda t: t.tensor([float("nan")]),
        "Tensor-likes are not close!\n\nMismatched elements: 1 / 1 (100.0%)\nGreatest absolute "
        "difference: nan at "
        "index (0,) (up to 1e-05 allowed)\nGreatest relative difference: nan at index (0,) (up to "
        "1.3e-06 allowed)",
    ),
    (
        lambda t: t.tensor([True, False]),
        lambda t: t.tensor([True, True]),
        "Tensor-likes are not equal!\n\nMismatched elements: 1 / 2 (50.0%)\nGreatest absolute "
        "difference: 1 at index "
        "(1,)\nGreatest relative difference: 1.0 at index (1,)",
    ),
    (lambda t: t.tensor([1.0, 2.0]), lambda t: t.tensor([1.0, 2.0 + 1e-6]), None),
    (lambda t: (t.tensor([1.0]), np.array([2.0])), lambda t: (t.tensor([1.0]), np.array([2.0])), None),
]


@pytest.mark.parametrize("i", range(len(CASES)))
def test_assert_close_messages_as_pytorch(i):
    actual, expected, message = CASES[i]
    if message is None:
        ft.testing.assert_close(actual(ft), expected(ft))
        return
    with pytest.raises(AssertionError) as info:
        ft.testing.assert_close(actual(ft), expected(ft))
    assert str(info.value) == message


def test_assert_close_live_and_arguments():
    torch = pytest.importorskip("torch")
    for actual, expected, _ in CASES:
        got = want = "OK"
        try:
            torch.testing.assert_close(actual(torch), expected(torch))
        except AssertionError as e:
            want = str(e)
        try:
            ft.testing.assert_close(actual(ft), expected(ft))
        except AssertionError as e:
            got = str(e)
        assert got == want
    with pytest.raises(
        ValueError, match="Both 'rtol' and 'atol' must be either specified or omitted, but got no atol"
    ):
        ft.testing.assert_close(ft.ones(1), ft.ones(1), rtol=1e-3)
    with pytest.raises(
        TypeError, match="No comparison pair was able to handle inputs of type <class 'torch.Tensor'>"
    ):
        ft.testing.assert_close(ft.tensor(1.0), 1.0)
    ft.testing.assert_close(ft.tensor([1.0, 1.1]), ft.tensor([1.0, 1.0]), rtol=0.2, atol=0.0)
    ft.testing.assert_close(ft.tensor([math.nan]), ft.tensor([math.nan]), equal_nan=True)
    ft.testing.assert_close(ft.tensor([1.0]), ft.tensor([1.0], dtype=ft.float64), check_dtype=False)
    with pytest.raises(AssertionError, match="^custom$"):
        ft.testing.assert_close(1, 2, msg="custom")
    with pytest.raises(AssertionError, match="^wrapped: Scalars are not equal"):
        ft.testing.assert_close(1, 2, msg=lambda m: "wrapped: " + m)


def test_make_tensor_draws_pytorchs_values():
    ft.manual_seed(0)
    a = ft.testing.make_tensor(2, 3, dtype=ft.float32, device="cpu")
    b = ft.testing.make_tensor((4,), dtype=ft.int64, device="cpu", low=-3, high=3)
    d = ft.testing.make_tensor(2, 2, dtype=ft.float64, device="cpu", noncontiguous=True, exclude_zero=True)
    # PyTorch 2.13 under manual_seed(0)
    np.testing.assert_allclose(a.numpy()[0], [-0.06738138, 4.8279924, -7.4074063], rtol=1e-6)
    assert b.tolist() == [-2, -2, -2, 0]
    assert not d.is_contiguous() and d.shape == (2, 2)
    with pytest.raises(ValueError, match="`requires_grad=True` is not supported for boolean and integral"):
        ft.testing.make_tensor(2, dtype=ft.int32, device="cpu", requires_grad=True)
    torch = pytest.importorskip("torch")
    for dtype in ("float32", "float64", "int32", "uint8", "bool", "complex64"):
        torch.manual_seed(4)
        ft.manual_seed(4)
        want = torch.testing.make_tensor(3, 2, dtype=getattr(torch, dtype), device="cpu")
        got = ft.testing.make_tensor(3, 2, dtype=getattr(ft, dtype), device="cpu")
        np.testing.assert_array_equal(got.numpy(), want.numpy())


def test_fork_rng_restores_the_stream():
    ft.manual_seed(7)
    with ft.random.fork_rng():
        ft.rand(5)
    after = ft.rand(2)
    ft.manual_seed(7)
    np.testing.assert_array_equal(after.numpy(), ft.rand(2).numpy())
    assert ft.random.initial_seed() == 7


def test_jit_stand_ins():
    m = ft.nn.Linear(2, 1)
    assert ft.jit.script(m) is m and ft.jit.trace(m, ft.zeros(1, 2)) is m
    assert not ft.jit.is_scripting() and not ft.jit.is_tracing()

    @ft.jit.ignore
    def helper(x):
        return x + 1

    @ft.jit.ignore(drop=True)
    def dropped(x):
        return x

    assert helper(1) == 2 and dropped(3) == 3
    assert ft.jit.wait(ft.jit.fork(lambda a, b: a * b, 2, b=5)) == 10
    with pytest.raises(RuntimeError):  # trace runs the function on the example inputs
        ft.jit.trace(lambda x: x.view(3), ft.zeros(2))
    with pytest.raises(NotImplementedError, match="save the weights with"):
        ft.jit.save(m, "m.pt")


def test_process_wide_switches():
    assert ft.get_float32_matmul_precision() == "highest"
    ft.set_float32_matmul_precision("high")
    try:
        assert ft.get_float32_matmul_precision() == "high"
    finally:
        ft.set_float32_matmul_precision("highest")
    with pytest.raises(RuntimeError, match="Invalid precision"):
        ft.set_float32_matmul_precision("low")
    ft.use_deterministic_algorithms(True, warn_only=True)
    try:
        assert (
            ft.are_deterministic_algorithms_enabled() and ft.is_deterministic_algorithms_warn_only_enabled()
        )
        assert ft.get_deterministic_debug_mode() == 1
    finally:
        ft.use_deterministic_algorithms(False)
    assert ft.get_deterministic_debug_mode() == 0
    n = ft.get_num_threads()
    ft.set_num_threads(3)
    try:
        assert ft.get_num_threads() == 3
    finally:
        ft.set_num_threads(n)
    assert ft.version.__version__.startswith("2.13") and ft.version.cuda is None
    assert ft.get_device(ft.zeros(1)) == -1
    import importlib

    assert importlib.import_module("fgrad.torch.version") is ft.version


def test_switches_reject_what_pytorch_rejects():
    """Before: the switches were stubs that accepted anything and forgot what they were told
    (``are_deterministic_algorithms_enabled()`` stayed False after switching it on)."""
    with pytest.raises(RuntimeError, match="^flush_denormal expects a bool, but got str$"):
        ft.set_flush_denormal("yes")
    with pytest.raises(RuntimeError, match="^setWarnOnlyOnce expects a bool, but got str$"):
        ft.set_warn_always("yes")
    with pytest.raises(RuntimeError, match="^set_num_threads expects an int, but got str$"):
        ft.set_num_threads("2")
    with pytest.raises(TypeError, match="argument 'mode' \\(position 1\\) must be bool, not str"):
        ft.use_deterministic_algorithms("yes")
    with pytest.raises(TypeError, match="get_device\\(\\): argument 'input' \\(position 1\\) must be Tensor"):
        ft.get_device("cpu")
