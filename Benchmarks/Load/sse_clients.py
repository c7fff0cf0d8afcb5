#!/usr/bin/env python3
"""Holds many Server-Sent Events connections to a tripshare server and counts what arrives.

    python3 Benchmarks/Load/sse_clients.py --host 127.0.0.1 --port 8080 --streams streams.json

`streams.json` is a list of {"path": "/v1/.../events", "token": "..."}; one connection is
opened per entry. The program prints "connected N" once every stream has answered 200,
then, on SIGTERM/SIGINT (or after --seconds), one JSON line: streams, events received,
bytes, heartbeats, streams that failed or closed. Used by Benchmarks/Load/navigator_load.py.
"""
import argparse
import asyncio
import json
import signal
import sys
import time


class Totals:
    def __init__(self):
        self.events = 0
        self.bytes = 0
        self.heartbeats = 0
        self.failed = 0
        self.closed = 0
        self.connected = 0


async def stream(host, port, path, token, totals, ready):
    try:
        reader, writer = await asyncio.open_connection(host, port)
    except OSError:
        totals.failed += 1
        ready.release()
        return
    writer.write((f"GET {path} HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bearer {token}\r\n"
                  "Accept: text/event-stream\r\n\r\n").encode())
    await writer.drain()
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 200"):
        totals.failed += 1
        ready.release()
        sys.stderr.write(head.decode(errors="replace").splitlines()[0] + "\n")
        return
    totals.connected += 1
    ready.release()
    pending = b""
    while True:
        chunk = await reader.read(65536)
        if not chunk:
            totals.closed += 1
            return
        totals.bytes += len(chunk)
        lines = (pending + chunk).split(b"\n")
        pending = lines.pop()
        for line in lines:
            if line.startswith(b"id: "):
                totals.events += 1
            elif line.startswith(b": heartbeat"):
                totals.heartbeats += 1


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--streams", required=True)
    parser.add_argument("--seconds", type=float, default=0)
    args = parser.parse_args()
    streams = json.load(open(args.streams))
    totals = Totals()
    ready = asyncio.Semaphore(0)
    tasks = [asyncio.create_task(stream(args.host, args.port, s["path"], s["token"], totals, ready)) for s in streams]
    for _ in streams:
        await ready.acquire()
    print(f"connected {totals.connected}", flush=True)
    started = time.monotonic()
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    if args.seconds:
        loop.call_later(args.seconds, stop.set)
    await stop.wait()
    elapsed = time.monotonic() - started
    print(json.dumps({"streams": len(streams), "connected": totals.connected, "failed": totals.failed,
                      "closed": totals.closed, "events": totals.events, "bytes": totals.bytes,
                      "heartbeats": totals.heartbeats, "seconds": round(elapsed, 1)}), flush=True)
    for task in tasks:
        task.cancel()


if __name__ == "__main__":
    asyncio.run(main())
