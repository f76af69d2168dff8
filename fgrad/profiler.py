"""`fgrad.profiler`: where the time goes, per primitive -- and JAX's ``jax.profiler`` names.

``with profiler.profile() as prof:`` runs the code inside with a profiling interpreter at
the bottom of fgrad's trace stack: every primitive evaluated (eagerly, in a backward pass,
or a whole `jit` call, a loop, a branch) is timed and the bytes of its results counted.
``prof.table()`` prints PyTorch-profiler-style averages (``key_averages``), sorted by total
time.  A jitted function shows as one ``jit(name)`` row per call; ``expand_jit=True`` runs
jitted functions op by op instead (unfused: slower, but each primitive gets its row).
While profiling, the eager fast paths and the reverse-mode tape are off, so every operation
goes through the interpreter: absolute times are somewhat higher than without the profiler.

`trace(log_dir)` / `start_trace` / `stop_trace` profile the same way and write the events
to ``log_dir/fgrad.trace.json`` in Chrome's trace-event format (open it in Perfetto or
``chrome://tracing``); `TraceAnnotation`, `StepTraceAnnotation` and `annotate_function`
mark named spans in it.  ``save_device_memory_profile`` writes the live arrays by size.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> from fgrad import profiler
    >>> with profiler.profile() as prof:
    ...     _ = fgrad.grad(lambda x: fnp.sum(fnp.tanh(x) ** 2))(fnp.ones(100))
    >>> {"tanh", "reduce_sum"} <= {row.name for row in prof.key_averages()}
    True
"""

from __future__ import annotations

import dataclasses
import functools
import json
import os
import threading
import time
from typing import Any, Callable

from .core.trace import EvalTrace, state
from .transforms.jit import _set_disable_jit, disable_jit

__all__ = ["ProfileOptions", "register_subprocess",
           "profile", "Profile", "ProfileRow", "trace", "start_trace", "stop_trace", "TraceAnnotation",
           "StepTraceAnnotation", "annotate_function", "device_memory_profile",
           "save_device_memory_profile", "start_server", "stop_server"]


@dataclasses.dataclass
class ProfileRow:
    """One primitive's totals: ``calls``, ``total`` seconds, ``out_bytes`` (bytes of its
    results, summed over calls).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad import profiler
        >>> with profiler.profile() as prof:
        ...     _ = jnp.exp(jnp.ones(3)); _ = jnp.exp(jnp.ones(3))
        ...
        >>> row = prof.key_averages()[0]
        >>> isinstance(row, profiler.ProfileRow), row.name, row.calls, row.out_bytes
        (True, 'exp', 2, 48)
    """

    name: str
    calls: int = 0
    total: float = 0.0
    out_bytes: int = 0

    @property
    def mean(self) -> float:
        return self.total / self.calls if self.calls else 0.0


def _nbytes(out) -> int:
    total = 0
    for o in out if isinstance(out, (list, tuple)) else (out,):
        b = getattr(o, "_buf", None)
        total += int(getattr(b, "nbytes", 0) or 0)
    return total


def _row_name(prim, params) -> str:
    if prim.name in ("jit", "pjit"):
        name = getattr(params.get("closed"), "name", None)
        return f"jit({name})" if name and name != "jit" else "jit"
    return prim.name


class _ProfileTrace(EvalTrace):
    """The bottom trace while profiling: evaluates as the trace below it (plain evaluation,
    or the NaN/inf checks) and records each primitive's time and result size."""

    __slots__ = ("inner", "record")

    def __init__(self, inner, record: Callable) -> None:
        super().__init__(None, "eval (profiling)")
        self.inner, self.record = inner, record

    def process(self, prim, args, params):
        start = time.perf_counter()
        out = self.inner.process(prim, args, params)
        self.record(_row_name(prim, params), start, time.perf_counter() - start, _nbytes(out))
        return out


