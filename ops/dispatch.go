package ops

import (
	"errors"
	"fmt"
	"reflect"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/gofx/gofx/tensor"
)

// Kernel computes an operator call. Registered as an operator's kernel it
// receives concrete tensors; registered as its meta function it receives
// meta tensors (tensor.NewMeta) and returns meta tensors with the output
// dtypes and shapes, touching no data. It returns one value per schema
// return: *tensor.Tensor for Tensor, []*tensor.Tensor for Tensor[], int64,
// float64, bool, and so on.
type Kernel func(c *Call) ([]any, error)

type impls struct {
	kernel Kernel
	meta   Kernel
}

// SetKernel installs k as the operator's reference kernel, replacing any
// previous one.
func (o *Operator) SetKernel(k Kernel) { o.setImpl(func(i *impls) { i.kernel = k }) }

// SetMeta installs m as the operator's meta function.
func (o *Operator) SetMeta(m Kernel) { o.setImpl(func(i *impls) { i.meta = m }) }

func (o *Operator) setImpl(f func(*impls)) {
	o.implMu.Lock()
	defer o.implMu.Unlock()
	var n impls
	if cur := o.impl.Load(); cur != nil {
		n = *cur
	}
	f(&n)
	o.impl.Store(&n)
}

// HasKernel reports whether a kernel is registered.
func (o *Operator) HasKernel() bool { i := o.impl.Load(); return i != nil && i.kernel != nil }

// HasMeta reports whether a meta function is registered.
func (o *Operator) HasMeta() bool { i := o.impl.Load(); return i != nil && i.meta != nil }

// Define registers a custom operator in the global registry: its schema,
// its kernel and its meta function (either may be nil and set later with
// SetKernel and SetMeta). Tags beyond those derived from the schema may be
// given.
//
// A custom operator is torch.library.custom_op's counterpart: with a
// kernel and a meta function (no tag, no shape rule) it traces with fx,
// exports with export.Export as a node of its own (the core-ATen verifier
// keeps operators outside the aten and prims namespaces that write none of
// their arguments, as torch.export's does), survives RunDecompositions and
// runs. With dynamic dimensions, Export probes the meta function at
// several sizes: a result dimension that is constant or equal to one
// input dimension stays symbolic; any other (2*n, n+1) specializes the
// input's dynamic dimensions (Export reports it) unless a symbolic shape
// rule is registered with shapeprop.RegisterRule.
func Define(schema string, kernel, meta Kernel, tags Tag) (*Operator, error) {
	o, err := Global().Register(schema, tags)
	if err != nil {
		return nil, err
	}
	if kernel != nil {
		o.SetKernel(kernel)
	}
	if meta != nil {
		o.SetMeta(meta)
	}
	return o, nil
}

// CallError is the error of a failed operator call. It names the operator
// and, when one is to blame, the argument.
type CallError struct {
	Op  string // "aten::add.Tensor"
	Arg string // argument name, or ""
	Err error
}

func (e *CallError) Error() string {
	if e.Arg != "" {
		return fmt.Sprintf("%s: argument '%s': %v", e.Op, e.Arg, e.Err)
	}
	return fmt.Sprintf("%s: %v", e.Op, e.Err)
}

func (e *CallError) Unwrap() error { return e.Err }

// ArgError is returned by kernels (through Call.Errorf) to blame one
// argument; the dispatch point turns it into a CallError.
type ArgError struct {
	Arg string
	Err error
}

func (e *ArgError) Error() string { return fmt.Sprintf("argument '%s': %v", e.Arg, e.Err) }

func (e *ArgError) Unwrap() error { return e.Err }

// Call is an operator call with its arguments bound to the schema:
// positional and keyword arguments placed, defaults filled in, and every
// value checked against its type and normalized (int to int64, numbers to
// Scalar for Scalar arguments, lists to typed slices). Kernels read it
// through the typed accessors, which panic on a name the schema lacks (a
// kernel bug the dispatch point reports as an error).
type Call struct {
	Op     *Operator
	schema *Schema
	vals   []any
	sizer  DynamicSizer // for NewDynamicSize (CallMeta); nil otherwise
}

