"""Round 22's defects of ``fgrad.torch`` (docs/torch-programs-round22.md), each against
PyTorch 2.13's numbers or messages stored here (printed by the same code with ``import
torch``) and, when PyTorch is installed, live."""

from __future__ import annotations

import math

import numpy as np
import pytest

import fgrad.torch as torch
import fgrad.torch.distributions  # noqa: F401 - the lazily imported package


# ---- a 0-d random draw is a 0-d array, not a NumPy scalar -----------------------------------------

_DRAWS_0D = {
    "bernoulli": lambda lib: lib.bernoulli(lib.tensor(0.25)),
    "normal(tensor, tensor)": lambda lib: lib.normal(lib.tensor(0.0), lib.tensor(1.0)),
    "normal(tensor, float)": lambda lib: lib.normal(lib.tensor(0.0), 1.0),
    "Bernoulli.sample": lambda lib: lib.distributions.Bernoulli(lib.tensor(0.25)).sample(),
    "Normal.sample": lambda lib: lib.distributions.Normal(lib.tensor(0.0), lib.tensor(1.0)).sample(),
    "_standard_gamma": lambda lib: lib._standard_gamma(lib.tensor(2.0)),
}


def _accumulated(lib, draw):
    """``counts[0] += draw`` (a bandit's posterior update) and ``draw + 1``'s dtype."""
    lib.manual_seed(0)
    counts = lib.ones(3)
    d = draw(lib)
    counts[0] += d
    return counts.tolist(), str(d.dtype), str((d + 1).dtype), d.item()


@pytest.mark.parametrize("name", sorted(_DRAWS_0D))
def test_a_0d_random_draw_adds_into_a_tensor(name):
    """A ufunc on 0-d arrays returns a NumPy scalar: bernoulli, normal and the gamma sampler of
    a 0-d parameter wrapped one as the tensor's buffer, and ``x[0] += Bernoulli(p).sample()``
    wrote NaN (``draw + 1`` was float64)."""
    counts, dtype, plus_one, value = _accumulated(torch, _DRAWS_0D[name])
    assert not any(math.isnan(c) for c in counts)
    assert counts[0] == pytest.approx(1.0 + value, rel=1e-6) and counts[1:] == [1.0, 1.0]
    assert dtype == plus_one == "torch.float32"
    assert isinstance(_DRAWS_0D[name](torch)._buf, np.ndarray)


@pytest.mark.parametrize("name", sorted(_DRAWS_0D))
def test_a_0d_random_draw_adds_as_live_pytorch(name):
    real = pytest.importorskip("torch")
    got, want = _accumulated(torch, _DRAWS_0D[name]), _accumulated(real, _DRAWS_0D[name])
    assert got[1:3] == want[1:3]
    if name in ("bernoulli", "Bernoulli.sample", "normal(tensor, float)"):  # the same stream
        assert got[0] == pytest.approx(want[0], rel=1e-6)


def test_0d_bernoulli_draws_are_pytorchs():
    torch.manual_seed(0)
    assert [torch.bernoulli(torch.tensor(0.25)).item() for _ in range(6)] == [0.0, 0.0, 1.0, 1.0, 0.0, 0.0]


# ---- Binomial.entropy, Independent.enumerate_support, ExponentialFamily's Bregman entropy ---------

def _binomial(lib):
    d = lib.distributions.Binomial(4, lib.tensor([0.3, 0.6], dtype=lib.float64))
    try:
        lib.distributions.Binomial(lib.tensor([4.0, 5.0]), lib.tensor([0.3, 0.6])).entropy()
    except NotImplementedError as e:
        message = str(e)
    return d.entropy().tolist(), message


def test_binomial_entropy():
    """``Binomial.entropy`` raised a bare NotImplementedError (PyTorch sums -p log p over the
    enumerated support)."""
    values, message = _binomial(torch)
    assert values == pytest.approx([1.2939550399242197, 1.3807764504007607], rel=1e-12)  # PyTorch 2.13
    assert message == "Inhomogeneous total count not supported by `entropy`."


