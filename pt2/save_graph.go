package pt2

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/pt2/archive"
	"github.com/gofx/gofx/pt2/schema"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
)

// The enum values of schema.py for gofx's argument values (torch's
// _TORCH_TO_SERIALIZE_* maps); tensor dtypes map through
// archive.ScalarType.
var (
	argScalarTypes = map[node.DType]schema.ScalarType{
		node.Uint8: schema.ScalarTypeByte, node.Int8: schema.ScalarTypeChar,
		node.Int16: schema.ScalarTypeShort, node.Int32: schema.ScalarTypeInt,
		node.Int64: schema.ScalarTypeLong, node.Float16: schema.ScalarTypeHalf,
		node.Float32: schema.ScalarTypeFloat, node.Float64: schema.ScalarTypeDouble,
		node.BoolDType: schema.ScalarTypeBool, node.BFloat16: schema.ScalarTypeBFloat16,
		node.Complex64: schema.ScalarTypeComplexFloat, node.Complex128: schema.ScalarTypeComplexDouble,
	}
	argLayouts       = reverse(layouts)
	argMemoryFormats = reverse(memoryFormats)
)

// reverse inverts a one-to-one map.
func reverse[K, V comparable](m map[K]V) map[V]K {
	out := make(map[V]K, len(m))
	for k, v := range m {
		out[v] = k
	}
	return out
}

// symOps are the functions programs apply to symbolic values (Python's
// operators, torch.sym_*), with the parameter names inspect.signature
// gives, which torch writes as the argument names: operator.mul(a, b) is
// "_operator.mul".
var symOps = map[string][]string{
	"operator.mul": {"a", "b"}, "operator.add": {"a", "b"}, "operator.sub": {"a", "b"},
	"operator.floordiv": {"a", "b"}, "operator.mod": {"a", "b"}, "operator.pow": {"a", "b"},
	"operator.truediv": {"a", "b"}, "operator.eq": {"a", "b"}, "operator.ne": {"a", "b"},
	"operator.le": {"a", "b"}, "operator.ge": {"a", "b"}, "operator.lt": {"a", "b"},
	"operator.gt": {"a", "b"}, "operator.neg": {"a"}, "operator.pos": {"a"},
	"torch.sym_not": {"a"}, "torch.sym_int": {"a"}, "torch.sym_ite": {"b", "t", "f"},
	"torch.sym_max": {"a", "b"}, "torch.sym_min": {"a", "b"},
}

// symRels are the comparisons, whose results are symbolic bools.
var symRels = map[string]sym.Rel{
	"operator.eq": sym.EQ, "operator.ne": sym.NE, "operator.lt": sym.LT,
	"operator.le": sym.LE, "operator.gt": sym.GT, "operator.ge": sym.GE,
}

func ptr[T any](v T) *T { return &v }

// serializer turns a graph into schema.py's Graph, as torch's
// GraphModuleSerializer does.
type serializer struct {
	ep     *export.ExportedProgram
	env    *sym.Env
	legacy bool // PyTorch 2.6's form: no fields new since schema 8.2
	params map[string]bool

	g    *schema.Graph
	dup  map[*node.Node]string // duplicate getitem -> the name of its first twin
	subs []export.Subgraph     // the subgraphs get_attr nodes of this graph read
	// constInputs are the specialized user inputs' values by placeholder.
	constInputs map[string]any
	// mutates is set when an operator of the graph (or a subgraph) writes
	// an argument: the program is then in torch.export's TRAINING dialect.
	mutates bool
	// fileNames are the names placeholders have in the file where they
	// differ from the node's: their targets (the model's argument names,
	// "input" where gofx's node is input_1 since input is a Python builtin).
	fileNames map[string]string
}

// fileName is the name a node's value has in the file.
func (s *serializer) fileName(name string) string {
	if f, ok := s.fileNames[name]; ok {
		return f
	}
	return name
}

// nameInputs fills fileNames from g's placeholders.
func (s *serializer) nameInputs(g *graph.Graph) {
	s.fileNames = map[string]string{}
	taken := map[string]bool{}
	for n := range g.Nodes() {
		taken[n.Name()] = true
	}
	for n := range g.Nodes() {
		if n.Op() != node.Placeholder {
			continue
		}
		if t := n.Target().String(); t != n.Name() && node.IsIdentifier(t) && !taken[t] {
			s.fileNames[n.Name()] = t
			taken[t] = true
		}
	}
}

// nodeError names the node a failure is about.
func nodeError(n *node.Node, format string, args ...any) error {
	return fmt.Errorf("pt2: save: node %s (%s): %s", n.Name(), n.Target(), fmt.Sprintf(format, args...))
}

