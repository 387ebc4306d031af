package sym

import "fmt"

// Rel is a comparison relation.
type Rel int

// The relations of a Cond.
const (
	EQ Rel = iota // ==
	NE            // !=
	LT            // <
	LE            // <=
	GT            // >
	GE            // >=
)

var relText = [...]string{EQ: "==", NE: "!=", LT: "<", LE: "<=", GT: ">", GE: ">="}

// String returns the Go operator of r ("==", "<", ...).
func (r Rel) String() string {
	if r < EQ || r > GE {
		return fmt.Sprintf("Rel(%d)", int(r))
	}
	return relText[r]
}

// negate returns the relation that holds exactly when r does not.
func (r Rel) negate() Rel {
	return [...]Rel{EQ: NE, NE: EQ, LT: GE, LE: GT, GT: LE, GE: LT}[r]
}

// holds evaluates "v r 0".
func (r Rel) holds(v int64) bool {
	switch r {
	case EQ:
		return v == 0
	case NE:
		return v != 0
	case LT:
		return v < 0
	case LE:
		return v <= 0
	case GT:
		return v > 0
	default:
		return v >= 0
	}
}

// Cond is the comparison L Rel R of two expressions.
type Cond struct {
	Rel  Rel
	L, R Expr
}

// Eq returns the condition a == b.
func Eq(a, b Expr) Cond { return Cond{EQ, a, b} }

// Ne returns the condition a != b.
func Ne(a, b Expr) Cond { return Cond{NE, a, b} }

// Lt returns the condition a < b.
func Lt(a, b Expr) Cond { return Cond{LT, a, b} }

// Le returns the condition a <= b.
func Le(a, b Expr) Cond { return Cond{LE, a, b} }

// Gt returns the condition a > b.
func Gt(a, b Expr) Cond { return Cond{GT, a, b} }

// Ge returns the condition a >= b.
func Ge(a, b Expr) Cond { return Cond{GE, a, b} }

// Not returns the negation of c (Eq <-> Ne, Lt <-> Ge, Le <-> Gt).
func (c Cond) Not() Cond { return Cond{c.Rel.negate(), c.L, c.R} }

// String prints c as PyTorch prints guards: equalities as "Eq(s0, s1)" and "Ne(s0, 1)",
// orderings infix as "s0 >= 2" and "s0 < s1".
func (c Cond) String() string {
	switch c.Rel {
	case EQ:
		return "Eq(" + c.L.String() + ", " + c.R.String() + ")"
	case NE:
		return "Ne(" + c.L.String() + ", " + c.R.String() + ")"
	}
	return c.L.String() + " " + c.Rel.String() + " " + c.R.String()
}

// Eval evaluates c for the given symbol values.
func (c Cond) Eval(values map[*Symbol]int64) (bool, error) {
	if c.Rel < EQ || c.Rel > GE {
		return false, fmt.Errorf("sym: condition with invalid relation %v", c.Rel)
	}
	v, err := c.L.Sub(c.R).Eval(values)
	if err != nil {
		return false, err
	}
	return c.Rel.holds(v), nil
}

// Guard is a condition the program relied on, true for the example values (the hints), and
// where in the user's program it was taken.
type Guard struct {
	Cond  Cond
	Where string
}

// String prints "cond (at where)".
func (g Guard) String() string {
	if g.Where == "" {
		return g.Cond.String()
	}
	return g.Cond.String() + " (at " + g.Where + ")"
}

// DataDependentError reports a condition on an unbacked symbol (a data-dependent size) that
// the known ranges and facts cannot decide, so there is no example value to guard on.
type DataDependentError struct {
	Cond  Cond
	Where string
	// Unbacked lists the unbacked symbols of the condition with their ranges, for the message.
	Unbacked []string
}

// Error names the condition, the location and the way out.
func (e *DataDependentError) Error() string {
	msg := "sym: could not guard on data-dependent expression " + e.Cond.String()
	if e.Where != "" {
		msg += " at " + e.Where
	}
	if len(e.Unbacked) > 0 {
		msg += " (unbacked symbols: "
		for i, u := range e.Unbacked {
			if i > 0 {
				msg += ", "
			}
			msg += u
		}
		msg += ")"
	}
	return msg + "; state what is known with Env.Check (torch._check) or Env.ConstrainAsSize " +
		"(torch._constrain_as_size), or avoid branching on the value"
}
