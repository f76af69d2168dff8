"""`fgrad.debug`: print and call back from inside transformed code (JAX's ``jax.debug``).

`print` formats with ``str.format`` (the values are concrete Arrays, also under ``jit``,
``vmap`` and ``grad``); `callback` calls any function with the values.  Both run every time
the program runs, in program order; under ``vmap`` once per batch element; under ``grad``
with the primal values, once per forward pass.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> @fgrad.jit
    ... def f(x):
    ...     fgrad.debug.print("x = {x}, sum = {s:.2f}", x=x, s=x.sum())
    ...     return x * 2
    >>> _ = f(fnp.asarray([1.0, 2.5]))
    x = [1.  2.5], sum = 3.50
"""

from __future__ import annotations

import builtins
import copy
import functools
import logging
import os
import string
import sys
from typing import Any, Callable, Sequence

import numpy as np

from .ops.callbacks import debug_callback_p, split_operands

__all__ = ["print", "log", "breakpoint", "callback", "visualize_array_sharding", "visualize_sharding",
           "inspect_array_sharding"]

_logger = logging.getLogger("fgrad.debug")


def callback(callback: Callable[..., Any], *args, ordered: bool = False, **kwargs) -> None:
    """Call ``callback(*args, **kwargs)`` with concrete values when the program runs (its
    result is ignored).  Array leaves of the arguments arrive as fgrad Arrays, Python numbers
    as weakly typed Arrays (as in JAX); other leaves as they were given.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> seen = []
        >>> _ = fgrad.vmap(lambda x: fgrad.debug.callback(seen.append, x) or x)(fnp.arange(3.0))
        >>> [float(v) for v in seen]
        [0.0, 1.0, 2.0]
    """
    if not callable(callback):
        raise TypeError(f"debug.callback: the callback must be callable, got {type(callback).__name__}")
    cb, operands = split_operands(callback, args, kwargs, numbers_as_arrays=True)
    debug_callback_p.bind(*operands, callback=cb, ordered=bool(ordered))


class _FieldCheck(string.Formatter):
    """Checks that a format's fields match the arguments without formatting the values
    (traced values have no concrete text yet)."""

    def format_field(self, value: Any, format_spec: str) -> str:
        return ""

    def convert_field(self, value: Any, conversion: str | None) -> Any:
        return value

    def check_unused_args(self, used_args: Any, args: Any, kwargs: Any) -> None:
        unused = [a for i, a in enumerate(args) if i not in used_args]
        unused_kw = [k for k in kwargs if k not in used_args]
        if unused:
            raise ValueError(f"Unused positional arguments to `fgrad.debug.print`: {unused}")
        if unused_kw:
            raise ValueError(f"Unused keyword arguments to `fgrad.debug.print`: {unused_kw}. You may be "
                             "passing an f-string (i.e, `f\"{x}\"`) into `fgrad.debug.print` and instead "
                             "should pass in a regular string.")


_FIELD_CHECK = _FieldCheck()


def _has_placeholders(fmt: str) -> bool:
    return bool(fmt) and next(iter(string.Formatter().parse(fmt)))[1] is not None


def _format_and_emit(fmt: str, printoptions: dict, record: logging.LogRecord | None, *args, **kwargs) -> None:
    if _has_placeholders(fmt):
        with np.printoptions(**printoptions):
            msg = fmt.format(*args, **kwargs)
    else:  # (skip_format_check=True) JAX prints the arguments after the format, space-separated
        with np.printoptions(**printoptions):
            msg = " ".join((fmt, *(str(a) for a in args)))
    if record is None:
        builtins.print(msg)
    else:
        record = copy.copy(record)
        record.msg = msg
        _logger.handle(record)


def _user_record(level: int) -> logging.LogRecord:
    """A log record placed at the user's line that called `log` (outside fgrad)."""
    frame = sys._getframe(1)
    package = os.path.dirname(os.path.abspath(__file__))
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package):
        frame = frame.f_back
    file_name, line = (frame.f_code.co_filename, frame.f_lineno) if frame else ("(unknown file)", 0)
    return _logger.makeRecord(_logger.name, level, file_name, line, "", (), None)


