package sandbox

import (
	"slices"
	"strings"
)

// proxyVars are the variables through which programs find a proxy; the
// sandbox sets them all (both cases) or, without a proxy, none.
var proxyVars = []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"}

// withProxy is env without the proxy variables it had (a proxy of the
// person's cannot be reached from the sandbox), and with those naming
// url when it is not "", local addresses excepted.
func withProxy(env []string, url string) []string {
	out := make([]string, 0, len(env)+len(proxyVars)+2)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		if strings.EqualFold(name, "NO_PROXY") || slices.Contains(proxyVars, name) {
			continue
		}
		out = append(out, kv)
	}
	if url == "" {
		return out
	}
	for _, v := range proxyVars {
		out = append(out, v+"="+url)
	}
	return append(out, "NO_PROXY=localhost,127.0.0.1,::1", "no_proxy=localhost,127.0.0.1,::1")
}
