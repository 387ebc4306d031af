package node

import (
	"errors"
	"fmt"
	"iter"
	"math"
	"slices"
)

// Chain is the ordered container of a program's nodes: a doubly linked list
// in program order, an O(1) order relation between its nodes, and an index
// of nodes by opcode and target. Package graph wraps one Chain per Graph;
// most programs use a Graph, not a Chain.
//
// Order is kept with labels: every node carries an integer that grows along
// the list, so Before is a comparison. Inserting between two nodes whose
// labels are adjacent relabels the smallest enclosing label range that is
// sparse enough (list labeling in the manner of Itai, Konheim and Rodeh),
// which costs amortized O(log n) per insertion.
type Chain struct {
	head, tail *Node
	n          int
	owner      any
	buckets    map[indexKey]*bucket
	recent     [4]recentBucket // most recently used buckets, newest first
	slab       []Node          // unused nodes that New hands out
	version    uint64          // bumped by every change (Version)
}

// slabSize is the number of nodes allocated at once by Chain.New. Nodes
// that live side by side make walks over a large graph, in any order, far
// kinder to the cache, and save an allocation per node.
const slabSize = 256

// New returns a detached node as node.New does, allocated next to the
// chain's other nodes, for insertion into l.
func (l *Chain) New(name string, op Opcode, target Target, args []Arg, kwargs Kwargs) (*Node, error) {
	if len(l.slab) == 0 {
		l.slab = make([]Node, slabSize)
	}
	n, err := newNode(&l.slab[0], name, op, target, args, kwargs)
	if err != nil {
		l.slab[0] = Node{}
		return nil, err
	}
	l.slab = l.slab[1:]
	return n, nil
}

// recentBucket caches a bucket by key so that runs of nodes with a few
// targets skip hashing the target name.
type recentBucket struct {
	key indexKey
	b   *bucket
}

type indexKey struct {
	op     Opcode
	target string
}

// bucket holds the nodes of one index key, in insertion order, with nil
// holes left by removals.
type bucket struct {
	nodes []*Node
	dead  int
}

const (
	labelLimit uint64 = 1 << 62 // labels are in [1, labelLimit)
	labelStart uint64 = 1 << 61
	labelGap   uint64 = 1 << 24 // spacing of appended nodes
	// labelDensity is T in the density bound (2/T)^i on a label range of
	// size 2^i; any T in (1, 2) gives amortized O(log n) relabeling.
	labelDensity = 1.4
)

// NewChain returns an empty chain whose nodes report owner from Node.Owner.
func NewChain(owner any) *Chain {
	return &Chain{owner: owner, buckets: map[indexKey]*bucket{}}
}

// Version returns a number that changes with every change of the chain:
// a node inserted, removed, moved or renamed, or the arguments or the
// target of one of its nodes set (every method that changes a node's
// use-def edges). Node metadata (Meta) is not counted. What is computed
// from a graph's structure can be kept with the version it was computed
// at, and computed again when the version differs.
func (l *Chain) Version() uint64 { return l.version }

// changed bumps the version; every mutation of l or of its nodes calls it.
func (l *Chain) changed() { l.version++ }

// Owner returns the value given to NewChain.
func (l *Chain) Owner() any { return l.owner }

// Len returns the number of nodes.
func (l *Chain) Len() int { return l.n }

// Front returns the first node, or nil.
func (l *Chain) Front() *Node { return l.head }

// Back returns the last node, or nil.
func (l *Chain) Back() *Node { return l.tail }

// All iterates over the nodes in order. Erasing the node being visited, or
// any other, during the iteration is allowed: erased nodes are skipped.
func (l *Chain) All() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for x := l.head; x != nil; {
			if !x.erased && !yield(x) {
				return
			}
			x = x.next
			for x != nil && x.erased {
				x = x.next
			}
		}
	}
}

// Backward iterates over the nodes in reverse order, with the same
// tolerance of erasure as All.
func (l *Chain) Backward() iter.Seq[*Node] {
	return func(yield func(*Node) bool) {
		for x := l.tail; x != nil; {
			if !x.erased && !yield(x) {
				return
			}
			x = x.prev
			for x != nil && x.erased {
				x = x.prev
			}
		}
	}
}

// Contains reports whether n is in l.
func (l *Chain) Contains(n *Node) bool { return n != nil && n.list == l && !n.erased }

// Before reports whether a comes before b; both must be in l.
func (l *Chain) Before(a, b *Node) bool { return a.label < b.label }

