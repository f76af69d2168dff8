"""Run the ported notes examples and capture what they print.

    python examples/notes/_runner.py --backend fgrad [--json OUT] [script.py ...]
    python examples/notes/_runner.py --backend torch --seed-offset 1 [--json OUT] [...]
    python examples/notes/_runner.py --record      # rewrite reference_outputs.json (needs torch)

Each script runs as ``__main__`` in a fresh module, in this one process, with its stdout captured.
``--backend torch`` runs the same source with ``fgrad.torch`` replaced by ``torch`` (the notes'
original import).  fgrad.torch reproduces PyTorch's CPU random streams, so the reference is
PyTorch's whole output (seed offset 0), random draws included; ``--seed-offset k`` shifts every
``manual_seed`` (and seeds the generator once before the script), and the record notes which
lines depend on the draws (those that differ between seed offsets 0, 1 and 2), for information
(see tests/shim/test_notes.py).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
import sys
import traceback
import types

HERE = os.path.dirname(os.path.abspath(__file__))
REFERENCE = os.path.join(HERE, "reference_outputs.json")
_ADDR = re.compile(r"0x[0-9a-fA-F]+")


def scripts() -> list[str]:
    return sorted(f for f in os.listdir(HERE) if f.endswith(".py") and not f.startswith("_"))


def source_for(script: str, backend: str) -> str:
    with open(os.path.join(HERE, script), encoding="utf-8") as fh:
        src = fh.read()
    if backend == "torch":
        src = src.replace("fgrad.torch", "torch")
    return src


def normalize(text: str) -> list[str]:
    """Lines of output with object addresses blanked out and trailing spaces dropped."""
    return [_ADDR.sub("0x?", line).rstrip() for line in text.splitlines()]


def _reset(lib) -> None:
    with contextlib.suppress(Exception):
        lib.set_grad_enabled(True)


def run_one(script: str, backend: str, seed_offset: int = 0) -> dict:
    if backend == "torch":
        import torch as lib
    else:
        import fgrad.torch as lib
    src = source_for(script, backend)
    orig_seed = lib.manual_seed
    if seed_offset:
        lib.manual_seed(1234567 * seed_offset)
        lib.manual_seed = lambda s: orig_seed(int(s) + 7919 * seed_offset)
    mod = types.ModuleType("__main__")
    mod.__file__ = os.path.join(HERE, script)
    saved_main, saved_argv = sys.modules.get("__main__"), sys.argv
    sys.modules["__main__"] = mod
    sys.argv = [mod.__file__]
    buf = io.StringIO()
    error = None
    try:
        with contextlib.redirect_stdout(buf):
            exec(compile(src, mod.__file__, "exec"), mod.__dict__)
    except BaseException:  # noqa: BLE001 — report any failure of the script
        error = traceback.format_exc(limit=-8)
    finally:
        lib.manual_seed = orig_seed
        sys.modules["__main__"] = saved_main
        sys.argv = saved_argv
        _reset(lib)
    return {"stdout": buf.getvalue(), "error": error}


def run_all(backend: str, names: list[str] | None = None, seed_offset: int = 0) -> dict:
    return {s: run_one(s, backend, seed_offset) for s in (names or scripts())}


def record() -> dict:
    """PyTorch's output of every script (seed offset 0), and the indices of the lines that
    change with the seed (offsets 1 and 2)."""
    import torch

    runs = [run_all("torch", seed_offset=k) for k in (0, 1, 2)]
    ref = {"torch_version": torch.__version__, "scripts": {}, "random_lines": {}}
    for name in scripts():
        outs = []
        for r in runs:
            if r[name]["error"]:
                raise RuntimeError(f"{name} fails under torch:\n{r[name]['error']}")
            outs.append(normalize(r[name]["stdout"]))
        ref["scripts"][name] = outs[0]
        ref["random_lines"][name] = [i for i, x in enumerate(outs[0])
                                     if any(len(o) <= i or o[i] != x for o in outs[1:])]
    return ref


def main(argv: list[str]) -> int:
    import argparse

    p = argparse.ArgumentParser()
    p.add_argument("--backend", choices=["fgrad", "torch"], default="fgrad")
    p.add_argument("--seed-offset", type=int, default=0)
    p.add_argument("--json")
    p.add_argument("--record", action="store_true")
    p.add_argument("scripts", nargs="*")
    ns = p.parse_args(argv)
    sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
    if ns.record:
        ref = record()
        with open(REFERENCE, "w", encoding="utf-8") as fh:
            json.dump(ref, fh, ensure_ascii=False, indent=1)
            fh.write("\n")
        print(f"wrote {REFERENCE} ({len(ref['scripts'])} scripts, torch {ref['torch_version']})")
        return 0
    out = run_all(ns.backend, ns.scripts or None, ns.seed_offset)
    if ns.json:
        with open(ns.json, "w", encoding="utf-8") as fh:
            json.dump(out, fh, ensure_ascii=False)
    else:
        for name, r in out.items():
            print(f"===== {name}")
            print(r["stdout"], end="")
            if r["error"]:
                print(r["error"])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
