"""Benchmark runner: every case's implementations side by side, in one process.

    python -m benchmarks                      # all cases, print the table
    python -m benchmarks --only sin,grad      # some cases
    python -m benchmarks --write-readme --plot benchmarks/benchmarks.png
    python -m benchmarks --list

Timing (timeit-style): each implementation is called once (checked against the reference
implementation's output and timed as "first call", which includes tracing/compilation), then
warmed up while a loop count is calibrated so one repeat takes at least ``--min-time``; then
``--repeat`` repeats run round-robin across the implementations (rotating their order), with
the garbage collector off inside each timed block (one full collection per case beforehand).
Reported: best (min) and median per-call time, minus the harness's own per-call overhead (an
empty callable, measured the same way).
Ratios are fgrad's best time / the peer's best time.  Every library runs on 1 thread and the
process is pinned to 1 CPU (``--threads``), jax on the CPU (``jax_enable_x64`` on for float64 cases only).
"""

from __future__ import annotations

import os
import sys

if __package__ in (None, ""):  # run as a script: python benchmarks/run.py
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    __package__ = "benchmarks"  # noqa: A001

from . import _env  # noqa: E402  (thread pinning, before numpy)

import argparse  # noqa: E402
import gc  # noqa: E402
import json  # noqa: E402
import platform  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402

import numpy as np  # noqa: E402

from .cases import IMPLS, LABELS, Skip, all_cases  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
START, END = "<!-- bench:start -->", "<!-- bench:end -->"


# ----------------------------------------------------------------------------- timing

def _block(fn, number: int) -> float:
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        for _ in range(number):
            fn()
        return time.perf_counter() - t0
    finally:
        if was_enabled:
            gc.enable()


def calibrate(fn, min_time: float) -> int:
    """Smallest loop count in 1, 2, 5, 10, 20, ... whose block takes >= min_time (warms up)."""
    number = 1
    while True:
        for k in (1, 2, 5):
            n = number * k
            if _block(fn, n) >= min_time:
                return n
        number *= 10


@dataclass
class ImplResult:
    status: str = "ok"          # ok | skipped reason | error message
    first_call: float = float("nan")
    best: float = float("nan")
    median: float = float("nan")
    number: int = 0
    times: list = field(default_factory=list)
    check: str = ""             # "" (not checked), "ok", or a mismatch description


@dataclass
class CaseResult:
    name: str
    title: str
    short: str
    issue: int
    group: str
    goals: list
    notes: dict
    first_call_matters: bool
    impls: dict = field(default_factory=dict)
    skipped: str = ""

    def ok(self, impl: str) -> bool:
        r = self.impls.get(impl)
        return r is not None and r.status == "ok"

    def ratio(self, peer: str) -> float:
        if self.ok("fgrad") and self.ok(peer):
            return self.impls["fgrad"].best / self.impls[peer].best
        return float("nan")


def to_numpy(out):
    if isinstance(out, dict):
        return [to_numpy(v) for _, v in sorted(out.items())]
    if isinstance(out, (list, tuple)):
        return [to_numpy(v) for v in out]
    if hasattr(out, "detach"):  # torch / fgrad.torch tensors
        out = out.detach()
        if hasattr(out, "numpy"):
            return np.asarray(out.numpy())
    return np.asarray(out)


def compare(a, b, rtol: float, atol: float) -> str:
    a, b = to_numpy(a), to_numpy(b)
    if isinstance(a, list) or isinstance(b, list):
        if not (isinstance(a, list) and isinstance(b, list)) or len(a) != len(b):
            return "different structure"
        for x, y in zip(a, b, strict=True):
            msg = compare(x, y, rtol, atol)
            if msg != "ok":
                return msg
        return "ok"
    if a.shape != b.shape:
        return f"shape {a.shape} vs {b.shape}"
    if a.ndim and a.dtype != b.dtype:  # (scalars may come back as Python floats)
        return f"dtype {a.dtype} vs {b.dtype}"
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    if not np.allclose(a64, b64, rtol=rtol, atol=atol):
        err = np.max(np.abs(a64 - b64) / (atol + rtol * np.abs(b64)))
        return f"mismatch ({err:.1f}x tolerance)"
    return "ok"