class Profile:
    """The measurements of one `profile` block: `key_averages`, `table`, `events`.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> from fgrad import profiler
        >>> with profiler.profile() as prof:
        ...     _ = jnp.exp(jnp.ones(3))
        ...
        >>> isinstance(prof, profiler.Profile), [row.name for row in prof.key_averages()]
        (True, ['exp'])
    """

    def __init__(self) -> None:
        self.rows: dict[str, ProfileRow] = {}
        self.events: list[dict] = []  # Chrome trace events ("X": complete, with duration)
        self.wall = 0.0
        self._origin = time.perf_counter()

    def _record(self, name: str, start: float, seconds: float, out_bytes: int) -> None:
        row = self.rows.get(name)
        if row is None:
            row = self.rows[name] = ProfileRow(name)
        row.calls += 1
        row.total += seconds
        row.out_bytes += out_bytes
        self.events.append({"name": name, "ph": "X", "ts": (start - self._origin) * 1e6, "dur": seconds * 1e6,
                            "pid": os.getpid(), "tid": threading.get_ident(), "args": {"bytes": out_bytes}})

    def key_averages(self, sort_by: str = "total") -> list[ProfileRow]:
        """The rows, largest ``sort_by`` (``"total"``, ``"calls"``, ``"mean"``, ``"out_bytes"``)
        first."""
        return sorted(self.rows.values(), key=lambda r: getattr(r, sort_by), reverse=True)

    def table(self, sort_by: str = "total", row_limit: int = 20) -> str:
        """The averages as a text table (name, calls, total, mean, share of the profiled
        primitives' time, result bytes)."""
        rows = self.key_averages(sort_by)
        timed = sum(r.total for r in rows) or 1.0
        lines = [f"{'primitive':<28} {'calls':>7} {'total':>10} {'mean':>10} {'share':>6} {'out bytes':>11}"]
        for r in rows[:row_limit]:
            lines.append(f"{r.name[:28]:<28} {r.calls:>7} {_fmt_time(r.total):>10} {_fmt_time(r.mean):>10} "
                         f"{100 * r.total / timed:>5.1f}% {_fmt_bytes(r.out_bytes):>11}")
        lines.append(f"{len(rows)} primitives, {sum(r.calls for r in rows)} calls, {_fmt_time(timed)} in "
                     f"primitives, {_fmt_time(self.wall)} wall")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.table()


def _fmt_time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds * 1e9:.0f} ns"


def _fmt_bytes(n: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:.3g} {unit}"
    return f"{n} B"


class profile:
    """Context manager: profile the primitives run inside it (see the module docstring);
    ``as`` gives the `Profile`.  ``expand_jit=True`` runs jitted functions op by op.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad import profiler
        >>> f = fgrad.jit(lambda x: fnp.sin(x) * 2)
        >>> with profiler.profile() as prof:
        ...     _ = f(fnp.ones(3))
        >>> [row.name for row in prof.key_averages()]
        ['jit(<lambda>)']
    """

    def __init__(self, expand_jit: bool = False) -> None:
        self.expand_jit = expand_jit
        self.result = Profile()

    def __enter__(self) -> Profile:
        inner = state.trace
        if not isinstance(inner, EvalTrace):
            raise RuntimeError("fgrad.profiler: start profiling outside any transform (not inside "
                               "grad/jit/vmap): it profiles everything the transformed function runs")
        self._inner = inner
        self._saved_jit = disable_jit.active
        if self.expand_jit:
            _set_disable_jit(True)
        self._start = time.perf_counter()
        state.trace = _ProfileTrace(inner, self.result._record)
        return self.result

    def __exit__(self, *exc) -> None:
        state.trace = self._inner
        if self.expand_jit:
            _set_disable_jit(self._saved_jit)
        self.result.wall = time.perf_counter() - self._start


# ----------------------------------------------------------------------------------------
# jax.profiler's names

