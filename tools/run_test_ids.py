"""Run the test ids listed in a file (one per line; ids may hold spaces; a bare file path
runs the whole file) with pytest, skipping ids that no longer exist (pytest would refuse the
whole run for one missing id).  Used to re-run on a GPU machine the tests an earlier GPU run failed:

    python tools/run_test_ids.py failed_ids.txt -n 12 -p no:cacheprovider

Ids are checked against the files' collected items first (one collection pass).
"""

from __future__ import annotations

import sys

import pytest


class _Collector:
    def __init__(self) -> None:
        self.ids: set[str] = set()

    def pytest_collection_modifyitems(self, items) -> None:
        self.ids.update(item.nodeid for item in items)


def main(argv: list[str]) -> int:
    path, extra = argv[0], argv[1:]
    wanted = [line.strip() for line in open(path) if line.strip()]
    files = sorted({w.split("::")[0] for w in wanted})
    col = _Collector()
    pytest.main(["--collect-only", "-q", "-p", "no:cacheprovider", "-m", "", *files], plugins=[col])
    files_present = {i.split("::")[0] for i in col.ids}
    present = [w for w in wanted if w in col.ids or w in files_present]
    print(f"{len(present)} of {len(wanted)} ids still exist; running them", flush=True)
    return pytest.main([*present, "-m", "", *extra])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
