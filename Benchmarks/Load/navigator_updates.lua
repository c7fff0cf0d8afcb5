-- wrk script for Benchmarks/Load/navigator_load.py: PUT vehicle location updates along each vehicle's
-- straight east route, one vehicle after another. Vehicles are split between wrk's threads
-- so that one vehicle's updates stay in order; each update is 10 m further east and 1 s
-- later (device time) than the last, so the navigator snaps, measures and emits as on a
-- real drive. Configuration comes from the Lua file named by NAV_LOAD_CONFIG.

local cfg = dofile(os.getenv("NAV_LOAD_CONFIG"))
local thread_count = tonumber(os.getenv("NAV_LOAD_THREADS") or "1")
local next_thread = 0

function setup(thread)
    thread:set("tid", next_thread)
    next_thread = next_thread + 1
end

function init(args)
    mine = {}
    for i, v in ipairs(cfg.vehicles) do
        if (i - 1) % thread_count == tid then
            table.insert(mine, {id = v.id, lat = v.lat, lng = v.lng, dlng = v.dlng, n = 0})
        end
    end
    index = 0
    errors = 0
    headers = {["Authorization"] = "Bearer " .. cfg.token, ["Content-Type"] = "application/json"}
end

function request()
    index = index % #mine + 1
    local v = mine[index]
    v.n = v.n + 1
    local body = string.format(
        '{"lastLocation":{"location":{"latitude":%.7f,"longitude":%.7f},"heading":90,"speed":10,' ..
        '"latlngAccuracy":5,"updateTime":"%s"}}',
        v.lat, v.lng + v.n * v.dlng, os.date("!%Y-%m-%dT%H:%M:%SZ", cfg.timeBase + v.n))
    return wrk.format("PUT", "/v1/providers/" .. cfg.provider .. "/vehicles/" .. v.id .. "?updateMask=lastLocation",
        headers, body)
end

function response(status, headers, body)
    if status ~= 200 then
        errors = errors + 1
        if errors <= 3 then io.stderr:write("HTTP " .. status .. ": " .. body .. "\n") end
    end
end
