#!/usr/bin/env python3
"""Google's own Fleet Engine client for Python (google-maps-fleetengine, pinned by
IntegrationTests/clients/grpc-test) drives tripshare over gRPC, as a Fleet Engine user's code would (issue 27).

Checks, against `tripshare serve` on a fresh data directory:
  - every message of the client is in our .proto files with the same fields (numbers, types,
    labels, oneofs) and enum values, and our services have the client's method paths;
  - a whole ride, over a plaintext channel and over TLS with a test CA made here (the client
    given only `api_endpoint`, trusting the CA through GRPC_DEFAULT_SSL_ROOTS_FILE_PATH): a
    vehicle with attributes and a licence plate, a location update with the driver's token,
    SearchVehicles, a trip with an intermediate stop, the rider's JOURNEY_SHARING_V1S view,
    ListVehicles, UpdateVehicleAttributes, every status up to COMPLETE, SearchTrips,
    ReportBillableTrip, the deletes: all 13 methods; with our own tokens and with Fleet
    Engine–shaped ones signed by service-account keys;
  - every answer parsed strictly (no field the client does not know, a JSON round trip);
  - refusals arrive as the client's own exception classes, with REST's messages;
  - the README's Python example, as written, against the plaintext server;
  - a gRPC write is seen at once through REST; with --database (PostgreSQL) both servers share
    it, and a write through one's gRPC is read through the other's REST and gRPC.

Usage: fleetengine_client_test.py TRIPSHARE [--database postgres://...]
"""
import argparse
import json
import os
import shutil
import ssl
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from checklist import FAILURES, check, passed  # noqa: E402
from server import Server  # noqa: E402

WORK = tempfile.mkdtemp(prefix="tripshare-fleetengine-client.")
CA = os.path.join(WORK, "ca.pem")
# grpc reads its roots when it first builds a secure channel: name the test CA's file now.
os.environ["GRPC_DEFAULT_SSL_ROOTS_FILE_PATH"] = CA

import grpc  # noqa: E402
import proto  # noqa: E402
from google.api_core import client_options, exceptions  # noqa: E402
from google.auth import crypt  # noqa: E402
from google.auth import jwt as google_jwt  # noqa: E402
from google.maps import fleetengine_v1 as fe  # noqa: E402
from google.maps.fleetengine_v1.services.trip_service.transports import TripServiceGrpcTransport  # noqa: E402
from google.maps.fleetengine_v1.services.vehicle_service.transports import VehicleServiceGrpcTransport  # noqa: E402
from google.protobuf import descriptor_pb2, field_mask_pb2, json_format, unknown_fields  # noqa: E402
from google.type import latlng_pb2  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SECRET = "fleetengine-client-test-secret-0123456789abcdef"


# --- The client's messages against our .proto files -------------------------------------------


def descriptor_tables(files):
    """Messages (field name to number, type, label, type name, oneof), enums (value name to
    number) of package maps.fleetengine.v1 and the google types it uses."""
    messages, enums = {}, {}

    def walk(prefix, message):
        name = f"{prefix}.{message.name}"
        messages[name] = {
            f.name: (f.number, f.type, f.label, f.type_name,
                     message.oneof_decl[f.oneof_index].name if f.HasField("oneof_index") else None)
            for f in message.field
        }
        for nested in message.nested_type:
            walk(name, nested)
        for enum in message.enum_type:
            enums[f"{name}.{enum.name}"] = {v.name: v.number for v in enum.value}

    for f in files:
        if not f.package.startswith(("maps.fleetengine", "google.type", "google.geo")):
            continue
        for message in f.message_type:
            walk("." + f.package, message)
        for enum in f.enum_type:
            enums[f".{f.package}.{enum.name}"] = {v.name: v.number for v in enum.value}
    return messages, enums


def exported_messages():
    """The proto-plus message classes the client's package exports."""
    return [getattr(fe, name) for name in dir(fe) if isinstance(getattr(fe, name), type)
            and issubclass(getattr(fe, name), proto.Message)]


class RecordingChannel(grpc.Channel):
    """A channel that only writes down the method path of each stub a transport calls."""

    class Called(Exception):
        pass

    class Stub:
        def __call__(self, *args, **kwargs):
            raise RecordingChannel.Called()

        with_call = future = __call__

    def __init__(self):
        self.paths = set()

    def unary_unary(self, method, *args, **kwargs):
        self.paths.add(method)
        return RecordingChannel.Stub()

    unary_stream = stream_unary = stream_stream = unary_unary

    def subscribe(self, *args, **kwargs):
        pass

    def unsubscribe(self, *args, **kwargs):
        pass

    def close(self):
        pass

    def __enter__(self):
        return self

    def __exit__(self, *args):
        pass


