package builtin

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/bmatcuk/doublestar/v4"

	"github.com/forgehq/forge/builtin/internal/cfg"
	"github.com/forgehq/forge/builtin/internal/fsutil"
	"github.com/forgehq/forge/internal/tools"
)

// Grep's limits.
const (
	grepDefaultHeadLimit = 250
	grepMaxContext       = 1000
)

// grepDescriptor is Grep's identity and schema. The option names are
// ripgrep's (and Claude Code's Grep's): -i, -n, -A, -B, -C.
var grepDescriptor = tools.Descriptor{
	ReadOnly: true,
	Name:     "Grep",
	Description: "Search file contents. The pattern is a regular expression (RE2 syntax, like ripgrep's); output_mode " +
		"files_with_matches (default) lists matching files, content shows matching lines (path:line:text, with -A/-B/-C " +
		"context), count gives matches per file. Results are in path order; head_limit and offset page through them. " +
		"Skips .git, hidden files, binary files and files ignored by .gitignore, as ripgrep does. Lines over 2000 characters are shortened.",
	Category: tools.CategoryFile,
	Parameters: []tools.Parameter{
		{Name: "pattern", Type: tools.TypeString, Description: "The regular expression to search for (RE2 syntax)", Required: true},
		{Name: "path", Type: tools.TypeString, Description: "File or directory to search in (default: the working directory)"},
		{Name: "glob", Type: tools.TypeString, Description: "Only search files matching this glob (\"*.go\", \"*.{ts,tsx}\", \"src/**/*.py\"; \"!*_test.go\" to exclude); without a slash it matches file names"},
		{Name: "type", Type: tools.TypeString, Description: "Only search files of this type (ripgrep's type names: go, py, js, ts, rust, java, c, cpp, md, json, yaml, sh, ...)"},
		{Name: "output_mode", Type: tools.TypeString, Description: "What to return: files_with_matches, content or count", Default: modeFiles, Enum: []any{modeFiles, modeContent, modeCount}},
		{Name: "-i", Type: tools.TypeBoolean, Description: "Case-insensitive search", Default: false},
		{Name: "-n", Type: tools.TypeBoolean, Description: "Show line numbers (content mode)", Default: true},
		{Name: "-A", Type: tools.TypeInteger, Description: "Lines of context to show after each match (content mode)", Minimum: tools.Float(0), Maximum: tools.Float(grepMaxContext)},
		{Name: "-B", Type: tools.TypeInteger, Description: "Lines of context to show before each match (content mode)", Minimum: tools.Float(0), Maximum: tools.Float(grepMaxContext)},
		{Name: "-C", Type: tools.TypeInteger, Description: "Lines of context to show before and after each match (content mode)", Minimum: tools.Float(0), Maximum: tools.Float(grepMaxContext)},
		// No schema default: the configured head_limit applies when the caller gives none.
		{Name: "head_limit", Type: tools.TypeInteger, Description: "Maximum number of lines (content) or entries to return (default 250, or tools.Grep.head_limit); 0 for no limit but the output cap", Minimum: tools.Float(0)},
		{Name: "offset", Type: tools.TypeInteger, Description: "Number of result lines or files to skip first, for paging", Default: 0, Minimum: tools.Float(0)},
		{Name: "hidden", Type: tools.TypeBoolean, Description: "Also search hidden files and directories", Default: false},
		{Name: "respect_gitignore", Type: tools.TypeBoolean, Description: "Skip files ignored by .gitignore (inside a git repository)", Default: true},
	},
	// Claude Code's Grep takes multiline; forge matches line by line, so
	// only its false (the default there) is taken, and true refused.
	Adopt: tools.Adoptions{{From: "multiline", Adopt: tools.DropWhen(func(v any) bool { return v == false })}},
}

// grepTool searches file contents in parallel.
type grepTool struct {
	described
	headLimit int
	maxLine   int
}

// The keys of tools.Grep: how many results a call shows unless it says,
// and the characters kept of a long line.
var (
	grepHeadLimit     = cfg.PositiveIntKey("head_limit", grepDefaultHeadLimit)
	grepMaxLineLength = cfg.PositiveIntKey("max_line_length", defaultMaxLineLen)
)

