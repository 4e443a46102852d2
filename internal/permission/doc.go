// Package permission is the approval policy of forge's agent: before a tool
// call runs, Policy.Decide says whether to allow it, deny it or ask the
// person. The package never prints nor reads a terminal; asking is the
// agent's job, and with no one to ask the agent refuses with the Verdict's
// Reason, which says how to allow such calls.
//
// # Order
//
// Decide applies, in this order: deny rules (a match denies: nothing
// beats a deny rule, yolo mode included); plan mode (a call that is not
// read-only is denied, even when an allow rule matches, since plan mode
// promises that nothing changes); what only the person may allow (edits
// of forge's own settings, below); credentials (below); allow rules and
// the rules remembered this session (a match allows); egress (below);
// then the mode.
//
// # Credentials and egress
//
// A read-only tool is not a tool that cannot leak: reading a key and
// fetching a URL that carries it are both read-only. So, in every mode but
// yolo, plan mode included:
//
//   - A call whose path argument is in a credential location, or holds one
//     (a search over the home directory), asks, unless an allow rule with
//     a path pattern matches the path (Read(~/.ssh/config)); a rule for
//     every call of the tool does not. Config.Credentials lists the
//     locations (DefaultCredentials, forge's own state); paths match after
//     ~, .. and symbolic links are resolved.
//   - A call that sends data to a host (Call.Hosts: WebFetch's URL host,
//     WebSearch's endpoint) asks unless an allow rule or an earlier
//     "always" approved it: Tool(domain:example.com). A call that may send
//     data to places it cannot name (Call.OpenWorld: an MCP tool open to
//     the world) asks unless a rule allows the tool.
//
// # Modes
//
//   - ask (the default): read-only tools run, unless they reach
//     credentials or send data away; everything else asks.
//   - auto-edit: also allows calls of tools that edit files (Call.EditsFiles)
//     when every path argument lands inside the working directory or an
//     allowed root. A path lands where it leads once symbolic links are
//     followed, so .., absolute paths elsewhere and links leading out are
//     outside; so is ~/x when a home directory is configured, since some
//     tools expand it.
//   - yolo: allows everything no deny rule denies.
//   - plan: read-only tools only (those reaching credentials or sending
//     data ask); everything else is denied.
//
// # Rules
//
// A rule is Tool or Tool(pattern); Tool may be a glob over tool names
// (mcp__github__*, *), and a rule applies to every tool it names, MCP and
// plugin tools included. A rule without a pattern, or with the pattern *,
// matches every call of its tools. Otherwise the pattern meets the call's
// subjects, chosen by its arguments, the first that applies:
//
//   - A string command argument (Bash, and any tool with one) is a shell
//     line, split with a bash parser into its simple commands: across && ||
//     ; | & and newlines, into ( ) and { } groups, $( ) and backtick
//     substitutions, <( ) and >( ), if/for/while/case bodies and function
//     bodies. Harmless leading assignments (CGO_ENABLED=0 go test) and
//     wrappers that only change how a command runs (timeout, nice, nohup,
//     env, command, stdbuf, ionice, setsid, time, busybox) are set aside;
//     sudo, xargs, flock, watch, su, strace and find -exec make two
//     commands, the wrapper and what it runs. bash -c 'X', sh -c, eval,
//     env -S, su -c, watch and git -c alias.x='!X' add the commands of X,
//     and trap adds its handler's.
//
//     A pattern ending in :* is a command prefix: Bash(go test:*) matches a
//     command whose first words are go and test (go testify does not
//     match). Any other pattern is a glob over the whole command, its words
//     joined by spaces, where * matches anything, spaces included, and
//     every other character itself; without * it is an exact match. Words
//     are compared unquoted ("go" 'test' is go test).
//
//     A prefix rule allows further operands, and further options only when
//     they are known to neither run or load code or configuration, nor
//     write a file, nor change directory (go test -race, git log
//     --oneline; any option of ls or cat): an allowlist per program and
//     subcommand, since a list of the bad options would miss the next one.
//     Any other option asks, spelled as --opt=v, --opt v, -sEfoo, quoted or
//     abbreviated; so do make's VAR=value operands, dd's of=, uniq's output
//     file, a sed or awk
//     script that can run a program or read or write a file (sed's e, w,
//     r, s///e; awk's system(), pipes, >), a word that may expand
//     to an option ($X, *, but not the value of a known option), and the
//     options after -- of a program that hands them on (npm run X --,
//     cargo test --, go test --). For a program forge does not know, every
//     option asks. In a glob rule a * stands for operands only, and an
//     option is named by a word of the pattern that matches it. The ask
//     reason names the option the rule does not name.
//
//     An allow rule allows a line only when forge has read all of it and
//     the allow rules together allow every simple command of it. A
//     command's expansions ($X, $(cmd)) are allowed only where the pattern
//     has a *. The splitter is an allowlist: only constructs known to run
//     nothing but their parts pass, and the rest become commands no rule
//     with a pattern allows: arithmetic, [[ -eq ]], subscripts and slices on
//     anything but numbers, ${!x} and ${x@P} (bash evaluates a value's text,
//     and a[$(cmd)] in it runs cmd); builtins that assign to names or change
//     the shell (declare, read, printf -v, eval, source, trap, exec, alias,
//     builtin, hash, set but for its safety options...); function
//     definitions, coproc, select; a variable set before a command unless it
//     is known to be harmless (LANG, TZ, GOOS, NODE_ENV; never PATH, HOME,
//     LD_*, GIT_*), and one set alone unless it is a plain lower-case name;
//     a program named only when it runs; git -c; a redirection to a file,
//     to /dev/tcp, or from a file named only when it runs. A command that
//     runs a script the rule cannot see (bash script.sh, sh reading its
//     input) is allowed only by a rule whose pattern starts with that
//     program's name. A line that does not parse, nests too deeply or holds
//     a carriage return is allowed only by a rule matching every call; in
//     yolo mode it runs unless a deny rule matches its text.
//
//     A deny rule denies a line when it could match any of its commands as
//     the shell will run them: an expansion may stand for any text (so
//     Bash(rm -rf /) denies rm -rf $DIR and rm -rf /*), options may come
//     between a prefix's words (Bash(git push:*) denies git -C dir push), a
//     program path is also tried by its name (/bin/rm is rm), wrappers are
//     seen through, find -delete is rm, and a value a program runs
//     (GIT_PAGER='cmd') is read as a line. A line with a command whose
//     effect forge cannot see (eval "$X", arithmetic on a value, a git
//     alias from a configuration file) asks when a deny rule with a command
//     pattern names the tool.
//
//     Whatever the rules and the mode, a line naming forge's own settings,
//     a protected place or a repository's .git/config or .git/hooks, or
//     running forge trust, asks; a line naming a credential, or a
//     directory holding one (grep -r KEY ~) unless its programs only list
//     names (ls, cd, du, stat...), asks in every mode but yolo. Its words are matched as bash will expand them: the
//     environment's variables (Config.Getenv), the line's own variables and
//     loops, a cd before, .., //, globs with bash's rule for leading dots,
//     links. A word forge cannot resolve ($(cmd), $1) that could name such
//     a place makes a line the rules or the mode would allow ask, once at a
//     time (not in yolo).

