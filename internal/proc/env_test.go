package proc

import (
	"slices"
	"testing"
)

func TestSecretName(t *testing.T) {
	for _, c := range []struct {
		name   string
		secret bool
	}{
		{"OPENAI_API_KEY", true},
		{"ANTHROPIC_API_KEY", true},
		{"GITHUB_TOKEN", true},
		{"AWS_SECRET_ACCESS_KEY", true},
		{"PGPASSWORD", true},
		{"MYSQL_PASSWD", true},
		{"my_api_key", true},
		{"Slack_Token", true},
		{"PATH", false},
		{"HOME", false},
		{"SSH_AUTH_SOCK", false},
		{"LANG", false},
		{"", false},
	} {
		if got := SecretName(c.name); got != c.secret {
			t.Errorf("SecretName(%q) = %v, want %v", c.name, got, c.secret)
		}
	}
}

func TestEnviron(t *testing.T) {
	env := []string{
		"PATH=/usr/bin",
		"OPENAI_API_KEY=sk-1",
		"GITHUB_TOKEN=ghp",
		"AWS_SECRET_ACCESS_KEY=x",
		"AWS_REGION=eu-west-1",
		"PGPASSWORD=pw",
		"EMPTY=",
		"=C:=C:\\",
		"NOEQUALS",
		"HOME=/home/me=you",
	}
	cases := []struct {
		name string
		pass []string
		want []string
	}{
		{"secrets dropped", nil,
			[]string{"PATH=/usr/bin", "AWS_REGION=eu-west-1", "EMPTY=", "=C:=C:\\", "NOEQUALS", "HOME=/home/me=you"}},
		{"passed by name, in any case", []string{"github_token", " PGPASSWORD "},
			[]string{"PATH=/usr/bin", "GITHUB_TOKEN=ghp", "AWS_REGION=eu-west-1", "PGPASSWORD=pw", "EMPTY=", "=C:=C:\\", "NOEQUALS", "HOME=/home/me=you"}},
		{"passed by pattern", []string{"AWS_*"},
			[]string{"PATH=/usr/bin", "AWS_SECRET_ACCESS_KEY=x", "AWS_REGION=eu-west-1", "EMPTY=", "=C:=C:\\", "NOEQUALS", "HOME=/home/me=you"}},
		{"a bad pattern matches nothing", []string{"[", "OPENAI_API_KEY"},
			[]string{"PATH=/usr/bin", "OPENAI_API_KEY=sk-1", "AWS_REGION=eu-west-1", "EMPTY=", "=C:=C:\\", "NOEQUALS", "HOME=/home/me=you"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			orig := slices.Clone(env)
			got := Environ(env, c.pass)
			if !slices.Equal(got, c.want) {
				t.Errorf("Environ = %q\nwant %q", got, c.want)
			}
			if !slices.Equal(env, orig) {
				t.Error("Environ modified its input")
			}
		})
	}
}

func BenchmarkEnviron(b *testing.B) {
	env := make([]string, 0, 60)
	for range 50 {
		env = append(env, "SOME_ORDINARY_VARIABLE=value")
	}
	env = append(env, "OPENAI_API_KEY=x", "GITHUB_TOKEN=y")
	b.ReportAllocs()
	for b.Loop() {
		_ = Environ(env, []string{"GITHUB_TOKEN"})
	}
}
