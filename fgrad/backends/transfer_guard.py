"""Transfer guards: what happens on an *implicit* transfer between the host and a device
(JAX's ``jax_transfer_guard*`` options and ``jax.transfer_guard`` context managers).

Three directions, each ``"allow"`` (default), ``"log"`` (a WARNING on the logger
``fgrad.transfer_guard``), ``"disallow"`` (raise `TransferGuardError`, a RuntimeError as
JAX's ``JaxRuntimeError``), or ``"log_explicit"`` / ``"disallow_explicit"`` (explicit
transfers too):

* ``host_to_device``: host data becoming an Array (``fnp.asarray(np_array)``, a NumPy
  operand of an op, a NumPy argument of a jitted function), on every backend (JAX guards its
  CPU device too); Python scalars in arithmetic are embedded, not transferred;
* ``device_to_host``: reading a device Array on the host (``np.asarray(x)``, ``float(x)``,
  ``x.item()``, ``x.tolist()``); host (NumPy-backend) Arrays are already there;
* ``device_to_device``: fgrad never moves data between devices implicitly (mixing devices
  in one op raises `DeviceMismatchError`), so only ``*_explicit`` levels act, on
  ``device_put`` from one device to another.

``fgrad.device_put`` and ``fgrad.device_get`` are explicit (run inside `explicit`); printing
an Array (``repr``, ``str``, ``format``) is never guarded (`printing`).  The module keeps the
levels: process-wide values set by ``fgrad.config.update`` and per-thread overrides pushed by
the context managers.

Example::

    >>> from fgrad.backends import transfer_guard as tg
    >>> tg.level("host_to_device")
    'allow'
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

DIRECTIONS = ("host_to_device", "device_to_host", "device_to_device")
LEVELS = ("allow", "log", "disallow", "log_explicit", "disallow_explicit")
LOG = logging.getLogger("fgrad.transfer_guard")

_global = {d: "allow" for d in DIRECTIONS}


class _Local(threading.local):
    def __init__(self) -> None:
        self.overrides: dict[str, list[str]] = {d: [] for d in DIRECTIONS}
        self.explicit = 0
        self.printing = 0


_local = _Local()
# True while any direction may act in any thread (a fast test for the hot paths)
active = False
_scopes_not_allowing = 0  # scopes (all threads) whose level is not "allow"
_lock = threading.Lock()


class TransferGuardError(RuntimeError):
    """A transfer the transfer guard disallows (JAX raises ``JaxRuntimeError``, a
    RuntimeError, with "Disallowed host-to-device transfer")."""


def _refresh() -> None:
    global active
    active = _scopes_not_allowing > 0 or any(_global[d] != "allow" for d in DIRECTIONS)


def check_level(name: str, value) -> str:
    """``value`` if it is a transfer-guard level, else a ValueError naming the option."""
    if value not in LEVELS:
        raise ValueError(f"{name}: expected one of {list(LEVELS)}, got {value!r}")
    return value


def set_global(direction: str | None, value) -> None:
    """The process-wide level of ``direction`` (None: all three), as
    ``config.update("jax_transfer_guard[_<direction>]", value)``; None restores "allow"."""
    value = "allow" if value is None else check_level("transfer_guard", value)
    with _lock:
        for d in DIRECTIONS if direction is None else (direction,):
            _global[d] = value
        _refresh()


def level(direction: str) -> str:
    """The level of ``direction`` in effect in this thread."""
    stack = _local.overrides[direction]
    return stack[-1] if stack else _global[direction]


@contextmanager
def scoped(direction: str | None, value) -> Iterator[None]:
    """Set the level of ``direction`` (None: all three) in this thread for the block."""
    global _scopes_not_allowing
    check_level("transfer_guard", value)
    dirs = DIRECTIONS if direction is None else (direction,)
    counted = value != "allow"
    for d in dirs:
        _local.overrides[d].append(value)
    with _lock:
        _scopes_not_allowing += counted
        _refresh()
    try:
        yield
    finally:
        for d in dirs:
            _local.overrides[d].pop()
        with _lock:
            _scopes_not_allowing -= counted
            _refresh()


@contextmanager
def explicit() -> Iterator[None]:
    """Transfers in the block are explicit (``device_put``, ``device_get``)."""
    _local.explicit += 1
    try:
        yield
    finally:
        _local.explicit -= 1


@contextmanager
def printing() -> Iterator[None]:
    """Reads of device values in the block print an Array: never guarded."""
    _local.printing += 1
    try:
        yield
    finally:
        _local.printing -= 1


def check(direction: str, what: str) -> None:
    """Apply the guard of ``direction`` to a transfer described by ``what`` (call only when
    `active`)."""
    lv = level(direction)
    if lv == "allow" or _local.printing:
        return
    is_explicit = _local.explicit > 0
    if is_explicit and not lv.endswith("_explicit"):
        return
    kind = "explicit" if is_explicit else "implicit"
    arrow = direction.replace("_to_", "-to-").replace("_", "-")
    if lv.startswith("log"):
        LOG.warning("%s %s transfer: %s", kind, arrow, what)
        return
    raise TransferGuardError(
        f"Disallowed {arrow} transfer ({kind}): {what}. The transfer guard for {direction} is "
        f"{lv!r}; move the data explicitly with fgrad.device_put / fgrad.device_get, or allow "
        f"it with fgrad.transfer_guard_{direction}('allow').")


__all__ = ["DIRECTIONS", "LEVELS", "TransferGuardError", "active", "check", "check_level", "explicit",
           "level", "printing", "scoped", "set_global"]
