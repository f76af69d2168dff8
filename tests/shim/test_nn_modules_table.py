"""Every activation module of ``fgrad.torch.nn`` against PyTorch 2.13, from one table.

Each row is ``(class name, args, kwargs, repr, attributes)``: the repr and the attributes
PyTorch lists in ``__constants__`` (``m.negative_slope``, ``m.inplace``, ``m.dim``, ...) were
recorded from torch 2.13 (CPU) and are stored here, so the checks run without torch; with
torch installed, the same rows are re-checked against live torch, and so are the outputs,
the constructor signatures and the class hierarchy.  Without torch, outputs are checked
against the functional each module stands for.
"""

from __future__ import annotations

import inspect
import pickle
import warnings

import numpy as np
import pytest

import fgrad.torch as ft
import fgrad.torch.nn.functional as F
from fgrad.torch import nn

try:
    import torch as _torch
except ImportError:  # the stored numbers are used instead
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")

ACTIVATIONS = [
    ("ReLU", (), {}, "ReLU()", {"inplace": False}),
    ("ReLU", (True,), {}, "ReLU(inplace=True)", {"inplace": True}),
    ("ReLU6", (), {}, "ReLU6()", {"min_val": 0.0, "max_val": 6.0, "inplace": False}),
    ("ReLU6", (), {"inplace": True}, "ReLU6(inplace=True)",
     {"min_val": 0.0, "max_val": 6.0, "inplace": True}),
    ("Threshold", (0.1, 20.0), {}, "Threshold(threshold=0.1, value=20.0)",
     {"threshold": 0.1, "value": 20.0, "inplace": False}),
    ("Threshold", (0.1, -1), {"inplace": True}, "Threshold(threshold=0.1, value=-1, inplace=True)",
     {"threshold": 0.1, "value": -1, "inplace": True}),
    ("LeakyReLU", (), {}, "LeakyReLU(negative_slope=0.01)", {"negative_slope": 0.01, "inplace": False}),
    ("LeakyReLU", (0.2, True), {}, "LeakyReLU(negative_slope=0.2, inplace=True)",
     {"negative_slope": 0.2, "inplace": True}),
    ("RReLU", (), {}, "RReLU(lower=0.125, upper=0.3333333333333333)",
     {"lower": 0.125, "upper": 1 / 3, "inplace": False}),
    ("RReLU", (0.1, 0.3), {"inplace": True}, "RReLU(lower=0.1, upper=0.3, inplace=True)",
     {"lower": 0.1, "upper": 0.3, "inplace": True}),
    ("ELU", (), {}, "ELU(alpha=1.0)", {"alpha": 1.0, "inplace": False}),
    ("ELU", (0.5,), {"inplace": True}, "ELU(alpha=0.5, inplace=True)", {"alpha": 0.5, "inplace": True}),
    ("CELU", (), {}, "CELU(alpha=1.0)", {"alpha": 1.0, "inplace": False}),
    ("CELU", (), {"alpha": 2, "inplace": True}, "CELU(alpha=2, inplace=True)", {"alpha": 2, "inplace": True}),
    ("SELU", (), {}, "SELU()", {"inplace": False}),
    ("SELU", (True,), {}, "SELU(inplace=True)", {"inplace": True}),
    ("GELU", (), {}, "GELU(approximate='none')", {"approximate": "none"}),
    ("GELU", ("tanh",), {}, "GELU(approximate='tanh')", {"approximate": "tanh"}),
    ("SiLU", (), {}, "SiLU()", {"inplace": False}),
    ("SiLU", (), {"inplace": True}, "SiLU(inplace=True)", {"inplace": True}),
    ("Mish", (), {}, "Mish()", {"inplace": False}),
    ("Mish", (True,), {}, "Mish(inplace=True)", {"inplace": True}),
    ("Sigmoid", (), {}, "Sigmoid()", {}),
    ("Tanh", (), {}, "Tanh()", {}),
    ("Hardtanh", (), {}, "Hardtanh(min_val=-1.0, max_val=1.0)",
     {"min_val": -1.0, "max_val": 1.0, "inplace": False}),
    ("Hardtanh", (-2, 3, True), {}, "Hardtanh(min_val=-2, max_val=3, inplace=True)",
     {"min_val": -2, "max_val": 3, "inplace": True}),
    ("Hardsigmoid", (), {}, "Hardsigmoid()", {"inplace": False}),
    ("Hardsigmoid", (True,), {}, "Hardsigmoid()", {"inplace": True}),
    ("Hardswish", (), {}, "Hardswish()", {"inplace": False}),
    ("Hardswish", (), {"inplace": True}, "Hardswish()", {"inplace": True}),
    ("Hardshrink", (), {}, "Hardshrink(0.5)", {"lambd": 0.5}),
    ("Hardshrink", (0.3,), {}, "Hardshrink(0.3)", {"lambd": 0.3}),
    ("Softshrink", (), {}, "Softshrink(0.5)", {"lambd": 0.5}),
    ("Softshrink", (), {"lambd": 1}, "Softshrink(1)", {"lambd": 1}),
    ("Tanhshrink", (), {}, "Tanhshrink()", {}),
    ("LogSigmoid", (), {}, "LogSigmoid()", {}),
    ("Softplus", (), {}, "Softplus(beta=1.0, threshold=20.0)", {"beta": 1.0, "threshold": 20.0}),
    ("Softplus", (2,), {"threshold": 1.5}, "Softplus(beta=2, threshold=1.5)", {"beta": 2, "threshold": 1.5}),
    ("Softsign", (), {}, "Softsign()", {}),
    ("GLU", (), {}, "GLU(dim=-1)", {"dim": -1}),
    ("GLU", (0,), {}, "GLU(dim=0)", {"dim": 0}),
    ("Softmax", (), {}, "Softmax(dim=None)", {"dim": None}),
    ("Softmax", (1,), {}, "Softmax(dim=1)", {"dim": 1}),
    ("Softmin", (), {"dim": 0}, "Softmin(dim=0)", {"dim": 0}),
    ("LogSoftmax", (-1,), {}, "LogSoftmax(dim=-1)", {"dim": -1}),
    ("Softmax2d", (), {}, "Softmax2d()", {}),
    ("PReLU", (), {}, "PReLU(num_parameters=1)", {"num_parameters": 1}),
    ("PReLU", (4, 0.1), {}, "PReLU(num_parameters=4)", {"num_parameters": 4}),
]
IDS = [f"{name}-{i}" for i, (name, *_rest) in enumerate(ACTIVATIONS)]
NAMES = sorted({row[0] for row in ACTIVATIONS})

