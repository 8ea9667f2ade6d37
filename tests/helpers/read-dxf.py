#!/usr/bin/python3
"""Reads a DXF file with ezdxf and prints what the DXF tests check, as JSON.

Usage: /usr/bin/python3 read-dxf.py FILE [FLATTEN_DISTANCE]

Run it with Debian's /usr/bin/python3: python3-ezdxf is installed for that interpreter only.
Output (one JSON object on stdout):
  dxfversion, insunits, extmin, extmax     from the HEADER as ezdxf loaded it
  line_endings                             "crlf", "lf" or "mixed"
  audit                                    error/fix counts and messages of doc.audit()
  structure                                checks on the raw tags ezdxf would repair silently:
                                           duplicate handles, pointers (330/340/350/360/390)
                                           to handles that do not exist, $HANDSEED not above
                                           every handle, objects without a handle
  created_on_load                          objects ezdxf had to add while loading (type, name)
  load_messages                            ezdxf log records (INFO and up) while loading
  layers                                   LAYER table names present in the file
  palette                                  ezdxf's RGB (int) of ACI 0..255, for colour checks
  entities                                 every modelspace entity: dxftype, layer,
                                           true_color (int or null), aci, transparency (int or
                                           null), lineweight, closed (LWPOLYLINE/SPLINE, else
                                           null), has_bulges, repeats_first (LWPOLYLINE: last
                                           vertex equals the first), ends_meet (SPLINE: last
                                           control point on the first), sweep (ELLIPSE, radians),
                                           solid_fill, boundary_paths and gradient
                                           (HATCH: name, rotation in degrees, centered,
                                           number_of_colors, one_color, color1, color2 as
                                           [r, g, b], or null), points (ezdxf.path flattening
                                           within FLATTEN_DISTANCE, default 0.01, as [x, y])
ezdxf.readfile reads strictly (decoding errors raise); a file it cannot read exits non-zero.
"""
import json
import logging
import math
import sys

import ezdxf
from ezdxf import path as ezpath
from ezdxf.colors import DXF_DEFAULT_COLORS

POINTER_CODES = {330, 340, 350, 360, 390}


class Collect(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.INFO)
        self.messages = []

    def emit(self, record):
        self.messages.append(f"{record.levelname}: {record.getMessage()}")


def raw_tags(text):
    lines = text.splitlines()
    if len(lines) % 2:
        raise ValueError("odd number of lines: tags come in pairs")
    return [(int(lines[i].strip()), lines[i + 1].strip()) for i in range(0, len(lines), 2)]


def raw_structure(tags):
    """Handles and pointers per record, outside HEADER and CLASSES."""
    problems = []
    handles = {}
    pointers = []
    section = None
    record = None
    seed = None
    for i, (code, value) in enumerate(tags):
        if code == 0:
            if value == "SECTION":
                section = tags[i + 1][1] if i + 1 < len(tags) else None
            record = value
            if section not in ("HEADER", "CLASSES") and value not in ("SECTION", "ENDSEC", "ENDTAB", "EOF"):
                has_handle = False
                for c, v in tags[i + 1:]:
                    if c == 0:
                        break
                    if c in (5, 105):
                        has_handle = True
                        break
                if not has_handle:
                    problems.append(f"{value} without a handle (tag pair {i})")
            continue
        if section == "HEADER":
            if code == 5 and tags[i - 1] == (9, "$HANDSEED"):
                seed = value
            continue
        if section == "CLASSES":
            continue
        if code in (5, 105):
            if value in handles:
                problems.append(f"duplicate handle {value} ({record} and {handles[value]})")
            handles[value] = record
        elif code in POINTER_CODES:
            pointers.append((record, code, value))
    for record, code, value in pointers:
        if value != "0" and value not in handles:
            problems.append(f"{record}: pointer {code} -> {value} does not exist")
    if seed is None:
        problems.append("no $HANDSEED")
    elif handles and int(seed, 16) <= max(int(h, 16) for h in handles):
        problems.append(f"$HANDSEED {seed} is not above every handle")
    return handles, problems


