package tensor

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// String returns a short description: the dtype and the shape
// ("float32[2, 3]"), followed by " (meta)" for a meta tensor. Format's %v
// prints PyTorch's repr instead (see Repr).
func (t *Tensor) String() string {
	if t == nil {
		return "<nil>"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s%s", t.dtype, fmtShape(t.shape))
	if t.st == nil {
		b.WriteString(" (meta)")
	}
	return b.String()
}

// Format implements fmt.Formatter: %v prints what Python's repr prints for
// a PyTorch tensor holding the same values (see Repr), %s and %q print the
// short String form ("float32[2, 3]").
func (t *Tensor) Format(f fmt.State, verb rune) {
	switch {
	case t == nil:
		io.WriteString(f, "<nil>")
	case verb == 'v':
		io.WriteString(f, t.Repr())
	case verb == 's':
		io.WriteString(f, t.String())
	case verb == 'q':
		io.WriteString(f, strconv.Quote(t.String()))
	default:
		fmt.Fprintf(f, "%%!%c(*tensor.Tensor=%s)", verb, t.String())
	}
}

// PyTorch's default print options (torch.set_printoptions(profile="default")).
const (
	printPrecision = 4
	printThreshold = 1000
	printEdgeItems = 3
	printLineWidth = 80
)

// Repr returns what repr(t) prints in PyTorch 1.13 for a CPU tensor with
// t's dtype, shape and values, with the default print options: precision 4,
// summarization with "..." beyond 1000 elements (3 items at each edge),
// lines of 80 characters, and a dtype suffix unless the dtype is float32,
// int64 or bool. A meta tensor prints as torch prints one on the meta device.
// It follows torch/_tensor_str.py.
func (t *Tensor) Repr() string {
	const prefix = "tensor("
	indent := len(prefix)
	var suffixes []string
	dtypeSuffix := "dtype=torch." + t.dtype.String()
	var body string
	switch {
	case t.st == nil:
		suffixes = append(suffixes, "device='meta'", "size="+pyTuple(t.shape))
		if t.dtype != Float32 {
			suffixes = append(suffixes, dtypeSuffix)
		}
		body = "..."
	case t.Numel() == 0:
		// An empty tensor shows its shape unless it is (0,), and its dtype
		// unless it is the default: no element tells it.
		if len(t.shape) != 1 {
			suffixes = append(suffixes, "size="+pyTuple(t.shape))
		}
		if t.dtype != Float32 {
			suffixes = append(suffixes, dtypeSuffix)
		}
		body = "[]"
	default:
		if t.dtype != Float32 && t.dtype != Int64 && t.dtype != Bool {
			suffixes = append(suffixes, dtypeSuffix)
		}
		body = newReprPrinter(t).str(0, t.offset, indent)
	}
	return reprAddSuffixes(prefix+body, suffixes, indent)
}

// pyTuple formats a shape as Python prints a tuple: (), (3,), (2, 3).
func pyTuple(shape []int) string {
	switch len(shape) {
	case 0:
		return "()"
	case 1:
		return "(" + strconv.Itoa(shape[0]) + ",)"
	}
	s := fmtShape(shape)
	return "(" + s[1:len(s)-1] + ")"
}

// reprAddSuffixes is _add_suffixes: it appends ", suffix" for each suffix,
// starting a new line indented by indent where the line would pass the
// line width.
func reprAddSuffixes(s string, suffixes []string, indent int) string {
	var b strings.Builder
	b.WriteString(s)
	lastLineLen := len(s) - strings.LastIndexByte(s, '\n') + 1
	for _, suffix := range suffixes {
		if lastLineLen+len(suffix)+2 > printLineWidth {
			b.WriteString(",\n" + strings.Repeat(" ", indent) + suffix)
			lastLineLen = indent + len(suffix)
		} else {
			b.WriteString(", " + suffix)
			lastLineLen += len(suffix) + 2
		}
	}
	b.WriteString(")")
	return b.String()
}

// reprPrinter prints the elements of a non-empty tensor with data, as
// _tensor_str does.
type reprPrinter struct {
	t         *Tensor
	summarize bool
	floating  bool
	float     func(off int) float64 // element at a storage offset, floating dtypes
	text      func(off int) string  // element at a storage offset, other dtypes
	intMode   bool
	sciMode   bool
	maxWidth  int
}

// newReprPrinter chooses the element format (_Formatter) from the elements
// that will be printed: all of them, or the edges of a summarized tensor.
func newReprPrinter(t *Tensor) *reprPrinter {
	p := &reprPrinter{t: t, summarize: t.Numel() > printThreshold, floating: t.dtype.IsFloat(), intMode: true, maxWidth: 1}
	p.accessors()
	var offs []int
	p.shownOffsets(0, t.offset, &offs)
	if !p.floating {
		for _, off := range offs {
			p.maxWidth = max(p.maxWidth, len(p.text(off)))
		}
		return p
	}
	var vals []float64
	for _, off := range offs {
		if v := p.float(off); v != 0 && !math.IsInf(v, 0) && !math.IsNaN(v) {
			vals = append(vals, v)
		}
	}
	if len(vals) == 0 {
		return p
	}
	lo, hi := math.Inf(1), 0.0
	for _, v := range vals {
		a := math.Abs(v)
		lo, hi = min(lo, a), max(hi, a)
		if v != math.Ceil(v) {
			p.intMode = false
		}
	}
	if p.intMode {
		p.sciMode = hi/lo > 1000 || hi > 1e8
	} else {
		p.sciMode = hi/lo > 1000 || hi > 1e8 || lo < 1e-4
	}
	for _, v := range vals {
		var s string
		switch {
		case p.sciMode:
			s = pyFloat(v, 'e', printPrecision)
		case p.intMode:
			s = pyFloat(v, 'f', 0) + " "
		default:
			s = pyFloat(v, 'f', printPrecision)
		}
		p.maxWidth = max(p.maxWidth, len(s))
	}
	return p
}

// accessors sets the functions that read one element. Float16 and
// BFloat16 print as the float32 values they convert to, as torch does.
func (p *reprPrinter) accessors() {
	switch p.t.dtype {
	case Float32:
		d := Data[float32](p.t)
		p.float = func(off int) float64 { return float64(d[off]) }
	case Float64:
		d := Data[float64](p.t)
		p.float = func(off int) float64 { return d[off] }
	case Float16:
		d := Data[Half](p.t)
		p.float = func(off int) float64 { return float64(d[off].Float32()) }
	case BFloat16:
		d := Data[BHalf](p.t)
		p.float = func(off int) float64 { return float64(d[off].Float32()) }
	case Bool:
		d := Data[bool](p.t)
		p.text = func(off int) string {
			if d[off] {
				return "True"
			}
			return "False"
		}
	case Int64:
		d := Data[int64](p.t)
		p.text = func(off int) string { return strconv.FormatInt(d[off], 10) }
	case Int32:
		d := Data[int32](p.t)
		p.text = func(off int) string { return strconv.FormatInt(int64(d[off]), 10) }
	case Int16:
		d := Data[int16](p.t)
		p.text = func(off int) string { return strconv.FormatInt(int64(d[off]), 10) }
	case Int8:
		d := Data[int8](p.t)
		p.text = func(off int) string { return strconv.FormatInt(int64(d[off]), 10) }
	case Uint8:
		d := Data[uint8](p.t)
		p.text = func(off int) string { return strconv.FormatInt(int64(d[off]), 10) }
	}
}

// shownIndices returns the indices of dimension dim that are printed: all
// of them, or the first and last edge items when summarizing.
func (p *reprPrinter) shownIndices(dim int) []int {
	n := p.t.shape[dim]
	var idx []int
	if p.summarize && n > 2*printEdgeItems {
		for i := 0; i < printEdgeItems; i++ {
			idx = append(idx, i)
		}
		for i := n - printEdgeItems; i < n; i++ {
			idx = append(idx, i)
		}
		return idx
	}
	for i := 0; i < n; i++ {
		idx = append(idx, i)
	}
	return idx
}

// shownOffsets appends the storage offsets of the printed elements of the
// sub-tensor at dimension dim starting at off (get_summarized_data).
func (p *reprPrinter) shownOffsets(dim, off int, offs *[]int) {
	if dim == len(p.t.shape) {
		*offs = append(*offs, off)
		return
	}
	for _, i := range p.shownIndices(dim) {
		p.shownOffsets(dim+1, off+i*p.t.strides[dim], offs)
	}
}

// format formats the element at off, padded on the left to the common
// width (_Formatter.format).
func (p *reprPrinter) format(off int) string {
	var s string
	if !p.floating {
		s = p.text(off)
	} else {
		v := p.float(off)
		switch {
		case p.sciMode:
			s = pyFloat(v, 'e', printPrecision)
		case p.intMode:
			s = pyFloat(v, 'f', 0)
			if !math.IsInf(v, 0) && !math.IsNaN(v) {
				s += "."
			}
		default:
			s = pyFloat(v, 'f', printPrecision)
		}
	}
	if pad := p.maxWidth - len(s); pad > 0 {
		s = strings.Repeat(" ", pad) + s
	}
	return s
}

// str formats the sub-tensor at dimension dim starting at storage offset
// off, whose text starts at column indent (_tensor_str_with_formatter).
func (p *reprPrinter) str(dim, off, indent int) string {
	rank := len(p.t.shape)
	switch rank - dim {
	case 0:
		return p.format(off)
	case 1:
		return p.vector(dim, off, indent)
	}
	n := p.t.shape[dim]
	stride := p.t.strides[dim]
	var slices []string
	if p.summarize && n > 2*printEdgeItems {
		for i := 0; i < printEdgeItems; i++ {
			slices = append(slices, p.str(dim+1, off+i*stride, indent+1))
		}
		slices = append(slices, "...")
		for i := n - printEdgeItems; i < n; i++ {
			slices = append(slices, p.str(dim+1, off+i*stride, indent+1))
		}
	} else {
		for i := 0; i < n; i++ {
			slices = append(slices, p.str(dim+1, off+i*stride, indent+1))
		}
	}
	sep := "," + strings.Repeat("\n", rank-dim-1) + strings.Repeat(" ", indent+1)
	return "[" + strings.Join(slices, sep) + "]"
}

// vector formats the last dimension, wrapping lines at the line width
// (_vector_str).
func (p *reprPrinter) vector(dim, off, indent int) string {
	elementLength := p.maxWidth + 2
	perLine := max(1, (printLineWidth-indent)/elementLength)
	n := p.t.shape[dim]
	stride := p.t.strides[dim]
	var data []string
	if p.summarize && n > 2*printEdgeItems {
		for i := 0; i < printEdgeItems; i++ {
			data = append(data, p.format(off+i*stride))
		}
		data = append(data, " ...")
		for i := n - printEdgeItems; i < n; i++ {
			data = append(data, p.format(off+i*stride))
		}
	} else {
		for i := 0; i < n; i++ {
			data = append(data, p.format(off+i*stride))
		}
	}
	var lines []string
	for i := 0; i < len(data); i += perLine {
		lines = append(lines, strings.Join(data[i:min(i+perLine, len(data))], ", "))
	}
	return "[" + strings.Join(lines, ",\n"+strings.Repeat(" ", indent+1)) + "]"
}

// pyFloat formats v as Python's "{:.<prec><fmt>}".format(v) does for fmt
// 'e' or 'f': correctly rounded, "nan", "inf" and "-inf" for non-finite
// values, and at least two exponent digits.
func pyFloat(v float64, fmtc byte, prec int) string {
	switch {
	case math.IsNaN(v):
		return "nan"
	case math.IsInf(v, 1):
		return "inf"
	case math.IsInf(v, -1):
		return "-inf"
	}
	return strconv.FormatFloat(v, fmtc, prec, 64)
}
