package nn

import (
	"errors"
	"fmt"
	"iter"
	"reflect"
	"strings"

	"github.com/gofx/gofx/internal/tracing"
	"github.com/gofx/gofx/tensor"
)

// Module is a model or a layer: a Go struct that embeds Base (which holds
// its parameters, buffers and submodules under PyTorch's names) and has a
// Forward method taking and returning Values:
//
//	type Block struct {
//		nn.Base
//		Conv *nn.Conv2d
//		BN   *nn.BatchNorm2d
//	}
//
//	func (b *Block) Forward(x nn.Value) nn.Value {
//		return F.ReLU(b.BN.Call(b.Conv.Call(x)))
//	}
//
// Forward may take any number of Value parameters (a final ...Value
// included) and returns one Value (a tuple for several results). Calling a
// submodule goes through Call (or the layer's Call method, which is the
// same), so that tracers see module boundaries.
type Module interface {
	// ModuleBase returns the module's Base; embedding Base provides it.
	ModuleBase() *Base
}

// Parameter is a learnable tensor registered on a module. Model code reads
// it with Value, which is the tensor when running eagerly and the get_attr
// proxy of the parameter while a tracer records.
type Parameter struct{ slot }

// Buffer is a tensor that is part of a module's state but not learned
// (BatchNorm's running statistics). A persistent buffer is saved in the
// state dict; a non-persistent one is not.
type Buffer struct {
	slot
	persistent bool
}

// Persistent reports whether the buffer is part of the state dict.
func (b *Buffer) Persistent() bool { return b.persistent }

// slot is the storage shared by parameters and buffers.
type slot struct {
	t     *tensor.Tensor
	proxy func() Value // set by a tracer while it records
}

// Tensor returns the held tensor (nil if unset).
func (s *slot) Tensor() *tensor.Tensor { return s.t }

// Set replaces the held tensor.
func (s *slot) Set(t *tensor.Tensor) { s.t = t }

// Value returns the tensor as a Value for model code: the tensor itself,
// or, while a tracer records the module, the tracer's proxy for it.
func (s *slot) Value() Value {
	if s.proxy != nil {
		return s.proxy()
	}
	return Tensor(s.t)
}

func init() {
	tracing.SetSlotProxy = setSlotProxy
}

// setSlotProxy installs (or, with nil, removes) the function a parameter's
// or buffer's Value returns instead of the tensor (tracing.SetSlotProxy;
// f is a func() Value).
func setSlotProxy(x any, f any) {
	var s *slot
	switch y := x.(type) {
	case *Parameter:
		s = &y.slot
	case *Buffer:
		s = &y.slot
	default:
		panic(fmt.Sprintf("nn: SetSlotProxy of a %T", x))
	}
	if f == nil {
		s.proxy = nil
		return
	}
	fn, ok := f.(func() Value)
	if !ok {
		panic(fmt.Sprintf("nn: SetSlotProxy with a %T, not a func() nn.Value", f))
	}
	s.proxy = fn
}

type namedParam struct {
	name string
	p    *Parameter
}

type namedBuffer struct {
	name string
	b    *Buffer
}

type namedModule struct {
	name string
	m    Module
}

// Base holds what every module has: its parameters, buffers and
// submodules in registration order, its training flag, and its type name.
// Embed it in every module struct.
type Base struct {
	self     Module
	typeName string
	params   []namedParam
	buffers  []namedBuffer
	children []namedModule
	evalMode bool
	err      error
	// names indexes params, buffers and children by name once a module
	// has more than indexAbove of them (a ModuleList of 10k blocks); nil
	// until then, and reset by any edit other than an append.
	names map[string]nameRef
}

// nameRef locates a registered name: kind is 'p', 'b' or 'm', i the index
// in params, buffers or children.
type nameRef struct {
	kind byte
	i    int
}

const indexAbove = 16

// lookup finds the parameter, buffer or child called name.
func (b *Base) lookup(name string) (nameRef, bool) {
	if b.names == nil && len(b.params)+len(b.buffers)+len(b.children) > indexAbove {
		b.names = make(map[string]nameRef, len(b.params)+len(b.buffers)+len(b.children))
		for i, p := range b.params {
			b.names[p.name] = nameRef{'p', i}
		}
		for i, x := range b.buffers {
			b.names[x.name] = nameRef{'b', i}
		}
		for i, c := range b.children {
			b.names[c.name] = nameRef{'m', i}
		}
	}
	if b.names != nil {
		r, ok := b.names[name]
		return r, ok
	}
	for i, p := range b.params {
		if p.name == name {
			return nameRef{'p', i}, true
		}
	}
	for i, x := range b.buffers {
		if x.name == name {
			return nameRef{'b', i}, true
		}
	}
	for i, c := range b.children {
		if c.name == name {
			return nameRef{'m', i}, true
		}
	}
	return nameRef{}, false
}

// added records that name was just appended to the list of kind.
func (b *Base) added(kind byte, name string) {
	if b.names == nil {
		return
	}
	var i int
	switch kind {
	case 'p':
		i = len(b.params) - 1
	case 'b':
		i = len(b.buffers) - 1
	default:
		i = len(b.children) - 1
	}
	b.names[name] = nameRef{kind, i}
}

