"""glibc's malloc keeps freed host memory for the next temporary once fgrad is imported
(core/host_malloc.py), unless the program opts out or tuned malloc itself."""

import os
import subprocess
import sys

import pytest

_PROBE = "import fgrad; from fgrad.core import host_malloc as h; print(h._tuned)"


def _tuned(**env) -> str:
    full = {k: v for k, v in os.environ.items() if k not in ("FGRAD_HOST_MALLOC", "MALLOC_TRIM_THRESHOLD_")}
    full.update(env, FGRAD_BACKEND="cpu")
    return subprocess.run([sys.executable, "-c", _PROBE], env=full, capture_output=True, text=True,
                          timeout=120, check=True).stdout.strip()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt")
def test_tuned_by_default_and_opt_outs_respected():
    import ctypes

    try:
        ctypes.CDLL(None).gnu_get_libc_version  # noqa: B018
    except AttributeError:
        pytest.skip("not glibc")
    assert _tuned() == "True"
    assert _tuned(FGRAD_HOST_MALLOC="0") == "False"
    assert _tuned(MALLOC_TRIM_THRESHOLD_="1000000") == "False"  # the program's own setting wins
