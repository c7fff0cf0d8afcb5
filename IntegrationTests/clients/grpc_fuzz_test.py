#!/usr/bin/env python3
"""Bad input on tripshare's gRPC port (issue 27): random and mutated request messages for
every method (hypothesis), truncated frames, a 5 MB message, wrong content types, unknown
methods and raw HTTP/2 garbage. None may take the server down, none may be answered INTERNAL
or UNKNOWN (bad input is the client's fault), and a refused call changes nothing: the
provider's vehicles and trips read the same through REST before and after.

Usage: grpc_fuzz_test.py TRIPSHARE
"""
import json
import os
import socket
import struct
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
from google.maps import fleetengine_v1 as fe
from google.protobuf import field_mask_pb2
from google.type import latlng_pb2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

SECRET = "grpc-fuzz-test-secret-0123456789abcdef0123"
PROVIDER = "fuzz"
# Codes that would mean the server, not the input, is at fault.
SERVER_FAULTS = {grpc.StatusCode.INTERNAL, grpc.StatusCode.UNKNOWN, grpc.StatusCode.DATA_LOSS}


class FuzzServer(Server):
    """`tripshare serve` with its gRPC port open, no rate limit (the fuzzer calls far faster than
    an app) and a server token for the provider (`admin`)."""

    def __init__(self, binary, work):
        super().__init__(binary, "--rate-limit", "0", grpc=True, work=work, env={"TRIPSHARE_JWT_SECRET": SECRET},
                         ready="/readyz", name="serve")
        self.http_port = self.port
        self.admin = self.token(role="server", provider=PROVIDER)

    def answers(self):
        """Whether `/readyz` answers 200."""
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.http_port}/readyz", timeout=5) as r:
                return r.status == 200
        except (urllib.error.URLError, ConnectionError):
            return False

    def rest(self, path):
        request = urllib.request.Request(f"http://127.0.0.1:{self.http_port}{path}",
                                         headers={"Authorization": f"Bearer {self.admin}"})
        try:
            with urllib.request.urlopen(request, timeout=5) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read() or b"{}")

    def state(self):
        """What a refused call must not change: the provider's vehicles and trips."""
        return (self.rest(f"/v1/providers/{PROVIDER}/vehicles?pageSize=100"),
                self.rest(f"/v1/providers/{PROVIDER}/vehicles/car-1"),
                self.rest(f"/v1/providers/{PROVIDER}/trips/trip-1"))


def point(lat, lng):
    return latlng_pb2.LatLng(latitude=lat, longitude=lng)


