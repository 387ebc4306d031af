package node

import (
	"fmt"
	"strings"
)

// Node is one operation of a program: an opcode, a target, positional and
// keyword arguments, the set of nodes that use its value, and metadata.
//
// Nodes are created through package graph (or a [Chain]) and are only
// mutated through their methods, which keep use-def edges right: after every
// call, each node referenced by n's arguments lists n among its users, and
// nothing else does.
type Node struct {
	name   string
	op     Opcode
	target Target
	args   []Arg
	kwargs Kwargs
	users  userSet

	// Meta holds the node's metadata (torch.fx's node.meta).
	Meta Meta

	list       *Chain
	prev, next *Node
	label      uint64
	slot       int // position in the node's index bucket
	erased     bool
}

// New returns a detached node, not yet in any list, after checking that the
// target suits the opcode and that the arguments are valid. A [Chain] inserts
// it; package graph does both in one step. The argument slices are copied.
func New(name string, op Opcode, target Target, args []Arg, kwargs Kwargs) (*Node, error) {
	return newNode(&Node{}, name, op, target, args, kwargs)
}

// newNode initializes the zero node n as New describes.
func newNode(n *Node, name string, op Opcode, target Target, args []Arg, kwargs Kwargs) (*Node, error) {
	if err := checkTarget(op, target); err != nil {
		return nil, fmt.Errorf("node %%%s: %w", name, err)
	}
	if err := checkArity(op, args, kwargs); err != nil {
		return nil, fmt.Errorf("node %%%s (%s): %w", name, op, err)
	}
	if err := checkArgs(args, kwargs, nil); err != nil {
		return nil, fmt.Errorf("node %%%s: %w", name, err)
	}
	n.name, n.op, n.target = name, op, target
	n.args = copyArgs(args)
	n.kwargs = copyKwargs(kwargs)
	return n, nil
}

func copyArgs(args []Arg) []Arg {
	if len(args) == 0 {
		return nil
	}
	out := make([]Arg, len(args))
	for i, a := range args {
		out[i] = copyArg(a)
	}
	return out
}

func copyKwargs(kw Kwargs) Kwargs {
	if len(kw) == 0 {
		return nil
	}
	out := make(Kwargs, len(kw))
	for i, f := range kw {
		out[i] = Field{f.Name, copyArg(f.Value)}
	}
	return out
}

// copyArg copies containers so that the node never shares them with its
// caller; leaves are immutable values.
func copyArg(a Arg) Arg {
	switch a.(type) {
	case List, Tuple, Dict:
		return MapAggregate(a, func(x Arg) Arg { return x })
	}
	return a
}

func checkTarget(op Opcode, t Target) error {
	if !op.Valid() {
		return fmt.Errorf("invalid opcode %d", uint8(op))
	}
	if t == nil {
		return fmt.Errorf("%s with a nil target", op)
	}
	if op == CallFunction {
		if _, ok := t.(Function); !ok {
			return fmt.Errorf("call_function target %q is a %T, want a node.Function (an operator)", t.String(), t)
		}
		return nil
	}
	p, ok := t.(Path)
	if !ok {
		return fmt.Errorf("%s target %q is a %T, want a node.Path", op, t.String(), t)
	}
	s := string(p)
	switch op {
	case Placeholder:
		if !IsIdentifier(strings.TrimPrefix(strings.TrimPrefix(s, "*"), "*")) {
			return fmt.Errorf("placeholder target %q is not an identifier (optionally prefixed by * or **)", s)
		}
	case CallMethod:
		if !IsIdentifier(s) {
			return fmt.Errorf("call_method target %q is not a method name", s)
		}
	case GetAttr, CallModule:
		if !isDottedPath(s) {
			return fmt.Errorf("%s target %q is not a dotted path of names", op, s)
		}
	case Output:
		if s != "output" {
			return fmt.Errorf("output target is %q, want \"output\"", s)
		}
	}
	return nil
}

// isDottedPath reports whether s is one or more '.'-separated atoms of
// letters, digits and underscores ("layer1.0.conv1").
func isDottedPath(s string) bool {
	if s == "" {
		return false
	}
	atom := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '.':
			if atom == 0 {
				return false
			}
			atom = 0
		case c == '_' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9':
			atom++
		default:
			return false
		}
	}
	return atom > 0
}

