package ir

import (
	_ "embed"
	"math"
	"sort"
	"strings"
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/types"
)

// ResolveOp returns the overload of ops.Global() that a parsed node calls,
// chosen from its kind and the types of its inputs and outputs as
// TorchScript's schema matching chooses: the first overload, in PyTorch's
// registry order (Overloads), that fits; nil when none fits.
//
// A graph passes every argument of the schema positionally (defaults are
// materialized, keyword-only ones included), so an overload fits when it
// has exactly as many arguments as the node has inputs (at least as many
// for a vararg schema), each input's type fits its argument's type
// (IsSubtype, after binding the schema's type variables: t, t[],
// Dict(str, t); ScalarType, Layout and MemoryFormat are ints), and it has
// as many returns as the node has outputs, each output's type agreeing
// with the return's. Implicit conversions play no part: the graph already
// holds them as nodes. Nodes without a schema (prim::If, prim::Loop,
// prim::Constant, prim::GetAttr, prim::CallMethod, prim::ListConstruct,
// ...) get nil. The full matcher of calls in source code (keywords,
// defaults, conversions) is torchscript/frontend's.
func ResolveOp(n *Node) *ops.Operator {
	ns, name, ok := strings.Cut(n.Kind, "::")
	if !ok {
		return nil
	}
	for _, o := range Overloads(ns, name) {
		if fits(o.Schema(), n) {
			return o
		}
	}
	return nil
}

//go:generate python3 gen_registry_order.py

//go:embed registry_order.txt
var registryOrder string

var (
	orderOnce sync.Once
	orderRank map[string]int
	overMu    sync.Mutex
	overCache = map[string][]*ops.Operator{}
)

// RegistryRank returns the position of an operator ("aten::add.Tensor",
// "aten::relu" for a default overload) in PyTorch's JIT operator registry
// (torch._C._jit_get_all_schemas(): 2.14's order, then the names only 2.6
// has, then those only 1.13 has), the order in which TorchScript tries the
// overloads of a name.
func RegistryRank(qualified string) (int, bool) {
	orderOnce.Do(func() {
		orderRank = map[string]int{}
		for _, line := range strings.Split(registryOrder, "\n") {
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			if _, dup := orderRank[line]; !dup {
				orderRank[line] = len(orderRank)
			}
		}
	})
	r, ok := orderRank[qualified]
	return r, ok
}

// Overloads returns the overloads of namespace::name in ops.Global() in
// PyTorch's registry order (RegistryRank); overloads PyTorch's registries
// lack (gofx's own) come last, in the registry's order.
func Overloads(namespace, name string) []*ops.Operator {
	key := namespace + "::" + name
	overMu.Lock()
	defer overMu.Unlock()
	if os, ok := overCache[key]; ok {
		return os
	}
	os := ops.Global().Overloads(namespace, name)
	rank := func(o *ops.Operator) int {
		if r, ok := RegistryRank(o.Schema().QualifiedName()); ok {
			return r
		}
		return math.MaxInt
	}
	sort.SliceStable(os, func(i, j int) bool { return rank(os[i]) < rank(os[j]) })
	overCache[key] = os
	return os
}

var (
	schemaTypesMu sync.Mutex
	schemaTypes   = map[string]types.Type{}
)

// schemaType converts an argument type of a schema ("Tensor(a!)[]",
// "int[2]", "ScalarType?") to a types.Type, nil when it cannot.
func schemaType(t *ops.Type) types.Type {
	s := t.String()
	schemaTypesMu.Lock()
	defer schemaTypesMu.Unlock()
	if tt, ok := schemaTypes[s]; ok {
		return tt
	}
	tt, err := types.ParseIR(s)
	if err != nil {
		tt = nil
	} else {
		tt = fake(tt)
	}
	schemaTypes[s] = tt
	return tt
}

// fake maps the schema types that the IR represents as ints to int.
func fake(t types.Type) types.Type {
	switch x := t.(type) {
	case *types.Basic:
		switch x.Kind() {
		case types.ScalarTypeKind, types.LayoutKind, types.MemoryFormatKind:
			return types.Int
		}
	case *types.Optional:
		return &types.Optional{Elem: fake(x.Elem)}
	case *types.List:
		return &types.List{Elem: fake(x.Elem)}
	}
	return t
}

