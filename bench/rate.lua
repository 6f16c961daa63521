-- wrk script: POST /study/answer as many distinct users, each request rating a card.
-- usage: wrk -tT ... -s bench/rate.lua URL -- COOKIEFILE NCARDS T [swap]
-- With "swap", each answer asks for the next card's page in its response (X-Rehearse-Swap), as
-- the browser's study.js does.
-- COOKIEFILE holds one session token per line. Thread k takes users k, k+T, k+2T...; its
-- requests cycle through its users first and its cards second, so the requests in flight at
-- once belong to different users, and one user's concurrent requests rate different cards (no
-- request is a duplicate the server would skip: every one runs FSRS and a write transaction).
local next_tid = 0

function setup(thread)
  thread:set("tid", next_tid)
  next_tid = next_tid + 1
end

local heads, ncards, i = {}, 0, 0

-- A body is always 22 bytes ("card=gen-0042&rating=3"), so each user's request line and headers,
-- Content-Length included, are formatted once here, and a request is that head and its body.
-- Formatting every request (a header table and wrk.format each time) cost wrk CPU that the
-- server, on the same two cores, then lacked.
function init(args)
  local nthreads, n = tonumber(args[3]), 0
  ncards = tonumber(args[2])
  assert(ncards <= 10000, "rate.lua: the fixed body length needs card ids of four digits")
  local body = string.rep("x", 22)
  for line in io.lines(args[1]) do
    if n % nthreads == tid then
      -- A table given to wrk.format replaces wrk.headers: copy them, or the command line's -H
      -- (Accept: application/json for the JSON run) is silently dropped.
      local h = {}
      for k, v in pairs(wrk.headers) do h[k] = v end
      h["Content-Type"] = "application/x-www-form-urlencoded"
      h["Cookie"] = "rehearse_session=" .. line
      if args[4] == "swap" then h["X-Rehearse-Swap"] = "1" end
      local r = wrk.format("POST", "/study/answer", h, body)
      table.insert(heads, r:sub(1, #r - #body))
    end
    n = n + 1
  end
end

function request()
  local head = heads[(i % #heads) + 1]
  local c = math.floor(i / #heads) % ncards
  i = i + 1
  return head .. string.format("card=gen-%04d&rating=%d", c, (i % 4) + 1)
end
