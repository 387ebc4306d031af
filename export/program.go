package export

import (
	"fmt"
	"sort"
	"strings"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// ExportedProgram is a module captured by Export: a functional graph of
// core ATen operators whose placeholders are the lifted state and the user
// inputs, with its signature, state and constraints.
type ExportedProgram struct {
	// Graph is the program. Placeholders follow Signature.Inputs; the
	// output is a tuple following Signature.Outputs.
	Graph *graph.Graph
	// Signature says what each input and output is.
	Signature Signature
	// Env holds the symbols of the dynamic dimensions.
	Env *sym.Env
	// RangeConstraints maps each symbol (s0, ...) to its allowed sizes.
	RangeConstraints map[string]sym.Range
	// EqualityConstraints lists the input dimensions that must be equal
	// (dimensions sharing a Dimension), as groups.
	EqualityConstraints [][]InputDim
	// ModuleCallGraph lists the module calls of the trace in call order,
	// the root first.
	ModuleCallGraph []ModuleCall

	root        nn.Module
	state       []stateEntry // parameters and buffers, in placeholder order
	constants   []stateEntry // lifted constants
	inputs      []input      // the user inputs, in order
	out         *TreeSpec    // the output structure
	in          *TreeSpec    // the structure of (args, kwargs); nil: the inputs, flat
	dimOf       map[string]*Dimension
	argNames    []string   // the model's positional argument names (forward_arg_names)
	subgraphs   []Subgraph // the graphs of higher-order operators, by attribute name
	specialized []string   // Specialized
	marks       *markCache // which inputs Run marks constant; nil: not cached
}

// InputDim names one dimension of one user input.
type InputDim struct {
	Input string
	Dim   int
}

// String returns "x1.shape[0]".
func (d InputDim) String() string { return fmt.Sprintf("%s.shape[%d]", d.Input, d.Dim) }

type stateEntry struct {
	name string
	t    *tensor.Tensor
}

// StateDict returns the parameters and buffers, by state name, in the
// order of their placeholders. The tensors are the exported module's own:
// Run writes mutated buffers back into them. Run declares the ones the
// program only reads constant (kernels.MarkConstant: a convolution packs
// such a weight once): to change their elements other than through
// operators (Tensor.CopyFrom, tensor.Data), call kernels.Changed on them
// afterwards, or the next run may use the old packed weights
// (nn.LoadState does so for the tensors it loads into).
func (ep *ExportedProgram) StateDict() map[string]*tensor.Tensor {
	out := make(map[string]*tensor.Tensor, len(ep.state))
	for _, e := range ep.state {
		out[e.name] = e.t
	}
	return out
}

// StateNames returns the parameter and buffer names in placeholder order.
func (ep *ExportedProgram) StateNames() []string {
	out := make([]string, len(ep.state))
	for i, e := range ep.state {
		out[i] = e.name
	}
	return out
}

// Constants returns the lifted constant tensors by their target name.
func (ep *ExportedProgram) Constants() map[string]*tensor.Tensor {
	out := make(map[string]*tensor.Tensor, len(ep.constants))
	for _, e := range ep.constants {
		out[e.name] = e.t
	}
	return out
}

// setConstraints fills RangeConstraints and EqualityConstraints.
func (ep *ExportedProgram) setConstraints() {
	ep.RangeConstraints = map[string]sym.Range{}
	for _, s := range ep.Env.Symbols() {
		ep.RangeConstraints[s.Name()] = ep.Env.RangeOf(s)
	}
	groups := map[string][]InputDim{}
	var order []string
	for _, in := range ep.inputs {
		if in.fake == nil {
			continue
		}
		for d, e := range in.fake.Shape {
			if s, ok := lone(e); ok {
				if _, seen := groups[s.Name()]; !seen {
					order = append(order, s.Name())
				}
				groups[s.Name()] = append(groups[s.Name()], InputDim{in.name, d})
			}
		}
	}
	for _, s := range order {
		if len(groups[s]) > 1 {
			ep.EqualityConstraints = append(ep.EqualityConstraints, groups[s])
		}
	}
}

// InputError is the error for an input that violates the exported
// program's signature or constraints.
type InputError struct {
	Input string
	Dim   int // -1 when not about one dimension
	Msg   string
}

func (e *InputError) Error() string {
	if e.Dim < 0 {
		return fmt.Sprintf("export: input %s: %s", e.Input, e.Msg)
	}
	return fmt.Sprintf("export: input %s dim %d: %s", e.Input, e.Dim, e.Msg)
}

// checkInputs checks the flat user inputs against the signature and the
// constraints, and returns one value per input of ep.inputs (a specialized
// input's own value).
func (ep *ExportedProgram) checkInputs(args []any) ([]nn.Value, error) {
	if len(args) != len(ep.inputs) {
		names := make([]string, len(ep.inputs))
		for i, in := range ep.inputs {
			names[i] = in.name
		}
		return nil, fmt.Errorf("export: the program takes %d inputs (%s), got %d", len(ep.inputs), strings.Join(names, ", "), len(args))
	}
	values := map[string]int64{}
	first := map[string]InputDim{}
	out := make([]nn.Value, len(ep.inputs))
	for i, in := range ep.inputs {
		v, err := inputValue(args[i])
		if err != nil {
			return nil, &InputError{Input: in.name, Dim: -1, Msg: err.Error()}
		}
		if in.fake == nil {
			if in.scalar {
				// A symbolic scalar input (SymInt, SymFloat, SymBool) takes any value of its kind.
				if v.IsTensor() || v.IsTuple() || v.IsNone() {
					return nil, &InputError{Input: in.name, Dim: -1, Msg: fmt.Sprintf("expected a number, got %s", v.Kind())}
				}
				out[i] = v
				continue
			}
			if !sameValue(v, in.value) {
				return nil, &InputError{Input: in.name, Dim: -1, Msg: fmt.Sprintf("the program was exported with the value %s, which was specialized into the graph; got %s", in.value, v)}
			}
			out[i] = in.value
			continue
		}
		t := v.Tensor()
		if t == nil {
			return nil, &InputError{Input: in.name, Dim: -1, Msg: fmt.Sprintf("expected a tensor, got %s", v.Kind())}
		}
		if t.DType() != in.fake.DType {
			return nil, &InputError{Input: in.name, Dim: -1, Msg: fmt.Sprintf("expected dtype %s, got %s", in.fake.DType, t.DType())}
		}
		shape := t.Shape()
		if len(shape) != len(in.fake.Shape) {
			return nil, &InputError{Input: in.name, Dim: -1, Msg: fmt.Sprintf("expected %d dims (%s), got shape %v", len(in.fake.Shape), in.fake, shape)}
		}
		for d, e := range in.fake.Shape {
			size := int64(shape[d])
			if c, ok := e.Const(); ok {
				if c != size {
					return nil, &InputError{Input: in.name, Dim: d, Msg: fmt.Sprintf("expected size %d (static), got %d", c, size)}
				}
				continue
			}
			s, ok := lone(e)
			if !ok {
				continue
			}
			r, ok := ep.RangeConstraints[s.Name()]
			if !ok {
				r = ep.Env.RangeOf(s)
			}
			dimName := s.Name()
			if dim, ok := ep.dimOf[s.Name()]; ok {
				dimName = dim.Name + " (" + s.Name() + ")"
			}
			if !r.Contains(size) {
				return nil, &InputError{Input: in.name, Dim: d, Msg: fmt.Sprintf("size %d is outside the range %s of dimension %s", size, r, dimName)}
			}
			if prev, ok := values[s.Name()]; ok && prev != size {
				return nil, &InputError{Input: in.name, Dim: d, Msg: fmt.Sprintf("size %d differs from %s = %d, which shares dimension %s", size, first[s.Name()], prev, dimName)}
			}
			if _, ok := values[s.Name()]; !ok {
				values[s.Name()] = size
				first[s.Name()] = InputDim{in.name, d}
			}
		}
		out[i] = v
	}
	if err := ep.checkDerived(out, values); err != nil {
		return nil, err
	}
	return out, nil
}

func sameValue(a, b nn.Value) bool {
	return a.Kind() == b.Kind() && fmt.Sprint(a.Raw()) == fmt.Sprint(b.Raw())
}

// Run runs the program and returns the user outputs in the model's
// structure (tuples and lists as tuples; a program returning a dict needs
// Call). args are the model's positional inputs followed by the values of
// its keyword inputs in the order of the program's in spec (for a program
// exported from Go: its inputs, in order); a nested input (a tuple, list or
// dict of tensors) is given as a Go slice or map and flattened by the in
// spec (see TreeSpec). The inputs are checked against the signature and the
// constraints; mutated buffers are written back into the state (and
// mutated user inputs into the tensors passed).
func (ep *ExportedProgram) Run(args ...any) (out nn.Value, err error) {
	defer nn.Recover(&err)
	leaves, err := ep.flattenArgs(args)
	if err != nil {
		return nn.None, err
	}
	outs, err := ep.run(leaves)
	if err != nil {
		return nn.None, err
	}
	return ep.out.unflattenValue(outs)
}

// Call runs the program on the model's positional and keyword inputs, as
// PyTorch's ExportedProgram.module()(*args, **kwargs) does: the inputs are
// flattened by the program's in spec (tuples and lists as Go slices, dicts
// as maps with string keys), checked and run as by Run, and the outputs are
// returned in the model's structure: tuples and lists as []any, dicts as
// map[string]any, None as nil, tensors as *tensor.Tensor and other values
// as their Go values (int64, float64, bool).
func (ep *ExportedProgram) Call(args []any, kwargs map[string]any) (out any, err error) {
	defer nn.Recover(&err)
	spec := ep.InSpec()
	leaves, err := spec.Flatten("inputs", []any{args, mapAny(kwargs)})
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	outs, err := ep.run(leaves)
	if err != nil {
		return nil, err
	}
	vals := make([]any, len(outs))
	for i, v := range outs {
		vals[i] = v.Any()
	}
	return ep.out.Unflatten(vals)
}

// RunFlat runs the program on its flat user inputs (the leaves of the in
// spec, in order: what torch.export's graph takes after the state) and
// returns its flat user outputs (the leaves of the out spec).
func (ep *ExportedProgram) RunFlat(inputs ...any) (outs []nn.Value, err error) {
	defer nn.Recover(&err)
	return ep.run(inputs)
}

func mapAny(m map[string]any) map[string]any {
	if m == nil {
		return map[string]any{}
	}
	return m
}

// flattenArgs flattens Run's arguments by the in spec.
func (ep *ExportedProgram) flattenArgs(args []any) ([]any, error) {
	if ep.in == nil {
		return args, nil
	}
	pos, kw, err := splitInSpec(ep.in)
	if err != nil {
		return nil, err
	}
	keys := kw.Keys()
	if len(args) != len(pos.Children)+len(keys) {
		names := ep.positionalNames(len(pos.Children))
		return nil, fmt.Errorf("export: the program takes %d inputs (%s), got %d", len(names)+len(keys), strings.Join(append(names, keys...), ", "), len(args))
	}
	names := ep.positionalNames(len(pos.Children))
	var leaves []any
	for i, c := range pos.Children {
		l, err := c.Flatten("input "+names[i], args[i])
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		leaves = append(leaves, l...)
	}
	for i, c := range kw.Children {
		l, err := c.Flatten("input "+keys[i], args[len(pos.Children)+i])
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		leaves = append(leaves, l...)
	}
	return leaves, nil
}

// run runs the program on the flat user inputs and returns the flat user
// outputs, writing back the mutations.
func (ep *ExportedProgram) run(args []any) ([]nn.Value, error) {
	root, err := ep.runRoot()
	if err != nil {
		return nil, err
	}
	user, err := ep.checkInputs(args)
	if err != nil {
		return nil, err
	}
	byName := make(map[string]nn.Value, len(user))
	for i, in := range ep.inputs {
		byName[in.name] = user[i]
	}
	in := make([]nn.Value, 0, len(ep.Signature.Inputs))
	state := ep.StateDict()
	consts := ep.Constants()
	for _, s := range ep.Signature.Inputs {
		switch s.Kind {
		case Parameter, Buffer:
			in = append(in, nn.Tensor(state[s.Target]))
		case ConstantTensor:
			in = append(in, nn.Tensor(consts[s.Target]))
		case UserInput:
			in = append(in, byName[s.Name])
		case TokenInput:
			in = append(in, nn.Tensor(tensor.Empty(tensor.Float32, 0)))
		default:
			return nil, fmt.Errorf("export: input %s is a %s, which gofx does not run", s.Name, s.Kind)
		}
	}
	ep.markConstants(in)
	res, err := interp.New(ep.Graph, root).Run(in...)
	if err != nil {
		return nil, err
	}
	outs := res.Tuple()
	if len(outs) != len(ep.Signature.Outputs) {
		return nil, fmt.Errorf("export: the graph returned %d values for %d outputs", len(outs), len(ep.Signature.Outputs))
	}
	var leaves []nn.Value
	for i, o := range ep.Signature.Outputs {
		switch o.Kind {
		case BufferMutation:
			if err := state[o.Target].CopyFrom(outs[i].MustTensor()); err != nil {
				return nil, fmt.Errorf("export: writing back buffer %s: %w", o.Target, err)
			}
			kernels.Changed(state[o.Target])
		case UserInputMutation:
			dst := byName[o.Target].Tensor()
			if dst == nil {
				return nil, fmt.Errorf("export: output %s mutates the input %s, which is no tensor", o.Name, o.Target)
			}
			if err := dst.CopyFrom(outs[i].MustTensor()); err != nil {
				return nil, fmt.Errorf("export: writing back input %s: %w", o.Target, err)
			}
			kernels.Changed(dst)
		case UserOutput, LossOutput:
			leaves = append(leaves, outs[i])
		}
	}
	return leaves, nil
}

// module is a plain module: the root of interpreters and of Module.
type module struct{ nn.Base }

func emptyModule() *module {
	m := &module{}
	m.Init(m, "Module")
	return m
}

// String prints the program as torch.export does: the code with dtype
// and shape annotations, each source line's nodes after a
// "# File: path:line in func, code: source line" comment (from the nodes'
// stack_trace: the Go line of the model code, its path relative to the
// working directory when under it, the code read from its file when it is
// at hand; or the Python line of a program PyTorch exported), the graph
// signature and the range constraints.
func (ep *ExportedProgram) String() string {
	var b strings.Builder
	b.WriteString("ExportedProgram:\n    class GraphModule(torch.nn.Module):\n")
	code := codeWithSources(ep.Graph, graph.CodeOptions{Annotate: annotation})
	for _, l := range strings.Split(strings.TrimRight(code, "\n"), "\n") {
		b.WriteString("        " + l + "\n")
	}
	writeSubgraphs(&b, ep.subgraphs, "        ")
	b.WriteString("\nGraph signature:\n")
	b.WriteString(ep.Signature.String())
	b.WriteString("Range constraints: {")
	names := make([]string, 0, len(ep.RangeConstraints))
	for k := range ep.RangeConstraints {
		names = append(names, k)
	}
	sort.Strings(names)
	for i, k := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		if s, ok := ep.lookupSymbol(k); ok && s.IsFloat() {
			// A float symbol (a floating item()): sympy's float
			// infinities, as PyTorch prints VR[-oo, oo].
			r := ep.RangeConstraints[k]
			fmt.Fprintf(&b, "%s: VR[%s, %s]", k, floatBound(r.Lo), floatBound(r.Hi))
			continue
		}
		fmt.Fprintf(&b, "%s: VR%s", k, ep.RangeConstraints[k])
	}
	b.WriteString("}\n")
	return b.String()
}

