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
	// Effectful marks operators that have an effect beyond their results
	// although their schema writes nothing: the runtime assertions and
	// range constraints of PyTorch 2.x graphs (_assert_scalar,
	// sym_constrain_range_for_size, ...), torch.fx's side-effectful
	// functions. Dead-code elimination keeps their calls.
	Effectful
)

var tagNames = []struct {
	t    Tag
	name string
}{{Core, "core"}, {Composite, "composite"}, {Inplace, "inplace"}, {View, "view"}, {Mutable, "mutable"}, {Random, "random"}, {Pointwise, "pointwise"}, {Effectful, "effectful"}}

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
//
// An operator whose schema changed between the PyTorch releases gofx knows
// (1.13, 2.6, 2.14) keeps every version: Schema is the newest, and Bind
// falls back to the older ones for calls the newest does not accept (an
// argument renamed or removed since), see [Operator.Schemas].
type Operator struct {
	schema   *Schema
	name     string
	tags     Tag
	older    []*Schema // the older schemas, newest first
	rank     int       // the release rank of schema (see Global)
	olderRnk []int
	opState
}

// Schema returns the operator's schema: the newest one.
func (o *Operator) Schema() *Schema { return o.schema }

// Schemas returns every schema the operator has had, newest first: one
// for most operators; for an operator whose schema changed between
// PyTorch 1.13, 2.6 and 2.14, the newest schema and then the older ones
// (aten::conv2d's int[2] stride became SymInt[2] stride, aten::stft gained
// align_to_window, aten::_cdist_backward renamed grad to grad_output).
func (o *Operator) Schemas() []*Schema {
	return append([]*Schema{o.schema}, o.older...)
}

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

// Impure reports whether the operator writes any of its arguments or is
// Effectful, so that dead-code elimination must keep calls to it.
func (o *Operator) Impure() bool { return o.tags&(Mutable|Effectful) != 0 }

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
	o := &Operator{schema: s, name: operatorName(s), tags: tags | derivedTags(s)}
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

// derivedMask is the set of tags derivedTags computes.
const derivedMask = Mutable | Inplace | View | Random