func (s *serializer) graph(g *graph.Graph) (*schema.Graph, error) {
	s.g = &schema.Graph{
		Inputs: []schema.Argument{}, Outputs: []schema.Argument{}, Nodes: []schema.Node{},
		TensorValues:    map[string]schema.TensorMeta{},
		SymIntValues:    map[string]schema.SymInt{},
		SymBoolValues:   map[string]schema.SymBool{},
		CustomObjValues: map[string]schema.CustomObjArgument{},
		SymFloatValues:  map[string]schema.SymFloat{},
	}
	s.dup = map[*node.Node]string{}
	s.nameInputs(g)
	for n := range g.Nodes() {
		switch n.Op() {
		case node.Placeholder:
			if v, ok := s.constInputs[n.Name()]; ok {
				a, err := constArg(v)
				if err != nil {
					return nil, nodeError(n, "%v", err)
				}
				s.g.Inputs = append(s.g.Inputs, *a)
				continue
			}
			name := s.fileName(n.Name())
			if e, ok := valOf(n).(sym.Expr); ok && e.IsFloat() {
				// A subgraph's float input (a float read from tensor data).
				s.g.SymFloatValues[name] = s.symFloat(e)
				s.g.Inputs = append(s.g.Inputs, schema.Argument{AsSymFloat: &schema.SymFloatArgument{AsName: ptr(name)}})
				continue
			}
			if e, ok := valOf(n).(sym.Expr); ok {
				// A subgraph's int input (a while_loop counter).
				s.g.SymIntValues[name] = s.symInt(e)
				s.g.Inputs = append(s.g.Inputs, schema.Argument{AsSymInt: &schema.SymIntArgument{AsName: ptr(name)}})
				continue
			}
			f, ok := fakeOf(n)
			if !ok {
				return nil, nodeError(n, "a placeholder whose val is %v: Save writes tensor, symbolic int and constant inputs", valOf(n))
			}
			if err := s.addTensor(n, name, f); err != nil {
				return nil, err
			}
			s.g.Inputs = append(s.g.Inputs, schema.Argument{AsTensor: &schema.TensorArgument{Name: name}})
		case node.GetAttr:
			// A subgraph, written where a higher-order operator takes it.
			if s.subgraph(n) == nil {
				return nil, nodeError(n, "get_attr of %s, which is not a subgraph of the program: an exported program reads its state as inputs", n.Target())
			}
		case node.CallFunction:
			if isGetitem(n) {
				if err := s.getitem(n); err != nil {
					return nil, err
				}
				continue
			}
			sn, err := s.callFunction(n)
			if err != nil {
				return nil, err
			}
			s.g.Nodes = append(s.g.Nodes, *sn)
		case node.Output:
			res := n.Arg(0)
			items, ok := res.(node.Tuple)
			if !ok {
				s.g.IsSingleTensorReturn = true
				items = node.Tuple{res}
			}
			for _, a := range items {
				o, err := s.input(a, nil)
				if err != nil {
					return nil, nodeError(n, "%v", err)
				}
				s.g.Outputs = append(s.g.Outputs, *o)
			}
		default:
			return nil, nodeError(n, "opcode %s: an exported program has only placeholders, call_function nodes and its output", n.Op())
		}
	}
	return s.g, nil
}

func valOf(n *node.Node) node.Value {
	v, _ := node.Val.Get(&n.Meta)
	return v
}

func fakeOf(n *node.Node) (*shapeprop.Fake, bool) {
	f, ok := valOf(n).(*shapeprop.Fake)
	return f, ok && f != nil
}

func isGetitem(n *node.Node) bool {
	f := n.Function()
	return f != nil && f.String() == "operator.getitem"
}

// getitem accepts a getitem of an operator's output, which the producer's
// outputs name, and records a duplicate (two getitems of one index) so
// that its users refer to the first.
func (s *serializer) getitem(n *node.Node) error {
	src, ok := n.Arg(0).(*node.Node)
	idx, ok2 := n.Arg(1).(node.Int)
	if !ok || !ok2 || src.Op() != node.CallFunction || n.NumArgs() != 2 {
		return nodeError(n, "getitem of %v: Save writes getitems of an operator's outputs only", n.Arg(0))
	}
	if first := getitemUser(src, int(idx)); first != n {
		s.dup[n] = first.Name()
	}
	return nil
}

