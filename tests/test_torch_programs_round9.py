"""Thirteen PyTorch programs in the style of pytorch.org's tutorials, pytorch/examples and
student code (tests/torch_programs_round9/), run with ``import torch`` changed to
``import fgrad.torch as torch`` (``_swap.py``: the import lines only) and compared with PyTorch
2.13's output, stored in ``torch_programs_round9/expected/`` (written by running each program
with PyTorch: ``python tests/torch_programs_round9/NAME.py > .../expected/NAME.txt``) and, by the
slow tests, with the installed PyTorch: the same text (reprs, dtypes, shapes, words) and the
same numbers to one and a half units of their last printed digit.  Below them, the regression
tests of the defects the programs found (docs/torch-programs-round9.md).

The default run runs two programs; ``pytest tests/test_torch_programs_round9.py -m slow`` runs
all of them against the stored and the live outputs (about a minute).
"""

from __future__ import annotations

import copy
import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from tests._host_numerics import skip_where_avx512_rounds_otherwise

import fgrad.torch as torch
from fgrad.testing.device_numerics import rounds_like_numpy
from fgrad.torch.nn.utils import parametrizations, parametrize
from test_jax_programs_round8 import output_differences  # the text check and the number pairs

ROOT = Path(__file__).resolve().parent.parent
PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round9"
EXPECTED = PROGRAMS / "expected"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"hooks_parametrize", "reinforce"}  # the default run's programs



def _run(name: str, live_torch: bool = False, programs: Path = PROGRAMS) -> str:
    """The stdout of ``programs/NAME.py`` run on fgrad (through ``_swap.py``) or, with
    ``live_torch``, on the installed PyTorch (round 10 runs its folder with this too)."""
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
        "FGRAD_BACKEND": "cpu",
        "OMP_NUM_THREADS": "1",
    }  # PyTorch's CPU numbers are the reference
    path = str(programs / f"{name}.py")
    args = [path] if live_torch else [str(PROGRAMS / "_swap.py"), path]
    done = subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, f"{name} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout  # stderr: PyTorch's deprecation warnings are not compared


def _last_digit(s: str) -> float:
    """One unit of the last printed digit of the number ``s`` ("0.1234" -> 1e-4)."""
    mant, _, exp = s.lower().partition("e")
    decimals = len(mant.partition(".")[2])
    return 10.0 ** (-decimals + (int(exp) if exp else 0))


def _form(s: str) -> tuple:
    """How a number is written: integer or not, decimals, exponent ("1" vs "1." is int64 vs
    float32 in a tensor's repr)."""
    mant, e, _ = s.lower().partition("e")
    return "." in mant, len(mant.partition(".")[2]), bool(e)


def same_output(got: str, want: str) -> list[str]:
    """The differences between two program outputs: the text with every number replaced by
    ``#`` and all white space removed must be equal, each number written in the same form
    (integer or not, decimals, exponent) and equal to the expected one within one and a half
    units of its last printed digit (a float32 difference may flip the rounding of the last
    digit); NaN equals NaN.

    >>> same_output("loss 0.1235", "loss 0.1234")
    []
    >>> same_output("loss 0.1237", "loss 0.1234")
    ['0.1237 != 0.1234']
    >>> same_output("tensor([1, 2])", "tensor([1., 2.])")
    ['1 != 1.', '2 != 2.']
    """
    def close(a: str, b: str) -> bool:
        x, y = float(a), float(b)
        return _form(a) == _form(b) and (
            a == b or (np.isnan(x) and np.isnan(y)) or abs(x - y) <= 1.5 * _last_digit(b) + 1e-6 * abs(y))

    return output_differences(got, want, close)


def _check(name: str, got: str, want: str, who: str) -> None:
    bad = same_output(got, want)
    assert not bad, f"{name} differs from {who}: {bad[:5]}\n--- got:\n{got}"


