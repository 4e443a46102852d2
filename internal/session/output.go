package session

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/llm"
)

const (
	// bigOutput is the size past which a tool result's content goes to a
	// side file: a log of small lines loads fast, and an output a model
	// read once is not decoded again with every record around it.
	bigOutput = 64 << 10
	// maxLoaded bounds the side-file bytes a load reads back, newest
	// first. It is more than any model's context window holds (a million
	// tokens is about 4 MB of text), so a conversation a provider could
	// still take is loaded whole, and resuming a session whose outputs
	// fill gigabytes costs tens of megabytes, not gigabytes.
	maxLoaded = 32 << 20
	// cutHead is how much of an output past maxLoaded is loaded, so that
	// the model still sees what the output began with.
	cutHead = 4 << 10
)

func outputDir(dir, id string) string { return filepath.Join(dir, id+".d") }

func outputPath(dir, id string, n int) string {
	return filepath.Join(outputDir(dir, id), strconv.Itoa(n)+".out")
}

func hashOutput(content string) string {
	h := sha256.Sum256([]byte(content))
	return hex.EncodeToString(h[:])
}

// writeOutput stores content as side file path. It is written before the
// record that names it, so a record never names a file not yet written;
// a file whose record was lost to a crash is only an orphan, overwritten
// by the next output of that number.
func writeOutput(path, content string) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("store output: %w", err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return fmt.Errorf("store output: %w", err)
	}
	_, err = io.WriteString(f, content)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store output %s: %w", filepath.Base(path), err)
	}
	return nil
}

// resolveOutputs turns stored messages back into messages, reading the
// side files they name, newest first, until budget bytes are read; the
// older outputs keep their first cutHead bytes and say where the rest is.
// Only the messages of the conversation get here, so the outputs of
// turns a compaction replaced are never read at all.
func resolveOutputs(dir, id string, stored []storedMessage, budget int64) ([]llm.Message, []string) {
	msgs := make([]llm.Message, len(stored))
	var warnings []string
	cut, cutBytes := 0, int64(0)
	for i := len(stored) - 1; i >= 0; i-- {
		msgs[i] = stored[i].Message
		if w := loadPictures(dir, id, &msgs[i], stored[i].Pictures); w != "" {
			warnings = append(warnings, w)
		}
		ref := stored[i].Output
		if ref == nil {
			continue
		}
		path := outputPath(dir, id, ref.N)
		content, size, whole, err := readOutput(path, budget)
		switch {
		case err != nil:
			content = fmt.Sprintf("[forge: this output was stored in %s, which cannot be read]", path)
			warnings = append(warnings, fmt.Sprintf("stored output of call %s: %v", stored[i].Result.CallID, err))
		case size != ref.Size:
			warnings = append(warnings, fmt.Sprintf("stored output of call %s has %d bytes, the log says %d", stored[i].Result.CallID, size, ref.Size))
		}
		if err == nil && whole {
			budget -= size
		} else if err == nil {
			cut, cutBytes = cut+1, cutBytes+size
			content += fmt.Sprintf("\n\n[forge: output cut on loading the session: %d of %d bytes shown; the whole output is in %s]", len(content), size, path)
		}
		r := *msgs[i].Result
		r.Content = content
		msgs[i].Result = &r
	}
	if cut > 0 {
		warnings = append(warnings, fmt.Sprintf("%d older tool outputs (%d bytes) were loaded cut to their first %d bytes; the whole outputs stay in %s", cut, cutBytes, cutHead, outputDir(dir, id)))
	}
	return msgs, warnings
}

// readOutput reads side file path whole if it has at most budget bytes,
// else its first cutHead bytes, cut at a character's boundary.
func readOutput(path string, budget int64) (content string, size int64, whole bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return "", 0, false, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return "", 0, false, err
	}
	if !fi.Mode().IsRegular() {
		return "", 0, false, errors.New("not a regular file")
	}
	size = fi.Size()
	want := size
	if whole = size <= budget; !whole {
		want = min(size, cutHead)
	}
	var b strings.Builder
	b.Grow(int(want))
	if _, err := io.CopyN(&b, f, want); err != nil {
		return "", 0, false, err
	}
	content = b.String()
	if !whole {
		content = cutRunes(content)
	}
	return content, size, whole, nil
}

// cutRunes drops a character that a byte cut split in two at the end.
func cutRunes(s string) string {
	for i := len(s) - 1; i >= 0 && i >= len(s)-utf8.UTFMax; i-- {
		if utf8.RuneStart(s[i]) {
			if !utf8.FullRuneInString(s[i:]) {
				return s[:i]
			}
			return s
		}
	}
	return s
}

// maxPicture bounds a picture read back from a side file.
const maxPicture = 32 << 20

// loadPictures puts back into m the images kept in side files; one that
// cannot be read is left out, with a note in the message and a warning.
func loadPictures(dir, id string, m *llm.Message, refs []*sideRef) string {
	if len(refs) == 0 {
		return ""
	}
	if m.Result != nil {
		r := *m.Result
		m.Result = &r
	}
	ims := images(m)
	kept := make([]llm.Image, 0, len(*ims))
	var lost []string
	for i, im := range *ims {
		if i < len(refs) && refs[i] != nil {
			path := outputPath(dir, id, refs[i].N)
			data, err := readPicture(path)
			if err != nil {
				lost = append(lost, path)
				continue
			}
			im.Data = data
		}
		kept = append(kept, im)
	}
	*ims = kept
	if len(lost) == 0 {
		return ""
	}
	note := fmt.Sprintf("[forge: %d image(s) stored in %s cannot be read]", len(lost), strings.Join(lost, ", "))
	if m.Result != nil {
		m.Result.Content += "\n\n" + note
	} else {
		m.Text += "\n\n" + note
	}
	return note
}

// readPicture reads a picture's side file, refusing one past maxPicture.
func readPicture(path string) ([]byte, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.Size() > maxPicture {
		return nil, fmt.Errorf("%s: %d bytes", path, fi.Size())
	}
	return os.ReadFile(path)
}