// getitemUser returns the first getitem user of n taking index i.
func getitemUser(n *node.Node, i int) *node.Node {
	for _, u := range n.Users() {
		if isGetitem(u) && u.NumArgs() == 2 && u.Arg(0) == node.Arg(n) {
			if k, ok := u.Arg(1).(node.Int); ok && int(k) == i {
				return u
			}
		}
	}
	return nil
}

// outputName is the name of n's i-th output: its getitem's, or
// NAME_unused_i as torch names an output nothing reads.
func outputName(n *node.Node, i int) (string, *node.Node) {
	if u := getitemUser(n, i); u != nil {
		return u.Name(), u
	}
	return fmt.Sprintf("%s_unused_%d", n.Name(), i), nil
}

// metadata is the node's stack_trace and nn_module_stack as torch writes
// them ("key,path,type" frames joined by ";"), and its source_fn_stack,
// torch_fn and custom entries as a file gave them.
func metadata(n *node.Node) map[string]string {
	m := map[string]string{}
	for _, k := range []node.Key[string]{node.SourceFnStack, node.TorchFn, node.Custom} {
		if v, ok := k.Get(&n.Meta); ok && v != "" {
			m[k.Name()] = v
		}
	}
	if st, ok := node.StackTrace.Get(&n.Meta); ok && st != "" {
		m["stack_trace"] = st
	}
	if ms, ok := node.ModuleStack.Get(&n.Meta); ok && len(ms) > 0 {
		parts := make([]string, len(ms))
		for i, f := range ms {
			// The key is an identifier (torch's are too): the path's
			// other characters, commas included, would split the entry.
			key := "L__self__"
			if f.Path != "" {
				key += "_" + strings.Map(func(r rune) rune {
					if r == '_' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' {
						return r
					}
					return '_'
				}, f.Path)
			}
			parts[i] = key + "," + f.Path + "," + f.Type
		}
		m["nn_module_stack"] = strings.Join(parts, ";")
	}
	return m
}

func (s *serializer) callFunction(n *node.Node) (*schema.Node, error) {
	fn := n.Function()
	if fn == nil {
		return nil, nodeError(n, "no function target")
	}
	sn := &schema.Node{Metadata: metadata(n)}
	if !s.legacy {
		sn.Name = ptr(n.Name())
	}
	var err error
	switch f := fn.(type) {
	case *ops.Operator:
		sn.Target = "torch.ops." + f.String()
		if f.Has(ops.Mutable) {
			s.mutates = true
		}
		if sn.Inputs, err = s.opInputs(n, f); err != nil {
			return nil, err
		}
		if sn.Outputs, err = s.opOutputs(n, f); err != nil {
			return nil, err
		}
	default:
		sn.Target = node.TorchName(fn)
		if strings.HasPrefix(fn.String(), "higher_order.") {
			if err := s.higherOrder(n, sn); err != nil {
				return nil, err
			}
			break
		}
		names, ok := symOps[fn.String()]
		if !ok {
			return nil, nodeError(n, "the function %s has no .pt2 form (Save writes operators, higher-order operators and the functions of symbolic values)", fn)
		}
		if len(n.Kwargs()) > 0 || n.NumArgs() != len(names) {
			return nil, nodeError(n, "%s takes %d positional arguments", fn, len(names))
		}
		for i, a := range n.Args() {
			arg, err := s.input(a, nil)
			if err != nil {
				return nil, nodeError(n, "argument %s: %v", names[i], err)
			}
			sn.Inputs = append(sn.Inputs, s.named(names[i], arg, false))
		}
		o, err := s.symOutput(n, fn.String())
		if err != nil {
			return nil, err
		}
		sn.Outputs = []schema.Argument{*o}
	}
	if sn.Inputs == nil {
		sn.Inputs = []schema.NamedArgument{}
	}
	if sn.Outputs == nil {
		sn.Outputs = []schema.Argument{}
	}
	return sn, nil
}

// symOutput is the output of a function of symbolic values: a symbolic
// bool for comparisons and sym_not (its expression rebuilt from the
// arguments' when the node's val does not hold it), a symbolic int
// otherwise.
func (s *serializer) symOutput(n *node.Node, fn string) (*schema.Argument, error) {
	name := n.Name()
	rel, isRel := symRels[fn]
	if isRel || fn == "torch.sym_not" {
		var expr string
		switch v := valOf(n).(type) {
		case sym.Cond:
			expr = v.Srepr()
		default:
			if isRel {
				l, lok := s.symExprOf(n.Arg(0))
				r, rok := s.symExprOf(n.Arg(1))
				if lok && rok {
					if d, ok := l.Sub(r).Const(); ok {
						// Decided statically: torch writes the bool.
						s.g.SymBoolValues[name] = schema.SymBool{AsBool: ptr(relHolds(rel, d))}
						return &schema.Argument{AsSymBool: &schema.SymBoolArgument{AsName: ptr(name)}}, nil
					}
					expr = sym.Cond{Rel: rel, L: l, R: r}.Srepr()
				}
			}
		}
		if expr == "" {
			return nil, nodeError(n, "a symbolic bool whose expression is unknown (val %v)", valOf(n))
		}
		s.g.SymBoolValues[name] = schema.SymBool{AsExpr: &schema.SymExpr{ExprStr: expr}}
		return &schema.Argument{AsSymBool: &schema.SymBoolArgument{AsName: ptr(name)}}, nil
	}
	return s.output(n, name, valOf(n))
}

