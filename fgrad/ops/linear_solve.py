"""``custom_linear_solve``: a linear solve with implicit derivatives (JAX's
``lax.custom_linear_solve``).

``x = solve(matvec, b)`` is one primitive whose parameters hold four traced functions
(`Branch`es, their captured constants passed as operands): ``matvec``, ``solve``, and for
reverse mode ``vecmat`` (the transpose of ``matvec``) and ``transpose_solve``.  The solver
itself is never differentiated, so it may be an iterative loop (``while_loop``, which has no
reverse mode) or call a host decomposition:

* JVP: ``dx = solve(matvec, db - dmatvec(x))`` -- the same primitive on the tangent, where
  ``dmatvec(x)`` is the JVP of ``matvec`` in its captured constants (tangents of the
  solver's own constants are ignored, as in JAX);
* transpose (the primitive is linear in ``b``): ``ct_b = transpose_solve(vecmat, ct_x)`` --
  the primitive with the roles of (matvec, solve) and (vecmat, transpose_solve) swapped;
* vmap: every function is vmapped, the right-hand side moved (or broadcast) to axis 0.

Higher orders compose: each rule binds the primitive again.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.array import get_aval
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule, deflinear_in, is_undefined
from ..transforms.ad import jvp, vjp
from ..transforms.batching import vmap
from ..tree_util import tree_flatten, tree_unflatten
from .control_flow import _as_arrays, _avals, _with_operands, _zeros_aval, trace_flat
from .shape import bdim_to_front, move_or_broadcast

_ROLES = ("matvec", "solve", "vecmat", "transpose_solve")


def _impl(xp, *args, matvec, solve, vecmat, transpose_solve, n_consts):
    off = n_consts[0]
    consts = list(args[off:off + n_consts[1]])
    return solve.run(xp, consts + list(args[sum(n_consts):]))


def _abstract(*avals, matvec, solve, vecmat, transpose_solve, n_consts):
    return solve.out_avals


linear_solve_p = Primitive("custom_linear_solve", _impl, _abstract, multiple_results=True, family="control")


def _split(args, n_consts):
    out, off = [], 0
    for n in n_consts:
        out.append(list(args[off:off + n]))
        off += n
    return out, list(args[off:])


def _bind(branches, consts, b):
    """Bind the primitive: ``branches``/``consts`` in `_ROLES` order (None for an absent one)."""
    flat = [c for cs in consts for c in cs]
    flat = _with_operands(flat, b)
    params = dict(zip(_ROLES, branches))
    return linear_solve_p.bind(*flat, *b, n_consts=tuple(len(cs) for cs in consts), **params)


def _jvp(primals, tangents, matvec, solve, vecmat, transpose_solve, n_consts):
    branches = (matvec, solve, vecmat, transpose_solve)
    consts, b = _split(primals, n_consts)
    tconsts, tb = _split(tangents, n_consts)
    x = _bind(branches, consts, b)
    mv_c, mv_t = consts[0], tconsts[0]
    if all(t is None for t in tb) and all(t is None for t in mv_t):
        return x, [None] * len(x)
    rhs = [t for t in tb]
    if any(t is not None for t in mv_t):
        moving = [k for k, t in enumerate(mv_t) if t is not None]

        def mv_of(*moved):          # matvec at x as a function of the constants with tangents
            full = list(mv_c)
            for k, v in zip(moving, moved):
                full[k] = v
            return matvec(*full, *x)

        # d(matvec)(x): the derivative of matvec in its captured constants at the solution
        dmv = jvp(mv_of, tuple(mv_c[k] for k in moving), tuple(mv_t[k] for k in moving))[1]
        rhs = [-d if t is None else t - d for t, d in zip(rhs, dmv)]
    rhs = [_zeros_aval(get_aval(xi), xi) if r is None else r for r, xi in zip(rhs, x)]
    return x, _bind(branches, consts, rhs)


def _transpose(cts, *args, matvec, solve, vecmat, transpose_solve, n_consts):
    consts, b = _split(args, n_consts)
    if any(is_undefined(c) for cs in consts for c in cs):
        raise ValueError("custom_linear_solve: the solve is linear in b only, not in the constants "
                         "its functions capture")
    if transpose_solve is None:
        raise TypeError("custom_linear_solve: reverse-mode differentiation needs transpose_solve "
                        "(or symmetric=True)")
    like = next((c for c in cts if c is not None), None)
    cts = [_zeros_aval(av, like) if c is None else c for c, av in zip(cts, solve.out_avals)]
    ct_b = _bind((vecmat, transpose_solve, matvec, solve), [consts[2], consts[3], consts[0], consts[1]], cts)
    return [None] * sum(n_consts) + list(ct_b)


def _batch(axis_size, vals, dims, matvec, solve, vecmat, transpose_solve, n_consts):
    consts, b = _split(vals, n_consts)
    cdims, bdims = _split(dims, n_consts)
    consts = [[c if d is None else bdim_to_front(c, d, axis_size) for c, d in zip(cs, ds)]
              for cs, ds in zip(consts, cdims)]
    cdims = [[None if d is None else 0 for d in ds] for ds in cdims]
    b = [move_or_broadcast(x, d, 0, axis_size) for x, d in zip(b, bdims)]
    n_b = len(b)
    b_avals = _avals(b)
    new_branches, new_consts = [], []
    for branch, cs, ds in zip((matvec, solve, vecmat, transpose_solve), consts, cdims):
        if branch is None:
            new_branches.append(None)
            new_consts.append([])
            continue

        def run(*a, branch=branch, cs=cs, ds=ds):
            return vmap(lambda *z: branch(*z), in_axes=tuple(ds + [0] * n_b),
                        axis_size=axis_size)(*cs, *a)

        br, captured = trace_flat(run, b_avals, "custom_linear_solve (vmap)")
        new_branches.append(br)
        new_consts.append(captured)
    out = _bind(tuple(new_branches), new_consts, b)
    return out, [0] * len(out)


defjvp_rule(linear_solve_p, _jvp)
deflinear_in(linear_solve_p, _transpose)
defbatch(linear_solve_p, _batch)


def _check_tree(what, tree, b_tree):
    if tree != b_tree:
        raise TypeError(f"custom_linear_solve: {what} must return the structure of b ({b_tree}), got {tree}")


def custom_linear_solve(matvec: Callable, b: Any, solve: Callable, transpose_solve: Callable | None = None,
                        symmetric: bool = False, has_aux: bool = False) -> Any:
    """``x = solve(matvec, b)`` for a linear ``matvec`` (pytrees allowed), differentiated
    implicitly: the solver is never differentiated, derivatives in ``b`` and in the values
    ``matvec`` closes over come from ``dx = solve(matvec, db - dmatvec(x))``, and reverse mode
    uses ``transpose_solve(vecmat, ct)`` (``solve`` itself when ``symmetric``).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad.lax import custom_linear_solve
        >>> a = fnp.asarray([[2.0, 0.0], [0.0, 4.0]])
        >>> f = lambda a, b: custom_linear_solve(lambda x: a @ x, b, lambda mv, r: fnp.linalg.solve(a, r),
        ...                                      symmetric=True)
        >>> f(a, fnp.asarray([2.0, 4.0]))
        Array([1., 1.], dtype=float64)
        >>> fgrad.grad(lambda b: f(a, b).sum())(fnp.asarray([2.0, 4.0]))
        Array([0.5 , 0.25], dtype=float64)
    """
    if has_aux:
        raise NotImplementedError("custom_linear_solve: has_aux=True is not supported; return the "
                                  "auxiliary data from the caller instead")
    b_flat, b_tree = tree_flatten(b)
    b_flat = _as_arrays(b_flat)
    b_avals = _avals(b_flat)

    def mv_flat(*xs):
        out_flat, tree = tree_flatten(matvec(tree_unflatten(b_tree, list(xs))))
        _check_tree("matvec", tree, b_tree)
        return _as_arrays(out_flat)

    def solve_with(solver, mv):
        def run(*rs):
            out = solver(lambda x: tree_unflatten(b_tree, mv(*tree_flatten(x)[0])),
                         tree_unflatten(b_tree, list(rs)))
            out_flat, tree = tree_flatten(out)
            _check_tree("solve", tree, b_tree)
            return _as_arrays(out_flat)
        return run

    mv_branch, mv_consts = trace_flat(mv_flat, b_avals, "custom_linear_solve (matvec)")
    out_avals = [(a.shape, a.dtype) for a in mv_branch.out_avals]
    if out_avals != [(a.shape, a.dtype) for a in b_avals]:
        raise TypeError(f"custom_linear_solve: matvec must map b's shapes and dtypes to themselves, got "
                        f"{[a for a in b_avals]} -> {out_avals}")
    s_branch, s_consts = trace_flat(solve_with(solve, mv_flat), b_avals, "custom_linear_solve (solve)")
    if symmetric:
        transpose_solve = solve
    if transpose_solve is None:
        vm_branch, vm_consts, ts_branch, ts_consts = None, [], None, []
    else:
        def vm_flat(*cts):
            zeros = [_zeros_aval(a, b_flat[0]) for a in b_avals]
            return list(vjp(mv_flat, *zeros)[1](list(cts)))

        vm_branch, vm_consts = trace_flat(vm_flat, b_avals, "custom_linear_solve (vecmat)")
        ts_branch, ts_consts = trace_flat(solve_with(transpose_solve, vm_flat), b_avals,
                                          "custom_linear_solve (transpose_solve)")
    x = _bind((mv_branch, s_branch, vm_branch, ts_branch), [mv_consts, s_consts, vm_consts, ts_consts],
              b_flat)
    return tree_unflatten(b_tree, list(x))


__all__ = ["custom_linear_solve", "linear_solve_p"]
