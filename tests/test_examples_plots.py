"""The training examples save their loss/accuracy curves as a PNG (examples/_training_plot.py):
with matplotlib, a PNG at ``--plot FILE``; without it, the example still runs and says it
skipped the plot; ``--no-plot`` skips it silently."""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "examples"))
import _training_plot as tp  # noqa: E402

TRAINING_EXAMPLES = ("demo", "mlp_digits", "char_rnn", "char_transformer", "jax_tutorial_mlp",
                     "remat_deep_net", "stax_classifier")
HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None


def _curves():
    curves = tp.TrainingCurves("test")
    for step in range(5):
        curves.add("loss", "train", step, 1.0 / (step + 1))
        curves.add("accuracy", "train", step, step / 5)
        curves.add("accuracy", "test", step, step / 6)
    return curves


def test_no_plot_skips_silently(tmp_path, capsys):
    args = tp.plot_arguments(["--no-plot", "--plot", str(tmp_path / "x.png")])
    assert _curves().save("x", args) is None
    assert not (tmp_path / "x.png").exists()
    assert capsys.readouterr().err == ""


def test_without_matplotlib_the_plot_is_skipped_with_a_message(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib -> ImportError
    args = tp.plot_arguments(["--plot", str(tmp_path / "x.png")])
    assert _curves().save("x", args) is None
    assert not (tmp_path / "x.png").exists()
    assert "matplotlib is not installed" in capsys.readouterr().err


def test_default_path_is_under_examples_plots():
    args = tp.plot_arguments([])
    assert args.plot is None and not args.no_plot
    assert tp.PLOTS_DIR == ROOT / "examples" / "plots"
    parser = tp.add_plot_arguments(argparse.ArgumentParser())
    assert parser.parse_args(["--plot", "a.png"]).plot == "a.png"


@pytest.mark.skipif(not HAVE_MATPLOTLIB, reason="matplotlib is not installed (the examples extra)")
def test_with_matplotlib_a_png_is_written(tmp_path):
    path = _curves().save("x", tp.plot_arguments(["--plot", str(tmp_path / "sub" / "x.png")]))
    assert path == tmp_path / "sub" / "x.png"
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.parametrize("name", TRAINING_EXAMPLES)
def test_every_training_example_records_and_saves_its_curves(name):
    source = (ROOT / "examples" / f"{name}.py").read_text()
    assert "from _training_plot import" in source
    assert "curves.add(" in source and f'curves.save("{name}", args)' in source


def test_an_example_saves_its_plot_or_says_why_not(tmp_path):
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]))
    target = tmp_path / "curves.png"
    proc = subprocess.run([sys.executable, "examples/jax_tutorial_mlp.py", "--plot", str(target)], cwd=ROOT,
                          env=env, capture_output=True, text=True, timeout=300, stdin=subprocess.DEVNULL)
    assert proc.returncode == 0, proc.stderr
    assert "final loss" in proc.stdout
    if HAVE_MATPLOTLIB:
        assert target.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"training curves saved to {target}" in proc.stderr
    else:
        assert not target.exists()
        assert "matplotlib is not installed" in proc.stderr