//   - Otherwise, file_path, notebook_path and path arguments are paths,
//     matched with gitignore-like globs (** for any depth). A pattern
//     without a slash matches the base name at any depth (Read(*.env)
//     matches config/.env); ./x and x/y are relative to the working
//     directory, /x is absolute, ~/x is in the home directory, and a
//     trailing slash means everything below. Paths are made absolute and
//     cleaned first, so Read(secrets/**) also matches
//     ./secrets/../secrets/k. A deny rule matches a path as written or
//     where it leads through symbolic links; an allow rule must match
//     where it leads.
//
//   - Otherwise a url argument: domain:example.com matches that host and
//     its subdomains; any other pattern is a glob over the URL. A domain
//     rule must also cover the hosts the call sends data to (Call.Hosts),
//     and for a call without a url (WebSearch) it meets those alone.
//
//   - Otherwise the pattern is a glob (as for commands) that matches when
//     it matches any top-level string argument.
//
// A :* pattern meets only commands and a domain: pattern only URLs and hosts.
// Malformed rules (an empty name or pattern, unbalanced parentheses, a bad
// glob, a pattern kind a built-in tool cannot use) are errors naming the
// rule; New reports all of them at once.
//
// # Remembering
//
// When the person answers "always", the agent calls Remember, which adds
// the narrowest useful rules for this session only (see SuggestRule):
// Bash(go test:*) for go test ./..., one rule for each command of a line
// not yet allowed, WebFetch(domain:example.com) for a host (never the
// tool's name alone), Read(~/.ssh/config) for a credential, the tool's
// name for other tools. Verdict.Always shows them before the person
// answers.
//
// # Checking
//
// ParseCall turns "Bash(rm -rf build)" into a Call, so that rules can be
// checked without running anything.
package permission
