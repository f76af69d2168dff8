"""torch.hub: local hubconf repositories, file:// checkpoints and the cache, compared with
PyTorch's torch.hub on the same files; no network (http fails at once)."""

import importlib
import os
import pathlib
import time
import urllib.error

import numpy as np
import pytest

import fgrad.torch as torch

HUBCONF = '''
dependencies = ["numpy"]


def tiny(n=2, *, bias=True):
    """A tiny linear model."""
    import torch
    return torch.nn.Linear(n, 1, bias=bias)


def _private():
    return None
'''


@pytest.fixture
def repo(tmp_path):
    (tmp_path / "repo").mkdir()
    (tmp_path / "repo" / "hubconf.py").write_text(HUBCONF)
    return str(tmp_path / "repo")


@pytest.fixture
def hubdir(tmp_path):
    old = torch.hub.get_dir()
    torch.hub.set_dir(str(tmp_path / "hub"))
    yield str(tmp_path / "hub")
    torch.hub.set_dir(old)


def test_local_repo_list_help_load(repo, monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "torch", torch)  # the hubconf's `import torch` is fgrad's
    assert torch.hub.list(repo) == ["tiny"]
    assert torch.hub.help(repo, "tiny") == "A tiny linear model."
    m = torch.hub.load(repo, "tiny", 3, source="local", bias=False)
    assert isinstance(m, torch.nn.Linear) and m.in_features == 3 and m.bias is None
    with pytest.raises(RuntimeError, match="Cannot find callable nosuch in hubconf"):
        torch.hub.load(repo, "nosuch", source="local")
    with pytest.raises(ValueError, match='Unknown source: "svn"'):
        torch.hub.load(repo, "tiny", source="svn")


def test_missing_dependency(tmp_path):
    (tmp_path / "hubconf.py").write_text('dependencies = ["no_such_pkg_xyz"]\ndef f():\n    return 1\n')
    with pytest.raises(RuntimeError, match="Missing dependencies: no_such_pkg_xyz"):
        torch.hub.load(str(tmp_path), "f", source="local")


def test_state_dict_from_file_url_and_cache(tmp_path, hubdir):
    src = tmp_path / "weights-3b1c2a.pt"
    torch.save({"w": torch.arange(3.0)}, str(src))
    url = src.as_uri()
    sd = torch.hub.load_state_dict_from_url(url, weights_only=True, progress=False)
    assert sd["w"].tolist() == [0.0, 1.0, 2.0]
    cached = os.path.join(hubdir, "checkpoints", src.name)
    assert os.path.exists(cached)
    src.unlink()  # the second call reads the cache
    again = torch.hub.load_state_dict_from_url(url, weights_only=True, progress=False)
    assert again["w"].tolist() == [0, 1, 2]
    named = torch.hub.load_state_dict_from_url(pathlib.Path(cached).as_uri(), model_dir=str(tmp_path / "m"),
                                               file_name="x.pt", weights_only=True, progress=False)
    assert named["w"].tolist() == [0, 1, 2] and os.path.exists(tmp_path / "m" / "x.pt")


def test_check_hash(tmp_path):
    src = tmp_path / "w-deadbeef.pt"
    torch.save({"w": torch.ones(1)}, str(src))
    with pytest.raises(RuntimeError, match='invalid hash value \\(expected "deadbeef", got "'):
        torch.hub.load_state_dict_from_url(src.as_uri(), model_dir=str(tmp_path / "c"), check_hash=True,
                                           weights_only=True, progress=False)
    assert not os.listdir(tmp_path / "c")  # no partial file left
    import hashlib

    good = tmp_path / f"w-{hashlib.sha256(src.read_bytes()).hexdigest()[:8]}.pt"
    good.write_bytes(src.read_bytes())
    out = torch.hub.load_state_dict_from_url(good.as_uri(), model_dir=str(tmp_path / "c"), check_hash=True,
                                             weights_only=True, progress=False)
    assert out["w"].tolist() == [1.0]


def test_weights_only_refuses_code(tmp_path):
    import pickle
    import zipfile

    class Evil:
        def __reduce__(self):
            return (os.system, ("echo pwned",))

    path = tmp_path / "evil.pt"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("evil/data.pkl", pickle.dumps(Evil(), protocol=2))
        z.writestr("evil/version", "3\n")
    with pytest.raises(pickle.UnpicklingError):
        torch.hub.load_state_dict_from_url(path.as_uri(), model_dir=str(tmp_path / "c"), weights_only=True,
                                           progress=False)


def test_network_urls_fail_fast(tmp_path):
    t0 = time.monotonic()
    with pytest.raises(urllib.error.URLError, match="does not download over the network"):
        torch.hub.load_state_dict_from_url("https://example.com/w.pt", model_dir=str(tmp_path),
                                           progress=False)
    with pytest.raises(urllib.error.URLError, match="does not download over the network"):
        torch.hub.download_url_to_file("http://example.com/w.pt", str(tmp_path / "w.pt"), progress=False)
    with pytest.raises(urllib.error.URLError, match="GitHub repository"):
        torch.hub.load("pytorch/vision", "resnet18")
    assert time.monotonic() - t0 < 5


def test_cached_github_repo_is_used(repo, hubdir, monkeypatch):
    import shutil

    monkeypatch.setitem(__import__("sys").modules, "torch", torch)
    shutil.copytree(repo, os.path.join(hubdir, "owner_name_main"))
    assert torch.hub.list("owner/name") == ["tiny"]
    assert torch.hub.load("owner/name", "tiny", 4).in_features == 4


def test_get_dir_follows_torch_home(monkeypatch, tmp_path):
    monkeypatch.setattr(torch.hub, "_hub_dir", None)
    monkeypatch.setenv("TORCH_HOME", str(tmp_path))
    assert torch.hub.get_dir() == os.path.join(str(tmp_path), "hub")


def test_matches_pytorch_live(tmp_path, repo):
    pt = pytest.importorskip("torch")
    pthub = importlib.import_module("torch.hub")
    src = tmp_path / "w.pt"
    pt.save({"w": pt.arange(4.0), "b": pt.ones(2, 2)}, str(src))
    mine = torch.hub.load_state_dict_from_url(src.as_uri(), model_dir=str(tmp_path / "a"), weights_only=True,
                                              progress=False)
    theirs = pthub.load_state_dict_from_url(src.as_uri(), model_dir=str(tmp_path / "b"), weights_only=True,
                                            progress=False)
    assert sorted(mine) == sorted(theirs)
    for k in mine:
        np.testing.assert_array_equal(mine[k].numpy(), theirs[k].numpy())
    m = pthub.load(repo, "tiny", 3, source="local", bias=False)
    assert (m.in_features, m.bias) == (3, None)
    old = os.environ.get("TORCH_HOME")
    os.environ["TORCH_HOME"] = str(tmp_path)
    try:
        torch.hub._hub_dir, saved = None, torch.hub._hub_dir
        assert torch.hub.get_dir() == pthub.get_dir()
    finally:
        torch.hub._hub_dir = saved
        if old is None:
            del os.environ["TORCH_HOME"]
        else:
            os.environ["TORCH_HOME"] = old
