package passes

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/tensor"
)

// FoldConvBNProgram folds the batch norms of an exported program into the
// convolutions that feed them (FoldConvBN's patterns, with the weights,
// statistics and affine parameters read through the placeholders of
// PARAMETER, BUFFER or CONSTANT_TENSOR inputs) and returns the new
// program; ep is not changed, nor is the model it was exported from.
// changed is false (and the result is ep) when nothing folds.
//
// The program is edited, not re-exported: the user inputs (specialized
// ones included), the nodes left and their names and metadata, the lifted
// constants still read, the constraints and the output structure carry
// over. The folded weights are parameters of the state: under the
// convolution's own names (conv1.weight, conv1.bias) when nothing else
// reads those, under new names (conv1.weight_folded) otherwise, read by
// placeholders named as export names them (p_conv1_weight) that come last
// among the parameters, with a val. The batch norms and their getitems
// are erased, and so are the placeholders nothing reads any more of the
// state the folds read and of the folded batch norms' (their
// num_batches_tracked), with their signature entries and state. Buffers
// the program mutates are never folded nor dropped.
func FoldConvBNProgram(ep *export.ExportedProgram) (out *export.ExportedProgram, changed bool, err error) {
	out, changed, err = foldProgram(ep, convLayer)
	if err != nil {
		return nil, false, fmt.Errorf("passes: FoldConvBNProgram: %w", err)
	}
	return out, changed, nil
}

// foldProgram folds the batch norms of ep into the layers of the given
// kind that feed them; see FoldConvBNProgram.
func foldProgram(ep *export.ExportedProgram, kind layerKind) (out *export.ExportedProgram, changed bool, err error) {
	if ep == nil || ep.Graph == nil {
		return nil, false, fmt.Errorf("nil program")
	}
	g, _, err := ep.Graph.Clone()
	if err != nil {
		return nil, false, err
	}
	st, err := newProgramState(ep, g)
	if err != nil {
		return nil, false, err
	}
	matches, err := foldAll(g, st, kind)
	if err != nil {
		return nil, false, err
	}
	if len(matches) == 0 {
		return ep, false, nil
	}
	sig, err := st.signature()
	if err != nil {
		return nil, false, err
	}
	out, err = ep.WithState(g, sig, st.state)
	if err != nil {
		return nil, false, err
	}
	// The module calls that took or returned a batch norm's value take or
	// return its layer's.
	renamed := map[string]string{}
	for _, m := range matches {
		renamed[m.bn.Name()] = m.layer.Name()
		for _, u := range m.getitems {
			renamed[u.Name()] = m.layer.Name()
		}
	}
	for _, c := range out.ModuleCallGraph {
		for _, names := range [][]string{c.Inputs, c.Outputs} {
			for j, name := range names {
				if r, ok := renamed[name]; ok {
					names[j] = r
				}
			}
		}
	}
	return out, true, nil
}

// programState is the lifted state of an exported program being edited:
// the input specs of the placeholders of a copy of its graph, and the
// parameters, buffers and constants.
type programState struct {
	g       *graph.Graph
	specs   map[*node.Node]export.InputSpec
	state   map[string]*tensor.Tensor // parameters and buffers
	consts  map[string]*tensor.Tensor
	mutated map[string]bool // buffers the program writes
	outputs []export.OutputSpec
}

// newProgramState reads ep's signature and state, for g, a clone of
// ep.Graph.
func newProgramState(ep *export.ExportedProgram, g *graph.Graph) (*programState, error) {
	s := &programState{
		g:       g,
		specs:   map[*node.Node]export.InputSpec{},
		state:   ep.StateDict(),
		consts:  ep.Constants(),
		mutated: map[string]bool{},
		outputs: append([]export.OutputSpec(nil), ep.Signature.Outputs...),
	}
	for _, in := range ep.Signature.Inputs {
		n, ok := g.Node(in.Name)
		if !ok || n.Op() != node.Placeholder {
			return nil, fmt.Errorf("the signature's input %s is no placeholder of the graph", in.Name)
		}
		s.specs[n] = in
	}
	for _, o := range ep.Signature.Outputs {
		if o.Kind == export.BufferMutation {
			s.mutated[o.Target] = true
		}
	}
	return s, nil
}

// isState reports whether n is the placeholder of a parameter, buffer or
// constant that the program does not mutate.
func (s *programState) isState(n *node.Node) bool {
	if n.Op() != node.Placeholder {
		return false
	}
	in, ok := s.specs[n]
	return ok && in.Kind != export.UserInput && !s.mutated[in.Target]
}

