"""PyTorch's "meta" device as fgrad.torch keeps it.

A tensor made for "meta" (``device="meta"``, or any factory under ``with torch.device("meta")``
/ ``torch.set_default_device("meta")``) lives on the CPU and holds zeros, and it is *marked*:
``t.is_meta`` is True, random factories and in-place random fills (``uniform_``, ``normal_``,
... so every ``nn.init`` function) leave it alone and draw nothing from the generator.  That
keeps PyTorch's random stream: a model built on "meta", moved with ``Module.to_empty`` and
initialized (``reset_parameters``) or loaded (``load_state_dict``) gets PyTorch's numbers.
Differences from PyTorch: the tensor reports ``device(type='cpu')``, holds memory, and ops on
it compute (PyTorch computes shapes only).

Example::

    >>> import fgrad.torch as torch
    >>> with torch.device("meta"):
    ...     w = torch.empty(2, 3)
    >>> w.is_meta, torch.zeros(1).is_meta
    (True, False)
"""

from __future__ import annotations

import functools
from typing import Any, Callable

import numpy as np

from ._device import _state as _DEV_STATE


def requested(device: Any) -> bool:
    """Whether a factory's ``device`` argument asks for "meta" (explicitly, or, when None,
    through the default device)."""
    if device is None:
        return _DEV_STATE.get("meta", False)
    kind = getattr(device, "type", None)
    return (kind if kind is not None else str(device).split(":")[0]) == "meta"


def mark(t, on: bool = True):
    """``t`` marked as a meta tensor (``on=False``: unmarked; returned)."""
    if on:
        t.__dict__["_is_meta"] = True
    else:
        t.__dict__.pop("_is_meta", None)
    return t


def is_marked(t) -> bool:
    return t.__dict__.get("_is_meta", False)


class _NoDraws:
    """A generator engine for factories on "meta": shapes and dtypes as the real draws,
    zeros for values, and nothing taken from any stream."""

    def uniform(self, n: int, dtype, low: float = 0.0, high: float = 1.0) -> np.ndarray:
        return np.zeros(n, dtype)

    normal = uniform

    def serial_normal(self, n: int, dtype, mean: float = 0.0, std: float = 1.0) -> np.ndarray:
        return np.zeros(n, dtype)

    def integers(self, n: int, low: int, high: int) -> np.ndarray:
        return np.full(n, low, np.int64)

    def full_range(self, n: int, dtype) -> np.ndarray:
        return np.zeros(n, dtype)

    def permutation(self, n: int) -> np.ndarray:
        return np.arange(n, dtype=np.int64)


NO_DRAWS = _NoDraws()


def factory(fn: Callable) -> Callable:
    """Decorate a creation function: on "meta" it runs on the CPU without drawing from a
    generator and marks its result."""

    @functools.wraps(fn)
    def create(*args, **kwargs):
        if not requested(kwargs.get("device")) or kwargs.get("out") is not None:
            return fn(*args, **kwargs)
        kwargs["device"] = "cpu"
        prev = _DEV_STATE.get("no_draws", False)
        _DEV_STATE["no_draws"] = True
        try:
            return mark(fn(*args, **kwargs))
        finally:
            _DEV_STATE["no_draws"] = prev

    create.__fgrad_factory__ = fn  # the undecorated function (`_errors._factory_entry` calls it)
    return create


def skips_meta(fill: Callable) -> Callable:
    """Decorate an in-place random fill: a meta tensor is returned unchanged, nothing drawn."""

    @functools.wraps(fill)
    def run(self, *args, **kwargs):
        if is_marked(self):
            return self
        return fill(self, *args, **kwargs)

    return run
