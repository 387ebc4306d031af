package interp

import (
	"reflect"
	"strings"

	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// Reuse says whether a run hands the buffers of its dead values back to
// the tensor package's pool (tensor.Recycle), where the next tensor of the
// same dtype and size takes them: steady-state inference then allocates
// almost nothing.
type Reuse uint8

const (
	// ReuseAuto recycles with the default steps (Steps nil) and not with
	// overridden ones, which may keep the values they see.
	ReuseAuto Reuse = iota
	// ReuseOn recycles whatever the steps: the overrides keep no tensor
	// a run computes beyond its last use.
	ReuseOn
	// ReuseOff never recycles.
	ReuseOff
)

// pinned marks a storage in reuse.refs that a run never recycles.
const pinned = -1

// reuse is the per-run bookkeeping of buffer reuse. A storage is
// recycled when the last live value holding it (itself or a view of it,
// alone or inside a tuple or dict) is dropped, and only if
//   - New made it during this run (tensor.StorageKey.Born after the run's
//     epoch): inputs, parameters, constants and anything made before the
//     run are the caller's;
//   - no value pinned it: the values of placeholders, get_attr, the
//     initial environment, calls of modules from outside gofx (which may
//     keep what they return), and the output;
//   - the run saw no value it cannot look into (an opaque Go object,
//     which could hold any tensor): from then on the run recycles nothing.
type reuse struct {
	on    bool
	epoch uint64
	refs  map[tensor.StorageKey]int32 // live values holding a storage, or pinned
	slots [][]tensor.StorageKey       // by env position: the fresh storages counted
	keys  []tensor.StorageKey         // scratch
}

// start begins a run's bookkeeping.
func (r *reuse) start(on bool, nslots int) {
	r.on = on
	if !on {
		return
	}
	r.epoch = tensor.AllocEpoch()
	if r.refs == nil {
		r.refs = map[tensor.StorageKey]int32{}
	} else {
		clear(r.refs)
	}
	if len(r.slots) != nslots {
		r.slots = make([][]tensor.StorageKey, nslots)
	} else {
		for i := range r.slots {
			r.slots[i] = r.slots[i][:0]
		}
	}
}

// storages appends the storages v holds to r.keys (reset first); ok is
// false for a value holding something the interpreter cannot look into.
func (r *reuse) storages(v nn.Value) bool {
	r.keys = r.keys[:0]
	return r.collect(v)
}

func (r *reuse) collect(v nn.Value) bool {
	switch x := v.Any().(type) {
	case *tensor.Tensor:
		if k := x.StorageKey(); k.Born() != 0 {
			r.keys = append(r.keys, k)
		}
	case []nn.Value:
		for _, e := range x {
			if !r.collect(e) {
				return false
			}
		}
	case map[string]nn.Value:
		for _, e := range x {
			if !r.collect(e) {
				return false
			}
		}
	case nil, int64, float64, bool, string, tensor.DType, node.Slice, node.EllipsisType, ops.Symbolic, nn.Module:
	default:
		return false
	}
	return true
}

// add counts v, the value of env position i; pin pins its storages.
func (r *reuse) add(i int, v nn.Value, pin bool) {
	if !r.on {
		return
	}
	if !r.storages(v) {
		r.on = false // an opaque value: stop recycling
		return
	}
	for _, k := range r.keys {
		if k.Born() <= r.epoch || pin {
			r.refs[k] = pinned
			continue
		}
		n := r.refs[k]
		if n == pinned {
			continue
		}
		r.refs[k] = n + 1
		r.slots[i] = append(r.slots[i], k)
	}
}

// pin pins the storages of v (the output).
func (r *reuse) pin(v nn.Value) {
	if !r.on {
		return
	}
	if !r.storages(v) {
		r.on = false
		return
	}
	for _, k := range r.keys {
		r.refs[k] = pinned
	}
}

// release uncounts the value of env position i, recycling the storages
// no live value holds any more.
func (r *reuse) release(i int) {
	if !r.on {
		return
	}
	for _, k := range r.slots[i] {
		n := r.refs[k]
		if n == pinned {
			continue
		}
		if n <= 1 {
			delete(r.refs, k)
			tensor.Recycle(k)
			continue
		}
		r.refs[k] = n - 1
	}
	r.slots[i] = r.slots[i][:0]
}

// trustedModules are the packages whose modules return fresh tensors or
// views of their inputs and keep none of them: gofx's layers, graph
// modules and model zoo.
var trustedModules = map[string]bool{
	"github.com/gofx/gofx/nn":     true,
	"github.com/gofx/gofx/fx":     true,
	"github.com/gofx/gofx/models": true,
}

// trustedFunctions are the prefixes of the qualified names of the
// functions gofx registers itself (Python's operators and builtins,
// torch's functions on numbers, the higher-order operators), which keep
// nothing they return; a function registered by a user (fx.Wrap, for
// one) may.
var trustedFunctions = []string{"operator.", "builtins.", "math.", "torch.", "higher_order."}

// pinModule reports whether the values a call of module m returns must
// be pinned: modules from outside gofx may keep (cache) what they return.
func pinModule(m nn.Module) bool { return !trustedModules[modulePkg(m)] }

// pinFunction reports whether the values a call_function of fn returns
// must be pinned (see trustedFunctions); operators' kernels return new
// tensors or views of their inputs and keep neither.
func pinFunction(fn node.Function) bool {
	if _, ok := fn.(*ops.Operator); ok {
		return false
	}
	name := fn.String()
	for _, p := range trustedFunctions {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	return true
}

// modulePkg returns the package path of x's type (of the type pointed
// to, for a pointer).
func modulePkg(x any) string {
	t := reflect.TypeOf(x)
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return ""
	}
	return t.PkgPath()
}

// pinPlan reports whether the value of the node of p is pinned: the
// values of placeholders and get_attr (the caller's), and those of calls
// into code outside gofx that may keep what it returns (see pinModule and
// pinFunction).
func (in *Interpreter) pinPlan(p *nodePlan) bool {
	if p.pin != 0 {
		return p.pin == 1
	}
	pin := true
	switch p.op {
	case node.CallFunction:
		pin = p.fn == nil || pinFunction(p.fn)
	case node.CallMethod, node.Output:
		pin = false
	case node.CallModule:
		if m, err := in.submodule(p.path); err == nil {
			pin = pinModule(m)
		}
	}
	p.pin = 2
	if pin {
		p.pin = 1
	}
	return pin
}
