package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// Claude Code's files that forge reads as settings: a team's permissions,
// hooks and MCP servers work in forge without being copied.
const (
	ClaudeDirName      = ".claude"
	claudeSettingsFile = "settings.json"
	// claudeLocalFile is a person's own settings for one project, which
	// Claude Code keeps out of the repository and layers over
	// settings.json.
	claudeLocalFile   = "settings.local.json"
	claudeMCPFile     = ".mcp.json"
	claudeUserMCPFile = ".claude.json"
)

// maxClaudeFile bounds a Claude Code file forge reads: ~/.claude.json
// keeps Claude Code's state beside its MCP servers, and grows.
const maxClaudeFile = 16 << 20

// readCapped reads the file at path, of at most max bytes.
func readCapped(path string, max int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("larger than %d MiB", max>>20)
	}
	return data, nil
}

// claudeSettingsKeys are the keys of Claude Code's settings.json that
// forge reads; the others (statusLine, model, apiKeyHelper...) are
// Claude Code's own and are passed over with one warning.
var claudeSettingsKeys = []string{"permissions", "hooks", "env"}

// claudeSettingsFiles are the project's Claude Code settings in the order
// they are layered: the team's, then the person's own.
func claudeSettingsFiles(dir string) []string {
	return []string{filepath.Join(dir, ClaudeDirName, claudeSettingsFile), filepath.Join(dir, ClaudeDirName, claudeLocalFile)}
}

// claudeProjectFiles are the files of Claude Code's that make a
// repository's root a project forge reads settings from, as a .forge
// directory does.
func claudeProjectFiles(dir string) []string {
	return append(claudeSettingsFiles(dir), filepath.Join(dir, claudeMCPFile))
}

// hasClaudeSettings says dir holds Claude Code's project settings.
func hasClaudeSettings(dir string) bool {
	for _, p := range claudeProjectFiles(dir) {
		if _, err := os.Lstat(p); err == nil {
			return true
		}
	}
	return false
}

// ClaudeSettingsError is a Claude Code settings file that cannot be used:
// forge stops rather than run without the rules it denies. Load returns
// the person's (~/.claude/settings.json) as one, which the commands that
// repair things go on without (Source.SkipClaudeUser), and a project's as
// a *ProjectError, as it does forge's own project file.
type ClaudeSettingsError struct {
	File string
	Err  error
}

func (e *ClaudeSettingsError) Error() string {
	if rest, ok := strings.CutPrefix(e.Err.Error(), "config file "+e.File); ok {
		return e.File + rest
	}
	return e.Err.Error()
}

func (e *ClaudeSettingsError) Unwrap() error { return e.Err }

// readClaudeLayers reads Claude Code's settings files (settings.json, then
// settings.local.json over it) and MCP file (.mcp.json in a project,
// ~/.claude.json for the person, of which only mcpServers is read) into
// layers of forge's sections. A file that is missing gives none. A
// settings file that is there but cannot be read is the error: its deny
// rules must not be dropped. An MCP file that cannot be is a warning: it
// is another program's file, and its servers only add tools. env expands
// ${VAR} and ${VAR:-default} in the MCP servers.
func readClaudeLayers(settings []string, mcp string, env func(string) (string, bool), r resolver) ([]layer, []string, *ClaudeSettingsError) {
	var out []layer
	var warnings []string
	for _, path := range settings {
		l, w, ok, err := readClaudeFile(path, r, claudeSettingsLayer)
		if err != nil {
			return nil, nil, &ClaudeSettingsError{File: path, Err: err}
		}
		warnings = append(warnings, w...)
		if ok {
			out = append(out, l)
		}
	}
	mcpLayer := func(path string, m map[string]any) (layer, []string, error) { return claudeMCPLayer(path, m, env) }
	l, w, ok, err := readClaudeFile(mcp, r, mcpLayer)
	if err != nil {
		w = append(w, fmt.Sprintf("%s is not used: %s", mcp, strings.TrimPrefix(strings.TrimPrefix(err.Error(), mcp), ": ")))
	}
	warnings = append(warnings, w...)
	if ok {
		out = append(out, l)
	}
	return out, warnings, nil
}

