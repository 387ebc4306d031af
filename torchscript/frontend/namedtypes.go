package frontend

import (
	"fmt"

	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// Interface is an interface or module interface of the archive's code:
// its type and its methods' signatures (Graph is not available for them;
// a call on an interface value runs the object's own method).
type Interface struct {
	Type    *types.Interface
	Methods []*Function
}

// Method returns the interface method called name.
func (i *Interface) Method(name string) (*Function, bool) {
	for _, m := range i.Methods {
		if m.Name == name {
			return m, true
		}
	}
	return nil, false
}

// EnumValue is a member of an enum of the archive's code, the value of a
// prim::Constant (printed value=__torch__.Color.RED).
type EnumValue struct {
	Type  *types.Enum
	Name  string
	Value any
}

// classKind says what a class definition defines, from its bases.
func classKind(cd *syntax.ClassDef) string {
	for _, b := range cd.Bases {
		switch dottedName(b) {
		case "NamedTuple":
			return "NamedTuple"
		case "Enum":
			return "Enum"
		case "Interface", "ModuleInterface":
			return dottedName(b)
		}
	}
	return "class"
}

// Type returns the type a qualified name of the archive's code defines: a
// class or module (*types.Class), a NamedTuple (*types.Tuple with Names
// and Name), an enum (*types.Enum) or an interface (*types.Interface).
func (cu *CompilationUnit) Type(qualified string) (types.Type, error) {
	cu.mu.Lock()
	defer cu.mu.Unlock()
	return cu.namedType(qualified)
}

// EnumMember returns the member of enum qualified whose value is value
// (an int64, float64 or string; an int converts), as PyTorch's unpickler
// finds a pickled enum's member: the enum's type, the member's name and
// its value.
func (cu *CompilationUnit) EnumMember(qualified string, value any) (EnumValue, error) {
	cu.mu.Lock()
	defer cu.mu.Unlock()
	t, err := cu.namedType(qualified)
	if err != nil {
		return EnumValue{}, err
	}
	et, ok := t.(*types.Enum)
	if !ok {
		return EnumValue{}, fmt.Errorf("%s is a %s, not an enum", qualified, t)
	}
	if i, ok := value.(int); ok {
		value = int64(i)
	}
	for i, v := range cu.enumVals[qualified] {
		if v == value {
			return EnumValue{Type: et, Name: et.Names[i], Value: v}, nil
		}
	}
	return EnumValue{}, fmt.Errorf("enum %s has no member of value %v", qualified, value)
}

// Interface returns the interface called qualified.
func (cu *CompilationUnit) Interface(qualified string) (*Interface, error) {
	cu.mu.Lock()
	defer cu.mu.Unlock()
	return cu.iface(qualified)
}

func (cu *CompilationUnit) namedType(qualified string) (types.Type, error) {
	if t, ok := cu.named[qualified]; ok {
		return t, nil
	}
	f, def, err := cu.lookupDef(qualified)
	if err != nil {
		return nil, err
	}
	cd, ok := def.(*syntax.ClassDef)
	if !ok {
		return nil, fmt.Errorf("the archive's code defines no class %s", qualified)
	}
	switch classKind(cd) {
	case "NamedTuple":
		return cu.namedTuple(f, cd, qualified)
	case "Enum":
		return cu.enum(f, cd, qualified)
	case "Interface", "ModuleInterface":
		i, err := cu.iface(qualified)
		if err != nil {
			return nil, err
		}
		return i.Type, nil
	}
	c, err := cu.class(qualified)
	if err != nil {
		return nil, err
	}
	return c.Type, nil
}

func (cu *CompilationUnit) namedTuple(f *fileCtx, cd *syntax.ClassDef, q string) (types.Type, error) {
	t := &types.Tuple{Name: q, Names: []string{}, Elems: []types.Type{}}
	cu.named[q] = t
	for _, s := range cd.Body {
		switch st := s.(type) {
		case *syntax.Pass:
		case *syntax.Assign:
			nm, ok := st.Target.(*syntax.Name)
			if !ok || st.Type == nil {
				delete(cu.named, q)
				return nil, f.errorf(s, "NamedTuple %s: expected a field `name : Type`", cd.Name)
			}
			ft, err := f.parseType(st.Type)
			if err != nil {
				delete(cu.named, q)
				return nil, err
			}
			t.Names = append(t.Names, nm.Name)
			t.Elems = append(t.Elems, ft)
		default:
			delete(cu.named, q)
			return nil, f.errorf(s, "NamedTuple %s: unsupported statement", cd.Name)
		}
	}
	return t, nil
}

func (cu *CompilationUnit) enum(f *fileCtx, cd *syntax.ClassDef, q string) (types.Type, error) {
	t := &types.Enum{Name: q}
	var vals []any
	for _, s := range cd.Body {
		st, ok := s.(*syntax.Assign)
		if !ok {
			if _, pass := s.(*syntax.Pass); pass {
				continue
			}
			return nil, f.errorf(s, "enum %s: unsupported statement", cd.Name)
		}
		nm, ok := st.Target.(*syntax.Name)
		if !ok || st.Value == nil {
			return nil, f.errorf(s, "enum %s: expected `NAME = value`", cd.Name)
		}
		v, err := f.constValue(st.Value, nil)
		if err != nil {
			return nil, err
		}
		vt, err := constType(v)
		if err != nil {
			return nil, f.errorf(st.Value, "enum %s: %v", cd.Name, err)
		}
		if t.Value == nil {
			t.Value = vt
		} else if !types.Equal(t.Value, vt) {
			return nil, f.errorf(st.Value, "enum %s: members of types %s and %s", cd.Name, t.Value, vt)
		}
		t.Names = append(t.Names, nm.Name)
		vals = append(vals, v)
	}
	if t.Value == nil {
		return nil, f.errorf(cd, "enum %s has no members", cd.Name)
	}
	cu.named[q] = t
	cu.enumVals[q] = vals
	return t, nil
}

func (cu *CompilationUnit) iface(q string) (*Interface, error) {
	if i, ok := cu.ifaces[q]; ok {
		return i, nil
	}
	f, def, err := cu.lookupDef(q)
	if err != nil {
		return nil, err
	}
	cd, ok := def.(*syntax.ClassDef)
	if !ok || (classKind(cd) != "Interface" && classKind(cd) != "ModuleInterface") {
		return nil, fmt.Errorf("the archive's code defines no interface %s", q)
	}
	i := &Interface{Type: &types.Interface{Name: q, Module: classKind(cd) == "ModuleInterface"}}
	cu.ifaces[q] = i
	cu.named[q] = i.Type
	for _, s := range cd.Body {
		fd, ok := s.(*syntax.FuncDef)
		if !ok {
			if _, pass := s.(*syntax.Pass); pass {
				continue
			}
			return nil, f.errorf(s, "interface %s: only method declarations are allowed", cd.Name)
		}
		fn := &Function{Name: fd.Name, Qualified: q + "." + fd.Name, file: f, def: fd}
		// an interface method's self is unannotated: declare it with the
		// interface type
		if err := f.declareIfaceMethod(fn, i); err != nil {
			return nil, err
		}
		i.Methods = append(i.Methods, fn)
	}
	return i, nil
}

func (f *fileCtx) declareIfaceMethod(fn *Function, i *Interface) error {
	fd := fn.def
	if len(fd.Params) == 0 {
		return f.errorf(fd, "interface method %s takes no self", fn.Qualified)
	}
	fn.Params = append(fn.Params, Param{Name: fd.Params[0].Name, Type: i.Type})
	for _, p := range fd.Params[1:] {
		t := types.Type(types.Tensor)
		if p.Type != nil {
			var err error
			if t, err = f.parseType(p.Type); err != nil {
				return err
			}
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
	fn.Returns = types.None
	if fd.Returns != nil {
		t, err := f.parseType(fd.Returns)
		if err != nil {
			return err
		}
		fn.Returns = t
	}
	fn.declared = true
	fn.abstract = true
	return nil
}

// enumMember emits the constant of an enum member.
func (e *emitter) enumMember(at syntax.Node, t *types.Enum, name string) (sugared, error) {
	vals := e.f.cu.enumVals[t.Name]
	for i, n := range t.Names {
		if n == name {
			c := e.insert("prim::Constant", nil, t)
			c.SetAttr(ir.Attr{Name: "value", Kind: ir.AttrIValue, Value: EnumValue{Type: t, Name: n, Value: vals[i]},
				Text: t.Name + "." + n})
			e.setSource(c, at)
			return c.Output(), nil
		}
	}
	return nil, e.f.errorf(at, "enum %s has no member %s", t.Name, name)
}

// construct builds a NamedTuple from a call of its name (prim::TupleConstruct).
func (e *emitter) construct(c *syntax.Call, t *types.Tuple, args, kwargs []nv) (sugared, error) {
	s := &callSig{name: t.Name, returns: []types.Type{t}}
	for i, n := range t.Names {
		s.formals = append(s.formals, formal{name: n, t: t.Elems[i]})
	}
	m, err := e.matchAll(c, []*callSig{s}, args, kwargs, nil)
	if err != nil {
		return nil, err
	}
	ins, err := e.materialize(m)
	if err != nil {
		return nil, err
	}
	n := e.insert("prim::TupleConstruct", ins, t)
	e.setSource(n, c)
	return n.Output(), nil
}
