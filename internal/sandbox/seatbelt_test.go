package sandbox

import (
	"slices"
	"strings"
	"testing"
)

func TestSeatbeltProfile(t *testing.T) {
	sp := spec{Writable: []string{"/Users/me/proj", "/private/tmp"}, ReadOnly: []string{"/Users/me/proj/.git/hooks", `/Users/me/proj/"q"`},
		HideDirs: []string{"/Users/me/.ssh"}, HideFiles: []string{"/Users/me/.npmrc"}}
	sb := seatbeltFor(sp, 4321)
	for _, want := range []string{
		"(version 1)\n(deny default)\n",
		"(allow process-exec)",
		`(allow file-read* (require-all
  (require-not (subpath (param "HIDDEN_DIR_0")))
  (require-not (literal (param "HIDDEN_FILE_0")))))`,
		`(allow file-write* (require-all (subpath (param "WRITABLE_0"))
  (require-not (subpath (param "READ_ONLY_0")))
  (require-not (subpath (param "READ_ONLY_1")))))`,
		`(allow file-write* (require-all (subpath (param "WRITABLE_1"))`,
		`(allow network-outbound (remote ip "localhost:4321"))`,
		`(literal "/dev/null")`,
	} {
		if !strings.Contains(sb.profile, want) {
			t.Errorf("the profile lacks\n%s\n---\n%s", want, sb.profile)
		}
	}
	// Connecting to a unix socket is network-outbound, denied by default:
	// nothing may allow it back.
	if strings.Contains(sb.profile, "unix-socket") || strings.Contains(sb.profile, "(allow network-outbound)") ||
		strings.Contains(sb.profile, "(allow network*)") {
		t.Errorf("the profile lets a command reach unix sockets:\n%s", sb.profile)
	}
	if strings.Contains(sb.profile, "/Users/me") {
		t.Errorf("a path is written into the profile's text:\n%s", sb.profile)
	}
	args := sb.args()
	for _, want := range []string{"WRITABLE_0=/Users/me/proj", "READ_ONLY_1=/Users/me/proj/\"q\"", "HIDDEN_DIR_0=/Users/me/.ssh"} {
		if !slices.Contains(args, want) {
			t.Errorf("args %q lack %s", args, want)
		}
	}
	if args[0] != "-p" || args[1] != sb.profile {
		t.Errorf("args start %q", args[:2])
	}

	bare := seatbeltFor(spec{}, 0)
	if !strings.Contains(bare.profile, "(allow file-read*)\n") || strings.Contains(bare.profile, "network-outbound") ||
		strings.Contains(bare.profile, "WRITABLE") || len(bare.params) != 0 {
		t.Errorf("a profile with no places or proxy:\n%s", bare.profile)
	}
}