func (s *programState) target(n *node.Node) string { return s.specs[n].Target }

func (s *programState) tensor(n *node.Node) (*tensor.Tensor, error) {
	if n == nil {
		return nil, nil
	}
	in := s.specs[n]
	var x *tensor.Tensor
	if in.Kind == export.ConstantTensor {
		x = s.consts[in.Target]
	} else {
		x = s.state[in.Target]
	}
	if x == nil {
		return nil, fmt.Errorf("%s input %s: no tensor for %s", in.Kind, n.Name(), in.Target)
	}
	return x, nil
}

// sole: a placeholder is the only reader of its state.
func (s *programState) sole(n *node.Node) bool { return n.NumUsers() == 1 }

// reuse gives a parameter placeholder the new tensor; a buffer or constant
// becomes a parameter under the same name, read by a new placeholder.
func (s *programState) reuse(conv *node.Node, i int, kw string, n *node.Node, x *tensor.Tensor) error {
	in := s.specs[n]
	if in.Kind == export.Parameter {
		s.state[in.Target] = x
		return nil
	}
	if err := s.placeholderFor(conv, i, kw, in.Target, x); err != nil {
		return err
	}
	return s.drop(n)
}

func (s *programState) add(conv *node.Node, i int, kw, name string, x *tensor.Tensor, _ *node.Node) error {
	return s.placeholderFor(conv, i, kw, name, x)
}

// placeholderFor reads the new parameter target, holding x, with a new
// placeholder after the last parameter's, and makes it argument i
// (keyword kw) of conv.
func (s *programState) placeholderFor(conv *node.Node, i int, kw, target string, x *tensor.Tensor) error {
	name := "p_" + strings.ReplaceAll(target, ".", "_")
	for k := 1; ; k++ {
		if _, taken := s.g.Node(name); !taken {
			break
		}
		name = fmt.Sprintf("p_%s_%d", strings.ReplaceAll(target, ".", "_"), k)
	}
	var restore func()
	phs := s.g.Placeholders()
	at := len(phs)
	for k, ph := range phs {
		if s.specs[ph].Kind != export.Parameter {
			at = k
			break
		}
	}
	switch {
	case at < len(phs):
		restore = s.g.InsertingBefore(phs[at])
	case len(phs) > 0:
		restore = s.g.InsertingAfter(phs[len(phs)-1])
	default:
		restore = s.g.InsertingBefore(s.g.First())
	}
	ph, err := s.g.CreateNode(node.Placeholder, node.Path(name), nil, nil, name)
	restore()
	if err != nil {
		return err
	}
	node.Val.Set(&ph.Meta, shapeprop.FakeOf(x))
	s.specs[ph] = export.InputSpec{Kind: export.Parameter, Name: ph.Name(), Target: target}
	s.state[target] = x
	return setConvArg(conv, i, kw, ph)
}

func (s *programState) free(name string) bool {
	_, st := s.state[name]
	_, c := s.consts[name]
	return !st && !c
}

// drop erases the placeholder n and its state (the input spec, and the
// tensor unless a new parameter took its name).
func (s *programState) drop(n *node.Node) error {
	in := s.specs[n]
	if err := s.g.EraseNode(n); err != nil {
		return err
	}
	delete(s.specs, n)
	for _, spec := range s.specs {
		if spec.Target == in.Target {
			return nil
		}
	}
	if in.Kind == export.ConstantTensor {
		delete(s.consts, in.Target)
	} else {
		delete(s.state, in.Target)
	}
	return nil
}

// signature returns the signature of the edited graph: the inputs in
// placeholder order, the outputs named after the nodes now returned.
func (s *programState) signature() (export.Signature, error) {
	var sig export.Signature
	for _, ph := range s.g.Placeholders() {
		in, ok := s.specs[ph]
		if !ok {
			return sig, fmt.Errorf("placeholder %s has no input spec", ph.Name())
		}
		sig.Inputs = append(sig.Inputs, in)
	}
	out := s.g.OutputNode()
	results, ok := out.Arg(0).(node.Tuple)
	if !ok || len(results) != len(s.outputs) {
		return sig, fmt.Errorf("output node %s does not follow the signature's %d outputs", out.Name(), len(s.outputs))
	}
	sig.Outputs = s.outputs
	for i, r := range results {
		if n, ok := r.(*node.Node); ok {
			sig.Outputs[i].Name = n.Name()
		}
	}
	return sig, nil
}
