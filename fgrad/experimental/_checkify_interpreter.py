"""The interpreter behind `checkify`: runs a traced program with an error value threaded
through it (JAX's functionalization of checks).

The error state is a flat list of arrays: ``[failed, code, *payload]``, ``failed`` a boolean
scalar (an error happened), ``code`` the index of the first failing `CheckSite` in
`Interpreter.sites`, and per site the array leaves of its message's arguments, written only
by the check that set the error.  A first pass (`Interpreter.collect`) walks the program and
its nested programs (``cond`` branches, loop bodies, ``jit`` programs, custom-rule
functions) and gives every check a site: the ``check`` equations (user checks,
``check_error``) and, for the enabled automatic checks, the operations that can produce a
NaN, divide by zero or index out of bounds.  The second pass (`Interpreter.run`) evaluates
the program under the current trace (so ``jit``, ``vmap`` and ``grad`` around `checkify`
transform it) and updates the state after each checked operation; control flow is rebuilt
with the state as an extra carry / operand (``lax.cond``, ``scan``, ``while_loop`` of the
interpreted bodies), ``jit`` programs with checks are interpreted inline, and
``custom_jvp``/``custom_vjp`` calls keep their rules (the call is bound as it is and its
function is interpreted again for the errors only).
"""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np

from ..core.array import ArrayImpl, Tracer, wrap
from ..core.constants import constant_like
from ..core.ir import Jaxpr, Literal, eval_jaxpr
from ..core.narrow_floats import dtype_kind
from ..ops.checks import CheckSite, oob_site
from ..ops.control_flow import _bind_cond, _bind_scan, _bind_while
from ..transforms.jit import jit
import fgrad.numpy as fnp

__all__ = ["Interpreter", "NAN_PRIMITIVES", "first_placed"]

# primitives whose NaN results JAX's ``nan_checks`` report, fgrad name -> JAX's name
NAN_PRIMITIVES = {n: n for n in (
    "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bessel_i0e", "bessel_i1e",
    "cbrt", "conv_general_dilated", "cos", "cosh", "cumlogsumexp", "cummax", "cummin", "cumprod",
    "cumsum", "custom_linear_solve", "digamma", "dot_general", "erf", "erf_inv", "erfc", "exp",
    "expm1", "fft", "igamma", "igamma_grad_a", "igammac", "integer_pow", "lgamma", "log", "log1p", "logistic",
    "mul", "pad", "pow", "psum", "reduce_prod", "reduce_sum", "rem", "rsqrt", "sin", "sinh",
    "sqrt", "sub", "tan", "tanh")}
# fgrad primitives for what JAX computes with one of the above
NAN_PRIMITIVES.update({"log10": "log", "log2": "log", "remainder": "rem",
                       "betainc": "regularized_incomplete_beta", "psum_named": "psum",
                       "polygamma": "polygamma", "zeta": "zeta", "gamma": "lgamma",
                       "ndtri": "erf_inv", "log_ndtr": "log"})

_DIVISIONS = ("div", "floor_divide")
_INDEXING = {"gather": 1, "scatter": 2}  # primitive -> position of its first index array


def _nested(eqn) -> list[tuple[str, Jaxpr]]:
    """The programs an equation runs: ``(role, jaxpr)``."""
    p, name = eqn.params, eqn.prim.name
    if name == "cond":
        return [("branch", b.jaxpr) for b in p["branches"]]
    if name == "scan":
        return [("body", p["body"].jaxpr)]
    if name == "while":
        return [("cond", p["cond"].jaxpr), ("body", p["body"].jaxpr)]
    if name == "jit":
        return [("jit", p["closed"].jaxpr)]
    if name in ("custom_jvp_call", "custom_vjp_call"):
        return [("fun", p["fun"].jaxpr)]
    return []


def _is_inexact(aval) -> bool:
    return dtype_kind(aval.dtype) in "fc"


