#!/bin/sh
# wordcount: an example forge plugin in POSIX shell.
#
# forge runs it with the arguments as one JSON object on standard input, and,
# for scripts like this one, each argument in FORGE_ARG_<NAME> as well. It
# answers on standard output with {"output": ..., "metadata": {...}}; plain
# text would do too. A non-zero exit status fails the call with standard
# error as the reason.
set -eu

if [ -z "${FORGE_ARG_TEXT+set}" ]; then
	echo "wordcount: no text (texts over 32 KiB come on standard input only)" >&2
	exit 2
fi
text=$FORGE_ARG_TEXT
unit=${FORGE_ARG_UNIT:-words}

words=$(printf '%s' "$text" | wc -w | tr -d ' ')
lines=$(printf '%s' "$text" | awk 'END { print NR }') # a last line without its newline counts too
characters=$(printf '%s' "$text" | wc -m | tr -d ' ')

case $unit in
words) n=$words ;;
lines) n=$lines ;;
characters) n=$characters ;;
*)
	echo "wordcount: unknown unit: $unit" >&2
	exit 2
	;;
esac

printf '{"output": "%s %s", "metadata": {"words": %s, "lines": %s, "characters": %s}}\n' \
	"$n" "$unit" "$words" "$lines" "$characters"
