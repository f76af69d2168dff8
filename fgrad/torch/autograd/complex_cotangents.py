"""PyTorch's complex gradient convention for the shim's autograd engine.

fgrad's core follows JAX: for a real loss ``L`` of a complex ``z`` the gradient is
``dL/dx - i dL/dy`` (``grad(abs)(3+4j) == 0.6-0.8j``).  PyTorch returns the conjugate,
``dL/dx + i dL/dy`` (``0.6+0.8j``).  For any op the two vector-Jacobian products are related by

    torch_vjp(g) == conj(jax_vjp(conj(g)))

so the shim's engine keeps every cotangent it carries (seeds, hooks, ``.grad``,
``autograd.Function.backward``) in PyTorch's convention and translates only where it calls a
per-op VJP built by the core: `torch_convention` wraps that VJP.  ``conj`` is a no-op on real
dtypes and is skipped there, so real programs are unchanged.  The wrapper is ordinary fgrad
code, so a staged backward program (and its ``create_graph=True`` re-evaluation) contains the
conjugations as recorded ops and higher derivatives stay consistent.

Example::

    >>> import numpy as np, fgrad
    >>> _, f_vjp = fgrad.vjp(fgrad.numpy.abs, np.complex128(3 + 4j))
    >>> np.round(complex(torch_convention(f_vjp)(np.float64(1.0))[0]), 6)
    np.complex128(0.6+0.8j)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import fgrad.lax as lax

__all__ = ["torch_convention", "conj_if_complex"]


def conj_if_complex(x: Any) -> Any:
    """``conj(x)`` for a complex array/tracer; ``x`` itself otherwise (real, None, zeros).

    >>> conj_if_complex(np.complex64(1 + 2j))
    Array(1.-2.j, dtype=complex64)
    """
    dt = getattr(x, "dtype", None)
    if dt is not None and np.issubdtype(dt, np.complexfloating):
        return lax.conj(x)
    return x


def torch_convention(f_vjp: Callable) -> Callable:
    """Wrap a core (JAX-convention) VJP so that it takes and returns PyTorch-convention
    cotangents: ``g -> conj(f_vjp(conj(g)))`` on complex entries.

    >>> import numpy as np, fgrad
    >>> _, f_vjp = fgrad.vjp(lambda z: z.real * 2 + z.imag * 5, np.complex128(1j))
    >>> complex(torch_convention(f_vjp)(np.float64(1.0))[0])
    (2+5j)
    """

    def vjp_torch(ct):
        ct = type_preserving_map(ct) if isinstance(ct, (tuple, list)) else conj_if_complex(ct)
        return type_preserving_map(f_vjp(ct))

    return vjp_torch


def type_preserving_map(cts):
    """``conj_if_complex`` over a tuple/list of cotangents, keeping the container type.

    >>> type_preserving_map((np.float64(1.0),))
    (np.float64(1.0),)
    """
    return type(cts)(conj_if_complex(c) for c in cts)