// Schema returns the schema the call is bound to: the operator's newest
// schema, unless the call fits only an older one (see Operator.Bind).
func (c *Call) Schema() *Schema { return c.schema }

// Call runs the operator: the single dispatch point of every operator call
// in gofx. args are the positional arguments and kwargs the keyword
// arguments, as Python would pass them. If any argument is Symbolic the
// call goes to its Tracer; otherwise the arguments are bound to the schema,
// and the meta function runs if any tensor argument is a meta tensor, the
// kernel otherwise. Errors name the operator and the argument; no panic
// escapes.
func (o *Operator) Call(args []any, kwargs map[string]any) (out []any, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &CallError{Op: o.schema.QualifiedName(), Err: fmt.Errorf("internal error: %v\n%s", r, debug.Stack())}
		}
	}()
	if tr := findTracer(args, kwargs); tr != nil {
		return tr.Trace(o, args, kwargs)
	}
	c, err := o.Bind(args, kwargs)
	if err != nil {
		return nil, err
	}
	return c.run()
}

// Call1 calls the operator and returns its single result.
func (o *Operator) Call1(args ...any) (any, error) {
	out, err := o.Call(args, nil)
	if err != nil {
		return nil, err
	}
	if len(out) != 1 {
		return nil, &CallError{Op: o.schema.QualifiedName(), Err: fmt.Errorf("returned %d values, not one", len(out))}
	}
	return out[0], nil
}

func (c *Call) run() ([]any, error) {
	o := c.Op
	impl := o.impl.Load()
	meta := c.hasMeta()
	var k Kernel
	if impl != nil {
		if meta {
			k = impl.meta
		} else {
			k = impl.kernel
		}
	}
	if k == nil {
		what := "kernel"
		if meta {
			what = "meta function"
		}
		hint := ""
		if o.Has(Composite) {
			hint = " (it is a composite operator: decompose it into core operators)"
		}
		return nil, &CallError{Op: o.schema.QualifiedName(), Err: fmt.Errorf("no %s registered%s (the reference kernels register when github.com/gofx/gofx/kernels is imported)", what, hint)}
	}
	out, err := k(c)
	if err != nil {
		var ae *ArgError
		var ce *CallError
		switch {
		case errors.As(err, &ce):
			return nil, err
		case errors.As(err, &ae):
			return nil, &CallError{Op: o.schema.QualifiedName(), Arg: ae.Arg, Err: ae.Err}
		}
		return nil, &CallError{Op: o.schema.QualifiedName(), Err: err}
	}
	if len(out) != len(c.schema.Returns) && !c.schema.VarRets {
		return nil, &CallError{Op: o.schema.QualifiedName(), Err: fmt.Errorf("internal error: kernel returned %d values for %d returns", len(out), len(c.schema.Returns))}
	}
	return out, nil
}

func (c *Call) hasMeta() bool {
	for _, v := range c.vals {
		switch x := v.(type) {
		case *tensor.Tensor:
			if x != nil && x.IsMeta() {
				return true
			}
		case []*tensor.Tensor:
			for _, t := range x {
				if t != nil && t.IsMeta() {
					return true
				}
			}
		}
	}
	return false
}

func findTracer(args []any, kwargs map[string]any) Tracer {
	for _, a := range args {
		if tr := tracerOf(a); tr != nil {
			return tr
		}
	}
	for _, a := range kwargs {
		if tr := tracerOf(a); tr != nil {
			return tr
		}
	}
	return nil
}

func tracerOf(v any) Tracer {
	switch x := v.(type) {
	case Symbolic:
		return x.Tracer()
	case []any:
		for _, e := range x {
			if tr := tracerOf(e); tr != nil {
				return tr
			}
		}
	}
	return nil
}

