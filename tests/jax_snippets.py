"""Check fgrad against JAX by running JAX-style snippets (``jnp``/``jax`` names, doctest
style: an expression's value is displayed with its repr) on fgrad, with
`tools/jax_docstring_examples.py`'s runner.  The regression tests of the docstring-example
fixes store JAX 0.10.2's printed outputs next to their snippets, and compare with the live
JAX when it is installed.  Importing this module does not import ``jax``.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Sequence

import pytest

_TOOLS = str(Path(__file__).resolve().parents[1] / "tools")
if _TOOLS not in sys.path:
    sys.path.append(_TOOLS)

import jax_docstring_examples as runner  # noqa: E402


# on an accelerator (FGRAD_BACKEND=fake, a GPU) fgrad's reprs name the device; JAX's never do
_DEVICE = re.compile(r", device=[\w:]+(?=\))")


def strip_device(text: str) -> str:
    """``text`` without the ``, device=...`` of fgrad's reprs of arrays off the CPU."""
    return _DEVICE.sub("", text)


def check_snippets(sources: Sequence[str], stored: Sequence[str], x64: bool = False) -> None:
    """Each snippet run on fgrad (``jax_enable_x64`` = ``x64``) prints exactly the stored
    (JAX's) text; the snippets run in order in one namespace."""
    got, messages = runner.run_source(sources, "fgrad", x64)
    got = [strip_device(g) for g in got]
    wrong = [f"{src}\n  fgrad: {g!r} {m}\n  JAX:   {w!r}"
             for src, g, w, m in zip(sources, got, stored, messages, strict=True) if g != w]
    assert not wrong, "fgrad prints other text than JAX:\n" + "\n".join(wrong)


def check_live(sources: Sequence[str], stored: Sequence[str], x64: bool = False) -> None:
    """The stored outputs are what the installed JAX prints (skipped without JAX)."""
    pytest.importorskip("jax")
    got, _ = runner.run_source(sources, "jax", x64)
    wrong = [f"{src}\n  stored: {w!r}\n  JAX:    {g!r}"
             for src, g, w in zip(sources, got, stored, strict=True) if g != w]
    assert not wrong, "the stored outputs are not the installed JAX's:\n" + "\n".join(wrong)


def stored_group(name: str) -> dict:
    """``{"snippets": [...], "x32": [...], "x64": [...]}`` of ``tests/stored/jax_docstring_fixes.json``."""
    import json
    path = Path(__file__).parent / "stored" / "jax_docstring_fixes.json"
    return json.loads(path.read_text())["groups"][name]


def snippet_tests(group: str) -> tuple:
    """The two tests of a stored group: fgrad prints JAX's stored text (both modes), and the
    stored text is the live JAX's (where installed)."""
    data = stored_group(group)

    @pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
    def test_prints_what_jax_prints(x64):
        check_snippets(data["snippets"], data["x64" if x64 else "x32"], x64)

    @pytest.mark.parametrize("x64", [False, True], ids=["x32", "x64"])
    def test_stored_is_live_jax(x64):
        check_live(data["snippets"], data["x64" if x64 else "x32"], x64)

    return test_prints_what_jax_prints, test_stored_is_live_jax
