package passes

import (
	"fmt"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// FoldConvBNProgram folds the batch norms of an exported program into the
// convolutions that feed them (FoldConvBN's patterns, over placeholders of
// lifted state) and returns the new program; ep is not changed, nor is
// the model it was exported from. changed is false (and the result is ep)
// when nothing folds.
//
// In the result the folded weights are parameters of the state, under the
// convolutions' names (conv1.weight, conv1.bias), with placeholders and
// signature entries of kind PARAMETER; the batch norms' parameters and
// buffers that nothing reads any more are gone from the graph, the
// signature and the state. Run and String work on it as on any program.
//
// The program is rebuilt by exporting ep.Module() after FoldConvBN, with
// example inputs made from the placeholders' sizes (the hints recorded at
// export) and each dynamic dimension declared again with its range
// (named by its symbol). So placeholder and node names follow the new
// trace, lifted constants become non-persistent buffers, and a program
// with specialized non-tensor inputs is refused by its first Run with the
// original arguments (they are not inputs of ep.Module()).
func FoldConvBNProgram(ep *export.ExportedProgram) (out *export.ExportedProgram, changed bool, err error) {
	if ep == nil || ep.Graph == nil {
		return nil, false, fmt.Errorf("passes: FoldConvBNProgram: nil program")
	}
	gm, err := ep.Module()
	if err != nil {
		return nil, false, fmt.Errorf("passes: FoldConvBNProgram: %w", err)
	}
	if changed, err = FoldConvBN.Apply(gm); err != nil || !changed {
		return ep, false, err
	}
	if err := gm.Lint(); err != nil {
		return nil, false, fmt.Errorf("passes: FoldConvBNProgram: after folding: %w", err)
	}
	var args []any
	dims := export.Dims{}
	byName := map[string]*export.Dimension{}
	for _, in := range ep.Signature.Inputs {
		if in.Kind != export.UserInput {
			continue
		}
		ph, ok := ep.Graph.Node(in.Name)
		if !ok {
			return nil, false, fmt.Errorf("passes: FoldConvBNProgram: no placeholder %s", in.Name)
		}
		v, _ := node.Val.Get(&ph.Meta)
		f, ok := v.(*shapeprop.Fake)
		if !ok {
			return nil, false, fmt.Errorf("passes: FoldConvBNProgram: placeholder %s has no fake tensor val (got %T)", in.Name, v)
		}
		shape := make([]int, len(f.Shape))
		for d, e := range f.Shape {
			h, ok := ep.Env.Hint(e)
			if !ok {
				return nil, false, fmt.Errorf("passes: FoldConvBNProgram: input %s dim %d: no example size for %s", in.Name, d, e)
			}
			shape[d] = int(h)
			ss := e.Symbols()
			if len(ss) != 1 || !ss[0].Expr().Equal(e) {
				continue
			}
			s := ss[0]
			dim, ok := byName[s.Name()]
			if !ok {
				r := ep.Env.RangeOf(s)
				dim = export.Dim(s.Name(), r.Lo, r.Hi)
				byName[s.Name()] = dim
			}
			if dims[ph.Name()] == nil {
				dims[ph.Name()] = map[int]*export.Dimension{}
			}
			dims[ph.Name()][d] = dim
		}
		x, err := tensor.Full(f.DType, 0, shape...)
		if err != nil {
			return nil, false, fmt.Errorf("passes: FoldConvBNProgram: input %s: %w", in.Name, err)
		}
		args = append(args, x)
	}
	out, err = export.Export(gm, args, dims)
	if err != nil {
		return nil, false, fmt.Errorf("passes: FoldConvBNProgram: re-exporting the folded module: %w", err)
	}
	return out, true, nil
}