def program_tests(programs: Path, names: list, fast: set, min_count: int,
                  device_rounding: frozenset = frozenset()) -> tuple:
    """The four tests of a round of PyTorch programs in ``programs`` (outputs in its
    ``expected/``): the ``fast`` programs against the stored outputs, all of them against the
    stored (slow) and the live PyTorch outputs (slow), and the stored files' presence with no
    fgrad import.  A round's test module assigns them to module-level names for pytest to
    collect (as round 8's JAX ``program_tests``).  The ``device_rounding`` programs print a
    value whose form shows a GPU's rounding (the imaginary part of ``w @ w.mH``'s diagonal:
    exactly 0 on the CPU, an fma's rounding error on a GPU, as with PyTorch's CUDA): where
    the default device does not round like NumPy they are not compared."""
    expected = programs / "expected"

    def stored(name):
        return (expected / f"{name}.txt").read_text()

    def skip_on_device_rounding(name):
        if name in device_rounding and not rounds_like_numpy():
            pytest.skip(f"{name} prints a value whose form depends on the device's rounding")
        if name in device_rounding:  # OpenBLAS's AVX-512 complex products round with fmas too
            skip_where_avx512_rounds_otherwise(f"{name}'s exactly real diagonal of w @ w.mH")

    @pytest.mark.cpu_program
    @pytest.mark.parametrize("name", sorted(fast))
    def test_program_prints_what_pytorch_prints(name):
        skip_on_device_rounding(name)
        _check(name, _run(name, programs=programs), stored(name), "PyTorch 2.13 (stored)")

    @pytest.mark.cpu_program
    @pytest.mark.slow
    @pytest.mark.parametrize("name", names)
    def test_every_program_prints_what_pytorch_prints(name):
        skip_on_device_rounding(name)
        _check(name, _run(name, programs=programs), stored(name), "PyTorch 2.13 (stored)")

    @pytest.mark.cpu_program
    @pytest.mark.slow
    @pytest.mark.parametrize("name", names)
    def test_program_prints_what_live_pytorch_prints(name):
        pytest.importorskip("torch")
        skip_on_device_rounding(name)  # (the live PyTorch's exact 0 is the stored one)
        _check(name, _run(name, programs=programs), _run(name, True, programs), "the installed PyTorch")

    def test_every_program_has_a_stored_output_and_imports_torch_only():
        assert len(names) >= min_count
        for name in names:
            assert stored(name).strip()
            src = (programs / f"{name}.py").read_text()
            assert "fgrad" not in src and "import torch" in src

    return (test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
            test_program_prints_what_live_pytorch_prints,
            test_every_program_has_a_stored_output_and_imports_torch_only)


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 10)


def test_swap_changes_the_import_lines_only():
    sys.path.insert(0, str(PROGRAMS))
    try:
        from _swap import swapped
    finally:
        sys.path.remove(str(PROGRAMS))
    src = (
        "import torch\nimport torch.nn as nn\nfrom torch import nn\nfrom torch.utils.data import (A,\n  B)\n"
        "    import torch\nx = torch.ones(1)  # import torch\n"
    )
    assert swapped(src) == (
        "import fgrad.torch as torch\nimport fgrad.torch.nn as nn\nfrom fgrad.torch import nn\n"
        "from fgrad.torch.utils.data import (A,\n  B)\n    import fgrad.torch as torch\n"
        "x = torch.ones(1)  # import torch\n"
    )


# ---- regression tests of what the programs found ----------------------------------------------


def _tolist(t):
    return t.detach().flatten().tolist()


def test_one_multinomial_sample_with_replacement_takes_pytorchs_fast_path():
    """PyTorch draws a single sample (``Categorical(probs).sample()``, the REINFORCE idiom) by
    ``argmax(p / exponential)`` even with replacement; fgrad located a uniform in the
    cumulative sum, so every episode of the REINFORCE example differed from PyTorch's."""
    torch.manual_seed(0)
    p = torch.tensor([[0.3, 0.7], [0.5, 0.5]])
    assert torch.multinomial(p, 1, replacement=True).flatten().tolist() == [1, 0]  # PyTorch 2.13
    assert torch.distributions.Categorical(probs=p).sample().tolist() == [1, 0]
    assert torch.multinomial(p, 3, replacement=True).tolist() == [[1, 0, 1], [0, 0, 1]]
    torch.manual_seed(543)
    got = [torch.distributions.Categorical(torch.tensor([[0.3, 0.7]])).sample().item() for _ in range(12)]
    assert got == [0, 1, 1, 0, 1, 0, 1, 1, 1, 0, 0, 0]


