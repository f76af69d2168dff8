"""`fgrad.config`: process-wide settings.

``fgrad.config.update("backend", "cuda")`` (or ``"cupy"``, ``"cuda:1"``, ``"cpu"``) sets the
default device new arrays are created on; the environment variable ``FGRAD_BACKEND`` sets it
at import (an unavailable backend there only warns, so ``import fgrad`` never fails).

The memory bounds of fgrad's caches are settings too (see ``docs/memory.md``):
``fgrad.config.update("jit_cache_size", 64)`` keeps at most 64 compiled signatures per
jitted function; lowering a bound evicts the least recently used entries at once.

Example::

    >>> import fgrad
    >>> fgrad.config.backend
    'numpy'
    >>> fgrad.config.read("jit_cache_size")
    256
"""

from __future__ import annotations

import os
import warnings
from typing import Any, Callable

from .backends import BackendUnavailableError, default_device, set_default_device
from .backends import transfer_guard as _transfer_guard
from .backends.world import settings as _distributed
from .core.logs import disable_handler as _disable_log_handler
from .core.logs import enable_handler as _enable_log_handler

_ALIASES = {"backend": "backend", "default_device": "backend", "fgrad_backend": "backend",
            "jax_default_device": "backend", "jax_platforms": "backend", "jax_platform_name": "backend"}

# cache bounds: name -> default (entries, or bytes for the *_bytes options)
LIMIT_DEFAULTS: dict[str, int] = {
    "jit_cache_size": 256,           # compiled signatures kept per jitted function
    "jit_total_cache_size": 4096,    # compiled signatures kept over all jitted functions
    "jit_derived_cache_size": 64,    # jvp/vmap/transpose programs kept per traced program
    "tape_cache_size": 4096,         # per-operation VJP programs of grad/vjp's tape
    "autograd_cache_size": 4096,     # fgrad.torch backward programs (per op signature)
    "cuda_kernel_cache_size": 1024,  # built CUDA kernels (per distinct generated source)
    "jit_scratch_bytes": 64 << 20,   # idle scratch buffers held by compiled programs
    "jit_recycle_bytes": 256 << 20,  # dropped big jit results held for reuse
}
_limits: dict[str, int] = dict(LIMIT_DEFAULTS)
_listeners: dict[str, list[Callable[[], None]]] = {k: [] for k in LIMIT_DEFAULTS}


def limit(name: str) -> int:
    """The current value of the cache bound ``name`` (fast: a dict lookup)."""
    return _limits[name]


def on_limit_change(name: str, fn: Callable[[], None]) -> None:
    """Call ``fn()`` after the bound ``name`` changes (caches trim themselves at once)."""
    _listeners[name].append(fn)


