package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/tensor"
)

// The pytree node types of PyTorch's torch.utils._pytree, by their serialized names.
const (
	TupleType       = "builtins.tuple"
	ListType        = "builtins.list"
	DictType        = "builtins.dict"
	NoneType        = "builtins.NoneType"
	NamedTupleType  = "collections.namedtuple"
	OrderedDictType = "collections.OrderedDict"
	DefaultDictType = "collections.defaultdict"
	DequeType       = "collections.deque"
)

// A TreeSpec is the structure of a nested value (PyTorch's pytree TreeSpec): a leaf, or a
// node of a container type with a context and one spec per child. A program's in spec is
// the spec of (args, kwargs), a tuple of a tuple and a dict; its out spec is the spec of
// what the model returns.
//
// In Go, tuples, lists, namedtuples and deques are slices ([]any, []nn.Value,
// []*tensor.Tensor, or an nn.Value tuple), dicts (plain, ordered, default) are maps with
// string keys (map[string]any, map[string]*tensor.Tensor), None is nil (or nn.None), and a
// leaf is any value.
type TreeSpec struct {
	// Type is the serialized type name (TupleType, DictType, ...); "" for a leaf.
	Type string
	// Context is the node's context, decoded from JSON: for a dict the keys ([]any of
	// string and int64), for a namedtuple the type's name, nil for tuples and lists; for
	// other types what the file holds (a JSON value: nil, bool, float64, string, []any,
	// map[string]any).
	Context any
	// Children are the specs of the node's children.
	Children []*TreeSpec
}

// Leaf returns the spec of one value.
func Leaf() *TreeSpec { return &TreeSpec{} }

// TupleSpec returns the spec of a tuple of the given children.
func TupleSpec(children ...*TreeSpec) *TreeSpec {
	return &TreeSpec{Type: TupleType, Children: children}
}

// ListSpec returns the spec of a list of the given children.
func ListSpec(children ...*TreeSpec) *TreeSpec {
	return &TreeSpec{Type: ListType, Children: children}
}

// DictSpec returns the spec of a dict with the keys, in order, and their values' specs.
func DictSpec(keys []string, children ...*TreeSpec) *TreeSpec {
	ks := make([]any, len(keys))
	for i, k := range keys {
		ks[i] = k
	}
	return &TreeSpec{Type: DictType, Context: ks, Children: children}
}

// IsLeaf reports whether t is a leaf.
func (t *TreeSpec) IsLeaf() bool { return t == nil || t.Type == "" }

// NumLeaves returns the number of leaves of t.
func (t *TreeSpec) NumLeaves() int {
	if t.IsLeaf() {
		return 1
	}
	n := 0
	for _, c := range t.Children {
		n += c.NumLeaves()
	}
	return n
}

func (t *TreeSpec) isSeq() bool {
	switch t.Type {
	case TupleType, ListType, NamedTupleType, DequeType:
		return true
	}
	return false
}

func (t *TreeSpec) isDict() bool {
	switch t.Type {
	case DictType, OrderedDictType, DefaultDictType:
		return true
	}
	return false
}

// Keys returns the keys of a dict node as strings (an int key as its decimal form).
func (t *TreeSpec) Keys() []string {
	ctx := t.Context
	if t.Type == DefaultDictType {
		if m, ok := ctx.(map[string]any); ok {
			ctx = m["dict_context"]
		}
	}
	ks, _ := ctx.([]any)
	out := make([]string, len(ks))
	for i, k := range ks {
		out[i] = keyString(k)
	}
	return out
}

