// Package cookbook is a set of short, runnable recipes for people who know
// torch.fx: each shows one common graph transformation written with gofx.
//
// The package holds no API. Every recipe is a runnable Example in a file
// named example_*_test.go: `go doc -all` and pkg.go.dev show it with its
// output, and `go test ./cookbook/` runs it and checks the output, so the
// recipes cannot drift from the library. Each file starts with a comment
// saying what the recipe teaches and the torch.fx code it corresponds to;
// read that comment, then the Example function, top to bottom. Inputs are
// fixed tensors, so every printed number is reproducible; the numbers and
// shapes the recipes print are the ones PyTorch 1.13 computes for the same
// models and inputs (testdata/torch_reference.py recomputes them); the
// control-flow recipes', which need torch.cond, while_loop and map, are
// PyTorch 2.6's (testdata/torch_reference_2x.py, which also prints the
// programs torch.export makes of the same models).
//
// # Recipes
//
//   - Example_replaceOneOp (example_replace_op_test.go): trace a module,
//     loop over its nodes and change aten add.Tensor into mul.Tensor with
//     SetTarget; lint and run. torch.fx: "Replace one op".
//   - Example_insertNode (example_insert_node_test.go): insert a relu after
//     every add at an insertion point and reroute the add's users to it with
//     ReplaceAllUsesWith. torch.fx: inserting_after and
//     replace_all_uses_with.
//   - Example_invert (example_invert_test.go): build a new graph by walking
//     a traced one backwards, each operator replaced by its inverse (exp and
//     log, tan and atan, ...); inverse(f(x)) gives x back. torch.fx: "Invert
//     Transformation".
//   - Example_interpreter (example_interpreter_test.go): an Interpreter
//     whose RunNode override records every tensor's shape and range, as a
//     quantization observer does. torch.fx: subclassing Interpreter.
//   - Example_shapePropagation (example_shapeprop_test.go): annotate every
//     node with its dtype and shape, concrete (shapeprop.Propagate, torch.fx's
//     ShapeProp) and with a symbolic batch (shapeprop.FakeProp).
//   - Example_decomposeWithProxies and Example_decomposeToCore
//     (example_decompose_test.go): relu(x) rewritten as (x > 0) * x by
//     running plain Go code on proxies, once from a Transformer and once as a
//     custom rule added to decomp.Core() for decomp.Decompose, with
//     decomp.Verify checking the result is core ATen. torch.fx: "Proxy/
//     Retracing".
//   - Example_leafModules (example_leaf_test.go): fx.Tracer's IsLeaf keeps
//     a user module as one call_module node, or traces through nn.Linear;
//     the three graphs printed side by side. torch.fx: "Leaf Modules",
//     Tracer.is_leaf_module.
//   - Example_exportDynamicBatch (example_export_test.go): export.Export
//     with a dynamic batch (export.Dim), the printed ExportedProgram, Run on
//     another batch size, the error for one outside the range, and Module.
//     torch.export: export with dynamic_shapes.
//   - Example_replacePattern (example_replace_pattern_test.go): pattern.Replace
//     with a pattern and a replacement written as Go functions, sum(cat([a,
//     b])) becoming sum(a) + sum(b); pattern.Explain says why a candidate
//     whose interior is used elsewhere was left alone. torch.fx:
//     replace_pattern.
//   - Example_fuseConvBN (example_fuse_conv_bn_test.go): passes.FuseConvBN
//     folds an eval-mode BatchNorm2d into the Conv2d feeding it in a traced
//     GraphModule (the bn call_module disappears), and
//     ep.Transform(passes.FoldConvBN) does the same on an exported program
//     in core ATen (no batch-norm operator left); outputs stay within 1e-6
//     of eager.
//     torch.fx: torch.fx.experimental.optimization.fuse.
//   - Example_quantizeLinear (example_quantize_test.go): pattern.ReplaceFunc
//     wraps every linear's input and weight in a fake quantization to int8
//     (quantize, then dequantize, in core operators), with each weight's
//     scale read from the matched weight; FoldConstants stores the quantized
//     weights once; the output moves by about 1e-4. torch.fx:
//     replace_pattern with fake_quantize_per_tensor_affine.
//   - Example_passManager (example_pass_test.go): a passes.Pass that
//     rewrites relu6 as hardtanh, and a checking pass that Requires it, run
//     with passes.DCE by a Manager whose report is printed as a table; a
//     pipeline in the wrong order is refused. torch.fx:
//     torch.fx.passes.infra.pass_manager.PassManager.
//   - Example_cond (example_cond_test.go): the seed's M_old/M_new: a Go if
//     on tensor data is refused by export with the Go line and a pointer to
//     functional.Cond; written with functional.Cond, the program holds both
//     branches as subgraphs (true_graph_0, false_graph_0) and runs the one
//     the data picks. torch.export: torch.cond.
//   - Example_whileLoop (example_while_loop_test.go): functional.WhileLoop
//     halves a tensor until it is small, counting the halvings; the
//     exported program loops as many times as each input needs (0, 3, 7).
//     torch.export: while_loop.
//   - Example_map (example_map_test.go): functional.Map applies a row
//     function with a parameter and an extra input to every row, recorded
//     as map_impl with a body graph; the same numbers as the whole-matrix
//     computation. torch.export: torch's map (map_impl).
//   - Example_traceCheck (example_trace_check_test.go): the seed's
//     "Automatic Trace Checking": a Go loop over x.Size(0) is unrolled by
//     the trace; export.CheckInputs traces again on inputs of other sizes
//     and reports the graph diff, the first diverging node and the first
//     differing output; a dynamic dimension makes Export refuse the same
//     loop with its guard. torch.jit: trace with check_inputs.
package cookbook