// Bind binds args and kwargs to the operator's schema without running
// anything: the check the dispatch point makes before a kernel runs.
//
// An operator with older schemas (see Schemas) is bound to the newest
// schema that accepts the call: a call written for PyTorch 2.6 binds to
// 2.14's schema when 2.14 only added arguments with defaults, and to 2.6's
// when 2.14 renamed or dropped an argument the call names. A call bound to
// an older schema is moved onto the newest one when every argument it
// gave has a place there (same name, or a renamed argument at the same
// position) and the newest schema's other arguments have defaults, so that
// kernels, which read arguments by the newest schema's names, see one
// layout; otherwise the Call keeps the older schema (Call.Schema). The
// error of a call no schema accepts is the newest schema's.
func (o *Operator) Bind(args []any, kwargs map[string]any) (*Call, error) {
	c, err := o.bindTo(o.schema, o.defaults(), args, kwargs)
	if err == nil || len(o.older) == 0 {
		return c, err
	}
	for _, s := range o.older {
		oc, oerr := o.bindTo(s, schemaDefaults(s), args, kwargs)
		if oerr != nil {
			continue
		}
		if vals, ok := o.upgrade(s, oc.vals, true); ok {
			return &Call{Op: o, schema: o.schema, vals: vals}, nil
		}
		return oc, nil
	}
	return nil, err
}

// bindTo binds the call to s, one of the operator's schemas, whose decoded
// defaults are defs.
func (o *Operator) bindTo(s *Schema, defs []any, args []any, kwargs map[string]any) (*Call, error) {
	vals, set, err := place(s, defs, args, kwargs)
	if err != nil {
		return nil, err
	}
	for i, a := range s.Args {
		if !set[i] {
			continue
		}
		v, err := normalize(a.Type, vals[i])
		if err != nil {
			return nil, &CallError{Op: s.QualifiedName(), Arg: a.Name, Err: err}
		}
		vals[i] = v
	}
	return &Call{Op: o, schema: s, vals: vals}, nil
}

// upgrade moves vals, the arguments of a call placed in the order of old
// (an older schema of o), to the order of o's schema: each argument goes
// to the argument of the same name, or, renamed, to the one at its
// position whose name old lacks; the other arguments of the newest schema
// take their defaults. It fails when an argument has no place there or an
// argument without default would be missing; with check, also when a value
// does not fit the newest type (values are then normalized to it).
func (o *Operator) upgrade(old *Schema, vals []any, check bool) ([]any, bool) {
	s := o.schema
	out := make([]any, len(s.Args))
	used := make([]bool, len(old.Args))
	defs := o.defaults()
	for i, a := range s.Args {
		j := old.argIndex(a.Name)
		if j < 0 && i < len(old.Args) && s.argIndex(old.Args[i].Name) < 0 && old.Args[i].KwargOnly == a.KwargOnly {
			j = i
		}
		if j < 0 {
			if a.Default == nil {
				return nil, false
			}
			out[i] = cloneDefault(defs[i])
			continue
		}
		v := vals[j]
		if check {
			var err error
			if v, err = normalize(a.Type, v); err != nil {
				return nil, false
			}
		}
		out[i], used[j] = v, true
	}
	for _, u := range used {
		if !u {
			return nil, false
		}
	}
	return out, true
}

// Place puts args and kwargs in schema order, one value per schema
// argument, with defaults (decoded to Go values: int64, float64, bool,
// string, Scalar, ScalarType, []int64, ...) where the caller gave none.
// Unlike Bind it checks only the arity and the keyword names, not the
// values: analyses that call operators on values other than tensors (fake
// tensors, symbolic sizes) read their arguments from it. Like Bind it
// falls back to the operator's older schemas, and the values come in the
// order of the newest schema; a call that fits only an older schema and
// cannot be moved onto the newest is refused with the newest's error.
func (o *Operator) Place(args []any, kwargs map[string]any) ([]any, error) {
	vals, _, err := place(o.schema, o.defaults(), args, kwargs)
	if err == nil || len(o.older) == 0 {
		return vals, err
	}
	for _, s := range o.older {
		if ovals, _, oerr := place(s, schemaDefaults(s), args, kwargs); oerr == nil {
			if up, ok := o.upgrade(s, ovals, false); ok {
				return up, nil
			}
		}
	}
	return nil, err
}

