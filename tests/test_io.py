"""Checkpoints (`fgrad.io`) and the safetensors format: round trips, exact types with
``like=``, hostile files refused without running anything, the format's bytes (stored, and
live against the ``safetensors`` package when installed), and shim state_dicts."""

from __future__ import annotations

import collections
import dataclasses
import io
import json
import pickle
import struct
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import fgrad
import fgrad.numpy as fnp
import fgrad.torch as ft
from fgrad.io import UnsafeCheckpointError, load, save
from fgrad.io import safetensors_format as sf
from fgrad.testing import fake_device
from fgrad.torch.utils import safetensors as shim_st
from fgrad.tree_util import register_dataclass, tree_leaves, tree_structure

Pair = collections.namedtuple("Pair", "a b")


@dataclasses.dataclass
class Layer:
    w: object
    b: object
    act: str = dataclasses.field(default="relu", metadata=dict(static=True))


register_dataclass(Layer)

FORMATS = ["ckpt.npz", "ckpt.safetensors"]


def _tree():
    return {
        "layers": [Layer(fnp.ones((2, 3), dtype=np.float32), fnp.zeros(3)),
                   Layer(fnp.eye(2), fnp.arange(2.0))],
        "pair": Pair(fnp.asarray([1, 2], dtype=np.int8), 0.5),
        "step": 7,
        "flag": True,
        "none": None,
        "c": fnp.asarray([1 + 2j], dtype=np.complex64),
        "scalar": fnp.asarray(3.0),
        "t": (fnp.asarray([True, False]),),
    }


def _same_leaves(a, b):
    la, lb = tree_leaves(a), tree_leaves(b)
    assert len(la) == len(lb)
    for x, y in zip(la, lb):
        assert type(x) is type(y) or (isinstance(x, fgrad.Array) and isinstance(y, fgrad.Array))
        if isinstance(x, fgrad.Array):
            assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(np.asarray(x), np.asarray(y))


@pytest.mark.parametrize("fname", FORMATS)
def test_round_trip_with_like_restores_exact_types(tmp_path, fname):
    tree = _tree()
    save(tmp_path / fname, tree)
    back = load(tmp_path / fname, like=tree)
    assert tree_structure(back) == tree_structure(tree)
    assert isinstance(back["pair"], Pair) and isinstance(back["layers"][1], Layer)
    assert back["step"] == 7 and type(back["step"]) is int and back["flag"] is True
    _same_leaves(back, tree)


@pytest.mark.parametrize("fname", FORMATS)
def test_round_trip_without_like_builds_builtin_containers(tmp_path, fname):
    save(tmp_path / fname, _tree())
    back = load(tmp_path / fname)
    assert back["layers"][0]["w"].dtype == np.float32 and back["layers"][0]["w"].shape == (2, 3)
    assert set(back["layers"][1]) == {"w", "b"}  # a dataclass comes back as a dict of its data fields
    assert back["pair"] == {"a": back["pair"]["a"], "b": 0.5}
    assert back["none"] is None and back["step"] == 7 and type(back["step"]) is int
    assert isinstance(back["t"], tuple) and back["t"][0].dtype == np.bool_
    assert back["scalar"].shape == ()


@settings(max_examples=20, deadline=None)
@given(st.dictionaries(st.text("abcxyz", min_size=1, max_size=3),
                       hnp.arrays(st.sampled_from([np.float32, np.float64, np.int32, np.uint8, np.bool_,
                                                   np.complex128, np.float16]),
                                  hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=3)),
                       max_size=4),
       st.sampled_from(FORMATS))
def test_round_trip_property(tmp_path_factory, tree, fname):
    path = tmp_path_factory.mktemp("p") / fname
    save(path, tree)
    back = load(path)
    assert set(back) == set(tree)
    for k, a in tree.items():
        assert back[k].dtype == a.dtype and back[k].shape == a.shape
        np.testing.assert_array_equal(np.asarray(back[k]), a)


