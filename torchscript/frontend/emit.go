package frontend

import (
	"math"
	"sort"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// scope is one frame of the variable environment: a block and the
// variables assigned in it, in order of first assignment.
type scope struct {
	parent *scope
	block  *ir.Block
	vars   map[string]sugared
	order  []string
}

func newScope(parent *scope, b *ir.Block) *scope {
	return &scope{parent: parent, block: b, vars: map[string]sugared{}}
}

func (s *scope) lookup(name string) (sugared, bool) {
	for f := s; f != nil; f = f.parent {
		if v, ok := f.vars[name]; ok {
			return v, true
		}
	}
	return nil, false
}

func (s *scope) set(name string, v sugared) {
	if _, ok := s.vars[name]; !ok {
		s.order = append(s.order, name)
	}
	s.vars[name] = v
}

// emitter compiles one function body.
type emitter struct {
	f       *fileCtx
	fn      *Function
	g       *ir.Graph
	env     *scope
	depth   int
	lowered int
	// unnamed is set while a, b = x, y binds element-wise: PyTorch names
	// the outputs of the prim::TupleUnpack it emits, which LowerSimpleTuples
	// then replaces by x and y, so x and y stay unnamed.
	unnamed bool
	// anon are values no variable names (an upgrader's result).
	anon map[*ir.Value]bool
	// literals are the function's int and float literal constants, made
	// once each at the top of the graph (ir_emitter's materializeConstant).
	literals map[any]*ir.Value
	// ssa gives the variable names of the outputs of the prim::If and
	// prim::Loop statements emitted, which PyTorch adds (numbers and
	// names) only after the whole function is emitted (ConvertToSSA); see
	// naming.go.
	ssa map[*ir.Node][]string
	// lastLoad is the phantom load of the last variable read, whose value
	// is lastLoaded: assigning that value assigns PyTorch's load.
	lastLoad, lastLoaded *ir.Value
	// loaded is a variable read whose load was replayed ahead (the
	// object of obj.x = v): reading it takes no second load.
	loaded *syntax.Name
}

func (fn *Function) compile() (*ir.Graph, error) {
	if fn.graph != nil || fn.err != nil {
		return fn.graph, fn.err
	}
	if fn.abstract {
		return nil, fn.file.errorf(fn.def, "%s is an interface method: it has no body", fn.Qualified)
	}
	if fn.busy {
		// recursion: TorchScript refuses it as well
		return nil, fn.file.errorf(fn.def, "%s is recursive, which TorchScript does not support", fn.Qualified)
	}
	fn.busy = true
	defer func() { fn.busy = false }()
	g, err := fn.emit()
	if err != nil {
		fn.err = err
		return nil, err
	}
	fn.graph = g
	return g, nil
}

func (fn *Function) emit() (g *ir.Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, fn.file.errorf(fn.def, "internal error compiling %s: %v", fn.Qualified, r)
		}
	}()
	g = ir.NewGraph()
	e := &emitter{f: fn.file, fn: fn, g: g, env: newScope(nil, g.Block()), literals: map[any]*ir.Value{}, ssa: map[*ir.Node][]string{}}
	for _, p := range fn.Params {
		v, err := g.AddInput("", p.Type)
		if err != nil {
			return nil, err
		}
		if ir.ValidName(p.Name) {
			_ = v.SetDebugName(p.Name)
		}
		e.env.set(p.Name, v)
	}
	body, exits, err := e.lowerReturns(fn.def.Body)
	if err != nil {
		return nil, err
	}
	if err := e.stmts(body); err != nil {
		return nil, err
	}
	var out *ir.Value
	var ret syntax.Node = fn.def
	if exits {
		v, ok := e.env.lookup(retVar)
		val, isVal := v.(*ir.Value)
		if !ok || !isVal {
			return nil, e.f.errorf(fn.def, "%s: the return value is not a value", fn.Qualified)
		}
		out = val
		if n := len(fn.def.Body); n > 0 {
			ret = fn.def.Body[n-1]
		}
	} else {
		out = e.constant(nil, types.None)
	}
	if fn.Returns != nil {
		conv, err := e.convertTo(ret, out, fn.Returns, "return value of "+fn.Qualified)
		if err != nil {
			return nil, err
		}
		out = conv
	} else {
		fn.Returns = out.Type
	}
	g.RegisterOutput(out)
	e.convertToSSA()
	for constProp(e, g.Block()) {
	}
	if err := cleanup(g); err != nil {
		return nil, e.f.errorf(fn.def, "%s: %v", fn.Qualified, err)
	}
	return g, nil
}

