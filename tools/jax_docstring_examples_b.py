"""JAX's docstring examples beyond ``jax.numpy``: ``jax`` (the transforms), ``jax.lax``,
``jax.nn``, ``jax.nn.initializers``, ``jax.random``, ``jax.tree_util``, ``jax.tree``,
``jax.debug`` and ``jax.scipy.*``, run on JAX and on fgrad by `tools/jax_docstring_examples.py`
and compared (docs/jax-docstring-examples-b.md).

This wraps that tool (it is not changed) with what these modules' examples need:

* the public names of the function's own module in the namespace, as JAX's doctests have the
  defining module's globals: ``dynamic_slice(x, (1, 1), (2, 3))`` in ``jax.lax.dynamic_slice``,
  ``Partial`` in ``jax.tree_util.Partial``, ``vmap`` in ``jax.vmap``; on fgrad's side the names
  of the matching fgrad module (``fgrad.lax``, ``fgrad.tree_util``, ``fgrad``), and
  ``functools.partial`` on both;
* numbers that agree to the tool's ``rtol`` times the largest number the example prints count
  as "close" (a roundoff residue such as JAX's ``5.96e-08`` where fgrad prints ``0.`` in an
  array of ones: `compare`);
* a module object for the examples' ``__name__`` while they run, so that a ``@dataclass``
  defined in an example finds its module (the tool compiles the examples under its own
  ``from __future__ import annotations``: annotations are strings, which ``dataclasses``
  resolves through ``sys.modules[cls.__module__]``).

Command line (run from the repository root; needs the real JAX installed)::

    python tools/jax_docstring_examples_b.py [--x64] [--modules jax.lax,jax.nn] \\
        [--names dynamic_slice] [--json out.json] [--store]

``--store`` rewrites ``tests/stored/jax_docstring_examples_b.json`` (JAX's outputs of the
functions that agree), the reference of ``tests/test_jax_docstring_examples_b.py``.

Example::

    >>> from tools.jax_docstring_examples_b import fgrad_module_name
    >>> fgrad_module_name("jax.scipy.linalg")
    'fgrad.scipy.linalg'
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import functools
import importlib
import json
import re
import sys
import types
from pathlib import Path
from typing import Any, Iterator, Sequence

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT / "tools") not in sys.path:
    sys.path.insert(0, str(ROOT / "tools"))

import jax_docstring_examples as tool  # noqa: E402  (tools/ on the path above)

STORED = ROOT / "tests" / "stored" / "jax_docstring_examples_b.json"

SCIPY_STATS = ["bernoulli", "beta", "betabinom", "binom", "cauchy", "chi2", "dirichlet", "expon",
               "gamma", "gennorm", "geom", "gumbel_l", "gumbel_r", "laplace", "logistic",
               "multinomial", "multivariate_normal", "nbinom", "norm", "pareto", "poisson", "t",
               "truncnorm", "uniform", "vonmises", "wrapcauchy"]
MODULES = (["jax", "jax.lax", "jax.lax.linalg", "jax.nn", "jax.nn.initializers", "jax.random",
            "jax.tree_util", "jax.tree", "jax.debug", "jax.scipy.cluster.vq", "jax.scipy.fft",
            "jax.scipy.integrate", "jax.scipy.interpolate", "jax.scipy.linalg",
            "jax.scipy.ndimage", "jax.scipy.optimize", "jax.scipy.signal",
            "jax.scipy.sparse.linalg", "jax.scipy.spatial.transform", "jax.scipy.special",
            "jax.scipy.stats"] + [f"jax.scipy.stats.{d}" for d in SCIPY_STATS]
           # session 16: the other modules fgrad has
           + ["jax.custom_derivatives", "jax.custom_batching", "jax.ad_checkpoint", "jax.sharding",
              "jax.dtypes", "jax.flatten_util", "jax.stages", "jax.export", "jax.image", "jax.profiler",
              "jax.experimental", "jax.experimental.checkify", "jax.experimental.jet",
              "jax.experimental.sparse", "jax.experimental.ode", "jax.experimental.mesh_utils",
              "jax.experimental.multihost_utils", "jax.experimental.shard_map"])

# methods whose docstrings hold their own examples (the module runs above collect functions and
# classes, not their methods; a method whose docstring is the jax.numpy function's is covered
# there): "jax.Array.at" is run as ``jax.Array.at``'s docstring, in module "jax"'s namespace
METHODS = ["jax.Array.at", "jax.Array.byteswap", "jax.Array.committed", "jax.Array.view",
           "jax.custom_jvp.defjvp", "jax.custom_jvp.defjvps", "jax.custom_vjp.defvjp"]

# the examples' module: their __name__ (the tool's namespace name) resolves to it
_EXAMPLE_MODULE = "__jax_doctest__"


def fgrad_module_name(jax_module: str) -> str:
    """The fgrad module that stands for the JAX module ``jax_module``."""
    return "fgrad" + jax_module[len("jax"):]


def module_names(module_name: str) -> dict[str, Any]:
    """The public names of ``module_name`` (a JAX or an fgrad module; {} when it is missing),
    and ``partial``: what an example of one of its functions may use unqualified."""
    names: dict[str, Any] = {"partial": functools.partial}
    try:
        module = importlib.import_module(module_name)
    except ImportError:
        return names
    for name in getattr(module, "__all__", None) or dir(module):
        if not name.startswith("_") and hasattr(module, name):
            names[name] = getattr(module, name)
    return names


@contextlib.contextmanager
def examples_of_module(jax_module: str) -> Iterator[None]:
    """While it is open, the tool's namespaces hold ``jax_module``'s public names (fgrad's
    module's on fgrad's side) and the examples' ``__name__`` is a module."""
    base = tool.namespace
    extra = {"jax": module_names(jax_module), "fgrad": module_names(fgrad_module_name(jax_module))}

    def namespace(side: str) -> dict:
        globs = base(side)
        for name, value in extra[side].items():
            globs.setdefault(name, value)
        return globs

    had = sys.modules.get(_EXAMPLE_MODULE)
    sys.modules[_EXAMPLE_MODULE] = types.ModuleType(_EXAMPLE_MODULE)
    tool.namespace = namespace
    try:
        yield
    finally:
        tool.namespace = base
        if had is None:
            sys.modules.pop(_EXAMPLE_MODULE, None)
        else:
            sys.modules[_EXAMPLE_MODULE] = had


