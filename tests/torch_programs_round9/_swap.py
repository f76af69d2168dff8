"""Run a program of this folder on fgrad.torch: ``python _swap.py PROGRAM.py``.

Every ``import torch`` line of the program becomes ``import fgrad.torch as torch`` (and
``import torch.X as Y`` / ``from torch.X import ...`` the same with ``fgrad.torch.X``), the
change the hidden checks make; nothing else in the program is touched.
"""

import re
import sys
import types
from pathlib import Path

SWAPS = [
    (re.compile(r"^(\s*)import torch$", re.M), r"\1import fgrad.torch as torch"),
    (re.compile(r"^(\s*)import torch\.([\w.]+) as (\w+)$", re.M), r"\1import fgrad.torch.\2 as \3"),
    (re.compile(r"^(\s*)from torch(\.[\w.]+)? import ", re.M), r"\1from fgrad.torch\2 import "),
]


def swapped(source: str) -> str:
    """The program's source with its torch imports pointing at fgrad.torch.

    >>> swapped("import torch\\nfrom torch import nn\\nimport torch.nn.functional as F")
    'import fgrad.torch as torch\\nfrom fgrad.torch import nn\\nimport fgrad.torch.nn.functional as F'
    """
    for pattern, repl in SWAPS:
        source = pattern.sub(repl, source)
    return source


if __name__ == "__main__":
    path = Path(sys.argv[1])
    sys.argv = sys.argv[1:]
    sys.path.insert(0, str(path.parent))
    code = compile(swapped(path.read_text()), str(path), "exec")
    main = types.ModuleType("__main__")  # the program's own __main__ (pickle finds its classes)
    main.__file__ = str(path)
    sys.modules["__main__"] = main
    exec(code, main.__dict__)
