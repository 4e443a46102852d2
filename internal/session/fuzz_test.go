package session

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/forgehq/forge/internal/llm"
)

// FuzzReadLog feeds the loader anything: it must not panic, must refuse
// or load, and what it loads must be a conversation a provider accepts.
// The seeds run with the ordinary tests.
func FuzzReadLog(f *testing.F) {
	meta := `{"type":"meta","time":"2025-03-01T12:00:00Z","version":1,"meta":{"id":"sess_1","cwd":"/src","created":"2025-03-01T12:00:00Z"}}` + "\n"
	msg := func(m string) string { return `{"type":"message","message":` + m + "}\n" }
	seeds := []string{
		"",
		meta,
		meta + msg(`{"role":"user","text":"hi"}`) + `{"type":"message","mess`,
		meta + "garbage\n" + msg(`{"role":"assistant","text":"x"}`),
		meta + msg(`{"role":"assistant","tool_calls":[{"id":"a","name":"Read","arguments":{}}]}`),
		meta + msg(`{"role":"tool","result":{"call_id":"z","name":"Read","content":"x"}}`),
		meta + msg(`{"role":"tool","result":{"call_id":"a","name":"Read","content":""},"output":{"n":-1,"size":5,"sha256":""}}`),
		meta + msg(`{"role":"tool","result":{"call_id":"a","name":"Read","content":""},"output":{"n":3,"size":99999999999,"sha256":"x"}}`),
		meta + `{"type":"compaction","messages":[{"role":"user","text":"summary"},{"role":"tool"}]}` + "\n",
		meta + `{"type":"usage","usage":{"input_tokens":5},"cost_usd":1e308}` + "\n" + `{"type":"usage"}` + "\n",
		meta + `{"type":"event","kind":"approval","data":[1,2]}` + "\n" + `{"type":"meta","meta":{"id":"../x"}}` + "\n",
		meta + "\n\n\r\n" + msg(`{"role":"user","text":"\u0000"}`),
		meta + `{"type":"message","prompt":true,"message":{"role":"user","text":"p"}}` + "\n" +
			`{"type":"checkpoint","checkpoint":{"turn":1,"files":[{"path":"/a","before":null,"after":{"sha256":"` + strings.Repeat("ab", 32) + `","size":1,"mode":420}}]}}` + "\n" +
			`{"type":"restore","restore":{"turns":[1,7]}}` + "\n" + `{"type":"rewind","turn":1}` + "\n",
		meta + `{"type":"message","prompt":true,"message":{"role":"user","text":"p"}}` + "\n" +
			`{"type":"edit","checkpoint":{"turn":1,"seq":2,"files":[{"path":"/a","before":null,"after":null}]}}` + "\n" +
			`{"type":"checkpoint","checkpoint":{"turn":1,"seq":2,"files":[]}}` + "\n" +
			`{"type":"edit","checkpoint":{"turn":1,"seq":3,"files":[{"path":"/b","before":null,"after":null}]}}` + "\n" +
			msg(`{"role":"tool","result":{"call_id":"a","name":"Read","content":"cut"},"shown":"whole","shown_output":{"n":2,"size":5}}`),
		meta + `{"type":"checkpoint","checkpoint":{"turn":9,"files":[{"path":"../x","before":{"sha256":"../../etc/passwd"}}]}}` + "\n" +
			`{"type":"rewind","turn":-3}` + "\n" + `{"type":"rewind","turn":4}` + "\n" + `{"type":"restore"}` + "\n",
	}
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	dir := filepath.Join(f.TempDir(), "none") // no side file is there to read
	f.Fuzz(func(t *testing.T, data []byte) {
		rp, err := readLog(bytes.NewReader(data))
		if err != nil {
			return
		}
		if checkID(rp.meta.ID) != nil {
			t.Fatalf("loaded a log whose id is %q", rp.meta.ID)
		}
		if rp.end > int64(len(data)) || (rp.torn && rp.unterminated) {
			t.Fatalf("end %d of %d, torn %v unterminated %v", rp.end, len(data), rp.torn, rp.unterminated)
		}
		for _, p := range rp.hist.prompts {
			for _, c := range p.changes {
				if !filepath.IsAbs(c.Path) || (c.Before != nil && checkHash(c.Before.Hash) != nil) {
					t.Fatalf("replayed a checkpoint of %q, %+v", c.Path, c.Before)
				}
			}
		}
		msgs, _ := resolveOutputs(dir, rp.meta.ID, rp.msgs, maxLoaded)
		msgs, _ = llm.Repair(msgs)
		if _, notes := llm.Repair(msgs); len(notes) > 0 {
			t.Fatalf("loaded a conversation that still needs repair: %q", notes)
		}
		for _, m := range msgs {
			if m.Role != llm.RoleUser && m.Role != llm.RoleAssistant && m.Role != llm.RoleTool {
				t.Fatalf("loaded a %q message", m.Role)
			}
		}
	})
}

