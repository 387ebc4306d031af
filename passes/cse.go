package passes

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/gofx/gofx/fx"
	"github.com/gofx/gofx/nn"
	"github.com/gofx/gofx/node"
	"github.com/gofx/gofx/ops"
	"github.com/gofx/gofx/tensor"
)

// CSE merges common subexpressions: a node that computes the same pure
// function of the same inputs as an earlier node is replaced by that node
// (whose metadata is kept) and erased.
//
// Two nodes are the same expression when they have the same opcode and
// target and equal arguments, inputs compared by identity. The arguments
// of an aten operator are first put in schema order with the schema's
// defaults filled in (ops.Operator.Place), so add(x, y) and
// add(x, y, alpha=1) are one expression.
//
// Only pure nodes merge: operators that neither write an argument nor draw
// random numbers (ops.Random, ops.Mutable), nn's Python-level functions
// (operator.getitem, operator.mul, builtins.getattr, ...), tensor methods
// that are neither in-place (a trailing "_") nor random, and get_attr
// nodes. Placeholders, the output, call_module nodes and functions gofx
// knows nothing about never merge. A node with side effects (anything
// fx.GraphModule.IsImpure reports) is a barrier: expressions before it are
// not reused after it, since it may have changed their inputs.
//
// The pass is one walk over the graph with a hash table of expressions:
// linear in the size of the graph.
var CSE = Pass{
	Name: "cse",
	Doc:  "merge nodes computing the same pure expression",
	Run:  eliminateCommonSubexpressions,
}

func eliminateCommonSubexpressions(gm *fx.GraphModule) (bool, error) {
	seen := make(map[string]*node.Node, gm.Graph.Len())
	changed := false
	var b strings.Builder
	for n := range gm.Graph.Nodes() {
		if gm.IsImpure(n) || trainingModule(gm, n) {
			if n.Op() != node.Placeholder && len(seen) > 0 {
				clear(seen) // a side effect may have changed what came before
			}
			continue
		}
		b.Reset()
		ok, err := exprKey(&b, n)
		if err != nil {
			return changed, err
		}
		if !ok {
			continue
		}
		key := b.String()
		prev, dup := seen[key]
		if !dup {
			seen[key] = n
			continue
		}
		if _, err := n.ReplaceAllUsesWith(prev, nil, false); err != nil {
			return changed, fmt.Errorf("node %s: %w", n.Name(), err)
		}
		if err := gm.Graph.EraseNode(n); err != nil {
			return changed, fmt.Errorf("node %s: %w", n.Name(), err)
		}
		changed = true
	}
	return changed, nil
}

// exprKey writes n's expression key into b, reporting false for nodes that
// must not merge.
func exprKey(b *strings.Builder, n *node.Node) (bool, error) {
	b.WriteString(n.Op().String())
	b.WriteByte(' ')
	b.WriteString(n.Target().String())
	b.WriteByte('(')
	switch n.Op() {
	case node.GetAttr:
		return true, nil
	case node.CallMethod:
		if !pureMethod(n.Target().String()) {
			return false, nil
		}
	case node.CallFunction:
		fn := n.Function()
		if op, ok := fn.(*ops.Operator); ok {
			if !pureOperator(op) {
				return false, nil
			}
			placed, ok := placeArgs(op, n)
			if !ok {
				// Arguments that do not fit the schema: leave the node alone
				// rather than guess.
				return false, nil
			}
			for _, a := range placed {
				writeValue(b, a)
				b.WriteByte(',')
			}
			b.WriteByte(')')
			return true, nil
		}
		if !pureFunction(fn) {
			return false, nil
		}
	default:
		return false, nil
	}
	for i := range n.NumArgs() {
		writeValue(b, n.Arg(i))
		b.WriteByte(',')
	}
	kw := n.Kwargs()
	slices.SortFunc(kw, func(x, y node.Field) int { return strings.Compare(x.Name, y.Name) })
	for _, f := range kw {
		b.WriteString(f.Name)
		b.WriteByte('=')
		writeValue(b, f.Value)
		b.WriteByte(',')
	}
	b.WriteByte(')')
	return true, nil
}

