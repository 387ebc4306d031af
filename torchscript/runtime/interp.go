package runtime

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/types"
)

// Function is a compiled TorchScript function or method: its qualified
// name and its graph, or a Compile function that gives the graph when it
// is first run (the frontend compiles bodies lazily). A method's graph
// takes the object (self) first.
type Function struct {
	Name    string
	Graph   *ir.Graph
	Compile func() (*ir.Graph, error)

	once sync.Once
	err  error
	done atomic.Bool // Compiled has finished
}

// Compiled returns the function's graph, compiling it on first use.
func (f *Function) Compiled() (*ir.Graph, error) {
	f.once.Do(func() {
		if f.Graph == nil && f.Compile != nil {
			f.Graph, f.err = f.Compile()
		}
		if f.Graph == nil && f.err == nil {
			f.err = fmt.Errorf("%s has no graph", f.Name)
		}
		f.done.Store(true)
	})
	return f.Graph, f.err
}

// Interpreter runs graphs. Functions holds the compiled functions and
// methods by qualified name ("__torch__.foo", "__torch__.M.forward"):
// prim::CallFunction finds a function by the name on its prim::Constant
// (qualified or not), prim::CallMethod a method by the object's class name
// and the method's name. An Interpreter
// may run several graphs at once in different goroutines as long as the
// objects they touch are not shared.
type Interpreter struct {
	// Functions maps a function's or method's qualified name to its
	// compiled form.
	Functions map[string]*Function
	// Resolve, when set, finds the functions and methods Functions lacks
	// (by the name on a prim::Constant of type Function, or by the class's
	// qualified name + "." + the method's name); what it returns is added.
	Resolve func(name string) (*Function, error)
	// MaxDepth bounds the nesting of calls (recursion); 0 means 200.
	MaxDepth int

	mu    sync.Mutex
	plans map[*ir.Graph]*plan
	// gradDisabled is the grad mode torch.set_grad_enabled sets (gofx
	// has no autograd: only torch.is_grad_enabled reads it).
	gradDisabled atomic.Bool
}

// NewInterpreter returns an interpreter with the given function table
// (may be nil).
func NewInterpreter(functions map[string]*Function) *Interpreter {
	if functions == nil {
		functions = map[string]*Function{}
	}
	return &Interpreter{Functions: functions}
}

