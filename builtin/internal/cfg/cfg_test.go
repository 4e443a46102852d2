package cfg

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// getter is a Key of any type, as the tests drive it.
type getter interface {
	name() string
	get(m map[string]any) (any, error)
	check(v any) error
}

type keyOf[T any] struct{ Key[T] }

func (k keyOf[T]) name() string                      { return k.Name }
func (k keyOf[T]) get(m map[string]any) (any, error) { return k.Get(m) }
func (k keyOf[T]) check(v any) error                 { return k.Setting().Check(v) }

func TestKeys(t *testing.T) {
	duration := keyOf[time.Duration]{DurationKey("timeout", time.Hour)}
	positiveDuration := keyOf[time.Duration]{PositiveDurationKey("timeout", time.Hour)}
	positive := keyOf[int]{PositiveIntKey("limit", 9)}
	str := keyOf[string]{StringKey("shell", "sh")}
	boolean := keyOf[bool]{BoolKey("allow", true)}
	list := keyOf[[]string]{StringsKey("roots")}
	tests := []struct {
		name string
		key  getter
		v    any // nil: the key is absent
		want any // nil: an error
	}{
		{"duration", duration, "30s", 30 * time.Second},
		{"duration compound", duration, "1m30s", 90 * time.Second},
		{"duration seconds", duration, 30, 30 * time.Second},
		{"duration fraction", duration, 1.5, 1500 * time.Millisecond},
		{"duration json number", duration, json.Number("2"), 2 * time.Second},
		{"duration numeric string", duration, "2", 2 * time.Second},
		{"duration zero", duration, "0s", time.Duration(0)},
		{"duration default", duration, nil, time.Hour},
		{"duration word", duration, "soon", nil},
		{"duration bool", duration, true, nil},
		{"duration list", duration, []any{"1s"}, nil},
		{"duration huge", duration, 1e300, nil},
		{"positive duration", positiveDuration, "2s", 2 * time.Second},
		{"positive duration zero", positiveDuration, 0, nil},
		{"positive duration negative", positiveDuration, "-1s", nil},
		{"positive int", positive, 5, 5},
		{"positive int float", positive, 5.0, 5},
		{"positive int string", positive, "7", 7},
		{"positive int default", positive, nil, 9},
		{"positive int zero", positive, 0, nil},
		{"positive int negative", positive, "-2", nil},
		{"positive int fraction", positive, 1.5, nil},
		{"positive int huge", positive, 1e12, nil},
		{"positive int word", positive, "many", nil},
		{"string", str, "x", "x"},
		{"string default", str, nil, "sh"},
		{"string list", str, []any{}, nil},
		{"string number", str, 3, nil},
		{"bool", boolean, false, false},
		{"bool string", boolean, "true", true},
		{"bool default", boolean, nil, true},
		{"bool word", boolean, "x", nil},
		{"bool number", boolean, 1, nil},
		{"strings", list, []any{"/a", "/b"}, []string{"/a", "/b"}},
		{"strings one", list, "/c", []string{"/c"}},
		{"strings default", list, nil, []string(nil)},
		{"strings mixed", list, []any{"/a", 3}, nil},
		{"strings number", list, 7, nil},
		{"strings mapping", list, map[string]any{"a": "b"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := map[string]any{}
			if tt.v != nil {
				// Written in another case: keys match without regard to it.
				m[strings.ToUpper(tt.key.name())] = tt.v
			}
			got, err := tt.key.get(m)
			checkErr := tt.key.check(tt.v)
			if tt.want == nil {
				if err == nil || checkErr == nil {
					t.Fatalf("Get = %v, %v; Check = %v: want errors from both", got, err, checkErr)
				}
				if !strings.HasPrefix(err.Error(), tt.key.name()+": want ") {
					t.Errorf("Get's error %q should name the key and say what it wants", err)
				}
				return
			}
			if err != nil || checkErr != nil {
				t.Fatalf("Get = %v, %v; Check = %v", got, err, checkErr)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Get = %#v, want %#v", got, tt.want)
			}
		})
	}
}

func TestLookupPrefersExactCase(t *testing.T) {
	m := map[string]any{"limit": 1, "LIMIT": 2}
	if v, _ := Lookup(m, "limit"); v != 1 {
		t.Errorf("Lookup = %v, want the exact key's 1", v)
	}
	if _, ok := Lookup(m, "other"); ok {
		t.Error("Lookup found a missing key")
	}
}