class UnknownOptionError(AttributeError, KeyError):
    """An unknown option name: an AttributeError as in JAX (and a KeyError, as fgrad raised
    before it took JAX's names)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


# JAX's options: name -> default.  Each is either mapped to fgrad's behaviour (see
# `_set_jax_option`) or, for diagnostics and caches that do not change results, stored.
JAX_DEFAULTS: dict[str, Any] = {
    "jax_enable_x64": True,  # NumPy's 64-bit dtypes; False narrows to 32 bits as JAX (core.x64_mode)
    "jax_debug_nans": False,
    "jax_debug_infs": False,
    "jax_disable_jit": False,
    "jax_platforms": None,
    "jax_platform_name": None,
    "jax_default_device": None,
    "jax_numpy_rank_promotion": "allow",
    "jax_numpy_dtype_promotion": "standard",
    "jax_default_matmul_precision": None,
    "jax_log_compiles": False,
    "jax_explain_cache_misses": False,
    "jax_enable_checks": False,
    "jax_check_tracer_leaks": False,
    "jax_traceback_filtering": "auto",
    "jax_default_prng_impl": "threefry2x32",
    "jax_threefry_partitionable": True,
    "jax_compilation_cache_dir": None,
    "jax_persistent_cache_min_compile_time_secs": 1.0,
    "jax_persistent_cache_min_entry_size_bytes": 0,
    "jax_compilation_cache_max_size": -1,
    "jax_enable_compilation_cache": True,
    "jax_raise_persistent_cache_errors": False,
    "jax_softmax_custom_jvp": False,
    "jax_transfer_guard": None,
    "jax_transfer_guard_host_to_device": None,
    "jax_transfer_guard_device_to_host": None,
    "jax_transfer_guard_device_to_device": None,
    "jax_debug_key_reuse": False,  # accepted; fgrad does not track PRNG key reuse
}
_jax_values: dict[str, Any] = dict(JAX_DEFAULTS)
# fgrad's own switches: name -> default
FLAG_DEFAULTS: dict[str, bool] = {
    "pmap_any_size": False,  # pmap maps any axis size on one device (else: size <= device count, as JAX)
    # JAX's face computes exp/tanh/logistic/log1p/lgamma with XLA's CPU algorithms
    # (`fgrad.ops.xla_math`: JAX's exact bits, 10-100x slower, unfused); also FGRAD_XLA_MATH=1
    "xla_math": os.environ.get("FGRAD_XLA_MATH", "") not in ("", "0"),
    # loops over tiny values run as C compiled at run time where that gives NumPy's bits
    # (`fgrad.core.native_loops`); FGRAD_NATIVE_LOOPS=0 switches them off
    "native_loops": os.environ.get("FGRAD_NATIVE_LOOPS", "1").strip().lower() not in ("0", "false", "off"),
}
_flags: dict[str, bool] = dict(FLAG_DEFAULTS)
# (the environment sets the values, `config.update(..., None)` restores the defaults)
FLAG_DEFAULTS["xla_math"] = False
FLAG_DEFAULTS["native_loops"] = True


def flag(name: str) -> bool:
    """The current value of fgrad's switch ``name`` (see `FLAG_DEFAULTS`)."""
    return _flags[name]
_PRNG_WHY = "fgrad's keys are threefry2x32, JAX's default; another generator would give other numbers"
_PRECISIONS = (None, "default", "high", "highest", "bfloat16", "tensorfloat32", "float32", "fastest",
               "ANY_PRECISION")


def _check_choice(name: str, value, supported: tuple, known: tuple, why: str = "") -> None:
    if value in supported:
        return
    if value in known:
        raise NotImplementedError(
            f"fgrad.config.update({name!r}, {value!r}): fgrad supports only {supported!r}"
            + (f" ({why})" if why else ""))
    raise ValueError(f"fgrad.config.update({name!r}, ...): new enum value must be in "
                     f"{list(known)}, got {value!r}")


def _set_platforms(value) -> None:
    """The default device from JAX's platform list: the first that is available (a list of
    one unavailable platform raises `BackendUnavailableError`, as JAX fails to start)."""
    names = [{"gpu": "cuda", "rocm": "cuda", "": "cpu"}.get(p.strip().lower(), p.strip().lower())
             for p in str(value).split(",")]
    for i, name in enumerate(names):
        try:
            set_default_device(name)
            return
        except BackendUnavailableError:
            if i == len(names) - 1:
                raise


_option_listeners: dict[str, list[Callable[[Any], None]]] = {}

# Options that change what tracing produces (the promotion checks run while tracing), as
# `(name, value)` pairs of those not at their default; empty by default.  `jit` adds it to
# its cache key (as JAX keys compiles on its trace context) and uses its call-path index
# only while it is empty.
_TRACE_CONTEXT_OPTIONS = ("jax_numpy_rank_promotion", "jax_numpy_dtype_promotion", "jax_enable_x64",
                          "jax_threefry_partitionable")
trace_context: list[tuple] = [()]


def _update_trace_context() -> None:
    trace_context[0] = tuple((n, _jax_values[n]) for n in _TRACE_CONTEXT_OPTIONS
                             if _jax_values[n] != JAX_DEFAULTS[n])


def on_option_change(name: str, fn: Callable[[Any], None]) -> None:
    """Call ``fn(value)`` whenever JAX option ``name`` is set (the modules that implement an
    option register here, so this module stays below them)."""
    _option_listeners.setdefault(name, []).append(fn)


