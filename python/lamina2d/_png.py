"""A PNG writer for ``World.render``'s pictures, so that examples and
notebooks can save one without an imaging package."""

from __future__ import annotations

import struct
import zlib

import numpy as np


def write_png(path: str, picture: np.ndarray) -> None:
    """Writes a ``(height, width, 3)`` uint8 RGB array as a PNG file."""
    picture = np.ascontiguousarray(picture, dtype=np.uint8)
    if picture.ndim != 3 or picture.shape[2] != 3:
        raise ValueError(f"expected a (height, width, 3) array, got shape {picture.shape}")
    height, width, _ = picture.shape
    # Each row starts with its filter type, 0 (none).
    rows = np.concatenate([np.zeros((height, 1), dtype=np.uint8), picture.reshape(height, width * 3)], axis=1)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8-bit RGB
    with open(path, "wb") as f:
        f.write(b"\x89PNG\r\n\x1a\n")
        f.write(chunk(b"IHDR", header))
        f.write(chunk(b"IDAT", zlib.compress(rows.tobytes(), 6)))
        f.write(chunk(b"IEND", b""))
