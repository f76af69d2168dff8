"""``torch.random``: the global generator's seed and state, and `fork_rng` (run a block
without disturbing the global random stream).

Example::

    >>> import fgrad.torch as torch
    >>> _ = torch.random.manual_seed(0)
    >>> with torch.random.fork_rng():
    ...     _ = torch.rand(3)            # draws inside do not move the stream outside
    >>> a = torch.rand(1)
    >>> _ = torch.random.manual_seed(0)
    >>> bool(torch.rand(1) == a)
    True
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator

from . import cuda
from ._random import (
    Generator,
    default_generator,
    get_rng_state,
    initial_seed,
    manual_seed,
    seed,
    set_rng_state,
)

__all__ = [
    "Generator",
    "default_generator",
    "fork_rng",
    "get_rng_state",
    "initial_seed",
    "manual_seed",
    "seed",
    "set_rng_state",
]


@contextlib.contextmanager
def fork_rng(
    devices: Iterable | None = None,
    enabled: bool = True,
    _caller: str = "fork_rng",
    _devices_kw: str = "devices",
    device_type: str | None = None,
) -> Iterator[None]:
    """Save the global generator's state (and the CUDA generators' when there are any) and
    restore it on exit.

    Example::

        >>> import fgrad.torch as torch
        >>> with torch.random.fork_rng(enabled=False):
        ...     pass
    """
    if not enabled:
        yield
        return
    cpu_state = get_rng_state()
    cuda_states = cuda.get_rng_state_all() if cuda.is_available() else []
    try:
        yield
    finally:
        set_rng_state(cpu_state)
        if cuda_states:
            cuda.set_rng_state_all(cuda_states)
