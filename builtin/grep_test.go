package builtin

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// grepTree makes a git repository with text, binary, hidden and ignored files.
func grepTree(t *testing.T) string {
	t.Helper()
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{
		".git/HEAD":       "needle in git\n",
		".gitignore":      "ignored/\n",
		"a.go":            "package a\n// needle one\nfunc A() {}\n// NEEDLE two\n",
		"b.txt":           "l1\nl2\nneedle\nl4\nl5\nl6\nl7\nneedle\nl9\n",
		"sub/c.go":        "needle\n",
		"bin.dat":         "needle\x00binary\n",
		"ignored/d.go":    "needle\n",
		".hidden/e.go":    "needle\n",
		"long.txt":        strings.Repeat("n", 2100) + "needle\n",
		"cross.txt":       "a\nb\n",
		"sub/zz/deep.txt": "no match here\n",
	})
	return dir
}

func TestGrep(t *testing.T) {
	dir := grepTree(t)
	p := func(rel string) string { return filepath.Join(dir, rel) }
	tests := []struct {
		name string
		args tools.Args
		want string
	}{
		{name: "files with matches, path order", args: tools.Args{"pattern": "needle"},
			want: p("a.go") + "\n" + p("b.txt") + "\n" + p("long.txt") + "\n" + p("sub/c.go")},
		{name: "case-insensitive", args: tools.Args{"pattern": "NEEDLE", "-i": true, "glob": "*.go"},
			want: p("a.go") + "\n" + p("sub/c.go")},
		{name: "type filter", args: tools.Args{"pattern": "needle", "type": "go"}, want: p("a.go") + "\n" + p("sub/c.go")},
		{name: "negated glob", args: tools.Args{"pattern": "needle", "glob": "!*.go"}, want: p("b.txt") + "\n" + p("long.txt")},
		{name: "glob with a slash", args: tools.Args{"pattern": "needle", "glob": "sub/**"}, want: p("sub/c.go")},
		{name: "content with numbers", args: tools.Args{"pattern": "needle", "output_mode": "content", "path": "b.txt"},
			want: p("b.txt") + ":3:needle\n" + p("b.txt") + ":8:needle"},
		{name: "content without numbers", args: tools.Args{"pattern": "one", "output_mode": "content", "-n": false},
			want: p("a.go") + ":// needle one"},
		{name: "context", args: tools.Args{"pattern": "needle", "output_mode": "content", "path": "b.txt", "-B": 1, "-A": 1},
			want: strings.Join([]string{p("b.txt") + "-2-l2", p("b.txt") + ":3:needle", p("b.txt") + "-4-l4", "--",
				p("b.txt") + "-7-l7", p("b.txt") + ":8:needle", p("b.txt") + "-9-l9"}, "\n")},
		{name: "context -C merges", args: tools.Args{"pattern": "needle", "output_mode": "content", "path": "b.txt", "-C": 2},
			want: strings.Join([]string{p("b.txt") + "-1-l1", p("b.txt") + "-2-l2", p("b.txt") + ":3:needle", p("b.txt") + "-4-l4", p("b.txt") + "-5-l5",
				p("b.txt") + "-6-l6", p("b.txt") + "-7-l7", p("b.txt") + ":8:needle", p("b.txt") + "-9-l9"}, "\n")},
		{name: "count", args: tools.Args{"pattern": "needle", "output_mode": "count", "-i": true},
			want: p("a.go") + ":2\n" + p("b.txt") + ":2\n" + p("long.txt") + ":1\n" + p("sub/c.go") + ":1"},
		{name: "head_limit and offset", args: tools.Args{"pattern": "needle", "head_limit": 2, "offset": 1},
			want: p("b.txt") + "\n" + p("long.txt") + "\n(1 more files not shown. Use offset=3 to see more.)"},
		{name: "hidden and ignored on request", args: tools.Args{"pattern": "needle", "hidden": true, "respect_gitignore": false, "glob": "*.go"},
			want: p(".hidden/e.go") + "\n" + p("a.go") + "\n" + p("ignored/d.go") + "\n" + p("sub/c.go")},
		{name: "long line shortened", args: tools.Args{"pattern": "needle", "output_mode": "content", "path": "long.txt"},
			want: p("long.txt") + ":1:" + strings.Repeat("n", 2000) + "… [line truncated: 2106 characters]"},
		{name: "no match across lines", args: tools.Args{"pattern": `a\sb`}, want: "No matches found"},
		{name: "anchors are per line", args: tools.Args{"pattern": `^needle$`, "output_mode": "count"},
			want: p("b.txt") + ":2\n" + p("sub/c.go") + ":1"},
		{name: "offset past the end", args: tools.Args{"pattern": "needle", "offset": 10}, want: "(offset 10 is past the end: there are 4 results)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := wantOK(t, execFile(t, dir, "Grep", tc.args)); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}

func TestGrepErrors(t *testing.T) {
	dir := grepTree(t)
	tests := []struct {
		name string
		args tools.Args
		want string
	}{
		{name: "bad regexp", args: tools.Args{"pattern": "a(b"}, want: "Invalid regular expression: missing closing ): `a(b`"},
		{name: "bad glob", args: tools.Args{"pattern": "a", "glob": "[x"}, want: "Invalid glob pattern: [x"},
		{name: "unknown type", args: tools.Args{"pattern": "a", "type": "cobol"}, want: "Unknown file type: cobol (known: c, cpp,"},
		{name: "bad mode", args: tools.Args{"pattern": "a", "output_mode": "lines"}, want: "Invalid value for output_mode"},
		{name: "missing path", args: tools.Args{"pattern": "a", "path": "nope"}, want: "Path not found: " + filepath.Join(dir, "nope")},
		{name: "nul in path", args: tools.Args{"pattern": "a", "path": "x\x00"}, want: "Invalid path"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) { wantFail(t, execFile(t, dir, "Grep", tc.args), tc.want) })
	}
}

func TestGrepDryRunCancelAndCap(t *testing.T) {
	dir := grepTree(t)
	ec := tools.NewExecutionContext(dir)
	ec.DryRun = true
	r := fileExecutor(t, nil).Execute(t.Context(), "Grep", ec, tools.Args{"pattern": "x+", "glob": "*.go"})
	if want := "[Dry Run] Would search " + dir + " (files matching *.go) for /x+/ (files_with_matches)"; r.Display() != want {
		t.Errorf("dry run %q, want %q", r.Display(), want)
	}
	tl := buildTool(t, newGrep, nil)
	wantFail(t, tl.Execute(cancelled(), tools.NewExecutionContext(dir), tools.Args{"pattern": "needle"}), "Grep cancelled")

	var b strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&b, "match %d\n", i)
	}
	writeFiles(t, dir, map[string]string{"many.txt": b.String()})
	ec = tools.NewExecutionContext(dir)
	ec.MaxOutputSize = 4000
	r = tl.Execute(t.Context(), ec, tools.Args{"pattern": `^match \d`, "output_mode": "content", "head_limit": 0})
	out := wantOK(t, r)
	if len(out) > 4000 || !strings.Contains(out, "more lines not shown. Use offset=") {
		t.Errorf("capped output: %d bytes, ends %q", len(out), out[max(0, len(out)-100):])
	}
	if r.Metadata["total"] != 5000 {
		t.Errorf("total %v", r.Metadata["total"])
	}
}

