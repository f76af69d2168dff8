"""``torch.hub``: models from a repository's ``hubconf.py`` and checkpoints from URLs, with
PyTorch's cache layout (``get_dir()``: ``$TORCH_HUB``, else ``$TORCH_HOME/hub``, else
``~/.cache/torch/hub``; checkpoints under ``<hub dir>/checkpoints``).

fgrad never downloads over the network: ``file://`` URLs (and files already in the cache)
work; an ``http(s)://`` URL not in the cache raises ``urllib.error.URLError`` at once
(never a hang).  ``load(..., source='local')`` imports ``hubconf.py`` from a directory;
``source='github'`` uses a repository already in the cache (``<hub dir>/owner_repo_ref``).
`load_state_dict_from_url` reads the file with `fgrad.torch.load` -- with
``weights_only=True`` through fgrad's safe unpickler (see docs/security.md).

Example::

    >>> import fgrad.torch as torch
    >>> torch.hub.get_dir().endswith("hub")
    True
"""

from __future__ import annotations

import builtins
import hashlib
import importlib.util
import os
import re
import shutil
import sys
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from typing import Any

from .serialization import load as _load

__all__ = ["download_url_to_file", "get_dir", "help", "list", "load", "load_state_dict_from_url", "set_dir"]

MODULE_HUBCONF = "hubconf.py"
VAR_DEPENDENCY = "dependencies"
HASH_REGEX = re.compile(r"-([a-f0-9]*)\.")
_hub_dir: str | None = None


def get_dir() -> str:
    """The hub cache directory (`set_dir`, else ``$TORCH_HUB``, else ``$TORCH_HOME/hub``, else
    ``$XDG_CACHE_HOME/torch/hub`` or ``~/.cache/torch/hub``).

    Example::

        >>> import fgrad.torch as torch
        >>> isinstance(torch.hub.get_dir(), str)
        True
    """
    if os.getenv("TORCH_HUB"):
        import warnings

        warnings.warn("TORCH_HUB is deprecated, please use env TORCH_HOME instead", UserWarning, stacklevel=2)
    if _hub_dir is not None:
        return _hub_dir
    torch_home = os.path.expanduser(os.getenv("TORCH_HOME", os.path.join(
        os.getenv("XDG_CACHE_HOME", "~/.cache"), "torch")))
    return os.path.join(torch_home, "hub")


def set_dir(d: str | os.PathLike) -> None:
    """Use ``d`` as the hub cache directory.

    Example::

        >>> import fgrad.torch as torch, tempfile
        >>> old = torch.hub.get_dir(); torch.hub.set_dir(tempfile.gettempdir())
        >>> torch.hub.get_dir() == tempfile.gettempdir()
        True
        >>> torch.hub.set_dir(old)
    """
    global _hub_dir
    _hub_dir = os.path.expanduser(os.fspath(d))


def _local_path(url: str) -> str:
    """The file a ``file://`` URL names; any other scheme is refused (fgrad has no network)."""
    parts = urllib.parse.urlparse(url)
    if parts.scheme == "file":
        return urllib.request.url2pathname(parts.path)
    if parts.scheme == "" and os.path.exists(url):
        return url
    raise urllib.error.URLError(
        f"fgrad.torch.hub cannot fetch {url!r}: it does not download over the network. Put the file in the "
        f"cache ({os.path.join(get_dir(), 'checkpoints')}) or pass a file:// URL")


