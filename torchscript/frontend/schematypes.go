package frontend

import (
	"fmt"
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/types"
)

// schemaType converts a type of an operator schema into the type
// TorchScript's schema matching uses (c10's "fake" type): SymInt,
// ScalarType, Layout and MemoryFormat are int, Dimname is str, Scalar is
// number, t/t1/tVal are type variables.
func schemaType(t *ops.Type) (types.Type, error) {
	switch t.Kind {
	case ops.ListOf:
		e, err := schemaType(t.Elem)
		if err != nil {
			return nil, err
		}
		return &types.List{Elem: e}, nil
	case ops.OptionalOf:
		e, err := schemaType(t.Elem)
		if err != nil {
			return nil, err
		}
		return &types.Optional{Elem: e}, nil
	case ops.TupleOf:
		es := make([]types.Type, len(t.Params))
		for i, p := range t.Params {
			e, err := schemaType(p)
			if err != nil {
				return nil, err
			}
			es[i] = e
		}
		return &types.Tuple{Elems: es}, nil
	}
	ps := make([]types.Type, len(t.Params))
	for i, p := range t.Params {
		e, err := schemaType(p)
		if err != nil {
			return nil, err
		}
		ps[i] = e
	}
	param := func(n int) error {
		if len(ps) != n {
			return fmt.Errorf("type %s takes %d parameters", t.Name, n)
		}
		return nil
	}
	switch t.Name {
	case "Tensor":
		return types.Tensor, nil
	case "int", "SymInt", "ScalarType", "Layout", "MemoryFormat":
		return types.Int, nil
	case "float":
		return types.Float, nil
	case "bool":
		return types.Bool, nil
	case "str", "Dimname":
		return types.Str, nil
	case "complex":
		return types.Complex, nil
	case "Scalar":
		return types.Number, nil
	case "Device":
		return types.Device, nil
	case "Generator":
		return types.Generator, nil
	case "Storage":
		return types.Storage, nil
	case "Stream":
		return types.Stream, nil
	case "QScheme":
		return types.QScheme, nil
	case "Any":
		return types.Any, nil
	case "AnyClassType":
		return types.AnyClass, nil
	case "AnyEnumType":
		return types.AnyEnum, nil
	case "NoneType":
		return types.None, nil
	case "Capsule", "ConstQuantizerPtr":
		return types.Capsule, nil
	case "Dict":
		if err := param(2); err != nil {
			return nil, err
		}
		return &types.Dict{Key: ps[0], Value: ps[1]}, nil
	case "Future":
		if err := param(1); err != nil {
			return nil, err
		}
		return &types.Future{Elem: ps[0]}, nil
	case "Await":
		if err := param(1); err != nil {
			return nil, err
		}
		return &types.Await{Elem: ps[0]}, nil
	case "RRef":
		if err := param(1); err != nil {
			return nil, err
		}
		return &types.RRef{Elem: ps[0]}, nil
	case "Union":
		return types.NewUnion(ps...), nil
	}
	if len(ps) == 0 && isTypeVar(t.Name) {
		return &types.Var{Name: t.Name}, nil
	}
	return nil, fmt.Errorf("unsupported schema type %s", t.Name)
}

// isTypeVar reports whether a schema type name is a type variable: PyTorch's
// schema parser takes a lower-case name it does not know as one (t, t1,
// tVal, ...).
func isTypeVar(name string) bool {
	return name != "" && name[0] >= 'a' && name[0] <= 'z'
}

// sig is an operator schema with its types converted for matching.
type sig struct {
	op      *ops.Operator
	schema  *ops.Schema
	args    []types.Type
	returns []types.Type
	err     error // a type the frontend cannot represent: never matches
}

var sigCache sync.Map // *ops.Operator → *sig

func sigOf(o *ops.Operator) *sig {
	if s, ok := sigCache.Load(o); ok {
		return s.(*sig)
	}
	s := &sig{op: o, schema: o.Schema()}
	for _, a := range s.schema.Args {
		t, err := schemaType(a.Type)
		if err != nil && s.err == nil {
			s.err = err
		}
		s.args = append(s.args, t)
	}
	for _, r := range s.schema.Returns {
		t, err := schemaType(r.Type)
		if err != nil && s.err == nil {
			s.err = err
		}
		s.returns = append(s.returns, t)
	}
	sigCache.Store(o, s)
	return s
}

// typeEnv binds schema type variables while matching one schema.
type typeEnv map[string]types.Type

// matchTypeVars unifies formal (which may hold type variables) with actual,
// binding variables in env, as c10's matchTypeVariables.
func matchTypeVars(formal, actual types.Type, env typeEnv) bool {
	if !hasVars(formal) {
		return true
	}
	switch f := formal.(type) {
	case *types.Var:
		if b, ok := env[f.Name]; ok {
			if u := unify(b, actual); u != nil {
				env[f.Name] = u
				return true
			}
			return false
		}
		env[f.Name] = actual
		return true
	case *types.List:
		switch a := actual.(type) {
		case *types.List:
			return matchTypeVars(f.Elem, a.Elem, env)
		case *types.Tuple:
			// a homogeneous tuple may be converted to a list
			if u := unifyAll(a.Elems); u != nil {
				return matchTypeVars(f.Elem, u, env)
			}
		}
		return false
	case *types.Tuple:
		a, ok := actual.(*types.Tuple)
		if !ok || len(a.Elems) != len(f.Elems) {
			return false
		}
		for i := range f.Elems {
			if !matchTypeVars(f.Elems[i], a.Elems[i], env) {
				return false
			}
		}
		return true
	case *types.Optional:
		if a, ok := actual.(*types.Optional); ok {
			return matchTypeVars(f.Elem, a.Elem, env)
		}
		if actual == types.None {
			return true // leaves the variable unbound
		}
		return matchTypeVars(f.Elem, actual, env)
	case *types.Dict:
		a, ok := actual.(*types.Dict)
		if !ok {
			return false
		}
		return matchTypeVars(f.Key, a.Key, env) && matchTypeVars(f.Value, a.Value, env)
	case *types.Future:
		a, ok := actual.(*types.Future)
		return ok && matchTypeVars(f.Elem, a.Elem, env)
	case *types.Await:
		a, ok := actual.(*types.Await)
		return ok && matchTypeVars(f.Elem, a.Elem, env)
	case *types.RRef:
		a, ok := actual.(*types.RRef)
		return ok && matchTypeVars(f.Elem, a.Elem, env)
	}
	return false
}