def test_one_multinomial_sample_matches_live_pytorch():
    real = pytest.importorskip("torch")
    for lib in (real, torch):
        lib.manual_seed(5)
    p = [[0.1, 0.2, 0.7], [0.6, 0.3, 0.1]]
    want = [real.multinomial(real.tensor(p), 1, True).tolist() for _ in range(5)]
    assert [torch.multinomial(torch.tensor(p), 1, True).tolist() for _ in range(5)] == want


def _mlp():
    torch.manual_seed(0)
    return torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 2))


def test_functional_call_inside_torch_func_returns_tensors():
    """torch.func's per-sample-gradient recipe: ``functional_call`` inside ``grad``/``vmap``
    hands the loss a Tensor; fgrad returned the raw tracer, so ``F.cross_entropy`` raised
    TypeError."""
    from fgrad.torch.func import functional_call, grad, vmap

    model = _mlp()
    params = {k: v.detach() for k, v in model.named_parameters()}
    x, y = torch.randn(5, 3), torch.tensor([0, 1, 1, 0, 1])

    def loss(p, xi, yi):
        out = functional_call(model, p, (xi.unsqueeze(0),))
        assert isinstance(out, torch.Tensor)
        return torch.nn.functional.cross_entropy(out, yi.unsqueeze(0))

    per_sample = vmap(grad(loss), in_dims=(None, 0, 0))(params, x, y)
    for i in range(5):  # a loop of backward() gives the same gradients
        model.zero_grad()
        torch.nn.functional.cross_entropy(model(x[i : i + 1]), y[i : i + 1]).backward()
        for k, p in model.named_parameters():
            np.testing.assert_allclose(per_sample[k][i].numpy(), p.grad.numpy(), rtol=1e-5, atol=1e-7)


def test_torch_func_keeps_dict_key_order():
    """torch.func returns dicts in the order of the caller's (PyTorch's pytrees); fgrad's
    pytrees sort keys, so printed per-parameter gradients came out in another order."""
    from fgrad.torch.func import functional_call, grad, jacrev, vmap

    model = _mlp()
    params = {k: v.detach() for k, v in model.named_parameters()}
    order = list(params)
    assert order == ["0.weight", "0.bias", "2.weight", "2.bias"]
    g = grad(lambda p: functional_call(model, p, (torch.ones(1, 3),)).sum())(params)
    assert list(g) == order
    assert list(jacrev(lambda p: functional_call(model, p, (torch.ones(3),)))(params)) == order
    out = vmap(lambda t: {"z": t * 2, "a": t + 1})(torch.ones(2))
    assert list(out) == ["z", "a"] and out["a"].tolist() == [2.0, 2.0]


def test_torch_func_transforms_are_recorded_by_autograd():
    """PyTorch records a torch.func transform applied to tensors that require grad (an
    ensemble run through ``vmap`` over ``stack_module_state`` trains by ``backward()``);
    fgrad's outputs had no grad_fn, so the printed tensors lacked it and ``backward`` failed."""
    from fgrad.torch.func import functional_call, grad, stack_module_state, vmap

    models = [torch.nn.Linear(3, 2) for _ in range(3)]
    params, buffers = stack_module_state(models)
    x = torch.randn(4, 3)
    out = vmap(lambda p, b, xi: functional_call(models[0], (p, b), (xi,)), in_dims=(0, 0, None))(
        params, buffers, x
    )
    assert out.requires_grad and out.grad_fn is not None
    out.pow(2).sum().backward()
    sum((m(x) ** 2).sum() for m in models).backward()
    np.testing.assert_allclose(
        params["weight"].grad.numpy(),
        torch.stack([m.weight.grad for m in models]).numpy(),
        rtol=1e-5,
        atol=1e-6,
    )
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    g = grad(lambda v: (v**3).sum())(w)  # d/dw sum(3 w^2) = 6 w
    g.sum().backward()
    assert g.tolist() == [3.0, 12.0] and w.grad.tolist() == [6.0, 12.0]
    with torch.no_grad():
        assert not grad(lambda v: (v**3).sum())(w).requires_grad


