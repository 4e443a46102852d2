package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// Glob's limits.
const (
	globDefaultLimit = 100
	globMaxLimit     = 10000
)

// globDescriptor is Glob's identity and schema.
var globDescriptor = tools.Descriptor{
	ReadOnly: true,
	Name:     "Glob",
	Description: "Find files matching a pattern. Supports ** for any number of directories and {a,b} alternatives " +
		"(\"**/*.go\", \"src/**/*.{ts,tsx}\"). Returns absolute paths, newest first by modification time, at most " +
		"limit of them with a count of what was left out. Skips .git and honours .gitignore unless respect_gitignore is false.",
	Category: tools.CategoryFile,
	Parameters: []tools.Parameter{
		{Name: "pattern", Type: tools.TypeString, Description: "The glob pattern to match file paths against, relative to path (or absolute)", Required: true},
		{Name: "path", Type: tools.TypeString, Description: "The directory to search in (default: the working directory)"},
		// No schema default: the configured limit applies when the caller gives none.
		{Name: "limit", Type: tools.TypeInteger, Description: "Maximum number of files to return (default 100, or tools.Glob.limit)", Minimum: tools.Float(1), Maximum: tools.Float(globMaxLimit)},
		{Name: "respect_gitignore", Type: tools.TypeBoolean, Description: "Skip files ignored by .gitignore (inside a git repository)", Default: true},
		{Name: "hidden", Type: tools.TypeBoolean, Description: "Include hidden files and directories (names starting with a dot)", Default: true},
	},
}

// globTool lists files by pattern, newest first.
type globTool struct {
	described
	limit int // default limit from the configuration
}

// globLimit is tools.Glob.limit, the number of paths a call lists unless it
// gives a limit.
var globLimit = cfg.PositiveIntKey("limit", globDefaultLimit)

// newGlob builds Glob from its tools.Glob configuration: limit.
func newGlob(_ context.Context, deps tools.Deps) (tools.Tool, error) {
	n, err := globLimit.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	return &globTool{described: described{globDescriptor}, limit: n}, nil
}

// globQuery is a validated Glob call: where to walk and what to match.
type globQuery struct {
	root    string // absolute directory walked
	pattern string // matched against paths relative to root
}

// parseGlob validates the pattern and splits its static directory prefix
// off into the root, so that "src/**/*.go" walks only src.
func parseGlob(wd, dir, pattern string) (globQuery, error) {
	if strings.IndexByte(pattern, 0) >= 0 {
		return globQuery{}, fmt.Errorf("Invalid glob pattern: %q contains a NUL byte", pattern)
	}
	if pattern == "" {
		return globQuery{}, fmt.Errorf("Invalid glob pattern: the pattern is empty")
	}
	pattern = filepath.ToSlash(pattern)
	if !doublestar.ValidatePattern(pattern) {
		return globQuery{}, fmt.Errorf("Invalid glob pattern: %s (check brackets [], braces {} and escapes)", pattern)
	}
	if dir == "" {
		dir = "."
	}
	root, err := fsutil.Abs(wd, dir)
	if err != nil {
		return globQuery{}, fmt.Errorf("Invalid path: %w", err)
	}
	base, rest := doublestar.SplitPattern(pattern)
	if strings.HasPrefix(pattern, "/") {
		root, pattern = filepath.Clean(base), rest
	} else if base != "." {
		root, pattern = filepath.Join(root, base), rest
	}
	return globQuery{root: root, pattern: pattern}, nil
}

// depth is how deep a pattern can reach (0: unbounded).
func (q globQuery) depth() int {
	if strings.Contains(q.pattern, "**") || strings.Contains(q.pattern, "{") {
		return 0
	}
	return strings.Count(q.pattern, "/") + 1
}

// DryRun says what would be searched.
func (t *globTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	q, err := parseGlob(ec.WorkingDir, args.String("path"), args.String("pattern"))
	if err != nil {
		return "Would fail: " + err.Error()
	}
	if refusal := readRefusal(ec, q.root); refusal != "" {
		return "Would refuse: " + refusal
	}
	return fmt.Sprintf("Would list files matching %s under %s", q.pattern, q.root)
}

