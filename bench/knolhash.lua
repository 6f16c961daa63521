-- wrk script: rate knolhash's cards in turn, as its review form does (POST /review/HASH grade=N;
-- the response is the next card's front).
-- usage: wrk ... -s bench/knolhash.lua URL -- HASHFILE
local hashes, headers, i = {}, {}, 0

function init(args)
  for line in io.lines(args[1]) do table.insert(hashes, line) end
  -- A table given to wrk.format replaces wrk.headers, Host included, which net/http requires.
  for k, v in pairs(wrk.headers) do headers[k] = v end
  headers["Content-Type"] = "application/x-www-form-urlencoded"
end

function request()
  i = i + 1
  local h = hashes[(i % #hashes) + 1]
  return wrk.format("POST", "/review/" .. h, headers, "grade=" .. ((i % 4) + 1))
end
