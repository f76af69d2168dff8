"""Regenerate tests/stored/autocast_cpu_torch.json (the dtype of each op of
tests/shim/autocast_cases.py under PyTorch's CPU autocast, for float32 and bfloat16 inputs,
with autocast dtype bfloat16 and float16) and tests/stored/grad_scaler_torch.json (the loop
of tests/shim/amp_loop_case.py).  Run from the repo root with torch installed:
``python tools/make_autocast_table.py``."""

from __future__ import annotations

import json
import pathlib
import sys

import torch

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "shim"))
from autocast_cases import OPS  # noqa: E402
from amp_loop_case import run  # noqa: E402


def main() -> None:
    table = {}
    for name, op in OPS.items():
        row = {}
        for ac in ("bfloat16", "float16"):
            for inp in ("float32", "bfloat16"):
                torch.manual_seed(0)

                def mk(*shape, inp=inp):
                    return torch.rand(*shape).to(getattr(torch, inp))

                with torch.autocast("cpu", dtype=getattr(torch, ac)):
                    try:
                        row[f"{ac}/{inp}"] = str(op(torch, mk).dtype)[6:]
                    except Exception as e:  # noqa: BLE001 - record PyTorch's refusal
                        row[f"{ac}/{inp}"] = "error: " + type(e).__name__
        table[name] = row
    out = ROOT / "tests" / "stored" / "autocast_cpu_torch.json"
    out.write_text(json.dumps(table, indent=1, sort_keys=True))
    loops = {"fp32": run(torch, False), "autocast_bf16": run(torch, True)}
    (ROOT / "tests" / "stored" / "grad_scaler_torch.json").write_text(json.dumps(loops, indent=1))


if __name__ == "__main__":
    main()