# the trace start_trace began (its errors are JAX's messages, which programs print)
_active: dict[str, Any] = {}


def start_trace(log_dir: str | os.PathLike, create_perfetto_link: bool = False,
                create_perfetto_trace: bool = False, **_: Any) -> None:
    """Start profiling (as `profile`); `stop_trace` writes ``log_dir/fgrad.trace.json``.

    Example::

        >>> import tempfile, fgrad.numpy as fnp
        >>> from fgrad import profiler
        >>> d = tempfile.mkdtemp()
        >>> profiler.start_trace(d); _ = fnp.exp(fnp.ones(4)); profiler.stop_trace()
        >>> import os; os.path.exists(os.path.join(d, "fgrad.trace.json"))
        True
    """
    if _active:
        raise RuntimeError("Profile has already been started. Only one profile may be run at a time.")
    block = profile()
    _active.update(block=block, result=block.__enter__(), log_dir=os.fspath(log_dir))


def stop_trace() -> None:
    """Stop the trace `start_trace` began and write it.

    Example::

        >>> import os, tempfile
        >>> import fgrad.numpy as jnp
        >>> from fgrad import profiler
        >>> d = tempfile.mkdtemp()
        >>> profiler.start_trace(d); _ = jnp.exp(jnp.ones(4))
        >>> profiler.stop_trace()
        >>> os.path.exists(os.path.join(d, 'fgrad.trace.json'))
        True
    """
    _finish_trace()


def _finish_trace() -> Profile:
    if not _active:
        raise RuntimeError("No profile started")
    block, result, log_dir = _active.pop("block"), _active.pop("result"), _active.pop("log_dir")
    block.__exit__(None, None, None)
    os.makedirs(log_dir, exist_ok=True)
    with open(os.path.join(log_dir, "fgrad.trace.json"), "w") as f:
        json.dump({"traceEvents": result.events, "displayTimeUnit": "ms"}, f)
    return result


class trace:
    """Context manager: `start_trace` on entry, `stop_trace` on exit (``as`` gives the
    `Profile` once the block ends, through ``.result``).

    Example::

        >>> import tempfile, fgrad.numpy as fnp
        >>> from fgrad import profiler
        >>> with profiler.trace(tempfile.mkdtemp()) as t:
        ...     _ = fnp.sum(fnp.ones(4))
        >>> t.result.key_averages()[0].name
        'reduce_sum'
    """

    def __init__(self, log_dir: str | os.PathLike, create_perfetto_link: bool = False,
                 create_perfetto_trace: bool = False, **kwargs: Any) -> None:
        self.log_dir = log_dir
        self.result: Profile | None = None

    def __enter__(self) -> "trace":
        start_trace(self.log_dir)
        return self

    def __exit__(self, *exc) -> None:
        self.result = _finish_trace()


class TraceAnnotation:
    """Context manager: a named span in the current trace (a no-op when none is collected).

    Example::

        >>> from fgrad import profiler
        >>> with profiler.TraceAnnotation("data loading"):
        ...     pass
    """

    def __init__(self, name: str, **kwargs: Any) -> None:
        self.name, self.kwargs = name, kwargs

    def __enter__(self) -> "TraceAnnotation":
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc) -> None:
        result = _active.get("result")
        if result is not None:
            seconds = time.perf_counter() - self._start
            result.events.append({"name": self.name, "ph": "X", "ts": (self._start - result._origin) * 1e6,
                                  "dur": seconds * 1e6, "pid": os.getpid(), "tid": threading.get_ident(),
                                  "args": {k: str(v) for k, v in self.kwargs.items()}})


class StepTraceAnnotation(TraceAnnotation):
    """A `TraceAnnotation` for one training step (``step_num`` recorded with it).

    Example::

        >>> from fgrad import profiler
        >>> with profiler.StepTraceAnnotation("train", step_num=3):
        ...     pass
    """

    def __init__(self, name: str, **kwargs: Any) -> None:
        super().__init__(name, **kwargs)