// place returns the values in the order of schema s, whose decoded
// defaults are defaults, and which ones the caller gave.
func place(s *Schema, defaults []any, args []any, kwargs map[string]any) ([]any, []bool, error) {
	name := s.QualifiedName()
	vals := make([]any, len(s.Args))
	set := make([]bool, len(s.Args))
	pos := 0
	for i, a := range s.Args {
		if a.KwargOnly {
			continue
		}
		if pos < len(args) {
			vals[i], set[i] = args[pos], true
			pos++
		}
	}
	if pos < len(args) && s.VarArgs {
		return nil, nil, &CallError{Op: name, Err: fmt.Errorf("takes %d positional arguments before its variadic '...', and gofx does not bind variadic arguments (%d were given)", pos, len(args))}
	}
	if pos < len(args) {
		return nil, nil, &CallError{Op: name, Err: fmt.Errorf("takes at most %d positional arguments but %d were given", pos, len(args))}
	}
	for k, v := range kwargs {
		i := s.argIndex(k)
		if i < 0 {
			return nil, nil, &CallError{Op: name, Err: fmt.Errorf("got an unexpected keyword argument '%s'", k)}
		}
		if set[i] {
			return nil, nil, &CallError{Op: name, Arg: k, Err: fmt.Errorf("given both by position and by keyword")}
		}
		vals[i], set[i] = v, true
	}
	for i, a := range s.Args {
		if !set[i] {
			if a.Default == nil {
				return nil, nil, &CallError{Op: name, Arg: a.Name, Err: fmt.Errorf("missing required argument of type %s", a.Type)}
			}
			vals[i] = cloneDefault(defaults[i])
		}
	}
	return vals, set, nil
}

// cloneDefault copies a list default, so that a kernel that changes the
// list it is given does not change the default of later calls.
func cloneDefault(v any) any {
	switch x := v.(type) {
	case []int64:
		return slices.Clone(x)
	case []float64:
		return slices.Clone(x)
	case []bool:
		return slices.Clone(x)
	}
	return v
}

func (s *Schema) argIndex(name string) int {
	for i, a := range s.Args {
		if a.Name == name {
			return i
		}
	}
	return -1
}

// defaults returns the decoded default of every argument of the newest
// schema (nil where there is none), computed once per operator.
func (o *Operator) defaults() []any {
	o.defOnce.Do(func() { o.defVals = schemaDefaults(o.schema) })
	return o.defVals
}

// schemaDefaults decodes the defaults of s.
func schemaDefaults(s *Schema) []any {
	out := make([]any, len(s.Args))
	for i, a := range s.Args {
		if a.Default != nil {
			out[i] = decodeDefault(a.Type, a.Default)
		}
	}
	return out
}

func decodeDefault(t *Type, d *Default) any {
	if d.IsNone() {
		return nil
	}
	if t.Kind == OptionalOf {
		t = t.Elem
	}
	switch t.Kind {
	case Named:
		switch t.Name {
		case "int", "SymInt":
			if v, err := d.Int(); err == nil {
				return v
			}
		case "float":
			if v, err := d.Float(); err == nil {
				return v
			}
		case "bool":
			if v, err := d.Bool(); err == nil {
				return v
			}
		case "str":
			if v, err := d.Str(); err == nil {
				return v
			}
		case "Scalar":
			if v, err := d.Int(); err == nil {
				return IntScalar(v)
			}
			if v, err := d.Float(); err == nil {
				return FloatScalar(v)
			}
			if v, err := d.Bool(); err == nil {
				return BoolScalar(v)
			}
		case "ScalarType":
			if dt, err := tensor.ParseDType(d.Text); err == nil {
				return dt
			}
			if code, err := d.Int(); err == nil {
				if dt, ok := DTypeFromCode(code); ok {
					return dt
				}
			}
		}
	case ListOf:
		switch t.Elem.Name {
		case "int", "SymInt":
			if v, err := d.Ints(t.Size); err == nil {
				return v
			}
		case "bool":
			body := strings.Trim(d.Text, "[]")
			var out []bool
			for _, f := range strings.Split(body, ",") {
				out = append(out, strings.TrimSpace(f) == "True")
			}
			return out
		case "float":
			body := strings.TrimSpace(strings.Trim(d.Text, "[]"))
			out := []float64{}
			if body != "" {
				for _, f := range strings.Split(body, ",") {
					v, _ := strconv.ParseFloat(strings.TrimSpace(f), 64)
					out = append(out, v)
				}
			}
			return out
		}
	}
	return d.Text
}

