package export

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
)

// Subgraph is a graph that a higher-order operator of the program calls
// (a branch of cond, the body of while_loop or map_impl), held as an
// attribute of the program's module under Name, as torch.export holds
// true_graph_0. Its own higher-order operators' graphs are its Subgraphs.
// It is graph.Subgraph: graph's text form, parser and LintWithSubgraphs
// take it.
type Subgraph = graph.Subgraph

// Parts are the pieces New assembles into an ExportedProgram: what a
// .pt2 file holds.
type Parts struct {
	// Graph is the program. Its placeholders follow Signature.Inputs; its
	// output is a tuple following Signature.Outputs. A tensor user input's
	// placeholder has a val (a *shapeprop.Fake, symbols of Env for dynamic
	// dims), which Run checks inputs against.
	Graph *graph.Graph
	// Signature says what every input and output is.
	Signature Signature
	// State holds the parameters and buffers by target. Tensors that
	// share storage (tied or aliased weights) stay shared.
	State map[string]*tensor.Tensor
	// Constants holds the CONSTANT_TENSOR inputs' tensors by target.
	Constants map[string]*tensor.Tensor
	// Env holds the symbols of the dynamic dims (nil: none).
	Env *sym.Env
	// RangeConstraints maps each symbol, or a derived dim's expression as
	// it prints ("2*s1"), to its range (nil: the ranges of Env).
	RangeConstraints map[string]sym.Range
	// InSpec is the structure of the model's (args, kwargs) (nil: a tuple
	// of the user inputs, flat, and no kwargs). OutSpec is the structure
	// of its output (nil: a tuple of the user outputs).
	InSpec, OutSpec *TreeSpec
	// ArgNames names the model's positional arguments (PyTorch's
	// forward_arg_names), for messages; nil: input names.
	ArgNames []string
	// ModuleCallGraph lists the module calls, the root first.
	ModuleCallGraph []ModuleCall
	// Subgraphs are the graphs of the program's higher-order operators.
	Subgraphs []Subgraph
}