// trainingModule reports whether n calls a module in training mode, which
// may update its buffers (batch norm's running statistics).
func trainingModule(gm *fx.GraphModule, n *node.Node) bool {
	if n.Op() != node.CallModule {
		return false
	}
	m, err := nn.Submodule(gm, n.Target().String())
	return err != nil || m.ModuleBase().Training()
}

// pureOperator reports whether calls of op with equal arguments always
// compute equal values and do nothing else.
func pureOperator(op *ops.Operator) bool {
	return !op.Impure() && op.Tags()&(ops.Mutable|ops.Inplace) == 0 && !op.Has(ops.Random)
}

// pureFunction reports whether fn is one of nn's Python-level functions,
// which compute their result from their arguments only.
func pureFunction(fn node.Function) bool {
	if im, ok := fn.(node.Impurer); ok && im.Impure() {
		return false
	}
	s := fn.String()
	return strings.HasPrefix(s, "operator.") || s == "builtins.getattr"
}

// randomCache caches, per tensor method name, whether aten's operator of
// that name draws random numbers.
var randomCache sync.Map

// pureMethod reports whether the tensor method name is pure: not in-place,
// and not an operator that draws random numbers (bernoulli, multinomial).
func pureMethod(name string) bool {
	if strings.HasSuffix(name, "_") || name == "" {
		return false
	}
	if v, ok := randomCache.Load(name); ok {
		return !v.(bool)
	}
	r := false
	for _, op := range ops.Global().Overloads("aten", name) {
		if op.Has(ops.Random) {
			r = true
			break
		}
	}
	randomCache.Store(name, r)
	return !r
}

// writeValue writes a canonical, typed form of an argument: nodes by their
// name, numbers with their kind (1 and 1.0 differ, as they do for
// type promotion), lists and tuples element by element.
func writeValue(b *strings.Builder, v any) {
	switch v := v.(type) {
	case *node.Node:
		b.WriteByte('%')
		b.WriteString(v.Name()) // unique in the graph
	case nil, node.NoneType:
		b.WriteString("None")
	case node.Int:
		writeInt(b, int64(v))
	case int64:
		writeInt(b, v)
	case int:
		writeInt(b, int64(v))
	case node.Float:
		writeFloat(b, float64(v))
	case float64:
		writeFloat(b, v)
	case node.Bool:
		b.WriteString(strconv.FormatBool(bool(v)))
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case node.Str:
		b.WriteString(strconv.Quote(string(v)))
	case string:
		b.WriteString(strconv.Quote(v))
	case ops.Scalar:
		writeValue(b, v.Value())
	case node.DType:
		b.WriteString("dtype:" + string(v))
	case tensor.DType:
		b.WriteString("dtype:" + v.String())
	case node.Device:
		b.WriteString("device:" + string(v))
	case node.Layout:
		b.WriteString("layout:" + string(v))
	case node.MemoryFormat:
		b.WriteString("memory_format:" + string(v))
	case node.List:
		b.WriteByte('[')
		for _, e := range v {
			writeValue(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case node.Tuple:
		b.WriteByte('(')
		for _, e := range v {
			writeValue(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(')')
	case []int64:
		b.WriteByte('[')
		for _, e := range v {
			writeInt(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case []float64:
		b.WriteByte('[')
		for _, e := range v {
			writeFloat(b, e)
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case []bool:
		b.WriteByte('[')
		for _, e := range v {
			b.WriteString(strconv.FormatBool(e))
			b.WriteByte(',')
		}
		b.WriteByte(']')
	case node.Dict:
		b.WriteByte('{')
		for _, f := range v {
			b.WriteString(strconv.Quote(f.Name))
			b.WriteByte(':')
			writeValue(b, f.Value)
			b.WriteByte(',')
		}
		b.WriteByte('}')
	default:
		fmt.Fprintf(b, "%T:%v", v, v)
	}
}

func writeInt(b *strings.Builder, v int64) {
	b.WriteByte('i')
	b.WriteString(strconv.FormatInt(v, 10))
}

func writeFloat(b *strings.Builder, v float64) {
	b.WriteByte('f')
	if math.IsNaN(v) {
		b.WriteString("nan")
		return
	}
	b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
}