// InsertBefore inserts the detached node n before mark, or at the end when
// mark is nil. The nodes n refers to must be in l, and are not checked for
// order (Lint does that).
func (l *Chain) InsertBefore(n, mark *Node) error {
	if mark != nil && !l.Contains(mark) {
		return fmt.Errorf("insert %%%s: insertion point %%%s is not in this graph", n.name, mark.name)
	}
	if mark == nil {
		return l.insert(n, l.tail, nil)
	}
	return l.insert(n, mark.prev, mark)
}

// InsertAfter inserts the detached node n after mark, or at the start when
// mark is nil.
func (l *Chain) InsertAfter(n, mark *Node) error {
	if mark != nil && !l.Contains(mark) {
		return fmt.Errorf("insert %%%s: insertion point %%%s is not in this graph", n.name, mark.name)
	}
	if mark == nil {
		return l.insert(n, nil, l.head)
	}
	return l.insert(n, mark, mark.next)
}

func (l *Chain) insert(n, prev, next *Node) error {
	switch {
	case n == nil:
		return errors.New("insert: nil node")
	case n.erased:
		return fmt.Errorf("insert %%%s: node was erased", n.name)
	case n.list != nil:
		return fmt.Errorf("insert %%%s: node is already in a graph", n.name)
	}
	if err := checkArgs(n.args, n.kwargs, l); err != nil {
		return fmt.Errorf("insert %%%s: %w", n.name, err)
	}
	n.list = l
	l.link(n, prev, next)
	l.n++
	l.index(n)
	n.eachInput(func(x *Node) { x.users.add(n) })
	l.changed()
	return nil
}

// link puts n between prev and next (adjacent live or erased neighbours)
// and gives it a label.
func (l *Chain) link(n, prev, next *Node) {
	// Erased nodes keep their links for iterators; skip them so that
	// labels are compared only between live nodes.
	for prev != nil && prev.erased {
		prev = prev.prev
	}
	for next != nil && next.erased {
		next = next.next
	}
	n.label = l.labelBetween(prev, next)
	n.prev, n.next = prev, next
	if prev != nil {
		prev.next = n
	} else {
		l.head = n
	}
	if next != nil {
		next.prev = n
	} else {
		l.tail = n
	}
}

// unlink takes n out of the chain. n keeps its own links so that an
// iterator standing on it can continue.
func (l *Chain) unlink(n *Node) {
	if n.prev != nil {
		n.prev.next = n.next
	} else {
		l.head = n.next
	}
	if n.next != nil {
		n.next.prev = n.prev
	} else {
		l.tail = n.prev
	}
}

// labelBetween returns a label strictly between prev's and next's (either
// may be nil for the list ends), relabeling neighbours if needed.
func (l *Chain) labelBetween(prev, next *Node) uint64 {
	for {
		lo, hi := uint64(0), labelLimit
		if prev != nil {
			lo = prev.label
		}
		if next != nil {
			hi = next.label
		}
		switch {
		case prev == nil && next == nil:
			return labelStart
		case hi-lo >= 2 && next == nil:
			return lo + min(labelGap, (hi-lo)/2)
		case hi-lo >= 2 && prev == nil:
			return hi - min(labelGap, (hi-lo)/2)
		case hi-lo >= 2:
			return lo + (hi-lo)/2
		}
		if prev != nil {
			l.relabel(prev)
		} else {
			l.relabel(next)
		}
	}
}

// relabel spreads the labels of the smallest aligned label range around
// pivot whose node count is below its density bound, leaving room for one
// more node next to pivot.
func (l *Chain) relabel(pivot *Node) {
	for i := uint(1); i <= 62; i++ {
		size := uint64(1) << i
		lo := pivot.label &^ (size - 1)
		hi := min(lo+size-1, labelLimit-1)
		if lo == 0 {
			lo = 1
		}
		first, last, count := pivot, pivot, uint64(1)
		for first.prev != nil && first.prev.label >= lo {
			first = first.prev
			count++
		}
		for last.next != nil && last.next.label <= hi {
			last = last.next
			count++
		}
		span := hi - lo + 1
		if float64(count+1) > math.Pow(2/labelDensity, float64(i)) || span < 2*(count+2) {
			continue
		}
		step := span / (count + 1)
		label := lo
		for x := first; ; x = x.next {
			label += step
			x.label = label
			if x == last {
				break
			}
		}
		return
	}
	panic("node: label space exhausted (more than 4e9 nodes in one graph)")
}

