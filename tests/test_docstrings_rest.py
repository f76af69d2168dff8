"""Every public class and function of the modules below has a docstring with a runnable ``>>>``
example, the examples run, and they print what the peer prints.

The modules are those the op-spec docs (``fgrad/_docs``, tests/test_doc_examples.py) and
tests/test_docstrings_everywhere.py (fgrad.torch, its nn/optim/data parts) do not walk: the
rest of `fgrad.torch` (distributed, cuda, backends, autograd, distributions, amp, ...) and
the functional face's public modules (`fgrad`, `fgrad.numpy`, `fgrad.scipy`, `fgrad.io`,
`fgrad.experimental`, ...).  Each public callable (a name without a leading underscore,
defined in fgrad; each object once) needs a ``>>>`` example in its own docstring (a class's
on the class).  The examples run as doctests in their module's namespace, as
``pytest --doctest-modules`` runs them.

An example that imports fgrad first (``import fgrad.torch as torch``, ``import fgrad``,
``from fgrad.scipy import stats``) runs with the peer too: ``fgrad.torch`` becomes PyTorch,
``fgrad`` becomes JAX (x64, fgrad's default precision), and the peer must print the same
(`PEERLESS` lists the examples of names the peer does not have).
"""

from __future__ import annotations

import ast
import builtins
import doctest
import importlib
import inspect
import pkgutil
import re
import warnings

import pytest

import fgrad
import fgrad.torch  # noqa: F401

# roots walked with their submodules (a name with a leading underscore is skipped)
TORCH_ROOTS = [
    "fgrad.torch.distributed", "fgrad.torch.cuda", "fgrad.torch.backends", "fgrad.torch.autograd",
    "fgrad.torch.multiprocessing", "fgrad.torch.distributions", "fgrad.torch.random",
    "fgrad.torch.accelerator", "fgrad.torch.onnx", "fgrad.torch.serialization",
    "fgrad.torch.utils.safetensors", "fgrad.torch.utils.checkpoint", "fgrad.torch.utils.dlpack",
    "fgrad.torch.utils.hooks", "fgrad.torch.amp", "fgrad.torch.func", "fgrad.torch.jit",
    "fgrad.torch.profiler", "fgrad.torch.types", "fgrad.torch.testing", "fgrad.torch.special",
    "fgrad.torch.fft", "fgrad.torch.sparse", "fgrad.torch.compiler", "fgrad.torch.linalg",
]
FUNCTIONAL_ROOTS = [
    "fgrad.numpy", "fgrad.lax", "fgrad.nn", "fgrad.random", "fgrad.monitoring", "fgrad.io",
    "fgrad.scipy", "fgrad.tree", "fgrad.tree_util", "fgrad.example_libraries", "fgrad.experimental",
    "fgrad.test_util", "fgrad.dtypes", "fgrad.debug", "fgrad.profiler", "fgrad.ad_checkpoint",
    "fgrad.custom_batching", "fgrad.custom_derivatives", "fgrad.dlpack", "fgrad.errors",
    "fgrad.flatten_util", "fgrad.image", "fgrad.sharding", "fgrad.stages", "fgrad.typing",
    "fgrad.distributed", "fgrad.ref", "fgrad.version", "fgrad.jax_alias",
]
# `fgrad` itself without its submodules (the internal packages are not API)
TOP_LEVEL = ["fgrad"]

