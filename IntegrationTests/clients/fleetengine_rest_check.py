#!/usr/bin/env python3
"""Google's own Fleet Engine message types against our REST routes (issue 31).

Run by IntegrationTests/clients/fleetengine-rest-test, which installs the official client
(google-maps-fleetengine 0.6.1) in a virtual environment and passes the binary:
  fleetengine_rest_check.py BINARY

A server is started on a free port over a fresh SQLite database (scripts/lib/server.py). Official messages with every
field a client writes set are serialised twice, as protobuf's `json_format.MessageToJson`
prints them (names, defaults left out) and as proto-plus's `to_json()` prints them (enums as
integers, every default printed), and sent to the REST routes (CreateVehicle, UpdateVehicle,
UpdateVehicleAttributes, CreateTrip, UpdateTrip, GetTrip with its versions and route formats,
SearchTrips, ReportBillableTrip). Every answer is parsed into the official type with
`ignore_unknown_fields=False`, and re-serialised it must equal what was sent, field for field,
the fields the server maintains aside. Then Fleet Engine's quirks: a fractional heading is
refused naming the field.
"""
import atexit
import http.client
import json
import os
import subprocess
import sys
import urllib.parse

from google.maps import fleetengine_v1 as fe
from google.protobuf import json_format
from google.protobuf import timestamp_pb2

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "lib"))
from checklist import FAILURES, check, passed  # noqa: E402
from server import Server  # noqa: E402

binary = sys.argv[1]
PROVIDER = "official"


env = {"TRIPSHARE_JWT_SECRET": "fleet-engine-rest-check-secret-of-32-bytes-or-more"}
server = Server(binary, env=env, name="fleetengine-rest")
# The server goes with the script, however it ends.
atexit.register(server.stop)
port, data_dir = server.port, server.data_dir
token = server.token(role="server", provider=PROVIDER)


