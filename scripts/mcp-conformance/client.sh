#!/bin/sh
# The client the MCP conformance suite drives: forge, as a person would
# use it, against the suite's server at URL (the last argument), for the
# scenario in $MCP_CONFORMANCE_SCENARIO. It configures the server as
# mcp.servers.t, logs in when the scenario is about authorization (the
# "browser" is curl following the authorization page's redirect to
# forge's loopback listener), lists the tools and calls each one, answering
# an elicitation by accepting its defaults. $FORGE is the binary.
set -u
url=$(eval echo "\${$#}")
home=$(mktemp -d "${TMPDIR:-/tmp}/forge-conf-client.XXXXXX")
trap 'rm -rf "$home"' EXIT
export HOME="$home" XDG_CONFIG_HOME="$home/config" XDG_STATE_HOME="$home/state" XDG_CACHE_HOME="$home/cache" XDG_DATA_HOME="$home/data"
mkdir -p "$XDG_CONFIG_HOME/forge"
# A pre-registered client's credentials come in the scenario's context.
ctx=${MCP_CONFORMANCE_CONTEXT:-}
oauth=""
if [ -n "$ctx" ]; then
	id=$(printf '%s' "$ctx" | sed -n 's/.*"client_id" *: *"\([^"]*\)".*/\1/p')
	secret=$(printf '%s' "$ctx" | sed -n 's/.*"client_secret" *: *"\([^"]*\)".*/\1/p')
	[ -n "$id" ] && oauth="      oauth: {client_id: \"$id\"${secret:+, client_secret: \"$secret\"}}"
fi
{
	echo "mcp:"
	echo "  servers:"
	echo "    t:"
	echo "      url: \"$url\""
	[ -n "$oauth" ] && echo "$oauth"
} >"$XDG_CONFIG_HOME/forge/config.yaml"

# browse follows, as a browser would, every authorization address forge
# prints on the file $1 (its standard error), until forge ($2) exits.
browse() {
	seen=0
	while :; do
		n=0
		for u in $(sed -n 's/^  \(https\{0,1\}:\/\/[^ ]*\)$/\1/p' "$1"); do
			n=$((n + 1))
			if [ "$n" -gt "$seen" ]; then
				seen=$n
				curl -sSL -o /dev/null "$u"
			fi
		done
		kill -0 "$2" 2>/dev/null || return 0
		sleep 0.1
	done
}

auth=false
case "${MCP_CONFORMANCE_SCENARIO:-}" in
auth/*) auth=true ;;
esac

if $auth; then
	# One shell logs in and then calls, so that a server asking for more
	# scopes in the middle of a call gets the person who logged in (and
	# the scopes granted at the login are the ones stepped up from). The
	# tools are listed, with the stored login, once the shell is logged in.
	mkfifo "$home/in"
	"$FORGE" <"$home/in" >"$home/shell.out" 2>"$home/shell.err" &
	pid=$!
	browse "$home/shell.err" "$pid" &
	browser=$!
	exec 3>"$home/in"
	echo "/mcp login t" >&3
	while kill -0 "$pid" 2>/dev/null && ! grep -q "MCP server t" "$home/shell.out" && ! grep -qi "error" "$home/shell.err"; do
		sleep 0.1
	done
	tools=$("$FORGE" mcp list -o json 3>&- | grep -o '"remote" *: *"[^"]*"' | cut -d'"' -f4)
	for tool in $tools; do echo "/run mcp__t__$tool" >&3; done
	exec 3>&-
	wait "$pid"
	wait "$browser"
	cat "$home/shell.err" >&2
	exit 0
fi
tools=$("$FORGE" mcp list -o json | grep -o '"remote" *: *"[^"]*"' | cut -d'"' -f4)
for tool in $tools; do
	case "$tool" in
	add_numbers) printf '' | "$FORGE" run "mcp__t__$tool" a=2 b=3 ;;
	*) printf 'y\n\n\n\n\n\n\n\n' | "$FORGE" run "mcp__t__$tool" ;;
	esac
done
exit 0
