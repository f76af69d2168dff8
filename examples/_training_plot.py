"""Training curves of the examples, saved as a PNG.

Every training example records its loss (and accuracy, where it has one) in a
`TrainingCurves` and saves them at the end: to ``examples/plots/<example>.png`` by default,
to ``--plot FILE.png`` when given, nowhere with ``--no-plot``.  The plot needs matplotlib
(``pip install -e '.[examples]'``); without it the example runs as before and says that it
skipped the plot.  Messages go to stderr, so an example's printed output stays what its
peer (JAX or PyTorch) prints.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

PLOTS_DIR = Path(__file__).resolve().parent / "plots"


def add_plot_arguments(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add ``--plot FILE.png`` and ``--no-plot`` to an example's argument parser."""
    parser.add_argument("--plot", metavar="FILE.png", default=None,
                        help="where to save the training curves (default: examples/plots/<example>.png)")
    parser.add_argument("--no-plot", action="store_true", help="do not save the training curves")
    return parser


def plot_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    """The plot options of an example that has no other command-line arguments."""
    return add_plot_arguments(argparse.ArgumentParser()).parse_args(argv)


class TrainingCurves:
    """Points of named series, grouped in panels (``"loss"``, ``"accuracy"``), one
    subplot each."""

    def __init__(self, title: str, xlabel: str = "step") -> None:
        self.title = title
        self.xlabel = xlabel
        self.panels: dict[str, dict[str, tuple[list[float], list[float]]]] = {}

    def add(self, panel: str, series: str, x: float, y: float) -> None:
        xs, ys = self.panels.setdefault(panel, {}).setdefault(series, ([], []))
        xs.append(float(x))
        ys.append(float(y))

    def save(self, name: str, args: argparse.Namespace) -> Path | None:
        """Save to ``args.plot`` (default ``examples/plots/<name>.png``); None when skipped."""
        if args.no_plot or not self.panels:
            return None
        path = Path(args.plot) if args.plot else PLOTS_DIR / f"{name}.png"
        try:
            import matplotlib  # an optional dependency of the examples only
        except ImportError:
            print("matplotlib is not installed: no plot of the training curves "
                  "(pip install matplotlib, or pip install -e '.[examples]')", file=sys.stderr)
            return None
        matplotlib.use("Agg")  # files only, no window
        import matplotlib.pyplot as plt

        fig, axes = plt.subplots(1, len(self.panels), figsize=(5 * len(self.panels), 3.6), squeeze=False)
        for ax, (panel, series) in zip(axes[0], self.panels.items()):
            for label, (xs, ys) in series.items():
                ax.plot(xs, ys, marker="o" if len(xs) < 30 else None, markersize=3, label=label)
            ax.set_xlabel(self.xlabel)
            ax.set_ylabel(panel)
            if panel == "loss" and all(y > 0 for _, ys in series.values() for y in ys):
                ax.set_yscale("log")
            ax.grid(True, alpha=0.3)
            if len(series) > 1:
                ax.legend()
        fig.suptitle(self.title)
        fig.tight_layout()
        path.parent.mkdir(parents=True, exist_ok=True)
        fig.savefig(path, dpi=110)
        plt.close(fig)
        print(f"training curves saved to {path}", file=sys.stderr)
        return path