def test_like_mismatches_are_named(tmp_path):
    p = tmp_path / "c.npz"
    save(p, {"w": fnp.ones((2, 2)), "b": fnp.zeros(2)})
    with pytest.raises(ValueError, match=r"'w' is float64\[2, 2\] but like= has float64\[3, 2\]"):
        load(p, like={"w": fnp.ones((3, 2)), "b": fnp.zeros(2)})
    with pytest.raises(ValueError, match="float32"):
        load(p, like={"w": fnp.ones((2, 2), dtype=np.float32), "b": fnp.zeros(2)})
    with pytest.raises(ValueError, match=r"missing \['v'\], unexpected \['w'\]"):
        load(p, like={"v": fnp.ones((2, 2)), "b": fnp.zeros(2)})


def test_save_refuses_what_it_cannot_store(tmp_path):
    with pytest.raises(ValueError, match="'a.b'"):
        save(tmp_path / "x.npz", {"a.b": 1.0, "a": {"b": 2.0}})
    with pytest.raises(TypeError, match="'name' is a str"):
        save(tmp_path / "x.npz", {"name": "mlp"})
    with pytest.raises(TypeError, match="traced"):
        fgrad.grad(lambda x: save(tmp_path / "x.npz", x) or x.sum())(fnp.ones(2))
    with pytest.raises(TypeError, match="dict keys"):
        save(tmp_path / "x.npz", {1.5: fnp.ones(1)})


def test_device_arrays_are_saved_through_the_host(tmp_path):
    with fake_device.installed():
        x = fgrad.device_put(fnp.arange(3.0), "fake")
        save(tmp_path / "d.npz", {"x": x})
    np.testing.assert_array_equal(np.asarray(load(tmp_path / "d.npz")["x"]), [0.0, 1.0, 2.0])


# -- hostile files -----------------------------------------------------------------------

class _Payload:
    ran = False

    def __reduce__(self):
        return (_mark_ran, ())


def _mark_ran():
    _Payload.ran = True
    return "pwned"


def test_object_array_npz_is_refused_without_unpickling(tmp_path):
    p = tmp_path / "evil.npz"
    np.savez(p, w=np.ones(2), evil=np.array([_Payload()], dtype=object))
    with pytest.raises(UnsafeCheckpointError, match="'evil' is an object array"):
        load(p)
    assert not _Payload.ran


def test_pickles_and_foreign_members_are_refused(tmp_path):
    p = tmp_path / "evil.pkl"
    p.write_bytes(pickle.dumps({"w": _Payload()}))
    with pytest.raises(UnsafeCheckpointError, match="pickle"):
        load(p)
    z = tmp_path / "evil.npz"
    with zipfile.ZipFile(z, "w") as f:
        f.writestr("data.pkl", pickle.dumps(_Payload()))
    with pytest.raises(UnsafeCheckpointError, match="data.pkl"):
        load(z)
    npy = tmp_path / "a.npy"
    np.save(npy, np.ones(2))
    with pytest.raises(UnsafeCheckpointError, match="npy"):
        load(npy)
    assert not _Payload.ran


def test_plain_npz_loads_as_flat_dict(tmp_path):
    p = tmp_path / "plain.npz"
    np.savez(p, a=np.arange(3), b=np.eye(2, dtype=np.float32))
    back = load(p)
    assert set(back) == {"a", "b"} and back["b"].dtype == np.float32


# -- the safetensors format --------------------------------------------------------------

def test_safetensors_bytes_match_the_spec():
    # Built by hand from the format description: u64 header size, JSON, padding, LE data.
    blob = sf.dumps({"w": np.array([1.0, 2.0], np.float32), "i": np.array([[3]], np.int16)})
    header = b'{"i":{"dtype":"I16","shape":[1,1],"data_offsets":[0,2]},' \
             b'"w":{"dtype":"F32","shape":[2],"data_offsets":[2,10]}}'
    header += b" " * (-len(header) % 8)
    expected = struct.pack("<Q", len(header)) + header + struct.pack("<h", 3) + struct.pack("<2f", 1.0, 2.0)
    assert blob == expected


def _blob(header: bytes, data: bytes = b"") -> bytes:
    return struct.pack("<Q", len(header)) + header + data


