package commands

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/agent"
	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/render"
	"github.com/forgehq/forge/internal/tools"
)

// Bounds on what @mentions attach: a file each, and all of one prompt's.
const (
	maxAttachment  = 256 << 10
	maxAttachments = 1 << 20
)

// mention is "@path" at the start of a word.
var mention = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:^|\s)@([^\s@]+)`) })

// attachMentions adds to prompt the files it mentions as @path (relative
// to the working directory), each said through show with its size; a
// directory, a binary or huge file, or one forge would not let Read read
// unasked is not attached, with a notice that says why. A word that names
// nothing and does not look like a path (@someone) is left alone.
func (e *Env) attachMentions(ctx context.Context, prompt string, show func(agent.Event)) string {
	var b strings.Builder
	seen := map[string]bool{}
	total := 0
	for _, m := range mention().FindAllStringSubmatch(prompt, -1) {
		if server, uri, ok := e.resourceMention(m[1]); ok {
			if seen[m[1]] {
				continue
			}
			seen[m[1]] = true
			total += e.attachResource(ctx, &b, server, uri, maxAttachments-total, show)
			continue
		}
		name, abs, ok := e.mentioned(m[1], show)
		if !ok || seen[abs] || isImageFile(abs) {
			continue // an image is attached as a picture (attachImages)
		}
		seen[abs] = true
		content, refusal := e.attachment(ctx, name, abs, maxAttachments-total)
		if refusal != "" {
			notice(show, "@"+name+": "+refusal)
			continue
		}
		total += len(content)
		notice(show, fmt.Sprintf("attached %s (%s)", name, render.ByteSize(len(content))))
		fmt.Fprintf(&b, "\n\n<attached-file path=%q>\n%s", name, content)
		if !strings.HasSuffix(content, "\n") {
			b.WriteString("\n")
		}
		b.WriteString("</attached-file>")
	}
	if b.Len() == 0 {
		return prompt
	}
	return prompt + "\n\nThe person attached these files to the prompt with @mentions:" + b.String()
}

// mentioned resolves the word after @ to a file: as written, or without
// the punctuation that ends a sentence ("see @main.go."). ok is false for
// a word that names nothing and does not look like a path, and for a
// path-like word that names nothing, which is said.
func (e *Env) mentioned(word string, show func(agent.Event)) (name, abs string, ok bool) {
	wd := e.workingDir()
	for w := word; w != ""; w = w[:len(w)-1] {
		p := w
		if !filepath.IsAbs(p) {
			p = filepath.Join(wd, p)
		}
		if _, err := os.Lstat(p); err == nil {
			return w, filepath.Clean(p), true
		}
		if !strings.ContainsAny(w[len(w)-1:], ",.;:!?)]}'\"`") {
			break
		}
	}
	if strings.ContainsAny(strings.TrimRight(word, ",.;:!?)]}'\"`"), "/.") {
		notice(show, "@"+word+": no such file in "+wd+"; not attached")
	}
	return "", "", false
}

// attachment reads the file at abs for the model, or says why not.
func (e *Env) attachment(ctx context.Context, name, abs string, room int) (content, refusal string) {
	fi, err := os.Stat(abs)
	switch {
	case err != nil:
		return "", "cannot read it (" + err.Error() + "); not attached"
	case fi.IsDir():
		return "", "is a directory; mention its files instead (Tab completes them)"
	case !fi.Mode().IsRegular():
		return "", "is not a regular file; not attached"
	case fi.Size() > maxAttachment:
		return "", fmt.Sprintf("is %s, more than the %s a mention attaches; ask the model to read the part you need", render.ByteSize(int(fi.Size())), render.ByteSize(maxAttachment))
	case int(fi.Size()) > room:
		return "", "would pass the " + render.ByteSize(maxAttachments) + " one prompt's mentions attach; not attached"
	}
	if why := e.readRefusal(ctx, name, abs); why != "" {
		return "", why
	}
	b, err := os.ReadFile(abs)
	if err != nil {
		return "", "cannot read it (" + err.Error() + "); not attached"
	}
	if looksBinary(b) {
		return "", "is a binary file; not attached"
	}
	return string(b), ""
}