# the functional each module stands for, with the module's attributes as arguments
FUNCTIONAL = {
    "ReLU": lambda m, x: F.relu(x), "ReLU6": lambda m, x: F.relu6(x),
    "Threshold": lambda m, x: F.threshold(x, m.threshold, m.value),
    "LeakyReLU": lambda m, x: F.leaky_relu(x, m.negative_slope), "ELU": lambda m, x: F.elu(x, m.alpha),
    "CELU": lambda m, x: F.celu(x, m.alpha), "SELU": lambda m, x: F.selu(x),
    "GELU": lambda m, x: F.gelu(x, approximate=m.approximate), "SiLU": lambda m, x: F.silu(x),
    "Mish": lambda m, x: F.mish(x), "Sigmoid": lambda m, x: ft.sigmoid(x), "Tanh": lambda m, x: ft.tanh(x),
    "Hardtanh": lambda m, x: F.hardtanh(x, m.min_val, m.max_val),
    "Hardsigmoid": lambda m, x: F.hardsigmoid(x),
    "Hardswish": lambda m, x: F.hardswish(x), "Hardshrink": lambda m, x: F.hardshrink(x, m.lambd),
    "Softshrink": lambda m, x: F.softshrink(x, m.lambd), "Tanhshrink": lambda m, x: x - ft.tanh(x),
    "LogSigmoid": lambda m, x: F.logsigmoid(x), "Softplus": lambda m, x: F.softplus(x, m.beta, m.threshold),
    "Softsign": lambda m, x: x / (1 + x.abs()), "GLU": lambda m, x: F.glu(x, m.dim),
    "Softmax": lambda m, x: F.softmax(x, m.dim), "Softmin": lambda m, x: F.softmin(x, m.dim),
    "LogSoftmax": lambda m, x: F.log_softmax(x, m.dim), "Softmax2d": lambda m, x: F.softmax(x, -3),
    "PReLU": lambda m, x: F.prelu(x, m.weight),
    "RReLU": lambda m, x: F.leaky_relu(x, (m.lower + m.upper) / 2),  # eval mode
}


def _input(lib):
    x = np.random.default_rng(3).standard_normal((2, 4, 3, 2)) * 3
    return lib.tensor(x.astype(np.float32))


def _run(module, x):
    module.eval()  # RReLU is random in training mode
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Softmax(dim=None) warns about the implicit dim
        return module(x.clone())


