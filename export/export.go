package export

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/gofx/gofx/decomp"
	"github.com/gofx/gofx/internal/record"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// Option configures Export.
type Option func(*config)

type config struct {
	kwargs  map[string]any
	table   decomp.Table
	allAuto bool
	report  *[]Specialization
	// checks, checkTol: CheckInputs and CheckTolerance (tracecheck.go).
	checks      [][]any
	checkTol    float64
	checkTolSet bool
}

// Kwargs passes inputs by name (the names of the module's Forward
// arguments, from nn.ArgNames), as torch.export's kwargs: they follow the
// positional inputs in the program's signature, in the order of the
// module's arguments.
func Kwargs(kw map[string]any) Option { return func(c *config) { c.kwargs = kw } }

// Decompositions replaces the table of decompositions applied while
// exporting (decomp.Core() by default, which leaves only core ATen
// operators). A table that leaves composite operators makes Export fail
// the core-ATen verification.
func Decompositions(t decomp.Table) Option { return func(c *config) { c.table = t } }

// input is one input of the exported program, as Run checks it.
type input struct {
	name string
	// fake is the tensor input's dtype and shape (symbols for dynamic
	// dims); nil for a specialized non-tensor input.
	fake *shapeprop.Fake
	// value is a specialized non-tensor input's value.
	value nn.Value
	// scalar marks a symbolic non-tensor input (a SymInt placeholder of a
	// loaded program), ph a specialized input that has a placeholder (as
	// PyTorch's programs have); see New.
	scalar, ph bool
}