// readClaudeFile reads the JSON object at path and makes a layer of it.
// A link or a device is passed over with a warning, as forge reads
// settings only from a real file; a file that cannot be read or parsed is
// the error, which names the file (and the line and column of a JSON
// error).
func readClaudeFile(path string, r resolver, make func(string, map[string]any) (layer, []string, error)) (layer, []string, bool, error) {
	if path == "" {
		return layer{}, nil, false, nil
	}
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return layer{}, nil, false, nil
	}
	skip := func(why string) (layer, []string, bool, error) {
		return layer{}, []string{fmt.Sprintf("%s is not used: %s", path, why)}, false, nil
	}
	switch {
	case err != nil:
		return layer{}, nil, false, fmt.Errorf("%s: cannot read: %w", path, pathCause(err))
	case fi.Mode()&fs.ModeSymlink != 0:
		return skip("it is a symbolic link; forge reads settings only from a real file")
	case !fi.Mode().IsRegular():
		return skip("it is not a regular file")
	}
	data, err := readCapped(path, maxClaudeFile)
	if err != nil {
		return layer{}, nil, false, fmt.Errorf("%s: cannot read: %w", path, pathCause(err))
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return layer{}, nil, false, jsonError(path, data, err)
	}
	l, w, err := make(path, m)
	if err != nil {
		return layer{}, nil, false, fmt.Errorf("%s: %w", path, err)
	}
	l.r = r
	return l, w, true, nil
}

// pathCause is the cause an *fs.PathError wraps, without the path it
// repeats; err itself otherwise.
func pathCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// jsonError is err, from decoding data, the file at path, as one line
// that names the file, and the line and column where it can.
func jsonError(path string, data []byte, err error) error {
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syn):
		line, col := position(data, syn.Offset)
		return fmt.Errorf("%s:%d:%d: not valid JSON: %s", path, line, col, syn.Error())
	case errors.As(err, &typ):
		line, col := position(data, typ.Offset)
		return fmt.Errorf("%s:%d:%d: must be a JSON object (settings by name), not %s", path, line, col, typ.Value)
	}
	return fmt.Errorf("%s: not valid JSON: %w", path, err)
}

// position is the line and column (1-based, in bytes) of the byte before
// offset in data, where the JSON decoder stopped.
func position(data []byte, offset int64) (line, col int) {
	offset = min(max(offset, 1), int64(len(data)))
	before := data[:offset]
	line = 1 + bytes.Count(before, []byte("\n"))
	col = len(before) - bytes.LastIndexByte(before, '\n') - 1
	if col == 0 { // stopped at a line break
		col = 1
	}
	return line, col
}

// claudeSettingsLayer is settings.json as forge's sections: permissions
// and hooks are in forge's format already; env goes to the tools.
func claudeSettingsLayer(path string, m map[string]any) (layer, []string, error) {
	l := layer{path: path, origin: "claude settings " + path, flat: map[string]any{}, sections: map[string]any{}}
	var warnings, other []string
	for _, k := range sortedKeys(m) {
		switch k {
		case "permissions":
			p, w := claudePermissions(path, m[k])
			l.sections["permissions"] = p
			warnings = append(warnings, w...)
		case "hooks":
			h, w := claudeHooks(path, m[k])
			l.sections["hooks"] = h
			warnings = append(warnings, w...)
		case "env":
			if _, err := envMap(m[k]); err != nil {
				return layer{}, nil, fmt.Errorf("env: %w", err)
			}
			l.sections["env"] = m[k]
		default:
			other = append(other, k)
		}
	}
	if len(other) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: forge reads %s of it; %s %s Claude Code's own and ignored",
			path, strings.Join(claudeSettingsKeys, ", "), strings.Join(other, ", "), plural(len(other), "is", "are")))
	}
	return l, warnings, nil
}

// claudePermissions keeps allow, deny and ask of Claude Code's
// permissions: their rules are written as forge's are.
func claudePermissions(path string, v any) (map[string]any, []string) {
	m, _ := asMap(v)
	out := map[string]any{}
	var other []string
	for _, k := range sortedKeys(m) {
		switch k {
		case "allow", "deny", "ask":
			out[k] = m[k]
		default:
			other = append(other, k)
		}
	}
	var warnings []string
	if len(other) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: permissions.%s: not read by forge (its approval mode and working directory are its own)",
			path, strings.Join(other, ", permissions.")))
	}
	return out, warnings
}

