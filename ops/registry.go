package ops

import (
	"bufio"
	_ "embed"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// Tag is a set of properties of an operator.
type Tag uint16

// The operator tags.
const (
	// Core marks the core ATen opset (the operators exported graphs may
	// contain, with a reference kernel each).
	Core Tag = 1 << iota
	// Composite marks operators outside the core set, which decompose into
	// core operators.
	Composite
	// Inplace marks operators that write their first argument and return it
	// (add_, relu_).
	Inplace
	// View marks operators whose result aliases an argument without writing
	// it (view, transpose, select).
	View
	// Mutable marks operators that write any argument (inplace and out=
	// variants, copy_).
	Mutable
	// Random marks operators that draw random numbers.
	Random
	// Pointwise marks elementwise operators: each output element depends
	// only on the input elements at the same (broadcast) position. PyTorch
	// 1.13 has no such tag; the list comes from its elementwise Python
	// references (schemas/pointwise.txt, made by gen_pointwise.py).
	Pointwise
)

var tagNames = []struct {
	t    Tag
	name string
}{{Core, "core"}, {Composite, "composite"}, {Inplace, "inplace"}, {View, "view"}, {Mutable, "mutable"}, {Random, "random"}, {Pointwise, "pointwise"}}

// String lists the tags: "core|view".
func (t Tag) String() string {
	var parts []string
	for _, tn := range tagNames {
		if t&tn.t != 0 {
			parts = append(parts, tn.name)
		}
	}
	return strings.Join(parts, "|")
}

// Operator is one operator overload: its schema and tags. It implements
// node.Function, so graphs call it directly: its String is the qualified
// name torch prints ("aten.add.Tensor", "aten.relu.default").
type Operator struct {
	schema *Schema
	name   string
	tags   Tag
	opState
}

// Schema returns the operator's schema.
func (o *Operator) Schema() *Schema { return o.schema }

// Tags returns the operator's tags.
func (o *Operator) Tags() Tag { return o.tags }

// Has reports whether the operator has every tag in t.
func (o *Operator) Has(t Tag) bool { return o.tags&t == t }

// String returns the qualified name as torch prints an OpOverload:
// "aten.add.Tensor", or "aten.relu.default" for a default overload.
func (o *Operator) String() string { return o.name }

// ShortName returns the operator name ("add"), the base of node names.
func (o *Operator) ShortName() string { return o.schema.Name }

// PythonName returns "torch.ops." followed by the qualified name.
func (o *Operator) PythonName() string { return "torch.ops." + o.name }

// Impure reports whether the operator writes any of its arguments, so
// that dead-code elimination must keep calls to it.
func (o *Operator) Impure() bool { return o.tags&Mutable != 0 }

// Registry holds operators by qualified name.
type Registry struct {
	mu        sync.RWMutex
	byName    map[string]*Operator   // "aten.add.Tensor"
	overloads map[string][]*Operator // "aten.add", in registration order
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry {
	return &Registry{byName: map[string]*Operator{}, overloads: map[string][]*Operator{}}
}

// Register parses schema and adds the operator with the given tags; the
// Mutable, Inplace, View and Random tags are derived from the schema and
// added to them. Registering a schema whose qualified name is taken is an
// error.
func (r *Registry) Register(schema string, tags Tag) (*Operator, error) {
	s, err := ParseSchema(schema)
	if err != nil {
		return nil, err
	}
	return r.add(s, tags)
}

func (r *Registry) add(s *Schema, tags Tag) (*Operator, error) {
	overload := s.Overload
	if overload == "" {
		overload = "default"
	}
	o := &Operator{schema: s, name: s.Namespace + "." + s.Name + "." + overload, tags: tags | derivedTags(s)}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byName[o.name]; dup {
		return nil, fmt.Errorf("ops: operator %s is already registered", o.name)
	}
	r.byName[o.name] = o
	packet := s.Namespace + "." + s.Name
	r.overloads[packet] = append(r.overloads[packet], o)
	return o, nil
}

// derivedTags reads the tags a schema implies.
func derivedTags(s *Schema) Tag {
	var t Tag
	if s.IsMutable() {
		t |= Mutable
		if strings.HasSuffix(s.Name, "_") && !strings.HasSuffix(s.Name, "__") && len(s.Args) > 0 &&
			s.Args[0].Type.Alias != nil && s.Args[0].Type.Alias.Write {
			t |= Inplace
		}
	} else {
		for _, ret := range s.Returns {
			if a := ret.Type.Alias; a != nil && !a.Write && len(a.Before) > 0 && a.Before[0] != "*" {
				t |= View
			}
		}
	}
	for _, a := range s.Args {
		if a.Type.Kind == OptionalOf && a.Type.Elem.Name == "Generator" || a.Type.Name == "Generator" {
			t |= Random
		}
	}
	return t
}

// Lookup returns the operator called name, written "aten.add.Tensor",
// "aten::add.Tensor", "aten::relu" (the default overload) or
// "aten.relu.default".
func (r *Registry) Lookup(name string) (*Operator, bool) {
	key := name
	if ns, rest, ok := strings.Cut(name, "::"); ok {
		if !strings.Contains(rest, ".") {
			rest += ".default"
		}
		key = ns + "." + rest
	}
	r.mu.RLock()
	defer r.mu.RUnlock()
	o, ok := r.byName[key]
	return o, ok
}

// Overloads returns the overloads of namespace::name in registration
// order.
func (r *Registry) Overloads(namespace, name string) []*Operator {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return append([]*Operator(nil), r.overloads[namespace+"."+name]...)
}

// Len returns the number of registered operators.
func (r *Registry) Len() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return len(r.byName)
}

// All returns every registered operator, sorted by qualified name.
func (r *Registry) All() []*Operator {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]*Operator, 0, len(r.byName))
	for _, o := range r.byName {
		out = append(out, o)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

//go:embed schemas/all_schemas_1.13.txt
var allSchemas string

//go:embed schemas/core_schemas.txt
var coreSchemas string

//go:embed schemas/pointwise.txt
var pointwiseNames string

var (
	defaultOnce sync.Once
	defaultReg  *Registry
)

// Global returns the process-wide registry: every aten operator of PyTorch 1.13,
// loaded on first use, with the core opset tagged Core and the others
// Composite. The core list includes five operators newer than 1.13, which
// are registered from their newer schemas. Users register their own
// operators here too.
func Global() *Registry {
	defaultOnce.Do(func() {
		r := NewRegistry()
		pointwise := map[string]bool{}
		for _, n := range schemaFileLines(pointwiseNames) {
			pointwise[n], pointwise[n+"_"] = true, true
		}
		tagOf := func(s *Schema, tag Tag) Tag {
			if s.Namespace == "aten" && pointwise[s.Name] && takesTensor(s) {
				tag |= Pointwise
			}
			return tag
		}
		core := map[string]*Schema{}
		for _, line := range schemaFileLines(coreSchemas) {
			s := MustParseSchema(line)
			core[s.QualifiedName()] = s
		}
		for _, line := range schemaFileLines(allSchemas) {
			s := MustParseSchema(line)
			tag := Composite
			if core[s.QualifiedName()] != nil {
				tag = Core
				delete(core, s.QualifiedName())
			}
			if _, err := r.add(s, tagOf(s, tag)); err != nil {
				panic(err)
			}
		}
		for _, line := range schemaFileLines(coreSchemas) {
			if s := MustParseSchema(line); core[s.QualifiedName()] != nil {
				if _, err := r.add(s, tagOf(s, Core)); err != nil {
					panic(err)
				}
			}
		}
		tagRandom(r)
		defaultReg = r
	})
	return defaultReg
}

// randomNames are the random operators none of whose overloads takes a
// Generator, so that derivedTags cannot see them.
var randomNames = []string{"rand_like", "randn_like", "randint_like", "dropout", "feature_dropout",
	"alpha_dropout", "feature_alpha_dropout", "native_dropout"}

// tagRandom extends the Random tag from the overloads that take a Generator
// (aten::rand.generator) to every overload of the same name (aten::rand),
// and to randomNames and their in-place forms. Called before r is shared.
func tagRandom(r *Registry) {
	random := map[string]bool{}
	for _, n := range randomNames {
		random["aten."+n], random["aten."+n+"_"] = true, true
	}
	for packet, os := range r.overloads {
		for _, o := range os {
			if o.tags&Random != 0 {
				random[packet] = true
			}
		}
	}
	for packet := range random {
		for _, o := range r.overloads[packet] {
			o.tags |= Random
		}
	}
}

// takesTensor reports whether any argument of s is a Tensor.
func takesTensor(s *Schema) bool {
	for _, a := range s.Args {
		if a.Type.Kind == Named && a.Type.Name == "Tensor" {
			return true
		}
	}
	return false
}

// schemaFileLines returns the non-comment, non-empty lines of a schema file.
func schemaFileLines(text string) []string {
	var out []string
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}
