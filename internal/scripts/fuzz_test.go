package scripts

import "testing"

// FuzzLine: no line crashes or hangs the walk, and every file it names is
// an absolute, clean path.
func FuzzLine(f *testing.F) {
	for _, seed := range []string{
		"./x.sh", "python3 -m mod", "cd dir && ./x", "node dir/x.js", "uv run x.py",
		"sh -c 'cd a && bash -c \"python3 -m b\"'", "env -S 'sh -c ./x' -C /", "make -C a -C b -f x",
		"D=a; cd $D; ./${D}", "f() { f; }; f", "$(< x)", "a=(1 2); ./${a[0]}", "cd ~; ~/x",
		"timeout", "env -C", "flock", "uv run -m", "go run -C", "x |& y", "coproc ./x", "((x=$(./y)))",
		"[[ $(./t) ]]", "cat <<EOF\n$(./h)\nEOF\n", "sudo -D", "bash --rcfile", "\x00", "'",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, line string) {
		checkPaths(t, line, Line(line, place))
	})
}
