package frontend

import (
	"strings"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// nv is a call argument: its value, its keyword name ("" for a positional
// one) and where it was written.
type nv struct {
	name string
	v    *ir.Value
	at   syntax.Node
}

func (e *emitter) call(c *syntax.Call, hint types.Type) (sugared, error) {
	fun, err := e.expr(c.Fun, nil)
	if err != nil {
		return nil, err
	}
	if sf, ok := fun.(specialForm); ok {
		return e.specialForm(c, sf.name, hint)
	}
	if nv, ok := fun.(newValue); ok {
		// __torch__.C.__new__(__torch__.C): prim::CreateObject; the code
		// then calls (obj).__init__(...)
		if len(c.Args) != 1 || dottedName(c.Args[0]) != nv.c.Type.Name {
			return nil, e.f.errorf(c, "%s.__new__ takes the class itself", nv.c.Type.Name)
		}
		n := e.insert("prim::CreateObject", nil, nv.c.Type)
		e.setSource(n, c)
		return n.Output(), nil
	}
	args := make([]nv, 0, len(c.Args))
	for _, a := range c.Args {
		if _, ok := a.(*syntax.Starred); ok {
			return nil, e.f.errorf(a, "starred arguments are not supported")
		}
		v, err := e.exprValue(a, nil)
		if err != nil {
			return nil, err
		}
		args = append(args, nv{v: v, at: a})
	}
	kwargs := make([]nv, 0, len(c.Keywords))
	for _, k := range c.Keywords {
		v, err := e.exprValue(k.Value, nil)
		if err != nil {
			return nil, err
		}
		kwargs = append(kwargs, nv{name: k.Name, v: v, at: k})
	}
	switch f := fun.(type) {
	case builtinFn:
		var self *ir.Value
		if f.self != nil {
			self = f.self
		}
		return e.builtin(c, f.ns, f.name, args, kwargs, self)
	case castValue:
		if len(args) == 1 && len(kwargs) == 0 {
			if !strings.HasPrefix(f.op, "prim::") {
				e.g.Phantom("") // CastValue's zero constant
			}
			if types.Equal(args[0].v.Type, f.t) {
				return args[0].v, nil
			}
		}
		ns, name := "aten", f.op
		if strings.HasPrefix(f.op, "prim::") {
			ns, name = "prim", strings.TrimPrefix(f.op, "prim::")
		}
		return e.builtin(c, ns, name, args, kwargs, nil)
	case fnValue:
		return e.callFunction(c, f.fn, nil, args, kwargs)
	case methodValue:
		return e.callFunction(c, f.fn, f.self, args, kwargs)
	case classValue:
		return nil, e.f.errorf(c, "constructing an object of class %s is not supported", f.c.Type.Name)
	case typeValue:
		if tt, ok := f.t.(*types.Tuple); ok {
			return e.construct(c, tt, args, kwargs)
		}
	}
	return nil, e.f.errorf(c, "%s is not callable", describe(fun))
}

// callFunction emits prim::CallMethod (with self) or prim::CallFunction
// for a function of the archive, matching the arguments against its
// signature.
func (e *emitter) callFunction(c *syntax.Call, fn *Function, self *ir.Value, args, kwargs []nv) (sugared, error) {
	s := &callSig{name: fn.Qualified, returns: []types.Type{fn.Returns}}
	params := fn.Params
	if self != nil {
		params = params[1:]
	}
	for _, p := range params {
		f := formal{name: p.Name, t: p.Type, kwOnly: p.KwargOnly}
		if p.HasDefault {
			d := p.Default
			f.def = &d
		}
		s.formals = append(s.formals, f)
	}
	// the callee is compiled first, as PyTorch's ensure_defined: its
	// errors (and recursion) are the caller's, and an undeclared return
	// type is inferred
	if !fn.abstract {
		if _, err := fn.compile(); err != nil {
			return nil, err
		}
	}
	s.returns = []types.Type{fn.Returns}
	m, err := e.matchAll(c, []*callSig{s}, args, kwargs, nil)
	if err != nil {
		return nil, err
	}
	ins, err := e.materialize(m)
	if err != nil {
		return nil, err
	}
	var n *ir.Node
	if self != nil {
		n = e.insert("prim::CallMethod", append([]*ir.Value{self}, ins...), fn.Returns)
		n.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: fn.Name})
	} else {
		fv, _ := e.asValue(c, fnValue{fn})
		n = e.insert("prim::CallFunction", append([]*ir.Value{fv}, ins...), fn.Returns)
	}
	e.setSource(n, c)
	return n.Output(), nil
}

