-- wrk script: GET one path as many distinct signed-in users (round robin per thread).
-- usage: wrk -tT ... -s bench/signedin.lua URL -- COOKIEFILE T
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
end

local reqs, i = {}, 0

-- Each user's request is formatted once here: formatting it per request (a header table and
-- wrk.format each time) cost wrk about a tenth more CPU, on the two cores the server has too.
-- wrk.format drops the command line's -H headers (Accept-Encoding: gzip) when given a header
-- table of its own: copy them in, so the page is fetched the way a browser asks for it.
function init(args)
  local nthreads, n = tonumber(args[2]), 0
  for line in io.lines(args[1]) do
    if n % nthreads == tid then
      local h = {}
      for k, v in pairs(wrk.headers) do h[k] = v end
      h["Cookie"] = "rehearse_session=" .. line
      table.insert(reqs, wrk.format("GET", nil, h))
    end
    n = n + 1
  end
end

function request()
  i = i + 1
  return reqs[(i % #reqs) + 1]
end
