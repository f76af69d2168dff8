"""fgrad's diagnostics go through the standard `logging` module, under the logger ``fgrad``.

* ``fgrad.jit``: one INFO record per trace of a jitted function, naming the argument whose
  shape, dtype or static value changed on a recompile; DEBUG records for each program
  compiled (backend, time, size);
* ``fgrad.tape``: DEBUG records when the reverse-mode tape cannot stage an operation's
  backward program and linearizes it per call instead (with the reason);
* ``fgrad.autograd``: the same for the ``fgrad.torch`` autograd graph.

Nothing is shown by default (the records are below WARNING).  Show them with the usual
``logging`` calls, or set the environment variable ``FGRAD_LOG_COMPILES=1``, which attaches
a stderr handler to the ``fgrad`` logger and sets it to DEBUG (`enable_from_environment`,
checked whenever a record could be written).

Example::

    >>> import logging
    >>> logging.getLogger("fgrad.jit").name
    'fgrad.jit'
"""

from __future__ import annotations

import logging
import os
import sys

ROOT = logging.getLogger("fgrad")
ENV = "FGRAD_LOG_COMPILES"
_handler: logging.Handler | None = None


class _Stderr(logging.StreamHandler):
    """A handler writing to the *current* ``sys.stderr`` (which tools may replace)."""

    @property  # type: ignore[override]
    def stream(self):
        return sys.stderr

    @stream.setter
    def stream(self, value) -> None:
        pass


def enable_from_environment() -> None:
    """If ``FGRAD_LOG_COMPILES`` is set (not ``0``), make the ``fgrad`` records visible: a
    stderr handler on the ``fgrad`` logger (once) and level DEBUG."""
    if _handler is not None or os.environ.get(ENV, "") in ("", "0"):
        return
    enable_handler()


def enable_handler() -> None:
    """Make the ``fgrad`` records visible on stderr at DEBUG (as ``FGRAD_LOG_COMPILES=1``)."""
    global _handler
    if _handler is None:
        _handler = _Stderr()
        _handler.setFormatter(logging.Formatter("[%(name)s] %(message)s"))
        ROOT.addHandler(_handler)
    if ROOT.level == logging.NOTSET or ROOT.level > logging.DEBUG:
        ROOT.setLevel(logging.DEBUG)


def disable_handler() -> None:
    """Undo `enable_handler` (the ``log_compiles`` scope ending), unless
    ``FGRAD_LOG_COMPILES`` asks for the records."""
    global _handler
    if _handler is None or os.environ.get(ENV, "") not in ("", "0"):
        return
    ROOT.removeHandler(_handler)
    _handler = None
    if ROOT.level == logging.DEBUG:
        ROOT.setLevel(logging.NOTSET)


def get_logger(name: str) -> logging.Logger:
    """The logger ``fgrad.<name>``.

    >>> get_logger("tape").name
    'fgrad.tape'
    """
    return logging.getLogger(f"fgrad.{name}")


enable_from_environment()

__all__ = ["ROOT", "ENV", "disable_handler", "enable_from_environment", "enable_handler", "get_logger"]