// convertTo checks that v may be used as a t, applying the implicit
// conversions TorchScript allows (a homogeneous tuple as a list, ...).
func (e *emitter) convertTo(at syntax.Node, v *ir.Value, t types.Type, what string) (*ir.Value, error) {
	if types.IsSubtype(v.Type, t) {
		return v, nil
	}
	if conv, _ := conversion(v.Type, t, false); conv != nil {
		w, err := conv(e, v)
		if err != nil {
			return nil, err
		}
		if types.IsSubtype(w.Type, t) {
			return w, nil
		}
	}
	return nil, e.f.errorf(at, "%s: expected a value of type %s, got %s", what, t, v.Type)
}

func (e *emitter) stmts(ss []syntax.Stmt) error {
	for _, s := range ss {
		if err := e.stmt(s); err != nil {
			return err
		}
	}
	return nil
}

func (e *emitter) stmt(s syntax.Stmt) error {
	e.lastLoad, e.lastLoaded, e.loaded = nil, nil, nil
	switch st := s.(type) {
	case *syntax.Pass, *syntax.Import, *syntax.Global:
		return nil
	case *syntax.ExprStmt:
		_, err := e.expr(st.X, nil)
		return err
	case *syntax.Assign:
		return e.assign(st)
	case *syntax.AugAssign:
		return e.augAssign(st)
	case *syntax.If:
		return e.ifStmt(st)
	case *syntax.While:
		return e.loop(st, nil, nil, st.Cond, st.Body)
	case *syntax.For:
		return e.forStmt(st)
	case *syntax.Assert:
		return e.assert(st)
	case *syntax.Raise:
		return e.raise(st)
	case *syntax.Return:
		return e.f.errorf(st, "a return here is not supported")
	case *syntax.FuncDef:
		return e.closureDef(st) // closure.go
	case *syntax.With:
		return e.with(st)
	case *syntax.Break, *syntax.Continue:
		return e.f.errorf(st, "break and continue are not supported (the serialized code has none: PyTorch's exit transforms removed them)")
	}
	return e.f.errorf(s, "unsupported statement %T", s)
}

// meaningfulName reports whether a variable name is worth a value's debug
// name (ir_emitter's meaningfulName: not _0, _12, ...).
func meaningfulName(name string) bool {
	if name == "" || name[0] == '$' {
		return false
	}
	if name[0] != '_' {
		return true
	}
	for i := 1; i < len(name); i++ {
		if name[i] < '0' || name[i] > '9' {
			return true
		}
	}
	return false
}

// setVar binds name in the current frame, naming an unnamed value.
// Assigning in a nested block a variable an outer block defines reads it
// there (a prim::Load, see naming.go), as Environment::setSugaredVar.
func (e *emitter) setVar(name string, v sugared) {
	if val, ok := v.(*ir.Value); ok && val == e.lastLoaded && e.lastLoad != nil {
		// x = y assigns y's prim::Load: the load is named, not y's value
		if e.lastLoad.DebugName() == "" && meaningfulName(name) && ir.ValidName(name) {
			_ = e.lastLoad.SetDebugName(name)
		}
	} else if ok && !e.unnamed && !e.anon[val] && val.DebugName() == "" && meaningfulName(name) && ir.ValidName(name) && e.inThisBlock(val) {
		_ = val.SetDebugName(name)
	}
	if e.env.parent != nil {
		if pv, ok := e.env.parent.lookup(name); ok {
			if _, isVal := pv.(*ir.Value); isVal {
				e.load(name)
			}
		}
	}
	e.env.set(name, v)
}

