#!/usr/bin/env python3
"""Which tables' pages a server's transactions write: copies a live SQLite database and its WAL
(while a load test runs against it), then counts the WAL's committed frames per transaction by
the table or index their page belongs to (SQLite's dbstat on the copy).

    python3 Benchmarks/Load/wal_pages.py DATABASE COPY
        DATABASE  the server's tripshare.sqlite (ls -l /proc/PID/fd shows it)
        COPY      where to put the copy (COPY and COPY-wal are written)
"""
import collections
import os
import shutil
import sqlite3
import struct
import sys
if len(sys.argv) != 3:
    sys.exit(__doc__)
db, out = sys.argv[1], sys.argv[2]
if not os.path.exists(db + "-wal"):
    sys.exit(f"wal_pages: {db}-wal is not there: copy a database while a server writes to it")
shutil.copy(db + "-wal", out + "-wal"); shutil.copy(db, out)
wal = open(out + "-wal", "rb").read()
magic, version, page_size, ckpt, salt1, salt2 = struct.unpack(">IIIIII", wal[:24])
frames, txns, current = [], [], []
off = 32
while off + 24 + page_size <= len(wal):
    pgno, commit, s1, s2 = struct.unpack(">IIII", wal[off:off + 16])
    if (s1, s2) != (salt1, salt2): break
    current.append(pgno)
    if commit: txns.append(current); current = []
    off += 24 + page_size
con = sqlite3.connect(out)
names = dict(con.execute("SELECT pageno, name FROM dbstat"))
per_table = collections.Counter()
for t in txns:
    for p in t: per_table[names.get(p, "?")] += 1
n = len(txns)
print(f"{n} transactions, {sum(len(t) for t in txns)} frames, {sum(len(t) for t in txns) / max(n,1):.1f} frames each")
for name, count in per_table.most_common(): print(f"  {name:32s} {count / max(n,1):7.1f} per transaction")
