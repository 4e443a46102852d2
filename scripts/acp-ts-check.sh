#!/bin/sh
# Checks forge acp against a client forge did not write: the official ACP
# TypeScript SDK (npm @agentclientprotocol/sdk), driving the built binary
# through scripts/acp-ts/story.mjs (an edit approved, a command rejected,
# a command cancelled in the editor's terminal, a mode switch, a session
# loaded again) against a fake model in the same node process.
#
# Needs node (20 or later) and npm, and the network for npm install; make
# test never runs it. Usage: scripts/acp-ts-check.sh [FORGE_BINARY]
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/forge-acp-ts.XXXXXX")
trap 'rm -rf "$work"' EXIT
forge=${1:-}
if [ -z "$forge" ]; then
	forge="$work/forge"
	(cd "$root" && go build -o "$forge" ./cmd/forge)
fi
cp "$root/scripts/acp-ts/package.json" "$root/scripts/acp-ts/story.mjs" "$work/"
(cd "$work" && npm install --no-audit --no-fund --silent)
node "$work/story.mjs" "$forge"
