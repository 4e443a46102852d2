package main

import (
	"bufio"
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// initCeilings are the packages whose initialisation may allocate more
// than initCeiling, with the most each may: variables that the libraries
// build when they are linked, which forge cannot defer (Markdown's parser
// and extensions, the MCP SDK's schema package, the HTML parser of
// WebFetch). The provider SDKs, whose type registrations cost more than
// all of these, are not linked: forge speaks their HTTP itself. About one and a half times
// what each allocates today; a library that grows past it, or a new
// package that builds more than initCeiling before main, fails
// TestStartupBuildsLittle.
var initCeilings = map[string]int{
	"github.com/yuin/goldmark/extension":             400_000,
	"github.com/yuin/goldmark/util":                  210_000,
	"github.com/yuin/goldmark/parser":                170_000,
	"github.com/google/jsonschema-go/jsonschema":     120_000,
	"golang.org/x/net/html":                          190_000,
	"github.com/modelcontextprotocol/go-sdk/mcp":     64_000,
	"github.com/subosito/gotenv":                     64_000,
	"github.com/charmbracelet/lipgloss":              64_000,
	"github.com/santhosh-tekuri/jsonschema/v6":       2_600_000, // compiles its metaschemas when linked: only a fork could defer it
	"github.com/rogpeppe/go-internal/testscript":     64_000,    // the test binary's own
	"github.com/modelcontextprotocol/go-sdk/oauthex": 64_000,
}

// initCeiling is what any other package's initialisation may allocate;
// forge's own packages build their tables and regular expressions when
// first used.
const (
	initCeiling      = 32_000
	forgeInitCeiling = 16_000
)

// TestStartupBuildsLittle runs commands that need no JSON Schema
// validator, Markdown renderer or provider with GODEBUG=inittrace=1 and
// checks what each package's initialisation allocated (bytes, which do
// not vary with the machine's load as times do).
func TestStartupBuildsLittle(t *testing.T) {
	forge, err := exec.LookPath("forge") // the test binary, as TestMain installs it
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	for _, args := range [][]string{{"--version"}, {"tools", "-o", "json"}} {
		cmd := exec.Command(forge, args...)
		cmd.Dir = home
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1", "HOME="+home, "XDG_CONFIG_HOME="+home,
			"XDG_STATE_HOME="+home, "XDG_CACHE_HOME="+home, "FORGE_SANDBOX_MODE=off")
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("forge %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
		}
		inits := parseInitTrace(stderr.Bytes())
		if len(inits) < 50 {
			t.Fatalf("forge %s: only %d init lines in its trace:\n%s", strings.Join(args, " "), len(inits), stderr.String())
		}
		for pkg, n := range inits {
			limit, listed := initCeilings[pkg]
			switch {
			case listed:
			case strings.HasPrefix(pkg, "github.com/forgehq/forge/"):
				limit = forgeInitCeiling
			default:
				limit = initCeiling
			}
			if n > limit {
				t.Errorf("forge %s: initialising %s allocates %d bytes, over its %d: build it on first use",
					strings.Join(args, " "), pkg, n, limit)
			}
		}
	}
}

// parseInitTrace reads the runtime's "init PKG @T ms, C ms clock, B bytes,
// A allocs" lines into bytes by package.
func parseInitTrace(trace []byte) map[string]int {
	out := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(trace))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 9 || f[0] != "init" || f[8] != "bytes," {
			continue
		}
		if n, err := strconv.Atoi(f[7]); err == nil {
			out[f[1]] += n
		}
	}
	return out
}

func TestParseInitTrace(t *testing.T) {
	got := parseInitTrace([]byte("forge dev\ninit a/b @1.0 ms, 0.5 ms clock, 1700656 bytes, 21279 allocs\n" +
		"init c @2 ms, 0 ms clock, 0 bytes, 0 allocs\ninit broken line\n"))
	if len(got) != 2 || got["a/b"] != 1700656 || got["c"] != 0 {
		t.Errorf("parseInitTrace = %v", got)
	}
}
