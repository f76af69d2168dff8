"""The peers (PyTorch, JAX) as the tests' live references, and which of their outputs may be
compared on the installed version.

The shim's stored texts (error messages, reprs, error types) are PyTorch 2.13's and the
functional face's are JAX 0.10.2's.  Such *text* changes between releases (PyTorch 2.11 says
``output 0 of ExpBackward0`` where 2.13 says ``output 0 of Exp``), so a live comparison of
version-specific text runs only when the installed torch is the pinned release
(`torch_is_pinned`, `comparable_text`); live comparisons of *numbers* run on any installed
version.  JAX is always the CPU JAX
(``JAX_PLATFORMS=cpu``, set by tests/conftest.py before anything imports jax): a GPU JAX
lacks some CPU kernels (``schur``) and picks other signs (SVD), so it is not the reference.
"""

from __future__ import annotations

import re

PINNED_TORCH = "2.13"


def _release(version: str, parts: int) -> str:
    """``"2.13.0+cpu"`` -> ``"2.13"`` (``parts=2``)."""
    return ".".join(version.split("+")[0].split(".")[:parts])


def torch_or_none():
    """The installed PyTorch, or None (not installed, or broken)."""
    try:
        import torch
    except Exception:  # noqa: BLE001 - a broken install counts as missing
        return None
    return torch


def torch_is_pinned(torch=None) -> bool:
    """True when the installed PyTorch is the pinned release (2.13.x)."""
    torch = torch if torch is not None else torch_or_none()
    return torch is not None and _release(torch.__version__, 2) == PINNED_TORCH


def torch_version_note(torch=None) -> str:
    """A skip reason naming the installed and the pinned PyTorch."""
    torch = torch if torch is not None else torch_or_none()
    have = "no torch" if torch is None else f"torch {torch.__version__}"
    return f"version-specific PyTorch text: compared live only with torch {PINNED_TORCH} ({have} installed)"


_EXC_LINE = re.compile(r"^(EXC \w+): .*$", re.M)


def without_messages(output: str) -> str:
    """A program's printed output with each ``EXC <type>: <message>`` line cut to
    ``EXC <type>``: what a live comparison with another PyTorch release can still check
    (the printed numbers and the error types; the messages are the stored ones' job)."""
    return _EXC_LINE.sub(r"\1", output)


def comparable_text(output: str, torch=None) -> str:
    """``output`` as compared with a live PyTorch run: whole with the pinned release,
    `without_messages` with another one."""
    return output if torch_is_pinned(torch) else without_messages(output)


def jax_faces() -> list:
    """(name, module, numpy, lax) for fgrad and, when installed, JAX in x64 mode (fgrad's
    default): the faces a semantics test runs its program on and compares with the stored
    answer (CI without JAX checks fgrad alone)."""
    import fgrad
    import fgrad.numpy as fnp
    from fgrad import lax as flax

    faces = [("fgrad", fgrad, fnp, flax)]
    try:
        import jax
        import jax.numpy as jnp
        from jax import lax
    except ImportError:
        return faces
    jax.config.update("jax_enable_x64", True)
    return faces + [("jax", jax, jnp, lax)]
