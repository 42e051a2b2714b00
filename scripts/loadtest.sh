#!/usr/bin/env bash
# Load test of the search API on this machine: wrk (Debian package `wrk`) sends every distinct judged
# situation and short phrasing (about 800) in turn to POST /api/recommendations (JSON body) with a
# bearer token, so no in-process cache can serve a repeat within a run.
#   usage: scripts/loadtest.sh TOKEN [BASE_URL] [CONNECTIONS] [DURATION]
# Start the server first (make run, or gunicorn evi_site.wsgi) with the per-user rate limit lifted,
# since every request comes from one token: RATE_LIMIT_SEARCHES=1000000/m. Create a token with
#   .venv/bin/python manage.py create_api_token specialist
set -euo pipefail
token=${1:?usage: scripts/loadtest.sh TOKEN [BASE_URL] [CONNECTIONS] [DURATION]}
base=${2:-http://127.0.0.1:8000}
connections=${3:-100}
duration=${4:-30s}
case "$base" in http://127.*|http://localhost*) ;; *) echo "refusing: only loopback targets" >&2; exit 2 ;; esac
cd "$(dirname "$0")/.."
script=$(mktemp --suffix=.lua)
trap 'rm -f "$script"' EXIT
.venv/bin/python - "$token" > "$script" <<'PY'
import glob, json, sys
queries = dict.fromkeys(
    json.loads(line)["query"]
    for path in sorted(glob.glob("search/eval/judged_situations*.jsonl")) + ["search/eval/short_phrasings.jsonl"]
    for line in open(path, encoding="utf-8") if line.strip()
)
bodies = [json.dumps({"query": query}, ensure_ascii=False) for query in queries]
print("local bodies = {" + ",".join(json.dumps(b, ensure_ascii=False) for b in bodies) + "}")
print("local i = 0")
print(f'wrk.headers["Authorization"] = "Bearer {sys.argv[1]}"')
print('wrk.headers["Content-Type"] = "application/json"')
print("request = function() i = i + 1; return wrk.format('POST', '/api/recommendations', nil, bodies[(i % #bodies) + 1]) end")
print("response = function(status) if status ~= 200 then io.stderr:write('status ' .. status .. '\\n') end end")
print("done = function(summary, latency, requests) io.write(string.format('p95 latency: %.1f ms\\n', latency:percentile(95) / 1000)) end")
PY
wrk --threads 2 --connections "$connections" --duration "$duration" --timeout 10s --latency --script "$script" "$base"