func keyString(k any) string {
	switch x := k.(type) {
	case string:
		return x
	case int64:
		return strconv.FormatInt(x, 10)
	case float64:
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return fmt.Sprint(k)
}

// validate checks the structure: known container types, a context that fits, as many
// children as the context says.
func (t *TreeSpec) validate(path string, depth int) error {
	if depth > maxTreeDepth {
		return fmt.Errorf("pytree spec%s: nested deeper than %d", path, maxTreeDepth)
	}
	if t == nil {
		return fmt.Errorf("pytree spec%s: nil spec", path)
	}
	switch {
	case t.Type == "":
		if len(t.Children) != 0 {
			return fmt.Errorf("pytree spec%s: a leaf with %d children", path, len(t.Children))
		}
	case t.Type == NoneType:
		if len(t.Children) != 0 {
			return fmt.Errorf("pytree spec%s: None with %d children", path, len(t.Children))
		}
	case t.isDict():
		if k := len(t.Keys()); k != len(t.Children) {
			return fmt.Errorf("pytree spec%s: a %s with %d keys and %d children", path, t.Type, k, len(t.Children))
		}
	case t.isSeq():
	case registeredNamed(t.Type) != nil:
		names, _, ok := structNames(t.Context)
		if !ok {
			return fmt.Errorf("pytree spec%s: a %s's context must be [[child field names], [None field names]], got %v", path, t.Type, t.Context)
		}
		if len(names) != len(t.Children) {
			return fmt.Errorf("pytree spec%s: a %s with %d child fields and %d children", path, t.Type, len(names), len(t.Children))
		}
		rt := registeredNamed(t.Type)
		for _, n := range names {
			if _, ok := rt.field(n); !ok {
				return fmt.Errorf("pytree spec%s: %v (registered as %s) has no field %q", path, rt.typ, t.Type, n)
			}
		}
	default:
		return fmt.Errorf("pytree spec%s: unknown node type %q (known: %s; a Go struct type is one once export.Register registers it)", path, t.Type, strings.Join(knownTypes(), ", "))
	}
	for i, c := range t.Children {
		if err := c.validate(t.childPath(path, i), depth+1); err != nil {
			return err
		}
	}
	return nil
}

func knownTypes() []string {
	return []string{TupleType, ListType, DictType, NoneType, NamedTupleType, OrderedDictType, DefaultDictType, DequeType}
}

const maxTreeDepth = 100

// childPath is the path of child i: "[0]", "['key']" or ".field".
func (t *TreeSpec) childPath(path string, i int) string {
	if names, _, ok := structNames(t.Context); ok && !t.isDict() && !t.isSeq() && i < len(names) {
		return path + "." + names[i]
	}
	if t.isDict() {
		if ks := t.Keys(); i < len(ks) {
			return fmt.Sprintf("%s[%q]", path, ks[i])
		}
	}
	return fmt.Sprintf("%s[%d]", path, i)
}

// Flatten returns the leaves of v, which must have the structure of t. Its error names
// the position in v (as name[0]["key"]) and what was expected there.
func (t *TreeSpec) Flatten(name string, v any) ([]any, error) {
	var out []any
	err := t.flatten(name, v, &out)
	return out, err
}

func (t *TreeSpec) flatten(path string, v any, out *[]any) error {
	if t.IsLeaf() {
		*out = append(*out, v)
		return nil
	}
	if nv, ok := v.(nn.Value); ok {
		switch {
		case nv.IsTuple():
			v = nv.Tuple()
		case nv.IsDict():
			v = nv.Any()
		case nv.IsNone():
			v = nil
		}
	}
	switch {
	case t.Type == NoneType:
		if v != nil {
			return fmt.Errorf("%s: expected None, got %s", path, describe(v))
		}
		return nil
	case t.isSeq():
		elems, ok := sliceOf(v)
		if !ok {
			return fmt.Errorf("%s: expected a %s of %d elements, got %s", path, shortType(t.Type), len(t.Children), describe(v))
		}
		if len(elems) != len(t.Children) {
			return fmt.Errorf("%s: expected a %s of %d elements, got %d", path, shortType(t.Type), len(t.Children), len(elems))
		}
		for i, c := range t.Children {
			if err := c.flatten(t.childPath(path, i), elems[i], out); err != nil {
				return err
			}
		}
		return nil
	case t.isDict():
		m, ok := mapOf(v)
		keys := t.Keys()
		if !ok {
			return fmt.Errorf("%s: expected a dict with keys %q, got %s", path, keys, describe(v))
		}
		for _, k := range sortedMapKeys(m) {
			found := false
			for _, want := range keys {
				found = found || want == k
			}
			if !found {
				return fmt.Errorf("%s: unexpected key %q (expected %q)", path, k, keys)
			}
		}
		for i, c := range t.Children {
			e, ok := m[keys[i]]
			if !ok {
				return fmt.Errorf("%s: missing key %q (expected %q)", path, keys[i], keys)
			}
			if err := c.flatten(t.childPath(path, i), e, out); err != nil {
				return err
			}
		}
		return nil
	}
	if rt := registeredNamed(t.Type); rt != nil {
		if nv, ok := v.(nn.Value); ok {
			v = nv.Any()
		}
		got, rv := registeredStruct(v)
		if got != rt {
			return fmt.Errorf("%s: expected a %v, got %s", path, rt.typ, describe(v))
		}
		names, _, _ := structNames(t.Context)
		for _, f := range rt.fields {
			e := rv.Field(f.index).Interface()
			if !slices.Contains(names, f.name) && !isNone(e) {
				return fmt.Errorf("%s.%s: expected None (the field was None when the program was exported), got %s", path, f.name, describe(e))
			}
		}
		for i, n := range names {
			f, _ := rt.field(n)
			if err := t.Children[i].flatten(t.childPath(path, i), rv.Field(f.index).Interface(), out); err != nil {
				return err
			}
		}
		return nil
	}
	return fmt.Errorf("%s: unknown pytree node type %q", path, t.Type)
}

func shortType(typ string) string {
	if i := strings.LastIndexByte(typ, '.'); i >= 0 {
		return typ[i+1:]
	}
	return typ
}

func describe(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case *tensor.Tensor:
		if x == nil {
			return "None"
		}
		return fmt.Sprintf("a tensor %s%v", x.DType(), x.Shape())
	case nn.Value:
		return "a " + x.Kind()
	case int, int64, int32:
		return "an int"
	case float64, float32:
		return "a float"
	}
	return fmt.Sprintf("a %T", v)
}

