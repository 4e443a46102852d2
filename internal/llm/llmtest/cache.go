package llmtest

import (
	"crypto/sha256"
	"encoding/json"
	"sync"
)

// cacheBlock is one piece of a request's prompt in the order a provider
// caches it (tools, system prompt, messages): its size and whether it
// ends at a cache breakpoint (Anthropic's cache_control).
type cacheBlock struct {
	data       []byte
	breakpoint bool
}

// The prompt cache's terms, as the providers document them: nothing under
// 1,024 tokens is cached; OpenAI caches the longest prefix seen before,
// in steps of 128 tokens, by itself; Anthropic caches the prefix up to
// each breakpoint, and reads the longest cached prefix that ends at a
// block boundary at or before the last one.
const (
	minCachedTokens = 1024
	openAICacheStep = 128
	bytesPerToken   = 4
)

// promptCache simulates a provider's prompt cache over a server's
// requests, so that a test sees how much of its input a run's requests
// would read from the cache.
type promptCache struct {
	mu   sync.Mutex
	seen map[[32]byte]bool
}

// usage is the input usage of a request of blocks: the tokens read from
// the cache, written to it (Anthropic) and the rest, and records what
// the request leaves in the cache.
func (c *promptCache) usage(wire Wire, blocks []cacheBlock, output int) Usage {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = map[[32]byte]bool{}
	}
	h := sha256.New()
	var total, read, lastBreak int
	var prefixes []struct {
		sum        [32]byte
		size       int
		breakpoint bool
	}
	for _, b := range blocks {
		h.Write(b.data)
		total += len(b.data)
		var sum [32]byte
		copy(sum[:], h.Sum(nil))
		prefixes = append(prefixes, struct {
			sum        [32]byte
			size       int
			breakpoint bool
		}{sum, total, b.breakpoint})
		if b.breakpoint {
			lastBreak = total
		}
	}
	tokens := func(n int) int { return n / bytesPerToken }
	for _, p := range prefixes {
		if c.seen[p.sum] && (wire != Anthropic || p.size <= lastBreak) && tokens(p.size) >= minCachedTokens {
			read = p.size
		}
	}
	u := Usage{Output: output, CacheRead: tokens(read)}
	if wire != Anthropic {
		u.CacheRead = u.CacheRead / openAICacheStep * openAICacheStep
		for _, p := range prefixes {
			c.seen[p.sum] = true
		}
		u.Input = tokens(total) - u.CacheRead
		return u
	}
	for _, p := range prefixes {
		if p.breakpoint && tokens(p.size) >= minCachedTokens {
			c.seen[p.sum] = true
		}
	}
	if tokens(lastBreak) >= minCachedTokens && lastBreak > read {
		u.CacheWrite = tokens(lastBreak) - tokens(read)
	}
	u.Input = tokens(total) - u.CacheRead - u.CacheWrite
	return u
}

// jsonBlock is v as a cache block.
func jsonBlock(v any, breakpoint bool) cacheBlock {
	b, _ := json.Marshal(v)
	return cacheBlock{data: b, breakpoint: breakpoint}
}