// newGrep builds Grep from its tools.Grep configuration: head_limit,
// max_line_length.
func newGrep(_ context.Context, deps tools.Deps) (tools.Tool, error) {
	hl, err := grepHeadLimit.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	ml, err := grepMaxLineLength.Get(deps.Config)
	if err != nil {
		return nil, err
	}
	return &grepTool{described: described{grepDescriptor}, headLimit: hl, maxLine: ml}, nil
}

// grepQuery is a validated Grep call.
type grepQuery struct {
	job       grepJob
	root      string
	src       *fsutil.Target // root, reached as the read policy says
	rootIsDir bool
	glob      string
	globPath  bool     // the glob has a slash: match it against the relative path
	globNot   bool     // the glob began with "!": skip the files it matches (ripgrep's -g '!x')
	types     []string // file-name globs of the type filter; nil: any type
	walk      fsutil.WalkOptions
	headLimit int // 0: no limit
	offset    int
	numbers   bool
}

func (t *grepTool) parse(ec tools.ExecutionContext, args tools.Args) (grepQuery, error) {
	var q grepQuery
	pattern := args.String("pattern")
	m, err := compileGrep(pattern, boolArg(args, "-i", false))
	if err != nil {
		return q, err
	}
	mode := args.String("output_mode")
	switch mode {
	case "":
		mode = modeFiles
	case modeFiles, modeContent, modeCount:
	default:
		return q, fmt.Errorf("Invalid value for output_mode: must be one of ['%s', '%s', '%s']", modeFiles, modeContent, modeCount)
	}
	c := intArg(args, "-C", 0, 0, grepMaxContext)
	q.job = grepJob{m: m, mode: mode, maxLine: t.maxLine,
		before: intArg(args, "-B", c, 0, grepMaxContext), after: intArg(args, "-A", c, 0, grepMaxContext)}
	dir := args.String("path")
	if dir == "" {
		dir = "."
	}
	if q.root, err = fsutil.Abs(ec.WorkingDir, dir); err != nil {
		return q, fmt.Errorf("Invalid path: %w", err)
	}
	if g := args.String("glob"); g != "" {
		if strings.HasPrefix(g, "!") {
			q.globNot, g = true, g[1:]
		}
		g = strings.TrimPrefix(g, "./")
		if !doublestar.ValidatePattern(g) || strings.IndexByte(g, 0) >= 0 {
			return q, fmt.Errorf("Invalid glob pattern: %s", g)
		}
		q.glob, q.globPath = g, strings.Contains(g, "/")
	}
	if ty := args.String("type"); ty != "" {
		if q.types, err = typeGlobs(ty); err != nil {
			return q, err
		}
	}
	q.walk = fsutil.WalkOptions{Gitignore: boolArg(args, "respect_gitignore", true), SkipHidden: !boolArg(args, "hidden", false)}
	q.headLimit = intArg(args, "head_limit", t.headLimit, 0, 0)
	q.offset = intArg(args, "offset", 0, 0, 0)
	q.numbers = boolArg(args, "-n", true)
	return q, nil
}

// DryRun says what would be searched.
func (t *grepTool) DryRun(ec tools.ExecutionContext, args tools.Args) string {
	q, err := t.parse(ec, args)
	if err != nil {
		return "Would fail: " + err.Error()
	}
	if refusal := readRefusal(ec, q.root); refusal != "" {
		return "Would refuse: " + refusal
	}
	where := q.root
	if q.glob != "" {
		where += " (files matching " + q.glob + ")"
	}
	return fmt.Sprintf("Would search %s for /%s/ (%s)", where, args.String("pattern"), q.job.mode)
}

// grepFile is one file to search, in walk order.
type grepFile struct {
	idx  int
	path string
	rel  string // below the search root, slash-separated; "" when it is the root
}

// grepHit is one searched file's result, with its walk position.
type grepHit struct {
	grepFile
	fileResult
}