func checkArity(op Opcode, args []Arg, kwargs Kwargs) error {
	switch op {
	case Placeholder:
		if len(args) > 1 || len(kwargs) > 0 {
			return fmt.Errorf("takes at most one argument (its default value) and no kwargs, got %d args and %d kwargs", len(args), len(kwargs))
		}
		if len(args) == 1 && len(Nodes(args[0])) > 0 {
			return fmt.Errorf("default value may not refer to nodes")
		}
	case GetAttr:
		if len(args) > 0 || len(kwargs) > 0 {
			return fmt.Errorf("takes no arguments, got %d args and %d kwargs", len(args), len(kwargs))
		}
	case Output:
		if len(args) != 1 || len(kwargs) > 0 {
			return fmt.Errorf("takes exactly one argument (the returned value) and no kwargs, got %d args and %d kwargs", len(args), len(kwargs))
		}
	case CallMethod:
		if len(args) == 0 {
			return fmt.Errorf("needs at least one argument (the object whose method is called)")
		}
	}
	return nil
}

// Name returns the node's name, unique in its graph.
func (n *Node) Name() string { return n.name }

// String returns the node's name, as torch.fx's repr(node) does, or
// "<nil>" for a nil node.
func (n *Node) String() string {
	if n == nil {
		return "<nil>"
	}
	return n.name
}

// Op returns the node's opcode.
func (n *Node) Op() Opcode { return n.op }

// Target returns what the node calls or names.
func (n *Node) Target() Target { return n.target }

// Function returns the call_function target, or nil for other opcodes.
func (n *Node) Function() Function {
	f, _ := n.target.(Function)
	return f
}

// SetTarget changes what the node calls or names. The new target must suit
// the node's opcode. The graph's FindNodes index follows the change.
func (n *Node) SetTarget(t Target) error {
	if n.erased {
		return fmt.Errorf("node %%%s: SetTarget on an erased node", n.name)
	}
	if err := checkTarget(n.op, t); err != nil {
		return fmt.Errorf("node %%%s: %w", n.name, err)
	}
	if n.list != nil {
		n.list.unindex(n)
		n.target = t
		n.list.index(n)
		n.list.changed()
	} else {
		n.target = t
	}
	return nil
}

// Args returns a copy of the positional arguments.
func (n *Node) Args() []Arg { return append([]Arg(nil), n.args...) }

// NumArgs returns the number of positional arguments.
func (n *Node) NumArgs() int { return len(n.args) }

// Arg returns positional argument i; it panics if i is out of range, like
// a slice index.
func (n *Node) Arg(i int) Arg { return n.args[i] }

// Kwargs returns a copy of the keyword arguments, in order.
func (n *Node) Kwargs() Kwargs { return append(Kwargs(nil), n.kwargs...) }

// Kwarg returns the keyword argument called name.
func (n *Node) Kwarg(name string) (Arg, bool) { return n.kwargs.Get(name) }

// Erased reports whether the node was erased from its graph.
func (n *Node) Erased() bool { return n.erased }

// Owner returns the owner of the list holding the node (a *graph.Graph), or
// nil for a detached node.
func (n *Node) Owner() any {
	if n.list == nil {
		return nil
	}
	return n.list.owner
}

// Next returns the node after n in its graph, or nil at the end.
func (n *Node) Next() *Node {
	x := n.next
	for x != nil && x.erased {
		x = x.next
	}
	return x
}

// Prev returns the node before n in its graph, or nil at the start.
func (n *Node) Prev() *Node {
	x := n.prev
	for x != nil && x.erased {
		x = x.prev
	}
	return x
}

// Users returns the nodes that use n's value, in the order they started to
// use it, in a new slice.
func (n *Node) Users() []*Node { return n.users.list() }

// NumUsers returns the number of nodes that use n's value.
func (n *Node) NumUsers() int { return n.users.len() }

// HasUser reports whether u uses n's value.
func (n *Node) HasUser(u *Node) bool { return n.users.has(u) }

// AllInputNodes returns the distinct nodes referenced by n's positional and
// keyword arguments, in order of first appearance.
func (n *Node) AllInputNodes() []*Node {
	var d dedup
	n.eachInput(d.add)
	return d.out
}

