"""Opt-in alias: ``import jax`` resolves to fgrad, so pure-Python libraries written over JAX's
public API (optax: optimizers, schedules, losses) run on fgrad unchanged.

Three ways to turn it on (each before anything imports the real ``jax``):

* in a program: ``import fgrad.jax_alias; fgrad.jax_alias.install()``, then ``import optax``;
* an unmodified program or test run: ``python -m fgrad.jax_alias script.py [args]``,
  ``python -m fgrad.jax_alias -m pytest tests/``;
* as a pytest plugin: ``python -m pytest -p fgrad.jax_alias tests/``.

The alias behaves as JAX does by default: 64-bit types are off (``jax_enable_x64=False``:
float32 and int32 defaults, see docs/x64-off.md) unless ``JAX_ENABLE_X64=1`` is set, while
``import fgrad`` itself keeps NumPy's 64-bit defaults.

``jax`` becomes a module that forwards every attribute to `fgrad` (its ``__version__`` is the
JAX release whose API fgrad follows); ``jax.X`` (``jax.numpy``, ``jax.scipy.special``,
``jax.tree_util``, ...) is the module ``fgrad.X``.  A ``jax.X`` that fgrad does not have raises
an ImportError naming the missing ``fgrad.X``.  Primitives defined through ``jax.extend.core``
and registered with ``jax.interpreters.ad``/``batching``/``mlir`` work (`fgrad.extend`);
code that reaches into JAX's private ``jax._src`` is not supported.

Example::

    >>> import fgrad.jax_alias
    >>> fgrad.jax_alias.JAX_API_VERSION
    '0.10.2'
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import pathlib
import runpy
import sys
import types
from typing import Any, Sequence

import fgrad
from ._config import environment_flag

__all__ = ["JAX_API_VERSION", "AliasError", "install", "installed", "main"]

# the JAX release whose public API fgrad follows (and its tests store numbers from)
JAX_API_VERSION = "0.10.2"

# JAX's private internals: libraries that extend JAX through them cannot run on fgrad
# (its public extension modules -- jax.extend, jax.interpreters, jax.core -- are fgrad's:
# docs/jax-extend.md)
_INTERNALS = ("jax._src",)


class AliasError(RuntimeError):
    """The alias cannot be installed: the real ``jax`` is already imported in this process.

    Example::

        >>> from fgrad import jax_alias
        >>> issubclass(jax_alias.AliasError, RuntimeError)
        True
    """


class _JaxModule(types.ModuleType):
    """``sys.modules['jax']`` under the alias: every attribute is fgrad's."""

    def __getattr__(self, name: str) -> Any:
        try:
            return getattr(fgrad, name)
        except AttributeError:
            raise AttributeError(
                f"module 'jax' (the fgrad alias, fgrad.jax_alias) has no attribute {name!r}: "
                f"fgrad has no {name!r}") from None

    def __dir__(self) -> list[str]:
        return sorted(set(dir(fgrad)) | set(self.__dict__))


class _ExistingModuleLoader(importlib.abc.Loader):
    """Loads ``jax.X`` as the already-importable ``fgrad.X`` (one module object for both names)."""

    def __init__(self, target: str) -> None:
        self.target = target

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = importlib.import_module(self.target)
        self.original_spec = module.__spec__
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        # already executed under its fgrad name; the import system set ``__spec__`` to the
        # jax name: the module keeps its own (relative imports, reload, pickling use it)
        module.__spec__ = self.original_spec


class _JaxFinder(importlib.abc.MetaPathFinder):
    """Meta-path finder: ``jax.X.Y`` is the module ``fgrad.X.Y``."""

    def find_spec(self, fullname: str, path: Any = None, target: Any = None):
        if not fullname.startswith("jax."):
            return None
        top = ".".join(fullname.split(".")[:2])
        if top in _INTERNALS:
            raise ImportError(
                f"{fullname}: fgrad's jax alias does not provide JAX's internals ({top}); a "
                "library that registers primitives through them cannot run on fgrad.  fgrad's "
                "extension interface is fgrad.Primitive with the rules of fgrad.core.rules "
                "(docs/jax-ecosystem.md)", name=fullname)
        target_name = "fgrad." + fullname[len("jax."):]
        try:
            spec = importlib.util.find_spec(target_name)
        except ModuleNotFoundError:
            spec = None
        if spec is None:
            raise ImportError(
                f"No module named {fullname!r} under fgrad's jax alias: fgrad has no module "
                f"{target_name!r} (see docs/jax-ecosystem.md for what the alias provides)",
                name=fullname)
        return importlib.machinery.ModuleSpec(
            fullname, _ExistingModuleLoader(target_name), is_package=spec.submodule_search_locations
            is not None)


