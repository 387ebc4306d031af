package fx

import (
	"errors"

	"github.com/gofx/gofx/graph"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
)

// Recorder records nodes into a new graph through proxies: the recording
// half of a trace, without running a module's Forward. Code run on its
// proxies (nn.Value methods, package functional, nn.CallOp, calls of
// submodules) records nodes exactly as it does while tracing, and the
// caller creates the nodes it wants directly with Create. It is what
// package transformer builds on, as torch.fx's Transformer builds on a
// Tracer.
//
// A Recorder differs from a trace in three ways. Every module called on
// its proxies is recorded as one call_module node (every submodule is a
// leaf); parameters and buffers are not installed as proxies, so the
// module tree can keep running eagerly elsewhere, but a tensor that is a
// parameter or buffer of the root is recorded as a get_attr of its name;
// and the metadata of new nodes comes from the function given to
// SetAnnotate, when there is one.
type Recorder struct {
	p *policy
}

// everyModuleIsALeaf is the leaf policy of a Recorder.
var everyModuleIsALeaf = &Tracer{IsLeaf: func(nn.Module, string) bool { return true }}

// NewRecorder returns a Recorder that records into a new, empty graph
// whose get_attr and call_module nodes refer to root's module tree (nil
// for a graph without them). Tensors used by the recorded code that are
// not root's parameters or buffers become constants (_tensor_constant0,
// ..., numbered past the names root already has) that GraphModule
// registers as buffers.
func NewRecorder(root nn.Module) *Recorder {
	p := newPolicy(everyModuleIsALeaf, root)
	if root != nil {
		for name, x := range nn.NamedParameters(root) {
			if t := x.Tensor(); t != nil {
				p.constOf[t] = name
			}
		}
		for name, b := range nn.NamedBuffers(root) {
			if t := b.Tensor(); t != nil {
				p.constOf[t] = name
			}
		}
	}
	return &Recorder{p: p}
}

// SetAnnotate makes f give every node the recorder creates its metadata,
// in place of the default: the Go stack of the code that recorded it
// (stack_trace) and no nn_module_stack. f runs as soon as the node is in
// the graph, before Create or the recording call returns, so the caller
// can still overwrite what f set. Nil restores the default.
func (r *Recorder) SetAnnotate(f func(n *node.Node)) { r.p.rec.Annotate = f }

// Graph returns the graph being recorded.
func (r *Recorder) Graph() *graph.Graph { return r.p.rec.Graph() }

// Root returns the module tree the recorded graph refers to.
func (r *Recorder) Root() nn.Module { return r.p.rec.Root() }

// Create creates a node at the end of the graph (before its output node)
// with the candidate name name ("" derives one from the target, and a
// taken name gets a suffix, as graph.CreateNode does) and the recorder's
// metadata. The first get_attr node of a path is the one that later uses
// of that parameter or buffer's tensor refer to.
func (r *Recorder) Create(op node.Opcode, target node.Target, args []node.Arg, kwargs node.Kwargs, name string) (*node.Node, error) {
	if target == nil {
		return nil, errors.New("fx: Recorder.Create: nil target")
	}
	n, err := r.p.rec.Create(op, target, args, kwargs, name, nil)
	if err != nil {
		return nil, err
	}
	if op == node.GetAttr {
		if _, ok := r.p.attrs[target.String()]; !ok {
			r.p.attrs[target.String()] = n
		}
	}
	return n, nil
}

// Proxy returns the value that stands for n in code run on the recorder's
// proxies: a *Proxy of n or, for a call_function node of an operator with
// several results, a tuple of lazy element proxies, as a trace returns
// them (an element's operator.getitem node is created when the element is
// used; the whole tuple, in order, is n itself). n must be a node of the
// recorder's graph.
func (r *Recorder) Proxy(n *node.Node) nn.Value {
	rec := r.p.rec
	p := rec.NewProxy(n, nil)
	if n.Op() == node.CallFunction {
		if op, ok := n.Function().(*ops.Operator); ok {
			if k := len(op.Schema().Returns); k > 1 {
				elems := make([]nn.Value, k)
				for i := range elems {
					elems[i] = nn.Of(rec.Element(p, i))
				}
				return nn.Of(elems)
			}
		}
	}
	return nn.Of(p)
}

// Arg converts a value to a node argument as a trace does: a proxy of
// this recorder becomes its node (a whole tuple of lazy elements the
// operator's node), a parameter or buffer of the root a get_attr node,
// another tensor a constant's get_attr node, a number, bool, string or
// dtype a constant, and a tuple a node.Tuple of its elements. A proxy of
// another recorder or trace is an error.
func (r *Recorder) Arg(v nn.Value) (node.Arg, error) { return r.p.rec.Arg(v) }

// GraphModule returns the recorded graph as a GraphModule over the root's
// module tree (NewGraphModule), with the constants the recording made as
// its own non-persistent buffers. Call it once the graph is complete.
func (r *Recorder) GraphModule() (*GraphModule, error) {
	return newGraphModule(r.p.rec.Root(), r.p.rec.Graph(), r.p.consts)
}
