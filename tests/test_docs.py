"""The documentation tells the truth: every ```python block of README.md and docs/*.md runs
(blocks of one file share a namespace, in order; a block written as a `>>>` session is run as
a doctest, so its printed results are checked too), and the site builds with warnings as errors."""

import doctest
import pathlib
import re
import shutil
import subprocess
import sys
import types

import pytest

import fgrad

ROOT = pathlib.Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


# optional packages (test extras) some pages use, e.g. docs/typing.md's beartype: a page is
# skipped, with the reason, where one is not installed
OPTIONAL_MODULES = {"beartype"}


def _python_blocks(page: pathlib.Path) -> list[str]:
    return BLOCK.findall(page.read_text(encoding="utf-8"))


@pytest.mark.parametrize("page", [p for p in PAGES if _python_blocks(p)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_code_blocks_run(page, tmp_path, monkeypatch):
    from fgrad._config import LIMIT_DEFAULTS

    # a page may change fgrad's cache bounds (docs/memory.md does): put them back after it,
    # whatever runs next (pytest-xdist runs the tests in another order)
    before = {k: fgrad.config.read(k) for k in LIMIT_DEFAULTS}
    try:
        _run_code_blocks(page, tmp_path, monkeypatch)
    finally:
        for k, v in before.items():
            if fgrad.config.read(k) != v:
                fgrad.config.update(k, None if v == LIMIT_DEFAULTS[k] else v)


def _run_code_blocks(page, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)          # pages may write files (checkpoints, plots)
    module = types.ModuleType(f"docs_{page.stem.replace('-', '_')}")   # a real module, so pickle
    monkeypatch.setitem(sys.modules, module.__name__, module)          # finds the page's classes
    namespace = module.__dict__
    for i, block in enumerate(_python_blocks(page)):
        name = f"{page.name}[python block {i}]"
        if block.lstrip().startswith(">>>"):
            test = doctest.DocTestParser().get_doctest(block, namespace, name, str(page), 0)
            runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
            with fgrad.default_device("cpu"):  # printed arrays as with the default config
                runner.run(test, clear_globs=False)
            namespace.update(test.globs)  # DocTest works on a copy of the namespace
            assert runner.failures == 0, f"{name}: {runner.failures} doctest example(s) failed (see output)"
        else:
            with fgrad.default_device("cpu"):  # the pages describe the default configuration
                try:
                    exec(compile(block, name, "exec"), namespace)
                except ModuleNotFoundError as e:
                    if e.name not in OPTIONAL_MODULES:
                        raise
                    pytest.skip(f"{name} needs {e.name} (a test extra: pip install -e '.[test]')")


def test_a_page_that_changes_cache_bounds_leaves_them_as_it_found_them(tmp_path, monkeypatch):
    """docs/memory.md sets ``jit_scratch_bytes`` to 8 MB: run after it (as pytest-xdist may),
    tests/test_bounded_memory.py read 8 MB where the default is 64 MB."""
    from fgrad._config import LIMIT_DEFAULTS

    test_code_blocks_run(ROOT / "docs" / "memory.md", tmp_path, monkeypatch)
    assert {k: fgrad.config.read(k) for k in LIMIT_DEFAULTS} == LIMIT_DEFAULTS


def test_every_page_is_in_the_site_navigation():
    nav = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    for page in (ROOT / "docs").rglob("*.md"):
        assert str(page.relative_to(ROOT / "docs")) in nav, f"{page} is missing from mkdocs.yml's nav"


@pytest.mark.slow
def test_site_builds_strict(tmp_path):
    pytest.importorskip("mkdocstrings")
    if shutil.which("mkdocs") is None:
        pytest.skip("mkdocs not installed (pip install -e '.[docs]')")
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
                   cwd=ROOT, check=True, timeout=600)
