#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The numbers that moved between two versions of docs/results.md.

    scripts/results-diff.py OLD NEW

Every table of the two pages is read cell by cell: a row is named by its
section, its table's header and its first cells that are not numbers; a
number that differs is printed with both values and the change, absolute
and relative. Rows or tables only one page has are listed too. Exit 0 when
no number moved, 1 when some did, 2 on a usage error. Used by
scripts/update-pins.sh for a person to review.
"""
import re
import sys

NUMBER = re.compile(r"-?\d+(?:\.\d+)?")


def tables(path):
    """{(section, header, row key): [cells]} of every table row of a page."""
    rows = {}
    section = header = None
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line.startswith("#"):
                section, header = line.lstrip("# "), None
                continue
            if not line.startswith("|"):
                header = None
                continue
            cells = [c.strip() for c in line.strip("|").split("|")]
            if header is None:
                header = " | ".join(cells)
                continue
            if set("".join(cells)) <= set("-:"):
                continue
            key = []
            for c in cells:
                if NUMBER.fullmatch(c.split(" ")[0] or "x"):
                    break
                key.append(c)
            name = (section, header, " | ".join(key) or cells[0])
            while name in rows:
                name = name + ("again",)
            rows[name] = cells
    return rows


def numbers(cell):
    return [float(n) for n in NUMBER.findall(cell)]


def change(old, new):
    d = new - old
    rel = f", {d / old * 100:+.2f}%" if old else ""
    return f"{old:g} -> {new:g} ({d:+g}{rel})"


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    old, new = tables(argv[1]), tables(argv[2])
    moved = 0
    for name in sorted(old.keys() | new.keys(), key=str):
        section, header, key = name[:3]
        where = f"{section}: {key}"
        if name not in new or name not in old:
            print(f"{where}: only in the {'old' if name in old else 'new'} page")
            moved += 1
            continue
        heads = [h.strip() for h in header.split("|")]
        for i, (a, b) in enumerate(zip(old[name], new[name])):
            if a == b:
                continue
            col = heads[i] if i < len(heads) else f"column {i + 1}"
            na, nb = numbers(a), numbers(b)
            if na and len(na) == len(nb):
                what = "; ".join(change(x, y) for x, y in zip(na, nb) if x != y)
            else:
                what = f"{a!r} -> {b!r}"
            print(f"{where}: {col}: {what or f'{a!r} -> {b!r}'}")
            moved += 1
    print(f"{moved} cell(s) moved" if moved else "no number moved")
    return 1 if moved else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
