-- `pnpm bench` runs wrk with this script: one JSON line with what the report needs.
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format(
    '{"requests":%d,"duration_us":%d,"p50_ms":%.2f,"p99_ms":%.2f,"bad_status":%d,"socket_errors":%d}\n',
    summary.requests, summary.duration, latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    e.status, e.connect + e.read + e.write + e.timeout))
end
