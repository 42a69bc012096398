#!/usr/bin/env python3
"""Writes wasm/base/identifier_table.h: which non-ASCII code points Python
accepts in identifiers (and which it calls printable in its messages),
from this Python's own Unicode database.

usage: python3 tools/identifier-table.py > wasm/base/identifier_table.h

Each entry is (first code point << 6) | class; a class holds until the
next entry. Class bits: 1 XID_Start (str.isidentifier() of the character),
2 XID_Continue ('a' + c is an identifier), 4 not NFKC-stable: NFKC maps it
to something else, it has a combining class, or it composes with the one
before it, so an identifier holding it is read by Python as a different
(normalised) name; 8 not printable (str.isprintable()), which CPython's
message for an invalid character tells apart; in identifiers only, 16
upper case (str.isupper() of it) and 32 lower or title case, which decide
str.isupper() of a name (a dtype, docs/model.md).
"""
import sys
import unicodedata


def composing_seconds():
    """Code points that are the second of a canonical composition pair."""
    seconds = set()
    for cp in range(0x80, 0x110000):
        decomposition = unicodedata.decomposition(chr(cp))
        if not decomposition or decomposition.startswith("<"):
            continue
        parts = decomposition.split()
        if len(parts) == 2:
            pair = chr(int(parts[0], 16)) + chr(int(parts[1], 16))
            if unicodedata.normalize("NFC", pair) == chr(cp):
                seconds.add(int(parts[1], 16))
    # Hangul syllables compose by rule, not by table: a leading consonant
    # and a vowel jamo, then a trailing consonant jamo (U+1100 U+1161 is 가).
    seconds.update(range(0x1161, 0x1176), range(0x11A8, 0x11C3))
    return seconds


def classify(cp, seconds):
    if 0xD800 <= cp <= 0xDFFF:
        return 0
    c = chr(cp)
    bits = 0
    if c.isidentifier():
        bits |= 1
    if ("a" + c).isidentifier():
        bits |= 2
    if unicodedata.normalize("NFKC", c) != c or unicodedata.combining(c) or cp in seconds:
        bits |= 4
    if not c.isprintable():
        bits |= 8
    if bits & 2 and c.isupper():
        bits |= 16
    if bits & 2 and (c.islower() or unicodedata.category(c) == "Lt"):  # titlecase letter
        bits |= 32
    return bits


def main():
    seconds = composing_seconds()
    entries, previous = [], None
    for cp in range(0x80, 0x110000):
        bits = classify(cp, seconds)
        if bits != previous:
            entries.append((cp << 6) | bits)
            previous = bits
    out = sys.stdout
    out.write("/* identifier_table.h: written by tools/identifier-table.py from Unicode "
              f"{unicodedata.unidata_version}\n"
              f" * (Python {sys.version_info.major}.{sys.version_info.minor}); do not edit. "
              "Entries: (first code point << 6) | class,\n"
              " * the class holding until the next entry; bits: 1 XID_Start, 2 XID_Continue,\n"
              " * 4 not NFKC-stable, 8 not printable, 16 upper case, 32 lower or title case.\n"
              " * See wasm/base/identifiers.c. */\n")
    out.write(f"#define MM_IDENTIFIER_UNICODE \"{unicodedata.unidata_version}\"\n")
    out.write(f"static const uint32_t identifier_table[{len(entries)}] = {{\n")
    for i in range(0, len(entries), 8):
        out.write("    " + ", ".join(f"0x{e:08x}" for e in entries[i:i + 8]) + ",\n")
    out.write("};\n")


if __name__ == "__main__":
    main()
