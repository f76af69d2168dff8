"""The compile pipeline behind `fgrad.jit` (DESIGN.md §4).

A traced program (a jaxpr with concrete constants) is compiled after all transforms have
been applied, in stages that each live in their own module:

1. `passes`: inline nested jit calls, then constant folding, algebraic simplification,
   common-subexpression elimination and dead-code elimination, to a fixpoint;
2. `fusion`: partition the equations into kernels (maximal chains of elementwise ops with
   at most one trailing reduction) and barrier ops (matmul, gather/scatter, reshapes,
   control flow, ...), in a dependency-respecting order;
3. `codegen`: buffer liveness (free each value after its last use; internal kernel values
   live in reused scratch buffers), NumPy code generation for kernels (``out=`` into
   scratch, cache-sized blocks for big arrays) and one flat, straight-line Python
   function for the whole program.  On cupy, `cuda_codegen` compiles each
   kernel to a generated ``cupy.ElementwiseKernel`` / ``cupy.ReductionKernel`` instead.

Example::

    >>> import numpy as np, fgrad, fgrad.numpy as fnp
    >>> from fgrad.compile import compile_executable
    >>> f = lambda x: fnp.sum(fnp.exp(-x * x) * 2.0 + 1.0)
    >>> exe = compile_executable(fgrad.make_jaxpr(f)(fnp.zeros(4)), [])
    >>> exe.stats["kernels"]
    1
    >>> exe.run([np.zeros(4)])
    [np.float64(12.0)]
"""

from __future__ import annotations

import numpy as np

from ..backends import BackendUnavailableError, backend_of_xp, full
from ..core.executor import place_consts
from . import codegen, cuda_codegen, fusion, passes
from .codegen import BLOCK, BLOCK_MIN, SCRATCH_MIN, Executable
from .passes import Program, optimize


def compile_executable(jaxpr, consts, *, xp=np, fuse: bool = True, simplify: bool = True,
                  block: int | None = None, block_min: int | None = None,
                  scratch_min: int | None = None, device=None) -> Executable:
    """Compile ``jaxpr`` (whose constant variables have the values ``consts``) into an
    `Executable` taking the buffers of ``jaxpr.invars``.

    ``fuse=False`` gives the unfused program (same passes, one op per step): fused results
    are bit-identical to it.  ``block``/``block_min``/``scratch_min`` override the kernel
    mode thresholds (tests use small ones to exercise blocking on small arrays).  ``device``:
    where a device program's constants go (its inputs' device)."""
    prog = optimize(jaxpr, consts, simplify=simplify)
    if cuda_codegen.supports(xp):  # cupy: fused groups become generated CUDA kernels
        return cuda_codegen.generate(prog, fusion.partition(prog, fuse=fuse), xp)  # (host consts uploaded)
    if xp is not np and _has_backend(xp):  # constants folded from literals alone: to the device
        for v, c in list(prog.consts.items()):
            if type(c) is np.ndarray:
                prog.consts[v] = _on_device(c, xp, device)
    steps = fusion.partition(prog, fuse=fuse and xp is np)
    return codegen.generate(
        prog, steps, xp,
        block=BLOCK if block is None else block,
        block_min=BLOCK_MIN if block_min is None else block_min,
        scratch_min=SCRATCH_MIN if scratch_min is None else scratch_min,
    )


def _has_backend(xp) -> bool:
    """Whether ``xp`` is a registered backend's array module (not a test's stand-in)."""
    try:
        backend_of_xp(xp)
    except BackendUnavailableError:
        return False
    return True


def _on_device(c, xp, device):
    """Host constant ``c`` on ``device``: made there when it is one repeated value (a
    broadcast literal: no copy), else uploaded."""
    if c.size and c.dtype.kind in "biufc" and bool(np.all(c == c.flat[0])) and not (
            c.dtype.kind == "f" and np.signbit(c).any() != np.signbit(c).all()):
        be = backend_of_xp(xp)
        with be.device_scope(device if device is not None else be.current_device()):
            return full(xp, c.shape, c.flat[0], c.dtype)
    return place_consts([c], xp, device)[0]


__all__ = ["compile_executable", "Executable", "Program", "optimize", "passes", "fusion", "codegen",
           "cuda_codegen", "BLOCK", "BLOCK_MIN", "SCRATCH_MIN"]
