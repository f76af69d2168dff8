"""Every public name of both faces is in the API reference (docs/api/).

The modules walked: `fgrad`, and `fgrad.numpy`, `fgrad.lax`, `fgrad.scipy`, `fgrad.nn`,
`fgrad.random`, `fgrad.torch` with their public submodules; a module's public names are its
``__all__``, else its names without an underscore (modules and ``typing`` helpers aside). A
name is documented when a ``:::`` block of an API page renders its object — as mkdocstrings
does: a module's ``__all__``, else only what the module defines itself, restricted to a
block's ``members:`` option — or when ``docs/api/names.md`` (written by
``python tools/make_api_index.py``) lists it. See `tools/make_api_index.py`.
"""

from __future__ import annotations

import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))
import make_api_index as api  # noqa: E402


def test_every_public_name_is_documented():
    listed = api.listed_in_index()
    undocumented = [f"{module}.{name}" for module, names in api.missing().items() for name in names
                    if f"{module}.{name}" not in listed]
    assert not undocumented, (f"{len(undocumented)} public names are in no API page; add a ::: block "
                              "or run python tools/make_api_index.py:\n" + "\n".join(undocumented))


def test_the_index_lists_only_names_that_exist_and_are_not_rendered_elsewhere():
    """A stale line (a name removed, or now rendered by a page) is regenerated away."""
    want = {f"{module}.{name}" for module, names in api.missing().items() for name in names}
    assert api.listed_in_index() == want


def test_walk_covers_both_faces():
    modules = set(api.public_modules())
    for name in ("fgrad", "fgrad.numpy", "fgrad.numpy.linalg", "fgrad.lax", "fgrad.scipy.special",
                 "fgrad.scipy.stats", "fgrad.nn", "fgrad.random", "fgrad.torch", "fgrad.torch.nn",
                 "fgrad.torch.nn.functional", "fgrad.torch.distributions", "fgrad.torch.optim.lr_scheduler",
                 "fgrad.torch.amp", "fgrad.torch.cuda", "fgrad.torch.utils.data"):
        assert name in modules, name


def test_rendering_rules(tmp_path):
    """A ``:::`` block of a module without ``__all__`` does not render what it imports (an alias,
    as mkdocstrings leaves it out); with ``__all__`` it renders those names; ``members:``
    restricts a block; ``::: module.name`` renders that object."""
    import fgrad.torch as torch
    import fgrad.torch.nn.functional as F

    page = tmp_path / "p.md"
    page.write_text("::: fgrad.torch\n\n"
                    "::: fgrad.torch.nn.functional\n    options:\n      members: [\"relu\"]\n\n"
                    "::: fgrad.torch.nn.Linear\n", encoding="utf-8")
    objects, names = api.rendered([page])
    assert id(torch.sin) not in objects             # fgrad.torch._faces.sin, imported
    assert id(torch.set_default_device) in objects  # defined in fgrad.torch
    assert id(F.relu) in objects and id(F.gelu) not in objects
    assert id(torch.nn.Linear) in objects and "fgrad.torch.nn.Linear" in names


def test_the_listed_names_exist():
    import importlib

    for qualified in sorted(api.listed_in_index())[::25]:
        module, _, name = qualified.rpartition(".")
        assert hasattr(importlib.import_module(module), name), qualified


