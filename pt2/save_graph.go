package pt2

import (
	"fmt"
	"strings"

	"github.com/gofx/gofx/export"
	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/shapeprop"
	"github.com/gofx/gofx/sym"
	"github.com/gofx/gofx/tensor"
)

// schemaVersion is the serialized schema's version a layout is written
// with: PyTorch 2.6's for the ≤ 2.7 zip, 2.14's for the PT2 archive.
type schemaVersion struct{ major, minor int }

// Enum values of schema.py.
var scalarTypes = map[tensor.DType]int{
	tensor.Uint8: 1, tensor.Int8: 2, tensor.Int16: 3, tensor.Int32: 4, tensor.Int64: 5,
	tensor.Float16: 6, tensor.Float32: 7, tensor.Float64: 8, tensor.Bool: 12, tensor.BFloat16: 13,
}

var argScalarTypes = map[node.DType]int{
	node.Uint8: 1, node.Int8: 2, node.Int16: 3, node.Int32: 4, node.Int64: 5,
	node.Float16: 6, node.Float32: 7, node.Float64: 8, node.BoolDType: 12, node.BFloat16: 13,
	node.Complex64: 10, node.Complex128: 11,
}

var layouts = map[node.Layout]int{
	"sparse_coo": 1, "sparse_csr": 2, "sparse_csc": 3, "sparse_bsr": 4, "sparse_bsc": 5,
	"_mkldnn": 6, "strided": 7,
}

var memoryFormats = map[node.MemoryFormat]int{
	"contiguous_format": 1, "channels_last": 2, "channels_last_3d": 3, "preserve_format": 4,
}

// symIntOps are Python's operators that programs apply to symbolic ints,
// with the parameter names inspect.signature gives (torch writes them as
// the argument names): operator.mul(a, b) is "_operator.mul".
var symIntOps = map[string][]string{
	"operator.mul": {"a", "b"}, "operator.add": {"a", "b"}, "operator.sub": {"a", "b"},
	"operator.floordiv": {"a", "b"}, "operator.mod": {"a", "b"}, "operator.pow": {"a", "b"},
	"operator.truediv": {"a", "b"},
	"operator.eq":      {"a", "b"}, "operator.ne": {"a", "b"}, "operator.le": {"a", "b"},
	"operator.ge": {"a", "b"}, "operator.lt": {"a", "b"}, "operator.gt": {"a", "b"},
	"operator.neg": {"a"}, "operator.pos": {"a"},
}

// serializer turns one graph into schema.py's Graph, as torch's
// GraphModuleSerializer does.
type serializer struct {
	ep  *export.ExportedProgram
	env *sym.Env
	v   schemaVersion

	tensorValues *obj
	symInts      *obj
	symBools     *obj
	isSym        map[*node.Node]bool // nodes whose value is a symbolic int
	isSymBool    map[*node.Node]bool
	dup          map[*node.Node]string // duplicate getitem nodes -> the name kept
	seen         map[string]bool       // names in tensorValues
}

// nodeError names the node a failure is about.
func nodeError(n *node.Node, format string, args ...any) error {
	return fmt.Errorf("pt2: save: node %s (%s): %s", n.Name(), n.Target(), fmt.Sprintf(format, args...))
}

// legacy reports whether the ≤ 2.7 form is written (fields 2.6 lacks
// left out, None fields dropped as 2.6's serializer drops them).
func (s *serializer) legacy() bool { return s.v.minor < 3 }

