"""`SummaryWriter` and `FileWriter`: PyTorch's TensorBoard logging API, writing TensorBoard's
event files (``events.out.tfevents.*``, TFRecords of ``Event`` messages) itself -- the
``tensorboard`` package is not needed to write logs, only to view them.

Example::

    >>> import tempfile
    >>> from fgrad.torch.utils.tensorboard import SummaryWriter
    >>> with SummaryWriter(tempfile.mkdtemp()) as writer:
    ...     for step in range(3):
    ...         writer.add_scalar("loss", 1.0 / (step + 1), step)
"""

from __future__ import annotations

import itertools
import os
import socket
import time
import wave
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np

import fgrad.torch as torch

from . import _wire as w
from . import summary as S

_FILE_IDS = itertools.count()


class FileWriter:
    """Writes ``Event`` records to one event file in ``log_dir`` (created if missing).

    Example::

        >>> import tempfile
        >>> fw = FileWriter(tempfile.mkdtemp())
        >>> fw.add_summary(S.scalar("x", 1.0), global_step=1)
        >>> fw.close()
    """

    def __init__(
        self, log_dir: str, max_queue: int = 10, flush_secs: int = 120, filename_suffix: str = ""
    ) -> None:
        self._log_dir = str(log_dir)
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self._file = None
        self.reopen()

    def get_logdir(self) -> str:
        """The directory written to.

        Example::

            >>> import tempfile
            >>> d = tempfile.mkdtemp()
            >>> FileWriter(d).get_logdir() == d
            True
        """
        return self._log_dir

    def reopen(self) -> None:
        """Open a new event file (after `close`); a no-op while one is open.

        Example::

            >>> import tempfile
            >>> fw = FileWriter(tempfile.mkdtemp())
            >>> fw.close(); fw.reopen(); fw.close()
        """
        if self._file is not None:
            return
        os.makedirs(self._log_dir, exist_ok=True)
        name = "events.out.tfevents.%010d.%s.%s.%s%s" % (
            time.time(),
            socket.gethostname(),
            os.getpid(),
            next(_FILE_IDS),
            self.filename_suffix,
        )
        self.path = os.path.join(self._log_dir, name)
        self._file = open(self.path, "wb")  # noqa: SIM115 - open until close()
        self._pending = 0
        self._last_flush = time.time()
        self._write(S.event(file_version="brain.Event:2"))

    def _write(self, event: bytes) -> None:
        if self._file is None:
            raise RuntimeError("FileWriter is closed: call reopen() first")
        self._file.write(w.tfrecord(event))
        self._pending += 1
        if self._pending >= self.max_queue or time.time() - self._last_flush >= self.flush_secs:
            self.flush()

    def add_event(self, event: bytes, step: int | None = None, walltime: float | None = None) -> None:
        """Write a serialized ``Event``; ``step``/``walltime`` are appended as its fields (a
        later field wins when the message is read).

        Example::

            >>> import tempfile
            >>> fw = FileWriter(tempfile.mkdtemp())
            >>> fw.add_event(S.event(summary=S.scalar("x", 2.0)), step=3)
            >>> fw.close()
        """
        if walltime is not None:
            event += w.float64(1, walltime)
        if step is not None:
            event += w.varint(2, int(step))
        self._write(event)

    def add_summary(
        self, summary: bytes, global_step: int | None = None, walltime: float | None = None
    ) -> None:
        """Write a serialized ``Summary`` as an event at ``global_step``.

        Example::

            >>> import tempfile
            >>> fw = FileWriter(tempfile.mkdtemp())
            >>> fw.add_summary(S.text("note", "hi"))
            >>> fw.close()
        """
        self._write(S.event(summary=summary, step=global_step, wall_time=walltime))

    def add_graph(self, graph_profile: bytes | tuple, walltime: float | None = None) -> None:
        """Write a serialized ``GraphDef`` (or a ``(graph_def, ...)`` tuple) as the run's graph.

        Example::

            >>> import tempfile
            >>> fw = FileWriter(tempfile.mkdtemp())
            >>> fw.add_graph(b"")
            >>> fw.close()
        """
        graph = graph_profile[0] if isinstance(graph_profile, tuple) else graph_profile
        self._write(S.event(graph_def=graph, wall_time=walltime))

    def flush(self) -> None:
        """Write pending events to disk.

        Example::

            >>> import tempfile
            >>> FileWriter(tempfile.mkdtemp()).flush()
        """
        if self._file is not None:
            self._file.flush()
            self._pending = 0
            self._last_flush = time.time()

    def close(self) -> None:
        """Flush and close the event file.

        Example::

            >>> import tempfile
            >>> FileWriter(tempfile.mkdtemp()).close()
        """
        if self._file is not None:
            self.flush()
            self._file.close()
            self._file = None


