package node

import (
	"fmt"
	"strings"
	"sync"

	"github.com/gofx/gofx/ops"
)

// Target is what a node calls or names. Its String form is the target as
// torch.fx prints it: "aten.add.Tensor" for an operator, "layer1.0.conv1" for a
// module, "relu" for a method, "x" for a placeholder.
//
// call_function nodes take a [Function]; every other opcode takes a [Path].
// Two targets are the same target when their String forms are equal: that is
// the identity Text and Parse preserve, and the key of graph.FindNodes.
// Targets made by [NewOp], package ops (ops/aten's handles) and graph.Parse
// are also the same Go values, so n.Target() == aten.Relu works.
type Target interface {
	String() string
}

// Path is the target of placeholder (the argument name), get_attr (a dotted
// attribute path such as "layer1.0.conv1.weight"), call_module (a dotted
// module path), call_method (a method name) and output ("output") nodes.
type Path string

// String returns the path itself.
func (p Path) String() string { return string(p) }

// Function is the target of a call_function node: an operator with a stable
// qualified name. Package ops's operator overloads implement it; [Func] is a
// minimal implementation for operators known only by name.
//
// Implementations must be comparable (pointer types are) and their String
// and ShortName methods must not change over time.
type Function interface {
	Target
	// ShortName is the base of the names given to nodes that call the
	// function: "add" for aten.add.Tensor, "getitem" for operator.getitem.
	ShortName() string
}

// Impurer is implemented by Functions that may have side effects (in-place
// or out= operators, random number generation, printing). Dead-code
// elimination keeps call_function nodes whose target reports true.
type Impurer interface {
	Impure() bool
}

// PythonNamer is implemented by Functions that are spelled differently in
// Python-like code than in the graph's text: aten.add.Tensor is written
// torch.ops.aten.add.Tensor.
type PythonNamer interface {
	PythonName() string
}

// Func is a Function known by its qualified name alone. It serves graphs
// built before an operator registry exists, tests, and user operators that
// need no schema. [NewOp] makes one per name (it interns); [NewFunc] makes a
// new one at each call. A Func is compared by pointer, so use one value per
// operator.
type Func struct {
	name, short, python string
	impure              bool
}

// NewFunc returns a Function named qualname ("aten.add.Tensor",
// "operator.getitem", "mylib.fused_add_relu.default").
//
// A three-part name whose first part is an operator namespace (aten, prims,
// quantized, ...) or whose last part is "default" names an operator
// overload (namespace.op.overload): its short name is the middle part and
// it prints as torch.ops.NAME in Python-like code. Otherwise the short name
// is the last part ("getitem" for operator.getitem), and a Python builtin
// ("builtins.len") is written by its bare name in Python-like code, as
// torch.fx writes it. NewFunc returns an error for an empty name or one
// that is not a dotted sequence of identifiers.
func NewFunc(qualname string, impure bool) (*Func, error) {
	parts := strings.Split(qualname, ".")
	for _, p := range parts {
		if !IsIdentifier(p) {
			return nil, fmt.Errorf("node.NewFunc: name %q is not a dotted sequence of identifiers", qualname)
		}
	}
	f := &Func{name: qualname, impure: impure, python: qualname, short: parts[len(parts)-1]}
	if len(parts) == 3 && (isOpNamespace(parts[0]) || parts[2] == "default") {
		f.short = parts[1]
		f.python = "torch.ops." + qualname
	} else if len(parts) == 2 && isOpNamespace(parts[0]) {
		f.short = parts[1]
		f.python = "torch.ops." + qualname
	} else if len(parts) == 2 && parts[0] == "builtins" {
		f.python = parts[1] // len(x), as torch.fx writes Python's builtins
	}
	return f, nil
}

