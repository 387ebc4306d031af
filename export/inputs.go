package export

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/tensor"
)

// Register makes the Go struct type T a pytree node, as PyTorch's
// torch.export.register_dataclass(cls, serialized_type_name=name) makes a
// dataclass one: a T (or *T) given to Export, Call or Run, in or out of a
// model, is a node whose children are its exported fields that are not
// None, in declaration order, under their names (the field's
// `pytree:"name"` tag, or its Go name; a tag of "-" leaves the field out).
// Its spec has the type name, and as context [[child field names], [None
// field names]], which is what PyTorch writes for a dataclass; a .pt2
// holding it loads in PyTorch once a dataclass of the same field names is
// registered under the same name (torch.export.register_dataclass) before
// torch.export.load; PyTorch 2.6's ep.module() also needs
// torch.fx._pytree.register_pytree_flatten_spec for it (see the package
// documentation).
//
// Model code gets a registered struct input as an nn.Value holding a T (or
// *T, as given) whose nn.Value fields hold the traced values: read it with
// x.Any().(*T). So that tracing reaches them, fields holding tensors must
// be nn.Value (or any); a field of another type (int, float64, bool,
// string) is a constant, specialized into the program. Register fails for
// a T that is no struct, a name already taken by another type, or a field
// of a type that cannot hold a traced value (a *tensor.Tensor: use
// nn.Value).
func Register[T any](name string) error {
	typ := reflect.TypeFor[T]()
	if typ.Kind() != reflect.Struct {
		return fmt.Errorf("export: Register: %v is not a struct type", typ)
	}
	if name == "" || strings.ContainsAny(name, "\"'\\") {
		return fmt.Errorf("export: Register: %v: the serialized type name %q must be non-empty, without quotes or backslashes", typ, name)
	}
	if slices.Contains(knownTypes(), name) {
		return fmt.Errorf("export: Register: %v: %s is a builtin pytree type", typ, name)
	}
	rt := &registered{name: name, typ: typ}
	for i := range typ.NumField() {
		f := typ.Field(i)
		if !f.IsExported() {
			continue
		}
		fname := f.Name
		if tag, ok := f.Tag.Lookup("pytree"); ok {
			if tag == "-" {
				continue
			}
			fname = tag
		}
		switch {
		case f.Type == valueType || f.Type.Kind() == reflect.Interface:
		case f.Type.Kind() == reflect.Bool || f.Type.Kind() == reflect.String ||
			(f.Type.Kind() >= reflect.Int && f.Type.Kind() <= reflect.Int64) ||
			f.Type.Kind() == reflect.Float32 || f.Type.Kind() == reflect.Float64:
		default:
			return fmt.Errorf("export: Register: %v.%s has type %v, which cannot hold a traced value: use nn.Value (or a bool, int, float or string constant)", typ, f.Name, f.Type)
		}
		for _, g := range rt.fields {
			if g.name == fname {
				return fmt.Errorf("export: Register: %v: two fields are named %q", typ, fname)
			}
		}
		rt.fields = append(rt.fields, structField{name: fname, index: i})
	}
	registry.Lock()
	defer registry.Unlock()
	if other, ok := registry.byName[name]; ok && other.typ != typ {
		return fmt.Errorf("export: Register: %v: the name %s is taken by %v", typ, name, other.typ)
	}
	if other, ok := registry.byType[typ]; ok && other.name != name {
		return fmt.Errorf("export: Register: %v is registered as %s", typ, other.name)
	}
	registry.byName[name] = rt
	registry.byType[typ] = rt
	return nil
}

var valueType = reflect.TypeFor[nn.Value]()

// registered is a struct type registered as a pytree node.
type registered struct {
	name   string
	typ    reflect.Type
	fields []structField
}

type structField struct {
	name  string
	index int
}

func (rt *registered) field(name string) (structField, bool) {
	for _, f := range rt.fields {
		if f.name == name {
			return f, true
		}
	}
	return structField{}, false
}

var registry = struct {
	sync.RWMutex
	byName map[string]*registered
	byType map[reflect.Type]*registered
}{byName: map[string]*registered{}, byType: map[reflect.Type]*registered{}}

func registeredNamed(name string) *registered {
	registry.RLock()
	defer registry.RUnlock()
	return registry.byName[name]
}

