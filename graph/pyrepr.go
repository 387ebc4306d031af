package graph

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/gofx/gofx/node"
)

// pyFloat formats f as Python's repr does: the shortest digits that read
// back to f, in fixed notation when the decimal exponent is in (-4, 16]
// ("1.0", "0.0001", "1e-05", "1e+16", "inf", "nan").
func pyFloat(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	sign := ""
	if mant[0] == '-' {
		sign, mant = "-", mant[1:]
	}
	digits := strings.Replace(mant, ".", "", 1)
	decpt := exp + 1
	if -4 < decpt && decpt <= 16 {
		switch {
		case decpt <= 0:
			return sign + "0." + strings.Repeat("0", -decpt) + digits
		case decpt >= len(digits):
			return sign + digits + strings.Repeat("0", decpt-len(digits)) + ".0"
		default:
			return sign + digits[:decpt] + "." + digits[decpt:]
		}
	}
	out := sign + digits[:1]
	if len(digits) > 1 {
		out += "." + digits[1:]
	}
	e := decpt - 1
	esign := "+"
	if e < 0 {
		esign, e = "-", -e
	}
	return fmt.Sprintf("%se%s%02d", out, esign, e)
}

// pyQuote quotes s as Python's repr of a str does.
func pyQuote(s string) string {
	quote := byte('\'')
	if strings.IndexByte(s, '\'') >= 0 && strings.IndexByte(s, '"') < 0 {
		quote = '"'
	}
	var b strings.Builder
	b.WriteByte(quote)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == rune(quote) || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x80 || unicode.IsPrint(r):
			b.WriteRune(r)
		case r < 0x100:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r < 0x10000:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			fmt.Fprintf(&b, `\U%08x`, r)
		}
		i += size
	}
	b.WriteByte(quote)
	return b.String()
}

// pyDevice formats a device as repr(torch.device(...)).
func pyDevice(d node.Device) string {
	typ, idx := d.Split()
	if idx >= 0 {
		return fmt.Sprintf("device(type=%s, index=%d)", pyQuote(typ), idx)
	}
	return fmt.Sprintf("device(type=%s)", pyQuote(typ))
}

// pyRepr formats a as Python's repr would format the value torch.fx holds,
// with nodes shown by name (their repr).
func pyRepr(a node.Arg) string {
	var b strings.Builder
	writeArg(&b, a, reprStyle)
	return b.String()
}

type argStyle uint8

const (
	reprStyle argStyle = iota // Python repr: Code and Tabular
	fxStyle                   // torch.fx's str(graph)
	textStyle                 // gofx's canonical text
)

func writeArg(b *strings.Builder, a node.Arg, st argStyle) {
	switch v := a.(type) {
	case *node.Node:
		if st != reprStyle {
			b.WriteByte('%')
		}
		b.WriteString(v.Name())
	case node.Int:
		b.WriteString(strconv.FormatInt(int64(v), 10))
	case node.Float:
		b.WriteString(pyFloat(float64(v)))
	case node.Bool:
		if v {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case node.Str:
		switch st {
		case fxStyle:
			b.WriteString(string(v))
		case textStyle:
			b.WriteString(strconv.Quote(string(v)))
		default:
			b.WriteString(pyQuote(string(v)))
		}
	case node.NoneType:
		b.WriteString("None")
	case node.DType:
		b.WriteString("torch." + string(v))
	case node.Layout:
		b.WriteString("torch." + string(v))
	case node.MemoryFormat:
		b.WriteString("torch." + string(v))
	case node.Device:
		switch st {
		case fxStyle:
			b.WriteString(string(v))
		case textStyle:
			b.WriteString("device(" + strconv.Quote(string(v)) + ")")
		default:
			b.WriteString(pyDevice(v))
		}
	case node.List:
		b.WriteByte('[')
		writeSeq(b, v, st)
		b.WriteByte(']')
	case node.Tuple:
		b.WriteByte('(')
		writeSeq(b, v, st)
		if len(v) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case node.Slice:
		b.WriteString("slice(")
		writeArg(b, v.Start, st)
		b.WriteString(", ")
		writeArg(b, v.Stop, st)
		b.WriteString(", ")
		writeArg(b, v.Step, st)
		b.WriteByte(')')
	case node.EllipsisType:
		b.WriteString("Ellipsis")
	case node.Dict:
		b.WriteByte('{')
		for i, f := range v {
			if i > 0 {
				b.WriteString(", ")
			}
			switch st {
			case fxStyle:
				b.WriteString(f.Name)
			case textStyle:
				b.WriteString(strconv.Quote(f.Name))
			default:
				b.WriteString(pyQuote(f.Name))
			}
			b.WriteString(": ")
			writeArg(b, f.Value, st)
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "<%T>", a)
	}
}

func writeSeq(b *strings.Builder, s []node.Arg, st argStyle) {
	for i, x := range s {
		if i > 0 {
			b.WriteString(", ")
		}
		writeArg(b, x, st)
	}
}