def _close_to_scale(f_out: str, j_out: str, rtol: float) -> bool:
    """The same text but numbers, which differ by at most ``rtol`` times the largest
    magnitude among JAX's numbers of that output."""
    words = (re.sub(r"\s+", "", re.sub(tool.NUMBER, "#", t)) for t in (f_out, j_out))
    if next(words) != next(words):
        return False
    got, want = re.findall(tool.NUMBER, f_out), re.findall(tool.NUMBER, j_out)
    try:
        a, b = [float(v) for v in got], [float(v) for v in want]
    except ValueError:
        return False
    scale = max((abs(v) for v in b if abs(v) != float("inf")), default=0.0)
    return len(a) == len(b) and all(
        x == y or (x != x and y != y) or abs(x - y) <= rtol * scale for x, y in zip(a, b))


def compare(fgrad_outputs: Sequence[str], jax_outputs: Sequence[str], wants: Sequence[str],
            x64: bool, messages: Sequence[str] = ()) -> tuple[str, str]:
    """The tool's `compare_outputs`, where "differs" becomes "close" when every differing
    example's numbers agree to the output's scale (`_close_to_scale`)."""
    status, detail = tool.compare_outputs(fgrad_outputs, jax_outputs, wants, x64, messages)
    if status != tool.DIFFERS or len(fgrad_outputs) < len(jax_outputs):
        return status, detail
    if all(f == j or _close_to_scale(f, j, tool.RTOL[x64])
           for f, j in zip(fgrad_outputs, jax_outputs)):
        return tool.CLOSE, "to the output's scale: " + detail
    return status, detail


