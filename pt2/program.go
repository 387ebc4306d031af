package pt2

import (
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// FromSchema builds the ExportedProgram of a decoded program (what
// torch.export.load does after reading the file): state holds the
// parameters and buffers by name, constants the lifted tensor constants.
// Errors name the node, value, input or output concerned and what was
// wrong; an operator gofx does not know is an error naming it (ops.Define
// registers a custom one).
func FromSchema(p *schema.ExportedProgram, state, constants map[string]*tensor.Tensor) (*export.ExportedProgram, error) {
	if p == nil {
		return nil, fmt.Errorf("pt2: nil program")
	}
	l := &loader{
		prog:   p,
		env:    sym.NewEnv(),
		ranges: map[string]sym.Range{},
		hints:  map[string]int64{},
	}
	if err := l.symbols(); err != nil {
		return nil, err
	}
	gm := &p.GraphModule
	sig, err := signature(&gm.Signature)
	if err != nil {
		return nil, err
	}
	g, subs, err := l.graph(&gm.Graph, sig.Inputs, "")
	if err != nil {
		return nil, err
	}
	for i := range sig.Inputs {
		sig.Inputs[i].Name = l.rename(sig.Inputs[i].Name)
	}
	for i := range sig.Outputs {
		o := &sig.Outputs[i]
		if o.Name != "" {
			o.Name = l.rename(o.Name)
		}
		if o.Kind == export.UserInputMutation || o.Kind == export.GradientToUserInput {
			o.Target = l.rename(o.Target)
		}
	}
	parts := export.Parts{
		Graph:            g,
		Signature:        sig,
		State:            map[string]*tensor.Tensor{},
		Constants:        map[string]*tensor.Tensor{},
		Env:              l.env,
		RangeConstraints: l.ranges,
		Subgraphs:        subs,
	}
	for _, in := range sig.Inputs {
		switch in.Kind {
		case export.Parameter, export.Buffer:
			t, ok := state[in.Target]
			if !ok {
				t, ok = constants[in.Target]
			}
			if !ok {
				return nil, fmt.Errorf("pt2: %s %s (input %s) is not in the state", strings.ToLower(in.Kind.String()), in.Target, in.Name)
			}
			parts.State[in.Target] = t
		case export.ConstantTensor:
			t, ok := constants[in.Target]
			if !ok {
				t, ok = state[in.Target]
			}
			if !ok {
				return nil, fmt.Errorf("pt2: constant %s (input %s) is not in the constants", in.Target, in.Name)
			}
			parts.Constants[in.Target] = t
		}
	}
	for i, e := range gm.ModuleCallGraph {
		call := export.ModuleCall{FQN: e.Fqn}
		if e.Signature != nil {
			call.Inputs = argNames(e.Signature.Inputs)
			call.Outputs = argNames(e.Signature.Outputs)
			if i == 0 && e.Fqn == "" {
				if parts.InSpec, err = export.ParseTreeSpec(e.Signature.InSpec); err != nil {
					return nil, fmt.Errorf("pt2: module call graph: in_spec: %w", err)
				}
				if parts.OutSpec, err = export.ParseTreeSpec(e.Signature.OutSpec); err != nil {
					return nil, fmt.Errorf("pt2: module call graph: out_spec: %w", err)
				}
				parts.ArgNames = e.Signature.ForwardArgNames
			}
		}
		parts.ModuleCallGraph = append(parts.ModuleCallGraph, call)
	}
	ep, err := export.New(parts)
	if err != nil {
		return nil, fmt.Errorf("pt2: %w", err)
	}
	return ep, nil
}

func argNames(args []schema.Argument) []string {
	var out []string
	for _, a := range args {
		switch {
		case a.AsTensor != nil:
			out = append(out, a.AsTensor.Name)
		case a.AsSymInt != nil && a.AsSymInt.AsName != nil:
			out = append(out, *a.AsSymInt.AsName)
		case a.AsCustomObj != nil:
			out = append(out, a.AsCustomObj.Name)
		default:
			out = append(out, "")
		}
	}
	return out
}

// signature converts the graph signature.
func signature(s *schema.GraphSignature) (export.Signature, error) {
	var sig export.Signature
	for i, in := range s.InputSpecs {
		var spec export.InputSpec
		switch {
		case in.UserInput != nil:
			spec.Kind = export.UserInput
			a := &in.UserInput.Arg
			switch {
			case a.AsTensor != nil:
				spec.Name = a.AsTensor.Name
			case a.AsSymInt != nil && a.AsSymInt.AsName != nil:
				spec.Name = *a.AsSymInt.AsName
			case a.AsSymFloat != nil && a.AsSymFloat.AsName != nil:
				spec.Name = *a.AsSymFloat.AsName
			case a.AsSymBool != nil && a.AsSymBool.AsName != nil:
				spec.Name = *a.AsSymBool.AsName
			case a.AsCustomObj != nil:
				spec.Name = a.AsCustomObj.Name
			default:
				return sig, fmt.Errorf("pt2: input spec %d: a user input that is neither a tensor nor a symbolic scalar", i)
			}
		case in.ConstantInput != nil:
			spec.Kind = export.UserInput
			spec.Name = in.ConstantInput.Name
			v, err := constantValue(&in.ConstantInput.Value)
			if err != nil {
				return sig, fmt.Errorf("pt2: input spec %d (%s): %w", i, spec.Name, err)
			}
			spec.Value = v
		case in.Parameter != nil:
			spec = export.InputSpec{Kind: export.Parameter, Name: in.Parameter.Arg.Name, Target: in.Parameter.ParameterName}
		case in.Buffer != nil:
			spec = export.InputSpec{Kind: export.Buffer, Name: in.Buffer.Arg.Name, Target: in.Buffer.BufferName, Persistent: in.Buffer.Persistent}
		case in.TensorConstant != nil:
			spec = export.InputSpec{Kind: export.ConstantTensor, Name: in.TensorConstant.Arg.Name, Target: in.TensorConstant.TensorConstantName}
		case in.CustomObj != nil:
			spec = export.InputSpec{Kind: export.CustomObj, Name: in.CustomObj.Arg.Name, Target: in.CustomObj.CustomObjName}
		case in.Token != nil:
			spec = export.InputSpec{Kind: export.TokenInput, Name: in.Token.Arg.Name}
		default:
			return sig, fmt.Errorf("pt2: input spec %d has no kind", i)
		}
		if spec.Name == "" {
			return sig, fmt.Errorf("pt2: input spec %d (%s) has no name", i, spec.Kind)
		}
		sig.Inputs = append(sig.Inputs, spec)
	}
	for i, o := range s.OutputSpecs {
		var spec export.OutputSpec
		switch {
		case o.UserOutput != nil:
			spec.Kind = export.UserOutput
			a := &o.UserOutput.Arg
			switch {
			case a.AsTensor != nil:
				spec.Name = a.AsTensor.Name
			case a.AsSymInt != nil && a.AsSymInt.AsName != nil:
				spec.Name = *a.AsSymInt.AsName
			case a.AsSymFloat != nil && a.AsSymFloat.AsName != nil:
				spec.Name = *a.AsSymFloat.AsName
			case a.AsSymBool != nil && a.AsSymBool.AsName != nil:
				spec.Name = *a.AsSymBool.AsName
			default:
				v, err := literal(a)
				if err != nil {
					return sig, fmt.Errorf("pt2: output spec %d: %w", i, err)
				}
				spec.Value = v
			}
		case o.LossOutput != nil:
			spec = export.OutputSpec{Kind: export.LossOutput, Name: o.LossOutput.Arg.Name}
		case o.BufferMutation != nil:
			spec = export.OutputSpec{Kind: export.BufferMutation, Name: o.BufferMutation.Arg.Name, Target: o.BufferMutation.BufferName}
		case o.UserInputMutation != nil:
			spec = export.OutputSpec{Kind: export.UserInputMutation, Name: o.UserInputMutation.Arg.Name, Target: o.UserInputMutation.UserInputName}
		case o.GradientToParameter != nil:
			spec = export.OutputSpec{Kind: export.GradientToParameter, Name: o.GradientToParameter.Arg.Name, Target: o.GradientToParameter.ParameterName}
		case o.GradientToUserInput != nil:
			spec = export.OutputSpec{Kind: export.GradientToUserInput, Name: o.GradientToUserInput.Arg.Name, Target: o.GradientToUserInput.UserInputName}
		case o.Token != nil:
			spec = export.OutputSpec{Kind: export.TokenOutput, Name: o.Token.Arg.Name}
		case o.ParameterMutation != nil:
			return sig, fmt.Errorf("pt2: output spec %d (%s) mutates the parameter %s: gofx programs do not mutate parameters", i, o.ParameterMutation.Arg.Name, o.ParameterMutation.ParameterName)
		default:
			return sig, fmt.Errorf("pt2: output spec %d has no kind", i)
		}
		sig.Outputs = append(sig.Outputs, spec)
	}
	return sig, nil
}

func constantValue(c *schema.ConstantValue) (any, error) {
	switch {
	case c.AsNone != nil:
		return noneValue{}, nil
	case c.AsInt != nil:
		return *c.AsInt, nil
	case c.AsFloat != nil:
		return *c.AsFloat, nil
	case c.AsString != nil:
		return *c.AsString, nil
	case c.AsBool != nil:
		return *c.AsBool, nil
	}
	return nil, fmt.Errorf("a constant input without a value")
}

// noneValue is a None constant input (a nil Value would mean "no value").
type noneValue = node.NoneType

// literal returns the Go value of a constant argument (an output that is
// not a graph value).
func literal(a *schema.Argument) (any, error) {
	switch {
	case a.AsNone != nil:
		return noneValue{}, nil
	case a.AsInt != nil:
		return *a.AsInt, nil
	case a.AsFloat != nil:
		return *a.AsFloat, nil
	case a.AsBool != nil:
		return *a.AsBool, nil
	case a.AsString != nil:
		return *a.AsString, nil
	}
	return nil, fmt.Errorf("unsupported constant output %s", argKind(a))
}

var symbolName = regexp.MustCompile(`^(?:Symbol\('([A-Za-z_][A-Za-z_0-9]*)'(?:, [a-z]+=(?:True|False))*\)|([A-Za-z_][A-Za-z_0-9]*))$`)

// loneSymbol returns the symbol name of an expression that is one symbol.
func loneSymbol(expr string) (string, bool) {
	m := symbolName.FindStringSubmatch(strings.TrimSpace(expr))
	if m == nil {
		return "", false
	}
	if m[1] != "" {
		return m[1], true
	}
	return m[2], true
}

type loader struct {
	prog   *schema.ExportedProgram
	env    *sym.Env
	ranges map[string]sym.Range
	hints  map[string]int64
	depth  int
	top    map[string]node.Arg // the top graph's values by the file's names
}

// rename returns the graph's name of the value the file calls name (the
// same unless Python reserves it: input becomes input_1).
func (l *loader) rename(name string) string {
	if n, ok := l.top[name].(*node.Node); ok {
		return n.Name()
	}
	return name
}

// symbols creates the program's symbols: their ranges from the range
// constraints, their hints from the values that are one symbol.
func (l *loader) symbols() error {
	var walkMeta func(g *schema.Graph, depth int)
	hint := func(e *schema.SymExpr) {
		if e == nil || e.Hint == nil || e.Hint.AsInt == nil {
			return
		}
		if name, ok := loneSymbol(e.ExprStr); ok {
			l.hints[name] = *e.Hint.AsInt
		}
	}
	walkMeta = func(g *schema.Graph, depth int) {
		if depth > maxDepth {
			return
		}
		for _, tm := range g.TensorValues {
			for i := range tm.Sizes {
				hint(tm.Sizes[i].AsExpr)
			}
		}
		for _, v := range g.SymIntValues {
			hint(v.AsExpr)
		}
		for i := range g.Nodes {
			for j := range g.Nodes[i].Inputs {
				if ga := g.Nodes[i].Inputs[j].Arg.AsGraph; ga != nil && ga.Graph != nil {
					walkMeta(ga.Graph, depth+1)
				}
			}
		}
	}
	walkMeta(&l.prog.GraphModule.Graph, 0)

	keys := make([]string, 0, len(l.prog.RangeConstraints))
	for k := range l.prog.RangeConstraints {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var derived []string
	for _, k := range keys {
		rc := l.prog.RangeConstraints[k]
		r := sym.Full
		if rc.MinVal != nil {
			r.Lo = *rc.MinVal
		}
		if rc.MaxVal != nil {
			r.Hi = *rc.MaxVal
		}
		if r.Empty() {
			return fmt.Errorf("pt2: range constraint of %s: empty range %s", k, r)
		}
		name, ok := loneSymbol(k)
		if !ok {
			derived = append(derived, k)
			continue
		}
		if _, err := l.newSymbol(name, r); err != nil {
			return err
		}
	}
	for _, k := range derived {
		e, err := sym.ParseSympy(k, l.symbol)
		if err != nil {
			return fmt.Errorf("pt2: range constraint of %s: %w", k, err)
		}
		rc := l.prog.RangeConstraints[k]
		r := sym.Full
		if rc.MinVal != nil {
			r.Lo = *rc.MinVal
		}
		if rc.MaxVal != nil {
			r.Hi = *rc.MaxVal
		}
		l.ranges[e.String()] = r
	}
	return nil
}

// newSymbol creates a symbol with the range r: unbacked for the u and
// other non-s names, backed (with its hint, else the closest value to 2 in
// range) for s names.
func (l *loader) newSymbol(name string, r sym.Range) (*sym.Symbol, error) {
	l.ranges[name] = r
	if strings.HasPrefix(name, "zuf") {
		// An unbacked float (PyTorch's SymT.UNBACKED_FLOAT): the item()
		// of a floating tensor.
		s, err := l.env.NewUnbackedFloatNamed(name)
		if err != nil {
			return nil, fmt.Errorf("pt2: symbol %s: %w", name, err)
		}
		return s, nil
	}
	if !strings.HasPrefix(name, "s") {
		s, err := l.env.NewUnbackedNamed(name, r)
		if err != nil {
			return nil, fmt.Errorf("pt2: symbol %s: %w", name, err)
		}
		return s, nil
	}
	h, ok := l.hints[name]
	if !ok || !r.Contains(h) {
		h = max(min(2, r.Hi), r.Lo)
	}
	s, err := l.env.NewSymbol(name, h, r)
	if err != nil {
		return nil, fmt.Errorf("pt2: symbol %s: %w", name, err)
	}
	return s, nil
}

// symbol resolves a symbol name of an expression, creating symbols the
// range constraints do not name (unbounded).
func (l *loader) symbol(name string) (*sym.Symbol, error) {
	if s, ok := l.env.Lookup(name); ok {
		return s, nil
	}
	r := sym.Full
	if strings.HasPrefix(name, "s") {
		r = sym.Range{Lo: 0, Hi: sym.Inf}
	}
	s, err := l.newSymbol(name, r)
	if err != nil {
		return nil, err
	}
	delete(l.ranges, name) // not a range constraint of the file
	return s, nil
}

func (l *loader) symInt(v *schema.SymInt, what string) (sym.Expr, error) {
	switch {
	case v.AsInt != nil:
		return sym.Const(*v.AsInt), nil
	case v.AsExpr != nil:
		e, err := sym.ParseSympy(v.AsExpr.ExprStr, l.symbol)
		if err != nil {
			return sym.Expr{}, fmt.Errorf("%s: %w", what, err)
		}
		return e, nil
	}
	return sym.Expr{}, fmt.Errorf("%s: an empty SymInt", what)
}

// fake converts a tensor's metadata.
func (l *loader) fake(name string, tm *schema.TensorMeta) (*shapeprop.Fake, error) {
	dt, err := dtypeOf(tm.Dtype)
	if err != nil {
		return nil, fmt.Errorf("pt2: value %s: %w", name, err)
	}
	f := &shapeprop.Fake{DType: dt, Shape: make([]sym.Expr, len(tm.Sizes))}
	for i := range tm.Sizes {
		e, err := l.symInt(&tm.Sizes[i], fmt.Sprintf("pt2: value %s: size %d", name, i))
		if err != nil {
			return nil, err
		}
		f.Shape[i] = e
	}
	f.Contiguous = contiguous(f.Shape, tm.Strides, l)
	return f, nil
}

// contiguous reports whether the strides are the contiguous ones of shape.
func contiguous(shape []sym.Expr, strides []schema.SymInt, l *loader) bool {
	if len(strides) != len(shape) {
		return true
	}
	want := sym.Const(1)
	for i := len(shape) - 1; i >= 0; i-- {
		if c, ok := shape[i].Const(); ok && c == 1 {
			continue
		}
		s, err := l.symInt(&strides[i], "stride")
		if err != nil || !s.Equal(want) {
			return false
		}
		want = want.Mul(shape[i])
	}
	return true
}

var dtypes = map[schema.ScalarType]tensor.DType{
	schema.ScalarTypeByte: tensor.Uint8, schema.ScalarTypeChar: tensor.Int8, schema.ScalarTypeShort: tensor.Int16,
	schema.ScalarTypeInt: tensor.Int32, schema.ScalarTypeLong: tensor.Int64, schema.ScalarTypeHalf: tensor.Float16,
	schema.ScalarTypeFloat: tensor.Float32, schema.ScalarTypeDouble: tensor.Float64, schema.ScalarTypeBool: tensor.Bool,
	schema.ScalarTypeBFloat16: tensor.BFloat16,
}

func dtypeOf(st schema.ScalarType) (tensor.DType, error) {
	if dt, ok := dtypes[st]; ok {
		return dt, nil
	}
	return tensor.Invalid, fmt.Errorf("dtype %s is not supported by gofx (supported: %s)", st, tensor.DTypes)
}

const maxDepth = 32

// graph converts a graph: the top graph (where is ""), whose placeholders
// inputs name (the signature's), or a subgraph.
func (l *loader) graph(sg *schema.Graph, inputs []export.InputSpec, where string) (*graph.Graph, []export.Subgraph, error) {
	l.depth++
	defer func() { l.depth-- }()
	if l.depth > maxDepth {
		return nil, nil, fmt.Errorf("pt2: %ssubgraphs nested deeper than %d", where, maxDepth)
	}
	b := &builder{l: l, g: graph.New(), sg: sg, values: map[string]node.Arg{}, where: where, subAttr: map[string]*node.Node{}}
	top := where == ""
	if top && len(inputs) != len(sg.Inputs) {
		return nil, nil, fmt.Errorf("pt2: %sthe graph has %d inputs, the signature %d", where, len(sg.Inputs), len(inputs))
	}
	for i := range sg.Inputs {
		a := &sg.Inputs[i]
		name := inputName(a)
		if top {
			name = inputs[i].Name
		}
		if name == "" {
			return nil, nil, fmt.Errorf("pt2: %sgraph input %d (%s) has no name", where, i, argKind(a))
		}
		ph, err := b.g.CreateNode(node.Placeholder, node.Path(name), nil, nil, name)
		if err != nil {
			return nil, nil, fmt.Errorf("pt2: %sgraph input %s: %w", where, name, err)
		}
		// A name Python reserves (input) is renamed (input_1), as torch.fx's
		// code does; the signature follows (see rename).
		b.values[name] = ph
		if err := b.setVal(ph, name); err != nil {
			return nil, nil, err
		}
	}
	for i := range sg.Nodes {
		if err := b.node(&sg.Nodes[i], i); err != nil {
			return nil, nil, err
		}
	}
	outs := make(node.Tuple, len(sg.Outputs))
	for i := range sg.Outputs {
		a, err := b.arg(&sg.Outputs[i], nil)
		if err != nil {
			return nil, nil, fmt.Errorf("pt2: %sgraph output %d: %w", where, i, err)
		}
		outs[i] = a
	}
	var result node.Arg = outs
	if !top && sg.IsSingleTensorReturn && len(outs) == 1 {
		result = outs[0]
	}
	if _, err := b.g.Output(result); err != nil {
		return nil, nil, fmt.Errorf("pt2: %soutput: %w", where, err)
	}
	if top {
		l.top = b.values
	}
	return b.g, b.subs, nil
}

func inputName(a *schema.Argument) string {
	switch {
	case a.AsTensor != nil:
		return a.AsTensor.Name
	case a.AsSymInt != nil && a.AsSymInt.AsName != nil:
		return *a.AsSymInt.AsName
	case a.AsSymFloat != nil && a.AsSymFloat.AsName != nil:
		return *a.AsSymFloat.AsName
	case a.AsSymBool != nil && a.AsSymBool.AsName != nil:
		return *a.AsSymBool.AsName
	case a.AsCustomObj != nil:
		return a.AsCustomObj.Name
	}
	return ""
}

// argKind names an argument's union tag.
func argKind(a *schema.Argument) string {
	if tag := schema.Tag(a); tag != "" {
		return tag
	}
	return "an empty argument"
}

// builder builds one graph.
type builder struct {
	l       *loader
	g       *graph.Graph
	sg      *schema.Graph
	values  map[string]node.Arg // graph values by name
	where   string              // "subgraph true_graph_0: " or ""
	subs    []export.Subgraph
	subAttr map[string]*node.Node
	cur     *schema.Node
}

// setVal sets the val of the node computing the value name, from the
// graph's value metadata.
func (b *builder) setVal(n *node.Node, name string) error {
	sg := b.graphOf()
	if tm, ok := sg.TensorValues[name]; ok {
		f, err := b.l.fake(name, &tm)
		if err != nil {
			return fmt.Errorf("%s%w", b.where, err)
		}
		node.Val.Set(&n.Meta, f)
		return nil
	}
	if v, ok := sg.SymIntValues[name]; ok {
		e, err := b.l.symInt(&v, "pt2: "+b.where+"value "+name)
		if err != nil {
			return err
		}
		node.Val.Set(&n.Meta, e)
		return nil
	}
	if v, ok := sg.SymFloatValues[name]; ok && v.AsExpr != nil {
		// A float read from tensor data (Symbol('zuf0')) is a float
		// symbol; arithmetic on it (2.0*zuf0) has no gofx form and the
		// node keeps no val (it runs all the same).
		if e, err := sym.ParseSympy(v.AsExpr.ExprStr, b.l.symbol); err == nil && e.IsFloat() {
			node.Val.Set(&n.Meta, e)
		}
		return nil
	}
	if v, ok := sg.SymBoolValues[name]; ok && v.AsExpr != nil {
		c, err := sym.ParseSympyCond(v.AsExpr.ExprStr, b.l.symbol)
		if err != nil {
			return fmt.Errorf("pt2: %svalue %s: %w", b.where, name, err)
		}
		node.Val.Set(&n.Meta, c)
	}
	return nil
}

func (b *builder) graphOf() *schema.Graph { return b.sg }

// target resolves a node's target (node.LookupTarget: ATen, custom and
// higher-order operators, Python's operators on symbolic ints, torch.sym_*).
func target(name string) (node.Function, error) {
	return node.LookupTarget(name)
}

// node converts one node.
func (b *builder) node(sn *schema.Node, idx int) error {
	b.cur = sn
	fail := func(format string, args ...any) error {
		return fmt.Errorf("pt2: %snode %d (%s, %s): %s", b.where, idx, nodeLabel(sn), sn.Target, fmt.Sprintf(format, args...))
	}
	fn, err := target(sn.Target)
	if err != nil {
		return fail("%v", err)
	}
	args, kwargs, err := b.inputs(sn, fn)
	if err != nil {
		return fail("%v", err)
	}
	name := ""
	switch {
	case sn.Name != nil && *sn.Name != "":
		name = *sn.Name
	case len(sn.Outputs) == 1 && singleName(&sn.Outputs[0]) != "":
		name = singleName(&sn.Outputs[0])
	}
	n, err := b.g.CreateNode(node.CallFunction, fn, args, kwargs, name)
	if err != nil {
		return fail("%v", err)
	}
	b.meta(n, sn)
	return b.outputs(n, sn, fail)
}

func nodeLabel(sn *schema.Node) string {
	if sn.Name != nil && *sn.Name != "" {
		return *sn.Name
	}
	if len(sn.Outputs) > 0 {
		if s := singleName(&sn.Outputs[0]); s != "" {
			return s
		}
	}
	return "unnamed"
}

// singleName is the name of a single-value output.
func singleName(a *schema.Argument) string {
	switch {
	case a.AsTensor != nil:
		return a.AsTensor.Name
	case a.AsSymInt != nil && a.AsSymInt.AsName != nil:
		return *a.AsSymInt.AsName
	case a.AsSymBool != nil && a.AsSymBool.AsName != nil:
		return *a.AsSymBool.AsName
	case a.AsSymFloat != nil && a.AsSymFloat.AsName != nil:
		return *a.AsSymFloat.AsName
	}
	return ""
}

// outputs records the values a node computes: itself for one value,
// getitem nodes for several.
func (b *builder) outputs(n *node.Node, sn *schema.Node, fail func(string, ...any) error) error {
	// One value, unless the node is named apart from it (PyTorch ≥ 2.8
	// names a higher-order operator's node "cond" and its one output
	// getitem: the node returns a tuple of one).
	if len(sn.Outputs) == 1 {
		if name := singleName(&sn.Outputs[0]); name != "" && (sn.Name == nil || *sn.Name == "" || *sn.Name == name) {
			if _, dup := b.values[name]; dup {
				return fail("the value %s is defined twice", name)
			}
			b.values[name] = n
			return b.setVal(n, name)
		}
	}
	// Several outputs: one getitem per named element (as torch's
	// deserializer does), the node's val a tuple of theirs.
	var names []string
	var nested [][]string
	if len(sn.Outputs) == 1 && sn.Outputs[0].AsTensors != nil {
		for _, t := range sn.Outputs[0].AsTensors {
			names = append(names, t.Name)
		}
	} else {
		for i := range sn.Outputs {
			o := &sn.Outputs[i]
			switch {
			case singleName(o) != "":
				names = append(names, singleName(o))
			case o.AsTensors != nil:
				var inner []string
				for _, t := range o.AsTensors {
					inner = append(inner, t.Name)
				}
				names = append(names, "")
				nested = append(nested, inner)
				_ = inner
			case o.AsNone != nil:
				names = append(names, "")
			case o.AsOptionalTensors != nil:
				names = append(names, "")
			default:
				return fail("output %d is %s, which gofx does not read", i, argKind(o))
			}
		}
	}
	vals := make(node.ValueTuple, len(names))
	for i, name := range names {
		if name == "" {
			continue
		}
		if _, dup := b.values[name]; dup {
			return fail("the value %s is defined twice", name)
		}
		gi, err := b.g.CreateNode(node.CallFunction, getitem, []node.Arg{n, node.Int(int64(i))}, nil, name)
		if err != nil {
			return fail("%v", err)
		}
		copyMeta(gi, n)
		b.values[name] = gi
		if err := b.setVal(gi, name); err != nil {
			return err
		}
		if v, ok := node.Val.Get(&gi.Meta); ok {
			vals[i] = v
		}
	}
	if len(nested) > 0 {
		return fail("outputs that are lists of tensors among other outputs are not supported")
	}
	full := true
	for _, v := range vals {
		full = full && v != nil
	}
	if full && len(vals) > 0 {
		node.Val.Set(&n.Meta, vals)
	}
	return nil
}

func copyMeta(dst, src *node.Node) { node.CopyProvenance(&dst.Meta, &src.Meta) }

// getitem is Python's operator.getitem, the function of the nodes taking
// one element of a multi-output node.
var getitem = mustLookup("operator.getitem")

func mustLookup(name string) node.Function {
	f, ok := node.LookupFunction(name)
	if !ok {
		f = node.MustFunc(name, false)
	}
	return f
}

// meta copies a node's metadata: stack_trace, nn_module_stack and the
// other entries (source_fn_stack, torch_fn, custom, ...) as strings.
func (b *builder) meta(n *node.Node, sn *schema.Node) {
	keys := make([]string, 0, len(sn.Metadata))
	for k := range sn.Metadata {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := sn.Metadata[k]
		switch k {
		case "stack_trace":
			node.StackTrace.Set(&n.Meta, v)
		case "nn_module_stack":
			node.ModuleStack.Set(&n.Meta, moduleStack(v))
		default:
			n.Meta.Set(k, v)
		}
	}
}

// moduleStack parses torch's serialized nn_module_stack:
// "key,path,type;key,path,type" (a path may hold commas).
func moduleStack(s string) []node.ModuleFrame {
	var out []node.ModuleFrame
	if s == "" {
		return nil
	}
	for _, e := range splitTop(s, ';') {
		first := strings.IndexByte(e, ',')
		last := strings.LastIndexByte(e, ',')
		if first < 0 || last <= first {
			out = append(out, node.ModuleFrame{Path: e})
			continue
		}
		out = append(out, node.ModuleFrame{Path: e[first+1 : last], Type: e[last+1:]})
	}
	return out
}

// splitTop splits s at sep outside brackets.
func splitTop(s string, sep byte) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(', '[', '{':
			depth++
		case ')', ']', '}':
			depth--
		case sep:
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}

// inputs places a node's named inputs: for an operator with a schema,
// positionally in schema order while none is left out and none is
// keyword-only (or marked KEYWORD), then by keyword; for other functions,
// positionally.
func (b *builder) inputs(sn *schema.Node, fn node.Function) ([]node.Arg, node.Kwargs, error) {
	op, isOp := fn.(*ops.Operator)
	if !isOp || op.Schema() == nil {
		args := make([]node.Arg, len(sn.Inputs))
		for i := range sn.Inputs {
			a, err := b.arg(&sn.Inputs[i].Arg, nil)
			if err != nil {
				return nil, nil, fmt.Errorf("input %d (%s): %w", i, sn.Inputs[i].Name, err)
			}
			args[i] = a
		}
		return args, nil, nil
	}
	given := map[string]*schema.NamedArgument{}
	for i := range sn.Inputs {
		in := &sn.Inputs[i]
		if _, dup := given[in.Name]; dup {
			return nil, nil, fmt.Errorf("input %s given twice", in.Name)
		}
		given[in.Name] = in
	}
	s := op.Schema()
	var args []node.Arg
	var kwargs node.Kwargs
	positional := true
	for _, sa := range s.Args {
		in, ok := given[sa.Name]
		if !ok {
			if sa.Default == nil && !isOptional(sa.Type) {
				return nil, nil, fmt.Errorf("missing argument %s of %s", sa.Name, op)
			}
			positional = false
			continue
		}
		delete(given, sa.Name)
		a, err := b.arg(&in.Arg, sa.Type)
		if err != nil {
			return nil, nil, fmt.Errorf("argument %s: %w", sa.Name, err)
		}
		keyword := sa.KwargOnly || (in.Kind != nil && *in.Kind == schema.ArgumentKind(2))
		if positional && !keyword {
			args = append(args, a)
			continue
		}
		positional = false
		kwargs = append(kwargs, node.Field{Name: sa.Name, Value: a})
	}
	if len(given) > 0 {
		var extra []string
		for k := range given {
			extra = append(extra, k)
		}
		sort.Strings(extra)
		return nil, nil, fmt.Errorf("%s has no argument %s (schema: %s)", op, strings.Join(extra, ", "), s)
	}
	return args, kwargs, nil
}

func isOptional(t *ops.Type) bool { return t != nil && t.Kind == ops.OptionalOf }

// ref returns the graph value called name.
func (b *builder) ref(name string) (node.Arg, error) {
	v, ok := b.values[name]
	if !ok {
		return nil, fmt.Errorf("%s is no value defined before (a dangling reference)", name)
	}
	return v, nil
}

// listArg converts each element of xs with f into a list argument.
func listArg[T any](xs []T, f func(*T) (node.Arg, error)) (node.Arg, error) {
	out := make(node.List, len(xs))
	for i := range xs {
		v, err := f(&xs[i])
		if err != nil {
			return nil, err
		}
		out[i] = v
	}
	return out, nil
}

// constList converts constants into a list argument.
func constList[T any](xs []T, f func(T) node.Arg) node.List {
	out := make(node.List, len(xs))
	for i, x := range xs {
		out[i] = f(x)
	}
	return out
}

// symBoolArg converts a SymBool argument: a symbolic value's name, or a
// constant.
func (b *builder) symBoolArg(a *schema.SymBoolArgument) (node.Arg, error) {
	switch {
	case a.AsName != nil:
		return b.ref(*a.AsName)
	case a.AsBool != nil:
		return node.Bool(*a.AsBool), nil
	}
	return nil, fmt.Errorf("an empty SymBool argument")
}

// symFloatArg converts a SymFloat argument: a symbolic value's name, or a
// constant.
func (b *builder) symFloatArg(a *schema.SymFloatArgument) (node.Arg, error) {
	switch {
	case a.AsName != nil:
		return b.ref(*a.AsName)
	case a.AsFloat != nil:
		return node.Float(*a.AsFloat), nil
	}
	return nil, fmt.Errorf("an empty SymFloat argument")
}

func (b *builder) symIntArg(a *schema.SymIntArgument) (node.Arg, error) {
	switch {
	case a.AsName != nil:
		return b.ref(*a.AsName)
	case a.AsInt != nil:
		return node.Int(*a.AsInt), nil
	}
	return nil, fmt.Errorf("an empty SymInt argument")
}

// arg converts an argument; t is its schema type when known.
func (b *builder) arg(a *schema.Argument, t *ops.Type) (node.Arg, error) {
	switch {
	case a.AsNone != nil:
		return node.None, nil
	case a.AsTensor != nil:
		return b.ref(a.AsTensor.Name)
	case a.AsTensors != nil:
		out := make(node.List, len(a.AsTensors))
		for i, x := range a.AsTensors {
			v, err := b.ref(x.Name)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case a.AsInt != nil:
		return node.Int(*a.AsInt), nil
	case a.AsInts != nil:
		return constList(a.AsInts, func(x int64) node.Arg { return node.Int(x) }), nil
	case a.AsFloat != nil:
		return node.Float(*a.AsFloat), nil
	case a.AsFloats != nil:
		return constList(a.AsFloats, func(x float64) node.Arg { return node.Float(x) }), nil
	case a.AsString != nil:
		return node.Str(*a.AsString), nil
	case a.AsStrings != nil:
		return constList(a.AsStrings, func(x string) node.Arg { return node.Str(x) }), nil
	case a.AsBool != nil:
		return node.Bool(*a.AsBool), nil
	case a.AsBools != nil:
		return constList(a.AsBools, func(x bool) node.Arg { return node.Bool(x) }), nil
	case a.AsSymInt != nil:
		return b.symIntArg(a.AsSymInt)
	case a.AsSymInts != nil:
		return listArg(a.AsSymInts, b.symIntArg)
	case a.AsSymBool != nil:
		return b.symBoolArg(a.AsSymBool)
	case a.AsSymBools != nil:
		return listArg(a.AsSymBools, b.symBoolArg)
	case a.AsSymFloat != nil:
		return b.symFloatArg(a.AsSymFloat)
	case a.AsSymFloats != nil:
		return listArg(a.AsSymFloats, b.symFloatArg)
	case a.AsScalarType != nil:
		dt, err := dtypeOf(*a.AsScalarType)
		if err != nil {
			return nil, err
		}
		return node.DType(dt.String()), nil
	case a.AsMemoryFormat != nil:
		mf, ok := memoryFormats[*a.AsMemoryFormat]
		if !ok {
			return nil, fmt.Errorf("memory format %s is not supported", *a.AsMemoryFormat)
		}
		return mf, nil
	case a.AsLayout != nil:
		lt, ok := layouts[*a.AsLayout]
		if !ok {
			return nil, fmt.Errorf("layout %s is not supported", *a.AsLayout)
		}
		return lt, nil
	case a.AsDevice != nil:
		d := a.AsDevice.Type
		if a.AsDevice.Index != nil {
			d = fmt.Sprintf("%s:%d", d, *a.AsDevice.Index)
		}
		dev := node.Device(d)
		if !dev.Valid() {
			return nil, fmt.Errorf("invalid device %q", d)
		}
		return dev, nil
	case a.AsOptionalTensors != nil:
		out := make(node.List, len(a.AsOptionalTensors))
		for i, x := range a.AsOptionalTensors {
			v, err := b.optionalTensor(&x)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case a.AsOptionalTensor != nil:
		return b.optionalTensor(a.AsOptionalTensor)
	case a.AsGraph != nil:
		return b.subgraph(a.AsGraph)
	case a.AsCustomObj != nil:
		return b.ref(a.AsCustomObj.Name)
	case a.AsOperator != nil:
		return node.Str(*a.AsOperator), nil
	case a.AsIntLists != nil:
		out := make(node.List, len(a.AsIntLists))
		for i, l := range a.AsIntLists {
			inner := make(node.List, len(l))
			for j, x := range l {
				inner[j] = node.Int(x)
			}
			out[i] = inner
		}
		return out, nil
	case a.AsFloatLists != nil:
		out := make(node.List, len(a.AsFloatLists))
		for i, l := range a.AsFloatLists {
			inner := make(node.List, len(l))
			for j, x := range l {
				inner[j] = node.Float(x)
			}
			out[i] = inner
		}
		return out, nil
	case a.AsNestedTensors != nil:
		out := make(node.List, len(a.AsNestedTensors))
		for i, l := range a.AsNestedTensors {
			inner := make(node.List, len(l))
			for j, x := range l {
				v, err := b.ref(x.Name)
				if err != nil {
					return nil, err
				}
				inner[j] = v
			}
			out[i] = inner
		}
		return out, nil
	case a.AsStringToArgument != nil:
		keys := make([]string, 0, len(a.AsStringToArgument))
		for k := range a.AsStringToArgument {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		d := make(node.Dict, len(keys))
		for i, k := range keys {
			x := a.AsStringToArgument[k]
			v, err := b.arg(&x, nil)
			if err != nil {
				return nil, fmt.Errorf("[%q]: %w", k, err)
			}
			d[i] = node.Field{Name: k, Value: v}
		}
		return d, nil
	}
	return nil, fmt.Errorf("%s is not supported", argKind(a))
}

func (b *builder) optionalTensor(x *schema.OptionalTensorArgument) (node.Arg, error) {
	switch {
	case x.AsTensor != nil:
		return b.ref(x.AsTensor.Name)
	case x.AsNone != nil:
		return node.None, nil
	}
	return nil, fmt.Errorf("an empty optional tensor")
}

var memoryFormats = map[schema.MemoryFormat]node.MemoryFormat{
	schema.MemoryFormatContiguousFormat: "contiguous_format", schema.MemoryFormatChannelsLast: "channels_last",
	schema.MemoryFormatChannelsLast3d: "channels_last_3d", schema.MemoryFormatPreserveFormat: "preserve_format",
}

var layouts = map[schema.Layout]node.Layout{
	schema.LayoutStrided: "strided", schema.LayoutSparseCoo: "sparse_coo", schema.LayoutSparseCsr: "sparse_csr",
	schema.LayoutSparseCsc: "sparse_csc", schema.LayoutSparseBsr: "sparse_bsr", schema.LayoutSparseBsc: "sparse_bsc",
	schema.LayoutMkldnn: "_mkldnn",
}

// subgraph converts a higher-order operator's graph argument: the graph
// becomes a Subgraph of the program under its name, read by a get_attr
// node (created once, where first used, as torch does).
func (b *builder) subgraph(ga *schema.GraphArgument) (node.Arg, error) {
	if n, ok := b.subAttr[ga.Name]; ok {
		return n, nil
	}
	if ga.Graph == nil {
		return nil, fmt.Errorf("subgraph %s has no graph", ga.Name)
	}
	if !node.IsIdentifier(ga.Name) {
		return nil, fmt.Errorf("subgraph name %q is not an identifier", ga.Name)
	}
	g, subs, err := b.l.graph(ga.Graph, nil, b.where+"subgraph "+ga.Name+": ")
	if err != nil {
		return nil, err
	}
	b.subs = append(b.subs, export.Subgraph{Name: ga.Name, Graph: g, Subgraphs: subs})
	n, err := b.g.CreateNode(node.GetAttr, node.Path(ga.Name), nil, nil, ga.Name)
	if err != nil {
		return nil, err
	}
	b.subAttr[ga.Name] = n
	return n, nil
}