func (e *emitter) assign(st *syntax.Assign) error {
	if st.Value == nil {
		return e.f.errorf(st, "a bare annotation is not supported in a function body")
	}
	var hint types.Type
	if st.Type != nil {
		t, err := e.f.parseType(st.Type)
		if err != nil {
			return err
		}
		hint = t
	}
	// obj.x = v reads obj before v (emitSelectAssign)
	if a, ok := syntax.Unparen(st.Target).(*syntax.Attribute); ok && len(st.More) == 0 {
		if nm, ok := syntax.Unparen(a.X).(*syntax.Name); ok {
			if v, ok := e.env.lookup(nm.Name); ok {
				if _, isVal := v.(*ir.Value); isVal {
					e.load(nm.Name)
					e.loaded = nm
				}
			}
		}
	}
	// a, b = x, y: assign element-wise (LowerSimpleTuples removes the
	// tuple PyTorch builds)
	if tt, ok := st.Target.(*syntax.TupleExpr); ok {
		if tv, ok := syntax.Unparen(st.Value).(*syntax.TupleExpr); ok && len(tv.Elts) == len(tt.Elts) {
			vals := make([]sugared, len(tv.Elts))
			loads := make([]*ir.Value, len(tv.Elts))
			for i, el := range tv.Elts {
				e.lastLoad, e.lastLoaded = nil, nil
				v, err := e.expr(el, nil)
				if err != nil {
					return err
				}
				vals[i] = v
				if _, isName := syntax.Unparen(el).(*syntax.Name); isName {
					loads[i] = e.lastLoad
				}
			}
			e.g.Phantom("") // the prim::TupleConstruct
			e.unnamed = true
			defer func() { e.unnamed = false }()
			for i, t := range tt.Elts {
				e.lastLoad, e.lastLoaded = nil, nil
				if val, ok := vals[i].(*ir.Value); ok && loads[i] != nil {
					e.lastLoad, e.lastLoaded = loads[i], val
				}
				if err := e.assignTo(t, el(tv, i), vals[i]); err != nil {
					return err
				}
			}
			return nil
		}
	}
	v, err := e.expr(st.Value, hint)
	if err != nil {
		return err
	}
	if hint != nil {
		val, err := e.asValue(st.Value, v)
		if err != nil {
			return err
		}
		if v, err = e.convertTo(st.Value, val, hint, "assignment"); err != nil {
			return err
		}
	}
	for _, t := range append([]syntax.Expr{st.Target}, st.More...) {
		if err := e.assignTo(t, st.Value, v); err != nil {
			return err
		}
	}
	return nil
}

func el(t *syntax.TupleExpr, i int) syntax.Expr { return t.Elts[i] }

// assignTo binds a target (a name, a tuple of targets, self.attr, x[i]) to
// the value v of the expression at.
func (e *emitter) assignTo(target syntax.Expr, at syntax.Expr, v sugared) error {
	switch t := syntax.Unparen(target).(type) {
	case *syntax.Name:
		e.setVar(t.Name, v)
		return nil
	case *syntax.TupleExpr:
		val, err := e.asValue(at, v)
		if err != nil {
			return err
		}
		elems, err := e.unpack(at, val, len(t.Elts))
		if err != nil {
			return err
		}
		for i, te := range t.Elts {
			if err := e.assignTo(te, at, elems[i]); err != nil {
				return err
			}
		}
		return nil
	case *syntax.Attribute:
		obj, err := e.expr(t.X, nil)
		if err != nil {
			return err
		}
		self, ok := obj.(*ir.Value)
		if !ok {
			return e.f.errorf(t, "cannot assign to an attribute of %s", describe(obj))
		}
		cls, ok := self.Type.(*types.Class)
		if !ok {
			return e.f.errorf(t, "cannot assign attribute %s of a value of type %s", t.Name, self.Type)
		}
		a, _, ok := cls.Attr(t.Name)
		if !ok {
			return e.f.errorf(t, "class %s has no attribute %s to assign", cls.Name, t.Name)
		}
		val, err := e.asValue(at, v)
		if err != nil {
			return err
		}
		if val, err = e.convertTo(at, val, a.Type, "attribute "+t.Name); err != nil {
			return err
		}
		n := e.insert("prim::SetAttr", []*ir.Value{self, val})
		n.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: t.Name})
		e.setSource(n, t)
		return nil
	case *syntax.Subscript:
		obj, err := e.exprValue(t.X, nil)
		if err != nil {
			return err
		}
		if len(t.Index) != 1 {
			return e.f.errorf(t, "subscript assignment takes one index")
		}
		idx, err := e.exprValue(t.Index[0], nil)
		if err != nil {
			return err
		}
		val, err := e.asValue(at, v)
		if err != nil {
			return err
		}
		_, err = e.builtin(t, "aten", "_set_item", []nv{{v: obj, at: t.X}, {v: idx, at: t.Index[0]}, {v: val, at: at}}, nil, nil)
		return err
	}
	return e.f.errorf(target, "cannot assign to this expression")
}