def annotate_function(func: Callable | None = None, name: str | None = None, **kwargs: Any):
    """Decorator: each call of ``func`` is a `TraceAnnotation` named after it.

    Example::

        >>> from fgrad import profiler
        >>> @profiler.annotate_function
        ... def step(x):
        ...     return x + 1
        >>> step(1)
        2
    """
    if func is None:
        return functools.partial(annotate_function, name=name, **kwargs)

    @functools.wraps(func)
    def wrapper(*args, **kw):
        with TraceAnnotation(name or func.__qualname__, **kwargs):
            return func(*args, **kw)

    return wrapper


def device_memory_profile(backend: str | None = None) -> bytes:
    """The live fgrad arrays by size, largest first, as UTF-8 text (JAX returns a pprof
    protobuf; fgrad's is a readable listing: shape, dtype, bytes).

    Example::

        >>> import fgrad.numpy as fnp
        >>> from fgrad import profiler
        >>> x = fnp.ones((256, 256))
        >>> b"float64[256,256]" in profiler.device_memory_profile()
        True
    """
    from ._runtime_api import live_arrays  # the live-array registry (imports the runtime API)

    arrays = sorted(live_arrays(), key=lambda a: -a.nbytes)
    lines = [f"{sum(a.nbytes for a in arrays)} bytes in {len(arrays)} live arrays"]
    lines += [f"{a.nbytes:>12}  {a.dtype}[{','.join(map(str, a.shape))}]" for a in arrays]
    return ("\n".join(lines) + "\n").encode()


def save_device_memory_profile(filename: str | os.PathLike, backend: str | None = None) -> None:
    """Write `device_memory_profile` to ``filename``.

    Example::

        >>> import os, tempfile
        >>> from fgrad import profiler
        >>> path = os.path.join(tempfile.mkdtemp(), "memory.txt")
        >>> profiler.save_device_memory_profile(path); os.path.getsize(path) > 0
        True
    """
    with open(filename, "wb") as f:
        f.write(device_memory_profile(backend))


def start_server(port: int) -> None:
    """JAX starts a profiler server for TensorBoard; fgrad has none (use `trace`).

    Example::

        >>> from fgrad import profiler
        >>> profiler.start_server(9999)
    """


class ProfileOptions:
    """The options of a profiling session (JAX's ``jax.profiler.ProfileOptions``, with JAX's
    defaults).  fgrad's `trace` records fgrad's primitives and accepts these options without
    using them: they tune XLA's and TensorFlow's profilers.

    Example::

        >>> from fgrad import profiler
        >>> o = profiler.ProfileOptions()
        >>> o.host_tracer_level, o.python_tracer_level
        (2, 1)
    """

    def __init__(self) -> None:
        self.advanced_configuration: dict = {}
        self.duration_ms = 0
        self.enable_hlo_proto = True
        self.host_tracer_level = 2
        self.include_dataset_ops = True
        self.python_tracer_level = 1
        self.raise_error_on_start_failure = False
        self.repository_path = ""
        self.session_id = ""
        self.start_timestamp_ns = 0


def register_subprocess(pid: int, port: int) -> Callable[[], None]:
    """JAX registers a subprocess's profiler server; fgrad has no profiler server (see
    `start_server`), so this raises JAX's RuntimeError for a subprocess it cannot register.

    Example::

        >>> from fgrad import profiler
        >>> try:
        ...     profiler.register_subprocess(1234, 9999)
        ... except RuntimeError as e:
        ...     print("no server")
        no server
    """
    raise RuntimeError(f"register_subprocess(pid={pid}, port={port}): fgrad has no profiler server "
                       "to connect to (fgrad.profiler.trace records this process's operations)")


def stop_server() -> None:
    """Counterpart of `start_server` (nothing to stop).

    Example::

        >>> from fgrad import profiler
        >>> profiler.stop_server()
    """


