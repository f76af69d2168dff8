"""jit's pass that takes matrix products out of ``scan`` loops: fewer, larger GEMMs.

A recurrent network's loop does per step small products that do not need the loop:

* **forward:** ``x_t @ U`` reads only a scanned input and a constant.  The pass computes
  ``xs @ U`` for all steps before the loop (one GEMM with ``T`` times the rows) and gives the
  loop its rows as a new scanned input;
* **backward:** the weight gradients are carries that only accumulate products of per-step
  values, ``dW ← dW + h_tᵀ dz_t`` (or sums, ``db ← db + Σ dz_t``).  The pass drops the carry,
  stacks the per-step factors the loop computes (``dz_t``; scanned inputs such as ``h_t`` are
  stacked already) and after the loop adds ``dW₀ + Σ_t h_tᵀ dz_t`` as one product that
  contracts the step axis too.

The values are those of the loop up to the order of the sums (floating-point
reassociation): the accumulated products are summed by one GEMM instead of step after step.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> def loss(U, xs):
    ...     return fgrad.lax.scan(lambda h, x: (fnp.tanh(h + x @ U), None),
    ...                           fnp.zeros(2), xs)[0].sum()
    >>> g = fgrad.jit(fgrad.grad(loss))
    >>> U, xs = fnp.ones((3, 2)) / 4, fnp.ones((5, 3))
    >>> fnp.allclose(g(U, xs), fgrad.grad(loss)(U, xs))
    Array(True, dtype=bool)
"""

from __future__ import annotations

import math

import numpy as np

from ..core.array import ShapedArray
from ..core.ir import Eqn, Jaxpr, Literal, Var, has_effects, live_eqns
from ..core.primitive import PRIMITIVES

# the most bytes of new stacked arrays (hoisted products, stacked per-step factors) one loop
# may get: a loop that runs in constant memory must not need memory proportional to its
# length for large per-step values
STACK_BUDGET = 1 << 26


def _stacked_bytes(length: int, aval) -> int:
    return length * math.prod(aval.shape) * np.dtype(aval.dtype).itemsize


def batch_scan_products(prog) -> bool:
    """Rewrite every ``scan`` equation of ``prog`` (a `passes.Program`) as the module
    docstring says.  Returns whether anything changed."""
    out, changed = [], False
    for e in prog.eqns:
        new = _rewrite(e) if e.prim.name == "scan" else None
        if new is None:
            out.append(e)
        else:
            out.extend(new)
            changed = True
    prog.eqns = out
    return changed


def _uses(eqns, outvars) -> dict:
    n: dict = {}
    for e in eqns:
        for a in e.invars:
            if type(a) is not Literal:
                n[a] = n.get(a, 0) + 1
    for a in outvars:
        if type(a) is not Literal:
            n[a] = n.get(a, 0) + 1
    return n


def _plain_dot(e) -> bool:
    """A ``dot_general`` without batch dimensions, of two variables."""
    if e.prim.name != "dot_general":
        return False
    (lc, rc), (lb, rb) = e.params["dimension_numbers"]
    return not lb and not rb and not any(type(a) is Literal for a in e.invars)


