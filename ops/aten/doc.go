// Package aten holds a Go handle for every ATen operator overload of the
// core opset, of the conformance set and of the PyTorch 2.x programs of
// ../shared/pt2: package-level *ops.Operator variables, so that code
// refers to aten.AddTensor rather than looking up "aten::add.Tensor" by
// name and handling a failure that cannot happen.
//
// The handles are generated from ops/schemas/core_schemas.txt, the schemas
// of PyTorch 1.13, 2.6 and 2.14 (ops/schemas/all_schemas_1.13.txt and
// versions_2.x.txt; a doc comment shows the newest schema), the
// conformance list conformance_ops.txt and the list of the operators the
// 2.x programs call, program_ops.txt; each is the operator of ops.Global()
// with the same qualified name. Go names are the CamelCase of the operator name's
// snake_case parts followed by that of the overload, nothing for the
// default overload:
//
//	aten::relu                     Relu
//	aten::add.Tensor               AddTensor
//	aten::sum.dim_IntList          SumDimIntList
//	aten::max_pool2d_with_indices  MaxPool2dWithIndices
//	aten::_softmax                 InternalSoftmax   (leading underscore)
//	aten::resize_                  ResizeInplace     (trailing underscore: in place)
//
// Each handle's doc comment shows its schema. After editing a schema file,
// conformance_ops.txt or program_ops.txt, regenerate aten.go from the repository root with
//
//	go generate ./ops/aten
//
// The package's tests fail while the committed file is stale.
package aten

//go:generate go run ./internal/gen