// Error is a failure of a node: its kind, where it comes from in the
// archive's code, and what went wrong. Err is the cause; an exception the
// program raised (prim::RaiseException) is an *Exception.
type Error struct {
	Kind   string
	Source *ir.SourceRange
	// Func names the function or method the node belongs to.
	Func string
	Err  error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Kind)
	if e.Source != nil {
		fmt.Fprintf(&b, " at %s", e.Source)
	}
	if e.Func != "" {
		fmt.Fprintf(&b, " (in %s)", e.Func)
	}
	b.WriteString(": ")
	b.WriteString(e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Exception is an exception a TorchScript program raised
// (prim::RaiseException): its message and, when given, its class.
type Exception struct {
	Msg   string
	Class string
}

func (e *Exception) Error() string {
	if e.Class != "" {
		return e.Class + ": " + e.Msg
	}
	return e.Msg
}

// plan is what the interpreter precomputes for a graph: the number of
// value slots (a value's slot is its Unique number) and, per block, a step
// per node: the Go implementation of its kind, and the slots of the values
// whose last use it is.
type plan struct {
	slots int
	steps map[*ir.Block][]step
}

type step struct {
	fn   builtin
	free []int
}

func (in *Interpreter) planOf(g *ir.Graph) *plan {
	in.mu.Lock()
	defer in.mu.Unlock()
	if p, ok := in.plans[g]; ok {
		return p
	}
	if in.plans == nil {
		in.plans = map[*ir.Graph]*plan{}
	}
	p := &plan{steps: map[*ir.Block][]step{}}
	grow := func(v *ir.Value) {
		if v.Unique() >= p.slots {
			p.slots = v.Unique() + 1
		}
	}
	var number func(b *ir.Block)
	number = func(b *ir.Block) {
		steps := make([]step, len(b.Nodes))
		for _, v := range b.Params {
			grow(v)
		}
		for _, v := range b.Outputs {
			grow(v)
		}
		for i, n := range b.Nodes {
			steps[i].fn = builtins[n.Kind]
			for _, v := range n.Outputs {
				grow(v)
			}
			for _, v := range n.Inputs {
				grow(v)
			}
			for _, sub := range n.Blocks {
				number(sub)
			}
		}
		p.steps[b] = steps
	}
	number(g.Block())
	// A value dies after the node of its defining block that (itself or
	// inside its blocks) uses it last; values a block yields live on.
	var lastUse func(b *ir.Block)
	lastUse = func(b *ir.Block) {
		pos := map[*ir.Node]int{}
		for i, n := range b.Nodes {
			pos[n] = i
		}
		steps := p.steps[b]
		consider := func(v *ir.Value) {
			var last *ir.Node
			for _, u := range v.Uses() {
				var at *ir.Node
				if u.User != nil {
					at = ancestorIn(u.User, b)
				} else if u.Block != b {
					at = ancestorOfBlock(u.Block, b)
				} else {
					return // yielded by b
				}
				if at == nil {
					return
				}
				if last == nil || pos[at] > pos[last] {
					last = at
				}
			}
			if last != nil {
				steps[pos[last]].free = append(steps[pos[last]].free, v.Unique())
			}
		}
		for _, v := range b.Params {
			consider(v)
		}
		for _, n := range b.Nodes {
			for _, v := range n.Outputs {
				consider(v)
			}
			for _, sub := range n.Blocks {
				lastUse(sub)
			}
		}
	}
	lastUse(g.Block())
	in.plans[g] = p
	return p
}

// ancestorIn returns n or the node enclosing n that sits directly in b.
func ancestorIn(n *ir.Node, b *ir.Block) *ir.Node {
	for n != nil {
		if n.Block() == b {
			return n
		}
		owner := n.Block()
		if owner == nil {
			return nil
		}
		n = owner.Owner()
	}
	return nil
}

func ancestorOfBlock(blk, b *ir.Block) *ir.Node {
	if blk == nil || blk.Owner() == nil {
		return nil
	}
	return ancestorIn(blk.Owner(), b)
}

// frame is one activation: the slots of a graph's values.
type frame struct {
	in    *Interpreter
	p     *plan
	slots []any
	fn    string
	depth int
	// scratch holds an operator node's inputs while it runs.
	scratch []any
	// entered holds the objects of the with statements being run
	// (prim::Enter pushes, prim::Exit pops).
	entered []*Object
}

// Run runs f with args (self first for a method) and returns its outputs.
func (in *Interpreter) Run(f *Function, args ...any) ([]any, error) {
	return in.run(f, args, 0)
}

func (in *Interpreter) run(f *Function, args []any, depth int) (out []any, err error) {
	max := in.MaxDepth
	if max == 0 {
		max = 200
	}
	if depth > max {
		return nil, fmt.Errorf("%s: maximum call depth %d exceeded", f.Name, max)
	}
	g, err := f.Compiled()
	if err != nil {
		return nil, err
	}
	if len(args) != len(g.Inputs()) {
		return nil, fmt.Errorf("%s expected %d arguments (%s), got %d", f.Name, len(g.Inputs()), paramList(g), len(args))
	}
	p := in.planOf(g)
	fr := &frame{in: in, p: p, slots: make([]any, p.slots), fn: f.Name, depth: depth}
	for i, v := range g.Inputs() {
		if err := checkArg(v, args[i]); err != nil {
			return nil, fmt.Errorf("%s: argument %d (%s): %w", f.Name, i, v.Name(), err)
		}
		fr.slots[v.Unique()] = args[i]
	}
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%s: internal error: %v", f.Name, r)
		}
	}()
	if err := fr.block(g.Block()); err != nil {
		return nil, err
	}
	outs := g.Outputs()
	out = make([]any, len(outs))
	for i, v := range outs {
		out[i] = fr.slots[v.Unique()]
	}
	return out, nil
}

func paramList(g *ir.Graph) string {
	var names []string
	for _, v := range g.Inputs() {
		names = append(names, v.Name()+": "+v.Type.String())
	}
	return strings.Join(names, ", ")
}

// checkArg checks an argument against its parameter's type, for the
// types a caller can get wrong (not a tensor, not an int, ...).
func checkArg(v *ir.Value, a any) error {
	if v.Type == nil {
		return nil
	}
	if !Isinstance(a, v.Type) {
		return fmt.Errorf("expected %s, got %s", v.Type.Annotation(), TypeName(a))
	}
	return nil
}

