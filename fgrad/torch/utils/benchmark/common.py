"""What a timing is: the task (`TaskSpec`), its runs (`Measurement`) and the number formats.

Example::

    >>> from fgrad.torch.utils.benchmark import Measurement, TaskSpec
    >>> m = Measurement(10, [1e-5, 2e-5, 3e-5, 4e-5], TaskSpec("x + 1", "pass"))
    >>> m.median, m.number_per_run
    (2.5e-06, 10)
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import math
import textwrap
from collections.abc import Iterable, Iterator
from typing import Any

import numpy as np

import fgrad.torch as torch

__all__ = ["TaskSpec", "Measurement", "select_unit", "unit_to_english", "trim_sigfig", "ordered_unique",
           "set_torch_threads"]

_MAX_SIGNIFICANT_FIGURES = 4
_MIN_CONFIDENCE_INTERVAL = 25e-9  # 25 ns
_IQR_WARN_THRESHOLD = 0.1  # IQR / median above which a measurement is suspect
_IQR_GROSS_WARN_THRESHOLD = 0.25


@dataclasses.dataclass(init=True, repr=False, eq=True, frozen=True)
class TaskSpec:
    """What was timed (everything but the globals).

    Example::

        >>> from fgrad.torch.utils.benchmark import TaskSpec
        >>> TaskSpec("x + 1", "pass", label="add", sub_label="3").title
        'add: 3'
    """

    stmt: str
    setup: str
    global_setup: str = ""
    label: str | None = None
    sub_label: str | None = None
    description: str | None = None
    env: str | None = None
    num_threads: int = 1

    @property
    def title(self) -> str:
        sub = f": {self.sub_label}" if self.sub_label else ""
        if self.label is not None:
            return self.label + sub
        if "\n" not in self.stmt:
            return self.stmt + sub
        return f"stmt:{f' ({self.sub_label})' if self.sub_label else ''}\n{textwrap.indent(self.stmt, '  ')}"

    def setup_str(self) -> str:
        if self.setup == "pass" or not self.setup:
            return ""
        if "\n" in self.setup:
            return f"setup:\n{textwrap.indent(self.setup, '  ')}"
        return f"setup: {self.setup}"

    def summarize(self) -> str:
        sections = [self.title, self.description or "", self.setup_str()]
        return "\n".join(f"{s}\n" if "\n" in s else s for s in sections if s)


_TASKSPEC_FIELDS = tuple(f.name for f in dataclasses.fields(TaskSpec))


@dataclasses.dataclass(init=True, repr=False)
class Measurement:
    """The runs of one task: ``raw_times`` (seconds per block of ``number_per_run`` runs).

    ``times`` (per run), ``median``, ``mean``, ``iqr``; the repr is PyTorch's summary.

    Example::

        >>> from fgrad.torch.utils.benchmark import Measurement, TaskSpec
        >>> print(Measurement(1, [1e-6, 2e-6, 3e-6, 4e-6], TaskSpec("f()", "pass")))  # doctest: +ELLIPSIS
        <fgrad.torch.utils.benchmark.common.Measurement object at 0x...>
        f()
          Median: 2.50 us
          IQR:    1.50 us (1.75 to 3.25)
          4 measurements, 1 runs per measurement, 1 thread
          WARNING: Interquartile range is 60.0% of the median measurement.
                   This suggests significant environmental influence.
    """

    number_per_run: int
    raw_times: list[float]
    task_spec: TaskSpec
    metadata: dict[Any, Any] | None = None  # the user's

    def __post_init__(self) -> None:
        self._sorted_times: tuple[float, ...] = ()
        self._warnings: tuple[str, ...] = ()
        self._median = self._mean = self._p25 = self._p75 = -1.0

    def __getattr__(self, name: str) -> Any:  # the TaskSpec's fields (stmt, label, num_threads, ...)
        if name in _TASKSPEC_FIELDS:
            return getattr(self.task_spec, name)
        raise AttributeError(f"'Measurement' object has no attribute {name!r}")

    def _lazy_init(self) -> None:
        if self.raw_times and not self._sorted_times:
            self._sorted_times = tuple(sorted(self.times))
            t = np.asarray(self._sorted_times, dtype=np.float64)
            self._median = float(np.quantile(t, 0.5))
            self._mean = float(t.mean())
            self._p25 = float(np.quantile(t, 0.25))
            self._p75 = float(np.quantile(t, 0.75))
            for threshold, msg in ((_IQR_GROSS_WARN_THRESHOLD,
                                    "This suggests significant environmental influence."),
                                   (_IQR_WARN_THRESHOLD, "This could indicate system fluctuation.")):
                if not self.meets_confidence(threshold):
                    rel = self.iqr / self.median * 100
                    self._warnings += (f"  WARNING: Interquartile range is {rel:.1f}% of the median "
                                       f"measurement.\n           {msg}",)
                    break

    @property
    def times(self) -> list[float]:
        return [t / self.number_per_run for t in self.raw_times]

    @property
    def median(self) -> float:
        self._lazy_init()
        return self._median

    @property
    def mean(self) -> float:
        self._lazy_init()
        return self._mean

    @property
    def iqr(self) -> float:
        self._lazy_init()
        return self._p75 - self._p25

    @property
    def significant_figures(self) -> int:
        """A rough count of trustworthy digits (from the spread of the middle half), 1 to 4."""
        self._lazy_init()
        n = len(self._sorted_times)
        mid = self._sorted_times[n // 4:math.ceil(3 * n / 4)]
        ci = max(1.645 * float(np.std(mid)) / math.sqrt(len(mid)), _MIN_CONFIDENCE_INTERVAL)
        figures = math.floor(math.log10(self._median / ci))
        return min(max(figures, 1), _MAX_SIGNIFICANT_FIGURES)

    @property
    def has_warnings(self) -> bool:
        self._lazy_init()
        return bool(self._warnings)

    def meets_confidence(self, threshold: float = _IQR_WARN_THRESHOLD) -> bool:
        return self.iqr / self.median < threshold

    @property
    def title(self) -> str:
        return self.task_spec.title

    @property
    def as_row_name(self) -> str:
        return self.sub_label or self.stmt or "[Unknown]"

    def __repr__(self) -> str:
        self._lazy_init()
        n = len(self._sorted_times)
        unit, scale = select_unit(self._median)
        lines = [object.__repr__(self), self.task_spec.summarize(),
                 f"  {'Median: ' if n > 1 else ''}{self._median / scale:.2f} {unit}"]
        if n >= 4:
            lines.append(f"  IQR:    {self.iqr / scale:.2f} {unit} ({self._p25 / scale:.2f} to "
                         f"{self._p75 / scale:.2f})")
        lines.append(f"  {n} measurement{'s' if n > 1 else ''}, {self.number_per_run} runs "
                     f"{'per measurement,' if n > 1 else ','} {self.num_threads} thread"
                     f"{'s' if self.num_threads > 1 else ''}")
        lines.extend(self._warnings)
        return "\n".join(lines).strip()

    @staticmethod
    def merge(measurements: Iterable[Measurement]) -> list[Measurement]:
        """Pool the replicates of each task into one `Measurement` (``number_per_run=1``)."""
        groups: collections.defaultdict[TaskSpec, list[float]] = collections.defaultdict(list)
        for m in measurements:
            groups[m.task_spec].extend(m.times)
        return [Measurement(1, times, spec) for spec, times in groups.items()]


def select_unit(t: float) -> tuple[str, float]:
    """The unit that shows ``t`` seconds with 1-3 leading digits.

    Example::

        >>> from fgrad.torch.utils.benchmark import select_unit
        >>> select_unit(2.5e-6)
        ('us', 1e-06)
    """
    unit = {-3: "ns", -2: "us", -1: "ms"}.get(int(math.log10(t) // 3), "s")
    return unit, {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1}[unit]


def unit_to_english(u: str) -> str:
    """``"us"`` -> ``"microsecond"``.

    Example::

        >>> from fgrad.torch.utils.benchmark import unit_to_english
        >>> unit_to_english("ns")
        'nanosecond'
    """
    return {"ns": "nanosecond", "us": "microsecond", "ms": "millisecond", "s": "second"}[u]


def trim_sigfig(x: float, n: int) -> float:
    """``x`` rounded to ``n`` significant figures.

    Example::

        >>> from fgrad.torch.utils.benchmark import trim_sigfig
        >>> trim_sigfig(3.14159, 2)
        3.1
    """
    if n != int(n):
        raise AssertionError("Number of significant figures must be an integer")
    magnitude = math.ceil(math.log10(abs(x)))
    scale = 10 ** (magnitude - n)
    return float(np.round(x / scale) * scale)


def ordered_unique(elements: Iterable[Any]) -> list[Any]:
    """The distinct elements, first occurrence first.

    Example::

        >>> from fgrad.torch.utils.benchmark import ordered_unique
        >>> ordered_unique([2, 1, 2])
        [2, 1]
    """
    return list(collections.OrderedDict((e, None) for e in elements).keys())


@contextlib.contextmanager
def set_torch_threads(n: int) -> Iterator[None]:
    """Run the block with ``torch.set_num_threads(n)``, restoring the count after.

    Example::

        >>> from fgrad.torch.utils.benchmark import set_torch_threads
        >>> with set_torch_threads(1):
        ...     pass
    """
    prior = torch.get_num_threads()
    try:
        torch.set_num_threads(n)
        yield
    finally:
        torch.set_num_threads(prior)
