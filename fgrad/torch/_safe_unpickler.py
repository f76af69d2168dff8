"""A pickle interpreter that can only build what a policy allows (``load(weights_only=True)``).

Python's ``pickle`` can call any importable object; this interpreter reads the opcodes of
protocols 2-5 itself and never imports anything.  The policy decides everything that could
run code:

* ``policy.find_class(module, name)`` -> the object a GLOBAL / STACK_GLOBAL names (or raise);
* ``policy.call(func, args)`` -> REDUCE (``func`` comes from ``find_class`` or the memo);
* ``policy.new_object(cls, args)`` -> NEWOBJ;
* ``policy.build(obj, state)`` -> BUILD;
* ``policy.persistent_load(pid)`` -> BINPERSID.

INST, OBJ, NEWOBJ_EX, the copyreg extension codes, out-of-band buffers and the text opcodes of
protocol 0 are refused.  Containers are filled only when they are exactly ``list``, ``dict``,
``OrderedDict``, ``Counter`` or ``set``, so no user ``__setitem__`` ever runs.  Every read is
bounds-checked: a truncated or corrupted pickle raises ``pickle.UnpicklingError``, never a
crash or a huge allocation.

Example::

    >>> import pickle
    >>> class Deny:
    ...     def find_class(self, module, name): raise pickle.UnpicklingError(name)
    >>> RestrictedUnpickler(pickle.dumps({"a": [1, 2.5]}, protocol=2), Deny()).load()
    {'a': [1, 2.5]}
"""

from __future__ import annotations

import codecs
import pickle
import struct
from collections import Counter, OrderedDict
from typing import Any, Protocol

__all__ = ["RestrictedUnpickler", "UnpicklePolicy", "TruncatedPickle"]


class TruncatedPickle(pickle.UnpicklingError):
    """The pickle ended (or a length ran) past the end of the data."""


class UnpicklePolicy(Protocol):
    def find_class(self, module: str, name: str) -> Any: ...

    def call(self, func: Any, args: tuple) -> Any: ...

    def new_object(self, cls: Any, args: tuple) -> Any: ...

    def build(self, obj: Any, state: Any) -> None: ...

    def persistent_load(self, pid: Any) -> Any: ...


_SETITEM_TARGETS = (dict, OrderedDict, Counter)
_UNPACK_I = struct.Struct("<i").unpack_from
_UNPACK_UI = struct.Struct("<I").unpack_from
_UNPACK_H = struct.Struct("<H").unpack_from
_UNPACK_Q = struct.Struct("<Q").unpack_from
_UNPACK_D = struct.Struct(">d").unpack_from
_REFUSED = {
    pickle.INST[0]: "INST",
    pickle.OBJ[0]: "OBJ",
    pickle.NEWOBJ_EX[0]: "NEWOBJ_EX",
    pickle.EXT1[0]: "EXT1",
    pickle.EXT2[0]: "EXT2",
    pickle.EXT4[0]: "EXT4",
    pickle.NEXT_BUFFER[0]: "NEXT_BUFFER",
    pickle.READONLY_BUFFER[0]: "READONLY_BUFFER",
    pickle.PERSID[0]: "PERSID",
}