func (fr *frame) get(v *ir.Value) any { return fr.slots[v.Unique()] }

func (fr *frame) set(v *ir.Value, x any) { fr.slots[v.Unique()] = x }

func (fr *frame) block(b *ir.Block) error {
	steps := fr.p.steps[b]
	if len(steps) != len(b.Nodes) {
		return fmt.Errorf("%s: the graph changed after it first ran", fr.fn)
	}
	for k, n := range b.Nodes {
		if err := fr.node(n, &steps[k]); err != nil {
			var ne *Error
			if errors.As(err, &ne) {
				return err
			}
			return &Error{Kind: n.Kind, Source: n.Source, Func: fr.fn, Err: err}
		}
		for _, i := range steps[k].free {
			fr.slots[i] = nil
		}
	}
	return nil
}

func (fr *frame) inputs(n *ir.Node) []any {
	in := make([]any, len(n.Inputs))
	for i, v := range n.Inputs {
		in[i] = fr.get(v)
	}
	return in
}

func (fr *frame) setOutputs(n *ir.Node, out []any) error {
	if len(out) != len(n.Outputs) {
		return fmt.Errorf("produced %d values for %d outputs", len(out), len(n.Outputs))
	}
	for i, v := range n.Outputs {
		fr.set(v, out[i])
	}
	return nil
}

func (fr *frame) setOutput(n *ir.Node, x any) error {
	if len(n.Outputs) != 1 {
		if len(n.Outputs) == 0 {
			return nil
		}
		return fmt.Errorf("produced one value for %d outputs", len(n.Outputs))
	}
	fr.set(n.Outputs[0], x)
	return nil
}

func (fr *frame) node(n *ir.Node, st *step) error {
	switch n.Kind {
	case "prim::Constant":
		v, err := fr.constant(n)
		if err != nil {
			return err
		}
		return fr.setOutput(n, v)
	case "prim::If":
		return fr.ifNode(n)
	case "prim::Loop":
		return fr.loop(n)
	case "prim::GetAttr":
		return fr.getAttr(n)
	case "prim::SetAttr":
		return fr.setAttr(n)
	case "prim::CallMethod":
		return fr.callMethod(n)
	case "prim::CallFunction":
		return fr.callFunction(n)
	case "prim::ListConstruct":
		l := &List{Items: fr.inputs(n)}
		if len(n.Outputs) == 1 {
			if lt, ok := n.Outputs[0].Type.(*types.List); ok {
				l.Elem = lt.Elem
			}
		}
		return fr.setOutput(n, l)
	case "prim::ListUnpack":
		return fr.unpack(n, "list")
	case "prim::TupleConstruct":
		t := &Tuple{Items: fr.inputs(n)}
		if len(n.Outputs) == 1 {
			if tt, ok := n.Outputs[0].Type.(*types.Tuple); ok && tt.Name != "" {
				t.Type, t.Names = tt.Name, tt.Names
			}
		}
		return fr.setOutput(n, t)
	case "prim::TupleUnpack":
		return fr.unpack(n, "tuple")
	case "prim::TupleIndex":
		in := fr.inputs(n)
		v, _, err := getItem(in)
		if err != nil {
			return err
		}
		return fr.setOutput(n, v)
	case "prim::TupleSlice":
		return fr.tupleSlice(n)
	case "prim::DictConstruct":
		return fr.dictConstruct(n)
	case "prim::RaiseException":
		in := fr.inputs(n)
		ex := &Exception{}
		if len(in) > 0 {
			ex.Msg = Str(in[0])
		}
		if len(in) > 1 && in[1] != nil {
			ex.Class = Str(in[1])
		}
		return ex
	case "prim::Uninitialized":
		return fr.setOutput(n, nil)
	case "prim::CreateObject":
		if len(n.Outputs) != 1 {
			return fmt.Errorf("expected one output")
		}
		ct, ok := n.Outputs[0].Type.(*types.Class)
		if !ok {
			return fmt.Errorf("expected a class type, got %s", n.Outputs[0].Type)
		}
		return fr.setOutput(n, NewObject(ct))
	case "prim::unchecked_cast", "prim::unchecked_unwrap_optional":
		return fr.setOutput(n, fr.get(n.Inputs[0]))
	case "aten::__isinstance", "prim::isinstance":
		return fr.isinstance(n)
	case "prim::Print":
		return nil
	case "prim::fork":
		return fr.fork(n) // fork.go
	case "aten::wait":
		return fr.wait(n)
	case "prim::Enter":
		return fr.enter(n)
	case "prim::Exit":
		return fr.exit(n)
	case "aten::is_grad_enabled":
		return fr.setOutput(n, !fr.in.gradDisabled.Load())
	case "aten::set_grad_enabled":
		in := fr.inputs(n)
		b, ok := in[0].(bool)
		if len(in) != 1 || !ok {
			return fmt.Errorf("expected one bool argument, got %s", TypeName(in[0]))
		}
		fr.in.gradDisabled.Store(!b)
		return nil
	case "prim::ignored_attribute":
		return nil
	}
	return fr.op(n, st)
}

