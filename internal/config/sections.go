package config

import (
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"

	"golang.org/x/net/http/httpguts"
)

// parseTools reads the tools section: tools.<Name> mappings, names kept as written.
// Each section's rate, when present, is checked here so Rate never meets a bad one,
// and so are the keys of the tools that settings knows.
func parseTools(path string, v any, settings toolSettings) (map[string]map[string]any, []string, error) {
	tools := map[string]map[string]any{}
	if v == nil {
		return tools, nil, nil
	}
	m, ok := asMap(v)
	if !ok {
		return nil, nil, fmt.Errorf("config file %s: tools: want a mapping of tool names to sections", path)
	}
	var warnings []string
	folded := map[string]string{}
	for _, name := range sortedKeys(m) {
		sec, ok := asMap(m[name])
		if !ok {
			return nil, nil, fmt.Errorf("config file %s: tools.%s: want a mapping of settings", path, name)
		}
		if prev, dup := folded[strings.ToLower(name)]; dup {
			warnings = append(warnings, fmt.Sprintf(
				"config file %s: tools.%s and tools.%s differ only in case; a tool named in another case gets tools.%s",
				path, prev, name, prev))
		} else {
			folded[strings.ToLower(name)] = name
		}
		if rv, ok := lookupFold(sec, "rate"); ok && rv != nil {
			_, w, err := parseRate(rv)
			if err != nil {
				return nil, nil, fmt.Errorf("config file %s: tools.%s.rate: %w", path, name, err)
			}
			for _, k := range w {
				warnings = append(warnings, unknownKey(path, k, "tools."+name+".rate.", rateFields))
			}
		}
		w, err := checkToolSection(path, name, sec, settings)
		if err != nil {
			return nil, nil, err
		}
		warnings = append(warnings, w...)
		tools[name] = sec
	}
	return tools, warnings, nil
}

// rateFields are the keys of a tools.<Name>.rate mapping.
var rateFields = []string{"per_second", "burst"}

// parseRate reads {per_second: N, burst: M}, or a bare number of calls per second.
// It returns the unknown field names for warnings.
func parseRate(v any) (RateLimit, []string, error) {
	var r RateLimit
	var unknown []string
	burst := any(nil)
	if m, ok := v.(map[string]any); ok {
		if err := duplicateInCase(m); err != nil {
			return r, nil, err
		}
		for _, k := range sortedKeys(m) {
			switch strings.ToLower(k) {
			case "per_second":
				ps, ok := toFloat(m[k])
				if !ok {
					return r, nil, errors.New("per_second: want a number of calls per second")
				}
				r.PerSecond = ps
			case "burst":
				burst = m[k]
			default:
				unknown = append(unknown, k)
			}
		}
		if _, ok := lookupFold(m, "per_second"); !ok {
			return r, nil, errors.New("per_second is missing: write {per_second: 2, burst: 5}")
		}
	} else {
		ps, ok := toFloat(v)
		if !ok {
			return r, nil, errors.New("want {per_second: N, burst: M} or a number of calls per second")
		}
		r.PerSecond = ps
	}
	if r.PerSecond <= 0 {
		return r, nil, fmt.Errorf("per_second must be positive, got %v", r.PerSecond)
	}
	if burst == nil {
		r.Burst = int(math.Max(1, math.Ceil(math.Min(r.PerSecond, math.MaxInt32))))
	} else {
		b, err := toInt(burst)
		if err != nil || b < 1 {
			return r, nil, fmt.Errorf("burst must be a whole number of at least 1, got %s", display(burst))
		}
		r.Burst = b
	}
	return r, unknown, nil
}

// serverFields are the keys of an mcp.servers.<name> entry.
var serverFields = []string{"command", "args", "env", "cwd", "url", "headers", "start", "timeout", "reset_timeout_on_progress", "max_total_timeout", "oauth"}

// oauthFields are the keys of an mcp.servers.<name>.oauth mapping.
var oauthFields = []string{"client_id", "client_secret", "client_metadata_url", "callback_port"}

// parseMCP reads mcp.servers.<name>. Server names and env names keep their case;
// field names are matched ignoring case, like every other key.
func parseMCP(path string, v any, r resolver) (MCP, []string, error) {
	out := MCP{Servers: map[string]MCPServer{}}
	if v == nil {
		return out, nil, nil
	}
	m, ok := asMap(v)
	if !ok {
		return out, nil, fmt.Errorf("config file %s: mcp: want a mapping with a servers key", path)
	}
	if err := duplicateInCase(m); err != nil {
		return out, nil, fmt.Errorf("config file %s: mcp: %w", path, err)
	}
	var warnings []string
	var servers map[string]any
	for _, k := range sortedKeys(m) {
		if strings.ToLower(k) != "servers" {
			warnings = append(warnings, unknownKey(path, k, "mcp.", []string{"servers"}))
			continue
		}
		if servers, ok = asMap(m[k]); !ok {
			return out, nil, fmt.Errorf("config file %s: mcp.servers: want a mapping of server names to settings", path)
		}
	}
	for _, name := range sortedKeys(servers) {
		s, w, err := parseServer(path, name, servers[name], r)
		if err != nil {
			return out, nil, err
		}
		warnings = append(warnings, w...)
		out.Servers[name] = s
	}
	return out, warnings, nil
}

