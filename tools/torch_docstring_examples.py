"""Run PyTorch's own docstring examples on real ``torch`` and on ``fgrad.torch`` and compare.

For every public callable of ``torch``, ``torch.Tensor``, ``torch.nn.functional``, ``torch.nn``
(modules), ``torch.linalg``, ``torch.fft``, ``torch.special``, ``torch.distributions``,
``torch.nn.utils`` and ``torch.optim`` whose docstring has ``>>>`` lines, the example is run twice
in fresh namespaces (``torch.manual_seed(0)`` first; ``torch``, ``nn`` and ``F`` bound to the face
under test) and the runs are compared step by step (fgrad/testing/torch_doc_examples.py).

    python tools/torch_docstring_examples.py                 # report (stdout), per function
    python tools/torch_docstring_examples.py --write         # also tests/stored/torch_docstring_examples.json
    python tools/torch_docstring_examples.py --only torch.add,Tensor.scatter_ --verbose

Needs torch (PyTorch 2.13). The stored JSON holds PyTorch's results for the examples that agree;
tests/shim/test_torch_docstring_examples.py replays them on fgrad.torch without torch.
"""

from __future__ import annotations

import argparse
import doctest
import inspect
import json
import os
import re
import sys
import time
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

import torch  # noqa: E402

import fgrad.torch as ftorch  # noqa: E402
from fgrad.testing.torch_doc_examples import compare_steps, missing_warnings, run_example  # noqa: E402

OUT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "stored",
                   "torch_docstring_examples.json")

# Examples that need what a CPU program run by changing its import cannot have, by words in the source.
SKIP_WORDS = [
    ("device='mps'", "needs MPS"), ("quantiz", "quantized tensors"),
    ("qint", "quantized tensors"), ("quint", "quantized tensors"), ("q_scale", "quantized tensors"),
    ("open(", "files"), ("torch.save", "files"), ("torch.load", "files"), ("from_file", "files"),
    (".pt'", "files"), ('.pt"', "files"), ("tempfile", "files"), ("http", "network"), ("hub.", "network"),
    ("torch.distributed", "distributed processes"), ("dist.", "distributed processes"),
    ("sparse_bsr", "sparse BSR/BSC layouts"), ("sparse_bsc", "sparse BSR/BSC layouts"),
    ("to_sparse_bsr", "sparse BSR/BSC layouts"), ("nested", "nested tensors"),
    ("torch.compile", "torch.compile graph capture"), ("torch.jit", "TorchScript"),
    ("torch._", "private API"), ("mkldnn", "MKL-DNN layout"), ("vulkan", "Vulkan"),
    ("dataloader", "data files"), ("train_loader", "undefined training objects"),
    ("input_fn", "undefined names"),
]
# Examples whose outputs PyTorch does not define: uninitialized memory.
UNDEFINED = {"torch.empty": "uninitialized memory", "torch.empty_strided": "uninitialized memory",
             "Tensor.new_empty": "uninitialized memory", "Tensor.new_empty_strided": "uninitialized memory",
             "torch.nn.utils.skip_init": "uninitialized memory"}


def _doc_entries() -> list[tuple[str, str, object]]:
    """(group, qualified name, object) for each public documented callable, PyTorch's order."""
    import torch.distributions
    import torch.nn.utils.parametrizations
    import torch.nn.utils.parametrize
    import torch.nn.utils.prune
    import torch.nn.utils.rnn
    import torch.nn.utils.stateless
    import torch.optim.lr_scheduler
    import torch.optim.swa_utils

    spaces = [
        ("torch", "torch", torch),
        ("Tensor", "Tensor", torch.Tensor),
        ("nn.functional", "torch.nn.functional", torch.nn.functional),
        ("nn", "torch.nn", torch.nn),
        ("linalg", "torch.linalg", torch.linalg),
        ("fft", "torch.fft", torch.fft),
        ("special", "torch.special", torch.special),
        ("distributions", "torch.distributions", torch.distributions),
        ("nn.utils", "torch.nn.utils", torch.nn.utils),
        ("nn.utils", "torch.nn.utils.rnn", torch.nn.utils.rnn),
        ("nn.utils", "torch.nn.utils.parametrize", torch.nn.utils.parametrize),
        ("nn.utils", "torch.nn.utils.parametrizations", torch.nn.utils.parametrizations),
        ("nn.utils", "torch.nn.utils.prune", torch.nn.utils.prune),
        ("nn.utils", "torch.nn.utils.stateless", torch.nn.utils.stateless),
        ("optim", "torch.optim", torch.optim),
        ("optim", "torch.optim.lr_scheduler", torch.optim.lr_scheduler),
        ("optim", "torch.optim.swa_utils", torch.optim.swa_utils),
    ]
    seen: set[int] = set()
    out = []
    for group, prefix, space in spaces:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            names = sorted(n for n in dir(space) if not n.startswith("_"))
            for n in names:
                try:
                    obj = getattr(space, n)
                except Exception:  # noqa: BLE001 - a lazily-failing attribute has no example
                    continue
                if inspect.ismodule(obj) or not callable(obj):
                    continue
                if not str(getattr(obj, "__module__", None) or "torch").startswith("torch"):
                    continue  # re-exported from elsewhere (enum.Enum, typing.TypedDict)
                doc = getattr(obj, "__doc__", None)
                if not isinstance(doc, str) or ">>>" not in doc or id(doc) in seen:
                    continue
                seen.add(id(doc))
                out.append((group, f"{prefix}.{n}", doc))
    return out


_DIRECTIVE = re.compile(r"#\s*(xdoctest|doctest):.*$", re.M)


