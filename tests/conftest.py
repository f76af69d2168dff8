"""Shared pytest configuration: hypothesis profiles and the array-backend fixture.

* ``ci`` (default): few examples, deterministic (derandomized), no deadline — fast and
  reproducible.
* ``thorough``: many examples, randomized, e.g. ``HYPOTHESIS_PROFILE=thorough pytest``.
* ``dev``: a middle ground for local runs.
"""

import contextlib
import os
import sys

# -- peers (tests/_peers.py) --------------------------------------------------------------
# The live JAX reference is the CPU JAX, also on a GPU machine whose JAX would pick the GPU
# (it lacks the CPU's schur, and its SVD signs differ): set before anything imports jax; the
# programs the tests start in subprocesses inherit it.
os.environ["JAX_PLATFORMS"] = "cpu"
if "jax" in sys.modules:  # a plugin imported it first: its backends are not chosen yet
    sys.modules["jax"].config.update("jax_platforms", "cpu")
# -- end peers ------------------------------------------------------------------------------
# PYTEST_ADDOPTS configures this run (.ci/run gives it pytest-xdist's -n there): the pytest runs
# that tests start in subprocesses (optax's test files, the alias's pytest plugin) are not this
# run and get their own options, so they do not inherit it.
os.environ.pop("PYTEST_ADDOPTS", None)

import pytest  # noqa: E402
from hypothesis import HealthCheck, Phase, settings  # noqa: E402

# programs the tests launch in subprocesses (under mpiexec, or with `import jax` aliased to
# fgrad): not test modules, and importing them here would need their launcher
collect_ignore_glob = ["mpi_programs/*", "optax_programs/*", "jax_sparse_programs/*", "jax_programs_round8/*",
                       "jax_programs_round9/*", "jax_programs_round10/*", "jax_programs_round11/*",
                       "torch_programs_round9/*", "torch_programs_round10/*", "torch_programs_round11/*",
                       "torch_programs_round12/*", "torch_programs_round13/*", "torch_programs_round16/*",
                       "extend_programs/*", "jax_programs_round12/*", "jax_programs_round13/*",
                       "jax_programs_round14a/*", "jax_programs_round14b/*", "jax_programs_round16/*",
                       "jax_tutorials/*", "jax_programs_round17/*", "jax_programs_round18/*",
                       "torch_programs_round18/*", "jax_programs_round19/*",
                       "jax_programs_round20/*", "jax_programs_round21/*", "jax_programs_round22/*",
                       "jax_programs_round23/*", "jax_programs_round23b/*", "jax_programs_round24/*",
                       "jax_programs_round24b/*", "jax_programs_round25/*",
                       "jax_programs_round25b/*", "jax_programs_round26a/*", "jax_programs_round26b/*",
                       "torch_programs_round21/*", "torch_programs_round22/*", "torch_programs_round22b/*",
                       "torch_programs_round23/*", "torch_programs_round24/*", "torch_programs_round25/*",
                       "torch_programs_round26/*"]

_common = dict(
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                           HealthCheck.filter_too_much, HealthCheck.differing_executors],
    print_blob=True,
)
settings.register_profile("ci", max_examples=5, derandomize=True, database=None,
                          phases=[Phase.explicit, Phase.generate], **_common)
settings.register_profile("dev", max_examples=25, **_common)
settings.register_profile("thorough", max_examples=200, **_common)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# Hypothesis's pytest plugin wraps a parametrized @given test's settings in a new settings
# object on every invocation, the previous one as its parent; the `database` lookup walks
# that chain recursively, so one @given function with ~1000 parametrizations (the op table's
# test_forward) ends in a RecursionError.  Each invocation starts again from the settings
# the function was defined with, so the chain stays two deep.
_DEFINED_SETTINGS: dict = {}


def pytest_runtest_setup(item):
    fn = getattr(item, "obj", None)
    fn = getattr(fn, "__func__", fn)
    if getattr(fn, "is_hypothesis_test", False) and hasattr(fn, "_hypothesis_internal_use_settings"):
        fn._hypothesis_internal_use_settings = _DEFINED_SETTINGS.setdefault(
            fn, fn._hypothesis_internal_use_settings)


# -- array backends ---------------------------------------------------------------------
# A test that takes the `backend` fixture runs once per array backend: numpy and the fake
# device (fgrad.testing.fake_device, a strict NumPy-subclass stand-in for a GPU) always;
# real cupy when FGRAD_TEST_BACKENDS lists it (e.g. FGRAD_TEST_BACKENDS=numpy,cupy) and a
# GPU is present, otherwise that case is skipped with the reason.  Inside the test the
# backend's first device is the default device, so fgrad's creation functions land there.


def requested_backends() -> list:
    names = os.environ.get("FGRAD_TEST_BACKENDS", "numpy,fake")
    return [n.strip() for n in names.split(",") if n.strip()]


def _cupy_skip_reason():
    if "cupy" not in requested_backends():
        return "cupy backend not requested (run with FGRAD_TEST_BACKENDS=numpy,fake,cupy on a GPU machine)"
    from fgrad import backends as B

    try:
        B.get_backend("cupy")
    except B.BackendUnavailableError as e:
        return f"cupy backend unavailable: {e}"
    return None


