"""Round 21's defects of ``fgrad.torch`` (docs/torch-programs-round21.md), each against
PyTorch 2.13's numbers stored here (printed by the same code with ``import torch``) and, when
PyTorch is installed, live."""

from __future__ import annotations

import copy
import io
import math
import os
import pickle
import zipfile

import pytest

import fgrad.torch as torch


# ---- gradgradcheck's grad_outputs come from the global generator, as PyTorch's -------------------

def _rng_after_gradgradcheck(lib):
    """The next ``rand`` after gradgradcheck with drawn grad_outputs: PyTorch draws them with
    ``torch.testing.make_tensor(..., low=-1, high=1)`` from the global generator."""
    out = []
    for func, kw in ((lambda p: (p ** 3).sum(), {}), (lambda p: p ** 3, {}),
                     (lambda p: p ** 3, {"gen_non_contig_grad_outputs": True}),
                     (lambda p: (p ** 3, (p > 0).double(), p * 2), {})):
        lib.manual_seed(9)
        p = lib.linspace(-1.0, 1.0, 6, dtype=lib.float64).requires_grad_()
        assert lib.autograd.gradgradcheck(func, (p,), **kw)
        out.append(lib.rand(1).item())
    return out


# PyTorch 2.13
_RNG_AFTER = [0.4798964262008667, 0.13809555768966675, 0.44679152965545654, 0.44679152965545654]


def test_gradgradcheck_draws_grad_outputs_from_the_global_generator():
    """gradgradcheck drew its grad_outputs from a private NumPy generator: a program's random
    numbers after it (a training run) were not PyTorch's."""
    assert _rng_after_gradgradcheck(torch) == _RNG_AFTER


def test_gradgradcheck_draws_grad_outputs_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _rng_after_gradgradcheck(torch) == _rng_after_gradgradcheck(real)


def test_gradgradcheck_pairs_grad_outputs_with_the_differentiable_outputs_only():
    """Given grad_outputs are one per output that requires grad (PyTorch's convention); a
    non-differentiable output before them took the first one and the differentiable one was
    left out: nothing was checked and a wrong second derivative passed."""

    class DetachedSquare(torch.autograd.Function):  # right first, wrong second derivative
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a * a

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * 2 * a.detach()

    p = torch.linspace(-1.0, 1.0, 6, dtype=torch.float64).requires_grad_()
    v = torch.linspace(0.5, 1.5, 6, dtype=torch.float64).requires_grad_()
    assert torch.autograd.gradcheck(DetachedSquare.apply, (p,))
    assert torch.autograd.gradgradcheck(lambda x: ((x > 0).double(), x ** 3), (p,), (v,))
    assert not torch.autograd.gradgradcheck(lambda x: ((x > 0).double(), DetachedSquare.apply(x)), (p,), (v,),
                                            raise_exception=False)


# ---- gradcheck of a non-contiguous input --------------------------------------------------------

def test_gradcheck_of_a_non_contiguous_input():
    """gradcheck refused a transposed or strided input ("inputs must be contiguous"); PyTorch
    checks it, and a wrong gradient through it is still caught."""
    base = torch.linspace(-1.0, 1.0, 12, dtype=torch.float64).reshape(3, 4)
    for x in (base.t(), base[:, ::2]):
        x = x.detach().requires_grad_()
        assert not x.is_contiguous()
        assert torch.autograd.gradcheck(lambda a: a.sin() * a[:1], (x,))

    class WrongExp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            ctx.save_for_backward(a)
            return a.exp()

        @staticmethod
        def backward(ctx, g):
            (a,) = ctx.saved_tensors
            return g * a  # wrong: exp(a)

    x = base.t().detach().requires_grad_()
    assert not torch.autograd.gradcheck(WrongExp.apply, (x,), raise_exception=False)
    assert torch.equal(x, base.t())  # the perturbations are undone


# ---- layouts: one torch.layout type, saved as PyTorch saves them -------------------------------

def _layout_round_trip(lib):
    buf = io.BytesIO()
    lib.save({"layouts": [lib.sparse_coo, lib.strided, lib.sparse_csr]}, buf)
    data = buf.getvalue()
    back = [lib.load(io.BytesIO(data), weights_only=w)["layouts"] for w in (True, False)]
    return data, [[repr(x) for x in b] for b in back], all(isinstance(x, lib.layout) for x in back[0])