// floatBound prints a float symbol's range end as PyTorch does (-oo, oo,
// a finite end as a Python float).
func floatBound(v int64) string {
	switch v {
	case sym.Inf:
		return "oo"
	case sym.NegInf:
		return "-oo"
	}
	return fmt.Sprintf("%d.0", v)
}

// annotation is a node's type annotation: its val, if a tensor or a
// symbolic value (a tuple of values, a multi-output node's, is not
// annotated, as torch.fx's codegen annotates none).
func annotation(n *node.Node) string {
	v, ok := node.Val.Get(&n.Meta)
	if !ok || v == nil {
		return ""
	}
	switch x := v.(type) {
	case node.ValueTuple:
		return ""
	case *shapeprop.Fake:
		return `"` + x.String() + `"`
	case sym.Expr:
		return `"Sym(` + x.String() + `)"`
	case sym.Cond:
		return `"Sym(` + x.String() + `)"`
	}
	return `"` + v.String() + `"`
}

// Module returns the program as a GraphModule with its state as
// attributes (torch.export's ExportedProgram.module()): parameters,
// buffers and constants are read with get_attr from a module tree under
// their dotted names (the same tensors as the program's state), buffer and
// input mutations are written back with aten.copy_ at the end of the
// graph, and the output is the model's (a tensor or a tuple).
func (ep *ExportedProgram) Module() (*fx.GraphModule, error) {
	root := emptyModule()
	state := ep.StateDict()
	consts := ep.Constants()
	registered := map[string]bool{}
	for _, in := range ep.Signature.Inputs {
		if registered[in.Target] {
			continue // tied state: one attribute, read by each placeholder
		}
		registered[in.Target] = true
		switch in.Kind {
		case Parameter:
			owner, leaf := submodule(root, in.Target)
			owner.RegisterParameter(leaf, state[in.Target])
		case Buffer:
			owner, leaf := submodule(root, in.Target)
			owner.RegisterBuffer(leaf, state[in.Target], in.Persistent)
		case ConstantTensor:
			root.RegisterBuffer(in.Target, consts[in.Target], false)
		}
	}
	if err := ep.attachSubgraphs(root); err != nil {
		return nil, fmt.Errorf("export: Module: %w", err)
	}
	if err := nn.Err(root); err != nil {
		return nil, fmt.Errorf("export: Module: %w", err)
	}
	g, nodes, err := ep.Graph.Clone()
	if err != nil {
		return nil, err
	}
	byName := map[string]*node.Node{}
	for _, n := range nodes {
		byName[n.Name()] = n
	}
	attr := map[string]*node.Node{}
	for _, in := range ep.Signature.Inputs {
		if in.Kind == UserInput || in.Kind == TokenInput || in.Kind == CustomObj {
			continue
		}
		ph := byName[in.Name]
		restore := g.InsertingBefore(ph)
		ga, err := g.GetAttr(in.Target)
		restore()
		if err != nil {
			return nil, err
		}
		ga.Meta = ph.Meta.Clone()
		if _, err := ph.ReplaceAllUsesWith(ga, nil, false); err != nil {
			return nil, err
		}
		if err := g.EraseNode(ph); err != nil {
			return nil, err
		}
		attr[in.Target] = ga
		byName[in.Name] = ga
	}
	out := g.OutputNode()
	results, ok := out.Arg(0).(node.Tuple)
	if !ok || len(results) != len(ep.Signature.Outputs) {
		return nil, fmt.Errorf("export: Module: the output does not follow the signature")
	}
	restore := g.InsertingBefore(out)
	var leaves []node.Arg
	for i, o := range ep.Signature.Outputs {
		switch o.Kind {
		case BufferMutation, UserInputMutation:
			dst := attr[o.Target]
			if o.Kind == UserInputMutation {
				dst = byName[o.Target]
			}
			if _, err := g.CallFunction(copyInPlace, []node.Arg{dst, results[i]}, nil); err != nil {
				restore()
				return nil, err
			}
		case UserOutput:
			leaves = append(leaves, results[i])
		}
	}
	restore()
	if err := out.SetArgs([]node.Arg{ep.out.tree(leaves)}); err != nil {
		return nil, err
	}
	if err := g.Lint(); err != nil {
		return nil, fmt.Errorf("export: Module: %w", err)
	}
	return fx.NewGraphModule(root, g)
}

var copyInPlace = nn.Op("aten::copy_")

// submodule returns the module owning the dotted state name (creating
// plain modules on the way) and the name's last part.
func submodule(root *module, name string) (*module, string) {
	parts := strings.Split(name, ".")
	m := root
	for _, p := range parts[:len(parts)-1] {
		c, ok := m.Child(p)
		if !ok {
			c = nn.RegisterModule(&m.Base, p, emptyModule())
		}
		m = c.(*module)
	}
	return m, parts[len(parts)-1]
}

// lookupSymbol returns the symbol of that name in the program's Env.
func (ep *ExportedProgram) lookupSymbol(name string) (*sym.Symbol, bool) {
	if ep.Env == nil {
		return nil, false
	}
	return ep.Env.Lookup(name)
}
