-- wrk: GET every trip once, in order, in the JOURNEY_SHARING_V1S view with its consumer token,
-- then exit: load-test's warm-up, so that the measured run reads trips a server in service
-- has read before (run with one thread: -t1). wrk itself would wait out its whole duration
-- (a stopped thread does not end it), so the script ends the process once every trip has
-- been answered.
local entries = {}
local next_entry = 0
local answered = 0
function init(args)
  for line in io.lines(args[1]) do
    local id, token = line:match("(%S+) (%S+)")
    entries[#entries + 1] = { id = id, token = token }
  end
end
function request()
  next_entry = next_entry % #entries + 1
  local e = entries[next_entry]
  return wrk.format("GET", "/v1/providers/load/trips/" .. e.id .. "?view=JOURNEY_SHARING_V1S",
                    { ["Authorization"] = "Bearer " .. e.token })
end
function response(status, headers, body)
  answered = answered + 1
  if answered >= #entries then os.exit(0) end
end
