package sym

// The canonical order. Constants sort before every other expression; terms of a sum sort by
// total degree, highest first, then by their atoms; atoms sort symbols first (in creation
// order), then FloorDiv, Mod, Min, Max, each by its arguments.

func cmpInt(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// compareExpr orders canonical expressions; 0 means equal.
func compareExpr(a, b Expr) int {
	if c := cmpInt(int64(len(a.terms)), int64(len(b.terms))); c != 0 {
		return c
	}
	for i := range a.terms {
		if c := compareMono(a.terms[i].m, b.terms[i].m); c != 0 {
			return c
		}
		if c := cmpInt(a.terms[i].c, b.terms[i].c); c != 0 {
			return c
		}
	}
	return cmpInt(a.k, b.k)
}

func degree(m mono) int64 {
	var d int64
	for _, f := range m {
		d += f.p
	}
	return d
}

// compareMono orders monomials: higher total degree first, then lexicographically by atom
// and (higher) power.
func compareMono(a, b mono) int {
	if len(a) == 1 && len(b) == 1 && a[0].p == 1 && b[0].p == 1 {
		return compareAtom(a[0].a, b[0].a)
	}
	if c := cmpInt(degree(b), degree(a)); c != 0 {
		return c
	}
	for i := 0; i < len(a) && i < len(b); i++ {
		if c := compareAtom(a[i].a, b[i].a); c != 0 {
			return c
		}
		if c := cmpInt(b[i].p, a[i].p); c != 0 {
			return c
		}
	}
	return cmpInt(int64(len(a)), int64(len(b)))
}

// compareAtom orders atoms; 0 means structurally equal.
func compareAtom(a, b *atom) int {
	if a == b {
		return 0
	}
	if c := cmpInt(int64(a.op), int64(b.op)); c != 0 {
		return c
	}
	if a.op == opSym {
		return cmpInt(a.sym.id, b.sym.id)
	}
	if c := compareExpr(a.x, b.x); c != 0 {
		return c
	}
	return compareExpr(a.y, b.y)
}

// Hashing (FNV-style mixing), structural: equal expressions hash equally.

const (
	hashPrime  = 1099511628211
	hashOffset = 14695981039346656037
)

func mix(h, v uint64) uint64 {
	h ^= v
	h *= hashPrime
	h ^= h >> 29
	return h
}

// hash returns a structural hash of e.
func (e Expr) hash() uint64 {
	h := mix(hashOffset, uint64(e.k))
	for _, t := range e.terms {
		h = mix(h, uint64(t.c))
		for _, f := range t.m {
			h = mix(h, f.a.h)
			h = mix(h, uint64(f.p))
		}
		h = mix(h, 0x9e3779b97f4a7c15)
	}
	return h
}

// newAtom makes a FloorDiv/Mod/Min/Max atom over canonical arguments, without simplifying.
func newAtom(op atomOp, x, y Expr) *atom {
	h := mix(mix(mix(hashOffset, uint64(op)+1), x.hash()), y.hash())
	return &atom{op: op, x: x, y: y, h: h}
}
