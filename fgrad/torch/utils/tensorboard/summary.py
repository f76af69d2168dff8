"""Summary messages TensorBoard reads (``Summary`` protocol buffers, as bytes): scalars,
histograms, images, text, precision-recall curves, hyperparameters and custom-scalar
layouts -- what ``torch.utils.tensorboard.summary`` builds, in the same fields, so TensorBoard
(and its readers) see what PyTorch's writer writes.

Example::

    >>> from fgrad.torch.utils.tensorboard.summary import scalar
    >>> scalar("loss", 0.5).hex()
    '0a0b0a046c6f7373150000003f'
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import numpy as np

from . import _wire as w

# TensorProto dtypes (tensorflow/core/framework/types.proto)
_DT_FLOAT, _DT_DOUBLE, _DT_STRING = 1, 2, 7


def make_np(x: Any) -> np.ndarray:
    """A NumPy array of a tensor (detached, on the host), an array, or a number (a 1-element
    array, as PyTorch's ``make_np``).

    Example::

        >>> make_np(3.0)
        array([3.])
    """
    if isinstance(x, np.ndarray):
        return x
    if np.isscalar(x):
        return np.array([x])
    numpy = getattr(x, "numpy", None)
    if numpy is not None:
        detach = getattr(x, "detach", None)
        x = detach() if detach is not None else x
        cpu = getattr(x, "cpu", None)
        return np.asarray((cpu() if cpu is not None else x).numpy())
    return np.asarray(x)


def _summary(*values: bytes) -> bytes:
    return w.message(*(w.blob(1, v) for v in values))


def _plugin_metadata(name: str, content: bytes = b"") -> bytes:
    plugin = w.string(1, name) + (w.blob(2, content) if content else b"")
    return w.blob(9, w.blob(1, plugin))


def _tensor_proto(dtype: int, shape: Sequence[int] | None, payload: bytes) -> bytes:
    """A ``TensorProto``; ``shape`` None leaves the shape unset (a scalar, as PyTorch writes
    new-style scalars)."""
    if shape is None:
        return w.varint(1, dtype) + payload
    dims = w.message(*(w.blob(2, w.varint(1, n) if n else b"") for n in shape))
    return w.varint(1, dtype) + w.blob(2, dims) + payload


def scalar(
    name: str, tensor: Any, collections: Any = None, new_style: bool = False, double_precision: bool = False
) -> bytes:
    """A scalar summary: ``simple_value`` (float32), or with ``new_style`` a one-element
    tensor of the "scalars" plugin (float64 with ``double_precision``).

    Example::

        >>> len(scalar("x", 1.0, new_style=True)) > len(scalar("x", 1.0))
        True
    """
    arr = make_np(tensor).squeeze()
    if arr.ndim != 0:
        raise ValueError(
            f"Tensor should contain one element (0 dimensions). Was given size: {arr.size} "
            f"and {arr.ndim} dimensions."
        )
    value = float(arr)
    if not new_style:
        return _summary(w.string(1, name) + w.float32(2, value))
    if double_precision:
        payload = _tensor_proto(_DT_DOUBLE, None, w.blob(6, np.asarray([value], "<f8").tobytes()))
    else:
        payload = _tensor_proto(_DT_FLOAT, None, w.blob(5, np.asarray([value], "<f4").tobytes()))
    return _summary(w.string(1, name) + w.blob(8, payload) + _plugin_metadata("scalars"))


def tensor_proto(tag: str, tensor: Any) -> bytes:
    """A summary holding a float tensor's values (``add_tensor``).

    Example::

        >>> tensor_proto("t", np.ones(2)).startswith(b"\\n")
        True
    """
    arr = make_np(tensor)
    dtype, field, code = (_DT_DOUBLE, 6, "<f8") if arr.dtype == np.float64 else (_DT_FLOAT, 5, "<f4")
    payload = _tensor_proto(dtype, arr.shape, w.blob(field, arr.astype(code).ravel().tobytes()))
    return _summary(w.string(1, tag) + w.blob(8, payload) + _plugin_metadata("tensor"))


def _histogram_proto(
    vmin: float,
    vmax: float,
    num: float,
    total: float,
    sum_squares: float,
    limits: Sequence[float],
    counts: Sequence[float],
) -> bytes:
    # proto3: fields at their default (0, empty) are not written
    stats = [w.float64(f, v) for f, v in enumerate((vmin, vmax, num, total, sum_squares), 1) if float(v) != 0]
    return w.message(*stats, *(w.packed_float64(f, v) for f, v in ((6, limits), (7, counts)) if len(v)))


def histogram_raw(
    name: str,
    min: float,
    max: float,
    num: int,
    sum: float,
    sum_squares: float,
    bucket_limits: Sequence[float],
    bucket_counts: Sequence[float],
) -> bytes:
    """A histogram summary from precomputed statistics and buckets.

    Example::

        >>> len(histogram_raw("h", 0, 1, 2, 1, 1, [0.5, 1.0], [1, 1])) > 0
        True
    """
    return _summary(
        w.string(1, name)
        + w.blob(5, _histogram_proto(min, max, num, sum, sum_squares, bucket_limits, bucket_counts))
    )


def default_bins() -> list[float]:
    """TensorBoard's default bucket edges: +-1e-12 growing by 10% up to 1e20, and 0.

    Example::

        >>> len(default_bins())
        1549
    """
    v, pos = 1e-12, []
    while v < 1e20:
        pos.append(v)
        v *= 1.1
    return [-b for b in reversed(pos)] + [0] + pos


def histogram(name: str, values: Any, bins: Any, max_bins: int | None = None) -> bytes:
    """A histogram summary of ``values`` (``np.histogram`` bins: a count, edges, or a rule
    name; "tensorflow" is `default_bins`), trimmed to the buckets holding values.

    Example::

        >>> len(histogram("h", np.arange(10.0), bins=3)) > 0
        True
    """
    values = make_np(values).astype(np.float64).reshape(-1)
    if values.size == 0:
        raise ValueError("The input has no element.")
    if isinstance(bins, str) and bins == "tensorflow":
        bins = default_bins()
    counts, limits = np.histogram(values, bins=bins)
    if max_bins is not None and len(counts) > max_bins:
        group = len(counts) // max_bins
        pad = (-len(counts)) % group
        counts = np.pad(counts, (0, pad)).reshape(-1, group).sum(axis=1)
        limits = np.concatenate([limits[:-1:group], limits[-1:]])
    nonzero = np.flatnonzero(counts)
    first, last = int(nonzero[0]), int(nonzero[-1]) + 1
    # TensorBoard reads right edges only; an empty bucket on the left keeps the left edge
    counts = counts[first - 1 : last] if first > 0 else np.concatenate([[0], counts[:last]])
    limits = limits[first : last + 1]
    return histogram_raw(
        name, values.min(), values.max(), values.size, values.sum(), values.dot(values), limits, counts
    )


def _to_hwc(tensor: np.ndarray, dataformats: str) -> np.ndarray:
    """An ``(H, W, C)`` image from ``dataformats`` (NCHW-style batches are tiled 8 to a row)."""
    fmt = dataformats.upper()
    if len(set(fmt)) != len(fmt):
        raise ValueError(f"You can not use the same dimension shorthand twice. input_format: {dataformats}")
    if tensor.ndim != len(fmt):
        raise ValueError(
            f"size of input tensor and input format are different. tensor shape: "
            f"{tensor.shape}, input_format: {dataformats}"
        )
    if len(fmt) == 4:
        batch = tensor.transpose([fmt.find(c) for c in "NCHW"])
        return make_grid(batch).transpose(1, 2, 0)
    if len(fmt) == 3:
        hwc = tensor.transpose([fmt.find(c) for c in "HWC"])
        return np.concatenate([hwc] * 3, axis=2) if hwc.shape[2] == 1 else hwc
    hw = tensor.transpose([fmt.find(c) for c in "HW"])
    return np.stack([hw, hw, hw], axis=2)


def make_grid(images: np.ndarray, ncols: int = 8) -> np.ndarray:
    """Tile ``(N, C, H, W)`` images (C = 1 or 3) into one ``(3, rows*H, ncols*W)`` canvas.

    Example::

        >>> make_grid(np.ones((3, 1, 2, 2))).shape
        (3, 2, 6)
    """
    if images.shape[1] == 1:
        images = np.concatenate([images] * 3, axis=1)
    if images.ndim != 4 or images.shape[1] != 3:
        raise ValueError("Input should be a 4D numpy array with 3 channels")
    n, _, h, wd = images.shape
    ncols = min(n, ncols)
    nrows = -(-n // ncols)
    canvas = np.zeros((3, h * nrows, wd * ncols), images.dtype)
    for i in range(n):
        y, x = divmod(i, ncols)
        canvas[:, y * h : (y + 1) * h, x * wd : (x + 1) * wd] = images[i]
    return canvas


def _uint8_image(tensor: Any, dataformats: str) -> np.ndarray:
    arr = _to_hwc(make_np(tensor), dataformats)
    scale = 1 if arr.dtype == np.uint8 else 255  # float images are in [0, 1]
    return (arr.astype(np.float32) * scale).clip(0, 255).astype(np.uint8)


def _image_proto(hwc: np.ndarray, rescale: float = 1) -> bytes:
    if rescale != 1:  # nearest-neighbour resize
        h, wd = hwc.shape[:2]
        rows = (np.arange(int(h * rescale)) / rescale).astype(int)
        cols = (np.arange(int(wd * rescale)) / rescale).astype(int)
        hwc = hwc[rows][:, cols]
    h, wd, c = hwc.shape
    return w.message(w.varint(1, h), w.varint(2, wd), w.varint(3, c), w.blob(4, w.png(hwc)))


def image(tag: str, tensor: Any, rescale: float = 1, dataformats: str = "NCHW") -> bytes:
    """An image summary (PNG): float images in [0, 1] or uint8 images in [0, 255].

    Example::

        >>> len(image("im", np.zeros((3, 4, 4)), dataformats="CHW")) > 0
        True
    """
    return _summary(w.string(1, tag) + w.blob(4, _image_proto(_uint8_image(tensor, dataformats), rescale)))


def draw_boxes(hwc: np.ndarray, boxes: np.ndarray, color: Sequence[int] = (255, 0, 0)) -> np.ndarray:
    """``hwc`` with the outlines of ``boxes`` (rows ``x0, y0, x1, y1`` in pixels) drawn two
    pixels wide as PyTorch's writer draws them (the path left edge down, bottom edge right,
    right edge up, top edge left, each widened to the same side of its direction).

    Example::

        >>> draw_boxes(np.zeros((4, 4, 3), np.uint8), np.array([[1, 1, 2, 2]]))[:, :, 0].tolist()
        [[0, 255, 255, 0], [0, 255, 255, 0], [0, 255, 255, 0], [0, 255, 255, 0]]
    """
    out = hwc.copy()
    h, wd = out.shape[:2]

    def paint(y0: int, y1: int, x0: int, x1: int) -> None:
        out[max(y0, 0) : max(min(y1, h - 1) + 1, 0), max(x0, 0) : max(min(x1, wd - 1) + 1, 0)] = color

    for x0, y0, x1, y1 in np.asarray(boxes, np.float64).reshape(-1, 4).astype(int):
        paint(y0, y1, x0, x0 + 1)  # left edge, travelling down
        paint(y1, y1 + 1, x0, x1)  # bottom edge, travelling right
        paint(y0, y1, x1 - 1, x1)  # right edge, travelling up
        paint(y0 - 1, y0, x0, x1)  # top edge, travelling left
    return out


def image_boxes(
    tag: str, tensor_image: Any, tensor_boxes: Any, rescale: float = 1, dataformats: str = "CHW"
) -> bytes:
    """An image summary with bounding boxes drawn on it.

    Example::

        >>> len(image_boxes("b", np.zeros((3, 4, 4)), np.array([[0, 0, 2, 2]]))) > 0
        True
    """
    hwc = draw_boxes(_uint8_image(tensor_image, dataformats), make_np(tensor_boxes))
    return _summary(w.string(1, tag) + w.blob(4, _image_proto(hwc, rescale)))


def text(tag: str, text: str) -> bytes:
    """A text summary (the "text" plugin; Markdown in TensorBoard).

    Example::

        >>> b"hello" in text("note", "hello")
        True
    """
    payload = _tensor_proto(_DT_STRING, [1], w.blob(8, text.encode("utf-8")))
    return _summary(w.string(1, tag + "/text_summary") + w.blob(8, payload) + _plugin_metadata("text"))


def _float_tensor_summary(tag: str, data: np.ndarray, plugin: str, content: bytes) -> bytes:
    payload = _tensor_proto(_DT_FLOAT, data.shape, w.blob(5, data.astype("<f4").ravel().tobytes()))
    return _summary(w.string(1, tag) + w.blob(8, payload) + _plugin_metadata(plugin, content))


def compute_curve(labels: Any, predictions: Any, num_thresholds: int, weights: Any = None) -> np.ndarray:
    """The ``(6, num_thresholds)`` rows TP, FP, TN, FN, precision, recall of predictions
    thresholded at ``i / (num_thresholds - 1)``.

    Example::

        >>> compute_curve(np.array([1, 0]), np.array([0.9, 0.2]), 3)[4].tolist()
        [0.5, 1.0, 0.0]
    """
    labels, predictions = make_np(labels), make_np(predictions)
    weights = 1.0 if weights is None else make_np(weights)
    bucket = np.floor(predictions * (num_thresholds - 1)).astype(np.int32)
    positive = labels.astype(np.float64)
    rng = (0, num_thresholds - 1)
    tp_b, _ = np.histogram(bucket, bins=num_thresholds, range=rng, weights=positive * weights)
    fp_b, _ = np.histogram(bucket, bins=num_thresholds, range=rng, weights=(1.0 - positive) * weights)
    tp, fp = np.cumsum(tp_b[::-1])[::-1], np.cumsum(fp_b[::-1])[::-1]
    tn, fn = fp[0] - fp, tp[0] - tp
    precision = tp / np.maximum(1e-7, tp + fp)
    recall = tp / np.maximum(1e-7, tp + fn)
    return np.stack((tp, fp, tn, fn, precision, recall))


def pr_curve(
    tag: str, labels: Any, predictions: Any, num_thresholds: int = 127, weights: Any = None
) -> bytes:
    """A precision-recall curve summary (the "pr_curves" plugin; at most 127 thresholds).

    Example::

        >>> len(pr_curve("pr", np.array([1, 0]), np.array([0.9, 0.2]))) > 0
        True
    """
    num_thresholds = min(num_thresholds, 127)
    data = compute_curve(labels, predictions, num_thresholds, weights)
    return _float_tensor_summary(tag, data, "pr_curves", w.varint(2, num_thresholds))


def pr_curve_raw(
    tag: str,
    tp: Any,
    fp: Any,
    tn: Any,
    fn: Any,
    precision: Any,
    recall: Any,
    num_thresholds: int = 127,
    weights: Any = None,
) -> bytes:
    """A precision-recall curve summary from precomputed counts.

    Example::

        >>> len(pr_curve_raw("pr", [1, 1], [1, 0], [0, 1], [0, 0], [0.5, 1.0], [1.0, 1.0], 2)) > 0
        True
    """
    num_thresholds = min(num_thresholds, 127)
    data = np.stack([make_np(v).astype(np.float64) for v in (tp, fp, tn, fn, precision, recall)])
    return _float_tensor_summary(tag, data, "pr_curves", w.varint(2, num_thresholds))


def _proto_value(v: Any) -> bytes:
    """A ``google.protobuf.Value``: a string, else a number (bools too, as PyTorch logs them)."""
    if isinstance(v, str):
        return w.string(3, v)
    return w.float64(2, float(v))


def _hparams_summary(tag: str, plugin_data: bytes) -> bytes:
    content = plugin_data  # HParamsPluginData, version 0 (omitted)
    return _summary(w.string(1, tag) + _plugin_metadata("hparams", content))


def hparams(
    hparam_dict: dict, metric_dict: dict, hparam_domain_discrete: dict | None = None
) -> tuple[bytes, bytes, bytes]:
    """The three summaries of TensorBoard's hyperparameter plugin: the experiment (names and
    types of the hyperparameters, the metric names), the session start (the values) and the
    session end (success).  As in PyTorch, int, float and bool values are numbers.

    Example::

        >>> exp, start, end = hparams({"lr": 0.1, "opt": "sgd"}, {"hparam/loss": 1.0})
        >>> b"hparam/loss" in exp and b"sgd" in start
        True
    """
    if not isinstance(hparam_dict, dict):
        raise TypeError("parameter: hparam_dict should be a dictionary, nothing logged.")
    if not isinstance(metric_dict, dict):
        raise TypeError("parameter: metric_dict should be a dictionary, nothing logged.")
    domains = hparam_domain_discrete or {}
    if not isinstance(domains, dict):
        raise TypeError("parameter: hparam_domain_discrete should be a dictionary, nothing logged.")
    for k, v in domains.items():
        if (
            k not in hparam_dict
            or not isinstance(v, list)
            or not all(isinstance(d, type(hparam_dict[k])) for d in v)
        ):
            raise TypeError(
                f"parameter: hparam_domain_discrete[{k}] should be a list of same type as hparam_dict[{k}]."
            )
    infos, entries = [], []
    for k, v in hparam_dict.items():
        if v is None:
            continue
        if not isinstance(v, (int, float, str)):
            arr = make_np(v) if hasattr(v, "numpy") else None
            if arr is None:
                raise ValueError("value should be one of int, float, str, bool, or torch.Tensor")
            v = float(arr.reshape(-1)[0])
        kind = 1 if isinstance(v, str) else 3  # DATA_TYPE_STRING, DATA_TYPE_FLOAT64
        info = w.string(1, k) + w.varint(4, kind)
        if k in domains:
            info += w.blob(5, w.message(*(w.blob(1, _proto_value(d)) for d in domains[k])))
        infos.append(info)
        entries.append((k, w.string(1, k) + w.blob(2, _proto_value(v))))
    start = w.message(*(w.blob(1, e) for _, e in sorted(entries)))  # map entries by key
    metrics = [w.blob(1, w.string(2, k)) for k in metric_dict]
    experiment = w.message(*(w.blob(4, i) for i in infos), *(w.blob(5, m) for m in metrics))
    return (
        _hparams_summary("_hparams_/experiment", w.blob(2, experiment)),
        _hparams_summary("_hparams_/session_start_info", w.blob(3, start)),
        _hparams_summary("_hparams_/session_end_info", w.blob(4, w.varint(1, 1))),
    )


def custom_scalars(layout: dict) -> bytes:
    """The "custom_scalars" plugin's layout: ``{category: {title: ["Multiline", [tags]] or
    ["Margin", [value, lower, upper]]}}``.

    Example::

        >>> b"loss" in custom_scalars({"train": {"loss": ["Multiline", ["loss/a"]]}})
        True
    """
    categories = []
    for category, charts in layout.items():
        chart_msgs = []
        for title, (kind, tags) in charts.items():
            if kind == "Margin":
                if len(tags) != 3:
                    raise ValueError("a Margin chart takes [value, lower, upper] tags")
                series = w.blob(1, w.string(1, tags[0]) + w.string(2, tags[1]) + w.string(3, tags[2]))
                body = w.blob(3, series)  # MarginChartContent
            else:
                body = w.blob(2, w.message(*(w.string(1, t) for t in tags)))  # MultilineChartContent
            chart_msgs.append(w.blob(2, w.string(1, title) + body))
        categories.append(w.blob(2, w.string(1, category) + b"".join(chart_msgs)))  # Layout.category
    payload = _tensor_proto(_DT_STRING, [], w.blob(8, w.message(*categories)))
    return _summary(
        w.string(1, "custom_scalars__config__") + w.blob(8, payload) + _plugin_metadata("custom_scalars")
    )


def event(
    *,
    summary: bytes | None = None,
    step: int | None = None,
    wall_time: float | None = None,
    file_version: str | None = None,
    graph_def: bytes | None = None,
    session_log_status: int | None = None,
) -> bytes:
    """An ``Event`` message.

    Example::

        >>> event(file_version="brain.Event:2", wall_time=0.0)[-13:]
        b'brain.Event:2'
    """
    parts = [w.float64(1, time.time() if wall_time is None else wall_time)]
    if step:
        parts.append(w.varint(2, int(step)))
    if file_version is not None:
        parts.append(w.string(3, file_version))
    if graph_def is not None:
        parts.append(w.blob(4, graph_def))
    if summary is not None:
        parts.append(w.blob(5, summary))
    if session_log_status is not None:
        parts.append(w.blob(7, w.varint(1, session_log_status)))
    return w.message(*parts)