// relHolds evaluates "d rel 0".
func relHolds(rel sym.Rel, d int64) bool {
	switch rel {
	case sym.EQ:
		return d == 0
	case sym.NE:
		return d != 0
	case sym.LT:
		return d < 0
	case sym.LE:
		return d <= 0
	case sym.GT:
		return d > 0
	}
	return d >= 0
}

// symExprOf returns the symbolic int an argument stands for.
func (s *serializer) symExprOf(a node.Arg) (sym.Expr, bool) {
	switch x := a.(type) {
	case node.Int:
		return sym.Const(int64(x)), true
	case *node.Node:
		e, ok := valOf(x).(sym.Expr)
		return e, ok
	}
	return sym.Expr{}, false
}

// higherOrder writes a higher-order operator's call as torch's
// serialize_hoo_inputs/outputs do: positional arguments unnamed (its
// subgraphs as as_graph), keyword arguments by name; a tuple result
// under its getitems' names.
func (s *serializer) higherOrder(n *node.Node, sn *schema.Node) error {
	for _, a := range n.Args() {
		arg, err := s.input(a, nil)
		if err != nil {
			return nodeError(n, "%v", err)
		}
		sn.Inputs = append(sn.Inputs, s.named("", arg, false))
	}
	for _, kw := range n.Kwargs() {
		arg, err := s.input(kw.Value, nil)
		if err != nil {
			return nodeError(n, "argument %s: %v", kw.Name, err)
		}
		sn.Inputs = append(sn.Inputs, s.named(kw.Name, arg, true))
	}
	val := valOf(n)
	tup, isTuple := val.(node.ValueTuple)
	if !s.legacy {
		single := !isTuple && val != nil
		if _, ok := val.(*shapeprop.Fake); !ok {
			single = false
		}
		sn.IsHopSingleTensorReturn = ptr(single)
	}
	if !isTuple {
		o, err := s.output(n, n.Name(), val)
		if err != nil {
			return err
		}
		sn.Outputs = []schema.Argument{*o}
		return nil
	}
	if s.legacy && len(tup) == 1 {
		// PyTorch 2.6 writes a one-tensor tuple as a tensor list.
		name, _ := outputName(n, 0)
		f, ok := tup[0].(*shapeprop.Fake)
		if !ok {
			return nodeError(n, "a one-element result that is not a tensor (%v)", tup[0])
		}
		if err := s.addTensor(n, name, f); err != nil {
			return err
		}
		sn.Outputs = []schema.Argument{{AsTensors: []schema.TensorArgument{{Name: name}}}}
		return nil
	}
	for i, v := range tup {
		name, _ := outputName(n, i)
		o, err := s.output(n, name, v)
		if err != nil {
			return err
		}
		sn.Outputs = append(sn.Outputs, *o)
	}
	return nil
}

// subgraph returns the subgraph a get_attr node reads, or nil.
func (s *serializer) subgraph(n *node.Node) *export.Subgraph {
	name := n.Target().String()
	for i := range s.subs {
		if s.subs[i].Name == name {
			return &s.subs[i]
		}
	}
	return nil
}

// constArg is the graph input of a specialized user input (an int,
// float, bool, string or None).
func constArg(v any) (*schema.Argument, error) {
	switch x := v.(type) {
	case nil, node.NoneType:
		return &schema.Argument{AsNone: ptr(true)}, nil
	case bool:
		return &schema.Argument{AsBool: ptr(x)}, nil
	case int64:
		return &schema.Argument{AsInt: ptr(x)}, nil
	case int:
		return &schema.Argument{AsInt: ptr(int64(x))}, nil
	case float64:
		return &schema.Argument{AsFloat: ptr(x)}, nil
	case string:
		return &schema.Argument{AsString: ptr(x)}, nil
	}
	return nil, fmt.Errorf("a constant input %v (%T) has no .pt2 form", v, v)
}