func (s *serializer) graph(g *graph.Graph) (*obj, error) {
	s.tensorValues, s.symInts, s.symBools = newObj(), newObj(), newObj()
	s.isSym, s.isSymBool = map[*node.Node]bool{}, map[*node.Node]bool{}
	s.dup, s.seen = map[*node.Node]string{}, map[string]bool{}
	var inputs, nodes, outputs []any
	single := false
	for n := range g.Nodes() {
		switch n.Op() {
		case node.Placeholder:
			f, ok := fakeOf(n)
			if !ok {
				return nil, nodeError(n, "a placeholder that is not a tensor (val %v): Save writes tensor inputs only", valOf(n))
			}
			tm, err := s.tensorMeta(f, false)
			if err != nil {
				return nil, nodeError(n, "%v", err)
			}
			s.tensorValues.set(n.Name(), tm)
			s.seen[n.Name()] = true
			inputs = append(inputs, one("as_tensor", one("name", n.Name())))
		case node.CallFunction:
			if isGetitem(n) {
				if err := s.checkGetitem(n); err != nil {
					return nil, err
				}
				continue
			}
			sn, err := s.callFunction(n)
			if err != nil {
				return nil, err
			}
			nodes = append(nodes, sn)
		case node.Output:
			res := n.Arg(0)
			if t, ok := res.(node.Tuple); ok {
				for _, a := range t {
					o, err := s.input(a, nil)
					if err != nil {
						return nil, nodeError(n, "%v", err)
					}
					outputs = append(outputs, o)
				}
			} else {
				single = true
				o, err := s.input(res, nil)
				if err != nil {
					return nil, nodeError(n, "%v", err)
				}
				outputs = append(outputs, o)
			}
		default:
			return nil, nodeError(n, "opcode %s: an exported program has only placeholders, call_function nodes and its output", n.Op())
		}
	}
	out := newObj().
		set("inputs", orEmpty(inputs)).
		set("outputs", orEmpty(outputs)).
		set("nodes", orEmpty(nodes)).
		set("tensor_values", s.tensorValues).
		set("sym_int_values", s.symInts).
		set("sym_bool_values", s.symBools).
		set("is_single_tensor_return", single).
		set("custom_obj_values", newObj()).
		set("sym_float_values", newObj())
	return out, nil
}