// sliceOf returns the elements of a Go slice or array (or nil, false).
func sliceOf(v any) ([]any, bool) {
	switch x := v.(type) {
	case []any:
		return x, true
	case []nn.Value:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = e
		}
		return out, true
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || (rv.Kind() != reflect.Slice && rv.Kind() != reflect.Array) || rv.Type().Elem().Kind() == reflect.Uint8 {
		return nil, false
	}
	out := make([]any, rv.Len())
	for i := range out {
		out[i] = rv.Index(i).Interface()
	}
	return out, true
}

// mapOf returns the entries of a Go map with string keys (or nil, false).
func mapOf(v any) (map[string]any, bool) {
	if m, ok := v.(map[string]any); ok {
		return m, true
	}
	rv := reflect.ValueOf(v)
	if !rv.IsValid() || rv.Kind() != reflect.Map || rv.Type().Key().Kind() != reflect.String {
		return nil, false
	}
	out := make(map[string]any, rv.Len())
	it := rv.MapRange()
	for it.Next() {
		out[it.Key().String()] = it.Value().Interface()
	}
	return out, true
}

func sortedMapKeys(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Unflatten builds the value of structure t from its leaves: tuples, lists, namedtuples
// and deques as []any, dicts as map[string]any, None as nil, a registered struct as a
// pointer to a new one whose fields hold its children (an nn.Value field the child's
// nn.Value).
func (t *TreeSpec) Unflatten(leaves []any) (any, error) {
	if n := t.NumLeaves(); n != len(leaves) {
		return nil, fmt.Errorf("pytree: the spec has %d leaves, got %d values", n, len(leaves))
	}
	i := 0
	var build func(t *TreeSpec) any
	build = func(t *TreeSpec) any {
		switch {
		case t.IsLeaf():
			v := leaves[i]
			i++
			return v
		case t.Type == NoneType:
			return nil
		case registeredNamed(t.Type) != nil:
			rt := registeredNamed(t.Type)
			names, _, _ := structNames(t.Context)
			p := reflect.New(rt.typ)
			for j, n := range names {
				f, _ := rt.field(n)
				setField(p.Elem().Field(f.index), build(t.Children[j]))
			}
			return p.Interface()
		case t.isDict():
			m := make(map[string]any, len(t.Children))
			for j, k := range t.Keys() {
				m[k] = build(t.Children[j])
			}
			return m
		}
		out := make([]any, len(t.Children))
		for j, c := range t.Children {
			out[j] = build(c)
		}
		return out
	}
	return build(t), nil
}

// unflattenValue builds an nn.Value of structure t (tuples and lists as tuples, dicts as
// nn.Dict, None as None, a registered struct as an nn.Object of a pointer to one) from its
// leaves.
func (t *TreeSpec) unflattenValue(leaves []nn.Value) (nn.Value, error) {
	i := 0
	var build func(t *TreeSpec, path string) (nn.Value, error)
	children := func(t *TreeSpec, path string) ([]nn.Value, error) {
		vs := make([]nn.Value, len(t.Children))
		for j, c := range t.Children {
			v, err := build(c, t.childPath(path, j))
			if err != nil {
				return nil, err
			}
			vs[j] = v
		}
		return vs, nil
	}
	build = func(t *TreeSpec, path string) (nn.Value, error) {
		switch {
		case t.IsLeaf():
			v := leaves[i]
			i++
			return v, nil
		case t.Type == NoneType:
			return nn.None, nil
		case t.isDict():
			vs, err := children(t, path)
			if err != nil {
				return nn.None, err
			}
			return nn.Dict(t.Keys(), vs...), nil
		case registeredNamed(t.Type) != nil:
			rt := registeredNamed(t.Type)
			names, _, _ := structNames(t.Context)
			p := reflect.New(rt.typ)
			for j, n := range names {
				v, err := build(t.Children[j], t.childPath(path, j))
				if err != nil {
					return nn.None, err
				}
				f, _ := rt.field(n)
				setField(p.Elem().Field(f.index), v)
			}
			return nn.Object(p.Interface()), nil
		}
		vs, err := children(t, path)
		if err != nil {
			return nn.None, err
		}
		return nn.Tuple(vs...), nil
	}
	if n := t.NumLeaves(); n != len(leaves) {
		return nn.None, fmt.Errorf("export: the output spec has %d leaves, the program returned %d", n, len(leaves))
	}
	return build(t, "")
}

// setField sets a registered struct's field to v (an nn.Value or a Go value): an nn.Value
// field gets v as an nn.Value, an interface field v as is, another field v's Go value when
// it converts.
func setField(f reflect.Value, v any) {
	if nv, ok := v.(nn.Value); ok && f.Type() != valueType {
		v = nv.Any()
	}
	switch {
	case f.Type() == valueType:
		nv, ok := v.(nn.Value)
		if !ok {
			var err error
			if nv, err = leafValue(v); err != nil {
				nv = nn.Object(v)
			}
		}
		f.Set(reflect.ValueOf(nv))
	case v == nil:
	case reflect.TypeOf(v).ConvertibleTo(f.Type()):
		f.Set(reflect.ValueOf(v).Convert(f.Type()))
	}
}

// tree rebuilds the output structure from graph arguments (the output node of Module).
func (t *TreeSpec) tree(leaves []node.Arg) node.Arg {
	i := 0
	var build func(t *TreeSpec) node.Arg
	build = func(t *TreeSpec) node.Arg {
		switch {
		case t.IsLeaf():
			v := leaves[i]
			i++
			return v
		case t.Type == NoneType:
			return node.None
		case t.isDict():
			d := make(node.Dict, len(t.Children))
			for j, k := range t.Keys() {
				d[j] = node.Field{Name: k, Value: build(t.Children[j])}
			}
			return d
		}
		vs := make([]node.Arg, len(t.Children))
		for j, c := range t.Children {
			vs[j] = build(c)
		}
		if t.Type == ListType {
			return node.List(vs)
		}
		return node.Tuple(vs)
	}
	return build(t)
}

// flattenArg returns the leaves of a, a graph argument with the structure t (the inverse
// of tree).
func (t *TreeSpec) flattenArg(a node.Arg) ([]node.Arg, error) {
	var out []node.Arg
	var walk func(t *TreeSpec, a node.Arg) error
	walk = func(t *TreeSpec, a node.Arg) error {
		switch {
		case t.IsLeaf():
			out = append(out, a)
			return nil
		case t.Type == NoneType:
			if _, ok := a.(node.NoneType); !ok && a != nil {
				return fmt.Errorf("returns %v where the program returns None", a)
			}
			return nil
		case t.isDict():
			d, ok := a.(node.Dict)
			if !ok || len(d) != len(t.Children) {
				return fmt.Errorf("returns %v where the program returns a dict of %d", a, len(t.Children))
			}
			for i, c := range t.Children {
				if err := walk(c, d[i].Value); err != nil {
					return err
				}
			}
			return nil
		}
		var elems []node.Arg
		switch x := a.(type) {
		case node.Tuple:
			elems = x
		case node.List:
			elems = x
		default:
			return fmt.Errorf("returns %v where the program returns a %s of %d", a, shortType(t.Type), len(t.Children))
		}
		if len(elems) != len(t.Children) {
			return fmt.Errorf("returns %v where the program returns a %s of %d", a, shortType(t.Type), len(t.Children))
		}
		for i, c := range t.Children {
			if err := walk(c, elems[i]); err != nil {
				return err
			}
		}
		return nil
	}
	return out, walk(t, a)
}

// String prints t as PyTorch's TreeSpec repr does, on one line:
// "TreeSpec(tuple, None, [*, TreeSpec(dict, ['a', 'b'], [*, *])])"; a leaf is "*".
func (t *TreeSpec) String() string {
	var b strings.Builder
	t.write(&b)
	return b.String()
}

func (t *TreeSpec) write(b *strings.Builder) {
	if t.IsLeaf() {
		b.WriteByte('*')
		return
	}
	name := shortType(t.Type)
	switch t.Type {
	case NoneType:
		name = "NoneType"
	case NamedTupleType:
		if s, ok := t.Context.(string); ok {
			name = shortType(s)
		}
	}
	fmt.Fprintf(b, "TreeSpec(%s, ", name)
	ctx := t.Context
	if t.Type == NamedTupleType {
		ctx = nil
	}
	writePyRepr(b, ctx)
	b.WriteString(", [")
	for i, c := range t.Children {
		if i > 0 {
			b.WriteString(", ")
		}
		c.write(b)
	}
	b.WriteString("])")
}

// writePyRepr writes a decoded JSON value as Python's repr.
func writePyRepr(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("None")
	case bool:
		if x {
			b.WriteString("True")
		} else {
			b.WriteString("False")
		}
	case string:
		b.WriteString(pyQuote(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			writePyRepr(b, e)
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range sortedMapKeys(x) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyQuote(k) + ": ")
			writePyRepr(b, x[k])
		}
		b.WriteByte('}')
	default:
		fmt.Fprint(b, x)
	}
}