// Export traces m's Forward on args (tensors, or Go values that are
// specialized) and returns the ExportedProgram. dims declares the dynamic
// dimensions of the tensor inputs by input name (nil: all static).
func Export(m nn.Module, args []any, dims Dims, opts ...Option) (ep *ExportedProgram, err error) {
	if m == nil {
		return nil, errors.New("export: nil module")
	}
	if err := nn.Err(m); err != nil {
		return nil, err
	}
	cfg := config{table: decomp.Core()}
	for _, o := range opts {
		o(&cfg)
	}
	if len(cfg.checks) > 0 {
		return exportChecked(m, args, dims, cfg, opts)
	}
	if cfg.allAuto || usesAuto(dims) {
		return exportAuto(m, args, dims, cfg, opts)
	}
	b, err := bindInputs(m, args, cfg.kwargs)
	if err != nil {
		return nil, err
	}
	if dims, err = b.byPath(dims); err != nil {
		return nil, err
	}
	names, vals := b.names(), b.vals()
	env := sym.NewEnv()
	fakes, dimOf, err := dynamicShapes(env, names, vals, dims)
	if err != nil {
		return nil, err
	}
	r := newRecorder(m, env, cfg.table)
	ep = &ExportedProgram{Env: env, dimOf: dimOf, root: m, in: b.spec, argNames: b.args, marks: newMarkCache()}

	// Placeholders: parameters, buffers, (constants as found), user inputs.
	paramNodes := map[string]*node.Node{}
	for name, p := range nn.NamedParameters(m) {
		t := p.Tensor()
		px, err := r.placeholder("p_"+flat(name), shapeprop.FakeOf(t))
		if err != nil {
			return nil, err
		}
		r.state[name] = px
		paramNodes[name] = px.Node()
		ep.Signature.Inputs = append(ep.Signature.Inputs, InputSpec{Kind: Parameter, Name: px.Node().Name(), Target: name})
		ep.state = append(ep.state, stateEntry{name, t})
	}
	for name, b := range nn.NamedBuffers(m) {
		t := b.Tensor()
		px, err := r.placeholder("b_"+flat(name), shapeprop.FakeOf(t))
		if err != nil {
			return nil, err
		}
		r.state[name] = px
		paramNodes[name] = px.Node()
		ep.Signature.Inputs = append(ep.Signature.Inputs, InputSpec{Kind: Buffer, Name: px.Node().Name(), Target: name, Persistent: b.Persistent()})
		ep.state = append(ep.state, stateEntry{name, t})
	}
	// User inputs: a placeholder per leaf of the inputs, a tensor's with
	// its fake, a specialized value's with none (PyTorch's
	// ConstantArgument input); the model gets them in its inputs'
	// structures.
	leafVals := make([]nn.Value, len(names))
	userProxies := make([]*record.Proxy, len(names))
	for i, name := range names {
		if fakes[i] == nil {
			n, err := r.rec.Create(node.Placeholder, node.Path(name), nil, nil, name, nil)
			if err != nil {
				return nil, err
			}
			if r.firstUser == nil {
				r.firstUser = n
			}
			leafVals[i] = vals[i]
			ep.inputs = append(ep.inputs, input{name: n.Name(), value: vals[i], ph: true})
			continue
		}
		px, err := r.placeholder(name, fakes[i])
		if err != nil {
			return nil, err
		}
		if r.firstUser == nil {
			r.firstUser = px.Node()
		}
		leafVals[i] = nn.Of(px)
		userProxies[i] = px
		ep.inputs = append(ep.inputs, input{name: px.Node().Name(), fake: fakes[i]})
	}
	in := make([]nn.Value, len(b.args))
	specs := append(slices.Clone(b.spec.Children[0].Children), b.spec.Children[1].Children...)
	next := 0
	for i, ts := range specs {
		k := ts.NumLeaves()
		v, err := ts.modelValue(b.values[i], leafVals[next:next+k])
		if err != nil {
			return nil, fmt.Errorf("export: input %s: %w", b.args[i], err)
		}
		in[i] = v
		next += k
	}

	r.install()
	defer r.rec.Uninstall()
	out, err := r.rec.Run(m, in)
	if err != nil {
		return nil, err
	}
	if err := r.checkOutputFresh(out); err != nil {
		return nil, err
	}
	ep.ModuleCallGraph = append([]ModuleCall{{FQN: "", Type: m.ModuleBase().TypeName(), Inputs: r.names(leafVals), Outputs: r.names([]nn.Value{out})}}, r.calls...)

	// Outputs: buffer mutations, user input mutations, user outputs.
	var outs node.Tuple
	for _, in := range ep.Signature.Inputs {
		if in.Kind != Parameter && in.Kind != Buffer {
			continue
		}
		px := r.state[in.Target]
		if px.Node() == paramNodes[in.Target] {
			continue
		}
		if in.Kind == Parameter {
			return nil, fmt.Errorf("export: the parameter %s is mutated in place by the model: only buffers and inputs may be mutated", in.Target)
		}
		outs = append(outs, px.Node())
		ep.Signature.Outputs = append(ep.Signature.Outputs, OutputSpec{Kind: BufferMutation, Name: px.Node().Name(), Target: in.Target})
	}
	for i, px := range userProxies {
		if px == nil || px.Node().Op() == node.Placeholder {
			continue
		}
		outs = append(outs, px.Node())
		ep.Signature.Outputs = append(ep.Signature.Outputs, OutputSpec{Kind: UserInputMutation, Name: px.Node().Name(), Target: ep.inputs[i].name})
	}
	leaves, constOuts, tree, err := r.flattenOutput(out)
	if err != nil {
		return nil, err
	}
	ep.out = tree
	for _, a := range leaves {
		outs = append(outs, a)
		if n, ok := a.(*node.Node); ok {
			ep.Signature.Outputs = append(ep.Signature.Outputs, OutputSpec{Kind: UserOutput, Name: n.Name()})
		} else {
			ep.Signature.Outputs = append(ep.Signature.Outputs, OutputSpec{Kind: UserOutput, Value: constOuts[a]})
		}
	}
	if _, err := r.rec.Create(node.Output, node.Path("output"), []node.Arg{outs}, nil, "", nil); err != nil {
		return nil, err
	}

	// Constants, lifted while tracing, are inputs before the user inputs.
	ins := ep.Signature.Inputs
	for _, c := range r.consts {
		ins = append(ins, InputSpec{Kind: ConstantTensor, Name: c.name, Target: c.attr})
		ep.constants = append(ep.constants, stateEntry{c.attr, c.t})
	}
	for _, in := range ep.inputs {
		if in.fake != nil {
			ins = append(ins, InputSpec{Kind: UserInput, Name: in.name})
		} else {
			v := in.value.Any()
			if v == nil {
				v = node.None // a None input: a nil Value would mean "no constant"
			}
			ins = append(ins, InputSpec{Kind: UserInput, Name: in.name, Value: v})
		}
	}
	ep.Signature.Inputs = ins

	if err := r.insertRuntimeAsserts(); err != nil {
		return nil, err
	}
	g := r.rec.Graph()
	g.EliminateDeadCode()
	if err := checkGuards(env, dims, dimOf); err != nil {
		return nil, err
	}
	if err := decomp.Verify(g); err != nil {
		return nil, fmt.Errorf("export: the graph is not core ATen: %w", err)
	}
	if ep.subgraphs, err = subgraphs(r.rec.Subgraphs()); err != nil {
		return nil, err
	}
	ep.specialized = r.specialized
	if len(ep.subgraphs) > 0 {
		if err := g.LintWithSubgraphs(ep.subgraphs); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
	}
	ep.Graph = g
	ep.setConstraints()
	return ep, nil
}

