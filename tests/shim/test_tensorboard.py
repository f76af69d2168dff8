"""``torch.utils.tensorboard``: the summaries are PyTorch's bytes (stored below from PyTorch
2.13's writer with tensorboard 2.21), and the event files read back -- TFRecord checksums,
events, scalars, histograms, PNG pixels, WAV audio, hyperparameters, runs of add_scalars,
embeddings, graphs -- decoded here by an independent protobuf reader; with the tensorboard
package installed, also by TensorBoard's own reader and against PyTorch's writer."""

from __future__ import annotations

import glob
import hashlib
import io
import os
import struct
import wave
import zlib

import numpy as np
import pytest

import fgrad.torch as ftorch
from fgrad.torch.utils.tensorboard import SummaryWriter
from fgrad.torch.utils.tensorboard import _wire, summary

# PyTorch 2.13 (torch.utils.tensorboard.summary, tensorboard 2.21): the serialized Summary of each
PYTORCH = {
    "scalar": "0a0b0a046c6f7373150000003f",
    "scalar_ns": "0a1c0a03612f62420808012a04000010404a0b0a090a077363616c617273",
    "scalar_ns64": "0a1e0a0178420c08023208555555555555d53f4a0b0a090a077363616c617273",
    "hist": "sha256:e2075757c357a78bc49e5e250cea0ccc256b9dcc0c32e3dd67dfdc3717f34e81",
    "hist_auto": "0a7d0a01682a7811000000000000f03f19000000000000494021f5a1b13e34d6304029ca058935159d244032"
    "280000000000000000922449922449d23f922449922449e23fdbb66ddbb66deb3f000000000000f03f3a28"
    "00000000000000000000000000003b40000000000000264000000000000020400000000000001040",
    "hist_raw": "0a4d0a01722a481100000000000000401900000000000008402100000000000008402900000000000014403210"
    "000000000000f03f00000000000000403a10000000000000f03f0000000000000040",
    "text": "0a2f0a116e6f74652f746578745f73756d6d61727942100807120412020801420668c3a96c6c6f"
    "4a080a060a0474657874",
    "pr": "0aa0010a0270724286010801120812020806120208052a780000404000000040000000400000803f0000000000000040"
    "0000803f000000000000000000000000000000000000803f000000400000004000000040000000000000803f0000803f"
    "00000040000040409a99193fabaa2a3f0000803f0000803f000000000000803fabaa2a3fabaa2a3fabaaaa3e00000000"
    "4a110a0f0a0970725f63757276657312021005",
    "custom": "0a5e0a18637573746f6d5f7363616c6172735f5f636f6e6669675f5f422e08071200422812260a014c120d0a0361"
    "6c6c12060a01610a016212120a016d1a0d0a0b0a017612026c6f1a0268694a120a100a0e637573746f6d5f736361"
    "6c617273",
    "hp_exp": "0a670a145f68706172616d735f2f6578706572696d656e744a4f0a4d0a0768706172616d731242124022060a026c"
    "72200322180a036f707420012a0f0a061a046164616d0a051a0373676422050a016e200322050a016620032a0e0a"
    "0c120a68706172616d2f616363",
    "hp_end": "0a2f0a1a5f68706172616d735f2f73657373696f6e5f656e645f696e666f4a110a0f0a0768706172616d7312042202"
    "0801",
}


def _ours() -> dict[str, bytes]:
    hp = summary.hparams(
        {"lr": 0.1, "opt": "adam", "n": 3, "f": True}, {"hparam/acc": 1.0}, {"opt": ["adam", "sgd"]}
    )
    return {
        "scalar": summary.scalar("loss", 0.5),
        "scalar_ns": summary.scalar("a/b", 2.25, new_style=True),
        "scalar_ns64": summary.scalar("x", 1 / 3, new_style=True, double_precision=True),
        "hist": summary.histogram("h", np.array([-3.0, -1, 0, 0.5, 2, 2, 7]), summary.default_bins()),
        "hist_auto": summary.histogram("h", np.linspace(0, 1, 50) ** 2, "auto", max_bins=3),
        "hist_raw": summary.histogram_raw("r", 0, 2, 3, 3, 5, [1, 2], [1, 2]),
        "text": summary.text("note", "héllo"),
        "pr": summary.pr_curve(
            "pr", np.array([1, 0, 1, 1, 0]), np.array([0.9, 0.4, 0.6, 0.2, 0.1]), num_thresholds=5
        ),
        "custom": summary.custom_scalars(
            {"L": {"all": ["Multiline", ["a", "b"]], "m": ["Margin", ["v", "lo", "hi"]]}}
        ),
        "hp_exp": hp[0],
        "hp_start": hp[1],
        "hp_end": hp[2],
    }


