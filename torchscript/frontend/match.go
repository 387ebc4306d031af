package frontend

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/torchscript/ir"
	"github.com/gofx/gofx/torchscript/syntax"
	"github.com/gofx/gofx/torchscript/types"
)

// formal is a parameter of a signature being matched.
type formal struct {
	name string
	t    types.Type // may hold type variables
	// def is the default value of a function's parameter.
	def *any
	// opDef and opType are an operator's default and schema type, decoded
	// when the default is used.
	opDef  *ops.Default
	opType *ops.Type
	kwOnly bool
	n      int // the size of a fixed-size list (int[2]), 0 otherwise
}

func (f *formal) hasDefault() bool { return f.def != nil || f.opDef != nil }

// callSig is a signature calls are matched against: an operator schema or
// a function of the archive.
type callSig struct {
	name    string
	op      *ops.Operator
	formals []formal
	varargs bool
	returns []types.Type
	// upgrader, when set, is the versioned operator whose old schema this
	// is: a call is compiled as the upgrader's body.
	upgrader *Upgrader
}

var opSigCache sync.Map // *ops.Operator → *callSig

// opSig converts an operator's schema; nil when it holds a type the
// frontend cannot represent (then it never matches).
func opSig(o *ops.Operator) *callSig {
	if s, ok := opSigCache.Load(o); ok {
		return s.(*callSig)
	}
	sg := sigOf(o)
	var s *callSig
	if sg.err == nil {
		s = schemaSig(o, sg.schema, sg.args, sg.returns)
	}
	opSigCache.Store(o, s)
	return s
}

// schemaSig makes the signature of schema (an operator's, or the old
// schema of an upgrader) with its converted argument and return types.
func schemaSig(o *ops.Operator, schema *ops.Schema, args, returns []types.Type) *callSig {
	if schema.VarRets {
		return nil // a variadic result is only for special ops
	}
	s := &callSig{name: schema.QualifiedName(), op: o, varargs: schema.VarArgs, returns: returns}
	for i, a := range schema.Args {
		f := formal{name: a.Name, t: args[i], kwOnly: a.KwargOnly, opDef: a.Default, opType: a.Type}
		if a.Type.Kind == ops.ListOf {
			f.n = a.Type.Size
		} else if a.Type.Kind == ops.OptionalOf && a.Type.Elem.Kind == ops.ListOf {
			f.n = a.Type.Elem.Size
		}
		s.formals = append(s.formals, f)
	}
	return s
}

// convFn applies an implicit conversion to a value.
type convFn func(e *emitter, v *ir.Value) (*ir.Value, error)

// argPlan says how to produce one input of a matched call.
type argPlan struct {
	v       *ir.Value
	conv    convFn
	list    []argPlan // build a list of these (varargs, int as int[N])
	elem    types.Type
	isDef   bool
	def     any
	defType types.Type
}

type matched struct {
	sig     *callSig
	inputs  []argPlan
	returns []types.Type
}

// matchAll tries the signatures in order, first without implicit
// conversions, then with them (a single signature is tried with them at
// once), as schema_matching.cpp's matchSchemas.
func (e *emitter) matchAll(at syntax.Node, sigs []*callSig, args, kwargs []nv, self *ir.Value) (*matched, error) {
	rounds := []bool{false, true}
	if len(sigs) == 1 {
		rounds = []bool{true}
	}
	var reasons []string
	for _, allow := range rounds {
		reasons = reasons[:0]
		for _, s := range sigs {
			m, why := e.tryMatch(s, args, kwargs, self, allow)
			if m != nil {
				return m, nil
			}
			reasons = append(reasons, "  "+s.name+": "+why)
		}
	}
	var got []string
	for _, a := range args {
		got = append(got, a.v.Type.String())
	}
	for _, k := range kwargs {
		got = append(got, k.name+"="+k.v.Type.String())
	}
	name := sigs[0].name
	if sigs[0].op != nil {
		name = sigs[0].op.Schema().Namespace + "::" + sigs[0].op.Schema().Name
	}
	if len(reasons) > 12 {
		reasons = append(reasons[:12], fmt.Sprintf("  ... and %d more", len(reasons)-12))
	}
	return nil, e.f.errorf(at, "no overload of %s accepts (%s):\n%s", name, strings.Join(got, ", "), strings.Join(reasons, "\n"))
}