// constValue is constArg's value as a ConstantValue of an input spec.
func constValue(v any) (*schema.ConstantValue, error) {
	a, err := constArg(v)
	if err != nil {
		return nil, err
	}
	return &schema.ConstantValue{AsNone: a.AsNone, AsInt: a.AsInt, AsFloat: a.AsFloat, AsString: a.AsString, AsBool: a.AsBool}, nil
}

// named is a NamedArgument; the schema after 8.2 adds its kind.
func (s *serializer) named(name string, arg *schema.Argument, kwOnly bool) schema.NamedArgument {
	na := schema.NamedArgument{Name: name, Arg: *arg}
	if !s.legacy {
		k := schema.ArgumentKindPositional
		if kwOnly {
			k = schema.ArgumentKindKeyword
		}
		na.Kind = &k
	}
	return na
}

// opInputs names each argument given by its schema name, in schema order,
// leaving out those not given (they take their defaults), as torch's
// serialize_inputs does.
func (s *serializer) opInputs(n *node.Node, op *ops.Operator) ([]schema.NamedArgument, error) {
	args, kwargs := n.Args(), n.Kwargs()
	sc := boundSchema(op, len(args), kwargs)
	used := 0
	out := []schema.NamedArgument{}
	for i, sa := range sc.Args {
		var a node.Arg
		if v, ok := kwargs.Get(sa.Name); ok {
			a = v
			used++
		} else if !sa.KwargOnly && i < len(args) {
			a = args[i]
		} else {
			continue
		}
		arg, err := s.input(a, sa.Type)
		if err != nil {
			return nil, nodeError(n, "argument %s: %v", sa.Name, err)
		}
		out = append(out, s.named(sa.Name, arg, sa.KwargOnly))
	}
	if len(args) > len(sc.Args) || used != len(kwargs) {
		return nil, nodeError(n, "the arguments do not bind to the schema %s", sc)
	}
	return out, nil
}

// boundSchema returns the newest schema of op that a call with nargs
// positional arguments and these keyword arguments binds to (by arity,
// keyword names and required arguments): an operator whose schema changed
// since PyTorch 1.13 keeps the argument names of the schema the graph was
// built for. It returns the newest schema when none fits; opInputs then
// names the mismatch.
func boundSchema(op *ops.Operator, nargs int, kwargs node.Kwargs) *ops.Schema {
	for _, sc := range op.Schemas() {
		if fits(sc, nargs, kwargs) {
			return sc
		}
	}
	return op.Schema()
}

