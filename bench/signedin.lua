-- wrk script: GET one path as many distinct signed-in users (round robin per thread).
-- usage: wrk -tT ... -s bench/signedin.lua URL -- COOKIEFILE T
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
end

local users, i = {}, 0

function init(args)
  local nthreads, n = tonumber(args[2]), 0
  for line in io.lines(args[1]) do
    if n % nthreads == tid then table.insert(users, line) end
    n = n + 1
  end
end

-- wrk.format drops the command line's -H headers (Accept-Encoding: gzip) when given a header
-- table of its own: copy them in, so the page is fetched the way a browser asks for it.
function request()
  i = i + 1
  local h = {}
  for k, v in pairs(wrk.headers) do h[k] = v end
  h["Cookie"] = "rehearse_session=" .. users[(i % #users) + 1]
  return wrk.format("GET", nil, h)
end
