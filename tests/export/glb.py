"""Reading a .glb back in the export tests: its JSON and binary chunks, and float accessors."""
import json
import struct


def read_glb(path):
    """(JSON document, binary chunk) of a .glb."""
    data = open(path, "rb").read()
    jlen = struct.unpack_from("<I", data, 12)[0]
    doc = json.loads(data[20:20 + jlen])
    off = 20 + jlen
    if off + 8 > len(data):
        return doc, b""
    blen = struct.unpack_from("<I", data, off)[0]
    return doc, data[off + 8:off + 8 + blen]


def floats(doc, binary, index):
    """A float accessor's values as tuples of its component count."""
    a = doc["accessors"][index]
    view = doc["bufferViews"][a["bufferView"]]
    comps = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}[a["type"]]
    start = view.get("byteOffset", 0) + a.get("byteOffset", 0)
    flat = struct.unpack_from("<%df" % (a["count"] * comps), binary, start)
    return [flat[i * comps:(i + 1) * comps] for i in range(a["count"])]
