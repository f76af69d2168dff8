"""The byte formats TensorBoard reads, written without TensorFlow, protobuf or PIL:
protocol-buffer messages (the wire format: varints, 64/32-bit fixed and length-delimited
fields), TFRecord framing with masked CRC-32C checksums, and PNG images.

A message is built as bytes from fields: ``message(string(1, "tag"), float32(2, 0.5))``.

Example::

    >>> message(string(1, "a"), varint(2, 3)).hex()
    '0a01611003'
"""

from __future__ import annotations

import struct
import zlib
from collections.abc import Iterable

import numpy as np


def _varint_bytes(value: int) -> bytes:
    value &= (1 << 64) - 1  # negative int64 values are ten-byte two's complement varints
    out = bytearray()
    while True:
        low = value & 0x7F
        value >>= 7
        if value:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def _key(field: int, wire_type: int) -> bytes:
    return _varint_bytes((field << 3) | wire_type)


def varint(field: int, value: int | bool) -> bytes:
    """An int32/int64/uint/bool/enum field.

    Example::

        >>> varint(1, 300).hex()
        '08ac02'
    """
    return _key(field, 0) + _varint_bytes(int(value))


def float64(field: int, value: float) -> bytes:
    """A ``double`` field.

    Example::

        >>> len(float64(1, 1.5))
        9
    """
    return _key(field, 1) + struct.pack("<d", float(value))


def float32(field: int, value: float) -> bytes:
    """A ``float`` field.

    Example::

        >>> float32(2, 1.0).hex()
        '150000803f'
    """
    return _key(field, 5) + struct.pack("<f", float(value))


def blob(field: int, data: bytes) -> bytes:
    """A length-delimited field: bytes, or an embedded message's bytes.

    Example::

        >>> blob(4, b"xy").hex()
        '22027879'
    """
    return _key(field, 2) + _varint_bytes(len(data)) + data


def string(field: int, text: str) -> bytes:
    """A ``string`` field (UTF-8).

    Example::

        >>> string(1, "é").hex()
        '0a02c3a9'
    """
    return blob(field, text.encode("utf-8"))


def packed_float64(field: int, values: Iterable[float]) -> bytes:
    """A packed ``repeated double`` field.

    Example::

        >>> len(packed_float64(6, [1.0, 2.0]))
        18
    """
    return blob(field, np.asarray(list(values), "<f8").tobytes())


def message(*fields: bytes) -> bytes:
    """A message: its fields' bytes in order.

    Example::

        >>> message(varint(1, 1), varint(2, 2)).hex()
        '08011002'
    """
    return b"".join(fields)


def _crc32c_table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC32C = _crc32c_table()


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), the checksum of TFRecord files.

    Example::

        >>> hex(crc32c(b"123456789"))
        '0xe3069283'
    """
    crc = 0xFFFFFFFF
    table = _CRC32C
    for byte in data:
        crc = table[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def _masked_crc(data: bytes) -> bytes:
    crc = crc32c(data)
    masked = (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    return struct.pack("<I", masked)


def tfrecord(data: bytes) -> bytes:
    """One TFRecord: length, its masked CRC-32C, the data, the data's masked CRC-32C.

    Example::

        >>> len(tfrecord(b"abc"))
        19
    """
    length = struct.pack("<Q", len(data))
    return length + _masked_crc(length) + data + _masked_crc(data)


def read_tfrecords(raw: bytes) -> list[bytes]:
    """The records of a TFRecord file's bytes, checksums verified (ValueError if corrupt).

    Example::

        >>> read_tfrecords(tfrecord(b"x") + tfrecord(b"yz"))
        [b'x', b'yz']
    """
    out, pos = [], 0
    while pos < len(raw):
        header = raw[pos : pos + 8]
        (length,) = struct.unpack("<Q", header)
        if raw[pos + 8 : pos + 12] != _masked_crc(header):
            raise ValueError(f"corrupt TFRecord length at byte {pos}")
        data = raw[pos + 12 : pos + 12 + length]
        if raw[pos + 12 + length : pos + 16 + length] != _masked_crc(data):
            raise ValueError(f"corrupt TFRecord data at byte {pos}")
        out.append(data)
        pos += 16 + length
    return out


def png(image: np.ndarray) -> bytes:
    """A PNG file of a uint8 ``(H, W)``, ``(H, W, 3)`` or ``(H, W, 4)`` image.

    Example::

        >>> png(np.zeros((2, 3, 3), np.uint8))[:8]
        b'\\x89PNG\\r\\n\\x1a\\n'
    """
    image = np.ascontiguousarray(image, np.uint8)
    if image.ndim == 2:
        image = image[:, :, None]
    height, width, channels = image.shape
    color_type = {1: 0, 2: 4, 3: 2, 4: 6}[channels]
    rows = np.concatenate([np.zeros((height, 1), np.uint8), image.reshape(height, width * channels)], axis=1)

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))

    header = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows.tobytes()))
        + chunk(b"IEND", b"")
    )