// claudeHooks keeps the hooks forge can run: of its events, of type
// command; the others are named in one warning.
func claudeHooks(path string, v any) (map[string]any, []string) {
	m, _ := asMap(v)
	out := map[string]any{}
	var skipped []string
	for _, event := range sortedKeys(m) {
		if _, known := canonicalEvent(event); !known || !slices.ContainsFunc(HookEvents, func(e string) bool { return strings.EqualFold(e, event) }) {
			skipped = append(skipped, event)
			continue
		}
		list, ok := m[event].([]any)
		if !ok {
			out[event] = m[event] // parseHooks words the error
			continue
		}
		var kept []any
		for _, e := range list {
			em, ok := asMap(e)
			if !ok {
				kept = append(kept, e)
				continue
			}
			hs, _ := em["hooks"].([]any)
			var cmds []any
			for _, h := range hs {
				if hm, ok := asMap(h); ok && hm["type"] != nil && hm["type"] != "command" {
					skipped = append(skipped, fmt.Sprintf("%s (type %v)", event, hm["type"]))
					continue
				}
				cmds = append(cmds, h)
			}
			if len(cmds) > 0 {
				c := map[string]any{}
				for k, val := range em {
					c[k] = val
				}
				c["hooks"] = cmds
				kept = append(kept, c)
			}
		}
		if len(kept) > 0 {
			out[event] = kept
		}
	}
	var warnings []string
	if len(skipped) > 0 {
		warnings = append(warnings, fmt.Sprintf("%s: hooks forge does not run are ignored: %s (forge runs command hooks of %s)",
			path, strings.Join(skipped, ", "), strings.Join(HookEvents, ", ")))
	}
	return out, warnings
}

// claudeMCPLayer is an MCP file's mcpServers as forge's mcp.servers, with
// ${VAR} and ${VAR:-default} expanded in commands, arguments, environment,
// URLs and headers, and type (stdio, http, sse) left to the shape.
func claudeMCPLayer(path string, m map[string]any, env func(string) (string, bool)) (layer, []string, error) {
	l := layer{path: path, origin: "claude mcp " + path, flat: map[string]any{}, sections: map[string]any{}}
	servers, _ := asMap(m["mcpServers"])
	if len(servers) == 0 {
		return l, nil, nil
	}
	var warnings, missing []string
	out := map[string]any{}
	for _, name := range sortedKeys(servers) {
		s, ok := asMap(servers[name])
		if !ok {
			return layer{}, nil, fmt.Errorf("mcpServers.%s: want an object with command or url", name)
		}
		srv := map[string]any{}
		for _, k := range sortedKeys(s) {
			switch k {
			case "type":
				if t, _ := s[k].(string); t == "sse" {
					warnings = append(warnings, fmt.Sprintf("%s: mcpServers.%s: forge speaks streamable HTTP, not the older SSE transport; it tries the URL as streamable HTTP", path, name))
				}
			case "command", "url":
				str, _ := s[k].(string)
				srv[k] = expandVars(str, env, &missing)
			case "args":
				list, _ := s[k].([]any)
				args := make([]any, len(list))
				for i, a := range list {
					str, _ := a.(string)
					args[i] = expandVars(str, env, &missing)
				}
				srv[k] = args
			case "env", "headers":
				vals, _ := asMap(s[k])
				exp := map[string]any{}
				for vk, vv := range vals {
					str, _ := vv.(string)
					exp[vk] = expandVars(str, env, &missing)
				}
				srv[k] = exp
			case "cwd", "timeout":
				srv[k] = s[k]
			default:
				warnings = append(warnings, fmt.Sprintf("%s: mcpServers.%s.%s: not read by forge", path, name, k))
			}
		}
		out[name] = srv
	}
	if len(missing) > 0 {
		slices.Sort(missing)
		warnings = append(warnings, fmt.Sprintf("%s: %s %s not set and %s no default: expanded as empty",
			path, strings.Join(slices.Compact(missing), ", "), plural(len(missing), "is", "are"), plural(len(missing), "has", "have")))
	}
	l.sections["mcp"] = map[string]any{"servers": out}
	return l, warnings, nil
}

// plural is one when n is 1, else many.
func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// expandVars expands ${VAR} and ${VAR:-default} in s as Claude Code does
// in its MCP files; a variable unset without a default expands to
// nothing and is added to missing. A lone $ or $VAR stays as it is.
func expandVars(s string, env func(string) (string, bool), missing *[]string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "${")
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		end := strings.IndexByte(s[i:], '}')
		if end < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		expr := s[i+2 : i+end]
		name, def, hasDef := strings.Cut(expr, ":-")
		val, ok := env(name)
		switch {
		case ok && val != "":
			b.WriteString(val)
		case hasDef:
			b.WriteString(def)
		case !ok:
			*missing = append(*missing, name)
		}
		s = s[i+end+1:]
	}
}

