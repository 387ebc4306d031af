package archive

import (
	"errors"
	"fmt"
	"strings"

	"github.com/gofx/gofx/tensor"
	"github.com/gofx/gofx/torchio"
	"github.com/gofx/gofx/torchio/pickle"
)

// Value is a value of data.pkl or constants.pkl. Its dynamic type is one
// of:
//
//	nil             None
//	bool            bool
//	int64           int
//	float64         float
//	complex128      complex (builtins.complex)
//	string          str
//	[]byte          bytes
//	Tuple           tuple
//	*List           list (List[T]), with its type tag
//	*Dict           dict (Dict[K, V]), with its type tag
//	*tensor.Tensor  Tensor (parameters, buffers and tensor attributes alike)
//	*Object         an instance of a class of the archive's code/
//	*Enum           a value of an Enum class of the archive's code/
//	Device          torch.device
//
// Values reached twice through the pickle's memo (a list two attributes
// share, tensors of one storage) are the same Go value here too.
type Value = any

// Tuple is a tuple.
type Tuple []Value

// List is a list. Type is its TorchScript type as the pickle tags it, in
// the Python spelling: "List[int]", "List[float]", "List[bool]",
// "List[Tensor]" (torch.jit._pickle.build_intlist and its kin) or any type
// restore_type_tag names ("List[str]", "List[List[int]]"); "" when the
// pickle gives none (archive versions 1 and 2), when the element type comes
// from the class's annotation.
type List struct {
	Type  string
	Items []Value
}

// Dict is a dict: its keys and values in insertion order, and its type
// ("Dict[str, int]") as restore_type_tag gives it, "" when untagged. Keys
// are nil, bool, int64, float64 or string.
type Dict struct {
	Type   string
	Keys   []Value
	Values []Value
}

// Len returns the number of items.
func (d *Dict) Len() int { return len(d.Keys) }

// Get returns the value stored under key (compared with ==).
func (d *Dict) Get(key Value) (Value, bool) {
	for i, k := range d.Keys {
		if k == key {
			return d.Values[i], true
		}
	}
	return nil, false
}

// Object is an instance of a TorchScript class: a module (the data.pkl
// root and every submodule) or an object of a class the archive's code
// defines. Class is its qualified name as code/ defines it
// ("__torch__.torch.nn.modules.linear.___torch_mangle_13.Linear"; the
// class Linear in the file of qualifier
// "__torch__.torch.nn.modules.linear.___torch_mangle_13").
//
// State is what the pickle's BUILD gave the object, nil if none. For
// modules and for classes without __setstate__ that is a *Dict of
// attribute names to values, in the class's attribute (slot) order, and
// Attrs holds the same pairs; for a class that defines __getstate__ and
// __setstate__ it is whatever __getstate__ returned (often a Tuple), to be
// passed to __setstate__, and Attrs is nil unless that happens to be a
// dict with str keys. Which of the two applies is decided by the class's
// code, which this package does not read.
type Object struct {
	Class string
	State Value
	Attrs []Attr

	built bool
}

// Attr is one attribute of an Object.
type Attr struct {
	Name  string
	Value Value
}

// Attr returns the attribute called name.
func (o *Object) Attr(name string) (Value, bool) {
	for _, a := range o.Attrs {
		if a.Name == name {
			return a.Value, true
		}
	}
	return nil, false
}

// Build records the BUILD state (pickle.Builder).
func (o *Object) Build(state pickle.Value) error {
	if o.built {
		return fmt.Errorf("object of class %s is built twice", o.Class)
	}
	o.built = true
	o.State = state
	return nil
}

// Enum is a value of a TorchScript Enum class: the class's qualified name
// and the member's value (the pickle does not name the member).
type Enum struct {
	Class string
	Value Value
}

// Device is a torch.device, as its string ("cpu", "cuda:0").
type Device string