def client_method_paths():
    """The gRPC method paths the client's two transports call: each of their RPC properties
    (the callable ones; `host` and `kind` are strings) invoked once on a recording channel."""
    paths = set()
    for transport in (VehicleServiceGrpcTransport, TripServiceGrpcTransport):
        channel = RecordingChannel()
        instance = transport(channel=channel)
        for name in dir(transport):
            if not isinstance(getattr(transport, name), property):
                continue
            stub = getattr(instance, name)
            if not callable(stub):
                continue
            try:
                stub(None)
            except RecordingChannel.Called:
                pass
        paths |= channel.paths
    return paths


def check_protos_match_the_client():
    out = os.path.join(WORK, "ours.pb")
    protos = sorted(
        os.path.relpath(os.path.join(d, f), os.path.join(ROOT, "Protos"))
        for d, _, fs in os.walk(os.path.join(ROOT, "Protos")) for f in fs if f.endswith(".proto"))
    include = subprocess.run(["protoc", "--version"], capture_output=True, text=True)
    check(include.returncode == 0, "protoc runs")
    # The well-known types come with protoc's own include directory or the python package.
    import google.protobuf
    well_known = os.path.dirname(os.path.dirname(os.path.dirname(google.protobuf.__file__)))
    run = subprocess.run(
        ["protoc", "-I", os.path.join(ROOT, "Protos"), "-I", well_known, "-I", "/usr/include",
         "--include_imports", f"--descriptor_set_out={out}", *protos],
        cwd=os.path.join(ROOT, "Protos"), capture_output=True, text=True)
    check(run.returncode == 0, f"protoc reads our .proto files: {run.stderr}")
    if run.returncode != 0:
        return
    ours = descriptor_pb2.FileDescriptorSet()
    with open(out, "rb") as f:
        ours.ParseFromString(f.read())
    client_files, seen = [], set()

    def add(file):
        if file.name in seen:
            return
        seen.add(file.name)
        for dependency in file.dependencies:
            add(dependency)
        proto = descriptor_pb2.FileDescriptorProto()
        file.CopyToProto(proto)
        client_files.append(proto)

    for cls in exported_messages():
        add(cls.pb().DESCRIPTOR.file)
    our_messages, our_enums = descriptor_tables(ours.file)
    their_messages, their_enums = descriptor_tables(client_files)
    # Every message type the client exports was read from its descriptors, so the comparison
    # below covers the whole of what the client can send and parse.
    exported = {"." + cls.pb().DESCRIPTOR.full_name for cls in exported_messages()}
    missing = sorted(exported - set(their_messages))
    check(exported and not missing, f"the client's {len(exported)} exported messages are all compared: missing {missing}")
    for name, fields in their_messages.items():
        if name not in our_messages:
            check(False, f"our .proto files have the client's message {name}")
            continue
        for field, facts in fields.items():
            check(our_messages[name].get(field) == facts, f"{name}.{field}: client {facts}, ours {our_messages[name].get(field)}")
    for name, values in their_enums.items():
        check(our_enums.get(name) == values, f"enum {name}: client {values}, ours {our_enums.get(name)}")
    # The method paths the client's transports call, both ways: none of ours is missing a
    # client method, and we serve nothing the client does not know.
    ours_paths = {f"/{f.package}.{s.name}/{m.name}" for f in ours.file if f.package == "maps.fleetengine.v1"
                  for s in f.service for m in s.method}
    theirs_paths = client_method_paths()
    check(len(theirs_paths) == 13, f"the client's transports call 13 methods: {sorted(theirs_paths)}")
    check(ours_paths == theirs_paths,
          f"our services have exactly the client's methods: only ours {sorted(ours_paths - theirs_paths)}, "
          f"only the client's {sorted(theirs_paths - ours_paths)}")
    print(f"protos: {len(their_messages)} messages and {len(their_enums)} enums of the client match ours", flush=True)


# --- Keys, certificates, tokens ----------------------------------------------------------------


def openssl(*args):
    subprocess.run(["openssl", *args], check=True, capture_output=True)