// op runs an operator node: the runtime's Go implementation of the
// non-tensor JIT operators first (when the node resolved to an operator
// without a kernel, or to none), the operator's kernel otherwise.
func (fr *frame) op(n *ir.Node, st *step) error {
	// The builtins and callOp do not keep their argument slice, so one
	// scratch slice per frame serves every operator node.
	in := fr.scratch[:0]
	for _, v := range n.Inputs {
		in = append(in, fr.get(v))
	}
	fr.scratch = in
	defer clear(in)
	op := n.Op
	if op == nil || !op.HasKernel() {
		if b := st.fn; b != nil {
			v, handled, err := b(in)
			if err != nil {
				return err
			}
			if handled {
				return fr.setOutput(n, v)
			}
		}
	}
	if op == nil || !op.HasKernel() {
		var err error
		op, err = resolveOp(n.Kind, in)
		if err != nil {
			return err
		}
	}
	out, err := callOp(op, in)
	if err != nil {
		return err
	}
	if len(n.Outputs) == 1 && len(out) > 1 {
		// A tuple-returning operator whose result the graph keeps whole.
		return fr.setOutput(n, &Tuple{Items: out})
	}
	return fr.setOutputs(n, out)
}

// constant evaluates a prim::Constant by its attribute and output type.
func (fr *frame) constant(n *ir.Node) (any, error) {
	var t types.Type
	if len(n.Outputs) == 1 {
		t = n.Outputs[0].Type
	}
	if a, ok := n.Attr("name"); ok && t != nil && t.Kind() == types.FunctionKind {
		name, _ := a.Value.(string)
		f, err := fr.in.function(name)
		if err != nil {
			return nil, err
		}
		return f, nil
	}
	a, ok := n.Attr("value")
	if !ok {
		return nil, nil
	}
	return ConstantValue(a, t)
}

// enter runs prim::Enter, the start of a with statement's body: the
// object's __enter__ runs and its result is the node's output (the `as`
// name's value). The entered object is kept for the prim::Exit that ends
// the body, as PyTorch's interpreter keeps entered_objects.
func (fr *frame) enter(n *ir.Node) error {
	o, err := fr.object(n)
	if err != nil {
		return err
	}
	f, err := fr.in.Method(o.Type, "__enter__")
	if err != nil {
		return err
	}
	out, err := fr.in.run(f, []any{o}, fr.depth+1)
	if err != nil {
		return err
	}
	fr.entered = append(fr.entered, o)
	return fr.results(n, out)
}

// exit runs prim::Exit, the end of a with statement's body: the last
// entered object's __exit__(None, None, None). An exception raised in the
// body leaves the function without running __exit__, as in PyTorch's
// interpreter.
func (fr *frame) exit(n *ir.Node) error {
	if len(fr.entered) == 0 {
		return fmt.Errorf("no with statement was entered")
	}
	o := fr.entered[len(fr.entered)-1]
	fr.entered = fr.entered[:len(fr.entered)-1]
	f, err := fr.in.Method(o.Type, "__exit__")
	if err != nil {
		return err
	}
	out, err := fr.in.run(f, []any{o, nil, nil, nil}, fr.depth+1)
	if err != nil {
		return err
	}
	return fr.results(n, out)
}

