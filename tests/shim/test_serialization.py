"""fgrad.torch.save / load: PyTorch's zip format, storage sharing, map_location, and the
weights_only restricted unpickler (no code runs from an untrusted file)."""

from __future__ import annotations

import io
import os
import pickle
import stat
import sys
import tracemalloc
import zipfile

import numpy as np
import pytest

import fgrad.torch as ft
from fgrad.torch import nn
from fgrad.torch import serialization as S

try:
    import torch as _torch
except Exception:  # noqa: BLE001
    _torch = None

needs_torch = pytest.mark.skipif(_torch is None, reason="torch is not installed")


def _roundtrip(obj, **load_kw):
    buf = io.BytesIO()
    ft.save(obj, buf)
    buf.seek(0)
    return ft.load(buf, **load_kw)


@pytest.mark.parametrize("dtype", [ft.float32, ft.float64, ft.float16, ft.int8, ft.int16, ft.int32, ft.int64,
                                   ft.uint8, ft.bool, ft.complex64])
def test_tensor_dtypes_roundtrip(dtype) -> None:
    a = (ft.arange(12) % 3).to(dtype).view(3, 4)
    b = _roundtrip(a)
    assert b.dtype == dtype and b.shape == a.shape and ft.equal(a, b)


def test_views_share_storage_after_load(tmp_path) -> None:
    base = ft.arange(12.0)
    obj = {"base": base, "mat": base.view(3, 4), "row": base.view(3, 4)[1], "t": base.view(3, 4).t(),
           "step": base[::3], "scalar": base[5], "empty": ft.tensor([]), "zero_d": ft.tensor(3.5)}
    path = tmp_path / "views.pth"
    ft.save(obj, path)
    with zipfile.ZipFile(path) as zf:
        data = [n for n in zf.namelist() if "/data/" in n]
    assert len(data) == 3  # base's storage once, plus the two independent tensors
    r = ft.load(path)
    for k, v in obj.items():
        assert ft.equal(r[k], v) and r[k].shape == v.shape and r[k].stride() == v.stride(), k
    r["base"][4] = -1.0  # the views still alias one storage
    assert r["mat"][1, 0].item() == -1.0 and r["row"][0].item() == -1.0 and r["t"][0, 1].item() == -1.0
    assert r["step"].storage_offset() == 0 and r["scalar"].storage_offset() == 5


def test_record_layout_is_pytorchs(tmp_path) -> None:
    path = tmp_path / "model.pth"
    ft.save({"w": ft.ones(3)}, path)
    with zipfile.ZipFile(path) as zf:
        names = zf.namelist()
        assert names == ["model/data.pkl", "model/.format_version", "model/.storage_alignment",
                         "model/byteorder",
                         "model/data/0", "model/version", "model/.data/serialization_id"]
        assert zf.read("model/byteorder") == b"little" and zf.read("model/version") == b"3\n"
        info = zf.getinfo("model/data/0")
        assert info.compress_type == zipfile.ZIP_STORED
        assert (info.header_offset + 30 + len(info.filename) + len(info.extra)) % 64 == 0
        assert np.frombuffer(zf.read("model/data/0"), np.float32).tolist() == [1.0, 1.0, 1.0]
    buf = io.BytesIO()
    ft.save(ft.ones(1), buf)
    assert zipfile.ZipFile(io.BytesIO(buf.getvalue())).namelist()[0] == "archive/data.pkl"


def test_state_dict_and_module_roundtrip(tmp_path) -> None:
    ft.manual_seed(0)
    net = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3))
    net(ft.randn(4, 1, 4, 4))  # move the running statistics
    path = tmp_path / "sd.pth"
    ft.save(net.state_dict(), path)
    sd = ft.load(path)
    assert list(sd) == list(net.state_dict()) and dict(sd._metadata) == dict(net.state_dict()._metadata)
    other = nn.Sequential(nn.Conv2d(1, 2, 3), nn.BatchNorm2d(2), nn.ReLU(), nn.Flatten(), nn.Linear(8, 3))
    assert repr(other.load_state_dict(sd)) == "<All keys matched successfully>"
    x = ft.randn(2, 1, 4, 4)
    net.eval()
    other.eval()
    assert ft.equal(net(x), other(x))
    ft.save(net, tmp_path / "whole.pth")
    with pytest.raises(pickle.UnpicklingError, match="Weights only load failed"):
        ft.load(tmp_path / "whole.pth")
    again = ft.load(tmp_path / "whole.pth", weights_only=False)
    assert type(again) is nn.Sequential and repr(again) == repr(net)
    assert isinstance(again[0].weight, nn.Parameter) and again[0].weight.requires_grad
    assert ft.equal(again(x), net(x))