// scalarType is the type Scalar, to which a number given for a Tensor
// parameter is normalized before it is wrapped.
var scalarType = &Type{Kind: Named, Name: "Scalar"}

// normalize checks v against t and returns it in the canonical Go form.
func normalize(t *Type, v any) (any, error) {
	if _, ok := v.(Symbolic); ok {
		return v, nil
	}
	if t.Kind == OptionalOf {
		if v == nil {
			return nil, nil
		}
		if tt, ok := v.(*tensor.Tensor); ok && tt == nil {
			return nil, nil
		}
		return normalize(t.Elem, v)
	}
	bad := func() error { return fmt.Errorf("expected %s, got %s", t, typeName(v)) }
	switch t.Kind {
	case Named:
		switch t.Name {
		case "Tensor":
			if x, ok := v.(*tensor.Tensor); ok && x != nil {
				return x, nil
			}
			// A Python number is wrapped, as PyTorch's argument parser
			// does: aten.mul.Tensor(x, 0.5) keeps its overload, and the
			// number takes part in type promotion as a number.
			if s, err := normalize(scalarType, v); err == nil {
				return s.(Scalar).Wrapped(), nil
			}
			return nil, bad()
		case "int", "SymInt":
			switch x := v.(type) {
			case int64:
				return x, nil
			case int:
				return int64(x), nil
			}
			return nil, bad()
		case "float":
			switch x := v.(type) {
			case float64:
				return x, nil
			case float32:
				return float64(x), nil
			case int64:
				return float64(x), nil
			case int:
				return float64(x), nil
			}
			return nil, bad()
		case "bool":
			if x, ok := v.(bool); ok {
				return x, nil
			}
			return nil, bad()
		case "str":
			if x, ok := v.(string); ok {
				return x, nil
			}
			return nil, bad()
		case "Scalar":
			switch x := v.(type) {
			case Scalar:
				if x.v == nil {
					return nil, bad()
				}
				return x, nil
			case int64:
				return IntScalar(x), nil
			case int:
				return IntScalar(int64(x)), nil
			case float64:
				return FloatScalar(x), nil
			case float32:
				return FloatScalar(float64(x)), nil
			case bool:
				return BoolScalar(x), nil
			}
			return nil, bad()
		case "ScalarType":
			switch x := v.(type) {
			case tensor.DType:
				if x.Valid() {
					return x, nil
				}
			case int64:
				if dt, ok := DTypeFromCode(x); ok {
					return dt, nil
				}
			case int:
				if dt, ok := DTypeFromCode(int64(x)); ok {
					return dt, nil
				}
			case string:
				if dt, err := tensor.ParseDType(x); err == nil {
					return dt, nil
				}
			}
			return nil, bad()
		case "complex":
			switch x := v.(type) {
			case complex128:
				return x, nil
			case complex64:
				return complex128(x), nil
			case float64:
				return complex(x, 0), nil
			case float32:
				return complex(float64(x), 0), nil
			case int64:
				return complex(float64(x), 0), nil
			case int:
				return complex(float64(x), 0), nil
			}
			return nil, bad()
		case "Device", "Layout", "MemoryFormat":
			switch x := v.(type) {
			case string:
				return x, nil
			case fmt.Stringer:
				return x.String(), nil
			}
			return nil, bad()
		}
		return v, nil
	case ListOf:
		return normalizeList(t, v)
	}
	return v, nil
}