def run_case(cls, opts, overhead: float) -> CaseResult:
    case = cls()
    res = CaseResult(cls.name, cls.title, cls.short, cls.issue, cls.group, list(cls.goals), dict(cls.notes),
                     cls.first_call_matters)
    names = case.implementations()
    wanted = [n for n in names if n == "fgrad" or n not in opts.exclude]
    if "jax" in wanted:
        try:
            import jax

            jax.config.update("jax_enable_x64", bool(case.jax_x64))
        except ImportError:
            pass
    case.setup()
    fns, outs = {}, {}
    for name in wanted:
        r = res.impls[name] = ImplResult()
        try:
            fn = getattr(case, name)()
            t0 = time.perf_counter()
            out = fn()
            r.first_call = time.perf_counter() - t0
        except Skip as e:
            r.status = f"skipped: {e}"
        except ImportError as e:
            r.status = f"not installed ({e.name or e})"
        except Exception as e:  # noqa: BLE001 - report and go on with the other columns
            r.status = f"error: {type(e).__name__}: {e}".splitlines()[0][:200]
        else:
            fns[name], outs[name] = fn, out
        if name == "fgrad" and r.status != "ok" and not opts.peers_only:
            res.skipped = r.status
            return res
    ref = case.reference if case.reference in outs else None
    for name, out in outs.items():
        if ref is not None and name != ref:
            res.impls[name].check = compare(out, outs[ref], case.rtol, case.atol)
    # one full collection per case, then freeze the survivors: with torch and jax loaded a
    # collection takes ~0.3 s, and frozen objects keep the (untimed) automatic ones cheap
    gc.collect()
    gc.freeze()
    try:
        _time_all(res, fns, opts, overhead)
    finally:
        gc.unfreeze()
    return res


def _time_all(res: CaseResult, fns: dict, opts, overhead: float) -> None:
    for name, fn in fns.items():
        res.impls[name].number = calibrate(fn, opts.min_time)
    order = list(fns)
    for rep in range(opts.repeat):
        k = rep % len(order) if order else 0
        for name in order[k:] + order[:k]:
            r = res.impls[name]
            r.times.append(_block(fns[name], r.number) / r.number - overhead)
    for name in fns:
        r = res.impls[name]
        r.best, r.median = max(min(r.times), 0.0), max(statistics.median(r.times), 0.0)


def harness_overhead(opts) -> float:
    noop = lambda: None  # noqa: E731
    number = calibrate(noop, opts.min_time)
    return min(_block(noop, number) / number for _ in range(opts.repeat))


# ----------------------------------------------------------------------------- reporting

def fmt_time(t: float) -> str:
    if t != t:
        return "—"
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)):
        if t >= scale or unit == "ns":
            v = t / scale
            return f"{v:.3g} {unit}" if v < 100 else f"{v:.0f} {unit}"
    return str(t)


def fmt_ratio(r: float) -> str:
    if r != r:
        return "—"
    return f"{r:.1g}×" if r < 0.0095 else f"{r:.2f}×" if r < 10 else f"{r:.1f}×"


def goal_text(res: CaseResult) -> str:
    parts = []
    for peer, limit in res.goals:
        r = res.ratio(peer)
        mark = "" if r != r else (" ✅" if r <= limit else " ❌")
        parts.append(f"≤ {limit:g}× {LABELS[peer]}{mark}")
    return "; ".join(parts) or "—"


def columns(results) -> list[str]:
    return [n for n in IMPLS if any(n in r.impls for r in results if not r.skipped)]


def cell(res: CaseResult, name: str) -> str:
    r = res.impls.get(name)
    if r is None:
        return ""
    if r.status != "ok":
        return "n/a" if r.status.startswith(("not installed", "skipped")) else "error"
    s = fmt_time(r.best)
    if name != "fgrad" and res.ok("fgrad"):
        s += f" ({fmt_ratio(res.ratio(name))})"
    if r.check not in ("", "ok"):
        s += " ⚠"
    return s


