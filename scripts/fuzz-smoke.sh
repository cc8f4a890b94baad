#!/usr/bin/env bash
# Runs every Go fuzz target of the repository briefly, one after another:
#
#   go test -run='^$' -fuzz='^FuzzX$' -fuzztime=$FUZZTIME ./pkg
#
# Targets are found by grepping *_test.go files for "func FuzzX(f
# *testing.F)", so a new target is picked up without editing this script.
# FUZZTIME (default 10s) is per target; with the seven targets of today the
# whole run takes about 1.5 minutes on 2 cores. A crash makes `go test`
# write the failing input to the package's testdata/fuzz/FuzzX/ (commit it:
# it becomes a regression test that plain `go test ./...` runs); the script
# goes on with the other targets, prints a summary and exits non-zero if any
# target failed.
#
# Usage: scripts/fuzz-smoke.sh [PACKAGE_DIR...]   (default: ./internal ./cmd ./test)
set -uo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.." || exit 1

FUZZTIME=${FUZZTIME:-10s}
dirs=("$@")
if ((${#dirs[@]} == 0)); then
	dirs=()
	for d in ./internal ./cmd ./test; do
		[[ -d $d ]] && dirs+=("$d")
	done
fi

failed=()
ran=0
while IFS=: read -r file target; do
	pkg="./$(dirname "${file#./}")"
	echo "=== fuzz $pkg $target ($FUZZTIME)"
	ran=$((ran + 1))
	if ! go test -run='^$' -fuzz="^${target}\$" -fuzztime="$FUZZTIME" "$pkg"; then
		failed+=("$pkg $target")
	fi
done < <(grep -rEo --include='*_test.go' '^func (Fuzz[A-Za-z0-9_]*)\(f \*testing\.F\)' "${dirs[@]}" |
	sed -E 's/^([^:]*):func (Fuzz[A-Za-z0-9_]*).*/\1:\2/' | sort)

echo
if ((ran == 0)); then
	echo "fuzz-smoke: no fuzz targets found"
	exit 1
fi
if ((${#failed[@]} > 0)); then
	echo "fuzz-smoke: ${#failed[@]} of $ran targets FAILED:"
	printf '  %s\n' "${failed[@]}"
	exit 1
fi
echo "fuzz-smoke: all $ran targets passed"