// NewOp returns the Function for the operator overload
// namespace::name.overload, such as NewOp("aten", "relu", "default", false)
// or NewOp("mylib", "fused_add_relu", "default", false).
//
// The same name always gives the same Function, so targets compare with ==:
//
//   - an operator of package ops's global registry (every operator of
//     PyTorch 1.13, 2.6 and 2.14, and those registered with ops.Define) is returned as
//     that registry's *ops.Operator: NewOp("aten", "relu", "default",
//     false) == aten.Relu, it runs with the operator's kernel, and its
//     impurity is the operator's own (impure is ignored);
//   - otherwise a Function registered under the qualified name (see
//     [Register]) is returned;
//   - otherwise a new [*Func] is made and registered, so that later calls,
//     [LookupFunction] and graph.Parse give back the same one: its
//     qualified name is "mylib.fused_add_relu.default", nodes that call it
//     are named after name, and Python-like code calls it as
//     torch.ops.mylib.fused_add_relu.default. Asking for it again with a
//     different impure is an error.
func NewOp(namespace, name, overload string, impure bool) (Function, error) {
	for _, p := range []string{namespace, name, overload} {
		if !IsIdentifier(p) {
			return nil, fmt.Errorf("node.NewOp: %q is not an identifier (in %s.%s.%s)", p, namespace, name, overload)
		}
	}
	q := namespace + "." + name + "." + overload
	if o, ok := ops.Global().Lookup(q); ok {
		return o, nil
	}
	registry.Lock()
	defer registry.Unlock()
	if f, ok := registry.m[q]; ok {
		if fn, isFunc := f.(*Func); isFunc && fn.impure != impure {
			return nil, fmt.Errorf("node.NewOp: %s is already defined with impure=%v", q, fn.impure)
		}
		return f, nil
	}
	f := &Func{name: q, short: name, python: "torch.ops." + q, impure: impure}
	if registry.m == nil {
		registry.m = map[string]Function{}
	}
	registry.m[q] = f
	return f, nil
}

// MustOp is NewOp for names known to be valid at compile time; it panics
// on an invalid name. MustOp("aten", "add", "Tensor", false) is
// aten.AddTensor itself.
func MustOp(namespace, name, overload string, impure bool) Function {
	f, err := NewOp(namespace, name, overload, impure)
	if err != nil {
		panic(err)
	}
	return f
}

// MustFunc is NewFunc for names known to be valid at compile time; it panics
// on an invalid name.
func MustFunc(qualname string, impure bool) *Func {
	f, err := NewFunc(qualname, impure)
	if err != nil {
		panic(err)
	}
	return f
}

func isOpNamespace(ns string) bool {
	switch ns {
	case "aten", "prims", "quantized", "_quantized", "quantized_decomposed", "torchvision", "higher_order":
		return true
	}
	return false
}

// String returns the qualified name.
func (f *Func) String() string { return f.name }

// ShortName returns the operator name used to name nodes.
func (f *Func) ShortName() string { return f.short }

// PythonName returns the name used in Python-like code.
func (f *Func) PythonName() string { return f.python }

// Impure reports whether the function was declared with side effects.
func (f *Func) Impure() bool { return f.impure }

var registry struct {
	sync.RWMutex
	m map[string]Function
}

// Register makes f resolvable by its qualified name with [LookupFunction],
// which graph.Parse uses to turn names in text back into targets. Package ops
// registers every operator it knows; users register their own operators.
// Registering a different Function under a name already taken is an error;
// registering the same one again is not.
func Register(f Function) error {
	if f == nil {
		return fmt.Errorf("node.Register: nil function")
	}
	name := f.String()
	registry.Lock()
	defer registry.Unlock()
	if registry.m == nil {
		registry.m = map[string]Function{}
	}
	if old, ok := registry.m[name]; ok && old != f {
		return fmt.Errorf("node.Register: a different function is already registered as %q", name)
	}
	registry.m[name] = f
	return nil
}

