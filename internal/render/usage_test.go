package render

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/forgehq/forge/internal/llm"
)

func TestUsageLine(t *testing.T) {
	for _, tc := range []struct {
		u      llm.Usage
		cost   float64
		priced bool
		want   string
	}{
		{llm.Usage{}, 0, true, ""},
		{llm.Usage{InputTokens: 1200, OutputTokens: 80}, 0.00042, true, "1200 in · 80 out · $0.0004"},
		{llm.Usage{InputTokens: 52_340, CacheReadTokens: 48_000, OutputTokens: 1_210}, 0.0312, true, "52.3k in (48.0k cached) · 1210 out · $0.03"},
		{llm.Usage{InputTokens: 3_400_000, OutputTokens: 20_000}, 123.4, true, "3.4M in · 20.0k out · $123"},
		{llm.Usage{InputTokens: 10, OutputTokens: 2}, 0, false, "10 in · 2 out"},
	} {
		if got := UsageLine(tc.u, tc.cost, tc.priced); got != tc.want {
			t.Errorf("UsageLine(%+v, %v, %v) = %q, want %q", tc.u, tc.cost, tc.priced, got, tc.want)
		}
	}
}

func TestShortDetail(t *testing.T) {
	long := strings.Repeat("é", 1500) // 3000 bytes
	got := shortDetail(long)
	if !utf8.ValidString(got) || !strings.HasSuffix(got, "… (1000 more bytes)") || len(got) > maxDetail+30 {
		t.Errorf("shortDetail: %d bytes, ends %q", len(got), got[len(got)-30:])
	}
	if shortDetail("echo hi") != "echo hi" {
		t.Error("a short detail changed")
	}
}