// readRefusal says why forge would not let Read read abs without asking,
// after asking the person when it can: the file is outside where reads are
// confined, a deny rule refuses it, or it holds credentials.
func (e *Env) readRefusal(ctx context.Context, name, abs string) string {
	if e.Exec.ConfineReads && !withinAny(abs, append([]string{e.workingDir()}, e.Exec.AllowedRoots...)) {
		return "is outside the working directory, and reads are confined (read.allow_outside: false); not attached"
	}
	if e.Policy == nil {
		return ""
	}
	v := e.Policy.Decide(permission.Call{Tool: "Read", Args: tools.Args{"file_path": abs}, ReadOnly: true})
	switch v.Decision {
	case permission.Allow:
		return ""
	case permission.Deny:
		return "Read may not read it (" + v.Reason + "); not attached"
	}
	if e.AskKey == nil && (e.Ask == nil || !e.IO.InTerminal) {
		return "reading it needs your approval (" + v.Reason + "); not attached"
	}
	question := render.Fit("Attach "+name+"? forge asks before reading it: "+v.Reason, e.TermWidth()) + "\n" +
		render.Choices("", []string{"[y] yes, attach it", "[n] no"}, e.TermWidth())
	ans, err := e.askChoice(ctx, question, "yn")
	if err != nil || ans != "y" {
		return "not attached"
	}
	return ""
}

// workingDir is where the session's calls run.
func (e *Env) workingDir() string {
	if e.Exec.WorkingDir != "" {
		return e.Exec.WorkingDir
	}
	return e.Config.WorkingDir
}

// note tells the person something about their prompt, on its own line.
func (e *Env) note(text string, v map[string]any) { e.Printer().Value(text, v) }

// notice says text through show, the run's view: a line on a terminal, a
// notice event in JSON.
func notice(show func(agent.Event), text string) {
	show(agent.Event{Type: agent.EventNotice, Text: text})
}

func withinAny(path string, dirs []string) bool {
	for _, d := range dirs {
		if rel, err := filepath.Rel(d, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return true
		}
	}
	return false
}

// looksBinary says b is no text: a NUL byte, or bytes that are not UTF-8,
// in its first 8 KB.
func looksBinary(b []byte) bool {
	head := b[:min(len(b), 8<<10)]
	if bytes.IndexByte(head, 0) >= 0 {
		return true
	}
	if len(head) < len(b) {
		// A rune cut at the end of the head is no sign of binary.
		for i := 0; i < utf8.UTFMax && len(head) > 0 && !utf8.Valid(head); i++ {
			head = head[:len(head)-1]
		}
	}
	return !utf8.Valid(head)
}

// maxMentionCandidates bounds the names Tab offers after @.
const maxMentionCandidates = 200

// mentionCandidates complete "@dir/na" with the entries of dir (relative
// to the working directory) whose names begin with "na": a directory
// with a slash, to go on, a file with a space. Hidden entries show when
// the name typed begins with a dot.
func (e *Env) mentionCandidates(partial string) []string {
	typed := partial[1:]
	dir, base := filepath.Split(typed)
	abs := dir
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(e.workingDir(), dir)
	}
	entries, err := os.ReadDir(abs)
	if err != nil {
		return nil
	}
	var out []string
	for _, d := range entries {
		name := d.Name()
		if !strings.HasPrefix(name, base) || strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".") || strings.ContainsAny(name, " \t") {
			continue
		}
		isDir := d.IsDir()
		if d.Type()&os.ModeSymlink != 0 {
			fi, err := os.Stat(filepath.Join(abs, name))
			isDir = err == nil && fi.IsDir()
		}
		if isDir {
			out = append(out, "@"+dir+name+"/")
		} else {
			out = append(out, "@"+dir+name+" ")
		}
		if len(out) == maxMentionCandidates {
			break
		}
	}
	return out
}
