"""A tally of checks for the client checks in IntegrationTests/clients, which print only each
failure as it happens and the counts at the end (their servers are scripts/lib/server.py's)."""

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