def make_tls_files():
    """A test CA and a server certificate for 127.0.0.1 and localhost, signed by it."""
    key, csr, cert, ext = (os.path.join(WORK, n) for n in ("server.key", "server.csr", "server.pem", "server.ext"))
    ca_key = os.path.join(WORK, "ca.key")
    openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", ca_key, "-out", CA, "-days", "1",
            "-subj", "/CN=tripshare test CA")
    openssl("req", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", csr, "-subj", "/CN=localhost")
    with open(ext, "w") as f:
        f.write("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    openssl("x509", "-req", "-in", csr, "-CA", CA, "-CAkey", ca_key, "-CAcreateserial", "-out", cert, "-days", "1",
            "-extfile", ext)
    return cert, key


class ServiceAccount:
    """A service account as Google issues its key file; its public certificate goes into the
    server's --service-accounts file."""

    def __init__(self, name, role, provider):
        self.email = f"{name}@tripshare-test.iam.gserviceaccount.com"
        self.role, self.provider = role, provider
        self.key_id = f"{name}-key-1"
        key, cert = os.path.join(WORK, f"{name}.key"), os.path.join(WORK, f"{name}.crt")
        openssl("req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", key, "-out", cert, "-days", "1",
                "-subj", f"/CN={self.email}")
        with open(key) as f:
            private = f.read()
        with open(cert) as f:
            self.certificate = f.read()
        self.key_file = os.path.join(WORK, f"{name}.json")
        with open(self.key_file, "w") as f:
            json.dump({"type": "service_account", "project_id": "tripshare-test", "private_key_id": self.key_id,
                       "private_key": private, "client_email": self.email, "client_id": "1",
                       "token_uri": "https://oauth2.googleapis.com/token"}, f)

    def token(self, authorization, audience="https://fleetengine.googleapis.com/", key_id=None, lifetime=3600, age=0):
        """A token minted as Fleet Engine's documentation shows: google.auth's RSA signer from
        the service account's key file, the key's ID in the header; `age` seconds ago."""
        signer = crypt.RSASigner.from_service_account_file(self.key_file)
        now = int(time.time()) - age
        payload = {"iss": self.email, "sub": self.email, "aud": audience, "iat": now, "exp": now + lifetime,
                   "authorization": authorization}
        return google_jwt.encode(signer, payload, key_id=key_id or self.key_id).decode()

    def listing(self):
        return {"email": self.email, "role": self.role, "provider": self.provider, "keys": {self.key_id: self.certificate}}


# --- The server --------------------------------------------------------------------------------


class ClientServer(Server):
    """`tripshare serve` with its gRPC port open, waited for until ready, on DATA (and DATABASE),
    over TLS when given (certificate, key), knowing the service accounts in ACCOUNTS_FILE."""

    def __init__(self, binary, data, database=None, tls=None, accounts_file=None, extra=()):
        env = {"TRIPSHARE_JWT_SECRET": SECRET}
        if accounts_file:
            env["TRIPSHARE_SERVICE_ACCOUNTS"] = accounts_file
        where = ["--database", database] if database else []
        super().__init__(binary, *where, *extra, grpc=True, data_dir=data, work=WORK, env=env, tls=tls,
                         ready="/readyz", name=f"serve-{os.path.basename(data)}")
        self.http_port, self.data = self.port, data

    def get(self, path, token=None):
        request = urllib.request.Request(self.url + path, headers={"Authorization": f"Bearer {token}"} if token else {})
        context = ssl.create_default_context(cafile=CA) if self.tls else None
        try:
            with urllib.request.urlopen(request, timeout=5, context=context) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def our_token(self, role, provider, trip=None, vehicle=None):
        return self.token(role=role, provider=provider, trip=trip, vehicle=vehicle)

    def clients(self):
        """The two service clients: over TLS given only the endpoint (the default channel), or
        over a plaintext channel handed to the client's own transport."""
        if self.tls:
            options = client_options.ClientOptions(api_endpoint=f"127.0.0.1:{self.grpc_port}")
            from google.auth.credentials import AnonymousCredentials
            return (fe.VehicleServiceClient(client_options=options, credentials=AnonymousCredentials()),
                    fe.TripServiceClient(client_options=options, credentials=AnonymousCredentials()))
        channel = grpc.insecure_channel(f"127.0.0.1:{self.grpc_port}")
        return (fe.VehicleServiceClient(transport=VehicleServiceGrpcTransport(channel=channel)),
                fe.TripServiceClient(transport=TripServiceGrpcTransport(channel=channel)))


def call(method, request, token, timeout=5):
    """One call as a Fleet Engine user makes it: the token in the metadata, no retries."""
    return method(request=request, metadata=[("authorization", f"Bearer {token}")], retry=None, timeout=timeout)


def first_page(pager):
    """The answer a pager (ListVehicles, SearchTrips) wraps: its first page."""
    return next(iter(pager.pages))


def strictly(message):
    """The answer parsed with nothing left over: no field unknown to the client anywhere in it,
    and proto3 JSON that parses back into the same message."""
    pb = type(message).pb(message)

    def unknown(m, path):
        found = [path] if len(unknown_fields.UnknownFieldSet(m)) else []
        for field, value in m.ListFields():
            if field.type == field.TYPE_MESSAGE:
                if field.message_type.GetOptions().map_entry:
                    continue
                # (protobuf 7 has `is_repeated` where older versions had `label`.)
                repeated = field.is_repeated if hasattr(field, "is_repeated") else field.label == field.LABEL_REPEATED
                items = value if repeated else [value]
                for i, item in enumerate(items):
                    found += unknown(item, f"{path}.{field.name}[{i}]")
        return found

    leftover = unknown(pb, type(pb).DESCRIPTOR.name)
    check(not leftover, f"answers carry only fields the client knows: unknown fields in {leftover}")
    copy = type(pb)()
    json_format.Parse(json_format.MessageToJson(pb), copy, ignore_unknown_fields=False)
    check(copy == pb, f"{type(pb).DESCRIPTOR.name} survives a proto3 JSON round trip")
    return message


def refused(exception_class, method, request, token, contains=""):
    """The call fails with the client's `exception_class` and a message containing `contains`."""
    try:
        call(method, request, token)
    except exceptions.GoogleAPICallError as error:
        check(type(error) is exception_class, f"{method.__name__} raises {exception_class.__name__}, got {type(error).__name__}: {error}")
        check(contains in error.message, f"{method.__name__}'s {exception_class.__name__} says '{contains}': {error.message}")
        return error
    check(False, f"{method.__name__} raises {exception_class.__name__}, but it answered")


def point(lat, lng):
    return latlng_pb2.LatLng(latitude=lat, longitude=lng)


def location_update(vehicles, provider, vehicle, token, lat, lng):
    updated = strictly(call(vehicles.update_vehicle, fe.UpdateVehicleRequest(
        name=f"providers/{provider}/vehicles/{vehicle}",
        vehicle=fe.Vehicle(last_location=fe.VehicleLocation(location=point(lat, lng), heading=90, speed=8.0),
                           vehicle_state=fe.VehicleState.ONLINE),
        update_mask=field_mask_pb2.FieldMask(paths=["last_location", "vehicle_state"])), token))
    check(abs(updated.last_location.location.latitude - lat) < 1e-9, "the update returns the driver's location")
    check(updated.last_location.server_time.timestamp() > 0, "the server stamps the location's server_time")
    return updated


# --- The ride ----------------------------------------------------------------------------------


def ride(server, provider, accounts):
    """A whole ride through the official client, and its refusals."""
    vehicles, trips = server.clients()
    server_token = server.our_token("server", provider)
    fe_server = accounts["server"].token({"vehicleid": "*"})
    car, trip_id = "car-1", "trip-1"
    name = f"providers/{provider}/vehicles/{car}"

    created = strictly(call(vehicles.create_vehicle, fe.CreateVehicleRequest(
        parent=f"providers/{provider}", vehicle_id=car,
        vehicle=fe.Vehicle(
            vehicle_state=fe.VehicleState.ONLINE, supported_trip_types=[fe.TripType.EXCLUSIVE], maximum_capacity=4,
            vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO),
            attributes=[fe.VehicleAttribute(key="class", value="premium"),
                        fe.VehicleAttribute(key="wheelchair", bool_value=True)],
            license_plate=fe.LicensePlate(country_code="FI", last_character="7"),
            last_location=fe.VehicleLocation(location=point(60.1659, 24.9402)))), server_token))
    check(created.name == name, f"CreateVehicle names the vehicle {name}: {created.name}")
    check(created.license_plate.country_code == "FI" and created.license_plate.last_character == "7",
          f"the licence plate is kept: {created.license_plate}")
    check({a.key for a in created.attributes} == {"class", "wheelchair"}, f"the attributes are kept: {created.attributes}")
    refused(exceptions.AlreadyExists, vehicles.create_vehicle, fe.CreateVehicleRequest(
        parent=f"providers/{provider}", vehicle_id=car, vehicle=fe.Vehicle(
            maximum_capacity=4, vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO))),
        fe_server, "car-1")

    driver = accounts["driver"].token({"vehicleid": car})
    location_update(vehicles, provider, car, driver, 60.1662, 24.9410)
    got = strictly(call(vehicles.get_vehicle, fe.GetVehicleRequest(name=name), driver))
    check(abs(got.last_location.location.longitude - 24.9410) < 1e-9, "the driver reads its vehicle's new location")
    # One state, two wires: REST answers with the location gRPC wrote.
    status, body = server.get(f"/v1/providers/{provider}/vehicles/{car}", server_token)
    check(status == 200 and abs(json.loads(body)["lastLocation"]["location"]["longitude"] - 24.9410) < 1e-9,
          f"REST sees the location written over gRPC: {status} {body[:200]}")

    matches = strictly(call(vehicles.search_vehicles, fe.SearchVehiclesRequest(
        parent=f"providers/{provider}", pickup_point=fe.TerminalLocation(point=point(60.1703, 24.9415)),
        pickup_radius_meters=2000, count=5, minimum_capacity=1, trip_types=[fe.TripType.EXCLUSIVE],
        vehicle_types=[fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO)],
        order_by=fe.SearchVehiclesRequest.VehicleMatchOrder.PICKUP_POINT_ETA), fe_server))
    check([m.vehicle.name for m in matches.matches] == [name], f"SearchVehicles finds the car: {[m.vehicle.name for m in matches.matches]}")
    listed = strictly(first_page(call(vehicles.list_vehicles, fe.ListVehiclesRequest(
        parent=f"providers/{provider}", vehicle_type_categories=[fe.Vehicle.VehicleType.Category.AUTO],
        required_attributes=["class:premium"]), server_token)))
    check([v.name for v in listed.vehicles] == [name], f"ListVehicles finds the premium car: {[v.name for v in listed.vehicles]}")
    merged = strictly(call(vehicles.update_vehicle_attributes, fe.UpdateVehicleAttributesRequest(
        name=name, attributes=[fe.VehicleAttribute(key="class", value="standard"),
                               fe.VehicleAttribute(key="seats", number_value=4)]), fe_server))
    check({(a.key, a.value or a.string_value or str(a.number_value or a.bool_value)) for a in merged.attributes}
          >= {("class", "standard"), ("seats", "4.0")}, f"UpdateVehicleAttributes merges by key: {merged.attributes}")
    check(len(merged.attributes) == 3, f"UpdateVehicleAttributes keeps the other attributes: {merged.attributes}")
    refused(exceptions.PermissionDenied, vehicles.update_vehicle_attributes, fe.UpdateVehicleAttributesRequest(
        name=name, attributes=[fe.VehicleAttribute(key="class", value="premium")]), driver, "attributes")

    trip = strictly(call(trips.create_trip, fe.CreateTripRequest(
        parent=f"providers/{provider}", trip_id=trip_id, trip=fe.Trip(
            vehicle_id=car, trip_type=fe.TripType.EXCLUSIVE, number_of_passengers=1,
            pickup_point=fe.TerminalLocation(point=point(60.1703, 24.9415)),
            intermediate_destinations=[fe.TerminalLocation(point=point(60.1690, 24.9450))],
            dropoff_point=fe.TerminalLocation(point=point(60.1691, 24.9510)))), fe_server))
    check(trip.name == f"providers/{provider}/trips/{trip_id}", f"CreateTrip names the trip: {trip.name}")
    check(trip.trip_status == fe.TripStatus.NEW, f"a new trip is NEW: {trip.trip_status}")
    check(len(trip.intermediate_destinations) == 1, "the intermediate stop is kept")

    rider = server.our_token("consumer", provider, trip=trip_id)
    fe_rider = accounts["consumer"].token({"tripid": trip_id})
    for token in (rider, fe_rider):
        view = strictly(call(trips.get_trip, fe.GetTripRequest(
            name=f"providers/{provider}/trips/{trip_id}", view=fe.TripView.JOURNEY_SHARING_V1S), token))
        check(view.remaining_waypoints and view.remaining_waypoints[0].waypoint_type == fe.WaypointType.PICKUP_WAYPOINT_TYPE,
              f"the rider sees the pickup as the next stop: {[w.waypoint_type for w in view.remaining_waypoints]}")
        check(view.remaining_waypoints[0].distance_meters > 0, "the rider sees the distance to the pickup")
    refused(exceptions.PermissionDenied, trips.get_trip, fe.GetTripRequest(
        name=f"providers/{provider}/trips/{trip_id}", view=fe.TripView.SDK), rider, "JOURNEY_SHARING_V1S")
    refused(exceptions.FailedPrecondition, trips.update_trip, fe.UpdateTripRequest(
        name=f"providers/{provider}/trips/{trip_id}", trip=fe.Trip(trip_status=fe.TripStatus.COMPLETE),
        update_mask=field_mask_pb2.FieldMask(paths=["trip_status"])), driver)
    refused(exceptions.FailedPrecondition, vehicles.delete_vehicle, fe.DeleteVehicleRequest(name=name), server_token)

    legs = [
        (fe.TripStatus.ENROUTE_TO_PICKUP, None, (60.1680, 24.9412)),
        (fe.TripStatus.ARRIVED_AT_PICKUP, None, (60.1703, 24.9415)),
        (fe.TripStatus.ENROUTE_TO_INTERMEDIATE_DESTINATION, 0, (60.1697, 24.9430)),
        (fe.TripStatus.ARRIVED_AT_INTERMEDIATE_DESTINATION, 0, (60.1690, 24.9450)),
        (fe.TripStatus.ENROUTE_TO_DROPOFF, None, (60.1690, 24.9480)),
        (fe.TripStatus.COMPLETE, None, (60.1691, 24.9510)),
    ]
    for status, index, (lat, lng) in legs:
        location_update(vehicles, provider, car, driver, lat, lng)
        fields, change = ["trip_status"], fe.Trip(trip_status=status)
        if index is not None:
            fields.append("intermediate_destination_index")
            change.intermediate_destination_index = index
        moved = strictly(call(trips.update_trip, fe.UpdateTripRequest(
            name=f"providers/{provider}/trips/{trip_id}", trip=change,
            update_mask=field_mask_pb2.FieldMask(paths=fields)), driver))
        check(moved.trip_status == status, f"the driver moves the trip to {status.name}: {moved.trip_status}")
        seen = strictly(call(trips.get_trip, fe.GetTripRequest(
            name=f"providers/{provider}/trips/{trip_id}", view=fe.TripView.JOURNEY_SHARING_V1S), fe_rider))
        check(seen.trip_status == status, f"the rider sees {status.name}: {seen.trip_status}")
    status, body = server.get(f"/v1/providers/{provider}/trips/{trip_id}", rider)
    check(status == 200 and json.loads(body).get("tripStatus") == "COMPLETE", f"REST sees the trip COMPLETE: {body[:200]}")

    found = strictly(first_page(call(trips.search_trips, fe.SearchTripsRequest(parent=f"providers/{provider}", vehicle_id=car), fe_server)))
    check([t.name for t in found.trips] == [f"providers/{provider}/trips/{trip_id}"], f"SearchTrips finds the trip: {found.trips}")
    active = strictly(first_page(call(trips.search_trips, fe.SearchTripsRequest(
        parent=f"providers/{provider}", vehicle_id=car, active_trips_only=True), server_token)))
    check(not active.trips, "no active trip is left")
    call(trips.report_billable_trip, fe.ReportBillableTripRequest(
        name=f"providers/{provider}/billableTrips/{trip_id}", country_code="FI",
        platform=fe.BillingPlatformIdentifier.SERVER, related_ids=[trip_id],
        solution_type=fe.ReportBillableTripRequest.SolutionType.ON_DEMAND_RIDESHARING_AND_DELIVERIES), server_token)
    refused(exceptions.InvalidArgument, trips.report_billable_trip, fe.ReportBillableTripRequest(
        name=f"providers/{provider}/billableTrips/{trip_id}"), server_token, "countryCode")
    refused(exceptions.NotFound, trips.report_billable_trip, fe.ReportBillableTripRequest(
        name=f"providers/{provider}/billableTrips/no-such-trip", country_code="FI"), server_token, "no-such-trip")

    call(trips.delete_trip, fe.DeleteTripRequest(name=f"providers/{provider}/trips/{trip_id}"), server_token)
    refused(exceptions.NotFound, trips.get_trip, fe.GetTripRequest(name=f"providers/{provider}/trips/{trip_id}"), server_token, trip_id)
    call(vehicles.delete_vehicle, fe.DeleteVehicleRequest(name=name), fe_server)
    refused(exceptions.NotFound, vehicles.get_vehicle, fe.GetVehicleRequest(name=name), server_token, car)
    status, _ = server.get(f"/v1/providers/{provider}/vehicles/{car}", server_token)
    check(status == 404, f"REST no longer finds the vehicle deleted over gRPC: {status}")
    refusals(server, vehicles, trips, provider, accounts)