// ConstantValue converts a prim::Constant's value attribute, whose output
// has type t, to a runtime value: bool constants are stored as ints, a
// device as a string, lists become fresh Lists (the runtime's lists are
// mutable).
func ConstantValue(a ir.Attr, t types.Type) (any, error) {
	v := a.Value
	if t != nil {
		switch t.Kind() {
		case types.BoolKind:
			switch x := v.(type) {
			case int64:
				return x != 0, nil
			case bool:
				return x, nil
			}
		case types.DeviceKind:
			if s, ok := v.(string); ok {
				return ParseDevice(s)
			}
		}
	}
	if e, ok := enumConstant(v); ok {
		return e, nil
	}
	return ivalue(v, t), nil
}

// enumType is the type of Enum, whose layout frontend.EnumValue (the
// value of an enum constant, printed value=__torch__.Color.RED) shares:
// the runtime does not import the frontend, so an enum constant converts
// by that layout (package torchscript asserts at compile time that the
// conversion holds).
var enumType = reflect.TypeOf(Enum{})

// enumConstant converts an enum constant's value to an Enum.
func enumConstant(v any) (Enum, bool) {
	switch x := v.(type) {
	case nil, int64, float64, bool, string:
		return Enum{}, false
	case Enum:
		return x, true
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Struct || !rv.Type().ConvertibleTo(enumType) {
		return Enum{}, false
	}
	e := rv.Convert(enumType).Interface().(Enum)
	if e.Type == nil {
		return Enum{}, false
	}
	e.Value = ivalue(e.Value, e.Type.Value)
	return e, true
}

func ivalue(v any, t types.Type) any {
	elem := func() types.Type {
		if lt, ok := t.(*types.List); ok {
			return lt.Elem
		}
		return nil
	}
	switch x := v.(type) {
	case int:
		return int64(x)
	case []int64:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = e
		}
		return &List{Elem: types.Int, Items: items}
	case []float64:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = e
		}
		return &List{Elem: types.Float, Items: items}
	case []bool:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = e
		}
		return &List{Elem: types.Bool, Items: items}
	case []string:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = e
		}
		return &List{Elem: types.Str, Items: items}
	case []*tensor.Tensor:
		items := make([]any, len(x))
		for i, e := range x {
			items[i] = e
		}
		return &List{Elem: types.Tensor, Items: items}
	case []any:
		items := make([]any, len(x))
		et := elem()
		for i, e := range x {
			items[i] = ivalue(e, et)
		}
		return &List{Elem: et, Items: items}
	case ir.Tuple:
		var ts []types.Type
		if tt, ok := t.(*types.Tuple); ok {
			ts = tt.Elems
		}
		items := make([]any, len(x))
		for i, e := range x {
			var et types.Type
			if i < len(ts) {
				et = ts[i]
			}
			items[i] = ivalue(e, et)
		}
		return &Tuple{Items: items}
	}
	return v
}

func (in *Interpreter) function(name string) (*Function, error) {
	in.mu.Lock()
	f, ok := in.Functions[name]
	var found *Function
	ambiguous := ""
	if !ok {
		for k, g := range in.Functions {
			if strings.HasSuffix(k, "."+name) {
				if found != nil && found != g {
					ambiguous = found.Name + ", " + g.Name
				}
				found = g
			}
		}
	}
	in.mu.Unlock()
	switch {
	case ok:
		return f, nil
	case ambiguous != "":
		return nil, fmt.Errorf("function %q is ambiguous (%s)", name, ambiguous)
	case found != nil:
		return found, nil
	case in.Resolve != nil:
		f, err := in.Resolve(name)
		if err == nil && f != nil {
			in.Define(name, f)
		}
		return f, err
	}
	return nil, fmt.Errorf("unknown function %q", name)
}

func (fr *frame) ifNode(n *ir.Node) error {
	if len(n.Inputs) != 1 || len(n.Blocks) != 2 {
		return fmt.Errorf("expected one condition and two blocks, got %d inputs and %d blocks", len(n.Inputs), len(n.Blocks))
	}
	c, ok := fr.get(n.Inputs[0]).(bool)
	if !ok {
		return fmt.Errorf("condition must be a bool, got %s", TypeName(fr.get(n.Inputs[0])))
	}
	b := n.Blocks[1]
	if c {
		b = n.Blocks[0]
	}
	if err := fr.block(b); err != nil {
		return err
	}
	if len(b.Outputs) != len(n.Outputs) {
		return fmt.Errorf("block yields %d values for %d outputs", len(b.Outputs), len(n.Outputs))
	}
	for i, v := range b.Outputs {
		fr.set(n.Outputs[i], fr.get(v))
	}
	return nil
}