def _set_jax_option(name: str, value) -> None:
    """Apply JAX option ``name`` to fgrad (see `JAX_DEFAULTS`)."""
    if name == "jax_enable_x64":  # applied by `fgrad.core.x64_mode` (a listener)
        value = bool(value)
    elif name in ("jax_debug_nans", "jax_debug_infs", "jax_disable_jit"):
        value = bool(value)
    elif name in ("jax_platforms", "jax_platform_name"):
        _set_platforms("cpu" if value is None else value)
    elif name == "jax_default_device":
        set_default_device("cpu" if value is None else value)
    elif name == "jax_numpy_rank_promotion":  # applied by fgrad.numpy's binary operations
        _check_choice(name, value, ("allow", "warn", "raise"), ("allow", "warn", "raise"))
    elif name == "jax_numpy_dtype_promotion":
        _check_choice(name, value, ("standard", "strict"), ("standard", "strict"))
    elif name.startswith("jax_transfer_guard"):
        if value is not None:
            _check_choice(name, value, _transfer_guard.LEVELS, _transfer_guard.LEVELS)
        direction = name[len("jax_transfer_guard_"):] or None
        _transfer_guard.set_global(direction, value)
    elif name == "jax_default_matmul_precision":
        # fgrad's matmuls always run at the operands' full precision, which meets any request
        _check_choice(name, value, _PRECISIONS, _PRECISIONS)
    elif name == "jax_default_prng_impl":
        _check_choice(name, value, ("threefry2x32",), ("threefry2x32", "rbg", "unsafe_rbg"), _PRNG_WHY)
    elif name in ("jax_log_compiles", "jax_explain_cache_misses"):
        other = "jax_explain_cache_misses" if name == "jax_log_compiles" else "jax_log_compiles"
        if value:
            _enable_log_handler()  # the fgrad.jit records: each trace, why it recompiled
        elif _jax_values[name] and not _jax_values[other]:
            _disable_log_handler()  # turned off again (the end of a log_compiles scope)
    _jax_values[name] = value
    if name in _TRACE_CONTEXT_OPTIONS:
        _update_trace_context()
    for fn in _option_listeners.get(name, ()):
        fn(value)


class Config:
    """Settings: ``update(name, value)`` / ``read(name)``.  Names: ``backend`` (alias
    ``default_device``) and the cache bounds in `LIMIT_DEFAULTS` (``jit_cache_size``,
    ``jit_total_cache_size``, ``jit_derived_cache_size``, ``tape_cache_size``,
    ``autograd_cache_size``, ``cuda_kernel_cache_size``, ``jit_scratch_bytes``,
    ``jit_recycle_bytes``; a bound of ``None`` restores its default), and the collectives'
    ``distributed_debug`` (fingerprint and compare every collective across processes),
    ``distributed_check`` (the cheap form of that check, on by default: one 16-byte
    all-reduce per collective) and ``distributed_timeout`` (seconds; None waits forever)."""

    def update(self, name: str, value) -> None:
        """Set option ``name``: fgrad's (``backend``, the cache bounds) or JAX's (`JAX_DEFAULTS`).

        Example::

            >>> import fgrad
            >>> fgrad.config.update("jax_debug_nans", False)
            >>> fgrad.config.jax_debug_nans
            False
        """
        if name in _DISTRIBUTED_OPTIONS:
            _set_distributed(name, value)
            return
        if name in _limits:
            _set_limit(name, value)
            return
        if name in _flags:
            if not isinstance(value, (bool, int)) and value is not None:
                raise TypeError(f"fgrad.config.update({name!r}, ...): expected a bool, got {value!r}")
            _flags[name] = FLAG_DEFAULTS[name] if value is None else bool(value)
            return
        if name in JAX_DEFAULTS:
            _set_jax_option(name, value)
            return
        key = _ALIASES.get(name)
        if key is None:
            raise _unknown(name)
        set_default_device("cpu" if value is None else value)

    def read(self, name: str):
        if name in _DISTRIBUTED_OPTIONS:
            return getattr(_distributed, _DISTRIBUTED_OPTIONS[name])
        if name in _limits:
            return _limits[name]
        if name in _flags:
            return _flags[name]
        if name in JAX_DEFAULTS:
            return self._jax_value(name)
        key = _ALIASES.get(name)
        if key is None:
            raise _unknown(name)
        return self.backend

    def _jax_value(self, name: str):
        return _jax_values[name]

    @property
    def values(self) -> dict:
        """Every option's current value (JAX's ``config.values``)."""
        out = {name: self._jax_value(name) for name in JAX_DEFAULTS}
        out.update(_limits)
        out.update(_flags)
        out["backend"] = self.backend
        return out

    def __getattr__(self, name: str):
        if name in _limits:
            return _limits[name]
        if name in _flags:
            return _flags[name]
        if name in JAX_DEFAULTS:
            return self._jax_value(name)
        raise AttributeError(f"'Config' object has no attribute {name!r} (fgrad.config has no option "
                             f"{name!r})")

    @property
    def backend(self) -> str:
        """Name of the default device's backend (``"numpy"``, ``"cupy"``)."""
        return default_device().backend_name

    @property
    def default_device(self):
        return default_device()

    def __repr__(self) -> str:
        limits = ", ".join(f"{k}={v}" for k, v in _limits.items())
        return (f"fgrad.config(backend={self.backend!r}, default_device={str(default_device())!r}, "
                f"{limits})")


