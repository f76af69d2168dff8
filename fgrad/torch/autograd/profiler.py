"""``torch.autograd.profiler``: the older profiler interface (``profile(enabled=True,
use_cuda=False, record_shapes=False, ...)``, ``record_function``), over `fgrad.torch.profiler`.

Example::

    >>> import fgrad.torch as torch
    >>> with torch.autograd.profiler.profile() as prof:
    ...     _ = torch.ones(2).exp()
    >>> [r.key for r in prof.key_averages()]
    ['aten::ones', 'aten::exp']
"""

from __future__ import annotations

import os
from typing import Any

from .. import profiler as _profiler
from ..profiler import record_function

__all__ = ["profile", "record_function"]


class profile(_profiler.profile):  # noqa: N801 (PyTorch's name)
    """The legacy profiler: records while ``enabled`` (no schedule).

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.autograd.profiler.profile(enabled=False) as prof:
        ...     _ = torch.ones(1)
        >>> list(prof.key_averages())
        []
    """

    def __init__(
        self,
        enabled: bool = True,
        *,
        use_cuda: bool = False,
        use_device: Any = None,
        record_shapes: bool = False,
        with_flops: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_modules: bool = False,
        use_kineto: bool = False,
        use_cpu: bool = True,
        experimental_config: Any = None,
        acc_events: bool = False,
        custom_trace_id_callback: Any = None,
        post_processing_timeout_s: float | None = None,
        activity_filters: dict[_profiler.ProfilerActivity, set[str]] | None = None,
    ) -> None:
        # ``post_processing_timeout_s`` and ``activity_filters`` tune PyTorch's Kineto collection
        # (a post-processing time limit, per-activity event-name filters); fgrad records its own
        # events without Kineto, so both are accepted and have no effect.
        super().__init__(record_shapes=record_shapes, acc_events=acc_events)
        self.enabled = enabled

    def export_chrome_trace(self, path: str | os.PathLike, metadata: dict[str, Any] | None = None,
                            use_python_export: bool = False) -> None:
        """Write the events in Chrome's trace-event format; each ``metadata`` entry (a value
        that is JSON text, as PyTorch's) becomes a top-level key of the trace.
        ``use_python_export`` has no effect (fgrad has one writer).

        Example::

            >>> import json, os, tempfile
            >>> import fgrad.torch as torch
            >>> with torch.autograd.profiler.profile() as prof:
            ...     _ = torch.ones(2).exp()
            >>> path = os.path.join(tempfile.mkdtemp(), "trace.json")
            >>> prof.export_chrome_trace(path, metadata={"run": '"a"'})
            >>> with open(path, encoding="utf-8") as f:
            ...     json.load(f)["run"]
            'a'
        """
        self._write_chrome_trace(path, metadata)

    def start(self) -> None:
        if self.enabled:
            super().start()
