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
    ) -> None:
        super().__init__(record_shapes=record_shapes, acc_events=acc_events)
        self.enabled = enabled

    def start(self) -> None:
        if self.enabled:
            super().start()