// Remove erases n from l. n must have no users. Its uses of other nodes
// are dropped (node references in its arguments become None), so that it
// no longer appears among their users.
func (l *Chain) Remove(n *Node) error {
	switch {
	case n == nil:
		return errors.New("erase: nil node")
	case n.erased:
		return fmt.Errorf("erase %%%s: node is already erased", n.name)
	case n.list != l:
		return fmt.Errorf("erase %%%s: node belongs to another graph", n.name)
	}
	if k := n.users.len(); k > 0 {
		return fmt.Errorf("erase %%%s: node still has %d user(s), first %%%s; replace its uses first", n.name, k, n.users.list()[0].name)
	}
	n.eachInput(func(x *Node) { x.users.remove(n) })
	toNone := func(*Node) Arg { return None }
	for i, a := range n.args {
		if _, ok := a.(*Node); ok {
			n.args[i] = None
		} else {
			n.args[i] = MapArg(a, toNone)
		}
	}
	for i := range n.kwargs {
		n.kwargs[i].Value = MapArg(n.kwargs[i].Value, toNone)
	}
	l.unindex(n)
	l.unlink(n)
	l.n--
	n.erased = true
	l.changed()
	return nil
}

// MoveBefore moves n, which must be in l, to just before mark. It fails,
// changing nothing, when n would then come before one of its inputs or
// after one of its users.
func (l *Chain) MoveBefore(n, mark *Node) error {
	if err := l.checkMove(n, mark); err != nil {
		return err
	}
	if mark.prev == n {
		return nil
	}
	for _, in := range n.AllInputNodes() {
		if in.label >= mark.label {
			return fmt.Errorf("move %%%s before %%%s: its input %%%s would come after it", n.name, mark.name, in.name)
		}
	}
	for _, u := range n.users.list() {
		if u.label < mark.label {
			return fmt.Errorf("move %%%s before %%%s: its user %%%s would come before it", n.name, mark.name, u.name)
		}
	}
	l.unlink(n)
	l.link(n, mark.prev, mark)
	l.changed()
	return nil
}

// MoveAfter moves n, which must be in l, to just after mark, with the same
// order checks as MoveBefore.
func (l *Chain) MoveAfter(n, mark *Node) error {
	if err := l.checkMove(n, mark); err != nil {
		return err
	}
	if mark.next == n {
		return nil
	}
	for _, in := range n.AllInputNodes() {
		if in.label > mark.label {
			return fmt.Errorf("move %%%s after %%%s: its input %%%s would come after it", n.name, mark.name, in.name)
		}
	}
	for _, u := range n.users.list() {
		if u.label <= mark.label {
			return fmt.Errorf("move %%%s after %%%s: its user %%%s would come before it", n.name, mark.name, u.name)
		}
	}
	l.unlink(n)
	l.link(n, mark, mark.next)
	l.changed()
	return nil
}

func (l *Chain) checkMove(n, mark *Node) error {
	switch {
	case n == nil || mark == nil:
		return errors.New("move: nil node")
	case !l.Contains(n):
		return fmt.Errorf("move %%%s: node is not in this graph", n.name)
	case !l.Contains(mark):
		return fmt.Errorf("move %%%s: anchor %%%s is not in this graph", n.name, mark.name)
	case n == mark:
		return fmt.Errorf("move %%%s: cannot move a node relative to itself", n.name)
	}
	return nil
}

// SetName sets n's name. Uniqueness is the caller's business (package
// graph keeps a namespace).
func (l *Chain) SetName(n *Node, name string) {
	n.name = name
	l.changed()
}

// bucketFor returns the bucket of key k, creating it if asked.
func (l *Chain) bucketFor(k indexKey, create bool) *bucket {
	for i := range l.recent {
		if r := &l.recent[i]; r.b != nil && r.key == k {
			if i > 0 {
				hit := *r
				copy(l.recent[1:i+1], l.recent[:i])
				l.recent[0] = hit
			}
			return l.recent[0].b
		}
	}
	b := l.buckets[k]
	if b == nil {
		if !create {
			return nil
		}
		b = &bucket{}
		l.buckets[k] = b
	}
	copy(l.recent[1:], l.recent[:len(l.recent)-1])
	l.recent[0] = recentBucket{k, b}
	return b
}

func (l *Chain) index(n *Node) {
	b := l.bucketFor(indexKey{n.op, n.target.String()}, true)
	n.slot = len(b.nodes)
	b.nodes = append(b.nodes, n)
}

func (l *Chain) unindex(n *Node) {
	k := indexKey{n.op, n.target.String()}
	b := l.bucketFor(k, false)
	b.nodes[n.slot] = nil
	b.dead++
	if b.dead == len(b.nodes) {
		delete(l.buckets, k)
		for i := range l.recent {
			if l.recent[i].b == b {
				l.recent[i] = recentBucket{}
			}
		}
		return
	}
	if b.dead > 16 && b.dead*2 > len(b.nodes) {
		live := b.nodes[:0]
		for _, x := range b.nodes {
			if x != nil {
				x.slot = len(live)
				live = append(live, x)
			}
		}
		clear(b.nodes[len(live):])
		b.nodes = live
		b.dead = 0
	}
}

