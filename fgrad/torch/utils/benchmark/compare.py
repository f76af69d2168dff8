"""`Compare`: many `Measurement` s as tables, one per label (PyTorch's layout): rows are
sub-labels grouped by thread count, columns descriptions, cells medians in one unit.

Example::

    >>> from fgrad.torch.utils.benchmark import Compare, Measurement, TaskSpec
    >>> ms = [Measurement(1, [1e-6] * 4, TaskSpec("f()", "pass", label="L", sub_label="a", description=d))
    ...       for d in ("x", "yy")]
    >>> Compare(ms).print()
    [--------- L ---------]
             |   x   |   yy
    1 threads: ------------
          a  |  1.0  |  1.0
    <BLANKLINE>
    Times are in microseconds (us).
    <BLANKLINE>
"""

from __future__ import annotations

import collections
import enum
import math
from typing import Any

from . import common

__all__ = ["Colorize", "Compare"]

BEST = "\033[92m"
GOOD = "\033[34m"
BAD = "\033[2m\033[91m"
VERY_BAD = "\033[31m"
BOLD = "\033[1m"
TERMINATE = "\033[0m"


class Colorize(enum.Enum):
    """How `Compare.colorize` marks the fastest cells.

    Example::

        >>> from fgrad.torch.utils.benchmark.compare import Colorize
        >>> [c.name for c in Colorize]
        ['NONE', 'COLUMNWISE', 'ROWWISE']
    """

    NONE = "none"
    COLUMNWISE = "columnwise"
    ROWWISE = "rowwise"


def _color(segment: str, value: float, best: float) -> str:
    if value <= best * 1.01 or value <= best + 100e-9:
        return BEST + BOLD + segment + TERMINATE * 2
    if value <= best * 1.1:
        return GOOD + BOLD + segment + TERMINATE * 2
    if value >= best * 5:
        return VERY_BAD + BOLD + segment + TERMINATE * 2
    if value >= best * 2:
        return BAD + segment + TERMINATE * 2
    return segment


