#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Where a run of scripts/test.sh spent its time and CPU, as a markdown table.

    scripts/ci-times.py TIMES [TESTLOG]

TIMES is the file scripts/test.sh names in IRQSTORM_TIMES
(build/meson-logs/irqstorm-times.tsv): a line per step, written by the
build scripts' run_progress (each Debian fetch and unpack, each configure
and build of QEMU and of a kernel), by scripts/test-cpu.sh (each test) and
by test.sh itself (its phases): SCRIPT, LABEL, start (epoch s), wall s,
user and system CPU s. TESTLOG (meson's testlog*.json) names each test by
its command line. docs/performance.md's table is this script's output.
"""
import json
import sys


def read_steps(path):
    steps = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            parts = line.rstrip('\n').split('\t')
            if len(parts) != 6:
                continue
            script, label, start, wall, user, sys_ = parts
            steps.append({'script': script, 'label': label, 'start': int(start),
                          'wall': int(wall), 'user': float(user), 'sys': float(sys_)})
    return steps


def test_names(path):
    """Each test's command line (as test-cpu.sh writes it) to its name."""
    names = {}
    try:
        f = open(path, encoding='utf-8') if path else None
    except FileNotFoundError:
        f = None     # meson test has not written it (yet): commands, not names
    if not f:
        return names
    with f:
        for line in f:
            try:
                t = json.loads(line)
            except ValueError:
                continue     # a line meson is still writing

            cmd = t.get('command') or []
            if cmd and cmd[0].endswith('test-cpu.sh'):
                cmd = cmd[1:]
            names['test ' + ' '.join(cmd)] = t['name']
    return names


def fmt_wall(s):
    return '%d min %02d s' % (s // 60, s % 60) if s >= 60 else '%d s' % s


def row(what, s):
    return '| %s | %s | %.0f | %.0f |' % (what, fmt_wall(s['wall']), s['user'], s['sys'])


def main(argv):
    if len(argv) not in (2, 3):
        sys.exit(__doc__)
    try:
        steps = read_steps(argv[1])
    except OSError as e:
        sys.exit('ci-times.py: cannot read %s: %s (scripts/test.sh writes it, '
                 'build/meson-logs/irqstorm-times.tsv)' % (argv[1], e.strerror))
    names = test_names(argv[2] if len(argv) == 3 else None)
    phases = [s for s in steps if s['script'] == 'test.sh']
    builds = [s for s in steps if s['script'] not in ('test.sh', 'test-cpu.sh')]
    tests = [s for s in steps if s['script'] == 'test-cpu.sh']
    print('| step | wall | user CPU s | system CPU s |')
    print('|---|---:|---:|---:|')
    for s in phases:
        print(row('**%s**' % s['label'], s))
    for s in sorted(builds, key=lambda s: s['start']):
        print(row('%s: %s' % (s['script'], s['label']), s))
    for s in sorted(tests, key=lambda s: -s['wall']):
        print(row('test `%s`' % names.get(s['label'], s['label'][5:]), s))
    if phases:
        wall = max(s['start'] + s['wall'] for s in phases) - min(s['start'] for s in phases)
        total = {'wall': wall, 'user': sum(s['user'] for s in phases),
                 'sys': sum(s['sys'] for s in phases)}
        print(row('**all of scripts/test.sh**', total))
    if tests:
        print(row('the %d tests, one after the other' % len(tests), {
            'wall': sum(s['wall'] for s in tests), 'user': sum(s['user'] for s in tests),
            'sys': sum(s['sys'] for s in tests)}))


if __name__ == '__main__':
    main(sys.argv)