def examples_of(doc: str) -> list[str]:
    """The statements of a docstring's ``>>>`` examples, directives stripped, in order."""
    parser = doctest.DocTestParser()
    try:
        exs = parser.get_examples(inspect.cleandoc(doc))
    except ValueError:
        exs = _loose_examples(doc)
    out: list[str] = []
    for e in exs:
        src = _DIRECTIVE.sub("", e.source).rstrip()
        if not src.strip():
            continue
        if out and (src[0] in " \t" or src.startswith(("else", "elif", "except", "finally"))):
            out[-1] += src + "\n"  # PyTorch writes some loop bodies as '>>>     body'
        else:
            out.append(src + "\n")
    # a statement that needs a CUDA device is left out; the rest runs on the CPU
    return [s for s in out if "cuda" not in s.lower() or "is_available" in s]


def _loose_examples(doc: str) -> list[doctest.Example]:
    """Examples of a docstring whose indentation DocTestParser refuses: each block re-dedented."""
    out = []
    for block in re.split(r"\n\s*\n", doc):
        lines = [ln.strip() for ln in block.splitlines() if ln.strip().startswith((">>>", "..."))]
        src: list[str] = []
        for ln in lines:
            if ln.startswith(">>>"):
                if src:
                    out.append(doctest.Example("\n".join(src) + "\n", ""))
                src = [ln[4:]]
            elif src:
                src.append(ln[4:])
        if src:
            out.append(doctest.Example("\n".join(src) + "\n", ""))
    return out


def skip_reason(name: str, sources: list[str]) -> str | None:
    text = "\n".join(sources)
    low = text.lower()
    if name in UNDEFINED:
        return UNDEFINED[name]
    for word, why in SKIP_WORDS:
        if word.lower() in low:
            return why
    return None


def run_all(only: set[str] | None, verbose: bool) -> list[dict]:
    rows = []
    for group, name, doc in _doc_entries():
        short = name.removeprefix("torch.") if name.startswith("torch.") else name
        if only and name not in only and short not in only:
            continue
        sources = examples_of(doc)
        if not sources:
            continue
        row = {"group": group, "name": name, "sources": sources}
        why = skip_reason(name, sources)
        if why:
            row.update(status="skipped", why=why)
            rows.append(row)
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            t_steps = run_example(sources, torch, qualname=name)
            t0 = time.perf_counter()
            f_steps = run_example(sources, ftorch, qualname=name)
            row["fgrad_seconds"] = round(time.perf_counter() - t0, 4)
        row["torch_steps"] = t_steps
        if t_steps[-1]["kind"] == "raises" and t_steps[-1]["error"] == "NameError":
            row.update(status="skipped", why="undefined names (PyTorch's own run: "
                       + t_steps[-1]["message"] + ")")
            rows.append(row)
            continue
        diff = compare_steps(f_steps, t_steps)
        if missing_warnings(f_steps, t_steps):
            row["missing_warnings"] = missing_warnings(f_steps, t_steps)
        if diff is None:
            row["status"] = "same"
        elif f_steps[-1]["kind"] == "raises" and len(f_steps) <= len(t_steps) and (
                t_steps[len(f_steps) - 1]["kind"] != "raises"):
            row.update(status="fgrad raises", diff=diff)
        elif t_steps[-1]["kind"] == "raises":
            row.update(status="torch raises", diff=diff)
        else:
            row.update(status="differs", diff=diff)
        if t_steps and t_steps[-1]["kind"] == "raises" and row["status"] == "same":
            row["status"] = "same"  # both raise the same error at the same step
        rows.append(row)
        if verbose and row["status"] != "same":
            print(f"{name}: {row['status']}: {row.get('diff', '')}", flush=True)
    return rows


def report(rows: list[dict]) -> str:
    statuses = ["same", "differs", "fgrad raises", "torch raises", "skipped"]
    groups = sorted({r["group"] for r in rows}, key=[r["group"] for r in rows].index)
    lines = ["| group | examples | " + " | ".join(statuses) + " |",
             "|---|---|" + "---|" * len(statuses)]
    for g in [*groups, "all"]:
        rs = [r for r in rows if g in ("all", r["group"])]
        counts = [sum(r["status"] == s for r in rs) for s in statuses]
        lines.append(f"| {g} | {len(rs)} | " + " | ".join(map(str, counts)) + " |")
    lines.append("")
    for s in statuses[1:]:
        for r in rows:
            if r["status"] == s:
                lines.append(f"- {s}: `{r['name']}`: {r.get('diff', r.get('why', ''))}")
    for r in rows:
        if r.get("missing_warnings"):
            warns = ", ".join(r["missing_warnings"])
            lines.append(f"- PyTorch warns, fgrad does not: `{r['name']}`: {warns}")
    return "\n".join(lines)


def stored(rows: list[dict]) -> dict:
    """What the test replays: PyTorch's steps for the examples that agree, and every status."""
    return {
        "torch_version": torch.__version__,
        "statuses": {r["name"]: r["status"] for r in rows},
        "skipped": {r["name"]: r["why"] for r in rows if r["status"] == "skipped"},
        "examples": [{"name": r["name"], "group": r["group"], "sources": r["sources"],
                      "fgrad_seconds": r["fgrad_seconds"], "torch_steps": r["torch_steps"]}
                     for r in rows if r["status"] == "same"],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="comma-separated names (torch.add or Tensor.add)")
    ap.add_argument("--write", action="store_true", help="write " + OUT)
    ap.add_argument("--json", default="", help="write the full per-function report here")
    ap.add_argument("--verbose", action="store_true")
    a = ap.parse_args()
    only = set(filter(None, a.only.split(","))) or None
    rows = run_all(only, a.verbose)
    print(report(rows))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=0)
    if a.write:
        with open(OUT, "w") as f:
            json.dump(stored(rows), f, separators=(",", ":"))
            f.write("\n")


if __name__ == "__main__":
    main()
