package builtin

import (
	"testing"

	"github.com/forgehq/forge/internal/tools"
)

// A successful Read is summed up as the lines it read: the shell shows
// that instead of the file's first lines.
func TestReadBrief(t *testing.T) {
	dir := realTempDir(t)
	writeFiles(t, dir, map[string]string{"ten.txt": "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n", "one.txt": "x\n", "empty.txt": ""})
	reg := tools.NewRegistry()
	if err := Register(reg); err != nil {
		t.Fatal(err)
	}
	read, _ := reg.Get("Read")
	exec := tools.NewExecutor(reg)
	for _, tc := range []struct {
		args tools.Args
		want string
	}{
		{tools.Args{"file_path": "ten.txt"}, "10 lines"},
		{tools.Args{"file_path": "one.txt"}, "1 line"},
		{tools.Args{"file_path": "ten.txt", "offset": 2, "limit": 3}, "lines 3-5 of 10"},
		{tools.Args{"file_path": "ten.txt", "limit": 4}, "lines 1-4 of 10"},
		{tools.Args{"file_path": "ten.txt", "offset": 8}, "lines 9-10 of 10"},
		{tools.Args{"file_path": "empty.txt"}, "empty file"},
		{tools.Args{"file_path": "missing.txt"}, ""}, // a failure keeps its panel
	} {
		res := exec.Execute(t.Context(), "Read", tools.NewExecutionContext(dir), tc.args)
		if got := tools.Present(read, tc.args, res).Brief; got != tc.want {
			t.Errorf("%v: brief %q, want %q (%+v)", tc.args, got, tc.want, res.Metadata)
		}
	}
}
