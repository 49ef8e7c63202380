#!/usr/bin/env bash
# Replays the same 19×19 records with @sabaki/go-board (npm) and with the
# rules engine, and prints nanoseconds per move for each and the ratio.
# Usage: rules/bench/run.sh [ROUNDS]   (run from anywhere; needs node and npm)
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-20}
here=rules/bench
[ -d "$here/node_modules/@sabaki/go-board" ] || npm install --prefix "$here" --no-audit --no-fund --silent
games=$(mktemp)
trap 'rm -f "$games"' EXIT
go run ./$here export > "$games"
ours=$(go run ./$here replay "$games" "$rounds")
theirs=$(node "$here/sabaki.mjs" "$games" "$rounds")
echo "$theirs"
echo "$ours"
python3 - "$ours" "$theirs" <<'PY'
import json, sys
ours, theirs = json.loads(sys.argv[1]), json.loads(sys.argv[2])
ratio = theirs["ns_per_move"] / ours["ns_per_move"]
print(f"dankyu/rules is {ratio:.1f}x faster per move than @sabaki/go-board "
      f"({ours['ns_per_move']} ns vs {theirs['ns_per_move']} ns; "
      f"{1e9 / ours['ns_per_move'] / 1e6:.1f} million moves/s on one core)")
PY
