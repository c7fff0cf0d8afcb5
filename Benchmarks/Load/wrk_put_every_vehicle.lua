-- wrk: PUT a lastLocation on every vehicle once, in order, then exit: load-test's warm-up
-- before the measured PUT run, so that it measures updates of vehicles a server in service
-- has seen before (each vehicle's first update since the server started decodes its row and
-- reads its whole route; a fleet reporting every few seconds pays that once per restart).
-- Run with one thread (-t1); as wrk_get_every_trip.lua, it ends the process once every
-- vehicle's update has been answered. The positions are wrk_put_vehicle.lua's first; PART and
-- PARTS, as there, limit it to the vehicles whose number is PART modulo PARTS.
local token
local vehicles = 10000
local part, parts = 0, 1
local count
local next_vehicle = -1
local answered = 0
function init(args)
  for line in io.lines(args[1]) do token = line end
  if args[2] then vehicles = tonumber(args[2]) end
  if args[4] then part, parts = tonumber(args[3]), tonumber(args[4]) end
  count = math.floor((vehicles - 1 - part) / parts) + 1
end
function request()
  next_vehicle = (next_vehicle + 1) % count
  local i = next_vehicle * parts + part
  local lat = 37.3 + (i % 100) * 0.002
  local lng = -122.1 + math.floor(i / 100) * 0.002
  local body = string.format('{"lastLocation":{"location":{"latitude":%.7f,"longitude":%.7f}}}', lat, lng)
  return wrk.format("PUT", "/v1/providers/load/vehicles/v" .. i .. "?updateMask=lastLocation",
                    { ["Authorization"] = "Bearer " .. token, ["Content-Type"] = "application/json" }, body)
end
function response(status, headers, body)
  answered = answered + 1
  if answered >= count then os.exit(0) end
end