func pyQuote(s string) string {
	if strings.ContainsRune(s, '\'') && !strings.ContainsRune(s, '"') {
		return `"` + s + `"`
	}
	return "'" + strings.ReplaceAll(strings.ReplaceAll(s, `\`, `\\`), "'", `\'`) + "'"
}

// treeSpecProtocol is the protocol of the serialized form PyTorch writes.
const treeSpecProtocol = 1

// MarshalPyTorch returns t in PyTorch's serialized form (treespec_dumps): the JSON text
// [1, {"type": ..., "context": ..., "children_spec": [...]}], where a node's context is
// itself JSON text and a leaf is {"type": null, "context": null, "children_spec": []},
// written with Python json.dumps's separators and escapes.
func (t *TreeSpec) MarshalPyTorch() (string, error) {
	if err := t.validate("", 0); err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "[%d, ", treeSpecProtocol)
	if err := t.dump(&b); err != nil {
		return "", err
	}
	b.WriteByte(']')
	return b.String(), nil
}

func (t *TreeSpec) dump(b *strings.Builder) error {
	if t.IsLeaf() {
		b.WriteString(`{"type": null, "context": null, "children_spec": []}`)
		return nil
	}
	var ctx strings.Builder
	if err := writePyJSON(&ctx, t.Context); err != nil {
		return fmt.Errorf("pytree spec: context of %s: %w", t.Type, err)
	}
	b.WriteString(`{"type": `)
	b.WriteString(pyJSONString(t.Type))
	b.WriteString(`, "context": `)
	b.WriteString(pyJSONString(ctx.String()))
	b.WriteString(`, "children_spec": [`)
	for i, c := range t.Children {
		if i > 0 {
			b.WriteString(", ")
		}
		if err := c.dump(b); err != nil {
			return err
		}
	}
	b.WriteString("]}")
	return nil
}

// writePyJSON writes v as Python's json.dumps does (", " and ": " separators, ASCII only).
func writePyJSON(b *strings.Builder, v any) error {
	switch x := v.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(x))
	case string:
		b.WriteString(pyJSONString(x))
	case int64:
		b.WriteString(strconv.FormatInt(x, 10))
	case int:
		b.WriteString(strconv.Itoa(x))
	case float64:
		if math.IsInf(x, 0) || math.IsNaN(x) {
			return fmt.Errorf("%v has no JSON form", x)
		}
		if x == math.Trunc(x) && math.Abs(x) < 1e16 {
			b.WriteString(strconv.FormatFloat(x, 'f', 1, 64))
		} else {
			b.WriteString(strconv.FormatFloat(x, 'g', -1, 64))
		}
	case []any:
		b.WriteByte('[')
		for i, e := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			if err := writePyJSON(b, e); err != nil {
				return err
			}
		}
		b.WriteByte(']')
	case map[string]any:
		b.WriteByte('{')
		for i, k := range sortedMapKeys(x) {
			if i > 0 {
				b.WriteString(", ")
			}
			b.WriteString(pyJSONString(k) + ": ")
			if err := writePyJSON(b, x[k]); err != nil {
				return err
			}
		}
		b.WriteByte('}')
	default:
		return fmt.Errorf("a %T is not a JSON value", v)
	}
	return nil
}

