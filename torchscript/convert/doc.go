// Package convert turns a TorchScript module (package torchscript: a
// torch.jit.save archive, scripted or traced) into an
// export.ExportedProgram, the form every gofx pass, package decomp and
// the .pt2 writer (package pt2) take: TorchScript's migration path to
// torch.export.
//
//	m, err := torchscript.Load("model.pt")
//	ep, err := convert.Convert(m, []any{x}) // x: an example input
//	err = pt2.Write("model.pt2", ep, pt2.SaveOptions{})
//
// Convert drives export.Export, as a Go model would, with a module that
// stands for the TorchScript object tree: each module object becomes an
// nn.Module whose parameters and buffers are registered under their
// TorchScript names (so the program lifts them as torch.export does:
// p_fc_weight, b_bn_running_mean; other tensor constants become lifted
// constants), and whose Forward evaluates the method's IR graph on
// export's proxies. Going through export's recorder (gofx has one
// recorder of nodes, package internal/record) rather than building the
// graph by hand keeps one policy for everything a program must be: core
// ATen through the decomposition table, fake values and shapes, the
// signature, the pytree specs, cond's subgraphs and operand lifting.
//
// The evaluation:
//
//   - Method and function calls (prim::CallMethod, prim::CallFunction)
//     are inlined: the callee's graph is evaluated in place.
//   - Nodes whose inputs are all concrete (ints, strings, lists of ints,
//     constant tensors, module objects) run on the TorchScript
//     interpreter (package runtime): sizes, list and dict operations,
//     arithmetic on ints are computed, not recorded.
//   - Operators on traced tensors are recorded through nn.Apply with the
//     overload TorchScript chose (aten::_convolution of traced archives as
//     aten::convolution); size, dim and numel read the traced tensor's
//     shape.
//   - prim::If on a known bool evaluates its branch only; on tensor data
//     (bool(x.max() > y.max())) it becomes functional.Cond, recorded as
//     torch.ops.higher_order.cond with true_graph_0/false_graph_0, the
//     traced values both branches read as its operands. Its outputs must
//     be tensors.
//   - prim::Loop whose trip count and condition are known (for over
//     range(n), over x.size(0) with a static size, a while on ints) is
//     unrolled, list-building loops (outs.append(...)) included: the list
//     is a value of the evaluation, not of the program.
//   - A while loop on tensor data (while bool(x.sum() < 100): ...) whose
//     carried values are tensors and which does not read its iteration
//     number becomes functional.WhileLoop (higher_order.while_loop): the
//     condition tensor is carried first, the traced values the body reads
//     are its additional inputs. (PyTorch 2.6 saves such programs but
//     cannot run them; gofx runs them.)
//   - Enums are concrete values: compared, passed and read (.value,
//     .name) on the interpreter.
//   - A with statement's prim::Enter and prim::Exit inline the object's
//     __enter__ and __exit__(None, None, None) (torch.no_grad() included);
//     the attributes of objects the program created (prim::CreateObject:
//     a context manager) may be written, the module's state may not.
//   - torch.jit.fork's prim::fork is inlined where it is (its subgraph
//     evaluated as a call) into a Future, and aten::wait gives back its
//     value: the program records the forked call's operators in order.
//   - Non-tensor inputs (ints, strings) are specialized, as torch.export
//     specializes them: the program holds their example values and
//     refuses others.
//
// Every node of the program carries, as its stack_trace, the traceback
// torch.export records from Python code: a frame ("  File \"m.py\", line
// 7, in forward" and the line's code) for each inlined call site, then the
// TorchScript node's own, in the user's original Python source as the
// archive's debug_pkl records it (the serialized code's line where the
// archive records no original range, as PyTorch prints it). Errors and
// printed programs thus point to the model's code.
//
// What is not functional is refused with an *Error that names the archive
// (File), the node's kind and its source range (the original file:line:col
// and, in parentheses, the archive's code position), and
// wraps ErrNotFunctional: attribute writes (prim::SetAttr) to objects
// the program did not create (the module's state), loops on
// tensor data that carry non-tensors (an int counter), read their
// iteration number or have a trip count, an if on tensor data that
// yields a non-tensor (a break out of a loop), Python values read from
// tensors (int(t), t.item()), forward hooks. Traced archives hold none of these
// and always convert.
package convert
