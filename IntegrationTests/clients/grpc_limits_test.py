#!/usr/bin/env python3
"""The gRPC listener's connection limits (issue 29 item 1, docs/grpc.md "Connection limits"):
no client can hold the server through HTTP/2.

A server runs with small limits (`--grpc-max-streams 8 --grpc-keepalive 5s`) and is checked:
- it advertises its stream limit (SETTINGS_MAX_CONCURRENT_STREAMS), so the official gRPC
  client (grpcio) queues calls beyond it: 60 calls at once on one channel are all answered;
- a raw HTTP/2 client that opens more streams than allowed loses that connection (GOAWAY),
  while /healthz and gRPC calls on other connections are answered;
- with `--max-connections 4`, a fifth gRPC connection is closed at once (the budget is HTTP's
  too) while /healthz answers;
- 20 connections that each send 8 ListVehicles calls (about 30 KB of answer each) and
  never read hold the server's memory under a bound and are reset two keepalives after going
  silent, /healthz answering meanwhile;
- one connection's calls hold at most 16 MiB of request bytes at once: of 8 calls that each
  send 3 MiB of a 7 MiB message, the first 5 are read and the rest reset.

Usage: grpc_limits_test.py TRIPSHARE
"""
import collections
import concurrent.futures
import os
import socket
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from checklist import FAILURES, check, passed  # noqa: E402
from server import Server  # noqa: E402

import grpc
import h2.config
import h2.connection
import h2.events
import h2.settings
from google.api_core.exceptions import GoogleAPICallError
from google.maps import fleetengine_v1 as fe
from google.type import latlng_pb2

SECRET = "grpc-limits-test-secret-0123456789abcdef0123"
PROVIDER = "limits"
MAX_STREAMS = 8
KEEPALIVE_SECONDS = 5
MAX_CONNECTIONS = 4
STALLED = 20
LIST = "/maps.fleetengine.v1.VehicleService/ListVehicles"
AUTO = fe.Vehicle.VehicleType.Category.AUTO


class LimitsServer(Server):
    """`tripshare serve` with its gRPC port open, no rate limit, FLAGS, and a server token for
    the provider (`admin`)."""

    def __init__(self, binary, work, *flags):
        os.makedirs(work, exist_ok=True)
        super().__init__(binary, "--rate-limit", "0", *flags, grpc=True, work=work, env={"TRIPSHARE_JWT_SECRET": SECRET},
                         name="serve")
        self.http_port = self.port
        self.admin = self.token(role="server", provider=PROVIDER)

    def healthz(self):
        """Seconds /healthz took to answer 200, or None."""
        start = time.monotonic()
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.http_port}/healthz", timeout=5) as r:
                return time.monotonic() - start if r.status == 200 else None
        except (urllib.error.URLError, ConnectionError, socket.timeout):
            return None

    def stop(self):
        """SIGTERM; calls still open get the listener's 30 s of grace, then it is killed."""
        return super().stop(45)


def h2_connect(port, receive_buffer=None):
    """A socket with the HTTP/2 preface sent, and its client-side connection state."""
    sock = socket.socket()
    if receive_buffer:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.settimeout(10)
    sock.connect(("127.0.0.1", port))
    connection = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    connection.initiate_connection()
    sock.sendall(connection.data_to_send())
    return sock, connection


def call_headers(server, path):
    return [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", f"127.0.0.1:{server.grpc_port}"),
            ("content-type", "application/grpc"), ("te", "trailers"), ("authorization", f"Bearer {server.admin}")]


def pump(sock, connection, seconds, until):
    """Reads and answers frames for up to `seconds`, until `until(events)` is true; returns the
    events seen, or None when the server closed the socket."""
    seen, deadline = [], time.time() + seconds
    while time.time() < deadline:
        try:
            data = sock.recv(65536)
        except socket.timeout:
            break
        except ConnectionError:
            return None
        if not data:
            return seen if any(isinstance(e, h2.events.ConnectionTerminated) for e in seen) else None
        seen += connection.receive_data(data)
        pending = connection.data_to_send()
        if pending:
            sock.sendall(pending)
        if until(seen):
            break
    return seen


