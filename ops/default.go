package ops

import (
	"fmt"
	"strconv"
	"strings"
)

// IsNone reports whether the default is None.
func (d *Default) IsNone() bool { return d.Text == "None" }

// Bool returns a True or False default.
func (d *Default) Bool() (bool, error) {
	switch d.Text {
	case "True":
		return true, nil
	case "False":
		return false, nil
	}
	return false, fmt.Errorf("default %s is not a bool", d.Text)
}

// Int returns an integer default.
func (d *Default) Int() (int64, error) {
	v, err := strconv.ParseInt(d.Text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("default %s is not an int", d.Text)
	}
	return v, nil
}

// Float returns a floating-point default ("1.", "0.5", "1e-05"); integer
// defaults of float arguments ("1") are accepted too.
func (d *Default) Float() (float64, error) {
	t := d.Text
	switch t {
	case "inf":
		t = "+Inf"
	case "-inf":
		t = "-Inf"
	case "nan":
		t = "NaN"
	}
	v, err := strconv.ParseFloat(t, 64)
	if err != nil {
		return 0, fmt.Errorf("default %s is not a float", d.Text)
	}
	return v, nil
}

// Ints returns an int-list default: "[0, 1]", "[]", or a single integer
// that TorchScript repeats to the list's size n (int[2] stride=1 is
// [1, 1]); n is ignored for written lists and must be positive otherwise.
func (d *Default) Ints(n int) ([]int64, error) {
	t := d.Text
	if !strings.HasPrefix(t, "[") {
		v, err := d.Int()
		if err != nil || n <= 0 {
			return nil, fmt.Errorf("default %s is not an int list", d.Text)
		}
		out := make([]int64, n)
		for i := range out {
			out[i] = v
		}
		return out, nil
	}
	if !strings.HasSuffix(t, "]") {
		return nil, fmt.Errorf("default %s is not an int list", d.Text)
	}
	body := strings.TrimSpace(t[1 : len(t)-1])
	if body == "" {
		return []int64{}, nil
	}
	var out []int64
	for _, f := range strings.Split(body, ",") {
		v, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
		if err != nil {
			return nil, fmt.Errorf("default %s is not an int list", d.Text)
		}
		out = append(out, v)
	}
	return out, nil
}

// Str returns a string default, with its C-style escapes ("\n", "\"",
// "\'", "\\", "\t", "\f", "\v", ...) decoded.
func (d *Default) Str() (string, error) {
	t := d.Text
	if len(t) < 2 || (t[0] != '"' && t[0] != '\'') || t[len(t)-1] != t[0] {
		return "", fmt.Errorf("default %s is not a string", d.Text)
	}
	var b strings.Builder
	for i := 1; i < len(t)-1; i++ {
		c := t[i]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(t)-1 {
			return "", fmt.Errorf("default %s ends in a backslash", d.Text)
		}
		switch t[i] {
		case 'n':
			b.WriteByte('\n')
		case 't':
			b.WriteByte('\t')
		case 'r':
			b.WriteByte('\r')
		case 'f':
			b.WriteByte('\f')
		case 'v':
			b.WriteByte('\v')
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case '0':
			b.WriteByte(0)
		case '\\', '"', '\'':
			b.WriteByte(t[i])
		default:
			return "", fmt.Errorf("default %s has an unknown escape \\%c", d.Text, t[i])
		}
	}
	return b.String(), nil
}