// FuzzDecodeRecordAsStdlib checks the loader's JSON decoder against the
// standard library's: a line decodes to the same record with both, or
// fails with both.
func FuzzDecodeRecordAsStdlib(f *testing.F) {
	for _, s := range []string{
		`{"type":"meta","time":"2025-03-01T12:00:00Z","version":1,"meta":{"id":"sess_1","cwd":"/src","created":"2025-03-01T12:00:00Z"}}`,
		`{"type":"message","message":{"role":"user","text":"hi \u00e9 \ud83d\ude00"}}`,
		`{"type":"message","message":{"role":"assistant","tool_calls":[{"id":"a","name":"Read","arguments":{"file_path":"x","n":1e3}}]}}`,
		`{"type":"message","message":{"role":"tool","result":{"call_id":"a","name":"Read","content":"x\n\ty","is_error":true}}}`,
		`{"type":"usage","usage":{"input_tokens":5,"output_tokens":-1},"cost_usd":1e308}`,
		`{"type":"event","kind":"approval","data":{"a":[1,2,null]}}`,
		`{"TYPE":"message","Message":{"role":"user","text":"case"}}`,
		`{"type":"message","message":{"role":"user","text":"a","text":"b"}}`,
		"{\"type\":\"message\",\"message\":{\"role\":\"user\",\"text\":\"\xff\xfe\"}}",
		`{"type":"usage","usage":{"input_tokens":1.5}}`,
		`{"type":"usage","usage":{"input_tokens":99999999999999999999}}`,
		`{"type":"meta","time":"not a time"}`,
		`{"type":"message","message":null}`,
		`[1,2]`, `"x"`, `{"type":"x"} trailing`, `{"type":"message","message":{"role":"user","text":"x"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, line []byte) {
		got, gotErr := decodeRecord(line)
		want, wantErr := decodeRecordWith(json.Unmarshal, line)
		if (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("%q: error %v, the standard library's %v", line, gotErr, wantErr)
		}
		if gotErr == nil && !reflect.DeepEqual(got, want) {
			t.Fatalf("%q:\n%#v\nthe standard library's\n%#v", line, got, want)
		}
	})
}

// The loader reuses its read buffers from batch to batch: a decoded record
// must hold copies of its strings and raw JSON, never the line's bytes.
func TestDecodedRecordsOwnTheirBytes(t *testing.T) {
	line := []byte(`{"type":"message","message":{"role":"assistant","text":"hello",` +
		`"tool_calls":[{"id":"c1","name":"Read","arguments":{"file_path":"x.go"}}]}}`)
	rec, err := decodeRecord(line)
	if err != nil {
		t.Fatal(err)
	}
	evLine := []byte(`{"type":"event","kind":"approval","data":{"allow":true}}`)
	ev, err := decodeRecord(evLine)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := decodeRecordWith(json.Unmarshal, line)
	for _, b := range [][]byte{line, evLine} {
		for i := range b {
			b[i] = 'Z'
		}
	}
	if !reflect.DeepEqual(rec, want) || string(ev.Data) != `{"allow":true}` {
		t.Errorf("decoded records changed with the line's buffer: %#v", rec)
	}
}