def grpc_message(message):
    raw = type(message).serialize(message)
    return b"\x00" + len(raw).to_bytes(4, "big") + raw


def closed_within(sock, seconds):
    """Whether the server closes `sock` within `seconds`: read (and drop) what is buffered
    until the end, a reset, or the time runs out."""
    deadline = time.time() + seconds
    sock.settimeout(0.5)
    while time.time() < deadline:
        try:
            if not sock.recv(1 << 20):
                return True
        except socket.timeout:
            continue
        except ConnectionError:
            return True
    return False


def main():
    binary = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="tripshare-grpc-limits.")
    server = LimitsServer(binary, os.path.join(work, "limits"), "--grpc-max-streams", str(MAX_STREAMS),
                    "--grpc-keepalive", f"{KEEPALIVE_SECONDS}s")
    try:
        run(server)
    finally:
        server.stop()
    server = LimitsServer(binary, os.path.join(work, "budget"), "--max-connections", str(MAX_CONNECTIONS))
    try:
        budget(server)
    finally:
        server.stop()
    print(f"grpc-limits: {passed()} checks passed, {len(FAILURES)} failed", flush=True)
    sys.exit(1 if FAILURES else 0)


def budget(server):
    """The gRPC listener's connections count in the server's connection budget
    (`--max-connections`, shared with HTTP): beyond it a connection is closed at once, and
    /healthz still gets through on HTTP's reserve for health probes."""
    held = []
    for _ in range(MAX_CONNECTIONS):
        sock, connection = h2_connect(server.grpc_port)
        events = pump(sock, connection, 5, lambda seen: any(isinstance(e, h2.events.RemoteSettingsChanged) for e in seen))
        check(events is not None and events, f"a connection within --max-connections {MAX_CONNECTIONS} is served: {events}")
        held.append(sock)
    sock, connection = h2_connect(server.grpc_port)
    check(closed_within(sock, 5), f"connection {MAX_CONNECTIONS + 1} is closed at once")
    sock.close()
    check(server.healthz() is not None, "/healthz answers while gRPC connections fill the budget")
    held.pop().close()
    time.sleep(0.5)
    sock, connection = h2_connect(server.grpc_port)
    events = pump(sock, connection, 5, lambda seen: any(isinstance(e, h2.events.RemoteSettingsChanged) for e in seen))
    check(events is not None and events, f"a place given back is taken again: {events}")
    for held_sock in held + [sock]:
        held_sock.close()