def _rewrite(e):
    # the primitives by name (the compiler sits below the ops' transform rules: no import)
    add_p, dot_general_p, reduce_sum_p = (PRIMITIVES[n] for n in ("add", "dot_general", "reduce_sum"))
    p = e.params
    Branch = type(p["body"])  # the scan body's wrapper class (ops.control_flow.Branch)
    body, n_consts, n_carry, length = p["body"], p["n_consts"], p["n_carry"], p["length"]
    jx = body.jaxpr
    if length < 2 or jx.constvars or any(has_effects(q) for q in jx.eqns):
        return None
    eqns = live_eqns(jx.eqns, jx.outvars)[0]
    invars, outvars = list(jx.invars), list(jx.outvars)
    consts = set(invars[:n_consts])
    carry_in = invars[n_consts:n_consts + n_carry]
    xs_in = invars[n_consts + n_carry:]
    outer = list(e.invars)
    outer_xs = dict(zip(xs_in, outer[n_consts + n_carry:]))  # body x -> stacked outer value
    before, after = [], []
    new_xs: list = []  # (body invar, outer stacked value)

    # forward: x_t @ C -> rows of (xs @ C), computed before the loop
    kept = []
    budget = STACK_BUDGET
    for q in eqns:
        if (_plain_dot(q) and q.invars[0] in outer_xs and q.invars[1] in consts
                and type(outer[invars.index(q.invars[1])]) is not Literal
                and _stacked_bytes(length, q.outvars[0].aval) <= budget):
            budget -= _stacked_bytes(length, q.outvars[0].aval)
            (lc, rc), _ = q.params["dimension_numbers"]
            xo, co = outer_xs[q.invars[0]], outer[invars.index(q.invars[1])]
            av = q.outvars[0].aval
            stacked = Var(ShapedArray((length,) + tuple(av.shape), av.dtype, av.weak_type))
            before.append(Eqn(dot_general_p, [xo, co], [stacked], {
                "dimension_numbers": ((tuple(a + 1 for a in lc), tuple(rc)), ((), ()))}))
            new_xs.append((q.outvars[0], stacked))
            continue
        kept.append(q)
    eqns = kept
    outer_xs.update(new_xs)  # the hoisted rows are stacked outside too

    # backward: carries that only accumulate a product (or sum) of per-step values
    uses = _uses(eqns, outvars)
    producer = {v: q for q in eqns for v in q.outvars}
    drop_carry: list = []  # carry indices removed
    drop_eqns: set = set()
    stacked_of: dict = {}  # body value -> index among the new ys
    new_ys: list = []
    sinks = []  # (carry index, add eqn, product eqn, is_lhs of g in the add)
    # a weak carry the body makes strong is read through a same-dtype convert (JAX's staging)
    strong_of = {q.invars[0]: q for q in eqns
                 if q.prim.name == "convert_element_type" and type(q.invars[0]) is not Literal
                 and q.invars[0] in carry_in and q.params.get("new_dtype") == q.invars[0].aval.dtype
                 and uses.get(q.outvars[0]) == 1}
    for k, g in enumerate(carry_in):
        o = outvars[k]
        a = producer.get(o)
        if a is None or a.prim is not add_p or uses.get(g) != 1 or uses.get(o) != 1:
            continue
        cq = strong_of.get(g)
        gv = cq.outvars[0] if cq is not None and cq.outvars[0] in a.invars else g
        if gv not in a.invars:
            continue
        pv = a.invars[1] if a.invars[0] is gv else a.invars[0]
        if type(pv) is Literal or pv is gv or uses.get(pv) != 1:
            continue
        pq = producer.get(pv)
        if pq is None or tuple(pv.aval.shape) != tuple(g.aval.shape) or pv.aval.dtype != g.aval.dtype:
            continue
        if o.aval.dtype != g.aval.dtype or tuple(o.aval.shape) != tuple(g.aval.shape):
            continue
        if not ((_plain_dot(pq) or pq.prim is reduce_sum_p)
                and all(type(u) is not Literal and u not in consts and u not in carry_in
                        for u in pq.invars)):
            continue
        cost = sum(_stacked_bytes(length, u.aval) for u in set(pq.invars) - set(outer_xs))
        if cost > budget:
            continue
        budget -= cost
        if gv is not g:
            drop_eqns.add(id(cq))
        sinks.append((k, a, pq, a.invars[0] is gv))
    if not sinks and not new_xs:
        return None
    for k, a, pq, g_first in sinks:
        drop_carry.append(k)
        drop_eqns.add(id(a))
        drop_eqns.add(id(pq))
        ops = []
        for u in pq.invars:
            if u in outer_xs:
                ops.append(outer_xs[u])
                continue
            if u not in stacked_of:
                stacked_of[u] = len(new_ys)
                new_ys.append(u)
            ops.append(("ys", stacked_of[u]))
        after.append((k, a, pq, g_first, ops))
    eqns = [q for q in eqns if id(q) not in drop_eqns]

    # the new body: consts, kept carries, old xs + hoisted rows; kept carry outs, ys, new ys
    keep = [k for k in range(n_carry) if k not in drop_carry]
    b_out = [outvars[k] for k in keep] + outvars[n_carry:] + new_ys
    body_eqns, read = live_eqns(eqns, b_out)
    # constants and scanned inputs the new body no longer reads are not passed (nor sliced)
    c_keep = [j for j in range(n_consts) if invars[j] in read]
    xs_all = list(zip(xs_in, outer[n_consts + n_carry:])) + new_xs
    xs_keep = [(v, o) for v, o in xs_all if v in read]
    b_in = [invars[j] for j in c_keep] + [carry_in[k] for k in keep] + [v for v, _ in xs_keep]
    new_jx = Jaxpr([], b_in, body_eqns, b_out)
    n_ys_old = len(outvars) - n_carry
    ys_avals = [ShapedArray((length,) + tuple(u.aval.shape), u.aval.dtype, u.aval.weak_type) for u in new_ys]
    scan_out = [e.outvars[k] for k in keep] + list(e.outvars[n_carry:]) + [Var(av) for av in ys_avals]
    stacked_new = scan_out[len(keep) + n_ys_old:]
    scan_in = ([outer[j] for j in c_keep] + [outer[n_consts + k] for k in keep]
               + [o for _, o in xs_keep])
    new_scan = Eqn(e.prim, scan_in, scan_out, {
        **p, "body": Branch(new_jx, len(c_keep)), "n_consts": len(c_keep), "n_carry": len(keep)})
    post = []
    for k, a, pq, g_first, ops in after:
        ops = [stacked_new[o[1]] if type(o) is tuple else o for o in ops]
        pv = pq.outvars[0]
        total = Var(ShapedArray(tuple(pv.aval.shape), pv.aval.dtype, pv.aval.weak_type))
        if pq.prim is reduce_sum_p:
            axes = (0,) + tuple(x + 1 for x in pq.params["axes"])
            post.append(Eqn(pq.prim, ops, [total], {**pq.params, "axes": axes}))
        else:
            (lc, rc), _ = pq.params["dimension_numbers"]
            dn = (((0,) + tuple(x + 1 for x in lc), (0,) + tuple(x + 1 for x in rc)), ((), ()))
            post.append(Eqn(pq.prim, ops, [total], {"dimension_numbers": dn}))
        init = outer[n_consts + k]
        post.append(Eqn(a.prim, [init, total] if g_first else [total, init], [e.outvars[k]], a.params))
    return before + [new_scan] + post


__all__ = ["batch_scan_products"]