// dedup collects distinct nodes in order of first appearance: by linear
// scan while few, then with a set, so that a node with many inputs costs
// linear time.
type dedup struct {
	out  []*Node
	seen map[*Node]bool
}

func (d *dedup) add(x *Node) {
	if d.seen != nil {
		if !d.seen[x] {
			d.seen[x] = true
			d.out = append(d.out, x)
		}
		return
	}
	for _, y := range d.out {
		if y == x {
			return
		}
	}
	d.out = append(d.out, x)
	if len(d.out) > 16 {
		d.seen = make(map[*Node]bool, 2*len(d.out))
		for _, y := range d.out {
			d.seen[y] = true
		}
	}
}

// Uses reports whether n's arguments refer to in, without allocating.
func (n *Node) Uses(in *Node) bool {
	found := false
	n.eachInput(func(x *Node) { found = found || x == in })
	return found
}

// EachInput calls fn for every node reference in n's arguments, in order,
// repetitions included, without allocating.
func (n *Node) EachInput(fn func(*Node)) { n.eachInput(fn) }

// eachInput calls fn for every node reference in n's arguments, in order,
// repetitions included.
func (n *Node) eachInput(fn func(*Node)) {
	for _, a := range n.args {
		walkNodes(a, fn)
	}
	for _, f := range n.kwargs {
		walkNodes(f.Value, fn)
	}
}

func (n *Node) errf(format string, args ...any) error {
	return fmt.Errorf("node %%%s: %s", n.name, fmt.Sprintf(format, args...))
}

// setArgs installs new arguments after validation and moves use-def edges.
func (n *Node) setArgs(args []Arg, kwargs Kwargs) error {
	if n.erased {
		return n.errf("cannot change the arguments of an erased node")
	}
	if err := checkArity(n.op, args, kwargs); err != nil {
		return fmt.Errorf("node %%%s (%s): %w", n.name, n.op, err)
	}
	if err := checkArgs(args, kwargs, n.list); err != nil {
		return fmt.Errorf("node %%%s: %w", n.name, err)
	}
	for _, a := range args {
		if selfRef(a, n) {
			return n.errf("an argument refers to the node itself")
		}
	}
	for _, f := range kwargs {
		if selfRef(f.Value, n) {
			return n.errf("kwarg %q refers to the node itself", f.Name)
		}
	}
	old := n.AllInputNodes()
	n.args = copyArgs(args)
	n.kwargs = copyKwargs(kwargs)
	if n.list != nil {
		n.moveEdges(old)
		n.list.changed()
	}
	return nil
}

func selfRef(a Arg, n *Node) bool {
	found := false
	walkNodes(a, func(x *Node) { found = found || x == n })
	return found
}

// moveEdges updates users after n's arguments changed from ones whose
// inputs were old.
func (n *Node) moveEdges(old []*Node) {
	cur := n.AllInputNodes()
	var keep map[*Node]bool
	if len(cur) > 16 {
		keep = make(map[*Node]bool, len(cur))
		for _, c := range cur {
			keep[c] = true
		}
	}
	for _, o := range old {
		if keep != nil && !keep[o] || keep == nil && !containsNode(cur, o) {
			o.users.remove(n)
		}
	}
	for _, c := range cur {
		c.users.add(n)
	}
}

func containsNode(s []*Node, n *Node) bool {
	for _, x := range s {
		if x == n {
			return true
		}
	}
	return false
}

// SetArgs replaces the positional arguments.
func (n *Node) SetArgs(args []Arg) error { return n.setArgs(args, n.kwargs) }

// SetKwargs replaces the keyword arguments.
func (n *Node) SetKwargs(kwargs Kwargs) error { return n.setArgs(n.args, kwargs) }

// SetArgsKwargs replaces both positional and keyword arguments at once.
func (n *Node) SetArgsKwargs(args []Arg, kwargs Kwargs) error { return n.setArgs(args, kwargs) }

// UpdateArg sets positional argument i to a.
func (n *Node) UpdateArg(i int, a Arg) error {
	if i < 0 || i >= len(n.args) {
		return n.errf("UpdateArg: index %d out of range [0, %d)", i, len(n.args))
	}
	args := n.Args()
	args[i] = a
	return n.setArgs(args, n.kwargs)
}