// LookupFunction returns the Function with the given qualified name: one
// registered with Register, or else an operator of package ops's global
// registry (every operator of PyTorch 1.13, 2.6 and 2.14,
// "aten.add.Tensor", and the operators users register there).
func LookupFunction(name string) (Function, bool) {
	registry.RLock()
	f, ok := registry.m[name]
	registry.RUnlock()
	if ok {
		return f, true
	}
	if o, ok := ops.Global().Lookup(name); ok {
		return o, true
	}
	return nil, false
}

// LookupTarget returns the call_function target a PyTorch 2.x .pt2 file
// names (serialize.py's serialize_operator writes module.name):
//
//   - "torch.ops.aten.conv2d.default", "torch.ops.gofxtest.scaled_softplus.default":
//     an operator of package ops's global registry (a custom operator once
//     ops.Define registered its schema), or a Function made by [NewOp];
//   - "torch.ops.higher_order.cond" (while_loop, map_impl): the higher-order
//     operator registered as "higher_order.cond";
//   - "_operator.mul", "operator.getitem": Python's operator module,
//     registered as "operator.mul";
//   - any other dotted name ("torch.sym_max", "math.trunc",
//     "builtins.getattr"): the Function registered under it
//     ("torch._sym_sqrt", 2.6's name of torch.sym_sqrt, is
//     "torch.sym_sqrt").
//
// Python's operators and the higher-order operators are registered by
// package nn (pyops.go, symfuncs.go, higherorder.go), which every package
// that runs graphs imports; the decision to resolve here, in node, keeps
// one name table (node's registry, which graph.Parse also reads) for text
// and files alike. An unknown name is an error naming it. [TorchName] is
// the inverse.
func LookupTarget(name string) (Function, error) {
	if rest, ok := strings.CutPrefix(name, "torch.ops."); ok {
		if o, ok := ops.Global().Lookup(rest); ok {
			return o, nil
		}
		if f, ok := lookupRegistered(rest); ok {
			return f, nil
		}
		if strings.HasPrefix(rest, "higher_order.") {
			return nil, fmt.Errorf("node.LookupTarget: unknown higher-order operator %s (gofx knows cond, while_loop and map_impl, registered by package nn)", name)
		}
		if _, err := ops.Global().LookupQualified(name); err != nil {
			return nil, fmt.Errorf("node.LookupTarget: %w", err)
		}
	}
	key := name
	if rest, ok := strings.CutPrefix(name, "_operator."); ok {
		key = "operator." + rest
	}
	if alias, ok := targetAliases[key]; ok {
		key = alias
	}
	if f, ok := lookupRegistered(key); ok {
		return f, nil
	}
	return nil, fmt.Errorf("node.LookupTarget: unknown function %s (no Function is registered as %s; Python's operators are registered by package nn)", name, key)
}

// targetAliases maps other spellings of a function, as some PyTorch
// release writes them, to its registered name.
var targetAliases = map[string]string{"torch._sym_sqrt": "torch.sym_sqrt"}

func lookupRegistered(name string) (Function, bool) {
	registry.RLock()
	defer registry.RUnlock()
	f, ok := registry.m[name]
	return f, ok
}

// TorchName returns the name a PyTorch 2.x .pt2 file gives the target f,
// the inverse of [LookupTarget]: "torch.ops.aten.add.Tensor" for an
// operator (and any Function whose PythonName is under torch.ops,
// "torch.ops.higher_order.cond"), "_operator.mul" for operator.mul (the
// module of Python's operator functions is _operator), and the qualified
// name otherwise ("torch.sym_max", "math.trunc").
func TorchName(f Function) string {
	if p, ok := f.(PythonNamer); ok && strings.HasPrefix(p.PythonName(), "torch.ops.") {
		return p.PythonName()
	}
	name := f.String()
	if rest, ok := strings.CutPrefix(name, "operator."); ok {
		return "_operator." + rest
	}
	return name
}

// IsIdentifier reports whether s is a non-empty identifier: an ASCII letter
// or underscore followed by letters, digits and underscores.
func IsIdentifier(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case '0' <= c && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}
