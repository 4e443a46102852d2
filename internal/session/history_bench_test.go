package session

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkCheckpoint is what the agent pays around one Edit of a 1 MB
// file: the file kept in the session's blobs before the call, its hash
// after, and the checkpoint record. "new" changes the content every time
// (a blob written each call); "same" saves the same content again, which
// is stored once (hashed, not written).
func BenchmarkCheckpoint(b *testing.B) {
	for _, kind := range []string{"new", "same"} {
		b.Run("1MB/"+kind, func(b *testing.B) {
			s, _ := newStore(b)
			l := create(b, s, "sess_bench", b.TempDir())
			defer l.Close()
			h := l.History()
			h.Prompt("bench", nil)
			path := filepath.Join(b.TempDir(), "big.txt")
			data := make([]byte, 1<<20)
			for i := range data {
				data[i] = byte('a' + i%26)
			}
			// Each call edits the file: "same" between two versions, so
			// that after the first two every content is kept already.
			version := func(i int) []byte {
				if kind == "same" {
					i %= 2
				}
				binary.LittleEndian.PutUint64(data, uint64(i))
				return data
			}
			must(b, os.WriteFile(path, version(0), 0o644))
			b.SetBytes(int64(len(data)))
			for i := 0; b.Loop(); i++ {
				commit, err := h.Checkpoint([]string{path})
				if err != nil {
					b.Fatal(err)
				}
				b.StopTimer()
				must(b, os.WriteFile(path, version(i+1), 0o644))
				b.StartTimer()
				if err := commit(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
