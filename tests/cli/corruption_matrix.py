#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Corruption matrix (tests/cli/t0900-corruption.sh): damage trace.dat files
at the section boundaries the pre-check reports (rr-sections), at random
points, by byte flips in the header, the formats and the data pages, by a
wrong endianness flag and by absurd sizes, and run `stats` on each.

Every case must end in exit 0 (the report then says what was damaged if it
saw it) or exit 4 with one error line naming the file; never a signal, a
sanitizer report or a hang. Prints "ok|fail<TAB>desc<TAB>detail" lines for
tap_report (tests/lib.sh).

usage: corruption_matrix.py RR_BIN RR_SECTIONS WORKDIR TRACE...
"""
import os
import random
import shutil
import struct
import subprocess
import sys

SEED = 20261203
RANDOM_CUTS = 6
FLIPS = 4
TIMEOUT = 30
SAN = ('AddressSanitizer', 'runtime error', 'LeakSanitizer', 'UndefinedBehaviorSanitizer')


KEEP = os.environ.get('RR_MATRIX_KEEP')	# a directory: failing inputs are copied there
CURRENT = [None]


def emit(res, desc, detail=''):
    print(f'{res}\t{desc}\t{detail}', flush=True)
    if res == 'fail' and KEEP and CURRENT[0]:
        os.makedirs(KEEP, exist_ok=True)
        shutil.copy(CURRENT[0], os.path.join(KEEP, f'case-{abs(hash(desc)) % 10**8}.dat'))


def section_map(sections, path):
    r = subprocess.run([sections, path], capture_output=True, text=True, timeout=TIMEOUT)
    if r.returncode != 0:
        return None, r.stderr.strip()
    head, secs = {}, []
    for line in r.stdout.splitlines():
        if line.startswith('#'):
            for kv in line[1:].split():
                if '=' in kv:
                    k, v = kv.split('=', 1)
                    head[k] = v
                else:
                    head['version'] = kv
            continue
        off, size, what = line.split(' ', 2)
        secs.append((int(off), int(size), what))
    return head, secs


def run_case(rr, work, name, data, desc, summary):
    path = f'{work}/{name}'
    with open(path, 'wb') as f:
        f.write(data)
    CURRENT[0] = path
    try:
        r = subprocess.run([rr, 'stats', '-j', path], capture_output=True, text=True,
                           timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        emit('fail', desc, f'hang: no exit in {TIMEOUT} s')
        return
    err = r.stderr
    errors = [l for l in err.splitlines() if l.strip() and ': warning: ' not in l]
    if any(s in err for s in SAN):
        first = [l for l in err.splitlines() if any(x in l for x in SAN)]
        emit('fail', desc, 'sanitizer report: ' + (first[0] if first else err)[:200])
    elif r.returncode < 0 or r.returncode >= 128:
        emit('fail', desc, f'killed by a signal (exit {r.returncode})')
    elif r.returncode == 4:
        if len(errors) != 1 or path not in errors[0]:
            emit('fail', desc, f'exit 4 wants one error line naming the file: {errors[:3]}')
        else:
            summary['4'] = summary.get('4', 0) + 1
            emit('ok', desc + ': exit 4', '')
    elif r.returncode == 0:
        summary['0'] = summary.get('0', 0) + 1
        damage = [l.split(': warning: ', 1)[1] for l in err.splitlines() if ': warning: ' in l]
        emit('ok', desc + ': exit 0' + (f' ({len(damage)} warnings)' if damage else ''), '')
    else:
        emit('fail', desc, f'exit {r.returncode}: {errors[:2]}')


def put(data, off, fmt, value, big):
    b = bytearray(data)
    struct.pack_into(('>' if big else '<') + fmt, b, off, value)
    return bytes(b)


def matrix(rr, sections, work, trace, rnd):
    name = trace.rsplit('/', 1)[-1]
    data = open(trace, 'rb').read()
    head, secs = section_map(sections, trace)
    if head is None:
        emit('fail', f'{name}: section map', secs)
        return
    big = head.get('endian') == 'big'
    size = len(data)
    # the map covers the header and cpu data, inside the file (independent: file size)
    inside = all(o + s <= size for o, s, _ in secs)
    has_data = any(w.endswith('data') for _, _, w in secs)
    if inside and has_data and secs[0][0] == 0:
        emit('ok', f'{name}: section map ({len(secs)} sections, {head.get("version")}, '
             f'{head.get("comp")}) lies inside the file', '')
    else:
        emit('fail', f'{name}: section map', f'{secs[:4]}')
    summary = {}
    # truncated at every section boundary, and in the middle of each section
    cuts = set()
    for off, sz, what in secs:
        for c in (off, off + sz // 2):
            if 0 < c < size:
                cuts.add((c, what))
    for c, what in sorted(cuts):
        run_case(rr, work, 'cut.dat', data[:c], f'{name}: cut at {c} ({what})', summary)
    for _ in range(RANDOM_CUTS):
        c = rnd.randrange(1, size)
        run_case(rr, work, 'cut.dat', data[:c], f'{name}: cut at random {c}', summary)
    # flips: the initial format, each metadata section, the data pages
    regions = [('header', 0, 18)]
    regions += [(w, o, s) for o, s, w in secs
                if s and not w.endswith('data') and w != 'initial format']
    regions += [(w, o, s) for o, s, w in secs if w.endswith('data')][:2]
    for what, o, s in regions:
        n = FLIPS if what.endswith('data') or what == 'header' else 1
        for _ in range(n):
            i = o + rnd.randrange(max(s, 1))
            b = bytearray(data)
            b[i] ^= 1 << rnd.randrange(8)
            run_case(rr, work, 'flip.dat', bytes(b), f'{name}: bit flip at {i} ({what})',
                     summary)
    # wrong endianness flag: the byte after the version string
    endian_at = data.index(b'\0', 10) + 1
    b = bytearray(data)
    b[endian_at] ^= 1
    run_case(rr, work, 'endian.dat', bytes(b), f'{name}: endianness flag flipped', summary)
    # absurd sizes: page size, a section size, a cpu data size / count
    run_case(rr, work, 'page.dat', put(data, endian_at + 2, 'I', 0x40000000, big),
             f'{name}: page size 1 GiB', summary)
    run_case(rr, work, 'page.dat', put(data, endian_at + 2, 'I', 0, big),
             f'{name}: page size 0', summary)
    for o, s, what in secs:
        if what.endswith(' section'):		# v7 section header: id, flags, string id, size
            run_case(rr, work, 'size.dat', put(data, o + 8, 'Q', 1 << 62, big),
                     f'{name}: {what} size 2^62', summary)
            run_case(rr, work, 'size.dat', put(data, o + 8, 'Q', 0xffffffffffffffff, big),
                     f'{name}: {what} size 2^64-1', summary)
        elif what in ('header_page', 'header_event'):	# v6: tag, then an 8-byte size
            tag = len(what) + 1
            run_case(rr, work, 'size.dat', put(data, o + tag, 'Q', 1 << 62, big),
                     f'{name}: {what} size 2^62', summary)
        elif what == 'flyrecord cpu table':		# v6: 10-byte tag, then (offset, size) pairs
            run_case(rr, work, 'size.dat', put(data, o + 18, 'Q', 1 << 62, big),
                     f'{name}: cpu 0 data size 2^62', summary)
            run_case(rr, work, 'size.dat', put(data, o - 4 if o >= 4 else o, 'I', 0x7fffffff, big),
                     f'{name}: field before the cpu table set to 2^31-1', summary)
    emit('note', f'{name}: exit 0 in {summary.get("0", 0)} cases, '
         f'exit 4 in {summary.get("4", 0)}', '')


def main():
    rr, sections, work = sys.argv[1:4]
    rnd = random.Random(SEED)
    for trace in sys.argv[4:]:
        matrix(rr, sections, work, trace, rnd)


if __name__ == '__main__':
    main()