// addVersion records s, a schema of the operator of rank rank (a higher
// rank is a newer release), among o's versions: the newest becomes the
// operator's schema, and its derived tags replace those of the older one.
// Called before the registry is shared.
func (o *Operator) addVersion(s *Schema, rank int) {
	if rank <= o.rank {
		i := 0
		for i < len(o.older) && o.olderRnk[i] >= rank {
			i++
		}
		o.older = append(o.older[:i], append([]*Schema{s}, o.older[i:]...)...)
		o.olderRnk = append(o.olderRnk[:i], append([]int{rank}, o.olderRnk[i:]...)...)
		return
	}
	o.older = append([]*Schema{o.schema}, o.older...)
	o.olderRnk = append([]int{o.rank}, o.olderRnk...)
	o.schema, o.rank = s, rank
	o.tags = o.tags&^derivedMask | derivedTags(s)
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

//go:generate sh -c "cd schemas && python3 gen_versions.py"

//go:embed schemas/all_schemas_1.13.txt
var allSchemas string

//go:embed schemas/versions_2.x.txt
var newerSchemas string

//go:embed schemas/quantized_decomposed.txt
var quantizedDecomposed string

//go:embed schemas/core_schemas.txt
var coreSchemas string

//go:embed schemas/gofx.txt
var gofxSchemas string

//go:embed schemas/pointwise.txt
var pointwiseNames string

var (
	defaultOnce sync.Once
	defaultReg  *Registry
)

// The release ranks of the schemas Global loads: an operator's schema is
// the one of the highest rank.
const (
	rank113 = iota // PyTorch 1.13 (schemas/all_schemas_1.13.txt)
	rank26         // PyTorch 2.6, not 2.14
	rank214        // PyTorch 2.14 (and maybe 2.6)
)

// Global returns the process-wide registry, loaded on first use: every
// operator schema of PyTorch 1.13 (aten, schemas/all_schemas_1.13.txt),
// 2.6 and 2.14 (every namespace of their JIT registries: aten, prims,
// quantized, ...; schemas/versions_2.x.txt holds the schemas 1.13 lacks),
// and the quantized_decomposed operators 2.6 and 2.14 define in Python
// (schemas/quantized_decomposed.txt; the same in both), and gofx's own
// operators (schemas/gofx.txt: the fused epilogues gofx::convolution_relu,
// addmm_relu, ..., which passes.FuseEpilogues creates).
// An operator whose schema changed keeps its history: its Schema is the
// newest (2.14's, or 2.6's for an operator 2.14 dropped), and Bind falls
// back to the older ones. The core opset (schemas/core_schemas.txt) is
// tagged Core and the other operators Composite; the runtime assertions
// and range constraints of 2.x graphs are tagged Effectful. Users register
// their own operators here too (Define).
func Global() *Registry {
	defaultOnce.Do(func() {
		r := NewRegistry()
		pointwise := map[string]bool{}
		for _, n := range schemaFileLines(pointwiseNames) {
			pointwise[n], pointwise[n+"_"] = true, true
		}
		core := map[string]bool{}
		for _, line := range schemaFileLines(coreSchemas) {
			core[MustParseSchema(line).QualifiedName()] = true
		}
		for _, q := range extraCore {
			core[q] = true
		}
		add := func(s *Schema, rank int) {
			if o, ok := r.byName[operatorName(s)]; ok {
				o.addVersion(s, rank)
				return
			}
			tag := Composite
			if core[s.QualifiedName()] {
				tag = Core
			}
			if s.Namespace == "aten" && pointwise[s.Name] && takesTensor(s) {
				tag |= Pointwise
			}
			if effectful[s.QualifiedName()] {
				tag |= Effectful
			}
			o, err := r.add(s, tag)
			if err != nil {
				panic(err)
			}
			o.rank = rank
		}
		for _, line := range schemaFileLines(allSchemas) {
			add(MustParseSchema(line), rank113)
		}
		for _, line := range schemaFileLines(newerSchemas) {
			versions, schema, _ := strings.Cut(line, " ")
			rank := rank26
			if strings.Contains(","+versions+",", ",2.14,") {
				rank = rank214
			}
			add(MustParseSchema(schema), rank)
		}
		for _, line := range schemaFileLines(quantizedDecomposed) {
			add(MustParseSchema(line), rank214) // 2.14 defines the same schemas as 2.6
		}
		for _, line := range schemaFileLines(gofxSchemas) {
			add(MustParseSchema(line), rank214)
		}
		for _, line := range schemaFileLines(coreSchemas) {
			if s := MustParseSchema(line); r.byName[operatorName(s)] == nil {
				panic("ops: core operator " + s.QualifiedName() + " is in no schema list")
			}
		}
		tagRandom(r)
		defaultReg = r
	})
	return defaultReg
}

// extraCore are the operators of gofx's core opset beyond the core list:
// _native_batch_norm_legit_functional, which PyTorch 2.x's core-IR programs
// contain for a batch norm in training mode (run_decompositions turns
// _native_batch_norm_legit into it, the running statistics becoming
// outputs) although native_functions.yaml does not tag it core.
var extraCore = []string{"aten::_native_batch_norm_legit_functional"}

// effectful are torch.fx's side-effectful operators (torch/fx/node.py,
// _side_effectful_functions) that the schema lists know.
var effectful = map[string]bool{
	"aten::_assert_async": true, "aten::_assert_async.msg": true, "aten::_assert_scalar": true,
	"aten::_assert_tensor_metadata": true, "aten::sym_constrain_range": true,
	"aten::sym_constrain_range_for_size": true, "profiler::_record_function_enter": true,
	"profiler::_record_function_enter_new": true, "profiler::_record_function_exit": true,
	"inductor::accumulate_grad_": true, "inductor::resize_storage_bytes_": true,
}

// operatorName returns the registry key of s: "aten.add.Tensor",
// "aten.relu.default".
func operatorName(s *Schema) string {
	overload := s.Overload
	if overload == "" {
		overload = "default"
	}
	return s.Namespace + "." + s.Name + "." + overload
}

// randomNames are the random operators none of whose overloads takes a
// Generator, so that derivedTags cannot see them: 1.13's dropouts and
// *_like factories, and the operators PyTorch 2.6 tags
// nondeterministic_seeded that take a dropout probability (attention and
// RNNs).
var randomNames = []string{"rand_like", "randn_like", "randint_like", "dropout", "feature_dropout",
	"alpha_dropout", "feature_alpha_dropout", "native_dropout",
	"scaled_dot_product_attention", "_scaled_dot_product_attention_math", "_scaled_dot_product_flash_attention",
	"_scaled_dot_product_flash_attention_for_cpu", "_scaled_dot_product_efficient_attention",
	"_scaled_dot_product_efficient_attention_backward", "_scaled_dot_product_cudnn_attention",
	"_scaled_dot_product_cudnn_attention_backward", "_scaled_dot_product_fused_attention_overrideable",
	"_scaled_dot_product_attention_math_for_mps", "_efficient_attention_forward", "_flash_attention_forward",
	"_fused_sdp_choice", "_triton_scaled_dot_attention", "_fill_mem_eff_dropout_mask", "_nested_tensor_softmax_with_shape",
	"rnn_tanh", "rnn_relu", "gru", "lstm", "_lstm_mps", "miopen_rnn", "_cudnn_rnn", "_cudnn_init_dropout_state"}

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

// LookupQualified returns the operator a serialized program names, written
// as PyTorch 2.x's .pt2 files write an OpOverload's target
// ("torch.ops.aten.conv2d.default", "torch.ops.gofxtest.scaled_softplus.default")
// or as Lookup accepts it ("aten.add.Tensor", "aten::relu"). An unknown name
// is an error naming it; a name in a namespace the registry has never seen
// is most likely a custom operator, which Define registers.
func (r *Registry) LookupQualified(name string) (*Operator, error) {
	key := strings.TrimPrefix(name, "torch.ops.")
	if !strings.Contains(key, "::") && strings.Count(key, ".") != 2 {
		return nil, fmt.Errorf("ops: %q is not an operator overload (namespace.name.overload, as torch.ops.aten.add.Tensor)", name)
	}
	if o, ok := r.Lookup(key); ok {
		return o, nil
	}
	ns, rest, ok := strings.Cut(key, "::")
	if !ok {
		ns, rest, _ = strings.Cut(key, ".")
	}
	base, _, _ := strings.Cut(rest, ".")
	r.mu.RLock()
	known := len(r.overloads[ns+"."+base]) > 0
	r.mu.RUnlock()
	switch {
	case known:
		return nil, fmt.Errorf("ops: unknown operator %s: %s::%s has no such overload", name, ns, base)
	case ns == "aten" || ns == "prims" || ns == "prim" || ns == "quantized":
		return nil, fmt.Errorf("ops: unknown operator %s: not in PyTorch 1.13, 2.6 or 2.14", name)
	}
	return nil, fmt.Errorf("ops: unknown operator %s (a custom operator: register its schema with ops.Define)", name)
}
