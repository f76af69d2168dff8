"""`vectorize`: NumPy's ``numpy.vectorize`` (and its generalized-ufunc ``signature``) as JAX
has it, built on `fgrad.vmap`: the function is traced once, not called per element."""

from __future__ import annotations

import functools
import math
import re
from typing import Any, Callable, Collection

import numpy as np

from ..core.array import get_aval
from ..ops.shape import broadcast_in_dim, reshape
from ..transforms.batching import vmap
from ._creation import asarray

__all__ = ["vectorize"]

_DIMS = r"\w+(?:,\s*\w+)*"
_ARG = rf"\((?:{_DIMS})?\)"
_ARGS = rf"{_ARG}(?:,\s*{_ARG})*"
_SIGNATURE = re.compile(rf"^\s*{_ARGS}\s*->\s*{_ARGS}\s*$")


def _parse_signature(signature: str) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    if not _SIGNATURE.match(signature):
        raise ValueError(f"vectorize: not a valid gufunc signature: {signature!r} (e.g. '(n),(n)->()')")
    ins, outs = signature.split("->")
    parse = lambda side: [tuple(d.strip() for d in group.split(",") if d.strip())
                          for group in re.findall(r"\((.*?)\)", side)]
    return parse(ins), parse(outs)


def vectorize(pyfunc: Callable, *, excluded: Collection[int | str] = frozenset(),
              signature: str | None = None) -> Callable:
    """``pyfunc`` mapped over the leading (broadcast) axes of its arguments (JAX's
    ``jnp.vectorize``).  Without ``signature`` every argument's core is a scalar; with a
    generalized-ufunc ``signature`` such as ``'(n),(n)->()'`` each argument keeps its trailing
    core axes.  ``excluded``: positions (ints) or keyword names (strs) passed through
    unvectorized; other keyword arguments are passed through too.

    Example::

        >>> import fgrad.numpy as fnp
        >>> row_dot = vectorize(fnp.dot, signature="(n),(n)->()")
        >>> row_dot(fnp.ones((3, 2)), fnp.arange(2.0))
        Array([1., 1., 1.], dtype=float64)
    """
    excluded = frozenset(excluded)
    for e in excluded:
        if not isinstance(e, (int, str)):
            raise TypeError(f"vectorize: excluded must hold ints or strs, got {e!r}")
    in_core, out_core = _parse_signature(signature) if signature is not None else (None, None)

    @functools.wraps(pyfunc)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        fixed = {i: a for i, a in enumerate(args) if i in excluded}
        mapped = [asarray(a) for i, a in enumerate(args) if i not in excluded]
        cores = in_core if in_core is not None else [()] * len(mapped)
        if len(cores) != len(mapped):
            raise TypeError(f"vectorize: the signature {signature!r} has {len(cores)} inputs but "
                            f"{len(mapped)} vectorized arguments were given")
        sizes: dict[str, int] = {}
        batch_shapes = []
        for k, (x, core) in enumerate(zip(mapped, cores)):
            shape = get_aval(x).shape
            if len(shape) < len(core):
                raise ValueError(f"vectorize: input {k} has {len(shape)} dimensions, fewer than "
                                 f"its core dimensions {core} of the signature {signature!r}")
            for name, n in zip(core, shape[len(shape) - len(core):]):
                if sizes.setdefault(name, n) != n:
                    raise ValueError(f"vectorize: inconsistent size for core dimension {name!r}: "
                                     f"{sizes[name]} vs {n} (signature {signature!r})")
            batch_shapes.append(shape[:len(shape) - len(core)])
        batch = tuple(np.broadcast_shapes(*batch_shapes)) if batch_shapes else ()
        flat = []
        for x, b in zip(mapped, batch_shapes):
            shape = get_aval(x).shape
            core_shape = shape[len(b):]
            if b != batch:
                x = broadcast_in_dim(x, batch + core_shape,
                                     tuple(range(len(batch) - len(b), len(batch) + len(core_shape))))
            flat.append(reshape(x, (math.prod(batch),) + core_shape))

        def call(*vectorized: Any) -> Any:
            it = iter(vectorized)
            full = [fixed[i] if i in fixed else next(it) for i in range(len(args))]
            out = pyfunc(*full, **kwargs)
            if out_core is not None:
                outs = out if isinstance(out, tuple) else (out,)
                if len(outs) != len(out_core):
                    raise ValueError(f"vectorize: the function returned {len(outs)} outputs but the "
                                     f"signature {signature!r} has {len(out_core)}")
                for o, core in zip(outs, out_core):
                    if get_aval(asarray(o)).ndim != len(core):
                        raise ValueError(
                            f"vectorize: an output has {get_aval(asarray(o)).ndim} dimensions but "
                            f"the signature {signature!r} gives it the core {core}")
            return out

        if not flat:
            return pyfunc(*args, **kwargs)
        if not batch:
            return call(*[reshape(x, get_aval(x).shape[1:]) for x in flat])
        result = vmap(call)(*flat)
        unflat = lambda o: reshape(o, batch + get_aval(o).shape[1:])
        return tuple(unflat(o) for o in result) if isinstance(result, tuple) else unflat(result)

    return wrapped