def test_requires_grad_parameters_and_containers() -> None:
    p = nn.Parameter(ft.tensor([1.0, 2.0]))
    frozen = nn.Parameter(ft.ones(2), requires_grad=False)
    leaf = ft.ones(2, requires_grad=True)
    obj = {"p": p, "frozen": frozen, "leaf": leaf, "nonleaf": leaf * 2, "tup": (1, "a", None, 2.5, True),
           "set": {1, 2}, "bytes": b"xyz", "nested": [[ft.zeros(1)], {"k": ft.ones(1)}], "cplx": 1 + 2j,
           "size": ft.Size([2, 3]), "dtype": ft.int16, "dev": ft.device("cpu")}
    r = _roundtrip(obj)
    assert isinstance(r["p"], nn.Parameter) and r["p"].requires_grad
    assert isinstance(r["frozen"], nn.Parameter) and not r["frozen"].requires_grad
    assert r["leaf"].requires_grad and r["leaf"].is_leaf
    assert r["nonleaf"].requires_grad and r["nonleaf"].is_leaf and ft.equal(r["nonleaf"], ft.full((2,), 2.0))
    for k in ("tup", "set", "bytes", "cplx", "size", "dtype", "dev"):
        assert r[k] == obj[k], k
    assert isinstance(r["size"], ft.Size)


def test_optimizer_state_dict_roundtrip() -> None:
    w = ft.randn(3, requires_grad=True)
    opt = ft.optim.Adam([w], lr=0.1)
    (w ** 2).sum().backward()
    opt.step()
    sd = _roundtrip(opt.state_dict())
    assert sd["param_groups"] == opt.state_dict()["param_groups"]
    assert ft.equal(sd["state"][0]["exp_avg"], opt.state[w]["exp_avg"])
    assert sd["state"][0]["step"].dtype == ft.float32


def test_map_location_variants() -> None:
    buf = io.BytesIO()
    ft.save({"a": ft.arange(3.0)}, buf)
    seen = []

    def hook(storage, loc):
        seen.append(loc)
        return storage

    for ml in ("cpu", ft.device("cpu"), {"cuda:1": "cuda:0"}, hook, lambda s, loc: None):
        buf.seek(0)
        r = ft.load(buf, map_location=ml)
        assert ft.equal(r["a"], ft.arange(3.0)) and r["a"].device == ft.device("cpu")
    assert seen == ["cpu"]
    if not ft.cuda.is_available():
        buf.seek(0)
        with pytest.raises(RuntimeError, match="Attempting to deserialize object on a CUDA device"):
            ft.load(buf, map_location="cuda:0")


def test_weights_only_refuses_code(tmp_path) -> None:
    marker = tmp_path / "pwned"

    class Evil:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    path = tmp_path / "evil.pth"
    with zipfile.ZipFile(path, "w") as zf:  # a hand-made checkpoint whose pickle calls os.system
        zf.writestr("evil/data.pkl", pickle.dumps({"x": Evil()}, protocol=2))
        zf.writestr("evil/version", "3\n")
    blocked = "unsupported GLOBAL posix.system whose module posix is blocked"  # PyTorch's blocked modules
    with pytest.raises(pickle.UnpicklingError, match=blocked) as e:
        ft.load(path)
    assert "weights_only" in str(e.value)
    assert not marker.exists()
    # pickled functions and classes are refused too, as are dict states on foreign objects
    for payload in (pickle.dumps(print, protocol=2), pickle.dumps(nn.ReLU, protocol=2)):
        with zipfile.ZipFile(path, "w") as zf:
            zf.writestr("evil/data.pkl", payload)
        with pytest.raises(pickle.UnpicklingError):
            ft.load(path)
    with pytest.raises(RuntimeError, match="Can not safely load weights when explicit pickle_module"):
        ft.load(path, pickle_module=pickle, weights_only=True)
    ft.load(path, weights_only=False)  # trusted: a class object comes back


class Config:
    def __init__(self, depth):
        self.depth = depth


