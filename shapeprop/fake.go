package shapeprop

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// Fake is a tensor known only by its dtype and (possibly symbolic) shape:
// what shape propagation and export compute with. Contiguous says whether
// gofx's kernels would produce it with contiguous strides (false after
// permute, transpose, t, expand and narrowing views; true for every
// non-view operator's output, since gofx's kernels return contiguous
// tensors), so that reshape can be decomposed into view (contiguous) or
// clone and view.
//
// A Fake is a value: do not change one after handing it to Infer or
// FakeProp (Infer keeps the meta tensor it computed for it).
type Fake struct {
	DType      tensor.DType
	Shape      []sym.Expr
	Contiguous bool

	meta *tensor.Tensor // the meta tensor at the hints, when Infer made f
}

// FakeOf returns the fake of a concrete (or meta) tensor: its dtype, its
// static shape and whether it is contiguous.
func FakeOf(t *tensor.Tensor) *Fake {
	sh := t.Shape()
	f := &Fake{DType: t.DType(), Shape: make([]sym.Expr, len(sh)), Contiguous: t.IsContiguous()}
	for i, d := range sh {
		f.Shape[i] = sym.Const(int64(d))
	}
	return f
}

// NewFake returns a contiguous fake of dtype dt and the given dims, each an
// int, int32 or int64, a sym.Expr or a *sym.Symbol (a symbol of a sym.Env,
// standing for its expression); it panics on any other type, naming the
// dim and the type (a programming error, as for nn.Of).
func NewFake(dt tensor.DType, dims ...any) *Fake {
	f := &Fake{DType: dt, Shape: make([]sym.Expr, len(dims)), Contiguous: true}
	for i, d := range dims {
		e, ok := toExpr(d)
		if !ok {
			panic(fmt.Sprintf("shapeprop.NewFake: dim %d is a %T, not an int, sym.Expr or *sym.Symbol", i, d))
		}
		f.Shape[i] = e
	}
	return f
}

// Dim returns the number of dimensions.
func (f *Fake) Dim() int { return len(f.Shape) }

// String returns the torch.export spelling of f: "f32[s0, 16]".
func (f *Fake) String() string {
	var b strings.Builder
	if s := nodeDType(f.DType).Short(); s != "" {
		b.WriteString(s)
	} else {
		b.WriteString(f.DType.String())
	}
	b.WriteByte('[')
	for i, d := range f.Shape {
		if i > 0 {
			b.WriteString(", ")
		}
		if c, ok := d.Const(); ok {
			b.WriteString(strconv.FormatInt(c, 10))
		} else {
			b.WriteString(d.String())
		}
	}
	b.WriteByte(']')
	return b.String()
}

// Meta returns f as node metadata: its dtype and dims, with Sym set to the
// expression's text for a symbolic dim (whose Size is then 0).
func (f *Fake) Meta() node.TensorMeta {
	m := node.TensorMeta{DType: nodeDType(f.DType), Shape: make([]node.Dim, len(f.Shape))}
	for i, d := range f.Shape {
		if c, ok := d.Const(); ok {
			m.Shape[i] = node.Dim{Size: c}
		} else {
			m.Shape[i] = node.Dim{Sym: d.String()}
		}
	}
	return m
}

// Static returns f's shape as ints, and false if a dim is symbolic.
func (f *Fake) Static() ([]int, bool) {
	out := make([]int, len(f.Shape))
	for i, d := range f.Shape {
		c, ok := d.Const()
		if !ok {
			return nil, false
		}
		out[i] = int(c)
	}
	return out, true
}

// IsStatic reports whether every dim of f is a constant.
func (f *Fake) IsStatic() bool {
	for _, d := range f.Shape {
		if !d.IsConst() {
			return false
		}
	}
	return true
}

// Numel returns the product of f's dims.
func (f *Fake) Numel() sym.Expr {
	n := sym.Const(1)
	for _, d := range f.Shape {
		n = n.Mul(d)
	}
	return n
}

// withShape returns a fake of f's dtype with shape sh.
func (f *Fake) withShape(sh []sym.Expr, contiguous bool) *Fake {
	return &Fake{DType: f.DType, Shape: sh, Contiguous: contiguous}
}

// nodeDType converts a tensor dtype to the graph's spelling.
func nodeDType(d tensor.DType) node.DType { return node.DType(d.String()) }

// tensorMeta returns the metadata of a concrete tensor.
func tensorMeta(t *tensor.Tensor) node.TensorMeta {
	sh := t.Shape()
	m := node.TensorMeta{DType: nodeDType(t.DType()), Shape: make([]node.Dim, len(sh))}
	for i, d := range sh {
		m.Shape[i] = node.Dim{Size: int64(d)}
	}
	return m
}

// toExpr converts an int-like value to an expression.
func toExpr(v any) (sym.Expr, bool) {
	switch x := v.(type) {
	case sym.Expr:
		return x, true
	case *sym.Symbol:
		if x == nil {
			return sym.Expr{}, false
		}
		return x.Expr(), true
	case int64:
		return sym.Const(x), true
	case int:
		return sym.Const(int64(x)), true
	case int32:
		return sym.Const(int64(x)), true
	case *symInt:
		return x.e, true
	}
	return sym.Expr{}, false
}
