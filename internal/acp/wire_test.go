package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"
)

// A line that is not a JSON-RPC message gets the error it deserves; a
// message passes on.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name, line string
		code       int // 0: passed on
		id         string
	}{
		{"request", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}`, 0, ""},
		{"notification", `{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`, 0, ""},
		{"response", `{"jsonrpc":"2.0","id":3,"result":{}}`, 0, ""},
		{"error response", `{"jsonrpc":"2.0","id":"x","error":{"code":1,"message":"m"}}`, 0, ""},
		{"notification with bad params is dropped by the SDK", `{"jsonrpc":"2.0","method":"m","params":3}`, 0, ""},
		{"not json", `hello`, codeParseError, "null"},
		{"cut json", `{"jsonrpc":"2.0","id":1,`, codeParseError, "null"},
		{"batch", `[{"jsonrpc":"2.0","id":1,"method":"m"}]`, codeInvalidRequest, "null"},
		{"a string", `"hi"`, codeInvalidRequest, "null"},
		{"object id", `{"jsonrpc":"2.0","id":{},"method":"m"}`, codeInvalidRequest, "null"},
		{"numeric method", `{"jsonrpc":"2.0","id":7,"method":5}`, codeInvalidRequest, "7"},
		{"empty object", `{}`, codeInvalidRequest, "null"},
		{"id alone", `{"jsonrpc":"2.0","id":4}`, codeInvalidRequest, "4"},
		{"params a number", `{"jsonrpc":"2.0","id":"a","method":"m","params":3}`, -32602, `"a"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			reply := check([]byte(tc.line), false)
			if tc.code == 0 {
				if reply != nil {
					t.Fatalf("answered %s", reply)
				}
				return
			}
			var e rpcError
			if err := json.Unmarshal(reply, &e); err != nil {
				t.Fatalf("reply %q: %v", reply, err)
			}
			if e.Error.Code != tc.code || string(e.ID) != tc.id || e.JSONRPC != "2.0" || e.Error.Message == "" {
				t.Errorf("reply %s, want code %d id %s", reply, tc.code, tc.id)
			}
		})
	}
}

// filter hands messages on a line each, answers the rest, and refuses a
// line past maxMessage without losing the lines after it.
func TestFilter(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":9,"method":"m","params":{"x":"` + strings.Repeat("a", maxMessage) + `"}}`
	in := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\r\n\nnope\n" + long + "\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"b\"}"
	pr, pw := io.Pipe()
	var answers bytes.Buffer
	go filter(strings.NewReader(in), pw, &answers)
	got, err := io.ReadAll(pr)
	if err != nil {
		t.Fatal(err)
	}
	want := "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"a\"}\n{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"b\"}\n"
	if string(got) != want {
		t.Errorf("passed on %q, want %q", got, want)
	}
	lines := strings.Split(strings.TrimSpace(answers.String()), "\n")
	if len(lines) != 2 || !strings.Contains(lines[0], "-32700") || !strings.Contains(lines[1], "longer than 8 MiB") {
		t.Errorf("answers:\n%s", answers.String())
	}
}

// Whatever comes in, filter never panics; each line it answers is one
// JSON-RPC error, and what it passes on is JSON.
func FuzzFilter(f *testing.F) {
	for _, s := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}`,
		`{"jsonrpc":"2.0","method":"session/cancel","params":{"sessionId":"s"}}`,
		"nope\n[1,2]\n{\"id\":null}\n",
		`{"jsonrpc":"2.0","id":1e999,"method":"x"}`,
		"\x00\xff{}\n\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		pr, pw := io.Pipe()
		var answers bytes.Buffer
		go filter(strings.NewReader(in), pw, &answers)
		passed, err := io.ReadAll(pr)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(passed))
		sc.Buffer(nil, maxMessage+1)
		for sc.Scan() {
			if !json.Valid(sc.Bytes()) {
				t.Errorf("passed on a line that is not JSON: %q", sc.Bytes())
			}
		}
		for _, line := range strings.Split(strings.TrimSpace(answers.String()), "\n") {
			var e rpcError
			if line != "" && (json.Unmarshal([]byte(line), &e) != nil || e.Error.Code == 0) {
				t.Errorf("answered with %q", line)
			}
		}
	})
}