# examples that run with fgrad only: the peer has no such name, or the example spells
# something the fgrad way (an fgrad extra, an fgrad module path, a stand-in's behaviour)
PEERLESS: set[str] = {
    # fgrad's own classes and helpers
    "fgrad.ArrayImpl", "fgrad.ShapedArray", "fgrad.Tracer", "fgrad.ConcretizationError",
    "fgrad.DeviceMismatchError", "fgrad.random.KeyDType", "fgrad.io.UnsafeCheckpointError",
    "fgrad.io.safetensors_format.SafetensorsError", "fgrad.io.safetensors_format.load_file",
    "fgrad.io.safetensors_format.save_file", "fgrad.io.tree_json.decode", "fgrad.io.tree_json.encode",
    "fgrad.io.tree_json.leaf_name", "fgrad.scipy.linalg.QRResult", "fgrad.typing.SupportsDType",
    "fgrad.profiler.profile", "fgrad.profiler.Profile", "fgrad.profiler.ProfileRow",
    "fgrad.profiler.device_memory_profile", "fgrad.experimental.sparse.bcoo_eliminate_zeros",
    "fgrad.experimental.disable_x64", "fgrad.experimental.enable_x64", "fgrad.empty_ref", "fgrad.free_ref",
    "fgrad.numpy.to_device", "fgrad.lax.zeros_like_array", "fgrad.image.ResizeMethod",
    "fgrad.jax_alias.AliasError",
    # JAX's clear_event_listeners would also drop JAX's own listeners in the test process;
    # start_server would start JAX's profiler server (and stop_server stop it)
    "fgrad.monitoring.clear_event_listeners", "fgrad.profiler.start_server", "fgrad.profiler.stop_server",
    # fgrad extras in the PyTorch face, and its module layout
    "fgrad.torch.distributed.CollectiveMismatchError", "fgrad.torch.distributed.CollectiveTimeoutError",
    "fgrad.torch.distributed.run.build_command", "fgrad.torch.distributed.run.worker_environment",
    "fgrad.torch.autograd.once_differentiable", "fgrad.torch.autograd.is_grad_enabled",
    "fgrad.torch.autograd.is_inference_mode_enabled", "fgrad.torch.autograd.graph.record",
    "fgrad.torch.autograd.graph.run_backward", "fgrad.torch.autograd.graph.TensorTrace",
    "fgrad.torch.autograd.graph.TensorTracer", "fgrad.torch.autograd.graph.node_class",
    "fgrad.torch.autograd.graph.edge_of", "fgrad.torch.autograd.graph.get_program",
    "fgrad.torch.multiprocessing.ProcessException", "fgrad.torch.distributions.Beta",
    "fgrad.torch.distributions.Chi2", "fgrad.torch.distributions.Dirichlet",
    "fgrad.torch.distributions.Gamma",
    "fgrad.torch.distributions.StudentT", "fgrad.torch.distributions.distribution.clamp_probs",
    "fgrad.torch.distributions.distribution.logits_to_probs",
    "fgrad.torch.distributions.distribution.probs_to_logits",
    "fgrad.torch.distributions.kl_more.batch_mahalanobis", "fgrad.torch.distributions.kl_more.tril_solve",
    "fgrad.torch.utils.safetensors.load", "fgrad.torch.utils.safetensors.load_file",
    "fgrad.torch.utils.safetensors.save", "fgrad.torch.amp.autocast_mode.cpu_autocast",
    "fgrad.torch.amp.autocast_mode.cuda_autocast", "fgrad.torch.types.ReadableFile",
    "fgrad.torch.types.WritableFile", "fgrad.torch.linalg.inverse", "fgrad.torch.testing.assert_allclose",
    # fgrad.torch's stand-ins: no ONNX export, no TorchScript (jit passes modules through)
    "fgrad.torch.onnx.export", "fgrad.torch.onnx.dynamo_export", "fgrad.torch.jit.export",
    "fgrad.torch.jit.freeze", "fgrad.torch.jit.ignore", "fgrad.torch.jit.interface", "fgrad.torch.jit.load",
    "fgrad.torch.jit.optimize_for_inference", "fgrad.torch.jit.save", "fgrad.torch.jit.script",
    "fgrad.torch.jit.trace", "fgrad.torch.jit.trace_module", "fgrad.torch.jit.unused",
    "fgrad.torch.autograd.profiler.profile",
    # fgrad extensions of a peer function: extra keywords or inputs the peer rejects
    "fgrad.jacfwd", "fgrad.hessian", "fgrad.torch.func.jacfwd", "fgrad.device_put", "fgrad.checkpoint",
    "fgrad.shard_map", "fgrad.lax.map", "fgrad.lax.with_sharding_constraint", "fgrad.numpy.zeros",
    "fgrad.random.categorical", "fgrad.random.dirichlet", "fgrad.random.multinomial",
    "fgrad.lax.GatherScatterMode", "fgrad.random.clone", "fgrad.make_jaxpr",
}

