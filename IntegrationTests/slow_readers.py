#!/usr/bin/env python3
"""The slow-reader attack (issue 29, item 1): CONNECTIONS clients each pipeline PIPELINED
`GET /openapi.json` (180 KB answers) and never read a byte, while a load balancer's probe asks
`/healthz` every 20 ms on a fresh connection. The server must stay under --rss-limit MB of
memory, answer every probe, with p99 under --p99-limit ms, close every attacking connection
within the write timeout (plus a little for its buffers to fill), and not crash; with --files N
all of it under an open-file limit of N, where most attackers are turned away at once. The probes
are judged by the best of up to three attacks (a loaded machine's own stalls); every other check
by that attack.

    IntegrationTests/slow_readers.py BINARY [--connections 1000] [--pipelined 40] [--files N]
        [--write-timeout 30] [--rss-limit 150] [--p99-limit 100]
"""
import argparse
import socket
import threading
import time

import harness
from harness import check

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("--connections", type=int, default=1000)
parser.add_argument("--pipelined", type=int, default=40)
parser.add_argument("--files", type=int, help="run the server under this open-file limit")
parser.add_argument("--write-timeout", type=float, default=30)
parser.add_argument("--rss-limit", type=float, default=150)
parser.add_argument("--p99-limit", type=float, default=100)
args = parser.parse_args()

# Time for a connection's buffers to fill once its first answer is written, and for the
# server to get to it among a thousand others.
SLACK = 5


def attack_round():
    """One server, one attack: what the checks read."""
    server = harness.Server(args.binary, "--write-timeout", f"{args.write_timeout:g}s", files=args.files, name="slow-readers")
    where = f" under an open-file limit of {args.files}" if args.files else ""
    print(f"server on port {server.port}{where}; {server.log().strip().splitlines()[-1] if server.log().strip() else ''}", flush=True)
    stop = threading.Event()
    probes, probe_failures, rss = [], [], [server.rss_mb()]

    def probe():
        while not stop.is_set():
            started = time.monotonic()
            try:
                status, _ = harness.get(server.port, "/healthz", timeout=2)
                if status == 200:
                    probes.append((time.monotonic() - started) * 1000)
                else:
                    probe_failures.append(f"status {status}")
            except OSError as error:
                probe_failures.append(repr(error))
            time.sleep(max(0, 0.02 - (time.monotonic() - started)))

    def watch():
        while not stop.is_set():
            rss.append(server.rss_mb())
            time.sleep(0.2)

    threads = [threading.Thread(target=probe, daemon=True), threading.Thread(target=watch, daemon=True)]
    for thread in threads:
        thread.start()
    time.sleep(1)  # a baseline for the probe

    request = b"GET /openapi.json HTTP/1.1\r\nHost: attacker\r\n\r\n" * args.pipelined
    attackers, opened_at, refused_at_connect = [], {}, 0
    start = time.monotonic()
    for _ in range(args.connections):
        s = socket.socket()
        s.settimeout(5)
        try:
            s.connect(("127.0.0.1", server.port))
            s.sendall(request)
        except OSError:
            refused_at_connect += 1
            s.close()
            continue
        attackers.append(s)
        opened_at[s.getsockname()[1]] = time.monotonic()
    last_opened = time.monotonic()
    print(f"{len(attackers)} attacking connections open in {last_opened - start:.1f} s, each with {args.pipelined} requests unread"
          + (f"; {refused_at_connect} could not connect" if refused_at_connect else ""), flush=True)

    # Wait for the server to close them all, following each one's state in the kernel.
    closed_at = {}
    deadline = last_opened + args.write_timeout + SLACK + 10
    while time.monotonic() < deadline and len(closed_at) < len(opened_at):
        states = harness.client_sockets(server.port)
        now = time.monotonic()
        for port in opened_at:
            if port not in closed_at and states.get(port, "gone") != "01":
                closed_at[port] = now
        time.sleep(0.1)
    time.sleep(1)
    stop.set()
    for thread in threads:
        thread.join()
    for s in attackers:
        s.close()

    return server, where, probes, probe_failures, rss, opened_at, closed_at


# The probe on a loaded two-core machine can meet a stall of the machine's own (other builds,
# other browsers): the attack is made again, up to three times, while a probe failed or the p99
# is over its limit, and the checks read the round whose probes fared best. Every other check
# must hold in that round.
def probe_score(round_):
    """How a round's probes fared: failed probes first, then the p99."""
    return len(round_[3]), harness.percentile(round_[2], 0.99)


rounds = []
for _ in range(3):
    rounds.append(attack_round())
    if probe_score(rounds[-1]) < (1, args.p99_limit):
        break
server, where, probes, probe_failures, rss, opened_at, closed_at = min(rounds, key=probe_score)
if len(rounds) > 1:
    print(f"the attack was made {len(rounds)} times; probes failed and p99s: "
          + ", ".join(f"{len(r[3])} and {harness.percentile(r[2], 0.99):.1f} ms" for r in rounds), flush=True)
held = [closed_at[port] - opened_at[port] for port in closed_at]
late = [port for port in opened_at if port not in closed_at or closed_at[port] - opened_at[port] > args.write_timeout + SLACK]
check(all(r[0].alive() for r in rounds), "the server is running after the attack")
for other in rounds:
    if other[0] is not server:
        other[0].stop()
check(max(rss) < args.rss_limit, f"memory stayed under {args.rss_limit:g} MB (at most {max(rss):.0f} MB, {rss[0]:.0f} MB before)")
check(not probe_failures, f"every /healthz probe was answered ({len(probes)} answered, {len(probe_failures)} failed"
      + (f": {probe_failures[:3]}" if probe_failures else "") + ")")
p99 = harness.percentile(probes, 0.99)
check(p99 < args.p99_limit, f"/healthz p99 {p99:.1f} ms (p50 {harness.percentile(probes, 0.5):.1f} ms, max {max(probes or [0]):.1f} ms)"
      f" under {args.p99_limit:g} ms")
check(not late, f"every attacking connection was closed within the write timeout ({args.write_timeout:g} s) + {SLACK} s: "
      f"{len(closed_at)} of {len(opened_at)} closed, the longest held {max(held or [0]):.1f} s, the median "
      f"{harness.percentile(held, 0.5):.1f} s" + (f"; {len(late)} late" if late else ""))
status, _ = harness.get(server.port, "/readyz")
check(status == 200, f"/readyz after the attack: {status}")
code = server.stop()
check(code == 0, f"the server stopped cleanly on SIGTERM (exit {code})")
harness.finish("slow readers" + where)
