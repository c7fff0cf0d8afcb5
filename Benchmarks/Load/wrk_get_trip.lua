-- wrk: GET a random trip in the JOURNEY_SHARING_V1S view with that trip's consumer token.
local entries = {}
function init(args)
  for line in io.lines(args[1]) do
    local id, token = line:match("(%S+) (%S+)")
    entries[#entries + 1] = { id = id, token = token }
  end
  math.randomseed(os.time() + tonumber(tostring({}):sub(8), 16) % 1000)
end
function request()
  local e = entries[math.random(#entries)]
  return wrk.format("GET", "/v1/providers/load/trips/" .. e.id .. "?view=JOURNEY_SHARING_V1S",
                    { ["Authorization"] = "Bearer " .. e.token })
end