// reindex drops the name index after an edit that moved entries.
func (b *Base) reindex() { b.names = nil }

// ModuleBase returns b; it makes every struct embedding Base a Module.
func (b *Base) ModuleBase() *Base { return b }

// Init records m as the module that embeds b and its PyTorch type name
// (shown in printed module trees and in nn_module_stack metadata). Layers
// call it in their constructors; a module whose Init was never called is
// initialized when first registered or called, with its Go type name.
func (b *Base) Init(m Module, typeName string) {
	b.self = m
	b.typeName = typeName
}

// TypeName returns the module's type name ("Linear", "BasicBlock").
func (b *Base) TypeName() string {
	if b.typeName == "" && b.self != nil {
		b.typeName = goTypeName(b.self)
	}
	return b.typeName
}

func goTypeName(m Module) string {
	t := reflect.TypeOf(m)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Name()
}

// adopt makes sure b knows its outer module.
func adopt(m Module) *Base {
	b := m.ModuleBase()
	if b.self == nil {
		b.self = m
	}
	return b
}

// Fail records a construction error (the first one wins): a constructor
// given bad hyperparameters returns a module that reports the error from
// every entry point and from Err.
func (b *Base) Fail(err error) {
	if b.err == nil && err != nil {
		b.err = err
	}
}

// Err returns the first construction error recorded in m's tree, if any.
func Err(m Module) error {
	if m == nil {
		return errors.New("nn: nil module")
	}
	for path, sub := range NamedModules(m) {
		if err := sub.ModuleBase().err; err != nil {
			if path == "" {
				return err
			}
			return fmt.Errorf("module %s: %w", path, err)
		}
	}
	return nil
}

func checkName(kind, name string) error {
	switch {
	case name == "":
		return fmt.Errorf("%s name cannot be empty", kind)
	case strings.Contains(name, "."):
		return fmt.Errorf("%s name %q cannot contain \".\"", kind, name)
	}
	return nil
}

func (b *Base) taken(name string) bool {
	_, ok := b.lookup(name)
	return ok
}

// RegisterParameter adds a parameter called name holding t and returns it.
// A bad or duplicate name is recorded as a construction error (see Fail).
func (b *Base) RegisterParameter(name string, t *tensor.Tensor) *Parameter {
	p := &Parameter{slot{t: t}}
	if err := checkName("parameter", name); err != nil {
		b.Fail(err)
		return p
	}
	if b.taken(name) {
		b.Fail(fmt.Errorf("attribute %q already exists", name))
		return p
	}
	b.params = append(b.params, namedParam{name, p})
	b.added('p', name)
	return p
}

// RegisterBuffer adds a buffer called name holding t and returns it;
// persistent buffers are part of the state dict.
func (b *Base) RegisterBuffer(name string, t *tensor.Tensor, persistent bool) *Buffer {
	x := &Buffer{slot{t: t}, persistent}
	if err := checkName("buffer", name); err != nil {
		b.Fail(err)
		return x
	}
	if b.taken(name) {
		b.Fail(fmt.Errorf("attribute %q already exists", name))
		return x
	}
	b.buffers = append(b.buffers, namedBuffer{name, x})
	b.added('b', name)
	return x
}

// RegisterModule adds m as the submodule called name and returns it.
func RegisterModule[M Module](b *Base, name string, m M) M {
	if err := checkName("module", name); err != nil {
		b.Fail(err)
		return m
	}
	if b.taken(name) {
		b.Fail(fmt.Errorf("attribute %q already exists", name))
		return m
	}
	if any(m) == nil || reflect.ValueOf(m).IsNil() {
		b.Fail(fmt.Errorf("module %q is nil", name))
		return m
	}
	adopt(m)
	b.children = append(b.children, namedModule{name, m})
	b.added('m', name)
	return m
}

// AddModule is RegisterModule without the type parameter.
func (b *Base) AddModule(name string, m Module) { RegisterModule(b, name, m) }

// Parameters returns the module's own parameters (not its submodules'),
// in registration order.
func (b *Base) Parameters() iter.Seq2[string, *Parameter] {
	return func(yield func(string, *Parameter) bool) {
		for _, p := range b.params {
			if !yield(p.name, p.p) {
				return
			}
		}
	}
}

// Buffers returns the module's own buffers in registration order.
func (b *Base) Buffers() iter.Seq2[string, *Buffer] {
	return func(yield func(string, *Buffer) bool) {
		for _, x := range b.buffers {
			if !yield(x.name, x.b) {
				return
			}
		}
	}
}

// Children returns the module's direct submodules in registration order.
func (b *Base) Children() iter.Seq2[string, Module] {
	return func(yield func(string, Module) bool) {
		for _, c := range b.children {
			if !yield(c.name, c.m) {
				return
			}
		}
	}
}

// Child returns the direct submodule called name.
func (b *Base) Child(name string) (Module, bool) {
	if r, ok := b.lookup(name); ok && r.kind == 'm' {
		return b.children[r.i].m, true
	}
	return nil, false
}