def run(server):
    channel = grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}")
    vehicles = fe.VehicleServiceClient(
        transport=fe.services.vehicle_service.transports.VehicleServiceGrpcTransport(channel=channel))
    metadata = [("authorization", f"Bearer {server.admin}")]
    # 100 vehicles with long attributes, 1.5 KB each: a client that does not read takes at most
    # HTTP/2's initial window (64 KiB) of a connection's answers, and 8 pages of 20 are 240 KB.
    for i in range(100):
        vehicles.create_vehicle(request=fe.CreateVehicleRequest(
            parent=f"providers/{PROVIDER}", vehicle_id=f"car-{i:03}", vehicle=fe.Vehicle(
                vehicle_type=fe.Vehicle.VehicleType(category=AUTO), maximum_capacity=4,
                attributes=[fe.VehicleAttribute(key=f"k{j}", string_value="x" * 150) for j in range(10)],
                last_location=fe.VehicleLocation(location=latlng_pb2.LatLng(latitude=60.17, longitude=24.94)))),
            metadata=metadata, retry=None, timeout=10)

    # The limit is advertised.
    sock, connection = h2_connect(server.grpc_port)
    events = pump(sock, connection, 5, lambda seen: any(isinstance(e, h2.events.RemoteSettingsChanged) for e in seen))
    settings = [e for e in events or [] if isinstance(e, h2.events.RemoteSettingsChanged)]
    advertised = settings[0].changed_settings.get(h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS) if settings else None
    check(advertised is not None and advertised.new_value == MAX_STREAMS,
          f"the server advertises at most {MAX_STREAMS} streams per connection: {advertised}")

    # Beyond it a raw client loses its connection; the server is not stalled.
    for _ in range(MAX_STREAMS):
        connection.send_headers(connection.get_next_available_stream_id(), call_headers(server, LIST), end_stream=False)
    sock.sendall(connection.data_to_send())
    events = pump(sock, connection, 1, lambda seen: False)
    check(events is not None and not any(isinstance(e, (h2.events.StreamReset, h2.events.ConnectionTerminated))
                                         for e in events), f"{MAX_STREAMS} open streams are allowed: {events}")
    # h2 itself would refuse to open one more than the server allows: tell it the limit is higher.
    connection.remote_settings._settings[h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS] = collections.deque([1000])
    connection.send_headers(connection.get_next_available_stream_id(), call_headers(server, LIST), end_stream=False)
    sock.sendall(connection.data_to_send())
    events = pump(sock, connection, 5, lambda seen: any(
        isinstance(e, (h2.events.StreamReset, h2.events.ConnectionTerminated)) for e in seen))
    refused = events is None or any(isinstance(e, (h2.events.StreamReset, h2.events.ConnectionTerminated)) for e in events)
    check(refused, f"stream {MAX_STREAMS + 1} is refused (reset, or the connection closed): {events}")
    check(server.healthz() is not None, "/healthz answers after a client went over the stream limit")
    sock.close()

    # The official client queues what is over the limit: 60 calls at once on one channel.
    def list_page(_):
        try:
            return len(vehicles.list_vehicles(request=fe.ListVehiclesRequest(
                parent=f"providers/{PROVIDER}", page_size=50, vehicle_type_categories=[AUTO]),
                                              metadata=metadata, retry=None, timeout=30).vehicles)
        except GoogleAPICallError as error:
            return error.code
    with concurrent.futures.ThreadPoolExecutor(max_workers=60) as pool:
        answers = list(pool.map(list_page, range(60)))
    check(answers == [50] * 60, f"60 calls at once on one channel are all answered: {set(map(str, answers))}")

    # Connections that send calls and never read.
    rss_before = server.rss_mb()
    request = grpc_message(fe.ListVehiclesRequest(
        parent=f"providers/{PROVIDER}", page_size=20, vehicle_type_categories=[AUTO]))
    stalled = []
    for _ in range(STALLED):
        sock, connection = h2_connect(server.grpc_port, receive_buffer=4096)
        for _ in range(MAX_STREAMS):
            stream = connection.get_next_available_stream_id()
            connection.send_headers(stream, call_headers(server, LIST), end_stream=False)
            connection.send_data(stream, request, end_stream=True)
        sock.sendall(connection.data_to_send())
        stalled.append(sock)
    # Their 160 answers take a debug build on a busy machine a few seconds of CPU (/healthz
    # waits behind that work); then they are stuck, and the connections are reset two
    # keepalives (10 s) after their last byte. What is checked is that stuck answers hold
    # nothing up once made.
    busy, settled = [], time.time() + 8
    while time.time() < settled:
        busy.append(server.healthz())
        if busy[-1] is not None and busy[-1] < 0.1:
            break
    print(f"grpc-limits: /healthz while the answers were made: {[round(b, 3) if b else b for b in busy]}", flush=True)
    rss_during = server.rss_mb()
    latencies = [server.healthz() for _ in range(20)]
    check(all(latency is not None and latency < 2 for latency in latencies),
          f"/healthz answers within 2 s while {STALLED} connections do not read: {latencies}")
    print(f"grpc-limits: RSS {rss_before:.0f} MB before the stalled readers, {rss_during:.0f} MB with them", flush=True)
    # 20 × 8 answers of ~30 KB are 5 MB if every one were held whole; allow for their encoding.
    check(rss_during - rss_before < 40, f"{STALLED} stalled connections hold at most 40 MB: {rss_during - rss_before:.0f} MB")
    # Silent for the keepalive, then its ping unanswered for as long: reset. Slack for a loaded
    # machine; grpc-swift's own keepalive never closed such a connection.
    limit = 2 * KEEPALIVE_SECONDS + 10
    start = time.time()
    closed = [closed_within(sock, max(0.1, limit - (time.time() - start))) for sock in stalled]
    check(all(closed), f"the server closed {sum(closed)} of {STALLED} stalled connections within {limit} s")
    for sock in stalled:
        sock.close()
    check(server.healthz() is not None, "/healthz answers after the stalled readers")
    code = get_vehicle_code(vehicles, metadata)
    check(code is None, f"a gRPC call is answered after the stalled readers: {code}")

    request_bytes(server, vehicles, metadata)