def _indexed_axes(indexer, shape: tuple) -> list[tuple[int, object]]:
    """``(axis of the operand, index-array operand)`` for each array entry of an indexer, and
    ``(axis, ("i", index))`` for each static integer entry out of bounds for ``shape`` (a
    Python ``x[5]``: clamped like a traced index, so reported as JAX reports it)."""
    out, axis = [], 0
    for entry in indexer:
        tag = entry[0]
        if tag == "a":
            out.append((axis, entry[1]))
        if tag == "i" and not -shape[axis] <= entry[1] < shape[axis]:
            out.append((axis, ("i", int(entry[1]))))
        if tag in ("s", "i", "a"):
            axis += 1
    return out


def _static_oob(indexer, shape: tuple) -> list[tuple[int, int]]:
    """``(axis, index)`` for each static integer entry of an indexer outside its axis (JAX
    stages such an ``x[5]`` as a dynamic slice, which checkify checks); negative ones counted
    from the end, as the message shows them."""
    out, axis = [], 0
    for entry in indexer:
        tag = entry[0]
        if tag == "i" and not -shape[axis] <= entry[1] < shape[axis]:
            out.append((axis, entry[1] + shape[axis] if entry[1] < 0 else entry[1]))
        if tag in ("s", "i", "a"):
            axis += 1
    return out


