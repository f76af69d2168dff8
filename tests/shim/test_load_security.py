"""``fgrad.torch.load(weights_only=True)`` against hostile files, and bounds-checked views.

Every malicious file here is assembled by the test itself: pickle opcodes written by hand
inside an otherwise valid torch zip archive.  A refused file must raise a clear error of the
expected type, never run code (canary files), never write files, never change global state,
and never crash the process.
"""

from __future__ import annotations

import base64
import io
import os
import pickle
import struct
import subprocess
import sys
import textwrap
import tracemalloc
import zipfile
import zlib
from collections import OrderedDict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import fgrad.torch as ft
from fgrad.torch import serialization as S

try:
    import torch as _torch
except ImportError:  # pragma: no cover - the peer is optional
    _torch = None
needs_torch = pytest.mark.skipif(_torch is None, reason="PyTorch not installed")

P = pickle
LOAD_ERRORS = (RuntimeError, pickle.UnpicklingError)
RETRY_HINT = "weights_only` set to `False`"


# ---------------------------------------------------------------------------------------
# hand assembly of pickles and archives


def g(module: str, name: str) -> bytes:
    """GLOBAL module.name"""
    return P.GLOBAL + module.encode() + b"\n" + name.encode() + b"\n"


def sg(module: str, name: str) -> bytes:
    """STACK_GLOBAL module.name (protocol 4)"""
    return u(module) + u(name) + P.STACK_GLOBAL


def u(s: str) -> bytes:
    raw = s.encode()
    return P.BINUNICODE + struct.pack("<I", len(raw)) + raw