def run_examples(modules: Sequence[str] = tuple(MODULES), x64: bool = False,
                 names: Sequence[str] | None = None, progress: Any = None) -> list[tool.Result]:
    """Every public callable's examples of the JAX ``modules``, on JAX and on fgrad, compared
    (`tool.Result` per function); each module's run sees that module's names."""
    results = []

    def rejudge(r: tool.Result) -> tool.Result:
        if r.status == tool.DIFFERS:
            status, detail = compare(r.fgrad_outputs, r.jax_outputs, r.wants, x64)
            r = dataclasses.replace(r, status=status, detail=detail)
        return r

    for module in modules:
        with examples_of_module(module):
            found = [rejudge(r) for r in tool.run_examples([module], x64, names)]
        for r in found:
            if progress:
                progress(r)
        results += found
    if "jax" in modules:
        for name in METHODS:
            if names and name not in names and name.rsplit(".", 1)[1] not in names:
                continue
            owner, method = name.rsplit(".", 1)
            obj = getattr(getattr(importlib.import_module("jax"), owner.split(".", 1)[1]), method)
            with examples_of_module("jax"):
                r = rejudge(tool.run_function(name, obj, x64))
            if progress:
                progress(r)
            results.append(r)
    return results


def run_fgrad(entry: dict, x64: bool = False) -> tuple[str, str]:
    """(status, detail) of fgrad's run of one stored function's examples against the stored
    JAX outputs (``entry``: a value of the stored JSON)."""
    import fgrad
    with examples_of_module(entry["module"]), fgrad.default_device("cpu"):  # reprs name no device
        outputs, messages = tool.run_source(entry["sources"], "fgrad", x64)
    return compare(outputs, entry["outputs"], entry["wants"], x64, messages)


def run_jax(entry: dict, x64: bool = False) -> list[str]:
    """What JAX prints for one stored function's examples (needs JAX installed)."""
    with examples_of_module(entry["module"]):
        return tool.run_source(entry["sources"], "jax", x64)[0]


def module_of(name: str, modules: Sequence[str] = tuple(MODULES)) -> str:
    """The module (of ``modules``) whose function ``name`` is: the longest prefix."""
    return max((m for m in modules if name.startswith(m + ".")), key=len)


def store(results: Sequence[tool.Result], x64: bool = False) -> dict:
    """The stored reference: JAX's outputs of the functions that agree (same or close)."""
    import jax
    out = {"jax_version": jax.__version__, "x64": x64, "functions": {}}
    for r in results:
        if r.status in (tool.SAME, tool.CLOSE):
            out["functions"][r.name] = {"module": module_of(r.name), "status": r.status,
                                        "sources": r.sources, "wants": r.wants,
                                        "outputs": r.jax_outputs}
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """The command line; see the module docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--x64", action="store_true", help="with jax_enable_x64 on")
    parser.add_argument("--modules", default="", help="comma-separated JAX modules (default: all)")
    parser.add_argument("--names", default="", help="comma-separated function names")
    parser.add_argument("--json", help="write every result here")
    parser.add_argument("--store", action="store_true", help=f"rewrite {STORED.relative_to(ROOT)}")
    parser.add_argument("--fgrad-root", default=str(ROOT),
                        help="the checkout whose fgrad runs (default: this one; another to measure "
                             "another revision)")
    args = parser.parse_args(argv)
    sys.path.insert(0, args.fgrad_root)
    import fgrad
    print(f"fgrad from {Path(fgrad.__file__).parent}", flush=True)
    modules = [m for m in args.modules.split(",") if m] or MODULES
    names = [n for n in args.names.split(",") if n] or None

    def progress(r: tool.Result) -> None:
        line = f"{r.status:13} {r.name}"
        if r.status not in (tool.SAME, tool.NO_EXAMPLES) and r.detail:
            line += f"\n    {r.detail[:2000]}"
        print(line, flush=True)

    results = run_examples(modules, args.x64, names, progress)
    counts = tool.summary(results)
    covered = len(results) - counts[tool.NO_EXAMPLES]
    print(f"\n{len(results)} functions, {covered} with JAX examples "
          f"(x64 {'on' if args.x64 else 'off'}): " + ", ".join(f"{k} {v}" for k, v in counts.items()))
    if args.json:
        Path(args.json).write_text(json.dumps([r.to_json() for r in results], indent=1))
    if args.store:
        STORED.write_text(json.dumps(store(results, args.x64), indent=1, sort_keys=True) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