def test_binomial_entropy_as_live_pytorch():
    real = pytest.importorskip("torch")
    got, want = _binomial(torch), _binomial(real)
    assert got[0] == pytest.approx(want[0], rel=1e-12) and got[1] == want[1]


def _independent(lib):
    D = lib.distributions
    flat = D.Independent(D.Bernoulli(lib.tensor([[0.3, 0.6]])), 0)
    try:
        D.Independent(D.Bernoulli(lib.tensor([0.3, 0.6])), 1).enumerate_support()
    except NotImplementedError as e:
        message = str(e)
    return flat.enumerate_support().tolist(), list(flat.enumerate_support(expand=False).shape), message


def test_independent_enumerate_support():
    """``Independent.enumerate_support`` raised a bare NotImplementedError although
    ``has_enumerate_support`` said True for ``reinterpreted_batch_ndims=0``."""
    support, shape, message = _independent(torch)
    assert support == [[[0.0, 0.0]], [[1.0, 1.0]]] and shape == [2, 1, 1]
    assert message == "Enumeration over cartesian product is not implemented"


def test_independent_enumerate_support_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _independent(torch) == _independent(real)


def _exp_rate_family(lib):
    D = lib.distributions

    class ExpRate(D.ExponentialFamily):  # Exponential(rate) through its natural parameter -rate
        arg_constraints: dict = {}

        def __init__(self, rate):
            self.rate = rate
            super().__init__(rate.shape)

        @property
        def _natural_params(self):
            return (-self.rate,)

        def _log_normalizer(self, x):
            return -lib.log(-x)

        @property
        def _mean_carrier_measure(self):
            return 0

    r = lib.tensor([0.5, 1.0, 2.0], dtype=lib.float64)
    q = ExpRate(lib.tensor([1.0, 2.0, 0.5], dtype=lib.float64))
    try:
        D.kl_divergence(ExpRate(r), D.Normal(0.0, 1.0))
    except NotImplementedError:
        cross = "NotImplementedError"
    return ExpRate(r).entropy().tolist(), D.kl_divergence(ExpRate(r), q).tolist(), cross


def test_exponential_family_entropy_and_kl_by_bregman_divergence():
    """``ExponentialFamily`` was a marker class: a subclass giving natural parameters, a log
    normalizer and a mean carrier measure had no entropy or KL divergence (PyTorch derives
    both by autograd: ``F - <theta, grad F> - E k``); the closed forms of Exponential(rate):
    ``1 - log rate`` and ``log(r_p / r_q) + r_q / r_p - 1``."""
    ent, kl, cross = _exp_rate_family(torch)
    rates, other = [0.5, 1.0, 2.0], [1.0, 2.0, 0.5]
    assert ent == pytest.approx([1 - math.log(r) for r in rates], rel=1e-12)
    assert kl == pytest.approx([math.log(a / b) + b / a - 1 for a, b in zip(rates, other)], rel=1e-12)
    assert cross == "NotImplementedError"


def test_exponential_family_bregman_as_live_pytorch():
    real = pytest.importorskip("torch")
    got, want = _exp_rate_family(torch), _exp_rate_family(real)
    assert got[0] == pytest.approx(want[0], rel=1e-12) and got[1] == pytest.approx(want[1], rel=1e-12)
    assert got[2] == want[2]


# ---- Module.set_submodule -------------------------------------------------------------------------

def _set_submodule(lib):
    nn = lib.nn
    net = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Sequential(nn.Linear(3, 1)))
    net.set_submodule("2.0", nn.Linear(3, 2))
    net.set_submodule("2.extra", nn.Tanh())
    out = [repr(net[2])]
    for args in (("", nn.ReLU()), ("0", "not a module"), ("2.missing", nn.ReLU(), True),
                 ("0.weight", nn.ReLU()), ("5.0", nn.ReLU())):
        try:
            net.set_submodule(*args)
            out.append("ok")
        except (ValueError, AttributeError) as e:
            out.append(f"{type(e).__name__}: {e}")
    return out


