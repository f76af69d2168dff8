"""fgrad's optimized program as text in the layout of XLA's HLO (what
``jit(f).lower(x).compiler_ir()`` returns in JAX).

fgrad has no XLA: the text shows the program fgrad's compiler runs after its passes (constant
folding, simplification, CSE, DCE), one line per operation, with fgrad's primitive names in
place of HLO's opcodes.  The layout is HLO's (``HloModule``, an ``ENTRY`` computation,
``parameter(i)`` lines and a ``ROOT``), so tools that search or compare HLO text work on it,
e.g. checking that two formulations compile to the same program.

Example::

    >>> import fgrad
    >>> print(fgrad.jit(lambda x: x ** 2).lower(3.0).compiler_ir().as_hlo_text())
    HloModule jit__lambda_
    <BLANKLINE>
    ENTRY main {
      a = f64[] parameter(0)
      ROOT b = f64[] mul(a, a)
    }
"""

from __future__ import annotations

import itertools

import numpy as np

from ..core.ir import Jaxpr, Literal, _name, pretty_print

__all__ = ["CompilerIR", "hlo_text"]

_SHORT = {"float64": "f64", "float32": "f32", "float16": "f16", "bfloat16": "bf16", "int64": "s64",
          "int32": "s32", "int16": "s16", "int8": "s8", "uint64": "u64", "uint32": "u32",
          "uint16": "u16", "uint8": "u8", "bool": "pred", "complex64": "c64", "complex128": "c128"}


def _type(aval) -> str:
    dt = np.dtype(aval.dtype).name
    return f"{_SHORT.get(dt, dt)}[{','.join(map(str, aval.shape))}]"


def _fmt_param(v) -> str:
    if callable(v) and not isinstance(v, type):
        return getattr(v, "__name__", type(v).__name__)
    if isinstance(v, Jaxpr):
        return "{ " + pretty_print(v).replace("\n", "\n  ") + " }"
    return repr(v)


def hlo_text(program, name: str = "main") -> str:
    """``program`` (a `fgrad.compile.passes.Program` or a `Jaxpr`) as HLO-layout text."""
    names: dict[int, str] = {}
    gen = map(_name, itertools.count())

    def ref(v) -> str:
        if isinstance(v, Literal):
            return f"constant({v.val!r})"
        if id(v) not in names:
            names[id(v)] = next(gen)
        return names[id(v)]

    lines = []
    for i, v in enumerate(list(program.constvars) + list(program.invars)):
        kind = f"constant(<{_type(v.aval)}>)" if i < len(program.constvars) else \
            f"parameter({i - len(program.constvars)})"
        lines.append(f"{ref(v)} = {_type(v.aval)} {kind}")
    for e in program.eqns:
        params = ", ".join(f"{k}={_fmt_param(p)}" for k, p in e.params.items())
        args = ", ".join(ref(v) for v in e.invars)
        call = f"{e.prim.name}({args})" + (f", {params}" if params else "")
        if len(e.outvars) == 1:
            lines.append(f"{ref(e.outvars[0])} = {_type(e.outvars[0].aval)} {call}")
        else:
            outs = ", ".join(_type(v.aval) for v in e.outvars)
            tup = f"t{len(lines)}"
            lines.append(f"{tup} = ({outs}) {call}")
            for j, v in enumerate(e.outvars):
                lines.append(f"{ref(v)} = {_type(v.aval)} get-tuple-element({tup}), index={j}")
    outs = list(program.outvars)
    defined = {id(v): k for k, v in enumerate(program.eqns and [o for e in program.eqns for o in e.outvars])}
    if len(outs) == 1 and not isinstance(outs[0], Literal) and id(outs[0]) in defined \
            and lines and lines[-1].startswith(ref(outs[0]) + " ="):
        lines[-1] = "ROOT " + lines[-1]
    else:
        types = ", ".join(_type(v.aval) for v in outs)
        lines.append(f"ROOT tuple = ({types}) tuple({', '.join(ref(v) for v in outs)})")
    body = "\n".join("  " + line for line in lines)
    return f"HloModule {name}\n\nENTRY main {{\n{body}\n}}"


class CompilerIR:
    """What `Lowered.compiler_ir` returns: the optimized program's text (``str()``,
    ``as_hlo_text()``, ``as_text()``), for any ``dialect`` JAX names."""

    def __init__(self, program, name: str) -> None:
        self.program, self.name = program, name

    def as_hlo_text(self) -> str:
        return hlo_text(self.program, self.name)

    as_text = as_hlo_text

    def __str__(self) -> str:
        return self.as_hlo_text()

    __repr__ = __str__
