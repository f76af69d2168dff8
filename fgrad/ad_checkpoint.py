"""`checkpoint` (alias `remat`): rematerialization, trading compute for memory in reverse mode
(JAX's ``jax.checkpoint``).

Under ``grad``/``vjp``, a checkpointed function keeps only its inputs for the backward pass
and recomputes its intermediate values there (one block at a time), instead of storing every
intermediate of the forward pass.  Values, derivatives of every order, ``jit`` and ``vmap``
are unchanged; forward mode (``jvp``/``jacfwd``) simply differentiates the function.

Policies (`checkpoint_policies`) keep JAX's names and signature
(``policy(prim, *avals, **params) -> bool``: may this result be saved?).  fgrad honours
``everything_saveable`` (no rematerialization) and otherwise saves only the inputs: with
``dots_saveable``, ``save_only_these_names`` etc. it recomputes more than JAX would (same
results, less memory, more compute).  `checkpoint_name` tags a value for the name policies.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> block = fgrad.checkpoint(lambda x: fnp.sin(fnp.sin(x)))
    >>> fgrad.grad(lambda x: block(block(x)))(0.5)
    Array(0.62933451, dtype=float64)
"""

from __future__ import annotations

import functools
from typing import Any, Callable, Sequence

from .core.array import Tracer
from .transforms.custom import custom_vjp
from .transforms.ad import vjp
from .transforms.jvp_trace import JVPTracer
from .transforms.staging import StagingTracer
from .tree_util import tree_flatten, tree_unflatten

__all__ = ["checkpoint", "remat", "checkpoint_name", "checkpoint_policies"]


def checkpoint_name(x: Any, name: str) -> Any:
    """``x`` itself, tagged ``name`` for the name-based policies (JAX's
    ``jax.ad_checkpoint.checkpoint_name``).

    Example::

        >>> checkpoint_name(3.0, "h")
        3.0
    """
    if not isinstance(name, str):
        raise TypeError(f"checkpoint_name: name must be a string, got {type(name).__name__}")
    return x


def _never(*_, **__) -> bool:
    return False


def _always(*_, **__) -> bool:
    return True


def _is_dot(prim, *_, **__) -> bool:
    return getattr(prim, "name", str(prim)) == "dot_general"


def _dot_without_batch_dims(prim, *_, **params) -> bool:
    if not _is_dot(prim):
        return False
    dims = params.get("dimension_numbers")
    try:
        (_, _), (lb, rb) = dims
    except (TypeError, ValueError):
        return True
    return not lb and not rb


def _names_policy(names: Sequence[str], keep: bool) -> Callable[..., bool]:
    names = frozenset(names)

    def policy(prim, *_, **params) -> bool:
        if getattr(prim, "name", str(prim)) != "name":
            return False
        return (params.get("name") in names) == keep

    policy.names = names  # type: ignore[attr-defined]
    return policy


class _Policies:
    """JAX's ``jax.checkpoint_policies`` (see the module docstring for what fgrad honours)."""

    everything_saveable = staticmethod(_always)
    nothing_saveable = staticmethod(_never)
    dots_saveable = staticmethod(_is_dot)
    checkpoint_dots = staticmethod(_is_dot)
    dots_with_no_batch_dims_saveable = staticmethod(_dot_without_batch_dims)
    checkpoint_dots_with_no_batch_dims = staticmethod(_dot_without_batch_dims)

    @staticmethod
    def save_only_these_names(*names: str) -> Callable[..., bool]:
        return _names_policy(names, True)

    @staticmethod
    def save_any_names_but_these(*names: str) -> Callable[..., bool]:
        return _names_policy(names, False)

    @staticmethod
    def save_from_both_policies(a: Callable, b: Callable) -> Callable[..., bool]:
        return lambda *args, **params: a(*args, **params) or b(*args, **params)

    @staticmethod
    def save_and_offload_only_these_names(*, names_which_can_be_saved=(), names_which_can_be_offloaded=(),
                                          offload_src="device", offload_dst="pinned_host"):
        # one memory space: an offloadable value is simply saved
        return _names_policy(tuple(names_which_can_be_saved) + tuple(names_which_can_be_offloaded), True)

    @staticmethod
    def offload_dot_with_no_batch_dims(offload_src="device", offload_dst="pinned_host"):
        return _dot_without_batch_dims


checkpoint_policies = _Policies()


def _forward_mode(leaves) -> bool:
    """True if an input carries a forward-mode tangent (``jvp``), as opposed to the staged
    tangent of reverse mode's linearization."""
    for x in leaves:
        if type(x) is JVPTracer and x.tangent is not None:
            t = x.tangent
            if not (type(t) is StagingTracer and t._trace.partial):
                return True
    return False


def checkpoint(fun: Callable | None = None, *, prevent_cse: bool = True, policy: Callable | None = None,
               static_argnums: int | Sequence[int] = ()) -> Callable:
    """``fun`` recomputed in the backward pass instead of storing its intermediates.  Usable
    as ``checkpoint(f)``, ``@checkpoint`` or ``@checkpoint(policy=..., static_argnums=...)``.
    ``static_argnums`` are passed through as Python values (not differentiated);
    ``prevent_cse`` is accepted for JAX compatibility (fgrad's recomputation is traced after
    the forward pass, from the saved inputs).

    Example::

        >>> import fgrad, fgrad.numpy as fnp
        >>> @fgrad.checkpoint(static_argnums=(1,))
        ... def power_chain(x, n):
        ...     for _ in range(n):
        ...         x = fnp.sin(x)
        ...     return x
        >>> float(fgrad.grad(power_chain)(0.4, 3)) > 0
        True
    """
    if fun is None:
        return functools.partial(checkpoint, prevent_cse=prevent_cse, policy=policy,
                                 static_argnums=static_argnums)
    if not callable(fun):
        raise TypeError(f"checkpoint: expected a function, got {type(fun).__name__}")
    if policy is not None and not callable(policy):
        raise TypeError(f"checkpoint: policy must be callable (see fgrad.checkpoint_policies), got "
                        f"{type(policy).__name__}")
    snums = (static_argnums,) if isinstance(static_argnums, int) else tuple(static_argnums)
    if any(not isinstance(i, int) for i in snums):
        raise TypeError(f"checkpoint: static_argnums must be ints, got {static_argnums!r}")
    save_all = policy is _always

    @functools.wraps(fun)
    def remat_fun(*args, **kwargs):
        n = len(args)
        for i in snums:
            if not -n <= i < n:
                raise ValueError(f"checkpoint: static_argnums {i} is out of range for {n} positional "
                                 "arguments")
        static = {i % n for i in snums}
        dyn = tuple(a for i, a in enumerate(args) if i not in static)
        leaves, tree = tree_flatten((dyn, kwargs))
        if save_all or not any(isinstance(x, Tracer) for x in leaves) or _forward_mode(leaves):
            return fun(*args, **kwargs)

        def call(*flat):
            d, kw = tree_unflatten(tree, list(flat))
            it = iter(d)
            full = [args[i] if i in static else next(it) for i in range(n)]
            return fun(*full, **kw)

        @custom_vjp
        def rematerialized(*flat):
            return call(*flat)

        def fwd(*flat):
            return call(*flat), flat  # keep only the inputs

        def bwd(saved, ct):
            _, pullback = vjp(call, *saved)  # recompute the forward pass, now
            return pullback(ct)

        rematerialized.defvjp(fwd, bwd)
        return rematerialized(*leaves)

    return remat_fun


remat = checkpoint