def test_safe_globals() -> None:
    obj = {"cfg": Config(3), "w": ft.ones(2)}
    buf = io.BytesIO()
    ft.save(obj, buf)
    buf.seek(0)
    with pytest.raises(pickle.UnpicklingError, match="Config"):
        ft.load(buf)
    buf.seek(0)
    with S.safe_globals([Config]):
        r = ft.load(buf)
    assert r["cfg"].depth == 3 and Config not in S.get_safe_globals()


def test_file_objects_and_errors(tmp_path) -> None:
    class WriteOnly:
        def __init__(self):
            self.chunks = []

        def write(self, b):
            self.chunks.append(bytes(b))
            return len(b)

    w = WriteOnly()
    ft.save(ft.tensor([7.0]), w)
    assert ft.load(io.BytesIO(b"".join(w.chunks))).item() == 7.0
    p = tmp_path / "x.bin"
    p.write_bytes(pickle.dumps([1, 2]))
    with pytest.raises(RuntimeError, match="not a zip archive"):
        ft.load(p)
    st = ft.arange(4.0).storage()
    assert list(_roundtrip(st)) == [0.0, 1.0, 2.0, 3.0]


@needs_torch
def test_pytorch_reads_fgrad_files(tmp_path) -> None:
    base = ft.arange(12.0)
    net = nn.Sequential(nn.Linear(2, 3), nn.Tanh())
    obj = {"sd": net.state_dict(), "view": base.view(3, 4).t(), "base": base, "long": ft.tensor([1, 2]),
           "p": nn.Parameter(ft.ones(2)), "size": ft.Size([1, 2]), "dt": ft.float64}
    path = tmp_path / "f.pth"
    ft.save(obj, path)
    r = _torch.load(path)  # PyTorch's own weights_only loader accepts it
    assert r["view"].stride() == (1, 4) and r["view"].untyped_storage().data_ptr() == \
        r["base"].untyped_storage().data_ptr()
    assert np.array_equal(r["view"].numpy(), obj["view"].numpy())
    assert isinstance(r["p"], _torch.nn.Parameter) and r["dt"] is _torch.float64 and r["size"] == (1, 2)
    tnet = _torch.nn.Sequential(_torch.nn.Linear(2, 3), _torch.nn.Tanh())
    tnet.load_state_dict(r["sd"])
    ft.save(net, tmp_path / "m.pth")
    tm = _torch.load(tmp_path / "m.pth", weights_only=False)  # even whole modules
    x = np.ones((1, 2), np.float32)
    assert np.allclose(tm(_torch.tensor(x)).detach().numpy(), net(ft.tensor(x)).detach().numpy(), atol=1e-6)


@needs_torch
def test_fgrad_reads_pytorch_files(tmp_path) -> None:
    t = _torch
    lstm = t.nn.LSTM(3, 4)
    obj = {"sd": lstm.state_dict(), "slice": t.arange(6.0).view(2, 3)[:, 1:], "half": t.tensor([1.5],
                                                                                               dtype=t.half),
           "bf16": t.tensor([1.5, -2.25], dtype=t.bfloat16), "i": t.tensor([3], dtype=t.int32)}
    path = tmp_path / "t.pth"
    t.save(obj, path)
    r = ft.load(path)
    assert r["slice"].tolist() == [[1.0, 2.0], [4.0, 5.0]] and r["half"].dtype == ft.float16
    assert r["bf16"].tolist() == [1.5, -2.25] and r["bf16"].dtype == ft.bfloat16 and r["i"].dtype == ft.int32
    fl = nn.LSTM(3, 4)
    fl.load_state_dict(r["sd"])
    x = np.random.default_rng(0).standard_normal((5, 2, 3)).astype(np.float32)
    assert np.allclose(fl(ft.tensor(x))[0].detach().numpy(), lstm(t.tensor(x))[0].detach().numpy(), atol=1e-5)
    tm = t.nn.Sequential(t.nn.Linear(2, 3), t.nn.ReLU(), t.nn.BatchNorm1d(3))
    t.save(tm, tmp_path / "tm.pth")
    with pytest.raises(pickle.UnpicklingError, match="torch.nn.modules.container.Sequential"):
        ft.load(tmp_path / "tm.pth")
    fm = ft.load(tmp_path / "tm.pth", weights_only=False)  # PyTorch's classes map onto fgrad's
    assert type(fm) is nn.Sequential and isinstance(fm[2], nn.BatchNorm1d)
    tm.eval()
    fm.eval()
    x = np.random.default_rng(1).standard_normal((4, 2)).astype(np.float32)
    assert np.allclose(fm(ft.tensor(x)).detach().numpy(), tm(t.tensor(x)).detach().numpy(), atol=1e-6)