// pyJSONString quotes s as Python's json.dumps does (ensure_ascii).
func pyJSONString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"':
			b.WriteString(`\"`)
		case r == '\\':
			b.WriteString(`\\`)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case r == '\b':
			b.WriteString(`\b`)
		case r == '\f':
			b.WriteString(`\f`)
		case r < 0x20 || r > 0x7e:
			if r == utf8.RuneError {
				r = 0xfffd
			}
			if r > 0xffff {
				r -= 0x10000
				fmt.Fprintf(&b, `\u%04x\u%04x`, 0xd800+(r>>10), 0xdc00+(r&0x3ff))
			} else {
				fmt.Fprintf(&b, `\u%04x`, r)
			}
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// ParseTreeSpec reads a spec in PyTorch's serialized form (treespec_loads, protocol 1),
// as MarshalPyTorch writes it and .pt2 files hold it (in_spec, out_spec). Errors name the
// position in the spec and what was wrong: an unknown protocol or node type, a context
// that is not JSON, a dict whose keys and children differ in number.
func ParseTreeSpec(s string) (*TreeSpec, error) {
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	var top []json.RawMessage
	if err := dec.Decode(&top); err != nil {
		return nil, fmt.Errorf("pytree spec: %w", err)
	}
	if dec.More() {
		return nil, fmt.Errorf("pytree spec: trailing data after the spec")
	}
	if len(top) != 2 {
		return nil, fmt.Errorf("pytree spec: expected [protocol, spec], got a list of %d", len(top))
	}
	var proto int
	if err := json.Unmarshal(top[0], &proto); err != nil {
		return nil, fmt.Errorf("pytree spec: protocol: %w", err)
	}
	if proto != treeSpecProtocol {
		return nil, fmt.Errorf("pytree spec: unknown protocol %d (known: %d)", proto, treeSpecProtocol)
	}
	t, err := loadSpec(top[1], "", 0)
	if err != nil {
		return nil, err
	}
	if err := t.validate("", 0); err != nil {
		return nil, err
	}
	return t, nil
}

