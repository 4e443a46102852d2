//go:build unix

package builtin

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// bashSpillConfig is Bash's configuration with its output files in a
// directory the test removes.
func bashSpillConfig(t *testing.T) (map[string]map[string]any, string) {
	dir := t.TempDir()
	return map[string]map[string]any{"Bash": {"kill_grace": "200ms", "output_dir": dir}}, dir
}

// seqOutput is what `seq 1 n` prints.
func seqOutput(n int) []byte {
	var b bytes.Buffer
	for i := 1; i <= n; i++ {
		b.WriteString(strconv.Itoa(i))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// A call that times out returns what the command printed before the limit,
// cut at a line that says so, with the executor's timeout status and
// message.
func TestExecutorBashTimeoutKeepsOutput(t *testing.T) {
	cfg, _ := bashSpillConfig(t)
	e, _ := newTestExecutor(t, cfg)
	ec := testEC(t)
	r := runJSON(t, e, ec, "Bash", `{"command":"echo start; echo $$ > pgid; sleep 10","timeout":1000}`)
	if r.Status != tools.StatusTimedOut || r.ErrorKind != tools.KindTimeout || r.Success {
		t.Fatalf("%+v", r)
	}
	if !strings.HasPrefix(r.Error, "start\n") {
		t.Errorf("the output before the timeout is lost: %q", r.Error)
	}
	if !strings.HasSuffix(r.Error, "\n\nTool timed out after 1s") {
		t.Errorf("message %q, want it to end with the executor's", r.Error)
	}
	if !strings.Contains(r.Error, "start\n[Output cut here: the command was still running when it timed out after 1s.]") {
		t.Errorf("no cut note after the output: %q", r.Error)
	}
	if r.Metadata["timed_out"] != true || r.Metadata["pgid"] == nil {
		t.Errorf("metadata %v", r.Metadata)
	}
	waitGone(t, readPid(t, ec.WorkingDir+"/pgid"))
}

// A command with no output still times out with exactly the executor's
// message.
func TestExecutorBashTimeoutWithoutOutput(t *testing.T) {
	cfg, _ := bashSpillConfig(t)
	e, _ := newTestExecutor(t, cfg)
	r := runJSON(t, e, testEC(t), "Bash", `{"command":"sleep 10","timeout":1000}`)
	if r.Status != tools.StatusTimedOut || r.Error != "Tool timed out after 1s" {
		t.Fatalf("%+v", r)
	}
}

// Output beyond the cap is kept whole in a private file that the result
// names, for a call that ends and for one that times out.
func TestExecutorBashOutputFile(t *testing.T) {
	const n = 200000 // about 1.3 MB of lines
	want := seqOutput(n)
	cases := []struct {
		name, command string
		status        tools.Status
	}{
		{"finished", "seq 1 " + strconv.Itoa(n), tools.StatusSuccess},
		{"timed out", "seq 1 " + strconv.Itoa(n) + "; sleep 10", tools.StatusTimedOut},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg, dir := bashSpillConfig(t)
			e, _ := newTestExecutor(t, cfg)
			ec := testEC(t)
			ec.MaxOutputSize = 2000
			// Four seconds: seq must finish printing before the timeout
			// ends the sleep, also on a loaded machine.
			r := runJSON(t, e, ec, "Bash", `{"command":"`+c.command+`","timeout":4000}`)
			if r.Status != c.status {
				t.Fatalf("%+v", r)
			}
			path, _ := r.Metadata["output_file"].(string)
			if path == "" || filepath.Dir(path) != dir {
				t.Fatalf("output_file %q, want a file in %s; status %s, metadata %v, %d bytes of text", path, dir, r.Status, r.Metadata, len(r.Display()))
			}
			text := r.Display()
			if !strings.Contains(text, "[The whole output ("+strconv.Itoa(len(want))+" bytes) is in "+path+" until forge exits]") {
				t.Errorf("the result does not name the file: %q", text)
			}
			if out, _ := r.Output.(string); len(out) > ec.MaxOutputSize {
				t.Errorf("output is %d bytes, cap %d", len(out), ec.MaxOutputSize)
			}
			fi, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			if fi.Mode().Perm() != 0o600 {
				t.Errorf("mode %v, want 0600", fi.Mode().Perm())
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the file holds %d bytes, want the %d of the whole output", len(got), len(want))
			}
		})
	}
}

// Output within the cap needs no file.
func TestBashSmallOutputNoFile(t *testing.T) {
	cfg, dir := bashSpillConfig(t)
	e, _ := newTestExecutor(t, cfg)
	r := runJSON(t, e, testEC(t), "Bash", `{"command":"seq 1 10"}`)
	if !r.Success || r.Metadata["output_file"] != nil {
		t.Fatalf("%+v", r)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written: %v", ents)
	}
}

// The files that keep long outputs whole go when the registry closes, as
// forge exits, and the results said they would.
func TestBashOutputFilesRemovedOnClose(t *testing.T) {
	cfg, dir := bashSpillConfig(t)
	e, reg := newTestExecutor(t, cfg)
	ec := testEC(t)
	ec.MaxOutputSize = 2000
	var paths []string
	for range 2 {
		r := runJSON(t, e, ec, "Bash", `{"command":"seq 1 20000"}`)
		path, _ := r.Metadata["output_file"].(string)
		if _, err := os.Stat(path); err != nil || !strings.Contains(r.Display(), path+" until forge exits]") {
			t.Fatalf("no output file: %v\n%s", err, r.Display())
		}
		paths = append(paths, path)
	}
	if err := reg.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s outlives Close: %v", p, err)
		}
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files left in %s: %v", dir, ents)
	}
}
