package permission_test

import (
	"fmt"

	"github.com/forgehq/forge/internal/permission"
	"github.com/forgehq/forge/internal/tools"
)

func Example() {
	p, err := permission.New(permission.Config{
		Mode:       permission.ModeAsk,
		Allow:      []string{"Bash(go test:*)", "mcp__github__*"},
		Deny:       []string{"Bash(rm:*)", "Read(*.env)"},
		WorkingDir: "/work/project",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, c := range []permission.Call{
		{Tool: "Bash", Args: tools.Args{"command": "go test ./..."}},
		{Tool: "Bash", Args: tools.Args{"command": "go test ./... && rm -rf build"}},
		{Tool: "Bash", Args: tools.Args{"command": "npm install"}},
		{Tool: "Read", Args: tools.Args{"file_path": "config/prod.env"}, ReadOnly: true},
		{Tool: "Edit", Args: tools.Args{"file_path": "main.go"}, EditsFiles: true},
	} {
		v := p.Decide(c)
		fmt.Printf("%s: %s\n", v.Decision, v.Reason)
		if v.Decision == permission.Ask {
			fmt.Printf("  always: %q\n", v.Always)
		}
	}
	// Output:
	// allow: allowed by rule Bash(go test:*)
	// deny: denied by rule Bash(rm:*): `rm -rf build`
	// ask: no rule allows Bash(npm install); add an allow rule such as Bash(npm install:*)
	//   always: ["Bash(npm install:*)"]
	// deny: denied by rule Read(*.env)
	// ask: ask mode asks before edits such as Edit(main.go); run with --approval auto-edit or add an allow rule such as Edit
	//   always: ["Edit"]
}

func ExampleNew_errors() {
	_, err := permission.New(permission.Config{
		WorkingDir: "/work/project",
		Allow:      []string{"Bash()", "Bash(go test:*)"},
		Deny:       []string{"Read([a-z)"},
	})
	fmt.Println(err)
	// Output:
	// permissions.allow rule "Bash()": the pattern is empty; write Bash alone to match every call, or Bash(pattern)
	// permissions.deny rule "Read([a-z)": bad glob "[a-z": check its [ ] and { } pairs and trailing \
}