class _Symmetric(torch.nn.Module):
    def forward(self, X):
        return X.triu() + X.triu(1).transpose(-1, -2)


def test_register_parametrization_symmetric():
    """``torch.nn.utils.parametrize`` was missing (ImportError)."""
    torch.manual_seed(0)
    layer = torch.nn.Linear(3, 3)
    w0 = layer.weight.detach().clone()
    original = layer.weight
    parametrize.register_parametrization(layer, "weight", _Symmetric())
    assert type(layer).__name__ == "ParametrizedLinear" and isinstance(layer, torch.nn.Linear)
    assert layer.parametrizations.weight.original is original  # the same Parameter object
    assert torch.equal(layer.weight, w0.triu() + w0.triu(1).T) and layer.weight.grad_fn is not None
    assert sorted(layer.state_dict()) == ["bias", "parametrizations.weight.original"]
    assert [n for n, _ in layer.named_parameters()] == ["bias", "parametrizations.weight.original"]
    layer(torch.ones(2, 3)).sum().backward()  # F.linear reads self.weight: the parametrized value
    # d(sum)/dW is 2 everywhere; W[i, j] (i < j) is read twice, W[i, j] (i > j) not at all
    assert original.grad.tolist() == [[2.0, 4.0, 4.0], [0.0, 2.0, 4.0], [0.0, 0.0, 2.0]]
    with parametrize.cached():
        assert layer.weight is layer.weight
    assert parametrize.is_parametrized(layer, "weight") and not parametrize.is_parametrized(layer, "bias")
    parametrize.remove_parametrizations(layer, "weight")
    assert type(layer) is torch.nn.Linear and not parametrize.is_parametrized(layer)
    assert layer.weight is original and torch.equal(layer.weight, layer.weight.T)
    with pytest.raises(ValueError, match="does not have a parameter, a buffer, or a parametrized"):
        parametrize.register_parametrization(layer, "nope", _Symmetric())


def test_parametrization_right_inverse_and_unsafe_checks():
    class Positive(torch.nn.Module):
        def forward(self, X):
            return X.exp()

        def right_inverse(self, Y):
            return Y.log()

    m = torch.nn.Linear(2, 2)
    with torch.no_grad():
        m.bias.copy_(torch.tensor([1.0, 2.0]))
    parametrize.register_parametrization(m, "bias", Positive())
    np.testing.assert_allclose(
        m.parametrizations.bias.original.detach().numpy(), np.log([1.0, 2.0]), rtol=1e-6
    )
    m.bias = torch.tensor([3.0, 4.0])  # assignment goes through right_inverse
    np.testing.assert_allclose(m.bias.detach().numpy(), [3.0, 4.0], rtol=1e-6)

    class Shrink(torch.nn.Module):
        def forward(self, X):
            return X[:1]

    with pytest.raises(ValueError, match="may not change the shape"):
        parametrize.register_parametrization(torch.nn.Linear(2, 2), "bias", Shrink())
    with pytest.raises(RuntimeError, match="only supported through state_dict"):
        import pickle

        pickle.dumps(m)


