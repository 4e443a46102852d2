package llm

import "fmt"

// UniqueCallIDs gives a unique ID to every call whose ID an earlier call
// of the same turn already has ("call_1" twice becomes "call_1",
// "call_1_2"), so that each result finds its call. Providers use it on
// the calls servers send.
func UniqueCallIDs(calls []ToolCall) {
	seen := make(map[string]bool, len(calls))
	for i := range calls {
		id := calls[i].ID
		for k := 2; seen[id]; k++ {
			id = fmt.Sprintf("%s_%d", calls[i].ID, k)
		}
		calls[i].ID = id
		seen[id] = true
	}
}