type globMatch struct {
	path  string
	mtime time.Time
}

// Execute walks the tree and lists the matching files, newest first.
func (t *globTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	q, err := parseGlob(ec.WorkingDir, args.String("path"), args.String("pattern"))
	if err != nil {
		return tools.Fail(err.Error(), "pattern", args.String("pattern"))
	}
	limit := intArg(args, "limit", t.limit, 1, globMaxLimit)
	src, err := fsutil.ReadTarget(ec.WorkingDir, ec.AllowedRoots, q.root, ec.ConfineReads)
	if errors.Is(err, fsutil.ErrOutsideRoots) {
		return tools.Fail(err.Error(), "path", q.root)
	} else if err != nil {
		return tools.Fail(fsutil.Describe(q.root, err), "path", q.root)
	}
	defer src.Close()
	src.Judge(ec.Judged)
	if r, ok := checkSearchRoot(src); !ok {
		return r
	}
	if err := src.Anchor(); err != nil {
		if errors.Is(err, fsutil.ErrChanged) {
			return tools.Fail(changedSinceChecked(q.root), "path", q.root)
		}
		return tools.Fail(fsutil.Describe(q.root, err), "path", q.root)
	}
	opts := fsutil.WalkOptions{
		Gitignore:  boolArg(args, "respect_gitignore", true),
		SkipHidden: !boolArg(args, "hidden", true),
		MaxDepth:   q.depth(),
	}
	var matches []globMatch
	err = src.Walk(ctx, opts, func(path, rel string, d fs.DirEntry) error {
		if !doublestar.MatchUnvalidated(q.pattern, rel) {
			return nil
		}
		m := globMatch{path: path}
		if info, err := d.Info(); err == nil {
			m.mtime = info.ModTime()
		}
		matches = append(matches, m)
		return nil
	})
	if err != nil {
		return tools.Fail("Glob cancelled: "+err.Error(), "path", q.root)
	}
	sort.Slice(matches, func(i, j int) bool {
		if !matches[i].mtime.Equal(matches[j].mtime) {
			return matches[i].mtime.After(matches[j].mtime)
		}
		return matches[i].path < matches[j].path
	})
	if len(matches) == 0 {
		return tools.OK(fmt.Sprintf("No files found matching %s in %s", q.pattern, q.root), "count", 0, "total", 0, "truncated", false, "path", q.root)
	}
	budget := maxOutput(ec) - 200 // room for the closing note
	var out strings.Builder
	shown := 0
	for _, m := range matches[:min(limit, len(matches))] {
		if out.Len()+len(m.path)+1 > budget && shown > 0 {
			break
		}
		out.WriteString(m.path)
		out.WriteByte('\n')
		shown++
	}
	if left := len(matches) - shown; left > 0 {
		fmt.Fprintf(&out, "(%d more files not shown: these are the %d newest of %d. Narrow the pattern or raise limit.)", left, shown, len(matches))
	}
	return tools.OK(strings.TrimSuffix(out.String(), "\n"), "count", shown, "total", len(matches), "truncated", shown < len(matches), "path", q.root)
}

// checkSearchRoot fails unless src is an existing directory.
func checkSearchRoot(src *fsutil.Target) (tools.Result, bool) {
	root := src.Path
	fi, err := src.Stat("")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tools.Fail("Directory not found: "+root, "path", root), false
	case errors.Is(err, fsutil.ErrOutsideRoots):
		return tools.Fail(err.Error(), "path", root), false
	case err != nil:
		return tools.Fail(fsutil.Describe(root, err), "path", root), false
	case !fi.IsDir():
		return tools.Fail(fmt.Sprintf("Path is not a directory: %s (Glob searches directories; use Read for a file)", root), "path", root), false
	}
	return tools.Result{}, true
}