// Training reports whether the module is in training mode (the default, as
// in PyTorch).
func (b *Base) Training() bool { return !b.evalMode }

// Train sets the training mode of m and all its submodules and returns m.
func Train[M Module](m M, on bool) M {
	for _, sub := range NamedModules(m) {
		sub.ModuleBase().evalMode = !on
	}
	return m
}

// Eval puts m and all its submodules in evaluation mode and returns m.
func Eval[M Module](m M) M { return Train(m, false) }

func join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return prefix + "." + name
}

// NamedModules returns m and every module below it, each once, in
// PyTorch's order (preorder, children in registration order), with dotted
// paths ("" for m itself).
func NamedModules(m Module) iter.Seq2[string, Module] {
	return func(yield func(string, Module) bool) {
		seen := map[*Base]bool{}
		var walk func(prefix string, m Module) bool
		walk = func(prefix string, m Module) bool {
			b := adopt(m)
			if seen[b] {
				return true
			}
			seen[b] = true
			if !yield(prefix, m) {
				return false
			}
			for _, c := range b.children {
				if !walk(join(prefix, c.name), c.m) {
					return false
				}
			}
			return true
		}
		walk("", m)
	}
}

// NamedParameters returns every parameter of m's tree with its dotted
// name (`layer1.0.conv1.weight`), in PyTorch's order; a parameter shared by
// two modules is listed once.
func NamedParameters(m Module) iter.Seq2[string, *Parameter] {
	return func(yield func(string, *Parameter) bool) {
		seen := map[*Parameter]bool{}
		for path, sub := range NamedModules(m) {
			for _, p := range sub.ModuleBase().params {
				if seen[p.p] {
					continue
				}
				seen[p.p] = true
				if !yield(join(path, p.name), p.p) {
					return
				}
			}
		}
	}
}

// NamedBuffers returns every buffer of m's tree with its dotted name.
func NamedBuffers(m Module) iter.Seq2[string, *Buffer] {
	return func(yield func(string, *Buffer) bool) {
		seen := map[*Buffer]bool{}
		for path, sub := range NamedModules(m) {
			for _, x := range sub.ModuleBase().buffers {
				if seen[x.b] {
					continue
				}
				seen[x.b] = true
				if !yield(join(path, x.name), x.b) {
					return
				}
			}
		}
	}
}

// Submodule returns the module at the dotted path below m ("" is m).
func Submodule(m Module, path string) (Module, error) {
	if path == "" {
		return m, nil
	}
	cur := m
	for i, part := range strings.Split(path, ".") {
		next, ok := cur.ModuleBase().Child(part)
		if !ok {
			where := "the root module"
			if i > 0 {
				where = "module " + strings.Join(strings.Split(path, ".")[:i], ".")
			}
			return nil, fmt.Errorf("nn: %s (%s) has no submodule %q", where, adopt(cur).TypeName(), part)
		}
		cur = next
	}
	return cur, nil
}

// Attr returns the parameter or buffer at the dotted path below m
// (`layer1.0.bn1.running_mean`) as the slot model code reads: a *Parameter
// or a *Buffer.
func Attr(m Module, path string) (any, error) {
	mod, name := "", path
	if i := strings.LastIndexByte(path, '.'); i >= 0 {
		mod, name = path[:i], path[i+1:]
	}
	sub, err := Submodule(m, mod)
	if err != nil {
		return nil, err
	}
	b := sub.ModuleBase()
	if r, ok := b.lookup(name); ok {
		switch r.kind {
		case 'p':
			return b.params[r.i].p, nil
		case 'b':
			return b.buffers[r.i].b, nil
		}
	}
	return nil, fmt.Errorf("nn: module %q (%s) has no parameter or buffer %q", mod, adopt(sub).TypeName(), name)
}

// AttrValue returns the parameter or buffer at path as model code reads
// it: its tensor, or its proxy while a tracer records (so that graphs run
// by the interpreter can be traced again).
func AttrValue(m Module, path string) (Value, error) {
	a, err := Attr(m, path)
	if err != nil {
		return None, err
	}
	switch x := a.(type) {
	case *Parameter:
		return x.Value(), nil
	case *Buffer:
		return x.Value(), nil
	}
	return None, fmt.Errorf("nn: %s is not a tensor", path)
}

// ShareParameter registers an existing parameter p under name, so that two
// modules hold the same parameter (a GraphModule shares its root's).
func (b *Base) ShareParameter(name string, p *Parameter) {
	if err := checkName("parameter", name); err != nil {
		b.Fail(err)
		return
	}
	if b.taken(name) {
		b.Fail(fmt.Errorf("attribute %q already exists", name))
		return
	}
	b.params = append(b.params, namedParam{name, p})
	b.added('p', name)
}

// ShareBuffer registers an existing buffer x under name.
func (b *Base) ShareBuffer(name string, x *Buffer) {
	if err := checkName("buffer", name); err != nil {
		b.Fail(err)
		return
	}
	if b.taken(name) {
		b.Fail(fmt.Errorf("attribute %q already exists", name))
		return
	}
	b.buffers = append(b.buffers, namedBuffer{name, x})
	b.added('b', name)
}
