package llm

import (
	"strings"
	"testing"
)

func TestUniqueCallIDs(t *testing.T) {
	calls := []ToolCall{{ID: "a"}, {ID: "b"}, {ID: "a"}, {ID: "a_2"}, {ID: "a"}}
	UniqueCallIDs(calls)
	var ids []string
	for _, c := range calls {
		ids = append(ids, c.ID)
	}
	if got := strings.Join(ids, ","); got != "a,b,a_2,a_2_2,a_3" {
		t.Errorf("ids %s", got)
	}
	UniqueCallIDs(nil)
}
