"""How nn.functional defines an operation on fgrad's engine.

An op is given by

* ``fn``: its *fgrad definition*, written with ``fgrad.numpy`` / ``fgrad.lax`` / ``fgrad.nn``
  ops on fgrad arrays.  Autograd differentiates it with the core's derivative rules (the
  backward program is the core's VJP of ``fn``, staged once per input signature and
  cached), ``create_graph=True`` replays those rules through Tensor ops, and in functional
  mode (``fgrad.torch.func.functional_call`` under ``fgrad.grad``/``vmap``/``jit``) ``fn``
  itself is what runs;
* ``name``: the ``grad_fn`` class name PyTorch shows for it (``AddmmBackward0``...);
* ``key``: a hashable description of everything ``fn`` closes over (the cache key of the
  backward program together with the inputs' shapes and dtypes).

Arguments are Tensors (integer tensors are carried along, never differentiated) or constant
NumPy arrays.  This is the shim's dispatcher, ``fgrad.torch._dispatch.apply_op``; nothing here
derives a gradient by hand.
"""

from __future__ import annotations

import numpy as np

from .._dispatch import _run_fn, apply_op, result_tensor
from .._device import DEV as _DEV
from .._tensor import Tensor

_nd = np.ndarray


def defop(name: str, key, fn, args, *, multi: bool = False, edges=None):
    """Apply the op (see the module docstring) and return its output Tensor(s): its forward
    is ``fn`` itself, run as a cached program per input signature; ``edges``: the positions
    of ``args`` listed in ``next_functions`` (default: every Tensor)."""
    return apply_op(name, key, fn, tuple(args), multi=multi, edges=edges)


def buf(t: Tensor):
    """The buffer of a tensor (NumPy, or CuPy on the CUDA device; its fgrad value in
    functional mode)."""
    return t._buf


def is_concrete(t: Tensor) -> bool:
    """True when the tensor holds a buffer (NumPy, or the CUDA device's: eager mode), False for
    traced values."""
    tb = type(t._buf)
    return tb is _nd or tb in _DEV


def wrap(arr: np.ndarray) -> Tensor:
    """A new leaf Tensor over a NumPy array (no copy)."""
    return result_tensor(arr)


def run_eagerly(fn, bufs: list):
    """The fgrad definition ``fn`` evaluated eagerly on host buffers (no program staged), its
    result a new buffer; IEEE special values silently, as the staged programs."""
    with np.errstate(all="ignore"):
        return _run_fn(fn, bufs, False)
