#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""The shell commands a Markdown page shows, as a reader would type them.

    doc-commands.py FILE.md...

For each ```sh or ```bash code block, each command line (a line that is
not empty and not a comment; a line ending in a backslash joined with the
next), its trailing comment removed, printed as "FILE:LINE<TAB>COMMAND".
Blocks in another language or none (output, configuration) are not
commands. tests/e2e/docs.sh runs them (docs/testing.md).
"""
import re
import sys

FENCE = re.compile(r"^```\s*(\w*)\s*$")


def strip_comment(line):
    """The line without a trailing '# ...' outside quotes."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line.rstrip()


def commands(path):
    lang = None
    pending, start = "", 0
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            m = FENCE.match(line)
            if m and lang is None:
                lang = m.group(1) or "-"
                continue
            if m:
                lang = None
                continue
            if lang not in ("sh", "bash"):
                continue
            if not pending:
                start = n
                if not line.strip() or line.lstrip().startswith("#"):
                    continue
            text = strip_comment(line) if not line.endswith("\\") else line[:-1]
            pending += text.strip() + (" " if line.endswith("\\") else "")
            if not line.endswith("\\"):
                yield start, pending.strip()
                pending = ""


def main():
    for path in sys.argv[1:]:
        for n, cmd in commands(path):
            print(f"{path}:{n}\t{cmd}")


if __name__ == "__main__":
    main()
