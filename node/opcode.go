package node

import "fmt"

// Opcode is the kind of a node, as in torch.fx.
type Opcode uint8

// The six opcodes of torch.fx.
const (
	// Placeholder is a function input. Its target is the argument name and its
	// only optional argument is the default value.
	Placeholder Opcode = iota + 1
	// GetAttr fetches a parameter, buffer or constant; its target is the
	// dotted attribute path in the module tree.
	GetAttr
	// CallFunction calls a Function (an operator) on its arguments.
	CallFunction
	// CallMethod calls the method named by its target on its first argument.
	CallMethod
	// CallModule calls the submodule whose dotted path is its target.
	CallModule
	// Output returns its single argument from the graph.
	Output
)

var opcodeNames = [...]string{
	Placeholder:  "placeholder",
	GetAttr:      "get_attr",
	CallFunction: "call_function",
	CallMethod:   "call_method",
	CallModule:   "call_module",
	Output:       "output",
}

// Opcodes lists the six opcodes in declaration order.
var Opcodes = []Opcode{Placeholder, GetAttr, CallFunction, CallMethod, CallModule, Output}

// String returns the opcode as torch.fx spells it ("call_function").
func (o Opcode) String() string {
	if o.Valid() {
		return opcodeNames[o]
	}
	return fmt.Sprintf("Opcode(%d)", uint8(o))
}

// Valid reports whether o is one of the six opcodes.
func (o Opcode) Valid() bool { return o >= Placeholder && o <= Output }

// ParseOpcode returns the opcode spelled s ("placeholder", "get_attr", ...).
func ParseOpcode(s string) (Opcode, error) {
	for _, o := range Opcodes {
		if opcodeNames[o] == s {
			return o, nil
		}
	}
	return 0, fmt.Errorf("unknown opcode %q (want one of placeholder, get_attr, call_function, call_method, call_module, output)", s)
}
