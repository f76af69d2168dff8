"""Traces: who interprets a primitive right now.

fgrad uses context-based ("stackless") dispatch, like JAX's current design.  Exactly one
trace is *current*.  `Primitive.bind` hands every operation to it.  A transform (jvp, vmap,
linearize, jit) makes a new trace whose ``parent`` is the trace that was current when the
transform started, makes it current while the user's function runs, and inside its rules
makes the parent current again, so that the rule's own fgrad ops go one level down.

A value belongs to a trace only if it is a `Tracer` whose ``_trace`` is that trace object
(the trace *is* the tag).  Everything else is a constant to it.  That is what keeps nested
derivatives apart (no perturbation confusion).

When a transform returns, its trace is marked dead.  A tracer of a dead trace that reaches
the evaluation trace has escaped; the error names the transform and the place it was made.
"""

from __future__ import annotations

import sys
import threading
from typing import Any


class UnexpectedTracerError(TypeError):
    """A tracer was used outside the transform that created it (a TypeError, as in JAX).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> leaked = []
        >>> def f(x):
        ...     leaked.append(x)
        ...     return x
        ...
        >>> _ = fgrad.jit(f)(jnp.array(1.0))
        >>> try:
        ...     leaked[0] + 1
        ... except fgrad.errors.UnexpectedTracerError as e:
        ...     print(type(e).__name__)
        ...
        UnexpectedTracerError
    """


class ConcretizationError(TypeError):
    """A traced (abstract) value was used where a concrete Python value is needed: the base
    of the JAX-named errors below (all TypeErrors, as in JAX).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.errors.ConcretizationTypeError, fgrad.ConcretizationError)
        True
    """


class ConcretizationTypeError(ConcretizationError):
    """A traced value was needed concretely (``float()``, ``.item()``, a shape, ...).

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> try:
        ...     fgrad.jit(lambda x: float(x))(jnp.array(1.0))
        ... except fgrad.errors.ConcretizationTypeError as e:
        ...     print(type(e).__name__, isinstance(e, TypeError))
        ...
        ConcretizationTypeError True
    """


class TracerBoolConversionError(ConcretizationTypeError):
    """``bool()`` of a traced value: Python ``if``/``while``/``and`` on it.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> try:
        ...     fgrad.jit(lambda x: 1 if x > 0 else 0)(jnp.array(1.0))
        ... except fgrad.errors.TracerBoolConversionError as e:
        ...     print(type(e).__name__, isinstance(e, TypeError))
        ...
        TracerBoolConversionError True
    """


class TracerIntegerConversionError(ConcretizationError):
    """``__index__`` of a traced value: it was used as a Python index or in ``range``.  As in
    JAX, not a `ConcretizationTypeError`.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> try:
        ...     fgrad.jit(lambda i: [1, 2, 3][i])(jnp.array(1))
        ... except fgrad.errors.TracerIntegerConversionError as e:
        ...     print(type(e).__name__, isinstance(e, TypeError))
        ...
        TracerIntegerConversionError True
    """


class TracerArrayConversionError(ConcretizationError):
    """``numpy.asarray`` of a traced value.  As in JAX, not a `ConcretizationTypeError`.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> import numpy as np
        >>> try:
        ...     fgrad.jit(lambda x: np.asarray(x))(jnp.array(1.0))
        ... except fgrad.errors.TracerArrayConversionError as e:
        ...     print(type(e).__name__, isinstance(e, TypeError))
        ...
        TracerArrayConversionError True
    """


class JAXTypeError(TypeError):
    """A TypeError of JAX's own kinds (JAX's ``jax.errors.JAXTypeError``).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.errors.JAXTypeError, TypeError)
        True
    """


class JAXIndexError(IndexError):
    """An IndexError of JAX's own kinds (JAX's ``jax.errors.JAXIndexError``).

    Example::

        >>> import fgrad
        >>> issubclass(fgrad.errors.JAXIndexError, IndexError)
        True
    """


class NonConcreteBooleanIndexError(JAXIndexError, ConcretizationTypeError):
    """Boolean-mask indexing of a traced mask (the result's shape would depend on traced
    data).  An IndexError as in JAX, and a `ConcretizationTypeError` as fgrad raised before.

    Example::

        >>> import fgrad
        >>> import fgrad.numpy as jnp
        >>> try:
        ...     fgrad.jit(lambda x: x[x > 0])(jnp.array([1.0, -1.0]))
        ... except fgrad.errors.NonConcreteBooleanIndexError as e:
        ...     print(type(e).__name__, isinstance(e, IndexError))
        ...
        NonConcreteBooleanIndexError True
    """


