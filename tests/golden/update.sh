#!/bin/sh
# Regenerate tests/golden/*.json from tests/golden/cases with the given (or built) meshcast.
#   sh tests/golden/update.sh [path/to/meshcast]
# Check every changed value by hand against its closed form before committing (README.md).
cd "$(dirname "$0")/../.." || exit 2
M=${1:-${MESHCAST:-./build/meshcast}}
[ -x "$M" ] || { echo "update.sh: no meshcast at $M (make first)" >&2; exit 2; }
grep -v '^#' tests/golden/cases | while read -r name args; do
    [ -z "$name" ] && continue
    # shellcheck disable=SC2086
    if ! "$M" run $args --json >"tests/golden/$name.json.new"; then
        echo "update.sh: $name: run failed or did not verify" >&2
        rm -f "tests/golden/$name.json.new"
        continue
    fi
    mv "tests/golden/$name.json.new" "tests/golden/$name.json"
    echo "$name: total $(jq -r .cost.total "tests/golden/$name.json") predicted $(jq -r .predicted "tests/golden/$name.json")"
done