func normalizeList(t *Type, v any) (any, error) {
	bad := func() error { return fmt.Errorf("expected %s, got %s", t, typeName(v)) }
	checkLen := func(n int) error {
		if t.Size > 0 && n != t.Size {
			return fmt.Errorf("expected %s (a list of %d), got a list of %d", t, t.Size, n)
		}
		return nil
	}
	elem := t.Elem
	switch {
	case elem.Kind == Named && (elem.Name == "int" || elem.Name == "SymInt"):
		var out []int64
		switch x := v.(type) {
		case []int64:
			out = x
		case []int:
			out = make([]int64, len(x))
			for i, e := range x {
				out[i] = int64(e)
			}
		case int64, int:
			if t.Size == 0 {
				return nil, bad()
			}
			e, _ := normalize(elem, x)
			out = make([]int64, t.Size)
			for i := range out {
				out[i] = e.(int64)
			}
		case []any:
			out = make([]int64, len(x))
			for i, e := range x {
				n, err := normalize(elem, e)
				if err != nil {
					return nil, fmt.Errorf("element %d: %w", i, err)
				}
				if _, sym := n.(Symbolic); sym {
					return x, nil
				}
				out[i] = n.(int64)
			}
		default:
			return nil, bad()
		}
		// Like PyTorch's argument parser, a fixed size only lets a single
		// int stand for the whole list (int[2] stride=1 is [1, 1]); lists
		// of another length reach the kernel, which checks them
		// (sum's int[1] dim takes any number of dims).
		return out, nil
	case elem.Kind == Named && elem.Name == "float":
		switch x := v.(type) {
		case []float64:
			return x, checkLen(len(x))
		case []any:
			out := make([]float64, len(x))
			for i, e := range x {
				n, err := normalize(elem, e)
				if err != nil {
					return nil, fmt.Errorf("element %d: %w", i, err)
				}
				out[i] = n.(float64)
			}
			return out, checkLen(len(out))
		}
		return nil, bad()
	case elem.Kind == Named && elem.Name == "bool":
		if x, ok := v.([]bool); ok {
			return x, checkLen(len(x))
		}
		return nil, bad()
	case elem.Kind == Named && elem.Name == "Tensor", elem.Kind == OptionalOf && elem.Elem.Name == "Tensor":
		optional := elem.Kind == OptionalOf
		switch x := v.(type) {
		case []*tensor.Tensor:
			if !optional {
				for i, e := range x {
					if e == nil {
						return nil, fmt.Errorf("element %d: expected Tensor, got None", i)
					}
				}
			}
			return x, checkLen(len(x))
		case []any:
			out := make([]*tensor.Tensor, len(x))
			for i, e := range x {
				if _, sym := e.(Symbolic); sym {
					return x, nil
				}
				tt, ok := e.(*tensor.Tensor)
				if e == nil || (ok && tt == nil) {
					if !optional {
						return nil, fmt.Errorf("element %d: expected Tensor, got None", i)
					}
					continue
				}
				if !ok {
					return nil, fmt.Errorf("element %d: expected Tensor, got %s", i, typeName(e))
				}
				out[i] = tt
			}
			return out, checkLen(len(out))
		}
		return nil, bad()
	case elem.Kind == Named && elem.Name == "str":
		switch x := v.(type) {
		case []string:
			return x, checkLen(len(x))
		case []any:
			out := make([]string, len(x))
			for i, e := range x {
				s, ok := e.(string)
				if !ok {
					return nil, fmt.Errorf("element %d: expected str, got %s", i, typeName(e))
				}
				out[i] = s
			}
			return out, checkLen(len(out))
		}
		return nil, bad()
	}
	// Other element types (Scalar, t, Any, ...) are passed through, but
	// the value must be a list.
	if v == nil || reflect.TypeOf(v).Kind() != reflect.Slice {
		return nil, bad()
	}
	return v, nil
}

func (c *Call) index(name string) int {
	i := c.schema.argIndex(name)
	if i < 0 {
		panic(fmt.Sprintf("kernel reads argument %q, which %s does not have", name, c.schema))
	}
	return i
}