// typeArg parses the type argument of annotate, unchecked_cast,
// uninitialized and isinstance.
func (e *emitter) typeArg(c *syntax.Call, i int) (types.Type, error) {
	if i >= len(c.Args) {
		return nil, e.f.errorf(c, "missing type argument")
	}
	return e.f.parseType(c.Args[i])
}

func (e *emitter) specialForm(c *syntax.Call, name string, hint types.Type) (sugared, error) {
	nargs := func(n int) error {
		if len(c.Args) != n || len(c.Keywords) > 0 {
			return e.f.errorf(c, "%s takes %d positional arguments", name, n)
		}
		return nil
	}
	switch name {
	case "fork":
		return e.fork(c) // fork.go
	case "annotate":
		if err := nargs(2); err != nil {
			return nil, err
		}
		t, err := e.typeArg(c, 0)
		if err != nil {
			return nil, err
		}
		v, err := e.exprValue(c.Args[1], t)
		if err != nil {
			return nil, err
		}
		return e.convertTo(c.Args[1], v, t, "annotate")
	case "unchecked_cast":
		if err := nargs(2); err != nil {
			return nil, err
		}
		t, err := e.typeArg(c, 0)
		if err != nil {
			return nil, err
		}
		v, err := e.exprValue(c.Args[1], nil)
		if err != nil {
			return nil, err
		}
		// no nested casts: a refinement may have made the same one
		if p := v.Node(); p != nil && p.Kind == "prim::unchecked_cast" && types.Equal(v.Type, t) {
			return v, nil
		}
		n := e.insert("prim::unchecked_cast", []*ir.Value{v}, t)
		e.setSource(n, c)
		return n.Output(), nil
	case "uninitialized":
		if err := nargs(1); err != nil {
			return nil, err
		}
		t, err := e.typeArg(c, 0)
		if err != nil {
			return nil, err
		}
		n := e.insert("prim::Uninitialized", nil, t)
		e.setSource(n, c)
		return n.Output(), nil
	case "isinstance":
		if err := nargs(2); err != nil {
			return nil, err
		}
		v, err := e.exprValue(c.Args[0], nil)
		if err != nil {
			return nil, err
		}
		var ts []types.Type
		if tup, ok := syntax.Unparen(c.Args[1]).(*syntax.TupleExpr); ok {
			for _, x := range tup.Elts {
				t, err := e.f.parseType(x)
				if err != nil {
					return nil, err
				}
				ts = append(ts, t)
			}
		} else {
			t, err := e.typeArg(c, 1)
			if err != nil {
				return nil, err
			}
			ts = append(ts, t)
		}
		for _, t := range ts {
			if types.IsSubtype(v.Type, t) {
				return e.constant(true, types.Bool), nil
			}
		}
		maybe := false
		for _, t := range ts {
			if types.IsSubtype(t, v.Type) {
				maybe = true
			}
		}
		if !maybe {
			return e.constant(false, types.Bool), nil
		}
		n := e.insert("prim::isinstance", []*ir.Value{v}, types.Bool)
		n.SetAttr(ir.Attr{Name: "types", Kind: ir.AttrTypes, Value: ts})
		e.setSource(n, c)
		return n.Output(), nil
	case "getattr":
		if len(c.Args) != 2 || len(c.Keywords) > 0 {
			return nil, e.f.errorf(c, "getattr takes 2 arguments here")
		}
		s, ok := syntax.Unparen(c.Args[1]).(*syntax.StringLit)
		if !ok {
			return nil, e.f.errorf(c.Args[1], "getattr's name must be a string literal")
		}
		base, err := e.expr(c.Args[0], nil)
		if err != nil {
			return nil, err
		}
		return e.attr(&syntax.Attribute{X: c.Args[0], Name: s.Value, NamePos: s.ValuePos}, base, s.Value)
	case "hasattr":
		if err := nargs(2); err != nil {
			return nil, err
		}
		s, ok := syntax.Unparen(c.Args[1]).(*syntax.StringLit)
		if !ok {
			return nil, e.f.errorf(c.Args[1], "hasattr's name must be a string literal")
		}
		v, err := e.exprValue(c.Args[0], nil)
		if err != nil {
			return nil, err
		}
		cls, ok := v.Type.(*types.Class)
		if !ok {
			return nil, e.f.errorf(c, "hasattr needs an object")
		}
		_, _, has := cls.Attr(s.Value)
		if !has {
			if cl, err := e.f.cu.class(cls.Name); err == nil {
				_, has = cl.Method(s.Value)
			}
		}
		return e.constant(has, types.Bool), nil
	case "tuple":
		if err := nargs(1); err != nil {
			return nil, err
		}
		v, err := e.exprValue(c.Args[0], nil)
		if err != nil {
			return nil, err
		}
		if _, ok := v.Type.(*types.Tuple); ok {
			return v, nil
		}
		return nil, e.f.errorf(c, "tuple() of a %s is not supported", v.Type)
	case "list":
		if len(c.Args) == 0 {
			t := hint
			if t == nil {
				t = &types.List{Elem: types.Tensor}
			}
			n := e.insert("prim::ListConstruct", nil, t)
			return n.Output(), nil
		}
		if err := nargs(1); err != nil {
			return nil, err
		}
		v, err := e.exprValue(c.Args[0], nil)
		if err != nil {
			return nil, err
		}
		if tt, ok := v.Type.(*types.Tuple); ok {
			// list(tuple): an empty list, the tuple unpacked, each element
			// appended, as ir_emitter's emitListComprehension over a tuple
			elem, ok := types.UnifyList(tt.Elems)
			if !ok || len(tt.Elems) == 0 {
				return nil, e.f.errorf(c, "list() of a tuple of mixed types %s", v.Type)
			}
			l := e.insert("prim::ListConstruct", nil, &types.List{Elem: elem})
			u := e.insert("prim::TupleUnpack", []*ir.Value{v}, tt.Elems...)
			for _, o := range u.Outputs {
				if _, err := e.builtin(c, "aten", "append", []nv{{v: l.Output()}, {v: o}}, nil, nil); err != nil {
					return nil, err
				}
			}
			return l.Output(), nil
		}
		return e.builtin(c, "aten", "list", []nv{{v: v, at: c.Args[0]}}, nil, nil)
	case "dict":
		if len(c.Args) == 0 && len(c.Keywords) == 0 {
			t := hint
			if t == nil {
				t = &types.Dict{Key: types.Str, Value: types.Tensor}
			}
			n := e.insert("prim::DictConstruct", nil, t)
			return n.Output(), nil
		}
		return nil, e.f.errorf(c, "dict() with arguments is not supported")
	}
	return nil, e.f.errorf(c, "%s is not supported here", name)
}

