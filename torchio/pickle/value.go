package pickle

import (
	"fmt"
	"math"
)

// Value is a decoded Python value. Its dynamic type is one of:
//
//	None       None
//	bool       True, False
//	int64      int (values beyond int64 are rejected)
//	float64    float
//	string     str
//	[]byte     bytes
//	Tuple      tuple
//	*List      list
//	*Dict      dict (and collections.OrderedDict, when the caller's Find maps it to OrderedDict)
//	Global     a global the caller's Find returned as-is
//
// or any value the caller's Find, Callable or PersistentLoad functions
// return.
type Value = any

// None is Python's None.
type None struct{}

// Tuple is a Python tuple.
type Tuple []Value

// List is a Python list. It is a pointer type because a list is mutable
// and may be shared through the memo.
type List struct {
	Items []Value
}

// Global names a module-level Python object ("collections", "OrderedDict").
type Global struct {
	Module, Name string
}

// String returns "module.name".
func (g Global) String() string { return g.Module + "." + g.Name }

// Dict is a Python dict or collections.OrderedDict: its items in insertion
// order, plus the attributes a BUILD set on it (OrderedDict's _metadata, for
// instance). Keys must be None, bool, int64, float64 or string (of at most MaxKeyLen
// bytes); Python's
// other hashable keys (tuples, frozensets) are rejected.
type Dict struct {
	// Ordered is true for a collections.OrderedDict.
	Ordered bool
	// Attrs holds the instance attributes set by BUILD, nil if none.
	Attrs *Dict

	keys, vals []Value
	index      map[Value]int
}

// NewDict returns an empty dict.
func NewDict() *Dict { return &Dict{index: map[Value]int{}} }

// Len returns the number of items.
func (d *Dict) Len() int { return len(d.keys) }

// Keys returns the keys in insertion order. The slice must not be modified.
func (d *Dict) Keys() []Value { return d.keys }

// Values returns the values in key order. The slice must not be modified.
func (d *Dict) Values() []Value { return d.vals }

// Get returns the value stored under key.
func (d *Dict) Get(key Value) (Value, bool) {
	k, err := hashKey(key)
	if err != nil {
		return nil, false
	}
	i, ok := d.index[k]
	if !ok {
		return nil, false
	}
	return d.vals[i], true
}

// Set stores v under key, keeping the position of an existing key as Python
// does. It fails for key types that cannot be dict keys here.
func (d *Dict) Set(key, v Value) error {
	k, err := hashKey(key)
	if err != nil {
		return err
	}
	if d.index == nil {
		d.index = map[Value]int{}
	}
	if i, ok := d.index[k]; ok {
		d.vals[i] = v
		return nil
	}
	d.index[k] = len(d.keys)
	d.keys = append(d.keys, key)
	d.vals = append(d.vals, v)
	return nil
}

// MaxKeyLen is the longest str accepted as a dict key.
const MaxKeyLen = 4096

// floatKey distinguishes a float key from an int key in the index (Python
// treats 1 and 1.0 as the same key; integral floats are folded into ints).
type floatKey float64

func hashKey(k Value) (Value, error) {
	switch k := k.(type) {
	case None:
		return k, nil
	case string:
		// Long keys would make every lookup of a memoized key cost its
		// length, so that a small pickle could take quadratic time.
		if len(k) > MaxKeyLen {
			return nil, fmt.Errorf("str key of %d bytes exceeds %d", len(k), MaxKeyLen)
		}
		return k, nil
	case bool:
		if k {
			return int64(1), nil
		}
		return int64(0), nil
	case int64:
		return k, nil
	case float64:
		if k == math.Trunc(k) && math.Abs(k) < 1<<63 {
			return int64(k), nil
		}
		if math.IsNaN(k) {
			return nil, fmt.Errorf("NaN is not supported as a dict key")
		}
		return floatKey(k), nil
	}
	return nil, fmt.Errorf("%s is not supported as a dict key", TypeName(k))
}

// TypeName returns the Python-like name of v's type, for error messages.
func TypeName(v Value) string {
	switch v := v.(type) {
	case nil:
		return "nothing"
	case None:
		return "None"
	case bool:
		return "bool"
	case int64:
		return "int"
	case float64:
		return "float"
	case string:
		return "str"
	case []byte:
		return "bytes"
	case Tuple:
		return "tuple"
	case *List:
		return "list"
	case *Dict:
		return "dict"
	case Global:
		return "global " + v.String()
	}
	return fmt.Sprintf("%T", v)
}

// Build sets d's attributes from a BUILD state: None, a dict of attributes,
// or a (state, slotstate) pair of which at most one is not None.
func (d *Dict) Build(state Value) error {
	if t, ok := state.(Tuple); ok && len(t) == 2 {
		_, n0 := t[0].(None)
		_, n1 := t[1].(None)
		switch {
		case n0:
			state = t[1]
		case n1:
			state = t[0]
		default:
			return fmt.Errorf("dict state with both a __dict__ and slots is not supported")
		}
	}
	switch s := state.(type) {
	case None:
		return nil
	case *Dict:
		d.Attrs = s
		return nil
	}
	return fmt.Errorf("dict state must be a dict or None, got %s", TypeName(state))
}

// OrderedDict is a stand-in for collections.OrderedDict that a Decoder's
// Find may return: called with no arguments, as pickle calls it, it makes an
// empty ordered Dict that SETITEMS then fills.
var OrderedDict Callable = Func(func(args Tuple) (Value, error) {
	if len(args) != 0 {
		return nil, fmt.Errorf("OrderedDict: expected no arguments, got %d", len(args))
	}
	d := NewDict()
	d.Ordered = true
	return d, nil
})