// hasVars reports whether t holds a type variable.
func hasVars(t types.Type) bool {
	switch x := t.(type) {
	case *types.Var:
		return true
	case *types.List:
		return hasVars(x.Elem)
	case *types.Optional:
		return hasVars(x.Elem)
	case *types.Dict:
		return hasVars(x.Key) || hasVars(x.Value)
	case *types.Tuple:
		for _, e := range x.Elems {
			if hasVars(e) {
				return true
			}
		}
	case *types.Future:
		return hasVars(x.Elem)
	case *types.Await:
		return hasVars(x.Elem)
	case *types.RRef:
		return hasVars(x.Elem)
	case *types.Union:
		for _, e := range x.Types {
			if hasVars(e) {
				return true
			}
		}
	}
	return false
}

// evalTypeVars substitutes the bound variables of env in t; ok is false
// when a variable is unbound.
func evalTypeVars(t types.Type, env typeEnv) (types.Type, bool) {
	if !hasVars(t) {
		return t, true
	}
	switch x := t.(type) {
	case *types.Var:
		b, ok := env[x.Name]
		return b, ok
	case *types.List:
		e, ok := evalTypeVars(x.Elem, env)
		return &types.List{Elem: e}, ok
	case *types.Optional:
		e, ok := evalTypeVars(x.Elem, env)
		return &types.Optional{Elem: e}, ok
	case *types.Dict:
		k, ok1 := evalTypeVars(x.Key, env)
		v, ok2 := evalTypeVars(x.Value, env)
		return &types.Dict{Key: k, Value: v}, ok1 && ok2
	case *types.Tuple:
		es := make([]types.Type, len(x.Elems))
		for i, e := range x.Elems {
			var ok bool
			if es[i], ok = evalTypeVars(e, env); !ok {
				return nil, false
			}
		}
		return &types.Tuple{Elems: es}, true
	case *types.Future:
		e, ok := evalTypeVars(x.Elem, env)
		return &types.Future{Elem: e}, ok
	case *types.Await:
		e, ok := evalTypeVars(x.Elem, env)
		return &types.Await{Elem: e}, ok
	case *types.RRef:
		e, ok := evalTypeVars(x.Elem, env)
		return &types.RRef{Elem: e}, ok
	case *types.Union:
		es := make([]types.Type, len(x.Types))
		for i, e := range x.Types {
			var ok bool
			if es[i], ok = evalTypeVars(e, env); !ok {
				return nil, false
			}
		}
		return types.NewUnion(es...), true
	}
	return t, true
}

// unify returns the type both a and b are, as c10's unifyTypes without
// unions: the supertype when one is a subtype of the other, an Optional
// when one is None, element-wise for tuples; nil when they do not unify.
func unify(a, b types.Type) types.Type {
	if types.IsSubtype(a, b) {
		return b
	}
	if types.IsSubtype(b, a) {
		return a
	}
	if a.Kind() == types.TensorKind && b.Kind() == types.TensorKind {
		return types.Tensor
	}
	if a == types.None {
		if _, ok := b.(*types.Optional); !ok {
			return &types.Optional{Elem: b}
		}
	}
	if b == types.None {
		if _, ok := a.(*types.Optional); !ok {
			return &types.Optional{Elem: a}
		}
	}
	if oa, ok := a.(*types.Optional); ok {
		if u := unify(oa.Elem, b); u != nil {
			return &types.Optional{Elem: u}
		}
	}
	if ob, ok := b.(*types.Optional); ok {
		if u := unify(a, ob.Elem); u != nil {
			return &types.Optional{Elem: u}
		}
	}
	ta, ok1 := a.(*types.Tuple)
	tb, ok2 := b.(*types.Tuple)
	if ok1 && ok2 && len(ta.Elems) == len(tb.Elems) && ta.Names == nil && tb.Names == nil {
		es := make([]types.Type, len(ta.Elems))
		for i := range es {
			if es[i] = unify(ta.Elems[i], tb.Elems[i]); es[i] == nil {
				return nil
			}
		}
		return &types.Tuple{Elems: es}
	}
	la, ok1 := a.(*types.List)
	lb, ok2 := b.(*types.List)
	if ok1 && ok2 && la.Elem.Kind() == types.TensorKind && lb.Elem.Kind() == types.TensorKind {
		return &types.List{Elem: types.Tensor}
	}
	return nil
}

// unifyAll unifies ts left to right; nil when empty or they do not unify.
func unifyAll(ts []types.Type) types.Type {
	if len(ts) == 0 {
		return nil
	}
	u := ts[0]
	for _, t := range ts[1:] {
		if u = unify(u, t); u == nil {
			return nil
		}
	}
	return u
}
