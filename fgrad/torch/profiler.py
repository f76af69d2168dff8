"""``torch.profiler``: where a PyTorch program's time goes, with PyTorch's interface —
``profile`` (a context manager with ``step()``, ``schedule=``, ``on_trace_ready=``),
``record_function`` ranges, ``key_averages().table(sort_by=...)`` and Chrome-trace export.

Every shim operation (``aten::addmm``, ``aten::relu``, ...) is timed where it is dispatched,
and a backward pass is one ``autograd::engine::evaluate_function`` range; operations inside
another operation are counted in their caller.  Times are wall-clock on the host (fgrad's
CPU), so the table's shape is PyTorch's and its numbers are fgrad's.

Example::

    >>> import fgrad.torch as torch
    >>> from fgrad.torch.profiler import profile, record_function
    >>> with profile() as prof:
    ...     with record_function("forward"):
    ...         y = torch.ones(3).relu().sum()
    >>> sorted(e.key for e in prof.key_averages())
    ['aten::ones', 'aten::relu', 'aten::sum', 'forward']
"""

from __future__ import annotations

import contextlib
import enum
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import fgrad.torch as torch
import fgrad.torch.nn.functional as F

from . import _profile_state
from ._tensor import Tensor

__all__ = [
    "ProfilerAction",
    "ProfilerActivity",
    "profile",
    "record_function",
    "schedule",
    "supported_activities",
    "tensorboard_trace_handler",
]


class ProfilerActivity(enum.Enum):
    """The devices a profile covers (fgrad records the host's time for all of them).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.profiler import ProfilerActivity
        >>> ProfilerActivity.CPU.name
        'CPU'
    """

    CPU = 0
    XPU = 1
    MTIA = 2
    CUDA = 3
    HPU = 4
    PrivateUse1 = 5


def supported_activities() -> set:
    """The activities fgrad can record: the CPU.

    Example::

        >>> from fgrad.torch.profiler import supported_activities, ProfilerActivity
        >>> ProfilerActivity.CPU in supported_activities()
        True
    """
    return {ProfilerActivity.CPU}