// registeredStruct returns the registered type of v (a T or *T) and the
// struct's value, or nil.
func registeredStruct(v any) (*registered, reflect.Value) {
	rv := reflect.ValueOf(v)
	if !rv.IsValid() {
		return nil, rv
	}
	if rv.Kind() == reflect.Pointer {
		if rv.IsNil() {
			return nil, rv
		}
		rv = rv.Elem()
	}
	registry.RLock()
	rt := registry.byType[rv.Type()]
	registry.RUnlock()
	return rt, rv
}

// structContext is a registered struct's spec context: [[child names],
// [None names]], as PyTorch's dataclass flattening has it.
func structContext(children, nones []string) any {
	c := make([]any, len(children))
	for i, n := range children {
		c[i] = n
	}
	z := make([]any, len(nones))
	for i, n := range nones {
		z[i] = n
	}
	return []any{c, z}
}

// structNames returns the child and None field names of a struct spec's
// context.
func structNames(ctx any) (children, nones []string, ok bool) {
	parts, isList := ctx.([]any)
	if !isList || len(parts) != 2 {
		return nil, nil, false
	}
	for i, dst := range []*[]string{&children, &nones} {
		names, isList := parts[i].([]any)
		if !isList {
			return nil, nil, false
		}
		for _, n := range names {
			s, isStr := n.(string)
			if !isStr {
				return nil, nil, false
			}
			*dst = append(*dst, s)
		}
	}
	return children, nones, true
}

// isNone reports whether v is Python's None: nil, a nil tensor, nn.None.
func isNone(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case *tensor.Tensor:
		return x == nil
	case nn.Value:
		return x.IsNone()
	}
	return false
}

// A pathKey is one step of a pytree path: a dict key, a sequence index or
// a struct field.
type pathKey struct {
	kind byte // 'k' dict key, 'i' index, 'a' attribute (field)
	key  string
	idx  int
}

// pathString writes a leaf's path as PyTorch's keystr does: "['ids']",
// "[0]", ".field".
func pathString(keys []pathKey) string {
	var b strings.Builder
	for _, k := range keys {
		switch k.kind {
		case 'k':
			b.WriteString("[" + pyQuote(k.key) + "]")
		case 'i':
			fmt.Fprintf(&b, "[%d]", k.idx)
		default:
			b.WriteString("." + k.key)
		}
	}
	return b.String()
}

var notAlnum = regexp.MustCompile(`[^a-zA-Z0-9]`)

// placeholderName names a user input leaf as torch.export's
// placeholder_naming_pass does: the argument's name and the path's keys
// (a dict key with every character other than a letter or digit made
// "_", an index, a field name), lowercased and joined by "_".
func placeholderName(arg string, keys []pathKey) string {
	parts := []string{strings.ToLower(notAlnum.ReplaceAllString(arg, "_"))}
	for _, k := range keys {
		switch k.kind {
		case 'k':
			parts = append(parts, strings.ToLower(notAlnum.ReplaceAllString(k.key, "_")))
		case 'i':
			parts = append(parts, fmt.Sprint(k.idx))
		default:
			parts = append(parts, strings.ToLower(k.key))
		}
	}
	return strings.Join(parts, "_")
}

// leafInput is one leaf of the model's inputs.
type leafInput struct {
	name string // the placeholder's name (batch_ids)
	path string // where it is: batch['ids']
	val  nn.Value
}

const maxInputDepth = 64

