package export

import (
	"sync/atomic"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/interp"
	"github.com/gofx/gofx/kernels"
	"github.com/gofx/gofx/nn"
)

// markCache holds which inputs of a program markConstants marks, so that
// steady-state runs skip interp.ReadOnly's walk over the users of every
// state placeholder. It is safe for concurrent runs. Copies of a program
// made inside the package get their own (newMarkCache); a program whose
// cache is nil (a struct literal outside the package) computes the
// answer on every run.
type markCache struct{ p atomic.Pointer[constInputs] }

func newMarkCache() *markCache { return &markCache{} }

// constInputs is markConstants' answer for one graph at one version and
// one signature: the positions of the inputs to mark constant.
type constInputs struct {
	g       *graph.Graph
	version uint64
	inputs  []inputKey // the signature's inputs, as far as the answer reads them
	mutated []string   // the buffer-mutation outputs' targets, in order
	marked  []int      // positions of Signature.Inputs marked constant
}

// inputKey is what the answer reads of an input spec.
type inputKey struct {
	kind   InputKind
	target string
}

// current reports whether c answers for ep as it is now: the same graph
// at the same version (graph.Graph.Version: no pass changed it since)
// and the same input kinds and targets and buffer mutations.
func (c *constInputs) current(ep *ExportedProgram) bool {
	if c.g != ep.Graph || c.version != ep.Graph.Version() || len(c.inputs) != len(ep.Signature.Inputs) {
		return false
	}
	for i, s := range ep.Signature.Inputs {
		if c.inputs[i] != (inputKey{s.Kind, s.Target}) {
			return false
		}
	}
	k := 0
	for _, o := range ep.Signature.Outputs {
		if o.Kind == BufferMutation {
			if k == len(c.mutated) || c.mutated[k] != o.Target {
				return false
			}
			k++
		}
	}
	return k == len(c.mutated)
}

// markConstants declares constant (kernels.MarkConstant) the parameters,
// buffers and lifted constants among the graph's inputs in that the
// program only reads: no buffer mutation writes them back and the graph
// writes no view of them (interp.ReadOnly). A convolution then packs such
// a weight once for every run. The marks follow the tensors, so state
// replaced by new tensors is marked on the next run; writes into the
// state tensors through operators are seen by the cache, and other writes
// must be announced with kernels.Changed (see StateDict).
//
// Which inputs those are is computed on the first run and again when the
// graph (its Version) or the signature has changed; the state inputs that
// are then not read-only are unmarked (kernels.Unmark), so that a pass
// that makes the program write a weight it only read before withdraws
// the mark of that weight.
func (ep *ExportedProgram) markConstants(in []nn.Value) {
	var c *constInputs
	if ep.marks != nil {
		c = ep.marks.p.Load()
	}
	if c == nil || !c.current(ep) {
		c = ep.constInputs(in)
		if ep.marks != nil {
			ep.marks.p.Store(c)
		}
	}
	for _, i := range c.marked {
		if i < len(in) {
			if t := in[i].Tensor(); t != nil {
				kernels.MarkConstant(t)
			}
		}
	}
}

// constInputs computes markConstants' answer for ep as it is now, and
// unmarks the state inputs in that are not read-only.
func (ep *ExportedProgram) constInputs(in []nn.Value) *constInputs {
	c := &constInputs{g: ep.Graph, version: ep.Graph.Version(), inputs: make([]inputKey, len(ep.Signature.Inputs))}
	for i, s := range ep.Signature.Inputs {
		c.inputs[i] = inputKey{s.Kind, s.Target}
	}
	mutated := map[string]bool{}
	for _, o := range ep.Signature.Outputs {
		if o.Kind == BufferMutation {
			mutated[o.Target] = true
			c.mutated = append(c.mutated, o.Target)
		}
	}
	phs := ep.Graph.Placeholders()
	if len(phs) != len(ep.Signature.Inputs) || len(in) != len(phs) {
		return c
	}
	for i, s := range ep.Signature.Inputs {
		switch s.Kind {
		case Parameter, Buffer, ConstantTensor:
			t := in[i].Tensor()
			if t == nil {
				continue
			}
			if !mutated[s.Target] && interp.ReadOnly(phs[i]) {
				c.marked = append(c.marked, i)
			} else {
				kernels.Unmark(t)
			}
		}
	}
	return c
}