# ---------------------------------------------------------------------------------------
# streaming loads and atomic saves


def _traced_peak(fn):
    tracemalloc.start()
    try:
        out = fn()
        return out, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_load_streams_storages_into_their_buffers(tmp_path) -> None:
    n = 4 * 2**20  # 16 MiB of float32 in one storage, and the same again in 16 small ones
    big = np.random.default_rng(0).standard_normal(n, dtype=np.float32)
    for obj in ({"w": ft.tensor(big)}, {f"w{k}": ft.tensor(big[k::16]) for k in range(16)}):
        path = tmp_path / "ckpt.pt"
        ft.save(obj, path)
        got, peak = _traced_peak(lambda: ft.load(path))  # noqa: B023
        assert peak < 1.1 * big.nbytes + 2**20, f"load peak {peak / 2**20:.1f} MiB for a 16 MiB file"
        for k, v in obj.items():
            assert np.array_equal(got[k].numpy(), v.numpy())


@needs_torch
def test_load_of_pytorch_checkpoint_peak_memory(tmp_path) -> None:
    path = tmp_path / "torch.pt"
    _torch.save({"w": _torch.randn(4 * 2**20), "b": _torch.arange(1000)}, path)
    got, peak = _traced_peak(lambda: ft.load(path))
    assert peak < 1.1 * 16 * 2**20 + 2**20
    assert np.array_equal(got["w"].numpy(), _torch.load(path)["w"].numpy())


def test_big_endian_files_are_byteswapped() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("a/data.pkl", b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storage"
                    b"ctorch\nIntStorage\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpuK\x02tQK\x00K\x02\x85K\x01"
                    b"\x85\x89NtR.")
        zf.writestr("a/byteorder", "big" if sys.byteorder == "little" else "little")
        zf.writestr("a/data/0", np.array([1, 258], dtype=np.int32).byteswap().tobytes())
    buf.seek(0)
    assert ft.load(buf).tolist() == [1, 258]


def test_save_is_atomic(tmp_path, monkeypatch) -> None:
    path = tmp_path / "model.pt"
    ft.save({"v": ft.tensor([1.0])}, path)
    old = path.read_bytes()
    synced = []
    real_fsync = os.fsync
    monkeypatch.setattr(os, "fsync", lambda fd: (synced.append(fd), real_fsync(fd)))

    def crash(*args, **kw):
        raise KeyboardInterrupt("power cut")

    with monkeypatch.context() as m:  # a crash in the middle of writing the archive
        real_write = S._write_archive

        def torn(obj_pickle, order, prefix, target, disable):
            target.write(b"PK\x03\x04 half a file")
            crash()

        m.setattr(S, "_write_archive", torn)
        with pytest.raises(KeyboardInterrupt):
            ft.save({"v": ft.tensor([2.0])}, path)
        assert real_write is not torn
    assert path.read_bytes() == old  # the old file is intact
    assert os.listdir(tmp_path) == ["model.pt"]  # and no temporary file is left behind
    ft.save({"v": ft.tensor([3.0])}, path)
    assert ft.load(path)["v"].tolist() == [3.0] and synced
    assert os.listdir(tmp_path) == ["model.pt"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o666 & ~umask  # as a plain open() would create it


def test_atomic_save_keeps_links_modes_and_special_files(tmp_path) -> None:
    real = tmp_path / "real.pt"
    link = tmp_path / "link.pt"
    ft.save(ft.tensor([1.0]), real)
    os.chmod(real, 0o600)
    link.symlink_to(real)
    ft.save(ft.tensor([2.0]), link)  # through the link: the target is replaced, the link stays
    assert link.is_symlink() and ft.load(real).tolist() == [2.0]
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o600  # an existing file keeps its permissions
    assert sorted(os.listdir(tmp_path)) == ["link.pt", "real.pt"]
    if os.path.exists(os.devnull):  # a device is written to, never renamed over
        ft.save(ft.tensor([3.0]), os.devnull)
        assert stat.S_ISCHR(os.stat(os.devnull).st_mode)
