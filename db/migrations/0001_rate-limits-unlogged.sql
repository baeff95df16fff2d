-- Rate-limit state is rewritten on every request and worthless after a crash
-- (losing it only resets the limits), so skip the write-ahead log for it.
ALTER TABLE "rate_limits" SET UNLOGGED;
