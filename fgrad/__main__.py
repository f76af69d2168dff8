"""``python -m fgrad``: what a bug report needs — versions, backends and devices, optional
packages, the BLAS NumPy uses, and the environment variables fgrad reads.

Example::

    >>> from fgrad.__main__ import report
    >>> "fgrad" in report()
    True
"""

from __future__ import annotations

import importlib.metadata
import os
import platform
import sys

import numpy as np

from . import __version__
from . import backends as _backends

# optional packages fgrad can use or compare against, with what each is for
OPTIONAL_PACKAGES: dict[str, str] = {
    "cupy": "GPU backend",
    "scipy": "special functions",
    "ml_dtypes": "bfloat16/float16",
    "mpi4py": "multi-process data parallel",
    "safetensors": "weights files",
    "optree": "fast pytrees",
    "torch": "parity tests and benchmarks",
    "jax": "parity tests and benchmarks",
    "autograd": "benchmarks",
    "hypothesis": "test suite",
    "pytest": "test suite",
}

# environment variables fgrad reads
ENVIRONMENT: dict[str, str] = {
    "FGRAD_BACKEND": "default device at import (cpu, cuda, cuda:1, ...)",
    "FGRAD_LOG_COMPILES": "1: show fgrad log records (jit compiles and why, fallbacks) on stderr",
    "FGRAD_TEST_BACKENDS": "test suite: backends to run the backend tests on (numpy,cupy)",
    "FGRAD_DEBUG_NANS": "1: check every result for NaNs (jax_debug_nans; JAX_DEBUG_NANS too)",
    "FGRAD_DEBUG_INFS": "1: check every result for infinities (jax_debug_infs; JAX_DEBUG_INFS too)",
    "FGRAD_DISTRIBUTED_CHECK": "0: skip the cheap cross-process mismatch check before each collective",
    "FGRAD_DISTRIBUTED_DEBUG": "1: name both sides of a mismatched collective (an extra all-gather each)",
    "FGRAD_DISTRIBUTED_TIMEOUT": "seconds a collective waits for the other processes (none: no timeout)",
    "FGRAD_NCCL": "0: GPU collectives through MPI instead of NCCL",
    "FGRAD_MPIEXEC": "the MPI launcher fgrad.torch.distributed.run uses (default: mpiexec)",
}


def _package_version(name: str) -> str | None:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        # cupy ships as cupy-cuda12x / cupy-cuda13x
        for dist in importlib.metadata.distributions():
            dist_name = (dist.metadata["Name"] or "").lower()
            if dist_name.startswith(name + "-"):
                return f"{dist.version} ({dist_name})"
        return None


def _blas_lines() -> list[str]:
    try:
        config = np.show_config(mode="dicts")
    except TypeError:  # numpy < 1.25 has no mode=
        return ["  (numpy.show_config() without mode='dicts')"]
    deps = config.get("Build Dependencies", {})
    lines = []
    for key in ("blas", "lapack"):
        info = deps.get(key, {})
        if info:
            lines.append(f"  {key}: {info.get('name', '?')} {info.get('version', '')}".rstrip())
    return lines or ["  (not reported by numpy)"]


def _device_lines() -> list[str]:
    lines = [f"  {d}" for d in _backends.devices()]
    lines.append(f"  default: {_backends.default_device()}")
    for name, why in sorted(_backends._LOAD_ERRORS.items()):
        lines.append(f"  {name} unavailable: {why}")
    return lines


def report() -> str:
    """The diagnostic report as text (what ``python -m fgrad`` prints).

    Example::

        >>> from fgrad.__main__ import report
        >>> report().splitlines()[0].startswith("fgrad ")
        True
    """
    out = [f"fgrad {__version__}",
           f"python {sys.version.split()[0]} ({platform.platform()})",
           f"numpy {np.__version__}",
           "devices:", *_device_lines(),
           "BLAS (numpy's):", *_blas_lines(),
           "optional packages:"]
    for name, purpose in OPTIONAL_PACKAGES.items():
        version = _package_version(name)
        out.append(f"  {name:<12} {version or '-':<28} {purpose}")
    out.append("environment:")
    for name, meaning in ENVIRONMENT.items():
        value = os.environ.get(name)
        shown = f"{name}={value}" if value is not None else f"{name} (unset)"
        out.append(f"  {shown:<28} {meaning}")
    return "\n".join(out)


def main() -> None:
    """Print the diagnostic report."""
    print(report())


if __name__ == "__main__":
    main()