// unpack splits a tuple value into n values (prim::TupleUnpack), or reads
// the elements of a TupleConstruct directly.
func (e *emitter) unpack(at syntax.Node, v *ir.Value, n int) ([]sugared, error) {
	if lt, ok := v.Type.(*types.List); ok {
		// a list unpacks with prim::ListUnpack (a wrong length fails at run time)
		outs := make([]types.Type, n)
		for i := range outs {
			outs[i] = lt.Elem
		}
		node := e.insert("prim::ListUnpack", []*ir.Value{v}, outs...)
		e.setSource(node, at)
		res := make([]sugared, n)
		for i, o := range node.Outputs {
			res[i] = o
		}
		return res, nil
	}
	tt, ok := v.Type.(*types.Tuple)
	if !ok {
		return nil, e.f.errorf(at, "cannot unpack a value of type %s into %d targets", v.Type, n)
	}
	if len(tt.Elems) != n {
		return nil, e.f.errorf(at, "cannot unpack a tuple of %d elements into %d targets", len(tt.Elems), n)
	}
	out := make([]sugared, n)
	if p := v.Node(); p != nil && p.Kind == "prim::TupleConstruct" && len(p.Inputs) == n {
		for i, in := range p.Inputs {
			out[i] = in
		}
		return out, nil
	}
	node := e.insert("prim::TupleUnpack", []*ir.Value{v}, tt.Elems...)
	e.setSource(node, at)
	for i, o := range node.Outputs {
		out[i] = o
	}
	return out, nil
}

func (e *emitter) augAssign(st *syntax.AugAssign) error {
	name, ok := binaryOps[st.Op]
	if !ok {
		return e.f.errorf(st, "unsupported augmented assignment %s=", st.Op)
	}
	lhs, err := e.exprValue(st.Target, nil)
	if err != nil {
		return err
	}
	rhs, err := e.exprValue(st.Value, nil)
	if err != nil {
		return err
	}
	switch lhs.Type.(type) {
	case *types.TensorType, *types.List:
		// in place, as __iadd__ on a tensor or list
		_, err := e.builtin(st, "aten", name+"_", []nv{{v: lhs, at: st.Target}, {v: rhs, at: st.Value}}, nil, nil)
		return err
	}
	out, err := e.builtin(st, "aten", name, []nv{{v: lhs, at: st.Target}, {v: rhs, at: st.Value}}, nil, nil)
	if err != nil {
		return err
	}
	return e.assignTo(st.Target, st.Value, out)
}

// insert creates a node at the insert point.
func (e *emitter) insert(kind string, inputs []*ir.Value, outs ...types.Type) *ir.Node {
	n, err := e.g.InsertNode(kind, inputs, outs...)
	if err != nil {
		panic(err) // the emitter always has an insert point
	}
	return n
}

func (e *emitter) setSource(n *ir.Node, at syntax.Node) {
	if at == nil {
		return
	}
	if p := at.Pos(); p.IsValid() {
		n.Source = &ir.SourceRange{File: e.f.name, Line: p.Line, Col: p.Col}
	}
}

// withBlock runs body with b as the insert point and a new frame.
func (e *emitter) withBlock(b *ir.Block, body func() error) (*scope, error) {
	saved, savedBlock := e.env, b
	_ = savedBlock
	pb, pn := e.g.InsertPoint()
	e.env = newScope(saved, b)
	e.g.SetInsertPoint(b)
	err := body()
	frame := e.env
	e.env = saved
	if pn != nil {
		e.g.SetInsertBefore(pn)
	} else {
		e.g.SetInsertPoint(pb)
	}
	return frame, err
}

func (e *emitter) ifStmt(st *syntax.If) error {
	cond, err := e.cond(st.Cond)
	if err != nil {
		return err
	}
	n := e.insert("prim::If", []*ir.Value{cond})
	e.setSource(n, st)
	tb, fb := n.AddBlock(), n.AddBlock()
	refName, refType, refIn := e.refinement(st.Cond)
	tf, err := e.withBlock(tb, func() error {
		if refName != "" && refIn {
			e.refine(st, refName, refType)
		}
		return e.stmts(st.Body)
	})
	if err != nil {
		return err
	}
	ff, err := e.withBlock(fb, func() error {
		if refName != "" && !refIn {
			e.refine(st, refName, refType)
		}
		return e.stmts(st.Else)
	})
	if err != nil {
		return err
	}
	return e.joinIf(st, n, tf, ff)
}

