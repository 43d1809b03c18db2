-- Allocation-heavy Lua workload for the massif-native benchmark: tables,
-- strings and closures, with a live set that grows and shrinks so that the
-- heap profile has a shape. Deterministic: a fixed seed, and no allocation
-- depends on pairs() order or on addresses.
--
-- usage: lua alloc.lua [ROUNDS]
local rounds = tonumber(arg and arg[1]) or 40
math.randomseed(20240607)
local random, floor, format = math.random, math.floor, string.format
local concat, insert, remove, sort = table.concat, table.insert, table.remove, table.sort

local words = {}
for i = 1, 512 do
  local n = random(3, 12)
  local cs = {}
  for j = 1, n do cs[j] = string.char(96 + random(1, 26)) end
  words[i] = concat(cs)
end

-- A record: a table with string fields, a small array and a closure that
-- captures part of it.
local function makeRecord(id)
  local name = words[random(#words)] .. "-" .. id
  local tags = {}
  for k = 1, random(1, 8) do tags[k] = words[random(#words)] end
  local weight = random() * 100
  local rec = { id = id, name = name, tags = tags, weight = weight }
  rec.describe = function(prefix)
    return format("%s%s[%d] %.3f {%s}", prefix, name, id, weight, concat(tags, ","))
  end
  return rec
end

local function churnStrings(n)
  local parts = {}
  for i = 1, n do
    local w = words[random(#words)]
    parts[#parts + 1] = w:upper() .. w:rep(random(1, 4)) .. tostring(i)
  end
  local s = concat(parts, " ")
  local count = 0
  for tok in s:gmatch("%a+") do
    if #tok > 6 then count = count + 1 end
  end
  local t = s:gsub("[aeiou]", "%0%0")
  return count + #t
end

local function makeCounters(n)
  local fs = {}
  for i = 1, n do
    local c = i
    fs[i] = function(d) c = c + d; return c end
  end
  local acc = 0
  for i = 1, n do acc = acc + fs[i](i) end
  return acc
end

local live = {}        -- records kept across rounds (the live set)
local checksum = 0
for round = 1, rounds do
  -- Grow the live set, then sort a copy of it by weight.
  for i = 1, 3000 do insert(live, makeRecord(round * 100000 + i)) end
  local byWeight = {}
  for i = 1, #live do byWeight[i] = live[i] end
  sort(byWeight, function(a, b) return a.weight < b.weight end)
  -- Descriptions: many short-lived strings.
  local lines = {}
  for i = 1, #byWeight, 3 do lines[#lines + 1] = byWeight[i].describe("> ") end
  checksum = checksum + #concat(lines, "\n")
  checksum = checksum + churnStrings(4000)
  checksum = checksum + makeCounters(5000)
  -- An index from name to record, rebuilt each round.
  local index = {}
  for i = 1, #live do index[live[i].name] = live[i] end
  checksum = checksum + (index[live[1].name] and 1 or 0)
  -- Shrink: drop a random half of the live set every fourth round.
  if round % 4 == 0 then
    local kept = {}
    for i = 1, #live do
      if random() < 0.5 then kept[#kept + 1] = live[i] end
    end
    live = kept
  end
  checksum = checksum % 1000000007
end
print(format("rounds=%d live=%d checksum=%d", rounds, #live, checksum))