// loop runs prim::Loop(max_trip_count, initial_condition, carried...):
// the body (params: iteration, carried...; outputs: condition,
// carried...) runs while the condition holds and fewer than
// max_trip_count iterations ran.
func (fr *frame) loop(n *ir.Node) error {
	if len(n.Inputs) < 2 || len(n.Blocks) != 1 {
		return fmt.Errorf("expected a trip count, a condition and one block")
	}
	body := n.Blocks[0]
	carried := len(n.Inputs) - 2
	if len(body.Params) != carried+1 || len(body.Outputs) != carried+1 || len(n.Outputs) != carried {
		return fmt.Errorf("body takes %d values and yields %d for %d carried values", len(body.Params), len(body.Outputs), carried)
	}
	trip, ok := fr.get(n.Inputs[0]).(int64)
	if !ok {
		return fmt.Errorf("max trip count must be an int, got %s", TypeName(fr.get(n.Inputs[0])))
	}
	cond, ok := fr.get(n.Inputs[1]).(bool)
	if !ok {
		return fmt.Errorf("condition must be a bool, got %s", TypeName(fr.get(n.Inputs[1])))
	}
	vals := make([]any, carried)
	for i := range vals {
		vals[i] = fr.get(n.Inputs[2+i])
	}
	for i := int64(0); cond && i < trip; i++ {
		fr.set(body.Params[0], i)
		for j, v := range vals {
			fr.set(body.Params[1+j], v)
		}
		if err := fr.block(body); err != nil {
			return err
		}
		c, ok := fr.get(body.Outputs[0]).(bool)
		if !ok {
			return fmt.Errorf("loop condition must be a bool, got %s", TypeName(fr.get(body.Outputs[0])))
		}
		cond = c
		for j := range vals {
			vals[j] = fr.get(body.Outputs[1+j])
		}
	}
	for i, v := range n.Outputs {
		fr.set(v, vals[i])
	}
	return nil
}

func (fr *frame) object(n *ir.Node) (*Object, error) {
	if len(n.Inputs) == 0 {
		return nil, fmt.Errorf("expected an object input")
	}
	o, ok := fr.get(n.Inputs[0]).(*Object)
	if !ok {
		return nil, fmt.Errorf("expected an object, got %s", TypeName(fr.get(n.Inputs[0])))
	}
	return o, nil
}

func (fr *frame) getAttr(n *ir.Node) error {
	name, _ := n.Str("name")
	o, err := fr.object(n)
	if err != nil {
		return err
	}
	v, ok := o.Attr(name)
	if !ok {
		return fmt.Errorf("object of class %s has no attribute '%s'", o.ClassName(), name)
	}
	return fr.setOutput(n, v)
}

func (fr *frame) setAttr(n *ir.Node) error {
	name, _ := n.Str("name")
	o, err := fr.object(n)
	if err != nil {
		return err
	}
	if len(n.Inputs) != 2 {
		return fmt.Errorf("expected an object and a value")
	}
	return o.SetAttr(name, fr.get(n.Inputs[1]))
}

func (fr *frame) callMethod(n *ir.Node) error {
	name, _ := n.Str("name")
	o, err := fr.object(n)
	if err != nil {
		return err
	}
	f, err := fr.in.Method(o.Type, name)
	if err != nil {
		return err
	}
	out, err := fr.in.run(f, fr.inputs(n), fr.depth+1)
	if err != nil {
		return err
	}
	return fr.results(n, out)
}

// Method returns the method name of class t ("forward"), from Functions
// or through Resolve.
func (in *Interpreter) Method(t *types.Class, name string) (*Function, error) {
	if t == nil {
		return nil, fmt.Errorf("object without a class has no method '%s'", name)
	}
	q := t.Name + "." + name
	in.mu.Lock()
	f, ok := in.Functions[q]
	in.mu.Unlock()
	if ok {
		return f, nil
	}
	if in.Resolve != nil {
		f, err := in.Resolve(q)
		if err != nil {
			return nil, err
		}
		if f != nil {
			in.Define(q, f)
			return f, nil
		}
	}
	return nil, fmt.Errorf("class %s has no method '%s'", t.Name, name)
}

