# Sourced by the load scripts that drive one release `tripshare serve` with curl and wrk
# (preview_load.sh, basemap_preview_load.sh); sets ROOT and BIN.
#   start_server PORT ARGS...   starts `serve ARGS` on PORT with a throwaway data folder (removed,
#                               and the server stopped, when the script exits), waits for /healthz,
#                               and sets BASE, SERVER (its pid), SERVER_TOKEN (provider *) and
#                               RIDER_TOKEN (trip t1 of provider p)
#   api METHOD PATH BODY        calls the API as the provider's server
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
BIN="$ROOT/.build/release/tripshare"

start_server() {
    port=$1
    shift
    DATA=$(mktemp -d)
    BASE="http://127.0.0.1:$port"
    "$BIN" serve --data-dir "$DATA" --port "$port" --grpc-port 0 "$@" >"$DATA/serve.log" 2>&1 &
    SERVER=$!
    trap 'kill $SERVER 2>/dev/null; rm -rf "$DATA"' EXIT
    for _ in $(seq 20); do curl -sf "$BASE/healthz" >/dev/null && break; sleep 0.5; done
    SERVER_TOKEN=$("$BIN" token --role server --provider '*' --data-dir "$DATA" 2>/dev/null)
    RIDER_TOKEN=$("$BIN" token --role consumer --provider p --trip t1 --data-dir "$DATA" 2>/dev/null)
}

api() { curl -sf -X "$1" -H "Authorization: Bearer $SERVER_TOKEN" -H 'Content-Type: application/json' "$BASE$2" -d "$3" >/dev/null; }
