// Package aten holds a Go handle for every ATen operator overload of the
// core opset and of the conformance set: package-level *ops.Operator
// variables, so that code refers to aten.AddTensor rather than looking up
// "aten::add.Tensor" by name and handling a failure that cannot happen.
//
// The handles are generated from ops/schemas/core_schemas.txt, PyTorch
// 1.13's schemas (ops/schemas/all_schemas_1.13.txt) and the conformance
// list conformance_ops.txt; each is the operator of ops.Global() with the
// same qualified name. Go names are the CamelCase of the operator name's
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
// Each handle's doc comment shows its schema. After editing a schema file
// or conformance_ops.txt, regenerate aten.go from the repository root with
//
//	go generate ./ops/aten
//
// The package's tests fail while the committed file is stale.
package aten

//go:generate go run ./internal/gen