# examples where the peer prints something else (reported; each still differs, checked below):
# last-digit rounding, the sign of a zero, Python ints where JAX gives NumPy ints, reprs
KNOWN_DIFFERENCES: set[str] = {
    "fgrad.torch.special.i0", "fgrad.torch.special.i0e", "fgrad.torch.special.modified_bessel_i0",
    "fgrad.torch.special.log_ndtr", "fgrad.experimental.jet.jet", "fgrad.numpy.fft.ihfft",
    "fgrad.numpy.array_repr", "fgrad.numpy.ufunc", "fgrad.torch.sparse.check_sparse_tensor_invariants",
    # the peer cannot run the example as written (found failing at 61b508b, session 15):
    # torch 2.13 has no torch.autograd.graph.current_graph_task_id and calls
    # will_engine_execute_node only inside a backward hook; JAX 0.10.2's tokens, its
    # RaggedDotDimensionNumbers repr, Offloadable and live_devices (multi-host only) differ
    "fgrad.torch.autograd.graph.current_graph_task_id", "fgrad.torch.autograd.graph.will_engine_execute_node",
    "fgrad.lax.after_all", "fgrad.lax.create_token", "fgrad.lax.RaggedDotDimensionNumbers",
    "fgrad.ad_checkpoint.Offloadable", "fgrad.experimental.multihost_utils.live_devices",
}

FLAGS = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE


def _modules() -> list[str]:
    names = list(TOP_LEVEL)
    for root in TORCH_ROOTS + FUNCTIONAL_ROOTS:
        pkg = importlib.import_module(root)
        names.append(root)
        if hasattr(pkg, "__path__"):
            names += [m.name for m in pkgutil.walk_packages(pkg.__path__, root + ".")
                      if not any(p.startswith("_") for p in m.name.split(".")[1:])]
    return list(dict.fromkeys(names))


def _public(module) -> list[tuple[str, object]]:
    names = getattr(module, "__all__", None) or dir(module)
    out = []
    for name in names:
        if name.startswith("_"):
            continue
        obj = getattr(module, name, None)
        if obj is None or not callable(obj) or inspect.ismodule(obj):
            continue
        if not (getattr(obj, "__module__", None) or "").startswith("fgrad"):
            continue
        out.append((name, obj))
    return out


def _own_doc(obj) -> str:
    """The object's own docstring (a class's from its body, not inherited)."""
    if inspect.isclass(obj):
        return obj.__dict__.get("__doc__") or ""
    return getattr(obj, "__doc__", None) or ""


def collect() -> list[tuple[str, object]]:
    """``(qualified name, object)`` of every public callable, each object once."""
    seen, rows = set(), []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for module_name in _modules():
            module = importlib.import_module(module_name)
            for name, obj in _public(module):
                if id(obj) in seen:
                    continue
                seen.add(id(obj))
                rows.append((f"{module_name}.{name}", obj))
    return rows


ROWS = collect()


def _doctest(qualified: str, obj, text: str | None = None, globs: dict | None = None) -> doctest.DocTest:
    module = inspect.getmodule(inspect.unwrap(obj)) if not inspect.isclass(obj) else \
        importlib.import_module(obj.__module__)
    g = dict(vars(module)) if globs is None and module is not None else dict(globs or {})
    return doctest.DocTestParser().get_doctest(text if text is not None else _own_doc(obj), g, qualified,
                                               getattr(module, "__file__", None), 0)


def _run(test: doctest.DocTest) -> tuple[int, str]:
    """Run on the CPU, as the peer (under ``FGRAD_BACKEND=fake`` too), as tests/test_doc_examples.py."""
    out = []
    runner = doctest.DocTestRunner(optionflags=FLAGS)
    with fgrad.default_device("cpu"):
        runner.run(test, out=out.append)
    return runner.failures, "".join(out)


def test_every_public_callable_has_an_example():
    missing = [q for q, obj in ROWS if ">>>" not in _own_doc(obj)]
    assert not missing, (f"{len(missing)} public callable(s) without a `>>>` example in their own "
                         f"docstring: {', '.join(missing)}")


def test_the_walk_finds_the_modules():
    names = {q for q, _ in ROWS}
    for q in ("fgrad.torch.distributed.all_reduce", "fgrad.torch.cuda.is_available",
              "fgrad.torch.distributions.Normal", "fgrad.monitoring.record_event", "fgrad.numpy.sin",
              "fgrad.scipy.linalg.expm", "fgrad.io.tree_json.encode"):
        assert q in names, q
    assert not any(q.startswith(("fgrad.core.", "fgrad.ops.", "fgrad.torch.nn.")) for q in names)


