#!/usr/bin/env python3
"""Writes the fuzzers' seed corpora (tests/fuzz/corpus/) from real files: traces that lesson 05
recorded and the first images of Debian's Fashion-MNIST. Run again after a trace format change:
    scripts/ringlab-mpirun -np 2 build/bin/lesson_05 --schedule --count 4 --type int32 --trace /tmp/r2.trace
    scripts/ringlab-mpirun -np 3 build/bin/lesson_05 --count 8 --type int32 --trace /tmp/c3.trace
    tests/fuzz/make_seeds.py /tmp/r2.trace /tmp/c3.trace
"""
import gzip, json, os, struct, sys

here = os.path.dirname(os.path.abspath(__file__))
ring, check = sys.argv[1], sys.argv[2]


def put(kind, name, data):
    d = os.path.join(here, "corpus", kind)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def lines(path):
    with open(path, "rb") as f:
        return f.read().splitlines()


# One seed per distinct kind of line (header, and each op seen).
seen = set()
for i, line in enumerate(lines(ring) + lines(check)):
    j = json.loads(line)
    kind = "header" if "format" in j else j["op"] + ("-values" if "values" in j else "")
    if kind not in seen:
        seen.add(kind)
        put("trace_line", kind, line)

put("trace_file", "ring2", open(ring, "rb").read())
put("trace_file", "check3", open(check, "rb").read())

# What rank 0 of a live run sends: the header with its rank added, then its own events.
for rank in (0, 1):
    ls = lines(ring)
    h = json.loads(ls[0])
    h["rank"] = rank
    body = [json.dumps(h, separators=(",", ":")).encode()]
    body += [l for l in ls[1:] if json.loads(l)["rank"] == rank]
    put("live_server", "ring2-rank%d" % rank, b"\n".join(body) + b"\n")

# IDX: the first 3 training images (28x28) and their labels, as images|labels with the
# images' length in front (two bytes, big-endian: fuzz_idx_reader.cpp cuts its input there).
d = "/usr/share/datasets/fashion-mnist"
with gzip.open(d + "/train-images-idx3-ubyte.gz") as f:
    f.read(16)
    px = f.read(3 * 784)
with gzip.open(d + "/train-labels-idx1-ubyte.gz") as f:
    f.read(8)
    lb = f.read(3)
images = struct.pack(">IIII", 0x803, 3, 28, 28) + px
labels = struct.pack(">II", 0x801, 3) + lb
put("idx_reader", "fashion3", struct.pack(">H", len(images)) + images + labels)
tiny_i = struct.pack(">IIII", 0x803, 2, 2, 2) + bytes([0, 255, 7, 9, 1, 2, 3, 4])
tiny_l = struct.pack(">II", 0x801, 2) + bytes([3, 9])
put("idx_reader", "tiny2x2", struct.pack(">H", len(tiny_i)) + tiny_i + tiny_l)