// parseServer reads one server entry.
func parseServer(path, name string, v any, r resolver) (MCPServer, []string, error) {
	var s MCPServer
	prefix := "mcp.servers." + name
	m, ok := asMap(v)
	if !ok {
		return s, nil, fmt.Errorf("config file %s: %s: want a mapping with command or url", path, prefix)
	}
	if err := duplicateInCase(m); err != nil {
		return s, nil, fmt.Errorf("config file %s: %s: %w", path, prefix, err)
	}
	var warnings []string
	hasHeaders := false
	for _, k := range sortedKeys(m) {
		val := m[k]
		var err error
		switch strings.ToLower(k) {
		case "command":
			s.Command, err = toString(val)
		case "args":
			s.Args, err = scalarList(val)
		case "env":
			s.Env, err = envMap(val)
		case "cwd":
			var cwd string
			if cwd, err = toString(val); err == nil {
				s.Cwd, err = expandHome(cwd, r)
			}
		case "url":
			if s.URL, err = toString(val); err == nil && s.URL != "" {
				err = checkURL(s.URL)
			}
		case "headers":
			hasHeaders = val != nil
			s.Headers, err = headerMap(val)
		case "start":
			s.Start, err = toBool(val)
		case "timeout":
			if val != nil {
				s.Timeout, err = toDuration(val)
			}
		case "reset_timeout_on_progress":
			s.ResetTimeoutOnProgress, err = toBool(val)
		case "max_total_timeout":
			if val != nil {
				s.MaxTotalTimeout, err = toDuration(val)
			}
		case "oauth":
			var w []string
			s.OAuth, w, err = parseOAuth(val)
			for _, k := range w {
				warnings = append(warnings, unknownKey(path, k, prefix+".oauth.", oauthFields))
			}
		default:
			warnings = append(warnings, unknownKey(path, k, prefix+".", serverFields))
		}
		if err != nil {
			return s, nil, &ValueError{Source: "config file " + path, Key: prefix + "." + strings.ToLower(k), Value: display(val), Reason: err.Error()}
		}
	}
	if s.OAuth != (MCPOAuth{}) && s.URL == "" {
		return s, nil, fmt.Errorf("config file %s: %s.oauth: only a server with url logs in", path, prefix)
	}
	switch {
	case s.Command == "" && s.URL == "":
		return s, nil, fmt.Errorf("config file %s: %s: set command (a server on stdio) or url (streamable HTTP)", path, prefix)
	case s.Command != "" && s.URL != "":
		return s, nil, fmt.Errorf("config file %s: %s: set command or url, not both", path, prefix)
	case s.Command != "" && hasHeaders:
		return s, nil, fmt.Errorf("config file %s: %s.headers: only a server with url takes headers; give a command server its settings in env", path, prefix)
	}
	return s, warnings, nil
}

// parseOAuth reads an oauth mapping; it returns the unknown keys.
func parseOAuth(v any) (MCPOAuth, []string, error) {
	var o MCPOAuth
	if v == nil {
		return o, nil, nil
	}
	m, ok := asMap(v)
	if !ok {
		return o, nil, errors.New("want a mapping with client_id, client_secret, client_metadata_url or callback_port")
	}
	if err := duplicateInCase(m); err != nil {
		return o, nil, err
	}
	var unknown []string
	for _, k := range sortedKeys(m) {
		var err error
		switch strings.ToLower(k) {
		case "client_id":
			o.ClientID, err = toString(m[k])
		case "client_secret":
			o.ClientSecret, err = toString(m[k])
		case "client_metadata_url":
			if o.ClientMetadataURL, err = toString(m[k]); err == nil && !strings.HasPrefix(o.ClientMetadataURL, "https://") {
				err = errors.New("want an https URL")
			}
		case "callback_port":
			if o.CallbackPort, err = toInt(m[k]); err == nil && (o.CallbackPort < 1 || o.CallbackPort > 65535) {
				err = errors.New("want a port from 1 to 65535")
			}
		default:
			unknown = append(unknown, k)
		}
		if err != nil {
			return o, nil, fmt.Errorf("%s: %w", strings.ToLower(k), err)
		}
	}
	if o.ClientSecret != "" && o.ClientID == "" {
		return o, nil, errors.New("client_secret without client_id")
	}
	return o, unknown, nil
}

// scalarList is toList without the $PATH-style split: args are separate words.
func scalarList(v any) ([]string, error) {
	if s, ok := v.(string); ok {
		s, err := toString(s)
		return []string{s}, err
	}
	return toList(v)
}

// envMap is stringMap for environment variables: each name must be one a process
// can be given (no "=", no NUL, not empty).
func envMap(v any) (map[string]string, error) {
	m, err := stringMap(v)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(m) {
		if !envNameRule.MatchString(k) {
			return nil, fmt.Errorf("%q is not a variable name (letters, digits and _, not starting with a digit)", k)
		}
	}
	return m, nil
}

// headerMap is stringMap for HTTP headers: names must be header tokens and values
// must not hold line breaks, which would split the request.
func headerMap(v any) (map[string]string, error) {
	m, err := stringMap(v)
	if err != nil {
		return nil, err
	}
	for _, k := range sortedKeys(m) {
		if !httpguts.ValidHeaderFieldName(k) {
			return nil, fmt.Errorf("%q is not a header name (letters, digits and -, such as Authorization)", k)
		}
		if !httpguts.ValidHeaderFieldValue(m[k]) {
			return nil, fmt.Errorf("the value of %s holds a line break or control character", k)
		}
	}
	return m, nil
}

// stringMap reads a mapping of names to scalar values (numbers become their text).
func stringMap(v any) (map[string]string, error) {
	m, ok := asMap(v)
	if !ok {
		return nil, errors.New("want a mapping of names to values")
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		s, err := toString(m[k])
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
}

// expandHome expands a leading "~" but leaves relative paths alone: a server's cwd
// is the MCP client's to resolve.
func expandHome(p string, r resolver) (string, error) {
	if p == "~" || strings.HasPrefix(p, "~/") {
		return r.path(p)
	}
	return p, nil
}

func checkURL(s string) error {
	u, err := url.Parse(s)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return errors.New("want an http:// or https:// URL")
	}
	return nil
}
