"""Run JAX's own docstring examples on JAX and on fgrad, and compare what they print.

Nearly every public function of ``jax.numpy`` (and of ``jax.lax``, ``jax.nn``, ``jax.scipy``,
...) has an ``Examples:`` section written as doctests.  For each public callable of the named
modules this tool extracts those examples (`doctest.DocTestParser`), runs them twice, each
time in a fresh namespace and with the example text unchanged:

* with JAX: ``jax``, ``jnp`` (``jax.numpy``), ``lax`` and ``np`` (NumPy) in the namespace;
* with fgrad: ``jax`` is `fgrad`, ``jnp`` is `fgrad.numpy`, ``lax`` is `fgrad.lax`, and an
  ``import jax...``/``from jax... import`` inside an example imports ``fgrad...``;

and compares what each example prints (its displayed value and its ``print`` output): JAX's
live output, not only the docstring's (docstrings may be stale).  An example that raises
"prints" ``<raises TypeName Base ...>``; fgrad's exception must have JAX's type name among its
type's and its bases' names.  Outcome per function:

=============  ==========================================================================
``same``       every example prints exactly what it prints with JAX
``close``      the same text except numbers that agree to ``rtol`` (last-digit rounding)
``differs``    some example prints something else
``fgrad raises``  fgrad raised where JAX did not, or an exception of another type
``jax raises``    JAX itself raised where the docstring does not show an exception
``no examples``   no doctest examples that use ``jax``/``jnp``/``lax`` (NumPy's text)
=============  ==========================================================================

Command line (run from the repository root; needs the real JAX installed)::

    python tools/jax_docstring_examples.py jax.numpy [jax.numpy.linalg ...] [--x64]
        [--names pad,unique] [--show differs] [--json out.json] [--store stored.json]

``--store FILE`` adds JAX's outputs (sources and outputs per function) of the agreeing
functions to FILE under "x32" or "x64": the reference of
``tests/test_jax_docstring_examples.py`` where JAX is not installed.  In Python:
``run_examples(["jax.numpy"], x64=False) -> list[Result]``.

This module does not import ``jax`` until an example runs on JAX, so a test can run the
stored sources on fgrad (`run_source`, `compare_outputs`) without JAX installed.
"""

from __future__ import annotations

import argparse
import builtins
import contextlib
import dataclasses
import doctest
import importlib
import inspect
import io
import json
import math
import re
import signal
import sys
import warnings
from pathlib import Path
from typing import Any, Callable, Sequence

import numpy as np

SAME, CLOSE, DIFFERS = "same", "close", "differs"
FGRAD_RAISES, JAX_RAISES, NO_EXAMPLES = "fgrad raises", "jax raises", "no examples"
STATUSES = (SAME, CLOSE, DIFFERS, FGRAD_RAISES, JAX_RAISES, NO_EXAMPLES)
RTOL = {False: 2e-5, True: 1e-9}  # "close": float32 / float64 relative tolerance
TIMEOUT_S = 60  # per function and side

NUMBER = r"(?<![\w.])[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|\bnan\b|-?\binf\b"
RAISES = re.compile(r"<raises ([\w. ]+)>$")
# a name an example must mention to be JAX's (docstrings copied from NumPy use np. only)
JAX_NAMES = re.compile(r"\b(jnp|jax|lax)\b")


@dataclasses.dataclass
class Result:
    """One function's outcome: its examples' sources and what each printed on each side."""

    name: str                      # e.g. "jax.numpy.pad"
    status: str                    # one of STATUSES
    sources: list[str]             # the examples' source text, in order
    wants: list[str]               # what the docstring shows
    jax_outputs: list[str]
    fgrad_outputs: list[str]
    detail: str = ""               # the first difference, or the exception's message

    def to_json(self) -> dict:
        """A JSON-serializable dict of all fields."""
        return dataclasses.asdict(self)


# ---------------------------------------------------------------------------------------------
# collecting the examples

