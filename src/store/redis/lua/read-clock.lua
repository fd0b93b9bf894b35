#!lua flags=no-writes
-- readClock (read only): the server's clock (TIME) in epoch ms, by which beats are stamped and
-- members judged dead (docs/runtime.md "Dead members").
-- KEYS[1] base prefix
-- Returns ok now ms (as a string).
return { 'ok', tostring(store_now()), {} }
