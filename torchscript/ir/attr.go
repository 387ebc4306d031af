package ir

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/types"
)

// AttrKind is the kind of a node attribute, as PyTorch's AttributeKind.
type AttrKind uint8

// The attribute kinds. The Go type of Attr.Value for each is in the
// comment.
const (
	AttrFloat     AttrKind = iota + 1 // f: float64
	AttrFloats                        // fs: []float64
	AttrComplex                       // c: complex128
	AttrComplexes                     // cs: []complex128
	AttrInt                           // i: int64 (a bool constant too: 0 or 1)
	AttrInts                          // is: []int64
	AttrString                        // s: string
	AttrStrings                       // ss: []string
	AttrTensor                        // t: *tensor.Tensor (or nil when only Text is known)
	AttrTensors                       // ts: []*tensor.Tensor
	AttrIValue                        // ival: an IValue, see Attr
	AttrGraph                         // g: *Graph
	AttrGraphs                        // gs: []*Graph
	AttrType                          // ty: types.Type
	AttrTypes                         // tys: []types.Type
)

var attrKindNames = [...]string{"", "f", "fs", "c", "cs", "i", "is", "s", "ss", "t", "ts", "ival", "g", "gs", "ty", "tys"}

// String returns PyTorch's short name of the kind ("i", "ival").
func (k AttrKind) String() string {
	if int(k) < len(attrKindNames) && k > 0 {
		return attrKindNames[k]
	}
	return "AttrKind(" + strconv.Itoa(int(k)) + ")"
}

// Attr is a node attribute: value=1 on a prim::Constant, name="fc" on a
// prim::GetAttr.
//
// An AttrIValue's Value is an IValue as Go values: int64, float64, bool,
// string, nil (None), complex128, []int64, []float64, []bool, []string, []any
// (a list of other IValues), Tuple (a tuple), *tensor.Tensor.
type Attr struct {
	Name  string
	Kind  AttrKind
	Value any
	// Text, when not empty, is how the value prints (the parser keeps what
	// it read here, so that values it cannot rebuild, such as a tensor
	// printed "{1}" or "<Tensor>", print back unchanged).
	Text string
}

// Tuple is a tuple IValue of an AttrIValue attribute.
type Tuple []any

// String prints the attribute's value as PyTorch's Node::printAttrValue.
func (a Attr) String() string {
	if a.Text != "" {
		return a.Text
	}
	var b strings.Builder
	switch a.Kind {
	case AttrFloat:
		v, _ := a.Value.(float64)
		b.WriteString(FormatFloat(v))
	case AttrFloats:
		v, _ := a.Value.([]float64)
		writeList(&b, len(v), func(i int) { b.WriteString(FormatFloat(v[i])) })
	case AttrComplex:
		v, _ := a.Value.(complex128)
		b.WriteString(formatComplex(v))
	case AttrComplexes:
		v, _ := a.Value.([]complex128)
		writeList(&b, len(v), func(i int) { b.WriteString(formatComplex(v[i])) })
	case AttrInt:
		v, _ := a.Value.(int64)
		b.WriteString(strconv.FormatInt(v, 10))
	case AttrInts:
		v, _ := a.Value.([]int64)
		writeList(&b, len(v), func(i int) { b.WriteString(strconv.FormatInt(v[i], 10)) })
	case AttrString:
		v, _ := a.Value.(string)
		b.WriteString(QuoteString(v))
	case AttrStrings:
		v, _ := a.Value.([]string)
		writeList(&b, len(v), func(i int) { b.WriteString(QuoteString(v[i])) })
	case AttrTensor:
		t, _ := a.Value.(*tensor.Tensor)
		b.WriteString(formatTensor(t))
	case AttrTensors:
		b.WriteString("[<Tensors>]")
	case AttrIValue:
		writeIValue(&b, a.Value)
	case AttrGraph:
		b.WriteString("<Graph>")
	case AttrGraphs:
		b.WriteString("[<Graphs>]")
	case AttrType:
		if t, ok := a.Value.(types.Type); ok {
			b.WriteString(t.String())
		}
	case AttrTypes:
		v, _ := a.Value.([]types.Type)
		writeList(&b, len(v), func(i int) { b.WriteString(v[i].String()) })
	}
	return b.String()
}

func writeList(b *strings.Builder, n int, each func(i int)) {
	b.WriteByte('[')
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		each(i)
	}
	b.WriteByte(']')
}