def _unknown(name: str) -> UnknownOptionError:
    return UnknownOptionError(
        f"Unrecognized config option: {name} (fgrad's options: backend (default_device), "
        + ", ".join(list(LIMIT_DEFAULTS) + list(FLAG_DEFAULTS)) + "; JAX's: " + ", ".join(JAX_DEFAULTS) + ")")


def _set_limit(name: str, value) -> None:
    if value is None:
        value = LIMIT_DEFAULTS[name]
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"fgrad.config.update({name!r}, ...): expected an int, got "
                        f"{type(value).__name__} {value!r}")
    least = 0 if name.endswith("_bytes") else 1
    if value < least:
        raise ValueError(f"fgrad.config.update({name!r}, {value}): the bound must be >= {least}")
    _limits[name] = value
    for fn in list(_listeners[name]):
        fn()


# collectives (fgrad.distributed): fingerprint every collective / seconds before a timeout
_DISTRIBUTED_OPTIONS = {"distributed_debug": "debug", "distributed_check": "check",
                        "distributed_timeout": "timeout"}


def _set_distributed(name: str, value) -> None:
    if name in ("distributed_debug", "distributed_check"):
        if not isinstance(value, (bool, int)):
            raise TypeError(f"fgrad.config.update({name!r}, ...): expected a bool, got {value!r}")
        setattr(_distributed, _DISTRIBUTED_OPTIONS[name], bool(value))
        return
    if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0):
        raise ValueError(f"fgrad.config.update({name!r}, {value!r}): expected seconds > 0 or None "
                         "(wait forever)")
    _distributed.timeout = None if value is None else float(value)


config = Config()


class _OptionScope:
    """Context manager: JAX option ``name`` set to ``value`` in the block, restored after
    (JAX's ``jax.debug_nans(True)`` form)."""

    name = ""

    def __init__(self, value: bool = True) -> None:
        self.value = self._convert(value)

    def _convert(self, value):
        return bool(value)

    def __enter__(self):
        self._saved = _jax_values[self.name]
        _set_jax_option(self.name, self.value)
        return self

    def __exit__(self, *exc) -> None:
        _set_jax_option(self.name, self._saved)


class debug_nans(_OptionScope):
    """Context manager: check every operation's result for NaNs in the block (the option
    ``jax_debug_nans``; also ``FGRAD_DEBUG_NANS=1``/``JAX_DEBUG_NANS=1`` at import).  The
    first operation that produces a NaN raises FloatingPointError naming the primitive, the
    pass (forward, forward-mode derivative, backward) and the user's source line; jitted
    functions run op by op meanwhile.  See ``docs/debugging-and-jacobians.md``.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.debug_nans(True):
        ...     fgrad.grad(fnp.sqrt)(4.0)
        Array(0.25, dtype=float64, weak_type=True)
    """

    name = "jax_debug_nans"


class debug_infs(_OptionScope):
    """Context manager: as `debug_nans`, for infinities (``jax_debug_infs``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.debug_infs(True):
        ...     try:
        ...         fnp.log(0.0)
        ...     except FloatingPointError as e:
        ...         print(str(e).splitlines()[0])
        Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.
        invalid value (inf) encountered in log (forward pass)
    """

    name = "jax_debug_infs"