func (e *emitter) tryMatch(s *callSig, args, kwargs []nv, self *ir.Value, allow bool) (*matched, string) {
	env := typeEnv{}
	m := &matched{sig: s}
	used := 0
	usedKw := make([]bool, len(kwargs))
	isAten := s.op != nil && s.op.Schema().Namespace == "aten"
	for i := range s.formals {
		f := &s.formals[i]
		var actual *ir.Value
		switch {
		case f.name == "self" && self != nil:
			actual, self = self, nil
		case !f.kwOnly && used < len(args):
			if allow && varargsAsList(s, i) {
				a := args[used].v
				if _, isList := a.Type.(*types.List); !isList && !convertibleToList(a.Type, unwrapOptional(f.t)) {
					elem := unwrapOptional(f.t).(*types.List).Elem
					plan := argPlan{elem: elem}
					for _, rest := range args[used:] {
						p, why := e.matchArg(&formal{name: "<varargs>", t: elem}, rest.v, env, allow)
						if why != "" {
							return nil, why
						}
						plan.list = append(plan.list, p)
					}
					used = len(args)
					m.inputs = append(m.inputs, plan)
					continue
				}
			}
			actual = args[used].v
			used++
		default:
			k := -1
			for j, kw := range kwargs {
				if kw.name == f.name || isAten && f.name == "self" && kw.name == "input" {
					k = j
					break
				}
			}
			switch {
			case k >= 0:
				if usedKw[k] {
					return nil, "argument " + f.name + " specified twice"
				}
				usedKw[k] = true
				actual = kwargs[k].v
			case f.hasDefault():
				d, dt, err := f.defaultValue()
				if err != nil {
					return nil, err.Error()
				}
				if !matchTypeVars(f.t, dt, env) {
					return nil, "default of " + f.name + " does not fit its type"
				}
				m.inputs = append(m.inputs, argPlan{isDef: true, def: d, defType: dt})
				continue
			default:
				return nil, "argument " + f.name + " not provided"
			}
		}
		p, why := e.matchArg(f, actual, env, allow)
		if why != "" {
			return nil, why
		}
		m.inputs = append(m.inputs, p)
	}
	if self != nil {
		return nil, "self is not an argument"
	}
	if s.varargs {
		for ; used < len(args); used++ {
			m.inputs = append(m.inputs, argPlan{v: args[used].v})
		}
	}
	if used < len(args) {
		return nil, fmt.Sprintf("expected at most %d positional arguments, got %d", used, len(args))
	}
	for j, u := range usedKw {
		if !u {
			return nil, "unknown keyword argument " + kwargs[j].name
		}
	}
	for _, r := range s.returns {
		t, ok := evalTypeVars(r, env)
		if !ok {
			return nil, "return type " + r.String() + " has unbound type variables"
		}
		m.returns = append(m.returns, t)
	}
	return m, ""
}

// matchArg matches one actual value against a formal (tryMatchArgument).
func (e *emitter) matchArg(f *formal, v *ir.Value, env typeEnv, allow bool) (argPlan, string) {
	t := v.Type
	var plan argPlan
	if f.n > 0 && (t == types.Int || t == types.Float) {
		if lt, ok := unwrapOptional(f.t).(*types.List); ok && lt.Elem == t {
			// an int given for int[N]: repeated N times
			plan.elem = t
			for i := 0; i < f.n; i++ {
				plan.list = append(plan.list, argPlan{v: v})
			}
			t = &types.List{Elem: t}
		}
	} else {
		plan.v = v
	}
	if !matchTypeVars(f.t, t, env) {
		return plan, fmt.Sprintf("argument %s: a %s cannot be a %s", f.name, t, f.t)
	}
	concrete, ok := evalTypeVars(f.t, env)
	if !ok {
		return plan, "could not infer the type of " + f.name
	}
	if plan.list == nil {
		if conv, nt := conversion(t, concrete, allow); conv != nil {
			plan.conv, t = conv, nt
		}
	}
	if !types.IsSubtype(t, concrete) {
		return plan, fmt.Sprintf("argument %s: expected %s, got %s", f.name, concrete, v.Type)
	}
	return plan, ""
}

