"""`fgrad.jax_alias`: ``import jax`` resolves to fgrad, opt-in (docs/jax-ecosystem.md).  Each
check runs in a fresh interpreter, as the alias must be installed before anything imports jax."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _python(*args: str, cwd: pathlib.Path = ROOT) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "JAX_PLATFORMS": "cpu", "FGRAD_BACKEND": "cpu"}
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env,
                          timeout=300)


PROGRAM = """
import sys
import fgrad, fgrad.jax_alias
jax = fgrad.jax_alias.install()
import jax.numpy as jnp, jax.scipy.special, jax.tree_util, jax.flatten_util, jax.sharding
from jax import lax, random, nn
from jax.scipy.special import logsumexp
assert jnp is fgrad.numpy and lax is fgrad.lax and random is fgrad.random and nn is fgrad.nn
assert jax.scipy.special is fgrad.scipy.special and logsumexp is fgrad.scipy.special.logsumexp
assert jax.grad is fgrad.grad and jax.typing.ArrayLike is fgrad.typing.ArrayLike
assert jax.__version__ == fgrad.jax_alias.JAX_API_VERSION
assert fgrad.numpy.__spec__.name == "fgrad.numpy"  # the module keeps its own spec
assert fgrad.jax_alias.install() is jax  # idempotent
try:
    import jax.no_such_module
except ImportError as e:
    assert "fgrad.no_such_module" in str(e), e
else:
    raise AssertionError("no ImportError")
try:
    import jax._src
except ImportError as e:
    assert "fgrad.Primitive" in str(e), e
else:
    raise AssertionError("no ImportError")
from jax.extend import core as extend_core  # JAX's public extension modules are fgrad's
from jax.interpreters import ad
assert extend_core is fgrad.extend.core and ad is fgrad.interpreters.ad
try:
    jax.no_such_name
except AttributeError as e:
    assert "no_such_name" in str(e)
print(float(jax.grad(lambda x: jnp.sum(x ** 2))(jnp.array([1.5]))[0]))
"""


def test_install_maps_jax_modules_to_fgrad():
    proc = _python("-c", PROGRAM)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "3.0"


def test_runner_runs_an_unmodified_script_with_its_arguments(tmp_path):
    script = tmp_path / "prog.py"
    (tmp_path / "helper_mod.py").write_text("VALUE = 7\n")  # the script's folder is on sys.path
    script.write_text("import sys, jax, jax.numpy as jnp, helper_mod\n"
                      "print(type(jnp.ones(2)).__module__.split('.')[0], sys.argv[1:], "
                      "__name__, helper_mod.VALUE)\n")
    proc = _python("-m", "fgrad.jax_alias", str(script), "a", "b", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "fgrad ['a', 'b'] __main__ 7"


def test_runner_usage():
    proc = _python("-m", "fgrad.jax_alias")
    assert proc.returncode == 0 and "usage" in proc.stdout


@pytest.mark.slow
def test_pytest_plugin_form(tmp_path):
    test = tmp_path / "test_uses_jax.py"
    test.write_text("import jax, jax.numpy as jnp\n"
                    "def test_grad():\n"
                    "    assert jax.numpy is __import__('fgrad').numpy\n"
                    "    assert float(jax.grad(lambda x: x * x)(3.0)) == 6.0\n")
    for argv in (["-m", "pytest", "-p", "fgrad.jax_alias"], ["-m", "fgrad.jax_alias", "-m", "pytest"]):
        proc = _python(*argv, str(test), "-q", "-p", "no:cacheprovider", "-o", "addopts=",
                       "--rootdir", str(tmp_path), cwd=tmp_path)
        assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
        assert "1 passed" in proc.stdout


@pytest.mark.slow
def test_refuses_when_real_jax_is_imported():
    pytest.importorskip("jax")
    proc = _python("-c", "import jax, fgrad.jax_alias\n"
                         "try:\n    fgrad.jax_alias.install()\n"
                         "except fgrad.jax_alias.AliasError as e:\n"
                         "    print('refused', 'already imported' in str(e))\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "refused True"


def test_refuses_a_fake_jax_without_importing_it(monkeypatch):
    # in-process: a 'jax' already in sys.modules (here a stand-in) makes install() refuse
    import types

    import fgrad.jax_alias as alias
    if alias.installed():
        pytest.skip("the alias is installed in this process")
    monkeypatch.setitem(sys.modules, "jax", types.ModuleType("jax"))
    with pytest.raises(alias.AliasError, match="already imported"):
        alias.install()


X64_PROGRAM = """
import fgrad, fgrad.jax_alias
print(fgrad.numpy.ones(1).dtype)  # fgrad's own default
jax = fgrad.jax_alias.install()
import jax.numpy as jnp
print(jnp.ones(1).dtype, jnp.arange(2).dtype, jax.config.jax_enable_x64)
fgrad.jax_alias.uninstall()
print(fgrad.numpy.ones(1).dtype)
"""


@pytest.mark.parametrize("env, want", [({}, "float64 float32 int32 False float64"),
                                       ({"JAX_ENABLE_X64": "1"}, "float64 float64 int64 True float64"),
                                       ({"JAX_ENABLE_X64": "0"}, "float32 float32 int32 False float32")])
def test_the_alias_has_jaxs_default_precision(env, want):
    """Under the alias fgrad behaves as JAX: 64-bit types off unless JAX_ENABLE_X64=1;
    uninstall restores fgrad's setting (JAX_ENABLE_X64=0 also set it for fgrad at import)."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        proc = _python("-c", X64_PROGRAM)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k)
            else:
                os.environ[k] = v
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.split() == want.split()
