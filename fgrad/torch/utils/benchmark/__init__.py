"""``torch.utils.benchmark``: time statements (`Timer`), summarize runs (`Measurement`) and
tabulate many of them (`Compare`), in PyTorch's formats.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.utils import benchmark
    >>> m = benchmark.Timer("x + 1", globals={"x": torch.ones(3)}).timeit(10)
    >>> m.number_per_run, len(m.times)
    (10, 1)
"""

from .common import Measurement, TaskSpec, ordered_unique, select_unit, set_torch_threads, trim_sigfig, \
    unit_to_english
from .compare import Colorize, Compare
from .timer import Language, Timer, timer

__all__ = ["Colorize", "Compare", "Language", "Measurement", "TaskSpec", "Timer", "ordered_unique",
           "select_unit", "set_torch_threads", "timer", "trim_sigfig", "unit_to_english"]