def fields(data: bytes) -> list[tuple[int, object]]:
    """(field number, value) pairs of a protobuf message; length-delimited values as bytes,
    fixed64 as float, fixed32 as float, varints as int (an independent decoder)."""
    out, pos = [], 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        field, kind = key >> 3, key & 7
        if kind == 0:
            value, pos = _varint(data, pos)
        elif kind == 1:
            (value,), pos = struct.unpack("<d", data[pos : pos + 8]), pos + 8
        elif kind == 5:
            (value,), pos = struct.unpack("<f", data[pos : pos + 4]), pos + 4
        elif kind == 2:
            n, pos = _varint(data, pos)
            value, pos = data[pos : pos + n], pos + n
        else:
            raise AssertionError(f"wire type {kind}")
        out.append((field, value))
    return out


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    shift = result = 0
    while True:
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if not b & 0x80:
            return result, pos


def first(msg: bytes, field: int):
    return next(v for f, v in fields(msg) if f == field)


def events(log_dir: str) -> list[bytes]:
    (path,) = glob.glob(os.path.join(log_dir, "events.out.tfevents.*"))
    with open(path, "rb") as f:
        return _wire.read_tfrecords(f.read())


def summary_values(log_dir: str) -> list[tuple[int, bytes]]:
    """(step, Summary.Value bytes) of every summary event."""
    out = []
    for ev in events(log_dir):
        fs = dict(fields(ev))
        if 5 in fs:
            for f, value in fields(fs[5]):
                assert f == 1
                out.append((fs.get(2, 0), value))
    return out


