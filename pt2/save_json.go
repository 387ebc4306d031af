package pt2

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// The JSON that Save writes is built as a tree of these values and printed
// by writeJSON, so that keys come out in the order torch.export writes them
// (the dataclass field order of schema.py) and floats as Python prints
// them (2.0, 1e-05, Infinity): encoding/json would print 2.0 as 2, which
// Python reads back as an int.
//
//	obj      an object, keys in insertion order
//	[]any    an array
//	string, int64, int, bool, nil, pyFloat
type obj struct {
	keys []string
	vals []any
}

// pyFloat is a float printed as Python's json.dumps prints it.
type pyFloat float64

func newObj() *obj { return &obj{} }

// set appends key: v and returns o.
func (o *obj) set(key string, v any) *obj {
	o.keys = append(o.keys, key)
	o.vals = append(o.vals, v)
	return o
}

// one returns the object {key: v}: a union of schema.py.
func one(key string, v any) *obj { return newObj().set(key, v) }

// formatPyFloat prints f as Python's repr does: the shortest digits, a
// ".0" on integral values, exponent form below 1e-4 and from 1e16, and
// Infinity / -Infinity / NaN as json.dumps writes them.
func formatPyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case math.IsNaN(f):
		return "NaN"
	case f == 0:
		if math.Signbit(f) {
			return "-0.0"
		}
		return "0.0"
	}
	abs := math.Abs(f)
	if abs < 1e-4 || abs >= 1e16 {
		s := strconv.FormatFloat(f, 'e', -1, 64)
		// Go writes 1e-05 and 1e+16 as Python does.
		return s
	}
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !bytes.ContainsAny([]byte(s), ".") {
		s += ".0"
	}
	return s
}

// writeJSON prints v as json.dumps does (", " and ": " separators, no
// indentation).
func writeJSON(b *bytes.Buffer, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		if x {
			b.WriteString("true")
		} else {
			b.WriteString("false")
		}
	case int:
		b.WriteString(strconv.Itoa(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case pyFloat:
		b.WriteString(formatPyFloat(float64(x)))
	case string:
		writeJSONString(b, x)
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := writeJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case *obj:
		b.WriteByte('{')
		for i, k := range x.keys {
			if i > 0 {
				b.WriteString(", ")
			}
			writeJSONString(b, k)
			b.WriteString(": ")
			if err := writeJSON(b, x.vals[i]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("pt2: internal error: no JSON form for %T", v)
	}
	return nil
}

// writeJSONString writes s quoted as json.dumps does with ensure_ascii:
// non-ASCII runes as \uXXXX (surrogate pairs above the BMP).
func writeJSONString(b *bytes.Buffer, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r > 0x7e && r < 0x10000:
			b.WriteString(`\u`)
			b.WriteByte(hex[r>>12&0xf])
			b.WriteByte(hex[r>>8&0xf])
			b.WriteByte(hex[r>>4&0xf])
			b.WriteByte(hex[r&0xf])
		case r >= 0x10000:
			r -= 0x10000
			hi, lo := 0xd800+(r>>10), 0xdc00+(r&0x3ff)
			for _, u := range []rune{hi, lo} {
				b.WriteString(`\u`)
				b.WriteByte(hex[u>>12&0xf])
				b.WriteByte(hex[u>>8&0xf])
				b.WriteByte(hex[u>>4&0xf])
				b.WriteByte(hex[u&0xf])
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
}