# the examples, a module's at a time (one test per module keeps the collection small)
BY_MODULE: dict[str, list] = {}
for _q, _obj in ROWS:
    BY_MODULE.setdefault(_q.rsplit(".", 1)[0], []).append((_q, _obj))
SLOW_MODULES = {"fgrad.torch.distributions", "fgrad.numpy", "fgrad.lax", "fgrad.scipy.special",
                "fgrad.random", "fgrad.scipy.stats", "fgrad.torch.special", "fgrad.torch.linalg"}


@pytest.mark.parametrize("module_name", [
    pytest.param(m, marks=(pytest.mark.slow,) if m in SLOW_MODULES else ()) for m in BY_MODULE])
def test_examples_run(module_name):
    failed = []
    for qualified, obj in BY_MODULE[module_name]:
        failures, report = _run(_doctest(qualified, obj))
        if failures:
            failed.append(report)
    assert not failed, "\n".join(failed)


# ------------------------------------------------------------------------ the peer's output

_IMPORTS_FGRAD = re.compile(r"^\s*>>> (import fgrad|from fgrad)", re.M)


def _self_contained(doc: str) -> bool:
    """Whether the example starts by importing fgrad and uses no name it does not bind itself
    (many older examples use their module's globals)."""
    first = re.search(r"^\s*>>> .*$", doc, re.M)
    if first is None or _IMPORTS_FGRAD.match(first.group(0)) is None:
        return False
    try:
        examples = doctest.DocTestParser().get_examples(doc)
        trees = [ast.parse(e.source) for e in examples]
    except (SyntaxError, ValueError):
        return False
    bound, used = set(dir(builtins)), set()
    for tree in trees:
        for node in ast.walk(tree):
            if isinstance(node, ast.Name):
                (bound if isinstance(node.ctx, ast.Store) else used).add(node.id)
            elif isinstance(node, ast.alias):
                bound.add((node.asname or node.name).split(".")[0])
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                bound.add(node.name)
            elif isinstance(node, ast.arg):
                bound.add(node.arg)
    return used <= bound


def _peer_text(qualified: str, doc: str) -> str:
    if qualified.startswith("fgrad.torch"):
        return doc.replace("fgrad.torch", "torch")
    return re.sub(r"\bfgrad\b", "jax", doc)


def peer_rows() -> list[tuple[str, object]]:
    return [(q, obj) for q, obj in ROWS
            if q not in PEERLESS | KNOWN_DIFFERENCES and _self_contained(_own_doc(obj))]


def _peer_failures(rows) -> list[str]:
    torch = pytest.importorskip("torch")
    jax = pytest.importorskip("jax")
    x64 = jax.config.jax_enable_x64
    jax.config.update("jax_enable_x64", True)
    failed = []
    try:
        for qualified, obj in rows:
            test = _doctest(qualified, obj, _peer_text(qualified, _own_doc(obj)), globs={})
            torch.manual_seed(0)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                failures, report = _run(test)
            if failures:
                failed.append(report)
    finally:
        jax.config.update("jax_enable_x64", x64)
    return failed


def _peer_check(rows) -> None:
    failed = _peer_failures(rows)
    assert not failed, "the peer prints something else:\n" + "\n".join(failed)


def test_examples_print_the_peers_output_sample():
    _peer_check(peer_rows()[::75])


@pytest.mark.slow
def test_examples_print_the_peers_output_all():
    _peer_check(peer_rows())


@pytest.mark.slow
def test_known_differences_still_differ():
    """Fixing one fails this test: move its name out of `KNOWN_DIFFERENCES`."""
    rows = [(q, obj) for q, obj in ROWS if q in KNOWN_DIFFERENCES]
    still = {r.split(" in ", 1)[1].split("\n", 1)[0] for r in _peer_failures(rows)}
    assert still == KNOWN_DIFFERENCES, sorted(KNOWN_DIFFERENCES - still)


def test_exception_lists_are_current():
    names = {q for q, _ in ROWS}
    assert PEERLESS <= names, sorted(PEERLESS - names)
    assert KNOWN_DIFFERENCES <= names, sorted(KNOWN_DIFFERENCES - names)
    assert not PEERLESS & KNOWN_DIFFERENCES
