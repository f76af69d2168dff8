"""Transposition of linear programs: the backward pass of reverse mode.

`linearize` gives a jaxpr that is linear in its inputs.  `backward_pass` walks it from the
end, handing each equation's output cotangent to its primitive's ``transpose`` rule.  The
rules are written with fgrad ops, so the backward pass can itself be differentiated,
batched or staged: that is how `grad(grad(f))`, `vmap(grad(f))` and `jit(grad(f))` work.
"""

from __future__ import annotations

from ..core.ir import Jaxpr, Literal
from ..core.provenance import register_rule_frame
from ..core.rules import UndefinedPrimal, add_tangents, is_undefined

__all__ = ["UndefinedPrimal", "backward_pass", "is_undefined"]


def _add_ct(a, b):
    return add_tangents(a, b)


def backward_pass(jaxpr: Jaxpr, consts, cts_out) -> list:
    """Cotangents of ``jaxpr.invars`` given cotangents of its outputs (None = zero)."""
    const_env = {id(v): c for v, c in zip(jaxpr.constvars, consts)}
    ct_env: dict[int, object] = {}
    for v, ct in zip(jaxpr.outvars, cts_out):
        if type(v) is not Literal and id(v) not in const_env and ct is not None:
            ct_env[id(v)] = _add_ct(ct_env.get(id(v)), ct)
    for eqn in reversed(jaxpr.eqns):
        cts = [ct_env.pop(id(v), None) for v in eqn.outvars]
        if all(c is None for c in cts):
            continue
        args = []
        for v in eqn.invars:
            if type(v) is Literal:
                args.append(v.val)
            elif id(v) in const_env:
                args.append(const_env[id(v)])
            else:
                args.append(UndefinedPrimal(v.aval))
        prim = eqn.prim
        if prim.transpose is None:
            raise NotImplementedError(
                f"Reverse-mode differentiation needs a transpose rule for the linear use of "
                f"primitive '{prim.name}', which has none."
            )
        ct_in = prim.transpose(cts if prim.multiple_results else cts[0], *args, **eqn.params)
        for v, a, ct in zip(eqn.invars, args, ct_in):
            if ct is not None and type(a) is UndefinedPrimal:
                ct_env[id(v)] = _add_ct(ct_env.get(id(v)), ct)
    return [ct_env.get(id(v)) for v in jaxpr.invars]


register_rule_frame(backward_pass.__code__, "transpose")  # read by the NaN/inf checks' error