// Find returns the nodes with opcode op and the given target (compared by
// String form), or with any target when target is nil, in list order. It
// costs O(k log k) for k results, independent of the list's length.
func (l *Chain) Find(op Opcode, target Target) []*Node {
	var out []*Node
	collect := func(b *bucket) {
		for _, x := range b.nodes {
			if x != nil {
				out = append(out, x)
			}
		}
	}
	if target != nil {
		if b := l.buckets[indexKey{op, target.String()}]; b != nil {
			collect(b)
		}
	} else {
		for k, b := range l.buckets {
			if k.op == op {
				collect(b)
			}
		}
	}
	slices.SortFunc(out, func(a, b *Node) int {
		switch {
		case a.label < b.label:
			return -1
		case a.label > b.label:
			return 1
		}
		return 0
	})
	return out
}

// checkInputs checks that each distinct input of x is a live node of l that
// lists x among its users, and returns how many distinct inputs x has.
func checkInputs(x *Node, l *Chain) (int, error) {
	var buf [8]*Node
	seen := buf[:0]
	var many map[*Node]bool
	distinct := 0
	var err error
	x.eachInput(func(in *Node) {
		if err != nil {
			return
		}
		if many != nil {
			if many[in] {
				return
			}
			many[in] = true
		} else {
			for _, y := range seen {
				if y == in {
					return
				}
			}
			if len(seen) < len(buf) {
				seen = append(seen, in)
			} else {
				many = make(map[*Node]bool, 2*len(buf))
				for _, y := range seen {
					many[y] = true
				}
				many[in] = true
			}
		}
		distinct++
		switch {
		case in.erased || in.list != l:
			err = fmt.Errorf("node %%%s: uses %%%s, which is not in this graph", x.name, in.name)
		case !in.users.has(x):
			err = fmt.Errorf("node %%%s: uses %%%s but is missing from its users", x.name, in.name)
		}
	})
	return distinct, err
}

// Check verifies the list's internal invariants: links, labels, ownership,
// the index, and use-def edges in both directions. It returns an error that
// names the first offending node.
func (l *Chain) Check() error {
	count, edges, users := 0, 0, 0
	var prev *Node
	for x := l.head; x != nil; x = x.next {
		count++
		if count > l.n {
			return fmt.Errorf("list holds more nodes than its count %d (a cycle?)", l.n)
		}
		switch {
		case x.erased:
			return fmt.Errorf("node %%%s: erased but still linked", x.name)
		case x.list != l:
			return fmt.Errorf("node %%%s: owned by another graph", x.name)
		case x.prev != prev:
			return fmt.Errorf("node %%%s: broken back link", x.name)
		case prev != nil && prev.label >= x.label:
			return fmt.Errorf("node %%%s: order label not above that of %%%s", x.name, prev.name)
		}
		b := l.bucketFor(indexKey{x.op, x.target.String()}, false)
		if b == nil || x.slot >= len(b.nodes) || b.nodes[x.slot] != x {
			return fmt.Errorf("node %%%s: missing from the (opcode, target) index", x.name)
		}
		distinct, err := checkInputs(x, l)
		if err != nil {
			return err
		}
		edges += distinct
		if err := x.users.check(); err != nil {
			return fmt.Errorf("node %%%s: %v", x.name, err)
		}
		users += x.users.len()
		for _, u := range x.users.s {
			if u != nil && (u.erased || u.list != l) {
				return fmt.Errorf("node %%%s: user %%%s is not in this graph", x.name, u.name)
			}
		}
		prev = x
	}
	if prev != l.tail {
		return errors.New("list tail does not match its last node")
	}
	// Every input edge is in its input's user set, user sets hold no
	// duplicates, so equal totals mean user sets hold nothing else. Only
	// when they differ, search for the user that does not use its input.
	if edges != users {
		for x := l.head; x != nil; x = x.next {
			for _, u := range x.users.list() {
				if !u.Uses(x) {
					return fmt.Errorf("node %%%s: lists %%%s as a user, but %%%s does not use it", x.name, u.name, u.name)
				}
			}
		}
		return fmt.Errorf("use-def edges: %d input edges but %d users", edges, users)
	}
	if count != l.n {
		return fmt.Errorf("list count %d, but %d nodes are linked", l.n, count)
	}
	indexed := 0
	for _, b := range l.buckets {
		indexed += len(b.nodes) - b.dead
	}
	if indexed != l.n {
		return fmt.Errorf("(opcode, target) index holds %d nodes, the list %d", indexed, l.n)
	}
	return nil
}
