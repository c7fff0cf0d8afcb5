"""A `tripshare serve` process for the load and soak scripts: started on a port and a data
directory, waited for until `/healthz` answers, stopped with SIGTERM (killed if it does not go).
"""
import os
import signal
import subprocess
import time
import urllib.request


def start(binary, port, work, *options, env=None, seconds=10):
    """Starts `binary serve --port PORT --data-dir WORK OPTIONS...` with its log in
    WORK/server.log and returns the process once `/healthz` answers; raises if the server exits
    or does not answer within `seconds`."""
    log = open(os.path.join(work, "server.log"), "w")
    grpc = [] if "--grpc-port" in options else ["--grpc-port", "0"]  # its default, port + 1, may be taken
    process = subprocess.Popen([binary, "serve", "--port", str(port), "--data-dir", work, *grpc, *options],
                               env=env, stdout=subprocess.DEVNULL, stderr=log)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}: see {log.name}")
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2)
            return process
        except OSError:
            time.sleep(0.1)
    stop(process)
    raise RuntimeError(f"the server did not answer /healthz within {seconds} s: see {log.name}")


def stop(process, seconds=30):
    """Asks the server to stop (SIGTERM) and waits `seconds` for it, then kills it."""
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(timeout=seconds)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()
