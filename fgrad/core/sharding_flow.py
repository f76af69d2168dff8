"""How arrays' shardings flow from operands to results, as JAX reports them on one device.

fgrad keeps every array whole on one device, so a sharding changes no layout; but JAX programs
print ``x.sharding`` and read ``.sharding.spec``, and JAX's answers follow a rule worth keeping
(its ``maybe_recover_user_shardings``): the *original* sharding of an operation is the first
operand's that was placed explicitly (`device_put` with a sharding, a jit's ``out_shardings``
or ``in_shardings``); a result

- with the rank of that operand, which descends from a mesh-placed array through its *first*
  operands (elementwise ops, transposes, slices, casts ...), keeps the original sharding
  (``x * 2``, ``x.T``: JAX compares the whole program's layout, which on one device always
  agrees, so even ``x.T`` keeps ``P('x', None)``);
- otherwise, on a mesh-placed original, is replicated over its mesh: ``NamedSharding(mesh, P())``
  (a sum, a reshape, ``ones + x``);
- a jit output that is one of its inputs is that input (its sharding); one that depends on no
  input (a constant) lives on its device (``SingleDeviceSharding``).

With no placed operand, results inside a `set_mesh` context are replicated over that mesh,
else on their device (the default, not recorded).

On a mesh with *Explicit* axes (`make_mesh`'s default) JAX types each value with its sharding
and propagates specs operation by operation; `explicit_spec` follows that for the operations
whose rule is plain (elementwise ops merge their operands' specs dimension by dimension,
aligned at the right; `transpose` permutes; reductions drop the reduced dimensions;
`broadcast_in_dim` maps dimensions; `dot_general` keeps batch and free dimensions); any other
operation's result is replicated (``P()``).

Nothing here costs the common path: `live` turns on the first time an array records a mesh
sharding or a mesh becomes current, and only then do eager operations and jit calls consult
these rules.

>>> import fgrad, fgrad.numpy as fnp
>>> from fgrad.sharding import NamedSharding, PartitionSpec as P
>>> mesh = fgrad.make_mesh((1,), ("x",))
>>> x = fgrad.device_put(fnp.arange(4.0), NamedSharding(mesh, P("x")))
>>> (x * 2).sharding.spec, x.sum().sharding.spec
(P('x',), P())
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Sequence

import numpy as np

from .array import ArrayImpl


class _CurrentMesh(threading.local):
    """The mesh `fgrad.sharding.set_mesh` made current (None outside any)."""

    mesh: Any = None


current = _CurrentMesh()
live = False  # True once any array records a mesh sharding or a mesh becomes current
# ``named(mesh, spec_entries)`` is ``NamedSharding(mesh, PartitionSpec(*spec_entries))``: set by
# `fgrad.sharding`, which defines the classes
named: Callable[[Any, tuple], Any] | None = None


def _is_var(v: Any) -> bool:
    """A program variable (a `core.ir.Var`), not a literal (which holds ``val``)."""
    return not hasattr(v, "val")


def _ndim(x: Any) -> int:
    return np.ndim(x._buf) if type(x) is ArrayImpl else np.ndim(x)


def mark_live() -> None:
    """From now on, eager operations and jit calls apply the rules of this module."""
    global live
    live = True


def is_mesh_sharding(s: Any) -> bool:
    """Whether ``s`` places an array over a mesh (a `NamedSharding`)."""
    return s is not None and getattr(s, "mesh", None) is not None and hasattr(s, "spec")


def recorded(x: Any) -> Any:
    """The sharding ``x`` was placed with explicitly (None for an unplaced array or non-array)."""
    return getattr(x, "_sharding", None) if type(x) is ArrayImpl else None


def _context_mesh() -> Any:
    m = current.mesh
    return m if m is not None and getattr(m, "devices", None) is not None else None


def _explicit(mesh: Any) -> bool:
    """Whether ``mesh`` has an Explicit axis (JAX then types values with their shardings)."""
    return any(getattr(t, "name", t) == "Explicit" for t in getattr(mesh, "axis_types", ()) or ())


def _spec(s: Any, ndim: int) -> tuple | None:
    """The spec entries of a mesh placement ``s`` padded to ``ndim`` (None: not mesh-placed)."""
    if not is_mesh_sharding(s):
        return None
    entries = tuple(s.spec)[:ndim]
    return entries + (None,) * (ndim - len(entries))


def explicit_spec(prim: Any, params: dict, specs: list, ndims: list, out_ndim: int) -> tuple | None:
    """The spec of a result of rank ``out_ndim`` of ``prim`` on operands with specs ``specs``
    (None for an unplaced operand) and ranks ``ndims``, by JAX's sharding-in-types rules on an
    Explicit mesh; None when no operand is placed."""
    if all(sp is None for sp in specs):
        return None
    name = getattr(prim, "name", None)
    family = getattr(prim, "family", None)
    out = [None] * out_ndim
    if family == "elementwise" or prim is None:  # (None: basic indexing, aligned at the right)
        for sp, nd in zip(specs, ndims):
            if sp is not None:
                for d in range(out_ndim):
                    k = d - (out_ndim - nd)
                    if 0 <= k < nd and out[d] is None:
                        out[d] = sp[k]
    elif name == "transpose" and specs[0] is not None:
        out = [specs[0][p] for p in params["permutation"]]
    elif "axes" in params and family == "reduction" and specs[0] is not None:
        axes = {a % max(ndims[0], 1) for a in params["axes"]}
        out = [e for k, e in enumerate(specs[0]) if k not in axes]
    elif name == "broadcast_in_dim" and specs[0] is not None:
        for k, d in enumerate(params["broadcast_dimensions"]):
            out[d] = specs[0][k]
    elif name == "dot_general" and len(specs) == 2:
        (lc, rc), (lb, rb) = params["dimension_numbers"]
        lhs, rhs = (sp if sp is not None else (None,) * nd for sp, nd in zip(specs, ndims))
        out = ([lhs[k] for k in lb] + [e for k, e in enumerate(lhs) if k not in lc and k not in lb]
               + [e for k, e in enumerate(rhs) if k not in rc and k not in rb])
    elif len(specs) == 1 and ndims[0] == out_ndim:  # slices, pads, reversals ... keep the layout
        out = list(specs[0])
    return tuple(out[:out_ndim])


def result_sharding(ndim: int, orig: Any, orig_ndim: int, from_mesh: bool, spec: tuple | None = None) -> Any:
    """The sharding a result of rank ``ndim`` records (None: its device's, unrecorded), given the
    operation's original sharding ``orig`` (of an operand of rank ``orig_ndim``; None when no
    operand was placed), whether the result descends from a mesh-placed array through first
    operands (``from_mesh``) and, on an Explicit mesh, its propagated ``spec``."""
    if orig is None:
        ctx = _context_mesh()
        return named(ctx, ()) if ctx is not None and named is not None else None
    if not is_mesh_sharding(orig) or named is None:
        return None
    if _explicit(orig.mesh):
        return named(orig.mesh, spec if spec is not None else ())
    if from_mesh and ndim == orig_ndim:
        return orig
    return named(orig.mesh, ())


def _original(operands: Sequence[Any], placed: Sequence[Any] | None = None) -> tuple[Any, int]:
    for i, a in enumerate(operands):
        s = recorded(a)
        if s is None and placed is not None:
            s = placed[i]
        if s is not None:
            return s, _ndim(a)
    return None, 0


def eager_results(args: Sequence[Any], res: Any, prim: Any = None, params: dict | None = None) -> Any:
    """Record on the results ``res`` (an array or a list) of one eagerly run operation
    ``prim`` (None: a slice or a creation) on ``args`` the shardings JAX reports for them."""
    orig, orig_ndim = _original(args)
    from_mesh = bool(args) and is_mesh_sharding(recorded(args[0]))
    explicit = orig is not None and is_mesh_sharding(orig) and _explicit(orig.mesh)
    if explicit:
        ndims = [_ndim(a) for a in args]
        specs = [_spec(recorded(a), nd) for a, nd in zip(args, ndims)]
    for r in (res if isinstance(res, list) else (res,)):
        if type(r) is ArrayImpl:
            nd = _ndim(r)
            spec = None
            if explicit:
                spec = explicit_spec(prim, params or {}, specs if prim is not None else specs[:1],
                                     ndims if prim is not None else ndims[:1], nd)
            s = result_sharding(nd, orig, orig_ndim, from_mesh, spec)
            if s is not None:
                r._sharding = s
    return res


def program_results(jaxpr: Any, flat_args: Sequence[Any], outs: list,
                    placed: Sequence[Any] | None = None) -> list:
    """Record on a jitted program's results ``outs`` (the flat list, in ``jaxpr.outvars``' order)
    the shardings JAX reports for them, given its flat arguments (``placed``: the jit's
    ``in_shardings`` for each, or None)."""
    for out, s in zip(outs, output_shardings(jaxpr, flat_args, placed)):  # noqa: B905 - metadata only
        if s is not None and type(out) is ArrayImpl:
            out._sharding = s
    return outs


def output_shardings(jaxpr: Any, flat_args: Sequence[Any], placed: Sequence[Any] | None = None) -> list:
    """The sharding each of ``jaxpr``'s outputs records for these arguments (None: unrecorded,
    its device's); see the module's rules."""
    orig, orig_ndim = _original(flat_args, placed)
    explicit = orig is not None and is_mesh_sharding(orig) and _explicit(orig.mesh)
    index = {v: i for i, v in enumerate(jaxpr.invars)}
    from_mesh = {v for v, a in zip(jaxpr.invars, flat_args) if is_mesh_sharding(recorded(a))}
    specs = ({v: _spec(recorded(a), len(v.aval.shape)) for v, a in zip(jaxpr.invars, flat_args)}
             if explicit else {})
    depends = set(jaxpr.invars)
    for eqn in jaxpr.eqns:
        ins = [v for v in eqn.invars if _is_var(v)]
        if not any(v in depends for v in ins):
            continue
        depends.update(eqn.outvars)
        first = eqn.invars[0] if eqn.invars else None
        if first is not None and _is_var(first) and first in from_mesh:
            from_mesh.update(eqn.outvars)
        if explicit:
            in_specs = [specs.get(v) if _is_var(v) else None for v in eqn.invars]
            ndims = [len(v.aval.shape) for v in eqn.invars]
            for o in eqn.outvars:
                specs[o] = explicit_spec(eqn.prim, eqn.params, in_specs, ndims, len(o.aval.shape))
    result = []
    for v in jaxpr.outvars:
        if not _is_var(v) or v not in depends:
            result.append(None)  # a constant: on its device
        elif v in index:
            a = flat_args[index[v]]
            result.append(recorded(a) or (placed[index[v]] if placed is not None else None))
        else:
            result.append(result_sharding(len(v.aval.shape), orig, orig_ndim, v in from_mesh, specs.get(v)))
    return result
