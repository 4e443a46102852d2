package session

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

// writeRounds writes rounds of a typical session: a prompt, the model's
// two calls, an approval, two results of output bytes each, usage, and a
// closing answer: nine records a round.
func writeRounds(tb testing.TB, l *Log, rounds, output int) {
	tb.Helper()
	text := strings.Repeat("The test fails because the fixture is stale. ", 10)
	for i := range rounds {
		a, b := fmt.Sprintf("call_%d_a", i), fmt.Sprintf("call_%d_b", i)
		must(tb, l.Prompt(fmt.Sprintf("round %d: fix the failing test in internal/tools", i)))
		must(tb, l.Append(calls(a, b)))
		must(tb, l.Record("approval", map[string]any{"call": a, "decision": "allow", "rule": "Read(*)"}))
		// Outputs differ, as real ones do, so none is stored once for two.
		must(tb, l.Append(result(a, strconv.Itoa(i)+"a"+strings.Repeat("x", output))))
		must(tb, l.Append(result(b, strconv.Itoa(i)+"b"+strings.Repeat("y", output))))
		must(tb, l.Usage(llm.Usage{InputTokens: 12000, OutputTokens: 300, CacheReadTokens: 9000}, 0.004))
		must(tb, l.Append(say(text)))
		must(tb, l.Usage(llm.Usage{InputTokens: 12500, OutputTokens: 120}, 0.002))
		must(tb, l.Record("notice", "context at 41%"))
	}
}