// FormatFloat prints a float as PyTorch's IValue repr: an integral value
// below 1e10 as "1." ("-0." for negative zero), anything else with 17
// significant digits ("0.10000000000000001", "1.0000000000000001e-05",
// "inf", "nan").
func FormatFloat(d float64) string {
	if !math.IsInf(d, 0) && !math.IsNaN(d) && math.Abs(d) < 1e10 && (d == 0 || math.Abs(d) >= 0x1p-1022) {
		if i := int64(d); float64(i) == d {
			if i == 0 && math.Signbit(d) {
				return "-0."
			}
			return strconv.FormatInt(i, 10) + "."
		}
	}
	switch {
	case math.IsInf(d, 1):
		return "inf"
	case math.IsInf(d, -1):
		return "-inf"
	case math.IsNaN(d):
		return "nan"
	}
	return cFormatG(d, 17)
}

// cFormatG formats as C's %.<prec>g.
func cFormatG(d float64, prec int) string {
	s := strconv.FormatFloat(d, 'g', prec, 64)
	// Go's 'g' keeps trailing zeros off like C's %g, but writes exponents
	// with at least two digits like C: e-05. Go gives e-05 too.
	return s
}

func formatComplex(c complex128) string {
	// c10's operator<< for complex: (re,im)
	return "(" + cFormatG(real(c), 6) + "," + cFormatG(imag(c), 6) + ")"
}