// refinement reads an Optional refinement from a condition, as
// ir_emitter's findIsNoneRefinements: `x is not None` refines the variable
// x of type Optional[T] to T in the true branch (inTrue), `x is None` in
// the false one.
func (e *emitter) refinement(cond syntax.Expr) (name string, t types.Type, inTrue bool) {
	b, ok := syntax.Unparen(cond).(*syntax.BinaryExpr)
	var x, y syntax.Expr
	var op string
	if ok && (b.Op == "is" || b.Op == "is not") {
		x, y, op = b.X, b.Y, b.Op
	}
	if x == nil {
		return "", nil, false
	}
	if _, isNone := syntax.Unparen(y).(*syntax.NoneLit); !isNone {
		x, y = y, x
		if _, isNone := syntax.Unparen(y).(*syntax.NoneLit); !isNone {
			return "", nil, false
		}
	}
	nm, ok := syntax.Unparen(x).(*syntax.Name)
	if !ok {
		return "", nil, false
	}
	v, ok := e.env.lookup(nm.Name)
	val, isVal := v.(*ir.Value)
	if !ok || !isVal {
		return "", nil, false
	}
	o, ok := val.Type.(*types.Optional)
	if !ok {
		return "", nil, false
	}
	return nm.Name, o.Elem, op == "is not"
}

// refine rebinds name to its value cast to t (prim::unchecked_cast) in the
// current block.
func (e *emitter) refine(at syntax.Node, name string, t types.Type) {
	v, _ := e.env.lookup(name)
	e.load(name) // insertRefinements' getVar
	n := e.insert("prim::unchecked_cast", []*ir.Value{v.(*ir.Value)}, t)
	e.setSource(n, at)
	e.setVar(name, n.Output())
}

// joinIf makes the variables both branches define (in the branch or
// before the if) outputs of the prim::If, in name order as
// convert_to_ssa's std::set.
func (e *emitter) joinIf(at syntax.Node, n *ir.Node, tf, ff *scope) error {
	set := map[string]bool{}
	for _, v := range tf.order {
		if _, ok := ff.lookup(v); ok {
			set[v] = true
		}
	}
	for _, v := range ff.order {
		if _, ok := tf.lookup(v); ok {
			set[v] = true
		}
	}
	names := make([]string, 0, len(set))
	for v := range set {
		names = append(names, v)
	}
	sort.Strings(names)
	e.ifLoads(tf, ff, names)
	next := e.g.NextUnique()
	defer e.g.SetNextUnique(next) // numbered by convertToSSA
	for _, name := range names {
		ts, _ := tf.lookup(name)
		fs, _ := ff.lookup(name)
		tv, ok1 := ts.(*ir.Value)
		fv, ok2 := fs.(*ir.Value)
		if !ok1 || !ok2 {
			if ts == fs {
				continue // the same sugared value (a function, a module)
			}
			continue // a non-value defined differently: not visible after the if
		}
		u, ok := types.Unify(tv.Type, fv.Type)
		if !ok {
			// PyTorch leaves the variable undefined after the if
			continue
		}
		n.Blocks[0].AddOutput(tv)
		n.Blocks[1].AddOutput(fv)
		out := n.AddOutput(u)
		e.env.set(name, out) // named by convertToSSA
		e.ssa[n] = append(e.ssa[n], name)
	}
	return nil
}

// assigned collects the names a statement list assigns (recursively),
// in order of first assignment.
func assigned(ss []syntax.Stmt, seen map[string]bool, out *[]string) {
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			*out = append(*out, n)
		}
	}
	var targets func(e syntax.Expr)
	targets = func(e syntax.Expr) {
		switch t := syntax.Unparen(e).(type) {
		case *syntax.Name:
			add(t.Name)
		case *syntax.TupleExpr:
			for _, x := range t.Elts {
				targets(x)
			}
		}
	}
	for _, s := range ss {
		switch st := s.(type) {
		case *syntax.Assign:
			targets(st.Target)
		case *syntax.AugAssign:
			targets(st.Target)
		case *syntax.If:
			assigned(st.Body, seen, out)
			assigned(st.Else, seen, out)
		case *syntax.While:
			assigned(st.Body, seen, out)
		case *syntax.For:
			targets(st.Target)
			assigned(st.Body, seen, out)
		}
	}
}