_FINDER = _JaxFinder()


def installed() -> bool:
    """Whether ``import jax`` gives fgrad in this process.

    Example::

        >>> isinstance(installed(), bool)
        True
    """
    return isinstance(sys.modules.get("jax"), _JaxModule)


def install(x64: bool | None = None) -> types.ModuleType:
    """Make ``import jax`` (and ``import jax.X``) resolve to fgrad in this process; returns the
    ``jax`` module.  Idempotent.  Raises `AliasError` when the real ``jax`` is already imported
    (two array libraries in one program would mix their arrays).

    The alias behaves as JAX, default precision included: 64-bit types are off
    (``jax_enable_x64=False``: float32 and int32 by default, docs/x64-off.md) unless
    ``JAX_ENABLE_X64=1`` (or ``FGRAD_ENABLE_X64=1``) is set or ``x64=True`` is passed.
    `uninstall` restores the setting fgrad had before.

    Example::

        >>> import sys, fgrad
        >>> had_jax = sys.modules.get("jax")
        >>> if had_jax is None:
        ...     jax = install()
        ...     import jax.numpy as jnp
        ...     assert jnp is fgrad.numpy and jax.grad is fgrad.grad
        ...     uninstall()
    """
    current = sys.modules.get("jax")
    if isinstance(current, _JaxModule):
        return current
    if current is not None or any(k.startswith("jax.") for k in sys.modules):
        where = getattr(current, "__file__", None)
        raise AliasError(
            f"fgrad.jax_alias.install(): the real jax is already imported in this process "
            f"({where}); install the alias before anything imports jax (first line of the "
            "program, `python -m fgrad.jax_alias ...`, or `pytest -p fgrad.jax_alias`)")
    if x64 is None:
        x64 = bool(environment_flag("jax_enable_x64"))  # JAX's default: off
    _SAVED_X64.append(fgrad.config.jax_enable_x64)
    fgrad.config.update("jax_enable_x64", x64)
    module = _JaxModule("jax", "JAX's public API, served by fgrad (fgrad.jax_alias)")
    module.__version__ = JAX_API_VERSION
    module.__version_info__ = tuple(int(p) for p in JAX_API_VERSION.split("."))
    module.__path__ = []  # a package: `import jax.numpy` asks the finder below
    module.__file__ = fgrad.__file__
    module.__fgrad_alias__ = True
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    sys.modules["jax"] = module
    return module


def uninstall() -> None:
    """Remove the alias (``jax`` and every ``jax.X`` from ``sys.modules``, and the finder).

    Example::

        >>> uninstall()   # no-op when not installed
    """
    if not installed():
        return
    for name in [k for k in sys.modules if k == "jax" or k.startswith("jax.")]:
        del sys.modules[name]
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    if _SAVED_X64:
        fgrad.config.update("jax_enable_x64", _SAVED_X64.pop())


_SAVED_X64: list[bool] = []  # fgrad's 64-bit setting before `install`


# ---- pytest plugin: `python -m pytest -p fgrad.jax_alias ...` --------------------------------

def pytest_load_initial_conftests(early_config: Any, parser: Any, args: Any) -> None:
    """pytest hook: install the alias before any conftest or test module imports jax."""
    install()


def pytest_configure(config: Any) -> None:
    """pytest hook (for ``-p`` given after conftests loaded): install the alias."""
    install()


# ---- runner: `python -m fgrad.jax_alias [-m module | script.py] args...` --------------------

_USAGE = ("usage: python -m fgrad.jax_alias script.py [args...]\n"
          "       python -m fgrad.jax_alias -m module [args...]   (e.g. -m pytest tests/)")


def main(argv: Sequence[str] | None = None) -> None:
    """Run a script or module with the alias installed (as ``python`` would run it).

    Example::

        >>> main(["--help"])
        usage: python -m fgrad.jax_alias script.py [args...]
               python -m fgrad.jax_alias -m module [args...]   (e.g. -m pytest tests/)
    """
    args = list(sys.argv[1:] if argv is None else argv)
    if not args or args[0] in ("-h", "--help"):
        print(_USAGE)
        return
    install()
    if args[0] == "-m":
        if len(args) < 2:
            raise SystemExit(_USAGE)
        sys.argv = [args[1], *args[2:]]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        sys.path[0] = str(pathlib.Path(args[0]).resolve().parent)  # as `python script.py`
        runpy.run_path(args[0], run_name="__main__")


if __name__ == "__main__":
    # run the importable module's main, so a later `import fgrad.jax_alias` (a `-p` plugin) sees
    # the same alias classes as this run
    from fgrad.jax_alias import main as _main

    _main()