def call(method, path, body=None, query=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    if query:
        path += "?" + urllib.parse.urlencode(query)
    headers = {"Authorization": "Bearer " + token, "Content-Type": "application/json"}
    connection.request(method, "/v1/providers/" + PROVIDER + path, body=body, headers=headers)
    response = connection.getresponse()
    text = response.read().decode()
    connection.close()
    return response.status, text


# What an official client sends, serialised both ways.
def printed(cls, message, style):
    if style == "MessageToJson":
        return json_format.MessageToJson(cls.pb(message))
    return cls.to_json(message)


def without(text, *names):
    """The JSON text without top-level members bound to the path (`name`, `parent`)."""
    document = json.loads(text)
    for name in names:
        document.pop(name, None)
    return json.dumps(document)


def parse(cls, status, text, what):
    """The official message an answer parses into, strictly: an answer is pure Fleet Engine
    unless a request asks for tripshare's extensions, which none here does; None (a failure)
    otherwise."""
    check(status == 200, f"{what}: status {status}: {text[:300]}")
    if status != 200:
        return None
    try:
        return cls.wrap(json_format.Parse(text, cls.pb(cls()), ignore_unknown_fields=False))
    except json_format.ParseError as error:
        check(False, f"{what}: the official {cls.__name__} cannot read the answer: {error}: {text[:300]}")
        return None


def compare(sent, answer, skip, path, what):
    """Every field set in `sent` is in `answer` with the same value (messages field by field,
    repeated ones element by element), except the paths in `skip`."""
    compare_pb(type(sent).pb(sent), type(answer).pb(answer), skip, path, what)


def is_repeated(field):
    """Whether a field is repeated: `is_repeated` in protobuf 6 and later, `label` before."""
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == field.LABEL_REPEATED


def compare_pb(sent, answer, skip, path, what):
    for field, value in sent.ListFields():
        here = f"{path}.{field.name}" if path else field.name
        if here in skip:
            continue
        other = getattr(answer, field.name)
        if field.type == field.TYPE_MESSAGE and not is_repeated(field):
            check(answer.HasField(field.name), f"{what}: {here} is missing from the answer")
            if answer.HasField(field.name):
                compare_pb(value, other, skip, here, what)
        elif is_repeated(field):
            check(len(value) == len(other), f"{what}: {here} has {len(other)} elements, sent {len(value)}")
            for i, (a, b) in enumerate(zip(value, other)):
                if field.type == field.TYPE_MESSAGE:
                    compare_pb(a, b, skip, here, what)
                else:
                    check(a == b, f"{what}: {here}[{i}] is {b!r}, sent {a!r}")
        else:
            check(value == other, f"{what}: {here} is {other!r}, sent {value!r}")


def timestamp(seconds):
    t = timestamp_pb2.Timestamp()
    t.FromMicroseconds(int(seconds * 1_000_000))
    return t


T0 = 1_738_774_951.483
STYLES = ["MessageToJson", "to_json"]

location_fields = dict(
    location={"latitude": 37.3921, "longitude": -122.0001}, latlng_accuracy=3.5, heading=271, heading_accuracy=4.5,
    altitude=12.25, altitude_accuracy=2.5, speed=8.75, speed_accuracy=0.5, update_time=timestamp(T0),
    location_sensor=fe.LocationSensor.GPS, is_road_snapped=True, is_gps_sensor_enabled=True, time_since_update=12,
    raw_location={"latitude": 37.3922, "longitude": -122.0002}, raw_location_time=timestamp(T0 - 1),
    raw_location_sensor=fe.LocationSensor.NETWORK, raw_location_accuracy=6.5,
    flp_location={"latitude": 37.3923, "longitude": -122.0003}, flp_update_time=timestamp(T0 - 2),
    flp_latlng_accuracy_meters=7.5, flp_heading_degrees=90,
    supplemental_location={"latitude": 37.3924, "longitude": -122.0004}, supplemental_location_time=timestamp(T0 - 3),
    supplemental_location_sensor=fe.LocationSensor.CUSTOMER_SUPPLIED_LOCATION, supplemental_location_accuracy=8.5)

ROUTE = "_p~iF~ps|U_ulLnnqC_mqNvxq`@"


def vehicle_message():
    return fe.Vehicle(
        vehicle_state=fe.VehicleState.ONLINE, supported_trip_types=[fe.TripType.EXCLUSIVE, fe.TripType.SHARED],
        last_location=fe.VehicleLocation(**location_fields), maximum_capacity=4,
        attributes=[
            fe.VehicleAttribute(key="colour", string_value="black"), fe.VehicleAttribute(key="pets", bool_value=True),
            fe.VehicleAttribute(key="rating", number_value=4.5)],
        vehicle_type=fe.Vehicle.VehicleType(category=fe.Vehicle.VehicleType.Category.TAXI),
        license_plate=fe.LicensePlate(country_code="PT", last_character="7"), back_to_back_enabled=True,
        navigation_status=fe.NavigationStatus.ENROUTE_TO_DESTINATION,
        device_settings=fe.DeviceSettings(
            location_power_save_mode=fe.LocationPowerSaveMode.LOCATION_MODE_FOREGROUND_ONLY, is_power_save_mode=True,
            is_interactive=True, battery_info=fe.BatteryInfo(
                battery_status=fe.BatteryStatus.BATTERY_STATUS_CHARGING, power_source=fe.PowerSource.POWER_SOURCE_USB,
                battery_percentage=42.5)),
        current_route_segment=ROUTE,
        current_route_segment_traffic=fe.TrafficPolylineData(traffic_rendering=fe.VisualTrafficReportPolylineRendering(
            road_stretch=[fe.VisualTrafficReportPolylineRendering.RoadStretch(
                style=fe.VisualTrafficReportPolylineRendering.RoadStretch.Style.SLOWER_TRAFFIC, offset_meters=10,
                length_meters=100)])),
        remaining_distance_meters=1234, remaining_time_seconds=321)


# The fields the server maintains: names, versions, its estimates, the server time.
VEHICLE_SERVER_FIELDS = {"name", "current_trips", "waypoints", "waypoints_version", "current_route_segment_version",
                         "eta_to_first_waypoint", "last_location.server_time", "past_locations"}

for style in STYLES:
    vehicle_id = "v-" + style.lower()
    sent = vehicle_message()
    status, text = call("POST", "/vehicles", printed(fe.Vehicle, sent, style), {"vehicleId": vehicle_id})
    created = parse(fe.Vehicle, status, text, f"CreateVehicle ({style})")
    if created:
        compare(sent, created, VEHICLE_SERVER_FIELDS, "", f"CreateVehicle ({style})")
    # UpdateVehicle with every field in the mask, pastLocations too.
    update = vehicle_message()
    update.last_location.heading = 90
    update.past_locations = [fe.VehicleLocation(location={"latitude": 37.39, "longitude": -122.0}, update_time=timestamp(T0 - 30))]
    mask = ",".join(f for f in fe.Vehicle.meta.fields if f not in VEHICLE_SERVER_FIELDS | {"route", "current_route_segment_end_point"})
    mask += ",past_locations"
    status, text = call("PUT", "/vehicles/" + vehicle_id, printed(fe.Vehicle, update, style), {"updateMask": mask})
    updated = parse(fe.Vehicle, status, text, f"UpdateVehicle ({style})")
    if updated:
        compare(update, updated, VEHICLE_SERVER_FIELDS, "", f"UpdateVehicle ({style})")
    status, text = call("GET", "/vehicles/" + vehicle_id, query={"currentRouteSegmentVersion": "2020-01-01T00:00:00Z"})
    read = parse(fe.Vehicle, status, text, f"GetVehicle ({style})")
    if read:
        compare(update, read, VEHICLE_SERVER_FIELDS, "", f"GetVehicle ({style})")

    request = fe.UpdateVehicleAttributesRequest(
        header=fe.RequestHeader(sdk_version="5.1.0", platform=fe.RequestHeader.Platform.ANDROID, region_code="PT"),
        name=f"providers/{PROVIDER}/vehicles/{vehicle_id}",
        attributes=[fe.VehicleAttribute(key="colour", string_value="white"), fe.VehicleAttribute(key="seats", number_value=7)])
    status, text = call("POST", f"/vehicles/{vehicle_id}:updateAttributes",
                        without(printed(fe.UpdateVehicleAttributesRequest, request, style), "name"))
    answer = parse(fe.UpdateVehicleAttributesResponse, status, text, f"UpdateVehicleAttributes ({style})")
    if answer:
        keys = [(a.key, a.string_value, a.bool_value, a.number_value) for a in answer.attributes]
        check(keys == [("colour", "white", False, 0.0), ("pets", "", True, 0.0), ("rating", "", False, 4.5), ("seats", "", False, 7.0)],
              f"UpdateVehicleAttributes ({style}): merged by key, got {keys}")

    trip_id = "t-" + style.lower()
    trip = fe.Trip(
        vehicle_id=vehicle_id, trip_type=fe.TripType.SHARED, number_of_passengers=2,
        pickup_point=fe.TerminalLocation(point={"latitude": 37.40, "longitude": -122.0}),
        intermediate_destinations=[fe.TerminalLocation(point={"latitude": 37.41, "longitude": -122.005})],
        dropoff_point=fe.TerminalLocation(point={"latitude": 37.42, "longitude": -122.01}),
        attributes=[fe.TripAttribute(key="fare", number_value=12.5), fe.TripAttribute(key="vip", bool_value=True)])
    status, text = call("POST", "/trips", printed(fe.Trip, trip, style), {"tripId": trip_id})
    created_trip = parse(fe.Trip, status, text, f"CreateTrip ({style})")
    TRIP_SERVER_FIELDS = {"name", "trip_status", "intermediate_destinations_version", "remaining_waypoints",
                          "remaining_waypoints_version", "remaining_waypoints_route_version", "route", "current_route_segment",
                          "current_route_segment_version", "current_route_segment_traffic", "current_route_segment_traffic_version",
                          "current_route_segment_end_point", "remaining_distance_meters", "eta_to_first_waypoint",
                          "remaining_time_to_first_waypoint", "last_location", "last_location_snappable", "view", "pickup_time",
                          "dropoff_time"}
    if created_trip:
        compare(trip, created_trip, TRIP_SERVER_FIELDS, "", f"CreateTrip ({style})")
    feedback = fe.Trip(
        actual_pickup_point=fe.StopLocation(point={"latitude": 37.4001, "longitude": -122.0001}, timestamp=timestamp(T0 + 60)),
        actual_pickup_arrival_point=fe.StopLocation(point={"latitude": 37.4002, "longitude": -122.0002}, timestamp=timestamp(T0 + 50)),
        actual_intermediate_destination_arrival_points=[
            fe.StopLocation(point={"latitude": 37.41, "longitude": -122.005}, timestamp=timestamp(T0 + 300))],
        actual_intermediate_destinations=[fe.StopLocation(point={"latitude": 37.4101, "longitude": -122.0051}, timestamp=timestamp(T0 + 360))],
        actual_dropoff_point=fe.StopLocation(point={"latitude": 37.42, "longitude": -122.01}, timestamp=timestamp(T0 + 600)),
        trip_status=fe.TripStatus.ENROUTE_TO_PICKUP)
    status, text = call("PUT", "/trips/" + trip_id, printed(fe.Trip, feedback, style), {
        "update_mask": "actual_pickup_point,actual_pickup_arrival_point,actual_intermediate_destination_arrival_points,"
                       "actual_intermediate_destinations,actual_dropoff_point,trip_status"})
    updated_trip = parse(fe.Trip, status, text, f"UpdateTrip ({style})")
    if updated_trip:
        compare(feedback, updated_trip, TRIP_SERVER_FIELDS - {"trip_status"}, "", f"UpdateTrip ({style})")
    for query in [{}, {"view": "JOURNEY_SHARING_V1S"}, {"routeFormatType": "LAT_LNG_LIST_TYPE"}, {"route_format_type": "2"},
                  {"currentRouteSegmentVersion": "2020-01-01T00:00:00Z", "remainingWaypointsRouteVersion": "2020-01-01T00:00:00Z",
                   "currentRouteSegmentTrafficVersion": "2020-01-01T00:00:00Z", "remainingWaypointsVersion": "2020-01-01T00:00:00Z"}]:
        status, text = call("GET", "/trips/" + trip_id, query=query)
        read_trip = parse(fe.Trip, status, text, f"GetTrip {query} ({style})")
        if read_trip and not query:
            compare(trip, read_trip, TRIP_SERVER_FIELDS, "", f"GetTrip ({style})")
            check(read_trip.remaining_waypoints and read_trip.last_location.heading == 90,
                  f"GetTrip ({style}): the live fields come from the vehicle")

    search = fe.SearchTripsRequest(header=fe.RequestHeader(sdk_version="1.0", platform=fe.RequestHeader.Platform.WEB),
                                   vehicle_id=vehicle_id, active_trips_only=True, page_size=10)
    status, text = call("POST", "/trips:search", without(printed(fe.SearchTripsRequest, search, style), "parent"))
    found = parse(fe.SearchTripsResponse, status, text, f"SearchTrips ({style})")
    if found:
        check([t.name for t in found.trips] == [f"providers/{PROVIDER}/trips/{trip_id}"], f"SearchTrips ({style}): {found.trips}")

    report = fe.ReportBillableTripRequest(
        name=f"providers/{PROVIDER}/billableTrips/{trip_id}", country_code="PT",
        platform=fe.BillingPlatformIdentifier.ANDROID, related_ids=["ride-1"],
        solution_type=fe.ReportBillableTripRequest.SolutionType.ON_DEMAND_RIDESHARING_AND_DELIVERIES)
    for attempt in range(2):
        status, text = call("POST", f"/billableTrips/{trip_id}:report", without(printed(fe.ReportBillableTripRequest, report, style), "name"))
        check(status == 200 and json.loads(text) == {}, f"ReportBillableTrip ({style}, attempt {attempt + 1}): {status} {text}")

status, text = call("POST", "/vehicles", json.dumps({
    "vehicleState": "ONLINE", "supportedTripTypes": ["EXCLUSIVE"], "maximumCapacity": 4, "vehicleType": {"category": "AUTO"},
    "lastLocation": {"location": {"latitude": 1, "longitude": 2}, "heading": 45.5}}), {"vehicleId": "fractional"})
check(status == 400 and "vehicle.lastLocation.heading" in text, f"a fractional heading is refused naming the field: {status} {text}")
status, text = call("GET", "/vehicles/fractional")
check(status == 404, f"the refused vehicle was not created: {status}")

export = subprocess.run([binary, "billing", "export", "--data-dir", data_dir, "--since", "1h"], capture_output=True, text=True, env=server.env)
lines = [json.loads(line) for line in export.stdout.splitlines()]
check(export.returncode == 0 and [line["name"] for line in lines] == [
    f"providers/{PROVIDER}/billableTrips/t-messagetojson", f"providers/{PROVIDER}/billableTrips/t-to_json"],
    f"tripshare billing export lists each trip once: {export.stdout} {export.stderr}")

server.stop()
print(f"{passed()} passed, {len(FAILURES)} failed")
sys.exit(1 if FAILURES else 0)
