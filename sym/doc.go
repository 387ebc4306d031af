// Package sym implements symbolic integers for shape reasoning, after PyTorch's ShapeEnv and
// SymInt (torch/fx/experimental/symbolic_shapes.py).
//
// # Expressions
//
// An Expr is an integer expression in canonical form: a polynomial with int64 coefficients
// over atoms. An atom is a Symbol or a FloorDiv, Mod, Min or Max term that does not simplify
// further, whose arguments are canonical expressions themselves. Add, Sub, Mul and Neg
// collect like terms and distribute products; FloorDiv, Mod (Python's semantics: // rounds
// toward negative infinity, % has the sign of the divisor), Min and Max fold constants and
// apply the structural rules documented on each (x // 1 = x, (k*a + b) // k = a + b // k,
// x % 1 = 0, Min(a, a) = a, ...). Two expressions are equal as polynomials exactly when
// Equal says so, and String prints them as PyTorch does ("2*s0 - 3", "(s0//2)",
// "Mod(s0, 4)", "Max(1, s0)").
//
// # Symbols, ranges and the Env
//
// An Env (PyTorch's ShapeEnv) creates symbols and keeps what is known about them. A backed
// symbol (NewSymbol) stands for a dimension of an example input: it has an example value, its
// hint. An unbacked symbol (NewUnbacked, named u0, u1, ...) stands for a size that depends on
// data, such as the length of nonzero's output, and has no hint. Every symbol has a value
// Range, an inclusive interval whose ends may be unbounded (Inf, NegInf, printed int_oo).
// An exporter gives one to each value model code reads from tensor data (Tensor.item(),
// nonzero's length, a custom operator's NewDynamicSize); Check, ConstrainAsSize and Constrain
// narrow its range (torch._check, torch._check_is_size), and the exported program asserts the
// final range at run time (package export). An unbacked float symbol (NewUnbackedFloat,
// named zuf0, zuf1, ...; Symbol.IsFloat, Expr.IsFloat) stands for the item() of a floating
// tensor, as PyTorch's unbacked SymFloat: an opaque atom with the Full range, which Srepr
// writes as Symbol('zuf0') and which is never decided or narrowed (gofx has no float
// arithmetic; an exporter refuses it).
//
// # Deciding conditions and guards
//
// When a program branches on a symbolic condition, Env.Decide answers it. If the ranges, the
// recorded equalities and the facts learned so far give the same answer for every allowed
// value, that answer is returned and nothing is recorded: the program is valid for every
// input. Otherwise the condition is evaluated at the hints and the outcome becomes a Guard:
// the program traced is only valid for inputs satisfying it, and an exporter reports or
// checks it. Decide learns from the outcome, so the same question is settled statically the
// next time: Eq(s0, s1) replaces s1 by s0 everywhere (Simplify), Eq(s0, 32) specializes s0,
// s0 >= 10 narrows the range of s0. A condition on an unbacked symbol that the ranges cannot
// settle has no hint to fall back on: Decide returns a *DataDependentError, and the user
// states what is known with Env.Check (torch._check) or Env.ConstrainAsSize
// (torch._constrain_as_size).
//
// # Reading PyTorch's expressions
//
// ParseSympy and ParseSympyCond read the sympy expressions and relations that torch.export
// writes into .pt2 files (sympy's srepr form, "Mul(Integer(2), Symbol('s0', positive=True,
// integer=True))", and its str form, "2*s0"), with PyTorch's integer functions (FloorDiv,
// Mod, CeilDiv, ModularIndexing, Max, Min, ...); NewUnbackedNamed creates the unbacked
// symbols a file names.
//
// # Limits
//
// The canonical form is canonical for polynomials; for the atoms it applies the rules above
// and no more, so two expressions equal for all values may still differ (as in sympy,
// (s0 + 5)//4 keeps its constant inside and is not rewritten to 1 + (s0 + 1)//4; nested Max
// terms are not flattened). Env.Simplify and Env.Range add what the ranges prove. A decision
// is exact for what it settles statically; conditions it cannot settle become guards, which
// is always sound. Coefficients are int64 and wrap on overflow; Eval reports overflow.
//
// Expressions are immutable values safe for concurrent use; an Env is for one goroutine at a
// time.
package sym
