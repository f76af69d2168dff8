"""A small layout engine for printed programs: documents of text, breaks, groups and nesting
laid out to a line width (Lindig's "strictly pretty" algorithm, the one JAX's
``jax._src.pretty_printer`` implements).  A break inside a group prints as its text when the
whole group fits on the rest of the line, else as a newline indented by the enclosing nests.

Example::

    >>> doc = group(concat([text("f["), nest(2, concat([brk(""), text("a=1"), brk(), text("b=2")])),
    ...                     brk(""), text("]")]))
    >>> doc.format(80)
    'f[a=1 b=2]'
    >>> print(doc.format(6))
    f[
      a=1
      b=2
    ]
"""

from __future__ import annotations

from typing import Sequence

_FLAT, _BREAK = 0, 1


class Doc:
    """A document; ``a + b`` concatenates, ``format(width)`` lays it out.

    Example::

        >>> (text("a") + text("b")).format(80)
        'ab'
    """

    __slots__ = ()

    def __add__(self, other: Doc) -> Doc:
        return concat([self, other])

    def format(self, width: int = 80, annotation_prefix: str = " # ") -> str:
        """The laid-out text (each line's annotations, if any, aligned after it)."""
        return _format(self, width, annotation_prefix)

    def __str__(self) -> str:
        return self.format()


class _Text(Doc):
    __slots__ = ("text", "annotation")

    def __init__(self, s: str, annotation: str | None) -> None:
        self.text, self.annotation = s, annotation


class _Concat(Doc):
    __slots__ = ("children",)

    def __init__(self, children: list) -> None:
        self.children = children


class _Break(Doc):
    __slots__ = ("text",)

    def __init__(self, s: str) -> None:
        self.text = s


class _Group(Doc):
    __slots__ = ("child",)

    def __init__(self, child: Doc) -> None:
        self.child = child


class _Nest(Doc):
    __slots__ = ("n", "child")

    def __init__(self, n: int, child: Doc) -> None:
        self.n, self.child = n, child


def text(s: str, annotation: str | None = None) -> Doc:
    """Literal text (``annotation``: a comment printed at the end of its line).

    Example::

        >>> text("a", annotation="note").format()
        'a # note'
    """
    return _Text(s, annotation)


def concat(docs: Sequence[Doc]) -> Doc:
    """The documents one after the other.

    Example::

        >>> concat([text("a"), text("b")]).format()
        'ab'
    """
    docs = list(docs)
    return docs[0] if len(docs) == 1 else _Concat(docs)


def nil() -> Doc:
    """The empty document.

    Example::

        >>> (text("a") + nil()).format()
        'a'
    """
    return _Concat([])


def brk(s: str = " ") -> Doc:
    """A break: ``s`` when its group is flat, else a newline.

    Example::

        >>> group(text("a") + brk("; ") + text("b")).format(80)
        'a; b'
    """
    return _Break(s)


def group(doc: Doc) -> Doc:
    """A group: laid out flat when it fits on the rest of the line.

    Example::

        >>> print(group(text("abc") + brk() + text("def")).format(5))
        abc
        def
    """
    return _Group(doc)


def nest(n: int, doc: Doc) -> Doc:
    """``doc`` with its line breaks indented ``n`` more columns.

    Example::

        >>> print(nest(2, text("a") + brk() + text("b")).format())
        a
          b
    """
    return _Nest(n, doc)


def join(sep: Doc, docs: Sequence[Doc]) -> Doc:
    """``docs`` separated by ``sep``.

    Example::

        >>> join(text(", "), [text("a"), text("b")]).format()
        'a, b'
    """
    docs = list(docs)
    if not docs:
        return nil()
    out = [docs[0]]
    for d in docs[1:]:
        out += [sep, d]
    return concat(out)


def _children(doc: Doc) -> list:
    if type(doc) is _Concat:
        return doc.children
    if type(doc) in (_Group, _Nest):
        return [doc.child]
    return []


def _fits(doc: Doc, width: int) -> bool:
    """Whether ``doc`` laid out flat takes at most ``width`` columns."""
    agenda = [doc]
    while width >= 0 and agenda:
        d = agenda.pop()
        if type(d) in (_Text, _Break):
            width -= len(d.text)
        else:
            agenda.extend(reversed(_children(d)))
    return width >= 0


def _format(doc: Doc, width: int, annotation_prefix: str) -> str:
    lines: list = []  # (text, annotations)
    line, notes, k = "", [], 0
    agenda = [(0, _BREAK, doc)]
    while agenda:
        i, mode, d = agenda.pop()
        t = type(d)
        if t is _Text:
            line += d.text
            k += len(d.text)
            if d.annotation is not None:
                notes.append(d.annotation)
        elif t is _Concat:
            agenda.extend((i, mode, c) for c in reversed(d.children))
        elif t is _Break:
            if mode == _BREAK:
                lines.append((line, notes))
                line, notes, k = " " * i, [], i
            else:
                line += d.text
                k += len(d.text)
        elif t is _Nest:
            agenda.append((i + d.n, mode, d.child))
        else:  # a group
            flat = _fits(d.child, width - k)
            agenda.append((i, _FLAT if flat else _BREAK, d.child))
    lines.append((line, notes))
    if not any(n for _, n in lines):
        return "\n".join(s for s, _ in lines)
    pad = max(len(s) for s, _ in lines)
    out = []
    for s, n in lines:
        if not n:
            out.append(s)
            continue
        out.append(f"{s:<{pad}}{annotation_prefix}{n[0]}")
        out.extend(f"{'':<{pad}}{annotation_prefix}{a}" for a in n[1:])
    return "\n".join(out)


__all__ = ["Doc", "text", "concat", "nil", "brk", "group", "nest", "join"]