func (e *emitter) forStmt(st *syntax.For) error {
	iter := syntax.Unparen(st.Iter)
	if call, ok := iter.(*syntax.Call); ok && dottedName(call.Fun) == "range" {
		if _, shadowed := e.env.lookup("range"); !shadowed {
			if len(call.Keywords) > 0 || len(call.Args) == 0 || len(call.Args) > 3 {
				return e.f.errorf(call, "range takes 1 to 3 positional arguments")
			}
			args := make([]*ir.Value, len(call.Args))
			for i, a := range call.Args {
				v, err := e.exprValue(a, types.Int)
				if err != nil {
					return err
				}
				if v.Type != types.Int {
					return e.f.errorf(a, "range expects an int, got %s", v.Type)
				}
				args[i] = v
			}
			if len(args) == 1 {
				// RangeValue's start and step constants, unused
				e.g.Phantom("")
				e.g.Phantom("")
				return e.loop(st, args[0], func(i *ir.Value) (sugared, error) { return i, nil }, nil, st.Body)
			}
			// range(start, stop[, step]): trip count aten::__range_length,
			// element aten::__derive_index, as ir_emitter's RangeValue
			start, stop := args[0], args[1]
			step := e.constant(int64(1), types.Int)
			if len(args) == 3 {
				step = args[2]
			}
			n, err := e.builtin(call, "aten", "__range_length", []nv{{v: start}, {v: stop}, {v: step}}, nil, nil)
			if err != nil {
				return err
			}
			return e.loop(st, n.(*ir.Value), func(i *ir.Value) (sugared, error) {
				return e.builtin(call, "aten", "__derive_index", []nv{{v: i}, {v: start}, {v: step}}, nil, nil)
			}, nil, st.Body)
		}
	}
	// iterating a list, a tuple of one type, a string or a tensor's first
	// dim: trip count len(x), element x[i]
	seq, err := e.exprValue(st.Iter, nil)
	if err != nil {
		return err
	}
	switch seq.Type.(type) {
	case *types.List, *types.TensorType:
	default:
		if seq.Type != types.Str {
			return e.f.errorf(st.Iter, "cannot iterate over a value of type %s", seq.Type)
		}
	}
	n, err := e.builtin(st.Iter, "aten", "len", []nv{{v: seq}}, nil, nil)
	if err != nil {
		return err
	}
	return e.loop(st, n.(*ir.Value), func(i *ir.Value) (sugared, error) {
		if seq.Type.Kind() == types.TensorKind {
			zero := e.constant(int64(0), types.Int)
			return e.builtin(st.Iter, "aten", "select", []nv{{v: seq}, {v: zero}, {v: i}}, nil, nil)
		}
		return e.builtin(st.Iter, "aten", "__getitem__", []nv{{v: seq}, {v: i}}, nil, nil)
	}, nil, st.Body)
}

