-- wrk: GET the map tile paths listed in a file (one a line), round robin, without
-- If-None-Match (so every answer is a whole PNG): tile-load-test's tile requests.
local paths = {}
local next_path = 0
function init(args)
  for line in io.lines(args[1]) do
    if line ~= "" then paths[#paths + 1] = line end
  end
end
function request()
  next_path = next_path % #paths + 1
  return wrk.format("GET", paths[next_path])
end
