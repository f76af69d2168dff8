"""Fixtures of the shim's tests."""

import pytest

from fgrad import backends
import fgrad.torch._device as shim_device
from fgrad.testing import fake_device


@pytest.fixture
def no_cuda(monkeypatch):
    """The shim as on a machine without CUDA, also where a GPU (or ``FGRAD_BACKEND=fake``'s
    stand-in for one) is present: ``torch.cuda.is_available()`` is False inside the test."""
    monkeypatch.setattr(shim_device, "_core_cuda", lambda: None)
    shim_device.backend()
    yield
    monkeypatch.undo()
    shim_device.backend()


@pytest.fixture
def cuda_device():
    """The shim's ``"cuda"`` device for the test: the real GPU where the cupy backend is loaded
    (``FGRAD_BACKEND=cupy``, or any use of cupy in this process: the fake cannot impersonate
    it then), else the fake device standing in for it (``FGRAD_BACKEND=fake``'s, or one
    installed for the test).  Yields ``"cupy"`` or ``"fake"``."""
    if "cupy" in backends._BACKENDS:
        yield "cupy"
        return
    prev = fake_device.BACKEND
    prev_shape = None if prev is None else (prev.platform, len(prev.devices()))
    if prev_shape is not None and prev_shape[0] == "cuda":
        yield "fake"
        return
    fake_device.install(platform="cuda")
    shim_device.backend()
    try:
        yield "fake"
    finally:
        fake_device.uninstall()
        if prev_shape is not None:
            fake_device.install(*prev_shape)
        shim_device.backend()
