package frontend

import (
	"fmt"
	"math"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// sugared is what an expression denotes: an *ir.Value, or one of the
// "sugared" values of ir_emitter (a module of builtins, a function, a
// method of an object, a special form).
type sugared any

type (
	// builtinModule is `torch` (aten) or `ops.<ns>`.
	builtinModule struct{ ns string }
	// opsRoot is `ops`.
	opsRoot struct{}
	// constTable is `CONSTANTS`.
	constTable struct{}
	// qualName is a partial qualified name (`__torch__.torch.nn`).
	qualName struct{ name string }
	// fnValue is a free function of the archive.
	fnValue struct{ fn *Function }
	// methodValue is a bound method of an object of the archive.
	methodValue struct {
		self *ir.Value
		fn   *Function
	}
	// builtinFn is an operator name with an optional bound self
	// (`torch.add`, `x.add`).
	builtinFn struct {
		ns, name string
		self     *ir.Value
	}
	// specialForm is a name the emitter handles itself (annotate, range,
	// getattr, ...).
	specialForm struct{ name string }
	// castValue is int, float, bool, str, complex.
	castValue struct {
		t  types.Type
		op string
	}
	// classValue is a class of the archive used as a value.
	classValue struct{ c *Class }
	// typeValue is a NamedTuple or enum of the archive used as a value.
	typeValue struct{ t types.Type }
	// newValue is `C.__new__`, which creates an uninitialized object.
	newValue struct{ c *Class }
)

func describe(s sugared) string {
	switch x := s.(type) {
	case *ir.Value:
		return "a value of type " + x.Type.String()
	case builtinModule:
		return "the builtin module " + x.ns
	case opsRoot:
		return "ops"
	case constTable:
		return "CONSTANTS"
	case qualName:
		return x.name
	case fnValue:
		return "the function " + x.fn.Qualified
	case methodValue:
		return "the method " + x.fn.Qualified
	case builtinFn:
		return "the builtin " + x.ns + "::" + x.name
	case specialForm:
		return x.name
	case castValue:
		return x.t.String()
	case classValue:
		return "the class " + x.c.Type.Name
	case typeValue:
		return "the type " + x.t.String()
	}
	return fmt.Sprintf("%T", s)
}

// globals are the names ir_emitter's environment and import_source's
// resolver know.
var globals = map[string]sugared{
	"torch":          builtinModule{"aten"},
	"ops":            opsRoot{},
	"CONSTANTS":      constTable{},
	"annotate":       specialForm{"annotate"},
	"unchecked_cast": specialForm{"unchecked_cast"},
	"uninitialized":  specialForm{"uninitialized"},
	"fork":           specialForm{"fork"},
	"awaitable":      specialForm{"awaitable"},
	"getattr":        specialForm{"getattr"},
	"hasattr":        specialForm{"hasattr"},
	"isinstance":     specialForm{"isinstance"},
	"range":          specialForm{"range"},
	"enumerate":      specialForm{"enumerate"},
	"zip":            specialForm{"zip"},
	"tuple":          specialForm{"tuple"},
	"list":           specialForm{"list"},
	"dict":           specialForm{"dict"},
	"print":          builtinFn{ns: "prim", name: "Print"},
	"int":            castValue{types.Int, "Int"},
	"float":          castValue{types.Float, "Float"},
	"bool":           castValue{types.Bool, "Bool"},
	"str":            castValue{types.Str, "str"},
	"complex":        castValue{types.Complex, "Complex"},
	"_to_tensor":     castValue{types.Tensor, "prim::NumToTensor"},
	"len":            builtinFn{ns: "aten", name: "len"},
	"hex":            builtinFn{ns: "aten", name: "hex"},
	"oct":            builtinFn{ns: "aten", name: "oct"},
	"round":          builtinFn{ns: "aten", name: "round"},
	"hash":           builtinFn{ns: "aten", name: "hash"},
	"id":             builtinFn{ns: "prim", name: "id"},
	"min":            builtinFn{ns: "prim", name: "min"},
	"max":            builtinFn{ns: "prim", name: "max"},
	"abs":            builtinFn{ns: "prim", name: "abs"},
	"all":            builtinFn{ns: "aten", name: "all"},
	"any":            builtinFn{ns: "aten", name: "any"},
	"divmod":         builtinFn{ns: "aten", name: "divmod"},
	"sum":            builtinFn{ns: "aten", name: "sum"},
	"ord":            builtinFn{ns: "aten", name: "ord"},
	"chr":            builtinFn{ns: "aten", name: "chr"},
	"bin":            builtinFn{ns: "aten", name: "bin"},
	"pow":            builtinFn{ns: "aten", name: "pow"},
	"rangelist":      builtinFn{ns: "prim", name: "rangelist"},
	"sorted":         builtinFn{ns: "aten", name: "sorted"},
}

// binaryOps maps Python's operators to ATen names.
var binaryOps = map[string]string{
	"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floordiv", "%": "remainder",
	"**": "pow", "@": "matmul", "&": "__and__", "|": "__or__", "^": "__xor__",
	"<<": "__lshift__", ">>": "__rshift__", "==": "eq", "!=": "ne", "<": "lt", "<=": "le",
	">": "gt", ">=": "ge", "is": "__is__", "is not": "__isnot__",
}

func (e *emitter) exprValue(x syntax.Expr, hint types.Type) (*ir.Value, error) {
	s, err := e.expr(x, hint)
	if err != nil {
		return nil, err
	}
	return e.asValue(x, s)
}

// asValue turns a sugared value into an IR value: a function becomes a
// Function constant.
func (e *emitter) asValue(at syntax.Node, s sugared) (*ir.Value, error) {
	switch x := s.(type) {
	case *ir.Value:
		return x, nil
	case fnValue:
		n := e.insert("prim::Constant", nil, types.Function)
		// PyTorch prints the function's short name; the value keeps the
		// qualified one for Callee
		n.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: x.fn.Qualified, Text: ir.QuoteString(x.fn.Name)})
		return n.Output(), nil
	}
	return nil, e.f.errorf(at, "%s cannot be used as a value", describe(s))
}

