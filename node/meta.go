package node

import (
	"strconv"
	"strings"
)

// Meta is a node's metadata: an ordered set of named entries, the Go form of
// torch.fx's node.meta. Well-known entries are read and written through
// typed keys ([Val], [StackTrace], [ModuleStack]); anything else is a
// free-form entry set with Set.
//
// The zero Meta is empty and ready to use.
type Meta struct {
	entries []metaEntry
	idx     map[string]int // position by key, once there are many entries
}

// metaIndexed is the entry count past which Meta keeps a key index.
const metaIndexed = 8

func (m *Meta) find(key string) int {
	if m.idx == nil && len(m.entries) > metaIndexed {
		m.idx = make(map[string]int, len(m.entries))
		for i, e := range m.entries {
			m.idx[e.key] = i
		}
	}
	if m.idx != nil {
		if i, ok := m.idx[key]; ok {
			return i
		}
		return -1
	}
	for i := range m.entries {
		if m.entries[i].key == key {
			return i
		}
	}
	return -1
}

type metaEntry struct {
	key   string
	value any
}

// Key is a typed metadata key: Get and Set read and write values of type T.
type Key[T any] struct{ name string }

// NewKey returns a typed key for the entry called name.
func NewKey[T any](name string) Key[T] { return Key[T]{name} }

// Name returns the entry's name.
func (k Key[T]) Name() string { return k.name }

// Get returns the value stored under k, and whether there is one of type T.
func (k Key[T]) Get(m *Meta) (T, bool) {
	v, ok := m.Get(k.name)
	t, ok2 := v.(T)
	return t, ok && ok2
}

// Set stores v under k.
func (k Key[T]) Set(m *Meta, v T) { m.Set(k.name, v) }

// The well-known metadata keys.
var (
	// Val is what the node computes, as shape propagation records it: a
	// TensorMeta for a tensor, a ValueTuple for several values.
	Val = NewKey[Value]("val")
	// StackTrace is where in the user's program the node was created
	// (Go "file:line" frames, innermost last).
	StackTrace = NewKey[string]("stack_trace")
	// ModuleStack is the chain of modules, outermost first, whose forward
	// was running when the node was created.
	ModuleStack = NewKey[[]ModuleFrame]("nn_module_stack")
	// SourceFnStack is torch.export's source_fn_stack as its files write
	// it ("name,type" frames joined by ";"): the module or function of the
	// user's program the node came from.
	SourceFnStack = NewKey[string]("source_fn_stack")
	// TorchFn is torch.export's torch_fn ("name;type"): the torch-level
	// function the node came from.
	TorchFn = NewKey[string]("torch_fn")
	// Custom is torch.export's custom metadata, the JSON text its files
	// hold.
	Custom = NewKey[string]("custom")
)

// provenance are the entries that say where a node came from: a node
// that replaces another (a decomposition, a rewrite) inherits them.
var provenance = []string{StackTrace.name, ModuleStack.name, SourceFnStack.name, TorchFn.name, Custom.name}

// CopyProvenance copies src's entries that say where its node came from
// (stack_trace, nn_module_stack, source_fn_stack, torch_fn, custom) to
// dst, as torch.export's passes keep them on the nodes that replace a
// node.
func CopyProvenance(dst, src *Meta) {
	for _, k := range provenance {
		if v, ok := src.Get(k); ok {
			dst.Set(k, v)
		}
	}
}

// Get returns the entry called key.
func (m *Meta) Get(key string) (any, bool) {
	if i := m.find(key); i >= 0 {
		return m.entries[i].value, true
	}
	return nil, false
}

// Set stores value under key, keeping the entry's position if it exists.
func (m *Meta) Set(key string, value any) {
	if i := m.find(key); i >= 0 {
		m.entries[i].value = value
		return
	}
	m.entries = append(m.entries, metaEntry{key, value})
	if m.idx != nil {
		m.idx[key] = len(m.entries) - 1
	}
}

// Delete removes the entry called key.
func (m *Meta) Delete(key string) {
	if i := m.find(key); i >= 0 {
		m.entries = append(m.entries[:i], m.entries[i+1:]...)
		m.idx = nil
	}
}

// Len returns the number of entries.
func (m *Meta) Len() int { return len(m.entries) }

// Keys returns the entry names in insertion order.
func (m *Meta) Keys() []string {
	keys := make([]string, len(m.entries))
	for i, e := range m.entries {
		keys[i] = e.key
	}
	return keys
}

// Clone returns a copy of m. Values are copied shallowly.
func (m *Meta) Clone() Meta {
	if len(m.entries) == 0 {
		return Meta{}
	}
	return Meta{entries: append([]metaEntry(nil), m.entries...)} // index rebuilt on demand
}

// Value is what a node computes, as recorded under [Val]: a [TensorMeta],
// a [ValueTuple] of values, or a type a later package defines.
type Value interface {
	String() string
}

// Dim is one dimension of a shape: a concrete size, or a symbolic size
// given by the expression text Sym (such as "s0" or "2*s0") when Sym is
// not empty.
type Dim struct {
	Size int64
	Sym  string
}

// String returns the size, or the symbolic expression.
func (d Dim) String() string {
	if d.Sym != "" {
		return d.Sym
	}
	return strconv.FormatInt(d.Size, 10)
}

// Dims returns concrete dims of the given sizes.
func Dims(sizes ...int64) []Dim {
	out := make([]Dim, len(sizes))
	for i, s := range sizes {
		out[i] = Dim{Size: s}
	}
	return out
}

// TensorMeta describes a tensor value: its dtype and shape.
type TensorMeta struct {
	DType DType
	Shape []Dim
}

// String returns the torch.export spelling: "f32[2, s0]".
func (t TensorMeta) String() string {
	var b strings.Builder
	b.WriteString(t.DType.Short())
	if b.Len() == 0 {
		b.WriteString(string(t.DType))
	}
	b.WriteByte('[')
	for i, d := range t.Shape {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(d.String())
	}
	b.WriteByte(']')
	return b.String()
}

// ValueTuple is several values computed by one node (a tuple of tensors).
type ValueTuple []Value

// String returns "(v0, v1)".
func (t ValueTuple) String() string {
	parts := make([]string, len(t))
	for i, v := range t {
		parts[i] = v.String()
	}
	if len(parts) == 1 {
		return "(" + parts[0] + ",)"
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

// ModuleFrame is one module on a node's [ModuleStack]: its dotted path in
// the module tree and its type name.
type ModuleFrame struct {
	Path string
	Type string
}