def refusals(server, vehicles, trips, provider, accounts):
    """Each kind of refusal as the client's exception class."""
    server_token = server.our_token("server", provider)
    other = server.our_token("server", "someone-else")
    auto = fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO)
    vehicle = fe.Vehicle(maximum_capacity=4, vehicle_type=auto)
    create = fe.CreateVehicleRequest(parent=f"providers/{provider}", vehicle_id="spare", vehicle=vehicle)
    refused(exceptions.Unauthenticated, vehicles.create_vehicle, create, "not-a-token")
    refused(exceptions.Unauthenticated, vehicles.create_vehicle, create,
            accounts["server"].token({"vehicleid": "*"}, age=7200), "expired")
    refused(exceptions.PermissionDenied, vehicles.create_vehicle, create, other, "someone-else")
    refused(exceptions.PermissionDenied, vehicles.create_vehicle, create, server.our_token("driver", provider, vehicle="spare"),
            "may not create vehicles")
    refused(exceptions.InvalidArgument, vehicles.create_vehicle, fe.CreateVehicleRequest(
        parent=f"providers/{provider}", vehicle_id="spare", vehicle=fe.Vehicle(
            maximum_capacity=4, vehicle_type=auto,
            last_location=fe.VehicleLocation(location=point(95, 0)))), server_token, "vehicle.lastLocation.location")
    # Proto3 leaves zero values out: a state, trip types and flags at their defaults are taken
    # as those defaults, as Fleet Engine takes them; what it requires is refused by name.
    plain = strictly(call(vehicles.create_vehicle, fe.CreateVehicleRequest(
        parent=f"providers/{provider}", vehicle_id="plain", vehicle=fe.Vehicle(
            vehicle_state=fe.VehicleState.UNKNOWN_VEHICLE_STATE, supported_trip_types=[], back_to_back_enabled=False,
            maximum_capacity=2, vehicle_type=auto)), server_token))
    check(plain.vehicle_state == fe.VehicleState.UNKNOWN_VEHICLE_STATE and not plain.supported_trip_types,
          f"a vehicle created with zero values keeps them: {plain.vehicle_state} {plain.supported_trip_types}")
    refused(exceptions.InvalidArgument, vehicles.create_vehicle, fe.CreateVehicleRequest(
        parent=f"providers/{provider}", vehicle_id="no-capacity", vehicle=fe.Vehicle(vehicle_type=auto)), server_token,
        "vehicle.maximumCapacity: required field is missing")
    refused(exceptions.InvalidArgument, vehicles.create_vehicle, fe.CreateVehicleRequest(
        parent=f"providers/{provider}", vehicle_id="no-type", vehicle=fe.Vehicle(maximum_capacity=4)), server_token,
        "vehicle.vehicleType: required field is missing")
    refused(exceptions.InvalidArgument, vehicles.get_vehicle, fe.GetVehicleRequest(name="vehicles/spare"), server_token, "name")
    # Fleet Engine–shaped tokens that are not good enough, each told why.
    account = accounts["server"]
    refused(exceptions.Unauthenticated, vehicles.list_vehicles, fe.ListVehiclesRequest(parent=f"providers/{provider}"),
            account.token({}, key_id="no-such-key"), "no-such-key")
    refused(exceptions.Unauthenticated, vehicles.list_vehicles, fe.ListVehiclesRequest(parent=f"providers/{provider}"),
            account.token({}, audience="https://example.com/"), "audience")
    stranger = ServiceAccount("stranger", "server", provider)
    refused(exceptions.Unauthenticated, vehicles.list_vehicles, fe.ListVehiclesRequest(parent=f"providers/{provider}"),
            stranger.token({}), "not a service account this server knows")
    # Over the rate limit (10 a second, bursts of 100, for a driver's token).
    driver = server.our_token("driver", provider, vehicle="spare")
    get = fe.GetVehicleRequest(name=f"providers/{provider}/vehicles/spare")
    limited = None
    for _ in range(150):
        try:
            call(vehicles.get_vehicle, get, driver)
        except exceptions.NotFound:
            continue
        except exceptions.GoogleAPICallError as error:
            limited = error
            break
    check(isinstance(limited, exceptions.ResourceExhausted), f"a driver over its rate gets ResourceExhausted: {limited!r}")