def test_set_submodule():
    """``nn.Module.set_submodule`` was missing (LoRA code swaps Linear layers by it)."""
    out = _set_submodule(torch)
    assert out[0] == ("Sequential(\n  (0): Linear(in_features=3, out_features=2, bias=True)\n"
                      "  (extra): Tanh()\n)")
    assert out[1:] == [  # PyTorch 2.13's errors
        "ValueError: Cannot set the submodule without a target name!",
        "ValueError: `module` is not an nn.Module, found <class 'str'>",
        "AttributeError: Sequential has no attribute `missing`",
        "AttributeError: `weight` is not an nn.Module",
        "AttributeError: Sequential has no attribute `5`",
    ]


def test_set_submodule_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _set_submodule(torch) == _set_submodule(real)


# ---- Tensor.flip takes varargs dims ---------------------------------------------------------------

def _flips(lib):
    x = lib.arange(24.0).view(2, 3, 4)
    out = [x.flip(0, 2).tolist(), x.flip((0, 2)).tolist(), x.flip(dims=[1]).tolist(), x.flip(-1).tolist()]
    try:
        x.flip()
    except TypeError as e:
        out.append(str(e))
    return out


def test_tensor_flip_takes_varargs_dims():
    """``t.flip(0, 1)`` raised "flip() takes 2 positional arguments but 3 were given" (the
    method takes ints as varargs, as ``permute``/``tile``); ``t.flip()`` returned ``t``."""
    out = _flips(torch)
    assert out[0] == out[1] and out[0][0][0] == [15.0, 14.0, 13.0, 12.0]
    assert out[2][0][0] == [8.0, 9.0, 10.0, 11.0] and out[3][0][0] == [3.0, 2.0, 1.0, 0.0]
    assert out[4] == 'flip() missing 1 required positional arguments: "dims"'


def test_tensor_flip_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _flips(torch) == _flips(real)


# ---- error messages as PyTorch's -------------------------------------------------------------------

def _transpose_size_errors(lib):
    out = []
    for conv, x, size in ((lib.nn.ConvTranspose2d(2, 3, 3, stride=2), lib.zeros(1, 2, 4, 5), [13, 3]),
                          (lib.nn.ConvTranspose1d(2, 3, 3, stride=2), lib.zeros(1, 2, 4), [20])):
        try:
            conv(x, output_size=size)
        except ValueError as e:
            out.append(str(e))
    return out


def test_conv_transpose_output_size_error_names_every_dim():
    """The message gave the failing dimension's range only ("[9] to [10] (for an input of
    [4, 5])"); PyTorch's gives every dimension's and the input's ``torch.Size``."""
    assert _transpose_size_errors(torch) == [
        "requested an output size of [13, 3], but valid sizes range from [9, 11] to [10, 12] "
        "(for an input of torch.Size([4, 5]))",
        "requested an output size of [20], but valid sizes range from [9] to [10] "
        "(for an input of torch.Size([4]))",
    ]


def test_conv_transpose_output_size_error_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _transpose_size_errors(torch) == _transpose_size_errors(real)


def _functional_call_missing(lib):
    from importlib import import_module

    functional_call = import_module(lib.__name__ + ".func").functional_call
    net = lib.nn.Sequential(lib.nn.Linear(1, 2))
    try:
        functional_call(net, {"1.weight": lib.ones(2, 1)}, (lib.ones(1, 1),))
    except AttributeError as e:
        return str(e)


def test_functional_call_names_a_missing_submodule_as_pytorch():
    """A key through a missing submodule gave ``getattr``'s "'Sequential' object has no
    attribute '1'"; PyTorch's functional_call gives ``get_submodule``'s message."""
    assert _functional_call_missing(torch) == "Sequential has no attribute `1`"


def test_functional_call_missing_submodule_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _functional_call_missing(torch) == _functional_call_missing(real)
