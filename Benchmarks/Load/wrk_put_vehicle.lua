-- wrk: PUT a new lastLocation on a random vehicle; each vehicle carries a 500-point route
-- segment (see load_seed.py), so every update snaps, trims and re-derives its trip.
local token
local step = 0
local vehicles = 10000
function init(args)
  for line in io.lines(args[1]) do token = line end
  if args[2] then vehicles = tonumber(args[2]) end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
end
function request()
  local i = math.random(0, vehicles - 1)
  step = (step + 1) % 499
  local lat = 37.3 + (i % 100) * 0.002 + step * 0.00002
  local lng = -122.1 + math.floor(i / 100) * 0.002 + 0.00001 * math.sin(step / 7)
  local body = string.format('{"lastLocation":{"location":{"latitude":%.7f,"longitude":%.7f}}}', lat, lng)
  return wrk.format("PUT", "/v1/providers/load/vehicles/v" .. i .. "?updateMask=lastLocation",
                    { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end