def readme_example(server):
    """The README's Python example, run as written: only the demo's gRPC port becomes this
    server's, and TOKEN is a server token for the demo's provider, as the README says."""
    with open(os.path.join(ROOT, "README.md")) as f:
        readme = f.read()
    section = readme[readme.index("### gRPC"):]
    start = section.index("```python\n") + len("```python\n")
    code = section[start:section.index("```", start)]
    check(code.count("127.0.0.1:8081") == 1, "the README's example names the demo's gRPC port once")
    code = code.replace("127.0.0.1:8081", f"127.0.0.1:{server.grpc_port}")
    env = dict(os.environ, TOKEN=server.our_token("server", "demo"))
    run = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=60)
    check(run.returncode == 0 and run.stdout == "providers/demo/vehicles/car-2\n",
          f"the README's example prints what the README says: {run.returncode} {run.stdout!r} {run.stderr[-2000:]}")
    print("the README's example: done", flush=True)


def across_servers(writer, reader):
    """Two servers on one PostgreSQL database: a vehicle created through one's gRPC port is
    read at once through the other's REST and gRPC."""
    provider, car = "across", "shared-car"
    vehicles, _ = writer.clients()
    call(vehicles.create_vehicle, fe.CreateVehicleRequest(
        parent=f"providers/{provider}", vehicle_id=car, vehicle=fe.Vehicle(
            maximum_capacity=4, vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.AUTO),
            last_location=fe.VehicleLocation(location=point(60.17, 24.94)))), writer.our_token("server", provider))
    token = reader.our_token("server", provider)
    status, body = reader.get(f"/v1/providers/{provider}/vehicles/{car}", token)
    check(status == 200 and json.loads(body)["name"] == f"providers/{provider}/vehicles/{car}",
          f"the other server's REST reads the vehicle written over gRPC: {status} {body[:200]}")
    other, _ = reader.clients()
    got = call(other.get_vehicle, fe.GetVehicleRequest(name=f"providers/{provider}/vehicles/{car}"), token)
    check(abs(got.last_location.location.latitude - 60.17) < 1e-9, "the other server's gRPC reads it too")
    print("two servers on one database: done", flush=True)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("tripshare")
    parser.add_argument("--database", help="a PostgreSQL URL: two servers on it, a write on one seen on the other")
    options = parser.parse_args()
    binary = os.path.abspath(options.tripshare)
    database = None
    if options.database:
        # A schema of this run's own: the database may hold other tests' data.
        schema = "grpc_test_" + os.urandom(6).hex()
        database = options.database + ("&" if "?" in options.database else "?") + "schema=" + schema
    check_protos_match_the_client()
    cert, key = make_tls_files()
    servers = []
    try:
        for provider, tls in (("ride", None), ("ride-tls", (cert, key))):
            accounts = {role: ServiceAccount(f"{provider}-{role}", role, provider) for role in ("server", "driver", "consumer")}
            accounts_file = os.path.join(WORK, f"{provider}-accounts.json")
            with open(accounts_file, "w") as f:
                json.dump({"accounts": [a.listing() for a in accounts.values()]}, f)
            data = os.path.join(WORK, provider)
            server = ClientServer(binary, data, database=database, tls=tls, accounts_file=accounts_file)
            servers.append(server)
            ride(server, provider, accounts)
            print(f"ride over {'TLS' if tls else 'plaintext'}: done", flush=True)
            if not tls:
                readme_example(server)
        if database:
            across_servers(*servers)
    finally:
        for server in servers:
            server.stop()
    print(f"{passed()} passed, {len(FAILURES)} failed")
    if FAILURES:
        for server in servers:
            print(f"--- {server.log_path}\n" + server.log()[-4000:])
        sys.exit(1)
    shutil.rmtree(WORK, ignore_errors=True)


if __name__ == "__main__":
    main()