@pytest.mark.parametrize("name,args,kwargs,want_repr,want_attrs", ACTIVATIONS, ids=IDS)
def test_repr_and_attributes_stored(name, args, kwargs, want_repr, want_attrs) -> None:
    m = getattr(nn, name)(*args, **kwargs)
    assert repr(m) == want_repr
    assert {a: getattr(m, a) for a in want_attrs} == want_attrs
    assert set(m.state_dict()) == ({"weight"} if name == "PReLU" else set())


@pytest.mark.parametrize("name,args,kwargs,want_repr,want_attrs", ACTIVATIONS, ids=IDS)
def test_forward_is_the_functional(name, args, kwargs, want_repr, want_attrs) -> None:
    m = getattr(nn, name)(*args, **kwargs)
    x = _input(ft)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Softmax(dim=None) warns about the implicit dim
        want = FUNCTIONAL[name](m, x.clone())
    got = _run(m, x)
    np.testing.assert_allclose(got.detach().numpy(), want.detach().numpy(), rtol=1e-6, atol=1e-7)
    if getattr(m, "inplace", False):  # an in-place module writes into its input and returns it
        y = x.clone()
        out = m.eval()(y)
        assert out.data_ptr() == y.data_ptr()
        np.testing.assert_allclose(y.numpy(), want.detach().numpy(), rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name,args,kwargs,want_repr,want_attrs", ACTIVATIONS, ids=IDS)
def test_pickle_and_save_roundtrip(name, args, kwargs, want_repr, want_attrs, tmp_path) -> None:
    m = getattr(nn, name)(*args, **kwargs)
    x = _input(ft)
    for again in (pickle.loads(pickle.dumps(m)), _save_load(m, tmp_path)):
        assert type(again) is type(m) and repr(again) == want_repr
        assert {a: getattr(again, a) for a in want_attrs} == want_attrs
        np.testing.assert_array_equal(_run(again, x).detach().numpy(), _run(m, x).detach().numpy())


def _save_load(m, tmp_path):
    path = tmp_path / "m.pt"
    ft.save(m, path)
    return ft.load(path, weights_only=False)


def test_old_pickles_get_default_arguments() -> None:
    """A pickle made before an argument existed loads with the argument's default (as
    PyTorch's Softmax does for ``dim``)."""
    m = nn.Softmax(dim=1)
    del m.__dict__["dim"]
    again = pickle.loads(pickle.dumps(m))
    assert again.dim is None
    leaky = nn.LeakyReLU(0.3)
    del leaky.__dict__["inplace"]
    again = pickle.loads(pickle.dumps(leaky))
    assert again.inplace is False and again.negative_slope == 0.3


def test_bad_arguments() -> None:
    with pytest.raises(AssertionError, match=r"max_val \(1.0\) must be greater than min_val \(2.0\)"):
        nn.Hardtanh(2.0, 1.0)
    with pytest.raises(TypeError):
        nn.Threshold(0.1)  # value is required
    with pytest.raises(TypeError):
        nn.ReLU(False, True)


@needs_torch
@pytest.mark.parametrize("name,args,kwargs,want_repr,want_attrs", ACTIVATIONS, ids=IDS)
def test_live_torch(name, args, kwargs, want_repr, want_attrs) -> None:
    tm = getattr(_torch.nn, name)(*args, **kwargs)
    assert repr(tm) == want_repr
    assert {a: getattr(tm, a) for a in getattr(tm, "__constants__", [])} == want_attrs
    fm = getattr(nn, name)(*args, **kwargs)
    with _torch.no_grad():
        got = _run(fm, _input(ft)).detach().numpy()
        want = _run(tm, _torch.tensor(_input(ft).numpy())).numpy()
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-6)


@needs_torch
@pytest.mark.parametrize("name", NAMES)
def test_signature_and_bases_match_torch(name) -> None:
    ours, theirs = getattr(nn, name), getattr(_torch.nn, name)
    sig = [(p.name, p.default, p.kind) for p in inspect.signature(ours).parameters.values()]
    want = [(p.name, p.default, p.kind) for p in inspect.signature(theirs).parameters.values()]
    assert sig == want
    for other in NAMES:
        assert issubclass(ours, getattr(nn, other)) == issubclass(theirs, getattr(_torch.nn, other)), other


def test_every_activation_is_in_the_table() -> None:
    from fgrad.torch.nn.modules import activation

    # MultiheadAttention lives in activation.py as in PyTorch; tests/shim/test_attention.py covers it
    assert set(activation.__all__) - {"MultiheadAttention"} == set(NAMES)