def _emit(fmt: str | None, args: tuple, kwargs: dict, ordered: bool, skip_format_check: bool,
          use_logging: bool, name: str) -> Callable[..., None] | None:
    def emit(fmt: str, *c_args, **c_kwargs) -> None:
        if not isinstance(fmt, str):
            raise TypeError(f"debug.{name}: the format must be a string, got {type(fmt).__name__}")
        if not skip_format_check:  # mismatched fields fail here, at the call, as in JAX
            _FIELD_CHECK.format(fmt, *c_args, **c_kwargs)
        if not _has_placeholders(fmt) and c_kwargs:
            raise ValueError(f"debug.{name}: a format without placeholders takes no keyword arguments, "
                             f"got {sorted(c_kwargs)}")
        record = _user_record(logging.INFO) if use_logging else None
        # the format, print options and record are static (closed over), not operands
        emit_values = functools.partial(_format_and_emit, fmt, np.get_printoptions(), record)
        callback(emit_values, *c_args, ordered=ordered, **c_kwargs)

    if fmt is not None:
        emit(fmt, *args, **kwargs)
        return None
    if args or kwargs:
        raise TypeError(f"debug.{name} received unexpected arguments in the two-call form: "
                        f"args={args} kwargs={kwargs}")
    return emit


def print(fmt: str | None = None, *args, ordered: bool = False, partitioned: bool = False,  # noqa: A001
          skip_format_check: bool = False, **kwargs) -> Callable[..., None] | None:
    """Print ``fmt.format(*args, **kwargs)`` with the values computed when the program runs
    (arguments the format does not use are a ValueError, as in JAX; NumPy's print options
    are those at the call).  ``print(ordered=True)("x = {}", x)`` is JAX's
    two-call form.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> g = fgrad.grad(lambda x: (fgrad.debug.print("x is {}", x), x ** 2)[1])(3.0)
        x is 3.0
        >>> fgrad.debug.print("sum: {}", fnp.arange(3.0).sum())
        sum: 3.0
    """
    return _emit(fmt, args, kwargs, ordered, skip_format_check, False, "print")


def log(fmt: str | None = None, *args, ordered: bool = False, partitioned: bool = False,
        skip_format_check: bool = False, **kwargs) -> Callable[..., None] | None:
    """As `print`, through the ``logging`` module: an INFO record of the ``fgrad.debug``
    logger, placed at the calling line (JAX's ``jax.debug.log``).

    Example::

        >>> import logging, fgrad
        >>> logging.getLogger("fgrad.debug").setLevel(logging.INFO)
        >>> fgrad.debug.log("loss = {:.3f}", 0.25)  # emitted to the configured handlers
    """
    return _emit(fmt, args, kwargs, ordered, skip_format_check, True, "log")


def breakpoint(*, backend: str | None = None, filter_frames: bool = True,  # noqa: A001 - JAX's name
               num_frames: int | None = None, ordered: bool = False, token: Any = None, **kwargs) -> Any:
    """Stop in Python's debugger when the program reaches this point, with the values
    concrete (``kwargs`` are bound as locals of the debugger's frame); under ``jit``, ``vmap``
    and ``grad`` too.  ``PYTHONBREAKPOINT=0`` disables it, as it does the ``breakpoint``
    builtin (the hook runs through ``sys.breakpointhook``).

    Example::

        >>> import os, fgrad
        >>> os.environ["PYTHONBREAKPOINT"] = "0"  # (doctest: no debugger)
        >>> fgrad.debug.breakpoint(x=1.0)
        >>> del os.environ["PYTHONBREAKPOINT"]
    """
    def stop(**values):
        locals().update(values)
        sys.breakpointhook()

    callback(stop, ordered=ordered, **kwargs)
    return token


def _sharding_table(device_label: str, use_color: bool) -> str:
    inner = f" {device_label} "
    bar = "\u2500" * len(inner)
    return f"\u250c{bar}\u2510\n\u2502{inner}\u2502\n\u2514{bar}\u2518"