func unwrapOptional(t types.Type) types.Type {
	if o, ok := t.(*types.Optional); ok {
		return o.Elem
	}
	return t
}

// varargsAsList reports whether the remaining positional arguments may be
// collected into the list parameter i (x.view(1, 2) for int[] size).
func varargsAsList(s *callSig, i int) bool {
	last := i+1 == len(s.formals) || s.formals[i+1].kwOnly
	lt, ok := s.formals[i].t.(*types.List)
	if !ok || !last || s.formals[i].n > 0 {
		return false
	}
	_, isVar := lt.Elem.(*types.Var)
	return !isVar
}

func convertibleToList(t, formal types.Type) bool {
	lt, ok := formal.(*types.List)
	if !ok {
		return false
	}
	if types.IsSubtype(t, formal) {
		return true
	}
	if tt, ok := t.(*types.Tuple); ok {
		for _, el := range tt.Elems {
			if !types.IsSubtype(el, lt.Elem) {
				return false
			}
		}
		return true
	}
	return false
}

// conversion returns the implicit conversion of a value of type t to
// concrete (tryConvertToType) and the converted type; nil when there is
// none to apply.
func conversion(t, concrete types.Type, allow bool) (convFn, types.Type) {
	if o, ok := concrete.(*types.Optional); ok {
		if _, isOpt := t.(*types.Optional); !isOpt && t != types.None {
			return conversion(t, o.Elem, allow)
		}
	}
	if tt, ok := t.(*types.Tuple); ok && convertibleToList(t, unwrapOptional(concrete)) && !types.IsSubtype(t, unwrapOptional(concrete)) {
		elem := unwrapOptional(concrete).(*types.List).Elem
		return func(e *emitter, v *ir.Value) (*ir.Value, error) {
			n := e.insert("prim::TupleUnpack", []*ir.Value{v}, tt.Elems...)
			l := e.insert("prim::ListConstruct", n.Outputs, &types.List{Elem: elem})
			return l.Output(), nil
		}, &types.List{Elem: elem}
	}
	if !allow {
		return nil, t
	}
	op := ""
	switch {
	case t.Kind() == types.TensorKind:
		switch concrete {
		case types.Float:
			op = "FloatImplicit"
		case types.Complex:
			op = "ComplexImplicit"
		case types.Int:
			op = "IntImplicit"
		case types.Number:
			op = "ScalarImplicit"
		}
	case t == types.Number:
		switch concrete {
		case types.Float:
			op = "Float"
		case types.Complex:
			op = "Complex"
		case types.Int:
			op = "Int"
		}
	case t == types.Bool:
		switch concrete {
		case types.Float:
			op = "Float"
		case types.Int, types.Number:
			op = "Int"
		}
	case t == types.Str && concrete == types.Device:
		op = "device"
	}
	if op == "" {
		return nil, t
	}
	return func(e *emitter, v *ir.Value) (*ir.Value, error) {
		out, err := e.builtin(nil, "aten", op, []nv{{v: v}}, nil, nil)
		if err != nil {
			return nil, err
		}
		return out.(*ir.Value), nil
	}, concrete
}

