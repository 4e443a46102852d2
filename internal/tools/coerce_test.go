package tools

import (
	"encoding/json"
	"math"
	"math/big"
	"strconv"
	"strings"
	"testing"
)

// floatToInt must hold to int's own bounds: on a 32-bit platform 2^31 would
// otherwise wrap to MinInt32 and pass validation as a negative number.
func TestFloatToInt(t *testing.T) {
	top := -float64(math.MinInt) // 2^31 or 2^63: the first float64 past MaxInt
	cases := []struct {
		f    float64
		want int
		ok   bool
	}{
		{0, 0, true},
		{-7, -7, true},
		{42, 42, true},
		{1e9, 1_000_000_000, true},
		{float64(math.MinInt), math.MinInt, true},
		{top, 0, false},
		{-top * 2, 0, false},
		{top * 2, 0, false},
		{3.5, 0, false},
		{math.NaN(), 0, false},
		{math.Inf(1), 0, false},
		{math.Inf(-1), 0, false},
	}
	for _, c := range cases {
		got, ok := floatToInt(c.f)
		if ok != c.ok || ok && got != c.want {
			t.Errorf("floatToInt(%v) = %d, %v; want %d, %v", c.f, got, ok, c.want, c.ok)
		}
	}
}

// FuzzParseInt checks parseInt against exact rational arithmetic: a JSON
// number is accepted exactly when it denotes an integer that fits in an
// int, and then as that integer, never as a float64's rounding of it.
func FuzzParseInt(f *testing.F) {
	for _, s := range []string{
		"42", "42.0", "4.2e1", "120e-1", "12.5e1", "1.25e1", "-0.0e5", "0.5", "1e19", "1E2", "1e+2",
		"9007199254740993.0", "9223372036854775807.0", "-9223372036854775808.0", "-9223372036854775809",
		"0.00000000000000000000000001e26", "1.0000000000000001", "1e-400", "100e-2", "7e-99999999999",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		got, ok := parseInt(s)
		if !isJSONNumber(s) || exponentOver(s, 400) {
			return // big.Rat would take too long; validity is JSON's business
		}
		r, valid := new(big.Rat).SetString(s)
		if !valid {
			t.Fatalf("big.Rat cannot read the JSON number %q", s)
		}
		want := r.IsInt() && r.Num().IsInt64() && r.Num().Int64() >= math.MinInt && r.Num().Int64() <= math.MaxInt
		if ok != want || ok && int64(got) != r.Num().Int64() {
			t.Fatalf("parseInt(%q) = %d, %v; exactly it is %s", s, got, ok, r.RatString())
		}
	})
}

// isJSONNumber reports whether s is one JSON number and nothing else.
func isJSONNumber(s string) bool {
	if s == "" || strings.TrimSpace(s) != s || !(s[0] == '-' || s[0] >= '0' && s[0] <= '9') {
		return false
	}
	var n json.Number
	return json.Unmarshal([]byte(s), &n) == nil
}

// exponentOver reports whether s has an exponent beyond ±limit.
func exponentOver(s string, limit int) bool {
	i := strings.IndexAny(s, "eE")
	if i < 0 {
		return false
	}
	e, err := strconv.Atoi(s[i+1:])
	return err != nil || e > limit || e < -limit
}