def test_weight_norm_parametrization_is_pytorchs():
    torch.manual_seed(0)
    m = parametrizations.weight_norm(torch.nn.Linear(3, 2))
    g, v = m.parametrizations.weight.original0, m.parametrizations.weight.original1
    assert g.shape == (2, 1) and v.shape == (2, 3)
    np.testing.assert_allclose(_tolist(g), [0.5672245621681213, 0.503937304019928], rtol=1e-6)  # PyTorch
    m(torch.ones(1, 3)).sum().backward()
    np.testing.assert_allclose(_tolist(g.grad), [-0.29933831095695496, -0.9771906733512878], rtol=1e-5)
    np.testing.assert_allclose(
        _tolist(v.grad),
        [
            0.9977190494537354,
            1.1634447574615479,
            0.7492331266403198,
            0.17608195543289185,
            0.568801760673523,
            1.3002146482467651,
        ],
        rtol=1e-5,
    )
    c = parametrizations.weight_norm(torch.nn.Conv1d(2, 3, 2), dim=1)
    assert c.parametrizations.weight.original0.shape == (1, 2, 1)
    # an old-style checkpoint (weight_g / weight_v) loads into the parametrization
    sd = {"weight_g": torch.ones(2, 1), "weight_v": torch.ones(2, 3), "bias": torch.zeros(2)}
    fresh = parametrizations.weight_norm(torch.nn.Linear(3, 2))
    fresh.load_state_dict(sd)
    np.testing.assert_allclose(fresh.weight.detach().numpy(), np.full((2, 3), 3**-0.5), rtol=1e-6)


def test_spectral_norm_and_orthogonal_parametrizations_are_pytorchs():
    torch.manual_seed(0)
    s = parametrizations.spectral_norm(torch.nn.Linear(4, 3))
    sn = s.parametrizations.weight[0]
    # PyTorch 2.13: u and v drawn from the seeded stream, then 15 power iterations
    np.testing.assert_allclose(
        _tolist(sn._u), [0.878616452217102, -0.37620288133621216, 0.2941162884235382], rtol=1e-5
    )
    np.testing.assert_allclose(
        _tolist(sn._v),
        [0.08214247226715088, 0.3281344771385193, -0.5889443755149841, -0.733978807926178],
        rtol=1e-5,
    )
    np.testing.assert_allclose(s.weight.sum().item(), -0.5100973844528198, rtol=1e-5)
    torch.manual_seed(0)
    o = parametrizations.orthogonal(torch.nn.Linear(3, 3))  # matrix_exp, base from QR
    np.testing.assert_allclose(
        _tolist(o.weight)[:3], [-0.010168910026550293, 0.5581021904945374, -0.8297100067138672], atol=1e-6
    )
    o2 = parametrizations.orthogonal(torch.nn.Linear(4, 2))  # householder, completed at random
    np.testing.assert_allclose(
        _tolist(o2.weight)[:4],
        [-0.7742259502410889, -0.5367214679718018, -0.3340705931186676, 0.03002055734395981],
        atol=1e-6,
    )
    o3 = parametrizations.orthogonal(torch.nn.Linear(3, 3), orthogonal_map="cayley")
    np.testing.assert_allclose(
        _tolist(o3.weight)[:3], [0.44981837272644043, 0.4917595684528351, 0.745543897151947], atol=1e-6
    )
    for q in (o.weight, o3.weight):
        np.testing.assert_allclose((q @ q.T).detach().numpy(), np.eye(3), atol=1e-5)
    # training keeps it orthogonal: the gradient reaches the unconstrained original
    opt = torch.optim.SGD(o2.parameters(), lr=0.5)
    o2(torch.ones(1, 4)).sum().backward()
    opt.step()
    np.testing.assert_allclose((o2.weight @ o2.weight.T).detach().numpy(), np.eye(2), atol=1e-5)


def test_parametrizations_match_live_pytorch():
    real = pytest.importorskip("torch")
    from torch.nn.utils import parametrizations as real_p

    def build(lib, p):
        lib.manual_seed(3)
        mods = [
            p.weight_norm(lib.nn.Conv2d(2, 3, 3)),
            p.spectral_norm(lib.nn.ConvTranspose2d(3, 2, 2)),
            p.orthogonal(lib.nn.Linear(5, 3)),
            p.orthogonal(lib.nn.Linear(4, 4), orthogonal_map="cayley"),
        ]
        x = lib.ones(1, 2, 5, 5)
        y = mods[1](mods[0](x))
        z = mods[3](mods[2](lib.ones(2, 5)).repeat(1, 2)[:, :4])
        (y.sum() + z.sum()).backward()
        return [y, z] + [q.grad for m in mods for q in m.parameters()]

    for got, want in zip(build(torch, parametrizations), build(real, real_p), strict=True):
        np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=2e-4, atol=2e-5)