// Define adds (or replaces) the function or method called qualified.
func (in *Interpreter) Define(qualified string, f *Function) {
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.Functions == nil {
		in.Functions = map[string]*Function{}
	}
	in.Functions[qualified] = f
}

// CallMethod runs method name of o with args (self is added).
func (in *Interpreter) CallMethod(o *Object, name string, args ...any) ([]any, error) {
	f, err := in.Method(o.Type, name)
	if err != nil {
		return nil, err
	}
	return in.run(f, append([]any{o}, args...), 0)
}

func (fr *frame) callFunction(n *ir.Node) error {
	in := fr.inputs(n)
	if len(in) == 0 {
		return fmt.Errorf("expected a function input")
	}
	f, ok := in[0].(*Function)
	if !ok {
		return fmt.Errorf("expected a function, got %s", TypeName(in[0]))
	}
	out, err := fr.in.run(f, in[1:], fr.depth+1)
	if err != nil {
		return err
	}
	return fr.results(n, out)
}

// results sets a call's outputs: a graph returns one value (a tuple when
// the function returns several), which the call's single output takes.
func (fr *frame) results(n *ir.Node, out []any) error {
	if len(out) == len(n.Outputs) {
		return fr.setOutputs(n, out)
	}
	if len(n.Outputs) == 1 {
		return fr.setOutput(n, &Tuple{Items: out})
	}
	if len(out) == 1 {
		if t, ok := out[0].(*Tuple); ok && len(t.Items) == len(n.Outputs) {
			return fr.setOutputs(n, t.Items)
		}
	}
	return fmt.Errorf("call returned %d values for %d outputs", len(out), len(n.Outputs))
}

func (fr *frame) unpack(n *ir.Node, what string) error {
	if len(n.Inputs) != 1 {
		return fmt.Errorf("expected one %s", what)
	}
	var items []any
	switch x := fr.get(n.Inputs[0]).(type) {
	case *List:
		items = x.Items
	case *Tuple:
		items = x.Items
	default:
		return fmt.Errorf("expected a %s, got %s", what, TypeName(x))
	}
	if len(items) != len(n.Outputs) {
		return torchErr("Expected %d elements in a list but found %d", len(n.Outputs), len(items))
	}
	return fr.setOutputs(n, append([]any(nil), items...))
}

func (fr *frame) tupleSlice(n *ir.Node) error {
	t, ok := fr.get(n.Inputs[0]).(*Tuple)
	if !ok {
		return fmt.Errorf("expected a tuple, got %s", TypeName(fr.get(n.Inputs[0])))
	}
	beg, _ := n.Int("beg")
	end, ok := n.Int("end")
	if !ok {
		end = int64(len(t.Items))
	}
	v, _, err := sliceOp([]any{t, beg, end, int64(1)})
	if err != nil {
		return err
	}
	return fr.setOutput(n, v)
}

func (fr *frame) dictConstruct(n *ir.Node) error {
	in := fr.inputs(n)
	if len(in)%2 != 0 {
		return fmt.Errorf("expected key/value pairs, got %d inputs", len(in))
	}
	d := &Dict{index: map[any]int{}}
	if len(n.Outputs) == 1 {
		if dt, ok := n.Outputs[0].Type.(*types.Dict); ok {
			d.KeyType, d.ValueType = dt.Key, dt.Value
		}
	}
	for i := 0; i < len(in); i += 2 {
		if err := d.Set(in[i], in[i+1]); err != nil {
			return err
		}
	}
	return fr.setOutput(n, d)
}

func (fr *frame) isinstance(n *ir.Node) error {
	a, ok := n.Attr("types")
	if !ok {
		return fmt.Errorf("isinstance without types")
	}
	var ts []types.Type
	switch x := a.Value.(type) {
	case []types.Type:
		ts = x
	case types.Type:
		ts = []types.Type{x}
	default:
		return fmt.Errorf("isinstance types attribute is %T", a.Value)
	}
	v := fr.get(n.Inputs[0])
	res := false
	for _, t := range ts {
		if Isinstance(v, t) {
			res = true
			break
		}
	}
	return fr.setOutput(n, res)
}