class _ChoiceScope(_OptionScope):
    """`_OptionScope` for an option whose value is a choice (checked on creation, as JAX's
    ``ValueError: new enum value must be in ...``)."""

    choices: tuple = ()

    def __init__(self, value) -> None:
        self.value = value
        _check_choice(self.name, value, self.choices, self.choices)


class enable_x64(_OptionScope):
    """Context manager (``jax.enable_x64``): 64-bit types in the block (``True``, fgrad's
    default) or 32-bit ones (``False``: float32/int32 defaults and 64-bit requests narrowed,
    JAX's default; see ``docs/x64-off.md``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.enable_x64(False):
        ...     fnp.arange(2.0).dtype
        dtype('float32')
        >>> fnp.arange(2.0).dtype
        dtype('float64')
    """

    name = "jax_enable_x64"


class check_tracer_leaks(_OptionScope):
    """Context manager (``jax.check_tracer_leaks``): accepted.  fgrad always detects a
    leaked tracer where it is used (``UnexpectedTracerError`` naming the transform that
    created it), so the option changes nothing.

    Example::

        >>> import fgrad
        >>> with fgrad.check_tracer_leaks(True):
        ...     fgrad.jit(lambda x: x + 1)(1.0)
        Array(2., dtype=float64, weak_type=True)
    """

    name = "jax_check_tracer_leaks"


class checking_leaks(check_tracer_leaks):
    """``check_tracer_leaks(True)`` (``jax.checking_leaks``).

    Example::

        >>> import fgrad
        >>> with fgrad.checking_leaks():
        ...     pass
    """

    def __init__(self) -> None:
        super().__init__(True)


class log_compiles(_OptionScope):
    """Context manager (``jax.log_compiles``): log each trace and compile of a jitted
    function in the block (records of the ``fgrad.jit`` logger, shown on stderr).

    Example::

        >>> import logging, fgrad
        >>> with fgrad.log_compiles(True):
        ...     fgrad.config.jax_log_compiles
        True
    """

    name = "jax_log_compiles"


class explain_cache_misses(_OptionScope):
    """Context manager (``jax.explain_cache_misses``): log why a jitted function retraces
    (the argument whose shape, dtype or static value changed; the ``fgrad.jit`` logger).

    Example::

        >>> import fgrad
        >>> with fgrad.explain_cache_misses(True):
        ...     fgrad.config.jax_explain_cache_misses
        True
    """

    name = "jax_explain_cache_misses"


class debug_key_reuse(_OptionScope):
    """Context manager (``jax.debug_key_reuse``): accepted; fgrad does not track the reuse
    of PRNG keys (reusing a key gives the same numbers, as in JAX).

    Example::

        >>> import fgrad
        >>> with fgrad.debug_key_reuse(True):
        ...     fgrad.config.jax_debug_key_reuse
        True
    """

    name = "jax_debug_key_reuse"


class default_matmul_precision(_ChoiceScope):
    """Context manager (``jax.default_matmul_precision``): fgrad's matmuls always run at the
    operands' full precision, which meets every request; the value is checked and stored.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.default_matmul_precision("float32"):
        ...     fnp.ones((2, 2)) @ fnp.ones(2)
        Array([2., 2.], dtype=float64)
    """

    name = "jax_default_matmul_precision"
    choices = _PRECISIONS


class numpy_rank_promotion(_ChoiceScope):
    """Context manager (``jax.numpy_rank_promotion``): ``"allow"`` NumPy's implicit rank
    promotion in binary operations, ``"warn"`` (UserWarning) or ``"raise"`` (ValueError) when
    operands of different non-zero ranks are broadcast together.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.numpy_rank_promotion("raise"):
        ...     fnp.ones(3) + 1.0  # a scalar is not a rank promotion
        Array([2., 2., 2.], dtype=float64)
    """

    name = "jax_numpy_rank_promotion"
    choices = ("allow", "warn", "raise")


class numpy_dtype_promotion(_ChoiceScope):
    """Context manager (``jax.numpy_dtype_promotion``): ``"standard"`` promotion, or
    ``"strict"``: a binary operation on two different dtypes raises
    ``fgrad.dtypes.TypePromotionError`` (Python scalars still combine with any dtype).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.numpy_dtype_promotion("strict"):
        ...     fnp.ones(2, "float32") * 2.0
        Array([2., 2.], dtype=float32)
    """

    name = "jax_numpy_dtype_promotion"
    choices = ("standard", "strict")