def test_tensors_made_under_inference_mode_are_inference_tensors():
    """``t.is_inference()`` was always False."""
    w = torch.ones(3)
    with torch.inference_mode():
        made = [w * 2, torch.zeros(2), torch.sin(w), w.sum(), torch.nn.functional.relu(w), w + 1]
        view_of_normal = w[:2]
        view_of_inference = made[0][:1]
        with torch.inference_mode(False):
            normal = w * 2
    assert all(t.is_inference() for t in made) and view_of_inference.is_inference()
    assert not view_of_normal.is_inference() and not normal.is_inference()
    assert not (w * 2).is_inference() and torch.is_inference(made[0])
    with torch.no_grad():
        assert not (w * 2).is_inference()


def test_parametrized_module_copies_and_round_trips_through_state_dict():
    torch.manual_seed(0)
    m = parametrizations.weight_norm(torch.nn.Linear(3, 2))
    buf = io.BytesIO()
    torch.save(m.state_dict(), buf)
    buf.seek(0)
    other = parametrizations.weight_norm(torch.nn.Linear(3, 2))
    other.load_state_dict(torch.load(buf))
    assert torch.equal(other.weight, m.weight)
    twin = copy.deepcopy(m)
    assert type(twin).__name__ == "ParametrizedLinear" and torch.equal(twin.weight, m.weight)
    assert twin.parametrizations.weight.original0 is not m.parametrizations.weight.original0


def test_docstring_examples_of_the_new_modules_run():
    import doctest
    import importlib

    for name in ("fgrad.torch.nn.utils.parametrize", "fgrad.torch.nn.utils.parametrizations",
                 "fgrad.torch.optim.swa_utils"):
        res = doctest.testmod(importlib.import_module(name))
        assert res.failed == 0 and res.attempted >= 3, name
    with torch.inference_mode():
        assert torch.ones(1).is_inference()


def test_hook_based_weight_norm_is_pytorchs():
    """``torch.nn.utils.weight_norm`` (WaveNet/TCN code) was missing."""
    torch.manual_seed(0)
    with pytest.warns(FutureWarning, match="parametrizations.weight_norm"):
        m = torch.nn.utils.weight_norm(torch.nn.Conv1d(2, 3, 2))
    assert sorted(m.state_dict()) == ["bias", "weight_g", "weight_v"] and m.weight_g.shape == (3, 1, 1)
    np.testing.assert_allclose(_tolist(m.weight_g), [0.6137664914131165, 0.4607923924922943,
                                                     0.22796161472797394], rtol=1e-6)  # PyTorch 2.13
    m(torch.ones(1, 2, 3)).sum().backward()
    np.testing.assert_allclose(_tolist(m.weight_g.grad), [-1.678207278251648, 1.4238066673278809,
                                                          -1.4165102243423462], rtol=1e-5)
    with pytest.raises(RuntimeError, match="Cannot register two"), pytest.warns(FutureWarning):
        torch.nn.utils.weight_norm(m)
    w = m.weight.detach().clone()
    torch.nn.utils.remove_weight_norm(m)
    assert sorted(m.state_dict()) == ["bias", "weight"] and torch.equal(m.weight, w)
    assert isinstance(m.weight, torch.nn.Parameter) and not m._forward_pre_hooks


