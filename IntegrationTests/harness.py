"""What the system tests in this folder share: a tally of checks, calling a server, and the
kernel's view of its connections; `Server` (`tripshare serve` on a free port, under an open-file
limit when asked, its memory, tokens through `tripshare token`) and `free_port` are
scripts/lib/server.py's, re-exported here. Standard library only."""
import http.client
import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "scripts", "lib"))
from server import Server, free_port  # noqa: E402,F401 (re-exported for the tests)

failures = []


def check(condition, message):
    """Prints the check's outcome; a failed one is remembered for `finish()`."""
    print(("ok    " if condition else "FAIL  ") + message, flush=True)
    if not condition:
        failures.append(message)
    return condition


def finish(name):
    print(f"{name}: " + ("passed" if not failures else f"FAILED ({len(failures)} checks)"), flush=True)
    sys.exit(1 if failures else 0)


def get(port, path, token=None, timeout=5):
    return call(port, "GET", path, token=token, timeout=timeout)


def call(port, method, path, body=None, token=None, timeout=5, headers=None):
    """(status, body bytes) of one request on a fresh connection."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    try:
        fields = dict(headers or {})
        if token:
            fields["Authorization"] = "Bearer " + token
        if body is not None and not isinstance(body, (bytes, str)):
            body = json.dumps(body)
        connection.request(method, path, body=body, headers=fields)
        response = connection.getresponse()
        return response.status, response.read()
    finally:
        connection.close()


def client_sockets(server_port):
    """The kernel's states of this machine's client sockets connected to `server_port`, from
    /proc/net/tcp: {local port: state}, state '01' established, '08' close-wait (the server
    closed), and so on."""
    states = {}
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = open(table).read().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            local, remote, state = fields[1], fields[2], fields[3]
            if int(remote.rsplit(":", 1)[1], 16) == server_port:
                states[int(local.rsplit(":", 1)[1], 16)] = state
    return states


def logged_sequence_numbers(port, path, token, quiet=5):
    """The sequence numbers that writers sent in the latitudes (37 + n / 10**6) of a vehicle's
    location events, read through its event stream at `path` (from the start) until the stream
    has been quiet for `quiet` seconds: the crash and outage tests' proof that no acknowledged
    update is lost."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=quiet)
    connection.request("GET", path, headers={"Authorization": "Bearer " + token})
    response = connection.getresponse()
    stored, data = set(), ""
    try:
        while True:
            line = response.fp.readline().decode()
            if not line:
                break
            if line.startswith("data: "):
                data += line[6:].strip()
            elif line == "\n" and data:
                payload = json.loads(data)
                if "location" in payload:
                    stored.add(round((payload["location"]["latitude"] - 37) * 1e6))
                data = ""
    except TimeoutError:
        pass  # quiet for `quiet` seconds: the log is read
    finally:
        connection.close()
    return stored


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")
