-- wrk: PUT a new lastLocation on a random vehicle; each vehicle carries a 500-point route
-- segment (see load_seed.py), so every update snaps, trims and re-derives its trip. Each vehicle
-- drives on along its route, 20 points (some 44 m) an update from where the warm-up left it,
-- and starts again at the route's beginning after its end, as a driver reports: a vehicle put
-- anywhere on its route at each update (as before stop 57) is a jump no driver makes, and
-- measured the search for a vehicle far from where it was rather than an update.
-- Arguments: the token file, the fleet's size, and optionally PART and PARTS: only the vehicles
-- whose number is PART modulo PARTS (load-test --affinity: each server gets its own vehicles).
local token
local steps = {}
local advance = 20
local vehicles = 10000
local part, parts = 0, 1
function init(args)
  for line in io.lines(args[1]) do token = line end
  if args[2] then vehicles = tonumber(args[2]) end
  if args[4] then part, parts = tonumber(args[3]), tonumber(args[4]) end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
end
function request()
  local i = math.random(0, math.floor((vehicles - 1 - part) / parts)) * parts + part
  local step = ((steps[i] or 0) + advance) % 499
  steps[i] = step
  local lat = 37.3 + (i % 100) * 0.002 + step * 0.00002
  local lng = -122.1 + math.floor(i / 100) * 0.002 + 0.00001 * math.sin(step / 7)
  local body = string.format('{"lastLocation":{"location":{"latitude":%.7f,"longitude":%.7f}}}', lat, lng)
  return wrk.format("PUT", "/v1/providers/load/vehicles/v" .. i .. "?updateMask=lastLocation",
                    { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end
