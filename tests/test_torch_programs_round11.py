"""PyTorch programs in the style of pytorch.org's tutorials and popular training scripts
(tests/torch_programs_round11/), run with ``import torch`` changed to ``import fgrad.torch as
torch`` (round 9's ``_swap.py``: the import lines only) and compared with PyTorch 2.13's output,
stored in ``torch_programs_round11/expected/`` (written by running each program with PyTorch:
``python tests/torch_programs_round11/NAME.py > .../expected/NAME.txt``) and, by the slow tests,
with the installed PyTorch: the same text and the same numbers to one and a half units of their
last printed digit.  Below them, the regression tests of the defects the programs found
(docs/torch-programs-round11.md).

The default run runs two programs; ``pytest tests/test_torch_programs_round11.py -m slow`` runs
all of them against the stored and the live outputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import fgrad.torch as torch
from fgrad.torch.func import grad, jacrev, vmap
from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round11"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"double_backward_custom", "jacobians_hessians"}  # the default run's programs


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 18)


# ---- regression tests of what the programs found ----------------------------------------------


def _host_sort_class(lib, calls):
    """A Function whose forward leaves the tensor world (NumPy), so only its own ``vmap``
    staticmethod can batch it (the "Extending torch.func" tutorial's NumpySort, one output)."""

    class HostCumsum(lib.autograd.Function):
        @staticmethod
        def forward(x, dim):
            return lib.tensor(np.cumsum(x.detach().cpu().numpy(), axis=dim))

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.dim = inputs[1]

        @staticmethod
        def backward(ctx, g):
            return HostCumsum.apply(g.flip(ctx.dim), ctx.dim).flip(ctx.dim), None

        @staticmethod
        def vmap(info, in_dims, x, dim):
            calls.append((info.batch_size, in_dims))
            return HostCumsum.apply(x.movedim(in_dims[0], 0), dim + 1), 0

    return HostCumsum


def _vmap_rule_results(lib):
    calls = []
    cumsum = _host_sort_class(lib, calls).apply
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, -1.0, 0.5]])
    w = lib.tensor([1.0, 10.0, 100.0])
    f = lib.func
    out = [f.vmap(lambda t: cumsum(t, 0))(x), f.vmap(lambda t: cumsum(t, 0), in_dims=1)(x),
           f.grad(lambda t: (cumsum(t, 0) * w).sum())(x[0]),
           f.vmap(f.grad(lambda t: (cumsum(t, 0) * w).sum()))(x), f.jacrev(lambda t: cumsum(t, 0))(x[0])]
    return [o.numpy() for o in out], calls


def test_function_vmap_staticmethod_is_the_batching_rule():
    """A Function with its own ``vmap`` staticmethod: fgrad ignored it and batched the forward
    primitive by primitive, which fails for a forward that calls NumPy (ConcretizationTypeError);
    PyTorch calls the rule with the physical tensors, ``in_dims`` and ``info.batch_size`` -- under
    vmap, vmap(grad) and the vmap over the basis inside jacrev."""
    got, calls = _vmap_rule_results(torch)
    np.testing.assert_allclose(got[0], [[1, 3, 6], [4, 3, 3.5]])
    np.testing.assert_allclose(got[1], [[1, 5], [2, 1], [3, 3.5]])  # in_dims=1: columns
    np.testing.assert_allclose(got[2], [111, 110, 100])
    np.testing.assert_allclose(got[3], [[111, 110, 100]] * 2)
    np.testing.assert_allclose(got[4], np.tril(np.ones((3, 3))))
    assert calls[0] == (2, (0, None)) and calls[1] == (3, (1, None))  # the caller's batch axis


def test_function_vmap_rule_matches_live_pytorch():
    real = pytest.importorskip("torch")
    got, calls = _vmap_rule_results(torch)
    want, want_calls = _vmap_rule_results(real)
    for a, b in zip(got, want):
        np.testing.assert_allclose(a, b)
    assert calls[:2] == want_calls[:2]  # later calls: PyTorch batches the backward's constant cotangent


class Doubling(torch.autograd.Function):
    """``2 x`` with a backward and no jvp or vmap rule (the error tests' Function)."""

    @staticmethod
    def forward(x):
        return x * 2

    @staticmethod
    def setup_context(ctx, inputs, output):
        pass

    @staticmethod
    def backward(ctx, g):
        return g * 2


def test_function_vmap_rule_errors():
    class Bad(Doubling):
        @staticmethod
        def vmap(info, in_dims, x):
            return x * 2

    with pytest.raises(RuntimeError, match="Bad.vmap must return a tuple of two elements"):
        vmap(Bad.apply)(torch.ones(2, 3))
    with pytest.raises(NotImplementedError, match="override the vmap staticmethod or set generate_vmap_rule"):
        torch.autograd.Function.vmap(None, (0,), torch.ones(1))
    assert grad(lambda t: Bad.apply(t).sum())(torch.ones(2)).tolist() == [2.0, 2.0]  # no vmap: forward
    assert jacrev(Bad.apply)(torch.ones(2)).tolist() == [[2.0, 0.0], [0.0, 2.0]]