def i(n: int) -> bytes:
    if 0 <= n < 2**31:
        return P.BININT + struct.pack("<i", n)
    raw = n.to_bytes((n.bit_length() + 8) // 8, "little", signed=True)
    return P.LONG1 + bytes([len(raw)]) + raw


def tup(*items: bytes) -> bytes:
    return P.MARK + b"".join(items) + P.TUPLE


def call(func: bytes, *args: bytes) -> bytes:
    return func + tup(*args) + P.REDUCE


def pkl(body: bytes, proto: int = 2) -> bytes:
    return P.PROTO + bytes([proto]) + body + P.STOP


def storage_pid(
    key: str = "0", storage: str = "FloatStorage", numel: int = 4, location: str = "cpu"
) -> bytes:
    return tup(u("storage"), g("torch", storage), u(key), u(location), i(numel)) + P.BINPERSID


def rebuild(size=(4,), stride=(1,), offset=0, pid: bytes | None = None) -> bytes:
    pid = storage_pid() if pid is None else pid
    return call(
        g("torch._utils", "_rebuild_tensor_v2"),
        pid,
        i(offset),
        tup(*map(i, size)),
        tup(*map(i, stride)),
        P.NEWFALSE,
        call(g("collections", "OrderedDict")),
    )


def archive(pickle_bytes: bytes, records: dict | None = None) -> bytes:
    """A torch zip archive holding ``pickle_bytes`` and storage ``records``
    (default: storage 0 = four float32s 0, 1, 2, 3)."""
    records = {"0": np.arange(4, dtype=np.float32).tobytes()} if records is None else records
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("archive/data.pkl", pickle_bytes)
        zf.writestr("archive/byteorder", sys.byteorder)
        for key, data in records.items():
            zf.writestr(f"archive/data/{key}", data)
        zf.writestr("archive/version", "3\n")
    return buf.getvalue()


def load_bytes(data: bytes, **kw):
    return ft.load(io.BytesIO(data), **kw)


@pytest.fixture
def canary(tmp_path, monkeypatch):
    """A directory the malicious files aim at; the test asserts it stays empty."""
    target = tmp_path / "canary"
    target.mkdir()
    monkeypatch.chdir(target)
    return target


# ---------------------------------------------------------------------------------------
# the honest path still works


def test_handmade_tensor_loads() -> None:
    t = load_bytes(archive(pkl(rebuild(size=(2, 2), stride=(1, 2)))))
    assert t.tolist() == [[0.0, 2.0], [1.0, 3.0]] and t.stride() == (1, 2)


# ---------------------------------------------------------------------------------------
# code execution, file writes, nested loads, global state


def _attacks(target: str) -> dict:
    touch = f"touch {target}/pwned"
    pwn_path = f"{target}/pwned"
    return {
        "os.system": call(g("os", "system"), u(touch)),
        "posix.system": call(g("posix", "system"), u(touch)),
        "stack_global os.system": call(sg("os", "system"), u(touch)),
        "eval": call(g("builtins", "eval"), u(f"open({pwn_path!r}, 'w')")),
        "exec": call(g("builtins", "exec"), u(f"open({pwn_path!r}, 'w')")),
        "__builtin__.eval": call(g("__builtin__", "eval"), u(f"open({pwn_path!r}, 'w')")),
        "open": call(g("builtins", "open"), u(pwn_path), u("w")),
        "getattr": call(
            call(g("builtins", "getattr"), g("collections", "OrderedDict"), u("fromkeys")), tup(u("a"))
        ),
        "setattr on a module": call(g("builtins", "setattr"), g("torch", "float32"), u("x"), i(1)),
        "__import__": call(g("builtins", "__import__"), u("os")),
        "subprocess": call(g("subprocess", "check_call"), tup(u("touch"), u(pwn_path))),
        "_get_layout -> save (writes a file)": call(
            call(g("torch.serialization", "_get_layout"), u("save")),
            call(g("collections", "OrderedDict")),
            u(pwn_path),
        ),
        "_get_layout -> set_default_dtype": call(
            call(g("torch.serialization", "_get_layout"), u("set_default_dtype")), g("torch", "float64")
        ),
        "nested load weights_only=False": call(g("torch", "load"), u(f"{target}/evil.pt")),
        "nested load (serialization)": call(g("torch.serialization", "load"), u(f"{target}/evil.pt")),
        "fgrad.torch.load": call(g("fgrad.torch", "load"), u(f"{target}/evil.pt")),
        "fgrad internals": call(g("fgrad.torch._dtypes", "set_default_dtype"), g("torch", "float64")),
        "fgrad.torch.save": call(g("fgrad.torch.serialization", "save"), i(1), u(pwn_path)),
        "torch.set_default_dtype": call(g("torch", "set_default_dtype"), g("torch", "float64")),
        "_rebuild_from_type_v2(_get_layout)": call(
            g("torch._tensor", "_rebuild_from_type_v2"),
            g("torch.serialization", "_get_layout"),
            g("torch", "Tensor"),
            tup(u("set_default_dtype")),
            P.EMPTY_DICT,
        ),
        "_rebuild_from_type_v2(Counter)": call(
            g("torch._tensor", "_rebuild_from_type_v2"),
            g("collections", "Counter"),
            g("torch", "Tensor"),
            tup(u("aa")),
            P.NONE,
        ),
        "_rebuild_from_type_v2 to a non-tensor type": call(
            g("torch._tensor", "_rebuild_from_type_v2"),
            g("torch._utils", "_rebuild_tensor_v2"),
            g("collections", "OrderedDict"),
            tup(storage_pid(), i(0), tup(i(4)), tup(i(1)), P.NEWFALSE, P.NONE),
            P.NONE,
        ),
    }


def test_code_execution_is_refused(canary) -> None:
    dtype_before = ft.get_default_dtype()
    module_before = dict(vars(ft))
    (canary / "evil.pt").write_bytes(archive(pkl(call(g("posix", "system"), u(f"touch {canary}/pwned")))))
    before = set(os.listdir(canary))
    for name, body in _attacks(str(canary)).items():
        with pytest.raises(pickle.UnpicklingError) as e:
            load_bytes(archive(pkl(body)))
        msg = str(e.value)
        assert ("Unsupported global" in msg or "is blocked" in msg or msg.startswith("_get_layout: unknown")
                or msg.startswith("_rebuild_from_type_v2: <")), (name, msg)
        assert set(os.listdir(canary)) == before, f"{name} wrote a file"
    assert ft.get_default_dtype() == dtype_before
    assert dict(vars(ft)) == module_before


def test_refusals_name_the_global_and_how_to_opt_in(canary) -> None:
    with pytest.raises(pickle.UnpicklingError, match="Unsupported global: GLOBAL subprocess.call") as e:
        load_bytes(archive(pkl(call(g("subprocess", "call"), u("true")))))
    assert "add_safe_globals" in str(e.value) and RETRY_HINT in str(e.value)
    # sys, os, posix, nt: PyTorch's blocked modules, no opt-in offered
    blocked = "unsupported GLOBAL os.system whose module os is blocked"
    with pytest.raises(pickle.UnpicklingError, match=blocked) as e:
        load_bytes(archive(pkl(call(g("os", "system"), u("true")))))
    assert "add_safe_globals" not in str(e.value) and RETRY_HINT in str(e.value)
    with pytest.raises(pickle.UnpicklingError, match="_get_layout: unknown layout 'load'"):
        load_bytes(archive(pkl(call(g("torch.serialization", "_get_layout"), u("load")))))


@pytest.mark.parametrize(
    ("name", "body"),
    [
        ("INST", P.MARK + P.INST + b"os\nsystem\n"),
        ("OBJ", P.MARK + g("collections", "OrderedDict") + P.OBJ),
        ("NEWOBJ OrderedDict", g("collections", "OrderedDict") + P.EMPTY_TUPLE + P.NEWOBJ),
        ("NEWOBJ Tensor (huge)", g("torch", "Tensor") + tup(i(2**40)) + P.NEWOBJ),
        ("REDUCE Tensor (huge)", call(g("torch", "Tensor"), i(2**40))),
        ("REDUCE bytearray (huge)", call(g("builtins", "bytearray"), i(2**40))),
        ("REDUCE a dtype", call(g("torch", "float32"), i(1))),
        ("REDUCE a storage type", call(g("torch", "FloatStorage"), i(1))),
        ("NEWOBJ_EX", g("collections", "OrderedDict") + P.EMPTY_TUPLE + P.EMPTY_DICT + P.NEWOBJ_EX),
        ("EXT1", P.EXT1 + b"\x01"),
        ("PERSID text", P.PERSID + b"0\n"),
        ("BUILD on a list", P.EMPTY_LIST + P.EMPTY_DICT + P.BUILD),
        ("BUILD on a Size", call(g("torch", "Size"), tup()) + P.EMPTY_DICT + P.BUILD),
        (
            "BUILD shadowing OrderedDict.items",
            call(g("collections", "OrderedDict"))
            + P.MARK
            + u("items")
            + g("builtins", "set")
            + P.DICT
            + P.BUILD,
        ),
        (
            "BUILD __class__ on a tensor",
            rebuild() + P.MARK + u("__class__") + g("collections", "OrderedDict") + P.DICT + P.BUILD,
        ),
        (
            "BUILD a property on a tensor",
            rebuild() + P.MARK + u("requires_grad") + P.NEWTRUE + P.DICT + P.BUILD,
        ),
        (
            "BUILD a private flag on a tensor",
            rebuild() + P.MARK + u("_is_param") + P.NEWTRUE + P.DICT + P.BUILD,
        ),
        (
            "state shadows a method",
            call(
                g("torch._tensor", "_rebuild_from_type_v2"),
                g("torch._utils", "_rebuild_tensor_v2"),
                g("torch", "Tensor"),
                tup(storage_pid(), i(0), tup(i(4)), tup(i(1)), P.NEWFALSE, P.NONE),
                P.MARK + u("sum") + i(1) + P.DICT,
            ),
        ),
        ("set(a 2**40-element tensor)", call(g("builtins", "set"), rebuild(size=(2**40,), stride=(0,)))),
        ("OrderedDict(a tensor)", call(g("collections", "OrderedDict"), rebuild())),
        ("complex(a tensor)", call(g("builtins", "complex"), rebuild())),
        ("SETITEM on a tensor", rebuild() + i(0) + i(1) + P.SETITEM),
        ("APPEND to a tuple", P.EMPTY_TUPLE + i(1) + P.APPEND),
        ("persistent id not a storage", tup(u("module"), u("os")) + P.BINPERSID),
        (
            "persistent id with a class",
            tup(u("storage"), g("collections", "OrderedDict"), u("0"), u("cpu"), i(4)) + P.BINPERSID,
        ),
    ],
)
def test_opcodes_that_could_run_code_are_refused(name, body, canary) -> None:
    with pytest.raises(pickle.UnpicklingError):
        load_bytes(archive(pkl(body)))
    assert os.listdir(canary) == []


def test_safe_globals_are_exact_opt_in(canary) -> None:
    class Box:
        pass

    body = g(__name__, "Box") + P.EMPTY_TUPLE + P.NEWOBJ + P.MARK + u("v") + i(3) + P.DICT + P.BUILD
    data = archive(pkl(body))
    with pytest.raises(pickle.UnpicklingError, match="add_safe_globals"):
        load_bytes(data)
    with S.safe_globals([(Box, f"{__name__}.Box")]):
        assert load_bytes(data).v == 3
    with pytest.raises(pickle.UnpicklingError):  # the context manager is undone
        load_bytes(data)


# ---------------------------------------------------------------------------------------
# lying storages and views


@pytest.mark.parametrize(
    ("pid", "match"),
    [
        (storage_pid(numel=5), "record data/0 has 16 bytes but its storage declares 5 elements"),
        (storage_pid(numel=2**60), "declares 1152921504606846976 elements"),
        (storage_pid(numel=-1), "malformed storage id"),
        (storage_pid(key="9"), "failed locating file data/9"),
        (storage_pid(key="../../etc/passwd"), "failed locating file"),
        (storage_pid(location="evil"), "don't know how to restore data location 'evil'"),
        (storage_pid(storage="DoubleStorage"), "has 16 bytes but its storage declares 4 elements of 8"),
    ],
)
def test_lying_storages(pid, match) -> None:
    with pytest.raises(RuntimeError, match=match) as e:
        load_bytes(archive(pkl(rebuild(pid=pid))))
    assert RETRY_HINT not in str(e.value)


def test_unknown_storage_dtype_names_are_refused() -> None:
    for name in ("QInt8Storage", "BFloat17Storage", "Storage", "UntypedStorage"):
        with pytest.raises(pickle.UnpicklingError, match=f"torch.{name}"):
            load_bytes(archive(pkl(rebuild(pid=storage_pid(storage=name)))))


@pytest.mark.parametrize(
    ("size", "stride", "offset", "match"),
    [
        (
            (5,),
            (1,),
            0,
            r"setStorage: sizes \[5\], strides \[1\], storage offset 0, and itemsize 4 requiring a "
            r"storage size of 20 are out of bounds for storage of size 16",
        ),
        ((2,), (1,), 3, "storage offset 3"),
        ((2, 2), (2, 2), 0, r"requiring a storage size of 20"),
        ((4,), (-1,), 3, r"Negative strides are not supported at the moment, got strides: \[-1\]"),
        ((2,), (1,), -2, "Tensor: invalid storage offset -2"),
        ((-1,), (1,), 0, "negative dimension -1"),
        ((2, 2), (1,), 0, "mismatch in length of strides and shape"),
        ((2**62, 4), (0, 0), 0, "overflowed"),
        ((2**40,), (2**40,), 0, "out of bounds"),
    ],
)
def test_lying_views_are_refused(size, stride, offset, match) -> None:
    with pytest.raises(RuntimeError, match=match) as e:
        load_bytes(archive(pkl(rebuild(size=size, stride=stride, offset=offset))))
    assert RETRY_HINT not in str(e.value)


def test_view_fields_must_be_ints() -> None:
    for body in (
        call(
            g("torch._utils", "_rebuild_tensor_v2"),
            storage_pid(),
            u("0"),
            tup(i(4)),
            tup(i(1)),
            P.NEWFALSE,
            P.NONE,
        ),
        call(
            g("torch._utils", "_rebuild_tensor_v2"),
            storage_pid(),
            i(0),
            tup(P.BINFLOAT + struct.pack(">d", 4.0)),
            tup(i(1)),
            P.NEWFALSE,
            P.NONE,
        ),
        call(
            g("torch._utils", "_rebuild_tensor_v2"),
            call(g("collections", "OrderedDict")),
            i(0),
            tup(i(4)),
            tup(i(1)),
            P.NEWFALSE,
            P.NONE,
        ),
    ):
        with pytest.raises(LOAD_ERRORS):
            load_bytes(archive(pkl(body)))


def test_zero_size_and_stride_zero_views_are_cheap() -> None:
    # stride 0 over 2**26 elements: a view over one storage element, not a 2**26 index array
    data = archive(pkl(rebuild(size=(2**26,), stride=(0,), offset=3)))
    tracemalloc.start()
    try:
        t = load_bytes(data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert t.shape == (2**26,) and t.stride() == (0,) and float(t[12345]) == 3.0
    assert peak < 8 * 2**20, f"loading a stride-0 view allocated {peak / 2**20:.0f} MiB"
    empty = load_bytes(archive(pkl(rebuild(size=(0, 5), stride=(5, 1), offset=100))))
    assert empty.shape == (0, 5)  # a view with no elements reaches nothing (as in PyTorch)


def test_as_strided_validates_and_is_cheap() -> None:
    x = ft.arange(10.0)
    with pytest.raises(
        RuntimeError, match=r"Negative strides are not supported at the moment, got strides: \[-1\]"
    ):
        x.as_strided((2,), (-1,), 5)
    with pytest.raises(RuntimeError, match="Tensor: invalid storage offset -1"):
        x.as_strided((2,), (1,), -1)
    with pytest.raises(RuntimeError, match="out of bounds for storage of size 40"):
        x.as_strided((3,), (4,), 2)
    with pytest.raises(RuntimeError, match="negative dimension"):
        ft.as_strided(x, (-2,), (1,))
    assert x.as_strided((3,), (4,), 1).tolist() == [1.0, 5.0, 9.0]
    tracemalloc.start()
    try:
        big = x.as_strided((2**13, 2**13), (0, 0), 9)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2**20 and float(big[100, 200]) == 9.0
    # the lazy view function still gives the right gradient
    w = ft.arange(6.0, requires_grad=True)
    w.as_strided((2, 2), (1, 2), 1).sum().backward()
    assert w.grad.tolist() == [0.0, 1.0, 1.0, 1.0, 1.0, 0.0]


# ---------------------------------------------------------------------------------------
# corrupted and truncated archives


def _valid_file() -> bytes:
    buf = io.BytesIO()
    ft.save({"w": ft.arange(6.0).view(2, 3), "b": ft.tensor([1, 2]), "meta": [1, "a", (2.5, None)]}, buf)
    return buf.getvalue()


def test_truncated_and_corrupted_files_give_clear_errors() -> None:
    data = _valid_file()
    for cut in (0, 10, len(data) // 2, len(data) - 10):
        with pytest.raises(RuntimeError, match="truncated or corrupted|not a zip archive") as e:
            load_bytes(data[:cut])
        assert RETRY_HINT not in str(e.value)
    # a flipped byte in tensor data is caught by the CRC, not returned as a wrong value
    start = data.index(np.arange(6.0, dtype=np.float32).tobytes())
    bad = bytearray(data)
    bad[start + 5] ^= 0xFF
    with pytest.raises(RuntimeError, match="CRC-32 mismatch"):
        load_bytes(bytes(bad))


def test_corrupt_pickle_does_not_suggest_weights_only_false() -> None:
    body = call(g("os", "system"), u("true"))
    with pytest.raises(pickle.UnpicklingError) as e:  # a valid file with a foreign global: the hint
        load_bytes(archive(pkl(body)))
    assert RETRY_HINT in str(e.value)
    with pytest.raises(pickle.UnpicklingError) as e:  # the same, truncated: no hint
        load_bytes(archive(pkl(body)[:-3]))
    assert RETRY_HINT not in str(e.value) and "corrupted" in str(e.value)
    for broken in (
        pkl(P.APPEND),
        pkl(b"\xff"),
        pkl(P.BINUNICODE + struct.pack("<I", 2**32 - 1) + b"abc"),
        pkl(P.BINBYTES8 + struct.pack("<Q", 2**63)),
        pkl(P.LONG4 + struct.pack("<i", 2**30)),
        pkl(P.BINGET + b"\x07"),
        pkl(P.MARK + P.MARK),
        pkl(P.EMPTY_DICT + P.EMPTY_LIST + i(1) + P.SETITEM),
        b"",
        pkl(P.NONE)[:-1],
    ):
        with pytest.raises(pickle.UnpicklingError) as e:
            load_bytes(archive(broken))
        assert RETRY_HINT not in str(e.value)


def _patch_central_directory(data: bytes, name: bytes, field_offset: int, fmt: str, value: int) -> bytes:
    """Change one field of ``name``'s central directory entry."""
    at = data.index(b"PK\x01\x02" + data[data.index(b"PK\x01\x02") + 4 : data.index(b"PK\x01\x02") + 4])
    while True:
        n_len, e_len, c_len = struct.unpack("<3H", data[at + 28 : at + 34])
        if data[at + 46 : at + 46 + n_len] == name:
            break
        at = data.index(b"PK\x01\x02", at + 46 + n_len + e_len + c_len)
    out = bytearray(data)
    out[at + field_offset : at + field_offset + struct.calcsize(fmt)] = struct.pack(fmt, value)
    return bytes(out)


def test_huge_declared_record_sizes_are_refused_without_allocating() -> None:
    data = archive(pkl(rebuild()))
    for field in (20, 24):  # compressed size, uncompressed size
        bad = _patch_central_directory(data, b"archive/data/0", field, "<I", 2**32 - 2)
        tracemalloc.start()
        try:
            with pytest.raises(RuntimeError, match="truncated or corrupted|declares"):
                load_bytes(bad)
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 2**20
    bad = _patch_central_directory(data, b"archive/data.pkl", 24, "<I", 2**32 - 2)
    with pytest.raises(RuntimeError, match="truncated or corrupted"):
        load_bytes(bad)


def test_legacy_format_is_refused_clearly(tmp_path) -> None:
    legacy = S._LEGACY_MAGIC + pickle.dumps(1001, protocol=2)
    with pytest.raises(RuntimeError, match="legacy format"):
        load_bytes(legacy)
    if _torch is not None:
        path = tmp_path / "legacy.pt"
        _torch.save({"w": _torch.ones(2)}, path, _use_new_zipfile_serialization=False)
        with pytest.raises(RuntimeError, match="legacy format"):
            ft.load(path)


# ---------------------------------------------------------------------------------------
# fuzzing: byte flips and truncations of valid files


def _fuzz_one(data: bytes, flips: list, cut: int | None) -> None:
    bad = bytearray(data)
    for pos, val in flips:
        bad[pos % len(bad)] ^= val or 1
    if cut is not None:
        bad = bad[: cut % (len(bad) + 1)]
    try:
        load_bytes(bytes(bad))
    except LOAD_ERRORS as e:
        assert str(e), "an error without a message"
        if not isinstance(e, pickle.UnpicklingError) or "Unsupported global" not in str(e):
            assert RETRY_HINT not in str(e), f"hint for a corrupted file: {e}"


_FUZZ_FILE = _valid_file()


def _files_here() -> set:
    """The working directory's entries (hypothesis's own database directory aside)."""
    return {n for n in os.listdir(".") if n != ".hypothesis"}


_fuzz_args = (
    st.lists(st.tuples(st.integers(0, 2**20), st.integers(0, 255)), max_size=4),
    st.one_of(st.none(), st.integers(0, 2**20)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(*_fuzz_args)
def test_fuzz_flips_and_truncations(flips, cut) -> None:
    before = _files_here()
    _fuzz_one(_FUZZ_FILE, flips, cut)
    assert _files_here() == before


def _records_of(data: bytes) -> tuple[bytes, dict]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        prefix = zf.namelist()[0].split("/")[0]
        records = {n.split("/")[-1]: zf.read(n) for n in zf.namelist() if n.startswith(f"{prefix}/data/")}
        return zf.read(f"{prefix}/data.pkl"), records


_FUZZ_PICKLE, _FUZZ_RECORDS = _records_of(_FUZZ_FILE)


def _fuzz_pickle_one(flips: list, cut: int | None) -> None:
    """Mutate the pickle itself and re-wrap it with correct CRCs, so that the restricted
    unpickler (not the zip checksum) meets the damage."""
    bad = bytearray(_FUZZ_PICKLE)
    for pos, val in flips:
        bad[pos % len(bad)] = val
    if cut is not None:
        bad = bad[: cut % (len(bad) + 1)]
    try:
        load_bytes(archive(bytes(bad), _FUZZ_RECORDS))
    except LOAD_ERRORS as e:
        assert str(e)
        if "Unsupported global" not in str(e) and "add_safe_globals" not in str(e):
            assert RETRY_HINT not in str(e), f"hint for a corrupted file: {e}"


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
@given(*_fuzz_args)
def test_fuzz_pickle_opcodes(flips, cut) -> None:
    before = _files_here()
    _fuzz_pickle_one(flips, cut)
    assert _files_here() == before


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(*_fuzz_args)
def test_fuzz_pickle_opcodes_slow(flips, cut) -> None:
    _fuzz_pickle_one(flips, cut)


@pytest.mark.slow
@settings(max_examples=3000, deadline=None, suppress_health_check=list(HealthCheck))
@given(*_fuzz_args)
def test_fuzz_flips_and_truncations_slow(flips, cut) -> None:
    _fuzz_one(_FUZZ_FILE, flips, cut)


@pytest.mark.slow
def test_fuzz_in_a_subprocess_never_crashes(tmp_path) -> None:
    """Random damage to a file with many tensors, in a child process (a segfault would show as
    a negative return code): byte flips and cuts of the archive, and byte changes of the pickle
    re-wrapped with valid checksums, so that lying sizes, strides and offsets reach the view
    checks."""
    script = textwrap.dedent(
        """
        import io, os, pickle, random, zipfile
        import fgrad.torch as ft
        buf = io.BytesIO()
        ft.save({"w": ft.arange(64.0).view(8, 8).t(), "i": ft.arange(5), "l": [ft.ones(3)] * 3}, buf)
        data = buf.getvalue()
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            entries = [(n, zf.read(n)) for n in zf.namelist()]
        rng = random.Random(0)
        for step in range(20000):
            if step % 2:
                bad = bytearray(data)
                for _ in range(rng.randint(1, 4)):
                    bad[rng.randrange(len(bad))] = rng.randrange(256)
                if rng.random() < 0.3:
                    bad = bad[: rng.randint(0, len(bad))]
            else:
                out = io.BytesIO()
                with zipfile.ZipFile(out, "w") as zf:
                    for name, payload in entries:
                        if name.endswith("data.pkl"):
                            payload = bytearray(payload)
                            for _ in range(rng.randint(1, 3)):
                                payload[rng.randrange(len(payload))] = rng.randrange(256)
                        zf.writestr(name, bytes(payload))
                bad = out.getvalue()
            try:
                ft.load(io.BytesIO(bytes(bad)))
            except (RuntimeError, pickle.UnpicklingError):
                pass
        assert os.listdir(".") == [], os.listdir(".")
        print("survived")
        """
    )
    root = os.path.dirname(os.path.dirname(os.path.dirname(ft.__file__)))
    res = subprocess.run(
        [sys.executable, "-c", script],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "PYTHONPATH": root},
    )
    assert res.returncode == 0, res.stderr[-3000:]
    assert "survived" in res.stdout


# ---------------------------------------------------------------------------------------
# real PyTorch files


@needs_torch
def test_pytorch_files_load_under_weights_only(tmp_path) -> None:
    t = _torch
    x = t.arange(6.0).view(2, 3)
    x.note = "kept"  # a tensor with attributes: saved through _rebuild_from_type_v2
    lin = t.nn.Linear(3, 2)
    obj = {
        "sd": lin.state_dict(),
        "od": OrderedDict(a=t.ones(2)),
        "size": t.Size([2, 3]),
        "dt": t.float16,
        "p": t.nn.Parameter(t.ones(2)),
        "frozen": t.nn.Parameter(t.ones(2), requires_grad=False),
        "attr": x,
        "view": x.t(),
        "nested": [(t.zeros(1, dtype=t.int64), {"s": {1, 2}})],
        "bytes": b"\x00ab",
        "dev": t.device("cpu"),
        "c": 1 + 2j,
        "expanded": t.ones(1).expand(5),
        "empty": t.empty(0, 3),
    }
    for proto in (2, 4):
        path = tmp_path / f"t{proto}.pt"
        t.save(obj, path, pickle_protocol=proto)
        r = ft.load(path)
        assert r["sd"]["weight"].tolist() == lin.weight.tolist() and r["sd"]._metadata == obj["sd"]._metadata
        assert r["size"] == ft.Size([2, 3]) and r["dt"] is ft.float16 and r["dev"] == ft.device("cpu")
        assert isinstance(r["p"], ft.nn.Parameter) and r["p"].requires_grad and not r["frozen"].requires_grad
        assert r["attr"].note == "kept" and r["view"].stride() == (1, 3)
        assert r["view"].untyped_storage().data_ptr() == r["attr"].untyped_storage().data_ptr()
        assert r["nested"][0][1]["s"] == {1, 2} and r["bytes"] == b"\x00ab" and r["c"] == 1 + 2j
        assert r["expanded"].stride() == (0,) and r["empty"].shape == (0, 3)
        assert type(r["od"]) is OrderedDict


def test_empty_strided_refuses_negative_strides() -> None:
    # negative strides used to make a view that reached before its buffer (out-of-bounds memory)
    with pytest.raises(RuntimeError, match=r"Storage size calculation overflowed with sizes=\[3, 2\]"):
        ft.empty_strided((3, 2), (-1, 5))
    with pytest.raises(
        RuntimeError, match=r"dimensionality of sizes \(1\) must match dimensionality of strides"
    ):
        ft.empty_strided((2,), (1, 2))
    with pytest.raises(RuntimeError, match="negative dimension"):
        ft.empty_strided((-1,), (1,))
    t = ft.empty_strided((2, 3), (1, 2))
    assert t.stride() == (1, 2) and t.untyped_storage().nbytes() == 6 * 4


# A checkpoint written by PyTorch 2.13's torch.save (zlib + base64), so that the compatibility
# check runs without PyTorch installed:
#   x = torch.arange(6.0).view(2, 3); x.note = "kept"
#   lin = nn.Linear(2, 2) with weight [[1, 2], [3, 4]] and bias [-1, 0.5]
#   {"sd": lin.state_dict(), "size": torch.Size([2, 3]), "dt": torch.float16,
#    "p": nn.Parameter(torch.tensor([1.5, 2.5])), "attr": x, "view": x.t(),
#    "nested": [(torch.tensor([7]), {"s": {1, 2}})], "bytes": b"\\x00ab",
#    "half": torch.tensor([0.5, -2.0], dtype=torch.float16), "bool": torch.tensor([True, False]),
#    "dev": torch.device("cpu")}
_TORCH_2_13_FILE = zlib.decompress(
    base64.b64decode(
        "eNqlVl1z20QUXdux4wjyVQpJA5RC+XAhdfypOG3SpCaYFhWaKimYQFAVeWOLKJavtElIZzIThjrA9IHyBzq8MTzxADPwBB3+QRmm"
        "wwNP9KHwxF9gd6U4kkKSkiiRJcv3nHvu7t6zmpIibQjF42jH0YOOINXSavoKHqqoRE02Fo1SsQvN+o6N8DqgRDlMAXYFQppmGgbW"
        "iG7WbeGyVcEWrkzqGhEgfEqGSKIco4GrWK/WCLRpxKT8SWWZ6IYtKBaeX9aNikJw3TYtZSUjQDSRKLczahqpVjHEHIhQMkyVTDsP"
        "BWgvh2hMCuLlCL1qjWXokNoICFckJIWl8CY8Qi+hTXj08xpT0UmgS4buMq0bzeuqDT01mqcWqzk8aeitdUhhAkc4vgmPSaEmHHWw"
        "jxN4Qoa+5XXoL3fQYGUJE5WNDhzjvw+U2dDBk+vwFBe+gi2bjgU8LYVs257nOW39OobjbiXT9IsAz1CBkU040YRnZXiOj2aFwEk3"
        "ZoFVmxYFeJ4LbMALu4xcQ7VUKghbArzoqykDLzk1JdyaTrGaXnZqeoXAoAynP+Nfkp/CkAwpLlQlxIL0Vi5nWraTLVjmkkLWGpjP"
        "VCZRi7pyZ5xAyHoEZCFHBcQI5J1JocWKUoRNyrAjokBgZB3O8Lx1k2A4y28XcYPAqE1gTIZz/MmKjldhfKu6mks7wWgjbK7PSyHG"
        "XnRoXyUwKcNrfNnVsU1wBUpz8LoDd/VeMuvV1lq6wOXm4CLlDRF4g/HSoZLYxyWH800Cb8lweR2meKwNVzRFYWNC9LqiCDamq12e"
        "g+kEVRLGTZiR4aq9CW+r5ShbcWsE2/COpmhmBWu2gOvsRoAyX7xInYd3uVpDpXRpmN2E92R4n5deU40FmPNpv0AftbR/wPXkQXHm"
        "+po71yrTPu9o1whUZMDO2jdNAxZ8dEX6qEVX5XQi1Bw63aX7kNEtOnQGgSUZ6lx6Ba+A6fLQe12jFI1WR0ITLBns5eSU1B5P/dn8"
        "Ik0lsHNqVwPqQ0LLgJILprWkEsXtp1Ix5vpQmvH98M8fnzCt7NydbwANb/O5jqKohl6tL+E6KRWzAWt7qEPMMQHjq/A3a9rwngJ6"
        "0XhLAFsGJvPHUvHsQfJuHYZOiIGZhubY/WNs4cT21NCFzvlcfShVKp45hACENsYp7QT9p+fGBFMyc/Trmz18B9lbSc6vJF0qptAB"
        "8v9MycZZ3otrmsISxffJO+rPmykVC+jg9d+h9Z/gdf948/73B8ifPVx+dvjnAKGvuJ6+Ww++7Kc/9O+jZ9CvJ1cqJh5aT7vLwvI1"
        "7j0wD1B//lD1F9AdlvvGN+VbzNTa9sk94c8tloqjh2m/2RCv/KeTv5T37/9udL6VvWVkY4dKP5sVWP67t6tX989/HGW2DZCXb2NL"
        "pw54XWUvbIpeKRWT/1NOSiyM5DMjeTE3XMhnUmI+P1xI58RUVswX8qmUmMuzv0yWqZz87nYyQXUkuMoQE9vS6d0SenYoD76HBtHe"
        "DaDPh/y4De22iQRJvCY+4CO56yXZsXMEebxG3OvjkaNo5wYQhHvds8sHvxdFAe8OYr0O6MdeiwWw6SDW615+7O9BbCaI9TqNH8ve"
        "gv1uF8R6XcOP/SuIzQWx3q4P5I0HsPkg1tuzfuxvQawYxHr7rds/xR0o2ONBsLcNjvvAv3rA/92gU1IsNrjVzpHTLWRn4Docca4f"
        "CVv2HONO/a0b4LwpRWMOppPHO7H/AriuP98="
    )
)


def test_stored_pytorch_2_13_checkpoint_loads() -> None:
    r = load_bytes(_TORCH_2_13_FILE)
    assert r["sd"]["weight"].tolist() == [[1.0, 2.0], [3.0, 4.0]] and r["sd"]["bias"].tolist() == [-1.0, 0.5]
    assert type(r["sd"]) is OrderedDict and r["sd"]._metadata[""] == {"version": 1}
    assert r["size"] == ft.Size([2, 3]) and r["dt"] is ft.float16 and r["dev"] == ft.device("cpu")
    assert isinstance(r["p"], ft.nn.Parameter) and r["p"].requires_grad and r["p"].tolist() == [1.5, 2.5]
    assert r["attr"].note == "kept" and r["attr"].tolist() == [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]
    assert (
        r["view"].stride() == (1, 3)
        and r["view"].untyped_storage().data_ptr() == r["attr"].untyped_storage().data_ptr()
    )
    assert (
        r["nested"][0][0].dtype == ft.int64
        and r["nested"][0][0].tolist() == [7]
        and r["nested"][0][1] == {"s": {1, 2}}
    )
    assert r["bytes"] == b"\x00ab" and r["half"].dtype == ft.float16 and r["half"].tolist() == [0.5, -2.0]
    assert r["bool"].tolist() == [True, False]