class enable_checks(_OptionScope):
    """Context manager (``jax.enable_checks``): accepted; fgrad always checks the internal
    invariants JAX's option turns on (abstract rules against results in the tests).

    Example::

        >>> import fgrad
        >>> with fgrad.enable_checks(True):
        ...     fgrad.config.jax_enable_checks
        True
    """

    name = "jax_enable_checks"


class softmax_custom_jvp(_OptionScope):
    """Context manager (``jax.softmax_custom_jvp``): accepted; fgrad's softmax has its own
    derivative rule either way (the values and derivatives JAX computes with either setting).

    Example::

        >>> import fgrad
        >>> with fgrad.softmax_custom_jvp(True):
        ...     fgrad.config.jax_softmax_custom_jvp
        True
    """

    name = "jax_softmax_custom_jvp"


class threefry_partitionable(_OptionScope):
    """Context manager (``jax.threefry_partitionable``): on (JAX's default), each random
    element comes from its own counter; off, keys split and draw bits as JAX's original
    stream did (other numbers, JAX's for that setting).

    Example::

        >>> import fgrad
        >>> with fgrad.threefry_partitionable(False):
        ...     fgrad.random.key_data(fgrad.random.split(fgrad.random.key(0), 2)).tolist()
        [[4146024105, 967050713], [2718843009, 1272950319]]
    """

    name = "jax_threefry_partitionable"


class default_prng_impl(_ChoiceScope):
    """Context manager (``jax.default_prng_impl``): fgrad's keys are threefry2x32 (JAX's
    default); asking for ``"rbg"``/``"unsafe_rbg"`` raises NotImplementedError rather than
    give other random numbers than JAX would.

    Example::

        >>> import fgrad
        >>> with fgrad.default_prng_impl("threefry2x32"):
        ...     fgrad.random.key_data(fgrad.random.key(0)).tolist()
        [0, 0]
    """

    name = "jax_default_prng_impl"
    choices = ("threefry2x32", "rbg", "unsafe_rbg")

    def __init__(self, value) -> None:
        self.value = value
        _check_choice(self.name, value, ("threefry2x32",), self.choices, _PRNG_WHY)


class _TransferGuardScope(_ChoiceScope):
    """A transfer guard level for one direction (None: all three) in this thread."""

    direction: str | None = None
    choices = _transfer_guard.LEVELS

    def __enter__(self):
        self._scope = _transfer_guard.scoped(self.direction, self.value)
        self._scope.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self._scope.__exit__(*exc)


class transfer_guard(_TransferGuardScope):
    """Context manager (``jax.transfer_guard``): the level of all three transfer guards in
    this thread: ``"allow"``, ``"log"``, ``"disallow"``, ``"log_explicit"``,
    ``"disallow_explicit"``.  See `fgrad.backends.transfer_guard` for what each guards.

    Example::

        >>> import numpy as np, fgrad, fgrad.numpy as fnp
        >>> with fgrad.transfer_guard("disallow"):
        ...     try:
        ...         fnp.asarray(np.ones(2))  # implicit: raises
        ...     except RuntimeError as e:
        ...         print(str(e).split(" (")[0])
        ...     x = fgrad.device_put(np.ones(2))  # explicit: allowed
        Disallowed host-to-device transfer
    """

    name = "jax_transfer_guard"


class transfer_guard_host_to_device(_TransferGuardScope):
    """Context manager (``jax.transfer_guard_host_to_device``): the host-to-device guard
    (host data becoming an Array) in this thread.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.transfer_guard_host_to_device("log"):
        ...     fnp.ones(2) * 2.0  # no host data moves
        Array([2., 2.], dtype=float64)
    """

    name = "jax_transfer_guard_host_to_device"
    direction = "host_to_device"


