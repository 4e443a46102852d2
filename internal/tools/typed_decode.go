package tools

import (
	"fmt"
	"reflect"
)

// decodeValue stores v (a JSON value in any representation Validate accepts)
// into dst, by reflection: faster than a JSON round trip and exact for
// integers. plans are the typed tool's struct plans; path names the value in
// messages.
func decodeValue(plans map[reflect.Type][]fieldPlan, dst reflect.Value, v any, path string) error {
	if v == nil {
		return nil // absent: the zero value (or nil pointer) stays
	}
	bad := func() error {
		return fmt.Errorf("Invalid type for %s: cannot use %T as %s", pathName(path), v, dst.Type())
	}
	switch dst.Kind() {
	case reflect.Pointer:
		p := reflect.New(dst.Type().Elem())
		if err := decodeValue(plans, p.Elem(), v, path); err != nil {
			return err
		}
		dst.Set(p)
	case reflect.Interface:
		rv := reflect.ValueOf(v)
		if !rv.Type().AssignableTo(dst.Type()) {
			return bad()
		}
		dst.Set(rv)
	case reflect.String:
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		dst.SetString(s)
	case reflect.Bool:
		b, ok := v.(bool)
		if !ok {
			return bad()
		}
		dst.SetBool(b)
	case reflect.Int, reflect.Int64, reflect.Int32, reflect.Int16, reflect.Int8:
		n, ok := asInt(v)
		if !ok || dst.OverflowInt(int64(n)) {
			return bad()
		}
		dst.SetInt(int64(n))
	case reflect.Uint, reflect.Uint64, reflect.Uint32, reflect.Uint16, reflect.Uint8:
		n, ok := asInt(v)
		if !ok || n < 0 || dst.OverflowUint(uint64(n)) {
			return bad()
		}
		dst.SetUint(uint64(n))
	case reflect.Float32, reflect.Float64:
		f, ok := asFloat(v)
		if !ok {
			return bad()
		}
		dst.SetFloat(f)
	case reflect.Slice:
		items, ok := asSlice(v)
		if !ok {
			return bad()
		}
		s := reflect.MakeSlice(dst.Type(), len(items), len(items))
		for i, it := range items {
			if err := decodeValue(plans, s.Index(i), it, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		dst.Set(s)
	case reflect.Array:
		items, ok := asSlice(v)
		if !ok || len(items) > dst.Len() {
			return bad()
		}
		for i, it := range items {
			if err := decodeValue(plans, dst.Index(i), it, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
	case reflect.Map:
		m, ok := asMap(v)
		if !ok {
			return bad()
		}
		out := reflect.MakeMapWithSize(dst.Type(), len(m))
		for k, e := range m {
			ev := reflect.New(dst.Type().Elem()).Elem()
			if err := decodeValue(plans, ev, e, joinPath(path, k)); err != nil {
				return err
			}
			out.SetMapIndex(reflect.ValueOf(k).Convert(dst.Type().Key()), ev)
		}
		dst.Set(out)
	case reflect.Struct:
		m, ok := asMap(v)
		if !ok {
			return bad()
		}
		for _, f := range plans[dst.Type()] {
			fv, ok := m[f.name]
			if !ok {
				continue
			}
			if err := decodeValue(plans, dst.FieldByIndex(f.index), fv, joinPath(path, f.name)); err != nil {
				return err
			}
		}
	default:
		return bad()
	}
	return nil
}

func joinPath(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func pathName(path string) string {
	if path == "" {
		return "arguments"
	}
	return path
}
