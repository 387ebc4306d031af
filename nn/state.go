package nn

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/torchio"
)

// StateDict returns m's state as PyTorch's module.state_dict(): every
// parameter and persistent buffer under its dotted name, in PyTorch's
// order (each module's parameters, then its buffers, then its submodules).
// The tensors are the module's own (not copies).
func StateDict(m Module) *torchio.StateDict {
	sd := torchio.NewStateDict()
	for _, e := range stateEntries(m) {
		if e.s.t != nil {
			sd.Set(e.name, e.s.t)
		}
	}
	return sd
}

// stateEntry is one tensor of a module's state dict: its dotted name and
// the slot of the parameter or persistent buffer holding it.
type stateEntry struct {
	name string
	s    *slot
}

// stateEntries lists m's parameters and persistent buffers in state dict
// order, each shared one once.
func stateEntries(m Module) []stateEntry {
	var out []stateEntry
	seen := map[*slot]bool{}
	for path, sub := range NamedModules(m) {
		b := sub.ModuleBase()
		for _, p := range b.params {
			if !seen[&p.p.slot] {
				seen[&p.p.slot] = true
				out = append(out, stateEntry{join(path, p.name), &p.p.slot})
			}
		}
		for _, x := range b.buffers {
			if x.b.persistent && !seen[&x.b.slot] {
				seen[&x.b.slot] = true
				out = append(out, stateEntry{join(path, x.name), &x.b.slot})
			}
		}
	}
	return out
}

// StateError lists everything wrong between a state dict and a module:
// keys the module expects but the state lacks, keys the state has but the
// module does not, and tensors of the wrong shape or dtype.
type StateError struct {
	Missing    []string
	Unexpected []string
	Mismatched []string // "name: expected float32[64], got float32[32]"
}

func (e *StateError) Error() string {
	var parts []string
	if len(e.Missing) > 0 {
		parts = append(parts, "missing keys: "+quoteAll(e.Missing))
	}
	if len(e.Unexpected) > 0 {
		parts = append(parts, "unexpected keys: "+quoteAll(e.Unexpected))
	}
	if len(e.Mismatched) > 0 {
		parts = append(parts, "mismatched tensors: "+strings.Join(e.Mismatched, "; "))
	}
	return "nn: error loading state dict: " + strings.Join(parts, "; ")
}

func quoteAll(s []string) string {
	q := make([]string, len(s))
	for i, x := range s {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, ", ")
}

// LoadOptions controls LoadState.
type LoadOptions struct {
	// NonStrict accepts missing and unexpected keys (PyTorch's
	// strict=False) and reports them in the returned IncompatibleKeys;
	// shape and dtype mismatches are errors either way.
	NonStrict bool
}

// IncompatibleKeys is what LoadState found between a state dict and a
// module, as PyTorch's load_state_dict returns it (_IncompatibleKeys):
// the keys the module expects that the state dict lacks (left unchanged)
// and the keys of the state dict the module does not have (ignored), each
// sorted as the module (Missing) or by name (Unexpected) orders them.
type IncompatibleKeys struct {
	Missing    []string
	Unexpected []string
}

// Empty reports whether every key matched.
func (k IncompatibleKeys) Empty() bool { return len(k.Missing)+len(k.Unexpected) == 0 }

// String formats k as PyTorch prints _IncompatibleKeys:
// "<All keys matched successfully>" or "_IncompatibleKeys(missing_keys=[...],
// unexpected_keys=[...])".
func (k IncompatibleKeys) String() string {
	if k.Empty() {
		return "<All keys matched successfully>"
	}
	list := func(s []string) string {
		q := make([]string, len(s))
		for i, x := range s {
			q[i] = "'" + x + "'"
		}
		return "[" + strings.Join(q, ", ") + "]"
	}
	return "_IncompatibleKeys(missing_keys=" + list(k.Missing) + ", unexpected_keys=" + list(k.Unexpected) + ")"
}

// LoadState copies the tensors of sd into m's parameters and persistent
// buffers, as module.load_state_dict(sd) does, and returns the missing and
// unexpected keys. It checks every name, shape and dtype first and changes
// nothing if anything is wrong, returning one *StateError listing all
// problems. (In strict mode missing and unexpected keys are problems; with
// NonStrict they are only reported; see LoadOptions.) A tensor of another
// dtype is not converted: PyTorch's state dicts carry exactly the module's
// dtypes.
func LoadState(m Module, sd *torchio.StateDict, opts LoadOptions) (IncompatibleKeys, error) {
	if m == nil || sd == nil {
		return IncompatibleKeys{}, errors.New("nn.LoadState: nil module or state dict")
	}
	if err := Err(m); err != nil {
		return IncompatibleKeys{}, err
	}
	targets := stateEntries(m)
	e := &StateError{}
	want := map[string]bool{}
	for _, tg := range targets {
		want[tg.name] = true
		t, ok := sd.Get(tg.name)
		if !ok {
			e.Missing = append(e.Missing, tg.name)
			continue
		}
		if tg.s.t == nil {
			continue
		}
		if t.DType() != tg.s.t.DType() || !sameShape(t.Shape(), tg.s.t.Shape()) {
			e.Mismatched = append(e.Mismatched, fmt.Sprintf("%s: expected %s, got %s", tg.name, tg.s.t.String(), t.String()))
		}
	}
	for _, name := range sd.Names() {
		if !want[name] {
			e.Unexpected = append(e.Unexpected, name)
		}
	}
	sort.Strings(e.Unexpected)
	keys := IncompatibleKeys{Missing: e.Missing, Unexpected: e.Unexpected}
	if opts.NonStrict {
		e.Missing, e.Unexpected = nil, nil
	}
	if len(e.Missing)+len(e.Unexpected)+len(e.Mismatched) > 0 {
		return keys, e
	}
	for _, tg := range targets {
		t, ok := sd.Get(tg.name)
		if !ok {
			continue
		}
		if tg.s.t == nil {
			tg.s.t = t.Contiguous().Clone()
			continue
		}
		if err := tg.s.t.CopyFrom(t); err != nil {
			return keys, fmt.Errorf("nn.LoadState: %s: %w", tg.name, err)
		}
		// A program may have declared the tensor constant (packed once).
		kernels.Changed(tg.s.t)
	}
	return keys, nil
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Load reads a torch.save state dict file (see torchio.Load) and loads it
// into m with LoadState, returning the keys that did not match.
func Load(m Module, path string, opts LoadOptions) (IncompatibleKeys, error) {
	sd, err := torchio.Load(path)
	if err != nil {
		return IncompatibleKeys{}, err
	}
	return LoadState(m, sd, opts)
}

// Save writes m's state dict to path in torch.save's format, which
// torch.load reads back.
func Save(m Module, path string) error {
	if err := Err(m); err != nil {
		return err
	}
	return torchio.Save(path, StateDict(m))
}

// CloneState returns a deep copy of m's state dict, to restore later with
// LoadState (for example around a forward that mutates buffers).
func CloneState(m Module) *torchio.StateDict {
	sd := StateDict(m)
	out := torchio.NewStateDict()
	for name, t := range sd.All() {
		out.Set(name, t.Clone())
	}
	return out
}