def download_url_to_file(url: str, dst: str, hash_prefix: str | None = None, progress: bool = True) -> None:
    """Copy the object at ``url`` (a ``file://`` URL) to ``dst``, through a temporary file in
    ``dst``'s directory; with ``hash_prefix``, the SHA-256 of the bytes must start with it.

    Example::

        >>> import fgrad.torch as torch, os, pathlib, tempfile
        >>> d = tempfile.mkdtemp(); src = os.path.join(d, "a.bin"); _ = open(src, "wb").write(b"hi")
        >>> url = pathlib.Path(src).as_uri()
        >>> torch.hub.download_url_to_file(url, os.path.join(d, "b.bin"), progress=False)
        >>> open(os.path.join(d, "b.bin"), "rb").read()
        b'hi'
    """
    src = _local_path(url)
    dst = os.path.expanduser(dst)
    dst_dir = os.path.dirname(os.path.abspath(dst))
    tmp = tempfile.NamedTemporaryFile(delete=False, dir=dst_dir, prefix=os.path.basename(dst) + ".",
                                      suffix=".partial")
    try:
        sha256 = hashlib.sha256()
        with open(src, "rb") as fin, tmp:
            while chunk := fin.read(1 << 20):
                tmp.write(chunk)
                sha256.update(chunk)
        if hash_prefix is not None:
            digest = sha256.hexdigest()
            if digest[: len(hash_prefix)] != hash_prefix:
                raise RuntimeError(f'invalid hash value (expected "{hash_prefix}", got "{digest}")')
        shutil.move(tmp.name, dst)
    finally:
        if os.path.exists(tmp.name):
            os.remove(tmp.name)


def load_state_dict_from_url(url: str, model_dir: str | None = None, map_location: Any = None,
                             progress: bool = True, check_hash: bool = False, file_name: str | None = None,
                             weights_only: bool = False) -> dict[str, Any]:
    """Load the checkpoint at ``url`` with `fgrad.torch.load`, keeping a copy in ``model_dir``
    (default ``<hub dir>/checkpoints``) that later calls reuse.  ``check_hash``: the file
    name's ``-<hex>.`` part must prefix the file's SHA-256.  ``weights_only=True`` reads it
    with fgrad's safe unpickler (no code from the file runs); False (PyTorch's default) runs
    pickle's full machinery -- only for files you trust.

    Example::

        >>> import fgrad.torch as torch, os, pathlib, tempfile
        >>> d = tempfile.mkdtemp(); src = os.path.join(d, "w.pt"); torch.save({"w": torch.ones(2)}, src)
        >>> torch.hub.load_state_dict_from_url(pathlib.Path(src).as_uri(), model_dir=os.path.join(d, "cache"),
        ...                                    weights_only=True, progress=False)
        {'w': tensor([1., 1.])}
    """
    if os.getenv("TORCH_MODEL_ZOO"):
        import warnings

        warnings.warn("TORCH_MODEL_ZOO is deprecated, please use env TORCH_HOME instead", UserWarning,
                      stacklevel=2)
    if model_dir is None:
        model_dir = os.path.join(get_dir(), "checkpoints")
    os.makedirs(model_dir, exist_ok=True)
    filename = file_name or os.path.basename(urllib.parse.urlparse(url).path)
    cached_file = os.path.join(model_dir, filename)
    if not os.path.exists(cached_file):
        if progress:
            sys.stderr.write(f'Downloading: "{url}" to {cached_file}\n')
        hash_prefix = None
        if check_hash:
            r = HASH_REGEX.search(filename)
            hash_prefix = r.group(1) if r else None
        download_url_to_file(url, cached_file, hash_prefix, progress=progress)
    return _load(cached_file, map_location=map_location, weights_only=weights_only)


# -- hubconf.py repositories ---------------------------------------------------------------------