// builtin emits a call of the operator ns::name (`torch.add(x, y)`,
// `ops.prim.NumToTensor(x)`), choosing the overload as TorchScript's
// matchSchemas: the overloads in registry order, first without implicit
// conversions, then with them.
func (e *emitter) builtin(at syntax.Node, ns, name string, args, kwargs []nv, self *ir.Value) (sugared, error) {
	opsList := overloads(e.f.cu.reg, ns, name)
	var sigs []*callSig
	for _, o := range opsList {
		s := opSig(o)
		if u := e.f.cu.upgraderFor(o); u != nil && !e.f.current {
			us, err := e.f.cu.upgraderSig(o, u)
			if err != nil {
				return nil, e.f.errorf(at, "%v", err)
			}
			s = us
		}
		if s == nil {
			continue
		}
		sigs = append(sigs, s)
	}
	// TorchScript's builtin functions come after the registered operators
	if !e.f.current {
		for _, fn := range e.f.cu.builtinFuncs(ns, name) {
			sigs = append(sigs, funcSig(fn))
		}
	}
	if len(sigs) == 0 {
		return nil, e.f.errorf(at, "unknown builtin op %s::%s", ns, name)
	}
	m, err := e.matchAll(at, sigs, args, kwargs, self)
	if err != nil {
		return nil, err
	}
	ins, err := e.materialize(m)
	if err != nil {
		return nil, err
	}
	if fn := m.sig.inline; fn != nil {
		g, err := fn.compile()
		if err != nil {
			return nil, e.f.errorf(at, "builtin function %s: %v", fn.Name, err)
		}
		return e.inline(at, g, ins)
	}
	if u := m.sig.upgrader; u != nil {
		g, err := e.f.cu.upgraderGraph(u)
		if err != nil {
			return nil, e.f.errorf(at, "upgrader %s of %s: %v", u.Name, u.Op, err)
		}
		return e.inlineUpgrader(at, g, ins)
	}
	n := e.insert(ns+"::"+name, ins, m.returns...)
	n.Op = m.sig.op
	e.setSource(n, at)
	e.f.cu.normalizeOp(n)
	if len(n.Outputs) == 1 {
		return n.Output(), nil
	}
	if len(n.Outputs) == 0 {
		return e.constant(nil, types.None), nil
	}
	ts := make([]types.Type, len(n.Outputs))
	for i, o := range n.Outputs {
		ts[i] = o.Type
	}
	t := e.insert("prim::TupleConstruct", n.Outputs, &types.Tuple{Elems: ts})
	return t.Output(), nil
}
