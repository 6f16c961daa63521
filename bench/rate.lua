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

local users, ncards, i, swap = {}, 0, 0, false

function init(args)
  local nthreads, n = tonumber(args[3]), 0
  for line in io.lines(args[1]) do
    if n % nthreads == tid then table.insert(users, line) end
    n = n + 1
  end
  ncards = tonumber(args[2])
  swap = args[4] == "swap"
end

function request()
  local u = users[(i % #users) + 1]
  local c = math.floor(i / #users) % ncards
  i = i + 1
  local body = string.format("card=gen-%04d&rating=%d", c, (i % 4) + 1)
  -- A table given to wrk.format replaces wrk.headers: copy them, or the command line's -H
  -- (Accept: application/json for the JSON run) is silently dropped.
  local headers = {}
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["Content-Type"] = "application/x-www-form-urlencoded"
  headers["Cookie"] = "rehearse_session=" .. u
  if swap then headers["X-Rehearse-Swap"] = "1" end
  return wrk.format("POST", "/study/answer", headers, body)
end