def valid_requests():
    """One valid request of each method, as the bytes the official client would send."""
    name = f"providers/{PROVIDER}/vehicles/car-1"
    trip = f"providers/{PROVIDER}/trips/trip-1"
    messages = {
        "VehicleService/CreateVehicle": fe.CreateVehicleRequest(
            parent=f"providers/{PROVIDER}", vehicle_id="car-2", vehicle=fe.Vehicle(
                vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO), maximum_capacity=4,
                supported_trip_types=[fe.TripType.EXCLUSIVE])),
        "VehicleService/GetVehicle": fe.GetVehicleRequest(name=name),
        "VehicleService/UpdateVehicle": fe.UpdateVehicleRequest(
            name=name, vehicle=fe.Vehicle(last_location=fe.VehicleLocation(location=point(60.17, 24.94))),
            update_mask=field_mask_pb2.FieldMask(paths=["last_location"])),
        "VehicleService/UpdateVehicleAttributes": fe.UpdateVehicleAttributesRequest(
            name=name, attributes=[fe.VehicleAttribute(key="a", string_value="b")]),
        "VehicleService/ListVehicles": fe.ListVehiclesRequest(parent=f"providers/{PROVIDER}", page_size=10),
        "VehicleService/SearchVehicles": fe.SearchVehiclesRequest(
            parent=f"providers/{PROVIDER}", pickup_point=fe.TerminalLocation(point=point(60.17, 24.94)),
            pickup_radius_meters=1000, count=5, minimum_capacity=1, trip_types=[fe.TripType.EXCLUSIVE],
            order_by=fe.SearchVehiclesRequest.VehicleMatchOrder.PICKUP_POINT_ETA),
        "VehicleService/DeleteVehicle": fe.DeleteVehicleRequest(name=name),
        "TripService/CreateTrip": fe.CreateTripRequest(
            parent=f"providers/{PROVIDER}", trip_id="trip-2", trip=fe.Trip(
                trip_type=fe.TripType.EXCLUSIVE, pickup_point=fe.TerminalLocation(point=point(60.17, 24.94)),
                dropoff_point=fe.TerminalLocation(point=point(60.18, 24.95)))),
        "TripService/GetTrip": fe.GetTripRequest(name=trip, view=fe.TripView.SDK),
        "TripService/UpdateTrip": fe.UpdateTripRequest(
            name=trip, trip=fe.Trip(trip_status=fe.TripStatus.ENROUTE_TO_PICKUP),
            update_mask=field_mask_pb2.FieldMask(paths=["trip_status"])),
        "TripService/SearchTrips": fe.SearchTripsRequest(parent=f"providers/{PROVIDER}", vehicle_id="car-1"),
        "TripService/DeleteTrip": fe.DeleteTripRequest(name=trip),
        "TripService/ReportBillableTrip": fe.ReportBillableTripRequest(name=f"providers/{PROVIDER}/billableTrips/trip-1",
                                                                        country_code="FI"),
    }
    return {f"/maps.fleetengine.v1.{method}": type(m).serialize(m) for method, m in messages.items()}


def raw_call(channel, path, payload, token):
    """A unary call of `path` with `payload` as the message bytes: (code, details)."""
    method = channel.unary_unary(path, request_serializer=None, response_deserializer=None)
    try:
        method(payload, metadata=[("authorization", f"Bearer {token}")], timeout=10)
        return grpc.StatusCode.OK, ""
    except grpc.RpcError as error:
        return error.code(), error.details()


def mutated(data, draw_ops):
    """`data` with hypothesis's edits: flipped bytes, cuts, insertions."""
    data = bytearray(data)
    for op, position, value in draw_ops:
        if not data:
            data.append(value)
            continue
        i = position % len(data)
        if op == 0:
            data[i] ^= value or 1
        elif op == 1:
            del data[i:]
        elif op == 2:
            data.insert(i, value)
        else:
            data[i:i] = bytes([0xff, 0xff, 0xff, 0xff, 0x0f])  # a huge varint length
    return bytes(data)


