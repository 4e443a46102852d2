package mcp

import (
	"encoding/json"
	"fmt"
	"sort"
)

func sortStrings(s []string) { sort.Strings(s) }

// jsonText is v as compact JSON, for messages.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