class ProfilerAction(enum.Enum):
    """What a `schedule` asks for at a step.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.profiler import ProfilerAction, schedule
        >>> s = schedule(wait=1, warmup=1, active=1)
        >>> [s(i).name for i in range(3)]
        ['NONE', 'WARMUP', 'RECORD_AND_SAVE']
    """

    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(
    *, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0, skip_first_wait: int = 0
) -> Callable[[int], ProfilerAction]:
    """PyTorch's profiling schedule: skip ``skip_first`` steps, then cycles of ``wait`` idle,
    ``warmup`` and ``active`` recorded steps (``repeat`` cycles; 0: forever).

    Example::

        >>> from fgrad.torch.profiler import schedule
        >>> s = schedule(wait=1, warmup=1, active=2)
        >>> [s(i).name for i in range(4)]
        ['NONE', 'WARMUP', 'RECORD', 'RECORD_AND_SAVE']
    """
    if wait < 0 or warmup < 0 or active <= 0 or repeat < 0 or skip_first < 0:
        raise AssertionError("Invalid profiler schedule arguments")

    def schedule_fn(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        if skip_first_wait and step < wait:
            return ProfilerAction.NONE
        num_steps = wait + warmup + active
        if repeat > 0 and step // num_steps >= repeat:
            return ProfilerAction.NONE
        mod = step % num_steps
        if mod < wait:
            return ProfilerAction.NONE
        if mod < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if mod < num_steps - 1 else ProfilerAction.RECORD_AND_SAVE

    return schedule_fn


def _op_name(name: str, key: Any, fn: Callable) -> str:
    """``aten::<op>`` from the dispatcher's node name (``AddmmBackward0`` -> ``aten::addmm``)."""
    base = re.sub(r"Backward\d*$", "", name or "")
    if base:
        return "aten::" + re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", base).lower()
    first = key[0] if isinstance(key, tuple) and key and isinstance(key[0], str) else None
    return "aten::" + (first or getattr(fn, "__name__", "op")).strip("_")


class _Event:
    __slots__ = ("name", "start", "end", "children", "shapes", "thread")

    def __init__(self, name: str, start: float, shapes: list | None = None) -> None:
        self.name, self.start, self.end, self.children, self.shapes = name, start, start, 0.0, shapes
        self.thread = 0


class _Recorder:
    """Collects timed events while a `profile` records (installed as `_profile_state.recorder`)."""

    def __init__(self, record_shapes: bool) -> None:
        self.events: list[_Event] = []
        self.stack: list[_Event] = []
        self.record_shapes = record_shapes

    def _open(self, name: str, shapes=None) -> _Event:
        ev = _Event(name, time.perf_counter(), shapes)
        self.stack.append(ev)
        return ev

    def _close(self, ev: _Event) -> None:
        ev.end = time.perf_counter()
        self.stack.pop()
        if self.stack:
            self.stack[-1].children += ev.end - ev.start
        self.events.append(ev)

    @contextlib.contextmanager
    def range(self, name: str) -> Iterator[None]:
        ev = self._open(name)
        try:
            yield
        finally:
            self._close(ev)

    def op(self, name, key, fn, apply_op, args, multi, edges):
        op_name = _op_name(name, key, fn)
        nested = bool(self.stack) and self.stack[-1].name == op_name  # the public function's own op
        shapes = None if nested or not self.record_shapes else [list(getattr(a, "shape", ())) for a in args]
        ev = None if nested else self._open(op_name, shapes)
        _profile_state.recorder = None  # operations inside this one count as its own time
        try:
            return apply_op(name, key, fn, args, multi=multi, edges=edges)
        finally:
            _profile_state.recorder = self
            if ev is not None:
                self._close(ev)

    def timed(self, op_name: str, fn: Callable) -> Callable:
        """``fn`` recording one event per call while this recorder is the active one."""
        recorder = self

        def wrapper(*args, **kwargs):
            if _profile_state.recorder is not recorder:
                return fn(*args, **kwargs)
            shapes = [list(a.shape) for a in args if hasattr(a, "shape")] if recorder.record_shapes else None
            ev = recorder._open(op_name, shapes)
            try:
                return fn(*args, **kwargs)
            finally:
                recorder._close(ev)

        wrapper.__wrapped__ = fn
        return wrapper


_DUNDER_OPS = {
    "__add__": "add",
    "__radd__": "add",
    "__sub__": "sub",
    "__rsub__": "rsub",
    "__mul__": "mul",
    "__rmul__": "mul",
    "__truediv__": "div",
    "__rtruediv__": "div",
    "__matmul__": "matmul",
    "__rmatmul__": "matmul",
    "__pow__": "pow",
    "__rpow__": "pow",
    "__neg__": "neg",
    "__getitem__": "index",
    "__setitem__": "index_put_",
    "__floordiv__": "floor_divide",
    "__mod__": "remainder",
    "__abs__": "abs",
    "__and__": "bitwise_and",
    "__or__": "bitwise_or",
    "__xor__": "bitwise_xor",
    "__invert__": "bitwise_not",
    "__lt__": "lt",
    "__le__": "le",
    "__gt__": "gt",
    "__ge__": "ge",
    "__eq__": "eq",
    "__ne__": "ne",
    "__iadd__": "add_",
    "__isub__": "sub_",
    "__imul__": "mul_",
    "__itruediv__": "div_",
}
_NOT_OPS = {
    "size",
    "dim",
    "numel",
    "item",
    "tolist",
    "numpy",
    "data_ptr",
    "stride",
    "storage_offset",
    "is_contiguous",
    "is_floating_point",
    "is_complex",
    "element_size",
    "nelement",
    "ndimension",
    "type",
    "get_device",
    "register_hook",
    "retain_grad",
    "backward",
    "requires_grad_",
    "cpu",
    "cuda",
}


class _Patches:
    """While a profile records: the shim's public functions (``torch.*``, ``F.*``) and ``Tensor``
    methods and operators replaced by timed wrappers; `restore` puts the originals back."""

    def __init__(self, recorder: _Recorder) -> None:
        self.saved: list[tuple[Any, str, Any]] = []
        for namespace in (torch, F):
            for attr, fn in list(vars(namespace).items()):
                if attr.startswith("_") or not callable(fn) or isinstance(fn, type):
                    continue
                if not getattr(fn, "__module__", "").startswith("fgrad.torch"):
                    continue
                self._patch(namespace, attr, recorder.timed("aten::" + attr, fn))
        for attr, fn in list(vars(Tensor).items()):
            if not callable(fn) or isinstance(fn, (type, staticmethod, classmethod)):
                continue
            if attr in _DUNDER_OPS:
                name = _DUNDER_OPS[attr]
            elif attr.startswith("_") or attr in _NOT_OPS:
                continue
            else:
                name = attr
            self._patch(Tensor, attr, recorder.timed("aten::" + name, fn))

    def _patch(self, owner: Any, attr: str, wrapper: Any) -> None:
        self.saved.append((owner, attr, vars(owner)[attr]))
        setattr(owner, attr, wrapper)

    def restore(self) -> None:
        for owner, attr, fn in reversed(self.saved):
            setattr(owner, attr, fn)
        self.saved.clear()


class FunctionEventAvg:
    """One row of `key_averages`: a name's calls and times (microseconds, as PyTorch's)."""

    def __init__(self, key: str, input_shapes: list | None = None) -> None:
        self.key = key
        self.count = 0
        self.cpu_time_total = 0.0
        self.self_cpu_time_total = 0.0
        self.input_shapes = input_shapes
        self.device_time_total = 0.0
        self.self_device_time_total = 0.0
        self.cpu_memory_usage = 0
        self.self_cpu_memory_usage = 0
        self.flops = 0
        self.is_user_annotation = not key.startswith(("aten::", "autograd::"))

    @property
    def cpu_time(self) -> float:
        return self.cpu_time_total / max(self.count, 1)

    @property
    def cuda_time(self) -> float:
        return 0.0

    def add(self, other: FunctionEventAvg) -> FunctionEventAvg:
        self.count += other.count
        self.cpu_time_total += other.cpu_time_total
        self.self_cpu_time_total += other.self_cpu_time_total
        return self

    def __repr__(self) -> str:
        return (
            f"<FunctionEventAvg key={self.key} self_cpu_time={_fmt(self.self_cpu_time_total)} "
            f"cpu_time={_fmt(self.cpu_time)} input_shapes={self.input_shapes}>"
        )


def _fmt(us: float) -> str:
    if us >= 1e6:
        return f"{us / 1e6:.3f}s"
    if us >= 1e3:
        return f"{us / 1e3:.3f}ms"
    return f"{us:.3f}us"


_SORT_KEYS = {
    "cpu_time_total",
    "self_cpu_time_total",
    "cpu_time",
    "count",
    "cuda_time_total",
    "self_cuda_time_total",
    "device_time_total",
    "self_device_time_total",
    "cpu_memory_usage",
    "self_cpu_memory_usage",
    "flops",
}


class EventList(list):
    """`key_averages`' rows, with PyTorch's ``table``.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.profiler import profile
        >>> with profile() as prof:
        ...     _ = torch.ones(2) + 1
        >>> "Self CPU time total" in prof.key_averages().table()
        True
    """

    def table(
        self,
        sort_by: str | None = None,
        row_limit: int = 100,
        max_src_column_width: int = 75,
        max_name_column_width: int = 55,
        max_shapes_column_width: int = 80,
        header: str | None = None,
        top_level_events_only: bool = False,
    ) -> str:
        rows = list(self)
        if sort_by is not None:
            attr = {
                "cuda_time_total": "device_time_total",
                "self_cuda_time_total": "self_device_time_total",
            }.get(sort_by, sort_by)
            if sort_by not in _SORT_KEYS:
                raise AttributeError(f"'FunctionEventAvg' object has no attribute '{sort_by}'")
            rows.sort(key=lambda r: getattr(r, attr), reverse=True)
        if row_limit is not None and row_limit > 0:
            rows = rows[:row_limit]
        total_self = sum(r.self_cpu_time_total for r in self) or 1.0
        shapes = any(r.input_shapes is not None for r in rows)
        name_w = max([len("Name")] + [min(len(r.key), max_name_column_width) for r in self]) + 4
        cols = ["Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls"]
        widths = [12] * len(cols)
        line = "-" * name_w + "  " + "  ".join("-" * w for w in widths)
        if shapes:
            line += "  " + "-" * max_shapes_column_width
        head = "Name".rjust(name_w) + "  " + "  ".join(c.rjust(w) for c, w in zip(cols, widths))
        if shapes:
            head += "  " + "Input Shapes".rjust(max_shapes_column_width)
        out = [line, head, line] if header is None else [header, line, head, line]
        for r in rows:
            name = (
                r.key if len(r.key) <= max_name_column_width else r.key[: max_name_column_width - 3] + "..."
            )
            vals = [
                f"{100 * r.self_cpu_time_total / total_self:.2f}%",
                _fmt(r.self_cpu_time_total),
                f"{100 * r.cpu_time_total / total_self:.2f}%",
                _fmt(r.cpu_time_total),
                _fmt(r.cpu_time),
                str(r.count),
            ]
            text = name.rjust(name_w) + "  " + "  ".join(v.rjust(w) for v, w in zip(vals, widths))
            if shapes:
                text += "  " + str(r.input_shapes or [])[:max_shapes_column_width].rjust(
                    max_shapes_column_width
                )
            out.append(text)
        out.append(line)
        out.append(f"Self CPU time total: {_fmt(self.self_cpu_time_total)}")
        return "\n".join(out) + "\n"

    @property
    def self_cpu_time_total(self) -> float:
        """The rows' self CPU times summed (microseconds), the table's last line."""
        return sum(r.self_cpu_time_total for r in self)

    def total_average(self) -> FunctionEventAvg:
        """All rows summed into one (``key="Total"``)."""
        total = FunctionEventAvg("Total")
        for r in self:
            total.add(r)
        return total

    def __str__(self) -> str:
        return self.table()


class profile:  # noqa: N801 (PyTorch's name)
    """Record the shim's operations and ``record_function`` ranges inside the block (or the
    steps a ``schedule`` marks active); ``key_averages()`` aggregates them by name.

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.profiler import profile, ProfilerActivity
        >>> with profile(activities=[ProfilerActivity.CPU], record_shapes=True) as prof:
        ...     _ = torch.mm(torch.ones(2, 3), torch.ones(3, 4))
        >>> [e.input_shapes for e in prof.key_averages(group_by_input_shape=True) if e.key == "aten::mm"]
        [[[2, 3], [3, 4]]]
    """

    def __init__(
        self,
        *,
        activities: Iterable[ProfilerActivity] | None = None,
        schedule: Callable[[int], ProfilerAction] | None = None,
        on_trace_ready: Callable[[profile], Any] | None = None,
        record_shapes: bool = False,
        profile_memory: bool = False,
        with_stack: bool = False,
        with_flops: bool = False,
        with_modules: bool = False,
        experimental_config: Any = None,
        execution_trace_observer: Any = None,
        acc_events: bool = False,
        use_cuda: bool | None = None,
        custom_trace_id_callback: Any = None,
        post_processing_timeout_s: float | None = None,
    ) -> None:
        # ``post_processing_timeout_s`` bounds PyTorch's (Kineto's) trace post-processing; fgrad
        # records its events directly and has none, so it is accepted and has no effect.
        self.activities = set(activities) if activities is not None else supported_activities()
        self.schedule = schedule
        self.on_trace_ready = on_trace_ready
        self.record_shapes = record_shapes
        self.acc_events = acc_events
        self.step_num = 0
        self._recorder: _Recorder | None = None
        self._events: list[_Event] = []
        self._t0 = time.perf_counter()

    # -- recording -------------------------------------------------------------------------
    def _action(self) -> ProfilerAction:
        return ProfilerAction.RECORD if self.schedule is None else self.schedule(self.step_num)

    def _start_recording(self) -> None:
        if self._recorder is None:
            if _profile_state.recorder is not None:
                raise RuntimeError(
                    "Can't profile: another profiler is already recording (fgrad.torch.profiler "
                    "records one profile at a time)"
                )
            self._recorder = _Recorder(self.record_shapes)
            self._patches = _Patches(self._recorder)
            _profile_state.recorder = self._recorder

    def _stop_recording(self) -> None:
        if self._recorder is not None:
            self._patches.restore()
            if _profile_state.recorder is self._recorder:
                _profile_state.recorder = None
            if not self.acc_events:
                self._events = []
            self._events.extend(self._recorder.events)
            self._recorder = None

    def start(self) -> None:
        """Begin profiling (as entering the ``with`` block)."""
        if self._action() in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_recording()

    def stop(self) -> None:
        """End profiling; calls ``on_trace_ready`` if anything was recorded."""
        recorded = self._recorder is not None
        self._stop_recording()
        if recorded and self.on_trace_ready is not None:
            self.on_trace_ready(self)

    def __enter__(self) -> profile:
        self.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def step(self) -> None:
        """Advance the schedule by one step (call once per training iteration)."""
        before = self._action()
        self.step_num += 1
        after = self._action()
        if before == ProfilerAction.RECORD_AND_SAVE or (
            self._recorder is not None and after in (ProfilerAction.NONE, ProfilerAction.WARMUP)
        ):
            self._stop_recording()
            if self.on_trace_ready is not None and before == ProfilerAction.RECORD_AND_SAVE:
                self.on_trace_ready(self)
        if after in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
            self._start_recording()

    # -- results ------------------------------------------------------------------------------
    def events(self) -> list:
        """The recorded events (name, start and end in microseconds from the profile's start)."""
        return [
            {"name": e.name, "start_us": (e.start - self._t0) * 1e6, "end_us": (e.end - self._t0) * 1e6}
            for e in self._events
        ]

    def key_averages(
        self,
        group_by_input_shape: bool = False,
        group_by_stack_n: int = 0,
        group_by_overload_name: bool = False,
    ) -> EventList:
        """Rows per name (and per input shapes with ``group_by_input_shape``), in first-seen order."""
        rows: dict = {}
        for e in sorted(self._events, key=lambda ev: ev.start):
            shapes = e.shapes if group_by_input_shape else None
            key = (e.name, json.dumps(shapes))
            row = rows.get(key)
            if row is None:
                row = rows[key] = FunctionEventAvg(e.name, shapes)
            total = (e.end - e.start) * 1e6
            row.count += 1
            row.cpu_time_total += total
            row.self_cpu_time_total += total - e.children * 1e6
        return EventList(rows.values())

    def export_chrome_trace(self, path: str | os.PathLike, use_python_export: bool = False) -> None:
        """Write the events in Chrome's trace-event format (open in Perfetto or chrome://tracing).

        ``use_python_export`` picks PyTorch's Python writer over Kineto's; fgrad has one writer,
        so it is accepted and has no effect.
        """
        self._write_chrome_trace(path, None)

    def _write_chrome_trace(self, path: str | os.PathLike, metadata: dict[str, Any] | None) -> None:
        trace: dict[str, Any] = {}
        for key, value in (metadata or {}).items():
            # PyTorch writes each value verbatim as JSON text, as a top-level key of the trace.
            trace[key] = json.loads(value) if isinstance(value, str) else value
        trace |= {
            "traceEvents": [
                {
                    "name": e.name,
                    "ph": "X",
                    "cat": "cpu_op" if e.name.startswith("aten::") else "user_annotation",
                    "ts": (e.start - self._t0) * 1e6,
                    "dur": (e.end - e.start) * 1e6,
                    "pid": os.getpid(),
                    "tid": 0,
                }
                for e in self._events
            ]
        }
        with open(path, "w", encoding="utf-8") as f:
            json.dump(trace, f)

    def export_stacks(self, path: str | os.PathLike, metric: str = "self_cpu_time_total") -> None:
        """Write ``name time`` lines (fgrad records no Python stacks)."""
        with open(path, "w", encoding="utf-8") as f:
            for r in self.key_averages():
                f.write(f"{r.key} {int(getattr(r, metric))}\n")


def tensorboard_trace_handler(
    dir_name: str, worker_name: str | None = None, use_gzip: bool = False, use_python_export: bool = False
) -> Callable[[profile], None]:
    """An ``on_trace_ready`` callback writing each trace to ``dir_name`` as
    ``<worker>.<time>.pt.trace.json`` (TensorBoard's profiler plugin reads them).
    ``use_python_export`` is passed on to ``export_chrome_trace`` (where it has no effect).

    Example::

        >>> import tempfile, os
        >>> import fgrad.torch as torch
        >>> from fgrad.torch.profiler import profile, tensorboard_trace_handler
        >>> d = tempfile.mkdtemp()
        >>> with profile(on_trace_ready=tensorboard_trace_handler(d)):
        ...     _ = torch.ones(1) * 2
        >>> any(name.endswith(".pt.trace.json") for name in os.listdir(d))
        True
    """
    import socket

    def handler(prof: profile) -> None:
        os.makedirs(dir_name, exist_ok=True)
        worker = worker_name or f"{socket.gethostname()}_{os.getpid()}"
        name = f"{worker}.{time.time_ns() // 1_000_000}.pt.trace.json"
        path = os.path.join(dir_name, name)
        prof.export_chrome_trace(path, use_python_export=use_python_export)
        if use_gzip:
            import gzip

            with open(path, "rb") as src, gzip.open(path + ".gz", "wb") as dst:
                dst.write(src.read())
            os.remove(path)

    return handler


class record_function(contextlib.ContextDecorator):  # noqa: N801 (PyTorch's name)
    """A named range in the profile (a context manager or a decorator).

    Example::

        >>> import fgrad.torch as torch
        >>> from fgrad.torch.profiler import profile, record_function
        >>> with profile() as prof:
        ...     with record_function("block"):
        ...         _ = torch.ones(2).exp()
        >>> [r.count for r in prof.key_averages() if r.key == "block"]
        [1]
    """

    def __init__(self, name: str, args: str | None = None) -> None:
        self.name = name
        self.args = args
        self._ctx: Any = None

    def __enter__(self) -> record_function:
        recorder = _profile_state.recorder
        if recorder is not None:
            self._ctx = recorder.range(self.name)
            self._ctx.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._ctx is not None:
            ctx, self._ctx = self._ctx, None
            ctx.__exit__(*exc)