def _foreach_results(lib):
    a = [lib.tensor([1.0, -2.0]), lib.tensor([[0.5], [4.0]])]
    b = [lib.tensor([3.0, 1.0]), lib.tensor([[2.0], [-1.0]])]
    out = [*lib._foreach_add(a, b, alpha=2), *lib._foreach_mul(a, [2.0, 3.0]), *lib._foreach_sub(a, 1.5),
           *lib._foreach_maximum(a, b), *lib._foreach_sqrt(lib._foreach_abs(a)), *lib._foreach_norm(a),
           *lib._foreach_addcmul(a, a, b, value=0.5), *lib._foreach_lerp(a, b, 0.25),
           *lib._foreach_norm(a, 1)]
    ema = [t.clone() for t in a]
    assert lib._foreach_mul_(ema, 0.9) is not None
    lib._foreach_add_(ema, b, alpha=0.1)
    lib._foreach_lerp_(ema, a, [0.5, 0.2])
    lib._foreach_maximum_(ema, 0.5)
    lib._foreach_copy_(a, ema)
    lib._foreach_zero_(ema)
    return [t.numpy() for t in out + a + ema]


def test_foreach_ops_match_pytorch():
    """``torch._foreach_mul_`` / ``_foreach_add_(..., alpha=)`` (the EMA of weights in the
    gradient-accumulation program; missing before) and the other ``_foreach_*`` forms: scalars,
    scalar lists, tensor lists; in place returns the list."""
    got = _foreach_results(torch)
    np.testing.assert_allclose(got[0], [7.0, 0.0])
    np.testing.assert_allclose(got[10], np.sqrt(5.0), rtol=1e-6)  # the first norm
    ema = [t.clone() for t in [torch.ones(2)]]
    assert torch._foreach_mul_(ema, 0.5)[0] is ema[0] and ema[0].tolist() == [0.5, 0.5]
    with pytest.raises(RuntimeError, match="Tensor lists must have the same number of tensors, got 2 and 1"):
        torch._foreach_add([torch.ones(1), torch.ones(2)], [torch.ones(1)])
    real = pytest.importorskip("torch")
    for a, b in zip(got, _foreach_results(real), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_windows_are_computed_in_their_dtype_as_pytorchs():
    """``blackman_window(8, periodic=False)`` (the spectrogram program): PyTorch computes the
    window step by step in float32 and its ends are -2.9802e-08, which print the whole tensor
    in scientific notation; fgrad computed in float64 and rounded (exact zeros)."""
    w = torch.blackman_window(8, periodic=False)
    assert w[0].item() == w[-1].item() == np.float32(-2.9802322e-08)
    assert repr(w).startswith("tensor([-2.9802e-08,  9.0453e-02,")
    assert torch.hamming_window(2).tolist() == [np.float32(0.08000001311302185), 1.0]  # PyTorch 2.13's
    assert torch.blackman_window(8, periodic=False, dtype=torch.float64)[0].item() == 0.0
    # PyTorch's second half is 2 - w in float32: not the mirror image of the first
    assert torch.bartlett_window(5).tolist() == [0.0, 0.4000000059604645, 0.800000011920929,
                                                 0.7999999523162842, 0.3999999761581421]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_windows_match_live_pytorch(dtype):
    real = pytest.importorskip("torch")
    for name in ("hann_window", "hamming_window", "blackman_window", "bartlett_window"):
        for n in range(0, 24):
            for periodic in (True, False):
                want = getattr(real, name)(n, periodic, dtype=getattr(real, dtype)).double().numpy()
                got = getattr(torch, name)(n, periodic, dtype=getattr(torch, dtype)).double().numpy()
                ulp = np.finfo(getattr(np, dtype)).eps
                # PyTorch's vectorised cos may differ from the correctly rounded one in the last bit
                np.testing.assert_allclose(got, want, rtol=0, atol=2 * ulp,
                                           err_msg=f"{name}({n}, {periodic})")
                np.testing.assert_array_equal(got[want == 0], 0.0)


def _scaled_exp(lib):
    """A Function whose jvp is ten times exp's derivative (so the numbers show which rule ran)."""

    class TenfoldExp(lib.autograd.Function):
        generate_vmap_rule = True

        @staticmethod
        def forward(x):
            return x.exp()

        @staticmethod
        def setup_context(ctx, inputs, output):
            ctx.save_for_backward(output)
            ctx.result = output

        @staticmethod
        def backward(ctx, g):
            return g * ctx.saved_tensors[0]

        @staticmethod
        def jvp(ctx, x_t):
            return x_t * ctx.result * 10

    return TenfoldExp.apply


def _forward_rule_results(lib):
    f, fn = _scaled_exp(lib), lib.func
    x = lib.tensor([0.0, 1.0])
    return [t.numpy() for t in (fn.jacfwd(f)(x), fn.jvp(f, (x,), (lib.tensor([1.0, -2.0]),))[1],
                                fn.vmap(fn.jacfwd(f))(lib.tensor([[0.0, 0.5], [1.0, -1.0]])), fn.jacrev(f)(x),
                                fn.jacrev(fn.jacfwd(lambda t: f(t).sum()))(x))]


def test_function_jvp_staticmethod_under_torch_func_forward_mode():
    """``torch.func.jacfwd``/``jvp`` of a Function with a ``jvp`` staticmethod (the "Extending
    torch.func" tutorial's MyExp): fgrad raised "can't apply forward-mode autodiff ... to a
    custom_vjp function"; PyTorch pushes the tangents through ``jvp`` (and reverse mode still
    uses ``backward``)."""
    got = _forward_rule_results(torch)
    e = np.e
    np.testing.assert_allclose(got[0], np.diag([10.0, 10 * e]), rtol=1e-6)
    np.testing.assert_allclose(got[1], [10.0, -20 * e], rtol=1e-6)
    np.testing.assert_allclose(got[3], np.diag([1.0, e]), rtol=1e-6)  # backward, not jvp
    np.testing.assert_allclose(got[4], np.diag([10.0, 10 * e]), rtol=1e-6)
    real = pytest.importorskip("torch")
    for a, b in zip(got, _forward_rule_results(real), strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-6)


def test_function_without_jvp_under_jacfwd_is_pytorchs_error():
    with pytest.raises(NotImplementedError, match="You must implement the jvp function"):
        torch.func.jacfwd(Doubling.apply)(torch.ones(2))


def _amp_custom_function_results(lib):
    seen = []

    class MM(lib.autograd.Function):
        @staticmethod
        @lib.amp.custom_fwd(device_type="cpu", cast_inputs=lib.float32)
        def forward(ctx, a, b):
            seen.append(("fwd", lib.is_autocast_enabled("cpu"), a.dtype))
            ctx.save_for_backward(a, b)
            return a.mm(b)

        @staticmethod
        @lib.amp.custom_bwd(device_type="cpu")
        def backward(ctx, g):
            seen.append(("bwd", lib.is_autocast_enabled("cpu")))
            a, b = ctx.saved_tensors
            return g.mm(b.t()), a.t().mm(g)

    a = lib.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    with lib.autocast("cpu", dtype=lib.bfloat16):
        out = MM.apply(a.bfloat16(), a)
        inside = (a @ a).dtype
    out.sum().backward()
    return [str(out.dtype), str(inside), a.grad.tolist(), seen]


def test_amp_custom_fwd_bwd_cast_inputs_and_restore_autocast():
    """``torch.amp.custom_fwd``/``custom_bwd`` (missing before; the AMP docs' custom Function):
    with ``cast_inputs`` the forward runs in float32 with autocast off, and the backward in the
    autocast state the forward saw."""
    got = _amp_custom_function_results(torch)
    assert got[0] == "torch.float32" and got[1] == "torch.bfloat16"
    assert got[3] == [("fwd", False, torch.float32), ("bwd", False)]
    with pytest.raises(ValueError, match="Expected `device_type` of type `str`"):
        torch.amp.custom_fwd(device_type=None)
    real = pytest.importorskip("torch")
    want = _amp_custom_function_results(real)
    assert got[:3] == want[:3] and [s[:2] for s in got[3]] == [s[:2] for s in want[3]]


def test_deprecated_autocast_cpu_functions_warn_as_pytorch():
    """``torch.get_autocast_cpu_dtype()`` and friends (missing before, or silent)."""
    with pytest.warns(DeprecationWarning, match=r"get_autocast_cpu_dtype\(\) is deprecated. Please use "
                                                r"torch.get_autocast_dtype\('cpu'\)"):
        assert torch.get_autocast_cpu_dtype() == torch.bfloat16
    with pytest.warns(DeprecationWarning, match="is_autocast_cpu_enabled"):
        assert torch.is_autocast_cpu_enabled() is False
    with pytest.warns(DeprecationWarning, match="set_autocast_cpu_dtype"):
        torch.set_autocast_cpu_dtype(torch.float16)
    try:
        assert torch.get_autocast_dtype("cpu") == torch.float16
    finally:
        torch.set_autocast_dtype("cpu", torch.bfloat16)
    with pytest.warns(DeprecationWarning, match="get_autocast_gpu_dtype"):
        assert torch.get_autocast_gpu_dtype() == torch.float16


def test_event_list_self_cpu_time_total():
    """``prof.key_averages().self_cpu_time_total`` (missing before): the rows' sum."""
    from fgrad.torch.profiler import profile

    with profile() as prof:
        torch.ones(3).relu().sum()
    ev = prof.key_averages()
    assert ev.self_cpu_time_total == sum(e.self_cpu_time_total for e in ev) > 0