class Interpreter:
    """Sites and state of one `checkify` call; ``enabled`` holds the check kinds to run
    (``"check"``, ``"nan"``, ``"oob"``, ``"div"``)."""

    def __init__(self, enabled: frozenset) -> None:
        self.enabled = enabled
        self.sites: list[CheckSite] = []
        self._index: dict[CheckSite, int] = {}
        self._slots: dict[CheckSite, int] = {}  # where each site's payload starts in the state
        self._n_slots = 2
        self._auto: dict[tuple[int, Any], CheckSite] = {}
        self._has_sites: dict[int, bool] = {}
        self._alive: list = []  # keeps the programs scanned alive, so their ids stay unique

    # ---- pass 1: the sites ---------------------------------------------------------------

    def _add(self, site: CheckSite) -> None:
        if site not in self._index:
            self._index[site] = len(self.sites)
            self._slots[site] = self._n_slots
            self._n_slots += len(site.avals)
            self.sites.append(site)

    def collect(self, jaxpr: Jaxpr) -> bool:
        """Give every check in ``jaxpr`` (and its nested programs) a site; whether it has any."""
        key = id(jaxpr)
        if key in self._has_sites:
            return self._has_sites[key]
        self._alive.append(jaxpr)
        found = False
        for e in jaxpr.eqns:
            name = e.prim.name
            if name == "check":
                if any(s.kind in self.enabled for s in e.params["sites"]):
                    for s in e.params["sites"]:
                        self._add(s)
                    found = True
                continue
            if name == "jit":
                sub = _compiled(e.params["closed"], self.enabled)[0]
                for s in sub.sites:
                    self._add(s)
                found = found or bool(sub.sites)
                continue
            for _, sub in _nested(e):
                found = self.collect(sub) or found
            if _nested(e):
                continue
            for tag, site in self._automatic_sites(e):
                self._auto[(id(e), tag)] = site
                self._add(site)
                found = True
        self._has_sites[key] = found
        return found

    def _automatic_sites(self, e):
        name = e.prim.name
        if "nan" in self.enabled and name in NAN_PRIMITIVES and any(
                _is_inexact(v.aval) for v in e.outvars):
            shown = NAN_PRIMITIVES[name]
            if name == "pow" and type(e.invars[1]) is Literal and isinstance(e.invars[1].val, int):
                shown = "integer_pow"
            yield "nan", CheckSite("nan", f"nan generated by primitive: {shown}.", None, ())
        if "div" in self.enabled and name in _DIVISIONS:
            y = e.invars[1]
            if not (type(y) is Literal and y.val != 0):
                yield "div", CheckSite("div", "division by zero", None, ())
        if "oob" in self.enabled and name in _INDEXING:
            shape = tuple(e.invars[0].aval.shape)
            for axis, j in _indexed_axes(e.params["indexer"], shape):
                yield ("oob", axis, j), oob_site(shape, axis)
            for axis, i in _static_oob(e.params["indexer"], shape):
                yield ("oob_static", axis, i), oob_site(shape, axis)

    # ---- the state ------------------------------------------------------------------------

    def initial_state(self, like) -> list:
        """``[failed, code, *payload]`` with no error, placed like ``like`` (or the default
        device when None)."""
        def const(v):
            return constant_like(v, like) if like is not None else fnp.asarray(v)
        state = [const(np.bool_(False)), const(np.int64(0))]
        for s in self.sites:
            state += [const(np.zeros(a.shape, a.dtype)) for a in s.avals]
        return state

    def _slot(self, site: CheckSite) -> int:
        return self._slots[site]

    def _fail(self, state: list, site: CheckSite, bad, payload) -> list:
        """The state after a check of ``site`` that failed where ``bad``."""
        failed, code = state[0], state[1]
        new = fnp.logical_and(bad, fnp.logical_not(failed))
        out = list(state)
        out[0] = fnp.logical_or(failed, bad)
        # (the code keeps its dtype: a loop carries the state with the dtypes it started with)
        out[1] = fnp.where(new, fnp.asarray(self._index[site], dtype=code.dtype), code)
        start = self._slot(site)
        for i, p in enumerate(payload):
            old = state[start + i]
            out[start + i] = fnp.where(new, fnp.asarray(p, dtype=old.dtype), old)
        return out

    # ---- pass 2: evaluation ----------------------------------------------------------------

    def run(self, jaxpr: Jaxpr, consts, args, state: list) -> tuple[list, list]:
        """Evaluate ``jaxpr`` under the current trace, threading the error state."""
        box = [state]

        def eqn_rule(e, ins):
            outs, box[0] = self._eqn(e, ins, box[0])
            return outs

        return eval_jaxpr(jaxpr, consts, args, eqn_rule), box[0]

    def _bind(self, e, ins) -> list:
        out = e.prim.bind(*ins, **e.params)
        return list(out) if e.prim.multiple_results else [out]

    def _eqn(self, e, ins, state):
        name = e.prim.name
        if name == "check":
            return [], self._check(e, ins, state)
        if name == "jit":
            return self._jit(e, ins, state)
        nested = _nested(e)
        if nested:
            if not any(self.collect(j) for _, j in nested):
                return self._bind(e, ins), state
            return getattr(self, "_" + name)(e, ins, state)
        outs = self._bind(e, ins)
        for tag, site in self._sites_of(e):
            bad, payload = self._detect(e, tag, ins, outs)
            state = self._fail(state, site, bad, payload)
        return outs, state

    def _sites_of(self, e):
        for tag in ("nan", "div"):
            site = self._auto.get((id(e), tag))
            if site is not None:
                yield tag, site
        if e.prim.name in _INDEXING:
            for axis, j in _indexed_axes(e.params["indexer"], tuple(e.invars[0].aval.shape)):
                site = self._auto.get((id(e), ("oob", axis, j)))
                if site is not None:
                    yield ("oob", axis, j), site
            for axis, i in _static_oob(e.params["indexer"], tuple(e.invars[0].aval.shape)):
                site = self._auto.get((id(e), ("oob_static", axis, i)))
                if site is not None:
                    yield ("oob_static", axis, i), site

    def _detect(self, e, tag, ins, outs):
        if tag == "nan":
            flags = [fnp.any(fnp.isnan(o)) for o, v in zip(outs, e.outvars) if _is_inexact(v.aval)]
            bad = flags[0]
            for f in flags[1:]:
                bad = fnp.logical_or(bad, f)
            return bad, []
        if tag == "div":
            return fnp.any(fnp.asarray(ins[1]) == 0), []
        kind, axis, j = tag
        if kind == "oob_static":  # known while tracing: always out of bounds
            return fnp.asarray(True), [fnp.asarray(j, dtype=np.int64)]
        n = e.invars[0].aval.shape[axis]
        if isinstance(j, tuple):  # a static integer index, out of bounds
            v = j[1]
            return fnp.asarray(True), [fnp.asarray(v + n if v < 0 else v, dtype=np.int64)]
        idx = fnp.ravel(fnp.asarray(ins[_INDEXING[e.prim.name] + j]).astype(np.int64))
        outside = fnp.logical_or(idx < -n, idx >= n)
        if idx.shape[0] == 0:
            return fnp.asarray(False), [fnp.asarray(0, dtype=np.int64)]
        first = idx[fnp.argmax(outside)]
        return fnp.any(outside), [fnp.where(first < 0, first + n, first)]

    def _check(self, e, ins, state):
        sites = e.params["sites"]
        if not any(s.kind in self.enabled for s in sites):
            return state
        ok, code, *payload = ins
        bad = fnp.logical_not(ok)
        start = 0
        for j, s in enumerate(sites):
            leaves = payload[start:start + len(s.avals)]
            start += len(s.avals)
            hit = bad if len(sites) == 1 else fnp.logical_and(bad, fnp.asarray(code) == j)
            state = self._fail(state, s, hit, leaves)
        return state

    # ---- nested programs ----------------------------------------------------------------

    def _jit(self, e, ins, state):
        """A ``jit`` program with checks runs as a jitted, checkified program (compiled once
        per program and signature); its own error state is merged into this one."""
        sub, compiled = _compiled(e.params["closed"], self.enabled)
        if not sub.sites:
            return self._bind(e, ins), state
        res = compiled(*ins)
        n_out = len(e.outvars)
        outs, local = list(res[:n_out]), list(res[n_out:])
        failed, code = state[0], state[1]
        new = fnp.logical_and(local[0], fnp.logical_not(failed))
        state = list(state)
        state[0] = fnp.logical_or(failed, local[0])
        codes = np.asarray([self._index[s] for s in sub.sites], dtype=np.int64)
        state[1] = fnp.where(new, fnp.asarray(codes, dtype=code.dtype)[local[1]], code)
        offset = 2
        for j, site in enumerate(sub.sites):
            if not site.avals:
                continue
            take = fnp.logical_and(new, local[1] == j)
            start = self._slot(site)
            for i in range(len(site.avals)):
                state[start + i] = fnp.where(take, local[offset + i], state[start + i])
            offset += len(site.avals)
        return outs, state

    def _custom_call(self, e, ins, state, n_fun_consts: int, n_skip: int):
        outs = self._bind(e, ins)  # values and derivatives from the call, rules kept
        fun = e.params["fun"]
        consts = [c if isinstance(c, (ArrayImpl, Tracer)) else wrap(c) for c in fun.consts]
        args = list(ins[:n_fun_consts]) + list(ins[n_skip:])
        _, state = self.run(fun.jaxpr, consts, args, state)  # for the errors only
        return outs, state

    def _custom_jvp_call(self, e, ins, state):
        nf, nj = e.params["n_fun_consts"], e.params["n_jvp_consts"]
        return self._custom_call(e, ins, state, nf, nf + nj)

    def _custom_vjp_call(self, e, ins, state):
        n = e.params["n_consts"]
        return self._custom_call(e, ins, state, n[0], sum(n))

    def _cond(self, e, ins, state):
        branches, n_consts = e.params["branches"], e.params["n_consts"]
        index, rest = ins[0], list(ins[1:])
        total, n_out, ns = sum(n_consts), len(e.outvars), len(state)
        n_ops = len(rest) - total

        def make(k):
            off = sum(n_consts[:k])

            def branch(*xs):
                consts = list(xs[off:off + n_consts[k]])
                ops = list(xs[total:total + n_ops])
                outs, st = self.run(branches[k].jaxpr, [], consts + ops, list(xs[total + n_ops:]))
                return list(outs) + list(st)
            return branch

        res = _bind_cond(index, [make(k) for k in range(len(branches))], rest + list(state), "cond")
        return list(res[:n_out]), list(res[n_out:n_out + ns])

    def _scan(self, e, ins, state):
        p = e.params
        body, n_consts, n_carry = p["body"], p["n_consts"], p["n_carry"]
        consts, carry, xs = ins[:n_consts], ins[n_consts:n_consts + n_carry], ins[n_consts + n_carry:]
        ns = len(state)

        def step(*a):
            c = list(a[n_consts:n_consts + n_carry])
            st = list(a[n_consts + n_carry:n_consts + n_carry + ns])
            x = list(a[n_consts + n_carry + ns:])
            outs, st = self.run(body.jaxpr, [], list(a[:n_consts]) + c + x, st)
            return list(outs[:n_carry]) + list(st) + list(outs[n_carry:])

        res = _bind_scan(step, list(consts), list(carry) + list(state), list(xs), p["length"],
                         p["reverse"], "scan")
        return list(res[:n_carry]) + list(res[n_carry + ns:]), list(res[n_carry:n_carry + ns])

    def _while(self, e, ins, state):
        p = e.params
        cond, body, n_cc, n_bc = p["cond"], p["body"], p["n_cc"], p["n_bc"]
        cc, bc, carry = ins[:n_cc], ins[n_cc:n_cc + n_bc], ins[n_cc + n_bc:]
        n = len(carry)

        def pred(*a):
            outs, _ = self.run(cond.jaxpr, [], list(a[:n_cc]) + list(a[n_cc:n_cc + n]),
                               list(a[n_cc + n:]))
            return outs

        def step(*a):  # a = cc + bc + carry + state: the errors of the test that let it run
            c, b = list(a[:n_cc]), list(a[n_cc:n_cc + n_bc])
            car, st = list(a[n_cc + n_bc:n_cc + n_bc + n]), list(a[n_cc + n_bc + n:])
            _, st = self.run(cond.jaxpr, [], c + car, st)
            outs, st = self.run(body.jaxpr, [], b + car, st)
            return list(outs) + list(st)

        res = _bind_while(pred, step, list(cc), list(cc) + list(bc), list(carry) + list(state),
                          "while_loop")
        carry_out, state = list(res[:n]), list(res[n:])
        _, state = self.run(cond.jaxpr, [], list(cc) + carry_out, state)  # the final test
        return carry_out, state


def first_placed(values) -> Any:
    """The first Array or tracer of ``values`` (where the error state is placed), or None."""
    for v in values:
        if isinstance(v, (ArrayImpl, Tracer)):
            return v
    return None


# jit programs -> {enabled kinds: (their interpreter, the jitted checkified program)}
_COMPILED: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _compiled(closed, enabled: frozenset):
    """The interpreter of a ``jit`` program (its own sites, numbered once, so the sites are
    the same objects at every call) and the program checkified and jitted."""
    per_program = _COMPILED.setdefault(closed, {})
    hit = per_program.get(enabled)
    if hit is not None:
        return hit
    sub = Interpreter(enabled)
    sub.collect(closed.jaxpr)
    consts = [c if isinstance(c, (ArrayImpl, Tracer)) else wrap(c) for c in closed.consts]
    jaxpr = closed.jaxpr  # the closure must not hold ``closed``: it is the cache's weak key

    def checked(*args):
        state = sub.initial_state(first_placed(list(args) + consts))
        outs, state = sub.run(jaxpr, consts, list(args), state)
        return list(outs) + list(state)

    checked.__name__ = f"checkify_{getattr(closed, 'name', 'jit')}"
    hit = (sub, jit(checked))
    per_program[enabled] = hit
    return hit