// Isinstance reports whether v is a value of type t (TorchScript's
// isinstance, and the check of arguments against parameter types).
// Element types of containers are checked from the container's recorded
// type when it has one, otherwise element by element.
func Isinstance(v any, t types.Type) bool {
	if t == nil {
		return true
	}
	switch t.Kind() {
	case types.AnyKind:
		return true
	case types.OptionalKind:
		return isNone(v) || Isinstance(v, t.(*types.Optional).Elem)
	case types.UnionKind:
		for _, e := range t.(*types.Union).Types {
			if Isinstance(v, e) {
				return true
			}
		}
		return false
	case types.NoneKind:
		return isNone(v)
	case types.TensorKind:
		x, ok := v.(*tensor.Tensor)
		return ok && x != nil
	case types.IntKind:
		_, ok := v.(int64)
		return ok
	case types.FloatKind:
		_, ok := v.(float64)
		return ok
	case types.BoolKind:
		_, ok := v.(bool)
		return ok
	case types.StrKind:
		_, ok := v.(string)
		return ok
	case types.ComplexKind:
		_, ok := v.(complex128)
		return ok
	case types.NumberKind:
		switch v.(type) {
		case int64, float64, bool, complex128:
			return true
		}
		return false
	case types.DeviceKind:
		_, ok := v.(Device)
		return ok
	case types.ScalarTypeKind, types.LayoutKind, types.MemoryFormatKind:
		switch v.(type) {
		case int64, tensor.DType:
			return true
		}
		return false
	case types.ListKind:
		l, ok := v.(*List)
		if !ok {
			return false
		}
		et := t.(*types.List).Elem
		if l.Elem != nil {
			return types.IsSubtype(l.Elem, et) || types.Equal(l.Elem, et)
		}
		for _, e := range l.Items {
			if !Isinstance(e, et) {
				return false
			}
		}
		return true
	case types.AnyListKind:
		_, ok := v.(*List)
		return ok
	case types.DictKind:
		d, ok := v.(*Dict)
		if !ok {
			return false
		}
		dt := t.(*types.Dict)
		if d.KeyType != nil && d.ValueType != nil {
			return types.Equal(d.KeyType, dt.Key) && (types.Equal(d.ValueType, dt.Value) || types.IsSubtype(d.ValueType, dt.Value))
		}
		ok = true
		d.Range(func(k, e any) bool {
			ok = Isinstance(k, dt.Key) && Isinstance(e, dt.Value)
			return ok
		})
		return ok
	case types.TupleKind:
		tp, ok := v.(*Tuple)
		if !ok {
			return false
		}
		tt := t.(*types.Tuple)
		if len(tt.Elems) != len(tp.Items) {
			return false
		}
		for i, e := range tp.Items {
			if !Isinstance(e, tt.Elems[i]) {
				return false
			}
		}
		return true
	case types.AnyTupleKind:
		_, ok := v.(*Tuple)
		return ok
	case types.EnumKind:
		e, ok := v.(Enum)
		return ok && e.ClassName() == t.(*types.Enum).Name
	case types.AnyEnumKind:
		_, ok := v.(Enum)
		return ok
	case types.ClassKind:
		o, ok := v.(*Object)
		return ok && o.Type != nil && o.Type.Name == t.(*types.Class).Name
	case types.InterfaceKind, types.AnyClassKind:
		_, ok := v.(*Object)
		return ok
	case types.FunctionKind:
		_, ok := v.(*Function)
		return ok
	}
	return true
}

var _ = ops.Global

// NumNodes returns the number of nodes (those in blocks included) of the
// functions compiled so far.
func (in *Interpreter) NumNodes() int {
	in.mu.Lock()
	defer in.mu.Unlock()
	n := 0
	seen := map[*ir.Graph]bool{}
	var count func(b *ir.Block)
	count = func(b *ir.Block) {
		for _, x := range b.Nodes {
			n++
			for _, sub := range x.Blocks {
				count(sub)
			}
		}
	}
	for _, f := range in.Functions {
		if !f.done.Load() {
			continue
		}
		if g := f.Graph; g != nil && !seen[g] {
			seen[g] = true
			count(g.Block())
		}
	}
	return n
}
