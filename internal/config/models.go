package config

import (
	"fmt"
	"strings"
)

// ModelSettings are what the config says of one model: its window, and its
// price in US dollars per million tokens, for models forge does not know
// or whose price changed.
type ModelSettings struct {
	ContextWindow int     // context_window; 0 = forge's own figure
	Input         float64 // input
	CachedInput   float64 // cached_input; 0 = input's rate
	CacheWrite    float64 // cache_write; 0 = input's rate
	Output        float64 // output
	// Priced says input and output were both given: a price needs both.
	Priced bool
}

// modelFields are the keys of a models.<name> mapping.
var modelFields = []string{"context_window", "input", "cached_input", "cache_write", "output"}

// parseModels reads the models section: models.<name> mappings, names in
// lower case (providers' names are case-insensitive in practice).
func parseModels(path string, v any) (map[string]ModelSettings, []string, error) {
	models := map[string]ModelSettings{}
	if v == nil {
		return models, nil, nil
	}
	m, ok := asMap(v)
	if !ok {
		return nil, nil, fmt.Errorf("config file %s: models: want a mapping of model names to settings", path)
	}
	var warnings []string
	for _, name := range sortedKeys(m) {
		sec, ok := asMap(m[name])
		if !ok {
			return nil, nil, fmt.Errorf("config file %s: models.%s: want a mapping (context_window, input, output, ...)", path, name)
		}
		ms, w, err := parseModel(path, "models."+name, sec)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, w...)
		models[strings.ToLower(name)] = ms
	}
	return models, warnings, nil
}

// parseModel reads one models.<name> mapping.
func parseModel(path, key string, sec map[string]any) (ModelSettings, []string, error) {
	var ms ModelSettings
	var warnings []string
	prices := map[string]*float64{"input": &ms.Input, "cached_input": &ms.CachedInput, "cache_write": &ms.CacheWrite, "output": &ms.Output}
	seen := map[string]bool{}
	for _, k := range sortedKeys(sec) {
		field := strings.ToLower(k)
		if field == "context_window" {
			n, err := toInt(sec[k])
			if err == nil && n < 1000 {
				err = fmt.Errorf("must be at least 1000 tokens")
			}
			if err != nil {
				return ms, nil, &ValueError{Source: "config file " + path, Key: key + ".context_window", Value: display(sec[k]), Reason: err.Error()}
			}
			ms.ContextWindow = n
			continue
		}
		dst, ok := prices[field]
		if !ok {
			warnings = append(warnings, unknownKey(path, k, key+".", modelFields))
			continue
		}
		f, ok := toFloat(sec[k])
		if !ok || f < 0 {
			return ms, nil, &ValueError{Source: "config file " + path, Key: key + "." + field, Value: display(sec[k]),
				Reason: "want US dollars per million tokens, 0 or more"}
		}
		*dst, seen[field] = f, true
	}
	ms.Priced = seen["input"] && seen["output"]
	if (seen["input"] || seen["output"] || seen["cached_input"] || seen["cache_write"]) && !ms.Priced {
		return ms, nil, &ValueError{Source: "config file " + path, Key: key, Value: "", Reason: "a price needs both input and output"}
	}
	return ms, warnings, nil
}