func fits(sc *ops.Schema, nargs int, kwargs node.Kwargs) bool {
	pos := 0
	for _, a := range sc.Args {
		if !a.KwargOnly {
			pos++
		}
	}
	if nargs > pos {
		return false
	}
	for _, kw := range kwargs {
		found := false
		for i, a := range sc.Args {
			if a.Name == kw.Name && (a.KwargOnly || i >= nargs) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	for i, a := range sc.Args {
		if a.Default != nil || i < nargs && !a.KwargOnly {
			continue
		}
		if _, ok := kwargs.Get(a.Name); !ok {
			return false
		}
	}
	return true
}

// namedType is the name of t, or of its element when t is optional.
func namedType(t *ops.Type) string {
	if t == nil {
		return ""
	}
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	if t.Kind != ops.Named {
		return ""
	}
	return t.Name
}

func isTensorListType(t *ops.Type) bool {
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	return t.Kind == ops.ListOf && namedType(t.Elem) == "Tensor"
}

// opOutputs names an operator's outputs as torch's serialize_outputs: one
// output under the node's name; a Tensor[] or several outputs under their
// getitems' names.
func (s *serializer) opOutputs(n *node.Node, op *ops.Operator) ([]schema.Argument, error) {
	rets := op.Schema().Returns
	val := valOf(n)
	switch {
	case len(rets) == 0:
		return []schema.Argument{}, nil
	case len(rets) == 1 && isTensorListType(rets[0].Type):
		tup, ok := val.(node.ValueTuple)
		if !ok {
			return nil, nodeError(n, "a Tensor[] result whose val is %T, not a tuple", val)
		}
		ts := []schema.TensorArgument{}
		for i, v := range tup {
			name, _ := outputName(n, i)
			f, ok := v.(*shapeprop.Fake)
			if !ok || f == nil {
				return nil, nodeError(n, "output %d: expected a tensor val, got %v", i, v)
			}
			if err := s.addTensor(n, name, f); err != nil {
				return nil, err
			}
			ts = append(ts, schema.TensorArgument{Name: name})
		}
		return []schema.Argument{{AsTensors: ts}}, nil
	case len(rets) == 1:
		o, err := s.output(n, n.Name(), val)
		if err != nil {
			return nil, err
		}
		return []schema.Argument{*o}, nil
	}
	tup, ok := val.(node.ValueTuple)
	if !ok || len(tup) != len(rets) {
		return nil, nodeError(n, "%d results whose val is %v", len(rets), val)
	}
	var out []schema.Argument
	for i, v := range tup {
		name, _ := outputName(n, i)
		o, err := s.output(n, name, v)
		if err != nil {
			return nil, err
		}
		out = append(out, *o)
	}
	return out, nil
}

// addTensor records the metadata of the tensor called name.
func (s *serializer) addTensor(n *node.Node, name string, f *shapeprop.Fake) error {
	if _, dup := s.g.TensorValues[name]; dup {
		return nodeError(n, "output %s: the name is used twice", name)
	}
	tm, err := s.tensorMeta(f, s.params[name])
	if err != nil {
		return nodeError(n, "%s: %v", name, err)
	}
	s.g.TensorValues[name] = *tm
	return nil
}

// output is serialize_output: a tensor, a symbolic int, or None.
func (s *serializer) output(n *node.Node, name string, v node.Value) (*schema.Argument, error) {
	switch x := v.(type) {
	case nil:
		return &schema.Argument{AsNone: ptr(true)}, nil
	case *shapeprop.Fake:
		if err := s.addTensor(n, name, x); err != nil {
			return nil, err
		}
		return &schema.Argument{AsTensor: &schema.TensorArgument{Name: name}}, nil
	case sym.Expr:
		if x.IsFloat() {
			// A float read from tensor data (item() of a floating
			// tensor): as_sym_float, as PyTorch 2.6 writes Sym(zuf0).
			if _, dup := s.g.SymFloatValues[name]; dup {
				return nil, nodeError(n, "output %s: the name is used twice", name)
			}
			s.g.SymFloatValues[name] = s.symFloat(x)
			return &schema.Argument{AsSymFloat: &schema.SymFloatArgument{AsName: ptr(name)}}, nil
		}
		if _, dup := s.g.SymIntValues[name]; dup {
			return nil, nodeError(n, "output %s: the name is used twice", name)
		}
		s.g.SymIntValues[name] = s.symInt(x)
		return &schema.Argument{AsSymInt: &schema.SymIntArgument{AsName: ptr(name)}}, nil
	}
	return nil, nodeError(n, "output %s: no .pt2 form for the value %v (%T)", name, v, v)
}

// symInt is a SymInt: as_int for a constant, else as_expr with the sympy
// srepr and the hint.
func (s *serializer) symInt(e sym.Expr) schema.SymInt {
	if c, ok := e.Const(); ok {
		return schema.SymInt{AsInt: ptr(c)}
	}
	se := &schema.SymExpr{ExprStr: e.Srepr()}
	if h, ok := s.env.Hint(e); ok {
		se.Hint = &schema.SymExprHint{AsInt: ptr(h)}
	}
	return schema.SymInt{AsExpr: se}
}

// symFloat is a SymFloat: as_expr with the sympy srepr (no hint: a float
// read from tensor data has none).
func (s *serializer) symFloat(e sym.Expr) schema.SymFloat {
	return schema.SymFloat{AsExpr: &schema.SymExpr{ExprStr: e.Srepr()}}
}

// tensorMeta is a TensorMeta: contiguous strides (a fake records no
// others), offset 0, CPU, strided.
func (s *serializer) tensorMeta(f *shapeprop.Fake, requiresGrad bool) (*schema.TensorMeta, error) {
	dt, err := archive.ScalarType(f.DType)
	if err != nil {
		return nil, err
	}
	tm := &schema.TensorMeta{
		Dtype:         dt,
		Sizes:         make([]schema.SymInt, len(f.Shape)),
		RequiresGrad:  requiresGrad,
		Device:        schema.Device{Type: "cpu"},
		Strides:       make([]schema.SymInt, len(f.Shape)),
		StorageOffset: schema.SymInt{AsInt: ptr(int64(0))},
		Layout:        schema.LayoutStrided,
	}
	stride := sym.Const(1)
	for i := len(f.Shape) - 1; i >= 0; i-- {
		tm.Sizes[i] = s.symInt(f.Shape[i])
		tm.Strides[i] = s.symInt(stride)
		stride = stride.Mul(f.Shape[i])
	}
	return tm, nil
}

// isSymNode reports whether n computes a symbolic int.
func (s *serializer) isSymNode(n *node.Node) bool {
	if _, ok := s.g.SymIntValues[s.fileName(n.Name())]; ok {
		return true
	}
	_, ok := valOf(n).(sym.Expr)
	return ok
}

// tensorName is the name a tensor node is known by in the file: a
// duplicate getitem's first twin's.
func (s *serializer) tensorName(n *node.Node) string {
	if d, ok := s.dup[n]; ok {
		return d
	}
	return s.fileName(n.Name())
}

// input is serialize_input: the Argument for a node argument; t is the
// schema type when there is one (it decides what an empty list is and
// which enum a string names).
func (s *serializer) input(a node.Arg, t *ops.Type) (*schema.Argument, error) {
	switch x := a.(type) {
	case *node.Node:
		if x.Op() == node.GetAttr {
			sg := s.subgraph(x)
			if sg == nil {
				return nil, fmt.Errorf("get_attr %s is not a subgraph of the program", x.Target())
			}
			sub := &serializer{ep: s.ep, env: s.env, legacy: s.legacy, params: map[string]bool{}, subs: sg.Subgraphs}
			g, err := sub.graph(sg.Graph)
			if err != nil {
				return nil, fmt.Errorf("subgraph %s: %w", sg.Name, err)
			}
			s.mutates = s.mutates || sub.mutates
			return &schema.Argument{AsGraph: &schema.GraphArgument{Name: sg.Name, Graph: g}}, nil
		}
		if _, ok := s.g.SymBoolValues[x.Name()]; ok {
			return &schema.Argument{AsSymBool: &schema.SymBoolArgument{AsName: ptr(x.Name())}}, nil
		}
		if _, ok := s.g.SymFloatValues[s.fileName(x.Name())]; ok {
			return &schema.Argument{AsSymFloat: &schema.SymFloatArgument{AsName: ptr(s.fileName(x.Name()))}}, nil
		}
		if s.isSymNode(x) {
			return &schema.Argument{AsSymInt: &schema.SymIntArgument{AsName: ptr(s.fileName(x.Name()))}}, nil
		}
		return &schema.Argument{AsTensor: &schema.TensorArgument{Name: s.tensorName(x)}}, nil
	case node.Bool:
		return &schema.Argument{AsBool: ptr(bool(x))}, nil
	case node.Str:
		// gofx spells memory formats, layouts, dtypes and devices as
		// strings where the schema type says which enum they are.
		switch namedType(t) {
		case "MemoryFormat":
			return s.input(node.MemoryFormat(x), nil)
		case "Layout":
			return s.input(node.Layout(x), nil)
		case "ScalarType":
			return s.input(node.DType(x), nil)
		case "Device":
			return s.input(node.Device(x), nil)
		}
		return &schema.Argument{AsString: ptr(string(x))}, nil
	case node.Int:
		return &schema.Argument{AsInt: ptr(int64(x))}, nil
	case node.Float:
		return &schema.Argument{AsFloat: ptr(float64(x))}, nil
	case node.NoneType:
		return &schema.Argument{AsNone: ptr(true)}, nil
	case node.DType:
		v, ok := argScalarTypes[x]
		if !ok {
			return nil, fmt.Errorf("dtype %s has no .pt2 ScalarType", x)
		}
		return &schema.Argument{AsScalarType: &v}, nil
	case node.MemoryFormat:
		v, ok := argMemoryFormats[x]
		if !ok {
			return nil, fmt.Errorf("unknown memory format %s", x)
		}
		return &schema.Argument{AsMemoryFormat: &v}, nil
	case node.Layout:
		v, ok := argLayouts[x]
		if !ok {
			return nil, fmt.Errorf("unknown layout %s", x)
		}
		return &schema.Argument{AsLayout: &v}, nil
	case node.Device:
		typ, idx := x.Split()
		if idx < -1 {
			return nil, fmt.Errorf("malformed device %q", string(x))
		}
		d := &schema.Device{Type: typ}
		if idx >= 0 {
			d.Index = ptr(int64(idx))
		}
		return &schema.Argument{AsDevice: d}, nil
	case node.List:
		return s.list([]node.Arg(x), t)
	case node.Tuple:
		return s.list([]node.Arg(x), t)
	}
	return nil, fmt.Errorf("no .pt2 form for the argument %v (%T)", a, a)
}

// list is serialize_input's list case, with its tests in its order.
func (s *serializer) list(xs []node.Arg, t *ops.Type) (*schema.Argument, error) {
	if len(xs) == 0 {
		if t == nil {
			return &schema.Argument{AsTensors: []schema.TensorArgument{}}, nil
		}
		if t.Kind == ops.OptionalOf {
			t = t.Elem
		}
		if t.Kind != ops.ListOf {
			return nil, fmt.Errorf("an empty list for the type %v", t)
		}
		switch namedType(t.Elem) {
		case "bool":
			return &schema.Argument{AsBools: []bool{}}, nil
		case "int", "SymInt":
			return &schema.Argument{AsInts: []int64{}}, nil
		case "float":
			return &schema.Argument{AsFloats: []float64{}}, nil
		case "str":
			return &schema.Argument{AsStrings: []string{}}, nil
		case "Tensor":
			return &schema.Argument{AsTensors: []schema.TensorArgument{}}, nil
		}
		return nil, fmt.Errorf("an empty list of %v", t.Elem)
	}
	all := func(pred func(node.Arg) bool) bool {
		for _, x := range xs {
			if !pred(x) {
				return false
			}
		}
		return true
	}
	is := func(a node.Arg, kinds ...string) bool {
		for _, k := range kinds {
			switch x := a.(type) {
			case node.Bool:
				if k == "bool" {
					return true
				}
			case node.Int:
				if k == "int" {
					return true
				}
			case node.Float:
				if k == "float" {
					return true
				}
			case node.Str:
				if k == "str" {
					return true
				}
			case node.NoneType:
				if k == "none" {
					return true
				}
			case *node.Node:
				if k == "sym" && s.isSymNode(x) || k == "tensor" && !s.isSymNode(x) {
					return true
				}
			}
		}
		return false
	}
	out := &schema.Argument{}
	switch {
	case all(func(a node.Arg) bool { return is(a, "bool") }):
		out.AsBools = []bool{}
		for _, x := range xs {
			out.AsBools = append(out.AsBools, bool(x.(node.Bool)))
		}
	case all(func(a node.Arg) bool { return is(a, "int") }):
		out.AsInts = []int64{}
		for _, x := range xs {
			out.AsInts = append(out.AsInts, int64(x.(node.Int)))
		}
	case all(func(a node.Arg) bool { return is(a, "float") }):
		out.AsFloats = []float64{}
		for _, x := range xs {
			out.AsFloats = append(out.AsFloats, float64(x.(node.Float)))
		}
	case all(func(a node.Arg) bool { return is(a, "str") }):
		out.AsStrings = []string{}
		for _, x := range xs {
			out.AsStrings = append(out.AsStrings, string(x.(node.Str)))
		}
	case all(func(a node.Arg) bool { return is(a, "int", "sym") }):
		out.AsSymInts = []schema.SymIntArgument{}
		for _, x := range xs {
			if k, ok := x.(node.Int); ok {
				out.AsSymInts = append(out.AsSymInts, schema.SymIntArgument{AsInt: ptr(int64(k))})
			} else {
				out.AsSymInts = append(out.AsSymInts, schema.SymIntArgument{AsName: ptr(s.fileName(x.(*node.Node).Name()))})
			}
		}
	case all(func(a node.Arg) bool { return is(a, "tensor") }):
		out.AsTensors = []schema.TensorArgument{}
		for _, x := range xs {
			out.AsTensors = append(out.AsTensors, schema.TensorArgument{Name: s.tensorName(x.(*node.Node))})
		}
	case all(func(a node.Arg) bool { return is(a, "tensor", "none") }):
		out.AsOptionalTensors = []schema.OptionalTensorArgument{}
		for _, x := range xs {
			if n, ok := x.(*node.Node); ok {
				out.AsOptionalTensors = append(out.AsOptionalTensors, schema.OptionalTensorArgument{AsTensor: &schema.TensorArgument{Name: s.tensorName(n)}})
			} else {
				out.AsOptionalTensors = append(out.AsOptionalTensors, schema.OptionalTensorArgument{AsNone: ptr(true)})
			}
		}
	case all(func(a node.Arg) bool { return is(a, "tensor", "sym") }):
		// Tensors and symbolic ints together: a higher-order op's
		// operands with a lifted size (cond(pred, t, f, [sym_size, x])),
		// which PyTorch 2.14 writes as as_tensors naming both.
		out.AsTensors = []schema.TensorArgument{}
		for _, x := range xs {
			n := x.(*node.Node)
			name := s.fileName(n.Name())
			if !s.isSymNode(n) {
				name = s.tensorName(n)
			}
			out.AsTensors = append(out.AsTensors, schema.TensorArgument{Name: name})
		}
	default:
		return nil, fmt.Errorf("a list mixing kinds of values: %v", xs)
	}
	return out, nil
}