def concretization_error_type(what: str) -> type:
    """The JAX error class for needing a traced value concretely in ``what`` (the
    operation's description: ``"bool()"``, ``"an index"``, ``"numpy.asarray()"``, ...)."""
    if what == "bool()":
        return TracerBoolConversionError
    if what == "an index":
        return TracerIntegerConversionError
    if what in ("numpy.asarray()", "a DLPack export (__dlpack__)"):
        return TracerArrayConversionError
    return ConcretizationTypeError


class Origin:
    """Where a transform was started: ``what`` (e.g. "grad of f") and the user's call site.
    Formatted only when an error message needs it."""

    __slots__ = ("what", "site")

    def __init__(self, what: str, site: tuple) -> None:
        self.what, self.site = what, site

    def __str__(self) -> str:
        f, line, fn = self.site
        return f"{self.what} called at {f}:{line} (in {fn})"

    __format__ = lambda self, spec: format(str(self), spec)  # noqa: E731


def origin(what: str) -> Origin:
    """Record the transform ``what`` and the first stack frame outside fgrad."""
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("fgrad"):
        frame = frame.f_back
    site = (frame.f_code.co_filename, frame.f_lineno, frame.f_code.co_name) if frame else ("?", 0, "?")
    return Origin(what, site)


class Trace:
    """Base class of all interpreters.  Subclasses override `process`."""

    __slots__ = ("parent", "alive", "origin")

    def __init__(self, parent: "Trace | None", origin: "Origin | str" = "") -> None:
        self.parent = parent
        self.alive = True
        self.origin = origin

    def process(self, prim, args, params):  # pragma: no cover - abstract
        raise NotImplementedError

    # Higher-order calls default to running the function in the current context;
    # traces that need to keep the custom rule (jvp, vmap, jit) override these.
    def process_custom_jvp(self, fun, jvp, args, symbolic_zeros=False):
        with current(self):
            return fun(*args)

    def process_custom_vjp(self, fun, fwd, bwd, args, out_tree_hint=None):
        with current(self):
            return fun(*args)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.origin}>"


class _State(threading.local):
    def __init__(self) -> None:
        self.trace: Trace = EVAL_TRACE
        self.name_stack: tuple = ()  # named_scope / named_call names, outermost first


class EvalTrace(Trace):
    """The bottom trace: run the primitive's implementation on backend buffers."""

    __slots__ = ()

    def process(self, prim, args, params):
        return eval_primitive(prim, args, params)

    def concretize(self, tracer, what):  # pragma: no cover - eval has no tracers
        raise TypeError(what)

    def process_custom_jvp(self, fun, jvp, args, symbolic_zeros=False):
        return fun(*args)

    def process_custom_vjp(self, fun, fwd, bwd, args, out_tree_hint=None):
        return fun(*args)


EVAL_TRACE = EvalTrace(None, "eval")
eval_primitive = None  # set by fgrad.core.primitive (avoids an import cycle)
state = _State()


def current_trace() -> Trace:
    return state.trace


class current:
    """Context manager: make ``trace`` the current trace for the block."""

    __slots__ = ("trace", "saved")

    def __init__(self, trace: Trace) -> None:
        self.trace = trace

    def __enter__(self) -> Trace:
        self.saved = state.trace
        state.trace = self.trace
        return self.trace

    def __exit__(self, *exc) -> None:
        state.trace = self.saved


def caller_site(skip_modules: tuple[str, ...] = ("fgrad",)) -> str:
    """`file:line` of the first stack frame outside fgrad (for error messages)."""
    frame = sys._getframe(1)
    while frame is not None:
        mod = frame.f_globals.get("__name__", "")
        if not mod.startswith(skip_modules):
            return f"{frame.f_code.co_filename}:{frame.f_lineno} (in {frame.f_code.co_name})"
        frame = frame.f_back
    return "<unknown>"


class new_trace:
    """Context manager for a transform: create a trace under the current one, make it
    current, and mark it dead on exit.

    Example::

        with new_trace(JVPTrace, "jvp of f") as trace:
            ...
    """

    __slots__ = ("cls", "origin", "kwargs", "trace", "saved")

    def __init__(self, cls, origin: str, **kwargs: Any) -> None:
        self.cls, self.origin, self.kwargs = cls, origin, kwargs

    def __enter__(self):
        self.saved = state.trace
        self.trace = self.cls(self.saved, self.origin, **self.kwargs)
        state.trace = self.trace
        return self.trace

    def __exit__(self, *exc) -> None:
        state.trace = self.saved
        self.trace.alive = False