func orEmpty(a []any) []any {
	if a == nil {
		return []any{}
	}
	return a
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

// checkGetitem accepts a getitem of an operator's output (which the
// producer's outputs name) and records duplicates (two getitems of one
// index) so that their users refer to the first.
func (s *serializer) checkGetitem(n *node.Node) error {
	src, ok := n.Arg(0).(*node.Node)
	idx, ok2 := n.Arg(1).(node.Int)
	if !ok || !ok2 || src.Op() != node.CallFunction {
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
		if isGetitem(u) {
			if k, ok := u.Arg(1).(node.Int); ok && int(k) == i && u.Arg(0) == node.Arg(n) {
				return u
			}
		}
	}
	return nil
}

// outputName is the name of n's i-th output: its getitem's, or
// NAME_unused_i as torch names an output nobody reads.
func outputName(n *node.Node, i int) string {
	if u := getitemUser(n, i); u != nil {
		return u.Name()
	}
	return fmt.Sprintf("%s_unused_%d", n.Name(), i)
}

func (s *serializer) metadata(n *node.Node) *obj {
	m := newObj()
	if st, ok := node.StackTrace.Get(&n.Meta); ok && st != "" {
		m.set("stack_trace", st)
	}
	if ms, ok := node.ModuleStack.Get(&n.Meta); ok && len(ms) > 0 {
		parts := make([]string, len(ms))
		for i, f := range ms {
			key := "L__self__"
			if f.Path != "" {
				key = "L__self___" + strings.NewReplacer(".", "_").Replace(f.Path)
			}
			parts[i] = key + "," + f.Path + "," + f.Type
		}
		m.set("nn_module_stack", strings.Join(parts, ";"))
	}
	return m
}

func (s *serializer) callFunction(n *node.Node) (*obj, error) {
	fn := n.Function()
	if fn == nil {
		return nil, nodeError(n, "no function target")
	}
	var target string
	var inputs, outputs []any
	switch f := fn.(type) {
	case *ops.Operator:
		target = "torch.ops." + f.String()
		var err error
		if inputs, err = s.opInputs(n, f); err != nil {
			return nil, err
		}
		if outputs, err = s.opOutputs(n, f); err != nil {
			return nil, err
		}
	default:
		names, ok := symIntOps[fn.String()]
		if !ok {
			return nil, nodeError(n, "the function %s has no .pt2 form (Save writes operators and Python's operators on symbolic ints)", fn)
		}
		if len(n.Kwargs()) > 0 || n.NumArgs() != len(names) {
			return nil, nodeError(n, "%s takes %d positional arguments", fn, len(names))
		}
		target = "_" + fn.String()
		for i, a := range n.Args() {
			arg, err := s.input(a, nil)
			if err != nil {
				return nil, nodeError(n, "argument %s: %v", names[i], err)
			}
			inputs = append(inputs, s.named(names[i], arg, false))
		}
		o, err := s.output(n, n.Name(), valOf(n))
		if err != nil {
			return nil, err
		}
		outputs = []any{o}
	}
	sn := newObj().
		set("target", target).
		set("inputs", orEmpty(inputs)).
		set("outputs", orEmpty(outputs)).
		set("metadata", s.metadata(n))
	if !s.legacy() {
		sn.set("is_hop_single_tensor_return", nil).set("name", n.Name())
	}
	return sn, nil
}

// named is a NamedArgument; the PT2 archive's schema adds its kind
// (1 positional, 2 keyword-only).
func (s *serializer) named(name string, arg any, kwOnly bool) *obj {
	o := newObj().set("name", name).set("arg", arg)
	if !s.legacy() {
		kind := 1
		if kwOnly {
			kind = 2
		}
		o.set("kind", kind)
	}
	return o
}

// opInputs names each argument given by its schema name, in schema order,
// leaving out those not given (their defaults), as torch's serialize_inputs.
func (s *serializer) opInputs(n *node.Node, op *ops.Operator) ([]any, error) {
	sc := op.Schema()
	args := n.Args()
	kwargs := n.Kwargs()
	used := 0
	var out []any
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

func isTensorType(t *ops.Type) bool {
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	return t.Kind == ops.Named && t.Name == "Tensor"
}

func isTensorListType(t *ops.Type) bool {
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	return t.Kind == ops.ListOf && isTensorType(t.Elem)
}

// opOutputs names an operator's outputs as torch's serialize_outputs:
// one output under the node's name; several under their getitems' names.
func (s *serializer) opOutputs(n *node.Node, op *ops.Operator) ([]any, error) {
	rets := op.Schema().Returns
	val := valOf(n)
	switch {
	case len(rets) == 0:
		return []any{}, nil
	case len(rets) == 1 && isTensorListType(rets[0].Type):
		tup, ok := val.(node.ValueTuple)
		if !ok {
			return nil, nodeError(n, "a Tensor[] result whose val is %T, not a tuple", val)
		}
		var ts []any
		for i, v := range tup {
			name := outputName(n, i)
			ta, err := s.tensorOutput(n, name, v)
			if err != nil {
				return nil, err
			}
			ts = append(ts, ta)
		}
		return []any{one("as_tensors", orEmpty(ts))}, nil
	case len(rets) == 1:
		o, err := s.output(n, n.Name(), val)
		if err != nil {
			return nil, err
		}
		return []any{o}, nil
	}
	tup, ok := val.(node.ValueTuple)
	if !ok || len(tup) != len(rets) {
		return nil, nodeError(n, "%d results whose val is %v", len(rets), val)
	}
	var out []any
	for i, v := range tup {
		if v == nil {
			out = append(out, one("as_none", true))
			continue
		}
		o, err := s.output(n, outputName(n, i), v)
		if err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, nil
}

func (s *serializer) tensorOutput(n *node.Node, name string, v node.Value) (*obj, error) {
	f, ok := v.(*shapeprop.Fake)
	if !ok || f == nil {
		return nil, nodeError(n, "output %s: expected a tensor val, got %v", name, v)
	}
	if s.seen[name] {
		return nil, nodeError(n, "output %s: the name is used twice", name)
	}
	tm, err := s.tensorMeta(f, false)
	if err != nil {
		return nil, nodeError(n, "output %s: %v", name, err)
	}
	s.seen[name] = true
	s.tensorValues.set(name, tm)
	return one("name", name), nil
}

// output is serialize_output: a tensor, a symbolic int or bool, or None.
func (s *serializer) output(n *node.Node, name string, v node.Value) (*obj, error) {
	switch x := v.(type) {
	case nil:
		return one("as_none", true), nil
	case *shapeprop.Fake:
		ta, err := s.tensorOutput(n, name, x)
		if err != nil {
			return nil, err
		}
		return one("as_tensor", ta), nil
	case sym.Expr:
		si, err := s.symInt(x)
		if err != nil {
			return nil, nodeError(n, "%v", err)
		}
		s.symInts.set(name, si)
		s.markSym(n, name)
		return one("as_sym_int", one("as_name", name)), nil
	}
	return nil, nodeError(n, "output %s: no .pt2 form for the value %v (%T)", name, v, v)
}

// markSym records that the node called name computes a symbolic int.
func (s *serializer) markSym(n *node.Node, name string) {
	if n.Name() == name {
		s.isSym[n] = true
		return
	}
	for _, u := range n.Users() {
		if u.Name() == name {
			s.isSym[u] = true
		}
	}
}

// symInt is a SymInt: as_int for a constant, else as_expr with its
// sympy srepr and the hint.
func (s *serializer) symInt(e sym.Expr) (*obj, error) {
	if c, ok := e.Const(); ok {
		return one("as_int", c), nil
	}
	se := newObj().set("expr_str", e.Srepr())
	if h, ok := s.env.Hint(e); ok {
		se.set("hint", one("as_int", h))
	} else if !s.legacy() {
		se.set("hint", nil)
	}
	return one("as_expr", se), nil
}

// tensorMeta is a TensorMeta: contiguous strides (a fake records no
// others), offset 0, CPU, strided.
func (s *serializer) tensorMeta(f *shapeprop.Fake, requiresGrad bool) (*obj, error) {
	dt, ok := scalarTypes[f.DType]
	if !ok {
		return nil, fmt.Errorf("dtype %s has no .pt2 ScalarType", f.DType)
	}
	sizes := make([]any, len(f.Shape))
	strides := make([]any, len(f.Shape))
	stride := sym.Const(1)
	for i := len(f.Shape) - 1; i >= 0; i-- {
		si, err := s.symInt(f.Shape[i])
		if err != nil {
			return nil, err
		}
		sizes[i] = si
		st, err := s.symInt(stride)
		if err != nil {
			return nil, err
		}
		strides[i] = st
		stride = stride.Mul(f.Shape[i])
	}
	dev := one("type", "cpu")
	if !s.legacy() {
		dev.set("index", nil)
	}
	return newObj().
		set("dtype", dt).
		set("sizes", sizes).
		set("requires_grad", requiresGrad).
		set("device", dev).
		set("strides", strides).
		set("storage_offset", one("as_int", 0)).
		set("layout", 7), nil
}

// input is serialize_input: the Argument for a node argument; t is the
// schema type when there is one (it decides what an empty list is).
func (s *serializer) input(a node.Arg, t *ops.Type) (*obj, error) {
	switch x := a.(type) {
	case *node.Node:
		if s.isSym[x] {
			return one("as_sym_int", one("as_name", x.Name())), nil
		}
		if s.isSymBool[x] {
			return one("as_sym_bool", one("as_name", x.Name())), nil
		}
		if _, ok := valOf(x).(sym.Expr); ok {
			return one("as_sym_int", one("as_name", x.Name())), nil
		}
		return one("as_tensor", one("name", s.tensorName(x))), nil
	case node.Bool:
		return one("as_bool", bool(x)), nil
	case node.Str:
		// gofx spells memory formats, layouts and dtypes as strings where
		// the schema type says which enum they are.
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
		return one("as_string", string(x)), nil
	case node.Int:
		return one("as_int", int64(x)), nil
	case node.Float:
		return one("as_float", pyFloat(x)), nil
	case node.NoneType:
		return one("as_none", true), nil
	case node.DType:
		v, ok := argScalarTypes[x]
		if !ok {
			return nil, fmt.Errorf("dtype %s has no .pt2 ScalarType", x)
		}
		return one("as_scalar_type", v), nil
	case node.MemoryFormat:
		v, ok := memoryFormats[x]
		if !ok {
			return nil, fmt.Errorf("unknown memory format %s", x)
		}
		return one("as_memory_format", v), nil
	case node.Layout:
		v, ok := layouts[x]
		if !ok {
			return nil, fmt.Errorf("unknown layout %s", x)
		}
		return one("as_layout", v), nil
	case node.Device:
		typ, idx := x.Split()
		d := one("type", typ)
		if idx >= 0 {
			d.set("index", idx)
		} else if !s.legacy() {
			d.set("index", nil)
		}
		return one("as_device", d), nil
	case node.List:
		return s.list([]node.Arg(x), t)
	case node.Tuple:
		return s.list([]node.Arg(x), t)
	}
	return nil, fmt.Errorf("no .pt2 form for the argument %v (%T)", a, a)
}

// tensorName is the name a tensor node is known by in the file: a
// duplicate getitem's first twin.
func (s *serializer) tensorName(n *node.Node) string {
	if d, ok := s.dup[n]; ok {
		return d
	}
	return n.Name()
}

// list is serialize_input's list case, in its order of tests.
func (s *serializer) list(xs []node.Arg, t *ops.Type) (*obj, error) {
	if len(xs) == 0 {
		if t == nil {
			return one("as_tensors", []any{}), nil
		}
		if t.Kind == ops.OptionalOf {
			t = t.Elem
		}
		if t.Kind != ops.ListOf {
			return nil, fmt.Errorf("an empty list for the type %v", t)
		}
		e := t.Elem
		if e.Kind == ops.OptionalOf {
			e = e.Elem
		}
		switch e.Name {
		case "bool":
			return one("as_bools", []any{}), nil
		case "int", "SymInt":
			return one("as_ints", []any{}), nil
		case "float":
			return one("as_floats", []any{}), nil
		case "str":
			return one("as_strings", []any{}), nil
		case "Tensor":
			return one("as_tensors", []any{}), nil
		}
		return nil, fmt.Errorf("an empty list of %v", e)
	}
	all := func(pred func(node.Arg) bool) bool {
		for _, x := range xs {
			if !pred(x) {
				return false
			}
		}
		return true
	}
	isSymNode := func(a node.Arg) bool {
		n, ok := a.(*node.Node)
		if !ok {
			return false
		}
		_, isExpr := valOf(n).(sym.Expr)
		return s.isSym[n] || isExpr
	}
	out := make([]any, len(xs))
	switch {
	case all(func(a node.Arg) bool { _, ok := a.(node.Bool); return ok }):
		for i, x := range xs {
			out[i] = bool(x.(node.Bool))
		}
		return one("as_bools", out), nil
	case all(func(a node.Arg) bool { _, ok := a.(node.Int); return ok }):
		for i, x := range xs {
			out[i] = int64(x.(node.Int))
		}
		return one("as_ints", out), nil
	case all(func(a node.Arg) bool { _, ok := a.(node.Float); return ok }):
		for i, x := range xs {
			out[i] = pyFloat(x.(node.Float))
		}
		return one("as_floats", out), nil
	case all(func(a node.Arg) bool { _, ok := a.(node.Str); return ok }):
		for i, x := range xs {
			out[i] = string(x.(node.Str))
		}
		return one("as_strings", out), nil
	case all(func(a node.Arg) bool { _, ok := a.(node.Int); return ok || isSymNode(a) }):
		for i, x := range xs {
			if k, ok := x.(node.Int); ok {
				out[i] = one("as_int", int64(k))
			} else {
				out[i] = one("as_name", x.(*node.Node).Name())
			}
		}
		return one("as_sym_ints", out), nil
	case all(func(a node.Arg) bool { _, ok := a.(*node.Node); return ok }):
		for i, x := range xs {
			out[i] = one("name", s.tensorName(x.(*node.Node)))
		}
		return one("as_tensors", out), nil
	case all(func(a node.Arg) bool {
		_, ok := a.(*node.Node)
		_, none := a.(node.NoneType)
		return ok || none
	}):
		for i, x := range xs {
			if n, ok := x.(*node.Node); ok {
				out[i] = one("as_tensor", one("name", s.tensorName(n)))
			} else {
				out[i] = one("as_none", true)
			}
		}
		return one("as_optional_tensors", out), nil
	}
	return nil, fmt.Errorf("a list mixing kinds of values: %v", xs)
}
