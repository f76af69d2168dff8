"""PyTorch's own docstring examples, run on fgrad.torch against PyTorch 2.13's stored results.

tests/stored/torch_docstring_examples.json is written by ``python tools/torch_docstring_examples.py
--write`` (it needs torch): for every example that agrees, its statements and what each showed on
PyTorch (values by dtype, shape and numbers; printed text; errors by type), after
``torch.manual_seed(0)``. Here each runs on ``fgrad.torch`` and is compared step by step
(fgrad/testing/torch_doc_examples.py), and, when torch is installed, on torch again. The examples
fgrad runs quickest make the default part (under about 30 s); the rest are marked slow.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re

import pytest
from tests._host_numerics import skip_where_avx512_rounds_otherwise

import fgrad.torch as ft
from fgrad.testing.torch_doc_examples import compare_steps, run_example

STORED = os.path.join(os.path.dirname(__file__), "..", "stored", "torch_docstring_examples.json")
DEFAULT_BUDGET_S = 12.0  # of the tool's measured fgrad time; the test's own time is about twice it

with open(STORED) as _f:
    DATA = json.load(_f)


def _cases():
    spent = 0.0
    out = []
    for ex in sorted(DATA["examples"], key=lambda e: e["fgrad_seconds"]):
        spent += ex["fgrad_seconds"]
        marks = () if spent <= DEFAULT_BUDGET_S else (pytest.mark.slow,)
        out.append(pytest.param(ex, id=ex["name"], marks=marks))
    return out


CASES = _cases()


@pytest.fixture(autouse=True)
def _fresh_warn_once(monkeypatch):
    # PyTorch's once-per-process warnings (torch.asarray's) were fresh in the stored run
    import fgrad.torch._ops_creation as creation

    monkeypatch.setattr(creation, "_ASARRAY_WARNED", [])


def _missing_module(sources) -> str | None:
    """An optional module an example imports that is not installed (``matplotlib`` in
    ``torch.meshgrid``'s plot): the example cannot run here, for either face."""
    for src in sources:
        for m in re.finditer(r"^\s*(?:import|from)\s+([A-Za-z_]\w*)", src, re.M):
            name = m.group(1)
            if name != "torch" and importlib.util.find_spec(name) is None:
                return name
    return None


# torch.allclose(X @ A, B) at rtol 1e-5 decides on the triangular solve's last bits, which
# follow OpenBLAS's kernels (True on AVX2 hosts, as PyTorch; False with AVX-512's)
_BLAS_ROUNDING_PINNED = {"torch.linalg.solve_triangular"}


@pytest.mark.parametrize("ex", CASES)
def test_example_agrees_with_pytorch(ex):
    missing = _missing_module(ex["sources"])
    if missing is not None:
        pytest.skip(f"{ex['name']}'s example imports {missing}, not installed")
    if ex["name"] in _BLAS_ROUNDING_PINNED:
        skip_where_avx512_rounds_otherwise(f"{ex['name']}'s allclose at the default tolerance")
    steps = run_example(ex["sources"], ft, qualname=ex["name"], time_limit=60.0)
    diff = compare_steps(steps, ex["torch_steps"])
    assert diff is None, f"{ex['name']}: {diff}\n" + "".join(">>> " + s for s in ex["sources"])


@pytest.mark.slow
@pytest.mark.parametrize("ex", CASES[:40])
def test_stored_results_are_pytorchs(ex):
    torch = pytest.importorskip("torch")
    if torch.__version__.split("+")[0] != DATA["torch_version"].split("+")[0]:
        pytest.skip(f"stored from torch {DATA['torch_version']}")
    steps = run_example(ex["sources"], torch, qualname=ex["name"], time_limit=60.0)
    assert compare_steps(steps, ex["torch_steps"]) is None


def test_every_status_is_recorded():
    statuses = set(DATA["statuses"].values())
    assert statuses <= {"same", "differs", "fgrad raises", "torch raises", "skipped"}
    same = [n for n, s in DATA["statuses"].items() if s == "same"]
    assert sorted(same) == sorted(e["name"] for e in DATA["examples"])
    assert len(same) > 600  # docs/torch-docstring-examples.md records the counts
