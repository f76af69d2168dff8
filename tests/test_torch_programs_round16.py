"""PyTorch programs in the style of the tutorials and research repos rounds 9 to 13 did not cover
(tests/torch_programs_round16/: a CTC speech recogniser, a mixture density network, PPO with
GAE, a PixelCNN, a capsule network, Sinkhorn optimal transport, a neural ODE, metric learning,
a WaveNet, k-means and PCA, image augmentation, beam search), run with ``import torch`` changed
to ``import fgrad.torch as torch`` (round 9's ``_swap.py``: the import lines only) and compared
with PyTorch 2.13's output, stored in ``torch_programs_round16/expected/`` (written by running
each program with PyTorch: ``python tests/torch_programs_round16/NAME.py >
.../expected/NAME.txt``) and, by the slow tests, with the installed PyTorch: the same text and
the same numbers to one and a half units of their last printed digit. Below them, the
regression tests of the defects this round found (docs/torch-programs-round16.md), each against
PyTorch's numbers stored here and, when PyTorch is installed, live.

The default run runs two programs; ``pytest tests/test_torch_programs_round16.py -m slow`` runs
all of them against the stored and the live outputs.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import fgrad.numpy as fnp
import fgrad.torch as torch
from test_torch_programs_round9 import program_tests  # round 9's runner, _swap.py and text check

PROGRAMS = Path(__file__).resolve().parent / "torch_programs_round16"
NAMES = sorted(p.stem for p in PROGRAMS.glob("*.py") if not p.stem.startswith("_"))
FAST = {"capsnet_routing", "kmeans_pca"}  # the default run's programs


(test_program_prints_what_pytorch_prints, test_every_program_prints_what_pytorch_prints,
 test_program_prints_what_live_pytorch_prints,
 test_every_program_has_a_stored_output_and_imports_torch_only) = program_tests(
    PROGRAMS, NAMES, FAST, 12)


# ---- sort(stable=False): PyTorch's std::sort order of ties ------------------------------------

def _sorts(lib):
    nan = float("nan")
    x = lib.tensor([[1, 1, 0], [0, 1, 1], [1, 0, 1], [1, 1, 1]]).bool()
    big = lib.tensor(np.random.default_rng(3).integers(0, 4, 40000))
    return [lib.tensor([0, 1] * 9).sort().indices.tolist(),
            lib.tensor([[2.0, 1.0, 2.0, 1.0, nan, 2.0, nan, 0.0, -0.0] * 2]).sort(descending=True)
            .indices.tolist(),
            lib.tensor([3, 1, 3, 1, 3, 1, 3] * 3).argsort(descending=True).tolist(),
            x.sort(0).indices.tolist(), x.half().sort(0, descending=True).indices.tolist(),
            lib.msort(x.int()).tolist(),
            big.sort().indices[:8].tolist(), big[:3000].sort(descending=True).indices[:8].tolist(),
            big[:3000].float().sort().indices[:8].tolist(), big.sort(stable=True).indices[:8].tolist(),
            big[:3000].float().sort(descending=True).indices[:8].tolist()]


# PyTorch 2.13 (CPU)
_SORTS = [[2, 16, 4, 6, 14, 8, 0, 10, 12, 9, 17, 15, 13, 11, 7, 5, 3, 1],
          [[15, 4, 6, 13, 0, 2, 5, 14, 9, 11, 1, 12, 10, 3, 8, 7, 16, 17]],
          [20, 2, 4, 18, 6, 7, 9, 0, 11, 16, 13, 14, 10, 19, 17, 15, 12, 8, 5, 3, 1],
          [[1, 2, 0], [0, 0, 1], [2, 1, 2], [3, 3, 3]], [[0, 0, 1], [2, 1, 2], [3, 3, 3], [1, 2, 0]],
          [[0, 0, 0], [1, 1, 1], [1, 1, 1], [1, 1, 1]],
          [1, 2, 3, 4, 8, 9, 15, 18], [1001, 1625, 1804, 2234, 496, 2233, 498, 2232],
          [1418, 535, 2363, 2624, 1425, 2052, 2618, 914], [1, 2, 3, 4, 8, 9, 15, 18],
          [1001, 1625, 1804, 2234, 496, 2233, 498, 2232]]


def test_unstable_sort_leaves_ties_in_pytorchs_order():
    """``sort``/``argsort``/``msort`` without ``stable=True`` return tied entries in the order
    libstdc++'s ``std::sort`` leaves them on PyTorch's CPU (a 1-D integer tensor of 32768 or
    more sorted ascending: FBGEMM's radix sort, stable); fgrad sorted stably, so a ranking,
    a bucketing or the rows gathered by an argsort over ties came out in another order.  (Rows
    with ties holding more than ``_SORT_REPLAY_MAX`` values in all keep the stable order.)"""
    assert _sorts(torch) == _SORTS


def test_unstable_sort_ties_match_live_pytorch():
    real = pytest.importorskip("torch")
    rng = np.random.default_rng(5)
    for trial in range(400):
        shape = [int(rng.choice([2, 3, 17, 40, 130]))] + ([int(rng.integers(1, 5))] if trial % 3 == 0 else [])
        v = rng.integers(0, 4, shape).astype(np.float32)
        if trial % 5 == 0:
            v[rng.random(shape) < 0.2] = np.nan
        if trial % 7 == 0:
            v[v == 0] = -0.0
        dt = ["float32", "int64", "float16", "bool", "float64", "bfloat16", "uint8"][trial % 7]
        if dt in ("int64", "bool", "uint8"):
            v = np.nan_to_num(v)
        d, desc = int(rng.integers(0, len(shape))), bool(trial % 2)
        want = real.tensor(v).to(getattr(real, dt)).sort(d, desc).indices.tolist()
        assert torch.tensor(v).to(getattr(torch, dt)).sort(d, desc).indices.tolist() == want
        assert torch.tensor(v).to(getattr(torch, dt)).argsort(d, desc).tolist() == want


# ---- bfloat16 NaNs: NumPy's sort of ml_dtypes.bfloat16 misplaced them --------------------------

def _bf16(lib):
    nan = float("nan")
    b = lib.tensor([nan, 1.0, 0.0, 2.0, 1.0, nan, -1.0]).bfloat16()
    u, inv, cnt = lib.unique(b, return_inverse=True, return_counts=True)
    k = lib.kthvalue(b, 2)
    return [b.sort(stable=True).values.float().tolist(), b.sort(stable=True).indices.tolist(),
            b.argsort(stable=True).tolist(), lib.msort(b).float().tolist(), u.float().tolist(), inv.tolist(),
            cnt.tolist(), lib.searchsorted(lib.tensor([0.0, 1.0, 2.0]).bfloat16(), b).tolist(),
            lib.bucketize(b, lib.tensor([0.0, 1.0, 2.0]).bfloat16()).tolist(), k.values.item(),
            k.indices.item()]


def _same(a, b):
    return np.array_equal(np.asarray(a, dtype=float), np.asarray(b, dtype=float), equal_nan=True)


# PyTorch 2.13
_BF16 = [[-1.0, 0.0, 1.0, 1.0, 2.0, np.nan, np.nan], [6, 2, 1, 4, 3, 0, 5], [6, 2, 1, 4, 3, 0, 5],
         [-1.0, 0.0, 1.0, 1.0, 2.0, np.nan, np.nan], [-1.0, 0.0, 1.0, 2.0, np.nan, np.nan],
         [4, 2, 1, 3, 2, 5, 0],
         [1, 1, 2, 1, 1, 1], [3, 1, 0, 2, 1, 3, 0], [3, 1, 0, 2, 1, 3, 0], 0.0, 2]


def test_bfloat16_nans_sort_last():
    """NumPy sorts ``ml_dtypes.bfloat16`` with its failed NaN comparisons, which left NaNs
    first (or anywhere): ``sort``/``argsort``/``msort`` of a bfloat16 tensor with NaNs,
    ``kthvalue``, ``unique`` (NaNs merged into the values' places) and ``searchsorted``/
    ``bucketize`` (NaN counted below everything) were silently wrong; PyTorch puts NaN last,
    as for every float dtype.  They now sort its exact float32 widening
    (`fgrad.core.narrow_floats.sortable`)."""
    got = _bf16(torch)
    assert all(_same(g, w) for g, w in zip(got, _BF16, strict=True)), got


def test_bfloat16_nans_match_live_pytorch():
    real = pytest.importorskip("torch")
    assert all(_same(g, w) for g, w in zip(_bf16(torch), _bf16(real), strict=True))


def test_fgrad_numpy_sorts_bfloat16_nans_last_as_jax():
    """The engine's ``sort`` primitive (``fnp.sort``, ``argsort``, ``lexsort``, ``lax.sort``)
    and ``fnp.unique`` had the same NumPy bfloat16 fault; JAX puts NaN last."""
    import fgrad

    with fgrad.default_device("cpu"):  # (CuPy and its fake stand-in have no bfloat16)
        a = fnp.array([np.nan, 1.0, 0.0, 2.0, 1.0, np.nan, -1.0], fnp.bfloat16)
        assert _same(fnp.sort(a), [-1, 0, 1, 1, 2, np.nan, np.nan])  # jax 0.10.2
        assert fnp.argsort(a).tolist() == [6, 2, 1, 4, 3, 0, 5]
        assert _same(fnp.unique(a), [-1, 0, 1, 2, np.nan]) and fnp.unique(a).dtype == fnp.bfloat16
        assert fnp.lexsort((a, fnp.zeros(7))).tolist() == [6, 2, 1, 4, 3, 0, 5]


def test_cummax_of_bfloat16_nans_gives_no_warning():
    b = torch.tensor([1.0, float("nan"), 2.0]).bfloat16()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        v, i = torch.cummax(b, 0)
        torch.cummin(b, 0)
    assert i.tolist() == [0, 1, 1] and np.isnan(v.float().numpy()[1:]).all()  # PyTorch 2.13


# ---- dropout2d of a 3-D input, and PyTorch's deprecation warnings -------------------------------

def _dropout2d(lib):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lib.manual_seed(0)
        a = lib.nn.functional.dropout2d(lib.ones(2, 3, 4))
        lib.manual_seed(0)
        b = lib.nn.functional.dropout2d(lib.ones(2, 3))
        lib.manual_seed(0)
        c = lib.nn.Dropout2d(0.3)(lib.ones(1, 2, 1, 1, 2))
    return [a.tolist(), b.tolist(), c.flatten().tolist()]


# PyTorch 2.13
_DROPOUT2D = [[[[0.0] * 4, [0.0] * 4, [2.0] * 4], [[0.0] * 4] * 3], [[0.0, 0.0, 2.0], [0.0, 0.0, 0.0]]]


def test_dropout2d_reads_a_3d_input_as_batched_channels():
    """PyTorch's ``dropout2d`` reads a 3-D input as ``(N, C, L)`` (one mask entry per sample
    and channel, with a warning that this will change); fgrad read it as an unbatched
    ``(C, H, W)`` and drew one entry per channel: other entries zeroed, silently.  A 2-D
    input (fgrad raised) is PyTorch's element-wise feature dropout with a deprecation
    warning, a 5-D one the same per ``(N, C)``."""
    got = _dropout2d(torch)
    assert got[:2] == _DROPOUT2D
    with pytest.warns(UserWarning, match="interpreted as shape \\(N, C, L\\)"):
        torch.nn.functional.dropout2d(torch.ones(2, 3, 4))
    with pytest.warns(UserWarning, match="Received a 2-D input to dropout2d"):
        torch.nn.functional.dropout2d(torch.ones(2, 3))
    with pytest.raises(RuntimeError, match="Feature dropout requires at least 2 dimensions"), \
            pytest.warns(UserWarning, match="Received a 1-D input"):
        torch.nn.functional.dropout2d(torch.ones(3))


def test_dropout2d_matches_live_pytorch():
    real = pytest.importorskip("torch")
    assert _dropout2d(torch) == _dropout2d(real)


def _warned(call) -> list[tuple[str, str]]:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        call()
    return [(w.category.__name__, str(w.message).split("\n")[0][:50]) for w in caught]


_A = [[2.0, 1.0, 0.0], [1.0, 3.0, 1.0], [0.0, 1.0, 4.0]]


def _warning_cases(lib):
    a = lib.tensor(_A)
    enc = lib.nn.TransformerEncoderLayer
    sgd = lib.optim.SGD([lib.zeros(1, requires_grad=True)], lr=0.1)
    return {
        "chain_matmul": lambda: lib.chain_matmul(a, a, a),
        "cholesky": lambda: lib.cholesky(a),
        "lu": lambda: lib.lu(a),
        "lu_solve": lambda: lib.lu_solve(lib.ones(3, 1), *lib.linalg.lu_factor(a)),
        "qr": lambda: a.qr(),
        "set_default_tensor_type": lambda: lib.set_default_tensor_type(lib.FloatTensor),
        "cross": lambda: lib.cross(a, a),
        "index_reduce": lambda: lib.zeros(3).index_reduce_(0, lib.tensor([0, 1]), lib.ones(2), "prod"),
        "meshgrid": lambda: lib.meshgrid(lib.arange(2), lib.arange(2)),
        "TransformerEncoder": lambda: lib.nn.TransformerEncoder(enc(8, 2, 16), 1),
        "odd heads": lambda: lib.nn.TransformerEncoder(enc(9, 3, 16, 0.0, batch_first=True), 1),
        "fast path": lambda: lib.nn.TransformerEncoder(enc(8, 2, 16, batch_first=True), 1),
        "Transformer": lambda: lib.nn.Transformer(8, 2, 1, 1, 16),
        "state_dict": lambda: lib.nn.Linear(2, 2).state_dict(None, ""),
        "std": lambda: lib.std(lib.ones(1)),
        "var": lambda: lib.ones(2, 1).var(1),
        "std_mean": lambda: lib.std_mean(lib.ones(3), correction=3),
        "var_mean": lambda: lib.var_mean(lib.ones(2, 3), 0),
        "var, enough": lambda: lib.ones(2, 3).var(0),
        "scheduler": lambda: lib.optim.lr_scheduler.StepLR(sgd, 1),
    }


# PyTorch 2.13 (the first line of each message, cut at 50 characters)
_WARNINGS = {
    "chain_matmul": [("UserWarning", "torch.chain_matmul is deprecated and will be remov")],
    "cholesky": [("UserWarning", "torch.cholesky is deprecated in favor of torch.lin")],
    "lu": [("UserWarning", "torch.lu is deprecated in favor of torch.linalg.lu")],
    "lu_solve": [("UserWarning", "torch.lu_solve is deprecated in favor of torch.lin")],
    "qr": [("UserWarning", "torch.qr is deprecated in favor of torch.linalg.qr")],
    "set_default_tensor_type": [("UserWarning", "torch.set_default_tensor_type() is deprecated as o")],
    "cross": [("UserWarning", "Using torch.cross without specifying the dim arg i")],
    "index_reduce": [("UserWarning", "index_reduce() is in beta and the API may change a")],
    "meshgrid": [("UserWarning", "torch.meshgrid: in an upcoming release, it will be")],
    "TransformerEncoder": [("UserWarning", "enable_nested_tensor is True, but self.use_nested_")],
    "odd heads": [("UserWarning", "enable_nested_tensor is True, but self.use_nested_")],
    "fast path": [],
    "Transformer": [("UserWarning", "enable_nested_tensor is True, but self.use_nested_")],
    "state_dict": [("FutureWarning", "Positional args are being deprecated, use kwargs i")],
    "std": [("UserWarning", "std(): degrees of freedom is <= 0. Correction shou")],
    "var": [("UserWarning", "var(): degrees of freedom is <= 0. Correction shou")],
    "std_mean": [("UserWarning", "std_mean(): degrees of freedom is <= 0. Correction")],
    "var_mean": [],
    "var, enough": [],
    "scheduler": [],
}


def test_deprecation_warnings_as_pytorch():
    """The deprecation warnings and notices PyTorch 2.13 gives and fgrad did not (round 15's
    list): the once-per-process ones (``TORCH_WARN_ONCE``) only the first time."""
    from fgrad.torch import _deprecations

    _deprecations._GIVEN.clear()
    try:
        for name, call in _warning_cases(torch).items():
            assert _warned(call) == _WARNINGS[name], name
        assert _warned(lambda: torch.cross(torch.tensor(_A), torch.tensor(_A))) == []  # once only
    finally:
        torch.set_default_dtype(torch.float32)


def test_deprecation_warnings_match_live_pytorch():
    real = pytest.importorskip("torch")
    import subprocess
    import sys

    code = ("import json, sys, warnings; sys.path.insert(0, 'tests'); import torch; "
            "from test_torch_programs_round16 import _warning_cases, _warned; "
            "print(json.dumps({k: _warned(c) for k, c in _warning_cases(torch).items()}))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         cwd=Path(__file__).resolve().parent.parent)
    import json

    live = {k: [tuple(w) for w in v] for k, v in json.loads(out.stdout.strip().splitlines()[-1]).items()}
    assert live == _WARNINGS
    assert real.__version__


def test_linalg_cross_takes_the_last_dimension():
    """``torch.linalg.cross`` was ``torch.cross``, whose ``dim=None`` takes the first
    dimension of size 3: on a (3, 3) input the cross product of the columns instead of the
    rows, silently.  ``linalg.cross`` takes ``dim=-1`` (keyword only) and names a wrong
    length as PyTorch does."""
    a = torch.arange(9.0).reshape(3, 3)
    b = torch.tensor([[1.0, 0.0, 2.0], [0.0, 1.0, 1.0], [3.0, 1.0, 0.0]])
    want = [[2.0, 2.0, -1.0], [-1.0, -3.0, 3.0], [-8.0, 24.0, -15.0]]  # PyTorch 2.13
    assert torch.linalg.cross(a, b).tolist() == want
    assert torch.cross(a, b, dim=1).tolist() == want
    assert torch.linalg.cross(torch.ones(1, 3), torch.ones(4, 3)).shape == (4, 3)
    with pytest.raises(RuntimeError, match="inputs dimension -1 must have length 3. Got 4 and 4"):
        torch.linalg.cross(torch.ones(3, 4), torch.ones(3, 4))
