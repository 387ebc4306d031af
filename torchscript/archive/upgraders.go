package archive

import "strings"

// Upgrader is one entry of PyTorch's table of versioned operators
// (torch/csrc/jit/operator_upgraders: version_map.cpp and
// upgraders_entry.cpp): an operator whose meaning changed at archive
// format version Before, and the TorchScript function that gives a call
// written for the old meaning its old result on the new operator.
//
// A frontend applies it as PyTorch's loader does
// (ReplaceOldOperatorsWithUpgraders): in an archive whose Version is below
// Before, a call that resolves to the overload Op is compiled as a call of
// the function Source defines (named Name; its parameters are OldSchema's)
// instead. Archives of version Before or later call Op as it is.
type Upgrader struct {
	// Op is the overload's qualified name as PyTorch's schemas spell it:
	// "aten::div.Tensor", "aten::gelu" (the default overload).
	Op string
	// Before is the version the operator changed at (PyTorch's
	// bumped_at_version): the upgrader applies to archives of versions
	// [1, Before).
	Before int
	// Name is the upgrader function's name ("div_Tensor_0_3": for versions
	// 0 to 3).
	Name string
	// OldSchema is the overload's schema before the change.
	OldSchema string
	// Meaning says in words what changed and what the upgrader does.
	Meaning string
	// Source is the upgrader's TorchScript source, a def of Name in the
	// Python subset the frontend compiles (it uses torch.* calls,
	// isinstance, is None and annotations such as Union[int, float,
	// complex], number, Optional[Device]).
	Source string
}

// Upgraders returns PyTorch 2.6's table of versioned operators, sorted by
// Op (PyTorch 2.14's is the same less aten::full.names). The versions it
// names: div (4), full (5), linspace (8), logspace (9), gelu (10).
func Upgraders() []Upgrader { return append([]Upgrader(nil), upgraders...) }

// UpgraderFor returns the upgrader an archive of format version version
// needs for the overload op ("aten::div.Tensor"; "aten::gelu" or
// "aten::gelu.default" for a default overload), if any.
func UpgraderFor(op string, version int) (Upgrader, bool) {
	op = strings.TrimSuffix(op, ".default")
	for _, u := range upgraders {
		if u.Op == op && version < u.Before {
			return u, true
		}
	}
	return Upgrader{}, false
}