// loop emits a prim::Loop: with a trip count for a for loop (elem gives the
// target's value from the counter), or with cond for a while loop
// (maximum trip count, the condition evaluated before the loop and at the
// end of each iteration). Variables the body assigns that exist before the
// loop are carried, in order of first assignment.
func (e *emitter) loop(at syntax.Stmt, trip *ir.Value, elem func(*ir.Value) (sugared, error), cond syntax.Expr, body []syntax.Stmt) error {
	var first *ir.Value
	if cond != nil {
		trip = e.literal(at, int64(math.MaxInt64), types.Int)
		c, err := e.cond(cond)
		if err != nil {
			return err
		}
		first = c
	} else {
		first = e.constantAt(at, true, types.Bool)
	}
	var names []string
	seen := map[string]bool{}
	if f, ok := at.(*syntax.For); ok {
		var tgt []string
		assigned([]syntax.Stmt{&syntax.Assign{Target: f.Target, Value: f.Iter}}, map[string]bool{}, &tgt)
		for _, t := range tgt {
			seen[t] = true // the target is the loop's own
		}
	}
	assigned(body, seen, &names)
	type carried struct {
		name string
		init *ir.Value
	}
	var cs []carried
	for _, name := range names {
		v, ok := e.env.lookup(name)
		if !ok {
			continue
		}
		if val, ok := v.(*ir.Value); ok {
			cs = append(cs, carried{name, val})
		}
	}
	inputs := []*ir.Value{trip, first}
	for _, c := range cs {
		inputs = append(inputs, c.init)
	}
	n := e.insert("prim::Loop", inputs)
	e.setSource(n, at)
	b := n.AddBlock()
	counter := b.AddParam(types.Int)
	params := make([]*ir.Value, len(cs))
	next := e.g.NextUnique()
	for i, c := range cs {
		params[i] = b.AddParam(c.init.Type)
		e.ssa[n] = append(e.ssa[n], c.name)
	}
	e.g.SetNextUnique(next) // numbered by convertToSSA
	frame, err := e.withBlock(b, func() error {
		for i, c := range cs {
			e.env.set(c.name, params[i])
		}
		if f, ok := at.(*syntax.For); ok {
			v, err := elem(counter)
			if err != nil {
				return err
			}
			if err := e.assignTo(f.Target, f.Iter, v); err != nil {
				return err
			}
		}
		if err := e.stmts(body); err != nil {
			return err
		}
		if cond != nil {
			// PyTorch emits the condition once, before the body, and
			// copies it after compiling the function (InlineLoopCondition):
			// the copy at the end of the body takes no numbers here when
			// the condition is a variable (all the serializer writes)
			next := e.g.NextUnique()
			c, err := e.cond(cond)
			if err != nil {
				return err
			}
			if _, isName := syntax.Unparen(cond).(*syntax.Name); isName && next <= e.g.NextUnique() {
				e.g.SetNextUnique(next)
			}
			b.AddOutput(c)
		} else {
			b.AddOutput(first)
		}
		for i, c := range cs {
			s, _ := e.env.lookup(c.name)
			v, ok := s.(*ir.Value)
			if !ok {
				return e.f.errorf(at, "loop variable %s is no longer a value at the end of the loop", c.name)
			}
			u, ok := types.Unify(c.init.Type, v.Type)
			if !ok {
				return e.f.errorf(at, "loop variable %s has type %s before the loop and %s at the end of the body", c.name, c.init.Type, v.Type)
			}
			if !types.Equal(u, params[i].Type) {
				params[i].Type = u
			}
			b.AddOutput(v)
		}
		return nil
	})
	_ = frame
	if err != nil {
		return err
	}
	next = e.g.NextUnique()
	for i, c := range cs {
		out := n.AddOutput(params[i].Type)
		e.env.set(c.name, out) // named by convertToSSA
	}
	e.g.SetNextUnique(next)
	return nil
}

func (e *emitter) assert(st *syntax.Assert) error {
	c, err := e.cond(st.Test)
	if err != nil {
		return err
	}
	n := e.insert("prim::If", []*ir.Value{c})
	e.setSource(n, st)
	n.AddBlock()
	fb := n.AddBlock()
	_, err = e.withBlock(fb, func() error {
		msg := e.constant("AssertionError: ", types.Str)
		if st.Msg != nil {
			m, err := e.exprValue(st.Msg, nil)
			if err != nil {
				return err
			}
			if m.Type != types.Str {
				if m, err = e.castTo(st.Msg, m, types.Str); err != nil {
					return err
				}
			}
			out, err := e.builtin(st, "aten", "add", []nv{{v: msg}, {v: m}}, nil, nil)
			if err != nil {
				return err
			}
			msg = out.(*ir.Value)
		}
		_, err := e.builtin(st, "prim", "RaiseException", []nv{{v: msg}}, nil, nil)
		return err
	})
	return err
}

func (e *emitter) raise(st *syntax.Raise) error {
	msg := e.constant("Exception", types.Str)
	if st.Exc != nil {
		if call, ok := syntax.Unparen(st.Exc).(*syntax.Call); ok && len(call.Args) == 1 {
			m, err := e.exprValue(call.Args[0], nil)
			if err != nil {
				return err
			}
			if m.Type == types.Str {
				msg = m
			}
		}
	}
	_, err := e.builtin(st, "prim", "RaiseException", []nv{{v: msg}}, nil, nil)
	return err
}

// maxLowered bounds the statements lowerReturns may produce for one
// function.
const maxLowered = 1 << 16

// retVar holds a function's return value while its body compiles (not a
// valid identifier, so no variable of the code can clash with it).
const retVar = "$return"