// BenchmarkLoad10000 loads a session of 10,000 records (1,111 rounds of
// nine, 2 KB tool outputs). Target: 50 ms.
func BenchmarkLoad10000(b *testing.B) {
	s, dir := newStore(b)
	l := create(b, s, "sess_1", "/src")
	writeRounds(b, l, 10000/9, 2<<10)
	must(b, l.Close())
	fi, err := os.Stat(logPath(dir, "sess_1"))
	must(b, err)
	b.SetBytes(fi.Size())
	b.ReportAllocs()
	cpu := processCPU()
	for b.Loop() {
		st, err := s.Load("sess_1")
		if err != nil || len(st.Warnings) > 0 || st.Turns != 10000/9 {
			b.Fatalf("%v %q %d", err, st.Warnings, st.Turns)
		}
	}
	b.ReportMetric(float64(processCPU()-cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

// BenchmarkAppend appends a message with a tool call, the commonest
// record. Target: 50 µs.
func BenchmarkAppend(b *testing.B) {
	s, _ := newStore(b)
	l := create(b, s, "sess_1", "/src")
	defer l.Close()
	m := calls("call_1", "call_2")
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Append(m); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPrompt appends a prompt, which also rewrites the sidecar.
func BenchmarkPrompt(b *testing.B) {
	s, _ := newStore(b)
	l := create(b, s, "sess_1", "/src")
	defer l.Close()
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Prompt("fix the failing test"); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStepRecords records one agent step as the loop does: the
// model's message with its call, the request's usage, the tool's result.
func BenchmarkStepRecords(b *testing.B) {
	s, _ := newStore(b)
	l := create(b, s, "sess_1", "/src")
	defer l.Close()
	call := llm.ToolCall{ID: "c1", Name: "Read", Arguments: []byte(`{"file_path":"/src/go.mod"}`)}
	answer := llm.Message{Role: llm.RoleAssistant, Text: "Reading it.", ToolCalls: []llm.ToolCall{call}}
	result := llm.Message{Role: llm.RoleTool, Result: &llm.ToolResult{CallID: "c1", Content: strings.Repeat("module x\n", 40)}}
	b.ReportAllocs()
	for b.Loop() {
		if err := l.Append(answer); err != nil {
			b.Fatal(err)
		}
		if err := l.Usage(llm.Usage{InputTokens: 1200, OutputTokens: 30}, 0.001); err != nil {
			b.Fatal(err)
		}
		if err := l.Result(result, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// hundredMB writes a session whose side files hold 100 MB: 100 rounds of
// two 512 KB outputs, never compacted (the worst case: a compaction
// would leave the old outputs unread).
func hundredMB(tb testing.TB, dir string) *Store {
	s := NewStore(dir, newClock().now)
	l := create(tb, s, "sess_big", "/src")
	writeRounds(tb, l, 100, 512<<10)
	must(tb, l.Close())
	return s
}

// BenchmarkResume100MB resumes a session with 100 MB of tool output.
// Target: 1 s and 150 MB of RSS. It reports the peak RSS of a separate
// process doing one resume (VmHWM, Linux), and, as a cross-check, the
// bytes allocated in this one.
func BenchmarkResume100MB(b *testing.B) {
	dir := b.TempDir()
	s := hundredMB(b, dir)
	for _, budget := range []int64{maxLoaded, 1 << 40} {
		name := "budget=32MB"
		if budget != maxLoaded {
			name = "unbounded"
		}
		rss, rssErr := childPeakRSS(dir, budget) // once: b.Run calls the body several times
		b.Run(name, func(b *testing.B) {
			s.budget = budget
			b.ReportAllocs()
			for b.Loop() {
				l, st, err := s.Resume("sess_big")
				if err != nil || len(st.Messages) != 100*5 {
					b.Fatalf("%v, %d messages", err, len(st.Messages))
				}
				must(b, l.Close())
			}
			if rssErr != nil {
				b.Logf("peak RSS not measured: %v", rssErr)
				return
			}
			b.ReportMetric(float64(rss)/(1<<20), "peak-RSS-MB")
		})
	}
}

// childPeakRSS runs TestResumeChild in a new process of this test binary
// and returns its peak resident set in bytes.
func childPeakRSS(dir string, budget int64) (int64, error) {
	if runtime.GOOS != "linux" {
		return 0, fmt.Errorf("VmHWM is Linux's")
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestResumeChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), "FORGE_SESSION_CHILD_DIR="+dir, "FORGE_SESSION_CHILD_BUDGET="+strconv.FormatInt(budget, 10))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return 0, fmt.Errorf("%w: %s", err, out)
	}
	for line := range strings.Lines(string(out)) {
		if kb, ok := strings.CutPrefix(line, "peak-rss-kb "); ok {
			n, err := strconv.ParseInt(strings.TrimSpace(kb), 10, 64)
			return n << 10, err
		}
	}
	return 0, fmt.Errorf("no figure in %q", out)
}

// TestResumeChild is the process childPeakRSS measures: one resume of the
// session in FORGE_SESSION_CHILD_DIR, then its peak RSS. It does nothing
// in an ordinary test run.
func TestResumeChild(t *testing.T) {
	dir := os.Getenv("FORGE_SESSION_CHILD_DIR")
	if dir == "" {
		t.Skip("run by BenchmarkResume100MB")
	}
	s := NewStore(dir, newClock().now)
	s.budget, _ = strconv.ParseInt(os.Getenv("FORGE_SESSION_CHILD_BUDGET"), 10, 64)
	l, st, err := s.Resume("sess_big")
	must(t, err)
	must(t, l.Close())
	runtime.KeepAlive(st)
	f, err := os.Open("/proc/self/status")
	must(t, err)
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if kb, ok := strings.CutPrefix(sc.Text(), "VmHWM:"); ok {
			fmt.Printf("peak-rss-kb %s\n", strings.TrimSuffix(strings.TrimSpace(kb), " kB"))
		}
	}
}

// The 100 MB session resumes in one piece: the newest outputs whole, the
// oldest cut, in a separate, small test so that ordinary runs check what
// the benchmark measures.
func TestResumeBigOutputs(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB")
	}
	s := hundredMB(t, filepath.Join(t.TempDir(), "s"))
	l, st, err := s.Resume("sess_big")
	must(t, err)
	must(t, l.Close())
	var loaded, cut int
	for _, m := range st.Messages {
		if m.Role != llm.RoleTool {
			continue
		}
		if strings.Contains(m.Result.Content, "[forge: output cut") {
			cut++
		} else {
			loaded += len(m.Result.Content)
		}
	}
	whole := 200 - cut
	if loaded > maxLoaded || whole < maxLoaded/(513<<10) || whole > maxLoaded/(512<<10) || !hasWarning(st.Warnings, "were loaded cut") {
		t.Errorf("loaded %d bytes whole, %d cut, warnings %q", loaded, cut, st.Warnings)
	}
}