func (e *emitter) expr(x syntax.Expr, hint types.Type) (sugared, error) {
	e.depth++
	defer func() { e.depth-- }()
	if e.depth > 200 {
		return nil, e.f.errorf(x, "expression nested too deeply")
	}
	switch t := x.(type) {
	case *syntax.ParenExpr:
		return e.expr(t.X, hint)
	case *syntax.Name:
		if v, ok := e.env.lookup(t.Name); ok {
			if val, isVal := v.(*ir.Value); isVal && e.loaded != t {
				e.lastLoad, e.lastLoaded = e.load(t.Name), val
			}
			return v, nil
		}
		switch t.Name {
		case "__torch__":
			return qualName{t.Name}, nil
		case "inf":
			return e.constant(math.Inf(1), types.Float), nil
		case "nan":
			return e.constant(math.NaN(), types.Float), nil
		}
		if g, ok := globals[t.Name]; ok {
			return g, nil
		}
		return nil, e.f.errorf(t, "undefined name %s", t.Name)
	case *syntax.IntLit:
		if t.Value > math.MaxInt64 {
			return nil, e.f.errorf(t, "integer literal %s is out of range", t.Raw)
		}
		return e.literal(t, int64(t.Value), types.Int), nil
	case *syntax.FloatLit:
		return e.literal(t, t.Value, types.Float), nil
	case *syntax.StringLit:
		return e.constantAt(t, t.Value, types.Str), nil
	case *syntax.ImagLit:
		return e.literal(t, complex(0, t.Value), types.Complex), nil
	case *syntax.BoolLit:
		return e.constantAt(t, t.Value, types.Bool), nil
	case *syntax.NoneLit:
		return e.constantAt(t, nil, types.None), nil
	case *syntax.Attribute:
		base, err := e.expr(t.X, nil)
		if err != nil {
			return nil, err
		}
		return e.attr(t, base, t.Name)
	case *syntax.Call:
		return e.call(t, hint)
	case *syntax.TupleExpr:
		var hints []types.Type
		if tt, ok := hint.(*types.Tuple); ok && len(tt.Elems) == len(t.Elts) {
			hints = tt.Elems
		}
		vals := make([]*ir.Value, len(t.Elts))
		ts := make([]types.Type, len(t.Elts))
		for i, el := range t.Elts {
			var h types.Type
			if hints != nil {
				h = hints[i]
			}
			v, err := e.exprValue(el, h)
			if err != nil {
				return nil, err
			}
			vals[i], ts[i] = v, v.Type
		}
		// no source range: emitSimpleExpr's createTuple has none
		n := e.insert("prim::TupleConstruct", vals, &types.Tuple{Elems: ts})
		return n.Output(), nil
	case *syntax.ListExpr:
		return e.listLiteral(t, hint)
	case *syntax.DictExpr:
		return e.dictLiteral(t, hint)
	case *syntax.UnaryExpr:
		return e.unary(t)
	case *syntax.BinaryExpr:
		return e.binary(t)
	case *syntax.CondExpr:
		return e.ternary(t, hint)
	case *syntax.Subscript:
		return e.subscript(t)
	}
	return nil, e.f.errorf(x, "unsupported expression %T", x)
}

