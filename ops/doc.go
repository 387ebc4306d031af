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
// Global is the registry of every operator schema of PyTorch 1.13 (aten),
// 2.6 and 2.14 (every namespace of their JIT registries), loaded on first
// use from the embedded lists in schemas/: all_schemas_1.13.txt, and
// versions_2.x.txt, which gen_versions.py (go generate) writes from
// ../shared/aten/registry_schemas_{2.6,2.14}.txt with only the schemas
// 1.13 lacks, and quantized_decomposed.txt, the quantize/dequantize
// operators PyTorch 2.6 defines in Python (gen_quantized_decomposed.py, run
// with ../shared/tools/torch2), and gofx.txt, gofx's own operators (the
// fused epilogues gofx::convolution_relu, addmm_relu, ... that
// passes.FuseEpilogues creates; kernels in kernels/fused.go). An operator whose schema changed keeps its history
// (Operator.Schemas): its Schema is the newest, and Bind binds a call to
// the newest schema that accepts it, so that a program saved by 2.6 runs
// although 2.14 added an argument, renamed one, or dropped one. Tags: core
// or composite (schemas/core_schemas.txt), pointwise, inplace, view and
// mutable from the alias annotations, random, and effectful for the
// runtime assertions of 2.x graphs (_assert_scalar,
// sym_constrain_range_for_size), which dead-code elimination keeps.
//
// A Python number given for a Tensor parameter (aten.mul.Tensor(x, 0.5),
// as torch.export records x * 0.5) is bound as PyTorch's argument parser
// binds it: a 0-d tensor of the number's kind marked as a wrapped number
// (tensor.Tensor.WrappedNumber), which ResultType treats as a number, so
// the call keeps its overload and computes PyTorch's dtype.
//
// Registry.LookupQualified resolves an operator by the name .pt2 files
// write ("torch.ops.aten.conv2d.default"), with an error naming an unknown
// one; node.LookupTarget builds on it for every call_function target.
//
// Package ops sits below package node: it does not import it. Operators
// implement node.Function structurally.
//
// A custom operator's meta function whose result size depends on the data
// asks for it with Call.NewDynamicSize (torch.library's
// ctx.new_dynamic_size); an exporter runs the meta function through
// Operator.CallMeta with a DynamicSizer that makes each such size an
// unbacked symbol. Elsewhere the call fails with ErrDataDependent.
package ops
