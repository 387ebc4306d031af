package nn

import (
	"fmt"
	"slices"
	"strings"
)

// dict is the representation of a dict Value: its keys in order (a
// Python dict keeps its insertion order) and their values.
type dict struct {
	keys []string
	vals []Value
}

// Dict returns the dict of keys and their values, in that order, as
// Python's dict(zip(keys, vals)): a model's dict input (export passes a
// dict input this way) or a dict output. Model code reads it with Get,
// Index (v.Index("ids")) and Keys. Dict panics when keys and vals differ
// in number or a key repeats.
func Dict(keys []string, vals ...Value) Value {
	if len(keys) != len(vals) {
		panic(errorf("Dict: %d keys and %d values", len(keys), len(vals)))
	}
	for i, k := range keys {
		if slices.Contains(keys[:i], k) {
			panic(errorf("Dict: the key %q repeats", k))
		}
	}
	return Value{dict{slices.Clone(keys), slices.Clone(vals)}}
}

// dictOf makes a dict of a Go map, its keys sorted (a Go map has no order).
func dictOf[V any](m map[string]V, conv func(V) (Value, error)) (Value, error) {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	vals := make([]Value, len(keys))
	for i, k := range keys {
		v, err := conv(m[k])
		if err != nil {
			return None, fmt.Errorf("key %q: %w", k, err)
		}
		vals[i] = v
	}
	return Value{dict{keys, vals}}, nil
}

// IsDict reports whether v is a dict.
func (v Value) IsDict() bool { _, ok := v.v.(dict); return ok }

// Keys returns the keys of a dict in order (nil for anything else).
func (v Value) Keys() []string {
	d, _ := v.v.(dict)
	return slices.Clone(d.keys)
}

// Get returns the value of a dict's key, as Python's d[key]: a missing
// key, or v not a dict, panics with a KeyError naming the keys there are.
func (v Value) Get(key string) Value {
	d, ok := v.v.(dict)
	if !ok {
		panic(errorf("%s[%q]: only a dict is indexed by a string key, got %s", v.Kind(), key, v.Kind()))
	}
	out, err := d.item(key)
	if err != nil {
		panic(errorf("%v", err))
	}
	return out
}

func (d dict) item(key string) (Value, error) {
	if i := slices.Index(d.keys, key); i >= 0 {
		return d.vals[i], nil
	}
	return None, fmt.Errorf("KeyError: %q (the dict's keys: %q)", key, d.keys)
}

func (d dict) String() string {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range d.keys {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "'%s': %s", k, d.vals[i])
	}
	b.WriteByte('}')
	return b.String()
}

// Object wraps a Go value that no other Value kind holds (a struct of
// model inputs, such as a struct type registered with export.Register) as
// an opaque Value: model code gets it back with Any and reads its fields.
// A value Of accepts is wrapped as Of wraps it.
func Object(x any) Value {
	if v, err := valueOf(x); err == nil {
		return v
	}
	return Value{x}
}
