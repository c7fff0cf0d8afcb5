#!/usr/bin/env python3
"""IntegrationTests/processes/crash-test --postgres: two servers on one database take a burst of updates of one
vehicle (four writers, alternating between the servers); server A is killed with SIGKILL
mid-burst; the writers go on through B. Then every update either server acknowledged must
be in the event log, read back through B (the vehicle's event stream from the start).
Usage: crash_check_postgres.py TOKEN PORT_A PORT_B PID_A"""
import http.client, os, signal, sys, threading, time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import harness  # noqa: E402 (IntegrationTests/harness.py, found through the path above)

token, port_a, port_b, pid_a = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
headers = {"Authorization": "Bearer " + token}


def call(port, method, path, body=None):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    response.read()
    connection.close()
    return response.status


status = call(port_a, "POST", "/v1/providers/crash/vehicles?vehicleId=v1",
              '{"vehicleState":"ONLINE","supportedTripTypes":["EXCLUSIVE"],"maximumCapacity":4,"vehicleType":{"category":"AUTO"}}')
assert status == 200, status
acked, lock, killed = set(), threading.Lock(), threading.Event()


def writer(k):
    seq, sent = k, 0
    while not (killed.is_set() and sent > 200):
        port = port_a if (seq // 4) % 2 == 0 and not killed.is_set() else port_b
        body = '{"lastLocation":{"location":{"latitude":%.6f,"longitude":-122}}}' % (37 + seq * 1e-6)
        try:
            if call(port, "PUT", "/v1/providers/crash/vehicles/v1?updateMask=lastLocation", body) == 200:
                with lock:
                    acked.add(seq)
        except OSError:
            pass  # A's connection died with it: not acknowledged
        seq += 4
        sent += 1 if killed.is_set() else 0


threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
for t in threads:
    t.start()
time.sleep(3)
os.kill(pid_a, signal.SIGKILL)
killed.set()
print(f"server A killed with SIGKILL after {len(acked)} acknowledged updates; the writers go on through B")
for t in threads:
    t.join()

# Read the vehicle's whole event log through B.
stored = harness.logged_sequence_numbers(port_b, "/v1/providers/crash/vehicles/v1/events?lastEventId=0", token)
missing = sorted(acked - stored)
print(f"acknowledged {len(acked)}, stored {len(stored)}, missing {len(missing)}" + (f": {missing[:10]}" if missing else ""))
status = call(port_b, "GET", "/readyz")
print(f"B still answers: /readyz {status}")
ok = acked and not missing and status == 200
print("crash test (PostgreSQL, two servers) " + ("passed" if ok else "FAILED"))
sys.exit(0 if ok else 1)