func flat(name string) string { return strings.ReplaceAll(name, ".", "_") }

// bindInputs binds the inputs to the module's argument names (positional
// ones, then keyword ones in the order of the module's arguments) and
// flattens them into their leaves, each named as torch.export names its
// placeholder.
func bindInputs(m nn.Module, args []any, kw map[string]any) (*boundInputs, error) {
	n := len(args) + len(kw)
	names := nn.ArgNames(m, n)
	if len(names) < n {
		return nil, fmt.Errorf("export: the module takes %d inputs (%s), got %d", len(names), strings.Join(names, ", "), n)
	}
	for k := range kw {
		if slices.Contains(names[:len(args)], k) {
			return nil, fmt.Errorf("export: input %q given both by position and by keyword", k)
		}
		if !slices.Contains(names[len(args):], k) {
			return nil, fmt.Errorf("export: unknown keyword input %q (inputs: %s)", k, strings.Join(names, ", "))
		}
	}
	b := &boundInputs{}
	pos, kws := TupleSpec(), DictSpec(nil)
	for i, a := range args {
		ts, err := flattenInput(names[i], a, nil, &b.leaves)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		pos.Children = append(pos.Children, ts)
		b.args = append(b.args, names[i])
		b.values = append(b.values, a)
	}
	var kwKeys []any
	for _, name := range names[len(args):n] {
		a, ok := kw[name]
		if !ok {
			return nil, fmt.Errorf("export: missing keyword input %q (inputs: %s)", name, strings.Join(names, ", "))
		}
		ts, err := flattenInput(name, a, nil, &b.leaves)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		kws.Children = append(kws.Children, ts)
		kwKeys = append(kwKeys, name)
		b.args = append(b.args, name)
		b.values = append(b.values, a)
	}
	kws.Context = kwKeys
	if kwKeys == nil {
		kws.Context = []any{}
	}
	b.spec = TupleSpec(pos, kws)
	// Names that collide take a suffix, as torch.export's do.
	used := map[string]bool{}
	for i := range b.leaves {
		name := b.leaves[i].name
		for k := 1; used[name]; k++ {
			name = fmt.Sprintf("%s_%d", b.leaves[i].name, k)
		}
		used[name] = true
		b.leaves[i].name = name
	}
	return b, nil
}