// New builds an ExportedProgram from its parts, as torch.export.load does
// from a file: Run, Call, String, Module, Transform and RunDecompositions
// work on it as on an exported one. The parts are taken, not copied.
//
// New checks that the graph and its subgraphs pass
// graph.LintWithSubgraphs (each higher-order call agrees with the graphs
// it names); that its placeholders are the
// signature's inputs, by name and in order; that every PARAMETER and
// BUFFER input has a tensor in State and every CONSTANT_TENSOR input one
// in Constants; that the output node returns one value per output spec;
// and that the specs have as many leaves as there are user inputs and
// user outputs. Its errors name the input, output or node concerned.
//
// A program whose graph calls a higher-order operator (cond, while_loop,
// map_impl) holds the operator's graphs in Subgraphs, under the names its
// get_attr nodes read; Run runs them (a get_attr naming no subgraph is an
// error naming the operator's node and the branch).
func New(p Parts) (*ExportedProgram, error) {
	if p.Graph == nil {
		return nil, fmt.Errorf("export: New: nil graph")
	}
	if err := p.Graph.LintWithSubgraphs(p.Subgraphs); err != nil {
		return nil, fmt.Errorf("export: New: %w", err)
	}
	env := p.Env
	if env == nil {
		env = sym.NewEnv()
	}
	ep := &ExportedProgram{
		Graph:           p.Graph,
		Signature:       Signature{Inputs: slices.Clone(p.Signature.Inputs), Outputs: slices.Clone(p.Signature.Outputs)},
		Env:             env,
		ModuleCallGraph: p.ModuleCallGraph,
		argNames:        p.ArgNames,
		subgraphs:       p.Subgraphs,
		dimOf:           map[string]*Dimension{},
		marks:           newMarkCache(),
	}
	phs := p.Graph.Placeholders()
	if len(phs) != len(p.Signature.Inputs) {
		return nil, fmt.Errorf("export: New: the graph has %d placeholders (%s), the signature %d inputs (%s)", len(phs), strings.Join(placeholderNames(phs), ", "), len(p.Signature.Inputs), strings.Join(specNames(p.Signature.Inputs), ", "))
	}
	seen := map[string]bool{}
	for i, in := range p.Signature.Inputs {
		ph := phs[i]
		if ph.Name() != in.Name {
			return nil, fmt.Errorf("export: New: placeholder %d is %s, but input %d of the signature is %s", i, ph.Name(), i, in.Name)
		}
		switch in.Kind {
		case Parameter, Buffer:
			t := p.State[in.Target]
			if t == nil {
				return nil, fmt.Errorf("export: New: %s input %s: no tensor for its target %q in the state", in.Kind, in.Name, in.Target)
			}
			if !seen[in.Target] {
				ep.state = append(ep.state, stateEntry{in.Target, t})
				seen[in.Target] = true
			}
		case ConstantTensor:
			t := p.Constants[in.Target]
			if t == nil {
				return nil, fmt.Errorf("export: New: constant input %s: no tensor for its target %q in the constants", in.Name, in.Target)
			}
			if !seen[in.Target] {
				ep.constants = append(ep.constants, stateEntry{in.Target, t})
				seen[in.Target] = true
			}
		case UserInput:
			u, err := userInput(ph, in)
			if err != nil {
				return nil, err
			}
			ep.inputs = append(ep.inputs, u)
		case CustomObj, TokenInput:
		default:
			return nil, fmt.Errorf("export: New: input %s has an unknown kind %s", in.Name, in.Kind)
		}
	}
	out := p.Graph.OutputNode()
	if out == nil || out.NumArgs() != 1 {
		return nil, fmt.Errorf("export: New: the graph's output node must return one tuple following the signature's outputs")
	}
	results, ok := out.Arg(0).(node.Tuple)
	if !ok {
		if l, isList := out.Arg(0).(node.List); isList {
			results, ok = node.Tuple(l), true
		}
	}
	if !ok || len(results) != len(p.Signature.Outputs) {
		return nil, fmt.Errorf("export: New: output node %s returns %v, the signature has %d outputs", out.Name(), out.Arg(0), len(p.Signature.Outputs))
	}
	users := 0
	for i, o := range p.Signature.Outputs {
		if r, isNode := results[i].(*node.Node); isNode && o.Name != "" && r.Name() != o.Name {
			return nil, fmt.Errorf("export: New: output %d is node %s, but the signature names it %s", i, r.Name(), o.Name)
		}
		if o.Kind == UserOutput || o.Kind == LossOutput {
			users++
		}
	}
	ep.in = p.InSpec
	if ep.in != nil {
		if err := ep.in.validate("", 0); err != nil {
			return nil, fmt.Errorf("export: New: in spec: %w", err)
		}
		if _, _, err := splitInSpec(ep.in); err != nil {
			return nil, fmt.Errorf("export: New: %w", err)
		}
		if n := ep.in.NumLeaves(); n != len(ep.inputs) {
			return nil, fmt.Errorf("export: New: the in spec has %d leaves, the signature %d user inputs", n, len(ep.inputs))
		}
	}
	ep.out = p.OutSpec
	if ep.out == nil {
		ep.out = TupleSpec()
		for range users {
			ep.out.Children = append(ep.out.Children, Leaf())
		}
	}
	if err := ep.out.validate("", 0); err != nil {
		return nil, fmt.Errorf("export: New: out spec: %w", err)
	}
	if n := ep.out.NumLeaves(); n != users {
		return nil, fmt.Errorf("export: New: the out spec has %d leaves, the signature %d user outputs", n, users)
	}
	ep.setConstraints()
	if p.RangeConstraints != nil {
		ep.RangeConstraints = maps.Clone(p.RangeConstraints)
	}
	return ep, nil
}

