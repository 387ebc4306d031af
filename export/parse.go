package export

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseDims reads a dynamic-dims spec written as the command line takes
// it: entries "INPUT:DIM=NAME[MIN,MAX]" separated by ';' (or spaces),
// where the range is optional (default [2, inf], "inf" for no upper
// bound) and an entry naming a dimension already declared shares it:
//
//	x1:0=batch[2,64]; x2:0=batch
//
// declares dim 0 of x1 and x2 as one dimension batch in [2, 64]. The
// name auto (without a range) declares the dimension Auto, torch.export's
// Dim.AUTO: "x:0=auto".
func ParseDims(spec string) (Dims, error) {
	out := Dims{}
	byName := map[string]*Dimension{}
	ranged := map[string]bool{}
	fields := strings.FieldsFunc(spec, func(r rune) bool { return r == ';' || r == ' ' || r == '\t' || r == '\n' })
	for _, f := range fields {
		bad := func(format string, a ...any) error {
			return fmt.Errorf("export: dynamic dims %q: %s (want INPUT:DIM=NAME[MIN,MAX])", f, fmt.Sprintf(format, a...))
		}
		colon := strings.IndexByte(f, ':')
		eq := strings.IndexByte(f, '=')
		if colon <= 0 || eq < colon+2 {
			return nil, bad("malformed entry")
		}
		in := f[:colon]
		d, err := strconv.Atoi(f[colon+1 : eq])
		if err != nil || d < 0 {
			return nil, bad("dimension %q is not a non-negative integer", f[colon+1:eq])
		}
		rest := f[eq+1:]
		name, rng := rest, ""
		if i := strings.IndexByte(rest, '['); i >= 0 {
			if !strings.HasSuffix(rest, "]") {
				return nil, bad("unclosed range")
			}
			name, rng = rest[:i], rest[i+1:len(rest)-1]
		}
		if name == "" || strings.ContainsAny(name, "[],:=") {
			return nil, bad("bad dimension name %q", name)
		}
		lo, hi := int64(2), int64(Inf)
		if rng != "" {
			parts := strings.Split(rng, ",")
			if len(parts) != 2 {
				return nil, bad("a range is [MIN,MAX]")
			}
			if lo, err = strconv.ParseInt(strings.TrimSpace(parts[0]), 10, 64); err != nil {
				return nil, bad("bad minimum %q", parts[0])
			}
			if m := strings.TrimSpace(parts[1]); m != "inf" {
				if hi, err = strconv.ParseInt(m, 10, 64); err != nil {
					return nil, bad("bad maximum %q", parts[1])
				}
			}
			if lo > hi {
				return nil, bad("min %d > max %d", lo, hi)
			}
		}
		if name == "auto" {
			if rng != "" {
				return nil, bad("an auto dimension takes no range")
			}
			if out[in] == nil {
				out[in] = map[int]*Dimension{}
			}
			if _, dup := out[in][d]; dup {
				return nil, bad("%s dim %d declared twice", in, d)
			}
			out[in][d] = Auto
			continue
		}
		dim, ok := byName[name]
		switch {
		case !ok:
			dim = Dim(name, lo, hi)
			byName[name] = dim
			ranged[name] = rng != ""
		case rng != "" && ranged[name] && (dim.Min != lo || dim.Max != hi):
			return nil, bad("dimension %s declared with two ranges [%d, %s] and [%d, %s]", name, dim.Min, maxString(dim.Max), lo, maxString(hi))
		case rng != "":
			dim.Min, dim.Max = lo, hi
			ranged[name] = true
		}
		if out[in] == nil {
			out[in] = map[int]*Dimension{}
		}
		if _, dup := out[in][d]; dup {
			return nil, bad("%s dim %d declared twice", in, d)
		}
		out[in][d] = dim
	}
	return out, nil
}