def _graph_def(model: Any, inputs: Any) -> bytes:
    """A ``GraphDef`` of ``model``'s leaf modules in call order, each fed by the nodes that
    produced its inputs (found by running the model once with forward hooks)."""
    args = inputs if isinstance(inputs, (tuple, list)) else (inputs,)
    producers: dict[int, str] = {}
    nodes: list[tuple[str, str, list[str], str]] = []
    for i, a in enumerate(args):
        name = f"input/input.{i + 1}"
        if isinstance(a, torch.Tensor):
            producers[id(a)] = name
            nodes.append((name, "IO Node", [], str(list(a.shape))))
    names = {m: n for n, m in model.named_modules()}
    root = type(model).__name__

    def hook(module, ins, out):
        scope = f"{root}/{type(module).__name__}[{names[module]}]" if names[module] else root
        name = f"{scope}/{len(nodes)}"
        feeds = [producers[id(t)] for t in ins if isinstance(t, torch.Tensor) and id(t) in producers]
        outs = out if isinstance(out, (tuple, list)) else (out,)
        shape = ""
        for o in outs:
            if isinstance(o, torch.Tensor):
                producers[id(o)] = name
                shape = shape or str(list(o.shape))
        nodes.append((name, type(module).__name__, feeds, shape))

    leaves = [m for m in model.modules() if not list(m.children())] or [model]
    handles = [m.register_forward_hook(hook) for m in leaves]
    try:
        with torch.no_grad():
            out = model(*args)
    finally:
        for h in handles:
            h.remove()
    outs = out if isinstance(out, (tuple, list)) else (out,)
    for i, o in enumerate(outs):
        if isinstance(o, torch.Tensor) and id(o) in producers:
            nodes.append((f"output/output.{i + 1}", "IO Node", [producers[id(o)]], str(list(o.shape))))
    node_msgs = []
    for name, op, feeds, shape in nodes:
        attr = (
            w.blob(5, w.string(1, "_output_shapes_text") + w.blob(2, w.blob(2, shape.encode())))
            if shape
            else b""
        )
        node_msgs.append(
            w.blob(
                1,
                w.string(1, name)
                + w.string(2, op)
                + b"".join(w.string(3, f) for f in feeds)
                + w.string(4, "/device:CPU:0")
                + attr,
            )
        )
    return b"".join(node_msgs) + w.blob(4, w.varint(1, 22))


