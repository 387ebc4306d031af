package frontend

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// Source returns the code of an archive's module: for
// "__torch__.torch.nn.modules.linear" the text of
// code/__torch__/torch/nn/modules/linear.py. ok is false when the archive
// has no such file.
type Source func(module string) (code []byte, ok bool)

// Options configure a CompilationUnit. The zero value is usable.
type Options struct {
	// Registry holds the operators calls resolve to; nil means
	// ops.Global().
	Registry *ops.Registry
	// Constants is the archive's constant table (constants.pkl):
	// CONSTANTS.c<i> is Constants[i]. Values are *tensor.Tensor, int64,
	// float64, bool, string, nil, complex128, or ir.Tuple/[]any of those.
	Constants []any
	// FileName maps a module to the file name errors name; nil gives
	// "code/" + the module's path + ".py".
	FileName func(module string) string
	// Version is the archive's format version (its `version` record); 0
	// means current. Calls of operators that changed after it are
	// compiled with Upgraders.
	Version int64
	// Upgraders is the table of versioned operators (from
	// torchscript/archive's Upgraders).
	Upgraders []Upgrader
}

// CompilationUnit compiles an archive's code: it finds the classes and
// functions the code defines when they are first asked for, and compiles a
// function's body to an ir.Graph when its graph is first asked for. It is
// safe for concurrent use; the graphs it returns are the unit's and
// shared (copy one before changing it).
type CompilationUnit struct {
	src    Source
	reg    *ops.Registry
	consts []any
	fname  func(string) string

	version   int64
	upgraders []Upgrader
	upSigs    map[string]*callSig
	upFuncs   map[string]*Function

	mu       sync.Mutex
	files    map[string]*fileCtx // by module, nil entry: absent
	classes  map[string]*Class
	funcs    map[string]*Function
	named    map[string]types.Type // NamedTuples, enums, interfaces
	enumVals map[string][]any
	ifaces   map[string]*Interface
}

// New returns a compilation unit reading code through src.
func New(src Source, opts *Options) *CompilationUnit {
	cu := &CompilationUnit{src: src, reg: ops.Global(), files: map[string]*fileCtx{},
		classes: map[string]*Class{}, funcs: map[string]*Function{},
		upSigs: map[string]*callSig{}, upFuncs: map[string]*Function{},
		named: map[string]types.Type{}, enumVals: map[string][]any{}, ifaces: map[string]*Interface{}}
	if opts != nil {
		cu.version = opts.Version
		cu.upgraders = append([]Upgrader(nil), opts.Upgraders...)
		if opts.Registry != nil {
			cu.reg = opts.Registry
		}
		cu.consts = opts.Constants
		cu.fname = opts.FileName
	}
	if cu.fname == nil {
		cu.fname = func(m string) string { return "code/" + strings.ReplaceAll(m, ".", "/") + ".py" }
	}
	return cu
}

// Class is a class or module of the archive's code.
type Class struct {
	// Type is the class type: qualified name, attributes in declaration
	// order (with the __parameters__ and __buffers__ marks) and constants.
	Type *types.Class
	// Methods are the class's methods in source order.
	Methods []*Function
	file    *fileCtx
	def     *syntax.ClassDef
}

// Name returns the class's qualified name.
func (c *Class) Name() string { return c.Type.Name }

