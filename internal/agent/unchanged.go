package agent

import (
	"bytes"

	"github.com/forgehq/forge/internal/tools"
)

// unchanged answers p without running it when it is a file edit that
// would leave its file exactly as it is (a Write of the content the file
// has): nothing is asked, written, checkpointed or counted as changed, and
// the model is told so. It reports whether p was answered. It is called
// only once the policy has not denied p, so that the answer tells the
// model nothing about a file it may not write.
func (r *run) unchanged(p *pending) bool {
	if r.a.cfg.Exec.DryRun || p.tool == nil || p.call.Args == nil || !editsFiles(p.tool) {
		return false
	}
	c, err := tools.PreviewChange(p.tool, r.a.cfg.Exec, p.call.Args)
	if err != nil || c.Created || c.Unshown != "" || !bytes.Equal(c.Old, c.New) {
		return false
	}
	msg := "No change: " + c.Path + " already has this content; nothing was written."
	p.res = &CallResult{Status: StatusSuccess, Output: msg,
		Result: tools.OK(msg, "file_path", c.Path, "unchanged", true)}
	if r.a.cfg.ShowChanges {
		p.res.Change = &c
	}
	return true
}
