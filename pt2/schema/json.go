package schema

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is the JSON layer: a parser that keeps object member order and
// reads Python's non-standard Infinity, -Infinity and NaN tokens, and the
// writers of Python's json.dumps forms (", " and ": " separators, ASCII
// output, float repr).

// maxDepth bounds nesting so hostile input cannot exhaust the stack.
const maxDepth = 512

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber // raw text in s
	jString
	jArray
	jObject
)

type jmember struct {
	key string
	val *jvalue
}

type jvalue struct {
	kind jkind
	b    bool
	s    string // number text or string value
	arr  []*jvalue
	obj  []jmember
}

func (k jkind) String() string {
	return [...]string{"null", "bool", "number", "string", "list", "object"}[k]
}

type jparser struct {
	data []byte
	pos  int
}

// parseJSON parses one JSON document.
func parseJSON(data []byte) (*jvalue, error) {
	p := &jparser{data: data}
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.pos != len(p.data) {
		return nil, p.errorf("unexpected %q after the top-level value", p.data[p.pos])
	}
	return v, nil
}

func (p *jparser) errorf(format string, args ...any) error {
	return fmt.Errorf("json: offset %d: %s", p.pos, fmt.Sprintf(format, args...))
}

func (p *jparser) skipSpace() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) literal(word string) bool {
	if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+len(word))]), word) {
		p.pos += len(word)
		return true
	}
	return false
}

func (p *jparser) value(depth int) (*jvalue, error) {
	if depth > maxDepth {
		return nil, p.errorf("nesting deeper than %d", maxDepth)
	}
	p.skipSpace()
	if p.pos >= len(p.data) {
		return nil, p.errorf("unexpected end of input")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &jvalue{kind: jString, s: s}, nil
	case c == 't' && p.literal("true"):
		return &jvalue{kind: jBool, b: true}, nil
	case c == 'f' && p.literal("false"):
		return &jvalue{kind: jBool}, nil
	case c == 'n' && p.literal("null"):
		return &jvalue{kind: jNull}, nil
	case c == 'N' && p.literal("NaN"):
		return &jvalue{kind: jNumber, s: "NaN"}, nil
	case c == 'I' && p.literal("Infinity"):
		return &jvalue{kind: jNumber, s: "Infinity"}, nil
	case c == '-' && p.literal("-Infinity"):
		return &jvalue{kind: jNumber, s: "-Infinity"}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	default:
		return nil, p.errorf("unexpected %q", c)
	}
}

func (p *jparser) number() (*jvalue, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if digits() == 0 {
		return nil, p.errorf("malformed number")
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		return nil, p.errorf("malformed number (leading zero)")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			return nil, p.errorf("malformed number")
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			return nil, p.errorf("malformed number")
		}
	}
	return &jvalue{kind: jNumber, s: string(p.data[start:p.pos])}, nil
}

func (p *jparser) str() (string, error) {
	p.pos++ // opening quote
	var sb strings.Builder
	for {
		if p.pos >= len(p.data) {
			return "", p.errorf("unterminated string")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			return sb.String(), nil
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				return "", p.errorf("unterminated string")
			}
			e := p.data[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				sb.WriteByte(e)
			case 'b':
				sb.WriteByte('\b')
			case 'f':
				sb.WriteByte('\f')
			case 'n':
				sb.WriteByte('\n')
			case 'r':
				sb.WriteByte('\r')
			case 't':
				sb.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					// A high surrogate followed by \uDCxx is one code point;
					// a lone surrogate becomes U+FFFD as in Go's encoding/json.
					if r < 0xdc00 && p.pos+1 < len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
						save := p.pos
						p.pos += 2
						r2, err := p.hex4()
						if err != nil {
							return "", err
						}
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							sb.WriteRune(d)
							continue
						}
						p.pos = save
					}
					r = utf8.RuneError
				}
				sb.WriteRune(r)
			default:
				return "", p.errorf("invalid escape \\%c", e)
			}
		case c < 0x20:
			return "", p.errorf("control character %#x in string", c)
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size == 1 {
				return "", p.errorf("invalid UTF-8 in string")
			}
			sb.Write(p.data[p.pos : p.pos+size])
			p.pos += size
		}
	}
}

func (p *jparser) hex4() (rune, error) {
	if p.pos+4 > len(p.data) {
		return 0, p.errorf("short \\u escape")
	}
	n, err := strconv.ParseUint(string(p.data[p.pos:p.pos+4]), 16, 32)
	if err != nil {
		return 0, p.errorf("malformed \\u escape")
	}
	p.pos += 4
	return rune(n), nil
}

func (p *jparser) array(depth int) (*jvalue, error) {
	p.pos++
	v := &jvalue{kind: jArray}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return v, nil
	}
	for {
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.arr = append(v.arr, e)
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unterminated list")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return nil, p.errorf("expected , or ] in list, found %q", p.data[p.pos])
		}
	}
}

func (p *jparser) object(depth int) (*jvalue, error) {
	p.pos++
	v := &jvalue{kind: jObject}
	p.skipSpace()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return v, nil
	}
	seen := map[string]bool{}
	for {
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != '"' {
			return nil, p.errorf("expected a string key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if seen[k] {
			return nil, p.errorf("duplicate key %q", k)
		}
		seen[k] = true
		p.skipSpace()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return nil, p.errorf("expected : after key %q", k)
		}
		p.pos++
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		v.obj = append(v.obj, jmember{k, e})
		p.skipSpace()
		if p.pos >= len(p.data) {
			return nil, p.errorf("unterminated object")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			return v, nil
		default:
			return nil, p.errorf("expected , or } in object, found %q", p.data[p.pos])
		}
	}
}

// pyFloat formats f as Python's repr (and so json.dumps) does: the shortest
// digits that round-trip, fixed notation for exponents in [-4, 16) with at
// least one decimal, otherwise d.ddde±XX; Infinity, -Infinity and NaN are
// json.dumps's tokens.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // -d.ddde±XX
	mant, expText, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expText)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	if exp >= -4 && exp < 16 {
		if exp >= 0 {
			if len(digits) <= exp+1 {
				out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
			} else {
				out = digits[:exp+1] + "." + digits[exp+1:]
			}
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
	} else {
		out = digits[:1]
		if len(digits) > 1 {
			out += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		out += fmt.Sprintf("e%s%02d", sign, exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}

const hexDigits = "0123456789abcdef"

// writePyString writes s as json.dumps does with ensure_ascii: \" \\ \n \r
// \t \b \f, other control characters and all non-ASCII as \uXXXX (UTF-16
// surrogate pairs above U+FFFF).
func writePyString(sb *strings.Builder, s string) {
	sb.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			sb.WriteString(`\"`)
		case r == '\\':
			sb.WriteString(`\\`)
		case r == '\n':
			sb.WriteString(`\n`)
		case r == '\r':
			sb.WriteString(`\r`)
		case r == '\t':
			sb.WriteString(`\t`)
		case r == '\b':
			sb.WriteString(`\b`)
		case r == '\f':
			sb.WriteString(`\f`)
		case r < 0x20 || r >= 0x7f:
			if r > 0xffff {
				r1, r2 := utf16.EncodeRune(r)
				writeU(sb, r1)
				writeU(sb, r2)
			} else {
				writeU(sb, r)
			}
		default:
			sb.WriteRune(r)
		}
	}
	sb.WriteByte('"')
}

func writeU(sb *strings.Builder, r rune) {
	sb.WriteString(`\u`)
	for shift := 12; shift >= 0; shift -= 4 {
		sb.WriteByte(hexDigits[(r>>shift)&0xf])
	}
}