def png_pixels(data: bytes) -> np.ndarray:
    """Decode an 8-bit RGB/RGBA/gray PNG with unfiltered rows (what fgrad writes)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        (n,) = struct.unpack(">I", data[pos : pos + 4])
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + n]
        assert struct.unpack(">I", data[pos + 8 + n : pos + 12 + n])[0] == zlib.crc32(kind + body)
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    width, height, _, color, *_ = header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[color]
    rows = np.frombuffer(zlib.decompress(idat), np.uint8).reshape(height, 1 + width * channels)
    assert (rows[:, 0] == 0).all()
    return rows[:, 1:].reshape(height, width, channels)


@pytest.mark.parametrize("name", sorted(PYTORCH))
def test_summaries_are_pytorchs_bytes(name):
    got = _ours()[name]
    want = PYTORCH[name]
    if want.startswith("sha256:"):
        assert hashlib.sha256(got).hexdigest() == want[7:]
    else:
        assert got.hex() == want


def test_hparams_session_start_values():
    # PyTorch writes the map in hash order; compare the entries
    start = _ours()["hp_start"]
    value = first(start, 1)
    plugin = first(first(first(value, 9), 1), 2)
    entries = {}
    for _, entry in fields(first(plugin, 3)):
        key = first(entry, 1).decode()
        entries[key] = dict(fields(first(entry, 2)))
    assert entries == {"lr": {2: 0.1}, "n": {2: 3.0}, "f": {2: 1.0}, "opt": {3: b"adam"}}


def test_wire_primitives():
    assert _wire.crc32c(b"123456789") == 0xE3069283
    assert _wire.varint(1, -1) == b"\x08" + b"\xff" * 9 + b"\x01"
    with pytest.raises(ValueError, match="corrupt"):
        _wire.read_tfrecords(_wire.tfrecord(b"abc")[:-1] + b"\x00")


def test_writer_round_trip(tmp_path):
    rng = np.random.RandomState(0)
    img = rng.rand(3, 5, 6).astype(np.float32)
    data = rng.randn(100)
    with SummaryWriter(str(tmp_path), purge_step=2) as wr:
        for s in range(3):
            wr.add_scalar("loss", 1.0 / (s + 1), s)
        wr.add_scalar("t", ftorch.tensor(2.5), 7)
        wr.add_scalars("cmp", {"train": 0.5, "val": 0.75}, 1)
        wr.add_histogram("w", ftorch.tensor(data), 3)
        wr.add_image("img", ftorch.tensor(img), 4)
        wr.add_images("batch", ftorch.tensor(rng.rand(10, 1, 2, 3)), 5)
        wr.add_text("note", "hi", 6)
        wr.add_audio("snd", ftorch.tensor(np.linspace(-1, 1, 50)), 8, sample_rate=8000)
        wr.add_hparams({"lr": 0.1}, {"hparam/acc": 0.5}, run_name="hp")
        wr.add_graph(ftorch.nn.Sequential(ftorch.nn.Linear(2, 3), ftorch.nn.ReLU()), ftorch.zeros(1, 2))
        wr.add_embedding(ftorch.tensor([[1.0, 2.0], [3.0, 4.0]]), metadata=["a", "b"], global_step=1)
    evs = events(str(tmp_path))
    assert first(evs[0], 3) == b"brain.Event:2"
    assert (
        dict(fields(evs[1]))[2] == 2
    )  # purge_step: a file_version event at that step, then SessionLog START
    assert first(first(evs[2], 7), 1) == 1
    vals = summary_values(str(tmp_path))
    scalars = [(s, first(v, 1), first(v, 2)) for s, v in vals if 2 in dict(fields(v))]
    assert scalars == [(0, b"loss", 1.0), (1, b"loss", 0.5), (2, b"loss", np.float32(1 / 3)), (7, b"t", 2.5)]
    by_tag = {first(v, 1): (s, v) for s, v in vals}
    step, hist = by_tag[b"w"]
    stats = dict(fields(first(hist, 5)))
    assert step == 3 and stats[3] == 100.0 and stats[1] == data.min() and stats[2] == data.max()
    step, image = by_tag[b"img"]
    im = dict(fields(first(image, 4)))
    assert (step, im[1], im[2], im[3]) == (4, 5, 6, 3)
    np.testing.assert_array_equal(
        png_pixels(im[4]), (img.transpose(1, 2, 0) * 255).clip(0, 255).astype(np.uint8)
    )
    grid = png_pixels(dict(fields(first(by_tag[b"batch"][1], 4)))[4])
    assert grid.shape == (4, 24, 3)  # 10 images, 8 to a row
    text = dict(fields(first(by_tag[b"note/text_summary"][1], 8)))
    assert text[8] == b"hi"
    audio = dict(fields(first(by_tag[b"snd"][1], 6)))
    with wave.open(io.BytesIO(audio[4])) as wav:
        assert (wav.getframerate(), wav.getnframes()) == (8000, 50)
        pcm = np.frombuffer(wav.readframes(50), "<i2")
    assert pcm[0] == -32767 and pcm[-1] == 32767
    graph = next(first(e, 4) for e in evs if 4 in dict(fields(e)))
    names = [first(n, 1) for f, n in fields(graph) if f == 1]
    assert names == [b"input/input.1", b"Sequential/Linear[0]/1", b"Sequential/ReLU[1]/2", b"output/output.1"]
    for run, value in (("cmp_train", 0.5), ("cmp_val", 0.75)):
        ((step, v),) = summary_values(str(tmp_path / run))
        assert (step, first(v, 1), first(v, 2)) == (1, b"cmp", value)
    hp_tags = [first(v, 1) for _, v in summary_values(str(tmp_path / "hp"))]
    assert hp_tags == [
        b"_hparams_/experiment",
        b"_hparams_/session_start_info",
        b"_hparams_/session_end_info",
        b"hparam/acc",
    ]
    emb = tmp_path / "00001" / "default"
    assert (emb / "tensors.tsv").read_text() == "1.0\t2.0\n3.0\t4.0\n"
    assert (emb / "metadata.tsv").read_text() == "a\nb\n"
    assert (tmp_path / "projector_config.pbtxt").read_text() == (
        'embeddings {\n  tensor_name: "default:00001"\n  metadata_path: "00001/default/metadata.tsv"\n'
        '  tensor_path: "00001/default/tensors.tsv"\n}\n'
    )


def test_default_log_dir_and_errors(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    wr = SummaryWriter(comment="_lr0.1")
    wr.close()
    (run,) = os.listdir(tmp_path / "runs")
    assert run.endswith("_lr0.1") and wr.get_logdir() == os.path.join("runs", run)
    with SummaryWriter(str(tmp_path / "e")) as w2:
        with pytest.raises(ValueError, match="one element"):
            w2.add_scalar("x", ftorch.ones(2))
        with pytest.raises(TypeError, match="dictionary"):
            w2.add_hparams([("lr", 1)], {})
        with pytest.raises(ValueError, match="no element"):
            w2.add_histogram("h", np.zeros(0))


def test_draw_boxes_matches_pillow():
    Image = pytest.importorskip("PIL.Image")
    ImageDraw = pytest.importorskip("PIL.ImageDraw")
    rng = np.random.RandomState(1)
    for _ in range(200):
        h, w = rng.randint(4, 20, 2)
        x0, x1 = sorted(rng.choice(w, 2, replace=False))
        y0, y1 = sorted(rng.choice(h, 2, replace=False))
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        im = Image.fromarray(np.zeros((h, w, 3), np.uint8))
        ImageDraw.Draw(im).line([(x0, y0), (x0, y1), (x1, y1), (x1, y0), (x0, y0)], width=2, fill="Red")
        got = summary.draw_boxes(np.zeros((h, w, 3), np.uint8), np.array([[x0, y0, x1, y1]]))
        np.testing.assert_array_equal(got, np.asarray(im))


def test_tensorboard_reads_the_files(tmp_path):
    accumulator = pytest.importorskip("tensorboard.backend.event_processing.event_accumulator")
    with SummaryWriter(str(tmp_path)) as wr:
        for s in range(4):
            wr.add_scalar("loss", s * 0.25, s)
        wr.add_histogram("w", np.arange(10.0), 0)
        wr.add_image("img", np.ones((3, 2, 2)), 0)
    acc = accumulator.EventAccumulator(str(tmp_path), size_guidance={"scalars": 0})
    acc.Reload()
    assert [(e.step, e.value) for e in acc.Scalars("loss")] == [(s, s * 0.25) for s in range(4)]
    assert acc.Histograms("w")[0].histogram_value.num == 10
    assert acc.Images("img")[0].width == 2