def _import_hubconf(repo_dir: str) -> Any:
    path = os.path.join(repo_dir, MODULE_HUBCONF)
    if not os.path.isfile(path):
        raise ValueError(f"torch.hub: no {MODULE_HUBCONF} in {repo_dir!r}")
    sys.path.insert(0, repo_dir)
    try:
        spec = importlib.util.spec_from_file_location("hubconf", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(repo_dir)
    missing = [pkg for pkg in getattr(module, VAR_DEPENDENCY, None) or []
               if importlib.util.find_spec(pkg) is None]
    if missing:
        raise RuntimeError(f"Missing dependencies: {', '.join(missing)}")
    return module


def _repo_dir(github: str, source: str, force_reload: bool) -> str:
    if source == "local" or (source == "github" and os.path.isdir(github)):
        return github
    if source != "github":
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    repo, _, ref = github.partition(":")
    if "/" not in repo:
        raise ValueError(f'Invalid input: repo_or_dir must be "owner/repo[:ref]" or a directory, '
                         f'got {github!r}')
    owner, name = repo.split("/", 1)
    hub_dir = get_dir()
    candidates = [ref] if ref else ["main", "master"]
    for r in candidates:
        d = os.path.join(hub_dir, "_".join([owner, name, r.replace("/", "_")]))
        if os.path.isdir(d) and not force_reload:
            return d
    raise urllib.error.URLError(
        f"fgrad.torch.hub cannot fetch the GitHub repository {github!r}: it does not download over the "
        f"network. Clone it and pass the directory with source='local', or place it at "
        f"{os.path.join(hub_dir, '_'.join([owner, name, candidates[0]]))}")


def _entry(module: Any, model: str) -> Callable[..., Any]:
    if not isinstance(model, str):
        raise ValueError("Invalid input: model should be a string of function name")
    fn = getattr(module, model, None)
    if fn is None or not callable(fn):
        raise RuntimeError(f"Cannot find callable {model} in hubconf")
    return fn


def list(github: str, force_reload: bool = False, skip_validation: bool = False,  # noqa: A001
         trust_repo: bool | str | None = "check", verbose: bool = True) -> builtins.list[str]:
    """The entrypoints (public callables) of a repository's ``hubconf.py`` (a directory, or
    ``owner/repo[:ref]`` in the cache).

    Example::

        >>> import fgrad.torch as torch, os, tempfile
        >>> d = tempfile.mkdtemp()
        >>> _ = open(os.path.join(d, "hubconf.py"), "w").write("def tiny():\\n    return 1\\n")
        >>> torch.hub.list(d)
        ['tiny']
    """
    module = _import_hubconf(_repo_dir(github, "github", force_reload))
    return [f for f in dir(module) if callable(getattr(module, f)) and not f.startswith("_")]


def help(github: str, model: str, force_reload: bool = False, skip_validation: bool = False,  # noqa: A001
         trust_repo: bool | str | None = "check") -> str | None:
    """The docstring of the entrypoint ``model``.

    Example::

        >>> import fgrad.torch as torch, os, tempfile
        >>> d = tempfile.mkdtemp()
        >>> _ = open(os.path.join(d, "hubconf.py"), "w").write(
        ...     'def tiny():\\n    "A tiny model."\\n    return 1\\n')
        >>> torch.hub.help(d, "tiny")
        'A tiny model.'
    """
    return _entry(_import_hubconf(_repo_dir(github, "github", force_reload)), model).__doc__


def load(repo_or_dir: str, model: str, *args: Any, source: str = "github",
         trust_repo: bool | str | None = "check", force_reload: bool = False, verbose: bool = True,
         skip_validation: bool = False, **kwargs: Any) -> Any:
    """Call the entrypoint ``model`` of a repository's ``hubconf.py`` with ``*args, **kwargs``
    (``source='local'``: ``repo_or_dir`` is a directory; ``'github'``: ``owner/repo[:ref]``
    already in the hub cache).

    Example::

        >>> import fgrad.torch as torch, os, tempfile
        >>> d = tempfile.mkdtemp()
        >>> _ = open(os.path.join(d, "hubconf.py"), "w").write("def lin(n=2):\\n"
        ...     "    import fgrad.torch as torch\\n    return torch.nn.Linear(n, 1)\\n")
        >>> torch.hub.load(d, "lin", 3, source="local").in_features
        3
    """
    source = source.lower()
    if source not in ("github", "local"):
        raise ValueError(f'Unknown source: "{source}". Allowed values: "github" | "local".')
    module = _import_hubconf(_repo_dir(repo_or_dir, source, force_reload))
    return _entry(module, model)(*args, **kwargs)