func inputValue(a any) (nn.Value, error) {
	switch x := a.(type) {
	case nn.Value:
		if x.IsSymbolic() {
			return nn.None, errors.New("a traced value cannot be an example input")
		}
		return x, nil
	case *tensor.Tensor:
		if x == nil {
			return nn.None, nil
		}
		if x.IsMeta() {
			return nn.None, errors.New("a meta tensor has no data to export with")
		}
	}
	defer func() { _ = recover() }()
	return nn.Of(a), nil
}

// dynamicShapes validates dims against the inputs and returns each tensor
// input's fake, with one symbol per Dimension.
func dynamicShapes(env *sym.Env, names []string, vals []nn.Value, dims Dims) ([]*shapeprop.Fake, map[string]*Dimension, error) {
	index := map[string]int{}
	for i, n := range names {
		index[n] = i
	}
	byName := map[string]*Dimension{}
	for _, in := range sortedKeys(dims) {
		i, ok := index[in]
		if !ok {
			return nil, nil, &SpecError{Input: in, Dim: -1, Msg: fmt.Sprintf("no such input (inputs: %s)", strings.Join(names, ", "))}
		}
		t := vals[i].Tensor()
		if t == nil {
			return nil, nil, &SpecError{Input: in, Dim: -1, Msg: fmt.Sprintf("only tensor inputs have dynamic dims; this input is a %s (it is specialized)", vals[i].Kind())}
		}
		for _, d := range sortedInts(dims[in]) {
			dim := dims[in][d]
			if dim == nil {
				return nil, nil, &SpecError{Input: in, Dim: d, Msg: "nil Dimension"}
			}
			if d < 0 || d >= t.Dim() {
				return nil, nil, &SpecError{Input: in, Dim: d, Msg: fmt.Sprintf("dimension out of range: the input has %d dims (shape %v)", t.Dim(), t.Shape())}
			}
			if dim.Name == "" {
				return nil, nil, &SpecError{Input: in, Dim: d, Msg: "a Dimension needs a name"}
			}
			if dim.Min > dim.Max {
				return nil, nil, &SpecError{Input: in, Dim: d, Msg: fmt.Sprintf("dimension %s has min %d > max %d", dim.Name, dim.Min, dim.Max)}
			}
			if dim.Min < 0 {
				return nil, nil, &SpecError{Input: in, Dim: d, Msg: fmt.Sprintf("dimension %s has a negative min %d", dim.Name, dim.Min)}
			}
			if other, ok := byName[dim.Name]; ok && other != dim && (*other != *dim) {
				return nil, nil, &SpecError{Input: in, Dim: d, Msg: fmt.Sprintf("conflicting Dimensions named %s: [%d, %s] and [%d, %s]; share one *Dimension to make sizes equal", dim.Name, other.Min, maxString(other.Max), dim.Min, maxString(dim.Max))}
			}
			byName[dim.Name] = dim
		}
	}
	symbols := map[string]*sym.Symbol{}
	dimOf := map[string]*Dimension{}
	owner := map[string]string{}
	fakes := make([]*shapeprop.Fake, len(vals))
	for i, v := range vals {
		t := v.Tensor()
		if t == nil {
			continue
		}
		f := shapeprop.FakeOf(t)
		for _, d := range sortedInts(dims[names[i]]) {
			dim := dims[names[i]][d]
			size := int64(t.Shape()[d])
			where := fmt.Sprintf("input %q dim %d", names[i], d)
			s, ok := symbols[dim.Name]
			if ok {
				if h, _ := s.Hint(); h != size {
					return nil, nil, &SpecError{Input: names[i], Dim: d, Msg: fmt.Sprintf("the example has size %d, but %s, which shares dimension %s, has size %d", size, owner[dim.Name], dim.Name, h)}
				}
			} else {
				if size < dim.Min || size > dim.Max {
					return nil, nil, &SpecError{Input: names[i], Dim: d, Msg: fmt.Sprintf("the example size %d is outside dimension %s's range [%d, %s]", size, dim.Name, dim.Min, maxString(dim.Max))}
				}
				if size < 2 {
					return nil, nil, &SpecError{Input: names[i], Dim: d, Msg: fmt.Sprintf("the example size %d cannot be dynamic: sizes 0 and 1 are specialized (they broadcast); export with an example of size >= 2", size)}
				}
				var err error
				s, err = env.NewSymbol(fmt.Sprintf("s%d", len(symbols)), size, sym.Range{Lo: dim.Min, Hi: dim.Max})
				if err != nil {
					return nil, nil, &SpecError{Input: names[i], Dim: d, Msg: err.Error()}
				}
				symbols[dim.Name] = s
				owner[dim.Name] = where
				dimOf[s.Name()] = dim
			}
			f.Shape[d] = s.Expr()
		}
		fakes[i] = f
	}
	return fakes, dimOf, nil
}

