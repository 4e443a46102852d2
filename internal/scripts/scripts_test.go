package scripts

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// place is where the test commands run: /p, with home /h and
// FORGE_PROJECT_DIR=/proj.
var place = Place{Dir: "/p", Home: "/h", Env: func(name string) (string, bool) {
	if name == "FORGE_PROJECT_DIR" {
		return "/proj", true
	}
	return "", false
}}

func TestLine(t *testing.T) {
	tests := []struct {
		line string
		want []string
	}{
		// The program itself, by its path.
		{"./x.sh", []string{"/p/x.sh"}},
		{"bin/srv --port 1", []string{"/p/bin/srv"}},
		{"/opt/tool/run", []string{"/opt/tool/run"}},
		{"~/bin/check", []string{"/h/bin/check"}},
		{"$FORGE_PROJECT_DIR/hooks/x.sh", []string{"/proj/hooks/x.sh"}},
		{`"${FORGE_PROJECT_DIR}"/hooks/x.sh`, []string{"/proj/hooks/x.sh"}},
		{`$HOME/x.sh`, []string{"/h/x.sh"}},
		{`\./x.sh`, []string{"/p/x.sh"}},
		{"ls -la /tmp", nil},
		{"git status", nil},
		{"echo done > /dev/null", nil},

		// Interpreters and their scripts, whatever their extension.
		{"bash x.sh", []string{"/p/x.sh"}},
		{"sh -eu tools/check", []string{"/p/tools/check"}},
		{"bash -o pipefail +x run.sh arg", []string{"/p/run.sh"}},
		{"bash --rcfile rc.sh x.sh", []string{"/p/rc.sh", "/p/x.sh"}},
		{"/bin/sh tools/guard.sh", []string{"/p/tools/guard.sh"}},
		{"python3 tools/check.py --fast", []string{"/p/tools/check.py"}},
		{"python3.12 -u -W ignore x.py", []string{"/p/x.py"}},
		{"python3 -m mod", []string{"/p/mod.py", "/p/mod"}},
		{"python -m pkg.sub.main arg", []string{"/p/pkg.py", "/p/pkg"}},
		{"python3 -mmod", []string{"/p/mod.py", "/p/mod"}},
		{"python3 -um mod", []string{"/p/mod.py", "/p/mod"}},
		{"python3 -c 'import x'", []string{"/p/x.py", "/p/x"}},
		{"node dir/x.js", []string{"/p/dir/x.js"}},
		{"node --require ./pre.js -r dotenv/config server.js", []string{"/p/pre.js", "/p/server.js"}},
		{"node -e 'require(1)'", nil},
		{"ruby -C sub x.rb", []string{"/p/sub/x.rb"}},
		{"perl -Ilib x.pl", []string{"/p/x.pl"}},
		{"php -f index.php", []string{"/p/index.php"}},
		{"awk -f prog.awk data.txt", []string{"/p/prog.awk"}},
		{"awk '{print}' data.txt", nil},
		{"sed -f edit.sed in.txt", []string{"/p/edit.sed"}},
		{"sed s/a/b/ in.txt", nil},

		// Standard input as the script.
		{"sh < x.sh", []string{"/p/x.sh"}},
		{"bash -s arg < x.sh", []string{"/p/x.sh"}},
		{"python3 - < x.py", []string{"/p/x.py"}},
		{"cat x.sh | sh", nil},

		// sh -c and eval: the line inside, in the same directory.
		{`sh -c './x.sh && bash y.sh'`, []string{"/p/x.sh", "/p/y.sh"}},
		{`bash -lc "cd sub && ./z"`, []string{"/p/sub/z"}},
		{`eval ./x.sh`, []string{"/p/x.sh"}},
		{`sh -c "$(cat cmd)"`, nil},

		// cd is followed; a cd in a subshell or a pipe stays there.
		{"cd dir && ./x", []string{"/p/dir/x"}},
		{"cd /abs; ./x", []string{"/abs/x"}},
		{"cd; ./x", []string{"/h/x"}},
		{"cd - && ./x", nil},
		{"cd $UNKNOWN && ./x", nil},
		{"(cd a && ./x); ./y", []string{"/p/a/x", "/p/y"}},
		{"cd a | true; ./y", []string{"/p/y"}},
		{"cd a && cd ../b && python3 -m tool", []string{"/p/b/tool.py", "/p/b/tool"}},
		{"pushd a >/dev/null && ./x; popd; ./y", []string{"/p/a/x"}},

		// Wrappers and runners.
		{"env -u BAR FOO=1 python3 x.py", []string{"/p/x.py"}},
		{"env -C sub ./x", []string{"/p/sub/x"}},
		{"env FOO=1 -u BAR", nil},
		{"env -S 'python3 x.py'", []string{"/p/x.py"}},
		{"timeout -s KILL 30 ./slow.sh", []string{"/p/slow.sh"}},
		{"nice -n 5 nohup exec ./x", []string{"/p/x"}},
		{"sudo -u bob -D /srv ./x", []string{"/srv/x"}},
		{"command -v ./x", nil},
		{"xargs -I{} python3 x.py {}", []string{"/p/x.py"}},
		{"flock /tmp/lock -c './x.sh'", []string{"/p/x.sh"}},
		{"uv run x.py", []string{"/p/x.py"}},
		{"uv run --with requests --directory sub tools/x.py", []string{"/p/sub/tools/x.py"}},
		{"uv run -m srv", []string{"/p/srv.py", "/p/srv"}},
		{"uv run python -m srv", []string{"/p/srv.py", "/p/srv"}},
		{"uv run pytest", nil},
		{"poetry run python x.py", []string{"/p/x.py"}},
		{"bundle exec ruby x.rb", []string{"/p/x.rb"}},
		{"npm run lint", []string{"/p/node_modules", "/p/package.json"}},
		{"npm --prefix web test", []string{"/p/web/node_modules", "/p/web/package.json"}},
		{"pnpm exec tsx src/x.ts", []string{"/p/node_modules", "/p/src/x.ts"}},
		{"bun run scripts/x.ts", []string{"/p/scripts/x.ts"}},
		{"deno run --allow-read main.ts", []string{"/p/main.ts"}},
		{"make -C sub lint", []string{"/p/sub/GNUmakefile", "/p/sub/makefile", "/p/sub/Makefile"}},
		{"make -f ci.mk", []string{"/p/ci.mk"}},
		{"just check", []string{"/p/justfile", "/p/Justfile", "/p/.justfile"}},
		{"go run ./cmd/check", []string{"/p/cmd/check"}},
		{"go run -tags x main.go util.go -v", []string{"/p/main.go", "/p/util.go"}},
		{"source env.sh && . ./more.sh", []string{"/p/env.sh", "/p/more.sh"}},

		// Variables assigned in the line; words only known at run time.
		{"D=tools; ./$D/x.sh", []string{"/p/tools/x.sh"}},
		{"export D=tools; sh $D/x.sh", []string{"/p/tools/x.sh"}},
		{"D=$(pwd); $D/x.sh", nil},
		{"./$UNKNOWN.sh", nil},
		{"./*.sh", nil},
		{"./{a,b}.sh", nil},
		{"sh ${D:-x}.sh", nil},

		// Every branch, and the commands inside substitutions.
		{"if ./check; then ./a; else ./b; fi", []string{"/p/check", "/p/a", "/p/b"}},
		{"for f in 1 2; do python3 x.py; done", []string{"/p/x.py"}},
		{"echo $(./gen.sh) `./old.sh`", []string{"/p/gen.sh", "/p/old.sh"}},
		{"f() { ./inner.sh; }; f", []string{"/p/inner.sh"}},
		{"case x in x) ./c.sh;; esac", []string{"/p/c.sh"}},
		{"while ./w; do :; done", []string{"/p/w"}},
		{"./x.sh; ./x.sh", []string{"/p/x.sh"}},

		// What does not parse names nothing.
		{"if then", nil},
		{"", nil},
	}
	for _, tt := range tests {
		t.Run(tt.line, func(t *testing.T) {
			got := Line(tt.line, place)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Line(%q) = %q, want %q", tt.line, got, tt.want)
			}
		})
	}
}