// TestGrepContentBudget searches more files than the text budget holds and
// checks that every page is still complete and in order.
func TestGrepContentBudget(t *testing.T) {
	dir := realTempDir(t)
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("f%02d.txt", i)] = "hit a\nhit b\nhit c\n"
	}
	writeFiles(t, dir, files)
	tl := buildTool(t, newGrep, nil)
	var all []string
	for off := 0; off < 120; off += 7 {
		r := tl.Execute(t.Context(), tools.NewExecutionContext(dir), tools.Args{"pattern": "hit", "output_mode": "content", "head_limit": 7, "offset": off})
		lines := strings.Split(wantOK(t, r), "\n")
		for _, l := range lines {
			if !strings.HasPrefix(l, "(") {
				all = append(all, l)
			}
		}
	}
	if len(all) != 120 {
		t.Fatalf("paged %d lines, want 120", len(all))
	}
	if !sort.StringsAreSorted(all) {
		t.Errorf("pages out of order")
	}
}

func TestGrepConfig(t *testing.T) {
	dir := grepTree(t)
	ex := fileExecutor(t, map[string]map[string]any{"Grep": {"head_limit": 1, "max_line_length": 3}})
	r := ex.Execute(t.Context(), "Grep", tools.NewExecutionContext(dir), tools.Args{"pattern": "needle", "output_mode": "content", "path": "a.go", "-i": true})
	if want := filepath.Join(dir, "a.go") + ":2:// … [line truncated: 13 characters]\n(1 more lines not shown. Use offset=1 to see more.)"; r.Display() != want {
		t.Errorf("got %q, want %q", r.Display(), want)
	}
}

