package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// webServers are the local web servers the scripts started, by script.
var webServers sync.Map // *testscript.TestScript -> *webServer

// webServer is a local web server that records what reaches it.
type webServer struct {
	srv *httptest.Server
	mu  sync.Mutex
	got []string // request URIs, in order
}

// cmdWebServer is "webserver FILE...": it starts a local web server that
// answers every request with a short page and records its URI, and writes
// its URL in place of $WEBURL in each FILE (a fake model's script that
// fetches from it).
func cmdWebServer(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("usage: webserver FILE...")
	}
	w := &webServer{}
	w.srv = httptest.NewServer(http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		w.mu.Lock()
		w.got = append(w.got, r.URL.RequestURI())
		w.mu.Unlock()
		rw.Header().Set("Content-Type", "text/plain")
		rw.Write([]byte("thanks\n"))
	}))
	ts.Defer(w.srv.Close)
	webServers.Store(ts, w)
	ts.Setenv("WEBURL", w.srv.URL)
	for _, f := range args {
		b, err := os.ReadFile(ts.MkAbs(f))
		ts.Check(err)
		ts.Check(os.WriteFile(ts.MkAbs(f), []byte(strings.ReplaceAll(string(b), "$WEBURL", w.srv.URL)), 0o644))
	}
}

// cmdWebRequests is "webrequests FILE": it writes the request URIs the
// web server received, one a line, to FILE for the script to grep.
func cmdWebRequests(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: webrequests FILE")
	}
	v, ok := webServers.Load(ts)
	if !ok {
		ts.Fatalf("webrequests: no webserver started")
	}
	w := v.(*webServer)
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	for _, g := range w.got {
		b.WriteString(g + "\n")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}