func TestArgv(t *testing.T) {
	tests := []struct {
		argv []string
		want []string
	}{
		{[]string{"node", "./tools/server.js"}, []string{"/p/tools/server.js"}},
		{[]string{"python", "-m", "srv"}, []string{"/p/srv.py", "/p/srv"}},
		{[]string{"./bin/srv", "--stdio"}, []string{"/p/bin/srv"}},
		{[]string{"sh", "-c", "cd tools && ./srv"}, []string{"/p/tools/srv"}},
		// No shell: the words are taken as they are.
		{[]string{"node", "$X/x.js"}, []string{"/p/$X/x.js"}},
		{[]string{"npx", "-y", "@modelcontextprotocol/server-github"}, []string{"/p/node_modules"}},
		{[]string{"uvx", "mcp-server-git"}, nil},
		{nil, nil},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.argv, " "), func(t *testing.T) {
			got := Argv(tt.argv, place)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Argv(%q) = %q, want %q", tt.argv, got, tt.want)
			}
		})
	}
}

// Without a known directory, relative paths name nothing rather than
// files somewhere else.
func TestUnknownDirectory(t *testing.T) {
	if got := Line("./x.sh; /abs/y.sh", Place{}); !slices.Equal(got, []string{"/abs/y.sh"}) {
		t.Errorf("Line without a directory = %q", got)
	}
	if got := Line("~/x.sh", Place{Dir: "/p"}); got != nil {
		t.Errorf("~ without a home = %q", got)
	}
}

// Deep nesting stops the walk; it never overflows.
func TestDeepNesting(t *testing.T) {
	line := strings.Repeat("(", 5000) + "./x" + strings.Repeat(")", 5000)
	_ = Line(line, place)
	line = "./x"
	for range 12 {
		line = "sh -c " + shellQuote(line)
	}
	_ = Line(line, place)
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// Every path returned is absolute and clean.
func checkPaths(t *testing.T, in string, got []string) {
	t.Helper()
	for _, p := range got {
		if !filepath.IsAbs(p) || filepath.Clean(p) != p {
			t.Fatalf("Line(%q) returned %q: not an absolute, clean path", in, p)
		}
	}
}