func (e *emitter) listLiteral(t *syntax.ListExpr, hint types.Type) (sugared, error) {
	if o, ok := hint.(*types.Optional); ok {
		hint = o.Elem
	}
	var elem types.Type
	if lt, ok := hint.(*types.List); ok {
		elem = lt.Elem
	}
	vals := make([]*ir.Value, len(t.Elts))
	for i, x := range t.Elts {
		v, err := e.exprValue(x, elem)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	if elem == nil {
		if len(vals) == 0 {
			elem = types.Tensor
		} else {
			ts := make([]types.Type, len(vals))
			for i, v := range vals {
				ts[i] = v.Type
			}
			u, ok := types.UnifyList(ts)
			if !ok {
				return nil, e.f.errorf(t, "list literal has elements of different types (%s, ...)", joinTypes(ts))
			}
			elem = u
		}
	}
	for i, v := range vals {
		c, err := e.convertTo(t.Elts[i], v, elem, "list element")
		if err != nil {
			return nil, err
		}
		vals[i] = c
	}
	if elem.Kind() == types.TensorKind {
		elem = types.Tensor
	}
	// no source range: emitListLiteral's createList has none
	n := e.insert("prim::ListConstruct", vals, &types.List{Elem: elem})
	return n.Output(), nil
}

func joinTypes(ts []types.Type) string {
	s := make([]string, len(ts))
	for i, t := range ts {
		s[i] = t.String()
	}
	return strings.Join(s, ", ")
}

func (e *emitter) dictLiteral(t *syntax.DictExpr, hint types.Type) (sugared, error) {
	if o, ok := hint.(*types.Optional); ok {
		hint = o.Elem
	}
	var kt, vt types.Type
	if dt, ok := hint.(*types.Dict); ok {
		kt, vt = dt.Key, dt.Value
	}
	keys := make([]*ir.Value, len(t.Keys))
	vals := make([]*ir.Value, len(t.Values))
	for i := range t.Keys {
		k, err := e.exprValue(t.Keys[i], kt)
		if err != nil {
			return nil, err
		}
		v, err := e.exprValue(t.Values[i], vt)
		if err != nil {
			return nil, err
		}
		keys[i], vals[i] = k, v
	}
	unifyOr := func(vs []*ir.Value, def types.Type, what string) (types.Type, error) {
		if len(vs) == 0 {
			return def, nil
		}
		ts := make([]types.Type, len(vs))
		for i, v := range vs {
			ts[i] = v.Type
		}
		u, ok := types.UnifyList(ts)
		if !ok {
			return nil, e.f.errorf(t, "dict literal has %s of different types (%s)", what, joinTypes(ts))
		}
		return u, nil
	}
	var err error
	if kt == nil {
		if kt, err = unifyOr(keys, types.Str, "keys"); err != nil {
			return nil, err
		}
	}
	if vt == nil {
		if vt, err = unifyOr(vals, types.Tensor, "values"); err != nil {
			return nil, err
		}
	}
	var ins []*ir.Value
	for i := range keys {
		k, err := e.convertTo(t.Keys[i], keys[i], kt, "dict key")
		if err != nil {
			return nil, err
		}
		v, err := e.convertTo(t.Values[i], vals[i], vt, "dict value")
		if err != nil {
			return nil, err
		}
		ins = append(ins, k, v)
	}
	// no source range: emitDictLiteral's createDict has none
	n := e.insert("prim::DictConstruct", ins, &types.Dict{Key: kt, Value: vt})
	return n.Output(), nil
}

// cond emits a condition: a bool, or bool(x) for other types.
func (e *emitter) cond(x syntax.Expr) (*ir.Value, error) {
	v, err := e.exprValue(x, types.Bool)
	if err != nil {
		return nil, err
	}
	if toBool(x) {
		e.g.Phantom("") // CastValue's zero constant
	}
	if v.Type == types.Bool {
		return v, nil
	}
	return e.castTo(x, v, types.Bool)
}

// castTo applies int(), float(), bool(), str() as CastValue does: the
// value itself when it already has the type, else aten::Int, aten::Float,
// aten::Bool, aten::str.
func (e *emitter) castTo(at syntax.Node, v *ir.Value, t types.Type) (*ir.Value, error) {
	if types.Equal(v.Type, t) {
		return v, nil
	}
	name := map[types.Type]string{types.Int: "Int", types.Float: "Float", types.Bool: "Bool", types.Str: "str", types.Complex: "Complex"}[t]
	if name == "" {
		return nil, e.f.errorf(at, "cannot cast to %s", t)
	}
	out, err := e.builtin(at, "aten", name, []nv{{v: v, at: at}}, nil, nil)
	if err != nil {
		return nil, err
	}
	return out.(*ir.Value), nil
}

func (e *emitter) unary(t *syntax.UnaryExpr) (sugared, error) {
	switch t.Op {
	case "not":
		c, err := e.cond(t.X)
		if err != nil {
			return nil, err
		}
		return e.builtin(t, "aten", "__not__", []nv{{v: c, at: t.X}}, nil, nil)
	case "+":
		return e.exprValue(t.X, nil)
	case "-":
		// the parser folds a minus into a number literal (parseExp), the
		// range staying the number's
		switch x := syntax.Unparen(t.X).(type) {
		case *syntax.IntLit:
			if x.Value <= 1<<63 {
				return e.literal(x, int64(-x.Value), types.Int), nil
			}
		case *syntax.FloatLit:
			return e.literal(x, -x.Value, types.Float), nil
		}
	}
	v, err := e.exprValue(t.X, nil)
	if err != nil {
		return nil, err
	}
	if t.Op == "-" {
		// constant folding of a negated literal, as emitUnaryOp: the
		// aten::neg it runs is dropped, a new constant takes its place
		if n := v.Node(); n != nil && n.Kind == "prim::Constant" {
			if a, ok := n.Attr("value"); ok {
				switch x := a.Value.(type) {
				case int64:
					if v.Type == types.Int {
						e.g.Phantom("")
						return e.constantAt(t, -x, types.Int), nil
					}
				case float64:
					e.g.Phantom("")
					return e.constantAt(t, -x, types.Float), nil
				}
			}
		}
		return e.builtin(t, "aten", "neg", []nv{{v: v, at: t.X}}, nil, nil)
	}
	if t.Op == "~" {
		return e.builtin(t, "aten", "bitwise_not", []nv{{v: v, at: t.X}}, nil, nil)
	}
	return nil, e.f.errorf(t, "unsupported unary operator %s", t.Op)
}

func (e *emitter) binary(t *syntax.BinaryExpr) (sugared, error) {
	switch t.Op {
	case "and", "or":
		return e.shortCircuit(t)
	case "in", "not in":
		l, err := e.exprValue(t.X, nil)
		if err != nil {
			return nil, err
		}
		r, err := e.exprValue(t.Y, nil)
		if err != nil {
			return nil, err
		}
		out, err := e.builtin(t, "aten", "__contains__", []nv{{v: r, at: t.Y}, {v: l, at: t.X}}, nil, nil)
		if err != nil || t.Op == "in" {
			return out, err
		}
		return e.builtin(t, "aten", "__not__", []nv{{v: out.(*ir.Value)}}, nil, nil)
	}
	name, ok := binaryOps[t.Op]
	if !ok {
		return nil, e.f.errorf(t, "unsupported operator %s", t.Op)
	}
	l, err := e.exprValue(t.X, nil)
	if err != nil {
		return nil, err
	}
	r, err := e.exprValue(t.Y, nil)
	if err != nil {
		return nil, err
	}
	return e.builtin(t, "aten", name, []nv{{v: l, at: t.X}, {v: r, at: t.Y}}, nil, nil)
}

// shortCircuit emits `a and b` / `a or b` as a prim::If.
func (e *emitter) shortCircuit(t *syntax.BinaryExpr) (sugared, error) {
	a, err := e.cond(t.X)
	if err != nil {
		return nil, err
	}
	n := e.insert("prim::If", []*ir.Value{a})
	e.setSource(n, t)
	tb, fb := n.AddBlock(), n.AddBlock()
	rhs := func() error {
		b, err := e.cond(t.Y)
		if err != nil {
			return err
		}
		e.env.block.AddOutput(b)
		return nil
	}
	short := func(v bool) func() error {
		return func() error { e.env.block.AddOutput(e.constant(v, types.Bool)); return nil }
	}
	first, second := rhs, short(false)
	if t.Op == "or" {
		first, second = short(true), rhs
	}
	if _, err := e.withBlock(tb, first); err != nil {
		return nil, err
	}
	if _, err := e.withBlock(fb, second); err != nil {
		return nil, err
	}
	return n.AddOutput(types.Bool), nil
}

func (e *emitter) ternary(t *syntax.CondExpr, hint types.Type) (sugared, error) {
	c, err := e.cond(t.Cond)
	if err != nil {
		return nil, err
	}
	n := e.insert("prim::If", []*ir.Value{c})
	e.setSource(n, t)
	tb, fb := n.AddBlock(), n.AddBlock()
	var tv, fv *ir.Value
	if _, err := e.withBlock(tb, func() error {
		v, err := e.exprValue(t.Then, hint)
		tv = v
		return err
	}); err != nil {
		return nil, err
	}
	if _, err := e.withBlock(fb, func() error {
		v, err := e.exprValue(t.Else, hint)
		fv = v
		return err
	}); err != nil {
		return nil, err
	}
	u, ok := types.Unify(tv.Type, fv.Type)
	if !ok {
		return nil, e.f.errorf(t, "the branches of a conditional expression have types %s and %s", tv.Type, fv.Type)
	}
	tb.AddOutput(tv)
	fb.AddOutput(fv)
	return n.AddOutput(u), nil
}

func (e *emitter) subscript(t *syntax.Subscript) (sugared, error) {
	v, err := e.exprValue(t.X, nil)
	if err != nil {
		return nil, err
	}
	if len(t.Index) != 1 {
		return nil, e.f.errorf(t, "subscript with %d indices is not supported", len(t.Index))
	}
	ix := syntax.Unparen(t.Index[0])
	if sl, ok := ix.(*syntax.Slice); ok {
		args := []nv{{v: v, at: t.X}}
		if v.Type.Kind() == types.TensorKind {
			args = append(args, nv{v: e.constant(int64(0), types.Int)})
		}
		for _, part := range []syntax.Expr{sl.Lo, sl.Hi, sl.Step} {
			if part == nil {
				if len(args) == 4 || (v.Type.Kind() != types.TensorKind && len(args) == 3) {
					args = append(args, nv{v: e.constant(int64(1), types.Int)})
				} else {
					args = append(args, nv{v: e.constant(nil, types.None)})
				}
				continue
			}
			pv, err := e.exprValue(part, types.Int)
			if err != nil {
				return nil, err
			}
			args = append(args, nv{v: pv, at: part})
		}
		return e.builtin(t, "aten", "slice", args, nil, nil)
	}
	if tt, ok := v.Type.(*types.Tuple); ok {
		iv, err := e.exprValue(ix, types.Int)
		if err != nil {
			return nil, err
		}
		k, ok := constInt(iv)
		if !ok {
			return nil, e.f.errorf(ix, "a tuple index must be a constant int")
		}
		if k < 0 {
			k += int64(len(tt.Elems))
		}
		if k < 0 || k >= int64(len(tt.Elems)) {
			return nil, e.f.errorf(ix, "tuple index %d out of range for a tuple of %d elements", k, len(tt.Elems))
		}
		if p := v.Node(); p != nil && p.Kind == "prim::TupleConstruct" {
			return p.Inputs[k], nil
		}
		n := e.insert("prim::TupleIndex", []*ir.Value{v, iv}, tt.Elems[k])
		e.setSource(n, t)
		return n.Output(), nil
	}
	iv, err := e.exprValue(ix, nil)
	if err != nil {
		return nil, err
	}
	if v.Type.Kind() == types.TensorKind {
		switch iv.Type.Kind() {
		case types.IntKind:
			zero := e.constant(int64(0), types.Int)
			return e.builtin(t, "aten", "select", []nv{{v: v}, {v: zero}, {v: iv, at: ix}}, nil, nil)
		case types.TensorKind:
			l := e.insert("prim::ListConstruct", []*ir.Value{iv}, &types.List{Elem: &types.Optional{Elem: types.Tensor}})
			return e.builtin(t, "aten", "index", []nv{{v: v}, {v: l.Output()}}, nil, nil)
		}
		return nil, e.f.errorf(ix, "unsupported tensor index of type %s", iv.Type)
	}
	return e.builtin(t, "aten", "__getitem__", []nv{{v: v, at: t.X}, {v: iv, at: ix}}, nil, nil)
}

// constInt returns the value of an int prim::Constant.
func constInt(v *ir.Value) (int64, bool) {
	n := v.Node()
	if n == nil || n.Kind != "prim::Constant" || v.Type != types.Int {
		return 0, false
	}
	return n.Int("value")
}

// attr resolves base.name.
func (e *emitter) attr(at *syntax.Attribute, base sugared, name string) (sugared, error) {
	switch b := base.(type) {
	case builtinModule:
		return builtinFn{ns: b.ns, name: name}, nil
	case opsRoot:
		return builtinModule{ns: name}, nil
	case constTable:
		var i int
		if _, err := fmt.Sscanf(name, "c%d", &i); err != nil || fmt.Sprintf("c%d", i) != name {
			return nil, e.f.errorf(at, "CONSTANTS has no entry %s", name)
		}
		if i < 0 || i >= len(e.f.cu.consts) {
			return nil, e.f.errorf(at, "CONSTANTS.%s: the archive has %d constants", name, len(e.f.cu.consts))
		}
		c := e.f.cu.consts[i]
		t, err := constType(c)
		if err != nil {
			return nil, e.f.errorf(at, "CONSTANTS.%s: %v", name, err)
		}
		if t.Kind() == types.TensorKind {
			// ConstantTableValue::attr: "specializing tensor type on
			// compilation messes up typing relations" (unshapedType)
			t = types.Tensor
		}
		return e.constantAt(at, c, t), nil
	case classValue:
		if name == "__new__" {
			return newValue(b), nil
		}
		// a method through its class, self passed explicitly (how the
		// serializer calls a submodule's hooks: ClassValue::attr's
		// findHook): prim::CallFunction of the method
		if m, ok := b.c.Method(name); ok {
			return fnValue{m}, nil
		}
		return nil, e.f.errorf(at, "%s has no attribute %s", describe(base), name)
	case typeValue:
		if et, ok := b.t.(*types.Enum); ok {
			return e.enumMember(at, et, name)
		}
		return nil, e.f.errorf(at, "%s has no attribute %s", describe(base), name)
	case qualName:
		q := b.name + "." + name
		if _, def, err := e.f.cu.lookupDef(q); err != nil {
			return nil, err
		} else if def != nil {
			switch d := def.(type) {
			case *syntax.ClassDef:
				if classKind(d) != "class" {
					t, err := e.f.cu.namedType(q)
					if err != nil {
						return nil, e.f.errorf(at, "%v", err)
					}
					return typeValue{t}, nil
				}
				c, err := e.f.cu.class(q)
				if err != nil {
					return nil, err
				}
				return classValue{c}, nil
			case *syntax.FuncDef:
				fn, err := e.f.cu.function(q)
				if err != nil {
					return nil, err
				}
				return fnValue{fn}, nil
			}
		}
		return qualName{q}, nil
	case *ir.Value:
		switch t := b.Type.(type) {
		case *types.Class:
			c, err := e.f.cu.class(t.Name)
			if err != nil {
				return nil, e.f.errorf(at, "%v", err)
			}
			if a, _, ok := t.Attr(name); ok {
				n := e.insert("prim::GetAttr", []*ir.Value{b}, a.Type)
				n.SetAttr(ir.Attr{Name: "name", Kind: ir.AttrString, Value: name})
				// Graph::createGetAttr names the value after the field
				// (normalizeAttrName: "_0" for "0").
				_ = n.Output().SetDebugName(attrValueName(name))
				return n.Output(), nil
			}
			if k, ok := t.Constant(name); ok {
				ct, err := constType(k.Value)
				if err != nil {
					return nil, e.f.errorf(at, "constant %s: %v", name, err)
				}
				return e.constant(k.Value, ct), nil
			}
			if m, ok := c.Method(name); ok {
				return methodValue{self: b, fn: m}, nil
			}
			return nil, e.f.errorf(at, "class %s has no attribute or method %s", t.Name, name)
		case *types.Interface:
			i, err := e.f.cu.iface(t.Name)
			if err != nil {
				return nil, e.f.errorf(at, "%v", err)
			}
			if m, ok := i.Method(name); ok {
				return methodValue{self: b, fn: m}, nil
			}
			return nil, e.f.errorf(at, "interface %s has no method %s", t.Name, name)
		case *types.Enum:
			switch name {
			case "name":
				return e.builtin(at, "prim", "EnumName", []nv{{v: b}}, nil, nil)
			case "value":
				// the overload of the enum's value type, as SimpleValue::attr
				// types prim::EnumValue's output
				out, err := e.builtin(at, "prim", "EnumValue", []nv{{v: b}}, nil, nil)
				if err != nil {
					return nil, err
				}
				v := out.(*ir.Value)
				v.Type = t.Value
				if op, ok := e.f.cu.reg.Lookup("prim::EnumValue." + t.Value.String()); ok && v.Node() != nil {
					v.Node().Op = op
				}
				return v, nil
			}
			return nil, e.f.errorf(at, "enum %s values have no attribute %s", t.Name, name)
		case *types.Tuple:
			for i, n := range t.Names {
				if n == name {
					idx := e.constant(int64(i), types.Int)
					node := e.insert("prim::TupleIndex", []*ir.Value{b, idx}, t.Elems[i])
					return node.Output(), nil
				}
			}
		}
		if b.Type.Kind() == types.TensorKind {
			switch name {
			case "dtype", "device", "is_cuda", "requires_grad", "layout", "data", "shape", "grad",
				"is_sparse", "is_mkldnn", "is_quantized", "is_meta", "is_nested", "name", "T", "H", "mT", "mH", "real", "imag":
				return e.tensorProperty(at, b, name)
			}
		}
		// a method of a builtin type: x.add(y) is aten::add(x, y)
		return builtinFn{ns: "aten", name: name, self: b}, nil
	}
	return nil, e.f.errorf(at, "%s has no attribute %s", describe(base), name)
}

// tensorProperty emits a tensor property (x.dtype, x.shape, ...), as
// TorchScript's SimpleValue::attr.
func (e *emitter) tensorProperty(at syntax.Node, v *ir.Value, name string) (sugared, error) {
	op := map[string]string{
		"dtype": "prim::dtype", "device": "prim::device", "is_cuda": "prim::is_cuda",
		"requires_grad": "prim::requires_grad", "layout": "prim::layout", "data": "prim::data",
		"shape": "aten::size", "grad": "prim::grad", "is_sparse": "prim::is_sparse",
		"is_mkldnn": "prim::is_mkldnn", "is_quantized": "prim::is_quantized", "is_meta": "prim::is_meta",
		"is_nested": "prim::is_nested", "name": "prim::name", "T": "aten::numpy_T", "H": "aten::matrix_H",
		"mT": "aten::mT", "mH": "aten::mH", "real": "aten::real", "imag": "aten::imag",
	}[name]
	ns, n, _ := strings.Cut(op, "::")
	return e.builtin(at, ns, n, []nv{{v: v}}, nil, nil)
}

// constType returns the type of a constant value.
func constType(v any) (types.Type, error) {
	switch x := v.(type) {
	case nil:
		return types.None, nil
	case int64:
		return types.Int, nil
	case float64:
		return types.Float, nil
	case bool:
		return types.Bool, nil
	case string:
		return types.Str, nil
	case complex128:
		return types.Complex, nil
	case []int64:
		return &types.List{Elem: types.Int}, nil
	case []float64:
		return &types.List{Elem: types.Float}, nil
	case []bool:
		return &types.List{Elem: types.Bool}, nil
	case []string:
		return &types.List{Elem: types.Str}, nil
	case *tensor.Tensor:
		return tensorConstType(x), nil
	case ir.Tuple:
		ts := make([]types.Type, len(x))
		for i, el := range x {
			t, err := constType(el)
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
		return &types.Tuple{Elems: ts}, nil
	case []any:
		ts := make([]types.Type, len(x))
		for i, el := range x {
			t, err := constType(el)
			if err != nil {
				return nil, err
			}
			ts[i] = t
		}
		if len(ts) == 0 {
			return &types.List{Elem: types.Tensor}, nil
		}
		u, ok := types.UnifyList(ts)
		if !ok {
			return nil, fmt.Errorf("a constant list of mixed types")
		}
		return &types.List{Elem: u}, nil
	}
	return nil, fmt.Errorf("unsupported constant of Go type %T", v)
}

// tensorConstType is the complete type PyTorch gives a tensor constant.
func tensorConstType(t *tensor.Tensor) types.Type {
	f := false
	tt := &types.TensorType{DType: scalarTypeName(t.DType()), Rank: true, RequiresGrad: &f, Device: "cpu"}
	for _, s := range t.Shape() {
		tt.Sizes = append(tt.Sizes, int64(s))
	}
	for _, s := range t.Strides() {
		tt.Strides = append(tt.Strides, int64(s))
	}
	return tt
}

// scalarTypeName is the name PyTorch prints for a dtype in a tensor type.
func scalarTypeName(d tensor.DType) string {
	switch d {
	case tensor.Float32:
		return "Float"
	case tensor.Float64:
		return "Double"
	case tensor.Float16:
		return "Half"
	case tensor.BFloat16:
		return "BFloat16"
	case tensor.Int64:
		return "Long"
	case tensor.Int32:
		return "Int"
	case tensor.Int16:
		return "Short"
	case tensor.Int8:
		return "Char"
	case tensor.Uint8:
		return "Byte"
	case tensor.Bool:
		return "Bool"
	}
	return ""
}

// constant inserts a prim::Constant of v with type t at the insert point.
func (e *emitter) constant(v any, t types.Type) *ir.Value {
	n := e.insert("prim::Constant", nil, t)
	switch x := v.(type) {
	case nil:
	case int64:
		n.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrInt, Value: x})
	case bool:
		var i int64
		if x {
			i = 1
		}
		n.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrInt, Value: i})
	case float64:
		n.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrFloat, Value: x})
	case string:
		n.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrString, Value: x})
	case complex128:
		n.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrComplex, Value: x})
	case *tensor.Tensor:
		n.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrTensor, Value: x})
	default:
		n.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrIValue, Value: v})
	}
	return n.Output()
}

// attrValueName is normalizeAttrName: a field that is a number ("0", a
// ModuleList's) names its value "_0".
func attrValueName(field string) string {
	for i := 0; i < len(field); i++ {
		if field[i] < '0' || field[i] > '9' {
			return field
		}
	}
	return "_" + field
}
