"""examples/gp_regression.py runs, learns, and agrees with the same program on JAX (stored
numbers from ``python examples/gp_regression.py --jax``, jax 0.10.2; live with ``-m slow``)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("scipy")  # fgrad.scipy's special functions need it for forward values

ROOT = Path(__file__).resolve().parent.parent
FLOAT = r"([-+]?\d+\.?\d*(?:e[-+]?\d+)?)"

# printed by the --jax run (jax 0.10.2, x64)
JAX_STORED = {"initial": 20.332499, "fitted": 9.698232, "length": 0.763065, "signal": 0.762783,
              "noise": 0.169613, "hess_min": 14.976581, "rmse": 0.112083, "mlpd": 0.539759}


def _run(*flags, timeout=300):
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), env.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    env.setdefault("OMP_NUM_THREADS", "1")
    proc = subprocess.run([sys.executable, "examples/gp_regression.py", *flags], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, f"gp_regression {flags} failed:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout


def _parse(out: str) -> dict:
    def one(pattern):
        m = re.search(pattern, out)
        assert m, f"missing {pattern!r} in:\n{out}"
        return [float(g) for g in m.groups()]

    (initial,) = one(r"initial nlml " + FLOAT)
    fitted, _, status = one(r"fitted nlml " + FLOAT + r" after (\d+) iterations \(status (\d+)\)")
    length, signal, noise = one(r"length " + FLOAT + " signal " + FLOAT + " noise " + FLOAT)
    (grad_norm,) = one(r"gradient norm at optimum " + FLOAT)
    (fd_err,) = one(r"max \|grad - finite difference\| = " + FLOAT)
    (hess_min,) = one(r"min Hessian eigenvalue at optimum " + FLOAT)
    rmse, mlpd = one(r"test rmse " + FLOAT + " mean log predictive density " + FLOAT)
    return dict(initial=initial, fitted=fitted, status=status, length=length, signal=signal, noise=noise,
                grad_norm=grad_norm, fd_err=fd_err, hess_min=hess_min, rmse=rmse, mlpd=mlpd)


@pytest.fixture(scope="module")
def fgrad_run():
    return _parse(_run())


def test_fit_converges_and_learns(fgrad_run):
    r = fgrad_run
    assert r["status"] == 0
    assert r["fitted"] < r["initial"] - 5.0
    assert r["grad_norm"] < 1e-4
    assert r["fd_err"] < 1e-6  # the exact gradient vs central differences
    assert r["hess_min"] > 0  # a minimum, not a saddle
    assert 0.1 < r["noise"] < 0.25  # the data's noise is 0.15
    assert r["rmse"] < 0.2


def test_matches_stored_jax_numbers(fgrad_run):
    for key, value in JAX_STORED.items():
        assert abs(fgrad_run[key] - value) <= 2e-6 + 1e-5 * abs(value), (key, fgrad_run[key], value)


@pytest.mark.slow
def test_matches_live_jax(fgrad_run):
    pytest.importorskip("jax")
    jax_run = _parse(_run("--jax", timeout=600))
    for key in JAX_STORED:
        assert abs(fgrad_run[key] - jax_run[key]) <= 2e-6 + 1e-5 * abs(jax_run[key]), key