// QuoteString quotes s as c10::printQuotedString: double quotes, C escapes
// for \ ' " \a \b \f \n \r \t \v, and three "octal digits" for other
// unprintable bytes, computed as c10 does on a signed char: \001 for 1, but
// \0)+ for 0xC3 (the digits of a negative number, below '0').
func QuoteString(s string) string {
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
			if c >= 0x20 && c < 0x7f {
				b.WriteByte(c)
			} else {
				b.WriteString(octalEscape(c))
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// formatTensor prints a tensor attribute as PyTorch does for the cases it
// can rebuild: a one-element tensor as "{v}", others as "<Tensor>" (PyTorch
// prints tensors of up to 20 elements in full; that form is kept only
// through Attr.Text).
func formatTensor(t *tensor.Tensor) string {
	if t == nil {
		return "<Tensor>"
	}
	if t.Numel() == 1 {
		if v, err := t.Item(); err == nil {
			switch x := v.(type) {
			case float64:
				if t.DType() == tensor.Bool {
					return "{" + strconv.FormatInt(int64(x), 10) + "}"
				}
				return "{" + cFormatG(x, 6) + "}"
			case int64:
				return "{" + strconv.FormatInt(x, 10) + "}"
			case bool:
				if x {
					return "{1}"
				}
				return "{0}"
			}
		}
	}
	return "<Tensor>"
}

// writeIValue prints an IValue as IValue::repr.
func writeIValue(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		b.WriteString(FormatFloat(x))
	case complex128:
		b.WriteString(formatComplex(x))
	case string:
		b.WriteString(QuoteString(x))
	case []int64:
		writeList(b, len(x), func(i int) { b.WriteString(strconv.FormatInt(x[i], 10)) })
	case []float64:
		writeList(b, len(x), func(i int) { b.WriteString(FormatFloat(x[i])) })
	case []bool:
		writeList(b, len(x), func(i int) { writeIValue(b, x[i]) })
	case []string:
		writeList(b, len(x), func(i int) { b.WriteString(QuoteString(x[i])) })
	case []any:
		writeList(b, len(x), func(i int) { writeIValue(b, x[i]) })
	case Tuple:
		b.WriteByte('(')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writeIValue(b, e)
		}
		if len(x) == 1 {
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case *tensor.Tensor:
		b.WriteString(formatTensor(x))
	default:
		fmt.Fprintf(b, "%v", x)
	}
}

// Constant creates a prim::Constant node for v at the insert point and
// returns its output, typed and attributed as PyTorch's insertConstant:
// int64 (value=i, int), float64 (f, float), complex128 (c, complex), bool
// (i 0/1, bool), string (s, str), nil (no attribute, NoneType), []int64,
// []float64, []bool ([]ival, int[]/float[]/bool[]), Tuple of those (ival),
// *tensor.Tensor (t, Tensor). Use ConstantOf for other values (a device:
// kind s, type Device).
func (g *Graph) Constant(v any) (*Value, error) {
	var a *Attr
	var t types.Type
	switch x := v.(type) {
	case nil:
		t = types.None
	case int:
		a, t = &Attr{Kind: AttrInt, Value: int64(x)}, types.Int
	case int64:
		a, t = &Attr{Kind: AttrInt, Value: x}, types.Int
	case float64:
		a, t = &Attr{Kind: AttrFloat, Value: x}, types.Float
	case complex128:
		a, t = &Attr{Kind: AttrComplex, Value: x}, types.Complex
	case bool:
		i := int64(0)
		if x {
			i = 1
		}
		a, t = &Attr{Kind: AttrInt, Value: i}, types.Bool
	case string:
		a, t = &Attr{Kind: AttrString, Value: x}, types.Str
	case []int64:
		a, t = &Attr{Kind: AttrIValue, Value: x}, &types.List{Elem: types.Int}
	case []float64:
		a, t = &Attr{Kind: AttrIValue, Value: x}, &types.List{Elem: types.Float}
	case []bool:
		a, t = &Attr{Kind: AttrIValue, Value: x}, &types.List{Elem: types.Bool}
	case []string:
		a, t = &Attr{Kind: AttrIValue, Value: x}, &types.List{Elem: types.Str}
	case Tuple:
		tt, err := ivalueType(x)
		if err != nil {
			return nil, err
		}
		a, t = &Attr{Kind: AttrIValue, Value: x}, tt
	case *tensor.Tensor:
		a, t = &Attr{Kind: AttrTensor, Value: x}, types.Tensor
	default:
		return nil, fmt.Errorf("ir: Constant: a %T cannot be a constant (use ConstantOf)", v)
	}
	var aa []Attr
	if a != nil {
		a.Name = "value"
		aa = []Attr{*a}
	}
	return g.ConstantOf(t, aa...)
}

// ConstantOf creates a prim::Constant node of type t with the given
// attributes at the insert point and returns its output.
func (g *Graph) ConstantOf(t types.Type, attrs ...Attr) (*Value, error) {
	n := g.Create("prim::Constant", nil, t)
	n.Attrs = attrs
	if err := g.Insert(n); err != nil {
		n.detach()
		return nil, err
	}
	return n.Outputs[0], nil
}

func ivalueType(v any) (types.Type, error) {
	switch x := v.(type) {
	case nil:
		return types.None, nil
	case int, int64:
		return types.Int, nil
	case float64:
		return types.Float, nil
	case bool:
		return types.Bool, nil
	case string:
		return types.Str, nil
	case complex128:
		return types.Complex, nil
	case *tensor.Tensor:
		return types.Tensor, nil
	case []int64:
		return &types.List{Elem: types.Int}, nil
	case []float64:
		return &types.List{Elem: types.Float}, nil
	case []bool:
		return &types.List{Elem: types.Bool}, nil
	case []string:
		return &types.List{Elem: types.Str}, nil
	case Tuple:
		elems := make([]types.Type, len(x))
		for i, e := range x {
			t, err := ivalueType(e)
			if err != nil {
				return nil, err
			}
			elems[i] = t
		}
		return &types.Tuple{Elems: elems}, nil
	}
	return nil, fmt.Errorf("ir: a %T cannot be a constant", v)
}

// ConstantValue returns the value of a prim::Constant node as Go values
// (the inverse of Constant): nil for None, int64, float64, complex128, bool
// (an int attribute on a bool-typed constant), string (a str or Device
// constant), an IValue, a tensor. ok is false for a node that is not a
// prim::Constant with a value it knows.
func (n *Node) ConstantValue() (v any, ok bool) {
	if n.Kind != "prim::Constant" || len(n.Outputs) != 1 {
		return nil, false
	}
	a, has := n.Attr("value")
	if !has {
		return nil, n.Outputs[0].Type != nil && n.Outputs[0].Type.Kind() == types.NoneKind
	}
	if a.Kind == AttrInt && n.Outputs[0].Type != nil && n.Outputs[0].Type.Kind() == types.BoolKind {
		i, _ := a.Value.(int64)
		return i != 0, true
	}
	return a.Value, a.Value != nil
}

// octalEscape writes byte c as printQuotedString does: its value as a C
// signed char, written as three digits '0'+d where d comes from C's
// truncating division and so is negative for bytes above 0x7f.
func octalEscape(c byte) string {
	s := int(int8(c))
	var buf [4]byte
	buf[0] = '\\'
	buf[3] = byte('0' + s%8)
	s /= 8
	buf[2] = byte('0' + s%8)
	s /= 8
	buf[1] = byte('0' + s)
	return string(buf[:])
}