// InsertArg inserts a as positional argument i, shifting later ones;
// i == NumArgs() appends.
func (n *Node) InsertArg(i int, a Arg) error {
	if i < 0 || i > len(n.args) {
		return n.errf("InsertArg: index %d out of range [0, %d]", i, len(n.args))
	}
	args := make([]Arg, 0, len(n.args)+1)
	args = append(args, n.args[:i]...)
	args = append(args, a)
	args = append(args, n.args[i:]...)
	return n.setArgs(args, n.kwargs)
}

// UpdateKwarg sets keyword argument name to a, appending it if absent.
func (n *Node) UpdateKwarg(name string, a Arg) error {
	kw := n.Kwargs()
	for i := range kw {
		if kw[i].Name == name {
			kw[i].Value = a
			return n.setArgs(n.args, kw)
		}
	}
	return n.setArgs(n.args, append(kw, Field{name, a}))
}

// DeleteKwarg removes keyword argument name; it reports whether it was
// present.
func (n *Node) DeleteKwarg(name string) (bool, error) {
	kw := n.Kwargs()
	for i := range kw {
		if kw[i].Name == name {
			return true, n.setArgs(n.args, append(kw[:i], kw[i+1:]...))
		}
	}
	return false, nil
}

// ReplaceInputWith replaces every reference to old in n's arguments with
// repl.
func (n *Node) ReplaceInputWith(old, repl *Node) error {
	if old == nil || repl == nil {
		return n.errf("ReplaceInputWith: nil node")
	}
	fn := func(x *Node) Arg {
		if x == old {
			return repl
		}
		return x
	}
	return n.setArgs(mapArgs(n.args, fn), mapKwargs(n.kwargs, fn))
}

// ReplaceAllUsesWith makes the users of n use repl instead, and returns the
// users it rewired, in order.
//
// filter, when not nil, chooses the users to rewire (torch.fx's
// delete_user_cb). repl itself is never rewired even when it uses n, so
// inserting f(n) after n and replacing n's uses with it does not make f
// refer to itself. With propagateMeta, metadata entries of n that repl lacks
// are copied to repl.
func (n *Node) ReplaceAllUsesWith(repl *Node, filter func(user *Node) bool, propagateMeta bool) ([]*Node, error) {
	switch {
	case n.erased:
		return nil, n.errf("ReplaceAllUsesWith on an erased node")
	case repl == nil:
		return nil, n.errf("ReplaceAllUsesWith: nil replacement")
	case repl == n:
		return nil, n.errf("ReplaceAllUsesWith: a node cannot replace itself")
	case repl.erased:
		return nil, n.errf("ReplaceAllUsesWith: replacement %%%s is erased", repl.name)
	case repl.list != n.list:
		return nil, n.errf("ReplaceAllUsesWith: replacement %%%s belongs to another graph", repl.name)
	}
	if propagateMeta {
		for _, e := range n.Meta.entries {
			if _, ok := repl.Meta.Get(e.key); !ok {
				repl.Meta.Set(e.key, e.value)
			}
		}
	}
	var changed []*Node
	for _, u := range n.users.list() {
		if u == repl || (filter != nil && !filter(u)) {
			continue
		}
		u.replaceInput(n, repl)
		changed = append(changed, u)
	}
	return changed, nil
}

// replaceInput rewires u from old to repl; both are known valid.
func (u *Node) replaceInput(old, repl *Node) {
	fn := func(x *Node) Arg {
		if x == old {
			return repl
		}
		return x
	}
	for i, a := range u.args {
		if a == Arg(old) {
			u.args[i] = repl
		} else if _, isNode := a.(*Node); !isNode {
			u.args[i] = MapArg(a, fn)
		}
	}
	if u.kwargs != nil {
		u.kwargs = mapKwargs(u.kwargs, fn)
	}
	old.users.remove(u)
	repl.users.add(u)
	if u.list != nil {
		u.list.changed()
	}
}

// IsImpure reports whether the node has effects beyond its value, so that
// dead-code elimination must keep it: placeholders and outputs always, and
// call_function nodes whose Function implements [Impurer] and reports true.
func (n *Node) IsImpure() bool {
	switch n.op {
	case Placeholder, Output:
		return true
	case CallFunction:
		if im, ok := n.target.(Impurer); ok {
			return im.Impure()
		}
	}
	return false
}
