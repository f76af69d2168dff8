"""pytest configuration shared by the doctests under ``fgrad/`` (the test suite's own is
``tests/conftest.py``).

The docstring examples show what a user sees with the default configuration: arrays on the
CPU (``Array([0., 0.], dtype=float32)``; on a GPU the repr adds ``device=cuda:0``).  They
run with the CPU as fgrad's default device whatever ``FGRAD_BACKEND`` says, so the same
examples pass in ``FGRAD_BACKEND=cupy`` / ``FGRAD_BACKEND=fake`` runs; examples that place
arrays on a device say so themselves (``fgrad.device_put``).
"""

import pytest

import fgrad


@pytest.fixture(autouse=True)
def _doctests_on_the_cpu(request):
    if type(request.node).__name__ != "DoctestItem":
        yield
        return
    with fgrad.default_device("cpu"):
        yield
