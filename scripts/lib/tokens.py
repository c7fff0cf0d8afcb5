"""Tokens minted in bulk, signed with the server's HMAC secret (HS256), for the load tools that
want thousands at once (load_seed.py's riders, navigator_load.py's subscribers): `tripshare
token` mints one per call, about a tenth of a second each, so these are minted here with its
claims (DESIGN §4: `role`, and `authorization` naming the provider and the vehicle or trip).
Every other token is minted through `tripshare token` (scripts/lib/server.py, `Server.token`)."""
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
