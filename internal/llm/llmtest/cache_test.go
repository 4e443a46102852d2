package llmtest

import (
	"strings"
	"testing"
)

// The simulated cache pays for breakpoints where they are: on Anthropic's
// wire a request reads the prefix an earlier one wrote at a breakpoint,
// up to its own last breakpoint, and writes what follows; without a
// breakpoint at the moving end only the fixed part is read. OpenAI's
// reads the longest prefix seen, in steps of 128 tokens.
func TestPromptCacheSimulation(t *testing.T) {
	big := func(c byte) []byte { return []byte(strings.Repeat(string(c), 8000)) } // 2,000 tokens
	tools, system := cacheBlock{data: big('t')}, cacheBlock{data: big('s'), breakpoint: true}
	m1, m2, m3 := cacheBlock{data: big('1')}, cacheBlock{data: big('2')}, cacheBlock{data: big('3')}
	withEnd := func(bs ...cacheBlock) []cacheBlock {
		out := append([]cacheBlock{tools, system}, bs...)
		out[len(out)-1].breakpoint = true
		return out
	}
	var c promptCache
	if u := c.usage(Anthropic, withEnd(m1), 5); u != (Usage{Input: 0, CacheWrite: 6000, Output: 5}) {
		t.Errorf("first: %+v", u)
	}
	if u := c.usage(Anthropic, withEnd(m1, m2), 5); u != (Usage{CacheRead: 6000, CacheWrite: 2000, Output: 5}) {
		t.Errorf("second, moving end: %+v", u)
	}
	var fixed promptCache
	noEnd := func(bs ...cacheBlock) []cacheBlock { return append([]cacheBlock{tools, system}, bs...) }
	fixed.usage(Anthropic, noEnd(m1), 5)
	if u := fixed.usage(Anthropic, noEnd(m1, m2, m3), 5); u != (Usage{Input: 6000, CacheRead: 4000, Output: 5}) {
		t.Errorf("without a breakpoint at the end: %+v", u)
	}
	var oa promptCache
	if u := oa.usage(OpenAI, []cacheBlock{tools, m1}, 1); u != (Usage{Input: 4000, Output: 1}) {
		t.Errorf("openai first: %+v", u)
	}
	if u := oa.usage(OpenAI, []cacheBlock{tools, m1, {data: []byte("short")}}, 1); u.CacheRead != 3968 || u.Input != 4001-3968 {
		t.Errorf("openai second: %+v", u)
	}
}
