"""The effects of mutable array references (`fgrad.Ref`) inside staged programs.

A `Ref` holds a concrete array.  Read and written where it was made (or under grad/vmap,
which run eagerly), its value is rebound in Python.  A jit-compiled program that uses a
Ref made outside it cannot capture the value (a constant would go stale), so it reads and
writes through these *effectful* primitives, which act on the Ref when the program runs,
in program order:

* ``ref_load_p`` (no operands; ``ref=``): the Ref's current value;
* ``ref_store_p`` (the new value; ``ref=``): replaces it (no results).

As in JAX, a differentiated value (grad) or a vmapped value may not be stored into a Ref
made outside that transform: the rules raise JAX's error.

Example::

    >>> import fgrad, fgrad.numpy as fnp
    >>> counter = fgrad.new_ref(fnp.zeros(()))
    >>> step = fgrad.jit(lambda: counter.__setitem__(..., counter[...] + 1.0))
    >>> step(); step(); counter[...]
    Array(2., dtype=float64)
"""

from __future__ import annotations

from ..core.array import ShapedArray, wrap
from ..core.primitive import Primitive
from ..core.rules import defbatch, defjvp_rule

__all__ = ["ref_load_p", "ref_store_p", "RefEffectError"]


class RefEffectError(Exception):
    """A value of a transform stored into a Ref made outside it (JAX raises a plain
    ``Exception`` with the same text)."""


def _load_impl(xp, *, ref):
    return ref._concrete_buffer()


def _load_abstract(*, ref):
    return ShapedArray(ref.shape, ref.dtype, ref.weak_type)


def _store_impl(xp, buf, *, ref):
    ref._store_concrete(wrap(buf, ref.weak_type))
    return []


def _store_abstract(aval, *, ref):
    return []


ref_load_p = Primitive("ref_load", _load_impl, _load_abstract, family="ref", effectful=True)
ref_store_p = Primitive("ref_store", _store_impl, _store_abstract, multiple_results=True, family="ref",
                        effectful=True)


def differentiated_error(ref) -> RefEffectError:
    return RefEffectError(
        f"performing a set/swap operation with a differentiated value on a non-differentiated array "
        f"reference of type {ref.aval}. Move the array reference to be an argument of the "
        "differentiated function?")


def vmapped_error(ref) -> RefEffectError:
    return RefEffectError(
        f"performing a set/swap operation with vmapped value on an unbatched array reference of type "
        f"{ref.aval}. Move the array reference to be an argument to the vmapped function?")


def _load_jvp(primals, tangents, *, ref):
    return ref_load_p.bind(ref=ref), None  # the Ref's value is a constant to the derivative


def _load_batch(axis_size, vals, dims, *, ref):
    return ref_load_p.bind(ref=ref), None  # not reached: no operands, nothing batched


def _store_jvp(primals, tangents, *, ref):
    if tangents[0] is not None:
        raise differentiated_error(ref)
    return ref_store_p.bind(primals[0], ref=ref), []


def _store_batch(axis_size, vals, dims, *, ref):
    if dims[0] is not None:
        raise vmapped_error(ref)
    return ref_store_p.bind(vals[0], ref=ref), []


defjvp_rule(ref_load_p, _load_jvp)
defbatch(ref_load_p, _load_batch)
defjvp_rule(ref_store_p, _store_jvp)
defbatch(ref_store_p, _store_batch)