def markdown(results, meta: dict, plot: str | None = None) -> str:
    shown = [r for r in results if not r.skipped]
    cols = columns(results)
    lines = ["| benchmark | " + " | ".join(LABELS[c] for c in cols) + " |",
             "|---|" + "---:|" * len(cols)]
    for r in shown:
        lines.append(f"| {r.title} | " + " | ".join(cell(r, c) for c in cols) + " |")
    out = ["Best per-call time; in parentheses fgrad's time ÷ that column's time "
           "(below 1× means fgrad is faster).", "", *lines, ""]
    notes = []
    for r in shown:
        bits = [f"{LABELS[k]}: {v}" for k, v in r.notes.items() if k in r.impls]
        if r.first_call_matters:
            bits.append("first call (trace + compile): " + ", ".join(
                f"{LABELS[k]} {fmt_time(v.first_call)}" for k, v in r.impls.items()
                if v.status == "ok" and k != "numpy"))
        bad = [f"{LABELS[k]} {v.check}" for k, v in r.impls.items() if v.check not in ("", "ok")]
        if bad:
            bits.append("⚠ output differs from the reference: " + ", ".join(bad))
        errs = [f"{LABELS[k]} {v.status}" for k, v in r.impls.items() if v.status.startswith("error")]
        if errs:
            bits.append("; ".join(errs))
        if bits:
            notes.append(f"- *{r.short or r.name}* — " + "; ".join(bits) + ".")
    skipped = [f"`{r.name}` ({r.skipped})" for r in results if r.skipped]
    if skipped:
        notes.append("- Not run yet (fgrad side missing): " + ", ".join(skipped) + ".")
    out += notes
    out += ["", f"Measured {meta['date']} on {meta['cpu']}, {meta['threads']} thread(s), "
            f"Python {meta['python']}, " + ", ".join(f"{k} {v}" for k, v in meta["versions"].items())
            + f"; OpenBLAS core: {meta['blas_core']}; harness overhead "
            f"{fmt_time(meta['overhead'])} per call subtracted; best of {meta['repeat']} repeats. "
            "Regenerate with `python -m benchmarks --write-readme --plot benchmarks/benchmarks.png`."]
    if plot:
        out += ["", f"![benchmark plot]({plot})"]
    return "\n".join(out)


def print_report(results, meta) -> None:
    print()
    hdr = f"{'case':<16} {'impl':<14} {'best':>10} {'median':>10} {'first call':>11} {'fgrad/x':>8}  check"
    print(hdr)
    print("-" * len(hdr))
    for r in results:
        if r.skipped:
            print(f"{r.name:<16} skipped: {r.skipped}")
            continue
        for name, v in r.impls.items():
            if v.status != "ok":
                print(f"{r.name:<16} {LABELS[name]:<14} {v.status}")
                continue
            ratio = "" if name == "fgrad" else fmt_ratio(r.ratio(name))
            print(f"{r.name:<16} {LABELS[name]:<14} {fmt_time(v.best):>10} {fmt_time(v.median):>10} "
                  f"{fmt_time(v.first_call):>11} {ratio:>8}  {v.check}")
        print(f"{'':<16} target: {goal_text(r)}")
    print()
    print(f"{meta['threads']} thread(s); OpenBLAS core {meta['blas_core']}; "
          f"harness overhead {fmt_time(meta['overhead'])}/call subtracted")


def write_readme(md: str, path: Path) -> None:
    text = path.read_text()
    if START not in text or END not in text:
        raise SystemExit(f"{path}: markers {START} / {END} not found")
    pre, rest = text.split(START, 1)
    _, post = rest.split(END, 1)
    path.write_text(f"{pre}{START}\n{md}\n{END}{post}")
    print(f"wrote the table into {path}")