def public_callables(module_name: str) -> list[tuple[str, Any]]:
    """``(qualified name, object)`` for each public callable of the (JAX) module, by name."""
    module = importlib.import_module(module_name)
    names = getattr(module, "__all__", None) or dir(module)
    found = []
    for name in sorted(set(names)):
        if name.startswith("_"):
            continue
        obj = getattr(module, name, None)
        if obj is None or inspect.ismodule(obj) or not callable(obj):
            continue
        found.append((f"{module_name}.{name}", obj))
    return found


def examples_of(obj: Any) -> list[doctest.Example]:
    """The doctest examples of ``obj``'s docstring that are not ``+SKIP``ped."""
    doc = inspect.getdoc(obj) or ""
    try:
        examples = doctest.DocTestParser().get_examples(doc)
    except ValueError:  # malformed doctest text
        return []
    return [e for e in examples if not e.options.get(doctest.SKIP)]


# ---------------------------------------------------------------------------------------------
# running them

def _fgrad_import(name: str, globals: Any = None, locals: Any = None, fromlist: Any = (),
                  level: int = 0) -> Any:
    """``__import__`` with ``jax`` and ``jax.X`` resolved to ``fgrad`` and ``fgrad.X``."""
    if level == 0 and (name == "jax" or name.startswith("jax.")):
        module = importlib.import_module("fgrad" + name[3:])
        return module if fromlist else importlib.import_module("fgrad")
    return builtins.__import__(name, globals, locals, fromlist, level)


def namespace(side: str) -> dict:
    """A fresh namespace for one function's examples: JAX's doctest names on ``side``
    ("jax" or "fgrad"); on fgrad's side ``import jax...`` imports fgrad."""
    if side == "jax":
        import jax
        import jax.numpy as jnp
        return {"__name__": "__jax_doctest__", "jax": jax, "jnp": jnp, "lax": jax.lax, "np": np}
    import fgrad
    import fgrad.lax
    import fgrad.numpy as fnp
    patched = {k: v for k, v in vars(builtins).items() if k != "_"}
    patched["__import__"] = _fgrad_import
    return {"__name__": "__jax_doctest__", "__builtins__": patched, "jax": fgrad, "jnp": fnp,
            "lax": fgrad.lax, "np": np}


def _raised(e: BaseException) -> str:
    """``<raises Name Base ...>``: the exception's type and its bases (but the generic ones),
    so that fgrad's ``ContractionShapeError(TypeError, ValueError)`` matches JAX's TypeError."""
    names = [t.__name__ for t in type(e).__mro__
             if t not in (object, BaseException, Exception)]
    return f"<raises {' '.join(dict.fromkeys(names))}>"


def _set_x64(side: str, x64: bool) -> bool:
    """Set ``jax_enable_x64`` on ``side``; the value before."""
    mod = importlib.import_module("jax" if side == "jax" else "fgrad")
    before = bool(mod.config.jax_enable_x64)
    mod.config.update("jax_enable_x64", x64)
    return before


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: int):
    """Raise ``_Timeout`` in the main thread after ``seconds`` (no limit elsewhere)."""
    import threading
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() \
            or not hasattr(signal, "SIGALRM"):
        yield
        return

    def handler(signum, frame):
        raise _Timeout(f"timed out after {seconds} s")

    old = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)