def visualize_array_sharding(arr: Any, *, use_color: bool = True, scale: float = 1.0,
                             min_width: int = 9, max_width: int = 80, color_map: Any = None) -> None:
    """Print how ``arr`` is laid out over devices (JAX's ``jax.debug.visualize_array_sharding``).
    fgrad keeps every array whole on one device, so the table is one cell naming it, as JAX
    prints for a single-device array (JAX draws it with ``rich``; fgrad with box characters).
    Rank above 2 raises ValueError, as JAX.

    Example::

        >>> import fgrad.numpy as fnp
        >>> visualize_array_sharding(fnp.zeros((4, 4)))
        \u250c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2510
        \u2502 CPU 0 \u2502
        \u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2518
    """
    shape = getattr(arr, "shape", None)
    if shape is None:
        raise TypeError(f"visualize_array_sharding: expected an array, got {type(arr).__name__}")
    _draw(shape, getattr(arr, "device", None), use_color, "visualize_array_sharding")


def visualize_sharding(shape: Sequence[int], sharding: Any, *, use_color: bool = True, scale: float = 1.0,
                       min_width: int = 9, max_width: int = 80, color_map: Any = None) -> None:
    """Print how an array of ``shape`` would be laid out by ``sharding`` (JAX's
    ``jax.debug.visualize_sharding``): one cell naming the sharding's device, as
    `visualize_array_sharding` prints.  fgrad keeps every array whole on one device, so a
    sharding over several devices raises NotImplementedError; rank above 2 raises ValueError.

    Example::

        >>> import fgrad
        >>> visualize_sharding((4, 4), fgrad.sharding.SingleDeviceSharding(fgrad.devices()[0]))
        \u250c\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2510
        \u2502 CPU 0 \u2502
        \u2514\u2500\u2500\u2500\u2500\u2500\u2500\u2500\u2518
    """
    devices = getattr(sharding, "device_set", None)
    if devices is None:
        raise TypeError(f"visualize_sharding: expected a Sharding, got {type(sharding).__name__}")
    if len(devices) != 1:
        raise NotImplementedError(
            f"visualize_sharding: a sharding over {len(devices)} devices; fgrad keeps each array "
            "whole on one device")
    _draw(tuple(shape), next(iter(devices)), use_color, "visualize_sharding")


def _draw(shape: Sequence[int], device: Any, use_color: bool, what: str) -> None:
    if len(shape) > 2:
        raise ValueError(f"{what} only supports arrays of rank <= 2, got shape {tuple(shape)}")
    platform = getattr(device, "platform", "cpu")
    kind = "GPU" if str(platform).lower() in ("cuda", "rocm", "gpu") else str(platform).upper()
    label = f"{kind} {getattr(device, 'id', 0)}"  # JAX's labels: CPU 0, GPU 0
    builtins.print(_sharding_table(label, use_color))


def inspect_array_sharding(value: Any, *, callback: Callable[[Any], None]) -> None:
    """Call ``callback`` with ``value``'s sharding (JAX's ``jax.debug.inspect_array_sharding``);
    fgrad's arrays have a single-device sharding.  A value traced by `fgrad.jit` is whole on
    one device too: the callback gets ``NamedSharding(mesh, P())`` inside `fgrad.set_mesh`
    (as JAX's), else the default device's `SingleDeviceSharding` (JAX, with no mesh, says
    ``GSPMDSharding({replicated})``, which fgrad does not have).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> show = lambda s: builtins.print(type(s).__name__)
        >>> inspect_array_sharding(fnp.zeros(2), callback=show)
        SingleDeviceSharding
        >>> _ = fgrad.jit(lambda x: inspect_array_sharding(x, callback=show) or x)(fnp.zeros(2))
        SingleDeviceSharding
    """
    sharding = getattr(value, "sharding", None)
    callback(_traced_sharding() if sharding is None else sharding)


def _traced_sharding() -> Any:
    """The sharding of a traced value: the current mesh's replicated one, else the default
    device's."""
    from . import sharding as S
    from .backends import default_device
    mesh = S._current.mesh
    if isinstance(mesh, S.Mesh):
        return S.NamedSharding(mesh, S.PartitionSpec())
    return S.make_single_device_sharding(default_device())
