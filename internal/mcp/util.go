package mcp

import (
	"encoding/json"
	"fmt"
)

// jsonText is v as compact JSON, for messages.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
