package sandbox

import (
	"os/exec"
	"testing"
)

func TestSmoke(t *testing.T) {
	dir := t.TempDir()
	s, err := New(Policy{Mode: ModeWorkspace, Writable: []string{dir}, Hidden: []string{"/root/.npmrc", "/root/.cargo"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("/bin/sh", "-c", "echo hi; id; touch "+dir+"/ok && echo wrote; touch /root/x; cat /root/.npmrc; ls /root/.cargo; ls /proc | head; cat /proc/1/environ | head -c 100; ip link 2>&1; umount /root/.cargo; echo $?")
	cmd.Dir = dir
	if _, err := s.Wrap(cmd, nil); err != nil {
		t.Fatal(err)
	}
	out, err := cmd.CombinedOutput()
	t.Logf("%s\nerr=%v", out, err)
}
