"""Static cost estimates of a program (a `Jaxpr`), for ``Compiled.cost_analysis`` and
``Compiled.memory_analysis`` (JAX reports XLA's estimates there; fgrad counts its own
program): floating-point operations, transcendental functions (as XLA, exp/log/sin/...
one per element, not counted as flops), bytes of the arguments and results, and an upper
bound of the temporaries.

Example::

    >>> import fgrad, fgrad.numpy as jnp
    >>> c = fgrad.jit(lambda a, b: a @ b).lower(jnp.ones((2, 3)), jnp.ones((3, 4))).compile()
    >>> c.cost_analysis()["flops"]
    48.0
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

__all__ = ["MemoryStats", "memory_stats", "program_costs"]


def _nbytes(aval) -> int:
    return math.prod(aval.shape) * np.dtype(aval.dtype).itemsize


def _size(aval) -> int:
    return math.prod(aval.shape)


# elementwise primitives XLA's cost analysis counts as one transcendental per element (not flops)
TRANSCENDENTAL = frozenset({
    "exp", "exp2", "log", "log1p", "expm1", "sin", "cos", "tan", "tanh", "sqrt", "rsqrt", "cbrt",
    "atan2", "pow", "erf", "erfc", "erf_inv", "asin", "acos", "atan", "sinh", "cosh", "asinh",
    "acosh", "atanh", "logistic", "lgamma", "digamma"})


def _eqn_transcendentals(eqn) -> float:
    """One per output element of a `TRANSCENDENTAL` primitive, sub-programs' added."""
    inner = sum(_eqn_transcendentals(e) for body in _bodies(eqn) for e in body.eqns)
    if eqn.primitive.name in TRANSCENDENTAL:
        inner += float(sum(_size(v.aval) for v in eqn.outvars))
    return inner


def _bodies(eqn) -> list:
    """The sub-programs of an equation's parameters (``pjit``/``jit`` bodies, loop bodies)."""
    found = []
    for value in eqn.params.values():
        body = getattr(value, "jaxpr", value)
        if hasattr(body, "eqns"):
            found.append(body)
    return found


def _eqn_flops(eqn) -> float:
    """2 M N K for a contraction (``dot_general``), none for a `TRANSCENDENTAL` primitive
    (counted as transcendentals), one per output element otherwise, and a sub-program's
    (``pjit``/``jit`` bodies, loop bodies once) flops added."""
    name = eqn.primitive.name
    if name in TRANSCENDENTAL:
        return 0.0
    if name == "dot_general":
        (lhs_contract, _), _ = eqn.params["dimension_numbers"]
        k = math.prod(eqn.invars[0].aval.shape[d] for d in lhs_contract)
        return 2.0 * _size(eqn.outvars[0].aval) * k
    inner = sum(_eqn_flops(e) for body in _bodies(eqn) for e in body.eqns)
    return inner + float(sum(_size(v.aval) for v in eqn.outvars))


def program_costs(jaxpr) -> dict[str, float]:
    """``{"flops": ..., "transcendentals": ..., "bytes accessed": ...}`` of one run of ``jaxpr``."""
    flops = sum(_eqn_flops(e) for e in jaxpr.eqns)
    transcendentals = sum(_eqn_transcendentals(e) for e in jaxpr.eqns)
    accessed = sum(_nbytes(v.aval) for v in (*jaxpr.invars, *jaxpr.outvars) if hasattr(v, "aval"))
    return {"flops": float(flops), "transcendentals": float(transcendentals),
            "bytes accessed": float(accessed)}


@dataclass(frozen=True)
class MemoryStats:
    """Sizes in bytes of a compiled program's arguments, results and temporaries (an upper
    bound: every intermediate alive at once), as JAX's ``CompiledMemoryStats`` names them."""

    argument_size_in_bytes: int
    output_size_in_bytes: int
    temp_size_in_bytes: int
    alias_size_in_bytes: int = 0
    generated_code_size_in_bytes: int = 0


def memory_stats(jaxpr) -> MemoryStats:
    """The `MemoryStats` of ``jaxpr``."""
    args = sum(_nbytes(v.aval) for v in jaxpr.invars)
    outs = sum(_nbytes(v.aval) for v in jaxpr.outvars if hasattr(v, "aval"))
    temps = sum(_nbytes(v.aval) for e in jaxpr.eqns for v in e.outvars)
    return MemoryStats(args, outs, max(temps - outs, 0))
