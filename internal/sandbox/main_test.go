package sandbox

import (
	"fmt"
	"io"
	"net/http"
	"os"
	"testing"
)

// TestMain lets the test binary play the parts forge plays: the sandbox's
// first process (Wrap starts this binary with InitArg), and, with
// fetchArg, an HTTP client inside the sandbox that goes through the proxy
// the environment names, as curl would.
func TestMain(m *testing.M) {
	if len(os.Args) > 1 {
		switch os.Args[1] {
		case InitArg:
			os.Exit(Init(os.Args[2:]))
		case fetchArg:
			os.Exit(fetch(os.Args[2]))
		case dialUnixArg:
			os.Exit(dialUnix(os.Args[2]))
		case socketpairArg:
			os.Exit(socketpair())
		}
	}
	os.Exit(m.Run())
}

// fetchArg makes the test binary GET a URL and print the status.
const fetchArg = "__fetch"

func fetch(url string) int {
	resp, err := http.Get(url)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<10))
	fmt.Printf("%d %s\n", resp.StatusCode, body)
	if resp.StatusCode != http.StatusOK {
		return 1
	}
	return 0
}