def h2_exchange(port, headers, body, end_stream=True, raw_after=None):
    """One raw HTTP/2 request: (":status", grpc-status or None), or None when the server
    closed the connection (which is an answer too, and not a crash)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=10)
    connection = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
    connection.initiate_connection()
    stream = connection.get_next_available_stream_id()
    connection.send_headers(stream, headers, end_stream=False)
    connection.send_data(stream, body, end_stream=end_stream)
    sock.sendall(connection.data_to_send())
    if raw_after:
        sock.sendall(raw_after)
    status, grpc_status, deadline = None, None, time.time() + 10
    try:
        while time.time() < deadline:
            data = sock.recv(65536)
            if not data:
                break
            for event in connection.receive_data(data):
                if isinstance(event, (h2.events.ResponseReceived, h2.events.TrailersReceived)):
                    fields = dict(event.headers)
                    status = fields.get(":status", status)
                    grpc_status = fields.get("grpc-status", grpc_status)
                if isinstance(event, (h2.events.StreamEnded, h2.events.StreamReset, h2.events.ConnectionTerminated)):
                    return status, grpc_status
            pending = connection.data_to_send()
            if pending:
                sock.sendall(pending)
    except (ConnectionError, socket.timeout, h2.exceptions.ProtocolError):
        pass
    finally:
        sock.close()
    return status, grpc_status


def grpc_frame(message, claimed=None):
    return b"\x00" + struct.pack(">I", len(message) if claimed is None else claimed) + message


def main():
    binary = os.path.abspath(sys.argv[1])
    work = tempfile.mkdtemp(prefix="tripshare-grpc-fuzz.")
    server = FuzzServer(binary, work)
    channel = grpc.insecure_channel(f"127.0.0.1:{server.grpc_port}",
                                    options=[("grpc.max_send_message_length", 16 << 20)])
    vehicles = fe.VehicleServiceClient(
        transport=fe.services.vehicle_service.transports.VehicleServiceGrpcTransport(channel=channel))
    trips = fe.TripServiceClient(transport=fe.services.trip_service.transports.TripServiceGrpcTransport(channel=channel))
    metadata = [("authorization", f"Bearer {server.admin}")]
    vehicles.create_vehicle(request=fe.CreateVehicleRequest(
        parent=f"providers/{PROVIDER}", vehicle_id="car-1", vehicle=fe.Vehicle(
            vehicle_state=fe.VehicleState.ONLINE, vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO),
            maximum_capacity=4, supported_trip_types=[fe.TripType.EXCLUSIVE],
            last_location=fe.VehicleLocation(location=point(60.17, 24.94)))), metadata=metadata, retry=None, timeout=5)
    trips.create_trip(request=fe.CreateTripRequest(parent=f"providers/{PROVIDER}", trip_id="trip-1", trip=fe.Trip(
        vehicle_id="car-1", trip_type=fe.TripType.EXCLUSIVE, pickup_point=fe.TerminalLocation(point=point(60.171, 24.941)),
        dropoff_point=fe.TerminalLocation(point=point(60.18, 24.95)))), metadata=metadata, retry=None, timeout=5)
    before = server.state()
    check(before[1][0] == 200 and before[2][0] == 200, f"the fuzzer's vehicle and trip exist: {before}")
    requests = valid_requests()
    codes = {}

    def try_payload(path, payload):
        state = server.state()
        code, details = raw_call(channel, path, payload, server.admin)
        codes[code] = codes.get(code, 0) + 1
        check(code not in SERVER_FAULTS, f"{path} with {payload[:60]!r}... is answered {code}: {details}")
        if code != grpc.StatusCode.OK:
            check(server.state() == state, f"a refused {path} ({code}) changes nothing")

    @settings(max_examples=int(os.environ.get("GRPC_FUZZ_EXAMPLES", "40")), deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(path=st.sampled_from(sorted(requests)), payload=st.binary(max_size=512))
    def random_messages(path, payload):
        try_payload(path, payload)

    @settings(max_examples=int(os.environ.get("GRPC_FUZZ_EXAMPLES", "40")) * 4, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(path=st.sampled_from(sorted(requests)),
           ops=st.lists(st.tuples(st.integers(0, 3), st.integers(0, 10_000), st.integers(0, 255)), min_size=1, max_size=6))
    def mutated_messages(path, ops):
        # Deletes and creates are left out of mutation: a mutant that is still valid would
        # legitimately change the state the other checks compare.
        if path.endswith(("/DeleteVehicle", "/DeleteTrip", "/CreateVehicle", "/CreateTrip", "/UpdateVehicle",
                          "/UpdateTrip", "/UpdateVehicleAttributes", "/ReportBillableTrip")):
            # Without a good token, whatever the bytes are, the call is refused for the token
            # before its message is decoded.
            payload = mutated(requests[path], ops)
            code, details = raw_call(channel, path, payload, "not-a-token")
            check(code == grpc.StatusCode.UNAUTHENTICATED, f"{path} without a good token is refused: {code} {details}")
            return
        try_payload(path, mutated(requests[path], ops))

    random_messages()
    mutated_messages()
    print(f"fuzz: status codes {dict((c.name, n) for c, n in codes.items())}", flush=True)

    # A 5 MB message: over REST's 2 MiB body limit, refused before it is decoded.
    big = fe.UpdateVehicleRequest(name=f"providers/{PROVIDER}/vehicles/car-1", vehicle=fe.Vehicle(
        current_route_segment="x" * (5 << 20)), update_mask=field_mask_pb2.FieldMask(paths=["current_route_segment"]))
    code, details = raw_call(channel, "/maps.fleetengine.v1.VehicleService/UpdateVehicle", type(big).serialize(big), server.admin)
    check(code == grpc.StatusCode.RESOURCE_EXHAUSTED and "2097152" in details, f"a 5 MB message is refused: {code} {details}")
    code, _ = raw_call(channel, "/maps.fleetengine.v1.VehicleService/NoSuchMethod", b"", server.admin)
    check(code == grpc.StatusCode.UNIMPLEMENTED, f"an unknown method is UNIMPLEMENTED: {code}")
    code, _ = raw_call(channel, "/maps.fleetengine.v1.NoSuchService/GetVehicle", b"", server.admin)
    check(code == grpc.StatusCode.UNIMPLEMENTED, f"an unknown service is UNIMPLEMENTED: {code}")

    # Raw HTTP/2: truncated frames, wrong content types, garbage after the preface.
    path = "/maps.fleetengine.v1.VehicleService/GetVehicle"
    get = requests[path]
    base = [(":method", "POST"), (":scheme", "http"), (":path", path), (":authority", f"127.0.0.1:{server.grpc_port}"),
            ("te", "trailers"), ("authorization", f"Bearer {server.admin}")]
    grpc_headers = base + [("content-type", "application/grpc")]
    cases = {
        "a message shorter than its length prefix": (grpc_headers, grpc_frame(get, claimed=len(get) + 100)),
        "a length prefix cut short": (grpc_headers, grpc_frame(get)[:3]),
        "a compressed flag without compression": (grpc_headers, b"\x01" + grpc_frame(get)[1:]),
        "two messages for a unary call": (grpc_headers, grpc_frame(get) + grpc_frame(get)),
        "no message": (grpc_headers, b""),
        "JSON as the content type": (base + [("content-type", "application/json")], b'{"name": "x"}'),
        "no content type": (base, grpc_frame(get)),
        "text/plain": (base + [("content-type", "text/plain")], grpc_frame(get)),
    }
    for what, (headers, body) in cases.items():
        status, grpc_status = h2_exchange(server.grpc_port, headers, body)
        answered = f"HTTP {status}, grpc-status {grpc_status}"
        check(grpc_status not in ("2", "13", "15"), f"{what} is not answered as a server fault: {answered}")
        check(server.answers(), f"the server is alive after {what}")
        print(f"raw: {what}: {answered}", flush=True)
    status, grpc_status = h2_exchange(server.grpc_port, grpc_headers, grpc_frame(get), raw_after=os.urandom(4096))
    check(server.answers(), "the server is alive after garbage frames")
    with socket.create_connection(("127.0.0.1", server.grpc_port), timeout=5) as sock:
        sock.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n" + os.urandom(2048))
        try:
            sock.recv(1024)
        except (ConnectionError, socket.timeout):
            pass
    check(server.answers(), "the server is alive after HTTP/1.1 and noise on the gRPC port")

    after = server.state()
    check(after == before, f"the provider's vehicles and trips are unchanged:\nbefore {before}\nafter {after}")
    # Nothing was answered INTERNAL, per the server's own count.
    with urllib.request.urlopen(f"http://127.0.0.1:{server.http_port}/metrics", timeout=5) as r:
        metrics = r.read().decode()
    internal = [line for line in metrics.splitlines() if line.startswith("tripshare_grpc_requests_total") and 'code="INTERNAL"' in line]
    check(not internal, f"/metrics counts no INTERNAL gRPC answer: {internal}")
    code = server.stop()
    check(code == 0, f"the server stops cleanly on SIGTERM: {code}")
    print(f"{passed()} passed, {len(FAILURES)} failed")
    if FAILURES:
        print(server.log()[-4000:])
        sys.exit(1)


if __name__ == "__main__":
    main()