class SummaryWriter:
    """Logs scalars, histograms, images, text, graphs, embeddings, precision-recall curves and
    hyperparameters for TensorBoard, as ``torch.utils.tensorboard.SummaryWriter`` does
    (the default ``log_dir`` is ``runs/<Mon><DD>_<HH>-<MM>-<SS>_<hostname><comment>``).

    Example::

        >>> import tempfile, fgrad.torch as torch
        >>> writer = SummaryWriter(tempfile.mkdtemp())
        >>> writer.add_histogram("weights", torch.randn(100), 0)
        >>> writer.add_text("notes", "first run")
        >>> writer.close()
    """

    def __init__(
        self,
        log_dir: str | None = None,
        comment: str = "",
        purge_step: int | None = None,
        max_queue: int = 10,
        flush_secs: int = 120,
        filename_suffix: str = "",
    ) -> None:
        if not log_dir:
            stamp = datetime.now().strftime("%b%d_%H-%M-%S")
            log_dir = os.path.join("runs", stamp + "_" + socket.gethostname() + comment)
        self.log_dir = str(log_dir)
        self.purge_step = purge_step
        self.max_queue = max_queue
        self.flush_secs = flush_secs
        self.filename_suffix = filename_suffix
        self.file_writer: FileWriter | None = None
        self.all_writers: dict[str, FileWriter] | None = None
        self._get_file_writer()
        self.default_bins = S.default_bins()

    def _get_file_writer(self) -> FileWriter:
        if self.all_writers is None or self.file_writer is None:
            self.file_writer = FileWriter(self.log_dir, self.max_queue, self.flush_secs, self.filename_suffix)
            self.all_writers = {self.file_writer.get_logdir(): self.file_writer}
            if self.purge_step is not None:  # TensorBoard hides events at or after this step
                self.file_writer.add_event(S.event(step=self.purge_step, file_version="brain.Event:2"))
                self.file_writer.add_event(S.event(step=self.purge_step, session_log_status=1))
                self.purge_step = None
        return self.file_writer

    def get_logdir(self) -> str:
        """The run's directory.

        Example::

            >>> import tempfile
            >>> d = tempfile.mkdtemp()
            >>> SummaryWriter(d).get_logdir() == d
            True
        """
        return self.log_dir

    def _add(self, summary: bytes, global_step: int | None, walltime: float | None) -> None:
        self._get_file_writer().add_summary(summary, global_step, walltime)

    def add_scalar(
        self,
        tag: str,
        scalar_value: Any,
        global_step: int | None = None,
        walltime: float | None = None,
        new_style: bool = False,
        double_precision: bool = False,
    ) -> None:
        """Log one number (a float, or a one-element tensor) at ``global_step``.

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_scalar("lr", 0.1, 0)
        """
        self._add(
            S.scalar(tag, scalar_value, new_style=new_style, double_precision=double_precision),
            global_step,
            walltime,
        )

    def add_scalars(
        self,
        main_tag: str,
        tag_scalar_dict: dict,
        global_step: int | None = None,
        walltime: float | None = None,
    ) -> None:
        """Log several numbers on one chart: each key goes to its own run directory
        ``<log_dir>/<main_tag>_<key>``.

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_scalars("loss", {"train": 0.5, "val": 0.7}, 0)
        """
        walltime = time.time() if walltime is None else walltime
        base = self._get_file_writer().get_logdir()
        for tag, value in tag_scalar_dict.items():
            run = base + "/" + main_tag.replace("/", "_") + "_" + tag
            fw = self.all_writers.get(run)
            if fw is None:
                fw = self.all_writers[run] = FileWriter(
                    run, self.max_queue, self.flush_secs, self.filename_suffix
                )
            fw.add_summary(S.scalar(main_tag, value), global_step, walltime)

    def add_tensor(
        self, tag: str, tensor: Any, global_step: int | None = None, walltime: float | None = None
    ) -> None:
        """Log a tensor's values.

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_tensor("t", torch.ones(3))
        """
        self._add(S.tensor_proto(tag, tensor), global_step, walltime)

    def add_histogram(
        self,
        tag: str,
        values: Any,
        global_step: int | None = None,
        bins: Any = "tensorflow",
        walltime: float | None = None,
        max_bins: int | None = None,
    ) -> None:
        """Log a histogram of ``values`` (``bins``: "tensorflow" -- TensorBoard's exponential
        buckets --, or anything ``np.histogram`` takes).

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_histogram("w", torch.randn(50), 0, bins="auto")
        """
        if isinstance(bins, str) and bins == "tensorflow":
            bins = self.default_bins
        self._add(S.histogram(tag, values, bins, max_bins=max_bins), global_step, walltime)

    def add_histogram_raw(
        self,
        tag: str,
        min: float,
        max: float,
        num: int,
        sum: float,
        sum_squares: float,
        bucket_limits: Sequence[float],
        bucket_counts: Sequence[float],
        global_step: int | None = None,
        walltime: float | None = None,
    ) -> None:
        """Log a histogram from precomputed statistics.

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_histogram_raw("h", 0, 2, 3, 3, 5, [1, 2], [1, 2])
        """
        if len(bucket_limits) != len(bucket_counts):
            raise ValueError("len(bucket_limits) != len(bucket_counts), see the document.")
        self._add(
            S.histogram_raw(tag, min, max, num, sum, sum_squares, bucket_limits, bucket_counts),
            global_step,
            walltime,
        )

    def add_image(
        self,
        tag: str,
        img_tensor: Any,
        global_step: int | None = None,
        walltime: float | None = None,
        dataformats: str = "CHW",
    ) -> None:
        """Log an image (float in [0, 1] or uint8; ``dataformats`` CHW, HWC, HW...).

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_image("img", torch.rand(3, 8, 8))
        """
        self._add(S.image(tag, img_tensor, dataformats=dataformats), global_step, walltime)

    def add_images(
        self,
        tag: str,
        img_tensor: Any,
        global_step: int | None = None,
        walltime: float | None = None,
        dataformats: str = "NCHW",
    ) -> None:
        """Log a batch of images tiled into one (8 per row).

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_images("batch", torch.rand(4, 1, 8, 8))
        """
        self._add(S.image(tag, img_tensor, dataformats=dataformats), global_step, walltime)

    def add_image_with_boxes(
        self,
        tag: str,
        img_tensor: Any,
        box_tensor: Any,
        global_step: int | None = None,
        walltime: float | None = None,
        rescale: float = 1,
        dataformats: str = "CHW",
        labels: Sequence[str] | None = None,
    ) -> None:
        """Log an image with bounding boxes (rows ``x0, y0, x1, y1``) drawn on it.

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_image_with_boxes("det", torch.rand(3, 8, 8), torch.tensor([[1, 1, 5, 5]]))
        """
        if labels is not None and len(labels) != S.make_np(box_tensor).reshape(-1, 4).shape[0]:
            raise ValueError("Number of labels do not equal to number of box.")
        self._add(
            S.image_boxes(tag, img_tensor, box_tensor, rescale=rescale, dataformats=dataformats),
            global_step,
            walltime,
        )

    def add_figure(
        self,
        tag: str,
        figure: Any,
        global_step: int | None = None,
        close: bool = True,
        walltime: float | None = None,
    ) -> None:
        """Log a matplotlib figure (or a list of figures, tiled) as an image: anything whose
        ``canvas`` can ``draw()`` and give ``buffer_rgba()`` (``close`` closes it with pyplot).

        Example::

            >>> import tempfile
            >>> import numpy as np
            >>> class Canvas:  # what a matplotlib figure's canvas offers
            ...     def draw(self): pass
            ...     def buffer_rgba(self): return np.zeros((4, 6, 4), np.uint8)
            >>> class Figure:
            ...     canvas = Canvas()
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_figure("fig", Figure(), close=False)
        """
        figures = figure if isinstance(figure, list) else [figure]
        images = []
        for fig in figures:
            canvas = fig.canvas
            canvas.draw()
            rgba = np.asarray(canvas.buffer_rgba(), np.uint8)
            images.append(np.moveaxis(rgba[:, :, :3], -1, 0))
            if close:
                import matplotlib.pyplot as plt

                plt.close(fig)
        if isinstance(figure, list):
            self.add_image(tag, np.stack(images), global_step, walltime, dataformats="NCHW")
        else:
            self.add_image(tag, images[0], global_step, walltime, dataformats="CHW")

    def add_video(
        self,
        tag: str,
        vid_tensor: Any,
        global_step: int | None = None,
        fps: int = 4,
        walltime: float | None = None,
    ) -> None:
        """Videos need an encoder (PyTorch uses moviepy): not written; a message says so.

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_video("v", torch.rand(1, 2, 3, 4, 4))
            add_video needs package moviepy
        """
        print("add_video needs package moviepy")

    def add_audio(
        self,
        tag: str,
        snd_tensor: Any,
        global_step: int | None = None,
        sample_rate: int = 44100,
        walltime: float | None = None,
    ) -> None:
        """Log a mono clip (values in [-1, 1]) as a 16-bit WAV file.

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_audio("beep", torch.zeros(100), sample_rate=8000)
        """
        import io

        samples = S.make_np(snd_tensor).squeeze()
        if samples.ndim != 1:
            raise ValueError("input tensor should be 1 dimensional.")
        pcm = (np.clip(samples, -1, 1) * np.iinfo(np.int16).max).astype("<i2")
        buf = io.BytesIO()
        with wave.open(buf, "wb") as wav:
            wav.setnchannels(1)
            wav.setsampwidth(2)
            wav.setframerate(sample_rate)
            wav.writeframes(pcm.tobytes())
        audio = w.message(
            w.float32(1, sample_rate),
            w.varint(2, 1),
            w.varint(3, pcm.size),
            w.blob(4, buf.getvalue()),
            w.string(5, "audio/wav"),
        )
        self._add(w.blob(1, w.string(1, tag) + w.blob(6, audio)), global_step, walltime)

    def add_text(
        self, tag: str, text_string: str, global_step: int | None = None, walltime: float | None = None
    ) -> None:
        """Log text (rendered as Markdown by TensorBoard).

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_text("notes", "**bold**", 0)
        """
        self._add(S.text(tag, text_string), global_step, walltime)

    def add_onnx_graph(self, prototxt: str) -> None:
        """ONNX graphs are not supported (fgrad has no ONNX reader).

        Example::

            >>> import tempfile
            >>> try:
            ...     SummaryWriter(tempfile.mkdtemp()).add_onnx_graph("m.onnx")
            ... except NotImplementedError:
            ...     print("no onnx")
            no onnx
        """
        raise NotImplementedError(
            "add_onnx_graph: fgrad does not read ONNX files; use add_graph(model, inputs)"
        )

    def add_graph(
        self, model: Any, input_to_model: Any = None, verbose: bool = False, use_strict_trace: bool = True
    ) -> None:
        """Log ``model``'s graph: its leaf modules in call order on ``input_to_model``, linked
        by the tensors that flow between them (PyTorch traces operator-level graphs with
        TorchScript; fgrad records the module-level graph).

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> net = torch.nn.Sequential(torch.nn.Linear(2, 3), torch.nn.ReLU())
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_graph(net, torch.zeros(1, 2))
        """
        if input_to_model is None:
            raise ValueError("add_graph needs input_to_model to run the model once")
        graph = _graph_def(model, input_to_model)
        if verbose:
            print(graph)
        self._get_file_writer().add_graph(graph)

    @staticmethod
    def _encode(rawstr: str) -> str:
        from urllib.parse import quote

        return quote(rawstr, safe="")

    def add_embedding(
        self,
        mat: Any,
        metadata: Sequence[Any] | None = None,
        label_img: Any = None,
        global_step: int | None = None,
        tag: str = "default",
        metadata_header: Sequence[str] | None = None,
    ) -> None:
        """Write an embedding for TensorBoard's projector: ``tensors.tsv`` (and ``metadata.tsv``,
        ``sprite.png`` when given) under ``<log_dir>/<step>/<tag>``, listed in
        ``projector_config.pbtxt``.

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_embedding(torch.randn(4, 3), metadata=["a", "b", "c", "d"])
        """
        mat = S.make_np(mat)
        step = 0 if global_step is None else global_step
        subdir = f"{str(step).zfill(5)}/{self._encode(tag)}"
        logdir = self._get_file_writer().get_logdir()
        save_path = os.path.join(logdir, subdir)
        if os.path.exists(save_path):
            if not os.path.isdir(save_path):
                raise NotADirectoryError(f"Path: `{save_path}` exists, but is a file. Cannot proceed.")
            print("warning: Embedding dir exists, did you set global_step for add_embedding()?")
        else:
            os.makedirs(save_path)
        if mat.ndim != 2:
            raise ValueError("mat should be 2D, where mat.size(0) is the number of data points")
        if metadata is not None:
            if mat.shape[0] != len(metadata):
                raise ValueError("#labels should equal with #data points")
            if metadata_header:
                if len(metadata_header) != len(metadata[0]):
                    raise ValueError("len of header must be equal to the number of columns in metadata")
                lines = ["\t".join(str(e) for e in row) for row in [list(metadata_header), *metadata]]
            else:
                lines = [str(x) for x in metadata]
            with open(os.path.join(save_path, "metadata.tsv"), "wb") as f:
                f.write(("\n".join(lines) + "\n").encode())
        # EmbeddingInfo in field order: tensor_name, metadata_path, sprite, tensor_path
        config = f'embeddings {{\n  tensor_name: "{tag}:{str(step).zfill(5)}"\n'
        if metadata is not None:
            config += f'  metadata_path: "{subdir}/metadata.tsv"\n'
        if label_img is not None:
            imgs = S.make_np(label_img)
            if mat.shape[0] != imgs.shape[0]:
                raise ValueError("#images should equal with #data points")
            nrow = int(np.ceil(imgs.shape[0] ** 0.5))
            grid = S.make_grid(imgs, ncols=nrow).transpose(1, 2, 0)
            square = np.zeros((grid.shape[1], grid.shape[1], 3))
            square[: grid.shape[0]] = grid
            with open(os.path.join(save_path, "sprite.png"), "wb") as f:
                f.write(w.png(np.uint8((square * 255).clip(0, 255))))
            config += (
                f'  sprite {{\n    image_path: "{subdir}/sprite.png"\n    single_image_dim: {imgs.shape[3]}\n'
                f"    single_image_dim: {imgs.shape[2]}\n  }}\n"
            )
        config += f'  tensor_path: "{subdir}/tensors.tsv"\n'
        config += "}\n"
        with open(os.path.join(save_path, "tensors.tsv"), "wb") as f:
            for row in mat:
                f.write(("\t".join(str(v.item()) for v in row) + "\n").encode())
        self._projector = getattr(self, "_projector", "") + config
        with open(os.path.join(logdir, "projector_config.pbtxt"), "wb") as f:
            f.write(self._projector.encode())

    def add_pr_curve(
        self,
        tag: str,
        labels: Any,
        predictions: Any,
        global_step: int | None = None,
        num_thresholds: int = 127,
        weights: Any = None,
        walltime: float | None = None,
    ) -> None:
        """Log a precision-recall curve of binary ``labels`` against ``predictions`` in [0, 1].

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_pr_curve("pr", torch.tensor([1, 0, 1]), torch.tensor([0.9, 0.4, 0.6]), 0)
        """
        self._add(
            S.pr_curve(tag, S.make_np(labels), S.make_np(predictions), num_thresholds, weights),
            global_step,
            walltime,
        )

    def add_pr_curve_raw(
        self,
        tag: str,
        true_positive_counts: Any,
        false_positive_counts: Any,
        true_negative_counts: Any,
        false_negative_counts: Any,
        precision: Any,
        recall: Any,
        global_step: int | None = None,
        num_thresholds: int = 127,
        weights: Any = None,
        walltime: float | None = None,
    ) -> None:
        """Log a precision-recall curve from precomputed counts.

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_pr_curve_raw("pr", [2, 1], [1, 0], [0, 1], [0, 1], [0.67, 1.0], [1.0, 0.5], 0, 2)
        """
        self._add(
            S.pr_curve_raw(
                tag,
                true_positive_counts,
                false_positive_counts,
                true_negative_counts,
                false_negative_counts,
                precision,
                recall,
                num_thresholds,
                weights,
            ),
            global_step,
            walltime,
        )

    def add_custom_scalars(self, layout: dict) -> None:
        """Log a custom-scalars layout: ``{category: {title: ["Multiline", [tags]]}}``.

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_custom_scalars({"Losses": {"all": ["Multiline", ["loss/train", "loss/val"]]}})
        """
        self._add(S.custom_scalars(layout), None, None)

    def add_custom_scalars_multilinechart(
        self, tags: Sequence[str], category: str = "default", title: str = "untitled"
    ) -> None:
        """A custom-scalars layout with one multi-line chart.

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_custom_scalars_multilinechart(["loss/train", "loss/val"])
        """
        self.add_custom_scalars({category: {title: ["Multiline", list(tags)]}})

    def add_custom_scalars_marginchart(
        self, tags: Sequence[str], category: str = "default", title: str = "untitled"
    ) -> None:
        """A custom-scalars layout with one margin chart (``[value, lower, upper]`` tags).

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_custom_scalars_marginchart(["acc", "acc_lo", "acc_hi"])
        """
        if len(tags) != 3:
            raise ValueError("add_custom_scalars_marginchart takes exactly three tags")
        self.add_custom_scalars({category: {title: ["Margin", list(tags)]}})

    def add_hparams(
        self,
        hparam_dict: dict,
        metric_dict: dict,
        hparam_domain_discrete: dict | None = None,
        run_name: str | None = None,
        global_step: int | None = None,
    ) -> None:
        """Log hyperparameters and their metrics for TensorBoard's HPARAMS tab, in a sub-run
        ``<log_dir>/<run_name>`` (a timestamp by default).

        Example::

            >>> import tempfile
            >>> with SummaryWriter(tempfile.mkdtemp()) as wr:
            ...     wr.add_hparams({"lr": 0.1, "bsize": 16}, {"hparam/accuracy": 0.9})
        """
        if type(hparam_dict) is not dict or type(metric_dict) is not dict:
            raise TypeError("hparam_dict and metric_dict should be dictionary.")
        exp, start, end = S.hparams(hparam_dict, metric_dict, hparam_domain_discrete)
        run = os.path.join(self._get_file_writer().get_logdir(), run_name or str(time.time()))
        with SummaryWriter(log_dir=run) as sub:
            for part in (exp, start, end):
                sub.file_writer.add_summary(part, global_step)
            for k, v in metric_dict.items():
                sub.add_scalar(k, v, global_step)

    def add_mesh(
        self,
        tag: str,
        vertices: Any,
        colors: Any = None,
        faces: Any = None,
        config_dict: Any = None,
        global_step: int | None = None,
        walltime: float | None = None,
    ) -> None:
        """Meshes are not supported (TensorBoard's mesh plugin).

        Example::

            >>> import tempfile, fgrad.torch as torch
            >>> try:
            ...     SummaryWriter(tempfile.mkdtemp()).add_mesh("m", torch.zeros(1, 3, 3))
            ... except NotImplementedError:
            ...     print("no meshes")
            no meshes
        """
        raise NotImplementedError("add_mesh: fgrad's SummaryWriter does not write TensorBoard meshes")

    def flush(self) -> None:
        """Write pending events of every run to disk.

        Example::

            >>> import tempfile
            >>> SummaryWriter(tempfile.mkdtemp()).flush()
        """
        for fw in (self.all_writers or {}).values():
            fw.flush()

    def close(self) -> None:
        """Flush and close every event file.

        Example::

            >>> import tempfile
            >>> SummaryWriter(tempfile.mkdtemp()).close()
        """
        for fw in (self.all_writers or {}).values():
            fw.close()
        self.file_writer = self.all_writers = None

    def __enter__(self) -> SummaryWriter:
        return self

    def __exit__(self, exc_type: Any, exc_val: Any, exc_tb: Any) -> None:
        self.close()