// mergeClaudeUser adds the person's Claude Code settings and MCP servers
// (~/.claude/settings.json, ~/.claude.json) to theirs: rules and hooks
// after forge's own, servers that forge's file does not name already. A
// settings file that cannot be used is a *ClaudeSettingsError.
func (c *Config) mergeClaudeUser(src Source, r resolver) error {
	if r.home == "" || src.SkipClaudeUser {
		return nil
	}
	settings := filepath.Join(r.home, ClaudeDirName, claudeSettingsFile)
	layers, w, serr := readClaudeLayers([]string{settings}, filepath.Join(r.home, claudeUserMCPFile), src.Env, r)
	if serr != nil {
		return serr
	}
	c.Warnings = append(c.Warnings, w...)
	for _, l := range layers {
		err := c.mergeClaudeUserLayer(l)
		switch {
		case err != nil && l.path == settings:
			return &ClaudeSettingsError{File: settings, Err: err}
		case err != nil:
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s is not used: %v", l.path, err))
		}
	}
	return nil
}

// mergeClaudeUserLayer adds one of the person's Claude Code files.
func (c *Config) mergeClaudeUserLayer(l layer) error {
	mcp, mw, err := parseMCP(l.path, l.sections["mcp"], l.r)
	if err != nil {
		return err
	}
	perms, pw, err := parsePermissions(l.path, l.sections["permissions"])
	if err != nil {
		return err
	}
	hooks, hw, err := parseHooks(l.path, l.sections["hooks"])
	if err != nil {
		return err
	}
	c.Warnings = slices.Concat(c.Warnings, mw, pw, hw)
	c.Permissions.Allow = append(c.Permissions.Allow, perms.Allow...)
	c.Permissions.Deny = append(c.Permissions.Deny, perms.Deny...)
	c.Permissions.Ask = append(c.Permissions.Ask, perms.Ask...)
	c.Hooks = append(c.Hooks, hooks...)
	for _, name := range sortedKeys(mcp.Servers) {
		if _, dup := c.MCP.Servers[name]; dup {
			delete(mcp.Servers, name)
			continue
		}
		if c.MCP.Servers == nil {
			c.MCP.Servers = map[string]MCPServer{}
		}
		c.MCP.Servers[name] = mcp.Servers[name]
	}
	c.noteSections(l.origin, nil, mcp, perms, nil)
	c.noteHooks(l.origin, hooks)
	c.mergeEnv(l, true)
	return nil
}

// mergeClaudeProject adds the project's Claude Code settings and MCP
// servers (.claude/settings.json, .claude/settings.local.json, .mcp.json)
// as its .forge/config.yaml's sections are added: deny and ask rules
// always; allow rules, hooks, servers and env only when the project is
// trusted. A settings file that cannot be used is a *ProjectError; an MCP
// file, a warning.
func (c *Config) mergeClaudeProject(settings toolSettings) error {
	defer func() { c.claudeProject = nil }()
	for _, l := range c.claudeProject {
		if err := c.mergeProjectSections(&l, settings); err != nil {
			if slices.Contains(claudeSettingsFiles(c.ProjectDir), l.path) {
				return &ProjectError{File: l.path, Err: err}
			}
			c.Warnings = append(c.Warnings, fmt.Sprintf("%s is not used: %v", l.path, err))
			continue
		}
		c.mergeEnv(l, c.Project.Trusted)
	}
	return nil
}

// mergeEnv adds the env of a Claude Code settings layer to the
// environment of the tools and hooks; an untrusted project's is ignored,
// as its variables (PATH, LD_PRELOAD) could run anything.
func (c *Config) mergeEnv(l layer, trusted bool) {
	env, err := envMap(l.sections["env"])
	if err != nil || len(env) == 0 {
		return
	}
	for _, k := range sortedKeys(env) {
		if !trusted {
			c.ignore(l.origin, "env."+k, env[k])
			continue
		}
		if c.Env == nil {
			c.Env = map[string]string{}
		}
		c.Env[k] = env[k]
		c.sections = append(c.sections, Entry{Key: "env." + k, Value: env[k], Source: l.origin})
	}
}