// Method returns the method called name.
func (c *Class) Method(name string) (*Function, bool) {
	for _, m := range c.Methods {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// Param is a parameter of a function: its name, type and default value.
type Param struct {
	Name string
	Type types.Type
	// Default is the default value (as a prim::Constant would hold it),
	// meaningful when HasDefault.
	Default    any
	HasDefault bool
	// KwargOnly marks a parameter after a bare `*`.
	KwargOnly bool
}

// Function is a method or free function of the archive's code.
type Function struct {
	// Name is the unqualified name ("forward").
	Name string
	// Qualified is the qualified name ("__torch__.Foo.forward",
	// "__torch__.torch.nn.functional.relu").
	Qualified string
	// Owner is the class of a method, nil for a free function.
	Owner *Class
	// Params are the parameters, self included for a method.
	Params []Param
	// Returns is the declared return type.
	Returns types.Type

	file     *fileCtx
	def      *syntax.FuncDef
	graph    *ir.Graph
	err      error
	busy     bool
	declared bool
	abstract bool // an interface method: a signature without a body
}

// fileCtx is one parsed code file.
type fileCtx struct {
	cu     *CompilationUnit
	module string
	name   string
	ast    *syntax.File
	defs   map[string]syntax.Stmt // class and function definitions by name
	// current: the code is for the current operator versions (an
	// upgrader's own body), so no upgrader applies in it
	current bool
}

// Error is a compile error at a place in the archive's code.
type Error struct {
	File string
	Pos  syntax.Pos
	Msg  string
}

func (e *Error) Error() string {
	if e.Pos.IsValid() {
		return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Pos.Line, e.Pos.Col, e.Msg)
	}
	return e.File + ": " + e.Msg
}

func (f *fileCtx) errorf(n syntax.Node, format string, a ...any) error {
	var p syntax.Pos
	if n != nil {
		p = n.Pos()
	}
	return &Error{File: f.name, Pos: p, Msg: fmt.Sprintf(format, a...)}
}

// file returns the parsed file of a module, nil when the archive has none.
func (cu *CompilationUnit) file(module string) (*fileCtx, error) {
	if f, ok := cu.files[module]; ok {
		return f, nil
	}
	code, ok := cu.src(module)
	if !ok {
		cu.files[module] = nil
		return nil, nil
	}
	name := cu.fname(module)
	ast, err := syntax.Parse(name, code)
	if err != nil {
		return nil, err
	}
	f := &fileCtx{cu: cu, module: module, name: name, ast: ast, defs: map[string]syntax.Stmt{}}
	for _, s := range ast.Stmts {
		switch d := s.(type) {
		case *syntax.ClassDef:
			f.defs[d.Name] = d
		case *syntax.FuncDef:
			f.defs[d.Name] = d
		}
	}
	cu.files[module] = f
	return f, nil
}

// lookupDef finds the definition of a qualified name: the file of its
// prefix and the statement defining its last part.
func (cu *CompilationUnit) lookupDef(qualified string) (*fileCtx, syntax.Stmt, error) {
	dot := strings.LastIndexByte(qualified, '.')
	if dot < 0 {
		return nil, nil, nil
	}
	f, err := cu.file(qualified[:dot])
	if err != nil || f == nil {
		return nil, nil, err
	}
	return f, f.defs[qualified[dot+1:]], nil
}

// Class returns the class called qualified ("__torch__.foo.Bar"), loading
// its file and declaring its attributes, constants and methods (their
// bodies compile when a method's Graph is asked for).
func (cu *CompilationUnit) Class(qualified string) (*Class, error) {
	cu.mu.Lock()
	defer cu.mu.Unlock()
	return cu.class(qualified)
}

// Function returns the free function called qualified
// ("__torch__.torch.nn.functional.relu").
func (cu *CompilationUnit) Function(qualified string) (*Function, error) {
	cu.mu.Lock()
	defer cu.mu.Unlock()
	return cu.function(qualified)
}

// Graph returns the function's graph, compiling it on first use. A method's
// graph takes self first.
func (fn *Function) Graph() (*ir.Graph, error) {
	cu := fn.file.cu
	cu.mu.Lock()
	defer cu.mu.Unlock()
	return fn.compile()
}

func (cu *CompilationUnit) class(qualified string) (*Class, error) {
	if c, ok := cu.classes[qualified]; ok {
		return c, nil
	}
	f, def, err := cu.lookupDef(qualified)
	if err != nil {
		return nil, err
	}
	cd, ok := def.(*syntax.ClassDef)
	if !ok {
		return nil, fmt.Errorf("the archive's code defines no class %s", qualified)
	}
	if k := classKind(cd); k != "class" {
		return nil, fmt.Errorf("%s is a %s, not a class (see Type)", qualified, k)
	}
	c := &Class{Type: &types.Class{Name: qualified}, file: f, def: cd}
	cu.classes[qualified] = c
	if err := f.declareClass(c); err != nil {
		delete(cu.classes, qualified)
		return nil, err
	}
	return c, nil
}

func (cu *CompilationUnit) function(qualified string) (*Function, error) {
	if fn, ok := cu.funcs[qualified]; ok {
		return fn, nil
	}
	f, def, err := cu.lookupDef(qualified)
	if err != nil {
		return nil, err
	}
	fd, ok := def.(*syntax.FuncDef)
	if !ok {
		return nil, fmt.Errorf("the archive's code defines no function %s", qualified)
	}
	fn := &Function{Name: fd.Name, Qualified: qualified, file: f, def: fd}
	cu.funcs[qualified] = fn
	if err := f.declareFunc(fn, nil); err != nil {
		delete(cu.funcs, qualified)
		return nil, err
	}
	return fn, nil
}

// declareClass reads a class body: attributes, __parameters__,
// __buffers__, constants and method signatures, as import_source.cpp's
// importClass.
func (f *fileCtx) declareClass(c *Class) error {
	cd := c.def
	for _, b := range cd.Bases {
		switch dottedName(b) {
		case "Module":
			c.Type.Module = true
		case "":
			return f.errorf(b, "class %s: unsupported base", cd.Name)
		default:
			if n := dottedName(b); n != "object" {
				return f.errorf(b, "class %s: base %s is not supported (only Module and plain classes)", cd.Name, n)
			}
		}
	}
	var params, buffers []string
	var attrs []types.Attr
	for _, s := range cd.Body {
		switch st := s.(type) {
		case *syntax.Pass:
		case *syntax.FuncDef:
			// methods are declared after the attributes (their self type
			// needs them)
		case *syntax.Assign:
			if sub, ok := st.Target.(*syntax.Subscript); ok && dottedName(sub.X) == "__annotations__" && st.Value != nil && len(sub.Index) == 1 {
				name, ok := syntax.Unparen(sub.Index[0]).(*syntax.StringLit)
				if !ok {
					return f.errorf(st.Target, "__annotations__ key must be a string")
				}
				t, err := f.parseType(st.Value)
				if err != nil {
					return err
				}
				attrs = append(attrs, types.Attr{Name: name.Value, Type: t})
				continue
			}
			nm, ok := st.Target.(*syntax.Name)
			if !ok {
				return f.errorf(st.Target, "class %s: unsupported statement in class body", cd.Name)
			}
			switch {
			case st.Type == nil && (nm.Name == "__parameters__" || nm.Name == "__buffers__"):
				names, err := f.stringList(st.Value)
				if err != nil {
					return err
				}
				if nm.Name == "__parameters__" {
					params = names
				} else {
					buffers = names
				}
			case st.Type == nil && nm.Name == "__constants__":
				// names of constants, which are written as Final attributes too
			case st.Type != nil && st.Value == nil:
				t, err := f.parseType(st.Type)
				if err != nil {
					return err
				}
				attrs = append(attrs, types.Attr{Name: nm.Name, Type: t})
			case st.Value != nil:
				var t types.Type
				if st.Type != nil {
					var err error
					if t, err = f.parseType(st.Type); err != nil {
						return err
					}
				}
				v, err := f.constValue(st.Value, t)
				if err != nil {
					return err
				}
				c.Type.Constants = append(c.Type.Constants, types.Constant{Name: nm.Name, Value: v})
			default:
				return f.errorf(st.Target, "class %s: unsupported statement in class body", cd.Name)
			}
		default:
			return f.errorf(s, "class %s: unsupported statement in class body", cd.Name)
		}
	}
	for i := range attrs {
		for _, p := range params {
			if p == attrs[i].Name {
				attrs[i].Parameter = true
			}
		}
		for _, b := range buffers {
			if b == attrs[i].Name {
				attrs[i].Buffer = true
			}
		}
	}
	c.Type.Attrs = attrs
	for _, s := range cd.Body {
		if fd, ok := s.(*syntax.FuncDef); ok {
			fn := &Function{Name: fd.Name, Qualified: c.Type.Name + "." + fd.Name, Owner: c, file: f, def: fd}
			if err := f.declareFunc(fn, c); err != nil {
				return err
			}
			c.Methods = append(c.Methods, fn)
		}
	}
	return nil
}

// stringList reads `["a", "b", ]`.
func (f *fileCtx) stringList(e syntax.Expr) ([]string, error) {
	l, ok := syntax.Unparen(e).(*syntax.ListExpr)
	if !ok {
		return nil, f.errorf(e, "expected a list of strings")
	}
	out := make([]string, 0, len(l.Elts))
	for _, el := range l.Elts {
		s, ok := syntax.Unparen(el).(*syntax.StringLit)
		if !ok {
			return nil, f.errorf(el, "expected a string")
		}
		out = append(out, s.Value)
	}
	return out, nil
}

// declareFunc reads a def's signature.
func (f *fileCtx) declareFunc(fn *Function, owner *Class) error {
	fd := fn.def
	for i, p := range fd.Params {
		var t types.Type
		switch {
		case p.Type != nil:
			var err error
			if t, err = f.parseType(p.Type); err != nil {
				return err
			}
		case i == 0 && owner != nil:
			t = owner.Type
		default:
			t = types.Tensor // TorchScript's default for an unannotated parameter
		}
		if i == 0 && owner != nil {
			if c, ok := t.(*types.Class); !ok || c.Name != owner.Type.Name {
				return f.errorf(p, "%s: self is annotated %s, not the class %s", fn.Qualified, t, owner.Type.Name)
			}
			t = owner.Type
		}
		prm := Param{Name: p.Name, Type: t, KwargOnly: p.KwargOnly}
		if p.Default != nil {
			v, err := f.constValue(p.Default, t)
			if err != nil {
				return err
			}
			prm.Default, prm.HasDefault = v, true
		}
		fn.Params = append(fn.Params, prm)
	}
	if owner != nil && len(fn.Params) == 0 {
		return f.errorf(fd, "method %s takes no self", fn.Qualified)
	}
	fn.Returns = nil
	if fd.Returns != nil {
		t, err := f.parseType(fd.Returns)
		if err != nil {
			return err
		}
		fn.Returns = t
	}
	fn.declared = true
	return nil
}

// constValue evaluates a constant expression (a default value or a class
// constant): literals, negated numbers, None, tuples and lists of those.
// With a type t, ints become floats where t wants a float.
func (f *fileCtx) constValue(e syntax.Expr, t types.Type) (any, error) {
	switch x := syntax.Unparen(e).(type) {
	case *syntax.IntLit:
		if x.Value > 1<<63-1 {
			return nil, f.errorf(x, "integer literal %s is out of range", x.Raw)
		}
		if t == types.Float {
			return float64(x.Value), nil
		}
		return int64(x.Value), nil
	case *syntax.FloatLit:
		return x.Value, nil
	case *syntax.StringLit:
		return x.Value, nil
	case *syntax.BoolLit:
		return x.Value, nil
	case *syntax.NoneLit:
		return nil, nil
	case *syntax.UnaryExpr:
		if x.Op == "-" {
			switch y := syntax.Unparen(x.X).(type) {
			case *syntax.IntLit:
				if y.Value > 1<<63 {
					return nil, f.errorf(y, "integer literal -%s is out of range", y.Raw)
				}
				if t == types.Float {
					return -float64(y.Value), nil
				}
				return -int64(y.Value), nil
			case *syntax.FloatLit:
				return -y.Value, nil
			}
		}
	case *syntax.TupleExpr:
		out := make(ir.Tuple, len(x.Elts))
		var ets []types.Type
		if tt, ok := t.(*types.Tuple); ok && len(tt.Elems) == len(x.Elts) {
			ets = tt.Elems
		}
		for i, el := range x.Elts {
			var et types.Type
			if ets != nil {
				et = ets[i]
			}
			v, err := f.constValue(el, et)
			if err != nil {
				return nil, err
			}
			out[i] = v
		}
		return out, nil
	case *syntax.ListExpr:
		var et types.Type
		if o, ok := t.(*types.Optional); ok {
			t = o.Elem
		}
		if lt, ok := t.(*types.List); ok {
			et = lt.Elem
		}
		vals := make([]any, len(x.Elts))
		for i, el := range x.Elts {
			v, err := f.constValue(el, et)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		return typedList(vals, et), nil
	}
	return nil, f.errorf(e, "expected a constant")
}

// typedList turns a list of constants into []int64, []float64, []bool or
// []string when its elements (or et) say so.
func typedList(vals []any, et types.Type) any {
	kind := ""
	switch et {
	case types.Int:
		kind = "int"
	case types.Float:
		kind = "float"
	case types.Bool:
		kind = "bool"
	case types.Str:
		kind = "str"
	}
	if kind == "" && len(vals) > 0 {
		switch vals[0].(type) {
		case int64:
			kind = "int"
		case float64:
			kind = "float"
		case bool:
			kind = "bool"
		case string:
			kind = "str"
		}
	}
	switch kind {
	case "int":
		out := make([]int64, len(vals))
		for i, v := range vals {
			x, ok := v.(int64)
			if !ok {
				return vals
			}
			out[i] = x
		}
		return out
	case "float":
		out := make([]float64, len(vals))
		for i, v := range vals {
			switch x := v.(type) {
			case float64:
				out[i] = x
			case int64:
				out[i] = float64(x)
			default:
				return vals
			}
		}
		return out
	case "bool":
		out := make([]bool, len(vals))
		for i, v := range vals {
			x, ok := v.(bool)
			if !ok {
				return vals
			}
			out[i] = x
		}
		return out
	case "str":
		out := make([]string, len(vals))
		for i, v := range vals {
			x, ok := v.(string)
			if !ok {
				return vals
			}
			out[i] = x
		}
		return out
	}
	return vals
}

// Callee returns the function a prim::CallFunction node calls (its first
// input is the Function constant, whose name attribute holds the
// qualified name; PyTorch prints the short one; a method called through
// its class, as a submodule's hook is, takes self as its first argument) or the method a
// prim::CallMethod node calls (by its name attribute, on the class of its
// first input; for an interface, the interface's method, a signature
// without a graph: the object's own class's method of that name runs).
func (cu *CompilationUnit) Callee(n *ir.Node) (*Function, error) {
	switch n.Kind {
	case "prim::CallFunction":
		if len(n.Inputs) == 0 || n.Inputs[0].Node() == nil {
			return nil, fmt.Errorf("prim::CallFunction without a function input")
		}
		q, ok := n.Inputs[0].Node().Str("name")
		if !ok {
			return nil, fmt.Errorf("prim::CallFunction's first input is not a function constant")
		}
		fn, err := cu.Function(q)
		if err == nil {
			return fn, nil
		}
		// a method called through its class (a submodule's hook)
		if dot := strings.LastIndexByte(q, '.'); dot > 0 {
			if c, cerr := cu.Class(q[:dot]); cerr == nil {
				if m, ok := c.Method(q[dot+1:]); ok {
					return m, nil
				}
			}
		}
		return nil, err
	case "prim::CallMethod":
		name, ok := n.Str("name")
		if !ok || len(n.Inputs) == 0 {
			return nil, fmt.Errorf("prim::CallMethod without a name or object")
		}
		if it, ok := n.Inputs[0].Type.(*types.Interface); ok {
			i, err := cu.Interface(it.Name)
			if err != nil {
				return nil, err
			}
			m, ok := i.Method(name)
			if !ok {
				return nil, fmt.Errorf("interface %s has no method %s", it.Name, name)
			}
			return m, nil
		}
		ct, ok := n.Inputs[0].Type.(*types.Class)
		if !ok {
			return nil, fmt.Errorf("prim::CallMethod[name=%q] on a value of type %s", name, n.Inputs[0].Type)
		}
		c, err := cu.Class(ct.Name)
		if err != nil {
			return nil, err
		}
		m, ok := c.Method(name)
		if !ok {
			return nil, fmt.Errorf("class %s has no method %s", ct.Name, name)
		}
		return m, nil
	}
	return nil, fmt.Errorf("%s is not a call", n.Kind)
}
