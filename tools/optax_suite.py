"""Run optax's own test files one by one, under real JAX or under fgrad (the jax alias).

    python tools/optax_suite.py real  OUTDIR [FILTERS]   # reference: the installed jax
    python tools/optax_suite.py fgrad OUTDIR [FILTERS]   # `python -m fgrad.jax_alias -m pytest`

FILTERS: comma-separated substrings; a file runs when its path contains one (default: all).
Each file runs in its own process with a timeout (OPTAX_SUITE_TIMEOUT seconds, default 600);
OUTDIR gets one log per file and summary.tsv (file, passed, failed, errors, skipped, seconds,
exit status).
"""

from __future__ import annotations

import pathlib
import re
import subprocess
import sys
import time

import importlib.util
import os

REPO = pathlib.Path(__file__).resolve().parents[1]
TIMEOUT_S = int(os.environ.get("OPTAX_SUITE_TIMEOUT", "600"))


def optax_test_files() -> list[pathlib.Path]:
    """The installed optax's ``*_test.py`` files, sorted."""
    spec = importlib.util.find_spec("optax")
    if spec is None or spec.origin is None:
        raise SystemExit("optax is not installed (pip install -e '.[ecosystem]')")
    root = pathlib.Path(spec.origin).parent
    return sorted(root.rglob("*_test.py"))


def counts(log: str) -> dict[str, int]:
    """passed/failed/errors/skipped from pytest's last summary line."""
    out = {"passed": 0, "failed": 0, "error": 0, "skipped": 0}
    lines = [ln for ln in log.splitlines() if re.search(r"\d+ (passed|failed|error|skipped)", ln)]
    if lines:
        for n, word in re.findall(r"(\d+) (passed|failed|errors?|skipped)", lines[-1]):
            out["error" if word.startswith("error") else word] += int(n)
    return out


def main() -> None:
    mode, outdir = sys.argv[1], pathlib.Path(sys.argv[2])
    patterns = sys.argv[3].split(",") if len(sys.argv) > 3 else [""]
    outdir.mkdir(parents=True, exist_ok=True)
    runner = ["-m", "pytest"] if mode == "real" else ["-m", "fgrad.jax_alias", "-m", "pytest"]
    rows = []
    for path in optax_test_files():
        name = str(path).split("site-packages/")[-1]
        if not any(p in name for p in patterns):
            continue
        t0 = time.time()
        cmd = ["timeout", str(TIMEOUT_S), sys.executable, *runner, str(path), "-q",
               "-p", "no:cacheprovider", "-o", "addopts=", "--tb=line", "-rfE"]
        proc = subprocess.run(cmd, capture_output=True, text=True, cwd="/tmp",
                              env={**os.environ, "JAX_PLATFORMS": "cpu",
                                   "PYTHONPATH": str(REPO) + os.pathsep + os.environ.get("PYTHONPATH", "")})
        log = proc.stdout + proc.stderr
        (outdir / (name.replace("/", "__") + ".log")).write_text(log)
        c = counts(log)
        row = (name, c["passed"], c["failed"], c["error"], c["skipped"], round(time.time() - t0, 1),
               proc.returncode)
        rows.append(row)
        print(*row, sep="\t", flush=True)
    with open(outdir / "summary.tsv", "w") as f:
        for row in rows:
            print(*row, sep="\t", file=f)


if __name__ == "__main__":
    main()