// materialize emits the inputs of a matched call: defaults as constants,
// lists built, conversions applied.
func (e *emitter) materialize(m *matched) ([]*ir.Value, error) {
	out := make([]*ir.Value, 0, len(m.inputs))
	for _, p := range m.inputs {
		v, err := e.materializeArg(p)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func (e *emitter) materializeArg(p argPlan) (*ir.Value, error) {
	switch {
	case p.isDef:
		return e.constant(p.def, p.defType), nil
	case p.list != nil || p.elem != nil:
		vals := make([]*ir.Value, len(p.list))
		for i, q := range p.list {
			v, err := e.materializeArg(q)
			if err != nil {
				return nil, err
			}
			vals[i] = v
		}
		elem := p.elem
		if elem.Kind() == types.TensorKind {
			elem = types.Tensor
		}
		n := e.insert("prim::ListConstruct", vals, &types.List{Elem: elem})
		return n.Output(), nil
	}
	if p.conv != nil {
		return p.conv(e, p.v)
	}
	return p.v, nil
}

// defaultValue decodes a formal's default into a constant and its type.
func (f *formal) defaultValue() (any, types.Type, error) {
	if f.def != nil {
		t, err := constType(*f.def)
		if err != nil {
			return nil, nil, err
		}
		if lt, ok := unwrapOptional(f.t).(*types.List); ok {
			if l, ok := t.(*types.List); ok && l.Elem == types.Tensor && lt.Elem != types.Tensor {
				t = lt // an empty list default takes the parameter's type
			}
		}
		return *f.def, t, nil
	}
	v, err := decodeOpDefault(f.opType, f.opDef)
	if err != nil {
		return nil, nil, fmt.Errorf("argument %s: %v", f.name, err)
	}
	t, err := constType(v)
	if err != nil {
		return nil, nil, err
	}
	if l, ok := t.(*types.List); ok && l.Elem == types.Tensor {
		if ft, ok := unwrapOptional(f.t).(*types.List); ok {
			t = ft
		}
	}
	return v, t, nil
}

// enumDefaults are the named defaults of ScalarType, Layout and
// MemoryFormat arguments (c10's codes).
var enumDefaults = map[string]int64{
	"uint8": 0, "int8": 1, "int16": 2, "int": 3, "long": 4, "half": 5, "float": 6, "double": 7,
	"complex32": 8, "cfloat": 9, "cdouble": 10, "bool": 11, "bfloat16": 15,
	"strided": 0, "sparse_coo": 1, "sparse_csr": 2, "mkldnn": 2,
	"contiguous_format": 0, "preserve_format": 1, "channels_last": 2, "channels_last_3d": 3,
	"per_tensor_affine": 0,
}

// decodeOpDefault decodes a schema default of type t.
func decodeOpDefault(t *ops.Type, d *ops.Default) (any, error) {
	if d.IsNone() {
		return nil, nil
	}
	if t.Kind == ops.OptionalOf {
		t = t.Elem
	}
	if t.Kind == ops.ListOf {
		switch t.Elem.Name {
		case "int", "SymInt":
			v, err := d.Ints(t.Size)
			return v, err
		case "float":
			body := strings.TrimSuffix(strings.TrimPrefix(d.Text, "["), "]")
			out := []float64{}
			if strings.TrimSpace(body) != "" {
				for _, p := range strings.Split(body, ",") {
					x, err := strconv.ParseFloat(strings.TrimSpace(p), 64)
					if err != nil {
						return nil, fmt.Errorf("default %s is not a float list", d.Text)
					}
					out = append(out, x)
				}
			}
			return out, nil
		case "bool":
			body := strings.TrimSuffix(strings.TrimPrefix(d.Text, "["), "]")
			out := []bool{}
			if strings.TrimSpace(body) != "" {
				for _, p := range strings.Split(body, ",") {
					out = append(out, strings.TrimSpace(p) == "True")
				}
			}
			return out, nil
		}
		if d.Text == "[]" {
			return []any{}, nil
		}
		return nil, fmt.Errorf("unsupported list default %s", d.Text)
	}
	switch t.Name {
	case "int", "SymInt":
		return d.Int()
	case "ScalarType", "Layout", "MemoryFormat", "QScheme":
		if v, ok := enumDefaults[d.Text]; ok {
			return v, nil
		}
		return d.Int()
	case "float":
		return d.Float()
	case "bool":
		return d.Bool()
	case "str":
		return d.Str()
	case "Scalar":
		if v, err := d.Int(); err == nil {
			return v, nil
		}
		if b, err := d.Bool(); err == nil {
			return b, nil
		}
		return d.Float()
	case "complex":
		f, err := d.Float()
		return complex(f, 0), err
	}
	return nil, fmt.Errorf("unsupported default %s of type %s", d.Text, t.Name)
}
