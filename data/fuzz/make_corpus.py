#!/usr/bin/env python3
"""Writes the committed seed corpus of the reader fuzz tests (data/src/test/java/fsil/data/fuzz).

Each reader gets a few valid files (written by NumPy itself where NumPy writes the format) and near-valid
mutations of them. Run from the repository root with NumPy installed: python3 data/fuzz/make_corpus.py
Findings of a fuzzing run land beside these seeds (crash-*) and are replayed by mvn verify from then on.
"""
import gzip
import io
import os
import struct
import zipfile

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src", "test", "resources", "fsil", "data",
                    "fuzz")


def out(cls, method, name, data):
    d = os.path.join(ROOT, cls + "FuzzTestInputs", method)
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def npy(arr, **kw):
    b = io.BytesIO()
    np.save(b, arr, **kw)
    return b.getvalue()


def npz(compressed=False, **arrays):
    b = io.BytesIO()
    (np.savez_compressed if compressed else np.savez)(b, **arrays)
    return b.getvalue()


def gz(data):
    return gzip.compress(data, mtime=0)


rng = np.random.default_rng(0)
x = rng.standard_normal((6, 3)).astype(np.float32)
y = np.array([100, 103, 100, 107, 103, 107], dtype=np.int64)
ys = np.array(["cat", "dog", "cat", "\u00e9l\u00e8ve", "dog", "cat"])

# ---- npy
out("Npy", "npy", "f4-2d.npy", npy(x))
out("Npy", "npy", "f8-fortran.npy", npy(np.asfortranarray(x.astype(np.float64))))
out("Npy", "npy", "be-f8.npy", npy(x.astype(">f8")))
out("Npy", "npy", "u1-3d.npy", npy(rng.integers(0, 255, (2, 4, 4), dtype=np.uint8)))
out("Npy", "npy", "i8-labels.npy", npy(y))
out("Npy", "npy", "u4-labels.npy", npy(y.astype(np.uint32)))
out("Npy", "npy", "U-labels.npy", npy(ys))
out("Npy", "npy", "U-big-endian-labels.npy", npy(ys.astype(">U5")))
out("Npy", "npy", "v2-header.npy", npy(x, allow_pickle=False)[:6] + b"\x02\x00" + struct.pack("<I", 118)
    + npy(x)[10:])
out("Npy", "npy", "truncated.npy", npy(x)[:-5])
out("Npy", "npy", "n-by-0.npy", npy(np.zeros((3, 0), dtype=np.float32)))
out("Npy", "npy", "nan.npy", npy(np.array([[1.0, np.nan]], dtype=np.float32)))
out("Npy", "npy", "huge-shape.npy", npy(x).replace(b"(6, 3)", b"(9999999999, 3)"))

# ---- npz
out("Npz", "npz", "savez.npz", npz(x=x, y=y))
out("Npz", "npz", "compressed.npz", npz(True, features=x, labels=y))
out("Npz", "npz", "unicode-labels.npz", npz(features=x, labels=ys))
out("Npz", "npz", "mismatch.npz", npz(x=x, y=y[:4]))
out("Npz", "npz", "no-labels.npz", npz(x=x))
b = io.BytesIO()
with zipfile.ZipFile(b, "w") as z:
    z.writestr("x.npy", npy(x))
    z.writestr("y.npy", npy(y))
    z.writestr("Q.npy", npy(y[::-1].copy()))
out("Npz", "npz", "duplicate-entry.npz", b.getvalue().replace(b"Q.npy", b"y.npy"))
b = io.BytesIO()
with zipfile.ZipFile(b, "w") as z:
    z.writestr("../x.npy", npy(x))
out("Npz", "npz", "traversal.npz", b.getvalue())

# ---- csv
csv = "a,b,c,label\n# comment\n" + "".join(
    f"{r[0]:.3f},{r[1]:.3f},{r[2]:.3f},{l}\n" for r, l in zip(x, y))
out("Csv", "csv", "int-labels.csv", csv.encode())
out("Csv", "csv", "string-labels.csv", "".join(
    f"{r[0]},{r[1]},\"{l}\"\n" for r, l in zip(x, ys)).encode())
out("Csv", "csv", "semicolon.csv", csv.replace(",", ";").encode())
out("Csv", "csv", "tabs.csv", csv.replace(",", "\t").encode())
out("Csv", "csv", "crlf-bom.csv", ("\ufeff" + csv.replace("\n", "\r\n")).encode())
out("Csv", "csv", "gzip.csv", gz(csv.encode()))
out("Csv", "csv", "gzip-truncated.csv", gz(csv.encode() * 20)[:60])
out("Csv", "csv", "latin1-labels.csv", "x,label\n1,caf\u00e9\n2,caf\u00e8\n".encode("latin-1"))
out("Csv", "csv", "ragged.csv", b"1,2,0\n3,0\n")
out("Csv", "csv", "nan.csv", b"1,NaN,0\n3,4,1\n")