// userInput describes a user input from its placeholder and spec.
func userInput(ph *node.Node, in InputSpec) (input, error) {
	if in.Value != nil {
		v, err := inputValue(in.Value)
		if err != nil {
			return input{}, fmt.Errorf("export: New: user input %s: %w", in.Name, err)
		}
		return input{name: in.Name, value: v, ph: true}, nil
	}
	val, _ := node.Val.Get(&ph.Meta)
	switch x := val.(type) {
	case *shapeprop.Fake:
		return input{name: in.Name, fake: x}, nil
	case nil:
		return input{}, fmt.Errorf("export: New: user input %s: its placeholder has no val (a tensor input needs its dtype and shape)", in.Name)
	}
	return input{name: in.Name, scalar: true}, nil
}

// InSpec returns the structure of the model's inputs: the spec of
// (args, kwargs), as Export records it from the inputs given (the keyword
// inputs in the order of the module's arguments) or a .pt2 file holds it;
// for a program New made without one, a tuple of its user inputs, flat,
// and an empty dict.
func (ep *ExportedProgram) InSpec() *TreeSpec {
	if ep.in != nil {
		return ep.in
	}
	args := TupleSpec()
	for range ep.inputs {
		args.Children = append(args.Children, Leaf())
	}
	return TupleSpec(args, DictSpec(nil))
}

// OutSpec returns the structure of the model's output.
func (ep *ExportedProgram) OutSpec() *TreeSpec { return ep.out }

// Subgraphs returns the graphs of the program's higher-order operators.
func (ep *ExportedProgram) Subgraphs() []Subgraph { return ep.subgraphs }

// splitInSpec returns the args and kwargs parts of an in spec.
func splitInSpec(t *TreeSpec) (args, kwargs *TreeSpec, err error) {
	if t.Type != TupleType || len(t.Children) != 2 || !t.Children[0].isSeq() || !t.Children[1].isDict() {
		return nil, nil, fmt.Errorf("the in spec must be a tuple of (args tuple, kwargs dict), got %s", t)
	}
	return t.Children[0], t.Children[1], nil
}

// positionalNames names the n positional arguments of the model.
func (ep *ExportedProgram) positionalNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		switch {
		case i < len(ep.argNames):
			out[i] = ep.argNames[i]
		case ep.in == nil && i < len(ep.inputs):
			out[i] = ep.inputs[i].name
		default:
			out[i] = fmt.Sprintf("args[%d]", i)
		}
	}
	return out
}

// checkDerived checks the dims of tensor inputs that are expressions of
// symbols (2*s1) against the sizes the symbols took, and against their
// range constraints.
func (ep *ExportedProgram) checkDerived(vals []nn.Value, values map[string]int64) error {
	syms := map[*sym.Symbol]int64{}
	for name, v := range values {
		if s, ok := ep.Env.Lookup(name); ok {
			syms[s] = v
		}
	}
	for i, in := range ep.inputs {
		if in.fake == nil {
			continue
		}
		shape := vals[i].Tensor().Shape()
		for d, e := range in.fake.Shape {
			if e.IsConst() {
				continue
			}
			if _, ok := lone(e); ok {
				continue
			}
			size := int64(shape[d])
			if r, ok := ep.RangeConstraints[e.String()]; ok && !r.Contains(size) {
				return &InputError{Input: in.name, Dim: d, Msg: fmt.Sprintf("size %d is outside the range %s of dimension %s", size, r, e)}
			}
			want, err := e.Eval(syms)
			if err != nil {
				continue // a symbol only this dim determines
			}
			if want != size {
				return &InputError{Input: in.name, Dim: d, Msg: fmt.Sprintf("size %d differs from %s = %d", size, e, want)}
			}
		}
	}
	return nil
}