// returns reports whether a statement list contains a return.
func hasReturn(ss []syntax.Stmt) bool {
	for _, s := range ss {
		switch st := s.(type) {
		case *syntax.Return:
			return true
		case *syntax.If:
			if hasReturn(st.Body) || hasReturn(st.Else) {
				return true
			}
		case *syntax.While:
			if hasReturn(st.Body) {
				return true
			}
		case *syntax.For:
			if hasReturn(st.Body) {
				return true
			}
		}
	}
	return false
}

// lowerReturns rewrites the returns of a body into assignments of retVar,
// as PyTorch's exit transforms: `if c: return a` followed by more code
// becomes `if c: $return = a else: <more code>`. exits reports whether
// every path assigns retVar. Returns inside loops are refused.
func (e *emitter) lowerReturns(ss []syntax.Stmt) (out []syntax.Stmt, exits bool, err error) {
	// moving the rest of a body into branches copies it: a budget keeps
	// hostile nestings from growing it exponentially
	e.lowered += len(ss)
	if e.lowered > maxLowered {
		return nil, false, e.f.errorf(e.fn.def, "%s is too large once its returns are lowered", e.fn.Qualified)
	}
	for i, s := range ss {
		switch st := s.(type) {
		case *syntax.Return:
			var v syntax.Expr = &syntax.NoneLit{At: st.ReturnPos}
			if st.Value != nil {
				v = st.Value
			}
			out = append(out, &syntax.Assign{Target: &syntax.Name{NamePos: st.ReturnPos, Name: retVar}, Value: v})
			return out, true, nil
		case *syntax.While:
			if hasReturn(st.Body) {
				return nil, false, e.f.errorf(st, "a return inside a loop is not supported")
			}
		case *syntax.For:
			if hasReturn(st.Body) {
				return nil, false, e.f.errorf(st, "a return inside a loop is not supported")
			}
		case *syntax.If:
			if !hasReturn(st.Body) && !hasReturn(st.Else) {
				break
			}
			rest := ss[i+1:]
			body, bexit, err := e.lowerReturns(st.Body)
			if err != nil {
				return nil, false, err
			}
			els, eexit, err := e.lowerReturns(st.Else)
			if err != nil {
				return nil, false, err
			}
			if len(rest) > 0 {
				if !bexit {
					r, x, err := e.lowerReturns(append(append([]syntax.Stmt(nil), body...), rest...))
					if err != nil {
						return nil, false, err
					}
					body, bexit = r, x
				}
				if !eexit {
					r, x, err := e.lowerReturns(append(append([]syntax.Stmt(nil), els...), rest...))
					if err != nil {
						return nil, false, err
					}
					els, eexit = r, x
				}
			}
			out = append(out, &syntax.If{IfPos: st.IfPos, Cond: st.Cond, Body: body, Else: els})
			return out, bexit && eexit, nil
		}
		out = append(out, s)
	}
	return out, false, nil
}

// with emits `with a as x, b: body` as ir_emitter's emitWith: prim::Enter
// of each object (typed as its __enter__ returns; x names it), the body
// inline, then prim::Exit of each in reverse order.
func (e *emitter) with(st *syntax.With) error {
	var entered []*ir.Value
	for _, it := range st.Items {
		v, err := e.exprValue(it.X, nil)
		if err != nil {
			return err
		}
		ct, ok := v.Type.(*types.Class)
		if !ok {
			return e.f.errorf(it.X, "a with item must be an object, got %s", v.Type)
		}
		c, err := e.f.cu.class(ct.Name)
		if err != nil {
			return e.f.errorf(it.X, "%v", err)
		}
		enter, ok1 := c.Method("__enter__")
		_, ok2 := c.Method("__exit__")
		if !ok1 || !ok2 {
			return e.f.errorf(it.X, "class %s has no __enter__ and __exit__", ct.Name)
		}
		rt := enter.Returns
		if rt == nil {
			rt = types.None
		}
		n := e.insert("prim::Enter", []*ir.Value{v}, rt)
		e.setSource(n, it)
		entered = append(entered, v)
		if it.Var != nil {
			if err := e.assignTo(it.Var, it.X, n.Output()); err != nil {
				return err
			}
		}
	}
	if err := e.stmts(st.Body); err != nil {
		return err
	}
	for i := len(entered) - 1; i >= 0; i-- {
		// graph->create(prim::Exit) gives the node one output, typed Tensor
		n := e.insert("prim::Exit", []*ir.Value{entered[i]}, types.Tensor)
		e.setSource(n, st)
	}
	return nil
}
