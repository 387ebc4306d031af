package node

import "fmt"

// smallUsers is the size past which a userSet keeps a position index, so
// that removing one of many users costs O(1) instead of a scan.
const smallUsers = 8

// userSet is the set of a node's users in insertion order.
//
// Small sets are a plain slice. Large sets also keep a map from user to
// position; removals leave nil holes that are compacted when they make up
// half the slice.
type userSet struct {
	s    []*Node
	idx  map[*Node]int
	dead int
}

func (u *userSet) len() int { return len(u.s) - u.dead }

func (u *userSet) has(n *Node) bool {
	if u.idx != nil {
		_, ok := u.idx[n]
		return ok
	}
	for _, x := range u.s {
		if x == n {
			return true
		}
	}
	return false
}

func (u *userSet) add(n *Node) {
	if u.has(n) {
		return
	}
	u.s = append(u.s, n)
	if u.idx != nil {
		u.idx[n] = len(u.s) - 1
	} else if len(u.s) > smallUsers {
		u.buildIndex()
	}
}

func (u *userSet) buildIndex() {
	u.idx = make(map[*Node]int, len(u.s))
	for i, x := range u.s {
		if x != nil {
			u.idx[x] = i
		}
	}
}

func (u *userSet) remove(n *Node) {
	if u.idx == nil {
		for i, x := range u.s {
			if x == n {
				copy(u.s[i:], u.s[i+1:])
				u.s[len(u.s)-1] = nil
				u.s = u.s[:len(u.s)-1]
				return
			}
		}
		return
	}
	i, ok := u.idx[n]
	if !ok {
		return
	}
	delete(u.idx, n)
	u.s[i] = nil
	u.dead++
	if u.dead*2 > len(u.s) {
		live := u.s[:0]
		for _, x := range u.s {
			if x != nil {
				live = append(live, x)
			}
		}
		clear(u.s[len(live):])
		u.s = live
		u.dead = 0
		if len(u.s) > smallUsers {
			u.buildIndex()
		} else {
			u.idx = nil
		}
	}
}

// list returns the users in insertion order, in a new slice.
func (u *userSet) list() []*Node {
	out := make([]*Node, 0, u.len())
	for _, x := range u.s {
		if x != nil {
			out = append(out, x)
		}
	}
	return out
}

// check verifies the set's own invariants: no duplicates, and a position
// index that matches the slice.
func (u *userSet) check() error {
	if u.idx == nil {
		for i, x := range u.s {
			if x == nil {
				return fmt.Errorf("user list has a hole without an index")
			}
			for _, y := range u.s[:i] {
				if y == x {
					return fmt.Errorf("user %%%s listed twice", x.name)
				}
			}
		}
		return nil
	}
	live := 0
	for i, x := range u.s {
		if x == nil {
			continue
		}
		live++
		if j, ok := u.idx[x]; !ok || j != i {
			return fmt.Errorf("user %%%s: position index out of date", x.name)
		}
	}
	if live != len(u.idx) || live != u.len() {
		return fmt.Errorf("user set counts disagree (%d listed, %d indexed, %d counted)", live, len(u.idx), u.len())
	}
	return nil
}
