"""Where a NaN or infinity came from: the error of ``jax_debug_nans``/``jax_debug_infs``.

The debug-check trace (`fgrad.core.primitive.DebugCheckTrace`) checks every primitive's
result; when one has a NaN (or an infinity) this module writes the error.  It names

- the primitive that *produced* the value: one whose inputs had none (otherwise the error
  says which input already had it: the value came from the data, not from an operation);
- the pass: the forward pass, a forward-mode derivative (the JVP rule of a primitive), or
  the backward pass of a primitive (its transposed derivative, or a ``custom_vjp`` bwd);
- the user's source line: the first stack frame outside the fgrad package.  In the backward
  pass that frame is long gone, so the line of the forward operation whose derivative is
  being transposed is recorded when the operation is linearized (only while the checks are
  on: `record_source`, called by the staging trace for each equation).  An operation inside
  a control-flow body (evaluated op by op while the checks are on) is named by the body line
  recorded the same way when the body was traced.

Everything here runs only when the checks are on (`CHECKS["on"]`), and the stack is walked
only when a NaN has been found or an equation is staged, so the checks cost nothing while
they are off.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> with fgrad.debug_nans(True):
    ...     try:
    ...         fnp.log(-1.0)
    ...     except FloatingPointError as e:
    ...         print(str(e).splitlines()[0])
    Invalid nan value encountered in the output of a jax.jit function. Calling the de-optimized version.
    invalid value (nan) encountered in log (forward pass)
"""

from __future__ import annotations

import linecache
import os
import sys
from dataclasses import dataclass
from types import CodeType, FrameType
from typing import Any

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep

# whether jax_debug_nans or jax_debug_infs is on (set by `primitive._set_debug_check`)
CHECKS: dict[str, bool] = {"on": False}
# staged equations record their user source lines while this is on (the NaN/inf checks, or
# `fgrad.ad_checkpoint.print_saved_residuals` naming where each residual was computed)
RECORD_SOURCES: dict[str, bool] = {"on": False}
# the source an equation being staged is given instead of the caller's line: a program
# re-evaluated by an interpreter (a checkpoint's forward pass) keeps its equations' lines
SOURCE_OVERRIDE: list = [None]

# code objects of the interpreters' rule frames -> what running inside them means:
# "jvp" (JVPTrace.process: locals prim, primals), "custom_vjp" / "custom_jvp" (the custom
# rules' fwd/jvp: locals fun, bwd/jvp), "transpose" (backward_pass: local eqn),
# "vmap" (BatchTrace.process: local prim)
_RULE_FRAMES: dict[CodeType, str] = {}


def register_rule_frame(code: CodeType, kind: str) -> None:
    """Mark ``code`` (an interpreter method's ``__code__``) as a frame of kind ``kind``."""
    _RULE_FRAMES[code] = kind


@dataclass(frozen=True)
class SourceLine:
    """A user's source line: file, line number, function and the line's text."""

    filename: str
    lineno: int
    function: str
    text: str
    column: int | None = None  # of the call expression (0-based), where Python knows it
    qualname: str | None = None  # the function's qualified name (``outer.<locals>.inner``)

    def __str__(self) -> str:
        where = f"{self.filename}:{self.lineno} in {self.function}"
        return f"{where}\n      {self.text}" if self.text else where


@dataclass(frozen=True)
class ForwardOp:
    """The forward operation an equation of a linearized program came from."""

    label: str | None   # "sqrt", "custom_vjp function f (bwd rule f_bwd)"; None: an op of
    source: SourceLine | None  # a traced body (cond/scan/while), not inside a derivative rule


def _is_user_frame(f: FrameType) -> bool:
    name = f.f_code.co_filename
    return not (name.startswith(_PACKAGE_DIR) or name.startswith("<fgrad"))


def user_source(frame: FrameType | None = None) -> SourceLine | None:
    """The first frame outside the fgrad package, walking out from ``frame`` (default: the
    caller)."""
    f = frame if frame is not None else sys._getframe(1)
    while f is not None and not _is_user_frame(f):
        f = f.f_back
    if f is None:
        return None
    text = linecache.getline(f.f_code.co_filename, f.f_lineno).strip()
    column = None
    try:  # the column of the instruction running in the frame (Python 3.11+)
        column = list(f.f_code.co_positions())[f.f_lasti // 2][2]
    except (AttributeError, IndexError):  # pragma: no cover - older Pythons
        pass
    qualname = getattr(f.f_code, "co_qualname", f.f_code.co_name)
    return SourceLine(f.f_code.co_filename, f.f_lineno, f.f_code.co_name, text, column, qualname)


def _name(fn: Any) -> str:
    fn = getattr(fn, "__wrapped__", fn)
    return getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)


def _rule_label(kind: str, loc: dict) -> str:
    if kind == "custom_vjp":
        return f"custom_vjp function {_name(loc.get('fun'))} (bwd rule {_name(loc.get('bwd'))})"
    if kind == "custom_jvp":
        return f"custom_jvp function {_name(loc.get('fun'))} (jvp rule {_name(loc.get('jvp'))})"
    return loc["prim"].name


