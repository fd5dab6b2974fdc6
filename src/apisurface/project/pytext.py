"""Python source text from bytes, decoded as the interpreter would, in linear time.

A module chooses its own codec (``# coding: NAME``). Some decode in quadratic time
(``punycode``: 800 KB took 40 s) or refuse text with a bare ``UnicodeError`` (``idna``):
only UTF-8 and the codecs whose decoder is one linear pass are read (docs/security.md).
Every reader of Python files goes through :func:`decode_python` (``ast.parse`` of bytes
would decode with any codec the file names).
"""

from __future__ import annotations

import ast
import codecs
import sys
import tokenize
from io import BytesIO

__all__ = ["UnreadEncoding", "decode_python", "parse_python", "readable_encoding"]

# Source encodings read: UTF-8 and those decoded in one linear pass. Single-byte codecs
# (a decoding table: latin-1, cp1252, koi8-r, mac-roman, ...) are found by their module;
# these are the others. punycode decodes in quadratic time (800 KB: 40 s), idna runs it
# per label, utf-7 and the escape codecs are no file encodings anyone writes.
_LINEAR_CODECS = frozenset(
    {
        "utf-8",
        "utf-8-sig",
        "ascii",
        "iso8859-1",
        # CJK multibyte codecs (C, one pass):
        "big5",
        "big5hkscs",
        "cp932",
        "cp949",
        "cp950",
        "euc_jis_2004",
        "euc_jisx0213",
        "euc_jp",
        "euc_kr",
        "gb18030",
        "gb2312",
        "gbk",
        "hz",
        "iso2022_jp",
        "iso2022_jp_1",
        "iso2022_jp_2",
        "iso2022_jp_2004",
        "iso2022_jp_3",
        "iso2022_jp_ext",
        "iso2022_kr",
        "johab",
        "shift_jis",
        "shift_jis_2004",
        "shift_jisx0213",
    }
)


class UnreadEncoding(ValueError):
    """A module declares a source encoding apisurface does not decode (one line)."""


def readable_encoding(name: str) -> bool:
    """Whether the codec ``name`` is one apisurface decodes: UTF-8, or another whose
    decoder is linear in the input (:data:`_LINEAR_CODECS`, or a single-byte table)."""
    try:
        info = codecs.lookup(name)
    except LookupError:
        return False
    if info.name in _LINEAR_CODECS:
        return True
    module = sys.modules.get(getattr(info.decode, "__module__", None) or "")
    return hasattr(module, "decoding_table") or hasattr(module, "decoding_map")


def decode_python(data: bytes) -> str:
    """Python source decoded as the interpreter would (BOM, coding cookie, UTF-8), when
    its encoding is one :func:`readable_encoding` accepts. Raises :class:`UnreadEncoding`,
    :class:`SyntaxError` (a bad cookie) or :class:`UnicodeError` (bytes the codec refuses),
    whose messages are one line."""
    encoding, _ = tokenize.detect_encoding(BytesIO(data).readline)
    if not readable_encoding(encoding):
        raise UnreadEncoding(
            f"source encoding {encoding!r} is not read (UTF-8, and encodings decoded in "
            "one pass such as latin-1, cp1252 or shift_jis, are)"
        )
    return data.decode(encoding).removeprefix("\ufeff")


def parse_python(data: bytes) -> ast.Module:
    """``ast.parse`` of a file's bytes, once :func:`decode_python` found its encoding one
    that is read (else its errors): the readers that parse a file outside the visit
    (``__version__``, a docs conf.py, migrate's deprecation notes) keep parsing bytes."""
    decode_python(data)
    return ast.parse(data)