func maxString(m int64) string {
	if m == Inf {
		return "inf"
	}
	return fmt.Sprint(m)
}

// flattenOutput flattens the model's output (a tensor, or tuples, dicts
// and registered structs of tensors, None included) into its graph nodes
// and its structure.
func (r *recorder) flattenOutput(out nn.Value) ([]node.Arg, map[node.Arg]any, *TreeSpec, error) {
	var leaves []node.Arg
	consts := map[node.Arg]any{}
	var walk func(v nn.Value, path string, depth int) (*TreeSpec, error)
	walk = func(v nn.Value, path string, depth int) (*TreeSpec, error) {
		if depth > maxInputDepth {
			return nil, fmt.Errorf("export: output%s: nested deeper than %d", path, maxInputDepth)
		}
		switch {
		case v.IsTuple():
			ts := TupleSpec()
			for i, e := range v.Tuple() {
				c, err := walk(e, fmt.Sprintf("%s[%d]", path, i), depth+1)
				if err != nil {
					return nil, err
				}
				ts.Children = append(ts.Children, c)
			}
			return ts, nil
		case v.IsDict():
			ts := DictSpec(v.Keys())
			for _, k := range v.Keys() {
				c, err := walk(v.Get(k), path+"["+pyQuote(k)+"]", depth+1)
				if err != nil {
					return nil, err
				}
				ts.Children = append(ts.Children, c)
			}
			return ts, nil
		case v.IsNone():
			// A None output is a constant leaf, as in PyTorch's pytrees.
			leaves = append(leaves, node.None)
			consts[node.None] = node.None
			return Leaf(), nil
		}
		switch x := v.Raw().(type) {
		case *record.Proxy:
			leaves = append(leaves, x.Node())
			return Leaf(), nil
		case *tensor.Tensor:
			p, err := r.constant(x)
			if err != nil {
				return nil, err
			}
			leaves = append(leaves, p.Node())
			return Leaf(), nil
		}
		switch x := v.Any().(type) {
		case int64, float64, bool, string:
			// A constant output, as PyTorch's ConstantArgument output.
			a, ok := node.ArgOf(x)
			if !ok {
				return nil, fmt.Errorf("export: output%s: %v has no graph form", path, x)
			}
			leaves = append(leaves, a)
			consts[a] = x
			return Leaf(), nil
		}
		if rt, rv := registeredStruct(v.Any()); rt != nil {
			var names, nones []string
			var children []*TreeSpec
			for _, f := range rt.fields {
				e := nn.Object(rv.Field(f.index).Interface())
				if e.IsNone() {
					nones = append(nones, f.name)
					continue
				}
				c, err := walk(e, path+"."+f.name, depth+1)
				if err != nil {
					return nil, err
				}
				names = append(names, f.name)
				children = append(children, c)
			}
			return &TreeSpec{Type: rt.name, Context: structContext(names, nones), Children: children}, nil
		}
		return nil, fmt.Errorf("export: output%s is a %s: exported programs return tensors (or tuples, dicts and registered structs of tensors)", path, v.Kind())
	}
	ts, err := walk(out, "", 0)
	return leaves, consts, ts, err
}