def record_source() -> ForwardOp:
    """For an equation being staged while the checks are on: the forward operation whose
    derivative rule is running (innermost) and the user's line that called it; outside any
    rule (a control-flow body being traced), the user's line of the operation itself."""
    if SOURCE_OVERRIDE[0] is not None:
        return SOURCE_OVERRIDE[0]
    start = f = sys._getframe(1)
    while f is not None:
        kind = _RULE_FRAMES.get(f.f_code)
        if kind in ("jvp", "custom_vjp", "custom_jvp"):
            return ForwardOp(_rule_label(kind, f.f_locals), user_source(f))
        if kind == "transpose":  # a body traced by a transpose rule (scan's reverse sweep)
            fwd = getattr(f.f_locals.get("eqn"), "source", None)
            if fwd is not None and fwd.label is not None:
                return fwd
        f = f.f_back
    return ForwardOp(None, user_source(start))


@dataclass(frozen=True)
class _Context:
    phase: str                      # "forward pass", "forward-mode derivative ...", "backward pass of X"
    source: SourceLine | None       # the user's line of the operation (forward) or forward op
    rule_source: SourceLine | None  # backward pass: a user-written rule's line (custom_vjp bwd)
    vmapped: bool
    body_source: SourceLine | None = None  # the line of the op inside a control-flow body


def _context(prim, args) -> _Context:
    """The pass the check fired in, from the interpreter frames on the stack."""
    body, ctx = _walk(prim, args)
    if body is None:
        return ctx
    return _Context(ctx.phase, ctx.source, ctx.rule_source, ctx.vmapped, body)


def _walk(prim, args) -> tuple[SourceLine | None, _Context]:
    f = sys._getframe(1)
    vmapped = False
    inner_user = None  # the innermost user frame: a user rule running inside an interpreter
    body = None  # the line of the innermost body equation being evaluated (cond/scan/while)
    while f is not None:
        kind = _RULE_FRAMES.get(f.f_code)
        if kind is None:
            if inner_user is None and _is_user_frame(f):
                inner_user = f
        elif kind == "eval":
            fwd = getattr(f.f_locals.get("e"), "source", None)
            if body is None and fwd is not None and fwd.label is None:
                body = fwd.source
        elif kind == "vmap":
            vmapped = True
        elif kind == "transpose":
            rule = user_source(inner_user) if inner_user is not None else None
            eqn = f.f_locals.get("eqn")
            fwd = getattr(eqn, "source", None)
            if fwd is None:
                label = eqn.prim.name if eqn is not None else "an operation"
                return body, _Context(f"backward pass, transposing {label} (its forward line was not "
                                "recorded: the derivative was built before the checks were on)",
                                None, rule, vmapped)
            label = fwd.label or f"an operation (transposing {eqn.prim.name})"
            return body, _Context(f"backward pass of {label}", fwd.source, rule, vmapped)
        elif kind in ("jvp", "custom_jvp", "custom_vjp"):
            loc = f.f_locals
            if kind == "jvp" and loc.get("prim") is prim and _same(args, loc.get("primals")):
                return body, _Context("forward pass", user_source(f), None, vmapped)
            rule = user_source(inner_user) if inner_user is not None and kind != "jvp" else None
            return body, _Context(f"forward-mode derivative (JVP rule) of {_rule_label(kind, loc)}",
                            user_source(f), rule, vmapped)
        f = f.f_back
    return body, _Context("forward pass", user_source(sys._getframe(1)), None, vmapped)


def _same(args, primals) -> bool:
    return primals is not None and len(args) == len(primals) and all(
        a is p for a, p in zip(args, primals))


def _describe_arg(a) -> str:
    from_aval = getattr(a, "aval", None)
    if from_aval is not None:
        return from_aval.str_short()
    return type(a).__name__


def floating_point_error(prim, args, what: str, bad_input: int | None,
                         avals: list[str]) -> FloatingPointError:
    """The error for a result of ``prim`` with a ``what`` ("nan" or "inf") value.
    ``bad_input`` is the index of an input that already had such a value (None: the
    primitive produced it); ``avals`` describe the inputs."""
    ctx = _context(prim, args)
    where = ctx.phase + (", under vmap" if ctx.vmapped else "")
    lines = [f"invalid value ({what}) encountered in {prim.name} ({where})"]
    ins = ", ".join(avals) if avals else "none"
    if bad_input is None:
        lines.append(f"  produced by: {prim.name}, from inputs without {what} ({ins})")
    else:
        lines.append(
            f"  not produced by {prim.name}: its input {bad_input} ({avals[bad_input]}) already "
            f"had {what} values, and no checked operation made them: they came from the data "
            "passed in (an argument, a constant, or a value computed before the checks were on)")
    if ctx.rule_source is not None:
        lines.append(f"  in the rule, at: {ctx.rule_source}")
    if ctx.body_source is not None:
        lines.append(f"  in a traced body (cond/scan/while_loop), at: {ctx.body_source}")
    if ctx.source is not None:
        label = "the forward operation's line" if ctx.phase.startswith("backward") else "at"
        lines.append(f"  {label}: {ctx.source}")
    lines.append("  (fgrad.debug_nans / jax_debug_nans, jax_debug_infs: see "
                 "docs/debugging-and-jacobians.md)")
    return FloatingPointError("\n".join(lines))


__all__ = ["CHECKS", "RECORD_SOURCES", "SOURCE_OVERRIDE", "ForwardOp", "SourceLine", "floating_point_error",
           "record_source",
           "register_rule_frame", "user_source"]
