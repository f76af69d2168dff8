"""Benchmark cases.

A case is a subclass of `Case` registered with `@register`.  Each implementation is a method
named after a library in `IMPLS` that returns a zero-argument callable (the thing timed); it
may raise `Skip("why")` (or ImportError when a peer is not installed).  The callable's return
value on the first call is compared against the reference implementation's, so every column
computes the same thing.  The ``fgrad`` method is the subject; a case whose fgrad side is not
available yet (say ``fgrad.jit`` or ``fgrad.torch`` has not landed) is skipped as a whole.

Add a case: write a class in one of the modules below (or a new module listed in `MODULES`)::

    @register
    class MyCase(Case):
        name = "my_case"                 # id for --only
        title = "what is measured"       # markdown, first column of the README table
        short = "plot label"
        issue = 3                        # the issue that sets the goal
        goals = [("numpy", 0.5)]         # fgrad time <= 0.5 x numpy's time
        notes = {"jax": "jax.jit"}       # what a peer column runs, when not obvious

        def setup(self): ...             # build inputs once (numpy arrays)
        def fgrad(self): return lambda: ...
        def numpy(self): return lambda: ...
"""

from __future__ import annotations

import importlib

IMPLS = ("fgrad", "numpy", "autograd", "torch", "jax")
LABELS = {"fgrad": "fgrad", "numpy": "numpy", "autograd": "HIPS autograd", "torch": "torch",
          "jax": "jax"}
MODULES = ("core", "torch_shim", "jit", "jit_compile", "cnn", "workloads", "scatter",
           "jit_layers", "random", "loops", "linalg")  # in table order

REGISTRY: list[type[Case]] = []


class Skip(Exception):
    """Raised by an implementation method that cannot run here (reason in the message)."""


class Case:
    name = ""
    title = ""
    short = ""     # label in the plot
    issue = 0
    group = "eager"
    goals: list[tuple[str, float]] = []
    notes: dict[str, str] = {}
    reference = "numpy"      # implementation whose first output the others are checked against
    rtol = 1e-6
    atol = 1e-9
    first_call_matters = False  # report first-call (trace/compile) times in the notes
    jax_x64 = True  # jax_enable_x64 while this case runs: on for float64 cases (else jax would
    #                 silently compute in float32), off (jax's default, faster dispatch) for float32

    def setup(self) -> None:
        pass

    def implementations(self) -> list[str]:
        return [name for name in IMPLS if callable(getattr(self, name, None))]


def register(cls: type[Case]) -> type[Case]:
    REGISTRY.append(cls)
    return cls


def all_cases() -> list[type[Case]]:
    if not REGISTRY:
        for m in MODULES:
            importlib.import_module(f"{__name__}.{m}")
    return list(REGISTRY)


def block(x):
    """Wait for jax's asynchronous dispatch (no-op for everything else)."""
    return x.block_until_ready() if hasattr(x, "block_until_ready") else x