// flattenInput returns the spec of one model input (an argument named arg)
// and appends its leaves to out: nn tuples and []nn.Value are tuples,
// other Go slices lists, maps with string keys dicts (sorted keys; an
// nn.Dict keeps its order), registered structs their nodes; anything else
// is a leaf (a tensor, or a value that export specializes, None
// included, as in PyTorch's pytrees). An error names the path.
func flattenInput(arg string, v any, keys []pathKey, out *[]leafInput) (*TreeSpec, error) {
	where := arg + pathString(keys)
	if len(keys) > maxInputDepth {
		return nil, fmt.Errorf("input %s: nested deeper than %d", where, maxInputDepth)
	}
	child := func(k pathKey, e any) (*TreeSpec, error) {
		return flattenInput(arg, e, append(slices.Clip(keys), k), out)
	}
	if isNone(v) {
		// None is a leaf of PyTorch's (Python) pytrees: a constant input.
		*out = append(*out, leafInput{name: placeholderName(arg, keys), path: where, val: nn.None})
		return Leaf(), nil
	}
	if nv, ok := v.(nn.Value); ok {
		switch {
		case nv.IsSymbolic():
			return nil, fmt.Errorf("input %s: a traced value cannot be an example input", where)
		case nv.IsTuple():
			ts := TupleSpec()
			for i, e := range nv.Tuple() {
				c, err := child(pathKey{kind: 'i', idx: i}, e)
				if err != nil {
					return nil, err
				}
				ts.Children = append(ts.Children, c)
			}
			return ts, nil
		case nv.IsDict():
			ks := nv.Keys()
			ts := DictSpec(ks)
			for _, k := range ks {
				c, err := child(pathKey{kind: 'k', key: k}, nv.Get(k))
				if err != nil {
					return nil, err
				}
				ts.Children = append(ts.Children, c)
			}
			return ts, nil
		default:
			v = nv.Any() // a tensor, a number, a registered struct's nn.Object
		}
	}
	switch x := v.(type) {
	case *tensor.Tensor:
		if x.IsMeta() {
			return nil, fmt.Errorf("input %s: a meta tensor has no data to export with", where)
		}
		*out = append(*out, leafInput{name: placeholderName(arg, keys), path: where, val: nn.Tensor(x)})
		return Leaf(), nil
	case []nn.Value:
		ts := TupleSpec()
		for i, e := range x {
			c, err := child(pathKey{kind: 'i', idx: i}, e)
			if err != nil {
				return nil, err
			}
			ts.Children = append(ts.Children, c)
		}
		return ts, nil
	}
	if rt, rv := registeredStruct(v); rt != nil {
		var names, nones []string
		var children []*TreeSpec
		for _, f := range rt.fields {
			e := rv.Field(f.index).Interface()
			if isNone(e) {
				nones = append(nones, f.name)
				continue
			}
			c, err := child(pathKey{kind: 'a', key: f.name}, e)
			if err != nil {
				return nil, err
			}
			names = append(names, f.name)
			children = append(children, c)
		}
		return &TreeSpec{Type: rt.name, Context: structContext(names, nones), Children: children}, nil
	}
	if elems, ok := sliceOf(v); ok {
		ts := ListSpec()
		for i, e := range elems {
			c, err := child(pathKey{kind: 'i', idx: i}, e)
			if err != nil {
				return nil, err
			}
			ts.Children = append(ts.Children, c)
		}
		return ts, nil
	}
	if m, ok := mapOf(v); ok {
		ks := sortedMapKeys(m)
		ts := DictSpec(ks)
		for _, k := range ks {
			c, err := child(pathKey{kind: 'k', key: k}, m[k])
			if err != nil {
				return nil, err
			}
			ts.Children = append(ts.Children, c)
		}
		return ts, nil
	}
	rv := reflect.ValueOf(v)
	if rv.Kind() == reflect.Struct || (rv.Kind() == reflect.Pointer && rv.Elem().Kind() == reflect.Struct) {
		return nil, fmt.Errorf("input %s: a %T is not a pytree: register its type with export.Register", where, v)
	}
	if rv.Kind() == reflect.Map {
		return nil, fmt.Errorf("input %s: a %T is not a pytree: a dict's keys must be strings", where, v)
	}
	val, err := leafValue(v)
	if err != nil {
		return nil, fmt.Errorf("input %s: %w", where, err)
	}
	*out = append(*out, leafInput{name: placeholderName(arg, keys), path: where, val: val})
	return Leaf(), nil
}

// leafValue wraps a non-tensor leaf: an int, float, bool, string or dtype.
func leafValue(v any) (val nn.Value, err error) {
	defer func() {
		if recover() != nil {
			val, err = nn.None, fmt.Errorf("a %T is neither a tensor nor a value export can specialize (an int, float, bool, string or dtype) nor a pytree (a slice, a map with string keys, a registered struct)", v)
		}
	}()
	val = nn.Of(v)
	if val.IsTuple() || val.IsDict() {
		return nn.None, fmt.Errorf("a %T is not a leaf", v)
	}
	return val, nil
}