// Arg returns the bound value of the named argument (nil for None).
func (c *Call) Arg(name string) any { return c.vals[c.index(name)] }

// IsNone reports whether the named argument is None.
func (c *Call) IsNone(name string) bool { return c.vals[c.index(name)] == nil }

// Tensor returns a Tensor or Tensor? argument (nil for None).
func (c *Call) Tensor(name string) *tensor.Tensor {
	t, _ := c.vals[c.index(name)].(*tensor.Tensor)
	return t
}

// Tensors returns a Tensor[] or Tensor?[] argument (elements of the latter
// may be nil).
func (c *Call) Tensors(name string) []*tensor.Tensor {
	t, _ := c.vals[c.index(name)].([]*tensor.Tensor)
	return t
}

// Int returns an int argument.
func (c *Call) Int(name string) int64 { return c.vals[c.index(name)].(int64) }

// OptInt returns an int? argument and whether it is set.
func (c *Call) OptInt(name string) (int64, bool) {
	v, ok := c.vals[c.index(name)].(int64)
	return v, ok
}

// Float returns a float argument.
func (c *Call) Float(name string) float64 { return c.vals[c.index(name)].(float64) }

// OptFloat returns a float? argument and whether it is set.
func (c *Call) OptFloat(name string) (float64, bool) {
	v, ok := c.vals[c.index(name)].(float64)
	return v, ok
}

// Bool returns a bool argument (false for a None bool?).
func (c *Call) Bool(name string) bool { v, _ := c.vals[c.index(name)].(bool); return v }

// Str returns a str argument ("" for None).
func (c *Call) Str(name string) string { v, _ := c.vals[c.index(name)].(string); return v }

// Scalar returns a Scalar argument.
func (c *Call) Scalar(name string) Scalar { return c.vals[c.index(name)].(Scalar) }

// OptScalar returns a Scalar? argument and whether it is set.
func (c *Call) OptScalar(name string) (Scalar, bool) {
	v, ok := c.vals[c.index(name)].(Scalar)
	return v, ok
}

// Ints returns an int[] argument (nil for None).
func (c *Call) Ints(name string) []int64 { v, _ := c.vals[c.index(name)].([]int64); return v }

// Floats returns a float[] argument (nil for None).
func (c *Call) Floats(name string) []float64 { v, _ := c.vals[c.index(name)].([]float64); return v }

// Bools returns a bool[] argument (nil for None).
func (c *Call) Bools(name string) []bool { v, _ := c.vals[c.index(name)].([]bool); return v }

// DType returns a ScalarType? argument and whether it is set.
func (c *Call) DType(name string) (tensor.DType, bool) {
	v, ok := c.vals[c.index(name)].(tensor.DType)
	return v, ok
}

// Errorf returns an error that blames the named argument.
func (c *Call) Errorf(arg, format string, a ...any) error {
	return &ArgError{Arg: arg, Err: fmt.Errorf(format, a...)}
}

// opState is the mutable part of an Operator, kept apart so that the
// registry's fields stay as they were.
type opState struct {
	implMu  sync.Mutex
	impl    atomic.Pointer[impls]
	defOnce sync.Once
	defVals []any
}

// scalarTypeCodes maps c10::ScalarType's enum values, which schemas use as
// ScalarType defaults (randperm's dtype=4 is int64) and TorchScript passes
// as ints, to dtypes.
var scalarTypeCodes = map[int64]tensor.DType{
	0: tensor.Uint8, 1: tensor.Int8, 2: tensor.Int16, 3: tensor.Int32, 4: tensor.Int64,
	5: tensor.Float16, 6: tensor.Float32, 7: tensor.Float64, 11: tensor.Bool, 15: tensor.BFloat16,
}

// DTypeFromCode returns the dtype of c10::ScalarType enum value code.
func DTypeFromCode(code int64) (tensor.DType, bool) {
	dt, ok := scalarTypeCodes[code]
	return dt, ok
}
