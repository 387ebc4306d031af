// Package ops is gofx's operator layer: ATen operator schemas and, as later
// milestones land, the registry of operators, overload resolution, tags,
// type promotion and the single dispatch point every operator call goes
// through.
//
// Today it parses ATen schema strings, the declarations every operator is
// made from:
//
//	aten::add.Tensor(Tensor self, Tensor other, *, Scalar alpha=1) -> Tensor
//
// ParseSchema covers the whole grammar PyTorch 1.13 prints (overload names,
// keyword-only arguments, defaults, optional and list types with fixed
// sizes, alias annotations, parametric and tuple types, varargs, several
// and named returns), and Schema.String prints a schema back exactly as
// PyTorch does: every schema of PyTorch 1.13 round-trips byte for byte.
//
// Package ops sits below package node: it does not import it. Operators
// implement node.Function structurally.
package ops