@pytest.mark.parametrize("bad, match", [
    (b"\x01\x00", "shorter"),
    (struct.pack("<Q", 1 << 40) + b"{}", "exceeds"),
    (_blob(b"[]"), "not a JSON object"),
    (_blob(b"{nope"), "not valid JSON"),
    (_blob(b'{"x":{"dtype":"F32","shape":[4],"data_offsets":[0,16]}}'), "outside"),
    (_blob(b'{"x":{"dtype":"F32","shape":[3],"data_offsets":[0,16]}}', bytes(16)), "bytes"),
    (_blob(b'{"x":{"dtype":"F8_E4M3","shape":[2],"data_offsets":[0,2]}}', bytes(2)), "F8_E4M3"),
    (_blob(b'{"x":{"dtype":"F32","shape":[-1],"data_offsets":[0,4]}}', bytes(4)), "invalid shape"),
    (_blob(b'{"x":{"dtype":"F32"}}'), "lacks"),
])
def test_malformed_safetensors_are_refused(bad, match):
    with pytest.raises(sf.SafetensorsError, match=match):
        sf.loads(bad)


def test_live_safetensors_package_reads_and_writes_the_same_files(tmp_path):
    st_np = pytest.importorskip("safetensors.numpy")
    arrays = {"a": np.arange(6, dtype=np.float32).reshape(2, 3), "b": np.array([True, False])}
    st_np.save_file(arrays, str(tmp_path / "theirs.safetensors"))
    mine, _ = sf.load_file(tmp_path / "theirs.safetensors")
    theirs = st_np.load_file(str(tmp_path / "theirs.safetensors"))
    sf.save_file(arrays, tmp_path / "mine.safetensors")
    theirs_of_mine = st_np.load_file(str(tmp_path / "mine.safetensors"))
    for k in arrays:
        np.testing.assert_array_equal(mine[k], theirs[k])
        np.testing.assert_array_equal(theirs_of_mine[k], arrays[k])


# -- the shim's state_dicts ----------------------------------------------------------------

def test_shim_state_dict_round_trip(tmp_path):
    m = ft.nn.Linear(3, 2)
    shim_st.save_file(m.state_dict(), tmp_path / "m.safetensors", metadata={"epoch": "1"})
    m2 = ft.nn.Linear(3, 2)
    m2.load_state_dict(shim_st.load_file(tmp_path / "m.safetensors"))
    assert bool((m2.weight == m.weight).all()) and bool((m2.bias == m.bias).all())
    flat = load(tmp_path / "m.safetensors")  # the functional face reads it as a flat dict
    assert set(flat) == {"weight", "bias"} and flat["weight"].dtype == np.float32
    assert shim_st.load(shim_st.save({"x": ft.arange(3)}))["x"].tolist() == [0, 1, 2]
    with pytest.raises(TypeError, match="not a Tensor"):
        shim_st.save({"x": np.ones(2)})


def test_state_dict_of_real_torch_through_safetensors_format(tmp_path):
    torch = pytest.importorskip("torch")
    lin = torch.nn.Linear(3, 2)
    arrays = {k: v.detach().numpy() for k, v in lin.state_dict().items()}
    sf.save_file(arrays, tmp_path / "t.safetensors")
    sd = shim_st.load_file(tmp_path / "t.safetensors")
    m = ft.nn.Linear(3, 2)
    m.load_state_dict(sd)
    x = np.ones((1, 3), np.float32)
    want = lin(torch.tensor(x)).detach().numpy()
    np.testing.assert_allclose(m(ft.tensor(x)).detach().numpy(), want, rtol=1e-6)


def test_tree_json_is_plain_json(tmp_path):
    save(tmp_path / "c.npz", {"a": [fnp.ones(1)]})
    with zipfile.ZipFile(tmp_path / "c.npz") as z:
        raw = np.lib.format.read_array(io.BytesIO(z.read("__fgrad_tree__.npy")), allow_pickle=False)
    meta = json.loads(raw.tobytes())
    assert meta["format"] == "fgrad.io" and meta["tree"]["t"] == "dict"
