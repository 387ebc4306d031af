package syntax

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Unquote decodes one string literal as written in the source (quotes
// included: "..." or '...', or tripled quotes of either kind). It accepts the escapes
// of PyTorch's parseStringLiteral (\\ \' \" \a \b \f \n \t \v, a
// backslash-newline, three-digit octal \ooo) plus the ones Python has and
// PyTorch's printer writes or Python programs use: \r, one- and two-digit
// octal, \xhh, \uhhhh and \Uhhhhhhhh (as UTF-8). Any other escape is an
// error, as in PyTorch.
func Unquote(raw string) (string, error) {
	if len(raw) < 2 || (raw[0] != '"' && raw[0] != '\'') {
		return "", fmt.Errorf("not a string literal: %.20q", raw)
	}
	q := raw[0]
	n := 1
	if len(raw) >= 6 && raw[1] == q && raw[2] == q {
		n = 3
	}
	if len(raw) < 2*n || strings.Repeat(string(q), n) != raw[len(raw)-n:] {
		return "", fmt.Errorf("string literal not terminated")
	}
	body := raw[n : len(raw)-n]
	if strings.IndexByte(body, '\\') < 0 {
		return body, nil
	}
	var b strings.Builder
	for i := 0; i < len(body); i++ {
		c := body[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(body) {
			return "", fmt.Errorf("string literal ends in a backslash")
		}
		switch e := body[i]; e {
		case '\\', '\'', '"', '\n':
			b.WriteByte(e)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'v':
			b.WriteByte('\v')
		case '0', '1', '2', '3', '4', '5', '6', '7':
			v := 0
			j := i
			for ; j < len(body) && j < i+3 && body[j] >= '0' && body[j] <= '7'; j++ {
				v = v*8 + int(body[j]-'0')
			}
			if v > 255 {
				return "", fmt.Errorf("octal escape \\%s is larger than a byte", body[i:j])
			}
			b.WriteByte(byte(v))
			i = j - 1
		case 'x', 'u', 'U':
			digits := map[byte]int{'x': 2, 'u': 4, 'U': 8}[e]
			if i+digits >= len(body) {
				return "", fmt.Errorf("escape \\%c needs %d hexadecimal digits", e, digits)
			}
			v := rune(0)
			for j := i + 1; j <= i+digits; j++ {
				h := body[j]
				var d byte
				switch {
				case h >= '0' && h <= '9':
					d = h - '0'
				case h >= 'a' && h <= 'f':
					d = h - 'a' + 10
				case h >= 'A' && h <= 'F':
					d = h - 'A' + 10
				default:
					return "", fmt.Errorf("escape \\%c needs %d hexadecimal digits", e, digits)
				}
				v = v*16 + rune(d)
			}
			if e == 'x' {
				b.WriteByte(byte(v))
			} else {
				if !utf8.ValidRune(v) {
					return "", fmt.Errorf("escape \\%s is not a valid code point", body[i:i+digits+1])
				}
				b.WriteRune(v)
			}
			i += digits
		default:
			return "", fmt.Errorf("unknown escape \\%c", e)
		}
	}
	return b.String(), nil
}

// Quote writes s as PyTorch's printer writes a string (c10's
// printQuotedString): double quotes; \\ \' \" \a \b \f \n \r \t \v escaped;
// other bytes outside 0x20..0x7e as three-digit octal escapes.
func Quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch c {
		case '\\':
			b.WriteString(`\\`)
		case '\'':
			b.WriteString(`\'`)
		case '"':
			b.WriteString(`\"`)
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\v':
			b.WriteString(`\v`)
		default:
			if c > 0x1f && c < 0x7f {
				b.WriteByte(c)
			} else {
				b.WriteByte('\\')
				b.WriteByte('0' + c/64)
				b.WriteByte('0' + c/8%8)
				b.WriteByte('0' + c%8)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
