package sandbox

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// seatbeltBase is what every command on macOS may do besides reading and
// writing files: run programs, signal its own, read system settings, use
// the few system services programs look up to resolve users and log.
const seatbeltBase = `(version 1)
(deny default)
(allow process-exec)
(allow process-fork)
(allow signal (target same-sandbox))
(allow process-info* (target same-sandbox))
(allow sysctl-read)
(allow ipc-posix-shm)
(allow ipc-posix-sem)
(allow pseudo-tty)
(allow file-ioctl (literal "/dev/tty") (regex #"^/dev/ttys[0-9]+$"))
(allow mach-lookup
  (global-name "com.apple.system.opendirectoryd.libinfo")
  (global-name "com.apple.system.DirectoryService.libinfo_v1")
  (global-name "com.apple.system.logger")
  (global-name "com.apple.logd")
  (global-name "com.apple.system.notification_center")
  (global-name "com.apple.PowerManagement.control")
  (global-name "com.apple.trustd.agent")
  (global-name "com.apple.SecurityServer"))
(allow file-write*
  (literal "/dev/null") (literal "/dev/zero") (literal "/dev/tty") (literal "/dev/dtracehelper")
  (regex #"^/dev/ttys[0-9]+$"))
(allow network-bind (local ip "localhost:*"))
(allow network-inbound (local ip "localhost:*"))
`

// seatbelt is a Seatbelt profile for sandbox-exec and the parameters its
// paths come in (-D NAME=VALUE): no path is ever written into the
// profile's text, so none can break out of its quotes.
type seatbelt struct {
	profile string
	params  []string // NAME=VALUE
}

// args are sandbox-exec's arguments before the command.
func (sb seatbelt) args() []string {
	out := []string{"-p", sb.profile}
	for _, p := range sb.params {
		out = append(out, "-D", p)
	}
	return out
}

// seatbeltFor is the profile of the places sp names: read everything but
// the hidden places, write in the writable places but their read-only
// parts, reach the network only at the proxy's port (0: nowhere). macOS
// has no private copies: in read-only mode the caches are read-only too.
func seatbeltFor(sp spec, proxyPort int) seatbelt {
	var sb seatbelt
	var b strings.Builder
	b.WriteString(seatbeltBase)
	param := func(kind string, i int, path string) string {
		name := fmt.Sprintf("%s_%d", kind, i)
		sb.params = append(sb.params, name+"="+path)
		return name
	}
	hidden := make([]string, 0, len(sp.HideDirs)+len(sp.HideFiles))
	for i, d := range sp.HideDirs {
		hidden = append(hidden, fmt.Sprintf(`(require-not (subpath (param "%s")))`, param("HIDDEN_DIR", i, d)))
	}
	for i, f := range sp.HideFiles {
		hidden = append(hidden, fmt.Sprintf(`(require-not (literal (param "%s")))`, param("HIDDEN_FILE", i, f)))
	}
	if len(hidden) == 0 {
		b.WriteString("(allow file-read*)\n")
	} else {
		b.WriteString("(allow file-read* (require-all\n  " + strings.Join(hidden, "\n  ") + "))\n")
	}
	var ro []string
	for i, r := range sp.ReadOnly {
		ro = append(ro, fmt.Sprintf(`(require-not (subpath (param "%s")))`, param("READ_ONLY", i, r)))
	}
	// Seatbelt has no copies to give: the caches are written in place
	// there, as README says.
	for i, w := range slices.Concat(sp.Writable, sp.Private) {
		name := param("WRITABLE", i, w)
		if len(ro) == 0 {
			fmt.Fprintf(&b, "(allow file-write* (subpath (param %q)))\n", name)
			continue
		}
		fmt.Fprintf(&b, "(allow file-write* (require-all (subpath (param %q))\n  %s))\n", name, strings.Join(ro, "\n  "))
	}
	if proxyPort > 0 {
		b.WriteString(`(allow network-outbound (remote ip "localhost:` + strconv.Itoa(proxyPort) + `"))` + "\n")
	}
	sb.profile = b.String()
	return sb
}