// fits reports whether node n fits schema s.
func fits(s *ops.Schema, n *Node) bool {
	if len(n.Inputs) != len(s.Args) && !(s.VarArgs && len(n.Inputs) >= len(s.Args)) {
		return false
	}
	if len(n.Outputs) != len(s.Returns) && !s.VarRets {
		return false
	}
	env := map[string]types.Type{}
	for i, a := range s.Args {
		ft := schemaType(a.Type)
		v := n.Inputs[i]
		if ft == nil || v.Type == nil || !bind(ft, v.Type, env) {
			return false
		}
	}
	for i, r := range s.Returns {
		if i >= len(n.Outputs) {
			break
		}
		ft := schemaType(r.Type)
		o := n.Outputs[i].Type
		if ft == nil || o == nil {
			return false
		}
		want := subst(ft, env)
		if want == nil {
			continue // a variable only the return has
		}
		if !types.IsSubtype(o, want) && !types.IsSubtype(want, o) {
			return false
		}
	}
	return true
}

// bind matches actual against the formal type f, binding f's variables in
// env; reports whether it fits.
func bind(f, actual types.Type, env map[string]types.Type) bool {
	switch x := f.(type) {
	case *types.Var:
		if b, ok := env[x.Name]; ok {
			if types.IsSubtype(actual, b) {
				return true
			}
			u, ok := types.Unify(b, actual)
			if ok {
				env[x.Name] = u
			}
			return ok
		}
		env[x.Name] = types.Unshaped(actual)
		return true
	case *types.List:
		a, ok := actual.(*types.List)
		if !ok {
			return false
		}
		if hasVar(x.Elem) {
			return bind(x.Elem, a.Elem, env)
		}
		return types.Equal(types.Unshaped(a.Elem), x.Elem) || types.IsSubtype(a.Elem, x.Elem) && isTensorish(x.Elem)
	case *types.Optional:
		if actual.Kind() == types.NoneKind {
			return true
		}
		if a, ok := actual.(*types.Optional); ok {
			return bind(x.Elem, a.Elem, env)
		}
		return bind(x.Elem, actual, env)
	case *types.Dict:
		a, ok := actual.(*types.Dict)
		return ok && bind(x.Key, a.Key, env) && bind(x.Value, a.Value, env)
	case *types.Tuple:
		a, ok := actual.(*types.Tuple)
		if !ok || len(a.Elems) != len(x.Elems) {
			return false
		}
		for i := range x.Elems {
			if !bind(x.Elems[i], a.Elems[i], env) {
				return false
			}
		}
		return true
	case *types.Future:
		a, ok := actual.(*types.Future)
		return ok && bind(x.Elem, a.Elem, env)
	}
	return types.IsSubtype(actual, f)
}

func isTensorish(t types.Type) bool {
	if o, ok := t.(*types.Optional); ok {
		t = o.Elem
	}
	return t.Kind() == types.TensorKind
}

func hasVar(t types.Type) bool {
	switch x := t.(type) {
	case *types.Var:
		return true
	case *types.List:
		return hasVar(x.Elem)
	case *types.Optional:
		return hasVar(x.Elem)
	case *types.Future:
		return hasVar(x.Elem)
	case *types.Dict:
		return hasVar(x.Key) || hasVar(x.Value)
	case *types.Tuple:
		for _, e := range x.Elems {
			if hasVar(e) {
				return true
			}
		}
	}
	return false
}

// subst replaces f's variables by their bindings; nil when one is unbound.
func subst(f types.Type, env map[string]types.Type) types.Type {
	switch x := f.(type) {
	case *types.Var:
		return env[x.Name]
	case *types.List:
		if e := subst(x.Elem, env); e != nil {
			return &types.List{Elem: e}
		}
		return nil
	case *types.Optional:
		if e := subst(x.Elem, env); e != nil {
			return &types.Optional{Elem: e}
		}
		return nil
	case *types.Future:
		if e := subst(x.Elem, env); e != nil {
			return &types.Future{Elem: e}
		}
		return nil
	case *types.Dict:
		k, v := subst(x.Key, env), subst(x.Value, env)
		if k == nil || v == nil {
			return nil
		}
		return &types.Dict{Key: k, Value: v}
	case *types.Tuple:
		es := make([]types.Type, len(x.Elems))
		for i, e := range x.Elems {
			if es[i] = subst(e, env); es[i] == nil {
				return nil
			}
		}
		return &types.Tuple{Elems: es}
	}
	return f
}
