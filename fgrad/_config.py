"""`fgrad.config`: process-wide settings.

``fgrad.config.update("backend", "cuda")`` (or ``"cupy"``, ``"cuda:1"``, ``"cpu"``) sets the
default device new arrays are created on; the environment variable ``FGRAD_BACKEND`` sets it
at import (an unavailable backend there only warns, so ``import fgrad`` never fails).

Example::

    >>> import fgrad
    >>> fgrad.config.backend
    'numpy'
"""

from __future__ import annotations

from .backends import default_device, set_default_device

_ALIASES = {"backend": "backend", "default_device": "backend", "fgrad_backend": "backend",
            "jax_default_device": "backend", "jax_platforms": "backend", "jax_platform_name": "backend"}


class Config:
    """Settings: ``update(name, value)`` / ``read(name)``; names: ``backend``
    (alias ``default_device``)."""

    def update(self, name: str, value) -> None:
        key = _ALIASES.get(name)
        if key is None:
            raise KeyError(f"unknown fgrad config option {name!r}; options: backend (default_device)")
        set_default_device("cpu" if value is None else value)

    def read(self, name: str):
        key = _ALIASES.get(name)
        if key is None:
            raise KeyError(f"unknown fgrad config option {name!r}")
        return self.backend

    @property
    def backend(self) -> str:
        """Name of the default device's backend (``"numpy"``, ``"cupy"``)."""
        return default_device().backend_name

    @property
    def default_device(self):
        return default_device()

    def __repr__(self) -> str:
        return f"fgrad.config(backend={self.backend!r}, default_device={str(default_device())!r})"


config = Config()