def run_source(sources: Sequence[str], side: str, x64: bool,
               timeout_s: int = TIMEOUT_S) -> tuple[list[str], list[str]]:
    """Run one function's example sources in order in a fresh namespace on ``side``
    ("jax" or "fgrad") with ``jax_enable_x64`` = ``x64``, as doctest does (each compiled in
    "single" mode, so an expression's value is displayed with its repr).

    Returns (outputs, messages): what each example printed (``<raises TypeName ...>`` appended
    when it raised), and each raised exception's message ("" when none).  NumPy's print
    options, its global random state and the x64 flag are restored afterwards.
    """
    globs = namespace(side)
    outputs, messages = [], []

    def display(value: Any) -> None:  # sys.displayhook, with ``_`` in the namespace
        if value is not None:
            globs["_"] = None
            sys.stdout.write(repr(value) + "\n")
            globs["_"] = value

    printoptions = np.get_printoptions()
    x64_before = _set_x64(side, x64)
    np.random.seed(0)
    stdout, displayhook = sys.stdout, sys.displayhook
    try:
        with _time_limit(timeout_s), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for i, source in enumerate(sources):
                buffer = io.StringIO()
                sys.stdout, sys.displayhook = buffer, display
                message = ""
                try:
                    exec(compile(source, f"<example {i}>", "single"), globs)
                except _Timeout:
                    raise
                except BaseException as e:  # noqa: B036 -- SystemExit etc. are outputs too
                    message = f"{type(e).__name__}: {e}"
                    buffer.write(_raised(e))
                finally:
                    sys.stdout, sys.displayhook = stdout, displayhook
                outputs.append(buffer.getvalue())
                messages.append(message)
    except _Timeout as e:
        outputs.append("<raises TimeoutError>")
        messages.append(str(e))
    finally:
        sys.stdout, sys.displayhook = stdout, displayhook
        np.set_printoptions(**printoptions)
        _set_x64(side, x64_before)
    return outputs, messages


def _numbers_close(got: str, want: str, rtol: float) -> bool:
    a, b = float(got), float(want)
    return a == b or (math.isnan(a) and math.isnan(b)) or abs(a - b) <= rtol * abs(b) + 1e-30


def compare_outputs(fgrad_outputs: Sequence[str], jax_outputs: Sequence[str],
                    wants: Sequence[str], x64: bool,
                    messages: Sequence[str] = ()) -> tuple[str, str]:
    """(status, detail) of fgrad's outputs against JAX's (``wants``: the docstring's text,
    which says whether an exception is expected; ``messages``: fgrad's exception messages,
    quoted in the detail)."""
    status, detail = SAME, ""
    for i, (want, j_out) in enumerate(zip(wants, jax_outputs)):
        raised = RAISES.search(j_out)
        if raised and not want.startswith("Traceback"):
            return JAX_RAISES, f"example {i}: JAX raised {raised.group(1)}"
    for i, j_out in enumerate(jax_outputs):
        f_out = fgrad_outputs[i] if i < len(fgrad_outputs) else "<not run>"
        if f_out == j_out:
            continue
        f_raised, j_raised = RAISES.search(f_out), RAISES.search(j_out)
        if f_raised and j_raised and j_raised.group(1).split()[0] in f_raised.group(1).split():
            continue
        if f_raised:
            message = messages[i] if i < len(messages) else ""
            return FGRAD_RAISES, f"example {i}: fgrad raised " + (message or f_raised.group(1)) + \
                (f" (JAX: {j_raised.group(1).split()[0]})" if j_raised else "")
        words = (re.sub(r"\s+", "", re.sub(NUMBER, "#", s)) for s in (f_out, j_out))
        if next(words) == next(words) and all(
                _numbers_close(a, b, RTOL[x64])
                for a, b in zip(re.findall(NUMBER, f_out), re.findall(NUMBER, j_out))):
            if status == SAME:
                status, detail = CLOSE, f"example {i}: {f_out!r} vs JAX {j_out!r}"
            continue
        return DIFFERS, f"example {i}: fgrad {f_out!r} vs JAX {j_out!r}"
    return status, detail


def run_function(name: str, obj: Any, x64: bool, timeout_s: int = TIMEOUT_S) -> Result:
    """Run ``obj``'s docstring examples on both sides and compare them."""
    examples = examples_of(obj)
    sources = [e.source for e in examples]
    wants = [e.want for e in examples]
    if not any(JAX_NAMES.search(s) for s in sources):
        return Result(name, NO_EXAMPLES, sources, wants, [], [])
    jax_outputs, _ = run_source(sources, "jax", x64, timeout_s)
    fgrad_outputs, messages = run_source(sources, "fgrad", x64, timeout_s)
    status, detail = compare_outputs(fgrad_outputs, jax_outputs, wants, x64, messages)
    return Result(name, status, sources, wants, jax_outputs, fgrad_outputs, detail)