class transfer_guard_device_to_host(_TransferGuardScope):
    """Context manager (``jax.transfer_guard_device_to_host``): the device-to-host guard
    (``np.asarray``, ``float()``, ``.item()`` of a device Array) in this thread; Arrays on
    the host (NumPy backend) are not transferred.

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> with fgrad.transfer_guard_device_to_host("disallow"):
        ...     float(fnp.ones(()))  # on the host: allowed
        1.0
    """

    name = "jax_transfer_guard_device_to_host"
    direction = "device_to_host"


class transfer_guard_device_to_device(_TransferGuardScope):
    """Context manager (``jax.transfer_guard_device_to_device``): fgrad never moves data
    between devices implicitly (mixing devices raises `DeviceMismatchError`), so only the
    ``*_explicit`` levels act, on ``device_put`` from one device to another.

    Example::

        >>> import fgrad
        >>> with fgrad.transfer_guard_device_to_device("disallow"):
        ...     pass
    """

    name = "jax_transfer_guard_device_to_device"
    direction = "device_to_device"


_ENVIRONMENT_OPTIONS = {"jax_enable_x64": ("FGRAD_ENABLE_X64", "JAX_ENABLE_X64"),
                        "jax_debug_nans": ("FGRAD_DEBUG_NANS", "JAX_DEBUG_NANS"),
                        "jax_debug_infs": ("FGRAD_DEBUG_INFS", "JAX_DEBUG_INFS")}


def environment_flag(name: str, environ=None) -> bool | None:
    """The value the environment gives the on/off option ``name`` (see `_ENVIRONMENT_OPTIONS`:
    ``JAX_ENABLE_X64=0``, ``FGRAD_DEBUG_NANS=1``, ...), or None when no variable sets it.  A
    value that is not 1/true/yes/on or 0/false/no/off only warns (``import fgrad`` never
    fails).

    Example::

        >>> environment_flag("jax_enable_x64", {"JAX_ENABLE_X64": "false"})
        False
    """
    environ = os.environ if environ is None else environ
    for var in _ENVIRONMENT_OPTIONS[name]:
        raw = environ.get(var)
        if raw is None or raw.strip() == "":
            continue
        flag = raw.strip().lower()
        if flag not in ("1", "true", "yes", "on", "0", "false", "no", "off"):
            warnings.warn(f"{var}={raw!r} ignored: expected 1/true/yes/on or 0/false/no/off",
                          stacklevel=3)
            return None
        return flag in ("1", "true", "yes", "on")
    return None


def apply_environment(environ=None) -> None:
    """Set the options that environment variables turn on (``FGRAD_DEBUG_NANS=1`` or
    ``JAX_DEBUG_NANS=1``, the same for INFS; JAX's ``JAX_NUMPY_RANK_PROMOTION``,
    ``JAX_NUMPY_DTYPE_PROMOTION``, ``JAX_TRANSFER_GUARD[_...]``,
    ``JAX_DEFAULT_MATMUL_PRECISION``); run by ``import fgrad`` once every module that
    implements an option has registered.

    Example::

        >>> import fgrad
        >>> apply_environment({"JAX_NUMPY_RANK_PROMOTION": "warn"})
        >>> fgrad.config.jax_numpy_rank_promotion
        'warn'
        >>> fgrad.config.update("jax_numpy_rank_promotion", "allow")
    """
    environ = os.environ if environ is None else environ
    for name in _ENVIRONMENT_OPTIONS:
        value = environment_flag(name, environ)
        if value is not None:
            _set_jax_option(name, value)
    for name in _ENVIRONMENT_CHOICES:
        var = name.upper()  # JAX's variable: JAX_NUMPY_RANK_PROMOTION=raise ...
        raw = environ.get(var)
        if raw is None or raw.strip() == "":
            continue
        try:
            _set_jax_option(name, raw.strip())
        except (ValueError, NotImplementedError) as e:  # only warns: `import fgrad` never fails
            warnings.warn(f"{var}={raw!r} ignored: {e}", stacklevel=2)


# JAX options with a value to choose, read from JAX's environment variables at import
_ENVIRONMENT_CHOICES = ("jax_numpy_rank_promotion", "jax_numpy_dtype_promotion", "jax_transfer_guard",
                        "jax_transfer_guard_host_to_device", "jax_transfer_guard_device_to_host",
                        "jax_transfer_guard_device_to_device", "jax_default_matmul_precision")
