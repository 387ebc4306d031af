package nn

import (
	"iter"
	"strconv"
)

// Sequential calls its submodules ("0", "1", ...) in order, each on the
// previous one's result, as torch.nn.Sequential does.
type Sequential struct {
	Base
	mods []Module
}

// NewSequential returns a Sequential of mods, registered as "0", "1", ... .
func NewSequential(mods ...Module) *Sequential {
	s := &Sequential{}
	s.Init(s, "Sequential")
	for _, m := range mods {
		s.Append(m)
	}
	return s
}

// Append adds m as the next submodule.
func (s *Sequential) Append(m Module) {
	s.AddModule(strconv.Itoa(len(s.mods)), m)
	s.mods = append(s.mods, m)
}

// Len returns the number of submodules.
func (s *Sequential) Len() int { return len(s.mods) }

// At returns submodule i.
func (s *Sequential) At(i int) Module { return s.mods[i] }

// ArgNames names Forward's input as PyTorch does ("input").
func (s *Sequential) ArgNames() []string { return []string{"input"} }

// Forward runs the submodules in order.
func (s *Sequential) Forward(x Value) Value {
	for _, m := range s.mods {
		x = Call(m, x)
	}
	return x
}

// Call is Call(s, x).
func (s *Sequential) Call(x Value) Value { return Call(s, x) }

// ModuleList holds submodules ("0", "1", ...) for model code to index; it
// has no Forward of its own.
type ModuleList struct {
	Base
	mods []Module
}

// NewModuleList returns a ModuleList of mods.
func NewModuleList(mods ...Module) *ModuleList {
	l := &ModuleList{}
	l.Init(l, "ModuleList")
	for _, m := range mods {
		l.Append(m)
	}
	return l
}

// Append adds m at the end.
func (l *ModuleList) Append(m Module) {
	l.AddModule(strconv.Itoa(len(l.mods)), m)
	l.mods = append(l.mods, m)
}

// Len returns the number of modules.
func (l *ModuleList) Len() int { return len(l.mods) }

// At returns module i.
func (l *ModuleList) At(i int) Module { return l.mods[i] }

// All returns the modules in order.
func (l *ModuleList) All() iter.Seq2[int, Module] {
	return func(yield func(int, Module) bool) {
		for i, m := range l.mods {
			if !yield(i, m) {
				return
			}
		}
	}
}

// ModuleDict holds named submodules in insertion order; it has no Forward
// of its own.
type ModuleDict struct {
	Base
}

// NewModuleDict returns an empty ModuleDict.
func NewModuleDict() *ModuleDict {
	d := &ModuleDict{}
	d.Init(d, "ModuleDict")
	return d
}

// Set adds m under key (a construction error if key is taken).
func (d *ModuleDict) Set(key string, m Module) { d.AddModule(key, m) }

// Get returns the module under key.
func (d *ModuleDict) Get(key string) (Module, bool) { return d.Child(key) }

// Keys returns the keys in insertion order.
func (d *ModuleDict) Keys() []string {
	var out []string
	for k := range d.Children() {
		out = append(out, k)
	}
	return out
}