type specJSON struct {
	Type     *string           `json:"type"`
	Context  *string           `json:"context"`
	Children []json.RawMessage `json:"children_spec"`
}

func loadSpec(raw json.RawMessage, path string, depth int) (*TreeSpec, error) {
	if depth > maxTreeDepth {
		return nil, fmt.Errorf("pytree spec%s: nested deeper than %d", path, maxTreeDepth)
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	var sj specJSON
	if err := dec.Decode(&sj); err != nil {
		return nil, fmt.Errorf("pytree spec%s: %w", path, err)
	}
	if sj.Type == nil {
		if len(sj.Children) != 0 {
			return nil, fmt.Errorf("pytree spec%s: a leaf (type null) with %d children", path, len(sj.Children))
		}
		return Leaf(), nil
	}
	t := &TreeSpec{Type: *sj.Type}
	if sj.Context != nil {
		cdec := json.NewDecoder(strings.NewReader(*sj.Context))
		cdec.UseNumber()
		var ctx any
		if err := cdec.Decode(&ctx); err != nil {
			return nil, fmt.Errorf("pytree spec%s: the context of %s is not JSON: %w", path, t.Type, err)
		}
		t.Context = numbers(ctx)
	}
	if t.Type == NamedTupleType {
		// PyTorch writes the namedtuple's type name as the context's JSON string.
		if _, ok := t.Context.(string); !ok && t.Context != nil {
			return nil, fmt.Errorf("pytree spec%s: a namedtuple's context is its type name, got %v", path, t.Context)
		}
	}
	for i, c := range sj.Children {
		cp := t.childPath(path, i)
		ct, err := loadSpec(c, cp, depth+1)
		if err != nil {
			return nil, err
		}
		t.Children = append(t.Children, ct)
	}
	return t, nil
}

// numbers turns json.Numbers into int64 (integers) or float64.
func numbers(v any) any {
	switch x := v.(type) {
	case json.Number:
		if i, err := x.Int64(); err == nil {
			return i
		}
		f, _ := x.Float64()
		return f
	case []any:
		for i := range x {
			x[i] = numbers(x[i])
		}
	case map[string]any:
		for k := range x {
			x[k] = numbers(x[k])
		}
	}
	return v
}