// tagged is a list or dict with the type tag a torch.jit._pickle function
// gave it, during decoding.
type tagged struct {
	v   pickle.Value
	typ string
	fn  string // the torch.jit._pickle function, for errors
}

// class is the stand-in for a global naming a class of the archive's code:
// NEWOBJ with no arguments makes an Object, REDUCE of a value (not a
// tuple, see CallRaw) or of a 1-tuple an Enum value.
type class struct{ name string }

func (c class) Call(args pickle.Tuple) (pickle.Value, error) {
	switch len(args) {
	case 0:
		return &Object{Class: c.name}, nil
	case 1:
		return &Enum{Class: c.name, Value: args[0]}, nil
	}
	return nil, fmt.Errorf("class %s called with %d arguments, want none (an object) or one (an enum value)", c.name, len(args))
}

// CallRaw makes an Enum value: TorchScript pickles one as the class, the
// member's value and REDUCE, without an argument tuple.
func (c class) CallRaw(v pickle.Value) (pickle.Value, error) {
	return &Enum{Class: c.name, Value: v}, nil
}

// maxTypeLen bounds a type tag's length.
const maxTypeLen = 4096

// listTags maps torch.jit._pickle's specialized list builders to the type
// they tag.
var listTags = map[string]string{
	"build_intlist":    "List[int]",
	"build_doublelist": "List[float]",
	"build_boollist":   "List[bool]",
	"build_tensorlist": "List[Tensor]",
}

// findGlobal resolves the globals TorchScript's pickler writes beyond
// torchio's tensor globals (which torchio.Archive.Unpickle resolves
// first), and refuses every other one, naming it.
func findGlobal(module, name string) (pickle.Value, error) {
	qual := module + "." + name
	if module == "__torch__" || strings.HasPrefix(module, "__torch__.") {
		return class{qual}, nil
	}
	switch module {
	case "torch.jit._pickle":
		if typ, ok := listTags[name]; ok {
			return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) {
				if len(args) != 1 {
					return nil, fmt.Errorf("%s: expected 1 argument, got %d", qual, len(args))
				}
				if _, ok := args[0].(*pickle.List); !ok {
					return nil, fmt.Errorf("%s: argument is %s, not a list", qual, pickle.TypeName(args[0]))
				}
				return &tagged{v: args[0], typ: typ, fn: qual}, nil
			}), nil
		}
		switch name {
		case "restore_type_tag":
			return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) {
				if len(args) != 2 {
					return nil, fmt.Errorf("%s: expected 2 arguments, got %d", qual, len(args))
				}
				typ, ok := args[1].(string)
				if !ok {
					return nil, fmt.Errorf("%s: type is %s, not a str", qual, pickle.TypeName(args[1]))
				}
				if len(typ) > maxTypeLen {
					return nil, fmt.Errorf("%s: type of %d bytes is longer than %d", qual, len(typ), maxTypeLen)
				}
				switch args[0].(type) {
				case *pickle.List:
					if !strings.HasPrefix(typ, "List[") {
						return nil, fmt.Errorf("%s: a list tagged %q", qual, typ)
					}
				case *pickle.Dict:
					if !strings.HasPrefix(typ, "Dict[") {
						return nil, fmt.Errorf("%s: a dict tagged %q", qual, typ)
					}
				default:
					return nil, fmt.Errorf("%s: value is %s, not a list or dict", qual, pickle.TypeName(args[0]))
				}
				return &tagged{v: args[0], typ: typ, fn: qual}, nil
			}), nil
		case "build_tensor_from_id":
			return nil, fmt.Errorf("global %s (a tensor table reference, which torch.jit.save archives do not use) is %w", qual, pickle.ErrNotAllowed)
		}
	case "torch._utils":
		switch name {
		case "_rebuild_qtensor":
			return nil, fmt.Errorf("global %s: quantized tensors are not supported (%w)", qual, pickle.ErrNotAllowed)
		case "_rebuild_sparse_tensor":
			return nil, fmt.Errorf("global %s: sparse tensors are not supported (%w)", qual, pickle.ErrNotAllowed)
		}
	case "builtins":
		if name == "complex" {
			return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) {
				if len(args) != 2 {
					return nil, fmt.Errorf("%s: expected 2 arguments, got %d", qual, len(args))
				}
				re, ok1 := args[0].(float64)
				im, ok2 := args[1].(float64)
				if !ok1 || !ok2 {
					return nil, fmt.Errorf("%s: arguments are %s and %s, not floats", qual, pickle.TypeName(args[0]), pickle.TypeName(args[1]))
				}
				return complex(re, im), nil
			}), nil
		}
	case "torch":
		if name == "device" {
			return pickle.Func(func(args pickle.Tuple) (pickle.Value, error) {
				if len(args) != 1 {
					return nil, fmt.Errorf("%s: expected 1 argument, got %d", qual, len(args))
				}
				s, ok := args[0].(string)
				if !ok || len(s) > 64 {
					return nil, fmt.Errorf("%s: argument is %s, not a device string", qual, pickle.TypeName(args[0]))
				}
				return Device(s), nil
			}), nil
		}
		if strings.HasSuffix(name, "Storage") {
			return nil, fmt.Errorf("global %s: storages of this dtype are not supported (%w)", qual, pickle.ErrNotAllowed)
		}
	case "__main__":
		return nil, fmt.Errorf("global %s (the tensor tables of archive format version 1) is %w", qual, pickle.ErrNotAllowed)
	}
	return nil, fmt.Errorf("global %s is %w", qual, pickle.ErrNotAllowed)
}