def plot(results, path: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    shown = [r for r in results if not r.skipped]
    cols = columns(results)
    colors = {c: f"C{i}" for i, c in enumerate(cols)}
    fig, ax = plt.subplots(figsize=(9, 1.3 + 0.6 * len(shown)))
    for i, r in enumerate(shown):
        present = [c for c in cols if r.ok(c)]
        height = 0.84 / max(1, len(present))
        for j, c in enumerate(present):
            y, x = i + (j - (len(present) - 1) / 2) * height, r.impls[c].best * 1e6
            ax.barh(y, x, height=height * 0.92, color=colors[c])
            ax.text(x * 1.06, y, fmt_time(x * 1e-6), va="center", fontsize=6, color=colors[c])
    from matplotlib.patches import Patch

    handles = [Patch(color=colors[c], label=LABELS[c]) for c in cols]
    ax.set_yticks(range(len(shown)))
    ax.set_yticklabels([r.short or r.name for r in shown], fontsize=8.5)
    ax.invert_yaxis()
    ax.set_xscale("log")
    lo, hi = ax.get_xlim()
    ax.set_xlim(lo, hi * 4)  # room for the labels
    ax.set_xlabel(f"time per call, µs (log scale; shorter is faster) -- {_env.THREADS} thread(s)")
    ax.legend(handles=handles, fontsize=8, loc="lower center", bbox_to_anchor=(0.5, 1.0),
              ncol=len(cols), frameon=False)
    ax.grid(axis="x", which="major", alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    print(f"wrote {path}")


# ----------------------------------------------------------------------------- main

def cpu_name() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def blas_core() -> str:
    """The kernel set numpy's OpenBLAS picked (OPENBLAS_CORETYPE overrides it)."""
    import ctypes
    import glob

    libs = Path(np.__file__).resolve().parent.parent / "numpy.libs"
    for f in glob.glob(str(libs / "*openblas*")):
        try:
            lib = ctypes.CDLL(f)
        except OSError:
            continue
        for sym in ("scipy_openblas_get_corename64_", "scipy_openblas_get_corename",
                    "openblas_get_corename64_", "openblas_get_corename"):
            fn = getattr(lib, sym, None)
            if fn is not None:
                fn.restype = ctypes.c_char_p
                return fn().decode()
    return os.environ.get("OPENBLAS_CORETYPE", "unknown")


def metadata(opts, overhead: float) -> dict:
    versions = {"numpy": np.__version__}
    for mod in ("torch", "jax", "autograd"):
        if mod in sys.modules:
            m = sys.modules[mod]
            versions[mod] = getattr(m, "__version__", None) or _dist_version(mod)
    return {"date": time.strftime("%Y-%m-%d"), "cpu": cpu_name(), "threads": _env.THREADS,
            "python": platform.python_version(), "versions": versions, "blas_core": blas_core(),
            "overhead": overhead, "repeat": opts.repeat}


def _dist_version(name: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(name)
    except PackageNotFoundError:
        return "?"


def _setup_peers(opts) -> None:
    if "torch" in opts.exclude:
        return
    try:
        import torch
    except ImportError:
        return
    torch.set_num_threads(_env.THREADS)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:
        pass


def parse(argv):
    ap = argparse.ArgumentParser(prog="python -m benchmarks", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="", help="comma-separated case names (see --list)")
    ap.add_argument("--group", default="", help="comma-separated groups: eager, torch, jit")
    ap.add_argument("--exclude", default="", help="comma-separated peers not to run, e.g. jax")
    ap.add_argument("--repeat", type=int, default=21)
    ap.add_argument("--min-time", type=float, default=0.02, help="seconds per timed block")
    ap.add_argument("--quick", action="store_true", help="--repeat 3 --min-time 0.01")
    ap.add_argument("--threads", type=int, default=1, help="threads for every library (default 1)")
    ap.add_argument("--peers-only", action="store_true",
                    help="also time the peers of cases whose fgrad side is missing")
    ap.add_argument("--write-readme", action="store_true", help="update the README table")
    ap.add_argument("--readme", default=str(ROOT / "README.md"))
    ap.add_argument("--plot", metavar="FILE.png", help="bar chart (needs matplotlib)")
    ap.add_argument("--json", metavar="FILE", help="raw results")
    ap.add_argument("--list", action="store_true", help="list the cases and exit")
    ap.add_argument("--from-json", metavar="FILE", help="re-render the results of --json FILE, no run")
    opts = ap.parse_args(argv)
    if opts.quick:
        opts.repeat, opts.min_time = 3, 0.01
    opts.exclude = {s for s in opts.exclude.split(",") if s}
    return opts


def load_json(path: str):
    data = json.loads(Path(path).read_text())
    results = [CaseResult(**{**r, "impls": {k: ImplResult(**v) for k, v in r["impls"].items()}})
               for r in data["results"]]
    return results, data["meta"]


def main(argv=None) -> int:
    opts = parse(sys.argv[1:] if argv is None else argv)
    cases = all_cases()
    if opts.list:
        for c in cases:
            print(f"{c.name:<18} [{c.group}] {c.title}")
        return 0
    only = {s for s in opts.only.split(",") if s}
    groups = {s for s in opts.group.split(",") if s}
    unknown = only - {c.name for c in cases}
    if unknown:
        raise SystemExit(f"unknown case(s): {', '.join(sorted(unknown))} (see --list)")
    cases = [c for c in cases if (not only or c.name in only) and (not groups or c.group in groups)]
    if opts.from_json:
        results, meta = load_json(opts.from_json)
    else:
        _setup_peers(opts)
        overhead = harness_overhead(opts)
        results = []
        for c in cases:
            print(f"running {c.name} ...", file=sys.stderr, flush=True)
            results.append(run_case(c, opts, overhead))
        meta = metadata(opts, overhead)
    print_report(results, meta)
    plot_ref = None
    if opts.plot:
        try:
            plot(results, opts.plot)
            p = Path(opts.plot).resolve()
            plot_ref = p.relative_to(Path(opts.readme).resolve().parent).as_posix()
        except ImportError:
            print("matplotlib is not installed; no plot", file=sys.stderr)
        except ValueError:
            plot_ref = None  # plot outside the README's folder: don't link it
    md = markdown(results, meta, plot_ref)
    print()
    print(md)
    if opts.write_readme:
        write_readme(md, Path(opts.readme))
    if opts.json:
        Path(opts.json).write_text(json.dumps(
            {"meta": meta, "results": [{**r.__dict__, "impls": {k: v.__dict__ for k, v in r.impls.items()}}
                                       for r in results]}, indent=1, default=str))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
