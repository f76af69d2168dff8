"""A pytest plugin that runs any tests with every annotated function and method of the
PyTorch face type-checked (the wrappers of ``tests/test_typing_torch.py``):

    PYTHONPATH=tests python -m pytest -p typecheck_torch_plugin tests/shim/test_ops.py

A test that fails with ``AnnotationViolation`` called a function in a way its annotation
does not allow: a wrong annotation, or (in the tests of bad input) a call that is wrong.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _torch_type_checked(monkeypatch):
    import test_typing_torch

    if test_typing_torch.WRAPPERS is None:
        test_typing_torch.WRAPPERS = test_typing_torch._wrappers()
    for owner, name, wrapper in test_typing_torch.WRAPPERS:
        monkeypatch.setattr(owner, name, wrapper)