def backend_params() -> list:
    """pytest params for the backends: numpy, fake, cupy (skipped with a reason unless
    requested and available)."""
    out = [pytest.param("numpy", id="numpy"), pytest.param("fake", id="fake")]
    reason = _cupy_skip_reason()
    marks = [pytest.mark.gpu] + ([pytest.mark.skip(reason=reason)] if reason else [])
    out.append(pytest.param("cupy", id="cupy", marks=marks))
    return out


class BackendCase:
    """The backend under test: ``name``, ``backend``, ``device``; ``put`` places a pytree
    there, ``on_device`` checks a result's leaves, ``transfers`` counts the explicit
    host->device uploads of a block (fake device only; None elsewhere)."""

    def __init__(self, name: str, backend, device) -> None:
        self.name, self.backend, self.device = name, backend, device

    @property
    def is_host(self) -> bool:
        return self.name == "numpy"

    @property
    def counts_transfers(self) -> bool:
        """True where `transfers` counts (the fake device; real cupy has no counter)."""
        return getattr(self.backend, "transfers", None) is not None

    def put(self, x):
        import fgrad

        return fgrad.device_put(x, self.device)

    def on_device(self, tree) -> bool:
        import fgrad

        leaves = [x for x in fgrad.tree_leaves(tree) if isinstance(x, fgrad.Array)]
        return bool(leaves) and all(x.device == self.device for x in leaves)

    @contextlib.contextmanager
    def transfers(self):
        counts = {}
        t = getattr(self.backend, "transfers", None)
        before = dict(t) if t is not None else None
        yield counts
        if t is not None:
            counts.update({k: self.backend.transfers[k] - before[k] for k in before})

    def __repr__(self) -> str:
        return f"BackendCase({self.name}, {self.device})"


@contextlib.contextmanager
def backend_case(name: str):
    """Context manager behind the `backend` fixture (usable directly in helpers)."""
    from fgrad import backends as B
    from fgrad.testing import fake_device

    if name == "fake":
        with fake_device.installed() as be:
            dev = be.devices()[0]
            with B.default_device_scope(dev):
                yield BackendCase(name, be, dev)
        return
    be = B.get_backend(name)
    dev = be.devices()[0]
    with B.default_device_scope(dev):
        yield BackendCase(name, be, dev)


@pytest.fixture(params=backend_params())
def backend(request):
    with backend_case(request.param) as case:
        yield case


@pytest.fixture(autouse=True)
def _keep_the_configured_default_device():
    """The configured default device (``FGRAD_BACKEND=fake`` / ``cupy``) is the same for every
    test: a test that installs and removes a fake backend resets it to the CPU when it was
    that backend's (`fgrad.backends.unregister_backend`); put it back."""
    from fgrad import backends

    before = backends._DEFAULT[0]
    yield
    backends._DEFAULT[0] = before
    if before.backend_name not in backends._BACKENDS:  # the test removed it: load it again
        backends.get_backend(before.backend_name)


@pytest.fixture(autouse=True, scope="module")
def _sharding_rules_off_between_modules():
    """`fgrad.core.sharding_flow` turns on for good once a program places an array over a mesh
    (jit calls then take the path that records results' shardings); each test module starts as
    a fresh program does, so the fast-path tests see the fast path."""
    yield
    from fgrad.core import sharding_flow

    sharding_flow.live = False


# -- programs pinned to the CPU ---------------------------------------------------------------
# A test marked `cpu_program` only runs a program in a subprocess with FGRAD_BACKEND=cpu (the JAX
# and PyTorch program rounds: their references are CPU numbers) and compares its output.  The
# fake device exists only in a process that installs it, so under FGRAD_BACKEND=fake (CI's
# second pass) such a test would run the very same program again: that pass skips it.  Not so
# on a GPU machine (FGRAD_BACKEND=cupy): there `torch.cuda.is_available()` is true in the
# subprocess too and a program may move to the GPU, so the test runs.


def fake_default_pass() -> bool:
    """True when FGRAD_BACKEND makes the fake device fgrad's default device."""
    return os.environ.get("FGRAD_BACKEND", "").strip().lower().split(":")[0] == "fake"


def pytest_collection_modifyitems(config, items):
    if not fake_default_pass():
        return
    skip = pytest.mark.skip(reason="runs its program with FGRAD_BACKEND=cpu: the plain pass's run "
                                   "(tests/conftest.py, cpu_program)")
    for item in items:
        if item.get_closest_marker("cpu_program"):
            item.add_marker(skip)


# -- failure log (for remote runs that may be cut off before pytest's summary) ----------------
# FGRAD_FAILURE_LOG=path: each failing test's id and traceback is appended to that file as it
# happens (by the controlling process under pytest-xdist), so a run killed by a time limit still
# says what failed.


def pytest_runtest_logreport(report):
    timing = os.environ.get("FGRAD_DURATION_LOG")  # every phase's seconds, as the run goes
    if timing and not os.environ.get("PYTEST_XDIST_WORKER"):
        with open(timing, "a", encoding="utf-8") as f:
            f.write(f"{report.duration:.3f} {report.when} {report.nodeid}\n")
    path = os.environ.get("FGRAD_FAILURE_LOG")
    if not path or not report.failed or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write(f"=== {report.nodeid} ({report.when})\n{report.longreprtext[-4000:]}\n")