// attachSubgraphs registers the program's subgraphs as GraphModules under
// their names (as torch.export's module holds true_graph_0).
func (ep *ExportedProgram) attachSubgraphs(root *module) error {
	for _, sg := range ep.subgraphs {
		gm, err := subgraphModule(sg)
		if err != nil {
			return fmt.Errorf("subgraph %s: %w", sg.Name, err)
		}
		nn.RegisterModule(&root.Base, sg.Name, gm)
	}
	return nil
}

func subgraphModule(sg Subgraph) (*fx.GraphModule, error) {
	if sg.Graph == nil {
		return nil, fmt.Errorf("nil graph")
	}
	root := emptyModule()
	for _, c := range sg.Subgraphs {
		gm, err := subgraphModule(c)
		if err != nil {
			return nil, fmt.Errorf("subgraph %s: %w", c.Name, err)
		}
		nn.RegisterModule(&root.Base, c.Name, gm)
	}
	g, _, err := sg.Graph.Clone()
	if err != nil {
		return nil, err
	}
	return fx.NewGraphModule(root, g)
}

// writeSubgraphs prints subgraphs as torch.export prints them: a class per
// subgraph inside the program's class, indented.
func writeSubgraphs(b *strings.Builder, subs []Subgraph, indent string) {
	for _, sg := range subs {
		fmt.Fprintf(b, "%s%sclass %s(torch.nn.Module):\n", "\n", indent, sg.Name)
		code := codeWithSources(sg.Graph, graph.CodeOptions{Annotate: annotation})
		for _, l := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
			if l == "" {
				b.WriteString("\n")
				continue
			}
			b.WriteString(indent + "    " + l + "\n")
		}
		writeSubgraphs(b, sg.Subgraphs, indent+"    ")
	}
}

// Clone returns a copy of ep with its own copies of the parameters,
// buffers and constants (tensors that shared storage share the copy of
// it), so that running the copy leaves ep's state as it was. The graph and
// the rest are shared: Run does not edit them.
func (ep *ExportedProgram) Clone() *ExportedProgram {
	out := *ep
	out.marks = newMarkCache()
	type copied struct{ orig, full *tensor.Tensor }
	var storages []copied
	copies := map[*tensor.Tensor]*tensor.Tensor{}
	cp := func(es []stateEntry) []stateEntry {
		res := make([]stateEntry, len(es))
		for i, e := range es {
			c, ok := copies[e.t]
			if !ok {
				c = cloneShared(e.t, func(t *tensor.Tensor) *tensor.Tensor {
					for _, s := range storages {
						if s.orig.SharesStorage(t) {
							return s.full
						}
					}
					full, err := t.AsStrided([]int{torchio.StorageNumel(t)}, []int{1}, 0)
					if err != nil {
						return nil
					}
					s := copied{t, full.Clone()}
					storages = append(storages, s)
					return s.full
				})
				copies[e.t] = c
			}
			res[i] = stateEntry{e.name, c}
		}
		return res
	}
	out.state = cp(ep.state)
	out.constants = cp(ep.constants)
	return &out
}

// cloneShared copies t as a view of the copy of its storage that storage
// returns (nil: t is copied alone).
func cloneShared(t *tensor.Tensor, storage func(*tensor.Tensor) *tensor.Tensor) *tensor.Tensor {
	if t.IsMeta() {
		return t
	}
	if full := storage(t); full != nil {
		if v, err := full.AsStrided(t.Shape(), t.Strides(), t.Offset()); err == nil {
			return v
		}
	}
	return t.Clone()
}

// ArgNames returns the model's positional argument names (PyTorch's
// forward_arg_names) when the program came from a file that names them;
// nil otherwise.
func (ep *ExportedProgram) ArgNames() []string { return slices.Clone(ep.argNames) }

// constantInput returns the value of a specialized user input that has a
// placeholder called name.
func (ep *ExportedProgram) constantInput(name string) (nn.Value, bool) {
	for _, in := range ep.inputs {
		if in.name == name && in.ph {
			return in.value, true
		}
	}
	return nn.None, false
}
