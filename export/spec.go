package export

import (
	"fmt"
	"math"
	"sort"
	"strings"
)

// Inf is the maximum of a Dimension without an upper bound.
const Inf = math.MaxInt64

// A Dimension is a dynamic dimension: a size that may change between calls
// of the exported program, within [Min, Max]. Declaring the same
// *Dimension for dimensions of several inputs says they are equal.
type Dimension struct {
	Name     string
	Min, Max int64
}

// Dim returns a dynamic dimension called name with sizes in [min, max]
// (max Inf for no upper bound). As in torch.export, sizes 0 and 1 are
// special (they broadcast), so a useful minimum is usually 2.
func Dim(name string, min, max int64) *Dimension {
	return &Dimension{Name: name, Min: min, Max: max}
}

// String returns the Go expression that builds d.
func (d *Dimension) String() string {
	if d == Auto {
		return "export.Auto"
	}
	max := fmt.Sprint(d.Max)
	if d.Max == Inf {
		max = "export.Inf"
	}
	return fmt.Sprintf("export.Dim(%q, %d, %s)", d.Name, d.Min, max)
}

// Dims declares the dynamic dimensions of the inputs: input name ->
// dimension index -> Dimension. Dimensions not listed are static. A leaf
// of a nested input is named by its placeholder name (batch_ids, xs_0) or
// by its path as PyTorch writes it (batch['ids'], xs[0]).
type Dims map[string]map[int]*Dimension

// GoString returns the Go expression that builds the spec, dimensions
// shared between inputs declared once as variables, so that an error can
// offer a corrected spec to copy.
func (d Dims) GoString() string {
	if len(d) == 0 {
		return "export.Dims{}"
	}
	uses := map[*Dimension]int{}
	var order []*Dimension
	for _, in := range sortedKeys(d) {
		for _, i := range sortedInts(d[in]) {
			dim := d[in][i]
			if uses[dim] == 0 {
				order = append(order, dim)
			}
			uses[dim]++
		}
	}
	var b strings.Builder
	vars := map[*Dimension]string{}
	for _, dim := range order {
		if uses[dim] > 1 && dim != Auto {
			v := goIdent(dim.Name)
			vars[dim] = v
			fmt.Fprintf(&b, "%s := %s\n", v, dim)
		}
	}
	b.WriteString("export.Dims{")
	for k, in := range sortedKeys(d) {
		if k > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%q: {", in)
		for j, i := range sortedInts(d[in]) {
			if j > 0 {
				b.WriteString(", ")
			}
			dim := d[in][i]
			if v, ok := vars[dim]; ok {
				fmt.Fprintf(&b, "%d: %s", i, v)
			} else {
				fmt.Fprintf(&b, "%d: %s", i, dim)
			}
		}
		b.WriteString("}")
	}
	b.WriteString("}")
	return b.String()
}

func goIdent(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z':
			b.WriteRune(r)
		case r >= '0' && r <= '9':
			if i == 0 {
				b.WriteByte('d')
			}
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	if b.Len() == 0 {
		return "dim"
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func sortedInts[V any](m map[int]V) []int {
	out := make([]int, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Ints(out)
	return out
}

// clone copies the spec (the Dimensions are copied too, sharing kept).
func (d Dims) clone() Dims {
	out := Dims{}
	copies := map[*Dimension]*Dimension{}
	for in, m := range d {
		out[in] = map[int]*Dimension{}
		for i, dim := range m {
			c, ok := copies[dim]
			if dim == Auto {
				c, ok = Auto, true
			}
			if !ok {
				cp := *dim
				c = &cp
				copies[dim] = c
			}
			out[in][i] = c
		}
	}
	return out
}

// SpecError is the error for an invalid dynamic-dims spec.
type SpecError struct {
	Input string // the input, or "" for the spec as a whole
	Dim   int    // the dimension, or -1
	Msg   string
}

func (e *SpecError) Error() string {
	switch {
	case e.Input == "":
		return "export: dynamic dims: " + e.Msg
	case e.Dim < 0:
		return fmt.Sprintf("export: dynamic dims: input %q: %s", e.Input, e.Msg)
	}
	return fmt.Sprintf("export: dynamic dims: input %q dim %d: %s", e.Input, e.Dim, e.Msg)
}