// TestGrepMatchesRipgrep compares Grep's files_with_matches with `rg -l` on
// the Go source tree.
func TestGrepMatchesRipgrep(t *testing.T) {
	if testing.Short() {
		t.Skip("searches GOROOT/src three times with both tools")
	}
	rg, err := exec.LookPath("rg")
	if err != nil {
		t.Skip("ripgrep not installed")
	}
	src := gorootSrc(t)
	if raceEnabled {
		src = filepath.Join(src, "go") // the whole tree takes ten seconds under -race
	}
	tl := buildTool(t, newGrep, nil)
	ec := tools.NewExecutionContext(src)
	ec.MaxOutputSize = 1 << 30
	// Patterns with a literal start, which Go's regexp engine searches fast;
	// a case-folded or alternation pattern takes it over ten seconds.
	for _, pattern := range []string{"func main", `errors\.New\(`, `fmt\.Errorf\("[a-z]+`} {
		out, err := exec.Command(rg, "-l", "--no-messages", pattern, src).Output()
		if err != nil {
			t.Fatalf("rg %s: %v", pattern, err)
		}
		want := strings.Fields(string(out))
		sort.Strings(want)
		if len(want) == 0 {
			t.Fatalf("%s: ripgrep found nothing in %s: the comparison would prove nothing", pattern, src)
		}
		r := tl.Execute(t.Context(), ec, tools.Args{"pattern": pattern, "head_limit": 0})
		got := strings.Split(wantOK(t, r), "\n")
		sort.Strings(got)
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("%s: forge found %d files, ripgrep %d", pattern, len(got), len(want))
		}
	}
}