# ---- arff
arff = ("% toy\n@relation toy\n@attribute a numeric\n@attribute 'b c' real\n"
        "@attribute class {setosa,'versi color',virginica,unused}\n@data\n1.0,2.0,setosa\n3,4,'versi color'\n"
        "5,6,virginica\n")
out("Arff", "arff", "iris.arff", arff.encode())
out("Arff", "arff", "iris.arff.gz", gz(arff.encode()))
out("Arff", "arff", "missing.arff", arff.replace("5,6,", "5,?,").encode())
out("Arff", "arff", "sparse.arff", arff.replace("5,6,virginica", "{0 5, 2 virginica}").encode())
out("Arff", "arff", "duplicate-class.arff", arff.replace("unused", "setosa").encode())
out("Arff", "arff", "latin1.arff", arff.replace("setosa", "s\u00e9tosa").encode("latin-1"))


# ---- idx
def idx(type_code, arr):
    return bytes([0, 0, type_code, arr.ndim]) + b"".join(struct.pack(">i", s) for s in arr.shape) + arr.tobytes()


img = rng.integers(0, 255, (3, 4, 4), dtype=np.uint8)
out("Idx", "idx", "images-u1", idx(0x08, img))
out("Idx", "idx", "labels-u1", idx(0x08, np.array([7, 3, 0], dtype=np.uint8)))
out("Idx", "idx", "images-f4", idx(0x0D, x.astype(">f4")))
out("Idx", "idx", "images-f8", idx(0x0E, x.astype(">f8")))
out("Idx", "idx", "labels-i4", idx(0x0C, np.array([1, 2], dtype=">i4")))
out("Idx", "idx", "images-gz", gz(idx(0x08, img)))
out("Idx", "idx", "images-gz-truncated", gz(idx(0x08, img))[:30])
out("Idx", "idx", "trailing", idx(0x08, img) + b"\x00\x01")
out("Idx", "idx", "n-by-0", bytes([0, 0, 8, 2]) + struct.pack(">ii", 3, 0))

# ---- feature directories (records: file index, 16-bit big-endian length, content)
FILES = ["features.npy", "labels.npy", "classes.txt", "splits/base.txt", "splits/novel.txt",
         "splits/test_indices.txt", "splits/fscil.txt", "test_features.npy", "test_labels.npy",
         "splits/validation.txt"]


def directory(**files):
    data = b""
    for name, content in files.items():
        name = name.replace("__", "/")
        data += bytes([FILES.index(name)]) + struct.pack(">H", len(content)) + content
    return data


xd = rng.standard_normal((12, 2)).astype(np.float32)
yd = np.array([100, 103, 107] * 4, dtype=np.int64)
out("FeatureDirectory", "directory", "minimal", directory(**{"features.npy": npy(xd), "labels.npy": npy(yd)}))
out("FeatureDirectory", "directory", "classes-and-splits", directory(**{
    "features.npy": npy(xd), "labels.npy": npy(yd), "classes.txt": b"hundred\nhundred-three\nhundred-seven\n",
    "splits__base.txt": b"100 107\n", "splits__fscil.txt": b"base 100 107\nsession 0 1\n"}))
out("FeatureDirectory", "directory", "value-named-classes", directory(**{
    "features.npy": npy(xd), "labels.npy": npy(yd % 100), "classes.txt": b"a\nb\nc\nd\ne\nf\ng\nh\n"}))
out("FeatureDirectory", "directory", "string-labels", directory(**{
    "features.npy": npy(xd), "labels.npy": npy(np.array(["ant", "bee", "\u00e9l\u00e8ve"] * 4)),
    "splits__base.txt": b"ant bee\n", "splits__test_indices.txt": b"0 1 2\n"}))
out("FeatureDirectory", "directory", "separate-test", directory(**{
    "features.npy": npy(xd), "labels.npy": npy(yd), "test_features.npy": npy(xd[:3]),
    "test_labels.npy": npy(yd[:3]), "splits__novel.txt": b"103\n", "splits__validation.txt": b"107\n"}))
out("FeatureDirectory", "directory", "latin1-classes", directory(**{
    "features.npy": npy(xd), "labels.npy": npy(yd), "classes.txt": "caf\u00e9\nb\nc\n".encode("latin-1")}))
out("FeatureDirectory", "directory", "unknown-split-class", directory(**{
    "features.npy": npy(xd), "labels.npy": npy(yd), "splits__base.txt": b"101\n"}))