def get_vehicle_code(vehicles, metadata):
    """The error code of a GetVehicle call of the first seeded car, or None when it is answered."""
    try:
        vehicles.get_vehicle(request=fe.GetVehicleRequest(name=f"providers/{PROVIDER}/vehicles/car-000"), metadata=metadata,
                             retry=None, timeout=10)
    except GoogleAPICallError as error:
        return error.code
    return None


def request_bytes(server, vehicles, metadata):
    """One connection's calls hold at most 16 MiB of request bytes at once (RequestBytesBudget),
    not 8 MiB each: 8 calls that each announce a 7 MiB message and send 3 MiB of it. The
    first five (15 MiB) are read; the sixth goes over and is reset, and so are the two after
    it as soon as they send; the connection's first calls and other connections go on."""
    sock, connection = h2_connect(server.grpc_port)
    pump(sock, connection, 5, lambda seen: any(isinstance(e, h2.events.RemoteSettingsChanged) for e in seen))
    sent, reset = {}, set()
    streams = []
    for _ in range(MAX_STREAMS):
        stream = connection.get_next_available_stream_id()
        connection.send_headers(stream, call_headers(server, LIST), end_stream=False)
        streams.append(stream)
    sock.sendall(connection.data_to_send())
    prefix = b"\x00" + (7 << 20).to_bytes(4, "big")
    deadline = time.time() + 60
    for stream in streams:
        body = prefix + b"\x00" * ((3 << 20) - len(prefix))
        while body and stream not in reset and time.time() < deadline:
            window = min(connection.local_flow_control_window(stream), connection.max_outbound_frame_size)
            if window > 0:
                connection.send_data(stream, body[:window])
                sent[stream] = sent.get(stream, 0) + min(window, len(body))
                body = body[window:]
                sock.sendall(connection.data_to_send())
                continue
            # Out of window: wait for the server to take what was sent (or reset the stream).
            events = pump(sock, connection, 2, lambda seen: any(
                isinstance(e, (h2.events.WindowUpdated, h2.events.StreamReset)) for e in seen))
            if events is None:
                break
            reset |= {e.stream_id for e in events if isinstance(e, h2.events.StreamReset)}
    events = pump(sock, connection, 2, lambda seen: False) or []
    reset |= {e.stream_id for e in events if isinstance(e, h2.events.StreamReset)}
    read = [s for s in streams if s not in reset]
    check(read == streams[:5], f"the first 5 calls' 15 MiB are read, the others reset: read {len(read)} of {len(streams)}, "
                               f"sent {[sent.get(s, 0) >> 20 for s in streams]} MiB")
    check(server.healthz() is not None, "/healthz answers while a connection holds its whole request budget")
    code = get_vehicle_code(vehicles, metadata)
    check(code is None, f"a call on another connection is answered meanwhile: {code}")
    sock.close()


if __name__ == "__main__":
    main()