def _render_table(results: list[common.Measurement], colorize: Colorize, trim: bool, highlight: bool) -> str:
    label = results[0].label
    unit, scale = common.select_unit(min(r.median for r in results))
    row_keys = common.ordered_unique([(r.num_threads, r.env, r.as_row_name) for r in results])
    row_keys.sort(key=lambda k: k[:2])  # thread count, then env; statements keep their order
    col_keys = common.ordered_unique([r.description for r in results])
    grid: list[list[common.Measurement | None]] = [[None] * len(col_keys) for _ in row_keys]
    rpos = {k: i for i, k in enumerate(row_keys)}
    cpos = {k: j for j, k in enumerate(col_keys)}
    for r in results:
        grid[rpos[(r.num_threads, r.env, r.as_row_name)]][cpos[r.description]] = r
    envs = {r.env for r in results}
    render_env = len(envs) > 1
    env_len = max(len(str(e)) for e in envs) if render_env else 0
    # the thread-count groups of rows, and where each starts
    group_of, starts, prior = [], [], None
    for i, (threads, _, _) in enumerate(row_keys):
        if threads != prior:
            starts.append(i)
            prior = threads
        group_of.append(len(starts) - 1)
    # one number format per column: enough digits for its largest median
    formats = []
    for j in range(len(col_keys)):
        col = [grid[i][j] for i in range(len(row_keys))]
        hl = highlight and any(m.has_warnings for m in col if m)
        lead = [math.ceil(math.log10(m.median / scale)) if m else None for m in col]
        unit_digits = max(d for d in lead if d is not None)
        decimals = min(max(m.significant_figures - d, 0) for d, m in zip(lead, col, strict=True)
                       if m is not None) if trim else 1
        length = unit_digits + decimals + (1 if decimals else 0)
        formats.append((f"{{:>{length}.{decimals}f}}{{:>{7 if hl else 0}}}", hl))

    def cell(j: int, m: common.Measurement | None) -> str:
        template, hl = formats[j]
        if m is None:
            return " " * len(template.format(1, ""))
        value = m.median / scale
        if trim:
            value = common.trim_sigfig(value, m.significant_figures)
        spread = m.iqr / m.median if m.has_warnings else None
        return template.format(value, f" (! {spread * 100:.0f}%)" if hl and spread is not None else "")

    prior_env: str | None = ""
    string_rows = [[""] + [str(k) if k is not None else "" for k in col_keys]]
    for i, (_, env, name) in enumerate(row_keys):
        if i in starts:
            prior_env = ""
        shown_env = f"({env})" if render_env and env != prior_env else ""
        string_rows.append(["  " + shown_env.ljust(env_len + 4) + name]
                           + [cell(j, grid[i][j]) for j in range(len(col_keys))])
        prior_env = env
    widths = [max(len(s) for s in col) for col in zip(*string_rows, strict=True)]
    lines = ["  |  ".join(s.center(w) for s, w in zip(string_rows[0], widths, strict=True))]
    overall = len(lines[0])
    for i, srow in enumerate(string_rows[1:]):
        if i in starts:
            lines.append(f"{row_keys[i][0]} threads: ".ljust(overall, "-"))
        row = grid[i]
        if colorize == Colorize.ROWWISE:
            best = [min(m.median for m in row if m is not None)] * len(row)
        elif colorize == Colorize.COLUMNWISE:
            group = [k for k in range(len(row_keys)) if group_of[k] == group_of[i]]
            best = [min((grid[k][j].median for k in group if grid[k][j] is not None), default=None)
                    for j in range(len(col_keys))]
        parts = [srow[0].ljust(widths[0])]
        for j, (s, w) in enumerate(zip(srow[1:], widths[1:], strict=True)):
            s = s.center(w)
            if colorize != Colorize.NONE and row[j] is not None and best[j] is not None:
                s = _color(s, row[j].median, best[j])
            parts.append(s)
        lines.append("  |  ".join(parts))
    warn = highlight and any(r.has_warnings for r in results)
    title = f"[{(' ' + (label or '') + ' ').center(overall - 2, '-')}]"
    note = "(! XX%) Measurement has high variance, where XX is the IQR / median * 100.\n" if warn else ""
    return "\n".join([title, *lines, "", f"Times are in {common.unit_to_english(unit)}s ({unit}).", note])


class Compare:
    """Tables of `Measurement` s (see the module): ``print()`` or ``str()``.

    Example::

        >>> from fgrad.torch.utils.benchmark import Compare
        >>> str(Compare([]))
        ''
    """

    def __init__(self, results: list[common.Measurement]) -> None:
        self._results: list[common.Measurement] = []
        self.extend_results(results)
        self._trim_significant_figures = False
        self._colorize = Colorize.NONE
        self._highlight_warnings = False

    def __str__(self) -> str:
        return "\n".join(self._render())

    def extend_results(self, results: Any) -> None:
        """Add more measurements."""
        for r in results:
            if not isinstance(r, common.Measurement):
                raise ValueError(f"Expected an instance of `Measurement`, got {type(r)} instead.")
        self._results.extend(results)

    def trim_significant_figures(self) -> None:
        """Show only the digits each measurement's spread supports."""
        self._trim_significant_figures = True

    def colorize(self, rowwise: bool = False) -> None:
        """Color the cells by how far they are from the fastest (per column, or per row)."""
        self._colorize = Colorize.ROWWISE if rowwise else Colorize.COLUMNWISE

    def highlight_warnings(self) -> None:
        """Mark the cells whose measurements have a high variance."""
        self._highlight_warnings = True

    def print(self) -> None:
        """Print the tables."""
        print(str(self))

    def _render(self) -> list[str]:
        by_label: collections.defaultdict[Any, list[common.Measurement]] = collections.defaultdict(list)
        for r in common.Measurement.merge(self._results):
            by_label[r.label].append(r)
        return [_render_table(group, self._colorize, self._trim_significant_figures, self._highlight_warnings)
                for group in by_label.values()]