def test_layouts_are_one_type_and_save_as_pytorch_saves_them():
    """torch.sparse_coo and torch.sparse_csr were instances of their own classes (not
    torch.layout), and torch.save of a layout raised a PicklingError; PyTorch writes one as
    ``torch.serialization._get_layout("torch.strided")`` and loads it with weights_only."""
    assert isinstance(torch.sparse_coo, torch.layout) and isinstance(torch.sparse_csr, torch.layout)
    data, back, all_layouts = _layout_round_trip(torch)
    assert back == [["torch.sparse_coo", "torch.strided", "torch.sparse_csr"]] * 2 and all_layouts
    assert b"torch.serialization\n_get_layout" in _data_pkl(data)
    assert torch.load(io.BytesIO(data))["layouts"][1] is torch.strided is torch.zeros(1).layout
    assert copy.deepcopy(torch.sparse_coo) is torch.sparse_coo


def test_layouts_load_across_live_pytorch():
    real = pytest.importorskip("torch")
    for saver, loader in ((torch, real), (real, torch)):
        data, _, _ = _layout_round_trip(saver)
        got = loader.load(io.BytesIO(data), weights_only=True)["layouts"]
        assert [repr(x) for x in got] == ["torch.sparse_coo", "torch.strided", "torch.sparse_csr"]
        assert got[1] is loader.strided


def _data_pkl(data: bytes) -> bytes:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return zf.read(next(n for n in zf.namelist() if n.endswith("data.pkl")))


# ---- weights_only: PyTorch's default allow-list and its messages ------------------------------

def _weights_only_refusals(lib):
    out = []
    for obj in (slice(1, None, 2), frozenset([1]), range(3), Ellipsis, os.getcwd):
        buf = io.BytesIO()
        lib.save({"x": obj}, buf)
        buf.seek(0)
        try:
            out.append(("loaded", repr(lib.load(buf, weights_only=True)["x"])))
        except pickle.UnpicklingError as e:
            msg = str(e).replace("\033[1m", "").replace("\033[0m", "")  # PyTorch's bold
            lines = msg[msg.index("Weights only"):].split("\n")
            out.append(("refused", lines[-3 if "blocked" in msg else 3]))
    return out


def _not_allowed(name: str) -> str:
    return (f"\tWeightsUnpickler error: Unsupported global: GLOBAL {name} was not an allowed global by "
            f"default. Please use `torch.serialization.add_safe_globals([{name}])` or the "
            f"`torch.serialization.safe_globals([{name}])` context manager to allowlist this global if you "
            "trust this class/function.")


# PyTorch 2.13's (posix: this test runs on Linux)
_REFUSALS = [("refused", _not_allowed(name)) for name in ("slice", "frozenset", "range", "Ellipsis")] + [
    ("refused", "Trying to load unsupported GLOBAL posix.getcwd whose module posix is blocked.")]


@pytest.mark.skipif(os.name != "posix", reason="os.getcwd pickles as posix.getcwd on posix only")
def test_weights_only_refuses_what_pytorch_refuses():
    """weights_only loads built a slice and a frozenset (PyTorch refuses both: they are not on
    its default allow-list), named ``range`` and ``Ellipsis`` by their Python 2 names
    (``builtins.xrange``), and offered add_safe_globals for os/posix globals (PyTorch blocks
    those modules outright)."""
    assert _weights_only_refusals(torch) == _REFUSALS
    with torch.serialization.safe_globals([slice, frozenset]):
        buf = io.BytesIO()
        torch.save({"s": slice(1, None, 2), "f": frozenset([2])}, buf)
        buf.seek(0)
        assert torch.load(buf, weights_only=True) == {"s": slice(1, None, 2), "f": frozenset([2])}


def test_weights_only_refuses_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _weights_only_refusals(torch) == _weights_only_refusals(real)


# ---- ReduceLROnPlateau ---------------------------------------------------------------------------