def entity_info(e, distance):
    dxf = e.dxf
    info = {
        "dxftype": e.dxftype(),
        "handle": dxf.handle,
        "owner": dxf.owner,
        "layer": dxf.layer,
        "true_color": dxf.true_color if dxf.hasattr("true_color") else None,
        "aci": dxf.color,
        "transparency": dxf.transparency if dxf.hasattr("transparency") else None,
        "lineweight": dxf.lineweight,
        "closed": None,
        "has_bulges": False,
    }
    if e.dxftype() == "LWPOLYLINE":
        info["closed"] = bool(e.closed)
        info["has_bulges"] = any(b != 0 for _, _, b in e.get_points("xyb"))
        info["vertex_count"] = len(e)
        xy = e.get_points("xy")
        info["repeats_first"] = len(xy) > 1 and tuple(xy[0]) == tuple(xy[-1])
    elif e.dxftype() == "SPLINE":
        info["closed"] = bool(e.closed)
        info["degree"] = dxf.degree
        info["control_points"] = len(e.control_points)
        info["knots"] = len(e.knots)
        cps = e.control_points
        info["ends_meet"] = len(cps) > 1 and tuple(cps[0]) == tuple(cps[-1])
    elif e.dxftype() == "HATCH":
        info["solid_fill"] = dxf.solid_fill
        info["boundary_paths"] = len(e.paths)
        g = e.gradient
        info["gradient"] = None if g is None else {
            "name": g.name,
            "rotation": g.rotation,
            "centered": g.centered,
            "number_of_colors": g.number_of_colors,
            "one_color": g.one_color,
            "color1": list(g.color1),
            "color2": list(g.color2),
        }
    elif e.dxftype() == "ELLIPSE":
        sweep = dxf.end_param - dxf.start_param
        info["sweep"] = sweep if sweep > 0 else sweep + 2 * math.pi
        info["ratio"] = dxf.ratio
    try:
        p = ezpath.make_path(e)
        info["points"] = [[v.x, v.y] for v in p.flattening(distance)]
    except TypeError:
        info["points"] = []
    return info


def main():
    filename = sys.argv[1]
    distance = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
    with open(filename, "rb") as f:
        data = f.read()
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n")
    line_endings = "crlf" if crlf == lf else "lf" if crlf == 0 else "mixed"
    handles, problems = raw_structure(raw_tags(data.decode("utf-8")))

    collect = Collect()
    logger = logging.getLogger("ezdxf")
    logger.addHandler(collect)
    logger.setLevel(logging.INFO)
    doc = ezdxf.readfile(filename, errors="strict")
    logger.removeHandler(collect)
    load_messages = list(collect.messages)

    created = []
    for handle, entity in doc.entitydb.items():
        if handle not in handles:
            name = entity.dxf.get("name", None) if entity.dxf.is_supported("name") else None
            created.append({"dxftype": entity.dxftype(), "name": name})

    auditor = doc.audit()
    header = doc.header
    result = {
        "dxfversion": doc.dxfversion,
        "acadver": header.get("$ACADVER"),
        "insunits": header.get("$INSUNITS", None),
        "measurement": header.get("$MEASUREMENT", None),
        "extmin": list(header.get("$EXTMIN", (0, 0, 0))),
        "extmax": list(header.get("$EXTMAX", (0, 0, 0))),
        "line_endings": line_endings,
        "audit": {
            "errors": len(auditor.errors),
            "fixes": len(auditor.fixes),
            "messages": [e.message for e in auditor.errors] + [f.message for f in auditor.fixes],
        },
        "structure": problems,
        "created_on_load": created,
        "load_messages": load_messages,
        "layers": [layer.dxf.name for layer in doc.layers if layer.dxf.handle in handles],
        "palette": list(DXF_DEFAULT_COLORS),
        "entities": [entity_info(e, distance) for e in doc.modelspace()],
    }
    json.dump(result, sys.stdout)


if __name__ == "__main__":
    main()