// FuzzGrepPattern compiles arbitrary patterns and searches arbitrary text:
// never a panic, and the lines found (through the literal fast paths and
// prefilters) are exactly those the regexp engine matches line by line.
func FuzzGrepPattern(f *testing.F) {
	for _, s := range []string{"needle", `a\sb`, "^$", "(?i)x+", "a(b", `\`, "[[:alpha:]]+", "", ".*", "TODO|FIXME", "Copy(right)+", "ks"} {
		f.Add(s, "a\nb needle\r\n\nxyz TODO COPYRIGHTRIGHT \u212a\u017f", false)
	}
	f.Add("kelvin", "\u212aELVIN", true)
	f.Fuzz(func(t *testing.T, pattern, text string, fold bool) {
		m, err := compileGrep(pattern, fold)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "Invalid regular expression: ") {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		buf := []byte(text)
		var got []string
		for from := 0; from < len(buf); {
			st, end := m.next(buf, from)
			if st < 0 {
				break
			}
			if st < from || end > len(buf) || st > end || strings.Contains(text[st:end], "\n") {
				t.Fatalf("bad line [%d,%d) from %d in %q", st, end, from, text)
			}
			got = append(got, text[st:end])
			from = end + 1
		}
		var want []string
		lines := strings.Split(text, "\n")
		if strings.HasSuffix(text, "\n") || text == "" {
			lines = lines[:len(lines)-1] // no line after the last line end; an empty text has none
		}
		for _, l := range lines {
			if m.re.MatchString(l) {
				want = append(want, l)
			}
			if m.matchLine([]byte(l)) != m.re.MatchString(l) {
				t.Fatalf("matchLine(%q) disagrees with the engine", l)
			}
		}
		if strings.Join(got, "\x00") != strings.Join(want, "\x00") || len(got) != len(want) {
			t.Fatalf("pattern %q: found %q, engine matches %q", pattern, got, want)
		}
		res := fileResult{}
		s := blockState{job: &grepJob{m: m, mode: modeContent, before: 1, after: 1, maxLine: 5}, res: &res, keep: func(int) bool { return true }, line: 1}
		s.search(buf)
	})
}

func TestRequiredLiterals(t *testing.T) {
	tests := []struct {
		pattern string
		fold    bool
		want    string // the literals, "|"-joined; "" for no prefilter
	}{
		{pattern: `Errorf\("[a-z]+`, want: `Errorf("`},
		{pattern: "TODO|FIXME", want: "TODO|FIXME"},
		{pattern: "copyright", fold: true, want: "copyright"},
		{pattern: "kelvin", fold: true, want: "elvin"},
		{pattern: "x[0-9]+y", want: ""},
		{pattern: "a|b*", want: ""},
		{pattern: "(foo)+bar", want: "foo"},
		{pattern: "(?:abc){2,}", want: "abc"},
		{pattern: "(?:abc)?", want: ""},
		{pattern: "\u00e9t\u00e9", fold: true, want: ""},
	}
	for _, tc := range tests {
		m, err := compileGrep(tc.pattern, tc.fold)
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		if m.pre != nil {
			for _, l := range m.pre.lits {
				got = append(got, string(l.text))
			}
		}
		if strings.Join(got, "|") != tc.want {
			t.Errorf("%s (fold %v): literals %q, want %q", tc.pattern, tc.fold, got, tc.want)
		}
	}
}

func BenchmarkGrepGoroot(b *testing.B) {
	src := gorootSrc(b)
	if _, err := os.Stat(src); err != nil {
		b.Skip("no GOROOT/src")
	}
	tl := buildTool(b, newGrep, nil)
	ec := tools.NewExecutionContext(src)
	for _, pattern := range []string{"func main", "TODO", `errors\.New\(`} {
		b.Run(pattern, func(b *testing.B) {
			for b.Loop() {
				if r := tl.Execute(b.Context(), ec, tools.Args{"pattern": pattern}); !r.Success {
					b.Fatal(r.Error)
				}
			}
		})
	}
}

// TestGrepBlocks searches files in blocks far smaller than the file, lines
// and block ends falling everywhere, and checks the results equal a search
// of the whole file at once.
func TestGrepBlocks(t *testing.T) {
	dir := realTempDir(t)
	var b strings.Builder
	for i := range 400 {
		fmt.Fprintf(&b, "%d %s\n", i, strings.Repeat("ab", i%37))
		if i%9 == 0 {
			b.WriteString("needle here\n")
		}
	}
	b.WriteString(strings.Repeat("z", 300) + " needle in a long last line without newline")
	writeFiles(t, dir, map[string]string{"f.txt": b.String(), "nul.txt": b.String()[:9500] + "\x00needle\n"})
	m, err := compileGrep("needle", false)
	if err != nil {
		t.Fatal(err)
	}
	run := func(mode string, block int, file string) fileResult {
		j := &grepJob{m: m, mode: mode, before: 2, after: 1, maxLine: 50, blockSize: block}
		var buf []byte
		return j.searchFile(fsutil.HostTarget(filepath.Join(dir, file)), "", func(int) bool { return true }, &buf)
	}
	// Blocks shorter than lines end; the search must still make progress.
	if r := run(modeContent, 64, "f.txt"); r.count == 0 {
		t.Error("tiny blocks found nothing")
	}
	for _, file := range []string{"f.txt", "nul.txt"} {
		for _, mode := range []string{modeContent, modeCount, modeFiles} {
			want := run(mode, 0, file)
			if want.count == 0 {
				t.Fatalf("%s %s: no match at all", file, mode)
			}
			// Context is carried across a block end while it and the partial
			// last line fill at most half a block, so blocks here hold twice
			// the longest line (343 bytes) with its context; lines longer
			// than a block are searched in pieces, a case for 16 MiB lines.
			for _, block := range []int{800, 801, 1000, 1777, 4096} {
				got := run(mode, block, file)
				if got.count != want.count || fmt.Sprint(got.lines) != fmt.Sprint(want.lines) {
					t.Errorf("%s %s, block %d: %d matches %v\nwant %d %v", file, mode, block, got.count, got.lines, want.count, want.lines)
				}
			}
		}
	}
}
