#!/usr/bin/env python3
"""Folds a chess net of feature set `hyperchess-1x1/4` into `hyperchess-1x1/5`, the same outputs.

    python3 docs/tools/fold-chess-net.py IN.net OUT.net

Version 4 gave each piece three inputs: colour × type × square (14 × 64), colour × type on its
board (14; one board) and colour × type anywhere (14), then Black to move (1): 925 inputs.
Version 5 keeps the squares and Black to move (897). A piece's two other inputs add the same
row to the hidden sums whatever its square, so adding those two rows to each of its kind's
square rows gives the same sums, the same clipped activations and the same outputs, exactly
(integers; no weight leaves the i16 range). The header says so in its note; the checksum is
the net format's (FNV-1a 64 over the file before it, docs/learning.md).
"""
import json
import struct
import sys

KINDS = 14


def fnv1a(b):
    h = 0xCBF29CE484222325
    for x in b:
        h ^= x
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    data = open(sys.argv[1], "rb").read()
    assert data[:8] == b"QUATRNET", "not a quatre net"
    version, hlen = struct.unpack_from("<II", data, 8)
    assert version == 2, "net format version %d (this tool reads 2)" % version
    header = json.loads(data[16 : 16 + hlen])
    assert header["features"] == "hyperchess-1x1/4", header["features"]
    i, h, o = header["inputs"], header["hidden"], header["outputs"]
    assert i == KINDS * 66 + 1, i
    body = 16 + hlen
    n1, nb1, n2 = i * h, h, o * h
    w = struct.unpack_from("<%dh" % (n1 + nb1 + n2), data, body)
    b2 = struct.unpack_from("<%di" % o, data, body + 2 * (n1 + nb1 + n2))
    end = body + 2 * (n1 + nb1 + n2) + 4 * o
    assert struct.unpack_from("<Q", data, end)[0] == fnv1a(data[:end]), "checksum mismatch"
    assert len(data) == end + 8
    w1, rest = w[:n1], w[n1:]
    row = lambda f: w1[f * h : (f + 1) * h]
    out = []
    for k in range(KINDS):
        extra = [a + b for a, b in zip(row(KINDS * 64 + k), row(KINDS * 65 + k))]
        for sq in range(64):
            r = [a + b for a, b in zip(row(k * 64 + sq), extra)]
            assert all(-32768 <= x <= 32767 for x in r), "a folded weight leaves the i16 range"
            out.extend(r)
    out.extend(row(KINDS * 66))
    header["features"] = "hyperchess-1x1/5"
    header["inputs"] = KINDS * 64 + 1
    header["note"] += (
        " Folded from hyperchess-1x1/4 to hyperchess-1x1/5 by docs/tools/fold-chess-net.py"
        " (each piece's board and material rows added to its square rows: the same outputs)."
    )
    hb = json.dumps(header, separators=(",", ":"), ensure_ascii=False).encode()
    v = bytearray(b"QUATRNET")
    v += struct.pack("<II", 2, len(hb)) + hb
    v += struct.pack("<%dh" % (len(out) + len(rest)), *out, *rest)
    v += struct.pack("<%di" % o, *b2)
    v += struct.pack("<Q", fnv1a(bytes(v)))
    open(sys.argv[2], "wb").write(bytes(v))
    print("wrote %s: %d inputs, %d hidden, %d outputs" % (sys.argv[2], header["inputs"], h, o))


if __name__ == "__main__":
    main()
