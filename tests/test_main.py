"""`python -m fgrad` prints the diagnostic report a bug report needs."""

import subprocess
import sys

import numpy as np

import fgrad


def test_python_m_fgrad_reports_versions_devices_and_packages():
    out = subprocess.run([sys.executable, "-m", "fgrad"], capture_output=True, text=True,
                         timeout=120, check=True).stdout
    lines = out.splitlines()
    assert lines[0] == f"fgrad {fgrad.__version__}"
    assert f"numpy {np.__version__}" in lines
    assert "devices:" in lines and "  cpu:0" in lines
    assert any(line.startswith("  blas:") or "not reported" in line for line in lines)
    for name in ("cupy", "scipy", "torch", "jax", "FGRAD_BACKEND", "FGRAD_LOG_COMPILES"):
        assert any(name in line for line in lines), name


def test_version_has_one_source():
    from importlib.metadata import PackageNotFoundError, version

    from fgrad._version import __version__

    assert fgrad.__version__ == __version__
    try:
        assert version("fgrad") == __version__
    except PackageNotFoundError:  # running from a source tree without an install
        pass
