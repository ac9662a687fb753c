#!/usr/bin/env bash
# hwprof report in a browser: the page for a shipped trace is loaded in
# headless Chromium (Debian `chromium`, `make deps-report`); the DOM after
# its scripts ran holds every section with its SVG, and a screenshot is
# saved as OUT_PNG. Exit 77 (skipped) without chromium.
set -euo pipefail
hwprof=$1
trace=$2
png=$3
browser=$(command -v chromium || command -v chromium-browser || true)
[ -n "$browser" ] || { echo "skip: no chromium (make deps-report)"; exit 77; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/hwprof_report.XXXXXX")
trap 'rm -rf "$dir"' EXIT
fail=0
"$hwprof" -q report -o "$dir/report.html" "$trace"
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --user-data-dir="$dir/profile")
timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$dir/report.html" > "$dir/dom.html" 2> "$dir/err.txt" || true
python3 - "$dir/dom.html" <<'PY' || fail=1
import re, sys
dom = open(sys.argv[1]).read()
bad = []
for sec in ("summary", "hot-paths", "rap", "phases"):
    m = re.search(r'<section id="%s">(.*?)</section>' % sec, dom, re.S)
    if not m: bad.append("no section " + sec); continue
    body = m.group(1)
    if sec in ("hot-paths", "summary") and body.count("<tr") < 3: bad.append(sec + ": empty table")
    if sec in ("rap", "phases") and body.count("<rect") < 3: bad.append(sec + ": no SVG boxes")
if "gzip+0x" not in dom: bad.append("no symbol in the rendered page")
if bad: print("FAIL rendered DOM: " + "; ".join(bad)); sys.exit(1)
print("ok   rendered DOM: summary, hot-paths, rap (icicle), phases (timeline)")
PY
rm -f "$png"
timeout 60 "$browser" "${flags[@]}" --hide-scrollbars --window-size=1200,2200 --screenshot="$png" \
  "file://$dir/report.html" > /dev/null 2>> "$dir/err.txt" || true
if [ -s "$png" ] && [ "$(head -c 8 "$png" | od -An -tx1 | tr -d ' \n')" = "89504e470d0a1a0a" ] && \
   [ "$(stat -c %s "$png")" -gt 20000 ]; then
  echo "ok   screenshot $png ($(stat -c %s "$png") bytes)"
else
  echo "FAIL no screenshot"; cat "$dir/err.txt"; fail=1
fi
exit $fail
