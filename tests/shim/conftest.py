"""Fixtures of the shim's tests."""

import pytest

import fgrad.torch._device as shim_device


@pytest.fixture
def no_cuda(monkeypatch):
    """The shim as on a machine without CUDA, also where a GPU (or ``FGRAD_BACKEND=fake``'s
    stand-in for one) is present: ``torch.cuda.is_available()`` is False inside the test."""
    monkeypatch.setattr(shim_device, "_core_cuda", lambda: None)
    shim_device.backend()
    yield
    monkeypatch.undo()
    shim_device.backend()
