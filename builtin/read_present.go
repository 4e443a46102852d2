package builtin

import (
	"fmt"
	"strings"

	"github.com/forgehq/forge/internal/tools"
)

// readPresenter sums up a successful Read as the lines it read: the
// person has the file, and its first lines under the call would only
// repeat it.
type readPresenter struct{}

func (readPresenter) Present(_ tools.Args, res tools.Result) tools.Presentation {
	if res.Status != tools.StatusSuccess {
		return tools.Presentation{}
	}
	if mt, ok := res.Metadata["image"].(string); ok {
		w, _ := intMeta(res.Metadata, "width")
		h, _ := intMeta(res.Metadata, "height")
		return tools.Presentation{Brief: fmt.Sprintf("%s image, %d×%d", strings.TrimPrefix(mt, "image/"), w, h)}
	}
	lines, ok := intMeta(res.Metadata, "lines")
	if !ok {
		return tools.Presentation{}
	}
	total, whole := intMeta(res.Metadata, "total_lines")
	offset, _ := intMeta(res.Metadata, "offset")
	switch {
	case lines == 0:
		return tools.Presentation{Brief: "empty file"}
	case offset == 0 && whole && total == lines:
		return tools.Presentation{Brief: plural(lines, "line")}
	case whole:
		return tools.Presentation{Brief: fmt.Sprintf("lines %d-%d of %d", offset+1, offset+lines, total)}
	}
	return tools.Presentation{Brief: fmt.Sprintf("lines %d-%d", offset+1, offset+lines)}
}

// intMeta reads an integer of a result's metadata.
func intMeta(md map[string]any, key string) (int, bool) {
	switch v := md[key].(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	}
	return 0, false
}
