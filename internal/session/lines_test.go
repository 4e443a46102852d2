package session

import (
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"
)

func TestLineReader(t *testing.T) {
	long := strings.Repeat("x", 200<<10) // over the reader's buffer
	type line struct {
		text     string
		complete bool
		tooLong  bool
	}
	huge := func() io.Reader {
		chunk := strings.Repeat("y", 1<<20)
		var rs []io.Reader
		for range maxLine>>20 + 1 {
			rs = append(rs, strings.NewReader(chunk))
		}
		return io.MultiReader(append(rs, strings.NewReader("\nafter\n"))...)
	}
	tests := []struct {
		name string
		in   func() io.Reader
		want []line
		end  int64
	}{
		{"lines", func() io.Reader { return strings.NewReader("a\nbb\n\nc\n") },
			[]line{{"a", true, false}, {"bb", true, false}, {"", true, false}, {"c", true, false}}, 8},
		{"last without newline", func() io.Reader { return strings.NewReader("a\nbb") },
			[]line{{"a", true, false}, {"bb", false, false}}, 2},
		{"long lines", func() io.Reader { return strings.NewReader(long + "\n" + long) },
			[]line{{long, true, false}, {long, false, false}}, int64(len(long) + 1)},
		{"a line over the limit is skipped whole", huge,
			[]line{{"", true, true}, {"after", true, false}}, int64(maxLine>>20+1)<<20 + 7},
		{"empty", func() io.Reader { return strings.NewReader("") }, nil, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lr := newLineReader(tt.in())
			var got []line
			for {
				b, complete, err := lr.next()
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil && !errors.Is(err, errLineTooLong) {
					t.Fatal(err)
				}
				got = append(got, line{string(b), complete, err != nil})
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got %d lines %.100v", len(got), got)
			}
			if lr.end != tt.end || lr.no != len(tt.want) {
				t.Errorf("end %d line %d, want %d %d", lr.end, lr.no, tt.end, len(tt.want))
			}
		})
	}
}
