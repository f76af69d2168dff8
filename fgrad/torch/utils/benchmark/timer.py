"""`Timer`: run a statement in blocks and time it (PyTorch's ``torch.utils.benchmark.Timer``).

Example::

    >>> from fgrad.torch.utils.benchmark import Timer
    >>> Timer("sum(range(10))").blocked_autorange(min_run_time=0.01).number_per_run >= 1
    True
"""

from __future__ import annotations

import enum
import textwrap
import timeit
from collections.abc import Callable
from typing import Any, NoReturn

import numpy as np

import fgrad.torch as torch

from . import common

__all__ = ["Timer", "timer", "Language"]


def timer() -> float:
    """The clock the timings use (``timeit.default_timer``; fgrad's CPU work is synchronous).

    Example::

        >>> from fgrad.torch.utils.benchmark import timer
        >>> timer() > 0
        True
    """
    return timeit.default_timer()


class Language(enum.Enum):
    """The language of ``stmt``: fgrad times Python only.

    Example::

        >>> from fgrad.torch.utils.benchmark.timer import Language
        >>> Language.PYTHON
        <Language.PYTHON: 0>
    """

    PYTHON = 0
    CPP = 1


class Timer:
    """Time ``stmt`` after ``setup`` with ``globals`` (``torch`` is fgrad.torch unless given).

    ``label``/``sub_label``/``description``/``env`` name the result for `Compare`;
    ``num_threads`` is set for the run.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.utils.benchmark import Timer
        >>> t = Timer("x * 2", setup="x = torch.ones(4)", label="mul", description="ones")
        >>> t.timeit(5).title
        'mul'
    """

    def __init__(self, stmt: str = "pass", setup: str = "pass", global_setup: str = "",
                 timer: Callable[[], float] = timer, globals: dict[str, Any] | None = None,  # noqa: A002
                 label: str | None = None, sub_label: str | None = None, description: str | None = None,
                 env: str | None = None, num_threads: int = 1,
                 language: Language | str = Language.PYTHON) -> None:
        if not isinstance(stmt, str):
            raise ValueError("Currently only a `str` stmt is supported.")
        if language not in (Language.PYTHON, "py", "python"):
            raise ValueError(f"Timer: fgrad times Python statements only, got language={language!r}")
        if global_setup:
            raise ValueError(f"global_setup is C++ only, got `{global_setup}`. Most likely this code can "
                             "simply be moved to `setup`.")
        self._globals = dict(globals or {})
        self._globals.setdefault("torch", torch)  # `torch` in a statement is fgrad.torch unless given
        stmt = textwrap.dedent(stmt)
        stmt = (stmt[1:] if stmt and stmt[0] == "\n" else stmt).rstrip()
        setup = textwrap.dedent(setup)
        setup = (setup[1:] if setup and setup[0] == "\n" else setup).rstrip()
        self._timer = timeit.Timer(stmt=stmt, setup=setup, timer=timer, globals=self._globals)
        self._task_spec = common.TaskSpec(stmt=stmt, setup=setup, global_setup=global_setup, label=label,
                                          sub_label=sub_label, description=description, env=env,
                                          num_threads=num_threads)

    def _timeit(self, number: int) -> float:
        return max(self._timer.timeit(number), 1e-9)  # no real statement takes under a nanosecond

    def timeit(self, number: int = 1000000) -> common.Measurement:
        """One block of ``number`` runs (after a warm-up of ``number // 100``)."""
        with common.set_torch_threads(self._task_spec.num_threads):
            self._timeit(number=max(int(number // 100), 2))
            return common.Measurement(number_per_run=number, raw_times=[self._timeit(number=number)],
                                      task_spec=self._task_spec)

    def repeat(self, repeat: int = -1, number: int = -1) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def autorange(self, callback: Callable[[int, float], NoReturn] | None = None) -> None:
        raise NotImplementedError("See `Timer.blocked_autorange.`")

    def _estimate_block_size(self, min_run_time: float) -> int:
        """The block size that makes the timer's overhead negligible (also the warm-up)."""
        with common.set_torch_threads(self._task_spec.num_threads):
            overhead = float(np.median([self._timeit(0) for _ in range(5)]))
            number = 1
            while True:
                taken = self._timeit(number)
                if (overhead / taken <= 1e-4 and taken >= min_run_time / 1000) or taken > min_run_time:
                    break
                if number * 10 > 2147483647:
                    break
                number *= 10
        return number

    def _measurement_loop(self, number: int, stop: Callable[[list[float]], bool], min_run_time: float,
                          max_run_time: float | None,
                          callback: Callable[[int, float], Any] | None) -> list[float]:
        total, can_stop, times = 0.0, False, []
        with common.set_torch_threads(self._task_spec.num_threads):
            while total < min_run_time or not can_stop:
                spent = self._timeit(number)
                times.append(spent)
                total += spent
                if callback:
                    callback(number, spent)
                can_stop = stop(times)
                if max_run_time and total > max_run_time:
                    break
        return times

    def blocked_autorange(self, callback: Callable[[int, float], NoReturn] | None = None,
                          min_run_time: float = 0.2) -> common.Measurement:
        """Blocks of a size that makes the timer's overhead negligible, until ``min_run_time``
        seconds are spent."""
        number = self._estimate_block_size(min_run_time)
        times = self._measurement_loop(number, lambda t: True, min_run_time, None, callback)
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)

    def adaptive_autorange(self, threshold: float = 0.1, *, min_run_time: float = 0.01,
                           max_run_time: float = 10.0,
                           callback: Callable[[int, float], NoReturn] | None = None) -> common.Measurement:
        """Blocks until the IQR is under ``threshold`` of the median (at least 4 blocks and
        ``min_run_time`` seconds; at most ``max_run_time``)."""
        number = self._estimate_block_size(min_run_time=0.05)

        def stop(times: list[float]) -> bool:
            if len(times) <= 3:
                return False
            return common.Measurement(number, times, self._task_spec).meets_confidence(threshold)

        times = self._measurement_loop(number, stop, min_run_time, max_run_time, callback)
        return common.Measurement(number_per_run=number, raw_times=times, task_spec=self._task_spec)
