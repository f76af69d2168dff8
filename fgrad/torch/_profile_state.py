"""The active `torch.profiler` recorder (None when not profiling): `apply_op` and the autograd
engine report to it.  A module of its own so the dispatcher needs no import of the profiler."""

from __future__ import annotations

from typing import Any

recorder: Any = None