// maxDepth bounds the nesting of values.
const maxDepth = 1000

// converter turns the decoder's values into this package's, once per
// distinct container.
type converter struct {
	done     map[any]Value
	tensors  map[*tensor.Tensor]bool
	elems    int64
	maxElems int64
	// table is the tensor table attributes.pkl's tensorRefs index (legacy
	// archives; nil otherwise).
	table []*tensor.Tensor
}

func newConverter(maxElems int64) *converter {
	return &converter{done: map[any]Value{}, tensors: map[*tensor.Tensor]bool{}, maxElems: maxElems}
}

var errDepth = fmt.Errorf("values nested more than %d deep", maxDepth)

func (c *converter) conv(v pickle.Value, depth int) (Value, error) {
	if depth > maxDepth {
		return nil, errDepth
	}
	switch v := v.(type) {
	case pickle.None:
		return nil, nil
	case bool, int64, float64, complex128, string, []byte, Device:
		return v, nil
	case *tensor.Tensor:
		return c.tensor(v)
	case *tensorRef:
		if c.table == nil || !v.set || v.id < 0 || v.id >= int64(len(c.table)) {
			return nil, fmt.Errorf("tensor id %d outside the tensor table of %d (model.json's tensors)", v.id, len(c.table))
		}
		return c.table[v.id], nil
	case *torchio.Parameter:
		return c.tensor(v.Data)
	case pickle.Tuple:
		if len(v) == 0 {
			return Tuple{}, nil
		}
		// A tuple the memo shares is converted once: otherwise a small
		// pickle could expand to a huge tree.
		if d, ok := c.done[&v[0]]; ok {
			return d, nil
		}
		out := make(Tuple, len(v))
		c.done[&v[0]] = out
		for i, e := range v {
			x, err := c.conv(e, depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = x
		}
		return out, nil
	case *pickle.List:
		if d, ok := c.done[v]; ok {
			return d, nil
		}
		l := &List{Items: make([]Value, len(v.Items))}
		c.done[v] = l
		for i, e := range v.Items {
			x, err := c.conv(e, depth+1)
			if err != nil {
				return nil, fmt.Errorf("list item %d: %w", i, err)
			}
			l.Items[i] = x
		}
		return l, nil
	case *pickle.Dict:
		if d, ok := c.done[v]; ok {
			return d, nil
		}
		if v.Attrs != nil {
			return nil, errors.New("a dict with attributes (BUILD on a dict)")
		}
		d := &Dict{Keys: make([]Value, v.Len()), Values: make([]Value, v.Len())}
		c.done[v] = d
		for i, k := range v.Keys() {
			kv, err := c.conv(k, depth+1)
			if err != nil {
				return nil, err
			}
			x, err := c.conv(v.Values()[i], depth+1)
			if err != nil {
				return nil, fmt.Errorf("dict item %v: %w", kv, err)
			}
			d.Keys[i], d.Values[i] = kv, x
		}
		return d, nil
	case *tagged:
		x, err := c.conv(v.v, depth+1)
		if err != nil {
			return nil, err
		}
		switch x := x.(type) {
		case *List:
			if err := checkItems(x, v.typ); err != nil {
				return nil, fmt.Errorf("%s: %w", v.fn, err)
			}
			x.Type = v.typ
		case *Dict:
			x.Type = v.typ
		}
		return x, nil
	case *Object:
		if _, ok := c.done[v]; ok {
			return v, nil
		}
		c.done[v] = v
		if v.State == nil {
			return v, nil
		}
		st, err := c.conv(v.State, depth+1)
		if err != nil {
			return nil, fmt.Errorf("object of class %s: %w", v.Class, err)
		}
		v.State = st
		if d, ok := st.(*Dict); ok {
			attrs := make([]Attr, 0, d.Len())
			for i, k := range d.Keys {
				name, ok := k.(string)
				if !ok {
					attrs = nil
					break
				}
				attrs = append(attrs, Attr{name, d.Values[i]})
			}
			v.Attrs = attrs
		}
		return v, nil
	case *Enum:
		if _, ok := c.done[v]; ok {
			return v, nil
		}
		c.done[v] = v
		x, err := c.conv(v.Value, depth+1)
		if err != nil {
			return nil, fmt.Errorf("enum of class %s: %w", v.Class, err)
		}
		v.Value = x
		return v, nil
	}
	return nil, fmt.Errorf("unexpected %s in the pickle", pickle.TypeName(v))
}

func (c *converter) tensor(t *tensor.Tensor) (Value, error) {
	if t == nil {
		return nil, errors.New("a parameter without data")
	}
	if !c.tensors[t] {
		c.tensors[t] = true
		c.elems += int64(t.Numel())
		if c.elems > c.maxElems {
			return nil, fmt.Errorf("the tensors hold more than %d elements in all (Limits.Tensor.MaxElements)", c.maxElems)
		}
	}
	return t, nil
}

// checkItems checks the items of a list tagged by a specialized builder.
func checkItems(l *List, typ string) error {
	var ok func(Value) bool
	switch typ {
	case "List[int]":
		ok = func(v Value) bool { _, is := v.(int64); return is }
	case "List[float]":
		ok = func(v Value) bool { _, is := v.(float64); return is }
	case "List[bool]":
		ok = func(v Value) bool { _, is := v.(bool); return is }
	case "List[Tensor]":
		ok = func(v Value) bool { _, is := v.(*tensor.Tensor); return is }
	default:
		return nil
	}
	for i, it := range l.Items {
		if !ok(it) {
			return fmt.Errorf("item %d of a %s is %s", i, typ, typeName(it))
		}
	}
	return nil
}

// typeName names a Value's type for errors.
func typeName(v Value) string {
	switch v := v.(type) {
	case nil:
		return "None"
	case *List:
		return "list"
	case *Dict:
		return "dict"
	case Tuple:
		return "tuple"
	case *tensor.Tensor:
		return "Tensor"
	case *Object:
		return "object of class " + v.Class
	case *Enum:
		return "enum of class " + v.Class
	case Device:
		return "device"
	case complex128:
		return "complex"
	}
	return pickle.TypeName(v)
}
