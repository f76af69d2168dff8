"""``custom_root``: a root finder differentiated implicitly (JAX's ``lax.custom_root``).

``x* = solve(f, initial_guess)`` with ``f(x*) = 0``.  The solver is never differentiated (it
may be a ``while_loop``, a bisection on the host, ...).  Derivatives with respect to the values
``f`` closes over (``theta``) come from the implicit function theorem: differentiating
``f(x*(theta), theta) = 0`` gives ``J_x dx* = -J_theta dtheta``, solved by the user's
``tangent_solve(g, y)`` with ``g = v -> J_x v`` (the linearization of ``f`` at the solution).
The closed-over values are made explicit arguments with `closure_convert`, and the rule is a
`custom_jvp`, so reverse mode comes from transposing the (linear) tangent computation and
every order composes.  ``initial_guess`` gets no derivative (the solution does not depend on
it), nor does the auxiliary output of ``has_aux=True`` solvers.
"""

from __future__ import annotations

from typing import Any, Callable

from ..core.trace import ConcretizationError
from ..transforms.ad import jvp
from ..transforms.closure_convert import closure_convert
from ..transforms.custom import custom_jvp, zero_from_primal
from ..tree_util import tree_map
from .elementwise import neg


def custom_root(f: Callable, initial_guess: Any, solve: Callable, tangent_solve: Callable,
                has_aux: bool = False) -> Any:
    """The root of ``f`` found by ``solve(f, initial_guess)``, with derivatives by the
    implicit function theorem through ``tangent_solve(g, y)`` (solve the linear ``g(x) = y``).

    ``solve`` may return ``(solution, aux)`` when ``has_aux``; ``custom_root`` then returns
    both (``aux`` without derivatives).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> from fgrad import lax
        >>> def newton(f, x):
        ...     for _ in range(30):
        ...         x = x - f(x) / fgrad.grad(f)(x)
        ...     return x
        >>> def sqrt(a):  # the root of x**2 - a
        ...     return lax.custom_root(lambda x: x ** 2 - a, 1.0, newton, lambda g, y: y / g(1.0))
        >>> float(sqrt(2.0)), float(fgrad.grad(sqrt)(2.0))  # d sqrt(a)/da = 1 / (2 sqrt(a))
        (1.414213562373095, 0.3535533905932738)
    """
    f_conv, consts = closure_convert(f, initial_guess)
    n_f = len(consts)
    solve_conv, solve_consts = _solver_closure(solve, f_conv, initial_guess, consts)

    @custom_jvp
    def root(guess, *cs):
        return solve_conv(guess, *cs)

    @root.defjvp
    def root_jvp(primals, tangents):
        guess, *all_cs = primals
        # the solver's own closed-over values get no derivative (as JAX's)
        cs, t_cs = all_cs[:n_f], list(tangents[1:1 + n_f])
        out = root(guess, *all_cs)
        solution = out[0] if has_aux else out
        # J_theta dtheta: f's tangent in the closed-over values, the solution held fixed
        _, rhs = jvp(lambda *c: f_conv(solution, *c), tuple(cs), tuple(t_cs))

        def linearized(v):  # J_x v at the solution
            return jvp(lambda x: f_conv(x, *cs), (solution,), (v,))[1]

        d_solution = tree_map(neg, tangent_solve(linearized, rhs))
        if has_aux:
            return out, (d_solution, tree_map(zero_from_primal, out[1]))
        return out, d_solution

    return root(initial_guess, *consts, *solve_consts)


def _solver_closure(solve: Callable, f_conv: Callable, initial_guess: Any, consts: list) -> tuple:
    """``(call, solve_consts)``: ``call(guess, *consts, *solve_consts)`` runs ``solve`` on
    ``f``, with the traced values ``solve`` itself closes over (a Newton solver using the
    outer ``grad``'s matrix, say) made explicit arguments, so that the rule's primal call does
    not meet another transform's tracers.  A solver that cannot be traced (a host loop on
    concrete values) is called as it is."""
    def solve_on(guess, *cs):
        return solve(lambda x: f_conv(x, *cs), guess)

    n_f = len(consts)
    try:
        converted, solve_consts = closure_convert(solve_on, initial_guess, *consts)
    except ConcretizationError:
        return (lambda guess, *cs: solve_on(guess, *cs[:n_f])), []
    return converted, solve_consts


__all__ = ["custom_root"]