class RestrictedUnpickler:
    """Unpickle ``data`` (bytes) under ``policy``; ``encoding`` decodes protocol-2 byte strings."""

    def __init__(self, data: bytes, policy: UnpicklePolicy, encoding: str = "utf-8") -> None:
        self.data = memoryview(data).cast("B") if not isinstance(data, bytes) else data
        self.pos = 0
        self.policy = policy
        self.encoding = encoding
        self.memo: dict[int, Any] = {}
        self.stack: list[Any] = []
        self.metastack: list[list[Any]] = []

    # -- reading ---------------------------------------------------------------------
    def _read(self, n: int) -> bytes:
        end = self.pos + n
        if n < 0 or end > len(self.data):
            raise TruncatedPickle("pickle data was truncated")
        chunk = bytes(self.data[self.pos : end])
        self.pos = end
        return chunk

    def _byte(self) -> int:
        if self.pos >= len(self.data):
            raise TruncatedPickle("pickle data was truncated")
        b = self.data[self.pos]
        self.pos += 1
        return b

    def _u32(self) -> int:
        return _UNPACK_UI(self._read(4))[0]

    def _u64(self) -> int:
        return _UNPACK_Q(self._read(8))[0]

    def _pop_mark(self) -> list[Any]:
        if not self.metastack:
            raise pickle.UnpicklingError("could not find MARK")
        items = self.stack
        self.stack = self.metastack.pop()
        return items

    def _pop(self) -> Any:
        if not self.stack:
            raise pickle.UnpicklingError("unpickling stack underflow")
        return self.stack.pop()

    def _top(self) -> Any:
        if not self.stack:
            raise pickle.UnpicklingError("unpickling stack underflow")
        return self.stack[-1]

    def _str(self, raw: bytes) -> str:
        return raw.decode("utf-8", "surrogatepass")

    def _setitems(self, target: Any, items: list[Any], op: str) -> None:
        if type(target) not in _SETITEM_TARGETS:
            raise pickle.UnpicklingError(
                f"Can only {op} for dict, collections.OrderedDict, collections.Counter, but got "
                f"{type(target).__name__}"
            )
        if len(items) % 2:
            raise pickle.UnpicklingError(f"{op}: odd number of items")
        for i in range(0, len(items), 2):
            target[items[i]] = items[i + 1]

    # -- the interpreter ---------------------------------------------------------------
    def load(self) -> Any:
        """Run the pickle to its STOP and return the object it built."""
        try:
            return self._run()
        except (pickle.UnpicklingError, RuntimeError, MemoryError):
            raise
        except (
            IndexError,
            KeyError,
            TypeError,
            ValueError,
            struct.error,
            OverflowError,
            RecursionError,
            AttributeError,
            LookupError,
        ) as e:
            raise pickle.UnpicklingError(f"malformed pickle ({type(e).__name__}: {e})") from e

    def _run(self) -> Any:  # noqa: C901, PLR0912, PLR0915 - one branch per opcode
        P = pickle
        policy = self.policy
        while True:
            op = self._byte()
            stack = self.stack
            if op == P.PROTO[0]:
                proto = self._byte()
                if proto > P.HIGHEST_PROTOCOL:
                    raise pickle.UnpicklingError(f"unsupported pickle protocol: {proto}")
            elif op == P.FRAME[0]:
                self._u64()
            elif op == P.STOP[0]:
                if len(stack) != 1 or self.metastack:
                    raise pickle.UnpicklingError("malformed pickle: STOP with a stack that is not one object")
                return stack[0]
            elif op == P.MARK[0]:
                self.metastack.append(stack)
                self.stack = []
            elif op == P.POP[0]:
                if stack:
                    stack.pop()
                else:
                    self._pop_mark()
            elif op == P.POP_MARK[0]:
                self._pop_mark()
            elif op == P.DUP[0]:
                stack.append(self._top())
            # -- scalars
            elif op == P.NONE[0]:
                stack.append(None)
            elif op == P.NEWTRUE[0]:
                stack.append(True)
            elif op == P.NEWFALSE[0]:
                stack.append(False)
            elif op == P.BININT[0]:
                stack.append(_UNPACK_I(self._read(4))[0])
            elif op == P.BININT1[0]:
                stack.append(self._byte())
            elif op == P.BININT2[0]:
                stack.append(_UNPACK_H(self._read(2))[0])
            elif op == P.LONG1[0]:
                stack.append(int.from_bytes(self._read(self._byte()), "little", signed=True))
            elif op == P.LONG4[0]:
                n = _UNPACK_I(self._read(4))[0]
                if n < 0 or n > 1 << 16:
                    raise pickle.UnpicklingError(f"LONG4 of {n} bytes refused")
                stack.append(int.from_bytes(self._read(n), "little", signed=True))
            elif op == P.BINFLOAT[0]:
                stack.append(_UNPACK_D(self._read(8))[0])
            # -- strings and bytes
            elif op == P.BINUNICODE[0]:
                stack.append(self._str(self._read(self._u32())))
            elif op == P.SHORT_BINUNICODE[0]:
                stack.append(self._str(self._read(self._byte())))
            elif op == P.BINUNICODE8[0]:
                stack.append(self._str(self._read(self._u64())))
            elif op == P.SHORT_BINSTRING[0] or op == P.BINSTRING[0]:
                n = self._byte() if op == P.SHORT_BINSTRING[0] else _UNPACK_I(self._read(4))[0]
                raw = self._read(n)
                stack.append(raw if self.encoding == "bytes" else raw.decode(self.encoding, "strict"))
            elif op == P.SHORT_BINBYTES[0]:
                stack.append(self._read(self._byte()))
            elif op == P.BINBYTES[0]:
                stack.append(self._read(self._u32()))
            elif op == P.BINBYTES8[0]:
                stack.append(self._read(self._u64()))
            elif op == P.BYTEARRAY8[0]:
                stack.append(bytearray(self._read(self._u64())))
            # -- containers
            elif op == P.EMPTY_TUPLE[0]:
                stack.append(())
            elif op == P.TUPLE[0]:
                items = self._pop_mark()
                self.stack.append(tuple(items))
            elif op in (P.TUPLE1[0], P.TUPLE2[0], P.TUPLE3[0]):
                n = op - P.TUPLE1[0] + 1
                if len(stack) < n:
                    raise pickle.UnpicklingError("unpickling stack underflow")
                items = tuple(stack[-n:])
                del stack[-n:]
                stack.append(items)
            elif op == P.EMPTY_LIST[0]:
                stack.append([])
            elif op == P.LIST[0]:
                items = self._pop_mark()
                self.stack.append(items)
            elif op == P.APPEND[0]:
                item = self._pop()
                target = self._top()
                if type(target) is not list:
                    raise pickle.UnpicklingError(f"Can only append to lists, but got {type(target).__name__}")
                target.append(item)
            elif op == P.APPENDS[0]:
                items = self._pop_mark()
                target = self._top()
                if type(target) is not list:
                    raise pickle.UnpicklingError(f"Can only extend lists, but got {type(target).__name__}")
                target.extend(items)
            elif op == P.EMPTY_DICT[0]:
                stack.append({})
            elif op == P.DICT[0]:
                items = self._pop_mark()
                d: dict = {}
                self._setitems(d, items, "DICT")
                self.stack.append(d)
            elif op == P.SETITEM[0]:
                value = self._pop()
                key = self._pop()
                self._setitems(self._top(), [key, value], "SETITEM")
            elif op == P.SETITEMS[0]:
                items = self._pop_mark()
                self._setitems(self._top(), items, "SETITEMS")
            elif op == P.EMPTY_SET[0]:
                stack.append(set())
            elif op == P.ADDITEMS[0]:
                items = self._pop_mark()
                target = self._top()
                if type(target) is not set:
                    raise pickle.UnpicklingError(
                        f"Can only add items to sets, but got {type(target).__name__}"
                    )
                target.update(items)
            elif op == P.FROZENSET[0]:
                items = self._pop_mark()
                self.stack.append(frozenset(items))
            # -- memo
            elif op in (P.BINPUT[0], P.LONG_BINPUT[0]):
                idx = self._byte() if op == P.BINPUT[0] else self._u32()
                self.memo[idx] = self._top()
            elif op == P.MEMOIZE[0]:
                self.memo[len(self.memo)] = self._top()
            elif op in (P.BINGET[0], P.LONG_BINGET[0]):
                idx = self._byte() if op == P.BINGET[0] else self._u32()
                if idx not in self.memo:
                    raise pickle.UnpicklingError(f"Memo value not found at index {idx}")
                stack.append(self.memo[idx])
            # -- everything that could run code goes through the policy
            elif op == P.GLOBAL[0]:
                module = self._line()
                name = self._line()
                stack.append(policy.find_class(module, name))
            elif op == P.STACK_GLOBAL[0]:
                name = self._pop()
                module = self._pop()
                if type(module) is not str or type(name) is not str:
                    raise pickle.UnpicklingError("STACK_GLOBAL requires str")
                stack.append(policy.find_class(module, name))
            elif op == P.REDUCE[0]:
                args = self._pop()
                func = self._top()
                if type(args) is not tuple:
                    raise pickle.UnpicklingError("REDUCE: the arguments are not a tuple")
                self.stack[-1] = policy.call(func, args)
            elif op == P.NEWOBJ[0]:
                args = self._pop()
                cls = self._pop()
                if type(args) is not tuple:
                    raise pickle.UnpicklingError("NEWOBJ: the arguments are not a tuple")
                self.stack.append(policy.new_object(cls, args))
            elif op == P.BUILD[0]:
                state = self._pop()
                policy.build(self._top(), state)
            elif op == P.BINPERSID[0]:
                stack.append(policy.persistent_load(self._pop()))
            elif op in _REFUSED:
                raise pickle.UnpicklingError(
                    f"the {_REFUSED[op]} opcode is not allowed with weights_only=True"
                )
            else:
                raise pickle.UnpicklingError(f"Unsupported operand {op}")

    def _line(self) -> str:
        end = self.pos
        data = self.data
        limit = min(len(data), self.pos + 1024)
        while end < limit and data[end] != 10:
            end += 1
        if end >= limit:
            raise TruncatedPickle("pickle data was truncated (or a GLOBAL name is over 1024 bytes)")
        raw = bytes(data[self.pos : end])
        self.pos = end + 1
        return codecs.decode(raw, "utf-8")