// Execute searches the files under path in parallel and reports in path order.
func (t *grepTool) Execute(ctx context.Context, ec tools.ExecutionContext, args tools.Args) tools.Result {
	q, err := t.parse(ec, args)
	if err != nil {
		return tools.Fail(err.Error(), "pattern", args.String("pattern"))
	}
	if q.src, err = fsutil.ReadTarget(ec.WorkingDir, ec.AllowedRoots, q.root, ec.ConfineReads); err != nil {
		return tools.Fail(searchOpenError(q.root, err), "path", q.root)
	}
	defer q.src.Close()
	q.src.Judge(ec.Judged)
	fi, err := q.src.Stat("")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return tools.Fail("Path not found: "+q.root, "path", q.root)
	case err != nil:
		return tools.Fail(searchOpenError(q.root, err), "path", q.root)
	case !fi.IsDir() && !fi.Mode().IsRegular():
		return tools.Fail(searchOpenError(q.root, &fsutil.NotRegularError{Path: q.root, Mode: fi.Mode()}), "path", q.root)
	}
	q.rootIsDir = fi.IsDir()
	if q.rootIsDir {
		if err := q.src.Anchor(); err != nil {
			return tools.Fail(searchOpenError(q.root, err), "path", q.root)
		}
	}

	// Text is kept for at most this many content lines across all files;
	// beyond, lines are only counted (and re-read if they turn out needed).
	need := q.offset + q.headLimit
	if q.headLimit == 0 {
		need = q.offset + maxOutput(ec)/2
	}
	var budget atomic.Int64
	budget.Store(int64(need) * 2)
	keep := func(n int) bool { return budget.Add(-int64(n)) >= 0 }

	hits, err := t.search(ctx, q, keep)
	if err != nil {
		return tools.Fail("Grep cancelled: "+err.Error(), "path", q.root)
	}
	// A file named directly that cannot be searched is an error; files met
	// in a walk that cannot be are skipped, as ripgrep does.
	if !q.rootIsDir && len(hits) == 1 && hits[0].err != nil {
		return tools.Fail(searchOpenError(q.root, hits[0].err), "path", q.root)
	}
	return t.report(ctx, q, hits, maxOutput(ec))
}

// searchOpenError is the message for a file Grep was named and could not
// search.
func searchOpenError(path string, err error) string {
	var notFile *fsutil.NotRegularError
	switch {
	case errors.As(err, &notFile):
		return fmt.Sprintf("Cannot search %s: it is a %s, whose content could block or never end", path, notFile.Kind())
	case errors.Is(err, fsutil.ErrOutsideRoots):
		return err.Error()
	case errors.Is(err, fsutil.ErrChanged):
		return changedSinceChecked(path)
	}
	return fsutil.Describe(path, err)
}

// search walks the tree and searches its files with a pool of workers. The
// hits come back sorted by walk position, so the output is deterministic.
func (t *grepTool) search(ctx context.Context, q grepQuery, keep func(int) bool) ([]grepHit, error) {
	files := make(chan grepFile, 256)
	results := make(chan grepHit, 256)
	workers := runtime.GOMAXPROCS(0)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for f := range files {
				if ctx.Err() != nil {
					continue // drain
				}
				r := q.job.searchFile(q.src, f.rel, keep, &buf)
				if r.count > 0 || r.err != nil {
					results <- grepHit{f, r}
				}
			}
		}()
	}
	var walkErr error
	go func() {
		defer close(files)
		if !q.rootIsDir {
			files <- grepFile{0, q.root, ""}
			return
		}
		n := 0
		walkErr = q.src.Walk(ctx, q.walk, func(path, rel string, d fs.DirEntry) error {
			if !d.Type().IsRegular() {
				return nil // symbolic links and special files are not followed, as in ripgrep
			}
			if q.types != nil && !matchesType(q.types, d.Name()) {
				return nil
			}
			if q.glob != "" {
				subject := d.Name()
				if q.globPath {
					subject = rel
				}
				if doublestar.MatchUnvalidated(q.glob, subject) == q.globNot {
					return nil
				}
			}
			select {
			case files <- grepFile{n, path, rel}:
				n++
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	go func() {
		wg.Wait()
		close(results)
	}()
	var hits []grepHit
	for h := range results {
		hits = append(hits, h)
	}
	if walkErr != nil {
		return nil, walkErr
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	sortHits(hits)
	return hits, nil
}
