"""Tokens for the load and soak scripts, signed with the server's HMAC secret (HS256).

`tripshare token` mints one token per call; a load test wants thousands at once, so it mints
them here with the same claims (DESIGN §4: `role`, and `authorization` naming the provider and
the vehicle or trip)."""
import base64
import hashlib
import hmac
import json
import time


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def mint(secret, claims, lifetime=3600):
    """A JWT holding `claims`, valid for `lifetime` seconds from now, signed with `secret`
    (bytes or str)."""
    if isinstance(secret, str):
        secret = secret.encode()
    now = int(time.time())
    body = {"aud": "tripshare", "iat": now, "exp": now + lifetime, **claims}
    signing = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + _b64(json.dumps(body).encode())
    return signing + "." + _b64(hmac.new(secret, signing.encode(), hashlib.sha256).digest())


def for_role(secret, issuer, role, provider, **authorization):
    """A token of `role` for `provider`; `authorization` adds vehicleid= or tripid=."""
    return mint(secret, {"iss": issuer, "role": role, "authorization": {"provider": provider, **authorization}})