// modelValue builds the value a model input of structure t gets from its
// leaves' values (proxies of tensors, constants), in order: tuples and
// lists as nn tuples, dicts as nn.Dict, None as nn.None, a registered
// struct as a copy of orig (the example input) with its fields set.
func (t *TreeSpec) modelValue(orig any, leaves []nn.Value) (nn.Value, error) {
	i := 0
	var build func(t *TreeSpec, orig any) (nn.Value, error)
	build = func(t *TreeSpec, orig any) (nn.Value, error) {
		if nv, ok := orig.(nn.Value); ok && !nv.IsTuple() && !nv.IsDict() {
			orig = nv.Any()
		}
		switch {
		case t.IsLeaf():
			v := leaves[i]
			i++
			return v, nil
		case t.Type == NoneType:
			return nn.None, nil
		case t.isDict():
			keys := t.Keys()
			vals := make([]nn.Value, len(keys))
			for j, k := range keys {
				var e any
				if nv, ok := orig.(nn.Value); ok {
					e = nv.Get(k)
				} else if m, ok := mapOf(orig); ok {
					e = m[k]
				}
				v, err := build(t.Children[j], e)
				if err != nil {
					return nn.None, err
				}
				vals[j] = v
			}
			return nn.Dict(keys, vals...), nil
		case t.isSeq():
			var elems []any
			if nv, ok := orig.(nn.Value); ok {
				elems, _ = sliceOf(nv.Tuple())
			} else {
				elems, _ = sliceOf(orig)
			}
			vals := make([]nn.Value, len(t.Children))
			for j, c := range t.Children {
				var e any
				if j < len(elems) {
					e = elems[j]
				}
				v, err := build(c, e)
				if err != nil {
					return nn.None, err
				}
				vals[j] = v
			}
			return nn.Tuple(vals...), nil
		}
		rt, rv := registeredStruct(orig)
		if rt == nil || rt.name != t.Type {
			return nn.None, fmt.Errorf("no registered struct for %s", t.Type)
		}
		names, _, _ := structNames(t.Context)
		cp := reflect.New(rt.typ).Elem()
		cp.Set(rv)
		for j, name := range names {
			f, _ := rt.field(name)
			v, err := build(t.Children[j], rv.Field(f.index).Interface())
			if err != nil {
				return nn.None, err
			}
			if fv := cp.Field(f.index); fv.Type() == valueType || fv.Kind() == reflect.Interface {
				fv.Set(reflect.ValueOf(v))
			}
		}
		if reflect.ValueOf(orig).Kind() == reflect.Pointer {
			return nn.Object(cp.Addr().Interface()), nil
		}
		return nn.Object(cp.Interface()), nil
	}
	return build(t, orig)
}

// boundInputs are the model's inputs, bound to its argument names and
// flattened.
type boundInputs struct {
	args   []string    // the arguments' names, positional then keyword
	values []any       // the arguments' example values
	spec   *TreeSpec   // the spec of (args, kwargs)
	leaves []leafInput // the leaves, in order
}

// byPath returns dims with every key that is a leaf's path as PyTorch
// writes it (xs[0], batch['ids'], p.field) replaced by the leaf's
// placeholder name (xs_0, batch_ids, p_field); a leaf named both ways is
// an error.
func (b *boundInputs) byPath(dims Dims) (Dims, error) {
	var out Dims
	for _, l := range b.leaves {
		d, ok := dims[l.path]
		if !ok || l.path == l.name {
			continue
		}
		if _, both := dims[l.name]; both {
			return nil, &SpecError{Input: l.path, Dim: -1, Msg: fmt.Sprintf("the input is named twice, by its path and as %s", l.name)}
		}
		if out == nil {
			out = make(Dims, len(dims))
			for k, v := range dims {
				out[k] = v
			}
		}
		delete(out, l.path)
		out[l.name] = d
	}
	if out == nil {
		return dims, nil
	}
	return out, nil
}

// names returns the leaves' placeholder names, vals their values.
func (b *boundInputs) names() []string {
	out := make([]string, len(b.leaves))
	for i, l := range b.leaves {
		out[i] = l.name
	}
	return out
}

func (b *boundInputs) vals() []nn.Value {
	out := make([]nn.Value, len(b.leaves))
	for i, l := range b.leaves {
		out[i] = l.val
	}
	return out
}
