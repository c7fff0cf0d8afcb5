"""A `tripshare serve` (or `demo`) process for the system tests and the load tools: started on a
free port with a data directory, waited for until it answers, stopped with SIGTERM (killed if
it does not go), and tokens minted for it through `tripshare token`. Standard library only."""
import http.client
import os
import re
import socket
import ssl
import subprocess
import tempfile
import time


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`BINARY COMMAND --port P --data-dir D ARGS...` with its output in WORK/NAME.log.

    The port is a free one unless `port` is given; `grpc=True` opens the gRPC listener on a
    free port too (`grpc_port`), else it is off unless ARGS set `--grpc-port` (its default, the
    port + 1, may be taken). A free port may be taken by another process before the server
    binds it (other runs share the machine): then it starts again on others, up to three times.
    `ready` is the path waited for (`/healthz`; `/readyz` waits for the database too); `cwd` the
    folder it runs in (a relative data directory is in it); `tls` a (certificate, key) pair,
    probed without verifying it; `files` runs it under that open-file limit (soft and hard, as
    `prlimit --nofile` sets them). `env` entries of None are unset, and `token()` mints with the
    same environment (TRIPSHARE_JWT_SECRET)."""

    def __init__(self, binary, *args, command="serve", port=None, grpc=False, data_dir=None, work=None,
                 env=None, files=None, tls=None, ready="/healthz", cwd=None, seconds=30, name="server"):
        self.binary, self.name, self.tls, self.cwd = binary, name, tls, cwd
        self.work = work or tempfile.mkdtemp(prefix="tripshare-it-")
        self.data_dir = data_dir or os.path.join(self.work, "data")
        self.log_path = os.path.join(self.work, f"{name}.log")
        self.args = list(args) + (["--tls-cert", tls[0], "--tls-key", tls[1]] if tls else [])
        environment = dict(os.environ, **(env or {}))
        self.env = {key: value for key, value in environment.items() if value is not None}
        for _ in range(1 if port else 3):
            if self._start(command, port, grpc, files, ready, seconds):
                return
        raise RuntimeError(f"{name} could not bind its port:\n" + self.log())

    def _start(self, command, port, grpc, files, ready, seconds):
        """Starts the server; True once `ready` answers 200, False if it exited on a busy port."""
        self.port = port or free_port()
        self.grpc_port = free_port() if grpc else None
        listeners = ["--grpc-port", str(self.grpc_port or 0)] if "--grpc-port" not in self.args else []
        line = [self.binary, command, "--port", str(self.port), "--data-dir", self.data_dir, *listeners, *self.args]
        if files:
            line = ["prlimit", f"--nofile={files}:{files}", "--", *line]
        with open(self.log_path, "w") as log:
            self.process = subprocess.Popen(line, stdout=log, stderr=subprocess.STDOUT, env=self.env, cwd=self.cwd)
        self.url = f"{'https' if self.tls else 'http'}://127.0.0.1:{self.port}"
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                if "already in use" in self.log():
                    return False
                raise RuntimeError(f"{self.name} exited with {self.process.returncode} at start:\n" + self.log())
            try:
                if self._status(ready) == 200:
                    return True
            except (OSError, ssl.SSLError, http.client.HTTPException):
                pass
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"{self.name} did not answer {ready} within {seconds} s:\n" + self.log())

    def _status(self, path):
        if self.tls:
            connection = http.client.HTTPSConnection("127.0.0.1", self.port, timeout=1,
                                                     context=ssl._create_unverified_context())
        else:
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=1)
        try:
            connection.request("GET", path)
            return connection.getresponse().status
        finally:
            connection.close()

    @property
    def pid(self):
        return self.process.pid

    def log(self):
        with open(self.log_path, errors="replace") as f:
            return f.read()

    def printed(self, pattern, seconds=30):
        """The first group of the first match of `pattern` in the server's whole lines of output
        (e.g. a link the demo prints), waiting up to `seconds` for it; None if the server exits
        or the time runs out first."""
        deadline = time.monotonic() + seconds
        while True:
            finished = not self.alive() or time.monotonic() >= deadline
            output = self.log()
            match = re.search(pattern, output[:output.rfind("\n") + 1])
            if match or finished:
                return match.group(1) if match else None
            time.sleep(0.1)

    def token(self, *args, **options):
        """A token from `tripshare token` with the server's key (its data directory's secret, its
        PostgreSQL database's, or TRIPSHARE_JWT_SECRET): ARGS as given, then each option as
        `--NAME VALUE` (e.g. role="driver", provider="p", vehicle="v1"; None is left out)."""
        where = ["--data-dir", self.data_dir]
        if "--database" in self.args:
            where = ["--database", self.args[self.args.index("--database") + 1]]
        line = [self.binary, "token", *where, *args]
        for key, value in options.items():
            if value is not None:
                line += [f"--{key}", str(value)]
        return subprocess.run(line, env=self.env, cwd=self.cwd, check=True, capture_output=True, text=True).stdout.strip()

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

    def stop(self, seconds=10):
        """Asks the server to stop (SIGTERM), waits `seconds` for it, then kills it; its exit
        status."""
        if self.alive():
            self.process.terminate()
            try:
                self.process.wait(seconds)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        return self.process.returncode
