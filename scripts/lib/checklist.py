"""What the system checks share: a tally of checks that prints each failure as it happens, and
a free port for a server of their own."""
import socket

FAILURES = []
_count = 0


def check(condition, what):
    """Counts one check; a failed one is printed and remembered in FAILURES."""
    global _count
    _count += 1
    if not condition:
        FAILURES.append(what)
        print("FAIL:", what, flush=True)


def passed():
    """How many checks passed so far."""
    return _count - len(FAILURES)


def free_port():
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]