def run_examples(modules: list[str], x64: bool, names: Sequence[str] | None = None,
                 timeout_s: int = TIMEOUT_S,
                 progress: Callable[[Result], None] | None = None) -> list[Result]:
    """Run the docstring examples of every public callable of the JAX ``modules`` (e.g.
    ``["jax.numpy", "jax.numpy.linalg"]``) on JAX and on fgrad with ``jax_enable_x64`` =
    ``x64``; one `Result` per function.  ``names`` keeps only those functions (short names,
    e.g. "pad", or qualified ones).  Functions whose docstring is identical (aliases) run once.
    """
    import os
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    results, by_doc = [], {}
    for module in modules:
        for name, obj in public_callables(module):
            if names and name not in names and name.rsplit(".", 1)[1] not in names:
                continue
            doc = inspect.getdoc(obj) or ""
            if doc in by_doc and doc:
                result = dataclasses.replace(by_doc[doc], name=name)
            else:
                result = run_function(name, obj, x64, timeout_s)
                by_doc[doc] = result
            results.append(result)
            if progress:
                progress(result)
    return results


def summary(results: Sequence[Result]) -> dict[str, int]:
    """The number of functions per status."""
    return {s: sum(r.status == s for r in results) for s in STATUSES}


def store(results: Sequence[Result], statuses: Sequence[str] = (SAME, CLOSE)) -> dict:
    """``{name: {"sources": [...], "outputs": [...], "status": ...}}`` (JAX's outputs) for the
    results whose status is in ``statuses``: the stored reference of the test."""
    return {r.name: {"status": r.status, "sources": r.sources, "outputs": r.jax_outputs}
            for r in results if r.status in statuses}


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("modules", nargs="+", help="JAX modules, e.g. jax.numpy")
    parser.add_argument("--x64", action="store_true", help="with jax_enable_x64 on")
    parser.add_argument("--names", default="", help="comma-separated function names")
    parser.add_argument("--show", default=f"{DIFFERS},{FGRAD_RAISES},{JAX_RAISES}",
                        help="statuses whose detail is printed (comma-separated, or 'all')")
    parser.add_argument("--json", help="write every result here")
    parser.add_argument("--store", help="write JAX's outputs of the agreeing functions here")
    parser.add_argument("--timeout", type=int, default=TIMEOUT_S, help="seconds per function")
    args = parser.parse_args(argv)
    # this checkout's fgrad (sys.path[0] is tools/, and an installed fgrad may be another's),
    # unless a caller imported one already (to measure another revision)
    if "fgrad" not in sys.modules:
        sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    show = set(STATUSES) if args.show == "all" else set(args.show.split(","))
    names = [n for n in args.names.split(",") if n] or None

    def progress(r: Result) -> None:
        line = f"{r.status:13} {r.name}"
        if r.status in show and r.detail:
            line += f"\n    {r.detail[:2000]}"
        print(line, flush=True)

    import fgrad
    print(f"fgrad from {Path(fgrad.__file__).parent}", flush=True)
    results = run_examples(args.modules, args.x64, names, args.timeout, progress)
    counts = summary(results)
    covered = len(results) - counts[NO_EXAMPLES]
    print(f"\n{len(results)} functions, {covered} with JAX examples "
          f"(x64 {'on' if args.x64 else 'off'}): " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if args.json:
        Path(args.json).write_text(json.dumps([r.to_json() for r in results], indent=1))
    if args.store:  # one key per mode ("x32", "x64"), the other mode's kept
        path = Path(args.store)
        data = json.loads(path.read_text()) if path.exists() else {}
        data.setdefault("x64" if args.x64 else "x32", {}).update(store(results))
        path.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