def _plateau(lib):
    opt = lib.optim.SGD([lib.nn.Parameter(lib.ones(1))], lr=1.0)
    s = lib.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=0, min_lr=0.1)
    opt.add_param_group({"params": [lib.nn.Parameter(lib.ones(1))], "lr": 0.5})
    for m in (3.0, 3.0, 3.0):
        s.step(m)
    out = [list(s.state_dict()), [g["lr"] for g in opt.param_groups], s.min_lrs]
    s.load_state_dict({**s.state_dict(), "mode": "max"})
    out.append(s.mode_worse)
    try:
        s.load_state_dict({**s.state_dict(), "mode": "avg"})
    except ValueError as e:
        out.append(str(e))
    return out


_PLATEAU = [["factor", "default_min_lr", "min_lrs", "patience", "cooldown", "eps", "last_epoch", "_last_lr",
             "mode_worse", "mode", "threshold", "threshold_mode", "best", "cooldown_counter",
             "num_bad_epochs"],
            [0.1, 0.1], [0.1, 0.1], -math.inf, "mode avg is unknown!"]  # PyTorch 2.13's


def test_reduce_lr_on_plateau_state_and_added_groups():
    """ReduceLROnPlateau's state_dict listed its keys in another order than PyTorch's (a
    printed state differed), a param group added after it raised IndexError instead of
    getting the default min_lr, and load_state_dict did not re-derive mode_worse."""
    assert _plateau(torch) == _PLATEAU


def test_reduce_lr_on_plateau_as_live_pytorch():
    real = pytest.importorskip("torch")
    assert _plateau(torch) == _plateau(real)


# ---- autograd.grad with no inputs -------------------------------------------------------------

def test_grad_with_no_inputs_is_an_error():
    """``torch.autograd.grad(y, [])`` returned () (a silently empty result); PyTorch raises."""
    x = torch.ones(2, requires_grad=True)
    for ins in ([], ()):
        with pytest.raises(RuntimeError, match="`inputs` argument to `grad\\(\\)` cannot be empty."):
            torch.autograd.grad((x * 2).sum(), ins)
    with pytest.raises(RuntimeError, match="`inputs` argument to `backward\\(\\)` cannot be empty."):
        (x * 2).sum().backward(inputs=[])


# ---- LBFGS: the two-loop recursion in the parameters' dtype ----------------------------------

def _lbfgs_state(lib):
    p = lib.tensor([-1.5, 2.0, 0.5], requires_grad=True)
    lb = lib.optim.LBFGS([p], lr=1, max_iter=3, history_size=4)

    def closure():
        lb.zero_grad()
        loss = ((p - lib.tensor([1.0, 2.0, 3.0])) ** 2 * lib.tensor([1.0, 10.0, 3.0])).sum()
        loss.backward()
        return loss

    lb.step(closure)
    st = lb.state[p]
    return (sorted(st), [(type(r).__name__, str(r.dtype), r.item()) for r in st["ro"]],
            [None if a is None else a.item() for a in st["al"]], p.tolist())


# PyTorch 2.13's
_LBFGS = (["H_diag", "al", "d", "func_evals", "n_iter", "old_dirs", "old_stps", "prev_flat_grad", "prev_loss",
           "ro", "t"], [("Tensor", "torch.float32", 0.2857142984867096)],
          [2.5714287757873535, None, None, None],
          [-0.01916360855102539, 2.0, 3.1132404804229736])


def test_lbfgs_keeps_pytorch_state_and_float32_arithmetic():
    """LBFGS computed ``ro = 1/ys``, ``H_diag`` and the two-loop ``al``/``be_i`` as Python
    floats (float64 arithmetic where PyTorch's is 0-d tensors in the parameters' dtype) and
    kept no ``al`` buffer in its state: a printed or saved state differed from PyTorch's."""
    keys, ro, al, x = _lbfgs_state(torch)
    assert (keys, ro, al) == _LBFGS[:3]
    assert x == pytest.approx(_LBFGS[3], rel=1e-6)


def test_lbfgs_state_as_live_pytorch():
    real = pytest.importorskip("torch")
    got, want = _lbfgs_state(torch), _lbfgs_state(real)
    assert got[:3] == want[:3] and got[3] == pytest.approx(want[3], rel=1e-6)