def test_hook_based_spectral_norm_is_pytorchs():
    """``torch.nn.utils.spectral_norm`` (SN-GAN code) was missing."""
    torch.manual_seed(0)
    with pytest.warns(FutureWarning):
        torch.nn.utils.weight_norm(torch.nn.Conv1d(2, 3, 2))  # the same stream as above
    d = torch.nn.utils.spectral_norm(torch.nn.Linear(4, 3))
    assert sorted(d.state_dict()) == ["bias", "weight_orig", "weight_u", "weight_v"]
    np.testing.assert_allclose(_tolist(d.weight_u), [-0.8650991320610046, 0.3374936878681183,
                                                     0.3710816502571106], rtol=1e-5)
    np.testing.assert_allclose(_tolist(d.weight_v), [0.892109215259552, 0.09376443177461624,
                                                     -0.4210446774959564, -0.13442733883857727], rtol=1e-5)
    d(torch.ones(2, 4))  # one power-iteration step, in place on the buffers
    np.testing.assert_allclose(_tolist(d.weight_u), [-0.6283025145530701, -0.37915852665901184,
                                                     0.6793192625045776], rtol=1e-5)
    np.testing.assert_allclose(d.weight.sum().item(), 1.8087108135223389, rtol=1e-5)
    d.eval()
    u = d.weight_u.clone()
    d(torch.ones(1, 4))
    assert torch.equal(d.weight_u, u)  # no power iteration in eval mode
    torch.nn.utils.remove_spectral_norm(d)
    assert sorted(d.state_dict()) == ["bias", "weight"]
    ct = torch.nn.utils.spectral_norm(torch.nn.ConvTranspose2d(3, 2, 2))  # normalized along dim 1
    assert ct.weight_u.shape == (2,) and ct.weight_v.shape == (12,)


def test_gumbel_softmax_is_pytorchs():
    """``F.gumbel_softmax`` was missing; its Gumbel noise comes from ``exponential_`` on
    the seeded stream, so the samples are PyTorch's."""
    F = torch.nn.functional
    torch.manual_seed(0)
    logits = torch.tensor([[1.0, 2.0, 0.5], [0.0, -1.0, 3.0]], requires_grad=True)
    np.testing.assert_allclose(_tolist(F.gumbel_softmax(logits, tau=0.7)),
                               [0.03916671499609947, 0.7301672101020813, 0.23066602647304535,
                                0.0068291714414954185, 0.005879244767129421, 0.9872915744781494], rtol=1e-5)
    h = F.gumbel_softmax(logits, tau=0.5, hard=True)
    assert h.tolist() == [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    (h * torch.tensor([1.0, 2.0, 3.0])).sum().backward()  # straight-through: the soft gradient
    np.testing.assert_allclose(_tolist(logits.grad), [-0.48265624046325684, 0.46223336458206177,
                                                      0.020422590896487236, -0.0032409527339041233,
                                                      -6.96534916642122e-05, 0.003310262458398938],
                               rtol=1e-4, atol=1e-7)


def test_swa_utils_are_pytorchs():
    """``torch.optim.swa_utils`` was missing (AttributeError)."""
    from fgrad.torch.optim.swa_utils import SWALR, AveragedModel, get_ema_multi_avg_fn
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 1)
    swa, ema = AveragedModel(m), AveragedModel(m, multi_avg_fn=get_ema_multi_avg_fn(0.9))
    opt = torch.optim.SGD(m.parameters(), lr=0.3)
    sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="linear")
    lrs = []
    for i in range(5):
        opt.zero_grad()
        m(torch.ones(1, 2) * (i + 1)).sum().backward()
        opt.step()
        sched.step()
        swa.update_parameters(m)
        ema.update_parameters(m)
        lrs.append(opt.param_groups[0]["lr"])
    # PyTorch 2.13
    np.testing.assert_allclose(lrs, [0.21666666666666667, 0.13333333333333333, 0.05, 0.05, 0.05], rtol=1e-12)
    np.testing.assert_allclose(_tolist(swa.module.weight), [-1.021960735321045, -0.6373438239097595],
                               rtol=1e-6)
    np.testing.assert_allclose(_tolist(ema.module.weight), [-0.625717282295227, -0.24110047519207], rtol=1e-6)
    assert swa.n_averaged.item() == 5 and swa.n_averaged.dtype == torch.int64
    assert sorted(swa.state_dict()) == ["module.bias", "module.weight", "n_averaged"]
