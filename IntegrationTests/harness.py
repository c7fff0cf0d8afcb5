"""What the system tests in this folder share: starting `tripshare serve` on a free port (under
an open-file limit when asked), minting tokens, calling it, and reading the process's memory and
the kernel's view of its connections. Standard library only."""
import http.client
import json
import os
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """A `tripshare serve` process on a free port; `files` runs it under that open-file limit
    (soft and hard, as `prlimit --nofile` sets them); `env` entries of None are unset."""

    def __init__(self, binary, *args, files=None, data_dir=None, env=None, name="server"):
        self.binary, self.name = binary, name
        self.work = tempfile.mkdtemp(prefix="tripshare-it-")
        self.data_dir = data_dir or os.path.join(self.work, "data")
        self.log_path = os.path.join(self.work, f"{name}.log")
        self.args = args
        # A free port may be taken by another process before the server binds it (other test
        # runs share the machine): then it starts again on another.
        for _ in range(3):
            if self._start(files, env):
                return
        raise RuntimeError(f"{name} exited at start:\n" + self.log())

    def _start(self, files, env):
        """Starts the server on a free port; True once it answers, False if it exited."""
        self.port = free_port()
        # No gRPC listener unless a test asks for one: its default port, ours + 1, may be taken.
        grpc = [] if "--grpc-port" in self.args else ["--grpc-port", "0"]
        command = [self.binary, "serve", "--port", str(self.port), "--data-dir", self.data_dir, *grpc, *self.args]
        if files:
            command = ["prlimit", f"--nofile={files}:{files}", "--", *command]
        environment = dict(os.environ, **(env or {}))
        environment = {key: value for key, value in environment.items() if value is not None}
        self.process = subprocess.Popen(command, stdout=open(self.log_path, "w"), stderr=subprocess.STDOUT, env=environment)
        name = self.name
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if "already in use" in self.log():
                    return False
                raise RuntimeError(f"{name} exited at start:\n" + self.log())
            try:
                if get(self.port, "/healthz", timeout=1)[0] == 200:
                    return True
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"{name} did not start:\n" + self.log())

    @property
    def pid(self):
        return self.process.pid

    def log(self):
        return open(self.log_path).read()

    def token(self, *args):
        where = ["--data-dir", self.data_dir]
        if "--database" in self.args:
            where = ["--database", self.args[self.args.index("--database") + 1]]
        return subprocess.check_output([self.binary, "token", *where, *args], text=True).strip()

    def rss_mb(self):
        """The server's resident memory, in MB (0 once it has exited)."""
        try:
            for line in open(f"/proc/{self.pid}/status"):
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
        except FileNotFoundError:
            pass
        return 0

    def alive(self):
        return self.process.poll() is None

    def stop(self):
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode


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
